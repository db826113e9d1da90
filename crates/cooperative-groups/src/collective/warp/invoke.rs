//! `invoke_one` within one warp: the member is chosen with `elect.sync` on
//! sm_90 (and on the simulator), else it is the lowest member.

use super::shuffle::shfl_words;
use crate::arch::{self, ShflMode};
use crate::group::shape::Shape;
use crate::ops::OneCall;
use crate::value::{ShflValue, zeroed};

/// The lane that runs the closure, for a warp shape (the same for every
/// member), and the `membermask` operand.
#[inline(always)]
#[track_caller]
fn leader(shape: &Shape) -> (u32, u32) {
    let (mask, lowest) = match shape {
        Shape::Seg(s) => (s.op_mask, s.base()),
        Shape::Coal(c) => (c.mask, c.mask.trailing_zeros()),
        Shape::Multi(_) => unreachable!("not a group within one warp"),
    };
    (
        if arch::HAS_ELECT {
            arch::elect(mask)
        } else {
            lowest
        },
        mask,
    )
}

/// The caller's lane, for a warp shape.
#[inline(always)]
fn lane(shape: &Shape) -> u32 {
    match shape {
        Shape::Seg(s) => s.lane,
        Shape::Coal(c) => c.lane,
        Shape::Multi(m) => m.lane(),
    }
}

/// Whether the caller is the member of a warp shape that runs the closure.
#[inline(always)]
#[track_caller]
pub(crate) fn chosen(shape: &Shape) -> bool {
    leader(shape).0 == lane(shape)
}

/// `invoke_one_broadcast` on a warp shape: the chosen lane calls `f`, one
/// `shfl.sync.idx` per word hands its result to every member.
#[inline(always)]
#[track_caller]
pub(crate) fn invoke_one_broadcast<T: ShflValue, F: OneCall<T>>(shape: &Shape, f: F) -> T {
    let (chosen, mask) = leader(shape);
    let mut v = zeroed::<T>();
    if chosen == lane(shape) {
        v = f.call();
    }
    shfl_words(ShflMode::Idx, mask, v, chosen, 0x1f)
}
