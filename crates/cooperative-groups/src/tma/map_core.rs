//! What the tensor maps of every rank share: the box's rules and size,
//! the descriptor, the parameter's entry, [`RankedMap`] for the host, and
//! the element's place in a tile for array coordinates. Each map type (`TensorMap1d` …
//! `TensorMap5d` and their writable twins) gets these from one macro,
//! `map_core!`; its own module adds the coordinates it takes (named for
//! 2-D and 3-D, arrays for the others).

use super::{MAX_BOX, TileLayout};
use crate::Pod;

/// What the host needs of a tensor-map parameter of any rank to make one
/// (`cooperative_groups::host::TensorNd`, `cg-runtime`'s `TensorMapNd`):
/// implemented by every map type, [`TensorMap1d`](super::TensorMap1d) to
/// [`TensorMap5d`](super::TensorMap5d) and their writable twins (sealed).
/// Not for use outside the crates of this project.
#[doc(hidden)]
pub trait RankedMap: Sized + sealed::Sealed {
    /// The element type.
    type Elem: Pod;
    /// Dimensions.
    const RANK: usize;
    /// The box's side along each dimension (1 past the rank).
    const BOX_DIMS: [u32; cg_isa::MAX_TENSOR_RANK];
    /// The tile layout.
    const SWIZZLE: cg_isa::Swizzle;
    /// Whether kernels may store tiles into the tensor.
    const WRITABLE: bool;

    /// The map of a tensor: `raw` the driver's encoding (zeros on the
    /// simulator), `dims` its elements along each dimension, `strides` the
    /// elements from one index to the next along dimensions 1, 2, ….
    ///
    /// # Safety
    /// As the map types' `from_raw_parts`; `dims.len() == RANK` and
    /// `strides.len() == RANK - 1` (a panic otherwise).
    unsafe fn from_parts(
        raw: [u64; 16],
        base: *const Self::Elem,
        dims: &[u32],
        strides: &[usize],
    ) -> Self;
}

pub(crate) mod sealed {
    pub trait Sealed {}
}

/// The bytes of a box of `sides` (innermost first) of `T` laid out by
/// `L`, checked against the copy engine's rules when a kernel using the
/// map is built: elements of 1, 2, 4 or 8 bytes, every side `1..=256`, the
/// box row a multiple of 16 bytes and, swizzled, exactly the swizzle's
/// width.
pub(super) const fn box_bytes<T, L: TileLayout>(sides: &[u32]) -> u32 {
    let elem = core::mem::size_of::<T>();
    assert!(
        elem == 1 || elem == 2 || elem == 4 || elem == 8,
        "a tensor map's elements are 1, 2, 4 or 8 bytes"
    );
    let mut bytes = elem as u32;
    let mut k = 0;
    while k < sides.len() {
        assert!(
            sides[k] >= 1 && sides[k] <= MAX_BOX,
            "a box side is 1..=256 elements"
        );
        bytes *= sides[k];
        k += 1;
    }
    let row = sides[0] as usize * elem;
    assert!(
        row.is_multiple_of(16),
        "a box row is a multiple of 16 bytes"
    );
    assert!(
        L::SWIZZLE.bytes() == 0 || row == L::SWIZZLE.bytes(),
        "a swizzled box row is exactly the swizzle's width (32, 64 or 128 bytes)"
    );
    bytes
}

/// Where element `at` (innermost first, each below its side) of a box of
/// `sides` of `T` lies in its shared tile, in elements: row-major
/// (dimension 0 fastest), permuted by `L`'s swizzle. For the array
/// coordinates of the 1-D, 4-D and 5-D maps; the 2-D and 3-D maps write
/// the same sum out for their named coordinates (a form whose PTX the
/// lab's transposes were measured with).
#[inline(always)]
pub(super) const fn box_index<T, L: TileLayout>(sides: &[u32], at: &[u32]) -> usize {
    let elem = core::mem::size_of::<T>();
    let mut i = 0usize;
    let mut k = sides.len();
    while k > 0 {
        k -= 1;
        i = i * sides[k] as usize + at[k] as usize;
    }
    L::SWIZZLE.apply(i * elem) / elem
}

/// The items every map type `$ty` of rank `$rank` with box sides `[$b0,
/// …]` shares (`$writable`: whether kernels store tiles into it): `Clone`,
/// `Copy`, [`RankedMap`], the box's constants, `in_place`, and the
/// crate's constructor `from_desc_parts`, which each type's
/// `from_raw_parts` calls with its own coordinates.
macro_rules! map_core {
    ($rank:literal, $ty:ident, $writable:literal, [$b0:ident $(, $b:ident)*]) => {
        impl<'a, T, const $b0: u32, $(const $b: u32,)* L: TileLayout> Clone
            for $ty<'a, T, $b0, $($b,)* L>
        {
            fn clone(&self) -> Self {
                *self
            }
        }
        impl<'a, T, const $b0: u32, $(const $b: u32,)* L: TileLayout> Copy
            for $ty<'a, T, $b0, $($b,)* L>
        {
        }

        impl<'a, T, const $b0: u32, $(const $b: u32,)* L: TileLayout>
            $crate::tma::map_core::sealed::Sealed for $ty<'a, T, $b0, $($b,)* L>
        {
        }

        impl<'a, T: Pod, const $b0: u32, $(const $b: u32,)* L: TileLayout>
            $ty<'a, T, $b0, $($b,)* L>
        {
            /// Bytes of one box (one tile in shared memory), checked when
            /// a kernel using the map is built: elements of 1, 2, 4 or 8
            /// bytes, every side `1..=256`, the box row a multiple of 16
            /// bytes and, swizzled, exactly the swizzle's width (32, 64 or
            /// 128 bytes).
            pub const BOX_BYTES: u32 =
                $crate::tma::map_core::box_bytes::<T, L>(&[$b0 $(, $b)*]);
            /// Elements of one box.
            pub const BOX_LEN: usize = ($b0 $(* $b)*) as usize;
            /// The alignment, in bytes, the box's shared tile needs: 128,
            /// or the swizzle's period.
            pub const TILE_ALIGN: usize = L::SWIZZLE.align();
            /// The box for the arch layer.
            pub(crate) const SHAPE: arch::BoxShape =
                arch::BoxShape::of([$b0 $(, $b)*], core::mem::size_of::<T>(), L::SWIZZLE);

            /// The map of a tensor of `dims` elements (innermost first)
            /// from `base`, `strides[d - 1]` elements apart along
            /// dimension `d ≥ 1`, whose driver map is `raw`.
            ///
            /// # Safety
            /// As the type's `from_raw_parts`.
            #[inline(always)]
            pub(crate) unsafe fn from_desc_parts(
                raw: [u64; 16],
                base: *const T,
                dims: &[u32],
                strides: &[usize],
            ) -> Self {
                let _ = Self::BOX_BYTES;
                $ty {
                    raw,
                    desc: arch::TensorDesc::of(
                        base as u64,
                        dims,
                        strides,
                        core::mem::size_of::<T>(),
                    ),
                    _t: PhantomData,
                }
            }

            /// The map at the kernel's entry ([`arch::TensorDesc::in_place`]).
            #[inline(always)]
            pub(crate) fn in_place(self, param: impl FnOnce() -> u64) -> Self {
                $ty { desc: self.desc.in_place(param), ..self }
            }
        }

        impl<'a, T: Pod, const $b0: u32, $(const $b: u32,)* L: TileLayout>
            $crate::tma::RankedMap for $ty<'a, T, $b0, $($b,)* L>
        {
            type Elem = T;
            const RANK: usize = $rank;
            const BOX_DIMS: [u32; cg_isa::MAX_TENSOR_RANK] = Self::SHAPE.boxdim;
            const SWIZZLE: cg_isa::Swizzle = L::SWIZZLE;
            const WRITABLE: bool = $writable;

            unsafe fn from_parts(
                raw: [u64; 16],
                base: *const T,
                dims: &[u32],
                strides: &[usize],
            ) -> Self {
                assert!(
                    dims.len() == $rank && strides.len() + 1 == $rank,
                    "one side per dimension, one stride per dimension past the first"
                );
                // SAFETY: the caller's contract.
                unsafe { Self::from_desc_parts(raw, base, dims, strides) }
            }
        }
    };
}
