//! Exponentials: `e^x`, `2^x`, `10^x`, `e^x - 1`.
//!
//! Each reduces `x = j*c + r` (Cody–Waite: `c` split in two so that the
//! first `fma` is exact), approximates the exponential of `r` by a
//! polynomial (coefficients from `scripts/math_coeffs.py`), and scales by
//! `2^j` with [`scale2`] (one rounding, into the subnormals too).

use super::util::{fma, horner, mul, pow2i, rint_i, scale2};

const LOG2E: f32 = core::f32::consts::LOG2_E;
/// ln 2 = LN2_HI + LN2_LO; `fma(j, -LN2_HI, x)` is exact for the `j` here.
const LN2_HI: f32 = 0.6931472;
const LN2_LO: f32 = -1.9046542e-09;
/// `(e^r - 1 - r) / r^2` on `|r| <= ln2/2`.
const EXP_P: [f32; 6] = [
    0.5,
    0.16666666,
    0.041666295,
    0.008333497,
    0.0013944681,
    0.00019790327,
];
/// `(2^r - 1) / r` on `|r| <= 1/2`.
const EXP2_P: [f32; 7] = [
    0.6931472,
    0.2402265,
    0.0555041,
    0.009618038,
    0.0013333935,
    0.00015466758,
    1.5196155e-05,
];
const LOG2_10: f32 = core::f32::consts::LOG2_10;
/// log10(2) = LOG10_2_HI + LOG10_2_LO.
const LOG10_2_HI: f32 = 0.30103;
const LOG10_2_LO: f32 = -1.4320989e-08;
/// `(10^r - 1) / r` on `|r| <= log10(2)/2`.
const EXP10_P: [f32; 7] = [
    2.3025851, 2.650949, 2.0346785, 1.171244, 0.5393982, 0.20784561, 0.06783676,
];

/// `e^r - 1` for `|r| <= ln2/2` (plus a rounding), as `r + r^2 * P(r)`.
#[inline(always)]
pub(crate) fn expm1_small(r: f32) -> f32 {
    fma(horner(r, EXP_P), r * r, r)
}

/// `x = j*ln2 + r`, `|r| <= ln2/2` (slightly more after rounding).
#[inline(always)]
pub(crate) fn reduce_ln2(x: f32) -> (f32, i32) {
    let (j, ji) = rint_i(mul(x, LOG2E));
    let r = fma(j, -LN2_HI, x);
    let r = fma(j, -LN2_LO, r);
    (r, ji)
}

/// `e^x` as `(p, j)` with `e^x = p * 2^j`, `p` in about `[0.7, 1.42]`, for
/// `-104 <= x <= 89` (NaN gives NaN `p`).
#[inline(always)]
pub(crate) fn exp_parts(x: f32) -> (f32, i32) {
    let (r, j) = reduce_ln2(x);
    (1.0 + expm1_small(r), j)
}

/// `e^x = (p_hi + p_lo) * 2^j` for `-104 <= x <= 90`, with `p_hi + p_lo`
/// (about `[0.7, 1.42]`) accurate beyond `f32`: the sum `1 + m` kept
/// exactly as two floats (Fast2Sum).
#[inline(always)]
pub(crate) fn exp_hilo(x: f32) -> (f32, f32, i32) {
    let (r, j) = reduce_ln2(x);
    let m = expm1_small(r);
    let hi = 1.0 + m;
    let lo = (1.0 - hi) + m;
    (hi, lo, j)
}

/// `expf(x)`: `e^x`. CUDA: 2 ulp (full range); special values
/// `expf(±0) = 1`, `expf(-∞) = +0`, `expf(+∞) = +∞`.
#[doc(alias = "exp")]
#[inline(always)]
pub fn expf(x: f32) -> f32 {
    // Past 89 every result is +inf, below -104 +0: clamping keeps 2^j in
    // scale2's range. NaN passes (comparisons are false).
    let x = x.clamp(-104.0, 89.0);
    let (p, j) = exp_parts(x);
    scale2(p, j)
}

/// `exp2f(x)`: `2^x`. CUDA: 2 ulp.
#[doc(alias = "exp2")]
#[inline(always)]
pub fn exp2f(x: f32) -> f32 {
    let x = x.clamp(-151.0, 129.0);
    let (j, ji) = rint_i(x);
    let r = x - j; // exact
    let p = fma(horner(r, EXP2_P), r, 1.0);
    scale2(p, ji)
}

/// `exp10f(x)`: `10^x`. CUDA: 2 ulp.
#[doc(alias = "exp10")]
#[inline(always)]
pub fn exp10f(x: f32) -> f32 {
    let x = x.clamp(-45.5, 39.0);
    let (j, ji) = rint_i(mul(x, LOG2_10));
    let r = fma(j, -LOG10_2_HI, x);
    let r = fma(j, -LOG10_2_LO, r);
    let p = fma(horner(r, EXP10_P), r, 1.0);
    scale2(p, ji)
}

/// `expm1f(x)`: `e^x - 1`, accurate near 0. CUDA: 1 ulp.
#[doc(alias = "expm1")]
#[inline(always)]
pub fn expm1f(x: f32) -> f32 {
    if x.abs() < 0.346_573_6 {
        // The polynomial itself (±0 returned as is: `-0 + 0*P` is +0).
        return if x == 0.0 { x } else { expm1_small(x) };
    }
    if x < -17.5 {
        // e^x < 2^-25: -1 + e^x rounds to -1.
        return -1.0;
    }
    let x = if x > 89.0 { 89.0 } else { x };
    // x = j*ln2 + r_hi + r_lo with r_hi exact: e^r - 1 = r_hi + q.
    let (j, ji) = rint_i(mul(x, LOG2E));
    let r_hi = fma(j, -LN2_HI, x);
    let r_lo = j * -LN2_LO;
    let q = fma(r_hi * r_hi, horner(r_hi, EXP_P), fma(r_lo, r_hi, r_lo));
    let j = ji;
    if j < -24 {
        // 2^j - 1 is not exact below 2^-24: -1 + 2^j (1 + m) in one fma
        // (the rounding of 1 + m is far below the result's last bit).
        return fma(pow2i(j), 1.0 + (r_hi + q), -1.0);
    }
    if j <= 24 {
        // 2^j * (1 + r_hi + q) - 1 = (s*r_hi + (s - 1)) + s*q: the first
        // two terms are exact (s = 2^j, and s - 1 is exact for
        // -24 <= j <= 24), their sum is formed with its error (TwoSum,
        // exact products only, which contraction cannot change), and the
        // result rounds once at the end.
        let s = pow2i(j);
        let (a, b) = (s * r_hi, s - 1.0);
        let sum = a + b;
        let v = sum - a;
        let err = (a - (sum - v)) + (b - v);
        sum + fma(s, q, err)
    } else {
        // 2^j * (1 + m - 2^-j): the -1 folded into m (below a quarter ulp
        // of the result), one rounding in the fma, then an exact doubling
        // (which overflows to +inf past f32::MAX).
        let m = r_hi + q;
        let h = pow2i(j - 1);
        fma(h, m - pow2i(-j.min(126)), h) * 2.0
    }
}
