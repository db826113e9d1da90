//! Hyperbolic functions and their inverses.
//!
//! `sinh`, `cosh`, `tanh` from `e^|x| = (p_hi + p_lo) * 2^j` ([`exp_hilo`],
//! more precise than an `f32`), polynomials near 0 where `e^x - e^-x`
//! cancels; the inverses from [`logf`]/[`log1pf`] on arguments arranged to
//! avoid cancellation.

use super::basic::copysignf;
use super::exp::exp_hilo;
use super::log::{log1pf, logf};
use super::util::{fma, horner, pow2i, sqrtf};

/// `(tanh x - x) / x^3` in `x^2`, `|x| <= 0.55`.
const TANH_P: [f32; 6] = [
    -0.3333333,
    0.13333294,
    -0.05395965,
    0.021782825,
    -0.008413957,
    0.0023958203,
];
/// `(sinh x - x) / x^3` in `x^2`, `|x| <= 1`.
const SINH_P: [f32; 5] = [
    0.16666667,
    0.008333333,
    0.00019841295,
    2.7552142e-06,
    2.5526658e-08,
];
const LN2: f32 = core::f32::consts::LN_2;

/// `e^a / 2` for `0 <= a <= 90` as `(hi, lo)`, `hi` possibly `+∞`.
#[inline(always)]
fn half_exp(a: f32) -> (f32, f32) {
    let (p, q, j) = exp_hilo(a);
    // 2^(j-1) in two exact factors (j - 1 may reach 129).
    let (s1, s2) = (pow2i((j - 1) >> 1), pow2i((j - 1) - ((j - 1) >> 1)));
    (p * s1 * s2, q * s1 * s2)
}

/// `coshf(x)`. CUDA: 2 ulp; `coshf(±0) = 1`, `coshf(±∞) = +∞`.
#[doc(alias = "cosh")]
#[inline(always)]
pub fn coshf(x: f32) -> f32 {
    if x.is_nan() {
        return x + x;
    }
    let a = x.abs().min(90.0);
    let (h, l) = half_exp(a);
    if a >= 9.0 {
        // e^-a / 2 is below 2^-26 of the result.
        return h + l;
    }
    // e^a/2 + e^-a/2, the second as 0.25 / (e^a/2).
    h + (l + 0.25 / h)
}

/// `sinhf(x)`. CUDA: 3 ulp; `sinhf(±0) = ±0`, `sinhf(±∞) = ±∞`.
#[doc(alias = "sinh")]
#[inline(always)]
pub fn sinhf(x: f32) -> f32 {
    let a = x.abs();
    if a < 1.0 {
        let x2 = x * x;
        return if x == 0.0 {
            x
        } else {
            fma(x * x2, horner(x2, SINH_P), x)
        };
    }
    if x.is_nan() {
        return x + x;
    }
    let (h, l) = half_exp(a.min(90.0));
    let y = if a >= 9.0 { h + l } else { h + (l - 0.25 / h) };
    copysignf(y, x)
}

/// `tanhf(x)`. CUDA: 2 ulp; `tanhf(±0) = ±0`, `tanhf(±∞) = ±1`.
#[doc(alias = "tanh")]
#[inline(always)]
pub fn tanhf(x: f32) -> f32 {
    let a = x.abs();
    if a < 0.55 {
        let x2 = x * x;
        // ±0 as is (the polynomial would turn -0 into +0).
        return if x == 0.0 {
            x
        } else {
            fma(x * x2, horner(x2, TANH_P), x)
        };
    }
    if x.is_nan() {
        return x + x;
    }
    let y = if a >= 9.1 {
        1.0 // 1 - tanh a < 2^-25: rounds to 1
    } else {
        // 1 - 2 / (e^2a + 1), e^2a + 1 = fma(2^j, p_hi, 1) + 2^j p_lo.
        let (p, q, j) = exp_hilo(a + a);
        let s = pow2i(j);
        let d = fma(s, p, fma(s, q, 1.0));
        1.0 - 2.0 / d
    };
    copysignf(y, x)
}

/// `asinhf(x)`. CUDA: 3 ulp; `asinhf(±0) = ±0`, `asinhf(±∞) = ±∞`.
#[doc(alias = "asinh")]
#[inline(always)]
pub fn asinhf(x: f32) -> f32 {
    let a = x.abs();
    let y = if a < 2.441_406_3e-4 {
        return x; // 2^-12: asinh a = a - a^3/6 rounds to a
    } else if a > 268_435_456.0 {
        // 2^28: asinh a = ln(2a) to within 2^-58.
        logf(a) + LN2
    } else if a >= 2.0 {
        // ln(2a + 1/(a + sqrt(a^2 + 1))): no cancellation.
        logf(a + a + 1.0 / (a + sqrtf(fma(a, a, 1.0))))
    } else {
        // ln1p(a + a^2 / (1 + sqrt(1 + a^2))).
        log1pf(a + (a * a) / (1.0 + sqrtf(fma(a, a, 1.0))))
    };
    copysignf(y, x)
}

/// `acoshf(x)`. CUDA: 4 ulp; `acoshf(1) = +0`, NaN below 1,
/// `acoshf(+∞) = +∞`.
#[doc(alias = "acosh")]
#[inline(always)]
pub fn acoshf(x: f32) -> f32 {
    if x.is_nan() || x < 1.0 {
        return x + f32::NAN;
    }
    if x > 268_435_456.0 {
        logf(x) + LN2
    } else if x >= 2.0 {
        // ln(2x - 1/(x + sqrt(x^2 - 1))).
        logf(x + x - 1.0 / (x + sqrtf(fma(x, x, -1.0))))
    } else {
        // t = x - 1 (exact): ln1p(t + sqrt(2t + t^2)).
        let t = x - 1.0;
        log1pf(t + sqrtf(fma(t, t, t + t)))
    }
}

/// `atanhf(x)`. CUDA: 3 ulp; `atanhf(±0) = ±0`, `atanhf(±1) = ±∞`, NaN
/// outside `[-1, 1]`.
#[doc(alias = "atanh")]
#[inline(always)]
pub fn atanhf(x: f32) -> f32 {
    let a = x.abs();
    if x.is_nan() || a > 1.0 {
        return x + f32::NAN;
    }
    if a < 2.441_406_3e-4 {
        return x; // atanh a = a + a^3/3 rounds to a
    }
    // atanh a = ln1p(2a / (1 - a)) / 2; 1 - a is exact for a >= 1/2, and
    // below that 2a + 2a^2/(1 - a) keeps the leading term exact.
    let y = if a < 0.5 {
        let t = a + a;
        0.5 * log1pf(fma(t, a / (1.0 - a), t))
    } else {
        0.5 * log1pf((a + a) / (1.0 - a))
    };
    copysignf(y, x)
}
