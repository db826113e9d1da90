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
