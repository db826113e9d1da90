//! Votes within one warp (`vote.sync`), with ballots returned
//! group-relative (bit `r` = the member of rank `r`), and the lane-mask
//! helpers `match` shares.

use crate::arch;
use crate::group::shape::Shape;

/// Hacker's Delight's `compress` (PTX has no `pext`): the bits of `x`
/// selected by `m`, packed towards bit 0 in order.
#[inline(always)]
pub(crate) const fn compress(x: u32, m: u32) -> u32 {
    let mut x = x & m;
    let mut m = m;
    let mut mk = !m << 1;
    let mut i = 0;
    while i < 5 {
        let mut mp = mk ^ (mk << 1);
        mp ^= mp << 2;
        mp ^= mp << 4;
        mp ^= mp << 8;
        mp ^= mp << 16;
        let mv = mp & m;
        m = (m ^ mv) | (mv >> (1 << i));
        let t = x & mv;
        x = (x ^ t) | (t >> (1 << i));
        mk &= !mp;
        i += 1;
    }
    x
}

/// A lane mask of the group, as ranks.
#[inline(always)]
pub(crate) fn to_ranks(shape: &Shape, lanes: u32) -> u32 {
    match shape {
        Shape::Seg(s) => (lanes & s.mask()) >> s.base(),
        Shape::Coal(c) => compress(lanes, c.mask),
        Shape::Multi(_) => unreachable!("lane masks exist only for groups within one warp"),
    }
}

/// The `membermask` operand and the caller's lane, for a warp shape.
#[inline(always)]
pub(crate) fn warp_operands(shape: &Shape) -> (u32, u32) {
    match shape {
        Shape::Seg(s) => (s.op_mask, s.lane),
        Shape::Coal(c) => (c.mask, c.lane),
        Shape::Multi(_) => unreachable!("not a group within one warp"),
    }
}

/// `vote.sync.any` over a warp shape.
#[inline(always)]
#[track_caller]
pub(crate) fn any(shape: &Shape, pred: bool) -> bool {
    let (mask, _) = warp_operands(shape);
    arch::vote_any(mask, pred)
}

/// `vote.sync.all` over a warp shape.
#[inline(always)]
#[track_caller]
pub(crate) fn all(shape: &Shape, pred: bool) -> bool {
    let (mask, _) = warp_operands(shape);
    arch::vote_all(mask, pred)
}

/// `ballot` over a warp shape, group-relative.
#[inline(always)]
#[track_caller]
pub(crate) fn ballot(shape: &Shape, pred: bool) -> u32 {
    let (mask, _) = warp_operands(shape);
    to_ranks(shape, arch::ballot(mask, pred))
}

#[cfg(test)]
mod tests {
    use super::compress;

    #[test]
    fn compress_is_pext() {
        let naive = |x: u32, m: u32| {
            let (mut r, mut k) = (0u32, 0);
            for i in 0..32 {
                if m >> i & 1 == 1 {
                    r |= (x >> i & 1) << k;
                    k += 1;
                }
            }
            r
        };
        let mut s = 0x1234_5678u32;
        for _ in 0..10_000 {
            s ^= s << 13;
            s ^= s >> 17;
            s ^= s << 5;
            let x = s;
            s ^= s << 13;
            s ^= s >> 17;
            s ^= s << 5;
            assert_eq!(compress(x, s), naive(x, s), "x={x:#x} m={s:#x}");
        }
        assert_eq!(compress(u32::MAX, u32::MAX), u32::MAX);
        assert_eq!(compress(0b1010, 0b1110), 0b101);
    }
}
