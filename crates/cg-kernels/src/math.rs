//! Kernels of the math library (`cooperative_groups::math`): one that
//! applies any of the `f32` functions by number (the simulator test runs it
//! against direct host calls, the PTX tests check that no function compiles
//! to a `call`), and one written with method syntax (`x.exp()` through
//! the prelude's `FloatMath`), which must build for `nvptx64`; the same two
//! for `f64`.

use cooperative_groups::math;
use cooperative_groups::math::{fast, rounded};
use cooperative_groups::prelude::*;
use cooperative_groups::{GlobalSlice, OwnedSlice, kernel};

/// A named unary `f32` function.
pub type NamedUnary = (&'static str, fn(f32) -> f32);

/// The unary `f32` functions [`math_unary_f32`] applies, by index.
pub const UNARY_F32_FUNCTIONS: &[NamedUnary] = &[
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
    ("asinf", math::asinf),
    ("acosf", math::acosf),
    ("atanf", math::atanf),
    ("sinhf", math::sinhf),
    ("coshf", math::coshf),
    ("tanhf", math::tanhf),
    ("asinhf", math::asinhf),
    ("acoshf", math::acoshf),
    ("atanhf", math::atanhf),
    ("erff", math::erff),
    ("erfcf", math::erfcf),
    ("normcdff", math::normcdff),
    ("floorf", math::floorf),
    ("ceilf", math::ceilf),
    ("truncf", math::truncf),
    ("roundf", math::roundf),
    ("rintf", math::rintf),
    ("erfinvf", math::erfinvf),
    ("erfcinvf", math::erfcinvf),
    ("normcdfinvf", math::normcdfinvf),
    ("lgammaf", math::lgammaf),
    ("tgammaf", math::tgammaf),
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
        16 => math::asinf(x),
        17 => math::acosf(x),
        18 => math::atanf(x),
        19 => math::sinhf(x),
        20 => math::coshf(x),
        21 => math::tanhf(x),
        22 => math::asinhf(x),
        23 => math::acoshf(x),
        24 => math::atanhf(x),
        25 => math::erff(x),
        26 => math::erfcf(x),
        27 => math::normcdff(x),
        28 => math::floorf(x),
        29 => math::ceilf(x),
        30 => math::truncf(x),
        31 => math::roundf(x),
        32 => math::rintf(x),
        33 => math::erfinvf(x),
        34 => math::erfcinvf(x),
        35 => math::normcdfinvf(x),
        36 => math::lgammaf(x),
        37 => math::tgammaf(x),
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

/// A named unary `f64` function.
pub type NamedUnaryF64 = (&'static str, fn(f64) -> f64);

/// The unary `f64` functions [`math_unary_f64`] applies, by index (CUDA's
/// `double` names, in the order of [`UNARY_F32_FUNCTIONS`]).
pub const UNARY_F64_FUNCTIONS: &[NamedUnaryF64] = &[
    ("exp", math::exp),
    ("exp2", math::exp2),
    ("exp10", math::exp10),
    ("expm1", math::expm1),
    ("log", math::log),
    ("log2", math::log2),
    ("log10", math::log10),
    ("log1p", math::log1p),
    ("sqrt", math::sqrt),
    ("rsqrt", math::rsqrt),
    ("cbrt", math::cbrt),
    ("sin", math::sin),
    ("cos", math::cos),
    ("tan", math::tan),
    ("sinpi", math::sinpi),
    ("cospi", math::cospi),
    ("asin", math::asin),
    ("acos", math::acos),
    ("atan", math::atan),
    ("sinh", math::sinh),
    ("cosh", math::cosh),
    ("tanh", math::tanh),
    ("asinh", math::asinh),
    ("acosh", math::acosh),
    ("atanh", math::atanh),
    ("erf", math::erf),
    ("erfc", math::erfc),
    ("normcdf", math::normcdf),
    ("floor", math::floor),
    ("ceil", math::ceil),
    ("trunc", math::trunc),
    ("round", math::round),
    ("rint", math::rint),
    ("erfinv", math::erfinv),
    ("erfcinv", math::erfcinv),
    ("normcdfinv", math::normcdfinv),
    ("lgamma", math::lgamma),
    ("tgamma", math::tgamma),
];

/// `f`-th function of [`UNARY_F64_FUNCTIONS`] applied to `x`, as a `match`
/// (direct calls, so each function inlines into the kernel).
#[inline(always)]
pub fn apply_unary_f64(f: u32, x: f64) -> f64 {
    match f {
        0 => math::exp(x),
        1 => math::exp2(x),
        2 => math::exp10(x),
        3 => math::expm1(x),
        4 => math::log(x),
        5 => math::log2(x),
        6 => math::log10(x),
        7 => math::log1p(x),
        8 => math::sqrt(x),
        9 => math::rsqrt(x),
        10 => math::cbrt(x),
        11 => math::sin(x),
        12 => math::cos(x),
        13 => math::tan(x),
        14 => math::sinpi(x),
        15 => math::cospi(x),
        16 => math::asin(x),
        17 => math::acos(x),
        18 => math::atan(x),
        19 => math::sinh(x),
        20 => math::cosh(x),
        21 => math::tanh(x),
        22 => math::asinh(x),
        23 => math::acosh(x),
        24 => math::atanh(x),
        25 => math::erf(x),
        26 => math::erfc(x),
        27 => math::normcdf(x),
        28 => math::floor(x),
        29 => math::ceil(x),
        30 => math::trunc(x),
        31 => math::round(x),
        32 => math::rint(x),
        33 => math::erfinv(x),
        34 => math::erfcinv(x),
        35 => math::normcdfinv(x),
        36 => math::lgamma(x),
        37 => math::tgamma(x),
        _ => f64::NAN,
    }
}

/// `out[i] = F_f(x[i])` for the `f`-th function of [`UNARY_F64_FUNCTIONS`].
#[kernel]
pub fn math_unary_f64(f: u32, x: GlobalSlice<f64>, out: OwnedSlice<f64>) {
    let grid = this_grid();
    if let Some(e) = out.at(&grid) {
        e.store(apply_unary_f64(f, x.load(grid.thread_rank() as usize)));
    }
}

/// What [`math_methods_f64`] computes for one input: method syntax on `f64`
/// (the prelude's `FloatMath` on `nvptx64`, `std`'s methods on the host
/// where `std` has them).
#[inline(always)]
pub fn method_mix_f64(v: f64) -> f64 {
    let (s, c) = v.sin_cos();
    let a = v.exp() + v.ln_1p() + s * c + v.exp10() + v.rsqrt() + v.sinpi() + v.cospi();
    let b = v.floor() + v.sqrt() + v.hypot(c) + v.exp_m1() + v.log2() + v.cbrt() + v.tan();
    let d = v.remainder(0.75) + v.ldexp(3) + v.frexp().0 + v.nextafter(0.0) + v.fdim(s);
    let f = v.powf(c) + v.atan2(s) + v.asin() + v.acosh() + v.tanh() + v.normcdf() + math::erf(v);
    let g = v.erfinv() + v.erfcinv() + v.normcdfinv() + v.lgamma() + v.tgamma() + math::erfc(v);
    a + b + d + f + g + v.mul_add(s, c)
}

/// `out[i] = method_mix_f64(x[i])`.
#[kernel]
pub fn math_methods_f64(x: GlobalSlice<f64>, out: OwnedSlice<f64>) {
    let grid = this_grid();
    if let Some(e) = out.at(&grid) {
        e.store(method_mix_f64(x.load(grid.thread_rank() as usize)));
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
    let f = v.powf(c) + v.atan2(s) + v.asin() + v.acosh() + v.tanh() + v.normcdf() + math::erff(v);
    let g = v.erfinv() + v.erfcinv() + v.normcdfinv() + v.lgamma() + v.tgamma();
    a + b + d + e + f + g + math::modff(v).0 + v.mul_add(s, c)
}

/// `out[i] = method_mix(x[i])`.
#[kernel]
pub fn math_methods_f32(x: GlobalSlice<f32>, out: OwnedSlice<f32>) {
    let grid = this_grid();
    if let Some(e) = out.at(&grid) {
        e.store(method_mix(x.load(grid.thread_rank() as usize)));
    }
}

/// Every intrinsic once (the PTX test finds each instruction): the fast
/// (MUFU) forms and the directed roundings.
#[kernel]
pub fn math_intrinsics_f32(x: GlobalSlice<f32>, out: OwnedSlice<f32>) {
    let grid = this_grid();
    if let Some(e) = out.at(&grid) {
        let v = x.load(grid.thread_rank() as usize);
        let w = v + 1.5;
        let (s, c) = fast::sincosf(v);
        let a = fast::expf(v) + fast::exp10f(v) + fast::logf(w) + fast::log2f(w) + fast::log10f(w);
        let b = s + c + fast::tanf(v) + fast::powf(w, v) + fast::fdividef(v, w) + fast::rsqrtf(w);
        let d = fast::tanhf(v)
            + rounded::fadd_rz(v, w)
            + rounded::fadd_ru(v, w)
            + rounded::fadd_rd(v, w);
        let f = rounded::fmul_rz(v, w) + rounded::fmul_ru(v, w) + rounded::fmul_rd(v, w);
        let g = rounded::fmaf_rz(v, w, c) + rounded::fmaf_ru(v, w, c) + rounded::fmaf_rd(v, w, c);
        let h = rounded::fdiv_rz(v, w) + rounded::fdiv_ru(v, w) + rounded::fdiv_rd(v, w);
        let i =
            rounded::frcp_rn(w) + rounded::frcp_rz(w) + rounded::frcp_ru(w) + rounded::frcp_rd(w);
        let j = rounded::fsqrt_rz(w) + rounded::fsqrt_ru(w) + rounded::fsqrt_rd(w);
        let k = rounded::fadd_rn(v, w) + rounded::fmul_rn(v, w);
        e.store(a + b + d + f + g + h + i + j + k);
    }
}

/// `#[kernel(fast_math)]`: the same source as [`math_accurate_f32`], with
/// its math calls mapped to the fast intrinsics (`v.exp()` and
/// `math::expf(w)` are `__expf`, `v.sin()` `__sinf`, …) and, on the GPU,
/// its `f32` division and square root approximate and its subnormals
/// flushed (cg-build's rewrite of the marked entry).
#[kernel(fast_math)]
pub fn math_fast_f32(x: GlobalSlice<f32>, y: GlobalSlice<f32>, out: OwnedSlice<f32>) {
    let grid = this_grid();
    if let Some(e) = out.at(&grid) {
        let i = grid.thread_rank() as usize;
        let (v, w) = (x.load(i), y.load(i));
        let (s, c) = v.sin_cos();
        let a = v.exp() + math::expf(w) + v.sin() + v.cos() * s + c + v.powf(w) + w.ln();
        let b = math::log2f(w) + v.tanh() + w.rsqrt() + math::tanf(v) + v.exp10();
        e.store((a + b) / w + w.sqrt());
    }
}

/// [`math_fast_f32`]'s source without `fast_math`: the accurate functions
/// (on the host, `std`'s where `std` has the method), `div.rn.f32`,
/// `sqrt.rn.f32`.
#[kernel]
pub fn math_accurate_f32(x: GlobalSlice<f32>, y: GlobalSlice<f32>, out: OwnedSlice<f32>) {
    let grid = this_grid();
    if let Some(e) = out.at(&grid) {
        let i = grid.thread_rank() as usize;
        let (v, w) = (x.load(i), y.load(i));
        let (s, c) = v.sin_cos();
        let a = v.exp() + math::expf(w) + v.sin() + v.cos() * s + c + v.powf(w) + w.ln();
        let b = math::log2f(w) + v.tanh() + w.rsqrt() + math::tanf(v) + v.exp10();
        e.store((a + b) / w + w.sqrt());
    }
}

/// What [`math_fast_f32`] computes for one input pair on the simulator:
/// the intrinsics of `cooperative_groups::math::fast`, with `/` and
/// `sqrt` correctly rounded (the host build knows nothing of the GPU
/// build's approximations and flush-to-zero).
pub fn fast_mix(v: f32, w: f32) -> f32 {
    let (s, c) = fast::sincosf(v);
    let a = fast::expf(v)
        + fast::expf(w)
        + fast::sinf(v)
        + fast::cosf(v) * s
        + c
        + fast::powf(v, w)
        + fast::logf(w);
    let b = fast::log2f(w) + fast::tanhf(v) + fast::rsqrtf(w) + fast::tanf(v) + fast::exp10f(v);
    (a + b) / w + math::sqrtf(w)
}
