//! The error function family: `erf`, `erfc`, `normcdf`.
//!
//! `erf x = x * (2/√π + x^2 Q(x^2))` for `|x| < 1` (the leading constant in
//! two parts); beyond, `erfc a = e^(-a^2) * G(a)` with `G` a polynomial in
//! `a - 1.25` on `[0.5, 2]` and in `1/a` on `[2, 10.1]`, and `e^(-a^2)`
//! from `a^2` as a sum of two floats (the rounding of `a^2` alone would cost
//! up to 100 ulp at `a = 10`). Coefficients from
//! `scripts/math_coeffs.py special`.

use super::basic::copysignf;
use super::exp::exp_hilo;
use super::util::{fma, horner, scale2};

const C0_HI: f32 = 1.1283792; // 2/√π
const C0_LO: f32 = -5.8635383e-08;
/// `(erf(x)/x - 2/√π) / x^2` in `u = x^2`, `u <= 1`.
const ERF_P: [f32; 9] = [
    -0.37612638,
    0.11283792,
    -0.02686617,
    0.005223968,
    -0.00085479586,
    0.000120466495,
    -1.4798661e-05,
    1.532486e-06,
    -1.0508662e-07,
];
/// `erfc(a) e^(a^2)` in `a - 1`, `0.5 <= a <= 1.5`.
const ERFC_NEAR_P: [f32; 11] = [
    0.42758358,
    -0.27321202,
    0.15437156,
    -0.079226926,
    0.037572306,
    -0.016662763,
    0.0069701737,
    -0.0027608909,
    0.001048799,
    -0.00041432478,
    0.00014230252,
];
/// `erfc(a) e^(a^2)` in `a - 2`, `1.5 <= a <= 2.5`.
const ERFC_MID_P: [f32; 13] = [
    0.25539568,
    -0.10679646,
    0.041802753,
    -0.015460637,
    0.0054407385,
    -0.001831664,
    0.00059247,
    -0.00018478197,
    5.5728862e-05,
    -1.6269754e-05,
    4.623353e-06,
    -1.3555599e-06,
    3.6262608e-07,
];
/// `(erfc(a) e^(a^2) a - 1/√π) / u` in `u = 1/a^2`, `2.5 <= a <= 10.1`.
const ERFC_FAR_P: [f32; 8] = [
    -0.28209448,
    0.4230834,
    -1.0537672,
    3.5544357,
    -13.436788,
    45.11404,
    -104.398544,
    115.49905,
];
const RSQRTPI_HI: f32 = 0.5641896; // 1/√π
const RSQRTPI_LO: f32 = -2.9317691e-08;
const RSQRT2_HI: f32 = core::f32::consts::FRAC_1_SQRT_2;
const RSQRT2_LO: f32 = 1.2101617e-08;

/// `erf x` for `|x| < 1` as `x*C0_HI + x*(C0_LO + u Q(u))`, one rounding.
#[inline(always)]
fn erf_small(x: f32) -> f32 {
    let u = x * x;
    fma(x, C0_HI, x * fma(u, horner(u, ERF_P), C0_LO))
}

/// `erfc(a + lo)` for `0.5 <= a < 10.1` and a tiny `lo` (the low part of
/// an argument known beyond `f32`).
#[inline(always)]
fn erfc_core(a: f32, lo: f32) -> f32 {
    let g = if a < 1.5 {
        horner(a - 1.0, ERFC_NEAR_P) // a - 1 exact
    } else if a < 2.5 {
        horner(a - 2.0, ERFC_MID_P)
    } else {
        // t/√π + t u H(u), one rounding.
        let t = 1.0 / a;
        let u = t * t;
        fma(t, RSQRTPI_HI, t * fma(u, horner(u, ERFC_FAR_P), RSQRTPI_LO))
    };
    // (a + lo)^2 = xx + xx_lo.
    let xx = a * a;
    let xx_lo = fma(a + a, lo, fma(a, a, -xx));
    let (p, q, j) = exp_hilo(-xx);
    // e^-(xx + xx_lo) * g = 2^j (p + q)(1 - xx_lo) g, rounded once
    // before the (exact, unless subnormal) scaling.
    let t = fma(-p, xx_lo, q);
    scale2(fma(p, g, t * g), j)
}

/// `erff(x)`: the error function. CUDA: 2 ulp; `erff(±0) = ±0`,
/// `erff(±∞) = ±1`.
#[doc(alias = "erf")]
#[inline(always)]
pub fn erff(x: f32) -> f32 {
    let a = x.abs();
    if a < 1.0 {
        return if x == 0.0 { x } else { erf_small(x) };
    }
    if x.is_nan() {
        return x + x;
    }
    // erf a = 1 - erfc a; 1 from 3.92 on (erfc a < 2^-25).
    let y = if a < 3.92 {
        1.0 - erfc_core(a, 0.0)
    } else {
        1.0
    };
    copysignf(y, x)
}

/// `erfcf(x)`: `1 - erf x` without cancellation. CUDA: 4 ulp;
/// `erfcf(-∞) = 2`, `erfcf(+∞) = +0`.
#[doc(alias = "erfc")]
#[inline(always)]
pub fn erfcf(x: f32) -> f32 {
    let a = x.abs();
    if a < 0.5 {
        let u = x * x;
        // 1 - x*C0_HI - x*(C0_LO + u Q(u)).
        return fma(-x, C0_HI, fma(-x, fma(u, horner(u, ERF_P), C0_LO), 1.0));
    }
    if x.is_nan() {
        return x + x;
    }
    let e = if a < 10.1 { erfc_core(a, 0.0) } else { 0.0 };
    if x > 0.0 { e } else { 2.0 - e }
}

/// `normcdff(x)`: the standard normal distribution function,
/// `erfc(-x/√2)/2`, with `x/√2` carried beyond `f32` (its rounding would
/// cost up to 100 ulp in the far tail). CUDA: 5 ulp; `normcdff(+∞) = 1`,
/// `normcdff(-∞) = +0`.
#[doc(alias = "normcdf")]
#[inline(always)]
pub fn normcdff(x: f32) -> f32 {
    if x.is_nan() {
        return x + x;
    }
    // u = -x/√2 = u_hi + u_lo.
    let u = x * -RSQRT2_HI;
    let u_lo = fma(x, -RSQRT2_LO, fma(x, -RSQRT2_HI, -u));
    let a = u.abs();
    if a < 0.5 {
        let v = u * u;
        return 0.5 * fma(-u, C0_HI, fma(-u, fma(v, horner(v, ERF_P), C0_LO), 1.0));
    }
    let e = if a < 10.1 {
        0.5 * erfc_core(a, if u > 0.0 { u_lo } else { -u_lo })
    } else {
        0.0
    };
    if u > 0.0 { e } else { 1.0 - e }
}
