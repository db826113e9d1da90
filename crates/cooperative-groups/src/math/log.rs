//! Logarithms: `ln x`, `log2 x`, `log10 x`, `ln(1 + x)`.
//!
//! `x = 2^e * m` with `m` in `[sqrt(1/2), sqrt(2))`, `f = m - 1` (exact),
//! `ln m = f + f^2 * (-1/2 + f * Q(f))` (coefficients from
//! `scripts/math_coeffs.py`). The sum `e*ln2 + f + …` is formed as a
//! head and a tail (Fast2Sum) so that the result rounds once at the end:
//! these functions are within 1 ulp.

use super::util::{bits, fma, from_bits, mul, rint_i};

const LN2_HI: f32 = 0.69314575; // 15 significant bits: e * LN2_HI is exact
const LN2_LO: f32 = 1.4286068e-06;
const LOG2E: f32 = core::f32::consts::LOG2_E;
const LOG2E_LO: f32 = 1.925963e-08;
const LOG10E: f32 = core::f32::consts::LOG10_E;
const LOG10E_LO: f32 = -1.010305e-08;
const LOG10_2: f32 = core::f32::consts::LOG10_2;
const LOG10_2_LO: f32 = -1.4320989e-08;
/// `(ln(1+f) - f + f^2/2) / f^3` on `[sqrt(1/2) - 1, sqrt(2) - 1]`.
const LOG_P: [f32; 9] = [
    0.33333313,
    -0.2500001,
    0.20002119,
    -0.16667996,
    0.1421955,
    -0.12405586,
    0.11888187,
    -0.11675683,
    0.06746625,
];

/// `ln(1 + f) - f` for `f` in `[sqrt(1/2) - 1, sqrt(2) - 1]`, as the
/// factors `(f^2, -1/2 + f*Q(f))` (their product is added by the caller's
/// `fma`, so that it rounds once).
#[inline(always)]
pub(crate) fn log1p_tail(f: f32) -> (f32, f32) {
    (f * f, fma(f, super::util::horner(f, LOG_P), -0.5))
}

/// `x = 2^e * (1 + f)` for finite `x > 0`, `1 + f` in `[sqrt(1/2), sqrt(2))`.
#[inline(always)]
pub(crate) fn split(x: f32) -> (f32, f32) {
    // Subnormals: scale into the normals first.
    let (x, e0) = if x < f32::MIN_POSITIVE {
        (x * 8_388_608.0, -23)
    } else {
        (x, 0)
    };
    let ix = bits(x).wrapping_sub(0x3f35_04f3); // bits of sqrt(1/2)
    let e = (ix as i32) >> 23;
    let m = from_bits(bits(x).wrapping_sub((e as u32) << 23));
    ((e + e0) as f32, m - 1.0)
}

/// The special values of the logarithms: `Some` for `x <= 0`, `+∞`, NaN.
#[inline(always)]
fn special(x: f32) -> Option<f32> {
    if x > 0.0 && x < f32::INFINITY {
        None
    } else if x == 0.0 {
        Some(f32::NEG_INFINITY)
    } else if x < 0.0 {
        Some(f32::NAN)
    } else {
        Some(x + x) // +inf, NaN
    }
}

/// `e*ln2 + ln(1 + f)` rounded once: the head `e*LN2_HI + f` exactly as
/// a sum of two floats, every smaller term in the tail.
#[inline(always)]
fn ln_sum(e: f32, f: f32, f_lo: f32) -> f32 {
    let (ff, s) = log1p_tail(f);
    let hi = fma(e, LN2_HI, f);
    // e*LN2_HI is exact and (for e != 0) not smaller than |f|: the error
    // of `hi` is exactly (e*LN2_HI - hi) + f (Fast2Sum).
    let lo = fma(e, LN2_HI, -hi) + f;
    let t = fma(ff, s, lo + f_lo);
    hi + fma(e, LN2_LO, t)
}

/// `ln x` for a finite `x > 0` as an unevaluated sum `hi + lo` (`hi` the
/// rounded logarithm, `lo` the rest, absolute error about 2^-33 times
/// `max(1, |ln x|)`): for the functions that multiply a logarithm by a
/// large factor (`lgammaf`'s Stirling terms) or take its square root
/// (`erfinvf`'s tail).
#[inline(always)]
pub(crate) fn ln_hilo(x: f32) -> (f32, f32) {
    let (e, f) = split(x);
    let (ff, s) = log1p_tail(f);
    let ff_lo = fma(f, f, -ff);
    let hi = fma(e, LN2_HI, f);
    let lo = fma(e, LN2_HI, -hi) + f;
    // f^2 as two floats, so that its rounding does not enter.
    let t = fma(ff, s, fma(ff_lo, s, lo));
    let t = fma(e, LN2_LO, t);
    // |hi| >= |t| (hi is e*ln2 + f, t the smaller terms): Fast2Sum.
    let h = hi + t;
    (h, (hi - h) + t)
}

/// `logf(x)`: the natural logarithm. CUDA: 1 ulp; `logf(±0) = -∞`,
/// `logf(1) = +0`, `logf(x < 0) = NaN`, `logf(+∞) = +∞`.
#[doc(alias = "log")]
#[inline(always)]
pub fn logf(x: f32) -> f32 {
    if let Some(s) = special(x) {
        return s;
    }
    let (e, f) = split(x);
    ln_sum(e, f, 0.0)
}

/// [`LOG_P`] times log2(e): `log2(1 + f) - f*log2(e)` is
/// `f^2 * (-log2(e)/2 + f * Q2(f))` (the coefficients rounded once more,
/// a change far below the polynomial's own error).
const LOG2_P: [f32; 9] = {
    let mut p = LOG_P;
    let mut i = 0;
    while i < p.len() {
        p[i] *= LOG2E;
        i += 1;
    }
    p
};

/// `e + log2(1 + f)` rounded once: `f*LOG2E` exactly as `ph + pl`, the head
/// `e + ph` with its exact error (Fast2Sum: `|e| >= 1 > |ph|` unless `e =
/// 0`), and the tail `f^2 * S(f)` with `f^2` as two floats and the
/// polynomial already scaled by log2(e), so that it rounds once, in the
/// last `fma`.
#[inline(always)]
fn log2_sum(e: f32, f: f32) -> f32 {
    let s = fma(f, super::util::horner(f, LOG2_P), -0.5 * LOG2E);
    let ff = f * f;
    let ff_lo = fma(f, f, -ff);
    let ph = mul(f, LOG2E);
    let pl = fma(f, LOG2E, -ph);
    let hi = e + ph;
    let lo = (e - hi) + ph;
    let t = fma(f, LOG2E_LO, pl + lo);
    let t = fma(ff_lo, s, t);
    hi + fma(ff, s, t)
}

/// `log2f(x)`: the base-2 logarithm. CUDA: 1 ulp; exact for powers of 2.
#[doc(alias = "log2")]
#[inline(always)]
pub fn log2f(x: f32) -> f32 {
    if let Some(s) = special(x) {
        return s;
    }
    let (e, f) = split(x);
    log2_sum(e, f)
}

/// `log10f(x)`: the base-10 logarithm. CUDA: 2 ulp.
#[doc(alias = "log10")]
#[inline(always)]
pub fn log10f(x: f32) -> f32 {
    if let Some(s) = special(x) {
        return s;
    }
    let (e, f) = split(x);
    // e*log10(2) + log10(1+f): both products exactly as sums of two
    // floats, the heads added with their error (TwoSum), the rest in the tail.
    let (ff, s) = log1p_tail(f);
    let r = ff * s;
    let (ah, bh) = (mul(e, LOG10_2), mul(f, LOG10E));
    let (al, bl) = (fma(e, LOG10_2, -ah), fma(f, LOG10E, -bh));
    let hi = ah + bh;
    let v = hi - ah;
    let lo = (ah - (hi - v)) + (bh - v);
    let t = fma(e, LOG10_2_LO, fma(f, LOG10E_LO, al + bl + lo));
    hi + fma(r, LOG10E, t)
}

/// `log1pf(x)`: `ln(1 + x)`, accurate near 0. CUDA: 1 ulp;
/// `log1pf(-1) = -∞`, `log1pf(x < -1) = NaN`, `log1pf(±0) = ±0`.
#[doc(alias = "log1p")]
#[inline(always)]
pub fn log1pf(x: f32) -> f32 {
    let u = 1.0 + x;
    if let Some(s) = special(u) {
        return if x.is_nan() { x + x } else { s };
    }
    if x.abs() < 1e-9 {
        return x; // keeps -0 and the tiny values exact
    }
    // u = 1 + x rounded, c its exact error (Fast2Sum).
    let c = if x.abs() <= 1.0 {
        (1.0 - u) + x
    } else {
        (x - u) + 1.0
    };
    let (e, f) = split(u);
    if e == 0.0 {
        // u = 1 + f: f = u - 1 is x itself, exactly.
        return ln_sum(0.0, x, 0.0);
    }
    // ln(1 + f + d) = ln(1 + f) + d/(1 + f) - …, d = c * 2^-e; the
    // series to d*f^2 is below the result's last bit.
    // e is a small integer: its integer from the bits, not a saturating
    // `as` (a conversion and three compare-and-selects in SASS).
    let ie = rint_i(e).1;
    let d = c * from_bits(((127 - ie.min(126)) as u32) << 23);
    let d = fma(d, fma(f, f, -f), d);
    ln_sum(e, f, d)
}
