//! Software models of the 16-bit float instructions, on raw bits (`u16`
//! for one value, `u32` for a pair with element 0 in the low half).
//!
//! The simulator computes every half-precision instruction with these, and
//! the GPU backend uses them where the target has no instruction (bf16
//! arithmetic below sm_80, half `min`/`max` below sm_80) — the same
//! fallbacks NVIDIA's `cuda_bf16.hpp` takes there, so both give the same
//! bits as the C++.
//!
//! * Arithmetic (`+ - *`) is computed in `f32` and rounded once to the
//!   16-bit format, to nearest even. The `f32` step is exact or rounds
//!   innocuously: for `+ - * /` of p-bit operands, rounding first to q ≥
//!   2p + 2 bits and then to p bits gives the correctly rounded result
//!   (24 ≥ 2·11 + 2 for f16, 24 ≥ 2·8 + 2 for bf16). `tests/half_floats.rs`
//!   checks this against a reference that rounds once.
//! * `fma` has no such guarantee (the product has 2p bits), so
//!   [`fma_odd`] computes `a·b + c` exactly in `f64` and rounds it to `f32`
//!   *to odd*, which keeps enough of the discarded bits for the final
//!   rounding to nearest even to be correct.
//! * A NaN result is the canonical NaN `0x7fff` (`CUDART_NAN_FP16`,
//!   `CUDART_NAN_BF16`), as the GPU's half instructions and NVIDIA's
//!   software paths return.

/// The canonical NaN of both formats (what every half instruction returns
/// for a NaN result).
pub const NAN16: u16 = 0x7fff;

/// The exact `f32` value of the bf16 `x` (`cvt.f32.bf16`: a shift).
#[inline(always)]
pub const fn bf16_widen(x: u16) -> f32 {
    f32::from_bits((x as u32) << 16)
}

/// `x` rounded to bf16, to nearest even; NaN → [`NAN16`]
/// (`cvt.rn.bf16.f32`, and NVIDIA's `__float2bfloat16_rn` below sm_80).
#[inline(always)]
pub const fn bf16_round(x: f32) -> u16 {
    let b = x.to_bits();
    if b & 0x7fff_ffff > 0x7f80_0000 {
        return NAN16;
    }
    // Adding 0x7fff (+1 when the kept part is odd) carries into bit 16
    // exactly when the dropped half is above the midpoint, or at it with
    // an odd kept part; a carry out of the significand steps the exponent
    // (up to infinity), as rounding must.
    ((b + 0x7fff + ((b >> 16) & 1)) >> 16) as u16
}

/// The exact `f32` value of the f16 `x` (`cvt.f32.f16`); a NaN keeps its
/// sign and payload and becomes quiet.
#[inline(always)]
pub fn f16_widen(x: u16) -> f32 {
    half::f16::from_bits(x).to_f32()
}

/// `x` rounded to f16, to nearest even (the `half` crate's conversion);
/// NaN → [`NAN16`] (`cvt.rn.f16.f32`).
#[inline(always)]
pub fn f16_round(x: f32) -> u16 {
    if x.is_nan() {
        NAN16
    } else {
        half::f16::from_f32(x).to_bits()
    }
}

/// `x` rounded to `f32` to odd: the nearest `f32` when `x` is one,
/// otherwise the neighbour of the two around `x` whose last significand bit
/// is 1. Rounding this to a format of at most 22 bits is the same as
/// rounding `x` itself (the odd bit stands for everything discarded).
#[inline(always)]
fn f64_to_f32_odd(x: f64) -> f32 {
    let f = x as f32;
    if !f.is_finite() || f as f64 == x || f.to_bits() & 1 == 1 {
        return f;
    }
    // `f` is even and not `x`: step to the odd neighbour on `x`'s side.
    let toward_larger_magnitude = (x.abs()) > (f as f64).abs();
    f32::from_bits(if toward_larger_magnitude {
        f.to_bits() + 1
    } else {
        f.to_bits() - 1
    })
}

/// `a·b + c` for operands of at most 11 significant bits, rounded to `f32`
/// to odd (see [`f64_to_f32_odd`]): the product is exact in `f64` (22
/// bits), the sum is computed exactly as `s + err` (Knuth's two-sum), and
/// an inexact `s` is moved to odd before the narrowing.
#[inline(always)]
pub fn fma_odd(a: f32, b: f32, c: f32) -> f32 {
    let p = a as f64 * b as f64;
    let c = c as f64;
    let mut s = p + c;
    if s.is_finite() {
        let v = s - p;
        let err = (p - (s - v)) + (c - v);
        if err != 0.0 && s.to_bits() & 1 == 0 {
            // `s` is inexact: the odd neighbour on the exact sum's side.
            let up = (err > 0.0) == (s > 0.0);
            s = f64::from_bits(if up { s.to_bits() + 1 } else { s.to_bits() - 1 });
        }
    }
    f64_to_f32_odd(s)
}

/// Whether the 16-bit value `x` of a format whose infinity is `inf` is a NaN.
#[inline(always)]
const fn is_nan(x: u16, inf: u16) -> bool {
    x & 0x7fff > inf
}

/// `__hmin`: the smaller of `a` and `b`; a NaN operand gives the other, two
/// NaNs the canonical NaN, and `-0.0 < +0.0` (`min.f16`, `min.bf16`).
#[inline(always)]
pub fn min16(a: u16, b: u16, inf: u16, widen: fn(u16) -> f32) -> u16 {
    match (is_nan(a, inf), is_nan(b, inf)) {
        (true, true) => NAN16,
        (true, false) => b,
        (false, true) => a,
        _ => {
            let (x, y) = (widen(a), widen(b));
            if x < y {
                a
            } else if y < x {
                b
            } else {
                // Equal: the same bits, or zeros of two signs (the negative
                // one has the larger bits).
                a.max(b)
            }
        }
    }
}

/// `__hmax`: as [`min16`], the larger, with `+0.0 > -0.0`.
#[inline(always)]
pub fn max16(a: u16, b: u16, inf: u16, widen: fn(u16) -> f32) -> u16 {
    match (is_nan(a, inf), is_nan(b, inf)) {
        (true, true) => NAN16,
        (true, false) => b,
        (false, true) => a,
        _ => {
            let (x, y) = (widen(a), widen(b));
            if x > y {
                a
            } else if y > x {
                b
            } else {
                a.min(b)
            }
        }
    }
}

/// Infinity's bits in f16 (`0x7c00`): larger bits without the sign are NaNs.
pub const F16_INF: u16 = 0x7c00;
/// Infinity's bits in bf16 (`0x7f80`).
pub const BF16_INF: u16 = 0x7f80;

/// The low (element 0) and high (element 1) halves of a pair.
#[inline(always)]
pub const fn split(x: u32) -> (u16, u16) {
    (x as u16, (x >> 16) as u16)
}

/// The pair of `lo` (element 0) and `hi` (element 1).
#[inline(always)]
pub const fn join(lo: u16, hi: u16) -> u32 {
    lo as u32 | (hi as u32) << 16
}

/// `f` applied to both elements of two pairs.
#[inline(always)]
pub fn lanes2(a: u32, b: u32, f: impl Fn(u16, u16) -> u16) -> u32 {
    let ((a0, a1), (b0, b1)) = (split(a), split(b));
    join(f(a0, b0), f(a1, b1))
}

/// `f` applied to both elements of three pairs.
#[inline(always)]
pub fn lanes3(a: u32, b: u32, c: u32, f: impl Fn(u16, u16, u16) -> u16) -> u32 {
    let ((a0, a1), (b0, b1), (c0, c1)) = (split(a), split(b), split(c));
    join(f(a0, b0, c0), f(a1, b1, c1))
}

/// The two 8-bit float formats of sm_89+ (OCP FP8): `e4m3` (bias 7, no
/// infinities, NaN `S.1111.111`, largest 448) and `e5m2` (bias 15, the
/// top byte of an f16).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fp8 {
    /// 4 exponent bits, 3 significand bits.
    E4M3,
    /// 5 exponent bits, 2 significand bits.
    E5M2,
}

impl Fp8 {
    /// Bits of the largest finite value (`0x7e`: 448; `0x7b`: 57344).
    pub const fn max_bits(self) -> u8 {
        match self {
            Fp8::E4M3 => 0x7e,
            Fp8::E5M2 => 0x7b,
        }
    }
}

/// The exact `f32` value of the 8-bit float `x`.
#[inline(always)]
pub fn fp8_widen(x: u8, fmt: Fp8) -> f32 {
    match fmt {
        // An e5m2 is the high byte of the f16 with the same value.
        Fp8::E5M2 => f16_widen((x as u16) << 8),
        Fp8::E4M3 => {
            let sign = if x & 0x80 != 0 { -1.0 } else { 1.0 };
            let (e, m) = ((x >> 3) & 0xf, (x & 7) as f32);
            if e == 0xf && x & 7 == 7 {
                f32::NAN * sign
            } else if e == 0 {
                // Subnormal: m · 2^-9.
                sign * m * (1.0 / 512.0)
            } else {
                sign * (8.0 + m) * f32::from_bits(((e as u32 + 127 - 10) & 0xff) << 23)
            }
        }
    }
}

/// `x` rounded to nearest even in `fmt`, saturating to the largest finite
/// value (`cvt.rn.satfinite.{e4m3x2,e5m2x2}.f32`): a magnitude at or
/// beyond it, infinities included, gives `±max`; a NaN gives `0x7f` with
/// the input's sign (e5m2: `0x7e` or `0x7f`, the NaN's top significand
/// bits kept), as NVIDIA's `__nv_cvt_float_to_fp8(x, __NV_SATFINITE, …)`.
pub fn fp8_round(x: f32, fmt: Fp8) -> u8 {
    let bits = x.to_bits();
    let sign = ((bits >> 31) as u8) << 7;
    if x.is_nan() {
        return sign
            | match fmt {
                Fp8::E4M3 => 0x7f,
                Fp8::E5M2 => 0x7e | ((bits >> 21) & 1) as u8,
            };
    }
    let a = x.abs();
    let max = fp8_widen(fmt.max_bits(), fmt);
    if a >= max {
        return sign | fmt.max_bits();
    }
    // The candidates below and above `a`, by bits (the non-negative values
    // increase with their bits), then the nearer one, ties to even bits.
    let mut lo = 0u8;
    let mut hi = fmt.max_bits();
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if fp8_widen(mid, fmt) <= a {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let (vl, vh) = (fp8_widen(lo, fmt) as f64, fp8_widen(hi, fmt) as f64);
    let a = a as f64;
    // (`a <= vl`: `a` is `lo`'s value itself.)
    let pick = if a <= vl || a - vl < vh - a {
        lo
    } else if a - vl > vh - a {
        hi
    } else if lo & 1 == 0 {
        lo
    } else {
        hi
    };
    sign | pick
}
