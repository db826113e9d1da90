//! Inverse trigonometric functions: `asin`, `acos`, `atan`, `atan2`.
//!
//! `atan t = t + t^3 A(t^2)` on `[0, 1]` (beyond 1 through `π/2 - atan(1/t)`),
//! `asin s = s + s^3 S(s^2)` on `[0, 1/2]` (beyond through
//! `asin a = π/2 - 2 asin(sqrt((1 - a)/2))`). The constants π/2 and π are
//! subtracted as head plus tail, and the square root's residual is carried,
//! so the results stay within about 1 ulp.

use super::basic::copysignf;
use super::util::{fma, horner, sqrtf};

const ATAN_P: [f32; 9] = [
    -0.333333,
    0.19998549,
    -0.14264241,
    0.10952184,
    -0.084034435,
    0.057957467,
    -0.031177709,
    0.010914527,
    -0.001793603,
];
const ASIN_P: [f32; 6] = [
    0.1666666,
    0.07500504,
    0.044516955,
    0.031807736,
    0.014438524,
    0.037516586,
];
const PIO2_HI: f32 = core::f32::consts::FRAC_PI_2;
const PIO2_LO: f32 = -4.371139e-08;
const PI_HI: f32 = core::f32::consts::PI;
const PI_LO: f32 = -8.742278e-08;

/// `atan t - t` for `0 <= t <= 1` as two factors (`t^3`, `A(t^2)`): the
/// caller adds their product with an `fma`.
#[inline(always)]
fn atan_tail(t: f32) -> (f32, f32) {
    let t2 = t * t;
    (t * t2, horner(t2, ATAN_P))
}

/// `c - (t + p*q)` for a constant `c = c_hi + c_lo` above `t`: `c_hi - t`
/// with its exact error (Fast2Sum), the small terms after.
#[inline(always)]
fn minus(c_hi: f32, c_lo: f32, t: f32, (p, q): (f32, f32)) -> f32 {
    let hi = c_hi - t;
    let lo = (c_hi - hi) - t;
    hi + fma(-p, q, lo + c_lo)
}

/// `atanf(x)`: the arc tangent in `[-π/2, π/2]`. CUDA: 2 ulp;
/// `atanf(±0) = ±0`, `atanf(±∞) = ±π/2`.
#[doc(alias = "atan")]
#[inline(always)]
pub fn atanf(x: f32) -> f32 {
    let a = x.abs();
    if a == f32::INFINITY {
        return copysignf(PIO2_HI, x);
    }
    let y = if a <= 1.0 {
        let t2 = a * a;
        fma(a * t2, horner(t2, ATAN_P), a)
    } else {
        // t = 1/a rounded, and its residual 1/a - t to first order
        // (carried through atan' = 1/(1 + t^2)).
        let t = 1.0 / a;
        let d = (fma(-t, a, 1.0) * t) / fma(t, t, 1.0);
        minus(PIO2_HI, PIO2_LO - d, t, atan_tail(t))
    };
    copysignf(y, x) // NaN stays NaN
}

/// `atan2f(y, x)`: the angle of the point `(x, y)`, in `[-π, π]`.
/// CUDA: 3 ulp; the C99 special values (`atan2f(±0, -0) = ±π`,
/// `atan2f(±∞, -∞) = ±3π/4`, …).
#[doc(alias = "atan2")]
#[inline(always)]
pub fn atan2f(y: f32, x: f32) -> f32 {
    if x.is_nan() || y.is_nan() {
        return x + y;
    }
    let (ax, ay) = (x.abs(), y.abs());
    let neg_x = x.is_sign_negative();
    let a = if ay == 0.0 {
        if neg_x { PI_HI } else { 0.0 }
    } else if ax == f32::INFINITY {
        if ay == f32::INFINITY {
            if neg_x {
                2.356_194_5
            } else {
                core::f32::consts::FRAC_PI_4
            }
        } else if neg_x {
            PI_HI
        } else {
            0.0
        }
    } else if ay == f32::INFINITY || ax == 0.0 {
        PIO2_HI
    } else {
        // t = min/max in [0, 1], atan t, then the octant.
        let (num, den) = if ay > ax { (ax, ay) } else { (ay, ax) };
        let t = num / den;
        let tail = atan_tail(t);
        match (ay > ax, neg_x) {
            (false, false) => fma(tail.0, tail.1, t),
            (true, false) => minus(PIO2_HI, PIO2_LO, t, tail),
            (false, true) => minus(PI_HI, PI_LO, t, tail),
            // π - (π/2 - atan t) = π/2 + atan t.
            (true, true) => {
                let hi = PIO2_HI + t;
                let lo = (PIO2_HI - hi) + t;
                hi + fma(tail.0, tail.1, lo + PIO2_LO)
            }
        }
    };
    copysignf(a, y)
}

/// `2 asin(s)` for `s = sqrt(z)`, `0 <= z <= 1/4`, as `2 s_hi` and the
/// tail's two factors and addend: the square root's residual
/// `z - s_hi^2` (exact by `fma`) enters the addend.
#[inline(always)]
fn two_asin_sqrt(z: f32) -> (f32, (f32, f32), f32) {
    let s = sqrtf(z);
    let res = fma(-s, s, z);
    let corr = if s > 0.0 { res / s } else { 0.0 }; // 2 * (sqrt(z) - s)
    (2.0 * s, (2.0 * s * z, horner(z, ASIN_P)), corr)
}

/// `asinf(x)`: the arc sine in `[-π/2, π/2]`. CUDA: 2 ulp;
/// `asinf(±0) = ±0`, NaN outside `[-1, 1]`.
#[doc(alias = "asin")]
#[inline(always)]
pub fn asinf(x: f32) -> f32 {
    let a = x.abs();
    let y = if a <= 0.5 {
        let a2 = a * a;
        fma(a * a2, horner(a2, ASIN_P), a)
    } else if a <= 1.0 {
        let (h, (p, q), c) = two_asin_sqrt(fma(a, -0.5, 0.5)); // (1 - a)/2, exact
        minus(PIO2_HI, PIO2_LO - c, h, (p, q))
    } else {
        f32::NAN
    };
    if x.is_nan() { x + x } else { copysignf(y, x) }
}

/// `acosf(x)`: the arc cosine in `[0, π]`. CUDA: 2 ulp; `acosf(1) = +0`,
/// NaN outside `[-1, 1]`.
#[doc(alias = "acos")]
#[inline(always)]
pub fn acosf(x: f32) -> f32 {
    let a = x.abs();
    if x.is_nan() || a > 1.0 {
        return x + f32::NAN;
    }
    if a <= 0.5 {
        // π/2 - asin x.
        let x2 = x * x;
        minus(PIO2_HI, PIO2_LO, x, (x * x2, horner(x2, ASIN_P)))
    } else if x > 0.0 {
        // 2 asin(sqrt((1 - x)/2)).
        let (h, (p, q), c) = two_asin_sqrt(fma(x, -0.5, 0.5));
        h + fma(p, q, c)
    } else {
        // π - 2 asin(sqrt((1 + x)/2)).
        let (h, (p, q), c) = two_asin_sqrt(fma(x, 0.5, 0.5));
        minus(PI_HI, PI_LO - c, h, (p, q))
    }
}
