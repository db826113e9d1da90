//! [`BlockDiscontinuity`]: head and tail flags of runs in the block's
//! blocked items (CUB's `BlockDiscontinuity`).

use core::marker::PhantomData;
use core::mem::size_of;

use super::{rank_of, sync};
use crate::group::ThreadBlock;
use crate::primitives::storage::{NeedsTempStorage, Smem, TempStorage};
use crate::value::ShflValue;

/// Flags the items of a block of `BLOCK` threads, blocked, that differ
/// from their neighbour by `flag_op(a, b)` (`true`: `a` then `b` is a
/// discontinuity) — CUB's `BlockDiscontinuity<T, BLOCK>`.
///
/// * a *head* flag: item `k` differs from item `k - 1` (the block's first
///   item is a head, or compares with a given tile predecessor);
/// * a *tail* flag: item `k` differs from item `k + 1` (the block's last
///   item is a tail, or compares with a given tile successor).
///
/// Each method stores the thread's first and/or last item, syncs the block
/// and reads the neighbours'; the storage is reusable after the block's
/// next `sync()`.
///
/// ```
/// use cooperative_groups::prelude::*;
/// use cooperative_groups::primitives::BlockDiscontinuity;
/// use cooperative_groups::temp_storage;
/// # let dev = cg_sim::SimDevice { stack_size: 4 << 20, ..Default::default() };
/// # cg_sim::launch_on(&dev, &cg_sim::LaunchConfig::new(1, 32), &|| {
/// let block = this_thread_block().with_threads::<32>();
/// let temp = temp_storage!(BlockDiscontinuity<u32, 32>);
/// let r = block.thread_rank();
/// let items = [r / 2, r / 2];                  // runs of 4: 0 0 0 0 1 1 1 1 …
/// let (heads, tails) = BlockDiscontinuity::new(&block, &temp).flag_heads_and_tails(&items, |a, b| a != b);
/// assert_eq!(heads, [r % 2 == 0, false]);
/// assert_eq!(tails, [false, r % 2 == 1]);
/// # }).unwrap();
/// ```
pub struct BlockDiscontinuity<T, const BLOCK: u32> {
    rank: u32,
    smem: Smem,
    _t: PhantomData<fn() -> T>,
}

impl<T, const BLOCK: u32> NeedsTempStorage for BlockDiscontinuity<T, BLOCK> {
    const TEMP_BYTES: usize = 2 * BLOCK as usize * size_of::<T>();
}

impl<T: ShflValue, const BLOCK: u32> BlockDiscontinuity<T, BLOCK> {
    /// The flags of `block`'s items, exchanged in `temp`.
    ///
    /// # Panics
    /// A block of another size than `BLOCK` is a contract violation.
    #[inline(always)]
    #[track_caller]
    pub fn new<L: NeedsTempStorage>(block: &ThreadBlock<BLOCK>, temp: &TempStorage<L>) -> Self {
        BlockDiscontinuity {
            rank: rank_of(block),
            smem: temp.smem::<Self>(),
            _t: PhantomData,
        }
    }

    /// Last items at `[0, BLOCK)`, first items after them.
    #[inline(always)]
    fn last_at(t: u32) -> u32 {
        t * size_of::<T>() as u32
    }
    #[inline(always)]
    fn first_at(t: u32) -> u32 {
        (BLOCK + t) * size_of::<T>() as u32
    }

    /// Head flags from the thread's predecessor item `prev` (`None` for
    /// the block's first item: a head).
    #[inline(always)]
    fn heads<F: Fn(T, T) -> bool, const N: usize>(
        items: &[T; N],
        prev: Option<T>,
        op: &F,
    ) -> [bool; N] {
        let mut out = [false; N];
        out[0] = match prev {
            None => true,
            Some(p) => op(p, items[0]),
        };
        let mut i = 1;
        while i < N {
            out[i] = op(items[i - 1], items[i]);
            i += 1;
        }
        out
    }

    /// Tail flags from the thread's successor item `next`.
    #[inline(always)]
    fn tails<F: Fn(T, T) -> bool, const N: usize>(
        items: &[T; N],
        next: Option<T>,
        op: &F,
    ) -> [bool; N] {
        let mut out = [false; N];
        let mut i = 0;
        while i + 1 < N {
            out[i] = op(items[i], items[i + 1]);
            i += 1;
        }
        out[N - 1] = match next {
            None => true,
            Some(n) => op(items[N - 1], n),
        };
        out
    }

    #[inline(always)]
    #[track_caller]
    fn prev(&self, tile_predecessor: Option<T>) -> Option<T> {
        // The load is unconditional (thread 0 reads its own word, which it
        // stored) and the choice a select: a branch around the load made
        // ptxas put a `WARPSYNC` before the next barrier (1.02–1.05× CUB's
        // time, which predicates the load).
        let before = self.smem.load(Self::last_at(self.rank.saturating_sub(1)));
        if self.rank == 0 {
            tile_predecessor
        } else {
            Some(before)
        }
    }

    #[inline(always)]
    #[track_caller]
    fn next(&self, tile_successor: Option<T>) -> Option<T> {
        // As in `prev`: the last thread reads its own first item.
        let after = self
            .smem
            .load(Self::first_at((self.rank + 1).min(BLOCK - 1)));
        if self.rank == BLOCK - 1 {
            tile_successor
        } else {
            Some(after)
        }
    }

    /// `FlagHeads`: item `k` is a head if `flag_op(item k-1, item k)`; the
    /// block's first item always is.
    #[inline(always)]
    #[track_caller]
    pub fn flag_heads<F: Fn(T, T) -> bool, const N: usize>(
        &self,
        items: &[T; N],
        flag_op: F,
    ) -> [bool; N] {
        self.heads_from(items, None, flag_op)
    }

    /// `FlagHeads` with the item before the block's tile: the block's first
    /// item is a head if `flag_op(tile_predecessor, item 0)`.
    #[inline(always)]
    #[track_caller]
    pub fn flag_heads_with_predecessor<F: Fn(T, T) -> bool, const N: usize>(
        &self,
        items: &[T; N],
        flag_op: F,
        tile_predecessor: T,
    ) -> [bool; N] {
        self.heads_from(items, Some(tile_predecessor), flag_op)
    }

    #[inline(always)]
    #[track_caller]
    fn heads_from<F: Fn(T, T) -> bool, const N: usize>(
        &self,
        items: &[T; N],
        pred: Option<T>,
        op: F,
    ) -> [bool; N] {
        const { assert!(N > 0, "a thread holds at least one item") };
        self.smem.store(Self::last_at(self.rank), items[N - 1]);
        sync();
        Self::heads(items, self.prev(pred), &op)
    }

    /// `FlagTails`: item `k` is a tail if `flag_op(item k, item k+1)`; the
    /// block's last item always is.
    #[inline(always)]
    #[track_caller]
    pub fn flag_tails<F: Fn(T, T) -> bool, const N: usize>(
        &self,
        items: &[T; N],
        flag_op: F,
    ) -> [bool; N] {
        self.tails_from(items, None, flag_op)
    }

    /// `FlagTails` with the item after the block's tile: the block's last
    /// item is a tail if `flag_op(item, tile_successor)`.
    #[inline(always)]
    #[track_caller]
    pub fn flag_tails_with_successor<F: Fn(T, T) -> bool, const N: usize>(
        &self,
        items: &[T; N],
        flag_op: F,
        tile_successor: T,
    ) -> [bool; N] {
        self.tails_from(items, Some(tile_successor), flag_op)
    }

    #[inline(always)]
    #[track_caller]
    fn tails_from<F: Fn(T, T) -> bool, const N: usize>(
        &self,
        items: &[T; N],
        succ: Option<T>,
        op: F,
    ) -> [bool; N] {
        const { assert!(N > 0, "a thread holds at least one item") };
        self.smem.store(Self::first_at(self.rank), items[0]);
        sync();
        Self::tails(items, self.next(succ), &op)
    }

    /// `FlagHeadsAndTails`: both, with one barrier.
    #[inline(always)]
    #[track_caller]
    pub fn flag_heads_and_tails<F: Fn(T, T) -> bool, const N: usize>(
        &self,
        items: &[T; N],
        flag_op: F,
    ) -> ([bool; N], [bool; N]) {
        self.heads_and_tails_from(items, None, None, flag_op)
    }

    /// `FlagHeadsAndTails` with the items before and after the block's tile.
    #[inline(always)]
    #[track_caller]
    pub fn flag_heads_and_tails_with<F: Fn(T, T) -> bool, const N: usize>(
        &self,
        items: &[T; N],
        flag_op: F,
        tile_predecessor: T,
        tile_successor: T,
    ) -> ([bool; N], [bool; N]) {
        self.heads_and_tails_from(items, Some(tile_predecessor), Some(tile_successor), flag_op)
    }

    #[inline(always)]
    #[track_caller]
    fn heads_and_tails_from<F: Fn(T, T) -> bool, const N: usize>(
        &self,
        items: &[T; N],
        pred: Option<T>,
        succ: Option<T>,
        op: F,
    ) -> ([bool; N], [bool; N]) {
        const { assert!(N > 0, "a thread holds at least one item") };
        self.smem.store(Self::last_at(self.rank), items[N - 1]);
        self.smem.store(Self::first_at(self.rank), items[0]);
        sync();
        (
            Self::heads(items, self.prev(pred), &op),
            Self::tails(items, self.next(succ), &op),
        )
    }
}
