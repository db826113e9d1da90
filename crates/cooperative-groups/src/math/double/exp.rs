//! Exponentials: `e^x`, `2^x`, `10^x`, `e^x - 1`, and the double-double
//! core the other functions (`pow`, the hyperbolic functions, `log`'s
//! Newton step, `erfc`, `tgamma`) build on.
//!
//! `x = k*ln2 + r` (`ln2` as a double-double), then `e^r - 1` without a
//! table or fitted coefficients: `t = r/256`, `e^t - 1` by its Taylor series
//! (degree 8, the tail below `2^-94` of the result), and eight squarings
//! `(1+m)^2 - 1 = 2m + m^2` in double-double, which keep the relative error
//! of `m` (about `2^-73`) instead of amplifying it as squaring `1 + m`
//! would.

use super::consts::{LN2, LN10, LOG2_10, LOG2E};
use super::dd::{Dd, fma, horner, mul, scale, two_sum};
use crate::arch::fp::rint;

/// `1/3!, …, 1/8!`: the Taylor coefficients of `(e^t - 1 - t - t^2/2) / t^3`.
const TAYLOR: [f64; 6] = [
    1.0 / 6.0,
    1.0 / 24.0,
    1.0 / 120.0,
    1.0 / 720.0,
    1.0 / 5040.0,
    1.0 / 40320.0,
];

/// `e^r - 1` for `|r| <= 0.36` with `|r| >= 2^-1000` or `r = 0` (so that
/// `r/256` is exact), relative error about `2^-73`.
#[inline(always)]
pub(crate) fn expm1_reduced(r: Dd) -> Dd {
    let t = r.scale(-8);
    let th = t.hi;
    let p = mul(th * th * th, horner(th, TAYLOR));
    let mut m = t + (t.sqr() * 0.5 + p);
    let mut i = 0;
    while i < 8 {
        m = m * 2.0 + m.sqr();
        i += 1;
    }
    m
}

/// `e^x = (1 + m) * 2^k` for `|x| <= 1100` (`m` in about `[-0.3, 0.42]`).
#[inline(always)]
pub(crate) fn exp_parts(x: Dd) -> (Dd, i32) {
    let k = rint(x.hi * LOG2E.hi);
    let r = x - LN2 * k;
    (expm1_reduced(r), k as i32)
}

/// `(1 + m) * 2^k` rounded once (up to the double rounding of a subnormal
/// result, within 1 ulp).
#[inline(always)]
pub(crate) fn finish(m: Dd, k: i32) -> f64 {
    scale((Dd::from(1.0) + m).round(), k)
}

/// `e^x` for a double-double `x`, rounded: overflow to `+inf` past 709.79,
/// `+0` below -745.2.
#[inline(always)]
pub(crate) fn exp_dd(x: Dd) -> f64 {
    if x.hi > 710.0 {
        return f64::INFINITY;
    }
    if x.hi < -746.0 {
        return 0.0;
    }
    let (m, k) = exp_parts(x);
    finish(m, k)
}

/// `exp(x)`: `e^x`. CUDA: 1 ulp; `exp(±0) = 1`, `exp(-∞) = +0`,
/// `exp(+∞) = +∞`.
#[inline(always)]
pub fn exp(x: f64) -> f64 {
    if x.is_nan() {
        return x + x;
    }
    if x.abs() < 1.0e-300 {
        return 1.0 + x; // e^x - 1 is below the last bit
    }
    exp_dd(Dd::from(x))
}

/// `exp2(x)`: `2^x`. CUDA: 1 ulp; exact for integral `x`.
#[inline(always)]
pub fn exp2(x: f64) -> f64 {
    if x.is_nan() {
        return x + x;
    }
    let x = x.clamp(-1080.0, 1025.0);
    let k = rint(x);
    let f = x - k; // exact
    if f == 0.0 {
        return scale(1.0, k as i32);
    }
    if f.abs() < 1.0e-300 {
        return scale(fma(f, LN2.hi, 1.0), k as i32);
    }
    let r = LN2 * f;
    finish(expm1_reduced(r), k as i32)
}

/// `exp10(x)`: `10^x`. CUDA: 1 ulp.
#[inline(always)]
pub fn exp10(x: f64) -> f64 {
    if x.is_nan() {
        return x + x;
    }
    if x.abs() < 1.0e-300 {
        return 1.0 + x;
    }
    let x = x.clamp(-330.0, 310.0);
    let k = rint(x * LOG2_10);
    // x*ln10 - k*ln2, each product as a double-double.
    let r = LN10 * x - LN2 * k;
    let (m, k) = (expm1_reduced(r), k as i32);
    finish(m, k)
}

/// `expm1(x)`: `e^x - 1`, accurate near 0. CUDA: 1 ulp; `expm1(±0) = ±0`,
/// `expm1(-∞) = -1`.
#[inline(always)]
pub fn expm1(x: f64) -> f64 {
    if x.is_nan() {
        return x + x;
    }
    if x.abs() < 1.0e-17 {
        // x + x^2/2 (the rest is below 2^-110 x); ±0 as is.
        return if x == 0.0 { x } else { fma(x, 0.5 * x, x) };
    }
    if x < -38.0 {
        return -1.0; // e^x < 2^-54: -1 + e^x rounds to -1
    }
    if x > 710.0 {
        return f64::INFINITY;
    }
    let (m, k) = exp_parts(Dd::from(x));
    if k > 56 {
        // The -1 is below the last bit of 2^k (1 + m).
        return finish(m, k);
    }
    // 2^k (1 + m) - 1 = 2^k m + (2^k - 1): 2^k m exact (k >= -56), the
    // sum in double-double, one rounding.
    (m.scale(k) + two_sum(super::dd::pow2(k), -1.0)).round()
}

/// `e^x - 1` as a double-double for `2^-1000 <= |x| <= 709`: relative
/// error about `2^-72`.
#[inline(always)]
pub(crate) fn expm1_dd(x: f64) -> Dd {
    if x.abs() <= 0.34 {
        return expm1_reduced(Dd::from(x));
    }
    let (m, k) = exp_parts(Dd::from(x));
    if k > 100 {
        return m.scale(k) + super::dd::pow2(k);
    }
    m.scale(k) + two_sum(super::dd::pow2(k), -1.0)
}
