//! Hyperbolic functions and their inverses in `f64`, from the
//! double-double `e^x - 1` and `ln` cores: `sinh = (M + M/(1+M))/2`,
//! `cosh = 1 + M^2/(2(1+M))`, `tanh = M/(M+2)` (with `M = e^|x| - 1` or
//! `e^2|x| - 1`), `asinh`, `acosh`, `atanh` as logarithms of double-double
//! arguments. Each rounds once.

use super::basic::copysign;
use super::consts::LN2;
use super::dd::{Dd, two_prod, two_sum};
use super::exp::{exp_dd, expm1_dd};
use super::log::log_dd;

/// Below this, `sinh`, `tanh`, `asinh`, `atanh` round to `x`.
const TINY: f64 = 7.450580596923828e-9; // 2^-27
/// Above this, `e^-|x|` is below `2^-104` of `e^|x|`.
const LARGE: f64 = 36.0;

/// `sinh(x)`. CUDA: 2 ulp; `sinh(±0) = ±0`, `sinh(±∞) = ±∞`.
#[inline(always)]
pub fn sinh(x: f64) -> f64 {
    let a = x.abs();
    if a < TINY || !a.is_finite() {
        return x; // tiny (sinh x rounds to x), ±∞, NaN
    }
    let y = if a > LARGE {
        exp_dd(Dd::from(a) - LN2)
    } else {
        let m = expm1_dd(a);
        ((m + m / (m + 1.0)) * 0.5).round()
    };
    copysign(y, x)
}

/// `cosh(x)`. CUDA: 1 ulp; `cosh(±0) = 1`, `cosh(±∞) = +∞`.
#[inline(always)]
pub fn cosh(x: f64) -> f64 {
    let a = x.abs();
    if a.is_nan() {
        return x + x;
    }
    if a < TINY {
        return 1.0;
    }
    if a.is_infinite() {
        return a;
    }
    if a > LARGE {
        return exp_dd(Dd::from(a) - LN2);
    }
    let m = expm1_dd(a);
    (m.sqr() / (m + 1.0) * 0.5 + 1.0).round()
}

/// `tanh(x)`. CUDA: 1 ulp; `tanh(±0) = ±0`, `tanh(±∞) = ±1`.
#[inline(always)]
pub fn tanh(x: f64) -> f64 {
    let a = x.abs();
    if a < TINY || a.is_nan() {
        return x; // tiny, NaN
    }
    if a > 22.0 {
        return copysign(1.0, x); // 1 - tanh < 2^-62
    }
    let m = expm1_dd(2.0 * a);
    copysign((m / (m + 2.0)).round(), x)
}

/// `asinh(x)`: `ln(|x| + sqrt(x^2 + 1))` with the sign of `x`. CUDA: 3 ulp.
#[inline(always)]
pub fn asinh(x: f64) -> f64 {
    let a = x.abs();
    if a < TINY || !a.is_finite() {
        return x;
    }
    let l = if a > 268_435_456.0 {
        // sqrt(x^2 + 1) = |x| to far below the last bit: ln 2|x|.
        log_dd(Dd::from(a)) + LN2
    } else {
        log_dd((two_prod(a, a) + 1.0).sqrt() + a)
    };
    copysign(l.round(), x)
}

/// `acosh(x)`: `ln(x + sqrt(x^2 - 1))`. CUDA: 3 ulp; `acosh(1) = +0`,
/// `acosh(x < 1) = NaN`, `acosh(+∞) = +∞`.
#[inline(always)]
pub fn acosh(x: f64) -> f64 {
    if x < 1.0 || x.is_nan() {
        return f64::NAN;
    }
    if x.is_infinite() {
        return x;
    }
    let l = if x > 268_435_456.0 {
        log_dd(Dd::from(x)) + LN2
    } else {
        // x^2 - 1 exactly as a double-double (the product is whole).
        log_dd((two_prod(x, x) - 1.0).sqrt() + x)
    };
    l.round()
}

/// `atanh(x)`: `ln((1 + x)/(1 - x)) / 2`. CUDA: 2 ulp; `atanh(±1) = ±∞`,
/// `atanh(|x| > 1) = NaN`.
#[inline(always)]
pub fn atanh(x: f64) -> f64 {
    let a = x.abs();
    if a < TINY || a.is_nan() {
        return x;
    }
    if a >= 1.0 {
        return if a == 1.0 { x / 0.0 } else { f64::NAN };
    }
    let q = two_sum(1.0, a) / two_sum(1.0, -a);
    copysign((log_dd(q) * 0.5).round(), x)
}
