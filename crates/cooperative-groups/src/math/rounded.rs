//! CUDA's arithmetic with a named rounding (`__fadd_rz`, `__fmaf_ru`,
//! `__fdiv_rd`, `__frcp_rn`, `__fsqrt_rn`, …): IEEE 754's four rounding
//! directions, one PTX instruction each (`add.rz.f32`, `fma.rp.f32`,
//! `div.rm.f32`, `rcp.rn.f32`, `sqrt.rn.f32`). Exact (0 ulp in their
//! rounding direction) on the GPU and on the simulator, which computes
//! them exactly in software (the nearest result and the sign of the exact
//! residual). Suffixes as CUDA's: `rn` to nearest even, `rz` toward zero,
//! `ru` toward +∞, `rd` toward −∞. The `_rn` forms are also never
//! contracted into an `fma` (nvcc's guarantee for `__fadd_rn`/`__fmul_rn`).

use crate::arch::fp;

macro_rules! rounded {
    ($($(#[$m:meta])* $name:ident($($a:ident),*) => $f:path, $alias:literal;)*) => {
        $(
            $(#[$m])*
            #[doc(alias = $alias)]
            #[inline(always)]
            pub fn $name($($a: f32),*) -> f32 {
                $f($($a),*)
            }
        )*
    };
}

rounded! {
    /// `x + y` rounded to nearest, never fused (`add.rn.f32`).
    fadd_rn(x, y) => fp::add_rn, "__fadd_rn";
    /// `x + y` rounded toward zero (`add.rz.f32`).
    fadd_rz(x, y) => fp::add_rz, "__fadd_rz";
    /// `x + y` rounded toward +∞ (`add.rp.f32`).
    fadd_ru(x, y) => fp::add_ru, "__fadd_ru";
    /// `x + y` rounded toward −∞ (`add.rm.f32`).
    fadd_rd(x, y) => fp::add_rd, "__fadd_rd";
    /// `x * y` rounded to nearest, never fused (`mul.rn.f32`).
    fmul_rn(x, y) => fp::mul_rn, "__fmul_rn";
    /// `x * y` rounded toward zero (`mul.rz.f32`).
    fmul_rz(x, y) => fp::mul_rz, "__fmul_rz";
    /// `x * y` rounded toward +∞ (`mul.rp.f32`).
    fmul_ru(x, y) => fp::mul_ru, "__fmul_ru";
    /// `x * y` rounded toward −∞ (`mul.rm.f32`).
    fmul_rd(x, y) => fp::mul_rd, "__fmul_rd";
    /// `x * y + z` rounded once to nearest (`fma.rn.f32`).
    fmaf_rn(x, y, z) => fp::fmaf, "__fmaf_rn";
    /// `x * y + z` rounded once toward zero (`fma.rz.f32`).
    fmaf_rz(x, y, z) => fp::fma_rz, "__fmaf_rz";
    /// `x * y + z` rounded once toward +∞ (`fma.rp.f32`).
    fmaf_ru(x, y, z) => fp::fma_ru, "__fmaf_ru";
    /// `x * y + z` rounded once toward −∞ (`fma.rm.f32`).
    fmaf_rd(x, y, z) => fp::fma_rd, "__fmaf_rd";
    /// `x / y` rounded toward zero (`div.rz.f32`).
    fdiv_rz(x, y) => fp::div_rz, "__fdiv_rz";
    /// `x / y` rounded toward +∞ (`div.rp.f32`).
    fdiv_ru(x, y) => fp::div_ru, "__fdiv_ru";
    /// `x / y` rounded toward −∞ (`div.rm.f32`).
    fdiv_rd(x, y) => fp::div_rd, "__fdiv_rd";
    /// `1 / x` rounded to nearest (`rcp.rn.f32`).
    frcp_rn(x) => fp::rcp_rn, "__frcp_rn";
    /// `1 / x` rounded toward zero (`rcp.rz.f32`).
    frcp_rz(x) => fp::rcp_rz, "__frcp_rz";
    /// `1 / x` rounded toward +∞ (`rcp.rp.f32`).
    frcp_ru(x) => fp::rcp_ru, "__frcp_ru";
    /// `1 / x` rounded toward −∞ (`rcp.rm.f32`).
    frcp_rd(x) => fp::rcp_rd, "__frcp_rd";
    /// `sqrt x` rounded to nearest (`sqrt.rn.f32`).
    /// (Inline PTX: fast math leaves it exact.)
    fsqrt_rn(x) => fp::sqrt_rn, "__fsqrt_rn";
    /// `sqrt x` rounded toward zero (`sqrt.rz.f32`).
    fsqrt_rz(x) => fp::sqrt_rz, "__fsqrt_rz";
    /// `sqrt x` rounded toward +∞ (`sqrt.rp.f32`).
    fsqrt_ru(x) => fp::sqrt_ru, "__fsqrt_ru";
    /// `sqrt x` rounded toward −∞ (`sqrt.rm.f32`).
    fsqrt_rd(x) => fp::sqrt_rd, "__fsqrt_rd";
}

/// `x / y` rounded to nearest (`div.rn.f32`, what `/` is without fast
/// math; inline PTX, so fast math leaves it exact, as nvcc's `__fdiv_rn`).
#[doc(alias = "__fdiv_rn")]
#[inline(always)]
pub fn fdiv_rn(x: f32, y: f32) -> f32 {
    fp::div_rn(x, y)
}

/// `x - y` rounded toward zero: `__fsub_rz` (an exact negation, then the
/// directed addition).
#[doc(alias = "__fsub_rz")]
#[inline(always)]
pub fn fsub_rz(x: f32, y: f32) -> f32 {
    fp::add_rz(x, -y)
}
/// `x - y` rounded toward +∞ (`__fsub_ru`).
#[doc(alias = "__fsub_ru")]
#[inline(always)]
pub fn fsub_ru(x: f32, y: f32) -> f32 {
    fp::add_ru(x, -y)
}
/// `x - y` rounded toward −∞ (`__fsub_rd`).
#[doc(alias = "__fsub_rd")]
#[inline(always)]
pub fn fsub_rd(x: f32, y: f32) -> f32 {
    fp::add_rd(x, -y)
}
/// `x - y` rounded to nearest, never fused (`__fsub_rn`).
#[doc(alias = "__fsub_rn")]
#[inline(always)]
pub fn fsub_rn(x: f32, y: f32) -> f32 {
    fp::add_rn(x, -y)
}
