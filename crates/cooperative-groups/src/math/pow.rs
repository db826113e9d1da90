//! `powf`: `x^y = 2^(y * log2 x)`.
//!
//! `y * log2 x` must be known to about 2^-33 relative (it reaches ±150,
//! and an error `d` in it is an error `d * ln2` in the result), beyond a
//! single `f32`. This first version computes the logarithm and the
//! exponential in `f64` (`log2` by the `atanh` series in
//! `s = (m - 1)/(m + 1)`, `2^r` by its Taylor series, both exact rational
//! coefficients), which makes the result correctly rounded in all but
//! near-halfway cases. Its cost is one `div.rn.f64` and about twenty `f64`
//! `fma`s: fine on the data-centre GPUs (half the `f32` rate), slow where
//! `f64` runs at 1/64 rate; a double-`f32` version is the planned
//! replacement.

use super::basic::floorf;
use crate::arch::fp::{floor as floor64, fma as fma64};

const LOG2E_X2: f64 = 2.0 * core::f64::consts::LOG2_E;
/// `1/(2k + 1)`: `atanh s / s = sum s^2k / (2k + 1)`.
const INV_ODD: [f64; 8] = [
    1.0,
    1.0 / 3.0,
    1.0 / 5.0,
    1.0 / 7.0,
    1.0 / 9.0,
    1.0 / 11.0,
    1.0 / 13.0,
    1.0 / 15.0,
];
/// `1/k!`, `k = 0..=12`.
const INV_FACT: [f64; 13] = [
    1.0,
    1.0,
    1.0 / 2.0,
    1.0 / 6.0,
    1.0 / 24.0,
    1.0 / 120.0,
    1.0 / 720.0,
    1.0 / 5_040.0,
    1.0 / 40_320.0,
    1.0 / 362_880.0,
    1.0 / 3_628_800.0,
    1.0 / 39_916_800.0,
    1.0 / 479_001_600.0,
];

/// Horner in `f64`, one `fma` per coefficient.
#[inline(always)]
pub(crate) fn horner64<const N: usize>(x: f64, c: [f64; N]) -> f64 {
    let mut acc = c[N - 1];
    let mut i = N - 1;
    while i > 0 {
        i -= 1;
        acc = fma64(acc, x, c[i]);
    }
    acc
}

/// `log2 a` for a finite `a > 0` (an `f32`, so normal as an `f64`).
#[inline(always)]
pub(crate) fn log2_f64(a: f64) -> f64 {
    let b = a.to_bits();
    // m in [sqrt(1/2), sqrt(2)): subtract the bits of sqrt(1/2).
    let ix = b.wrapping_sub(0x3fe6_a09e_667f_3bcd);
    let e = (ix as i64) >> 52;
    let m = f64::from_bits(b.wrapping_sub((e as u64) << 52));
    let s = (m - 1.0) / (m + 1.0);
    // |s| <= 0.1716: 8 terms leave < 2^-50.
    fma64(s * LOG2E_X2, horner64(s * s, INV_ODD), e as f64)
}

/// `2^t` for `|t| <= 160` as an `f64` (no overflow: `f64` has the range).
#[inline(always)]
pub(crate) fn exp2_f64(t: f64) -> f64 {
    let j = floor64(t + 0.5);
    let z = (t - j) * core::f64::consts::LN_2; // |z| <= ln2/2
    // e^z by Taylor to z^12 (< 2^-52 relative for |z| <= 0.35).
    horner64(z, INV_FACT) * f64::from_bits(((j as i64 + 1023) as u64) << 52)
}

/// Whether `y` is an integer, and whether an odd one.
#[inline(always)]
fn integer(y: f32) -> (bool, bool) {
    let int = floorf(y) == y;
    let odd = int && y.abs() < 16_777_216.0 && (y as i32) & 1 == 1;
    (int, odd)
}

/// `powf(x, y)`: `x` to the power `y`. CUDA: 4 ulp (this is correctly
/// rounded up to near-halfway cases). C99's special values: `powf(x, ±0) =
/// 1` and `powf(1, y) = 1` even for NaN; `powf(-1, ±∞) = 1`; `powf(±0, y)`
/// is `±∞`/`+∞` for `y < 0` (odd integer / otherwise) and `±0`/`+0` for
/// `y > 0`; `powf(x < 0, y)` is NaN for a finite non-integer `y`; the
/// infinities as the limits.
#[doc(alias = "pow")]
#[inline(always)]
pub fn powf(x: f32, y: f32) -> f32 {
    if y == 0.0 || x == 1.0 {
        return 1.0;
    }
    if x.is_nan() || y.is_nan() {
        return x + y;
    }
    let ax = x.abs();
    if y.is_infinite() {
        return if ax == 1.0 {
            1.0
        } else if (ax < 1.0) == (y > 0.0) {
            0.0
        } else {
            f32::INFINITY
        };
    }
    let (int, odd) = integer(y);
    let neg = x.is_sign_negative() && odd;
    let mag = if ax == 0.0 || ax == f32::INFINITY {
        // 0^y and ∞^y: 0 or ∞ by the sign of y (and of log ax).
        if (ax == 0.0) == (y < 0.0) {
            f32::INFINITY
        } else {
            0.0
        }
    } else if x < 0.0 && !int {
        return f32::NAN;
    } else {
        // An fma with a zero addend: the product cannot be fused into the
        // `t - j` and `t + 0.5` below by `-fp-contract=fast` (the GPU would
        // then round differently from the simulator).
        let t = fma64(y as f64, log2_f64(ax as f64), 0.0);
        let t = t.clamp(-160.0, 160.0);
        exp2_f64(t) as f32 // one rounding to f32 (cvt.rn.f32.f64)
    };
    if neg { -mag } else { mag }
}
