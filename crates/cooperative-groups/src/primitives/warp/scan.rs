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

    /// Item `k` of the tile gets `x₀ ⊕ … ⊕ x_k`.
    #[inline(always)]
    #[track_caller]
    pub fn inclusive_scan<T: ShflValue, Op: ReduceOp<T>, const N: usize>(
        &self,
        items: &[T; N],
        op: Op,
    ) -> [T; N] {
        items::inclusive_scan(self.tile, items, op, false).0
    }

    /// [`inclusive_scan`](Self::inclusive_scan), and the tile's total
    /// (every member gets it; one broadcast more).
    #[inline(always)]
    #[track_caller]
    pub fn inclusive_scan_aggregate<T: ShflValue, Op: ReduceOp<T>, const N: usize>(
        &self,
        items: &[T; N],
        op: Op,
    ) -> ([T; N], T) {
        let (out, total) = items::inclusive_scan(self.tile, items, op, true);
        (out, total.expect("asked for"))
    }

    /// Item `k` of the tile gets `initial ⊕ x₀ ⊕ … ⊕ x_{k-1}` (item 0
    /// gets `initial`).
    #[inline(always)]
    #[track_caller]
    pub fn exclusive_scan<T: ShflValue, Op: ReduceOp<T>, const N: usize>(
        &self,
        items: &[T; N],
        initial: T,
        op: Op,
    ) -> [T; N] {
        items::exclusive_scan(self.tile, items, op, false, |_| initial).0
    }

    /// [`exclusive_scan`](Self::exclusive_scan), and the tile's total of
    /// the items (without `initial`).
    #[inline(always)]
    #[track_caller]
    pub fn exclusive_scan_aggregate<T: ShflValue, Op: ReduceOp<T>, const N: usize>(
        &self,
        items: &[T; N],
        initial: T,
        op: Op,
    ) -> ([T; N], T) {
        let (out, total) = items::exclusive_scan(self.tile, items, op, true, |_| initial);
        (out, total.expect("asked for"))
    }

    /// CUB's scan with a prefix callback: `prefix_op` runs once, in one
    /// member, with the tile's total of the items, and returns the value
    /// the scan starts from (e.g. the running total of earlier tiles); item
    /// `k` gets `prefix ⊕ x₀ ⊕ … ⊕ x_{k-1}`. (CUB calls it in every lane of
    /// the first warp and takes lane 0's result; here it is
    /// [`invoke_one_broadcast`](crate::invoke_one_broadcast).)
    #[inline(always)]
    #[track_caller]
    pub fn exclusive_scan_with_prefix<
        T: ShflValue,
        Op: ReduceOp<T>,
        F: FnOnce(T) -> T,
        const N: usize,
    >(
        &self,
        items: &[T; N],
        op: Op,
        prefix_op: F,
    ) -> [T; N] {
        let g = self.tile;
        items::exclusive_scan(g, items, op, true, |total| {
            let total = total.expect("asked for");
            crate::invoke_one_broadcast(g, || prefix_op(total))
        })
        .0
    }

    /// [`inclusive_scan`](Self::inclusive_scan) with [`Plus`].
    #[inline(always)]
    #[track_caller]
    pub fn inclusive_sum<T: ShflValue, const N: usize>(&self, items: &[T; N]) -> [T; N]
    where
        Plus: ReduceOp<T>,
    {
        self.inclusive_scan(items, Plus)
    }

    /// [`inclusive_scan_aggregate`](Self::inclusive_scan_aggregate) with [`Plus`].
    #[inline(always)]
    #[track_caller]
    pub fn inclusive_sum_aggregate<T: ShflValue, const N: usize>(
        &self,
        items: &[T; N],
    ) -> ([T; N], T)
    where
        Plus: ReduceOp<T>,
    {
        self.inclusive_scan_aggregate(items, Plus)
    }

    /// [`exclusive_scan`](Self::exclusive_scan) with [`Plus`] from 0.
    #[inline(always)]
    #[track_caller]
    pub fn exclusive_sum<T: ShflValue, const N: usize>(&self, items: &[T; N]) -> [T; N]
    where
        Plus: ReduceOp<T>,
    {
        self.exclusive_scan(items, Plus.identity(), Plus)
    }

    /// [`exclusive_scan_aggregate`](Self::exclusive_scan_aggregate) with
    /// [`Plus`] from 0.
    #[inline(always)]
    #[track_caller]
    pub fn exclusive_sum_aggregate<T: ShflValue, const N: usize>(
        &self,
        items: &[T; N],
    ) -> ([T; N], T)
    where
        Plus: ReduceOp<T>,
    {
        self.exclusive_scan_aggregate(items, Plus.identity(), Plus)
    }
}
