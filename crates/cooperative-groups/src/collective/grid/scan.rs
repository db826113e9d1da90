//! `grid.inclusive_scan(v, op)` and `grid.exclusive_scan(v, op)`: the
//! block scan, the block's aggregate in the global scratch, one grid
//! barrier, and each block folds the aggregates of the blocks before it.

use super::scratch;
use crate::arch;
use crate::collective::scan::{exclusive, inclusive};
use crate::group::sealed::Sealed;
use crate::ops::ReduceOp;
use crate::value::ShflValue;

/// Inclusive (`INCLUSIVE`) or exclusive scan over the grid of a
/// cooperative launch of `blocks` blocks, in rank order
/// (`GridGroup::thread_rank`), in the block of rank `block_rank`.
#[inline(always)]
#[track_caller]
pub(crate) fn grid_scan<T: ShflValue, Op: ReduceOp<T>, const INCLUSIVE: bool>(
    blocks: u32,
    block_rank: u32,
    v: T,
    op: Op,
) -> T {
    scratch::check_capacity::<T>(blocks);
    let block = crate::this_thread_block();
    let shape = block.shape();
    let local = if INCLUSIVE {
        inclusive::<T, Op>(shape, v, op)
    } else {
        exclusive::<T, Op>(shape, v, op)
    };
    let threads = block.num_threads();
    let rank = block.thread_rank();
    if rank == threads - 1 {
        // The last thread holds the block's aggregate.
        let aggregate = if INCLUSIVE {
            local
        } else if threads == 1 {
            v
        } else {
            op.combine(local, v)
        };
        scratch::publish(block_rank, aggregate);
    }
    arch::grid_sync();
    let b = block_rank;
    if b == 0 {
        return local;
    }
    let prefix = scratch::fold::<T, Op>(b, op);
    if !INCLUSIVE && rank == 0 {
        prefix
    } else {
        op.combine(prefix, local)
    }
}
