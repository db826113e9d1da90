//! The host side of `arch::fp`: the same correctly rounded operations,
//! from the host's `std` (IEEE 754 requires `fma`, `sqrt` and the
//! integral roundings to be exact or correctly rounded, so the results are
//! the GPU's bit for bit).

extern crate std;

/// `fma.rn.f32`: `a * b + c` with one rounding.
#[inline]
pub fn fmaf(a: f32, b: f32, c: f32) -> f32 {
    a.mul_add(b, c)
}
/// `sqrt.rn.f32`: the correctly rounded square root.
#[inline]
pub fn sqrtf(x: f32) -> f32 {
    x.sqrt()
}
/// `cvt.rmi.f32.f32`: round toward −∞.
#[inline]
pub fn floorf(x: f32) -> f32 {
    x.floor()
}
/// `cvt.rpi.f32.f32`: round toward +∞.
#[inline]
pub fn ceilf(x: f32) -> f32 {
    x.ceil()
}
/// `cvt.rzi.f32.f32`: round toward zero.
#[inline]
pub fn truncf(x: f32) -> f32 {
    x.trunc()
}
/// `cvt.rni.f32.f32`: round to the nearest integer, ties to even.
#[inline]
pub fn rintf(x: f32) -> f32 {
    x.round_ties_even()
}
/// `fma.rn.f64`.
#[inline]
pub fn fma(a: f64, b: f64, c: f64) -> f64 {
    a.mul_add(b, c)
}
/// `min.f32` as the PTX ISA defines it: a NaN operand is ignored (NaN only
/// if both are, the canonical NaN), and −0 is below +0. Written out because
/// the host's `minnum` leaves the sign of a zero result unspecified.
#[inline]
pub fn minf(x: f32, y: f32) -> f32 {
    if x.is_nan() && y.is_nan() {
        f32::from_bits(0x7fff_ffff)
    } else if x.is_nan() || y < x {
        y
    } else if y.is_nan() || x < y {
        x
    } else {
        f32::from_bits(x.to_bits() | y.to_bits()) // equal: -0 wins
    }
}
/// `max.f32` as the PTX ISA defines it (see [`minf`]); +0 is above −0.
#[inline]
pub fn maxf(x: f32, y: f32) -> f32 {
    if x.is_nan() && y.is_nan() {
        f32::from_bits(0x7fff_ffff)
    } else if x.is_nan() || y > x {
        y
    } else if y.is_nan() || x > y {
        x
    } else {
        f32::from_bits(x.to_bits() & y.to_bits()) // equal: +0 wins
    }
}
