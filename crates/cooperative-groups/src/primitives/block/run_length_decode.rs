//! [`BlockRunLengthDecode`]: runs (a value and a length) held blocked by
//! the block, decoded into windows of items (CUB's
//! `BlockRunLengthDecode`).

use core::marker::PhantomData;
use core::mem::size_of;

use super::scan::BlockScan;
use super::{rank_of, sync};
use crate::group::ThreadBlock;
use crate::primitives::storage::{NeedsTempStorage, Smem, TempStorage};
use crate::value::ShflValue;

/// Decodes the block's `BLOCK · RUNS` runs, `RUNS` per thread blocked, in
/// windows of `BLOCK · DECODED` items, `DECODED` per thread blocked
/// (CUB's `BlockRunLengthDecode<T, BLOCK, RUNS, DECODED>`).
///
/// [`new`](Self::new) scans the run lengths (a block scan) and stores each
/// run's first decoded position and value in the storage, then syncs the
/// block; [`decode`](Self::decode) only reads it, so windows may be
/// decoded one after another without a barrier. An item finds its run by
/// a binary search over the runs' first positions; the thread's following
/// items step forward from there.
///
/// ```
/// use cooperative_groups::prelude::*;
/// use cooperative_groups::primitives::BlockRunLengthDecode;
/// use cooperative_groups::temp_storage;
/// # let dev = cg_sim::SimDevice { stack_size: 4 << 20, ..Default::default() };
/// # cg_sim::launch_on(&dev, &cg_sim::LaunchConfig::new(1, 32), &|| {
/// let block = this_thread_block().with_threads::<32>();
/// type Decode = BlockRunLengthDecode<u32, 32, 1, 2>;
/// let temp = temp_storage!(Decode);
/// let r = block.thread_rank();
/// // Thread r's run: the value r, r mod 3 times (0, 1, 2, 0, 1, 2, …).
/// let (rld, total) = Decode::new(&block, &temp, &[r], &[r % 3]);
/// assert_eq!(total, 31);
/// let (items, offsets) = rld.decode(0, u32::MAX);   // decoded items 0..64
/// // Items 0, 1, 2: run 1 once, run 2 twice; item 3: run 4.
/// if r == 0 { assert_eq!((items, offsets), ([1, 2], [0, 0])); }
/// if r == 1 { assert_eq!((items, offsets), ([2, 4], [1, 0])); }
/// if r == 31 { assert_eq!(items, [u32::MAX, u32::MAX]); }
/// # }).unwrap();
/// ```
pub struct BlockRunLengthDecode<T, const BLOCK: u32, const RUNS: usize, const DECODED: usize> {
    rank: u32,
    total: u32,
    smem: Smem,
    _t: PhantomData<fn() -> T>,
}

/// Bytes of the runs' first positions (16-byte aligned).
const fn offsets_bytes(runs: usize) -> usize {
    (runs * 4).next_multiple_of(16)
}

impl<T, const BLOCK: u32, const RUNS: usize, const DECODED: usize> NeedsTempStorage
    for BlockRunLengthDecode<T, BLOCK, RUNS, DECODED>
{
    const TEMP_BYTES: usize = {
        let runs = BLOCK as usize * RUNS;
        offsets_bytes(runs) + runs * size_of::<T>()
    };
}

impl<T: ShflValue, const BLOCK: u32, const RUNS: usize, const DECODED: usize>
    BlockRunLengthDecode<T, BLOCK, RUNS, DECODED>
{
    const ALL_RUNS: u32 = BLOCK * RUNS as u32;

    /// Takes the block's runs (`values[i]` repeated `lengths[i]` times;
    /// zero-length runs allowed) and returns the decoder and the decoded
    /// total, the same in every thread. Syncs the block.
    ///
    /// # Panics
    /// A block of another size than `BLOCK` is a contract violation.
    #[inline(always)]
    #[track_caller]
    pub fn new<L: NeedsTempStorage>(
        block: &ThreadBlock<BLOCK>,
        temp: &TempStorage<L>,
        values: &[T; RUNS],
        lengths: &[u32; RUNS],
    ) -> (Self, u32) {
        const { assert!(RUNS > 0 && DECODED > 0, "a thread holds at least one item") };
        let rank = rank_of(block);
        let smem = temp.smem::<Self>();
        let (firsts, total) = BlockScan::new(block).exclusive_sum_aggregate(lengths);
        let vals = smem.offset(offsets_bytes(Self::ALL_RUNS as usize) as u32);
        let mut i = 0;
        while i < RUNS {
            let run = rank * RUNS as u32 + i as u32;
            smem.store(4 * run, firsts[i]);
            vals.store(run * size_of::<T>() as u32, values[i]);
            i += 1;
        }
        sync();
        (
            BlockRunLengthDecode {
                rank,
                total,
                smem,
                _t: PhantomData,
            },
            total,
        )
    }

    /// The decoded total (the sum of the lengths).
    #[inline(always)]
    pub fn total(&self) -> u32 {
        self.total
    }

    #[inline(always)]
    #[track_caller]
    fn first(&self, run: u32) -> u32 {
        self.smem.load(4 * run)
    }

    /// The window of decoded items from position `from` (the same in every
    /// thread): the caller's items `from + rank · DECODED + i`, blocked,
    /// with each item's offset inside its run. Items at or past the total
    /// are `oob` with offset 0.
    #[inline(always)]
    #[track_caller]
    pub fn decode(&self, from: u32, oob: T) -> ([T; DECODED], [u32; DECODED]) {
        let vals = self
            .smem
            .offset(offsets_bytes(Self::ALL_RUNS as usize) as u32);
        let mut items = [oob; DECODED];
        let mut offsets = [0u32; DECODED];
        let start = from as u64 + self.rank as u64 * DECODED as u64;
        // Threads past the total skip the search (CUB's search for them
        // too cost 1.08–1.11× CUB's time in the lab: the last window of
        // every round is mostly such threads).
        if start >= self.total as u64 {
            return (items, offsets);
        }
        let start = start as u32;
        let valid = self.total - start;
        // The last run whose first position is at most `start` (run 0's
        // is 0), and that position: a search of a fixed number of steps,
        // halving a power of two (CUB's `StaticUpperBound`), which the
        // compiler unrolls into selects; a search while `hi - lo > 1`
        // branched on every step (1.28× CUB's time).
        let mut run = 0u32;
        let mut begin = 0u32;
        let mut step = Self::ALL_RUNS.next_power_of_two() / 2;
        while step > 0 {
            let mid = run + step;
            // The load stays unconditional (a clamped index) so that the
            // step is a select, not a branch.
            let first = self.first(mid.min(Self::ALL_RUNS - 1));
            if mid < Self::ALL_RUNS && first <= start {
                run = mid;
                begin = first;
            }
            step /= 2;
        }
        // Where the run ends and its value: kept in registers, reloaded
        // only when an item steps into the next run, as CUB's decoder
        // does. (The last run's "end" is its own first position, never
        // used: no item steps past the last run.)
        let end_of = |run: u32| self.first((run + 1).min(Self::ALL_RUNS - 1));
        let value_of = |run: u32| vals.load::<T>(run * size_of::<T>() as u32);
        let mut end = end_of(run);
        let mut value = value_of(run);
        unroll!(i in 0..DECODED => {
            let k = start.wrapping_add(i as u32);
            // The search put item 0 in its run. A later item steps past
            // every run that ends at or before it: one step, or more
            // over zero-length runs (which CUB's decoder allows only at
            // the end). Items past the total step at most to the last
            // run, and are `oob`.
            if i > 0 {
                // One step, predicated rather than branched (an item
                // steps at most once over runs of length one or more)…
                let step = run + 1 < Self::ALL_RUNS && k >= end;
                if step {
                    run += 1;
                    begin = end;
                    end = end_of(run);
                    value = value_of(run);
                }
                // …and a loop only over zero-length runs, whose branch is
                // not taken without them.
                while run + 1 < Self::ALL_RUNS && k >= end {
                    run += 1;
                    begin = end;
                    end = end_of(run);
                    value = value_of(run);
                }
            }
            let inside = (i as u32) < valid;
            items[i] = if inside { value } else { oob };
            offsets[i] = if inside { k - begin } else { 0 };
        });
        (items, offsets)
    }
}
