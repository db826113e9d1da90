//! `shfl`, `shfl_up`, `shfl_down`, `shfl_xor`: one `shfl.sync` per 32-bit
//! word of the value, with group-relative lanes.
//!
//! * Tiles and dynamic tiles use the hardware's segment arithmetic (`c`
//!   operand = segment mask | clamp): a source outside the group's existing
//!   members yields the caller's own value — exactly CUDA's rule for a
//!   source past the tile, extended to tiles that a partial warp cuts short.
//! * Coalesced groups translate ranks to lanes with `fns.b32`.
//! * Multi-warp tiles broadcast through shared memory (`shfl` only, with a
//!   source uniform over the tile).

use super::exchange;
use super::value::{ShflValue, from_words, to_words, words};
use crate::arch::{self, ShflMode};
use crate::group::barrier;
use crate::group::shape::{Coal, Multi, Seg, Shape};

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

/// `shfl_up` for any `d`: the hardware reads only `d`'s low 5 bits, so a
/// distance of a whole tile or more is resolved here (own value).
#[inline(always)]
#[track_caller]
fn seg_shfl_up<T: ShflValue>(s: Seg, v: T, d: u32) -> T {
    let r = seg_shfl_up_raw(s, v, d);
    if d < s.width { r } else { v }
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

#[inline(always)]
#[track_caller]
fn seg_shfl_down<T: ShflValue>(s: Seg, v: T, d: u32) -> T {
    if s.width == 1 {
        return v;
    }
    let r = shfl_words(ShflMode::Down, s.op_mask, v, d, s.clamp());
    if d < s.width { r } else { v }
}

#[inline(always)]
#[track_caller]
fn seg_shfl_xor<T: ShflValue>(s: Seg, v: T, lane_mask: u32) -> T {
    if s.width == 1 {
        return v;
    }
    // Masked to the tile, so a partner is never outside it.
    shfl_words(
        ShflMode::Bfly,
        s.op_mask,
        v,
        lane_mask & (s.width - 1),
        s.clamp(),
    )
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

#[inline(always)]
#[track_caller]
fn coal_shfl<T: ShflValue>(c: Coal, v: T, src: u32) -> T {
    let lane = if src < c.size() {
        c.lane_of(src)
    } else {
        c.lane
    };
    coal_from_lane(c, v, lane)
}

/// The member `d` ranks below (own value if none).
#[inline(always)]
#[track_caller]
pub(crate) fn coal_shfl_up<T: ShflValue>(c: Coal, v: T, d: u32) -> T {
    let src = if d < 32 {
        arch::fns(c.mask, c.lane, -(d as i32 + 1))
    } else {
        u32::MAX
    };
    coal_from_lane(c, v, or_own(c.lane, src))
}

#[inline(always)]
#[track_caller]
fn coal_shfl_down<T: ShflValue>(c: Coal, v: T, d: u32) -> T {
    let src = if d < 32 {
        arch::fns(c.mask, c.lane, d as i32 + 1)
    } else {
        u32::MAX
    };
    coal_from_lane(c, v, or_own(c.lane, src))
}

#[inline(always)]
#[track_caller]
fn coal_shfl_xor<T: ShflValue>(c: Coal, v: T, lane_mask: u32) -> T {
    coal_shfl(c, v, c.rank() ^ lane_mask)
}

/// Broadcast from rank `src` of a multi-warp group (`src` uniform).
#[inline(always)]
#[track_caller]
fn multi_shfl<T: ShflValue>(m: Multi, v: T, src: u32) -> T {
    // The source must be the same for the whole group; the simulator checks
    // it warp by warp (free on the GPU).
    arch::check_uniform_warp(m.warp_seg().mask(), "shfl source rank", src as u64);
    let src = src & (m.max_warps * 32 - 1);
    if src >= m.n {
        return v;
    }
    if m.rank() == src {
        exchange::put(&m, v);
    }
    barrier::sync(&m);
    let r = exchange::get(&m, src / 32);
    barrier::sync(&m);
    r
}

/// `shfl` over any shape.
#[inline(always)]
#[track_caller]
pub(crate) fn shfl<T: ShflValue>(shape: Shape, v: T, src: u32) -> T {
    match shape {
        Shape::Seg(s) => seg_shfl(s, v, src),
        Shape::Coal(c) => coal_shfl(c, v, src),
        Shape::Multi(m) => multi_shfl(m, v, src),
    }
}

/// `shfl_up` over a warp shape.
#[inline(always)]
#[track_caller]
pub(crate) fn shfl_up<T: ShflValue>(shape: Shape, v: T, d: u32) -> T {
    match shape {
        Shape::Seg(s) => seg_shfl_up(s, v, d),
        Shape::Coal(c) => coal_shfl_up(c, v, d),
        Shape::Multi(_) => unreachable!("shfl_up exists only on groups within one warp"),
    }
}

/// `shfl_down` over a warp shape.
#[inline(always)]
#[track_caller]
pub(crate) fn shfl_down<T: ShflValue>(shape: Shape, v: T, d: u32) -> T {
    match shape {
        Shape::Seg(s) => seg_shfl_down(s, v, d),
        Shape::Coal(c) => coal_shfl_down(c, v, d),
        Shape::Multi(_) => unreachable!("shfl_down exists only on groups within one warp"),
    }
}

/// `shfl_xor` over a warp shape.
#[inline(always)]
#[track_caller]
pub(crate) fn shfl_xor<T: ShflValue>(shape: Shape, v: T, lane_mask: u32) -> T {
    match shape {
        Shape::Seg(s) => seg_shfl_xor(s, v, lane_mask),
        Shape::Coal(c) => coal_shfl_xor(c, v, lane_mask),
        Shape::Multi(_) => unreachable!("shfl_xor exists only on groups within one warp"),
    }
}
