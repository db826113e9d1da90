//! [`WarpReduce`]: the reduction of a tile's items, several per thread
//! (CUB's `WarpReduce`, extended to `ITEMS` per thread as CCCL #9538
//! asks): each thread folds its items in order, then the tile reduces the
//! thread totals with [`reduce`](crate::reduce) (`redux.sync` for 32-bit
//! integers on sm_80+, a shuffle tree otherwise).

use crate::group::{Size, ThreadBlockTile, WarpTileSize};
use crate::ops::{Plus, ReduceOp};
use crate::primitives::items;
use crate::value::ShflValue;

/// Reductions over a tile of `W ≤ 32` threads holding `N` items each, in
/// the blocked arrangement (rank `r` holds items `r · N + i`). Every
/// member gets the result (CUB gives it to lane 0 only). No storage.
///
/// ```
/// use cooperative_groups::prelude::*;
/// use cooperative_groups::primitives::WarpReduce;
/// # let dev = cg_sim::SimDevice { stack_size: 4 << 20, ..Default::default() };
/// # cg_sim::launch_on(&dev, &cg_sim::LaunchConfig::new(1, 32), &|| {
/// let tile = tiled_partition::<32>(&this_thread_block());
/// let r = tile.thread_rank();
/// let warp = WarpReduce::new(&tile);
/// assert_eq!(warp.sum(&[r, 1000]), (0..32).sum::<u32>() + 32_000);
/// // Only the first 3 items of the tile: ranks 0 and 1's.
/// assert_eq!(warp.reduce_partial(&[r, 1000], 3, Greater), 1000);
/// # }).unwrap();
/// ```
pub struct WarpReduce<'a, const W: u32>
where
    Size<W>: WarpTileSize,
{
    tile: &'a ThreadBlockTile<W>,
}

impl<'a, const W: u32> WarpReduce<'a, W>
where
    Size<W>: WarpTileSize,
{
    /// Reductions over `tile`.
    #[inline(always)]
    pub fn new(tile: &'a ThreadBlockTile<W>) -> Self {
        WarpReduce { tile }
    }

    /// `items` of every member, combined by `op` (each thread's items in
    /// order, then the thread totals).
    #[inline(always)]
    #[track_caller]
    pub fn reduce<T: ShflValue, Op: ReduceOp<T>, const N: usize>(
        &self,
        items: &[T; N],
        op: Op,
    ) -> T {
        items::reduce(self.tile, items, op)
    }

    /// [`reduce`](Self::reduce) with [`Plus`].
    #[inline(always)]
    #[track_caller]
    pub fn sum<T: ShflValue, const N: usize>(&self, items: &[T; N]) -> T
    where
        Plus: ReduceOp<T>,
    {
        self.reduce(items, Plus)
    }

    /// The reduction of the tile's first `valid` items (blocked order;
    /// the same `valid` in every member): thread totals over the valid
    /// items, an inclusive scan of the tile and the last valid thread's
    /// value — exact for every operator, since no thread without valid
    /// items enters the result. `valid == 0` gives `op.identity()`.
    #[inline(always)]
    #[track_caller]
    pub fn reduce_partial<T: ShflValue, Op: ReduceOp<T>, const N: usize>(
        &self,
        items: &[T; N],
        valid: usize,
        op: Op,
    ) -> T {
        items::reduce_partial(self.tile, W, items, valid, op)
    }
}
