//! The 16-bit float instructions: one PTX instruction per operation where
//! the target has it, the software models of [`soft16`](super::super::soft16)
//! where it does not (the fallbacks NVIDIA's `cuda_fp16.hpp` /
//! `cuda_bf16.hpp` take on the same targets, so the bits agree with the
//! C++ on every SM).
//!
//! Values travel as raw bits: `u16` in a `.b16` register (`reg16`), a pair
//! in a `.b32` register with element 0 in the low half. Every asm block is
//! `pure, nomem`: LLVM may combine, hoist or drop it like any arithmetic,
//! and none is a collective.
//!
//! | operation | sm_90 | sm_80 | sm_70 |
//! |---|---|---|---|
//! | f16 `+ - * fma` | `add/sub/mul/fma.rn.f16` | same | same |
//! | bf16 `+ - *` | `add/sub/mul.rn.bf16` | `fma.rn.bf16` with `1.0`, `-1.0`, `-0.0` | `f32` op + software rounding |
//! | bf16 `fma` | `fma.rn.bf16` | same | `fma.rn.f32` + software rounding (NVIDIA's double rounding) |
//! | `min`/`max` | `min/max.{f16,bf16}` | same | software (`__hmin`'s rules) |
//! | f32 → f16 / bf16 | `cvt.rn.f16.f32` / `cvt.rn.bf16.f32` | same | `cvt.rn.f16.f32` / software |
//! | f16 / bf16 → f32 | `cvt.f32.f16` / `cvt.f32.bf16` | `cvt.f32.f16` / shift | same |
//! | pairs | the `x2` forms of the above | same | per element |

use core::arch::asm;

#[cfg(not(target_feature = "sm_90"))]
use super::super::soft16;

/// A binary instruction on two `.b16` registers.
macro_rules! bin16 {
    ($(#[$m:meta])* $name:ident, $insn:literal) => {
        $(#[$m])*
        #[inline(always)]
        pub fn $name(a: u16, b: u16) -> u16 {
            let d: u16;
            // SAFETY: register arithmetic; touches no memory.
            unsafe {
                asm!(concat!($insn, " {0}, {1}, {2};"), out(reg16) d, in(reg16) a, in(reg16) b,
                    options(pure, nomem, nostack))
            };
            d
        }
    };
}

/// A binary instruction on two `.b32` registers (pairs).
macro_rules! bin32 {
    ($(#[$m:meta])* $name:ident, $insn:literal) => {
        $(#[$m])*
        #[inline(always)]
        pub fn $name(a: u32, b: u32) -> u32 {
            let d: u32;
            // SAFETY: register arithmetic; touches no memory.
            unsafe {
                asm!(concat!($insn, " {0}, {1}, {2};"), out(reg32) d, in(reg32) a, in(reg32) b,
                    options(pure, nomem, nostack))
            };
            d
        }
    };
}

/// A fused multiply-add on `.b16` registers.
macro_rules! fma16 {
    ($(#[$m:meta])* $name:ident, $insn:literal) => {
        $(#[$m])*
        #[inline(always)]
        pub fn $name(a: u16, b: u16, c: u16) -> u16 {
            let d: u16;
            // SAFETY: register arithmetic; touches no memory.
            unsafe {
                asm!(concat!($insn, " {0}, {1}, {2}, {3};"), out(reg16) d, in(reg16) a,
                    in(reg16) b, in(reg16) c, options(pure, nomem, nostack))
            };
            d
        }
    };
}

/// A fused multiply-add on `.b32` registers (pairs).
macro_rules! fma32 {
    ($(#[$m:meta])* $name:ident, $insn:literal) => {
        $(#[$m])*
        #[inline(always)]
        pub fn $name(a: u32, b: u32, c: u32) -> u32 {
            let d: u32;
            // SAFETY: register arithmetic; touches no memory.
            unsafe {
                asm!(concat!($insn, " {0}, {1}, {2}, {3};"), out(reg32) d, in(reg32) a,
                    in(reg32) b, in(reg32) c, options(pure, nomem, nostack))
            };
            d
        }
    };
}

// ---- f16 (sm_53+ for the arithmetic) ----

bin16!(
    /// `add.rn.f16`.
    f16_add,
    "add.rn.f16"
);
bin16!(
    /// `sub.rn.f16`.
    f16_sub,
    "sub.rn.f16"
);
bin16!(
    /// `mul.rn.f16`.
    f16_mul,
    "mul.rn.f16"
);
fma16!(
    /// `fma.rn.f16`.
    f16_fma,
    "fma.rn.f16"
);
bin32!(
    /// `add.rn.f16x2`.
    f16x2_add,
    "add.rn.f16x2"
);
bin32!(
    /// `sub.rn.f16x2`.
    f16x2_sub,
    "sub.rn.f16x2"
);
bin32!(
    /// `mul.rn.f16x2`.
    f16x2_mul,
    "mul.rn.f16x2"
);
fma32!(
    /// `fma.rn.f16x2`.
    f16x2_fma,
    "fma.rn.f16x2"
);

/// `cvt.rn.f16.f32`.
#[inline(always)]
pub fn f32_to_f16(x: f32) -> u16 {
    let d: u16;
    // SAFETY: a register conversion; touches no memory.
    unsafe {
        asm!("cvt.rn.f16.f32 {0}, {1};", out(reg16) d, in(reg32) x, options(pure, nomem, nostack))
    };
    d
}

/// `cvt.f32.f16` (exact).
#[inline(always)]
pub fn f16_to_f32(x: u16) -> f32 {
    let d: f32;
    // SAFETY: a register conversion; touches no memory.
    unsafe {
        asm!("cvt.f32.f16 {0}, {1};", out(reg32) d, in(reg16) x, options(pure, nomem, nostack))
    };
    d
}

// ---- min / max: sm_80+ instructions, software below ----

#[cfg(target_feature = "sm_80")]
bin16!(
    /// `min.f16` (`__hmin`).
    f16_min,
    "min.f16"
);
#[cfg(target_feature = "sm_80")]
bin16!(
    /// `max.f16` (`__hmax`).
    f16_max,
    "max.f16"
);
#[cfg(target_feature = "sm_80")]
bin16!(
    /// `min.bf16` (`__hmin`).
    bf16_min,
    "min.bf16"
);
#[cfg(target_feature = "sm_80")]
bin16!(
    /// `max.bf16` (`__hmax`).
    bf16_max,
    "max.bf16"
);
#[cfg(target_feature = "sm_80")]
bin32!(
    /// `min.f16x2` (`__hmin2`).
    f16x2_min,
    "min.f16x2"
);
#[cfg(target_feature = "sm_80")]
bin32!(
    /// `max.f16x2` (`__hmax2`).
    f16x2_max,
    "max.f16x2"
);
#[cfg(target_feature = "sm_80")]
bin32!(
    /// `min.bf16x2` (`__hmin2`).
    bf16x2_min,
    "min.bf16x2"
);
#[cfg(target_feature = "sm_80")]
bin32!(
    /// `max.bf16x2` (`__hmax2`).
    bf16x2_max,
    "max.bf16x2"
);

/// `__hmin` below sm_80: compares in `f32`.
#[cfg(not(target_feature = "sm_80"))]
#[inline(always)]
pub fn f16_min(a: u16, b: u16) -> u16 {
    soft16::min16(a, b, soft16::F16_INF, f16_to_f32)
}
/// `__hmax` below sm_80.
#[cfg(not(target_feature = "sm_80"))]
#[inline(always)]
pub fn f16_max(a: u16, b: u16) -> u16 {
    soft16::max16(a, b, soft16::F16_INF, f16_to_f32)
}
/// `__hmin` on bf16 below sm_80.
#[cfg(not(target_feature = "sm_80"))]
#[inline(always)]
pub fn bf16_min(a: u16, b: u16) -> u16 {
    soft16::min16(a, b, soft16::BF16_INF, soft16::bf16_widen)
}
/// `__hmax` on bf16 below sm_80.
#[cfg(not(target_feature = "sm_80"))]
#[inline(always)]
pub fn bf16_max(a: u16, b: u16) -> u16 {
    soft16::max16(a, b, soft16::BF16_INF, soft16::bf16_widen)
}
/// `__hmin2` below sm_80: per element.
#[cfg(not(target_feature = "sm_80"))]
#[inline(always)]
pub fn f16x2_min(a: u32, b: u32) -> u32 {
    soft16::lanes2(a, b, f16_min)
}
/// `__hmax2` below sm_80: per element.
#[cfg(not(target_feature = "sm_80"))]
#[inline(always)]
pub fn f16x2_max(a: u32, b: u32) -> u32 {
    soft16::lanes2(a, b, f16_max)
}
/// `__hmin2` on bf16 pairs below sm_80: per element.
#[cfg(not(target_feature = "sm_80"))]
#[inline(always)]
pub fn bf16x2_min(a: u32, b: u32) -> u32 {
    soft16::lanes2(a, b, bf16_min)
}
/// `__hmax2` on bf16 pairs below sm_80: per element.
#[cfg(not(target_feature = "sm_80"))]
#[inline(always)]
pub fn bf16x2_max(a: u32, b: u32) -> u32 {
    soft16::lanes2(a, b, bf16_max)
}

// ---- bf16 arithmetic ----

#[cfg(target_feature = "sm_90")]
bin16!(
    /// `add.rn.bf16`.
    bf16_add,
    "add.rn.bf16"
);
#[cfg(target_feature = "sm_90")]
bin16!(
    /// `sub.rn.bf16`.
    bf16_sub,
    "sub.rn.bf16"
);
#[cfg(target_feature = "sm_90")]
bin16!(
    /// `mul.rn.bf16`.
    bf16_mul,
    "mul.rn.bf16"
);
#[cfg(target_feature = "sm_90")]
bin32!(
    /// `add.rn.bf16x2`.
    bf16x2_add,
    "add.rn.bf16x2"
);
#[cfg(target_feature = "sm_90")]
bin32!(
    /// `sub.rn.bf16x2`.
    bf16x2_sub,
    "sub.rn.bf16x2"
);
#[cfg(target_feature = "sm_90")]
bin32!(
    /// `mul.rn.bf16x2`.
    bf16x2_mul,
    "mul.rn.bf16x2"
);

/// `a·k + b` on sm_80 (no bf16 add or multiply there): `fma.rn.bf16`
/// with the constant `k` (`1.0` for `+`, `-1.0` for `-` with the operands
/// swapped), rounded once, as `add.rn.bf16` would.
#[cfg(all(target_feature = "sm_80", not(target_feature = "sm_90")))]
macro_rules! fma_const16 {
    ($a:expr, $k:literal, $b:expr) => {{
        let d: u16;
        // SAFETY: register arithmetic; touches no memory.
        unsafe {
            asm!(concat!("{{ .reg .b16 k; mov.b16 k, ", $k, "; fma.rn.bf16 {0}, {1}, k, {2}; }}"),
                out(reg16) d, in(reg16) $a, in(reg16) $b, options(pure, nomem, nostack))
        };
        d
    }};
}
/// The pair form of `fma_const16`.
#[cfg(all(target_feature = "sm_80", not(target_feature = "sm_90")))]
macro_rules! fma_const32 {
    ($a:expr, $k:literal, $b:expr) => {{
        let d: u32;
        // SAFETY: register arithmetic; touches no memory.
        unsafe {
            asm!(concat!("{{ .reg .b32 k; mov.b32 k, ", $k, "; fma.rn.bf16x2 {0}, {1}, k, {2}; }}"),
                out(reg32) d, in(reg32) $a, in(reg32) $b, options(pure, nomem, nostack))
        };
        d
    }};
}

/// `a + b` on sm_80: `fma.rn.bf16 a, 1.0, b`.
#[cfg(all(target_feature = "sm_80", not(target_feature = "sm_90")))]
#[inline(always)]
pub fn bf16_add(a: u16, b: u16) -> u16 {
    fma_const16!(a, "0x3f80", b)
}
/// `a - b` on sm_80: `fma.rn.bf16 b, -1.0, a`.
#[cfg(all(target_feature = "sm_80", not(target_feature = "sm_90")))]
#[inline(always)]
pub fn bf16_sub(a: u16, b: u16) -> u16 {
    fma_const16!(b, "0xbf80", a)
}
/// `a · b` on sm_80: `fma.rn.bf16 a, b, -0.0` (adding `-0.0` keeps the
/// sign of a zero product).
#[cfg(all(target_feature = "sm_80", not(target_feature = "sm_90")))]
#[inline(always)]
pub fn bf16_mul(a: u16, b: u16) -> u16 {
    bf16_fma(a, b, 0x8000)
}
/// `a + b` per element on sm_80: `fma.rn.bf16x2 a, {1.0, 1.0}, b`.
#[cfg(all(target_feature = "sm_80", not(target_feature = "sm_90")))]
#[inline(always)]
pub fn bf16x2_add(a: u32, b: u32) -> u32 {
    fma_const32!(a, "0x3f803f80", b)
}
/// `a - b` per element on sm_80: `fma.rn.bf16x2 b, {-1.0, -1.0}, a`.
#[cfg(all(target_feature = "sm_80", not(target_feature = "sm_90")))]
#[inline(always)]
pub fn bf16x2_sub(a: u32, b: u32) -> u32 {
    fma_const32!(b, "0xbf80bf80", a)
}
/// `a · b` per element on sm_80: `fma.rn.bf16x2 a, b, {-0.0, -0.0}`.
#[cfg(all(target_feature = "sm_80", not(target_feature = "sm_90")))]
#[inline(always)]
pub fn bf16x2_mul(a: u32, b: u32) -> u32 {
    bf16x2_fma(a, b, 0x8000_8000)
}

#[cfg(target_feature = "sm_80")]
fma16!(
    /// `fma.rn.bf16`.
    bf16_fma,
    "fma.rn.bf16"
);
#[cfg(target_feature = "sm_80")]
fma32!(
    /// `fma.rn.bf16x2`.
    bf16x2_fma,
    "fma.rn.bf16x2"
);

/// `a + b` below sm_80: in `f32` (exact operands), rounded to bf16 in
/// software (as `cuda_bf16.hpp` there).
#[cfg(not(target_feature = "sm_80"))]
#[inline(always)]
pub fn bf16_add(a: u16, b: u16) -> u16 {
    soft16::bf16_round(soft16::bf16_widen(a) + soft16::bf16_widen(b))
}
/// `a - b` below sm_80.
#[cfg(not(target_feature = "sm_80"))]
#[inline(always)]
pub fn bf16_sub(a: u16, b: u16) -> u16 {
    soft16::bf16_round(soft16::bf16_widen(a) - soft16::bf16_widen(b))
}
/// `a · b` below sm_80 (the product of two bf16 is exact in `f32`).
#[cfg(not(target_feature = "sm_80"))]
#[inline(always)]
pub fn bf16_mul(a: u16, b: u16) -> u16 {
    soft16::bf16_round(soft16::bf16_widen(a) * soft16::bf16_widen(b))
}
/// `a·b + c` below sm_80: `fma.rn.f32`, then rounded to bf16 — two
/// roundings, exactly what `cuda_bf16.hpp`'s `__hfma` computes there.
#[cfg(not(target_feature = "sm_80"))]
#[inline(always)]
pub fn bf16_fma(a: u16, b: u16, c: u16) -> u16 {
    let (a, b, c) = (
        soft16::bf16_widen(a),
        soft16::bf16_widen(b),
        soft16::bf16_widen(c),
    );
    soft16::bf16_round(core::intrinsics::fmaf32(a, b, c))
}
/// Per element below sm_80.
#[cfg(not(target_feature = "sm_80"))]
#[inline(always)]
pub fn bf16x2_add(a: u32, b: u32) -> u32 {
    soft16::lanes2(a, b, bf16_add)
}
/// Per element below sm_80.
#[cfg(not(target_feature = "sm_80"))]
#[inline(always)]
pub fn bf16x2_sub(a: u32, b: u32) -> u32 {
    soft16::lanes2(a, b, bf16_sub)
}
/// Per element below sm_80.
#[cfg(not(target_feature = "sm_80"))]
#[inline(always)]
pub fn bf16x2_mul(a: u32, b: u32) -> u32 {
    soft16::lanes2(a, b, bf16_mul)
}
/// Per element below sm_80.
#[cfg(not(target_feature = "sm_80"))]
#[inline(always)]
pub fn bf16x2_fma(a: u32, b: u32, c: u32) -> u32 {
    soft16::lanes3(a, b, c, bf16_fma)
}

// ---- bf16 conversions ----

/// `cvt.rn.bf16.f32` (sm_80+).
#[cfg(target_feature = "sm_80")]
#[inline(always)]
pub fn f32_to_bf16(x: f32) -> u16 {
    let d: u16;
    // SAFETY: a register conversion; touches no memory.
    unsafe {
        asm!("cvt.rn.bf16.f32 {0}, {1};", out(reg16) d, in(reg32) x, options(pure, nomem, nostack))
    };
    d
}
/// Rounding to bf16 in software below sm_80 (integer instructions, as
/// `__float2bfloat16_rn` there).
#[cfg(not(target_feature = "sm_80"))]
#[inline(always)]
pub fn f32_to_bf16(x: f32) -> u16 {
    soft16::bf16_round(x)
}

/// `cvt.f32.bf16` (sm_90).
#[cfg(target_feature = "sm_90")]
#[inline(always)]
pub fn bf16_to_f32(x: u16) -> f32 {
    let d: f32;
    // SAFETY: a register conversion; touches no memory.
    unsafe {
        asm!("cvt.f32.bf16 {0}, {1};", out(reg32) d, in(reg16) x, options(pure, nomem, nostack))
    };
    d
}
/// bf16 → f32 below sm_90: the bits shifted into the high half (exact).
#[cfg(not(target_feature = "sm_90"))]
#[inline(always)]
pub fn bf16_to_f32(x: u16) -> f32 {
    f32::from_bits((x as u32) << 16)
}

/// `cvt.rn.f16x2.f32 d, hi, lo` (sm_80+; the instruction's first source
/// goes to the upper half).
#[cfg(target_feature = "sm_80")]
#[inline(always)]
pub fn f32x2_to_f16x2(lo: f32, hi: f32) -> u32 {
    let d: u32;
    // SAFETY: a register conversion; touches no memory.
    unsafe {
        asm!("cvt.rn.f16x2.f32 {0}, {1}, {2};", out(reg32) d, in(reg32) hi, in(reg32) lo,
            options(pure, nomem, nostack))
    };
    d
}
/// Two `cvt.rn.f16.f32` below sm_80.
#[cfg(not(target_feature = "sm_80"))]
#[inline(always)]
pub fn f32x2_to_f16x2(lo: f32, hi: f32) -> u32 {
    soft16::join(f32_to_f16(lo), f32_to_f16(hi))
}
/// `cvt.rn.bf16x2.f32 d, hi, lo` (sm_80+).
#[cfg(target_feature = "sm_80")]
#[inline(always)]
pub fn f32x2_to_bf16x2(lo: f32, hi: f32) -> u32 {
    let d: u32;
    // SAFETY: a register conversion; touches no memory.
    unsafe {
        asm!("cvt.rn.bf16x2.f32 {0}, {1}, {2};", out(reg32) d, in(reg32) hi, in(reg32) lo,
            options(pure, nomem, nostack))
    };
    d
}
/// Software rounding per element below sm_80.
#[cfg(not(target_feature = "sm_80"))]
#[inline(always)]
pub fn f32x2_to_bf16x2(lo: f32, hi: f32) -> u32 {
    soft16::join(f32_to_bf16(lo), f32_to_bf16(hi))
}

// ---- 8-bit floats (sm_89+: used in the sm_90 build; software below) ----

/// `cvt.rn.satfinite.{e4m3x2,e5m2x2}.f32 d, hi, lo` (the first source
/// goes to the upper byte).
#[cfg(target_feature = "sm_90")]
macro_rules! cvt_fp8x2 {
    ($name:ident, $insn:literal) => {
        #[doc = concat!("`", $insn, "`: `lo` to the low byte, `hi` to the high byte.")]
        #[inline(always)]
        pub fn $name(lo: f32, hi: f32) -> u16 {
            let d: u16;
            // SAFETY: a register conversion; touches no memory.
            unsafe {
                asm!(concat!($insn, " {0}, {1}, {2};"), out(reg16) d, in(reg32) hi, in(reg32) lo,
                    options(pure, nomem, nostack))
            };
            d
        }
    };
}
/// `cvt.rn.f16x2.{e4m3x2,e5m2x2}` (exact: every 8-bit value is an f16).
#[cfg(target_feature = "sm_90")]
macro_rules! cvt_f16x2_fp8 {
    ($name:ident, $insn:literal) => {
        #[doc = concat!("`", $insn, "`: both bytes to an f16 pair, the low byte to the low half.")]
        #[inline(always)]
        pub fn $name(x: u16) -> u32 {
            let d: u32;
            // SAFETY: a register conversion; touches no memory.
            unsafe {
                asm!(concat!($insn, " {0}, {1};"), out(reg32) d, in(reg16) x,
                    options(pure, nomem, nostack))
            };
            d
        }
    };
}
#[cfg(target_feature = "sm_90")]
cvt_fp8x2!(f32x2_to_e4m3x2, "cvt.rn.satfinite.e4m3x2.f32");
#[cfg(target_feature = "sm_90")]
cvt_fp8x2!(f32x2_to_e5m2x2, "cvt.rn.satfinite.e5m2x2.f32");
#[cfg(target_feature = "sm_90")]
cvt_f16x2_fp8!(e4m3x2_to_f16x2, "cvt.rn.f16x2.e4m3x2");
#[cfg(target_feature = "sm_90")]
cvt_f16x2_fp8!(e5m2x2_to_f16x2, "cvt.rn.f16x2.e5m2x2");

/// Software rounding below sm_89 (as `cuda_fp8.hpp` there).
#[cfg(not(target_feature = "sm_90"))]
#[inline(always)]
pub fn f32x2_to_e4m3x2(lo: f32, hi: f32) -> u16 {
    use super::super::soft16::{Fp8, fp8_round};
    fp8_round(lo, Fp8::E4M3) as u16 | (fp8_round(hi, Fp8::E4M3) as u16) << 8
}
/// Software rounding below sm_89.
#[cfg(not(target_feature = "sm_90"))]
#[inline(always)]
pub fn f32x2_to_e5m2x2(lo: f32, hi: f32) -> u16 {
    use super::super::soft16::{Fp8, fp8_round};
    fp8_round(lo, Fp8::E5M2) as u16 | (fp8_round(hi, Fp8::E5M2) as u16) << 8
}
/// Software widening below sm_89 (exact), through `f32`.
#[cfg(not(target_feature = "sm_90"))]
#[inline(always)]
pub fn e4m3x2_to_f16x2(x: u16) -> u32 {
    use super::super::soft16::{Fp8, fp8_widen};
    let w = |b: u16| f32_to_f16(fp8_widen(b as u8, Fp8::E4M3));
    soft16::join(w(x & 0xff), w(x >> 8))
}
/// An e5m2 is the high byte of an f16: a shift per element.
#[cfg(not(target_feature = "sm_90"))]
#[inline(always)]
pub fn e5m2x2_to_f16x2(x: u16) -> u32 {
    soft16::join((x & 0xff) << 8, x & 0xff00)
}
