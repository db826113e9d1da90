//! Scans of multi-warp groups: warp scans, warp totals through the shared
//! scratch, each warp folds the totals of the warps before it. 64-thread
//! tiles on the software barrier, one-word values: the first warp's total
//! goes to the second in one handshake (`group::barrier::soft_swap`). (The block's 32-bit scans
//! rake instead: [`rake`](super::rake).)

use super::exchange;
use crate::collective::warp::scan::seg_inclusive_pred;
use crate::collective::warp::shuffle::seg_shfl_up_raw;
use crate::group::shape::{Bar, Multi, Seg};
use crate::ops::ReduceOp;
use crate::value::{ShflValue, words};

/// The common part of both scans of a multi-warp group: the warp's
/// inclusive scan, and the fold of the preceding warps' totals (`None` in the
/// group's first warp).
#[inline(always)]
#[track_caller]
fn multi_prefix<T: ShflValue, Op: ReduceOp<T>>(m: Multi, v: T, op: Op) -> (Seg, T, Option<T>) {
    let warp = m.warp_seg();
    let inc = seg_inclusive_pred::<T, Op>(warp, v, op);
    if let (Bar::Soft(slot), 1, 2) = (m.bar, words::<T>(), m.warps()) {
        // A 64-thread tile on the software barrier: the first warp's total
        // (its last lane's inclusive value) reaches the second warp in one
        // handshake instead of two barriers around the slots.
        let first_total = exchange::pair_swap(&m, slot, inc, warp.n - 1);
        let prefix = (m.warp_in_group() == 1).then_some(first_total);
        return (warp, inc, prefix);
    }
    if warp.rank() == warp.n - 1 {
        exchange::put(&m, inc);
    }
    crate::group::barrier::sync(&m);
    let w = m.warp_in_group();
    let prefix: T = exchange::fold::<T, Op>(&m, w, op);
    crate::group::barrier::sync(&m);
    (warp, inc, (w > 0).then_some(prefix))
}

/// A multi-warp scan's result for the calling thread, from its warp's
/// inclusive scan `inc` and the fold of the preceding warps' totals
/// (`None` in the group's first warp). The shuffle for the lane below is
/// issued only for the exclusive scan: shuffles are never removed as dead
/// code (they are convergent), so the inclusive scan must not compute it.
#[inline(always)]
#[track_caller]
pub(crate) fn multi_finish<T: ShflValue, Op: ReduceOp<T>, const INCLUSIVE: bool>(
    warp: Seg,
    inc: T,
    prefix: Option<T>,
    op: Op,
) -> T {
    if INCLUSIVE {
        return match prefix {
            None => inc,
            Some(prefix) => op.combine(prefix, inc),
        };
    }
    // The lane below's inclusive value: this lane's exclusive value in the warp.
    let below = seg_shfl_up_raw(warp, inc, 1);
    let first_lane = warp.rank() == 0;
    match prefix {
        None if first_lane => op.identity(),
        None => below,
        Some(prefix) if first_lane => prefix,
        Some(prefix) => op.combine(prefix, below),
    }
}

/// Inclusive (`INCLUSIVE`) or exclusive scan of a multi-warp group.
#[inline(always)]
#[track_caller]
pub(crate) fn multi_scan<T: ShflValue, Op: ReduceOp<T>, const INCLUSIVE: bool>(
    m: Multi,
    v: T,
    op: Op,
) -> T {
    let (warp, inc, prefix) = multi_prefix::<T, Op>(m, v, op);
    multi_finish::<T, Op, INCLUSIVE>(warp, inc, prefix, op)
}
