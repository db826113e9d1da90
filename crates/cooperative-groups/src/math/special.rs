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

const C0_HI: f32 = 1.128_379_2; // 2/√π
const C0_LO: f32 = -5.863_538_3e-8;
/// `(erf(x)/x - 2/√π) / x^2` in `u = x^2`, `u <= 1`.
const ERF_P: [f32; 9] = [
    -0.376_126_38,
    0.112_837_92,
    -0.026_866_17,
    0.005_223_968,
    -0.000_854_795_86,
    0.000_120_466_495,
    -1.479_866_1e-5,
    1.532_486e-6,
    -1.050_866_2e-7,
];
/// `erfc(a) e^(a^2)` in `a - 1`, `0.5 <= a <= 1.5`.
const ERFC_NEAR_P: [f32; 11] = [
    0.42758357524871826,
    -0.2732120156288147,
    0.15437155961990356,
    -0.07922692596912384,
    0.03757230564951897,
    -0.01666276343166828,
    0.006970173679292202,
    -0.002760890871286392,
    0.0010487990221008658,
    -0.00041432477883063257,
    0.00014230252418201417,
];
/// `erfc(a) e^(a^2)` in `a - 2`, `1.5 <= a <= 2.5`.
const ERFC_MID_P: [f32; 13] = [
    0.25539568066596985,
    -0.10679645836353302,
    0.04180275276303291,
    -0.015460637398064137,
    0.005440738517791033,
    -0.0018316640052944422,
    0.0005924699944444001,
    -0.0001847819657996297,
    5.572886220761575e-05,
    -1.626975426916033e-05,
    4.6233531065809075e-06,
    -1.3555599025494303e-06,
    3.6262608205106517e-07,
];
/// `(erfc(a) e^(a^2) a - 1/√π) / u` in `u = 1/a^2`, `2.5 <= a <= 10.1`.
const ERFC_FAR_P: [f32; 8] = [
    -0.282_094_48,
    0.423_083_4,
    -1.053_767_2,
    3.554_435_7,
    -13.436_788,
    45.114_04,
    -104.398_544,
    115.499_05,
];
const RSQRTPI_HI: f32 = 0.564_189_6; // 1/√π
const RSQRTPI_LO: f32 = -2.931_769_1e-8;
const RSQRT2_HI: f32 = core::f32::consts::FRAC_1_SQRT_2;
const RSQRT2_LO: f32 = 1.210_161_7e-8;

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
#[inline]
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
#[inline]
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
#[inline]
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
