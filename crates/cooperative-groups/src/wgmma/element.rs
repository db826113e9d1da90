//! The types the warpgroup MMA is generic over: its inputs, the width of
//! its accumulator, and the group it runs on.

use crate::arch::{self, SmemDesc, mma_layout::MmaKind};
use crate::group::ThreadBlockTile;
use crate::mma::MmaElement;
use crate::narrow::{bf16, e4m3, e5m2, f16};

/// The four warps of an aligned 128-thread tile: the group `wgmma` runs
/// on (`tiled_partition::<128>(&block)`).
pub type Warpgroup = ThreadBlockTile<128>;

mod sealed {
    pub trait Sealed {}
}

/// An input type of the warpgroup MMA (sealed): [`f16`](struct@crate::f16)
/// and [`bf16`] (`k16`), [`e4m3`] and [`e5m2`] (`k32`).
pub trait WgmmaElement: MmaElement + sealed::Sealed {}
impl sealed::Sealed for f16 {}
impl sealed::Sealed for bf16 {}
impl sealed::Sealed for e4m3 {}
impl sealed::Sealed for e5m2 {}
impl WgmmaElement for f16 {}
impl WgmmaElement for bf16 {}
impl WgmmaElement for e4m3 {}
impl WgmmaElement for e5m2 {}

/// The accumulator width `N` of an `m64nN` shape, as a type.
#[derive(Clone, Copy, Debug)]
pub struct Shape<const N: usize>;

/// The `N`s the warpgroup MMA has here (8, 16, 32, 64, 128, 256). Sealed.
pub trait WgmmaShape: sealed::Sealed {
    /// A thread's registers: `N / 2` values.
    #[doc(hidden)]
    type Regs: Copy + AsRef<[f32]> + AsMut<[f32]>;
    /// All zeros.
    #[doc(hidden)]
    const ZERO: Self::Regs;
    /// One `wgmma.mma_async` of `kind` into `d`, for thread `t` of the
    /// warpgroup.
    ///
    /// # Safety
    /// `arch::wgmma_f32`'s contract.
    #[doc(hidden)]
    unsafe fn mma(kind: MmaKind, d: &mut Self::Regs, a: SmemDesc, b: SmemDesc, t: u32);
    /// `wgmma.wait_group G` (with `G` = 0, `d` pinned after it).
    #[doc(hidden)]
    fn wait<const G: u32>(d: &mut Self::Regs);
    /// `wgmma.fence`, `d`'s last writes before it.
    #[doc(hidden)]
    fn fence(d: &mut Self::Regs);
}

macro_rules! shapes {
    ($($n:literal),*) => {$(
        impl sealed::Sealed for Shape<$n> {}
        impl WgmmaShape for Shape<$n> {
            type Regs = [f32; $n / 2];
            const ZERO: Self::Regs = [0.0; $n / 2];
            #[inline(always)]
            #[track_caller]
            unsafe fn mma(kind: MmaKind, d: &mut Self::Regs, a: SmemDesc, b: SmemDesc, t: u32) {
                // SAFETY: the caller's contract.
                unsafe { arch::wgmma_f32(kind, d, a, b, t) }
            }
            #[inline(always)]
            #[track_caller]
            fn wait<const G: u32>(d: &mut Self::Regs) {
                arch::wgmma_wait::<G, { $n / 2 }>(d)
            }
            #[inline(always)]
            #[track_caller]
            fn fence(d: &mut Self::Regs) {
                arch::wgmma_fence_for(d)
            }
        }
    )*};
}
shapes!(8, 16, 32, 64, 128, 256);
