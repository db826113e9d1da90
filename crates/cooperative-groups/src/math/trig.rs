//! Sine, cosine, tangent (of radians, and of multiples of π).
//!
//! After the reduction by π/2 ([`rem_pio2`]), `sin r = r + r^3 S(r^2)` and
//! `cos r = 1 - r^2/2 + r^4 C(r^2)` on `|r| <= π/4`; the quadrant picks one
//! of them and its sign, without branches.

use super::basic::copysignf;
use super::reduce::rem_pio2;
use super::util::{bits, floorf, fma, from_bits, horner, rint_i, rintf};

/// `(sin r - r) / r^3` as a polynomial in `r^2`, `|r| <= π/4`.
const SIN_P: [f32; 4] = [-0.16666667, 0.008333329, -0.00019839311, 2.718112e-06];
/// `(cos r - 1 + r^2/2) / r^4` as a polynomial in `r^2`.
const COS_P: [f32; 4] = [0.041666668, -0.0013888883, 2.479946e-05, -2.7205664e-07];
/// `(sin(πt)/t - π) / t^2` as a polynomial in `t^2`, `|t| <= 1/4`.
const SINPI_P: [f32; 4] = [-5.1677127, 2.5501628, -0.5992054, 0.08102474];
/// `(cos(πt) - 1 + (π²/2) t^2) / t^4` as a polynomial in `t^2`, `|t| <= 1/4`.
const COSPI_P: [f32; 4] = [4.058712, -1.3352623, 0.23531045, -0.025477655];
/// `-π²/2` in two parts.
const COSPI_C2_HI: f32 = -4.934802;
const COSPI_C2_LO: f32 = -1.451858e-7;
const PI_HI: f32 = core::f32::consts::PI;
const PI_LO: f32 = -8.742278e-08;

/// `sin r` for the reduced `r`.
#[inline(always)]
fn sin_r(r: f32) -> f32 {
    let r2 = r * r;
    fma(r * r2, horner(r2, SIN_P), r)
}

/// `cos r` for the reduced `r`.
#[inline(always)]
fn cos_r(r: f32) -> f32 {
    let r2 = r * r;
    fma(r2, fma(r2, horner(r2, COS_P), -0.5), 1.0)
}

/// Negates `y` when `neg` (a sign-bit flip, so also of zeros).
#[inline(always)]
fn flip(y: f32, neg: bool) -> f32 {
    from_bits(bits(y) ^ ((neg as u32) << 31))
}

/// `(sin x, cos x)` from the reduced argument.
#[inline(always)]
fn sincos_q(r: f32, q: u32) -> (f32, f32) {
    let (s, c) = (sin_r(r), cos_r(r));
    let (s2, c2) = if q & 1 != 0 { (c, s) } else { (s, c) };
    (flip(s2, q & 2 != 0), flip(c2, (q + 1) & 2 != 0))
}

/// `sinf(x)`: the sine of `x` radians. CUDA: 2 ulp; `sinf(±0) = ±0`,
/// `sinf(±∞) = NaN`. Any argument, however large, is reduced exactly.
#[doc(alias = "sin")]
#[inline(always)]
pub fn sinf(x: f32) -> f32 {
    if x == 0.0 {
        return x; // the polynomial would turn -0 into +0
    }
    let (r, q) = rem_pio2(x);
    sincos_q(r, q).0
}

/// `cosf(x)`: the cosine of `x` radians. CUDA: 2 ulp; `cosf(±0) = 1`,
/// `cosf(±∞) = NaN`.
#[doc(alias = "cos")]
#[inline(always)]
pub fn cosf(x: f32) -> f32 {
    let (r, q) = rem_pio2(x);
    sincos_q(r, q).1
}

/// `sincosf(x)`: `(sin x, cos x)` with one reduction. CUDA: 2 ulp each.
#[doc(alias = "sincos")]
#[inline(always)]
pub fn sincosf(x: f32) -> (f32, f32) {
    let (r, q) = rem_pio2(x);
    let (s, c) = sincos_q(r, q);
    (if x == 0.0 { x } else { s }, c)
}

/// `tanf(x)`: the tangent of `x` radians, `sin r / cos r` or
/// `-cos r / sin r` (one correctly rounded division). CUDA: 4 ulp;
/// `tanf(±0) = ±0`, `tanf(±∞) = NaN`.
#[doc(alias = "tan")]
#[inline(always)]
pub fn tanf(x: f32) -> f32 {
    if x == 0.0 {
        return x;
    }
    let (r, q) = rem_pio2(x);
    let (s, c) = (sin_r(r), cos_r(r));
    if q & 1 != 0 { -c / s } else { s / c }
}

/// `(t, q)` with `x = q/2 + t`, `|t| <= 1/4`, `q` taken mod 4. Exact for
/// every finite `x` (`2x`, its rounding and the difference are exact).
#[inline(always)]
fn rem_half(x: f32) -> (f32, u32) {
    // From 2^24 on every f32 is an even integer: sinpi is a signed zero,
    // cospi 1, as for ±0 (x * 0 keeps the sign, and makes ∞ a NaN).
    let x = if x.abs() >= 16_777_216.0 { x * 0.0 } else { x };
    let j = rintf(x + x);
    let t = fma(j, -0.5, x);
    // j mod 4, exact in floats (j may exceed i32).
    let j4 = fma(-4.0, floorf(j * 0.25), j);
    // j4 is 0, 1, 2 or 3 (NaN for ±∞): its integer from the bits, not a
    // saturating `as` (a conversion and three compare-and-selects in SASS).
    (t, rint_i(j4).1 as u32 & 3)
}

/// `sin(πt)` for `|t| <= 1/4`: `t*π_hi + t*(π_lo + t^2 S(t^2))`.
#[inline(always)]
fn sinpi_t(t: f32) -> f32 {
    let t2 = t * t;
    fma(t, PI_HI, t * fma(t2, horner(t2, SINPI_P), PI_LO))
}

/// `cos(πt)` for `|t| <= 1/4`: `1 + t^2 (c2 + t^2 C(t^2))` rounded once,
/// with the roundings of `t^2`, of the inner sum and of the outer `fma`
/// carried as exact error terms (cos(π/4) sits low in its binade, where a
/// plain evaluation reached 1.02 ulp).
#[inline(always)]
fn cospi_t(t: f32) -> f32 {
    let tt = t * t;
    let tt_lo = fma(t, t, -tt);
    let a = horner(tt, COSPI_P);
    let acc = fma(a, tt, COSPI_C2_HI);
    let e2 = fma(a, tt, COSPI_C2_HI - acc) + COSPI_C2_LO; // c2 - acc exact (Sterbenz)
    let h = fma(tt, acc, 1.0);
    let e1 = fma(tt, acc, 1.0 - h); // 1 - h exact
    h + (e1 + fma(tt_lo, acc, tt * e2))
}

/// `sinpif(x)`: `sin(πx)`, exact reduction for every `x`. CUDA: 1 ulp;
/// `sinpif(±0) = ±0`, `sinpif(±∞) = NaN`; an integer `n` gives a zero with
/// the sign of `n`.
#[doc(alias = "sinpi")]
#[inline(always)]
pub fn sinpif(x: f32) -> f32 {
    let (t, q) = rem_half(x);
    let (s, c) = (sinpi_t(t), cospi_t(t));
    let y = flip(if q & 1 != 0 { c } else { s }, q & 2 != 0);
    if y == 0.0 { copysignf(0.0, x) } else { y }
}

/// `cospif(x)`: `cos(πx)`. CUDA: 1 ulp; `cospif(±∞) = NaN`; a half-integer
/// gives `+0`.
#[doc(alias = "cospi")]
#[inline(always)]
pub fn cospif(x: f32) -> f32 {
    let (t, q) = rem_half(x);
    let (s, c) = (sinpi_t(t), cospi_t(t));
    let y = flip(if q & 1 != 0 { s } else { c }, (q + 1) & 2 != 0);
    y + 0.0 // -0 (a half-integer) becomes +0
}
