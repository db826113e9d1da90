//! A device-wide histogram with even bins, written with the library's
//! block primitives: the `device_histogram` experiment of `cg-lab
//! compare`, against CUB's `DeviceHistogram::HistogramEven`.
//!
//! [`device_histogram_even`] counts `n` `u32` samples into `bins ≤`
//! [`MAX_BINS`] bins of equal width over `[lower, upper)`: sample `s` goes
//! to bin `⌊(s − lower) · bins / (upper − lower)⌋`, samples outside the
//! range to none — exactly CUB's even binning of integer samples. One
//! launch of as many blocks as are co-resident ([`histogram_grid`]
//! decides on the host), each walking the input's tiles of [`HISTO_TILE`]
//! samples with a grid stride:
//!
//! * a [`BlockLoad`] of the tile as 16-byte vectors, striped (every load
//!   instruction of a warp covers 512 contiguous bytes), four per thread;
//! * each warp counts its samples into its own sub-histogram in dynamic
//!   shared memory ([`BlockHistogram::composite`], one `red.shared.add`
//!   per sample): privatised per warp, so the shared atomics of one
//!   instruction contend only within a warp, and no barrier is needed
//!   between tiles;
//! * at the end each thread adds up one bin over the block's warps and
//!   adds it to the output with one `red.global.add` per bin and block.
//!
//! The output must be zero before the launch (the lab clears it with an
//! asynchronous memset in the same stream; CUB clears it with a kernel of
//! its own). When the bins' width is a power of two (`shift < 32`, as
//! [`even_shift`] finds) the bin is a subtraction and a shift; otherwise a
//! 64-bit multiply and divide.

use cooperative_groups::atomic::Relaxed;
use cooperative_groups::intrinsics::{block_idx, grid_dim};
use cooperative_groups::prelude::*;
use cooperative_groups::primitives::{BlockHistogram, BlockLoad, Striped};
use cooperative_groups::{
    AtomicSlice, DynamicShared, GlobalSlice, Pod, SharedArray, ShflValue, dynamic_shared, kernel,
    unroll,
};

/// Threads per block.
pub const HISTO_BLOCK: u32 = 256;
/// Warps per block: one sub-histogram each.
pub const HISTO_WARPS: usize = HISTO_BLOCK as usize / 32;
/// 16-byte vectors per thread and tile.
pub const HISTO_VECS: usize = 4;
/// Samples per tile.
pub const HISTO_TILE: usize = HISTO_BLOCK as usize * HISTO_VECS * 4;
/// The most bins a launch counts.
pub const MAX_BINS: usize = 256;
/// Dynamic shared memory per block: the warps' sub-histograms.
pub const HISTO_SMEM_BYTES: u32 = (HISTO_WARPS * MAX_BINS * 4) as u32;

/// Four samples, 16-byte aligned: one `ld.global.v4.u32`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(C, align(16))]
pub struct U4(pub [u32; 4]);

// SAFETY: four `u32`, `repr(C)`, 16 bytes: no padding, every bit pattern
// is a value.
unsafe impl Pod for U4 {
    const PADDING_FREE: bool = true;
}
// SAFETY: as above.
unsafe impl ShflValue for U4 {}

/// The shift of the even bins over `[lower, upper)` when every bin is a
/// power of two wide (`(upper − lower) = bins · 2^shift`), else `u32::MAX`
/// (the kernel divides).
pub fn even_shift(lower: u32, upper: u32, bins: u32) -> u32 {
    let range = upper.wrapping_sub(lower);
    if bins == 0 || upper <= lower || !range.is_multiple_of(bins) {
        return u32::MAX;
    }
    let width = range / bins;
    if width.is_power_of_two() {
        width.trailing_zeros()
    } else {
        u32::MAX
    }
}

/// The bin of sample `s` (`None` outside `[lower, upper)`): the host
/// model of the kernel's binning.
pub fn even_bin(s: u32, lower: u32, upper: u32, bins: u32) -> Option<u32> {
    (s >= lower && s < upper)
        .then(|| ((s - lower) as u64 * bins as u64 / (upper - lower) as u64) as u32)
}

/// The bin of sample `s` among the bins `[levels[i], levels[i + 1])`
/// (`None` outside `[levels[0], levels[last])`): the host model of
/// [`device_histogram_range`], CUB's `HistogramRange` binning.
pub fn range_bin(s: u32, levels: &[u32]) -> Option<u32> {
    let last = *levels.last()?;
    if levels.len() < 2 || s < levels[0] || s >= last {
        return None;
    }
    Some((levels.partition_point(|&l| l <= s) - 1) as u32)
}

/// Blocks of the launch: as many as are co-resident (`resident`, from the
/// occupancy calculator), no more than there are tiles.
pub fn histogram_grid(n: u32, resident: u32) -> u32 {
    (n as usize)
        .div_ceil(HISTO_TILE)
        .clamp(1, resident.max(1) as usize) as u32
}

type Load = BlockLoad<U4, HISTO_BLOCK, HISTO_VECS, Striped>;
type Count = BlockHistogram<u32, HISTO_BLOCK, { HISTO_VECS * 4 }, MAX_BINS>;

/// A block's walk over its tiles of the samples: what the even and the
/// range kernel share, made once before their binning is chosen.
struct Walk<'a> {
    vectors: &'a [U4],
    /// Samples counted: the first `n` (at most the vectors' samples).
    n: usize,
    rank: usize,
    /// The calling warp's sub-histogram.
    mine: SharedArray<u32, MAX_BINS>,
    count: Count,
    load: Load,
}

impl<'a> Walk<'a> {
    /// The walk of thread `rank` of `block` over the first `n` samples of
    /// `samples`, counting into its warp's sub-histogram in `smem`.
    #[inline(always)]
    fn new(
        block: &ThreadBlock<HISTO_BLOCK>,
        rank: usize,
        smem: &DynamicShared<u32>,
        samples: &'a GlobalSlice<U4>,
        n: u32,
    ) -> Self {
        let mine = smem.array_at::<MAX_BINS>(rank / 32 * MAX_BINS);
        let count = Count::without_storage(block);
        let load = Load::without_storage(block);
        let vectors = samples.as_slice();
        let n = (n as usize).min(vectors.len() * 4);
        Walk {
            vectors,
            n,
            rank,
            mine,
            count,
            load,
        }
    }

    /// The block's tiles (a grid stride), each thread's 16 samples binned
    /// by `bin` (`MAX_BINS`: none) and counted into its warp's
    /// sub-histogram (cleared, a barrier since).
    #[inline(always)]
    fn run(&self, bin: impl Fn(u32) -> u32) {
        let Walk {
            vectors,
            n,
            rank,
            ref mine,
            ref count,
            ref load,
        } = *self;
        const TILE_VECS: usize = HISTO_TILE / 4;
        let full = n / HISTO_TILE;
        let step = grid_dim().x as usize;
        let mut t = block_idx().x as usize;
        // The whole tiles, then the last, partial one apart (one path each:
        // their registers are not live together).
        while t < full {
            let v = load.load(&vectors[t * TILE_VECS..]);
            let mut b = [0u32; HISTO_VECS * 4];
            unroll!(i in 0..HISTO_VECS * 4 => {
                b[i] = bin(v[i / 4].0[i % 4]);
            });
            count.composite(&b, mine);
            t += step;
        }
        let left = n - full * HISTO_TILE;
        if t == full && left > 0 {
            // Vectors past `n` are zeros, and so are the last vector's samples
            // past `n`; neither is counted.
            let v = load.load_partial(&vectors[t * TILE_VECS..], left.div_ceil(4), U4::default());
            let mut b = [0u32; HISTO_VECS * 4];
            unroll!(i in 0..HISTO_VECS * 4 => {
                let e = ((i / 4) * HISTO_BLOCK as usize + rank) * 4 + i % 4;
                b[i] = if e < left { bin(v[i / 4].0[i % 4]) } else { MAX_BINS as u32 };
            });
            count.composite(&b, mine);
        }
    }
}

/// Zeroes the warps' sub-histograms (the block's dynamic shared memory,
/// `smem`), each thread a stride of them; a barrier must follow.
#[inline(always)]
fn clear(smem: &DynamicShared<u32>, rank: usize) {
    let mut i = rank;
    while i < HISTO_WARPS * MAX_BINS {
        smem.store(i, 0);
        i += HISTO_BLOCK as usize;
    }
}

/// Adds the block's count of bin `rank` (the sum over the warps'
/// sub-histograms in `smem`) to `hist[rank]`, for the first `bins`
/// threads: one global atomic per non-empty bin and block. The counting
/// must be done (a barrier since).
#[inline(always)]
fn flush(smem: &DynamicShared<u32>, rank: usize, bins: usize, hist: &AtomicSlice<u32>) {
    if rank < bins {
        let mut sum = 0u32;
        for w in 0..HISTO_WARPS {
            sum += smem.load(w * MAX_BINS + rank);
        }
        if sum > 0 {
            hist.at(rank).red_add(sum, Relaxed);
        }
    }
}

/// The histogram of the first `n` samples of `samples` (four per vector)
/// into `hist` (`bins` counters, zero before the launch), even bins over
/// `[lower, upper)`; `shift` is [`even_shift`]'s. Blocks of
/// [`HISTO_BLOCK`] threads with [`HISTO_SMEM_BYTES`] of dynamic shared
/// memory, any grid ([`histogram_grid`]).
#[kernel]
pub fn device_histogram_even(
    samples: GlobalSlice<U4>,
    n: u32,
    lower: u32,
    upper: u32,
    bins: u32,
    shift: u32,
    hist: AtomicSlice<u32>,
) {
    let block = this_thread_block().with_threads::<HISTO_BLOCK>();
    let rank = block.thread_rank() as usize;
    let smem = dynamic_shared::<u32>();
    clear(&smem, rank);
    block.sync();
    let walk = Walk::new(&block, rank, &smem, &samples, n);
    let inside = move |s: u32| s >= lower && s < upper;
    // One loop per binning, chosen once (the division's code would
    // otherwise sit beside the shift's for every sample).
    if shift < 32 {
        let bin = move |s: u32| {
            if inside(s) {
                s.wrapping_sub(lower) >> (shift & 31)
            } else {
                MAX_BINS as u32
            }
        };
        walk.run(bin);
    } else {
        let range = (upper.wrapping_sub(lower) as u64).max(1);
        let bin = move |s: u32| {
            if inside(s) {
                (s.wrapping_sub(lower) as u64 * bins as u64 / range) as u32
            } else {
                MAX_BINS as u32
            }
        };
        walk.run(bin);
    }
    block.sync();
    flush(&smem, rank, (bins as usize).min(MAX_BINS), &hist);
}

/// The histogram of the first `n` samples of `samples` (four per vector)
/// into `hist` (`levels.len() − 1` counters, at most [`MAX_BINS`], zero
/// before the launch), bin `i` covering `[levels[i], levels[i + 1])` for
/// ascending `levels`; samples outside `[levels[0], levels[last])` count
/// nowhere — CUB's `DeviceHistogram::HistogramRange` of integer samples.
/// The levels are staged in shared memory and each sample's bin found by
/// a branch-free binary search (nine steps for 256 bins); the rest is
/// [`device_histogram_even`]'s: per-warp sub-histograms, one global atomic
/// per bin and block. Blocks of [`HISTO_BLOCK`] threads with
/// [`HISTO_SMEM_BYTES`] of dynamic shared memory, any grid.
#[kernel]
pub fn device_histogram_range(
    samples: GlobalSlice<U4>,
    n: u32,
    levels: GlobalSlice<u32>,
    hist: AtomicSlice<u32>,
) {
    let block = this_thread_block().with_threads::<HISTO_BLOCK>();
    let rank = block.thread_rank() as usize;
    let smem = dynamic_shared::<u32>();
    clear(&smem, rank);
    // The levels, padded past the last with `u32::MAX` (never `<= s` for
    // a sample inside the range).
    let bins = levels.len().saturating_sub(1).min(MAX_BINS);
    let lv = cooperative_groups::shared_array!(u32; MAX_BINS + 1);
    let mut i = rank;
    while i <= MAX_BINS {
        lv.store(i, if i <= bins { levels.load(i) } else { u32::MAX });
        i += HISTO_BLOCK as usize;
    }
    block.sync();
    let walk = Walk::new(&block, rank, &smem, &samples, n);
    let (lo, hi) = (lv.load(0), lv.load(bins));
    let bin = move |s: u32| {
        if bins == 0 || s < lo || s >= hi {
            return MAX_BINS as u32;
        }
        // The largest `p <= bins` with `levels[p] <= s`: below `bins`,
        // since `s < levels[bins]`.
        let mut p = 0usize;
        let mut step = MAX_BINS;
        while step > 0 {
            let q = p + step;
            if q <= MAX_BINS && lv.load(q) <= s {
                p = q;
            }
            step /= 2;
        }
        p as u32
    };
    walk.run(bin);
    block.sync();
    flush(&smem, rank, bins, &hist);
}
