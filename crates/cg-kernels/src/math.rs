//! Kernels of the math library (`cooperative_groups::math`): one that
//! applies any of the `f32` functions by number (the simulator test runs it
//! against direct host calls, the PTX tests check that no function compiles
//! to a `call`), and one written with method syntax (`x.exp()` through
//! the prelude's `FloatMath`), which must build for `nvptx64`.

use cooperative_groups::math;
use cooperative_groups::prelude::*;
use cooperative_groups::{GlobalSlice, OwnedSlice, kernel};

/// The unary `f32` functions [`math_unary_f32`] applies, by index.
pub const UNARY_F32_FUNCTIONS: &[(&str, fn(f32) -> f32)] = &[
    ("expf", math::expf),
    ("exp2f", math::exp2f),
    ("exp10f", math::exp10f),
    ("expm1f", math::expm1f),
    ("logf", math::logf),
    ("log2f", math::log2f),
    ("log10f", math::log10f),
    ("log1pf", math::log1pf),
    ("sqrtf", math::sqrtf),
    ("rsqrtf", math::rsqrtf),
    ("cbrtf", math::cbrtf),
    ("sinf", math::sinf),
    ("cosf", math::cosf),
    ("tanf", math::tanf),
    ("sinpif", math::sinpif),
    ("cospif", math::cospif),
    ("floorf", math::floorf),
    ("ceilf", math::ceilf),
    ("truncf", math::truncf),
    ("roundf", math::roundf),
    ("rintf", math::rintf),
];

/// `f`-th function of [`UNARY_F32_FUNCTIONS`] applied to `x`, as a `match`
/// (direct calls, so each function inlines into the kernel).
#[inline(always)]
pub fn apply_unary_f32(f: u32, x: f32) -> f32 {
    match f {
        0 => math::expf(x),
        1 => math::exp2f(x),
        2 => math::exp10f(x),
        3 => math::expm1f(x),
        4 => math::logf(x),
        5 => math::log2f(x),
        6 => math::log10f(x),
        7 => math::log1pf(x),
        8 => math::sqrtf(x),
        9 => math::rsqrtf(x),
        10 => math::cbrtf(x),
        11 => math::sinf(x),
        12 => math::cosf(x),
        13 => math::tanf(x),
        14 => math::sinpif(x),
        15 => math::cospif(x),
        16 => math::floorf(x),
        17 => math::ceilf(x),
        18 => math::truncf(x),
        19 => math::roundf(x),
        20 => math::rintf(x),
        _ => f32::NAN,
    }
}

/// `out[i] = F_f(x[i])` for the `f`-th function of [`UNARY_F32_FUNCTIONS`].
#[kernel]
pub fn math_unary_f32(f: u32, x: GlobalSlice<f32>, out: OwnedSlice<f32>) {
    let grid = this_grid();
    if let Some(e) = out.at(&grid) {
        e.store(apply_unary_f32(f, x.load(grid.thread_rank() as usize)));
    }
}

/// What [`math_methods_f32`] computes for one input: method syntax in
/// a `no_std` kernel crate. On `nvptx64` `x.exp()`, `x.sin_cos()`,
/// `x.exp10()`… resolve to the prelude's `FloatMath`; on the host, to
/// `std`'s methods where `std` has them (see `cooperative_groups::math`).
#[inline(always)]
pub fn method_mix(v: f32) -> f32 {
    let (s, c) = v.sin_cos();
    let a = v.exp() + v.ln_1p() + s * c + v.exp10() + v.rsqrt() + v.sinpi() + v.cospi();
    let b = v.floor() + v.sqrt() + v.hypot(c) + v.exp_m1() + v.log2() + v.cbrt() + v.tan();
    let d = v.remainder(0.75) + v.ldexp(3) + v.frexp().0 + v.nextafter(0.0) + v.fdim(s);
    let e = math::fmodf(v, 0.3) + math::fminf(v, c) + math::fmaxf(v, s) + math::copysignf(v, c);
    a + b + d + e + math::modff(v).0 + v.mul_add(s, c)
}

/// `out[i] = method_mix(x[i])`.
#[kernel]
pub fn math_methods_f32(x: GlobalSlice<f32>, out: OwnedSlice<f32>) {
    let grid = this_grid();
    if let Some(e) = out.at(&grid) {
        e.store(method_mix(x.load(grid.thread_rank() as usize)));
    }
}
