//! Packed pairs [`f16x2`] and [`bf16x2`]: two 16-bit floats in one 32-bit
//! register (`__half2`, `__nv_bfloat162`), element `x` in the low half.
//! Each operation is one `.f16x2` / `.bf16x2` instruction for both
//! elements (see [`Float16`](super::Float16) for which SM has which).

use core::ops::{Add, Mul, Sub};

use half::{bf16, f16};

use super::scalar::Float16;
use crate::arch::{self, soft16};
use crate::pod::Pod;
use crate::value::{MatchValue, ShflValue};

macro_rules! pair {
    (
        $(#[$m:meta])*
        $p:ident, $t:ident, $cuda:literal,
        $cvt:ident, $add:ident, $sub:ident, $mul:ident, $fma:ident, $min:ident, $max:ident
    ) => {
        $(#[$m])*
        #[allow(non_camel_case_types)]
        #[doc(alias = $cuda)]
        #[repr(C, align(4))]
        #[derive(Clone, Copy, Debug, Default, PartialEq)]
        pub struct $p {
            /// Element 0 (the low 16 bits; CUDA's `.x`).
            pub x: $t,
            /// Element 1 (the high 16 bits; CUDA's `.y`).
            pub y: $t,
        }

        // SAFETY: two 2-byte fields in a 4-byte `repr(C)` struct: no
        // padding, and every bit pattern of each field is a value.
        unsafe impl Pod for $p {
            const PADDING_FREE: bool = true;
        }
        // SAFETY: as for `Pod`: no padding, no invalid bit pattern.
        unsafe impl ShflValue for $p {}
        impl crate::value::sealed::Sealed for $p {}
        impl MatchValue for $p {
            #[inline(always)]
            fn match_bits(self) -> (u64, bool) {
                (self.to_bits() as u64, false)
            }
        }

        impl $p {
            /// The pair `(x, y)`.
            #[doc(alias = "__halves2half2")]
            #[doc(alias = "__halves2bfloat162")]
            #[inline(always)]
            pub const fn new(x: $t, y: $t) -> Self {
                Self { x, y }
            }

            /// `(v, v)`.
            #[doc(alias = "__half2half2")]
            #[doc(alias = "__bfloat162bfloat162")]
            #[inline(always)]
            pub const fn splat(v: $t) -> Self {
                Self { x: v, y: v }
            }

            /// The register's bits: `x` in the low half, `y` in the high half.
            #[inline(always)]
            pub const fn to_bits(self) -> u32 {
                soft16::join(self.x.to_bits(), self.y.to_bits())
            }

            /// The pair whose register holds `bits` (`x` from the low half).
            #[inline(always)]
            pub const fn from_bits(bits: u32) -> Self {
                let (x, y) = soft16::split(bits);
                Self { x: $t::from_bits(x), y: $t::from_bits(y) }
            }

            #[doc = concat!("`(x, y)` each rounded to nearest even, in one `", stringify!($cvt), "` (`cvt.rn.", stringify!($p), ".f32` on sm_80+).")]
            #[doc(alias = "__floats2half2_rn")]
            #[doc(alias = "__floats2bfloat162_rn")]
            #[doc(alias = "__float22half2_rn")]
            #[doc(alias = "__float22bfloat162_rn")]
            #[inline(always)]
            pub fn from_f32_rn(x: f32, y: f32) -> Self {
                Self::from_bits(arch::$cvt(x, y))
            }

            /// Both elements as exact `f32`s.
            #[doc(alias = "__half22float2")]
            #[doc(alias = "__bfloat1622float2")]
            #[inline(always)]
            pub fn widen(self) -> (f32, f32) {
                (self.x.widen(), self.y.widen())
            }

            /// `self + b` per element, each rounded once (`add.rn` of the pair).
            #[doc(alias = "__hadd2")]
            #[doc(alias = "__hadd2_rn")]
            #[inline(always)]
            pub fn add_rn(self, b: Self) -> Self {
                Self::from_bits(arch::$add(self.to_bits(), b.to_bits()))
            }

            /// `self - b` per element (`sub.rn` of the pair).
            #[doc(alias = "__hsub2")]
            #[doc(alias = "__hsub2_rn")]
            #[inline(always)]
            pub fn sub_rn(self, b: Self) -> Self {
                Self::from_bits(arch::$sub(self.to_bits(), b.to_bits()))
            }

            /// `self · b` per element (`mul.rn` of the pair).
            #[doc(alias = "__hmul2")]
            #[doc(alias = "__hmul2_rn")]
            #[inline(always)]
            pub fn mul_rn(self, b: Self) -> Self {
                Self::from_bits(arch::$mul(self.to_bits(), b.to_bits()))
            }

            /// `self · b + c` per element, one rounding each (`fma.rn` of the pair).
            #[doc(alias = "__hfma2")]
            #[inline(always)]
            pub fn fma_rn(self, b: Self, c: Self) -> Self {
                Self::from_bits(arch::$fma(self.to_bits(), b.to_bits(), c.to_bits()))
            }

            /// The smaller of each pair of elements, with `__hmin`'s rules
            /// ([`Float16::hmin`]; `min` of the pair on sm_80+).
            #[doc(alias = "__hmin2")]
            #[inline(always)]
            pub fn hmin(self, b: Self) -> Self {
                Self::from_bits(arch::$min(self.to_bits(), b.to_bits()))
            }

            /// The larger of each pair of elements, with `__hmax`'s rules.
            #[doc(alias = "__hmax2")]
            #[inline(always)]
            pub fn hmax(self, b: Self) -> Self {
                Self::from_bits(arch::$max(self.to_bits(), b.to_bits()))
            }

            /// `self < b` per element (ordered: `false` where either is NaN).
            #[doc(alias = "__hlt2")]
            #[doc(alias = "__hblt2")]
            #[inline(always)]
            pub fn lt(self, b: Self) -> [bool; 2] {
                [self.x < b.x, self.y < b.y]
            }

            /// `self <= b` per element (ordered).
            #[doc(alias = "__hle2")]
            #[doc(alias = "__hble2")]
            #[inline(always)]
            pub fn le(self, b: Self) -> [bool; 2] {
                [self.x <= b.x, self.y <= b.y]
            }

            /// `self > b` per element (ordered).
            #[doc(alias = "__hgt2")]
            #[doc(alias = "__hbgt2")]
            #[inline(always)]
            pub fn gt(self, b: Self) -> [bool; 2] {
                [self.x > b.x, self.y > b.y]
            }

            /// `self >= b` per element (ordered).
            #[doc(alias = "__hge2")]
            #[doc(alias = "__hbge2")]
            #[inline(always)]
            pub fn ge(self, b: Self) -> [bool; 2] {
                [self.x >= b.x, self.y >= b.y]
            }

            /// `self == b` per element (ordered: `+0.0 == -0.0`, NaN ≠ NaN).
            #[doc(alias = "__heq2")]
            #[doc(alias = "__hbeq2")]
            #[inline(always)]
            pub fn eq(self, b: Self) -> [bool; 2] {
                [self.x == b.x, self.y == b.y]
            }

            /// `self != b` per element (unordered: `true` where either is NaN).
            #[doc(alias = "__hneu2")]
            #[doc(alias = "__hbneu2")]
            #[inline(always)]
            pub fn ne(self, b: Self) -> [bool; 2] {
                [self.x != b.x, self.y != b.y]
            }
        }

        /// [`add_rn`]($p::add_rn).
        impl Add for $p {
            type Output = Self;
            #[inline(always)]
            fn add(self, b: Self) -> Self {
                self.add_rn(b)
            }
        }
        /// [`sub_rn`]($p::sub_rn).
        impl Sub for $p {
            type Output = Self;
            #[inline(always)]
            fn sub(self, b: Self) -> Self {
                self.sub_rn(b)
            }
        }
        /// [`mul_rn`]($p::mul_rn).
        impl Mul for $p {
            type Output = Self;
            #[inline(always)]
            fn mul(self, b: Self) -> Self {
                self.mul_rn(b)
            }
        }
    };
}

pair!(
    /// Two [`f16`](struct@crate::f16)s in one register (CUDA's `__half2`): `+ - *` are
    /// `add/sub/mul.rn.f16x2`, [`fma_rn`](f16x2::fma_rn) `fma.rn.f16x2`.
    ///
    /// ```
    /// use cooperative_groups::{f16, f16x2};
    /// let a = f16x2::from_f32_rn(1.5, -2.0);      // cvt.rn.f16x2.f32
    /// let b = a * a + f16x2::splat(f16::ONE);      // mul.rn.f16x2, add.rn.f16x2
    /// assert_eq!(b.widen(), (3.25, 5.0));
    /// assert_eq!(a.to_bits() & 0xffff, f16::from_f32(1.5).to_bits() as u32); // x is the low half
    /// ```
    f16x2, f16, "__half2",
    f32x2_to_f16x2, f16x2_add, f16x2_sub, f16x2_mul, f16x2_fma, f16x2_min, f16x2_max
);
pair!(
    /// Two [`bf16`]s in one register (CUDA's `__nv_bfloat162`): `+ - *`
    /// are `add/sub/mul.rn.bf16x2` on sm_90 (`fma.rn.bf16x2` with a
    /// constant on sm_80), [`fma_rn`](bf16x2::fma_rn) `fma.rn.bf16x2`.
    ///
    /// ```
    /// use cooperative_groups::{bf16, bf16x2};
    /// let a = bf16x2::from_f32_rn(1.0, 256.0);
    /// let b = a + bf16x2::splat(bf16::from_f32(1.0));  // 257 rounds to even: 256
    /// assert_eq!(b.widen(), (2.0, 256.0));
    /// ```
    bf16x2, bf16, "__nv_bfloat162",
    f32x2_to_bf16x2, bf16x2_add, bf16x2_sub, bf16x2_mul, bf16x2_fma, bf16x2_min, bf16x2_max
);
