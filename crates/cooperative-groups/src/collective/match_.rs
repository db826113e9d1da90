//! `match_any`, `match_all` (`match.any.sync`, `match.all.sync`, sm_70+):
//! which members hold the same value, as group-relative masks.

use super::warp::vote::{to_ranks, warp_operands};
use crate::arch;
use crate::group::shape::Shape;
use crate::value::MatchValue;

/// `match_any` over a warp shape: the ranks holding the caller's value.
#[inline(always)]
#[track_caller]
pub(crate) fn match_any<V: MatchValue>(shape: Shape, v: V) -> u32 {
    let (mask, _) = warp_operands(&shape);
    let (bits, wide) = v.match_bits();
    to_ranks(&shape, arch::match_any(mask, bits, wide))
}

/// `match_all` over a warp shape: `Some(all ranks)` if every member holds the
/// same value, `None` otherwise.
#[inline(always)]
#[track_caller]
pub(crate) fn match_all<V: MatchValue>(shape: Shape, v: V) -> Option<u32> {
    let (mask, _) = warp_operands(&shape);
    let (bits, wide) = v.match_bits();
    let m = arch::match_all(mask, bits, wide);
    if m != 0 {
        Some(to_ranks(&shape, m))
    } else {
        None
    }
}
