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

    crate::primitives::items::reduce_methods!(tile, W, "tile");
}
