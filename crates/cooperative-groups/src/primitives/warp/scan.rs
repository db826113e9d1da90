//! [`WarpScan`]: prefix scans of a tile's items, several per thread, in
//! the blocked arrangement (CUB's `WarpScan` over `ITEMS` per thread):
//! each thread folds its items, the tile scans the thread totals
//! ([`exclusive_scan`](crate::exclusive_scan): `shfl.sync.up`), and each
//! thread scans its items from its prefix.

use crate::group::{Size, ThreadBlockTile, WarpTileSize};
use crate::ops::{Plus, ReduceOp};
use crate::primitives::thread;
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

    /// The caller's prefix (the fold of the thread totals of lower ranks;
    /// `None` at rank 0) and its own total.
    #[inline(always)]
    #[track_caller]
    fn prefix<T: ShflValue, Op: ReduceOp<T>, const N: usize>(
        &self,
        items: &[T; N],
        op: Op,
    ) -> (Option<T>, T) {
        let total = thread::reduce(items, op);
        let before = crate::exclusive_scan(self.tile, total, op);
        ((self.tile.thread_rank() > 0).then_some(before), total)
    }

    /// Item `k` of the tile gets `x₀ ⊕ … ⊕ x_k`.
    #[inline(always)]
    #[track_caller]
    pub fn inclusive_scan<T: ShflValue, Op: ReduceOp<T>, const N: usize>(
        &self,
        items: &[T; N],
        op: Op,
    ) -> [T; N] {
        self.inclusive_scan_aggregate(items, op).0
    }

    /// [`inclusive_scan`](Self::inclusive_scan), and the tile's total
    /// (every member gets it; one more shuffle).
    #[inline(always)]
    #[track_caller]
    pub fn inclusive_scan_aggregate<T: ShflValue, Op: ReduceOp<T>, const N: usize>(
        &self,
        items: &[T; N],
        op: Op,
    ) -> ([T; N], T) {
        let (prefix, _) = self.prefix(items, op);
        let out = match prefix {
            None => thread::inclusive_scan(items, op),
            Some(p) => thread::inclusive_scan_from(items, p, op),
        };
        let total = self.tile.shfl(out[N - 1], self.tile.num_threads() - 1);
        (out, total)
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
        let (prefix, _) = self.prefix(items, op);
        let start = match prefix {
            None => initial,
            Some(p) => op.combine(initial, p),
        };
        thread::exclusive_scan(items, start, op)
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
}
