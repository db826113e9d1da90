//! The building blocks every function uses: the exactly rounded operations
//! of the arch layer, bit access, Horner evaluation and exact scaling.
//!
//! Contraction rule: a product that feeds an addition is always written as
//! an explicit [`fma`]; a plain `a * b` only feeds multiplications or
//! comparisons. Then `-fp-contract=fast` (which may fuse any `fmul` into a
//! following `fadd` on the GPU, but not on the host) has nothing to fuse,
//! and the GPU and the simulator compute the same bits.

pub(crate) use crate::arch::fp::{ceilf, floorf, fmaf as fma, rintf, sqrtf, truncf};

/// The bits of `x`.
#[inline(always)]
pub(crate) fn bits(x: f32) -> u32 {
    x.to_bits()
}
/// The `f32` of bits `b`.
#[inline(always)]
pub(crate) fn from_bits(b: u32) -> f32 {
    f32::from_bits(b)
}

/// 1.5 · 2^23: `v + ROUNDER` lies in `[2^23, 2^24)` for `|v| < 2^22`, where
/// the spacing of `f32` is 1.
const ROUNDER: f32 = 12_582_912.0;

/// `(rintf(v), rintf(v) as i32)` for `|v| < 2^22` (a zero result is `+0`
/// where `rintf` keeps the sign of a negative `v`; every caller only
/// multiplies it into a sum with a nonzero term, or subtracts it from a
/// zero, where the sign makes no difference to the result), without
/// the conversion unit: `t = v + 1.5·2^23` rounds `v` to the nearest
/// integer (ties to even) in `t`'s last place, `t - 1.5·2^23` is that
/// integer exactly, and `t`'s bits less `1.5·2^23`'s are the same integer
/// (one bit per unit in `t`'s binade). Two additions and an integer
/// subtraction, all full-rate, where `cvt.rni.f32.f32` and
/// `cvt.rzi.s32.f32` (SASS `FRND`, `F2I`) each take the quarter-rate
/// conversion pipe — the exponentials and the trigonometric reduction
/// spent two of their ~25 instructions there. For NaN `v` the float is
/// NaN and the integer unspecified (the callers' results are NaN
/// regardless). `v` must not be a product the compiler could fuse into
/// the addition (pass [`mul`]'s result), or the GPU would round once where
/// the host rounds twice.
#[inline(always)]
pub(crate) fn rint_i(v: f32) -> (f32, i32) {
    let t = v + ROUNDER;
    (t - ROUNDER, bits(t).wrapping_sub(bits(ROUNDER)) as i32)
}

/// `2^k` for `-126 <= k <= 127` (a normal number: exact).
#[inline(always)]
pub(crate) fn pow2i(k: i32) -> f32 {
    from_bits(((k + 127) as u32) << 23)
}

/// `p * 2^j` with one rounding, for `-252 <= j <= 254`: two exact-range
/// factors, so that only the last multiplication can round (into the
/// subnormals) or overflow.
#[inline(always)]
pub(crate) fn scale2(p: f32, j: i32) -> f32 {
    let h = j >> 1;
    p * pow2i(h) * pow2i(j - h)
}

/// `a * b` rounded, as an `fma` with a zero addend: a product that a sum
/// will use, which `-fp-contract=fast` then cannot fuse into that sum
/// (`fma(a, b, +0)` equals `a * b` except for the sign of a zero product).
#[inline(always)]
pub(crate) fn mul(a: f32, b: f32) -> f32 {
    fma(a, b, 0.0)
}

/// Horner's rule with one `fma` per coefficient: `c[0] + x*(c[1] + x*(…))`.
#[inline(always)]
pub(crate) fn horner<const N: usize>(x: f32, c: [f32; N]) -> f32 {
    let mut acc = c[N - 1];
    let mut i = N - 1;
    while i > 0 {
        i -= 1;
        acc = fma(acc, x, c[i]);
    }
    acc
}

#[cfg(test)]
mod tests {
    use super::{rint_i, rintf};

    /// `rint_i` is `rintf` and its conversion, bit for bit: every `f32`
    /// of magnitude below 2^10 with a few low bits set (halfway cases and
    /// their neighbours included), and every integer near the 2^22 limit.
    #[test]
    fn rint_i_is_rintf_and_its_integer() {
        let check = |v: f32| {
            let (f, i) = rint_i(v);
            assert_eq!(f, rintf(v), "v = {v:e}");
            assert!(f != 0.0 || f.is_sign_positive(), "v = {v:e}");
            assert_eq!(i, rintf(v) as i32, "v = {v:e}");
        };
        let mut b = 0u32;
        while b < 0x4480_0000 {
            check(f32::from_bits(b));
            check(-f32::from_bits(b));
            b += 0x3f1;
        }
        for k in 0..4096 {
            let h = (k as f32) * 0.25;
            check(h);
            check(-h);
            check(4_194_303.0 - h);
            check(-(4_194_303.0 - h));
        }
    }
}
