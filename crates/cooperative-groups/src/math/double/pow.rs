//! `pow(x, y)`: `e^(y ln|x|)` with `ln|x|` and the product as
//! double-doubles (absolute error about `2^-64` in an exponent of up to
//! 745), and C99's special values.

use super::dd::Dd;
use super::exp::{exp_parts, finish};
use super::log::log_dd;
use crate::arch::fp::{floor, trunc};

/// Whether `y` is an odd integer (`|y| < 2^53`: larger `f64` are even).
#[inline(always)]
fn is_odd_integer(y: f64) -> bool {
    y.abs() < 9_007_199_254_740_992.0 && trunc(y) == y && floor(y * 0.5) * 2.0 != y
}

/// `pow(x, y)`: `x^y`. CUDA: 2 ulp. Special values (C99 Annex F): `pow(x,
/// ±0) = 1` and `pow(1, y) = 1` for any `x`, `y` (NaN too), `pow(-1, ±∞)
/// = 1`; `pow(x < 0, y)` is NaN for non-integral finite `y`; `pow(±0, y)`
/// is `±∞` for odd integral `y < 0`, `+∞` for other `y < 0`, `±0` for odd
/// integral `y > 0`, `+0` for other `y > 0`; `pow(x, ±∞)` and `pow(±∞,
/// y)` by the magnitudes.
#[inline(always)]
pub fn pow(x: f64, y: f64) -> f64 {
    if y == 0.0 || x == 1.0 {
        return 1.0;
    }
    if x.is_nan() || y.is_nan() {
        return x + y;
    }
    let ax = x.abs();
    let odd = is_odd_integer(y);
    if y.is_infinite() {
        return if ax == 1.0 {
            1.0
        } else if (ax > 1.0) == (y > 0.0) {
            f64::INFINITY
        } else {
            0.0
        };
    }
    let neg = x < 0.0 || (x == 0.0 && x.is_sign_negative());
    let sign = if neg && odd { -1.0 } else { 1.0 };
    if x == 0.0 || ax.is_infinite() {
        // |x|^y is 0 or ∞ by the signs; the sign from an odd y.
        let big = (ax == 0.0) == (y < 0.0);
        return sign * if big { f64::INFINITY } else { 0.0 };
    }
    if x < 0.0 && trunc(y) != y {
        return f64::NAN;
    }
    let l = log_dd(Dd::from(ax));
    // Beyond |y ln|x|| = 2^11 the result is 0 or ∞ (and the product
    // below could overflow).
    let t0 = y * l.hi;
    if t0 > 2048.0 {
        return sign * f64::INFINITY;
    }
    if t0 < -2048.0 {
        return sign * 0.0;
    }
    let t = l * y;
    if t.hi > 710.0 {
        return sign * f64::INFINITY;
    }
    if t.hi < -746.0 {
        return sign * 0.0;
    }
    let (m, k) = exp_parts(t);
    sign * finish(m, k)
}
