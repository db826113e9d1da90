//! The gamma function: `lgamma` (in `f32`) and `tgamma` (in `f64`).
//!
//! `lgamma`: around its zeros at 1 and 2 as `t (t - 1) P(t)`, `t = x - 1`,
//! and `u Q(u)`, `u = x - 2` (so that it keeps its relative accuracy
//! there); `-ln x + x (x - 1) P(x)` near 0; from 3 on Stirling's formula
//! `(x - 1/2)(ln x - 1) + (ln(2π) - 1)/2 + S(1/x^2)/x` with `ln x` and the
//! product carried as two floats; for negative `x` the reflection
//! `ln π - ln|x sin(πx)| - lgamma(-x)`. Coefficients from
//! `scripts/math_coeffs.py inverse`.
//!
//! `tgamma`: `2^(log2 Γ(x))` in `f64` (Stirling's series after shifting
//! the argument to 10 or more, the reflection for `x < 0`), rounded once to
//! `f32`, as [`powf`](super::powf) does: near correctly rounded, at the
//! cost of `f64` arithmetic (fine on H100/H200, slow on GPUs with 1/64-rate
//! `f64`; a double-`f32` version is planned with `powf`'s).

use super::basic::copysignf;
use super::log::{ln_hilo, logf};
use super::pow::{exp2_f64, horner64, log2_f64};
use super::trig::sinpif;
use super::util::{floorf, fma, horner, mul};
use crate::arch::fp::fma as fma64;

/// `lgamma(1 + t) / (t (t - 1))` on `-1/4 <= t <= 3/4`.
const LGAMMA_P: [f32; 13] = [
    0.5772157,
    -0.24525137,
    0.15543428,
    -0.11514702,
    0.09223905,
    -0.07729746,
    0.06668442,
    -0.059059225,
    0.05385464,
    -0.0480846,
    0.035968877,
    -0.017949542,
    0.0041853767,
];
/// `lgamma(2 + u) / u` on `-1/2 <= u <= 1`.
const LGAMMA_Q: [f32; 14] = [
    0.42278433,
    0.32246703,
    -0.0673523,
    0.020580808,
    -0.007385545,
    0.0028905305,
    -0.0011928405,
    0.00050956284,
    -0.0002225725,
    9.943468e-05,
    -4.6656623e-05,
    2.207737e-05,
    -8.218687e-06,
    1.5338219e-06,
];
/// `(lgamma(x) - (x - 1/2) ln x + x - ln(2π)/2) * x` in `v = 1/x^2`,
/// `x >= 3` (Stirling's series, fitted).
const LGAMMA_S: [f32; 6] = [
    0.083333336,
    -0.0027777702,
    0.0007932528,
    -0.0005849375,
    0.00069495913,
    -0.0007012193,
];
/// `(ln(2π) - 1)/2` in two parts.
const K_HI: f32 = 0.41893855;
const K_LO: f32 = -1.4168145e-08;
/// `log2 π` (for `tgammaf`, in `f64`).
const LOG2_PI: f64 = 1.651_496_129_472_318_7;
/// `ln π` in two parts.
const LN_PI_HI: f32 = 1.1447299;
const LN_PI_LO: f32 = 3.317301e-08;

/// `-ln|x| + x (x - 1) P(x)` for `-1/4 < x < 3/4`, `x != 0`.
#[inline(always)]
fn lgamma_near0(x: f32) -> f32 {
    let (lh, ll) = ln_hilo(x.abs());
    -lh + fma(x * (x - 1.0), horner(x, LGAMMA_P), -ll)
}

/// `lgamma(x)` for finite `x >= 1/4`.
#[inline(always)]
fn lgamma_pos(x: f32) -> f32 {
    if x < 0.75 {
        return lgamma_near0(x);
    }
    if x < 1.5 {
        let t = x - 1.0; // exact
        // + 0: lgammaf(1) = +0, not -0.
        return t * (t - 1.0) * horner(t, LGAMMA_P) + 0.0;
    }
    if x < 3.0 {
        let u = x - 2.0; // exact
        return u * horner(u, LGAMMA_Q);
    }
    if x >= 1.0e30 {
        // x (ln x - 1) alone: the rest is below 2^-90 of it. Overflows to
        // +∞ past 4.08e36 (+∞ itself would give ∞ - ∞).
        return if x == f32::INFINITY {
            x
        } else {
            fma(x, logf(x), -x)
        };
    }
    let (ph, small) = stirling(x);
    ph + (K_HI + small)
}

/// `lgamma(x) = ph + K_HI + small` for `3 <= x < 1e30`, unevaluated (the
/// reflection subtracts it from terms of the same size): Stirling's
/// `(h + hl)(dh + dl) + K + S/x` with `h + hl = x - 1/2` and `dh + dl =
/// ln x - 1`.
#[inline(always)]
fn stirling(x: f32) -> (f32, f32) {
    let (lh, ll) = ln_hilo(x);
    let dh = lh - 1.0;
    let dl = ((lh - dh) - 1.0) + ll; // Fast2Sum: lh >= 1
    let h = x - 0.5;
    let hl = (x - h) - 0.5; // Fast2Sum: x >= 1/2
    let ph = mul(h, dh);
    let pl = fma(h, dh, -ph);
    let r = 1.0 / x;
    let v = r * r;
    let small = fma(r, horner(v, LGAMMA_S), fma(h, dl, fma(hl, dh, pl + K_LO)));
    (ph, small)
}

/// `a + b` as `(s, e)`, exactly (TwoSum).
#[inline(always)]
fn two_sum(a: f32, b: f32) -> (f32, f32) {
    let s = a + b;
    let v = s - a;
    (s, (a - (s - v)) + (b - v))
}

/// `lgammaf(x)`: the natural logarithm of `|Γ(x)|`. CUDA: 6 ulp outside
/// `-10.001 < x < -2.264` (larger inside, where `lgamma` has zeros that no
/// fixed-precision reflection can resolve); `lgammaf(1) = lgammaf(2) = +0`,
/// `+∞` at the poles (`0`, `-0` and the negative integers) and at `±∞`,
/// `+∞` past `4.08e36`.
#[doc(alias = "lgamma")]
#[inline(always)]
pub fn lgammaf(x: f32) -> f32 {
    if x.is_nan() {
        return x + x;
    }
    if x > -0.25 {
        if x < 0.75 {
            if x == 0.0 {
                return f32::INFINITY;
            }
            return lgamma_near0(x);
        }
        return lgamma_pos(x); // +∞ for +∞
    }
    if floorf(x) == x {
        return f32::INFINITY; // the poles, every x below -2^23, and -∞
    }
    // lgamma(x) = ln π - ln|y sin(πy)| - lgamma(y), y = -x >= 1/4:
    // y*|sin(πy)| as two floats (q + q_lo), its logarithm as two floats.
    let y = -x;
    let s = sinpif(y).abs();
    let q = mul(y, s);
    let q_lo = fma(y, s, -q);
    let (qh, ql) = ln_hilo(q);
    let lo = LN_PI_LO - (ql + q_lo / q);
    if y < 3.0 {
        return (LN_PI_HI - qh) + (lo - lgamma_pos(y));
    }
    // Near the poles ln|y sin(πy)| and lgamma(y) cancel: the three large
    // terms summed exactly (TwoSum), one rounding at the end.
    let (ph, small) = stirling(y);
    let (s1, e1) = two_sum(LN_PI_HI, -qh);
    let (s2, e2) = two_sum(s1, -ph);
    let (s3, e3) = two_sum(s2, -K_HI);
    s3 + (((e1 + e2) + e3) + (lo - small))
}

/// `ln Γ(z)` for `z > 0` (an `f32` as `f64`), in `f64`: `z` shifted up to
/// 10 or more (`Γ(z) = Γ(z + n) / (z (z + 1) … (z + n - 1))`), then
/// Stirling's series to `1/(1188 w^9)` (error below 2^-60 from 10 on).
/// Returned as `log2 Γ(z)`.
#[inline(always)]
fn log2_gamma64(z: f64) -> f64 {
    let mut p = 1.0f64;
    let mut w = z;
    while w < 10.0 {
        p *= w;
        w += 1.0;
    }
    let lnw = log2_f64(w) * core::f64::consts::LN_2;
    let r = 1.0 / w;
    let series = horner64(
        r * r,
        [
            1.0 / 12.0,
            -1.0 / 360.0,
            1.0 / 1260.0,
            -1.0 / 1680.0,
            1.0 / 1188.0,
            -691.0 / 360_360.0,
        ],
    );
    // Every product that meets a sum is an explicit fma (contraction).
    let ln_g = fma64(w - 0.5, lnw, -w) + fma64(r, series, 0.918_938_533_204_672_8);
    fma64(ln_g, core::f64::consts::LOG2_E, -log2_f64(p))
}

/// `tgammaf(x)`: the gamma function `Γ(x)`. CUDA: 5 ulp (for `x > 0` this
/// is correctly rounded except near halfway cases; for `x < 0` the
/// reflection's `sinpif` adds its error, up to 1 ulp). Computed in `f64`,
/// like [`powf`](super::powf): `2^(log2 Γ(x))` with Stirling's series after
/// shifting `x` to 10 or more, rounded once (fine on H100/H200, slow where
/// `f64` runs at 1/64 rate). `tgammaf(±0) = ±∞`, NaN for the negative
/// integers and `-∞`, `tgammaf(+∞) = +∞`; `+∞` past 35.04, `±0` below
/// about -42.
#[doc(alias = "tgamma")]
#[inline(always)]
pub fn tgammaf(x: f32) -> f32 {
    if x.is_nan() {
        return x + x;
    }
    if x == 0.0 {
        return copysignf(f32::INFINITY, x);
    }
    if x > 0.0 {
        if x > 36.0 {
            return f32::INFINITY;
        }
        return exp2_f64(log2_gamma64(x as f64).min(160.0)) as f32;
    }
    if floorf(x) == x {
        return f32::NAN; // negative integers, -∞
    }
    // Γ(x) = π / (sin(πx) Γ(1 - x)): sign of sin(πx), magnitude
    // 2^(log2 π - log2|sin(πx)| - log2 Γ(1 - x)).
    let s = sinpif(x);
    let mag = if x < -50.0 {
        0.0
    } else {
        let t = LOG2_PI - log2_f64(s.abs() as f64) - log2_gamma64(1.0 - x as f64);
        exp2_f64(t.clamp(-160.0, 160.0)) as f32
    };
    copysignf(mag, s)
}
