//! CUB's warp and block primitives, in Rust: loads and stores of tiles,
//! exchanges between arrangements, reductions and scans over several items
//! per thread, radix and merge sorts, histograms, discontinuities,
//! adjacent differences, shuffles and run-length decoding — on the
//! simulator and on the GPU, from the same source.
//!
//! | CUB | here | shared memory |
//! | --- | --- | --- |
//! | `LoadDirectBlocked`, `LoadDirectStriped`, `StoreDirect…` | [`direct`] | none |
//! | `ThreadReduce`, `ThreadScan` | [`thread`] | none |
//! | `WarpExchange` | [`WarpExchange`] | [`TempStorage`] |
//! | `WarpLoad`, `WarpStore` | [`WarpLoad`], [`WarpStore`] | for [`Transpose`] |
//! | `WarpReduce`, `WarpScan` (several items per thread) | [`WarpReduce`], [`WarpScan`] | none |
//! | `WarpMergeSort` | [`WarpMergeSort`] | [`TempStorage`] |
//! | `BlockExchange` | [`BlockExchange`] | [`TempStorage`] |
//! | `BlockLoad`, `BlockStore` | [`BlockLoad`], [`BlockStore`] | for [`Transpose`], [`WarpTranspose`] |
//! | `BlockReduce`, `BlockScan` (several items per thread) | [`BlockReduce`], [`BlockScan`] | the library's collective scratch |
//! | `BlockRadixSort` | [`BlockRadixSort`] ([`RadixSortOptions`]) | [`TempStorage`] |
//! | `BlockMergeSort` | [`BlockMergeSort`] | [`TempStorage`] |
//! | `BlockHistogram` | [`BlockHistogram`] ([`HistogramAtomic`], [`HistogramSort`]) | the bins; storage for sorting |
//! | `BlockDiscontinuity` | [`BlockDiscontinuity`] | [`TempStorage`] |
//! | `BlockAdjacentDifference` | [`BlockAdjacentDifference`] | [`TempStorage`] |
//! | `BlockShuffle` | [`BlockShuffle`] | [`TempStorage`] |
//! | `BlockRunLengthDecode` | [`BlockRunLengthDecode`] | [`TempStorage`] |
//!
//! # Sizes are types
//!
//! As in CUB, the group's size and the items per thread are compile-time
//! parameters: `BlockRadixSort<u32, 256, 8>` sorts 2048 keys in a block
//! of 256 threads. A block primitive takes the
//! [`ThreadBlock<BLOCK>`](crate::ThreadBlock) that
//! [`this_thread_block().with_threads::<BLOCK>()`](crate::ThreadBlock::with_threads)
//! returns (a block of another size traps), a warp primitive the
//! [`ThreadBlockTile<W>`](crate::ThreadBlockTile) of `W ≤ 32` threads it
//! works on. Items are plain arrays `[T; ITEMS]` in registers, of any
//! [`ShflValue`](crate::ShflValue) (integers, floats, arrays of them).
//!
//! # Arrangements
//!
//! A group of `P` threads with `ITEMS` items each holds a tile of
//! `P · ITEMS` items:
//!
//! * **blocked**: thread `r` holds items `r · ITEMS .. r · ITEMS + ITEMS`
//!   (what sorts, scans and discontinuities work on);
//! * **striped**: thread `r` holds items `r, r + P, r + 2P, …` (what
//!   coalesced loads give);
//! * **warp-striped**: warp `w` holds the `32 · ITEMS` items from
//!   `32 · ITEMS · w`, striped over its lanes (coalesced per warp, no
//!   block barrier to rearrange).
//!
//! # Temporary storage
//!
//! A primitive that exchanges through shared memory works in a
//! [`TempStorage`], sized by its type ([`NeedsTempStorage`]) and declared
//! with [`temp_storage!`](crate::temp_storage); several primitives can
//! share one, used in turn with a barrier between (see
//! [`storage`](self::TempStorage)), which the simulator's race detector
//! checks.
//!
//! # Global memory
//!
//! Loads read a `&[T]` that starts at the group's tile; stores write
//! through a raw pointer (`unsafe`: the caller promises the tile is its
//! group's), or safely into what an [`OwnedSlice`](crate::OwnedSlice)'s
//! partition gives the writers: the block's striped
//! [`PerBlock`](crate::PerBlock) window
//! ([`BlockStore::store_window`], striped algorithms), a thread's blocked
//! [`Chunked`](crate::Chunked) chunk ([`BlockStore::store_chunk`], blocked
//! algorithms; see [`algorithm`]). Bounds are checked once per call. On the
//! simulator the race detector sees every store.
//!
//! # Where they differ from CUB
//!
//! Where CUB leaves a case undefined, these define it:
//!
//! | case | CUB | here |
//! | --- | --- | --- |
//! | a block of another size than the type's `BLOCK` | undefined | a contract violation: a panic on the simulator, a trap on the GPU |
//! | `BlockHistogram` samples at or above `BINS` | undefined (samples must lie in `[0, BINS)`) | not counted |
//! | `BlockRunLengthDecode`: a zero-length run followed by a non-empty one | not allowed | decoded (it contributes no items) |
//! | `BlockRunLengthDecode`: items at or past the decoded total | the last run's value; a window starting past the total is undefined | the caller's `oob` value with offset 0, for any window |
//!
//! # Layers
//!
//! One concept per module, each layer using only the ones below it, as
//! CUB's block primitives are built from its warp ones: the thread layer
//! ([`direct`], [`thread`], the storage and the global-memory accesses),
//! the warp layer (`primitives::warp`), the block layer
//! (`primitives::block`: its warp-striped exchanges and [`WarpTranspose`]
//! loads are warp primitives in each warp's part of the storage, its merge
//! sort starts with the warp merge sort's passes). The primitives use the
//! collectives ([`reduce`](crate::reduce), the scans, shuffles); no
//! collective uses them (`tests/layers.rs`).

/// `unroll!(i in 0..N => { … })`: the body once per `i` below `N` (a
/// constant expression, e.g. a `usize` const generic such as an array
/// length), as straight-line code for `N ≤ 32` — CUB's `#pragma unroll`;
/// a plain loop beyond 32. `i` is a constant in each copy, so per-item
/// arrays indexed by it stay in registers. For a trip count known only at
/// run time, unrolled `K` calls at a time, see the function
/// [`unroll()`](crate::unroll()).
///
/// LLVM's own unroller leaves loops rolled whose bodies hold warp
/// collectives (votes, shuffles) or are as heavy as a radix sort's counter
/// update; the per-item arrays then go to local memory. nvcc unrolls such
/// loops under `#pragma unroll`; this is the Rust spelling.
///
/// ```
/// fn sums<const N: usize>(x: [u32; N]) -> u32 {
///     let mut s = 0;
///     cooperative_groups::unroll!(i in 0..N => { s += x[i]; });
///     s
/// }
/// assert_eq!(sums([1, 2, 3]), 6);
/// ```
#[macro_export]
macro_rules! unroll {
    ($i:ident in 0..$n:expr => $body:block) => {{
        if $n <= 32 {
            $crate::unroll!(@each $i, $n, $body;
                0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15
                16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31);
        } else {
            let mut k = 0usize;
            while k < $n {
                let $i: usize = k;
                $body
                k += 1;
            }
        }
    }};
    (@each $i:ident, $n:expr, $body:block; $($k:literal)*) => {
        $( {
            #[allow(clippy::identity_op, clippy::erasing_op)]
            let $i: usize = $k;
            if $i < $n $body
        } )*
    };
}

pub mod algorithm;
mod arrange;
pub(crate) mod block;
pub mod direct;
pub(crate) mod global;
mod items;
pub(crate) mod storage;
pub mod thread;
pub(crate) mod warp;

pub use algorithm::{
    BlockAlgorithm, BlockedGlobal, Direct, NoStorage, Striped, StripedGlobal, Transpose, Vectorize,
    WarpAlgorithm, WarpTranspose,
};
pub use block::adjacent_difference::BlockAdjacentDifference;
pub use block::discontinuity::BlockDiscontinuity;
pub use block::exchange::BlockExchange;
pub use block::histogram::{
    BlockHistogram, HistogramAlgorithm, HistogramAtomic, HistogramSample, HistogramSort,
};
pub use block::load::BlockLoad;
pub use block::merge_sort::BlockMergeSort;
pub use block::radix_sort::{BlockRadixSort, RadixKey, RadixSortOptions};
pub use block::reduce::BlockReduce;
pub use block::run_length_decode::BlockRunLengthDecode;
pub use block::scan::BlockScan;
pub use block::shuffle::BlockShuffle;
pub use block::store::BlockStore;
pub use storage::{Chunk, NeedsTempStorage, TempStorage};
pub use warp::exchange::WarpExchange;
pub use warp::load::WarpLoad;
pub use warp::merge_sort::WarpMergeSort;
pub use warp::reduce::WarpReduce;
pub use warp::scan::WarpScan;
pub use warp::store::WarpStore;

/// Declares the [`TempStorage`] of one or more primitives in this block's
/// static shared memory — CUB's `__shared__ typename P::TempStorage` (a
/// `union` of them for several) — and evaluates to its handle.
///
/// `temp_storage!(P)` is a `TempStorage<P>`, `temp_storage!(P, Q)` a
/// `TempStorage<(P, Q)>` large enough for each, `temp_storage!([P; N])`
/// `N` parts ([`TempStorage::part`]). One allocation per call site and
/// block (a [`shared_array!`](crate::shared_array) of 16-byte chunks); the
/// types must be concrete (in a generic kernel, carve the storage from
/// dynamic shared memory: [`TempStorage::from_dynamic`]).
///
/// ```
/// use cooperative_groups::prelude::*;
/// use cooperative_groups::primitives::{BlockLoad, BlockRadixSort, BlockStore, Transpose};
/// use cooperative_groups::temp_storage;
/// # let dev = cg_sim::SimDevice { stack_size: 4 << 20, ..Default::default() };
/// let input: Vec<u32> = (0..256).rev().collect();
/// let mut out = vec![0u32; 256];
/// let o = out.as_mut_ptr() as usize;
/// # cg_sim::launch_on(&dev, &cg_sim::LaunchConfig::new(1, 64), &|| {
/// type Load = BlockLoad<u32, 64, 4, Transpose>;
/// type Sort = BlockRadixSort<u32, 64, 4>;
/// type Store = BlockStore<u32, 64, 4, Transpose>;
/// let block = this_thread_block().with_threads::<64>();
/// let temp = temp_storage!(Load, Sort, Store);
/// let mut keys = Load::new(&block, &temp).load(&input);
/// block.sync();
/// Sort::new(&block, &temp).sort(&mut keys);
/// block.sync();
/// // SAFETY: the 256 outputs are this block's, each written once.
/// unsafe { Store::new(&block, &temp).store(o as *mut u32, keys) };
/// # }).unwrap();
/// assert_eq!(out, (0..256).collect::<Vec<u32>>());
/// ```
#[macro_export]
macro_rules! temp_storage {
    ($t:ty $(,)?) => {
        $crate::primitives::TempStorage::<$t>::from_array($crate::shared_array!(
            $crate::primitives::Chunk;
            <$t as $crate::primitives::NeedsTempStorage>::CHUNKS
        ))
    };
    ($($t:ty),+ $(,)?) => {
        $crate::temp_storage!(($($t,)+))
    };
}
