//! Floating-point primitives the math library builds on, one PTX
//! instruction each: LLVM lowers these core intrinsics to `fma.rn`,
//! `sqrt.rn`, `cvt.rmi`/`cvt.rpi`/`cvt.rzi`/`cvt.rni` (checked by the PTX
//! tests). No call into a math library is ever emitted.

use core::intrinsics;

/// `fma.rn.f32`: `a * b + c` with one rounding.
#[inline(always)]
pub fn fmaf(a: f32, b: f32, c: f32) -> f32 {
    intrinsics::fmaf32(a, b, c)
}
/// `sqrt.rn.f32`: the correctly rounded square root.
#[inline(always)]
pub fn sqrtf(x: f32) -> f32 {
    intrinsics::sqrtf32(x)
}
/// `cvt.rmi.f32.f32`: round toward −∞.
#[inline(always)]
pub fn floorf(x: f32) -> f32 {
    intrinsics::floorf32(x)
}
/// `cvt.rpi.f32.f32`: round toward +∞.
#[inline(always)]
pub fn ceilf(x: f32) -> f32 {
    intrinsics::ceilf32(x)
}
/// `cvt.rzi.f32.f32`: round toward zero.
#[inline(always)]
pub fn truncf(x: f32) -> f32 {
    intrinsics::truncf32(x)
}
/// `cvt.rni.f32.f32`: round to the nearest integer, ties to even.
#[inline(always)]
pub fn rintf(x: f32) -> f32 {
    intrinsics::round_ties_even_f32(x)
}
/// `fma.rn.f64`.
#[inline(always)]
pub fn fma(a: f64, b: f64, c: f64) -> f64 {
    intrinsics::fmaf64(a, b, c)
}
/// `min.f32`: NaN-ignoring minimum, −0 below +0 (PTX ISA, `min`).
#[inline(always)]
pub fn minf(x: f32, y: f32) -> f32 {
    x.min(y)
}
/// `max.f32`: NaN-ignoring maximum, +0 above −0.
#[inline(always)]
pub fn maxf(x: f32, y: f32) -> f32 {
    x.max(y)
}
