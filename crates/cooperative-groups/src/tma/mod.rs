//! The Tensor Memory Accelerator (sm_90): whole tiles of 1 to 5
//! dimensions ([`TensorMap1d`], [`TensorMap2d`], [`TensorMap3d`],
//! [`TensorMap4d`], [`TensorMap5d`]) copied between a
//! tensor in global memory and shared memory by the copy engine, with no
//! thread moving the data — CUDA's `cp.async.bulk.tensor` with a tensor map
//! (`cuTensorMapEncodeTiled`), as `cuda::ptx`/CUTLASS use it.
//!
//! * The host describes the tensor once: a [`TensorMap2d<'a, T, BW, BH>`]
//!   kernel parameter names a row-major `width × height` tensor of `T` and
//!   the `BW × BH` box its tiles move (from `cg-runtime`'s
//!   `Backend::tensor_map`, or [`Image`](crate::host::Image) on the
//!   simulator). A [`TensorMap2dMut`] (from an exclusive borrow) can also
//!   be stored to.
//! * In the kernel, a thread that issues copies first takes the map's
//!   [`tiles`](TensorMap2d::tiles) (a prefetch of the map). The map is read
//!   in place in the kernel's parameter space, as nvcc's `const
//!   __grid_constant__ CUtensorMap` parameters are: `#[kernel]` takes its
//!   address at the entry and cg-build aligns the parameter to 64 bytes,
//!   so no copy, upload or proxy fence is needed.
//! * A **load** is [`Mbarrier::arrive_copy_tile`]: one arrival that expects
//!   the box's bytes, and the tile copy that completes them on the same
//!   barrier; the block waits on the phase, then reads the tile. Elements
//!   of the box outside the tensor arrive as zeros, so any coordinates are
//!   safe to load.
//! * A tile lies in shared memory as the map's **layout** says: dense rows
//!   ([`Dense`], the default) or one of the copy engine's swizzles
//!   ([`Swizzle32B`], [`Swizzle64B`], [`Swizzle128B`]), which spread a
//!   tile's columns over the banks. The layout is the map's last type
//!   parameter, and [`TensorMap2d::tile_index`] finds element `(x, y)` of
//!   the box in the tile whatever it is (see [`TileLayout`]).
//! * In a cluster, one block can load a tile for several:
//!   [`Mbarrier::copy_tile_multicast`] lands it at the same offset in every
//!   block of a mask, each completing the bytes on its own barrier (and
//!   [`Mbarrier::arrive_remote`] lets a block tell the loader that a
//!   buffer is free again).
//! * A **store** is [`TensorTilesMut::store_tile`], a block collective: each
//!   thread fences its shared writes for the copy engine, the block syncs,
//!   and thread 0 issues the store; a store's source may be written again
//!   after the block's next `store_tile` (or [`TileStore::wait_read`]).
//!   Elements of the box outside the tensor are not written.
//!
//! ```
//! # use cooperative_groups::{prelude::*, mbarrier, shared_array};
//! # use cooperative_groups::tma::TensorMap2d;
//! # use cooperative_groups::host::Image;
//! // Each block sums one 16 × 16 tile of a 40 × 20 image (the tiles at the
//! // right and bottom edges are partly outside it: zeros there).
//! fn tile_sums(img: TensorMap2d<u32, 16, 16>, out: &[core::sync::atomic::AtomicU32]) {
//!     let block = this_thread_block();
//!     let full = mbarrier!(&block, 1);
//!     let tile = shared_array!(u32; 256, align 128);
//!     let (bx, by) = (block.group_index().x, block.group_index().y);
//!     if block.thread_rank() == 0 {
//!         let tiles = img.tiles();
//!         // SAFETY: one copy of 1 KiB in flight on this phase.
//!         unsafe { full.arrive_copy_tile(tile.as_slice(), &tiles, 16 * bx as i32, 16 * by as i32) }
//!             .discard();
//!     }
//!     full.wait_parity(0);
//!     let t = block.thread_rank() as usize;
//!     let v = tile.load(t);
//!     out[(by * 3 + bx) as usize].fetch_add(v, core::sync::atomic::Ordering::Relaxed);
//! }
//! let data: Vec<u32> = (0..40 * 20).collect();
//! let sums: Vec<core::sync::atomic::AtomicU32> = (0..6).map(|_| 0.into()).collect();
//! let map: TensorMap2d<u32, 16, 16> =
//!     cooperative_groups::host::tensor_map(Image::new(&data[..], 40, 20, 40)).unwrap();
//! cg_sim::launch(&cg_sim::LaunchConfig::new((3, 2, 1), 256), &|| tile_sums(map, &sums)).unwrap();
//! let want = |bx: u32, by: u32| -> u32 {
//!     (16 * by..(16 * by + 16).min(20))
//!         .flat_map(|y| (16 * bx..(16 * bx + 16).min(40)).map(move |x| y * 40 + x))
//!         .sum()
//! };
//! assert_eq!(sums[4].load(core::sync::atomic::Ordering::Relaxed), want(1, 1));
//! ```
//!
//! # What is checked, and where
//!
//! The box is part of the type: its size in bytes, and the shared tile it
//! fills, are known at compile time (`BW × size_of::<T>()` a multiple of
//! 16 bytes — exactly the swizzle's width when swizzled —, `BW` and `BH`
//! in `1..=256`: errors when the program is built). The shared side must
//! be aligned as the layout needs (128 bytes dense: `shared_array!(T; N,
//! align 128)`; 256, 512 or 1024 bytes swizzled) and hold the box, and
//! a box's x coordinate must be a multiple of 16 bytes (the copy engine
//! raises an illegal-instruction error otherwise): a panic on the
//! simulator, a trap on the GPU. The map's tensor
//! is checked against its buffer on the host. The simulator reports a
//! tile read before its phase completes, a store's source written before
//! its reads are waited for, a thread exiting with such a store, and
//! races on either side (the copies are weak accesses of the issuing
//! thread).
//!
//! # One, four and five dimensions
//!
//! [`TensorMap4d`] and [`TensorMap5d`] (and their writable twins) are
//! `CUtensorMap`s of rank 4 and 5, whose boxes are `B0 × B1 × B2 × B3 (×
//! B4)` elements, dimension 0 innermost — the shapes of batched,
//! multi-head tensors; [`TensorMap1d`] moves a row of `B0` elements whose
//! parts outside the tensor load as zeros (where a 1-D bulk copy,
//! [`Mbarrier::arrive_copy`], must lie inside its source). Coordinates are arrays, innermost first, as
//! `cuda::ptx`'s `cp_async_bulk_tensor` takes them; `cg-runtime`'s
//! `Backend::tensor_map_nd` (or [`TensorNd`](crate::host::TensorNd) on the
//! simulator) makes them from a shape and strides.
//!
//! The rules are the 2-D maps' for dimensions 0 and 1 (a box row a
//! multiple of 16 bytes, exactly the swizzle's width when swizzled), every
//! side `1..=256`, and the box's x coordinate a multiple of 16 bytes
//! (checked at the copy). A full kernel, run on the simulator:
//!
//! ```
//! use cooperative_groups::prelude::*;
//! use cooperative_groups::host::TensorNd;
//! use cooperative_groups::tma::{TensorMap4d, TensorMap4dMut};
//! use cooperative_groups::{kernel, mbarrier, shared_array};
//!
//! /// Moves the 8 × 2 × 2 × 2 box at `at` of `src` to the same place of
//! /// `dst`, adding 1 to every element on the way.
//! #[kernel]
//! fn bump_box(src: TensorMap4d<u32, 8, 2, 2, 2>, dst: TensorMap4dMut<u32, 8, 2, 2, 2>, at: [i32; 4]) {
//!     let block = this_thread_block();
//!     let full = mbarrier!(&block, 1);
//!     let tile = shared_array!(u32; 64, align 128);
//!     if block.thread_rank() == 0 {
//!         // SAFETY: one 256-byte copy in flight on the phase.
//!         unsafe { full.arrive_copy_tile_4d(tile.as_slice(), &src.tiles(), at) }.discard();
//!     }
//!     full.wait_parity(0);
//!     let r = block.thread_rank() as usize;
//!     tile.store(r, tile.load(r) + 1);
//!     // SAFETY: the launch's only store into `dst`; `tile` not written again.
//!     unsafe { dst.tiles_mut(&block).store_tile(&block, tile.as_slice(), at) }.wait_read(&block);
//! }
//!
//! let (dims, strides) = ([16, 3, 2, 2], [16, 48, 96]);
//! let src: Vec<u32> = (0..192).collect();
//! let mut dst = vec![0u32; 192];
//! cooperative_groups::host::run(
//!     &BUMP_BOX,
//!     &cg_sim::LaunchConfig::linear(1, 64),
//!     (TensorNd::new(&src[..], dims, strides), TensorNd::new(&mut dst[..], dims, strides), [8, 2, 0, 1]),
//! )
//! .unwrap();
//! // Element (x, y, z, w) is at x + 16 y + 48 z + 96 w. The box covers
//! // x 8..16, y 2..4, z 0..2, w 1..3: inside the tensor, y 2 and w 1 only.
//! assert_eq!(dst[8 + 2 * 16 + 96], src[8 + 2 * 16 + 96] + 1);
//! assert_eq!(dst[15 + 2 * 16 + 48 + 96], src[15 + 2 * 16 + 48 + 96] + 1);
//! assert_eq!(dst[8 + 16 + 96], 0); // y 1 is outside the box
//! assert_eq!(dst.iter().filter(|&&v| v != 0).count(), 8 * 2);
//! ```

use core::marker::PhantomData;

use crate::Pod;
use crate::arch;

mod layout;
#[macro_use]
mod map_core;
mod nd;
mod volume;
#[cfg(any(not(target_arch = "nvptx64"), target_feature = "sm_90"))]
use crate::mbarrier::{ArrivalToken, Mbarrier};
#[cfg(any(not(target_arch = "nvptx64"), target_feature = "sm_90"))]
use crate::{SharedSlice, ThreadBlock};
pub use layout::{Dense, Swizzle32B, Swizzle64B, Swizzle128B, TileLayout};
pub use map_core::RankedMap;
pub use nd::{
    TensorMap1d, TensorMap1dMut, TensorMap4d, TensorMap4dMut, TensorMap5d, TensorMap5dMut,
    TensorTiles1d, TensorTiles4d, TensorTiles5d, TensorTilesMut1d, TensorTilesMut4d,
    TensorTilesMut5d,
};
pub use volume::{TensorMap3d, TensorMap3dMut, TensorTiles3d, TensorTilesMut3d};

/// The largest box side the copy engine takes.
pub const MAX_BOX: u32 = 256;

/// The alignment, in bytes, of a [`Dense`] tile in shared memory (a
/// swizzled one needs its pattern's period: `TensorMap2d::TILE_ALIGN`).
pub const TILE_ALIGN: usize = 128;

/// A read-only 2-D tensor of `T` in global memory, whose tile copies move
/// `BW × BH` boxes: a kernel parameter (a safe one: loads are
/// bounds-checked by the copy engine). Row-major: element `(x, y)` is at
/// `y · pitch + x`.
#[repr(C, align(16))]
pub struct TensorMap2d<'a, T, const BW: u32, const BH: u32, L: TileLayout = Dense> {
    /// The driver's 128-byte map (zeros on the simulator), read in place
    /// by the copy engine: first, so that it is 64-byte aligned in
    /// parameter space (cg-build aligns the parameter).
    raw: [u64; 16],
    desc: arch::TensorDesc,
    _t: PhantomData<(&'a (), *const T, L)>,
}

/// A 2-D tensor of `T` that this launch may also write, with tile stores
/// ([`TensorTilesMut::store_tile`]): from an exclusive borrow of its
/// buffer. [`as_read`](Self::as_read) gives its loads.
#[repr(C, align(16))]
pub struct TensorMap2dMut<'a, T, const BW: u32, const BH: u32, L: TileLayout = Dense> {
    raw: [u64; 16],
    desc: arch::TensorDesc,
    _t: PhantomData<(&'a (), *mut T, L)>,
}

macro_rules! map_common {
    ($ty:ident, $writable:literal) => {
        map_core!(2, $ty, $writable, [BW, BH]);

        impl<'a, T: Pod, const BW: u32, const BH: u32, L: TileLayout> $ty<'a, T, BW, BH, L> {
            /// Where element `(x, y)` of the box (`x < BW`, `y < BH`) lies
            /// in its shared tile, in elements: `y · BW + x` for
            /// [`Dense`] tiles, permuted by the swizzle otherwise.
            ///
            /// ```
            /// use cooperative_groups::tma::{Swizzle128B, TensorMap2d};
            /// type Dense = TensorMap2d<'static, f32, 32, 8>;
            /// type Swizzled = TensorMap2d<'static, f32, 32, 8, Swizzle128B>;
            /// assert_eq!(Dense::tile_index(5, 3), 3 * 32 + 5);
            /// // Row 3's chunk 1 (elements 4..8) sits in chunk 1 ^ 3 = 2.
            /// assert_eq!(Swizzled::tile_index(5, 3), 3 * 32 + 9);
            /// ```
            #[inline(always)]
            pub const fn tile_index(x: u32, y: u32) -> usize {
                let elem = core::mem::size_of::<T>();
                L::SWIZZLE.apply((y as usize * BW as usize + x as usize) * elem) / elem
            }

            /// The descriptor of a tensor: `raw`, its 128-byte tensor map
            /// as the driver encoded it (zeros on the simulator), and the
            /// tensor it was encoded from: `width × height` elements from
            /// `base`, rows `pitch` elements apart.
            ///
            /// # Safety
            /// On the GPU `raw` must be a tensor map of exactly this
            /// tensor and box; the tensor's memory must stay valid (and,
            /// for reads, unwritten by anything else) for the launch.
            #[doc(hidden)]
            pub unsafe fn from_raw_parts(
                raw: [u64; 16],
                base: *const T,
                width: u32,
                height: u32,
                pitch: usize,
            ) -> Self {
                // SAFETY: the caller's contract.
                unsafe { Self::from_desc_parts(raw, base, &[width, height], &[pitch]) }
            }

            /// Elements per row.
            #[inline(always)]
            pub fn width(&self) -> u32 {
                self.desc.dims[0]
            }

            /// Rows.
            #[inline(always)]
            pub fn height(&self) -> u32 {
                self.desc.dims[1]
            }

            /// Boxes across a row (the last one may stick out).
            #[inline(always)]
            pub fn tiles_x(&self) -> u32 {
                self.desc.dims[0].div_ceil(BW)
            }

            /// Boxes down a column.
            #[inline(always)]
            pub fn tiles_y(&self) -> u32 {
                self.desc.dims[1].div_ceil(BH)
            }
        }
    };
}
map_common!(TensorMap2d, false);
map_common!(TensorMap2dMut, true);

/// The tile loads of a [`TensorMap2d`] for the thread that made it (the
/// tensor map fenced for its copy engine): from
/// [`TensorMap2d::tiles`]. Not `Pod` nor a shuffle value, so it cannot
/// reach another thread.
#[derive(Clone, Copy)]
pub struct TensorTiles<'a, T, const BW: u32, const BH: u32, L: TileLayout = Dense> {
    // By value, in registers: a reference would point at a local copy of
    // the kernel parameter.
    desc: arch::TensorDesc,
    _t: PhantomData<(&'a *const T, L)>,
}

/// The tile loads and stores of a [`TensorMap2dMut`] for a block (thread 0
/// issues them): from [`TensorMap2dMut::tiles_mut`].
pub struct TensorTilesMut<'a, T, const BW: u32, const BH: u32, L: TileLayout = Dense> {
    desc: arch::TensorDesc,
    _t: PhantomData<(&'a *mut T, L)>,
}

impl<'a, T: Pod, const BW: u32, const BH: u32, L: TileLayout> TensorMap2d<'a, T, BW, BH, L> {
    /// This thread's tile loads, the map prefetched into the copy
    /// engine's cache (`prefetch.tensormap`). Once per thread that issues
    /// copies, before its first.
    #[cfg(any(not(target_arch = "nvptx64"), target_feature = "sm_90"))]
    #[inline(always)]
    pub fn tiles(&self) -> TensorTiles<'_, T, BW, BH, L> {
        // SAFETY: a map made by `from_raw_parts` whose contract makes `raw`
        // a tensor map, and placed by `in_place` at the kernel's entry.
        unsafe { arch::tensormap_prefetch(&self.desc) };
        TensorTiles {
            desc: self.desc,
            _t: PhantomData,
        }
    }
}

impl<'a, T: Pod, const BW: u32, const BH: u32, L: TileLayout> TensorMap2dMut<'a, T, BW, BH, L> {
    /// The map's loads, as a read-only map.
    #[inline(always)]
    pub fn as_read(&self) -> TensorMap2d<'a, T, BW, BH, L> {
        TensorMap2d {
            raw: self.raw,
            desc: self.desc,
            _t: PhantomData,
        }
    }

    /// The block's tile loads and stores: a collective handle of `block`,
    /// whose thread 0 issues the stores (so it alone prefetches the map,
    /// as [`TensorMap2d::tiles`] does).
    #[cfg(any(not(target_arch = "nvptx64"), target_feature = "sm_90"))]
    #[inline(always)]
    pub fn tiles_mut<const M: u32>(
        &self,
        block: &ThreadBlock<M>,
    ) -> TensorTilesMut<'_, T, BW, BH, L> {
        if block.thread_rank() == 0 {
            // SAFETY: as in `TensorMap2d::tiles`.
            unsafe { arch::tensormap_prefetch(&self.desc) };
        }
        TensorTilesMut {
            desc: self.desc,
            _t: PhantomData,
        }
    }
}

/// Checks a tile copy of a box of `shape`: the shared tile aligned as the
/// layout needs and room for the box, and the box's innermost coordinate
/// `x` a multiple of 16 bytes (`x · size_of::<T>()`, negative ones too) —
/// the copy engine raises an illegal-instruction error otherwise (H200:
/// an 8-byte `x` did at commit dfa3957,
/// `git show f66ff74:docs/results/h200/runs/2026-12-04-tma-probes-dfa3957/README.md`).
#[cfg(any(not(target_arch = "nvptx64"), target_feature = "sm_90"))]
#[inline(always)]
#[track_caller]
fn check_tile<T: Pod>(what: &str, tile: &SharedSlice<T>, shape: arch::BoxShape, x: i32) {
    let len = shape.boxdim.iter().map(|&b| b as usize).product::<usize>();
    let align = shape.swizzle.align();
    if !(tile.as_ptr() as usize).is_multiple_of(align) || tile.len() < len {
        crate::group::violation!(
            "{what}: the shared tile must be {align}-byte aligned (shared_array!(T; N, align \
             {align})) and hold the box ({len} elements; got {})",
            tile.len()
        );
    }
    if (x as i64 * core::mem::size_of::<T>() as i64) % 16 != 0 {
        crate::group::violation!(
            "{what}: the box's x coordinate must be a multiple of 16 bytes ({x} elements of {} \
             bytes)",
            core::mem::size_of::<T>()
        );
    }
}

#[cfg(any(not(target_arch = "nvptx64"), target_feature = "sm_90"))]
impl Mbarrier {
    /// The tile loads of every rank (`arrive_copy_tile`, `_1d`, `_3d`,
    /// …), named `what` in their violations: the checks, then one arrival
    /// expecting the box's bytes and the rank-`R` copy of the box of
    /// `shape` at `at` of `desc` into `dst`.
    ///
    /// # Safety
    /// `desc` a fenced map (a `tiles()` handle) of rank `R` whose box and
    /// layout are `shape`; the caller's contract of `arrive_copy_tile`.
    #[inline(always)]
    #[track_caller]
    pub(crate) unsafe fn load_box<T: Pod, const R: u32>(
        &self,
        what: &str,
        dst: SharedSlice<T>,
        desc: &arch::TensorDesc,
        at: arch::TensorAt,
        shape: arch::BoxShape,
    ) -> ArrivalToken {
        check_tile(what, &dst, shape, at[0]);
        arch::sim_only! {
            if !dst.own("tile load destination") {
                return self.token(0);
            }
        }
        // SAFETY: an initialised barrier (one arrival never outnumbers a
        // phase); `desc` a fenced map of this box (the caller's contract);
        // `dst` is this block's shared memory, checked above, in flight
        // until the phase completes (the simulator checks it); the phase's
        // transaction count gains and loses exactly the box's bytes, in
        // range by the caller's contract.
        let state = unsafe {
            arch::tensor_load_arrive::<R>(self.addr(), dst.as_ptr().cast(), desc, at, shape)
        };
        self.token(state)
    }
}

#[cfg(any(not(target_arch = "nvptx64"), target_feature = "sm_90"))]
impl TileStore {
    /// The tile stores of every rank (`store_tile` of each map), named
    /// `what` in their violations: the checks, the block's steps before a
    /// store ([`begin`](Self::begin)), and thread 0's rank-`R` store of
    /// `src` into the box of `shape` at `at` of `desc`, in a bulk group of
    /// its own.
    ///
    /// # Safety
    /// `desc` a fenced map of writable memory (a `tiles_mut()` handle) of
    /// rank `R` whose box and layout are `shape`; the caller's contract of
    /// `TensorTilesMut::store_tile`.
    #[inline(always)]
    #[track_caller]
    pub(crate) unsafe fn store_box<T: Pod, const R: u32, const M: u32>(
        what: &str,
        block: &ThreadBlock<M>,
        src: SharedSlice<T>,
        desc: &arch::TensorDesc,
        at: arch::TensorAt,
        shape: arch::BoxShape,
    ) -> TileStore {
        check_tile(what, &src, shape, at[0]);
        arch::sim_only! {
            if !src.own("tile store source") {
                return TileStore { leader: false };
            }
        }
        let leader = TileStore::begin(block);
        if leader {
            // SAFETY: a fenced map of writable memory with this box (the
            // caller's contract); `src` checked above, written by the block
            // before the barrier and fenced for the async proxy; the
            // caller's contract keeps the box and `src` to this store.
            unsafe { arch::tensor_store::<R>(desc, at, src.as_ptr().cast(), shape) };
            arch::bulk_commit_group();
        }
        TileStore { leader }
    }
}

#[cfg(any(not(target_arch = "nvptx64"), target_feature = "sm_90"))]
impl Mbarrier {
    /// One arrival that also copies the box at `(x, y)` (elements) of
    /// `tiles`' tensor into `dst` with the copy engine
    /// (`cp.async.bulk.tensor.2d`, sm_90), the phase waiting for its
    /// bytes; then [`ArrivalToken::wait`] (or a parity wait) by whoever
    /// reads `dst`. Elements of the box outside the tensor arrive as
    /// zeros. CUDA's `cuda::ptx::mbarrier_arrive_expect_tx` +
    /// `cp_async_bulk_tensor` in one call that cannot get the byte count
    /// wrong. Nothing may touch `dst` until the phase completes (the
    /// simulator reports an access before).
    ///
    /// # Panics
    /// (traps on the GPU) Unless `dst` is 128-byte aligned and holds the
    /// box.
    ///
    /// # Safety
    /// As [`arrive_copy`](Mbarrier::arrive_copy): the bytes of every copy
    /// of the phase still in flight must total less than `2^20`.
    #[cfg(any(not(target_arch = "nvptx64"), target_feature = "sm_90"))]
    #[inline(always)]
    #[track_caller]
    pub unsafe fn arrive_copy_tile<T: Pod, const BW: u32, const BH: u32, L: TileLayout>(
        &self,
        dst: SharedSlice<T>,
        tiles: &TensorTiles<'_, T, BW, BH, L>,
        x: i32,
        y: i32,
    ) -> ArrivalToken {
        // SAFETY: `tiles` holds a fenced map (`TensorMap2d::tiles`) of
        // this box; the caller's contract.
        unsafe {
            self.load_box::<T, 2>(
                "Mbarrier::arrive_copy_tile",
                dst,
                &tiles.desc,
                arch::tensor_at([x, y]),
                TensorMap2d::<T, BW, BH, L>::SHAPE,
            )
        }
    }
}

#[cfg(any(not(target_arch = "nvptx64"), target_feature = "sm_90"))]
impl Mbarrier {
    /// The tile copy of [`arrive_copy_tile`](Self::arrive_copy_tile)
    /// delivered to every block of the cluster whose rank is in `blocks`
    /// (bit `r` for rank `r`; this block's bit may be set or not): one read
    /// of global memory, the box landing at `dst`'s offset in each of those
    /// blocks and completing its bytes on the barrier at this barrier's
    /// offset there (the same `mbarrier!` of the kernel). CUDA's
    /// `cp.async.bulk.tensor…multicast::cluster`. No arrival: each
    /// receiving block expects the bytes on its own barrier —
    /// `arrive_expect_tx(TensorMap2d::<T, BW, BH, L>::BOX_BYTES)` by one of
    /// its threads, before or after the copy is issued — and waits on the
    /// phase before reading its tile.
    ///
    /// ```
    /// # use cooperative_groups::{prelude::*, mbarrier, shared_array, this_cluster};
    /// # use cooperative_groups::tma::TensorMap2d;
    /// # use cooperative_groups::host::Image;
    /// # use core::sync::atomic::{AtomicU32, Ordering::Relaxed};
    /// type Tiles<'a> = TensorMap2d<'a, u32, 8, 8>;
    /// // Rank 0 of each cluster of two loads one 8 × 8 tile for both blocks.
    /// fn broadcast(img: Tiles<'_>, out: &[AtomicU32]) {
    ///     let block = this_thread_block();
    ///     let cluster = this_cluster();
    ///     let full = mbarrier!(&block, 1);
    ///     let tile = shared_array!(u32; 64, align 128);
    ///     cluster.sync(); // every block's barrier initialised
    ///     if block.thread_rank() == 0 {
    ///         // SAFETY: this block's phase expects the box's 256 bytes.
    ///         unsafe { full.arrive_expect_tx(Tiles::BOX_BYTES) }.discard();
    ///         if cluster.block_rank() == 0 {
    ///             // SAFETY: both blocks' barriers are initialised and
    ///             // expect the bytes; neither touches its tile until then.
    ///             unsafe { full.copy_tile_multicast(tile.as_slice(), &img.tiles(), 0, 0, 0b11) };
    ///         }
    ///     }
    ///     full.wait_parity(0);
    ///     let t = block.thread_rank() as usize;
    ///     out[cluster.block_rank() as usize * 64 + t].store(tile.load(t), Relaxed);
    ///     cluster.sync(); // no block exits while a copy may still reach it
    /// }
    /// let data: Vec<u32> = (0..64).collect();
    /// let out: Vec<AtomicU32> = (0..128).map(|_| AtomicU32::new(0)).collect();
    /// let map: Tiles = cooperative_groups::host::tensor_map(Image::new(&data[..], 8, 8, 8)).unwrap();
    /// let cfg = cg_sim::LaunchConfig::new(2, 64).with_cluster(2);
    /// cg_sim::launch(&cfg, &|| broadcast(map, &out)).unwrap();
    /// assert!((0..128).all(|i| out[i].load(Relaxed) == i as u32 % 64));
    /// ```
    ///
    /// # Panics
    /// (traps on the GPU) Unless `dst` is aligned as the layout needs and
    /// holds the box.
    ///
    /// # Safety
    /// For every block of `blocks`: it is a block of this cluster that has
    /// not exited, its barrier at this offset was initialised before the
    /// copy was issued (a cluster barrier after the initialisation), its
    /// current phase expects these bytes (the bytes of its copies in flight
    /// below `2^20`), and nothing of it reads or writes its copy of `dst`
    /// — nor does another copy still fill it — until that phase completes.
    /// The simulator reports a mask outside the cluster, a barrier not
    /// initialised when the copy is issued, a destination another copy
    /// still fills, a read of a tile before its phase completes (a race
    /// with the copy, or a read of memory still being filled), and a phase
    /// that never gets its bytes (the waiters' deadlock).
    #[inline(always)]
    #[track_caller]
    pub unsafe fn copy_tile_multicast<T: Pod, const BW: u32, const BH: u32, L: TileLayout>(
        &self,
        dst: SharedSlice<T>,
        tiles: &TensorTiles<'_, T, BW, BH, L>,
        x: i32,
        y: i32,
        blocks: u16,
    ) {
        check_tile(
            "Mbarrier::copy_tile_multicast",
            &dst,
            TensorMap2d::<T, BW, BH, L>::SHAPE,
            x,
        );
        arch::sim_only! {
            if !dst.own("tile load destination") {
                return;
            }
        }
        // SAFETY: `tiles` holds a fenced map of this box; `dst` is this
        // block's shared memory, checked above (so is the same offset in
        // every block of the cluster: the kernel's layout); the caller's
        // contract covers every receiving block's barrier, phase and tile.
        unsafe {
            arch::tensor_load_multicast(
                self.addr(),
                dst.as_ptr().cast(),
                &tiles.desc,
                arch::tensor_at([x, y]),
                blocks,
                TensorMap2d::<T, BW, BH, L>::SHAPE,
            )
        }
    }
}

/// A tile store in flight, from [`TensorTilesMut::store_tile`] (or a bulk
/// store, from [`Window::store_bulk`](crate::global::Window::store_bulk)): its source
/// may be written again after [`wait_read`](Self::wait_read) or the
/// block's next `store_tile` (which waits for every earlier store's reads
/// before its barrier).
#[must_use = "wait for the store's reads (wait_read) before the block exits, or store again"]
pub struct TileStore {
    leader: bool,
}

impl<T: Pod, const BW: u32, const BH: u32, L: TileLayout> TensorTilesMut<'_, T, BW, BH, L> {
    /// The loads of this map (as [`TensorMap2d::tiles`]), for thread 0 of
    /// the block, which prefetched the map.
    #[inline(always)]
    pub fn as_read(&self) -> TensorTiles<'_, T, BW, BH, L> {
        TensorTiles {
            desc: self.desc,
            _t: PhantomData,
        }
    }

    /// Stores the tile `src` into the box at `(x, y)` (elements; the parts
    /// outside the tensor are not written), as a collective of `block`:
    /// every thread fences its shared writes for the copy engine
    /// (`fence.proxy.async.shared::cta`), thread 0 waits until its earlier
    /// stores have read their sources (`cp.async.bulk.wait_group.read 0`),
    /// the block syncs, and thread 0 issues the store
    /// (`cp.async.bulk.tensor.2d.global.shared::cta`) in a bulk group of
    /// its own. So what the block wrote to `src` before the call is what
    /// lands, and after the call every earlier store's source is free
    /// again: with two tiles the block fills one while the other's store
    /// is in flight.
    ///
    /// # Panics
    /// (traps on the GPU) Unless `src` is 128-byte aligned and holds the
    /// box.
    ///
    /// # Safety
    /// * Nothing else of the launch reads or writes the box's elements in
    ///   the tensor (another block's store included) while this store may
    ///   be in flight: the tensor's writes are this block's.
    /// * `src` is not written until the block's next `store_tile` or
    ///   [`TileStore::wait_read`] returns, and the block calls one of them
    ///   after its last store, before it exits.
    ///
    /// The simulator reports each: a race, a misuse at the write, a misuse
    /// at the exit.
    #[cfg(any(not(target_arch = "nvptx64"), target_feature = "sm_90"))]
    #[inline(always)]
    #[track_caller]
    pub unsafe fn store_tile<const M: u32>(
        &self,
        block: &ThreadBlock<M>,
        src: SharedSlice<T>,
        x: i32,
        y: i32,
    ) -> TileStore {
        // SAFETY: a fenced map of writable memory with this box
        // (`TensorMap2dMut::tiles_mut`); the caller's contract.
        unsafe {
            TileStore::store_box::<T, 2, M>(
                "TensorTilesMut::store_tile",
                block,
                src,
                &self.desc,
                arch::tensor_at([x, y]),
                TensorMap2dMut::<T, BW, BH, L>::SHAPE,
            )
        }
    }
}

#[cfg(any(not(target_arch = "nvptx64"), target_feature = "sm_90"))]
impl<T: Pod, const W: usize> crate::global::Window<'_, T, crate::global::PerBlock<W>> {
    /// Stores the block's window of an [`OwnedSlice`](crate::OwnedSlice)
    /// from the first [`len`](crate::global::Window::len) elements of
    /// `src` with the bulk-copy engine (sm_90's `cp.async.bulk.global.
    /// shared::cta`), as a collective of `block`: the same steps as
    /// [`TensorTilesMut::store_tile`] — every thread fences its shared
    /// writes, thread 0 waits for its earlier stores' reads, the block
    /// syncs, thread 0 stores the window's whole 16-byte granules in one
    /// bulk copy and the few bytes past them with plain stores. The window
    /// is the block's (the partition says so), so no other block writes it.
    ///
    /// # Panics
    /// (traps on the GPU) Unless `src` holds the window and both sides are
    /// 16-byte aligned (`W · size_of::<T>()` a multiple of 16, the slice's
    /// memory 16-byte aligned, as allocations are).
    ///
    /// # Safety
    /// * No thread of the block reads or writes the window's elements
    ///   while the store may be in flight (until the block's next store or
    ///   [`TileStore::wait_read`]).
    /// * `src` is not written until then, and the block waits before it
    ///   exits.
    ///
    /// The simulator reports the second (a misuse at the write or the
    /// exit).
    #[inline(always)]
    #[track_caller]
    pub unsafe fn store_bulk<const M: u32>(
        &self,
        block: &ThreadBlock<M>,
        src: SharedSlice<T>,
    ) -> TileStore {
        const {
            assert!(
                16 % core::mem::size_of::<T>() == 0,
                "store_bulk: the element size divides 16 bytes"
            )
        };
        let (dst, len) = self.raw_parts();
        let whole = (len * core::mem::size_of::<T>()) & !15;
        if src.len() < len || !(src.as_ptr() as usize | dst as usize).is_multiple_of(16) {
            crate::group::violation!(
                "Window::store_bulk: the shared source must hold the window ({len} elements; got \
                 {}) and both sides be 16-byte aligned",
                src.len()
            );
        }
        arch::sim_only! {
            if !src.own("bulk store source") {
                return TileStore { leader: false };
            }
        }
        let leader = TileStore::begin(block);
        if leader {
            if whole > 0 {
                // SAFETY: the block's own window (its partition), 16-byte
                // aligned and `whole` bytes long; `src` holds it, written
                // before the barrier and fenced for the async proxy; the
                // caller's contract keeps both to this store.
                unsafe { arch::bulk_store(dst.cast(), src.as_ptr().cast(), whole as u32) };
            }
            for i in whole / core::mem::size_of::<T>()..len {
                self.elem_at(i).store(src.load(i));
            }
            arch::bulk_commit_group();
        }
        TileStore { leader }
    }
}

#[cfg(any(not(target_arch = "nvptx64"), target_feature = "sm_90"))]
impl TileStore {
    /// The first steps of a block's bulk store (`store_tile`,
    /// `Window::store_bulk`), as a collective of `block`: every thread
    /// fences its shared writes for the copy engine, thread 0 waits until
    /// its earlier stores have read their sources, the block syncs.
    /// Whether the caller is thread 0, which then issues the store.
    #[inline(always)]
    #[track_caller]
    fn begin<const M: u32>(block: &ThreadBlock<M>) -> bool {
        let leader = block.thread_rank() == 0;
        arch::fence_proxy_async_shared();
        TileStore { leader }.wait_read(block);
        leader
    }

    /// Waits until the store (and every earlier one of the block) has read
    /// its source, then syncs `block`: the sources may be written again,
    /// and the block may exit. A collective of the block that stored.
    #[inline(always)]
    #[track_caller]
    pub fn wait_read<const M: u32>(self, block: &ThreadBlock<M>) {
        if self.leader {
            arch::bulk_wait_group_read();
        }
        block.sync();
    }
}

impl TileStore {
    /// Drops the token without waiting: the block's next `store_tile`
    /// waits for this store's reads before its barrier.
    #[inline(always)]
    pub fn discard(self) {}
}
