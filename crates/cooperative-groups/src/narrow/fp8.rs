//! The 8-bit floats [`e4m3`] and [`e5m2`] (CUDA's `__nv_fp8_e4m3`,
//! `__nv_fp8_e5m2`; OCP FP8): storage types with conversions from and to
//! `f32`. sm_89+ converts in one instruction (`cvt.rn.satfinite.e4m3x2.f32`,
//! `cvt.rn.f16x2.e4m3x2`; used in the library's sm_90 build); older SMs and
//! the simulator compute the same in software.
//!
//! Conversions to fp8 round to nearest even and **saturate** (`.satfinite`,
//! CUDA's `__NV_SATFINITE`): a magnitude at or beyond the largest finite
//! value, infinities included, becomes `±448` (e4m3) or `±57344` (e5m2); a
//! NaN becomes `0x7f` with the input's sign (e5m2: `0x7e`/`0x7f`), as
//! `cuda_fp8.hpp`'s conversion.

use super::pair::f16x2;
use super::scalar::Float16;
use crate::arch;
use crate::pod::Pod;
use crate::value::{MatchValue, ShflValue};

macro_rules! fp8 {
    ($(#[$m:meta])* $t:ident, $cuda:literal, $to:ident, $from:ident) => {
        $(#[$m])*
        #[allow(non_camel_case_types)]
        #[doc(alias = $cuda)]
        #[repr(transparent)]
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        pub struct $t(u8);

        // SAFETY: one byte; every bit pattern is a value (NaNs included).
        unsafe impl Pod for $t {
            const PADDING_FREE: bool = true;
        }
        // SAFETY: as for `Pod`.
        unsafe impl ShflValue for $t {}
        impl crate::value::sealed::Sealed for $t {}
        impl MatchValue for $t {
            #[inline(always)]
            fn match_bits(self) -> (u64, bool) {
                (self.0 as u64, false)
            }
        }

        impl $t {
            /// The value whose bits are `bits`.
            #[inline(always)]
            pub const fn from_bits(bits: u8) -> Self {
                Self(bits)
            }

            /// The bits.
            #[inline(always)]
            pub const fn to_bits(self) -> u8 {
                self.0
            }

            /// `x` rounded to nearest even, saturating (see the module docs).
            #[doc(alias = "__nv_cvt_float_to_fp8")]
            #[inline(always)]
            pub fn from_f32_satfinite(x: f32) -> Self {
                Self(arch::$to(x, 0.0) as u8)
            }

            /// `(lo, hi)` converted in one instruction (the `x2` form):
            /// CUDA's `__nv_cvt_float2_to_fp8x2`.
            #[doc(alias = "__nv_cvt_float2_to_fp8x2")]
            #[inline(always)]
            pub fn pair_from_f32_satfinite(lo: f32, hi: f32) -> [Self; 2] {
                let d = arch::$to(lo, hi);
                [Self(d as u8), Self((d >> 8) as u8)]
            }

            /// Both values of a pair as an [`f16x2`] (exact: every 8-bit
            /// value is an f16; a NaN becomes the canonical NaN), in one
            /// instruction: CUDA's `__nv_cvt_fp8x2_to_halfraw2`.
            #[doc(alias = "__nv_cvt_fp8x2_to_halfraw2")]
            #[inline(always)]
            pub fn pair_to_f16x2(pair: [Self; 2]) -> f16x2 {
                f16x2::from_bits(arch::$from(pair[0].0 as u16 | (pair[1].0 as u16) << 8))
            }

            /// The exact `f32` value (through f16, as CUDA's
            /// `float(__nv_fp8_…)`).
            #[inline(always)]
            pub fn to_f32(self) -> f32 {
                Self::pair_to_f16x2([self, Self(0)]).x.widen()
            }
        }
    };
}

fp8!(
    /// An 8-bit float with 4 exponent and 3 significand bits (bias 7, no
    /// infinities, NaN `S.1111.111`, largest finite 448).
    ///
    /// ```
    /// use cooperative_groups::narrow::e4m3;
    /// assert_eq!(e4m3::from_f32_satfinite(0.3).to_f32(), 0.3125);  // nearest: 5·2^-4
    /// assert_eq!(e4m3::from_f32_satfinite(1e6).to_f32(), 448.0);   // saturated
    /// assert_eq!(e4m3::from_f32_satfinite(f32::NAN).to_bits(), 0x7f);
    /// ```
    e4m3, "__nv_fp8_e4m3", f32x2_to_e4m3x2, e4m3x2_to_f16x2
);
fp8!(
    /// An 8-bit float with 5 exponent and 2 significand bits (bias 15: the
    /// high byte of an f16; largest finite 57344).
    ///
    /// ```
    /// use cooperative_groups::narrow::e5m2;
    /// assert_eq!(e5m2::from_f32_satfinite(3.0).to_f32(), 3.0);
    /// assert_eq!(e5m2::from_f32_satfinite(f32::INFINITY).to_f32(), 57344.0);
    /// ```
    e5m2, "__nv_fp8_e5m2", f32x2_to_e5m2x2, e5m2x2_to_f16x2
);
