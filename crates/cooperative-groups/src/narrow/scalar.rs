//! [`Float16`]: the arithmetic and conversions of [`f16`](struct@crate::f16) and [`bf16`]
//! as single PTX instructions.

use half::{bf16, f16};

use crate::arch;
use crate::pod::Pod;
use crate::value::{MatchValue, ShflValue};

mod sealed {
    pub trait Sealed {}
    impl Sealed for half::f16 {}
    impl Sealed for half::bf16 {}
}

/// The 16-bit floats [`f16`](struct@crate::f16) and [`bf16`] in device code: conversions and
/// arithmetic that lower to one PTX instruction each and round once, to
/// nearest even, as CUDA's `__hadd`, `__hfma`, `__float2bfloat16_rn`, …
///
/// The `half` crate's own operators (`a + b`, `f16::from_f32`) are correct
/// too but computed in software on the GPU (about a dozen integer
/// instructions each); these methods are the instructions:
///
/// | method | f16 (sm_70+) | bf16 sm_90 | bf16 sm_80 | bf16 sm_70 |
/// |---|---|---|---|---|
/// | [`from_f32_rn`](Self::from_f32_rn) | `cvt.rn.f16.f32` | `cvt.rn.bf16.f32` | same | integer rounding |
/// | [`widen`](Self::widen) | `cvt.f32.f16` | `cvt.f32.bf16` | `shl` (exact) | same |
/// | [`add_rn`](Self::add_rn), [`sub_rn`](Self::sub_rn), [`mul_rn`](Self::mul_rn) | `add/sub/mul.rn.f16` | `add/sub/mul.rn.bf16` | `fma.rn.bf16` with 1, −1, −0 | `f32` op + rounding |
/// | [`fma_rn`](Self::fma_rn) | `fma.rn.f16` | `fma.rn.bf16` | same | `fma.rn.f32` + rounding |
/// | [`hmin`](Self::hmin), [`hmax`](Self::hmax) | `min/max.f16` (sm_80+) | `min/max.bf16` | same | compare + select |
///
/// A NaN result is the canonical NaN (`0x7fff`), as on the GPU; the
/// simulator computes every method in `f32` and rounds once (exact for
/// `+ - *`, see the crate's `half_floats` tests), `fma_rn` exactly.
/// Below sm_80, `bf16` [`fma_rn`](Self::fma_rn) rounds twice (`f32`, then
/// bf16), as NVIDIA's `__hfma` does there.
///
/// ```
/// use cooperative_groups::{bf16, narrow::Float16};
/// let x = bf16::from_f32_rn(1.0 / 3.0);          // cvt.rn.bf16.f32
/// let (three, minus_one) = (bf16::from_f32_rn(3.0), bf16::from_f32_rn(-1.0));
/// let y = x.fma_rn(three, minus_one);              // fma.rn.bf16
/// assert_eq!(y.widen(), 1.0 / 512.0);              // 0.333984375·3 − 1, rounded once
/// // The product alone rounds to 1.0 in bf16, and the difference is then 0.
/// assert_eq!(x.mul_rn(three).add_rn(minus_one).widen(), 0.0);
/// ```
pub trait Float16:
    sealed::Sealed + Copy + PartialEq + PartialOrd + ShflValue + Pod + MatchValue
{
    /// The canonical NaN (`CUDART_NAN_FP16`, `CUDART_NAN_BF16`: `0x7fff`),
    /// which every operation here returns for a NaN result (the `half`
    /// crate's `NAN` constants are another NaN, `0x7e00` / `0x7fc0`).
    #[doc(alias = "CUDART_NAN_FP16")]
    #[doc(alias = "CUDART_NAN_BF16")]
    const CANONICAL_NAN: Self;

    /// `x` rounded to nearest even (`cvt.rn.f16.f32`, `cvt.rn.bf16.f32`);
    /// a NaN becomes [`CANONICAL_NAN`](Self::CANONICAL_NAN).
    #[doc(alias = "__float2half_rn")]
    #[doc(alias = "__float2half")]
    #[doc(alias = "__float2bfloat16_rn")]
    #[doc(alias = "__float2bfloat16")]
    fn from_f32_rn(x: f32) -> Self;

    /// The exact `f32` value (`cvt.f32.f16`, `cvt.f32.bf16`).
    #[doc(alias = "__half2float")]
    #[doc(alias = "__bfloat162float")]
    fn widen(self) -> f32;

    /// `self + b`, rounded once to nearest even (`add.rn`).
    #[doc(alias = "__hadd")]
    #[doc(alias = "__hadd_rn")]
    fn add_rn(self, b: Self) -> Self;

    /// `self - b`, rounded once to nearest even (`sub.rn`).
    #[doc(alias = "__hsub")]
    #[doc(alias = "__hsub_rn")]
    fn sub_rn(self, b: Self) -> Self;

    /// `self · b`, rounded once to nearest even (`mul.rn`).
    #[doc(alias = "__hmul")]
    #[doc(alias = "__hmul_rn")]
    fn mul_rn(self, b: Self) -> Self;

    /// `self · b + c` with one rounding (`fma.rn`).
    #[doc(alias = "__hfma")]
    fn fma_rn(self, b: Self, c: Self) -> Self;

    /// The smaller value (`min.f16`, `min.bf16`: CUDA's `__hmin`): a NaN
    /// operand gives the other one, two NaNs [`CANONICAL_NAN`](Self::CANONICAL_NAN), and
    /// `-0.0` is smaller than `+0.0`.
    #[doc(alias = "__hmin")]
    fn hmin(self, b: Self) -> Self;

    /// The larger value (`max.f16`, `max.bf16`: `__hmax`), with
    /// [`hmin`](Self::hmin)'s rules (`+0.0` is larger than `-0.0`).
    #[doc(alias = "__hmax")]
    fn hmax(self, b: Self) -> Self;
}

macro_rules! float16 {
    ($t:ident, $to:ident, $from:ident, $add:ident, $sub:ident, $mul:ident, $fma:ident, $min:ident, $max:ident) => {
        impl Float16 for $t {
            const CANONICAL_NAN: Self = $t::from_bits(arch::soft16::NAN16);
            #[inline(always)]
            fn from_f32_rn(x: f32) -> Self {
                $t::from_bits(arch::$to(x))
            }
            #[inline(always)]
            fn widen(self) -> f32 {
                arch::$from(self.to_bits())
            }
            #[inline(always)]
            fn add_rn(self, b: Self) -> Self {
                $t::from_bits(arch::$add(self.to_bits(), b.to_bits()))
            }
            #[inline(always)]
            fn sub_rn(self, b: Self) -> Self {
                $t::from_bits(arch::$sub(self.to_bits(), b.to_bits()))
            }
            #[inline(always)]
            fn mul_rn(self, b: Self) -> Self {
                $t::from_bits(arch::$mul(self.to_bits(), b.to_bits()))
            }
            #[inline(always)]
            fn fma_rn(self, b: Self, c: Self) -> Self {
                $t::from_bits(arch::$fma(self.to_bits(), b.to_bits(), c.to_bits()))
            }
            #[inline(always)]
            fn hmin(self, b: Self) -> Self {
                $t::from_bits(arch::$min(self.to_bits(), b.to_bits()))
            }
            #[inline(always)]
            fn hmax(self, b: Self) -> Self {
                $t::from_bits(arch::$max(self.to_bits(), b.to_bits()))
            }
        }
    };
}
float16!(
    f16, f32_to_f16, f16_to_f32, f16_add, f16_sub, f16_mul, f16_fma, f16_min, f16_max
);
float16!(
    bf16,
    f32_to_bf16,
    bf16_to_f32,
    bf16_add,
    bf16_sub,
    bf16_mul,
    bf16_fma,
    bf16_min,
    bf16_max
);
