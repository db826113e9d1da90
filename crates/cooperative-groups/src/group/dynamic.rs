//! [`DynamicTile`]: tiles whose size is a runtime value (`cg::tiled_partition(parent, n)`,
//! which returns a `thread_group` in CUDA), from [`tiled_partition_dyn`].

use super::coalesced::CoalescedGroup;
use super::sealed::Sealed;
use super::shape::{Coal, Seg, Shape, lane_range};
use super::tile::{Size, TileSize, block_threads};
use super::{ThreadBlock, ThreadBlockTile, ThreadGroup, forward_thread_group, violation};
use crate::arch;
use crate::collective::methods::{WarpGroup, common_collectives, warp_collectives};

/// A tile of a runtime number of threads `n` (a power of two ≤ 32) inside
/// one warp: the same collectives as a [`ThreadBlockTile<N>`] with `N ≤ 32`,
/// with the tile size in a register instead of the type.
///
/// Masks are exact: the tile that a partial warp (or a partial parent) cuts
/// short contains only the threads that exist.
#[derive(Debug)]
pub struct DynamicTile {
    seg: Seg,
    meta_rank: u32,
    meta_size: u32,
}

/// A parent of [`tiled_partition_dyn`] (sealed): the block, any static or
/// dynamic tile (giving a [`DynamicTile`]), or a coalesced group (giving a
/// [`CoalescedGroup`] of consecutive ranks, as in CUDA).
pub trait DynamicParent: ThreadGroup {
    /// The group a partition of this parent yields.
    type Tile: ThreadGroup;
    /// The partition (behind [`tiled_partition_dyn`]).
    #[doc(hidden)]
    fn partition_dyn(&self, n: u32) -> Self::Tile;
}

/// `cg::tiled_partition(parent, n)`: the caller's tile of `n` threads, `n`
/// a power of two from 1 to 32 — the same value in every thread of the
/// parent (the simulator checks it). Costs a few integer instructions (no
/// barrier; for a coalesced parent, two `fns.b32`).
///
/// # Panics
/// `n` not a power of two, above 32, or larger than a static parent tile is
/// a contract violation: `trap` on the GPU, a panic on the simulator; an
/// `n` that differs between the parent's threads fails the simulator's
/// launch with a report.
#[inline(always)]
#[track_caller]
pub fn tiled_partition_dyn<P: DynamicParent>(parent: &P, n: u32) -> P::Tile {
    parent.partition_dyn(n)
}

#[inline(always)]
#[track_caller]
fn check_size(n: u32, limit: u32) {
    if !n.is_power_of_two() || n > 32 || n > limit {
        violation!(
            "tiled_partition_dyn: tile size {n} must be a power of two of at most 32 and of the parent's size ({limit})"
        );
    }
}

/// The tile of `n` lanes containing `lane`, inside a parent whose existing
/// members in this warp end before lane `end`.
#[inline(always)]
fn sub_tile(lane: u32, end: u32, n: u32, meta_rank: u32, meta_size: u32) -> DynamicTile {
    let base = lane & !(n - 1);
    let left = end - base;
    let existing = if left < n { left } else { n };
    let mask = lane_range(base, existing);
    // `all_full` is refreshed from `%ntid` when the shape is built.
    DynamicTile {
        seg: Seg {
            width: n,
            n: existing,
            lane,
            op_mask: mask,
            all_full: false,
        },
        meta_rank,
        meta_size,
    }
}

impl<const MAX_THREADS: u32> DynamicParent for ThreadBlock<MAX_THREADS> {
    type Tile = DynamicTile;
    #[inline(always)]
    #[track_caller]
    fn partition_dyn(&self, n: u32) -> DynamicTile {
        arch::check_uniform_block("tiled_partition_dyn (tile size)", n as u64);
        let block = self.num_threads();
        check_size(n, block);
        let rank = self.thread_rank();
        let warp_base = rank & !31;
        let end = if block - warp_base < 32 {
            block - warp_base
        } else {
            32
        };
        sub_tile(rank & 31, end, n, rank / n, block.div_ceil(n))
    }
}

impl<const M: u32> DynamicParent for ThreadBlockTile<M>
where
    Size<M>: TileSize,
{
    type Tile = DynamicTile;
    #[inline(always)]
    #[track_caller]
    fn partition_dyn(&self, n: u32) -> DynamicTile {
        let (lane, end, mask) = match self.shape() {
            Shape::Seg(s) => (s.lane, s.base() + s.n, s.mask()),
            Shape::Multi(m) => {
                let w = m.warp_seg();
                (w.lane, w.n, w.mask())
            }
            Shape::Coal(_) => unreachable!(),
        };
        arch::check_uniform_warp(mask, "tiled_partition_dyn (tile size)", n as u64);
        check_size(n, M);
        // Tiles never straddle warps, so the caller's lane fixes the
        // sub-tile; `end` cuts it at the parent's last thread.
        sub_tile(
            lane,
            end,
            n,
            self.thread_rank() / n,
            self.num_threads().div_ceil(n),
        )
    }
}

impl DynamicParent for DynamicTile {
    type Tile = DynamicTile;
    #[inline(always)]
    #[track_caller]
    fn partition_dyn(&self, n: u32) -> DynamicTile {
        let s = self.seg;
        arch::check_uniform_warp(s.mask(), "tiled_partition_dyn (tile size)", n as u64);
        check_size(n, s.width);
        sub_tile(s.lane, s.base() + s.n, n, s.rank() / n, s.n.div_ceil(n))
    }
}

impl DynamicParent for CoalescedGroup {
    type Tile = CoalescedGroup;
    #[inline(always)]
    #[track_caller]
    fn partition_dyn(&self, n: u32) -> CoalescedGroup {
        let c: Coal = self.coal();
        arch::check_uniform_warp(c.mask, "tiled_partition_dyn (tile size)", n as u64);
        check_size(n, 32);
        // Members of ranks k·n .. k·n + n (the last tile may be shorter).
        let k = c.rank() / n;
        let size = c.size();
        let first = c.lane_of(k * n);
        let last_rank = if (k + 1) * n < size {
            (k + 1) * n - 1
        } else {
            size - 1
        };
        let last = c.lane_of(last_rank);
        let span = lane_range(first, last - first + 1);
        CoalescedGroup::from_parts(c.mask & span, c.lane, k, size.div_ceil(n))
    }
}

impl DynamicTile {
    /// The caller's rank in the tile.
    #[inline(always)]
    pub fn thread_rank(&self) -> u32 {
        self.seg.rank()
    }
    /// Threads in the tile: `n`, or fewer for a tile cut short by a partial
    /// warp or parent.
    #[inline(always)]
    pub fn num_threads(&self) -> u32 {
        self.seg.n
    }
    /// `num_threads()` (CUDA's older name).
    #[inline(always)]
    pub fn size(&self) -> u32 {
        self.seg.n
    }
    /// The tile's index among the tiles of its parent.
    #[inline(always)]
    pub fn meta_group_rank(&self) -> u32 {
        self.meta_rank
    }
    /// The number of tiles the parent was cut into.
    #[inline(always)]
    pub fn meta_group_size(&self) -> u32 {
        self.meta_size
    }
    /// `bar.warp.sync mask` over the tile's lanes.
    #[inline(always)]
    #[track_caller]
    pub fn sync(&self) {
        arch::warp_sync(self.seg.op_mask)
    }

    common_collectives!(pub);
    warp_collectives!(pub);
}

impl Sealed for DynamicTile {
    #[inline(always)]
    #[track_caller]
    fn shape(&self) -> Shape {
        let mut seg = self.seg;
        seg.all_full = block_threads() & (seg.width - 1) == 0;
        Shape::Seg(seg)
    }
}

forward_thread_group!(DynamicTile);
impl WarpGroup for DynamicTile {}
