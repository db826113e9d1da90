//! `lgamma` and `tgamma` in `f64`.
//!
//! For `x > 0`: the argument shifted up to `y = x + n >= 16` (the product
//! `x (x+1) … (x+n-1)` in double-double), then Stirling's series
//! `ln Γ(y) = (y - ½) ln y - y + ½ ln 2π + Σ B₂ₖ / (2k(2k-1) y^{2k-1})`
//! to `k = 10` (the next term is below `2^-80`), all in double-double with
//! the `ln` of `log.rs`: an absolute error of about `2^-68`. Near the zeros
//! of `ln Γ` at 1 and 2 (`|x - 1|`, `|x - 2| <= 1/8`), where that absolute
//! error would be a large relative one, the Taylor series
//! `ln Γ(1 + ε) = -γε + Σ (-1)^k ζ(k)/k ε^k` and its shift to 2. For
//! `x < 0` the reflection `Γ(-t) Γ(t) = -π / (t sin πt)`, with `sin πt`
//! reduced exactly. `tgamma` is `e^{ln Γ}` with `ln Γ` as a double-double
//! (its absolute error is the relative error of the result) and the sign
//! of the reflection.

use super::consts::{EULER, HALF_LN_2PI, LN_PI, ONE_M_EULER};
use super::dd::{Dd, horner, mul, two_prod};
use super::exp::exp_dd;
use super::log::{log, log_dd};
use super::trig::sinpi_dd;
use crate::arch::fp::floor;

/// `B₂ₖ / (2k(2k-1))`, `k = 2..=10` (the first, 1/12, in double-double).
const STIRLING: [f64; 9] = [
    -0.002777777777777778,
    0.0007936507936507937,
    -0.0005952380952380953,
    0.0008417508417508417,
    -0.0019175269175269176,
    0.00641025641025641,
    -0.029550653594771242,
    0.17964437236883057,
    -1.3924322169059011,
];

/// `(-1)^k ζ(k) / k`, `k = 2..=23`: `ln Γ(1 + ε) = -γε + ε² Σ c_k ε^{k-2}`.
const ZETA1: [f64; 22] = [
    0.8224670334241132,
    -0.40068563438653143,
    0.27058080842778454,
    -0.20738555102867398,
    0.1695571769974082,
    -0.1440498967688461,
    0.12550966952474304,
    -0.11133426586956469,
    0.1000994575127818,
    -0.09095401714582904,
    0.083353840546109,
    -0.0769325164113522,
    0.07143294629536133,
    -0.06666870588242046,
    0.06250095514121304,
    -0.058823978658684585,
    0.055555767627403614,
    -0.05263167937961666,
    0.05000004769810169,
    -0.047619070330142226,
    0.04545455629320467,
    -0.04347826605304026,
];

/// `(-1)^k (ζ(k) - 1) / k`, `k = 2..=19`: `ln Γ(2 + ε) = (1-γ)ε + ε² Σ …`.
const ZETA2: [f64; 18] = [
    0.3224670334241132,
    -0.0673523010531981,
    0.020580808427784546,
    -0.007385551028673986,
    0.0028905103307415234,
    -0.001192753911703261,
    0.0005096695247430425,
    -0.00022315475845357939,
    9.945751278180853e-05,
    -4.492623673813314e-05,
    2.050721277567069e-05,
    -9.439488275268397e-06,
    4.374866789907488e-06,
    -2.039215753801366e-06,
    9.55141213040742e-07,
    -4.492469198764566e-07,
    2.1207184805554665e-07,
    -1.0043224823968099e-07,
];

/// Stirling's series for `ln Γ(y)`, `y >= 16` (a double-double).
#[inline(always)]
fn stirling(y: Dd) -> Dd {
    let ln = log_dd(y);
    let u = 1.0 / y.hi;
    let u2 = mul(u, u);
    let tail = mul(mul(u, u2), horner(u2, STIRLING));
    let first = Dd::from(1.0) / (y * 12.0);
    (y - 0.5) * ln - y + HALF_LN_2PI + first + tail
}

/// `ln Γ(x)` for finite `x >= 2^-54` as a double-double, absolute error
/// about `2^-68 max(1, ln Γ(x) / 40)` (infinite or NaN past `2.5·10^305`).
#[inline(always)]
pub(crate) fn lgamma_pos(x: f64) -> Dd {
    if x >= 16.0 {
        return stirling(Dd::from(x));
    }
    // y = x + n >= 16, and p = x (x+1) … (x+n-1).
    let mut y = Dd::from(x);
    let mut p = Dd::from(1.0);
    while y.hi < 16.0 {
        p = p * y;
        y = y + 1.0;
    }
    stirling(y) - log_dd(p)
}

/// `ln|t sin πt|` for `t > 0` not an integer.
#[inline(always)]
fn ln_t_sinpi(t: f64) -> (Dd, bool) {
    let s = sinpi_dd(t) * t;
    let neg = s.hi < 0.0;
    (log_dd(if neg { -s } else { s }), neg)
}

/// `lgamma(x)`: `ln |Γ(x)|`. CUDA: 4 ulp outside `-23.0001 < x <
/// -2.2637` (larger inside, near the zeros of `ln |Γ|`); `lgamma(1) =
/// lgamma(2) = +0`, `+∞` at `±0`, the negative integers and `±∞`.
#[inline(always)]
pub fn lgamma(x: f64) -> f64 {
    if x.is_nan() {
        return x + x;
    }
    if x.is_infinite() || (x <= 0.0 && floor(x) == x) {
        return f64::INFINITY;
    }
    let a = x.abs();
    if a < 5.551115123125783e-17 {
        // -ln|x| - γx: γx is below 2^-59 of the logarithm.
        return -log(a);
    }
    if x > 0.0 {
        let e1 = x - 1.0;
        if e1.abs() <= 0.125 {
            // -γε + ε² P(ε), ε exact.
            let g = -(EULER * e1);
            return (g + two_prod(e1, e1) * horner(e1, ZETA1)).round();
        }
        let e2 = x - 2.0;
        if e2.abs() <= 0.125 {
            let g = ONE_M_EULER * e2;
            return (g + two_prod(e2, e2) * horner(e2, ZETA2)).round();
        }
        if x > 2.6e305 {
            return f64::INFINITY;
        }
        let r = lgamma_pos(x).round();
        return if r.is_finite() { r } else { f64::INFINITY };
    }
    // x = -t: ln|Γ(-t)| = ln π - ln|t sin πt| - ln Γ(t).
    let (l, _) = ln_t_sinpi(a);
    (LN_PI - l - lgamma_pos(a)).round()
}

/// `tgamma(x)`: the gamma function `Γ(x)`. CUDA: 10 ulp; `tgamma(±0) =
/// ±∞`, `tgamma(+∞) = +∞`, NaN at the negative integers and `-∞`; `+∞`
/// past 171.62, `±0` below about -184.
#[inline(always)]
pub fn tgamma(x: f64) -> f64 {
    if x.is_nan() {
        return x + x;
    }
    if x == f64::INFINITY {
        return x;
    }
    if x < 0.0 && floor(x) == x {
        return f64::NAN; // the negative integers and -∞
    }
    let a = x.abs();
    if a < 5.551115123125783e-17 {
        // 1/x - γ: γ is below 2^-55 of 1/x (±∞ for ±0 and x below 2^-1024).
        return 1.0 / x;
    }
    if x > 0.0 {
        if x > 171.7 {
            return f64::INFINITY;
        }
        return exp_dd(lgamma_pos(x));
    }
    // Γ(-t) = -π / (t sin πt Γ(t)); its sign is that of -sin πt.
    if a > 200.0 {
        let odd = floor(a) - 2.0 * floor(0.5 * a) == 1.0; // sin πt < 0
        return if odd { 0.0 } else { -0.0 };
    }
    let (l, neg) = ln_t_sinpi(a);
    let m = exp_dd(LN_PI - l - lgamma_pos(a));
    if neg { m } else { -m }
}
