//! [`BlockShuffle`]: each thread's items moved to a neighbour, through
//! shared memory (CUB's `BlockShuffle`).

use core::marker::PhantomData;
use core::mem::size_of;

use super::{rank_of, sync};
use crate::group::ThreadBlock;
use crate::primitives::storage::{NeedsTempStorage, Smem, TempStorage};
use crate::value::ShflValue;

/// Moves items between the threads of a block of `BLOCK` threads (CUB's
/// `BlockShuffle<T, BLOCK>`): one item per thread by an offset or a
/// rotation, or the blocked arrangement up or down by one item. Each
/// method stores, syncs the block and loads; the storage (one `T` per
/// thread) is reusable after the block's next `sync()`.
///
/// ```
/// use cooperative_groups::prelude::*;
/// use cooperative_groups::primitives::BlockShuffle;
/// use cooperative_groups::temp_storage;
/// # let dev = cg_sim::SimDevice { stack_size: 4 << 20, ..Default::default() };
/// # cg_sim::launch_on(&dev, &cg_sim::LaunchConfig::new(1, 64), &|| {
/// let block = this_thread_block().with_threads::<64>();
/// let temp = temp_storage!(BlockShuffle<u32, 64>);
/// let r = block.thread_rank();
/// let sh = BlockShuffle::new(&block, &temp);
/// let (prev, last) = sh.up_with_suffix(&[2 * r, 2 * r + 1], 1000);
/// assert_eq!(prev, if r == 0 { [1000, 0] } else { [2 * r - 1, 2 * r] });
/// assert_eq!(last, 127);
/// # block.sync();
/// assert_eq!(sh.offset(r, 3), (r + 3 < 64).then_some(r + 3));
/// # }).unwrap();
/// ```
pub struct BlockShuffle<T, const BLOCK: u32> {
    rank: u32,
    smem: Smem,
    _t: PhantomData<fn() -> T>,
}

impl<T, const BLOCK: u32> NeedsTempStorage for BlockShuffle<T, BLOCK> {
    const TEMP_BYTES: usize = BLOCK as usize * size_of::<T>();
}

impl<T: ShflValue, const BLOCK: u32> BlockShuffle<T, BLOCK> {
    /// The shuffle of `block`'s items in `temp`.
    ///
    /// # Panics
    /// A block of another size than `BLOCK` is a contract violation.
    #[inline(always)]
    #[track_caller]
    pub fn new<L: NeedsTempStorage>(block: &ThreadBlock<BLOCK>, temp: &TempStorage<L>) -> Self {
        Self::from_parts(rank_of(block), temp.smem::<Self>())
    }

    #[inline(always)]
    pub(crate) fn from_parts(rank: u32, smem: Smem) -> Self {
        BlockShuffle {
            rank,
            smem,
            _t: PhantomData,
        }
    }

    #[inline(always)]
    fn at(t: u32) -> u32 {
        t * size_of::<T>() as u32
    }

    /// `Offset`: the `input` of thread `rank + distance`, or `None` where
    /// that thread does not exist.
    #[inline(always)]
    #[track_caller]
    pub fn offset(&self, input: T, distance: i32) -> Option<T> {
        self.smem.store(Self::at(self.rank), input);
        sync();
        let src = self.rank as i64 + distance as i64;
        // An unconditional load of a clamped thread's word and a select
        // (see `up_with_suffix`).
        let v = self
            .smem
            .load(Self::at(src.clamp(0, BLOCK as i64 - 1) as u32));
        (0..BLOCK as i64).contains(&src).then_some(v)
    }

    /// `Rotate`: the `input` of thread `(rank + distance) mod BLOCK`.
    #[inline(always)]
    #[track_caller]
    pub fn rotate(&self, input: T, distance: u32) -> T {
        self.smem.store(Self::at(self.rank), input);
        sync();
        let src = ((self.rank as u64 + distance as u64) % BLOCK as u64) as u32;
        self.smem.load(Self::at(src))
    }

    /// `Up`: the blocked arrangement shifted up by one item: item `k` of
    /// the block gets item `k - 1`, item 0 gets `fill`.
    #[inline(always)]
    #[track_caller]
    pub fn up<const N: usize>(&self, items: &[T; N], fill: T) -> [T; N] {
        self.up_with_suffix(items, fill).0
    }

    /// [`up`](Self::up), and the block's last item (every thread gets it).
    #[inline(always)]
    #[track_caller]
    pub fn up_with_suffix<const N: usize>(&self, items: &[T; N], fill: T) -> ([T; N], T) {
        const { assert!(N > 0, "a thread holds at least one item") };
        self.smem.store(Self::at(self.rank), items[N - 1]);
        sync();
        let mut out = *items;
        let mut i = N - 1;
        while i > 0 {
            out[i] = items[i - 1];
            i -= 1;
        }
        // The load is unconditional (thread 0 reads its own word, which it
        // stored) and the choice a select: a branch around the load made
        // ptxas put a `WARPSYNC` before the next barrier (1.02–1.05× CUB's
        // time, which predicates the load).
        let before = self.smem.load(Self::at(self.rank.saturating_sub(1)));
        out[0] = if self.rank == 0 { fill } else { before };
        (out, self.smem.load(Self::at(BLOCK - 1)))
    }

    /// `Down`: the blocked arrangement shifted down by one item: item `k`
    /// gets item `k + 1`, the block's last item gets `fill`.
    #[inline(always)]
    #[track_caller]
    pub fn down<const N: usize>(&self, items: &[T; N], fill: T) -> [T; N] {
        self.down_with_prefix(items, fill).0
    }

    /// [`down`](Self::down), and the block's first item (every thread
    /// gets it).
    #[inline(always)]
    #[track_caller]
    pub fn down_with_prefix<const N: usize>(&self, items: &[T; N], fill: T) -> ([T; N], T) {
        const { assert!(N > 0, "a thread holds at least one item") };
        self.smem.store(Self::at(self.rank), items[0]);
        sync();
        let mut out = *items;
        let mut i = 0;
        while i + 1 < N {
            out[i] = items[i + 1];
            i += 1;
        }
        // As in `up_with_suffix`: the last thread reads its own word.
        let after = self.smem.load(Self::at((self.rank + 1).min(BLOCK - 1)));
        out[N - 1] = if self.rank == BLOCK - 1 { fill } else { after };
        (out, self.smem.load(Self::at(0)))
    }
}
