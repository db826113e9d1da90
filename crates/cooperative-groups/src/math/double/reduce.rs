//! Reduction by π/2 for the `f64` trigonometric functions: `x = j π/2 + r`
//! with `r` a double-double, `|r| <= π/4` (plus a rounding).
//!
//! * `|x| < 2^20`: Cody–Waite with π/2 in three parts; the first `fma` is
//!   exact, the second product is kept whole (TwoProd), so `r` is accurate
//!   to about `2^-140` absolute, far below the smallest `|r|` of a `f64`
//!   (about `2^-61`).
//! * larger (and ±∞, NaN): Payne–Hanek: the 192 bits of 2/π that matter for
//!   this exponent, times the 53-bit significand modulo 4 quarter-turns,
//!   in integer arithmetic (the bits of 2/π are the one table of the
//!   `f64` functions: 22 words).

use super::consts::PIO2;
use super::dd::{Dd, fast_two_sum, fma, pow2, two_prod, two_sum};
use crate::arch::fp::rint;

const TWO_OVER_PI: f64 = 0.6366197723675814;
/// π/2 = P1 + P2 + P3 (+ below 2^-160).
const P1: f64 = 1.5707963267948966;
const P2: f64 = 6.123233995736766e-17;
const P3: f64 = -1.4973849048591698e-33;
/// The Cody–Waite bound.
const CW_MAX: f64 = 1_048_576.0;

/// The bits of 2/π: the bit of weight `2^-k` is bit `k + 63` counted from
/// the top of word 0 (word 0 is the zero integer part, so that small
/// exponents read zeros).
const TWO_OVER_PI_BITS: [u64; 22] = [
    0x0000000000000000,
    0xa2f9836e4e441529,
    0xfc2757d1f534ddc0,
    0xdb6295993c439041,
    0xfe5163abdebbc561,
    0xb7246e3a424dd2e0,
    0x06492eea09d1921c,
    0xfe1deb1cb129a73e,
    0xe88235f52ebb4484,
    0xe99c7026b45f7e41,
    0x3991d639835339f4,
    0x9c845f8bbdf9283b,
    0x1ff897ffde05980f,
    0xef2f118b5a0a6d1f,
    0x6d367ecf27cb09b7,
    0x4f463f669e5fea2d,
    0x7527bac7ebe5f17b,
    0x3d0739f78a5292ea,
    0x6bfb5fb11f8d5d08,
    0x56033046fc7b6bab,
    0xf0cfbc209af4361d,
    0xa9e391615ee61b08,
];

/// `(r, j mod 4)` with `x = j π/2 + r`.
#[inline(always)]
pub(crate) fn rem_pio2(x: f64) -> (Dd, u32) {
    if x.abs() < CW_MAX {
        let j = rint(x * TWO_OVER_PI);
        let t = fma(-j, P1, x); // exact: a multiple of ulp(j P1) below 1
        let p = two_prod(j, P2);
        let r = two_sum(t, -p.hi);
        let lo = fma(-j, P3, r.lo - p.lo);
        (fast_two_sum(r.hi, lo), (j as i64) as u32 & 3)
    } else {
        payne_hanek(x)
    }
}

/// 64 bits of 2/π starting at global bit `p` (see [`TWO_OVER_PI_BITS`]).
#[inline(always)]
fn window(p: usize) -> u64 {
    // (The clamp only restates that `p` stays inside the table — the
    // exponent bounds it — so that no bounds check, a `call` in the PTX,
    // is left.)
    let (w, s) = ((p / 64).min(TWO_OVER_PI_BITS.len() - 2), (p % 64) as u32);
    let a = TWO_OVER_PI_BITS[w];
    if s == 0 {
        a
    } else {
        (a << s) | (TWO_OVER_PI_BITS[w + 1] >> (64 - s))
    }
}

/// Payne–Hanek reduction for `|x| >= 2^20` (any finite `f64`), and ±∞/NaN.
#[inline(always)]
fn payne_hanek(x: f64) -> (Dd, u32) {
    let b = x.to_bits();
    let exp = ((b >> 52) & 0x7ff) as i32;
    if exp == 0x7ff {
        return (Dd::from(f64::NAN), 0);
    }
    // |x| = m 2^e with m the 53-bit integer significand (x is normal).
    let m = ((b & ((1 << 52) - 1)) | (1 << 52)) as u128;
    let e = exp - 1075; // >= -32
    // Bits of 2/π from weight 2^(1-e) on: the ones above give multiples
    // of 4 quarter-turns, the ones past the 192 here less than 2^-137.
    let p = (e + 62) as usize;
    let (w0, w1, w2) = (window(p), window(p + 64), window(p + 128));
    // m * (w0:w1:w2) mod 2^192, in units of 2^-190 quarter-turns.
    let q2 = m * w2 as u128;
    let q1 = m * w1 as u128 + (q2 >> 64);
    let q0 = (m * w0 as u128).wrapping_add(q1 >> 64);
    let top = ((q0 as u64 as u128) << 64) | (q1 as u64 as u128);
    let low = q2 as u64;
    // Round to the nearest quarter-turn: j and the signed fraction f (in
    // units of 2^-126 quarter-turns, plus `low` 2^-190).
    let j = (top.wrapping_add(1 << 125) >> 126) as u32;
    let f = top.wrapping_sub((j as u128) << 126) as i128;
    let t = (f >> 63) as i64; // units of 2^-63, |t| < 2^62
    let rest = (f as u64) & ((1 << 63) - 1); // f = t 2^63 + rest
    let hi = t as f64;
    let lo = (t - hi as i64) as f64; // exact: t - hi fits in 11 bits
    let lo = fma(rest as f64, pow2(-63), lo);
    let lo = fma(low as f64, pow2(-127), lo);
    // The fraction in quarter-turns, then radians.
    let frac = fast_two_sum(hi * pow2(-63), lo * pow2(-63));
    let r = PIO2 * frac;
    if b >> 63 != 0 {
        (-r, j.wrapping_neg() & 3)
    } else {
        (r, j & 3)
    }
}
