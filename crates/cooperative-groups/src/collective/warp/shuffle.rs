//! Shuffles within one warp: one `shfl.sync` per 32-bit word of the value,
//! with group-relative lanes.
//!
//! * Segments (tiles, dynamic tiles) use the hardware's segment arithmetic
//!   (`c` operand = segment mask | clamp): a source outside the group's
//!   existing members yields the caller's own value — exactly CUDA's rule
//!   for a source past the tile, extended to tiles that a partial warp cuts
//!   short.
//! * Coalesced groups translate ranks to lanes with `fns.b32`.

use crate::arch::{self, ShflMode};
use crate::group::shape::{Coal, FULL, Seg};
use crate::value::{ShflValue, from_words, to_words, words};

/// One `shfl.sync` per word of `v`. (A plain loop, not a closure: the
/// simulator's reports name the caller of a `#[track_caller]` chain, and a
/// closure would cut the chain.)
#[inline(always)]
#[track_caller]
pub(crate) fn shfl_words<T: ShflValue>(mode: ShflMode, mask: u32, v: T, b: u32, c: u32) -> T {
    let mut buf = to_words(v);
    let mut i = 0;
    while i < words::<T>() {
        buf[i] = arch::shfl(mode, mask, buf[i], b, c);
        i += 1;
    }
    from_words(buf)
}

/// `shfl.sync.up` by `d < width` inside the segment (lanes below `d` keep `v`).
#[inline(always)]
#[track_caller]
pub(crate) fn seg_shfl_up_raw<T: ShflValue>(s: Seg, v: T, d: u32) -> T {
    if s.width == 1 {
        return v;
    }
    shfl_words(ShflMode::Up, s.op_mask, v, d, s.seg_bits())
}

/// `shfl.sync.up` by `0 < d < width` inside the segment, and whether the
/// source exists: `rank >= d`, read from the shuffle's own predicate
/// output (no compare of the rank, no predicate register held across a
/// loop). One `shfl.sync` per word; the predicate is the same for each.
#[inline(always)]
#[track_caller]
pub(crate) fn seg_shfl_up_pred<T: ShflValue>(s: Seg, v: T, d: u32) -> (T, bool) {
    if words::<T>() == 0 {
        // Nothing to move (a zero-sized value): no shuffle, the rank decides.
        return (v, s.rank() >= d);
    }
    let mut buf = to_words(v);
    let (w0, ok) = arch::shfl_up_pred(s.op_mask, buf[0], d, s.seg_bits());
    buf[0] = w0;
    let mut i = 1;
    while i < words::<T>() {
        buf[i] = arch::shfl(ShflMode::Up, s.op_mask, buf[i], d, s.seg_bits());
        i += 1;
    }
    (from_words(buf), ok)
}

/// [`seg_shfl_up_pred`] and, where the source exists, its value added to
/// `v` (wrapping), for one-word `T` (32-bit integers): `shfl.sync.up` with
/// a predicated add, one instruction less than a select on `rank >= d`.
#[inline(always)]
#[track_caller]
pub(crate) fn seg_shfl_up_add<T: ShflValue>(s: Seg, v: T, d: u32) -> T {
    // Not a `const` assert: the callers' generic code instantiates this for
    // every `T` behind a `size_of` check.
    debug_assert!(size_of::<T>() == 4, "a one-word value");
    let mut buf = to_words(v);
    buf[0] = arch::shfl_up_add(s.op_mask, buf[0], d, s.seg_bits());
    from_words(buf)
}

/// `shfl_up` for any `d`, as `__shfl_up_sync(mask, v, d, width)`: the
/// hardware reads `d`'s low 5 bits, so `d = 33` moves by one lane, as in
/// CUDA.
#[inline(always)]
#[track_caller]
pub(crate) fn seg_shfl_up<T: ShflValue>(s: Seg, v: T, d: u32) -> T {
    seg_shfl_up_raw(s, v, d)
}

/// The member of rank `src mod width` (own value if that rank does not exist).
#[inline(always)]
#[track_caller]
pub(crate) fn seg_shfl<T: ShflValue>(s: Seg, v: T, src: u32) -> T {
    if s.width == 1 {
        return v;
    }
    shfl_words(ShflMode::Idx, s.op_mask, v, src, s.clamp())
}

/// `shfl_down` for any `d`, as `__shfl_down_sync(mask, v, d, width)` (low
/// 5 bits of `d`); a source past the last existing member yields the
/// caller's own value.
#[inline(always)]
#[track_caller]
pub(crate) fn seg_shfl_down<T: ShflValue>(s: Seg, v: T, d: u32) -> T {
    if s.width == 1 {
        return v;
    }
    shfl_words(ShflMode::Down, s.op_mask, v, d, s.clamp())
}

/// `shfl_xor` as `__shfl_xor_sync(mask, v, lane_mask, width)`: the partner is
/// lane `lane ^ (lane_mask & 31)`. Inside the tile it is the member of rank
/// `rank ^ lane_mask`; in a later segment of `width` lanes the caller keeps
/// its own value; in an earlier segment the caller reads that lane — CUDA's
/// documented width rule. That lane belongs to another tile, so its value is
/// defined only when it takes part in the shuffle: the whole warp then
/// shuffles with the full mask (`with_warp_mask!`, the same data as the
/// tile's mask). When the warp is not all here (a divergent branch, a
/// partial warp) CUDA leaves the read undefined; the library gives the
/// caller's own value.
#[inline(always)]
#[track_caller]
pub(crate) fn seg_shfl_xor<T: ShflValue>(s: Seg, v: T, lane_mask: u32) -> T {
    // No shortcut for 1-lane tiles: the width rule reads earlier lanes there too.
    with_warp_mask!(s, {
        let r = shfl_words(ShflMode::Bfly, s.op_mask, v, lane_mask, s.clamp());
        let partner = s.lane ^ (lane_mask & 31);
        // Folds away for 32-lane tiles and for masks known to stay inside
        // the tile; the full-mask copy has a defined partner everywhere.
        if s.op_mask != FULL && partner < s.base() {
            v
        } else {
            r
        }
    })
}

/// `shfl.sync.idx` from absolute lane `src` (which must be a member).
#[inline(always)]
#[track_caller]
fn coal_from_lane<T: ShflValue>(c: Coal, v: T, src: u32) -> T {
    shfl_words(ShflMode::Idx, c.mask, v, src, 0x1f)
}

/// `fns`'s "not found" becomes the caller's own lane.
#[inline(always)]
fn or_own(lane: u32, found: u32) -> u32 {
    if found == u32::MAX { lane } else { found }
}

/// `shfl(v, src)` on a coalesced group, lane for lane as NVIDIA's
/// `coalesced_group::shfl`: in a full warp rank `src` is lane `src & 31`;
/// otherwise the member found by `fns(mask, 0, src + 1)`, and for a rank
/// past the last member lane 31 (the last member if lane 31 is one, else
/// undefined in CUDA and the caller's own value here).
#[inline(always)]
#[track_caller]
pub(crate) fn coal_shfl<T: ShflValue>(c: Coal, v: T, src: u32) -> T {
    let lane = if c.mask == FULL {
        src & 31
    } else {
        let found = arch::fns(c.mask, 0, (src as i32).wrapping_add(1));
        if found != u32::MAX {
            found
        } else if c.mask >> 31 == 1 {
            31
        } else {
            c.lane
        }
    };
    coal_from_lane(c, v, lane)
}

/// The member `d` ranks below (own value if none), as NVIDIA's
/// `coalesced_group::shfl_up`: a full warp shuffles by `d & 31`.
#[inline(always)]
#[track_caller]
pub(crate) fn coal_shfl_up<T: ShflValue>(c: Coal, v: T, d: u32) -> T {
    let d = if c.mask == FULL { d & 31 } else { d };
    let src = if d < 32 {
        arch::fns(c.mask, c.lane, -(d as i32 + 1))
    } else {
        u32::MAX
    };
    coal_from_lane(c, v, or_own(c.lane, src))
}

/// The member `d` ranks above (own value if none), as NVIDIA's
/// `coalesced_group::shfl_down`: a full warp shuffles by `d & 31`.
#[inline(always)]
#[track_caller]
pub(crate) fn coal_shfl_down<T: ShflValue>(c: Coal, v: T, d: u32) -> T {
    let d = if c.mask == FULL { d & 31 } else { d };
    let src = if d < 32 {
        arch::fns(c.mask, c.lane, d as i32 + 1)
    } else {
        u32::MAX
    };
    coal_from_lane(c, v, or_own(c.lane, src))
}

/// `shfl_xor` on a coalesced group (NVIDIA's has none): the member of rank
/// `rank ^ lane_mask`, own value if there is none.
#[inline(always)]
#[track_caller]
pub(crate) fn coal_shfl_xor<T: ShflValue>(c: Coal, v: T, lane_mask: u32) -> T {
    let r = c.rank() ^ lane_mask;
    let lane = if r < c.size() { c.lane_of(r) } else { c.lane };
    coal_from_lane(c, v, lane)
}
