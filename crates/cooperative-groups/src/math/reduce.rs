//! Argument reduction by π/2 for the trigonometric functions:
//! `x = j * π/2 + r`, `|r| <= π/4` (plus a rounding).
//!
//! * `|x| < 105615`: Cody–Waite with π/2 in three `f32` parts and `fma`
//!   (the first step is exact; the result is `r` to within its last bit).
//! * larger (and ±∞, NaN): Payne–Hanek, table-free: the 128 bits of 2/π
//!   that matter for this exponent are shifted out of a 256-bit constant
//!   held in registers (no global-memory table), multiplied by the 24-bit
//!   significand modulo 2^128 (two integer quarter-turns plus a 126-bit
//!   fraction), and the fraction converted back. Slow (128-bit integer
//!   arithmetic) but exact enough for every finite `f32`.

use super::util::{bits, fma, mul, rint_i};

const TWO_OVER_PI: f32 = core::f32::consts::FRAC_2_PI;
/// π/2 = P1 + P2 + P3 (+ below 2^-75): `fma(j, -P1, x)` is exact for
/// `|j| < 2^17`.
const P1: f32 = 1.5707964;
const P2: f32 = -4.371139e-08;
const P3: f32 = -1.7151245e-15;
/// floor(2/π · 2^256): bit 255 is the 2^-1 bit of 2/π.
const K_HI: u128 = 0xa2f9836e4e441529fc2757d1f534ddc0;
const K_LO: u128 = 0xdb6295993c439041fe5163abdebbc561;

/// The Cody–Waite bound.
pub(crate) const CW_MAX: f32 = 105_615.0;

/// `(r, j mod 4)` with `x = j*π/2 + r`.
#[inline(always)]
pub(crate) fn rem_pio2(x: f32) -> (f32, u32) {
    if x.abs() < CW_MAX {
        let (j, ji) = rint_i(mul(x, TWO_OVER_PI));
        let r = fma(j, -P1, x);
        let r = fma(j, -P2, r);
        let r = fma(j, -P3, r);
        (r, ji as u32 & 3)
    } else {
        payne_hanek(x)
    }
}

/// Payne–Hanek reduction for `|x| >= 2^16` (any `f32` works) and ±∞/NaN.
#[inline(always)]
pub(crate) fn payne_hanek(x: f32) -> (f32, u32) {
    let b = bits(x);
    let exp = ((b >> 23) & 0xff) as i32;
    if exp == 0xff {
        return (f32::NAN, 0); // ±∞, NaN
    }
    // |x| = m * 2^e, m the 24-bit integer significand (x is normal here).
    let m = ((b & 0x7f_ffff) | 0x80_0000) as u128;
    let e = exp - 150;
    // The window of 2/π from weight 2^-(e-1) down to 2^-(e+126): the
    // bits above contribute multiples of 4 quarter-turns (nothing), the
    // ones below less than 2^-100 of a quarter-turn.
    let s = (130 - e) as u32; // in [26, 136] for |x| >= 2^16
    let w = if s < 128 {
        (K_LO >> s) | (K_HI << (128 - s))
    } else {
        K_HI >> (s - 128)
    };
    // x * 2/π mod 4, in units of 2^-126 quarter-turns.
    let p = m.wrapping_mul(w);
    // Round to the nearest quarter-turn: j, and the signed fraction.
    let j = (p.wrapping_add(1 << 125) >> 126) as u32;
    let f = p.wrapping_sub((j as u128) << 126) as i128; // in [-2^125, 2^125)
    let top = (f >> 62) as i64; // the fraction in units of 2^-64
    // The fraction in two floats, then times π/2 in two parts.
    let hi = top as f32;
    let lo = (top - hi as i64) as f32;
    const U: f32 = 5.421011e-20; // 2^-64
    let (hi, lo) = (hi * U, lo * U);
    let r = fma(hi, P1, fma(hi, P2, lo * P1));
    if b >> 31 != 0 {
        (-r, j.wrapping_neg() & 3)
    } else {
        (r, j & 3)
    }
}
