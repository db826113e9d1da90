//! The error function family in `f64`: `erf`, `erfc`, `normcdf` and their
//! inverses `erfinv`, `erfcinv`, `normcdfinv`.
//!
//! Two double-double cores, no fitted coefficients:
//!
//! * below `|x| = 2.5`, the series of positive terms
//!   `erf x = (2/√π) x e^{-x²} Σ (2x²)^n / (1·3·…·(2n+1))` (45 terms in
//!   Horner form, every term positive, so nothing cancels), and
//!   `erfc x = 1 - erf x` there (at most `2^-11` of `erf`'s `2^-73` error
//!   left relative to `erfc`);
//! * from 2.5 on, `erfc x = e^{-x²} / (√π K(x))` with Laplace's continued
//!   fraction `K(x) = x + (1/2)/(x + 1/(x + (3/2)/(x + …)))`, 60 levels
//!   evaluated from the inside out (the inner 48 in `f64`, whose relative
//!   error the outer 12 shrink, the outer 12 in double-double); `e^{-x²}`
//!   comes scaled (`(1 + m) 2^k`), so the result only rounds at the end,
//!   subnormal or not.
//!
//! The inverses take a first guess (the `f32` function, or for arguments
//! below `f32`'s range the asymptotic `y² ≈ -ln z - ln(y√π)`) and refine it
//! with steps of the third-order iteration `y + δ + y δ²` (Newton's
//! correction `δ` and the second-order term from `f'' = -2y f'`), the
//! residual `erfc(y) - z` formed in double-double on the scaled `erfc`.

use super::consts::{INV_SQRTPI, SQRT1_2, SQRT2, SQRTPI_2, TWO_OVER_SQRTPI};
use super::dd::{Dd, fast_two_sum, fma, mul, scale, two_prod, two_sum};
use super::exp::exp_parts;
use super::log::log;
use super::roots::sqrt;

/// Where the series hands over to the continued fraction.
const SWITCH: f64 = 2.5;

/// `erf x` for `0 <= x < 2.5` as a double-double (relative error about
/// `2^-73`, that of `e^{-x²}`).
#[inline(always)]
fn erf_series(x: Dd) -> Dd {
    let x2 = x.sqr();
    let a = x2 * 2.0;
    // S = 1 + a/3 (1 + a/5 (1 + …)), the last term below 2^-80 S at 2.5.
    let mut s = Dd::from(1.0);
    let mut k = 45;
    while k > 0 {
        s = div_small(s * a, (2 * k + 1) as f64) + 1.0;
        k -= 1;
    }
    let (m, j) = exp_parts(-x2);
    (TWO_OVER_SQRTPI * x * (m + 1.0) * s).scale(j)
}

/// `a / d` for a small integer `d` (two partial quotients).
#[inline(always)]
fn div_small(a: Dd, d: f64) -> Dd {
    let q1 = a.hi / d;
    let p = two_prod(q1, d);
    let r = (a.hi - p.hi - p.lo) + a.lo;
    fast_two_sum(q1, r / d)
}

/// `1 / (√π K(x))` for `x >= 2.5` (so `erfc x = e^{-x²}` times this).
#[inline(always)]
fn erfc_fraction(x: Dd) -> Dd {
    let mut f = x.hi;
    let mut k = 60;
    while k > 12 {
        f = x.hi + (0.5 * k as f64) / f;
        k -= 1;
    }
    let mut fd = Dd::from(f);
    while k > 0 {
        fd = x + Dd::from(0.5 * k as f64) / fd;
        k -= 1;
    }
    INV_SQRTPI / fd
}

/// `erfc x = M 2^k` for `x >= 0`, `M` a double-double of about
/// `2^-10 <= M <= 1` (`M = 0` past 27.5, where `erfc` is below the
/// subnormals).
#[inline(always)]
fn erfc_pos(x: Dd) -> (Dd, i32) {
    if x.hi < SWITCH {
        return (Dd::from(1.0) - erf_series(x), 0);
    }
    if x.hi > 27.5 {
        return (Dd::from(0.0), 0);
    }
    let (m, k) = exp_parts(-x.sqr());
    ((m + 1.0) * erfc_fraction(x), k)
}

/// `erfc x = M 2^k` for finite `x` (a double-double `x`, `|x.lo|` within
/// an ulp of `x.hi`), `M` a double-double of about `2^-10 <= M <= 2`.
#[inline(always)]
pub(crate) fn erfc_scaled(x: Dd) -> (Dd, i32) {
    if x.hi >= 0.0 {
        return erfc_pos(x);
    }
    // 1 + erf|x|, or 2 beyond 6.
    if x.hi <= -6.0 {
        return (Dd::from(2.0), 0);
    }
    let e = if -x.hi < SWITCH {
        erf_series(-x)
    } else {
        let (m, k) = erfc_pos(-x);
        Dd::from(1.0) - m.scale(k)
    };
    (e + 1.0, 0)
}

/// `erf(x)`: the error function `(2/√π) ∫₀ˣ e^{-t²} dt`. CUDA: 2 ulp;
/// `erf(±0) = ±0`, `erf(±∞) = ±1`.
#[inline(always)]
pub fn erf(x: f64) -> f64 {
    if x.is_nan() {
        return x + x;
    }
    let a = x.abs();
    let y = if a < 3.7e-9 {
        // (2/√π) x (1 - x²/3): the x² term is below 2^-56.
        fma(a, TWO_OVER_SQRTPI.hi, mul(a, TWO_OVER_SQRTPI.lo))
    } else if a < SWITCH {
        erf_series(Dd::from(a)).round()
    } else if a < 6.0 {
        let (m, k) = erfc_scaled(Dd::from(a));
        (Dd::from(1.0) - m.scale(k)).round()
    } else {
        1.0
    };
    if x.is_sign_negative() { -y } else { y }
}

/// `erfc(x)`: the complementary error function `1 - erf x`, accurate for
/// large `x` (down to the subnormals, up to `x = 27.2`). CUDA: 5 ulp;
/// `erfc(-∞) = 2`, `erfc(+∞) = +0`.
#[inline(always)]
pub fn erfc(x: f64) -> f64 {
    if x.is_nan() {
        return x + x;
    }
    if x.is_infinite() {
        return if x > 0.0 { 0.0 } else { 2.0 };
    }
    let (m, k) = erfc_scaled(Dd::from(x));
    scale(m.round(), k)
}

/// `normcdf(x)`: the standard normal distribution function
/// `½ erfc(-x/√2)`, with `x/√2` carried as a double-double. CUDA: 5 ulp;
/// `normcdf(-∞) = +0`, `normcdf(+∞) = 1`.
#[inline(always)]
pub fn normcdf(x: f64) -> f64 {
    if x.is_nan() {
        return x + x;
    }
    if x.is_infinite() {
        return if x > 0.0 { 1.0 } else { 0.0 };
    }
    let (m, k) = erfc_scaled(-(SQRT1_2 * x));
    scale(m.round(), k - 1)
}

/// One step `y + δ + y δ²` towards `erf y = a` (`0 <= y < 2.5`).
#[inline(always)]
fn erf_step(y: f64, a: f64) -> Dd {
    let r = Dd::from(a) - erf_series(Dd::from(y));
    let (m, k) = exp_parts(Dd::from(-mul(y, y)));
    let e = (m + 1.0).scale(k);
    // The derivative (2/√π) e^{-y²}: y² only rounded, its effect on δ is
    // of second order.
    let d = r.hi / mul(TWO_OVER_SQRTPI.hi, e.hi);
    two_sum(y, fma(y * d, d, d))
}

/// One step `y + δ + y δ²` towards `erfc y = z` (`y > 0.4`, `z > 0`): the
/// residual on the scaled `erfc`, so subnormal `z` keep their accuracy.
#[inline(always)]
fn erfc_step(y: f64, z: f64) -> Dd {
    let (mc, kc) = erfc_scaled(Dd::from(y));
    let (m, k) = exp_parts(Dd::from(-mul(y, y)));
    let w = m + 1.0;
    // (erfc y - z) 2^-k, exactly as a double-double.
    let r = mc.scale(kc - k) - Dd::from(z).scale(-k);
    let d = r.hi / mul(TWO_OVER_SQRTPI.hi, w.hi);
    two_sum(y, fma(y * d, d, d))
}

/// `erfinv a` for `0 <= a <= 0.5`.
#[inline(always)]
fn erfinv_small(a: f64) -> Dd {
    if a < 7.0e-10 {
        // (√π/2) a (1 + π a²/12): the a² term is below 2^-61.
        return SQRTPI_2 * a;
    }
    let y = crate::math::erfinvf(a as f32) as f64;
    let y = erf_step(y, a).round();
    erf_step(y, a)
}

/// `erfcinv z` for `0 < z <= 0.5`.
#[inline(always)]
fn erfcinv_tail(z: f64) -> Dd {
    let mut y = if z >= 1.0e-37 {
        crate::math::erfcinvf(z as f32) as f64
    } else {
        // y² = -ln z - ln(y√π) + ln(1 - 1/(2y²)) + …, by fixed point.
        let t = -log(z);
        let mut y = sqrt(t);
        let mut i = 0;
        while i < 4 {
            let y2 = y * y;
            y = sqrt(
                t - log(y * TWO_OVER_SQRTPI.hi * 0.5 * core::f64::consts::PI) + log(1.0 - 0.5 / y2),
            );
            i += 1;
        }
        y
    };
    y = erfc_step(y, z).round();
    y = erfc_step(y, z).round();
    erfc_step(y, z)
}

/// `erfcinv z` for `0 < z < 2`, as a double-double.
#[inline(always)]
fn erfcinv_dd(z: f64) -> Dd {
    if z < 0.5 {
        erfcinv_tail(z)
    } else if z <= 1.5 {
        let a = 1.0 - z; // exact
        let y = erfinv_small(a.abs());
        if a < 0.0 { -y } else { y }
    } else {
        -erfcinv_tail(2.0 - z) // exact
    }
}

/// `erfinv(x)`: the inverse error function, `erf(erfinv x) = x` for
/// `-1 <= x <= 1`. CUDA: 5 ulp; `erfinv(±0) = ±0`, `erfinv(±1) = ±∞`,
/// NaN for `|x| > 1`.
#[inline(always)]
pub fn erfinv(x: f64) -> f64 {
    let a = x.abs();
    let y = if a <= 0.5 {
        erfinv_small(a).round()
    } else if a < 1.0 {
        erfcinv_tail(1.0 - a).round() // 1 - a exact
    } else if a == 1.0 {
        f64::INFINITY
    } else {
        return f64::NAN; // |x| > 1 or NaN
    };
    if x.is_sign_negative() { -y } else { y }
}

/// `erfcinv(z)`: the inverse complementary error function, `erfc(erfcinv
/// z) = z` for `0 <= z <= 2`, accurate down to the subnormal `z`. CUDA: 6
/// ulp; `erfcinv(0) = +∞`, `erfcinv(2) = -∞`, NaN outside `[0, 2]`.
#[inline(always)]
pub fn erfcinv(z: f64) -> f64 {
    if z > 0.0 && z < 2.0 {
        erfcinv_dd(z).round() + 0.0
    } else if z == 0.0 {
        f64::INFINITY
    } else if z == 2.0 {
        f64::NEG_INFINITY
    } else {
        f64::NAN
    }
}

/// `normcdfinv(p)`: the standard normal quantile, `-√2 erfcinv(2p)` (`2p`
/// exact, the product with √2 in double-double). CUDA: 8 ulp;
/// `normcdfinv(0) = -∞`, `normcdfinv(1) = +∞`, `normcdfinv(0.5) = +0`,
/// NaN outside `[0, 1]`.
#[inline(always)]
pub fn normcdfinv(p: f64) -> f64 {
    if p > 0.0 && p < 1.0 {
        -(SQRT2 * erfcinv_dd(2.0 * p)).round() + 0.0
    } else if p == 0.0 {
        f64::NEG_INFINITY
    } else if p == 1.0 {
        f64::INFINITY
    } else {
        f64::NAN
    }
}
