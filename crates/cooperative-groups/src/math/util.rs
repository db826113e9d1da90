//! The building blocks every function uses: the exactly rounded operations
//! of the arch layer, bit access, Horner evaluation and exact scaling.
//!
//! Contraction rule: a product that feeds an addition is always written as
//! an explicit [`fma`]; a plain `a * b` only feeds multiplications or
//! comparisons. Then `-fp-contract=fast` (which may fuse any `fmul` into a
//! following `fadd` on the GPU, but not on the host) has nothing to fuse,
//! and the GPU and the simulator compute the same bits.

pub(crate) use crate::arch::fp::{ceilf, floorf, fmaf as fma, rintf, sqrtf, truncf};

/// The bits of `x`.
#[inline(always)]
pub(crate) fn bits(x: f32) -> u32 {
    x.to_bits()
}
/// The `f32` of bits `b`.
#[inline(always)]
pub(crate) fn from_bits(b: u32) -> f32 {
    f32::from_bits(b)
}

/// `2^k` for `-126 <= k <= 127` (a normal number: exact).
#[inline(always)]
pub(crate) fn pow2i(k: i32) -> f32 {
    from_bits(((k + 127) as u32) << 23)
}

/// `p * 2^j` with one rounding, for `-252 <= j <= 254`: two exact-range
/// factors, so that only the last multiplication can round (into the
/// subnormals) or overflow.
#[inline(always)]
pub(crate) fn scale2(p: f32, j: i32) -> f32 {
    let h = j >> 1;
    p * pow2i(h) * pow2i(j - h)
}

/// `a * b` rounded, as an `fma` with a zero addend: a product that a sum
/// will use, which `-fp-contract=fast` then cannot fuse into that sum
/// (`fma(a, b, +0)` equals `a * b` except for the sign of a zero product).
#[inline(always)]
pub(crate) fn mul(a: f32, b: f32) -> f32 {
    fma(a, b, 0.0)
}

/// Horner's rule with one `fma` per coefficient: `c[0] + x*(c[1] + x*(…))`.
#[inline(always)]
pub(crate) fn horner<const N: usize>(x: f32, c: [f32; N]) -> f32 {
    let mut acc = c[N - 1];
    let mut i = N - 1;
    while i > 0 {
        i -= 1;
        acc = fma(acc, x, c[i]);
    }
    acc
}
