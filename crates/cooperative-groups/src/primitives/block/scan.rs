//! [`BlockScan`]: prefix scans of the block's items, several per thread,
//! blocked (CUB's `BlockScan` over `ITEMS` per thread): each thread folds
//! its items, the block scans the thread totals
//! ([`exclusive_scan`](crate::exclusive_scan): CUB's raking scan for 64,
//! 128 and 256 threads), and each thread scans its items from its prefix.

use super::rank_of;
use crate::group::ThreadBlock;
use crate::ops::{Plus, ReduceOp};
use crate::primitives::items;
use crate::value::ShflValue;

/// Scans over a block of `BLOCK` threads holding `N` items each, blocked;
/// no storage (the library's collective scratch).
///
/// ```
/// use cooperative_groups::prelude::*;
/// use cooperative_groups::primitives::BlockScan;
/// # let dev = cg_sim::SimDevice { stack_size: 4 << 20, ..Default::default() };
/// # cg_sim::launch_on(&dev, &cg_sim::LaunchConfig::new(1, 64), &|| {
/// let block = this_thread_block().with_threads::<64>();
/// let r = block.thread_rank();
/// let scan = BlockScan::new(&block);
/// assert_eq!(scan.exclusive_sum(&[1u32, 1, 1]), [3 * r, 3 * r + 1, 3 * r + 2]);
/// // A running offset across tiles: the callback runs once, with the tile's total.
/// let mut base = 1000;
/// let out = scan.exclusive_scan_with_prefix(&[1u32], Plus, |total| {
///     let b = base;
///     base += total;
///     b
/// });
/// assert_eq!(out, [1000 + r]);
/// # }).unwrap();
/// ```
pub struct BlockScan<'a, const BLOCK: u32> {
    block: &'a ThreadBlock<BLOCK>,
}

impl<'a, const BLOCK: u32> BlockScan<'a, BLOCK> {
    /// Scans over `block`.
    ///
    /// # Panics
    /// A block of another size than `BLOCK` is a contract violation.
    #[inline(always)]
    #[track_caller]
    pub fn new(block: &'a ThreadBlock<BLOCK>) -> Self {
        rank_of(block);
        BlockScan { block }
    }

    /// Item `k` of the block gets `x₀ ⊕ … ⊕ x_k`.
    #[inline(always)]
    #[track_caller]
    pub fn inclusive_scan<T: ShflValue, Op: ReduceOp<T>, const N: usize>(
        &self,
        items: &[T; N],
        op: Op,
    ) -> [T; N] {
        items::inclusive_scan(self.block, items, op, false).0
    }

    /// [`inclusive_scan`](Self::inclusive_scan), and the block's total
    /// (every member gets it; one broadcast more).
    #[inline(always)]
    #[track_caller]
    pub fn inclusive_scan_aggregate<T: ShflValue, Op: ReduceOp<T>, const N: usize>(
        &self,
        items: &[T; N],
        op: Op,
    ) -> ([T; N], T) {
        let (out, total) = items::inclusive_scan(self.block, items, op, true);
        (out, total.expect("asked for"))
    }

    /// Item `k` of the block gets `initial ⊕ x₀ ⊕ … ⊕ x_{k-1}` (item 0
    /// gets `initial`).
    #[inline(always)]
    #[track_caller]
    pub fn exclusive_scan<T: ShflValue, Op: ReduceOp<T>, const N: usize>(
        &self,
        items: &[T; N],
        initial: T,
        op: Op,
    ) -> [T; N] {
        items::exclusive_scan(self.block, items, op, false, |_| initial).0
    }

    /// [`exclusive_scan`](Self::exclusive_scan), and the block's total of
    /// the items (without `initial`).
    #[inline(always)]
    #[track_caller]
    pub fn exclusive_scan_aggregate<T: ShflValue, Op: ReduceOp<T>, const N: usize>(
        &self,
        items: &[T; N],
        initial: T,
        op: Op,
    ) -> ([T; N], T) {
        let (out, total) = items::exclusive_scan(self.block, items, op, true, |_| initial);
        (out, total.expect("asked for"))
    }

    /// CUB's scan with a prefix callback: `prefix_op` runs once, in one
    /// member, with the block's total of the items, and returns the value
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
        let g = self.block;
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
