//! Sine, cosine, tangent (of radians, and of multiples of π) in `f64`.
//!
//! After the reduction by π/2 ([`rem_pio2`], a double-double `r`), `sin r`
//! and `cos r` by their Taylor series to degree 19 and 20 (the rest below
//! `2^-63` of the result on `|r| <= π/4`), the leading terms exactly, so
//! that each is a double-double within about `2^-55`; the quadrant picks
//! one and its sign. `tan` divides the two double-doubles.

use super::basic::copysign;
use super::consts::PI;
use super::dd::{Dd, fast_two_sum, fma, horner, mul, two_prod};
use super::reduce::rem_pio2;
use crate::arch::fp::{floor, rint};

/// `(-1)^k / (2k+1)!`, `k = 1..=9`: `(sin r - r) / r^3` in `r^2`.
const SIN_T: [f64; 9] = [
    -1.0 / 6.0,
    1.0 / 120.0,
    -1.0 / 5040.0,
    1.0 / 362880.0,
    -1.0 / 39916800.0,
    1.0 / 6227020800.0,
    -1.0 / 1307674368000.0,
    1.0 / 355687428096000.0,
    -1.0 / 121645100408832000.0,
];
/// `(-1)^k / (2k)!`, `k = 2..=10`: `(cos r - 1 + r^2/2) / r^4` in `r^2`.
const COS_T: [f64; 9] = [
    1.0 / 24.0,
    -1.0 / 720.0,
    1.0 / 40320.0,
    -1.0 / 3628800.0,
    1.0 / 479001600.0,
    -1.0 / 87178291200.0,
    1.0 / 20922789888000.0,
    -1.0 / 6402373705728000.0,
    1.0 / 2432902008176640000.0,
];

/// `sin r` for the reduced `r`.
#[inline(always)]
pub(crate) fn sin_dd(r: Dd) -> Dd {
    let (rh, rl) = (r.hi, r.lo);
    let r2 = rh * rh;
    let tail = mul(rh * r2, horner(r2, SIN_T));
    // sin(rh + rl) = sin rh + rl cos rh (rl^2 is below 2^-106 rh).
    fast_two_sum(rh, fma(rl, fma(-0.5, r2, 1.0), tail))
}

/// `cos r` for the reduced `r`: `1 - r^2/2` formed exactly (`w = 1 - hz`
/// and the rounding of `w` kept), the rest in the tail.
#[inline(always)]
pub(crate) fn cos_dd(r: Dd) -> Dd {
    let (rh, rl) = (r.hi, r.lo);
    let p = two_prod(rh, rh);
    let hz = 0.5 * p.hi;
    let w = 1.0 - hz;
    let r2 = p.hi;
    let t = ((1.0 - w) - hz) - 0.5 * p.lo;
    let t = fma(-rh, rl, t);
    let t = fma(r2 * r2, horner(r2, COS_T), t);
    fast_two_sum(w, t)
}

/// Negates `y` when `neg`.
#[inline(always)]
fn flip(y: Dd, neg: bool) -> Dd {
    if neg { -y } else { y }
}

/// `(sin x, cos x)` as double-doubles from the reduced argument.
#[inline(always)]
fn sincos_q(r: Dd, q: u32) -> (Dd, Dd) {
    let (s, c) = (sin_dd(r), cos_dd(r));
    let (s2, c2) = if q & 1 != 0 { (c, s) } else { (s, c) };
    (flip(s2, q & 2 != 0), flip(c2, (q + 1) & 2 != 0))
}

/// Below this, `sin x` and `tan x` round to `x` (`x^2/3 < 2^-55`).
const TINY: f64 = 7.450580596923828e-9; // 2^-27

/// `sin(x)`: the sine of `x` radians. CUDA: 2 ulp; `sin(±0) = ±0`,
/// `sin(±∞) = NaN`. Any argument, however large, is reduced exactly.
#[inline(always)]
pub fn sin(x: f64) -> f64 {
    if x.abs() < TINY {
        return x;
    }
    let (r, q) = rem_pio2(x);
    sincos_q(r, q).0.round()
}

/// `cos(x)`: the cosine of `x` radians. CUDA: 2 ulp; `cos(±0) = 1`,
/// `cos(±∞) = NaN`.
#[inline(always)]
pub fn cos(x: f64) -> f64 {
    let (r, q) = rem_pio2(x);
    sincos_q(r, q).1.round()
}

/// `sincos(x)`: `(sin x, cos x)` with one reduction. CUDA: 2 ulp each.
#[inline(always)]
pub fn sincos(x: f64) -> (f64, f64) {
    let (r, q) = rem_pio2(x);
    let (s, c) = sincos_q(r, q);
    (if x.abs() < TINY { x } else { s.round() }, c.round())
}

/// `tan(x)`: the tangent of `x` radians, `sin r / cos r` or `-cos r / sin
/// r` in double-double. CUDA: 2 ulp; `tan(±0) = ±0`, `tan(±∞) = NaN`.
#[inline(always)]
pub fn tan(x: f64) -> f64 {
    if x.abs() < TINY {
        return x;
    }
    let (r, q) = rem_pio2(x);
    let (s, c) = (sin_dd(r), cos_dd(r));
    if q & 1 != 0 { -(c / s) } else { s / c }.round()
}

/// `(π t, q)` with `x = q/2 + t`, `|t| <= 1/4`, `q` mod 4, exact for every
/// finite `x`; `π t` as a double-double.
#[inline(always)]
fn rem_half(x: f64) -> (Dd, u32) {
    // From 2^53 on every f64 is an even integer: as for ±0 (x * 0 keeps
    // the sign, and makes ∞ a NaN).
    let x = if x.abs() >= 9_007_199_254_740_992.0 {
        x * 0.0
    } else {
        x
    };
    let j = rint(x + x);
    let t = fma(j, -0.5, x);
    let j4 = fma(-4.0, floor(j * 0.25), j); // j mod 4, exact
    let p = two_prod(PI.hi, t);
    (fast_two_sum(p.hi, fma(PI.lo, t, p.lo)), j4 as u32 & 3)
}

/// `sin(πx)` as a double-double (for the reflection of the gamma functions).
#[inline(always)]
pub(crate) fn sinpi_dd(x: f64) -> Dd {
    let (r, q) = rem_half(x);
    sincos_q(r, q).0
}

/// `sinpi(x)`: `sin(πx)`, exact reduction for every `x`. CUDA: 2 ulp;
/// `sinpi(±0) = ±0`, `sinpi(±∞) = NaN`; an integer `n` gives a zero with
/// the sign of `n`.
#[inline(always)]
pub fn sinpi(x: f64) -> f64 {
    let (r, q) = rem_half(x);
    let y = sincos_q(r, q).0.round();
    if y == 0.0 { copysign(0.0, x) } else { y }
}

/// `cospi(x)`: `cos(πx)`. CUDA: 2 ulp; `cospi(±∞) = NaN`; a half-integer
/// gives `+0`.
#[inline(always)]
pub fn cospi(x: f64) -> f64 {
    let (r, q) = rem_half(x);
    sincos_q(r, q).1.round() + 0.0
}
