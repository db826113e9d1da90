//! [`BlockReduce`]: the reduction of the block's items, several per
//! thread (CUB's `BlockReduce` over `ITEMS` per thread): each thread folds
//! its items, then the block reduces the thread totals with
//! [`reduce`](crate::reduce) (the warp reduction, one shared-memory
//! exchange of the warp totals).

use super::rank_of;
use crate::group::ThreadBlock;
use crate::ops::{Plus, ReduceOp};
use crate::primitives::items;
use crate::value::ShflValue;

/// Reductions over a block of `BLOCK` threads holding `N` items each,
/// blocked. Every thread gets the result (CUB gives it to thread 0 only).
/// No storage: the library's collective scratch carries the warp totals.
///
/// ```
/// use cooperative_groups::prelude::*;
/// use cooperative_groups::primitives::BlockReduce;
/// # let dev = cg_sim::SimDevice { stack_size: 4 << 20, ..Default::default() };
/// # cg_sim::launch_on(&dev, &cg_sim::LaunchConfig::new(1, 128), &|| {
/// let block = this_thread_block().with_threads::<128>();
/// let r = block.thread_rank();
/// let sum = BlockReduce::new(&block).sum(&[r, r, 1]);
/// assert_eq!(sum, 2 * (0..128).sum::<u32>() + 128);
/// // The first 100 of the 384 items: threads 0..=33.
/// let max = BlockReduce::new(&block).reduce_partial(&[r, r, 1], 100, Greater);
/// assert_eq!(max, 33);
/// # }).unwrap();
/// ```
pub struct BlockReduce<'a, const BLOCK: u32> {
    block: &'a ThreadBlock<BLOCK>,
}

impl<'a, const BLOCK: u32> BlockReduce<'a, BLOCK> {
    /// Reductions over `block`.
    ///
    /// # Panics
    /// A block of another size than `BLOCK` is a contract violation.
    #[inline(always)]
    #[track_caller]
    pub fn new(block: &'a ThreadBlock<BLOCK>) -> Self {
        rank_of(block);
        BlockReduce { block }
    }

    crate::primitives::items::reduce_methods!(block, BLOCK, "block");
}
