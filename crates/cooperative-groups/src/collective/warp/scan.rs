//! Scans within one warp: Hillis–Steele over `shfl.sync.up`
//! (`log2(width)` steps), which stays exact for partial segments because
//! every source is a lower rank; coalesced groups find the source lane with
//! `fns`.

use super::shuffle::{coal_shfl_up, seg_shfl_up_add, seg_shfl_up_pred, seg_shfl_up_raw};
use crate::arch::ReduxOp;
use crate::group::shape::{Coal, Seg};
use crate::ops::ReduceOp;
use crate::value::ShflValue;

/// Whether `Op` on `T` is the wrapping sum of a 32-bit integer (the
/// operators whose `redux.sync` is `add`): its scan step is
/// [`seg_shfl_up_add`].
const fn is_sum32<T, Op: ReduceOp<T>>() -> bool {
    matches!(Op::REDUX, Some(ReduxOp::Add)) && size_of::<T>() == 4
}

/// The inclusive scan of a 32-bit integer sum: each step one shuffle and
/// an add predicated on the shuffle's own in-range output, CUB's shape
/// (the generic steps below cost a select more per step on the dependent
/// chain: `WarpScan` of 8 items ran at 1.13× CUB's time with them).
#[inline(always)]
#[track_caller]
fn sum32_inclusive<T: ShflValue>(s: Seg, mut v: T) -> T {
    let mut d = 1;
    while d < s.width {
        v = seg_shfl_up_add(s, v, d);
        d *= 2;
    }
    v
}

/// Inclusive scan of an aligned segment.
#[inline(always)]
#[track_caller]
pub(crate) fn seg_inclusive<T: ShflValue, Op: ReduceOp<T>>(s: Seg, mut v: T, op: Op) -> T {
    if is_sum32::<T, Op>() {
        return sum32_inclusive(s, v);
    }
    let rank = s.rank();
    let mut d = 1;
    while d < s.width {
        let o = seg_shfl_up_raw(s, v, d);
        if rank >= d {
            v = op.combine(o, v);
        }
        d *= 2;
    }
    v
}

/// [`seg_inclusive`] with step `d` combining on the shuffle's own
/// predicate output (`rank >= d`, as CUB's warp scan), not on a compare of
/// the rank.
///
/// For the multi-warp scans, whose warps also store, load and wait at
/// barriers in the same loop: there the rank compares were kept in
/// predicate registers or recomputed on every call (the block scan of a
/// run-time size: 6 `ISETP` per call for its warp path), and the
/// predicate form frees them (H200, blocks of 512: 1.22× → 1.13× CUB).
/// Not for the lone warp scans of sub-warp and 32-thread tiles: the
/// shuffle's predicate comes back later than a compare hoisted out of the
/// caller's loop, and those scans, a chain of dependent shuffles, ran
/// 8–12 % slower with it (blocks of 128).
#[inline(always)]
#[track_caller]
pub(crate) fn seg_inclusive_pred<T: ShflValue, Op: ReduceOp<T>>(s: Seg, mut v: T, op: Op) -> T {
    if is_sum32::<T, Op>() {
        return sum32_inclusive(s, v);
    }
    let mut d = 1;
    while d < s.width {
        let (o, below) = seg_shfl_up_pred(s, v, d);
        if below {
            v = op.combine(o, v);
        }
        d *= 2;
    }
    v
}

/// Exclusive scan of an aligned segment.
#[inline(always)]
#[track_caller]
pub(crate) fn seg_exclusive<T: ShflValue, Op: ReduceOp<T>>(s: Seg, v: T, op: Op) -> T {
    let inc = seg_inclusive::<T, Op>(s, v, op);
    // Integer sums: the inclusive value less the own (0 at rank 0, the
    // identity), no shuffle.
    if let Some(e) = op.uncombine(inc, v) {
        return e;
    }
    let below = seg_shfl_up_raw(s, inc, 1);
    if s.rank() == 0 { op.identity() } else { below }
}

/// Inclusive scan of a coalesced group (`log2(size)` steps).
#[inline(always)]
#[track_caller]
pub(crate) fn coal_inclusive<T: ShflValue, Op: ReduceOp<T>>(c: Coal, mut v: T, op: Op) -> T {
    if c.mask == u32::MAX {
        return seg_inclusive::<T, Op>(Seg::warp(c.lane, 32, true), v, op);
    }
    let (rank, size) = (c.rank(), c.size());
    let mut d = 1;
    while d < size {
        let o = coal_shfl_up(c, v, d);
        if rank >= d {
            v = op.combine(o, v);
        }
        d *= 2;
    }
    v
}

/// Exclusive scan of a coalesced group.
#[inline(always)]
#[track_caller]
pub(crate) fn coal_exclusive<T: ShflValue, Op: ReduceOp<T>>(c: Coal, v: T, op: Op) -> T {
    let inc = coal_inclusive::<T, Op>(c, v, op);
    let below = coal_shfl_up(c, inc, 1);
    if c.rank() == 0 { op.identity() } else { below }
}
