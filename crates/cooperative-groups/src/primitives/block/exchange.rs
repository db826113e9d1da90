//! [`BlockExchange`]: rearranges the block's items between the blocked,
//! striped and warp-striped arrangements, or scatters them by rank,
//! through shared memory (CUB's `BlockExchange`).

use core::marker::PhantomData;
use core::mem::size_of;

use super::{full_warp, rank_of, sync};
use crate::group::ThreadBlock;
use crate::primitives::arrange::{self, padded, slot, tile_bytes};
use crate::primitives::storage::{NeedsTempStorage, Smem, TempStorage};
use crate::primitives::warp::exchange::{WarpExchange, check_ranks};
use crate::value::ShflValue;

/// Rearranges a block's `BLOCK · ITEMS` items (CUB's
/// `BlockExchange<T, BLOCK, ITEMS>`).
///
/// Arrangements (see the [primitives](crate::primitives#arrangements)):
/// *blocked* (rank `r` holds items `r · ITEMS + i`), *striped* (items
/// `r + i · BLOCK`), *warp-striped* (warp `w`, lane `l`: items
/// `32 · ITEMS · w + l + 32 i`). A blocked ↔ striped or scatter method
/// stores the caller's items, syncs the block (`bar.sync 0`) and loads
/// the result; the warp-striped ones sync only the warp (each warp in its
/// own part of the storage: a [`WarpExchange`] per warp). The storage is
/// reusable after the block's next `sync()`.
///
/// ```
/// use cooperative_groups::prelude::*;
/// use cooperative_groups::primitives::BlockExchange;
/// use cooperative_groups::temp_storage;
/// # let dev = cg_sim::SimDevice { stack_size: 4 << 20, ..Default::default() };
/// # cg_sim::launch_on(&dev, &cg_sim::LaunchConfig::new(1, 128), &|| {
/// let block = this_thread_block().with_threads::<128>();
/// let temp = temp_storage!(BlockExchange<u32, 128, 4>);
/// let ex = BlockExchange::new(&block, &temp);
/// let r = block.thread_rank();
/// // Striped, as coalesced loads give it: items r, r + 128, r + 256, r + 384.
/// let blocked = ex.striped_to_blocked([r, r + 128, r + 256, r + 384]);
/// assert_eq!(blocked, [4 * r, 4 * r + 1, 4 * r + 2, 4 * r + 3]);
/// # }).unwrap();
/// ```
pub struct BlockExchange<T, const BLOCK: u32, const ITEMS: usize> {
    rank: u32,
    smem: Smem,
    _t: PhantomData<fn() -> T>,
}

impl<T, const BLOCK: u32, const ITEMS: usize> NeedsTempStorage for BlockExchange<T, BLOCK, ITEMS> {
    const TEMP_BYTES: usize = tile_bytes::<T>(BLOCK as usize * ITEMS, padded(ITEMS));
}

impl<T: ShflValue, const BLOCK: u32, const ITEMS: usize> BlockExchange<T, BLOCK, ITEMS> {
    /// The exchange of `block`'s items in `temp` (checked when compiled to
    /// be large enough).
    ///
    /// # Panics
    /// A block of another size than `BLOCK` is a contract violation.
    #[inline(always)]
    #[track_caller]
    pub fn new<L: NeedsTempStorage>(block: &ThreadBlock<BLOCK>, temp: &TempStorage<L>) -> Self {
        const { assert!(ITEMS > 0, "a thread holds at least one item") };
        Self::from_parts(rank_of(block), temp.smem::<Self>())
    }

    #[inline(always)]
    pub(crate) fn from_parts(rank: u32, smem: Smem) -> Self {
        BlockExchange {
            rank,
            smem,
            _t: PhantomData,
        }
    }

    /// `BlockedToStriped`.
    #[inline(always)]
    #[track_caller]
    pub fn blocked_to_striped(&self, items: [T; ITEMS]) -> [T; ITEMS] {
        arrange::put_blocked(self.smem, self.rank, &items);
        sync();
        arrange::get_striped(self.smem, self.rank, BLOCK)
    }

    /// `StripedToBlocked`.
    #[inline(always)]
    #[track_caller]
    pub fn striped_to_blocked(&self, items: [T; ITEMS]) -> [T; ITEMS] {
        arrange::put_striped(self.smem, self.rank, BLOCK, &items);
        sync();
        arrange::get_blocked(self.smem, self.rank)
    }

    /// The caller's warp's [`WarpExchange`], in the warp's part of the
    /// storage (`BLOCK` a multiple of 32, checked when compiled).
    #[inline(always)]
    fn warp(&self) -> WarpExchange<T, ITEMS, 32> {
        const {
            assert!(
                BLOCK.is_multiple_of(32),
                "the warp-striped arrangement needs a block of whole warps"
            )
        };
        let first = (self.rank / 32) * 32 * ITEMS as u32;
        let off = slot(first, padded(ITEMS)) * size_of::<T>() as u32;
        WarpExchange::from_parts(full_warp(self.rank), self.smem.offset(off))
    }

    /// `BlockedToWarpStriped` (one `bar.warp.sync`, no block barrier).
    #[inline(always)]
    #[track_caller]
    pub fn blocked_to_warp_striped(&self, items: [T; ITEMS]) -> [T; ITEMS] {
        self.warp().blocked_to_striped(items)
    }

    /// `WarpStripedToBlocked` (one `bar.warp.sync`, no block barrier).
    #[inline(always)]
    #[track_caller]
    pub fn warp_striped_to_blocked(&self, items: [T; ITEMS]) -> [T; ITEMS] {
        self.warp().striped_to_blocked(items)
    }

    /// `ScatterToBlocked`: item `i` goes to tile position `ranks[i]`; the
    /// caller gets the items at its blocked positions. Positions no thread
    /// scattered to hold unspecified values.
    ///
    /// # Panics
    /// A rank of `BLOCK · ITEMS` or more is a contract violation.
    #[inline(always)]
    #[track_caller]
    pub fn scatter_to_blocked(&self, items: [T; ITEMS], ranks: &[u32; ITEMS]) -> [T; ITEMS] {
        check_ranks(ranks, BLOCK as usize * ITEMS);
        arrange::put_ranked(self.smem, &items, ranks, &[true; ITEMS]);
        sync();
        arrange::get_blocked(self.smem, self.rank)
    }

    /// `ScatterToStriped`: as [`scatter_to_blocked`](Self::scatter_to_blocked),
    /// the caller getting its striped positions.
    ///
    /// # Panics
    /// A rank of `BLOCK · ITEMS` or more is a contract violation.
    #[inline(always)]
    #[track_caller]
    pub fn scatter_to_striped(&self, items: [T; ITEMS], ranks: &[u32; ITEMS]) -> [T; ITEMS] {
        check_ranks(ranks, BLOCK as usize * ITEMS);
        arrange::put_ranked(self.smem, &items, ranks, &[true; ITEMS]);
        sync();
        arrange::get_striped(self.smem, self.rank, BLOCK)
    }

    /// `ScatterToStripedFlagged`: only items with `valid[i]` are scattered
    /// (the rank of the others is not read); the caller gets its striped
    /// positions, unspecified where nothing was scattered.
    ///
    /// # Panics
    /// A rank of a valid item of `BLOCK · ITEMS` or more is a contract
    /// violation.
    #[inline(always)]
    #[track_caller]
    pub fn scatter_to_striped_flagged(
        &self,
        items: [T; ITEMS],
        ranks: &[u32; ITEMS],
        valid: &[bool; ITEMS],
    ) -> [T; ITEMS] {
        let mut checked = *ranks;
        let mut i = 0;
        while i < ITEMS {
            if !valid[i] {
                checked[i] = 0;
            }
            i += 1;
        }
        check_ranks(&checked, BLOCK as usize * ITEMS);
        arrange::put_ranked(self.smem, &items, ranks, valid);
        sync();
        arrange::get_striped(self.smem, self.rank, BLOCK)
    }
}
