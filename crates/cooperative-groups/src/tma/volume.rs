//! Three-dimensional tensors: [`TensorMap3d<'a, T, BW, BH, BD, L>`] moves
//! `BW × BH × BD` boxes of a `width × height × depth` tensor (rows `pitch`
//! elements apart, planes `plane` elements apart) — a batch of matrices, a
//! volume, a stack of images — with `cp.async.bulk.tensor.3d`, exactly as
//! [`TensorMap2d`](super::TensorMap2d) moves 2-D boxes: the same
//! arrivals, stores, layouts and checks, one more coordinate. A box lands
//! in shared memory as `BD` planes of `BH` rows of `BW` elements
//! ([`tile_index`](TensorMap3d::tile_index) finds `(x, y, z)` in any
//! layout).
//!
//! ```
//! # use cooperative_groups::{prelude::*, mbarrier, shared_array};
//! # use cooperative_groups::tma::TensorMap3d;
//! # use cooperative_groups::host::Volume;
//! # use core::sync::atomic::{AtomicU32, Ordering::Relaxed};
//! type Boxes<'a> = TensorMap3d<'a, u32, 4, 2, 3>;
//! // One block loads the 4 × 2 × 3 box at (4, 1, 1) of an 8 × 4 × 5 tensor
//! // (x a multiple of 16 bytes, as the copy engine needs).
//! fn load(v: Boxes<'_>, out: &[AtomicU32]) {
//!     let block = this_thread_block();
//!     let full = mbarrier!(&block, 1);
//!     let tile = shared_array!(u32; 24, align 128);
//!     if block.thread_rank() == 0 {
//!         // SAFETY: one 96-byte copy in flight on the phase.
//!         unsafe { full.arrive_copy_tile_3d(tile.as_slice(), &v.tiles(), 4, 1, 1) }.discard();
//!     }
//!     full.wait_parity(0);
//!     let t = block.thread_rank();
//!     out[t as usize].store(tile.load(Boxes::tile_index(t % 4, t / 4 % 2, t / 8) as usize), Relaxed);
//! }
//! let data: Vec<u32> = (0..8 * 4 * 5).collect();
//! let out: Vec<AtomicU32> = (0..24).map(|_| AtomicU32::new(0)).collect();
//! let map: Boxes = cooperative_groups::host::tensor_map_3d(Volume::new(&data[..], (8, 4, 5), 8, 32)).unwrap();
//! cg_sim::launch(&cg_sim::LaunchConfig::new(1, 24), &|| load(map, &out)).unwrap();
//! let want = |t: u32| (1 + t / 8) * 32 + (1 + t / 4 % 2) * 8 + 4 + t % 4;
//! assert!((0..24).all(|t| out[t as usize].load(Relaxed) == want(t)));
//! ```

use core::marker::PhantomData;

use super::{Dense, TileLayout, TileStore};
use crate::Pod;
use crate::arch;
#[cfg(any(not(target_arch = "nvptx64"), target_feature = "sm_90"))]
use crate::mbarrier::{ArrivalToken, Mbarrier};
#[cfg(any(not(target_arch = "nvptx64"), target_feature = "sm_90"))]
use crate::{SharedSlice, ThreadBlock};

/// A read-only 3-D tensor of `T` in global memory, whose tile copies move
/// `BW × BH × BD` boxes laid out by `L`: a kernel parameter (a safe one:
/// loads are bounds-checked by the copy engine). Element `(x, y, z)` is at
/// `z · plane + y · pitch + x`.
#[repr(C, align(16))]
pub struct TensorMap3d<'a, T, const BW: u32, const BH: u32, const BD: u32, L: TileLayout = Dense> {
    /// The driver's map, first (64-byte aligned in parameter space).
    raw: [u64; 16],
    desc: arch::TensorDesc,
    _t: PhantomData<(&'a (), *const T, L)>,
}

/// A 3-D tensor of `T` that this launch may also write, with tile stores
/// ([`TensorTilesMut3d::store_tile`]): from an exclusive borrow.
#[repr(C, align(16))]
pub struct TensorMap3dMut<'a, T, const BW: u32, const BH: u32, const BD: u32, L: TileLayout = Dense>
{
    raw: [u64; 16],
    desc: arch::TensorDesc,
    _t: PhantomData<(&'a (), *mut T, L)>,
}

macro_rules! map3_common {
    ($ty:ident, $writable:literal) => {
        map_core!(3, $ty, $writable, [BW, BH, BD]);

        impl<'a, T: Pod, const BW: u32, const BH: u32, const BD: u32, L: TileLayout>
            $ty<'a, T, BW, BH, BD, L>
        {
            /// Where element `(x, y, z)` of the box lies in its shared
            /// tile, in elements: `(z · BH + y) · BW + x` for [`Dense`]
            /// tiles, permuted by the swizzle otherwise.
            #[inline(always)]
            pub const fn tile_index(x: u32, y: u32, z: u32) -> usize {
                let elem = core::mem::size_of::<T>();
                let dense =
                    ((z as usize * BH as usize + y as usize) * BW as usize + x as usize) * elem;
                L::SWIZZLE.apply(dense) / elem
            }

            /// The descriptor of a tensor: `raw`, its 128-byte tensor map
            /// as the driver encoded it (zeros on the simulator), and the
            /// tensor it was encoded from: `width × height × depth`
            /// elements from `base`, rows `pitch` and planes `plane`
            /// elements apart.
            ///
            /// # Safety
            /// As [`TensorMap2d::from_raw_parts`](super::TensorMap2d::from_raw_parts),
            /// for this 3-D tensor and box.
            #[doc(hidden)]
            pub unsafe fn from_raw_parts(
                raw: [u64; 16],
                base: *const T,
                (width, height, depth): (u32, u32, u32),
                pitch: usize,
                plane: usize,
            ) -> Self {
                // SAFETY: the caller's contract.
                unsafe {
                    Self::from_desc_parts(raw, base, &[width, height, depth], &[pitch, plane])
                }
            }

            /// Elements per row.
            #[inline(always)]
            pub fn width(&self) -> u32 {
                self.desc.dims[0]
            }

            /// Rows per plane.
            #[inline(always)]
            pub fn height(&self) -> u32 {
                self.desc.dims[1]
            }

            /// Planes.
            #[inline(always)]
            pub fn depth(&self) -> u32 {
                self.desc.dims[2]
            }

            /// Boxes across a row, down a plane, through the planes (the
            /// last ones may stick out).
            #[inline(always)]
            pub fn tiles_xyz(&self) -> (u32, u32, u32) {
                (
                    self.desc.dims[0].div_ceil(BW),
                    self.desc.dims[1].div_ceil(BH),
                    self.desc.dims[2].div_ceil(BD),
                )
            }
        }
    };
}
map3_common!(TensorMap3d, false);
map3_common!(TensorMap3dMut, true);

/// The tile loads of a [`TensorMap3d`] for the thread that made it: from
/// [`TensorMap3d::tiles`].
#[derive(Clone, Copy)]
pub struct TensorTiles3d<'a, T, const BW: u32, const BH: u32, const BD: u32, L: TileLayout = Dense>
{
    desc: arch::TensorDesc,
    _t: PhantomData<(&'a *const T, L)>,
}

/// The tile stores of a [`TensorMap3dMut`] for a block: from
/// [`TensorMap3dMut::tiles_mut`].
pub struct TensorTilesMut3d<
    'a,
    T,
    const BW: u32,
    const BH: u32,
    const BD: u32,
    L: TileLayout = Dense,
> {
    desc: arch::TensorDesc,
    _t: PhantomData<(&'a *mut T, L)>,
}

impl<'a, T: Pod, const BW: u32, const BH: u32, const BD: u32, L: TileLayout>
    TensorMap3d<'a, T, BW, BH, BD, L>
{
    /// This thread's tile loads, the map prefetched
    /// (`prefetch.tensormap`). Once per thread that issues copies.
    #[cfg(any(not(target_arch = "nvptx64"), target_feature = "sm_90"))]
    #[inline(always)]
    pub fn tiles(&self) -> TensorTiles3d<'_, T, BW, BH, BD, L> {
        // SAFETY: a map made by `from_raw_parts` and placed by `in_place`.
        unsafe { arch::tensormap_prefetch(&self.desc) };
        TensorTiles3d {
            desc: self.desc,
            _t: PhantomData,
        }
    }
}

impl<'a, T: Pod, const BW: u32, const BH: u32, const BD: u32, L: TileLayout>
    TensorMap3dMut<'a, T, BW, BH, BD, L>
{
    /// The map's loads, as a read-only map.
    #[inline(always)]
    pub fn as_read(&self) -> TensorMap3d<'a, T, BW, BH, BD, L> {
        TensorMap3d {
            raw: self.raw,
            desc: self.desc,
            _t: PhantomData,
        }
    }

    /// The block's tile stores: a collective handle of `block`, whose
    /// thread 0 issues them (and prefetches the map).
    #[cfg(any(not(target_arch = "nvptx64"), target_feature = "sm_90"))]
    #[inline(always)]
    pub fn tiles_mut<const M: u32>(
        &self,
        block: &ThreadBlock<M>,
    ) -> TensorTilesMut3d<'_, T, BW, BH, BD, L> {
        if block.thread_rank() == 0 {
            // SAFETY: as in `TensorMap3d::tiles`.
            unsafe { arch::tensormap_prefetch(&self.desc) };
        }
        TensorTilesMut3d {
            desc: self.desc,
            _t: PhantomData,
        }
    }
}

#[cfg(any(not(target_arch = "nvptx64"), target_feature = "sm_90"))]
impl Mbarrier {
    /// [`arrive_copy_tile`](Self::arrive_copy_tile) for a 3-D box: one
    /// arrival expecting the box's bytes and the copy of the box at `(x,
    /// y, z)` into `dst` (`cp.async.bulk.tensor.3d`), zeros outside the
    /// tensor.
    ///
    /// # Panics
    /// (traps on the GPU) Unless `dst` is aligned as the layout needs and
    /// holds the box.
    ///
    /// # Safety
    /// As [`arrive_copy_tile`](Self::arrive_copy_tile).
    #[inline(always)]
    #[track_caller]
    pub unsafe fn arrive_copy_tile_3d<
        T: Pod,
        const BW: u32,
        const BH: u32,
        const BD: u32,
        L: TileLayout,
    >(
        &self,
        dst: SharedSlice<T>,
        tiles: &TensorTiles3d<'_, T, BW, BH, BD, L>,
        x: i32,
        y: i32,
        z: i32,
    ) -> ArrivalToken {
        // SAFETY: `tiles` holds a fenced map (`TensorMap3d::tiles`) of
        // this box; the caller's contract.
        unsafe {
            self.load_box::<T, 3>(
                "Mbarrier::arrive_copy_tile_3d",
                dst,
                &tiles.desc,
                arch::tensor_at([x, y, z]),
                TensorMap3d::<T, BW, BH, BD, L>::SHAPE,
            )
        }
    }
}

impl<T: Pod, const BW: u32, const BH: u32, const BD: u32, L: TileLayout>
    TensorTilesMut3d<'_, T, BW, BH, BD, L>
{
    /// [`TensorTilesMut::store_tile`](super::TensorTilesMut::store_tile)
    /// for a 3-D box at `(x, y, z)`: the same block collective
    /// (`cp.async.bulk.tensor.3d.global.shared::cta`).
    ///
    /// # Panics
    /// (traps on the GPU) Unless `src` is aligned as the layout needs and
    /// holds the box.
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
        x: i32,
        y: i32,
        z: i32,
    ) -> TileStore {
        // SAFETY: a fenced map of writable memory with this box
        // (`TensorMap3dMut::tiles_mut`); the caller's contract.
        unsafe {
            TileStore::store_box::<T, 3, M>(
                "TensorTilesMut3d::store_tile",
                block,
                src,
                &self.desc,
                arch::tensor_at([x, y, z]),
                TensorMap3dMut::<T, BW, BH, BD, L>::SHAPE,
            )
        }
    }
}
