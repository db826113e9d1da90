//! `grid.reduce(v, op)`: the block reduction, one aggregate per block in
//! the global scratch, one grid barrier, and every block folds all the
//! aggregates in the same order.

use super::scratch;
use crate::arch;
use crate::collective::reduce::reduce_shape;
use crate::group::sealed::Sealed;
use crate::ops::ReduceOp;
use crate::value::ShflValue;

/// Reduction over the grid of a cooperative launch of `blocks` blocks, in
/// the block of rank `block_rank` (the grid's counts, from `GridGroup`,
/// which lies above this layer).
#[inline(always)]
#[track_caller]
pub(crate) fn grid_reduce<T: ShflValue, Op: ReduceOp<T>>(
    blocks: u32,
    block_rank: u32,
    v: T,
    op: Op,
) -> T {
    scratch::check_capacity::<T>(blocks);
    let block = crate::this_thread_block();
    let aggregate = reduce_shape::<T, Op>(block.shape(), v, op);
    if block.thread_rank() == 0 {
        scratch::publish(block_rank, aggregate);
    }
    arch::grid_sync();
    scratch::fold::<T, Op>(blocks, op)
}
