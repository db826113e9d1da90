//! [`WarpScan`]: prefix scans of a tile's items, several per thread, in
//! the blocked arrangement (CUB's `WarpScan` over `ITEMS` per thread):
//! each thread folds its items, the tile scans the thread totals
//! ([`exclusive_scan`](crate::exclusive_scan): `shfl.sync.up`), and each
//! thread scans its items from its prefix.

use crate::group::{Size, ThreadBlockTile, WarpTileSize};
use crate::ops::{Plus, ReduceOp};
use crate::primitives::items;
use crate::value::ShflValue;

/// Scans over a tile of `W ≤ 32` threads holding `N` items each, blocked
/// (rank `r` holds items `r · N + i`); no storage.
///
/// ```
/// use cooperative_groups::prelude::*;
/// use cooperative_groups::primitives::WarpScan;
/// # let dev = cg_sim::SimDevice { stack_size: 4 << 20, ..Default::default() };
/// # cg_sim::launch_on(&dev, &cg_sim::LaunchConfig::new(1, 32), &|| {
/// let tile = tiled_partition::<8>(&this_thread_block());
/// let scan = WarpScan::new(&tile);
/// let r = tile.thread_rank();
/// let (sums, total) = scan.inclusive_sum_aggregate(&[1u32, 2]);
/// assert_eq!(sums, [3 * r + 1, 3 * r + 3]);
/// assert_eq!(total, 24);
/// assert_eq!(scan.exclusive_scan(&[1u32, 1], 100, Plus), [100 + 2 * r, 101 + 2 * r]);
/// # }).unwrap();
/// ```
pub struct WarpScan<'a, const W: u32>
where
    Size<W>: WarpTileSize,
{
    tile: &'a ThreadBlockTile<W>,
}

impl<'a, const W: u32> WarpScan<'a, W>
where
    Size<W>: WarpTileSize,
{
    /// Scans over `tile`.
    #[inline(always)]
    pub fn new(tile: &'a ThreadBlockTile<W>) -> Self {
        WarpScan { tile }
    }

    crate::primitives::items::scan_methods!(tile, "tile");
}
