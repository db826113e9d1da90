//! Tensor maps of one, four and five dimensions ([`TensorMap1d`],
//! [`TensorMap4d`], [`TensorMap5d`] and their writable twins): `CUtensorMap`s
//! of rank 1, 4 and 5, whose boxes are `B0`, `B0 × B1 × B2 × B3` and `B0 ×
//! … × B4` elements, dimension 0 innermost — a row whose ends outside the
//! tensor load as zeros, and the shapes of batched, multi-head tensors. Coordinates are arrays, innermost first, as `cuda::ptx`'s
//! `cp_async_bulk_tensor` takes them.
//!
//! The rules and an example: [the `tma` module](super#one-four-and-five-dimensions).

use core::marker::PhantomData;

use super::{Dense, TileLayout, TileStore};
use crate::Pod;
use crate::arch;
#[cfg(any(not(target_arch = "nvptx64"), target_feature = "sm_90"))]
use crate::mbarrier::{ArrivalToken, Mbarrier};
#[cfg(any(not(target_arch = "nvptx64"), target_feature = "sm_90"))]
use crate::{SharedSlice, ThreadBlock};

macro_rules! map_nd {
    (@common $rank:literal, $ty:ident, $writable:literal, [$b0:ident $(, $b:ident)*]) => {
        map_core!($rank, $ty, $writable, [$b0 $(, $b)*]);

        impl<'a, T: Pod, const $b0: u32, $(const $b: u32,)* L: TileLayout>
            $ty<'a, T, $b0, $($b,)* L>
        {
            /// Where element `at` of the box (innermost first, each below
            /// its side) lies in its shared tile, in elements: row-major
            /// (dimension 0 fastest) for [`Dense`] tiles, permuted by the
            /// swizzle otherwise.
            #[inline(always)]
            pub const fn tile_index(at: [u32; $rank]) -> usize {
                super::map_core::box_index::<T, L>(&[$b0 $(, $b)*], &at)
            }

            /// The descriptor of a tensor: `raw`, its 128-byte tensor map
            /// as the driver encoded it (zeros on the simulator), and the
            /// tensor it was encoded from: `dims[d]` elements along
            /// dimension `d` from `base`, `strides[d - 1]` elements from one
            /// index to the next along dimension `d ≥ 1`.
            ///
            /// # Safety
            /// As [`TensorMap2d::from_raw_parts`](super::TensorMap2d::from_raw_parts),
            /// for this tensor and box.
            #[doc(hidden)]
            pub unsafe fn from_raw_parts(
                raw: [u64; 16],
                base: *const T,
                dims: [u32; $rank],
                strides: [usize; $rank - 1],
            ) -> Self {
                // SAFETY: the caller's contract.
                unsafe { Self::from_desc_parts(raw, base, &dims, &strides) }
            }

            /// Elements along each dimension, innermost first.
            #[inline(always)]
            pub fn dims(&self) -> [u32; $rank] {
                let mut d = [0; $rank];
                d.copy_from_slice(&self.desc.dims[..$rank]);
                d
            }

            /// Boxes along each dimension (the last ones may stick out).
            #[inline(always)]
            pub fn tiles_per_dim(&self) -> [u32; $rank] {
                let sides = [$b0 $(, $b)*];
                let mut t = self.dims();
                for (t, s) in t.iter_mut().zip(sides) {
                    *t = t.div_ceil(s);
                }
                t
            }
        }
    };

    (
        $rank:literal, $map:ident, $map_mut:ident, $tiles:ident, $tiles_mut:ident, $copy:ident,
        [$b0:ident $(, $b:ident)*]
    ) => {
        #[doc = concat!(
            "A read-only ", stringify!($rank), "-D tensor of `T` in global memory, whose tile ",
            "copies move boxes of `", stringify!($b0),
            $(" × ", stringify!($b),)* "` elements laid out by `L` (dimension 0 innermost): a ",
            "kernel parameter (a safe one: loads are bounds-checked by the copy engine). See the ",
            "[`tma` module](crate::tma#one-four-and-five-dimensions)."
        )]
        #[repr(C, align(16))]
        pub struct $map<'a, T, const $b0: u32, $(const $b: u32,)* L: TileLayout = Dense> {
            /// The driver's map, first (64-byte aligned in parameter space).
            raw: [u64; 16],
            desc: arch::TensorDesc,
            _t: PhantomData<(&'a (), *const T, L)>,
        }

        #[doc = concat!(
            "A ", stringify!($rank), "-D tensor of `T` that this launch may also write, with tile ",
            "stores ([`", stringify!($tiles_mut), "::store_tile`]): from an exclusive borrow."
        )]
        #[repr(C, align(16))]
        pub struct $map_mut<'a, T, const $b0: u32, $(const $b: u32,)* L: TileLayout = Dense> {
            raw: [u64; 16],
            desc: arch::TensorDesc,
            _t: PhantomData<(&'a (), *mut T, L)>,
        }

        map_nd!(@common $rank, $map, false, [$b0 $(, $b)*]);
        map_nd!(@common $rank, $map_mut, true, [$b0 $(, $b)*]);

        #[doc = concat!(
            "The tile loads of a [`", stringify!($map), "`] for the thread that made them: from [`",
            stringify!($map), "::tiles`]."
        )]
        #[derive(Clone, Copy)]
        pub struct $tiles<'a, T, const $b0: u32, $(const $b: u32,)* L: TileLayout = Dense> {
            desc: arch::TensorDesc,
            _t: PhantomData<(&'a *const T, L)>,
        }

        #[doc = concat!(
            "The tile stores of a [`", stringify!($map_mut), "`] for a block: from [`",
            stringify!($map_mut), "::tiles_mut`]."
        )]
        pub struct $tiles_mut<'a, T, const $b0: u32, $(const $b: u32,)* L: TileLayout = Dense> {
            desc: arch::TensorDesc,
            _t: PhantomData<(&'a *mut T, L)>,
        }

        impl<'a, T: Pod, const $b0: u32, $(const $b: u32,)* L: TileLayout>
            $map<'a, T, $b0, $($b,)* L>
        {
            /// This thread's tile loads, the map prefetched
            /// (`prefetch.tensormap`). Once per thread that issues copies.
            #[cfg(any(not(target_arch = "nvptx64"), target_feature = "sm_90"))]
            #[inline(always)]
            pub fn tiles(&self) -> $tiles<'_, T, $b0, $($b,)* L> {
                // SAFETY: a map made by `from_raw_parts` and placed by `in_place`.
                unsafe { arch::tensormap_prefetch(&self.desc) };
                $tiles { desc: self.desc, _t: PhantomData }
            }
        }

        impl<'a, T: Pod, const $b0: u32, $(const $b: u32,)* L: TileLayout>
            $map_mut<'a, T, $b0, $($b,)* L>
        {
            /// The map's loads, as a read-only map.
            #[inline(always)]
            pub fn as_read(&self) -> $map<'a, T, $b0, $($b,)* L> {
                $map { raw: self.raw, desc: self.desc, _t: PhantomData }
            }

            /// The block's tile stores: a collective handle of `block`,
            /// whose thread 0 issues them (and prefetches the map).
            #[cfg(any(not(target_arch = "nvptx64"), target_feature = "sm_90"))]
            #[inline(always)]
            pub fn tiles_mut<const M: u32>(
                &self,
                block: &ThreadBlock<M>,
            ) -> $tiles_mut<'_, T, $b0, $($b,)* L> {
                if block.thread_rank() == 0 {
                    // SAFETY: as in `tiles`.
                    unsafe { arch::tensormap_prefetch(&self.desc) };
                }
                $tiles_mut { desc: self.desc, _t: PhantomData }
            }
        }

        impl<T: Pod, const $b0: u32, $(const $b: u32,)* L: TileLayout>
            $tiles_mut<'_, T, $b0, $($b,)* L>
        {
            /// The loads of this map, for thread 0 of the block, which
            /// prefetched the map.
            #[inline(always)]
            pub fn as_read(&self) -> $tiles<'_, T, $b0, $($b,)* L> {
                $tiles { desc: self.desc, _t: PhantomData }
            }

            #[doc = concat!(
                "[`TensorTilesMut::store_tile`](super::TensorTilesMut::store_tile) for a ",
                stringify!($rank), "-D box at `at` (innermost first): the same block collective ",
                "(`cp.async.bulk.tensor.", stringify!($rank), "d.global.shared::cta`)."
            )]
            ///
            /// # Panics
            /// (traps on the GPU) Unless `src` is aligned as the layout
            /// needs and holds the box, and `at[0]` is a multiple of 16
            /// bytes.
            ///
            /// # Safety
            /// As [`TensorTilesMut::store_tile`](super::TensorTilesMut::store_tile).
            #[cfg(any(not(target_arch = "nvptx64"), target_feature = "sm_90"))]
            #[inline(always)]
            #[track_caller]
            pub unsafe fn store_tile<const M: u32>(
                &self,
                block: &ThreadBlock<M>,
                src: SharedSlice<T>,
                at: [i32; $rank],
            ) -> TileStore {
                // SAFETY: a fenced map of writable memory with this box
                // (`tiles_mut`); the caller's contract.
                unsafe {
                    TileStore::store_box::<T, $rank, M>(
                        concat!(stringify!($tiles_mut), "::store_tile"),
                        block,
                        src,
                        &self.desc,
                        arch::tensor_at(at),
                        $map_mut::<T, $b0, $($b,)* L>::SHAPE,
                    )
                }
            }
        }

        #[cfg(any(not(target_arch = "nvptx64"), target_feature = "sm_90"))]
        impl Mbarrier {
            #[doc = concat!(
                "[`arrive_copy_tile`](Self::arrive_copy_tile) for a ", stringify!($rank),
                "-D box at `at` (innermost first): one arrival expecting the box's bytes and ",
                "the copy of the box into `dst` (`cp.async.bulk.tensor.", stringify!($rank),
                "d`), zeros outside the tensor."
            )]
            ///
            /// # Panics
            /// (traps on the GPU) Unless `dst` is aligned as the layout
            /// needs and holds the box, and `at[0]` is a multiple of 16
            /// bytes.
            ///
            /// # Safety
            /// As [`arrive_copy_tile`](Self::arrive_copy_tile).
            #[inline(always)]
            #[track_caller]
            pub unsafe fn $copy<
                T: Pod,
                const $b0: u32,
                $(const $b: u32,)*
                L: TileLayout,
            >(
                &self,
                dst: SharedSlice<T>,
                tiles: &$tiles<'_, T, $b0, $($b,)* L>,
                at: [i32; $rank],
            ) -> ArrivalToken {
                // SAFETY: `tiles` holds a fenced map (`tiles`) of this
                // box; the caller's contract.
                unsafe {
                    self.load_box::<T, $rank>(
                        concat!("Mbarrier::", stringify!($copy)),
                        dst,
                        &tiles.desc,
                        arch::tensor_at(at),
                        $map::<T, $b0, $($b,)* L>::SHAPE,
                    )
                }
            }
        }
    };
}

map_nd!(
    1,
    TensorMap1d,
    TensorMap1dMut,
    TensorTiles1d,
    TensorTilesMut1d,
    arrive_copy_tile_1d,
    [B0]
);
map_nd!(
    4,
    TensorMap4d,
    TensorMap4dMut,
    TensorTiles4d,
    TensorTilesMut4d,
    arrive_copy_tile_4d,
    [B0, B1, B2, B3]
);
map_nd!(
    5,
    TensorMap5d,
    TensorMap5dMut,
    TensorTiles5d,
    TensorTilesMut5d,
    arrive_copy_tile_5d,
    [B0, B1, B2, B3, B4]
);
