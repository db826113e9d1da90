//! The element types of the warp MMA and of its accumulators.

use crate::arch;
use crate::arch::mma_layout::MmaKind;
use crate::narrow::{bf16, e4m3, e5m2, f16};

mod sealed {
    pub trait Sealed {}
}

/// An input type of the warp MMA (sealed): [`f16`](struct@crate::f16) and
/// [`bf16`] (`m16n8k16`), [`e4m3`], [`e5m2`], `i8` and `u8` (`m16n8k32`).
pub trait MmaElement: sealed::Sealed + Copy + 'static {
    /// The accumulator's element: `f32`, or `i32` for the integer inputs.
    type Acc: MmaAcc;
    /// The instruction's types and shape.
    #[doc(hidden)]
    const KIND: MmaKind;
    /// The value's bits (16 or 8 of them, in the low bits).
    #[doc(hidden)]
    fn bits(self) -> u32;
}

/// The 16-bit inputs, which `ldmatrix` loads from shared memory
/// ([`MatrixA::load_shared`](super::MatrixA::load_shared)).
pub trait Mma16: MmaElement {}

macro_rules! element {
    ($t:ty, $acc:ty, $kind:ident, $bits:expr) => {
        impl sealed::Sealed for $t {}
        impl MmaElement for $t {
            type Acc = $acc;
            const KIND: MmaKind = MmaKind::$kind;
            #[inline(always)]
            fn bits(self) -> u32 {
                #[allow(clippy::redundant_closure_call)]
                ($bits)(self)
            }
        }
    };
}
element!(f16, f32, F16, |x: f16| x.to_bits() as u32);
element!(bf16, f32, Bf16, |x: bf16| x.to_bits() as u32);
element!(e4m3, f32, E4m3, |x: e4m3| x.to_bits() as u32);
element!(e5m2, f32, E5m2, |x: e5m2| x.to_bits() as u32);
element!(i8, i32, S8, |x: i8| x as u8 as u32);
element!(u8, i32, U8, |x: u8| x as u32);
impl Mma16 for f16 {}
impl Mma16 for bf16 {}

/// An accumulator type of the warp MMA (sealed): `f32`, `i32`.
pub trait MmaAcc: sealed::Sealed + Copy + Default + 'static {
    /// `mma.sync.aligned` of `kind` with this accumulator.
    #[doc(hidden)]
    fn mma(kind: MmaKind, a: [u32; 4], b: [u32; 2], c: [Self; 4]) -> [Self; 4];
}

impl sealed::Sealed for f32 {}
impl MmaAcc for f32 {
    #[inline(always)]
    #[track_caller]
    fn mma(kind: MmaKind, a: [u32; 4], b: [u32; 2], c: [f32; 4]) -> [f32; 4] {
        arch::mma_m16n8_f32(kind, a, b, c)
    }
}
impl sealed::Sealed for i32 {}
impl MmaAcc for i32 {
    #[inline(always)]
    #[track_caller]
    fn mma(kind: MmaKind, a: [u32; 4], b: [u32; 2], c: [i32; 4]) -> [i32; 4] {
        arch::mma_m16n8k32_s32(kind, a, b, c)
    }
}
