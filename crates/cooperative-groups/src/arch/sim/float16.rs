//! The 16-bit float instructions on the simulator: the software models of
//! [`soft16`](super::super::soft16), which compute what the newest GPU's
//! instructions compute (one rounding to nearest even per operation, the
//! canonical NaN, `__hmin`/`__hmax`'s rules). Signatures match the GPU
//! backend's `float16` module one for one.

use super::super::soft16::{self, BF16_INF, F16_INF, bf16_round, bf16_widen, f16_round, f16_widen};

/// `add.rn.f16`.
#[inline]
pub fn f16_add(a: u16, b: u16) -> u16 {
    f16_round(f16_widen(a) + f16_widen(b))
}
/// `sub.rn.f16`.
#[inline]
pub fn f16_sub(a: u16, b: u16) -> u16 {
    f16_round(f16_widen(a) - f16_widen(b))
}
/// `mul.rn.f16` (the product of two f16 is exact in `f32`).
#[inline]
pub fn f16_mul(a: u16, b: u16) -> u16 {
    f16_round(f16_widen(a) * f16_widen(b))
}
/// `fma.rn.f16`: one rounding of the exact `a·b + c`.
#[inline]
pub fn f16_fma(a: u16, b: u16, c: u16) -> u16 {
    f16_round(soft16::fma_odd(f16_widen(a), f16_widen(b), f16_widen(c)))
}
/// `min.f16`.
#[inline]
pub fn f16_min(a: u16, b: u16) -> u16 {
    soft16::min16(a, b, F16_INF, f16_widen)
}
/// `max.f16`.
#[inline]
pub fn f16_max(a: u16, b: u16) -> u16 {
    soft16::max16(a, b, F16_INF, f16_widen)
}
/// `add.rn.bf16`.
#[inline]
pub fn bf16_add(a: u16, b: u16) -> u16 {
    bf16_round(bf16_widen(a) + bf16_widen(b))
}
/// `sub.rn.bf16`.
#[inline]
pub fn bf16_sub(a: u16, b: u16) -> u16 {
    bf16_round(bf16_widen(a) - bf16_widen(b))
}
/// `mul.rn.bf16`.
#[inline]
pub fn bf16_mul(a: u16, b: u16) -> u16 {
    bf16_round(bf16_widen(a) * bf16_widen(b))
}
/// `fma.rn.bf16`: one rounding of the exact `a·b + c`.
#[inline]
pub fn bf16_fma(a: u16, b: u16, c: u16) -> u16 {
    bf16_round(soft16::fma_odd(bf16_widen(a), bf16_widen(b), bf16_widen(c)))
}
/// `min.bf16`.
#[inline]
pub fn bf16_min(a: u16, b: u16) -> u16 {
    soft16::min16(a, b, BF16_INF, bf16_widen)
}
/// `max.bf16`.
#[inline]
pub fn bf16_max(a: u16, b: u16) -> u16 {
    soft16::max16(a, b, BF16_INF, bf16_widen)
}

/// `cvt.rn.f16.f32`.
#[inline]
pub fn f32_to_f16(x: f32) -> u16 {
    f16_round(x)
}
/// `cvt.f32.f16`.
#[inline]
pub fn f16_to_f32(x: u16) -> f32 {
    f16_widen(x)
}
/// `cvt.rn.bf16.f32`.
#[inline]
pub fn f32_to_bf16(x: f32) -> u16 {
    bf16_round(x)
}
/// `cvt.f32.bf16`.
#[inline]
pub fn bf16_to_f32(x: u16) -> f32 {
    bf16_widen(x)
}
/// `cvt.rn.f16x2.f32`.
#[inline]
pub fn f32x2_to_f16x2(lo: f32, hi: f32) -> u32 {
    soft16::join(f16_round(lo), f16_round(hi))
}
/// `cvt.rn.bf16x2.f32`.
#[inline]
pub fn f32x2_to_bf16x2(lo: f32, hi: f32) -> u32 {
    soft16::join(bf16_round(lo), bf16_round(hi))
}

/// The pair forms: each element as its scalar instruction.
macro_rules! pairs {
    ($($pair:ident = $one:ident;)*) => { $(
        #[doc = concat!("Per element: [`", stringify!($one), "`].")]
        #[inline]
        pub fn $pair(a: u32, b: u32) -> u32 {
            soft16::lanes2(a, b, $one)
        }
    )* };
}
pairs! {
    f16x2_add = f16_add;
    f16x2_sub = f16_sub;
    f16x2_mul = f16_mul;
    f16x2_min = f16_min;
    f16x2_max = f16_max;
    bf16x2_add = bf16_add;
    bf16x2_sub = bf16_sub;
    bf16x2_mul = bf16_mul;
    bf16x2_min = bf16_min;
    bf16x2_max = bf16_max;
}
/// `fma.rn.f16x2`.
#[inline]
pub fn f16x2_fma(a: u32, b: u32, c: u32) -> u32 {
    soft16::lanes3(a, b, c, f16_fma)
}
/// `fma.rn.bf16x2`.
#[inline]
pub fn bf16x2_fma(a: u32, b: u32, c: u32) -> u32 {
    soft16::lanes3(a, b, c, bf16_fma)
}

/// `cvt.rn.satfinite.e4m3x2.f32`: `lo` to the low byte.
#[inline]
pub fn f32x2_to_e4m3x2(lo: f32, hi: f32) -> u16 {
    use soft16::{Fp8, fp8_round};
    fp8_round(lo, Fp8::E4M3) as u16 | (fp8_round(hi, Fp8::E4M3) as u16) << 8
}
/// `cvt.rn.satfinite.e5m2x2.f32`.
#[inline]
pub fn f32x2_to_e5m2x2(lo: f32, hi: f32) -> u16 {
    use soft16::{Fp8, fp8_round};
    fp8_round(lo, Fp8::E5M2) as u16 | (fp8_round(hi, Fp8::E5M2) as u16) << 8
}
/// `cvt.rn.f16x2.e4m3x2` (exact; a NaN becomes the canonical NaN).
#[inline]
pub fn e4m3x2_to_f16x2(x: u16) -> u32 {
    use soft16::{Fp8, fp8_widen};
    let w = |b: u16| f16_round(fp8_widen(b as u8, Fp8::E4M3));
    soft16::join(w(x & 0xff), w(x >> 8))
}
/// `cvt.rn.f16x2.e5m2x2` (the bytes become the high bytes).
#[inline]
pub fn e5m2x2_to_f16x2(x: u16) -> u32 {
    soft16::join((x & 0xff) << 8, x & 0xff00)
}
