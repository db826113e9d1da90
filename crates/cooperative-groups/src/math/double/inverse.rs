//! Inverse trigonometric functions in `f64`: one double-double arctangent
//! of `a` in `[0, 1]` (`a = c + …` with `c` the nearest quarter,
//! `atan a = atan c + atan((a - c)/(1 + a c))`, the second argument below
//! `1/8` so that its Taylor series ends at degree 23), and `asin`, `acos`,
//! `atan2` as arctangents of double-double ratios.

use super::basic::copysign;
use super::consts::{ATAN_QUARTERS, PI, PIO2};
use super::dd::{Dd, horner, mul, two_sum};
use crate::arch::fp::rint;

/// `(-1)^k / (2k+1)`, `k = 1..=11`: `(atan z - z) / z^3` in `z^2`.
const ATAN_T: [f64; 11] = [
    -1.0 / 3.0,
    1.0 / 5.0,
    -1.0 / 7.0,
    1.0 / 9.0,
    -1.0 / 11.0,
    1.0 / 13.0,
    -1.0 / 15.0,
    1.0 / 17.0,
    -1.0 / 19.0,
    1.0 / 21.0,
    -1.0 / 23.0,
];

/// `atan a` for a double-double `a` in `[0, 1]`.
#[inline(always)]
fn atan_unit(a: Dd) -> Dd {
    let i = rint(4.0 * a.hi);
    let c = 0.25 * i;
    let z = (a - c) / (a * c + 1.0);
    let z2 = z.hi * z.hi;
    let tail = mul(z.hi * z2, horner(z2, ATAN_T));
    // (`a` in [0, 1] makes `i` 0 to 4; the clamp only drops the bounds
    // check, a `call` in the PTX.)
    ATAN_QUARTERS[(i as usize).min(ATAN_QUARTERS.len() - 1)] + (z + tail)
}

/// `atan(n / d)` for double-doubles `n, d >= 0`, not both zero.
#[inline(always)]
fn atan_ratio(n: Dd, d: Dd) -> Dd {
    if n.hi <= d.hi {
        atan_unit(n / d)
    } else {
        PIO2 - atan_unit(d / n)
    }
}

/// Below this, `atan`, `asin` round to `x`.
const TINY: f64 = 7.450580596923828e-9; // 2^-27

/// `atan(x)`. CUDA: 2 ulp; `atan(±0) = ±0`, `atan(±∞) = ±π/2`.
#[inline(always)]
pub fn atan(x: f64) -> f64 {
    let a = x.abs();
    if a < TINY || a.is_nan() {
        return x;
    }
    if a.is_infinite() {
        return copysign(PIO2.hi, x);
    }
    copysign(atan_ratio(Dd::from(a), Dd::from(1.0)).round(), x)
}

/// `atan2(y, x)`: the angle of the point `(x, y)`, in `[-π, π]`. CUDA: 2
/// ulp; C99's special values (`atan2(±0, -0) = ±π`, `atan2(±0, +0) =
/// ±0`, `atan2(±∞, -∞) = ±3π/4`, …).
#[inline(always)]
pub fn atan2(y: f64, x: f64) -> f64 {
    if x.is_nan() || y.is_nan() {
        return x + y;
    }
    let (ax, ay) = (x.abs(), y.abs());
    let left = x.is_sign_negative();
    let t = if ax.is_infinite() && ay.is_infinite() {
        // ±π/4, ±3π/4.
        let q = PIO2 * 0.5;
        if left { PI - q } else { q }
    } else if ay == 0.0 || ax.is_infinite() {
        if left { PI } else { Dd::from(0.0) }
    } else if ax == 0.0 || ay.is_infinite() {
        PIO2
    } else {
        let t = atan_ratio(Dd::from(ay), Dd::from(ax));
        if left { PI - t } else { t }
    };
    copysign(t.round(), y)
}

/// `sqrt(1 - a^2)` as a double-double for `0 <= a <= 1`: `(1 - a)(1 + a)`
/// with both factors exact.
#[inline(always)]
fn cos_of_asin(a: f64) -> Dd {
    (two_sum(1.0, -a) * two_sum(1.0, a)).sqrt()
}

/// `asin(x)`. CUDA: 2 ulp; `asin(±0) = ±0`, `asin(|x| > 1) = NaN`.
#[inline(always)]
pub fn asin(x: f64) -> f64 {
    let a = x.abs();
    if a < TINY || a.is_nan() {
        return x;
    }
    if a > 1.0 {
        return f64::NAN;
    }
    copysign(atan_ratio(Dd::from(a), cos_of_asin(a)).round(), x)
}

/// `acos(x)`. CUDA: 2 ulp; `acos(1) = +0`, `acos(|x| > 1) = NaN`.
#[inline(always)]
pub fn acos(x: f64) -> f64 {
    let a = x.abs();
    if a > 1.0 || a.is_nan() {
        return f64::NAN;
    }
    let t = atan_ratio(cos_of_asin(a), Dd::from(a));
    if x < 0.0 { PI - t } else { t }.round()
}
