//! [`WarpLoad`]: a tile of `W · ITEMS` items from global memory into the
//! registers of a tile of `W ≤ 32` threads (CUB's `WarpLoad`).

use core::marker::PhantomData;

use super::Lanes;
use super::exchange::WarpExchange;
use crate::group::{Size, ThreadBlockTile, WarpTileSize};
use crate::primitives::algorithm::{Kind, NoStorage, WarpAlgorithm};
use crate::primitives::direct;
use crate::primitives::storage::{NeedsTempStorage, Smem, TempStorage};
use crate::value::ShflValue;

/// Loads a tile of `W · ITEMS` items into a tile of `W` threads with
/// algorithm `A` ([`Direct`](crate::primitives::Direct),
/// [`Striped`](crate::primitives::Striped),
/// [`Vectorize`](crate::primitives::Vectorize),
/// [`Transpose`](crate::primitives::Transpose); see
/// [`algorithm`](crate::primitives::algorithm)). Every algorithm but
/// `Striped` gives the blocked arrangement.
///
/// `src` starts at the warp's tile (`&input[warp_offset..]`); a full load
/// needs all `W · ITEMS` items inside it, a partial load reads the first
/// `valid` (and no more than `src.len()`) and gives the others `oob`.
///
/// ```
/// use cooperative_groups::prelude::*;
/// use cooperative_groups::primitives::{Transpose, WarpLoad};
/// use cooperative_groups::temp_storage;
/// # let dev = cg_sim::SimDevice { stack_size: 4 << 20, ..Default::default() };
/// let input: Vec<u32> = (0..100).collect();
/// # cg_sim::launch_on(&dev, &cg_sim::LaunchConfig::new(1, 64), &|| {
/// let tile = tiled_partition::<32>(&this_thread_block());
/// let temp = temp_storage!([WarpLoad<u32, 2, Transpose>; 2]);
/// let w = tile.meta_group_rank();
/// let load = WarpLoad::<u32, 2, Transpose>::new(&tile, &temp.part(w));
/// // Coalesced loads, blocked items; the second warp's tile has 36 items.
/// let items = load.load_partial(&input[64 * w as usize..], 64, 0);
/// # let r = 64 * w + 2 * tile.thread_rank();
/// # let want = |k: u32| if k < 100 { k } else { 0 };
/// # assert_eq!(items, [want(r), want(r + 1)]);
/// # }).unwrap();
/// ```
pub struct WarpLoad<T, const ITEMS: usize, A = crate::primitives::Direct, const W: u32 = 32> {
    lanes: Lanes,
    smem: Smem,
    _t: PhantomData<fn() -> (T, A)>,
}

/// The storage of the warp loads and stores with algorithm `A`.
pub(crate) const fn warp_temp_bytes<T, A: WarpAlgorithm, const ITEMS: usize, const W: u32>() -> usize
{
    match A::KIND {
        Kind::Transpose => <WarpExchange<T, ITEMS, W> as NeedsTempStorage>::TEMP_BYTES,
        _ => 0,
    }
}

impl<T, const ITEMS: usize, A: WarpAlgorithm, const W: u32> NeedsTempStorage
    for WarpLoad<T, ITEMS, A, W>
{
    const TEMP_BYTES: usize = warp_temp_bytes::<T, A, ITEMS, W>();
}

impl<T: ShflValue, const ITEMS: usize, A: WarpAlgorithm, const W: u32> WarpLoad<T, ITEMS, A, W>
where
    Size<W>: WarpTileSize,
{
    /// The load for `tile`, exchanging (for `Transpose`) in `temp`: the
    /// tile's own part of the kernel's storage.
    #[inline(always)]
    #[track_caller]
    pub fn new<L: NeedsTempStorage>(tile: &ThreadBlockTile<W>, temp: &TempStorage<L>) -> Self {
        const { assert!(ITEMS > 0, "a thread holds at least one item") };
        Self::from_parts(Lanes::of(tile), temp.smem::<Self>())
    }

    #[inline(always)]
    pub(crate) fn from_parts(lanes: Lanes, smem: Smem) -> Self {
        WarpLoad {
            lanes,
            smem,
            _t: PhantomData,
        }
    }

    /// Loads the full tile at the start of `src`.
    ///
    /// # Panics
    /// The caller's items must lie inside `src` (contract violation
    /// otherwise).
    #[inline(always)]
    #[track_caller]
    pub fn load(&self, src: &[T]) -> [T; ITEMS] {
        let r = self.lanes.rank;
        match A::KIND {
            Kind::Direct => direct::load_blocked(r, src),
            Kind::Striped => direct::load_striped::<W, T, ITEMS>(r, src),
            Kind::Vectorize => direct::load_blocked_vectorized(r, src),
            _ => {
                let x = direct::load_striped::<W, T, ITEMS>(r, src);
                WarpExchange::<T, ITEMS, W>::from_parts(self.lanes, self.smem).striped_to_blocked(x)
            }
        }
    }

    /// Loads the first `valid` items of the tile at the start of `src`
    /// (no more than `src.len()`); the others are `oob`.
    #[inline(always)]
    #[track_caller]
    pub fn load_partial(&self, src: &[T], valid: usize, oob: T) -> [T; ITEMS] {
        let r = self.lanes.rank;
        match A::KIND {
            Kind::Direct | Kind::Vectorize => direct::load_blocked_partial(r, src, valid, oob),
            Kind::Striped => direct::load_striped_partial::<W, T, ITEMS>(r, src, valid, oob),
            _ => {
                let x = direct::load_striped_partial::<W, T, ITEMS>(r, src, valid, oob);
                WarpExchange::<T, ITEMS, W>::from_parts(self.lanes, self.smem).striped_to_blocked(x)
            }
        }
    }
}

impl<T: ShflValue, const ITEMS: usize, A: WarpAlgorithm + NoStorage, const W: u32>
    WarpLoad<T, ITEMS, A, W>
where
    Size<W>: WarpTileSize,
{
    /// The load for `tile`, for the algorithms that need no storage.
    #[inline(always)]
    #[track_caller]
    pub fn without_storage(tile: &ThreadBlockTile<W>) -> Self {
        const { assert!(ITEMS > 0, "a thread holds at least one item") };
        Self::from_parts(Lanes::of(tile), Smem::none())
    }
}
