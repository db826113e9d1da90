//! Reductions within one warp; every member gets the result.
//!
//! * 32-bit integers on sm_80+ (and on the simulator): one `redux.sync` for
//!   any lane set, whatever its mask.
//! * Full segments: a butterfly of `shfl.sync.bfly` (`log2(width)` steps,
//!   every lane ends with the result) — for a `ThreadBlockTile<32>` exactly
//!   the hand-written `__shfl_xor_sync` tree.
//! * In a block whose size is not a multiple of the tile size (so one tile
//!   is cut short): an inclusive scan (exact without the missing lanes) and
//!   a broadcast of the last member's value. The choice is one branch on
//!   `blockDim`, uniform over the block (ptxas keeps it on the uniform
//!   datapath).
//! * Coalesced groups: the scan + broadcast (`fns` finds the lanes); a full
//!   warp uses the butterfly.

use super::scan::{coal_inclusive, seg_inclusive};
use super::shuffle::shfl_words;
use crate::arch::{self, ShflMode};
use crate::group::shape::{Coal, Seg};
use crate::ops::ReduceOp;
use crate::value::{ShflValue, from_words, to_words};

/// `redux.sync` over `mask`, when the operator and the target have it.
#[inline(always)]
#[track_caller]
fn try_redux<T: ShflValue, Op: ReduceOp<T>>(mask: u32, v: T, _op: Op) -> Option<T> {
    match Op::REDUX {
        // `REDUX` is set for 32-bit integers only: one word.
        Some(kind) if arch::HAS_REDUX => {
            let mut w = to_words(v);
            w[0] = arch::redux(kind, mask, w[0]);
            Some(from_words(w))
        }
        _ => None,
    }
}

/// Reduction of an aligned segment; every member gets the result.
#[inline(always)]
#[track_caller]
pub(crate) fn seg_reduce<T: ShflValue, Op: ReduceOp<T>>(s: Seg, v: T, op: Op) -> T {
    if s.width == 1 {
        return v;
    }
    if let Some(r) = try_redux::<T, Op>(s.op_mask, v, op) {
        return r;
    }
    // The common case first, as one branch: every tile of the block full
    // (`all_full`, uniform) and the whole warp here — the butterfly with the
    // constant full mask. (`&`, not `&&`: one branch, not two.)
    if arch::likely(s.all_full & s.whole_warp_here()) {
        butterfly::<T, Op>(s.with_whole_warp(), v, op)
    } else {
        seg_reduce_shfl::<T, Op>(s, v, op)
    }
}

/// The shuffle-only part of [`seg_reduce`].
#[inline(always)]
#[track_caller]
fn seg_reduce_shfl<T: ShflValue, Op: ReduceOp<T>>(s: Seg, v: T, op: Op) -> T {
    if s.all_full {
        butterfly::<T, Op>(s, v, op)
    } else {
        // A block with a partial segment: exact whether or not this one is
        // (lane `n - 1` ends the scan with the total).
        let inc = seg_inclusive::<T, Op>(s, v, op);
        shfl_words(ShflMode::Idx, s.op_mask, inc, s.n - 1, s.clamp())
    }
}

/// `log2(width)` × (`shfl.sync.bfly` + ⊕), distances `width/2 … 1`.
#[inline(always)]
#[track_caller]
fn butterfly<T: ShflValue, Op: ReduceOp<T>>(s: Seg, mut v: T, op: Op) -> T {
    let mut d = s.width / 2;
    while d > 0 {
        v = op.combine(
            v,
            shfl_words(ShflMode::Bfly, s.op_mask, v, d, s.full_clamp()),
        );
        d /= 2;
    }
    v
}

/// Reduction of a coalesced group.
#[inline(always)]
#[track_caller]
pub(crate) fn coal_reduce<T: ShflValue, Op: ReduceOp<T>>(c: Coal, v: T, op: Op) -> T {
    if let Some(r) = try_redux::<T, Op>(c.mask, v, op) {
        return r;
    }
    if c.mask == u32::MAX {
        return butterfly::<T, Op>(Seg::warp(c.lane, 32, true), v, op);
    }
    let inc = coal_inclusive::<T, Op>(c, v, op);
    let last = 31 - c.mask.leading_zeros();
    shfl_words(ShflMode::Idx, c.mask, inc, last, 0x1f)
}
