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

    crate::primitives::items::scan_methods!(block, "block");
}
