//! `inclusive_scan` and `exclusive_scan`: prefix reductions in rank order.
//!
//! * Lanes of one warp: Hillis–Steele over `shfl.sync.up` (`log2(width)`
//!   steps), which stays exact for partial segments because every source is
//!   a lower rank; coalesced groups find the source lane with `fns`.
//! * Multi-warp groups and the block: warp scans, warp totals through the
//!   shared scratch, each warp folds the totals of the warps before it.
//!   64-thread tiles on the software barrier, one-word values: the first
//!   warp's total goes to the second in one handshake.
//! * The block, 32-bit values: the raking scan of [`rake`](super::block::rake)
//!   for 64, 128 and 256 threads (one warp shuffles); other sizes scan
//!   warp totals lane-parallel in one warp.
//!
//! `exclusive_scan` gives the thread of rank 0 the operator's identity
//! ([`ReduceOp::identity`]: 0 for `Plus`, `MAX` for `Less`, …); CUDA leaves
//! that value to the implementation.

use super::block::rake;
use super::block::scan::multi_scan;
use super::warp::scan::{coal_exclusive, coal_inclusive, seg_exclusive, seg_inclusive};
use crate::group::ThreadGroup;
use crate::group::shape::Shape;
use crate::ops::ReduceOp;
use crate::value::ShflValue;

/// Inclusive scan over any shape.
#[inline(always)]
#[track_caller]
pub(crate) fn inclusive<T: ShflValue, Op: ReduceOp<T>>(shape: Shape, v: T, op: Op) -> T {
    match shape {
        Shape::Seg(s) => seg_inclusive::<T, Op>(s.with_active_lanes(), v, op),
        Shape::Coal(c) => coal_inclusive::<T, Op>(c, v, op),
        Shape::Multi(m) if rake::serves::<T>(&m) => rake::block_scan::<T, Op, true>(m, v, op),
        Shape::Multi(m) => multi_scan::<T, Op, true>(m, v, op),
    }
}

/// Exclusive scan over any shape.
#[inline(always)]
#[track_caller]
pub(crate) fn exclusive<T: ShflValue, Op: ReduceOp<T>>(shape: Shape, v: T, op: Op) -> T {
    match shape {
        Shape::Seg(s) => seg_exclusive::<T, Op>(s.with_active_lanes(), v, op),
        Shape::Coal(c) => coal_exclusive::<T, Op>(c, v, op),
        Shape::Multi(m) if rake::serves::<T>(&m) => rake::block_scan::<T, Op, false>(m, v, op),
        Shape::Multi(m) => multi_scan::<T, Op, false>(m, v, op),
    }
}

/// Exclusive scan over any shape and, for the block's 32-bit scans with
/// an [`EXACT`](ReduceOp::EXACT) operator, the group's total (`Some`: the
/// scan leaves it in shared memory for one load more); `None` elsewhere,
/// where the caller broadcasts it.
#[inline(always)]
#[track_caller]
pub(crate) fn exclusive_with_total<T: ShflValue, Op: ReduceOp<T>>(
    shape: Shape,
    v: T,
    op: Op,
) -> (T, Option<T>) {
    match shape {
        Shape::Multi(m) if Op::EXACT && rake::serves::<T>(&m) => {
            let (out, total) = rake::block_scan_total::<T, Op, false, true>(m, v, op);
            (out, Some(total))
        }
        _ => (exclusive::<T, Op>(shape, v, op), None),
    }
}

/// `cg::inclusive_scan(group, v, op)`: the thread of rank `r` gets
/// `v₀ ⊕ v₁ ⊕ … ⊕ v_r`.
///
/// Works on every group: tiles of any size, dynamic tiles, coalesced groups
/// and — beyond CUDA — the whole [`ThreadBlock`](crate::ThreadBlock).
///
/// Lowers to, for a tile of `N ≤ 32`: `log2(N)` × (`shfl.sync.up.b32` per
/// 32-bit word + `setp` + `selp`/the operator). For 64–1024 threads: the
/// warp scan, one `st.shared` per warp, `bar.sync id, count` (the tile's
/// named barrier; `bar.sync 0` for the block), the fold of the preceding
/// warps' totals (`ld.shared`), and a second `bar.sync`. For the block and
/// 32-bit values: at 64, 128 and 256 threads CUB's raking scan (one
/// `st.shared` per thread, `bar.sync 0`, the first warp folds n/32 values
/// per lane, scans the lane totals with `5 × shfl.sync.up` + 1 and stores
/// every result, `bar.sync 0`, one `ld.shared` per thread); at other sizes
/// the warp scans, `bar.sync 0`, the first warp scans the warp totals
/// (one `ld.shared`, `6 × shfl.sync.up`, one `st.shared` per warp),
/// `bar.sync 0`, one `ld.shared`.
///
/// ```
/// # use cooperative_groups::prelude::*;
/// # let dev = cg_sim::SimDevice { stack_size: 4 << 20, ..Default::default() };
/// # cg_sim::launch_on(&dev, &cg_sim::LaunchConfig::new(1, 96), &|| {
/// # let block = this_thread_block();
/// # let count = 2u32;
/// let offset = exclusive_scan(&block, count, Plus); // CUB BlockScan, in one line
/// # assert_eq!(offset, 2 * block.thread_rank());
/// # }).unwrap();
/// ```
#[inline(always)]
#[track_caller]
#[doc(alias = "cub::BlockScan")]
#[doc(alias = "cub::WarpScan")]
pub fn inclusive_scan<G, T, Op>(group: &G, v: T, op: Op) -> T
where
    G: ThreadGroup,
    T: ShflValue,
    Op: ReduceOp<T>,
{
    inclusive::<T, Op>(group.shape(), v, op)
}

/// `cg::exclusive_scan(group, v, op)`: the thread of rank `r > 0` gets
/// `v₀ ⊕ … ⊕ v_{r-1}`; rank 0 gets [`ReduceOp::identity`].
///
/// Same groups and lowering as [`inclusive_scan`], plus one
/// `shfl.sync.up` by one lane.
#[inline(always)]
#[track_caller]
#[doc(alias = "cub::BlockScan")]
#[doc(alias = "cub::WarpScan")]
pub fn exclusive_scan<G, T, Op>(group: &G, v: T, op: Op) -> T
where
    G: ThreadGroup,
    T: ShflValue,
    Op: ReduceOp<T>,
{
    exclusive::<T, Op>(group.shape(), v, op)
}

/// `cg::inclusive_scan(group, v)` with CUDA's default operator, the sum:
/// Rust has no default arguments, so the two-argument form is a macro.
/// `inclusive_scan!(&g, v)` is [`inclusive_scan(&g, v, Plus)`](inclusive_scan);
/// `inclusive_scan!(&g, v, op)` is `inclusive_scan(&g, v, op)`.
///
/// ```
/// # use cooperative_groups::prelude::*;
/// # fn f(g: &ThreadBlockTile<32>, v: u32) -> u32 {
/// cooperative_groups::inclusive_scan!(g, v) // = inclusive_scan(g, v, Plus)
/// # }
/// ```
#[macro_export]
macro_rules! inclusive_scan {
    ($group:expr, $v:expr $(,)?) => {
        $crate::inclusive_scan($group, $v, $crate::ops::Plus)
    };
    ($group:expr, $v:expr, $op:expr $(,)?) => {
        $crate::inclusive_scan($group, $v, $op)
    };
}

/// `cg::exclusive_scan(group, v)` with CUDA's default operator, the sum:
/// `exclusive_scan!(&g, v)` is [`exclusive_scan(&g, v, Plus)`](exclusive_scan);
/// `exclusive_scan!(&g, v, op)` is `exclusive_scan(&g, v, op)`.
#[macro_export]
macro_rules! exclusive_scan {
    ($group:expr, $v:expr $(,)?) => {
        $crate::exclusive_scan($group, $v, $crate::ops::Plus)
    };
    ($group:expr, $v:expr, $op:expr $(,)?) => {
        $crate::exclusive_scan($group, $v, $op)
    };
}
