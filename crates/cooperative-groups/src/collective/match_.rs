//! `match_any`, `match_all` (`match.any.sync`, `match.all.sync`, sm_70+):
//! which members hold the same value, as group-relative masks; and
//! `match_any_bits`, the same question for small labels, by ballots.

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

/// `match_any` of the low `BITS` bits of `label` over a warp shape, by
/// ballots (see [`arch::match_any_bits`]).
#[inline(always)]
#[track_caller]
pub(crate) fn match_any_bits<const BITS: u32>(shape: Shape, label: u32) -> u32 {
    const { assert!(BITS >= 1 && BITS <= 32, "a label has 1 to 32 bits") };
    let (mask, _) = warp_operands(&shape);
    to_ranks(&shape, arch::match_any_bits(mask, label, BITS))
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
