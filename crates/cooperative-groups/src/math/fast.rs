//! CUDA's fast intrinsics (`__expf`, `__sinf`, `__fdividef`, …): one or two
//! approximate (MUFU) instructions each, as nvcc emits them, for kernels
//! that trade accuracy for speed (what `--use_fast_math` substitutes for
//! the accurate functions).
//!
//! On the GPU each is the PTX instruction the item names, with the error
//! the PTX ISA documents for it (CUDA's bounds per item, from the
//! Programming Guide's intrinsic-functions table). **On the simulator these
//! are not bit-identical to the GPU**: the hardware's approximation tables
//! are not public, so the host computes the function accurately (the host
//! libm, within a few ulp), which lies within the instruction's documented
//! error, with its flush-to-zero of subnormals. Simulator and GPU agree to
//! that documented error (`tanh.approx`: 2^-11 relative), not bit for bit.
//!
//! `#[kernel(fast_math)]` maps a kernel's math calls to these (`x.exp()`
//! and `expf(x)` to [`expf`], through [`FastMath`]) and makes cg-build
//! approximate its `f32` division and square root and flush its
//! subnormals; `cg_build::FastMath` does the latter for a whole crate
//! (nvcc's `--use_fast_math`; the guide's math chapter, "Fast math").
//!
//! ```compile_fail,E0277
//! // What `#[kernel(fast_math)]` makes of `Angle(1.0).sin()`: only `f32`
//! // has the fast methods (call `Angle::sin(a)` by its path instead).
//! use cooperative_groups::math::fast::FastMath;
//! struct Angle(f32);
//! impl Angle {
//!     fn sin(self) -> f32 {
//!         0.0
//!     }
//! }
//! let _ = FastMath::sin(Angle(1.0));
//! ```
//!
//! ```
//! use cooperative_groups::math::fast::{self, FastMath};
//! let x = 0.5f32;
//! assert_eq!(FastMath::exp(x), fast::expf(x));
//! assert_eq!(FastMath::powf(&x, 2.0), fast::powf(x, 2.0));
//! ```

use crate::arch::fp;

const LOG2E: f32 = core::f32::consts::LOG2_E;
const LN2: f32 = core::f32::consts::LN_2;
const LOG10_2: f32 = core::f32::consts::LOG10_2;
const LOG2_10: f32 = core::f32::consts::LOG2_10;

/// `__expf(x)`: `e^x` as `ex2.approx.ftz.f32(x * log2 e)`. CUDA: maximum
/// ulp error `2 + floor(abs(1.173 * x))`; subnormal results flush to 0.
#[doc(alias = "__expf")]
#[inline(always)]
pub fn expf(x: f32) -> f32 {
    fp::ex2_approx_ftz(x * LOG2E)
}

/// `__exp10f(x)`: `10^x` as `ex2.approx.ftz.f32(x * log2 10)`. CUDA:
/// `2 + floor(abs(2.97 * x))` ulp.
#[doc(alias = "__exp10f")]
#[inline(always)]
pub fn exp10f(x: f32) -> f32 {
    fp::ex2_approx_ftz(x * LOG2_10)
}

/// `__log2f(x)`: `lg2.approx.ftz.f32`. CUDA: 2^-22 absolute error for `x`
/// in `[0.5, 2]`, 2 ulp elsewhere.
#[doc(alias = "__log2f")]
#[inline(always)]
pub fn log2f(x: f32) -> f32 {
    fp::lg2_approx_ftz(x)
}

/// `__logf(x)`: `lg2.approx.ftz.f32(x) * ln 2`. CUDA: 2^-21.41 absolute
/// error for `x` in `[0.5, 2]`, 3 ulp elsewhere.
#[doc(alias = "__logf")]
#[inline(always)]
pub fn logf(x: f32) -> f32 {
    fp::lg2_approx_ftz(x) * LN2
}

/// `__log10f(x)`: `lg2.approx.ftz.f32(x) * log10 2`. CUDA: 2^-24 absolute
/// error for `x` in `[0.5, 2]`, 3 ulp elsewhere.
#[doc(alias = "__log10f")]
#[inline(always)]
pub fn log10f(x: f32) -> f32 {
    fp::lg2_approx_ftz(x) * LOG10_2
}

/// `__sinf(x)`: `sin.approx.ftz.f32`. CUDA: 2^-21.41 absolute error for
/// `x` in `[-π, π]`, larger outside.
#[doc(alias = "__sinf")]
#[inline(always)]
pub fn sinf(x: f32) -> f32 {
    fp::sin_approx_ftz(x)
}

/// `__cosf(x)`: `cos.approx.ftz.f32`. CUDA: 2^-21.19 absolute error for
/// `x` in `[-π, π]`, larger outside.
#[doc(alias = "__cosf")]
#[inline(always)]
pub fn cosf(x: f32) -> f32 {
    fp::cos_approx_ftz(x)
}

/// `__sincosf(x)`: `(__sinf(x), __cosf(x))`.
#[doc(alias = "__sincosf")]
#[inline(always)]
pub fn sincosf(x: f32) -> (f32, f32) {
    (sinf(x), cosf(x))
}

/// `__tanf(x)`: `__sinf(x) * (1 / __cosf(x))` (`rcp.approx.f32`), as CUDA
/// documents its implementation; its error derives from theirs.
#[doc(alias = "__tanf")]
#[inline(always)]
pub fn tanf(x: f32) -> f32 {
    sinf(x) * fp::rcp_approx(cosf(x))
}

/// `__powf(x, y)`: `ex2.approx.ftz(y * lg2.approx.ftz(x))`. CUDA: derived
/// from `__exp2f` and `__log2f` (large errors for large `y * log2 x`).
#[doc(alias = "__powf")]
#[inline(always)]
pub fn powf(x: f32, y: f32) -> f32 {
    fp::ex2_approx_ftz(y * fp::lg2_approx_ftz(x))
}

/// `__fdividef(x, y)`: `div.approx.f32`. CUDA: 2 ulp for `2^-126 <= |y| <=
/// 2^126`; 0 for `2^126 < |y| < 2^128`.
#[doc(alias = "__fdividef")]
#[inline(always)]
pub fn fdividef(x: f32, y: f32) -> f32 {
    fp::div_approx(x, y)
}

/// `rsqrtf` under `--use_fast_math`: `rsqrt.approx.f32`.
#[doc(alias = "rsqrt.approx")]
#[inline(always)]
pub fn rsqrtf(x: f32) -> f32 {
    fp::rsqrt_approx(x)
}

/// `tanh.approx.f32` (sm_75 and newer; maximum relative error 2^-10.987,
/// about 11 bits: for activations, not for accurate work). Below sm_75 the
/// accurate [`tanhf`](super::tanhf).
#[doc(alias = "tanh.approx", alias = "__tanhf")]
#[inline(always)]
pub fn tanhf(x: f32) -> f32 {
    fp::tanh_approx(x, super::tanhf)
}

mod sealed {
    pub trait Sealed {}
    impl Sealed for f32 {}
    impl Sealed for &f32 {}
    impl Sealed for &mut f32 {}
}

/// The math methods that `#[kernel(fast_math)]` maps to CUDA's fast
/// intrinsics, as nvcc's `--use_fast_math` maps `expf` to `__expf`: inside
/// a `fast_math` kernel's body, `x.exp()` becomes `FastMath::exp(x)`, which
/// is [`expf`] (`__expf`) for an `f32`.
///
/// | method | accurate ([`FloatMath`](super::FloatMath)) | fast (this trait) | PTX |
/// |---|---|---|---|
/// | `exp` | [`super::expf`] | [`expf`] (`__expf`) | `ex2.approx.ftz.f32` |
/// | `exp10` | [`super::exp10f`] | [`exp10f`] (`__exp10f`) | `ex2.approx.ftz.f32` |
/// | `ln` | [`super::logf`] | [`logf`] (`__logf`) | `lg2.approx.ftz.f32` |
/// | `log2` | [`super::log2f`] | [`log2f`] (`__log2f`) | `lg2.approx.ftz.f32` |
/// | `log10` | [`super::log10f`] | [`log10f`] (`__log10f`) | `lg2.approx.ftz.f32` |
/// | `sin` | [`super::sinf`] | [`sinf`] (`__sinf`) | `sin.approx.ftz.f32` |
/// | `cos` | [`super::cosf`] | [`cosf`] (`__cosf`) | `cos.approx.ftz.f32` |
/// | `tan` | [`super::tanf`] | [`tanf`] (`__tanf`) | `sin`/`cos.approx.ftz.f32`, `rcp.approx.f32` |
/// | `sin_cos` | [`super::sincosf`] | [`sincosf`] (`__sincosf`) | `sin`/`cos.approx.ftz.f32` |
/// | `powf` | [`super::powf`] | [`powf`] (`__powf`) | `lg2`/`ex2.approx.ftz.f32` |
/// | `tanh` | [`super::tanhf`] | [`tanhf`] | `tanh.approx.f32` (sm_75+) |
/// | `rsqrt` | [`super::rsqrtf`] | [`rsqrtf`] | `rsqrt.approx.f32` |
///
/// Implemented for `f32` (and `&f32`, `&mut f32`, as a method call would
/// take them) only: `--use_fast_math` leaves double precision alone, and
/// another type's method of the same name must not silently change
/// meaning, so the rewrite of a call on any other type does not compile
/// (the error says so); call such a method by its path (`MyType::exp(x)`,
/// `f64::exp(x)`), which fast math does not rewrite.
///
/// On the simulator each method computes exactly what the function it
/// names computes there (the host's model of the instruction, see the
/// [module docs](self)), not the GPU's bits.
#[diagnostic::on_unimplemented(
    message = "`#[kernel(fast_math)]` rewrote a math method call on `{Self}` into `FastMath`, which only `f32` implements",
    label = "not an `f32`: fast math maps single-precision math only",
    note = "nvcc's --use_fast_math leaves `double` and other types alone; to call this type's own method in a `fast_math` kernel, use its path (`f64::exp(x)`, `MyType::exp(x)`), which fast math does not rewrite"
)]
#[doc(alias = "use_fast_math")]
pub trait FastMath: sealed::Sealed {
    /// The `f32` result.
    type Output;
    /// `e^x`: [`expf`] (`__expf`).
    fn exp(self) -> Self::Output;
    /// `10^x`: [`exp10f`] (`__exp10f`).
    fn exp10(self) -> Self::Output;
    /// `ln x`: [`logf`] (`__logf`).
    fn ln(self) -> Self::Output;
    /// `log2 x`: [`log2f`] (`__log2f`).
    fn log2(self) -> Self::Output;
    /// `log10 x`: [`log10f`] (`__log10f`).
    fn log10(self) -> Self::Output;
    /// `sin x`: [`sinf`] (`__sinf`).
    fn sin(self) -> Self::Output;
    /// `cos x`: [`cosf`] (`__cosf`).
    fn cos(self) -> Self::Output;
    /// `tan x`: [`tanf`] (`__tanf`).
    fn tan(self) -> Self::Output;
    /// `(sin x, cos x)`: [`sincosf`] (`__sincosf`).
    fn sin_cos(self) -> (Self::Output, Self::Output);
    /// `x^y`: [`powf`] (`__powf`).
    fn powf(self, y: f32) -> Self::Output;
    /// `tanh x`: [`tanhf`] (`tanh.approx.f32`).
    fn tanh(self) -> Self::Output;
    /// `1 / sqrt x`: [`rsqrtf`] (`rsqrt.approx.f32`).
    fn rsqrt(self) -> Self::Output;
}

/// `FastMath` for `f32` and its references, each method the function of
/// the table.
macro_rules! fast_math_f32 {
    ($($t:ty),*) => {$(
        impl FastMath for $t {
            type Output = f32;
            #[inline(always)]
            fn exp(self) -> f32 { expf(self) }
            #[inline(always)]
            fn exp10(self) -> f32 { exp10f(self) }
            #[inline(always)]
            fn ln(self) -> f32 { logf(self) }
            #[inline(always)]
            fn log2(self) -> f32 { log2f(self) }
            #[inline(always)]
            fn log10(self) -> f32 { log10f(self) }
            #[inline(always)]
            fn sin(self) -> f32 { sinf(self) }
            #[inline(always)]
            fn cos(self) -> f32 { cosf(self) }
            #[inline(always)]
            fn tan(self) -> f32 { tanf(self) }
            #[inline(always)]
            fn sin_cos(self) -> (f32, f32) { sincosf(self) }
            #[inline(always)]
            fn powf(self, y: f32) -> f32 { powf(self, y) }
            #[inline(always)]
            fn tanh(self) -> f32 { tanhf(self) }
            #[inline(always)]
            fn rsqrt(self) -> f32 { rsqrtf(self) }
        }
    )*};
}

fast_math_f32!(f32);

/// `FastMath` for a reference, as method syntax takes one (`x.exp()` on
/// an `&f32`).
macro_rules! fast_math_ref {
    ($($t:ty),*) => {$(
        impl FastMath for $t {
            type Output = f32;
            #[inline(always)]
            fn exp(self) -> f32 { expf(*self) }
            #[inline(always)]
            fn exp10(self) -> f32 { exp10f(*self) }
            #[inline(always)]
            fn ln(self) -> f32 { logf(*self) }
            #[inline(always)]
            fn log2(self) -> f32 { log2f(*self) }
            #[inline(always)]
            fn log10(self) -> f32 { log10f(*self) }
            #[inline(always)]
            fn sin(self) -> f32 { sinf(*self) }
            #[inline(always)]
            fn cos(self) -> f32 { cosf(*self) }
            #[inline(always)]
            fn tan(self) -> f32 { tanf(*self) }
            #[inline(always)]
            fn sin_cos(self) -> (f32, f32) { sincosf(*self) }
            #[inline(always)]
            fn powf(self, y: f32) -> f32 { powf(*self, y) }
            #[inline(always)]
            fn tanh(self) -> f32 { tanhf(*self) }
            #[inline(always)]
            fn rsqrt(self) -> f32 { rsqrtf(*self) }
        }
    )*};
}

fast_math_ref!(&f32, &mut f32);
