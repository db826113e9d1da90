//! [`WarpStore`]: a tile of `W ≤ 32` threads' items to global memory
//! (CUB's `WarpStore`).

use core::marker::PhantomData;

use super::Lanes;
use super::exchange::WarpExchange;
use super::load::warp_temp_bytes;
use crate::group::{Size, ThreadBlockTile, WarpTileSize};
use crate::primitives::algorithm::{Kind, NoStorage, WarpAlgorithm};
use crate::primitives::direct;
use crate::primitives::storage::{NeedsTempStorage, Smem, TempStorage};
use crate::value::ShflValue;

/// Stores a tile of `W · ITEMS` items from a tile of `W` threads with
/// algorithm `A` (see [`algorithm`](crate::primitives::algorithm)); the
/// registers hold the blocked arrangement for every algorithm but
/// `Striped`, the striped one for `Striped`.
///
/// ```
/// use cooperative_groups::prelude::*;
/// use cooperative_groups::primitives::{Striped, WarpStore};
/// # let dev = cg_sim::SimDevice { stack_size: 4 << 20, ..Default::default() };
/// let mut out = vec![0u32; 64];
/// let p = out.as_mut_ptr() as usize;
/// # cg_sim::launch_on(&dev, &cg_sim::LaunchConfig::new(1, 32), &|| {
/// let tile = tiled_partition::<32>(&this_thread_block());
/// let r = tile.thread_rank();
/// let store = WarpStore::<u32, 2, Striped>::without_storage(&tile);
/// // SAFETY: the 64 outputs are this warp's, each written by one thread.
/// unsafe { store.store(p as *mut u32, [r, r + 32]) };
/// # }).unwrap();
/// assert_eq!(out, (0..64).collect::<Vec<u32>>());
/// ```
pub struct WarpStore<T, const ITEMS: usize, A = crate::primitives::Direct, const W: u32 = 32> {
    lanes: Lanes,
    smem: Smem,
    _t: PhantomData<fn() -> (T, A)>,
}

impl<T, const ITEMS: usize, A: WarpAlgorithm, const W: u32> NeedsTempStorage
    for WarpStore<T, ITEMS, A, W>
{
    const TEMP_BYTES: usize = warp_temp_bytes::<T, A, ITEMS, W>();
}

impl<T: ShflValue, const ITEMS: usize, A: WarpAlgorithm, const W: u32> WarpStore<T, ITEMS, A, W>
where
    Size<W>: WarpTileSize,
{
    /// The store for `tile`, exchanging (for `Transpose`) in `temp`: the
    /// tile's own part of the kernel's storage.
    #[inline(always)]
    #[track_caller]
    pub fn new<L: NeedsTempStorage>(tile: &ThreadBlockTile<W>, temp: &TempStorage<L>) -> Self {
        const { assert!(ITEMS > 0, "a thread holds at least one item") };
        Self::from_parts(Lanes::of(tile), temp.smem::<Self>())
    }

    #[inline(always)]
    pub(crate) fn from_parts(lanes: Lanes, smem: Smem) -> Self {
        WarpStore {
            lanes,
            smem,
            _t: PhantomData,
        }
    }

    /// Stores the full tile from element 0 of `dst`.
    ///
    /// # Safety
    /// The tile's `W · ITEMS` elements from `dst` must be valid for writes
    /// that no other thread makes concurrently.
    #[inline(always)]
    #[track_caller]
    pub unsafe fn store(&self, dst: *mut T, items: [T; ITEMS]) {
        let r = self.lanes.rank;
        // SAFETY: the caller's contract covers the tile, every arm's stores.
        unsafe {
            match A::KIND {
                Kind::Direct => direct::store_blocked(r, dst, &items),
                Kind::Striped => direct::store_striped::<W, T, ITEMS>(r, dst, &items),
                Kind::Vectorize => direct::store_blocked_vectorized(r, dst, &items),
                _ => {
                    let x = WarpExchange::<T, ITEMS, W>::from_parts(self.lanes, self.smem)
                        .blocked_to_striped(items);
                    direct::store_striped::<W, T, ITEMS>(r, dst, &x)
                }
            }
        }
    }

    /// Stores the first `valid` items of the tile.
    ///
    /// # Safety
    /// As [`store`](Self::store), for the first `valid` elements.
    #[inline(always)]
    #[track_caller]
    pub unsafe fn store_partial(&self, dst: *mut T, valid: usize, items: [T; ITEMS]) {
        let r = self.lanes.rank;
        // SAFETY: the caller's contract covers the first `valid`, every arm's stores.
        unsafe {
            match A::KIND {
                Kind::Direct | Kind::Vectorize => {
                    direct::store_blocked_partial(r, dst, valid, &items)
                }
                Kind::Striped => {
                    direct::store_striped_partial::<W, T, ITEMS>(r, dst, valid, &items)
                }
                _ => {
                    let x = WarpExchange::<T, ITEMS, W>::from_parts(self.lanes, self.smem)
                        .blocked_to_striped(items);
                    direct::store_striped_partial::<W, T, ITEMS>(r, dst, valid, &x)
                }
            }
        }
    }
}

impl<T: ShflValue, const ITEMS: usize, A: WarpAlgorithm + NoStorage, const W: u32>
    WarpStore<T, ITEMS, A, W>
where
    Size<W>: WarpTileSize,
{
    /// The store for `tile`, for the algorithms that need no storage.
    #[inline(always)]
    #[track_caller]
    pub fn without_storage(tile: &ThreadBlockTile<W>) -> Self {
        const { assert!(ITEMS > 0, "a thread holds at least one item") };
        Self::from_parts(Lanes::of(tile), Smem::none())
    }
}
