//! Logarithms: `ln x`, `log2 x`, `log10 x`, `ln(1 + x)`, and the
//! double-double `ln` the other functions (`pow`, the inverse hyperbolic
//! functions, `lgamma`) build on.
//!
//! A first approximation `y0` (within a few ulp: `x = 2^e (1 + f)`,
//! `ln(1 + f) = 2 atanh(f / (2 + f))` by its series), then one Newton step
//! on `e^y = x` with the double-double exponential of [`super::exp`]:
//! `y = y0 + (x e^{-y0} - 1)`, which squares the error of `y0` (to about
//! `2^-100`) and leaves the exponential's `2^-73` relative error on the
//! correction only. Every result rounds once, at the end.

use super::consts::{LN2, LOG2E, LOG10E};
use super::dd::{Dd, fma, horner, mul, pow2, two_sum};
use super::exp::exp_parts;

/// `1/3, 1/5, …, 1/21`: the series of `(atanh(s) - s) / s^3` in `s^2`.
const ATANH_SERIES: [f64; 10] = [
    1.0 / 3.0,
    1.0 / 5.0,
    1.0 / 7.0,
    1.0 / 9.0,
    1.0 / 11.0,
    1.0 / 13.0,
    1.0 / 15.0,
    1.0 / 17.0,
    1.0 / 19.0,
    1.0 / 21.0,
];

/// `ln x` within a few ulp, for finite `x > 0`.
#[inline(always)]
fn log_approx(x: f64) -> f64 {
    // Subnormals: scale into the normals first.
    let (x, e0) = if x < f64::MIN_POSITIVE {
        (x * pow2(54), -54)
    } else {
        (x, 0)
    };
    // x = 2^e * m with m in [sqrt(1/2), sqrt(2)).
    let ix = x.to_bits().wrapping_sub(0x3fe6_a09e_667f_3bcd);
    let e = (ix as i64) >> 52;
    let m = f64::from_bits(x.to_bits().wrapping_sub((e as u64) << 52));
    let f = m - 1.0;
    let s = f / (2.0 + f); // |s| <= 0.1716: s^22/23 < 2^-58
    let s2 = s * s;
    let t = mul(s * s2, horner(s2, ATANH_SERIES));
    fma((e + e0) as f64, LN2.hi, 2.0 * (s + t))
}

/// `ln x` as a double-double for a double-double `x` with finite `x.hi > 0`
/// (`|x.lo| <= ulp(x.hi)`). Absolute error about `2^-74 max(1, |ln x|)`,
/// and relative error about `2^-72` near `x = 1`.
#[inline(always)]
pub(crate) fn log_dd(x: Dd) -> Dd {
    let y0 = log_approx(x.hi);
    // e^{-y0} = (1 + m) 2^k; w = x 2^k is near 1/(1 + m) (exact scaling).
    let (m, k) = exp_parts(Dd::from(-y0));
    let w = x.scale(k);
    // d = w (1 + m) - 1 = (w - 1) + w m, with w.hi - 1 exact (Sterbenz).
    let d = (w * m + (w.hi - 1.0)) + w.lo;
    // ln(1 + d) = d - d^2/2 (d is about 2^-50: the cube is far below).
    let d = d - mul(0.5 * d.hi, d.hi);
    two_sum(y0, d.hi) + d.lo
}

/// The special values of the logarithms: `Some` for `x <= 0`, `+∞`, NaN.
#[inline(always)]
fn special(x: f64) -> Option<f64> {
    if x > 0.0 && x < f64::INFINITY {
        None
    } else if x == 0.0 {
        Some(f64::NEG_INFINITY)
    } else if x < 0.0 {
        Some(f64::NAN)
    } else {
        Some(x + x) // +inf, NaN
    }
}

/// `log(x)`: the natural logarithm. CUDA: 1 ulp; `log(±0) = -∞`,
/// `log(1) = +0`, `log(x < 0) = NaN`, `log(+∞) = +∞`.
#[inline(always)]
pub fn log(x: f64) -> f64 {
    if let Some(s) = special(x) {
        return s;
    }
    log_dd(Dd::from(x)).round()
}

/// `log2(x)`: the base-2 logarithm. CUDA: 1 ulp; exact for powers of 2.
#[inline(always)]
pub fn log2(x: f64) -> f64 {
    if let Some(s) = special(x) {
        return s;
    }
    (log_dd(Dd::from(x)) * LOG2E).round()
}

/// `log10(x)`: the base-10 logarithm. CUDA: 1 ulp.
#[inline(always)]
pub fn log10(x: f64) -> f64 {
    if let Some(s) = special(x) {
        return s;
    }
    (log_dd(Dd::from(x)) * LOG10E).round()
}

/// `log1p(x)`: `ln(1 + x)`, accurate near 0. CUDA: 1 ulp;
/// `log1p(±0) = ±0`, `log1p(-1) = -∞`, `log1p(x < -1) = NaN`.
#[inline(always)]
pub fn log1p(x: f64) -> f64 {
    if x.abs() < 1.0e-17 {
        return fma(x, -0.5 * x, x); // x - x^2/2, exact enough (and ±0, NaN)
    }
    if let Some(s) = special(1.0 + x) {
        return if x == f64::INFINITY { x } else { s };
    }
    // 1 + x exactly as a double-double.
    log_dd(two_sum(1.0, x)).round()
}
