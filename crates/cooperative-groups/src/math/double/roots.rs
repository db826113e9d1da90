//! Roots: `sqrt` (one instruction), `rsqrt`, `cbrt` (a Newton correction
//! with an exact residual), `hypot` (a double-double sum of squares).

use super::basic::copysign;
use super::dd::{fma, mul, pow2, scale, two_prod};
use crate::arch::fp;

/// `sqrt(x)`: the correctly rounded square root (`sqrt.rn.f64`). 0 ulp;
/// `sqrt(-0) = -0`, `sqrt(x < 0) = NaN`.
#[doc(alias = "sqrt.rn.f64")]
#[inline(always)]
pub fn sqrt(x: f64) -> f64 {
    fp::sqrt(x)
}

/// `rsqrt(x)`: `1 / sqrt(x)`. CUDA: 1 ulp; `rsqrt(±0) = ±∞`,
/// `rsqrt(+∞) = +0`, `rsqrt(x < 0) = NaN`.
///
/// `1/sqrt(x)` rounded twice, then one Newton correction
/// `y + y (1 - x y^2) / 2` with the residual `1 - x y^2` formed exactly
/// (`y^2` as a double-double): within about half an ulp.
#[inline(always)]
pub fn rsqrt(x: f64) -> f64 {
    if x == 0.0 || !x.is_finite() || x < 0.0 {
        return 1.0 / fp::sqrt(x);
    }
    // Keep y^2 and its error part normal and finite: above 2^1000 and
    // below 2^-1000 scale by an even power of two.
    let (x, post) = if x > pow2(1000) {
        (x * pow2(-600), pow2(-300))
    } else if x < pow2(-1000) {
        (x * pow2(600), pow2(300))
    } else {
        (x, 1.0)
    };
    let y = 1.0 / fp::sqrt(x);
    let yy = two_prod(y, y);
    let e = fma(-x, yy.lo, fma(-x, yy.hi, 1.0));
    fma(0.5 * y, e, y) * post
}

/// `cbrt(x)`: the real cube root. CUDA: 1 ulp; `cbrt(±0) = ±0`,
/// `cbrt(±∞) = ±∞`.
///
/// `|x| = m 2^(3q)`, `m` in `[1, 8)`; Newton's method from a linear
/// start, then one last step whose residual `y^3 - m` is exact.
#[inline(always)]
pub fn cbrt(x: f64) -> f64 {
    if x == 0.0 || !x.is_finite() {
        return x + x;
    }
    let (a, e0) = if x.abs() < f64::MIN_POSITIVE {
        (x.abs() * pow2(54), -18)
    } else {
        (x.abs(), 0)
    };
    let e = ((a.to_bits() >> 52) as i32) - 1023;
    let q = e.div_euclid(3);
    let m = scale(a, -3 * q); // in [1, 8), exact
    let mut y = fma(0.2, m, 0.6);
    let mut i = 0;
    while i < 5 {
        y = y - (y - m / mul(y, y)) / 3.0;
        i += 1;
    }
    // Exact residual y^3 - m: y^2 = p + pl, y p = h + hl, y pl to a double.
    let p = two_prod(y, y);
    let h = two_prod(y, p.hi);
    let r = (h + (-m)) + fma(y, p.lo, 0.0);
    let y = y - r.round() / (3.0 * y * y);
    copysign(y * pow2(q + e0), x)
}

/// `hypot(x, y)`: `sqrt(x^2 + y^2)` without undue overflow or underflow.
/// CUDA: 2 ulp; `hypot(±∞, y) = +∞` even for a NaN `y`.
#[inline(always)]
pub fn hypot(x: f64, y: f64) -> f64 {
    let (ax, ay) = (x.abs(), y.abs());
    if ax.is_infinite() || ay.is_infinite() {
        return f64::INFINITY;
    }
    if ax.is_nan() || ay.is_nan() {
        return x + y;
    }
    let (a, b) = if ax >= ay { (ax, ay) } else { (ay, ax) };
    if a == 0.0 {
        return 0.0;
    }
    // Scale the larger into [1, 2) (b scaled too: if it underflows, it was
    // below 2^-54 a and does not matter).
    let e = ((a.to_bits() >> 52) as i32).max(1) - 1023;
    let (a, b) = (scale(a, -e), scale(b, -e));
    let (a, b) = if a < 1.0 {
        // a was subnormal: one more step into [1, 2).
        let s = 52;
        (a * pow2(s), b * pow2(s))
    } else {
        (a, b)
    };
    let e = if ax.max(ay) < f64::MIN_POSITIVE {
        e - 52
    } else {
        e
    };
    let s = (two_prod(a, a) + two_prod(b, b)).sqrt();
    scale(s.round(), e)
}
