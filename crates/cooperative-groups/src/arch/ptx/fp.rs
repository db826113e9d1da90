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
/// `cvt.rmi.f64.f64`: round toward −∞.
#[inline(always)]
pub fn floor(x: f64) -> f64 {
    intrinsics::floorf64(x)
}
/// `cvt.rpi.f64.f64`: round toward +∞.
#[inline(always)]
pub fn ceil(x: f64) -> f64 {
    intrinsics::ceilf64(x)
}
/// `cvt.rzi.f64.f64`: round toward zero.
#[inline(always)]
pub fn trunc(x: f64) -> f64 {
    intrinsics::truncf64(x)
}
/// `cvt.rni.f64.f64`: round to the nearest integer, ties to even.
#[inline(always)]
pub fn rint(x: f64) -> f64 {
    intrinsics::round_ties_even_f64(x)
}
/// `sqrt.rn.f64`: the correctly rounded square root.
#[inline(always)]
pub fn sqrt(x: f64) -> f64 {
    intrinsics::sqrtf64(x)
}
/// `min.f64`: NaN-ignoring minimum, −0 below +0.
#[inline(always)]
pub fn min(x: f64, y: f64) -> f64 {
    x.min(y)
}
/// `max.f64`: NaN-ignoring maximum, +0 above −0.
#[inline(always)]
pub fn max(x: f64, y: f64) -> f64 {
    x.max(y)
}

// The approximate (MUFU) and directed-rounding instructions behind CUDA's
// intrinsics (`__expf`, `__fadd_rz`, …): inline PTX, one instruction each.

use core::arch::asm;

/// One-operand `f32` instruction `$op d, a;`.
macro_rules! unary_asm {
    ($(#[$m:meta])* $name:ident, $op:literal) => {
        $(#[$m])*
        #[inline(always)]
        pub fn $name(a: f32) -> f32 {
            let d: f32;
            // SAFETY: a pure arithmetic instruction on registers.
            unsafe { asm!(concat!($op, " {0}, {1};"), out(reg32) d, in(reg32) a, options(pure, nomem, nostack)) };
            d
        }
    };
}
/// Two-operand `f32` instruction `$op d, a, b;`.
macro_rules! binary_asm {
    ($(#[$m:meta])* $name:ident, $op:literal) => {
        $(#[$m])*
        #[inline(always)]
        pub fn $name(a: f32, b: f32) -> f32 {
            let d: f32;
            // SAFETY: a pure arithmetic instruction on registers.
            unsafe {
                asm!(concat!($op, " {0}, {1}, {2};"), out(reg32) d, in(reg32) a, in(reg32) b,
                     options(pure, nomem, nostack))
            };
            d
        }
    };
}
/// Three-operand `f32` instruction `$op d, a, b, c;`.
macro_rules! ternary_asm {
    ($(#[$m:meta])* $name:ident, $op:literal) => {
        $(#[$m])*
        #[inline(always)]
        pub fn $name(a: f32, b: f32, c: f32) -> f32 {
            let d: f32;
            // SAFETY: a pure arithmetic instruction on registers.
            unsafe {
                asm!(concat!($op, " {0}, {1}, {2}, {3};"), out(reg32) d, in(reg32) a, in(reg32) b,
                     in(reg32) c, options(pure, nomem, nostack))
            };
            d
        }
    };
}

unary_asm!(/// `ex2.approx.ftz.f32`.
    ex2_approx_ftz, "ex2.approx.ftz.f32");
unary_asm!(/// `lg2.approx.ftz.f32`.
    lg2_approx_ftz, "lg2.approx.ftz.f32");
unary_asm!(/// `sin.approx.ftz.f32`.
    sin_approx_ftz, "sin.approx.ftz.f32");
unary_asm!(/// `cos.approx.ftz.f32`.
    cos_approx_ftz, "cos.approx.ftz.f32");
unary_asm!(/// `rsqrt.approx.f32`.
    rsqrt_approx, "rsqrt.approx.f32");
unary_asm!(/// `rcp.approx.f32`.
    rcp_approx, "rcp.approx.f32");
binary_asm!(/// `div.approx.f32`.
    div_approx, "div.approx.f32");

/// `tanh.approx.f32` (sm_75 and newer); below sm_75 the accurate `tanh`
/// the caller passes in (the instruction does not exist there).
#[inline(always)]
pub fn tanh_approx(a: f32, _fallback: fn(f32) -> f32) -> f32 {
    #[cfg(target_feature = "sm_75")]
    {
        let d: f32;
        // SAFETY: a pure arithmetic instruction on registers (sm_75+).
        unsafe {
            asm!("tanh.approx.f32 {0}, {1};", out(reg32) d, in(reg32) a, options(pure, nomem, nostack))
        };
        d
    }
    #[cfg(not(target_feature = "sm_75"))]
    {
        _fallback(a)
    }
}

unary_asm!(/// `rcp.rn.f32`.
    rcp_rn, "rcp.rn.f32");
// Inline PTX, not `/` and `sqrt`: under fast math (cg-build's `FastMath`,
// `#[kernel(fast_math)]`) the compiler's `div.rn.f32` and `sqrt.rn.f32`
// become approximations, and `__fdiv_rn`/`__fsqrt_rn` must not.
binary_asm!(/// `div.rn.f32`, kept under fast math.
    div_rn, "div.rn.f32");
unary_asm!(/// `sqrt.rn.f32`, kept under fast math.
    sqrt_rn, "sqrt.rn.f32");
unary_asm!(/// `rcp.rz.f32`.
    rcp_rz, "rcp.rz.f32");
unary_asm!(/// `rcp.ru.f32`.
    rcp_ru, "rcp.rp.f32");
unary_asm!(/// `rcp.rd.f32`.
    rcp_rd, "rcp.rm.f32");
unary_asm!(/// `sqrt.rz.f32`.
    sqrt_rz, "sqrt.rz.f32");
unary_asm!(/// `sqrt.rp.f32`.
    sqrt_ru, "sqrt.rp.f32");
unary_asm!(/// `sqrt.rm.f32`.
    sqrt_rd, "sqrt.rm.f32");
binary_asm!(/// `add.rz.f32`.
    add_rz, "add.rz.f32");
binary_asm!(/// `add.rp.f32`.
    add_ru, "add.rp.f32");
binary_asm!(/// `add.rm.f32`.
    add_rd, "add.rm.f32");
binary_asm!(/// `mul.rz.f32`.
    mul_rz, "mul.rz.f32");
binary_asm!(/// `mul.rp.f32`.
    mul_ru, "mul.rp.f32");
binary_asm!(/// `mul.rm.f32`.
    mul_rd, "mul.rm.f32");
binary_asm!(/// `div.rz.f32`.
    div_rz, "div.rz.f32");
binary_asm!(/// `div.rp.f32`.
    div_ru, "div.rp.f32");
binary_asm!(/// `div.rm.f32`.
    div_rd, "div.rm.f32");
binary_asm!(/// `add.rn.f32` (never contracted into an `fma`).
    add_rn, "add.rn.f32");
binary_asm!(/// `mul.rn.f32` (never contracted into an `fma`).
    mul_rn, "mul.rn.f32");
ternary_asm!(/// `fma.rz.f32`.
    fma_rz, "fma.rz.f32");
ternary_asm!(/// `fma.rp.f32`.
    fma_ru, "fma.rp.f32");
ternary_asm!(/// `fma.rm.f32`.
    fma_rd, "fma.rm.f32");
