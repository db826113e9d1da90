//! [`WarpExchange`]: rearranges a tile's items between the blocked and the
//! striped arrangement, or scatters them by rank — through the tile's
//! storage, one `bar.warp.sync` (CUB's `WarpExchange`, shared-memory
//! algorithm).

use core::marker::PhantomData;

use super::Lanes;
use crate::group::violation;
use crate::group::{Size, ThreadBlockTile, WarpTileSize};
use crate::primitives::arrange::{self, padded, tile_bytes};
use crate::primitives::storage::{NeedsTempStorage, Smem, TempStorage};
use crate::value::ShflValue;

/// Rearranges the items of a tile of `W ≤ 32` threads, `ITEMS` per
/// thread, through shared memory (CUB's `WarpExchange<T, ITEMS, W>`).
///
/// Arrangements of the tile's `W · ITEMS` items (see the
/// [primitives](crate::primitives#arrangements)): *blocked* (rank `r`
/// holds items `r · ITEMS + i`) and *striped* (rank `r` holds items
/// `r + i · W`). Each method stores the caller's items, syncs the tile
/// (`bar.warp.sync`) and loads the result; the storage is reusable after
/// the tile's next `sync()`.
///
/// ```
/// use cooperative_groups::prelude::*;
/// use cooperative_groups::primitives::WarpExchange;
/// use cooperative_groups::temp_storage;
/// # let dev = cg_sim::SimDevice { stack_size: 4 << 20, ..Default::default() };
/// # cg_sim::launch_on(&dev, &cg_sim::LaunchConfig::new(1, 64), &|| {
/// let block = this_thread_block();
/// let tile = tiled_partition::<16>(&block);
/// let temp = temp_storage!([WarpExchange<u32, 2, 16>; 4]); // one part per tile
/// let ex = WarpExchange::new(&tile, &temp.part(tile.meta_group_rank()));
/// let r = tile.thread_rank();
/// let striped = ex.blocked_to_striped([2 * r, 2 * r + 1]);
/// assert_eq!(striped, [r, r + 16]);
/// # }).unwrap();
/// ```
pub struct WarpExchange<T, const ITEMS: usize, const W: u32 = 32> {
    lanes: Lanes,
    smem: Smem,
    _t: PhantomData<fn() -> T>,
}

impl<T, const ITEMS: usize, const W: u32> NeedsTempStorage for WarpExchange<T, ITEMS, W> {
    const TEMP_BYTES: usize = tile_bytes::<T>(W as usize * ITEMS, padded(ITEMS));
}

impl<T: ShflValue, const ITEMS: usize, const W: u32> WarpExchange<T, ITEMS, W>
where
    Size<W>: WarpTileSize,
{
    /// The exchange of `tile`'s items in `temp` (the tile's own part of
    /// the kernel's storage; checked when compiled to be large enough).
    #[inline(always)]
    #[track_caller]
    pub fn new<L: NeedsTempStorage>(tile: &ThreadBlockTile<W>, temp: &TempStorage<L>) -> Self {
        const { assert!(ITEMS > 0, "a thread holds at least one item") };
        Self::from_parts(Lanes::of(tile), temp.smem::<Self>())
    }

    #[inline(always)]
    pub(crate) fn from_parts(lanes: Lanes, smem: Smem) -> Self {
        WarpExchange {
            lanes,
            smem,
            _t: PhantomData,
        }
    }

    /// `BlockedToStriped`: the caller's blocked items, as the striped
    /// arrangement gives them to it.
    #[inline(always)]
    #[track_caller]
    pub fn blocked_to_striped(&self, items: [T; ITEMS]) -> [T; ITEMS] {
        arrange::put_blocked(self.smem, self.lanes.rank, &items);
        self.lanes.sync();
        arrange::get_striped(self.smem, self.lanes.rank, W)
    }

    /// `StripedToBlocked`: the inverse of
    /// [`blocked_to_striped`](Self::blocked_to_striped).
    #[inline(always)]
    #[track_caller]
    pub fn striped_to_blocked(&self, items: [T; ITEMS]) -> [T; ITEMS] {
        arrange::put_striped(self.smem, self.lanes.rank, W, &items);
        self.lanes.sync();
        arrange::get_blocked(self.smem, self.lanes.rank)
    }

    /// `ScatterToStriped`: item `i` goes to tile position `ranks[i]`; the
    /// caller gets the items at its striped positions. Positions no thread
    /// scattered to hold unspecified values.
    ///
    /// # Panics
    /// A rank of `W · ITEMS` or more is a contract violation (`trap` on the
    /// GPU, a panic on the simulator).
    #[inline(always)]
    #[track_caller]
    pub fn scatter_to_striped(&self, items: [T; ITEMS], ranks: &[u32; ITEMS]) -> [T; ITEMS] {
        check_ranks(ranks, W as usize * ITEMS);
        arrange::put_ranked(self.smem, &items, ranks, &[true; ITEMS]);
        self.lanes.sync();
        arrange::get_striped(self.smem, self.lanes.rank, W)
    }
}

/// Every rank below `positions` (a rank past the tile would write outside
/// the storage).
#[inline(always)]
#[track_caller]
pub(crate) fn check_ranks<const ITEMS: usize>(ranks: &[u32; ITEMS], positions: usize) {
    let mut i = 0;
    while i < ITEMS {
        if ranks[i] as usize >= positions {
            violation!(
                "scatter: rank {} is outside the tile of {positions} items",
                ranks[i]
            );
        }
        i += 1;
    }
}
