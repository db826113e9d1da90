//! [`BlockAdjacentDifference`]: each item combined with its left or right
//! neighbour in the block's blocked arrangement (CUB's
//! `BlockAdjacentDifference`).

use core::marker::PhantomData;
use core::mem::size_of;

use super::{rank_of, sync};
use crate::group::ThreadBlock;
use crate::primitives::storage::{NeedsTempStorage, Smem, TempStorage};
use crate::value::{ShflValue, opaque};

/// Differences of neighbouring items of a block of `BLOCK` threads,
/// blocked (CUB's `BlockAdjacentDifference<T, BLOCK>`), by an operator
/// `op(item, neighbour)`:
///
/// * `subtract_left`: item `k` becomes `op(item k, item k-1)`; the block's
///   first item stays (or uses a given tile predecessor);
/// * `subtract_right`: item `k` becomes `op(item k, item k+1)`; the
///   block's last item stays (or uses a given tile successor).
///
/// Each method stores one item per thread, syncs the block and reads the
/// neighbour's; the storage is reusable after the block's next `sync()`.
///
/// ```
/// use cooperative_groups::prelude::*;
/// use cooperative_groups::primitives::BlockAdjacentDifference;
/// use cooperative_groups::temp_storage;
/// # let dev = cg_sim::SimDevice { stack_size: 4 << 20, ..Default::default() };
/// # cg_sim::launch_on(&dev, &cg_sim::LaunchConfig::new(1, 32), &|| {
/// let block = this_thread_block().with_threads::<32>();
/// let temp = temp_storage!(BlockAdjacentDifference<i32, 32>);
/// let r = block.thread_rank() as i32;
/// let squares = [(2 * r) * (2 * r), (2 * r + 1) * (2 * r + 1)];
/// let d = BlockAdjacentDifference::new(&block, &temp).subtract_left(&squares, |a, b| a - b);
/// assert_eq!(d, if r == 0 { [0, 1] } else { [4 * r - 1, 4 * r + 1] });
/// # }).unwrap();
/// ```
pub struct BlockAdjacentDifference<T, const BLOCK: u32> {
    rank: u32,
    smem: Smem,
    _t: PhantomData<fn() -> T>,
}

impl<T, const BLOCK: u32> NeedsTempStorage for BlockAdjacentDifference<T, BLOCK> {
    const TEMP_BYTES: usize = BLOCK as usize * size_of::<T>();
}

impl<T: ShflValue, const BLOCK: u32> BlockAdjacentDifference<T, BLOCK> {
    /// The differences of `block`'s items, exchanged in `temp`.
    ///
    /// # Panics
    /// A block of another size than `BLOCK` is a contract violation.
    #[inline(always)]
    #[track_caller]
    pub fn new<L: NeedsTempStorage>(block: &ThreadBlock<BLOCK>, temp: &TempStorage<L>) -> Self {
        BlockAdjacentDifference {
            rank: rank_of(block),
            smem: temp.smem::<Self>(),
            _t: PhantomData,
        }
    }

    #[inline(always)]
    fn at(t: u32) -> u32 {
        t * size_of::<T>() as u32
    }

    /// The previous thread's last item (`pred` for thread 0).
    #[inline(always)]
    #[track_caller]
    fn left<const N: usize>(&self, items: &[T; N], pred: Option<T>) -> Option<T> {
        const { assert!(N > 0, "a thread holds at least one item") };
        self.smem.store(Self::at(self.rank), items[N - 1]);
        sync();
        // The load is unconditional (thread 0 reads its own word, which it
        // stored) and the choice a select: a branch around the load made
        // ptxas put a `WARPSYNC` before the next barrier (1.02–1.05× CUB's
        // time, which predicates the load).
        let before = self.smem.load(Self::at(self.rank.saturating_sub(1)));
        if self.rank == 0 { pred } else { Some(before) }
    }

    /// The next thread's first item (`succ` for the last thread).
    #[inline(always)]
    #[track_caller]
    fn right<const N: usize>(&self, items: &[T; N], succ: Option<T>) -> Option<T> {
        const { assert!(N > 0, "a thread holds at least one item") };
        self.smem.store(Self::at(self.rank), items[0]);
        sync();
        // As in `left`: the last thread reads its own word.
        let after = self.smem.load(Self::at((self.rank + 1).min(BLOCK - 1)));
        if self.rank == BLOCK - 1 {
            succ
        } else {
            Some(after)
        }
    }

    /// `SubtractLeft`: item `k` becomes `op(item k, item k-1)`; the
    /// block's first item stays.
    #[inline(always)]
    #[track_caller]
    pub fn subtract_left<F: Fn(T, T) -> T, const N: usize>(&self, items: &[T; N], op: F) -> [T; N] {
        let prev = self.left(items, None);
        left_of(items, prev, usize::MAX, self.rank, &op)
    }

    /// `SubtractLeft` with the item before the block's tile: the block's
    /// first item becomes `op(item 0, tile_predecessor)`.
    #[inline(always)]
    #[track_caller]
    pub fn subtract_left_with_predecessor<F: Fn(T, T) -> T, const N: usize>(
        &self,
        items: &[T; N],
        op: F,
        tile_predecessor: T,
    ) -> [T; N] {
        let prev = self.left(items, Some(tile_predecessor));
        left_of(items, prev, usize::MAX, self.rank, &op)
    }

    /// `SubtractLeftPartialTile`: only the first `valid` items of the
    /// block are differenced; the others stay as they are.
    #[inline(always)]
    #[track_caller]
    pub fn subtract_left_partial<F: Fn(T, T) -> T, const N: usize>(
        &self,
        items: &[T; N],
        op: F,
        valid: usize,
    ) -> [T; N] {
        let prev = self.left(items, None);
        left_of(items, prev, valid, self.rank, &op)
    }

    /// `SubtractRight`: item `k` becomes `op(item k, item k+1)`; the
    /// block's last item stays.
    #[inline(always)]
    #[track_caller]
    pub fn subtract_right<F: Fn(T, T) -> T, const N: usize>(
        &self,
        items: &[T; N],
        op: F,
    ) -> [T; N] {
        let next = self.right(items, None);
        right_of(items, next, usize::MAX, self.rank, &op)
    }

    /// `SubtractRight` with the item after the block's tile: the block's
    /// last item becomes `op(item, tile_successor)`.
    #[inline(always)]
    #[track_caller]
    pub fn subtract_right_with_successor<F: Fn(T, T) -> T, const N: usize>(
        &self,
        items: &[T; N],
        op: F,
        tile_successor: T,
    ) -> [T; N] {
        let next = self.right(items, Some(tile_successor));
        right_of(items, next, usize::MAX, self.rank, &op)
    }

    /// `SubtractRightPartialTile`: the first `valid` items, item `valid -
    /// 1` staying (it has no valid right neighbour), the others staying.
    #[inline(always)]
    #[track_caller]
    pub fn subtract_right_partial<F: Fn(T, T) -> T, const N: usize>(
        &self,
        items: &[T; N],
        op: F,
        valid: usize,
    ) -> [T; N] {
        let next = self.right(items, None);
        right_of(items, next, valid, self.rank, &op)
    }
}

/// Left differences of the thread's items below block position `valid`.
#[inline(always)]
fn left_of<T: ShflValue, F: Fn(T, T) -> T, const N: usize>(
    items: &[T; N],
    prev: Option<T>,
    valid: usize,
    rank: u32,
    op: &F,
) -> [T; N] {
    let base = rank as usize * N;
    let mut out = *items;
    let mut i = 0;
    while i < N {
        if base + i < valid {
            let before = if i == 0 { prev } else { Some(items[i - 1]) };
            out[i] = match before {
                Some(b) => op(items[i], b),
                // Thread 0's first item: CUB's predicated `op` (see `opaque`).
                None => opaque(items[i]),
            };
        }
        i += 1;
    }
    out
}

/// Right differences of the thread's items, an item's right neighbour
/// counting only below block position `valid`.
#[inline(always)]
fn right_of<T: ShflValue, F: Fn(T, T) -> T, const N: usize>(
    items: &[T; N],
    next: Option<T>,
    valid: usize,
    rank: u32,
    op: &F,
) -> [T; N] {
    let base = rank as usize * N;
    let mut out = *items;
    let mut i = 0;
    while i < N {
        if base + i + 1 < valid {
            let after = if i + 1 == N { next } else { Some(items[i + 1]) };
            out[i] = match after {
                Some(a) => op(items[i], a),
                // The last thread's last item, as in `left_of`.
                None => opaque(items[i]),
            };
        }
        i += 1;
    }
    out
}
