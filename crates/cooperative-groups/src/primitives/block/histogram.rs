//! [`BlockHistogram`]: the block's samples counted into bins in shared
//! memory (CUB's `BlockHistogram`), by shared-memory atomics or by
//! sorting.

use core::marker::PhantomData;

use super::radix_sort::{BlockRadixSort, RadixKey, RadixSortOptions};
use super::shuffle::BlockShuffle;
use super::{rank_of, sync};
use crate::group::ThreadBlock;
use crate::primitives::storage::{NeedsTempStorage, Smem, TempStorage, array_smem};
use crate::shared::SharedArray;

mod sealed {
    pub trait Sealed {}
}

/// A sample of the histograms: an unsigned integer whose value is its bin
/// (`u8`, `u16`, `u32`). Samples of `BINS` or more are not counted.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a histogram sample",
    label = "samples are unsigned integers: their value is the bin",
    note = "BlockHistogram counts u8, u16 and u32 samples"
)]
pub trait HistogramSample: RadixKey + sealed::Sealed {
    /// The bin.
    #[doc(hidden)]
    fn bin(self) -> u32;
}

macro_rules! sample {
    ($($t:ty),*) => { $(
        impl sealed::Sealed for $t {}
        impl HistogramSample for $t {
            #[inline(always)]
            fn bin(self) -> u32 { self as u32 }
        }
    )* };
}
sample!(u8, u16, u32);

/// CUB's `BLOCK_HISTO_ATOMIC`: one `red.shared.add.u32` per sample (SASS
/// `ATOMS`), no storage.
#[derive(Clone, Copy, Debug, Default)]
pub struct HistogramAtomic;
/// CUB's `BLOCK_HISTO_SORT`: the samples' bins radix-sorted as 16-bit
/// keys (by the bits that tell the bins apart: the 8 bits of `u8`
/// samples, as CUB sorts the bytes), runs found
/// with their neighbours ([`BlockShuffle::up`]), each bin's count the
/// length of its run; no atomics.
#[derive(Clone, Copy, Debug, Default)]
pub struct HistogramSort;

/// A histogram algorithm (sealed).
pub trait HistogramAlgorithm: hsealed::Sealed {
    /// Sort-based (not part of the API).
    #[doc(hidden)]
    const SORT: bool;
}
mod hsealed {
    pub trait Sealed {}
}
impl hsealed::Sealed for HistogramAtomic {}
impl hsealed::Sealed for HistogramSort {}
impl HistogramAlgorithm for HistogramAtomic {
    const SORT: bool = false;
}
impl HistogramAlgorithm for HistogramSort {
    const SORT: bool = true;
}

/// Counts the block's `BLOCK · ITEMS` samples into `BINS` bins of a
/// [`SharedArray<u32, BINS>`](SharedArray) (CUB's
/// `BlockHistogram<T, BLOCK, ITEMS, BINS, ALGORITHM>`), with
/// [`HistogramAtomic`] (default) or [`HistogramSort`].
///
/// [`init`](Self::init) zeroes the bins (no barrier), [`composite`](Self::composite)
/// adds the samples' counts to them, [`histogram`](Self::histogram) is
/// both with the barrier between. The bins are ready for other threads
/// after the block's next `sync()`.
///
/// ```
/// use cooperative_groups::prelude::*;
/// use cooperative_groups::primitives::{BlockHistogram, HistogramSort};
/// use cooperative_groups::{shared_array, temp_storage};
/// # let dev = cg_sim::SimDevice { stack_size: 4 << 20, ..Default::default() };
/// # cg_sim::launch_on(&dev, &cg_sim::LaunchConfig::new(1, 64), &|| {
/// let block = this_thread_block().with_threads::<64>();
/// let bins = shared_array!(u32; 16);
/// let r = block.thread_rank() as u8;
/// let samples = [r % 16, r % 4, 200];             // 200 ≥ 16: not counted
/// BlockHistogram::<u8, 64, 3, 16>::without_storage(&block).histogram(&samples, &bins);
/// block.sync();
/// assert_eq!(bins.load(0), 4 + 16);
/// # assert_eq!(bins.load(5), 4);
/// // The same counts by sorting, added to the bins.
/// let temp = temp_storage!(BlockHistogram<u8, 64, 3, 16, HistogramSort>);
/// BlockHistogram::<u8, 64, 3, 16, HistogramSort>::new(&block, &temp).composite(&samples, &bins);
/// block.sync();
/// assert_eq!(bins.load(0), 2 * (4 + 16));
/// # assert_eq!(bins.load(3), 2 * (4 + 16));
/// # }).unwrap();
/// ```
pub struct BlockHistogram<
    T,
    const BLOCK: u32,
    const ITEMS: usize,
    const BINS: usize,
    A = HistogramAtomic,
> {
    rank: u32,
    smem: Smem,
    _t: PhantomData<fn() -> (T, A)>,
}

/// The sort algorithm's storage: the sort's and the shuffle's, then each
/// bin's run start and end.
const fn sort_parts<const BLOCK: u32, const ITEMS: usize>() -> (usize, usize) {
    let sort =
        <BlockRadixSort<u16, BLOCK, ITEMS> as NeedsTempStorage>::TEMP_BYTES.next_multiple_of(16);
    let shuffle = <BlockShuffle<u16, BLOCK> as NeedsTempStorage>::TEMP_BYTES.next_multiple_of(16);
    (sort, shuffle)
}

/// The bits the sort-based histogram sorts by, and whether samples are
/// clamped first: every value of a `T` narrower than the bins is a bin
/// (all of `T`'s bits, as CUB sorts them); otherwise samples of `BINS` or
/// more become `BINS`, which sorts after every bin.
const fn sort_bits<T>(bins: usize) -> (u32, bool) {
    let width = 8 * core::mem::size_of::<T>() as u32;
    if width < usize::BITS && (1usize << width) <= bins {
        (width, false)
    } else {
        (usize::BITS - bins.leading_zeros(), true)
    }
}

impl<T, const BLOCK: u32, const ITEMS: usize, const BINS: usize, A: HistogramAlgorithm>
    NeedsTempStorage for BlockHistogram<T, BLOCK, ITEMS, BINS, A>
{
    const TEMP_BYTES: usize = if A::SORT {
        let (s, h) = sort_parts::<BLOCK, ITEMS>();
        // Run starts and ends.
        s + h + 4 * 2 * BINS
    } else {
        0
    };
}

impl<
    T: HistogramSample,
    const BLOCK: u32,
    const ITEMS: usize,
    const BINS: usize,
    A: HistogramAlgorithm,
> BlockHistogram<T, BLOCK, ITEMS, BINS, A>
{
    /// The histogram of `block`'s samples, working (for `HistogramSort`)
    /// in `temp`.
    ///
    /// # Panics
    /// A block of another size than `BLOCK` is a contract violation.
    #[inline(always)]
    #[track_caller]
    pub fn new<L: NeedsTempStorage>(block: &ThreadBlock<BLOCK>, temp: &TempStorage<L>) -> Self {
        Self::with(block, temp.smem::<Self>())
    }

    #[inline(always)]
    #[track_caller]
    fn with(block: &ThreadBlock<BLOCK>, smem: Smem) -> Self {
        const {
            assert!(
                ITEMS > 0 && BINS > 0,
                "at least one sample per thread and one bin"
            )
        };
        BlockHistogram {
            rank: rank_of(block),
            smem,
            _t: PhantomData,
        }
    }

    /// `InitHistogram`: zeroes the bins (each thread its bins `rank`,
    /// `rank + BLOCK`, …; no barrier).
    #[inline(always)]
    #[track_caller]
    pub fn init(&self, bins: &SharedArray<u32, BINS>) {
        let s = array_smem(bins);
        let mut b = self.rank as usize;
        while b < BINS {
            s.store(4 * b as u32, 0u32);
            b += BLOCK as usize;
        }
    }

    /// `Histogram`: [`init`](Self::init), the block's barrier,
    /// [`composite`](Self::composite).
    #[inline(always)]
    #[track_caller]
    pub fn histogram(&self, samples: &[T; ITEMS], bins: &SharedArray<u32, BINS>) {
        self.init(bins);
        sync();
        self.composite(samples, bins);
    }

    /// `Composite`: adds the counts of the block's samples to the bins.
    /// With `HistogramSort` every bin is updated by one thread (after the
    /// sort's barriers), with `HistogramAtomic` by atomics: either way the
    /// counts are complete for other threads after the block's next
    /// `sync()`.
    #[inline(always)]
    #[track_caller]
    pub fn composite(&self, samples: &[T; ITEMS], bins: &SharedArray<u32, BINS>) {
        let s = array_smem(bins);
        if !A::SORT {
            unroll!(i in 0..ITEMS => {
                let b = samples[i].bin();
                if (b as usize) < BINS {
                    s.red_add(4 * b, 1);
                }
            });
            return;
        }
        let (sort_bytes, shuffle_bytes) = sort_parts::<BLOCK, ITEMS>();
        let runs = self.smem.offset((sort_bytes + shuffle_bytes) as u32);
        let begin_at = |b: u32| 4 * b;
        let end_at = |b: u32| 4 * (BINS as u32 + b);
        // The bins as 16-bit keys (bins in shared memory are far fewer
        // than 65536; bytes would cost byte packing in registers, words
        // twice the exchange storage), sorted by the bits that tell the
        // bins apart.
        const {
            assert!(
                BINS < 65536,
                "a sort-based histogram has fewer than 65536 bins"
            )
        };
        let (bits, clamp) = sort_bits::<T>(BINS);
        let mut keys = [0u16; ITEMS];
        unroll!(i in 0..ITEMS => {
            let b = samples[i].bin();
            keys[i] = if clamp && b as usize > BINS { BINS as u16 } else { b as u16 };
        });
        BlockRadixSort::<u16, BLOCK, ITEMS>::from_parts(self.rank, self.smem)
            .sort_keys_with(&mut keys, RadixSortOptions::new().bits(0, bits));
        let tile = BLOCK * ITEMS as u32;
        let rank = self.rank;
        // No run yet: start = end.
        let mut b = rank;
        while (b as usize) < BINS {
            runs.store(begin_at(b), tile);
            runs.store(end_at(b), tile);
            b += BLOCK;
        }
        // (The shuffle's barrier orders these before the runs' updates.)
        let shuffle =
            BlockShuffle::<u16, BLOCK>::from_parts(rank, self.smem.offset(sort_bytes as u32));
        let prev = shuffle.up(&keys, keys[0]);
        // Predicated stores, as CUB's: only an item that starts (ends) a
        // run stores. Branches around each store cost a reconvergence
        // point per item (1.09× CUB's time at 256 threads on the H200);
        // unconditional stores of the others to a spare word cost every
        // lane a shared-memory access and bank conflicts with the heads'
        // (1.07–1.09×). A bin test only where clamped samples (the value
        // `BINS`) can occur.
        unroll!(i in 0..ITEMS => {
            let pos = rank * ITEMS as u32 + i as u32;
            let (cur, before) = (keys[i] as u32, prev[i] as u32);
            let head = pos == 0 || cur != before;
            let starts = head && (!clamp || (cur as usize) < BINS);
            let ends = head && pos > 0 && (!clamp || (before as usize) < BINS);
            runs.store_if(starts, begin_at(cur), pos);
            runs.store_if(ends, end_at(before), pos);
        });
        sync();
        let mut b = rank;
        while (b as usize) < BINS {
            let n = runs.load::<u32>(end_at(b)) - runs.load::<u32>(begin_at(b));
            let old: u32 = s.load(4 * b);
            s.store(4 * b, old + n);
            b += BLOCK;
        }
    }
}

impl<T: HistogramSample, const BLOCK: u32, const ITEMS: usize, const BINS: usize>
    BlockHistogram<T, BLOCK, ITEMS, BINS, HistogramAtomic>
{
    /// The atomic histogram of `block`'s samples (no storage).
    ///
    /// # Panics
    /// A block of another size than `BLOCK` is a contract violation.
    #[inline(always)]
    #[track_caller]
    pub fn without_storage(block: &ThreadBlock<BLOCK>) -> Self {
        Self::with(block, Smem::none())
    }
}
