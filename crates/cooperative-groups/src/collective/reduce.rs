//! `reduce(&group, v, op)`: every thread gets `v₀ ⊕ v₁ ⊕ … ⊕ v_{n-1}`.
//! Dispatches to the [warp layer](super::warp::reduce) or the
//! [block layer](super::block::reduce):
//!
//! * 32-bit integers on sm_80+ (and on the simulator): one `redux.sync` for
//!   any group within a warp, whatever its mask.
//! * Full tiles and dynamic tiles otherwise: a butterfly of
//!   `shfl.sync.bfly` (`log2(width)` steps, every lane ends with the result)
//!   — for a `ThreadBlockTile<32>` exactly the hand-written `__shfl_xor_sync`
//!   tree.
//! * In a block whose size is not a multiple of the tile size (so one tile
//!   is cut short): an inclusive scan (exact without the missing lanes) and
//!   a broadcast of the last member's value. The choice is one branch on
//!   `blockDim`, uniform over the block (ptxas keeps it on the uniform
//!   datapath).
//! * Coalesced groups: the scan + broadcast (`fns` finds the lanes); a full
//!   warp uses the butterfly.
//! * Multi-warp tiles and the block: the warp reduction, one `st.shared`
//!   per warp, `bar.sync`, then up to 4 warps every warp folds the warp
//!   totals, `bar.sync`; beyond, the first warp folds them and stores the
//!   result in every warp's result slot, `bar.sync`, one `ld.shared`. Tiles on the
//!   software barrier (64 threads in blocks of more than 512): for one-word
//!   values the two warps swap their partials in one handshake
//!   (`group::barrier::soft_swap`: on a two-arrival mbarrier on sm_80+, a
//!   flag per warp below); wider values take the steps above with
//!   the software barrier in place of `bar.sync`.

use super::block::reduce::multi_reduce;
use super::warp::reduce::{coal_reduce, seg_reduce};
use crate::group::ThreadGroup;
use crate::group::shape::Shape;
use crate::ops::ReduceOp;
use crate::value::ShflValue;

/// Reduction over any shape.
#[inline(always)]
#[track_caller]
pub(crate) fn reduce_shape<T: ShflValue, Op: ReduceOp<T>>(shape: Shape, v: T, op: Op) -> T {
    match shape {
        Shape::Seg(s) => seg_reduce::<T, Op>(s, v, op),
        Shape::Coal(c) => coal_reduce::<T, Op>(c, v, op),
        Shape::Multi(m) => multi_reduce::<T, Op>(m, v, op),
    }
}

/// `cg::reduce(group, v, op)`: the reduction of every member's `v` under
/// `op` ([`Plus`](crate::ops::Plus), [`Less`](crate::ops::Less),
/// [`Greater`](crate::ops::Greater), [`BitAnd`](crate::ops::BitAnd),
/// [`BitOr`](crate::ops::BitOr), [`BitXor`](crate::ops::BitXor)), returned
/// to **every** member.
///
/// Works on every group: tiles of any size, dynamic tiles, coalesced groups
/// and — beyond CUDA, whose `reduce` rejects `thread_block` — the whole
/// [`ThreadBlock`](crate::ThreadBlock), as fast as CUB's `BlockReduce`
/// (warp step + one shared-memory exchange).
///
/// Lowers to:
/// * `u32`/`i32` on sm_80+, groups within a warp: `redux.sync.{add,min,max,and,or,xor}`;
/// * other types, `ThreadBlockTile<N ≤ 32>`: `log2(N)` × `shfl.sync.bfly.b32`
///   (per 32-bit word) and the operator — the hand-written tree;
/// * 64–1024 threads: the warp reduction, `st.shared` of one value per warp,
///   `bar.sync id, count`, `ld.shared` of the warp totals, `bar.sync id,
///   count` (up to 4 warps); from 5 warps on, the first warp alone loads
///   the totals and stores the result to each warp's result slot before the
///   second barrier, and each warp loads its own after it.
///
/// ```
/// # use cooperative_groups::prelude::*;
/// # let dev = cg_sim::SimDevice { stack_size: 4 << 20, ..Default::default() };
/// # cg_sim::launch_on(&dev, &cg_sim::LaunchConfig::new(1, 64), &|| {
/// # let (x, y) = (this_thread_block().thread_rank(), this_thread_block().thread_rank() as f32);
/// let tile = tiled_partition::<32>(&this_thread_block());
/// let sum = reduce(&tile, x, Plus);      // redux.sync.add.u32 on sm_80+
/// let max = reduce(&tile, y, Greater);   // f32: 5 × shfl.sync.bfly + max.f32
/// # let base = tile.meta_group_rank() * 32;
/// # assert_eq!(sum, (base..base + 32).sum::<u32>());
/// # assert_eq!(max, (base + 31) as f32);
/// # }).unwrap();
/// ```
#[inline(always)]
#[track_caller]
#[doc(alias = "__reduce_add_sync")]
#[doc(alias = "__reduce_min_sync")]
#[doc(alias = "__reduce_max_sync")]
#[doc(alias = "__reduce_and_sync")]
#[doc(alias = "__reduce_or_sync")]
#[doc(alias = "__reduce_xor_sync")]
#[doc(alias = "cub::BlockReduce")]
#[doc(alias = "cub::WarpReduce")]
pub fn reduce<G, T, Op>(group: &G, v: T, op: Op) -> T
where
    G: ThreadGroup,
    T: ShflValue,
    Op: ReduceOp<T>,
{
    reduce_shape::<T, Op>(group.shape(), v, op)
}
