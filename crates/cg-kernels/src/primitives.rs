//! The primitives experiment of `cg-lab compare --only primitives`: the
//! library's block and warp primitives against CUB's, kernel for kernel
//! (`reference/cuda/primitives.cu` holds the C++ twins, `cub_*` for each
//! `prim_*` here), at blocks of 128, 256 and 512 threads, [`ITEMS`] items
//! per thread unless said otherwise. Where nvcc unrolls the twin's loop of
//! rounds (K = 2 or 4 times), the Rust kernel's is unrolled as often with
//! [`unroll()`](cooperative_groups::unroll()) (LLVM leaves loops with
//! collectives rolled); "rounds" below are otherwise plain loops.
//!
//! * `prim_copy_<algo>_<B>`: one tile per block, [`BlockLoad`] then
//!   [`BlockStore`] with the same algorithm (`Direct`, `Striped`,
//!   `Vectorize`, `Transpose`, `WarpTranspose`), each with its own storage
//!   (no barrier between); the output is the input.
//! * `prim_exchange_<B>`: a striped tile, then `reps` rounds of
//!   [`BlockExchange`] striped → blocked, `x = 3x + p` at each item's tile
//!   position `p`, blocked → striped (a block barrier after each
//!   exchange), stored striped. `prim_exchange_warp_<B>`: the same with
//!   the warp-striped arrangement (a warp barrier after each exchange).
//! * `prim_radix_keys_<B>`, `prim_radix_pairs_<B>`: a blocked tile of
//!   `u32` keys, `reps` rounds of [`BlockRadixSort`] (all 32 bits,
//!   ascending; the keys xor-ed with a round constant before each round
//!   but the first), stored blocked; the pairs' values are the keys' tile
//!   positions, stored after the `n` keys.
//! * `prim_histo_atomic_<B>`, `prim_histo_sort_<B>`: blocks take tiles of
//!   [`HISTO_ITEMS`] bytes per thread in turn, count each tile `reps`
//!   times into 256 bins in shared memory ([`BlockHistogram`] with
//!   `HistogramAtomic` or `HistogramSort`), and add their bins to the 256
//!   global counters (`red.global.add`). Only whole tiles are counted.
//! * `prim_merge_sort_<B>`, `prim_warp_merge_sort_<B>`: a blocked tile of
//!   [`MERGE_ITEMS`] `u32` keys per thread, `reps` rounds of
//!   [`BlockMergeSort`] (`a < b`; each warp's `32 · MERGE_ITEMS` keys
//!   with [`WarpMergeSort`], in its part of the storage), the keys xor-ed
//!   with a round constant before each round but the first (no barrier
//!   between rounds: the library's sort ends with one, CUB's starts with
//!   one), stored blocked.
//! * `prim_discontinuity_<B>`: a blocked tile, `reps` rounds of
//!   [`BlockDiscontinuity::flag_heads_and_tails`] (`a > b`), each item
//!   then `x = 3x + head + 2 tail`, a block barrier after each round (K =
//!   2); stored blocked.
//! * `prim_adjacent_left_<B>`, `prim_adjacent_right_<B>`: a blocked tile,
//!   `reps` rounds of [`BlockAdjacentDifference`] `subtract_left` /
//!   `subtract_right` (wrapping `a - b`), a block barrier after each (K =
//!   4); stored blocked.
//! * `prim_shuffle_offset_<B>`, `prim_shuffle_rotate_<B>`: a blocked tile,
//!   `reps` rounds of [`BlockShuffle`] `offset(x, -1)` (thread 0 keeps
//!   its item) / `rotate(x, 1)` of each of the thread's items in turn, a
//!   block barrier after each call; `prim_shuffle_up_<B>`,
//!   `prim_shuffle_down_<B>`: `reps` rounds of `up_with_suffix` /
//!   `down_with_prefix` with the previous round's suffix / prefix (0 at
//!   first) as the fill, a block barrier after each (K = 4); stored
//!   blocked. At 128 threads these two cap their registers at CUB's 24
//!   (`#[kernel(max_registers(24))]`; ptxas takes 32 otherwise, and the
//!   SM's register file is then full: 1.013 -> 1.006 CUB's time for `up`).
//! * `prim_run_length_decode_<B>`: [`BlockRunLengthDecode`] of
//!   [`RLD_RUNS`] runs per thread (the input words: values xor-ed with the
//!   round constant, lengths [`rld_length`], 1 to 8), `reps` rounds of
//!   construction (a block scan of the lengths) and the decoding of every
//!   window of `B ·` [`RLD_DECODED`] items, each valid item folded into
//!   the thread's accumulators (`acc = 3 acc + item + offset`), a block
//!   barrier after each round; the accumulators stored blocked, `B ·
//!   RLD_DECODED` words per block.
//! * `prim_block_reduce_<B>`, `prim_warp_reduce_<B>`: a blocked tile,
//!   `reps` rounds of [`BlockReduce::sum`] / [`WarpReduce::sum`] (every
//!   thread gets its block's / warp's total; K = 4, 2 for the block at
//!   512), each item then `x += total`; stored blocked.
//! * `prim_block_scan_<B>`, `prim_warp_scan_<B>`: a blocked tile, `reps`
//!   rounds of [`BlockScan::inclusive_sum`] / [`WarpScan::inclusive_sum`]
//!   (K = 2 for the block at 128, 1 above; 4 for the warp); stored
//!   blocked.
//! * `prim_warp_copy_<algo>_<B>`: one tile of `32 · ITEMS` per warp,
//!   [`WarpLoad`] then [`WarpStore`] with the same algorithm (`Direct`,
//!   `Striped`, `Vectorize`, `Transpose`), each warp in its part of each
//!   storage; the output is the input (a partial last warp tile, warps
//!   past `n` idle).
//! * `prim_warp_exchange_<B>`: `prim_exchange_warp_<B>` with
//!   [`WarpExchange`] (striped ↔ blocked in the warp's part of the
//!   storage, a warp barrier after each exchange; K = 4).
//!
//! Every kernel but the copies declares its block
//! (`#[kernel(block_dim(B))]`, as CUB's twins are written for `blockDim.x
//! == B`). Every kernel takes `(input, output, n, reps)` ([`PrimArgs`]); `n` is
//! in elements (`u32`), bytes for the histograms, runs for the run-length
//! decode.

use cooperative_groups::atomic::red_add;
use cooperative_groups::intrinsics::{block_idx, grid_dim};
use cooperative_groups::prelude::*;
use cooperative_groups::primitives::{
    BlockAdjacentDifference, BlockAlgorithm, BlockDiscontinuity, BlockExchange, BlockHistogram,
    BlockLoad, BlockMergeSort, BlockRadixSort, BlockReduce, BlockRunLengthDecode, BlockScan,
    BlockShuffle, BlockStore, Direct, HistogramAlgorithm, HistogramAtomic, HistogramSort,
    NeedsTempStorage, Striped, TempStorage, Transpose, Vectorize, WarpAlgorithm, WarpExchange,
    WarpLoad, WarpMergeSort, WarpReduce, WarpScan, WarpStore, WarpTranspose, direct,
};
use cooperative_groups::{kernel, shared_array, temp_storage, unroll};

/// Items per thread of the copy, exchange and sort kernels.
pub const ITEMS: usize = 8;
/// Samples (bytes) per thread of the histogram kernels.
pub const HISTO_ITEMS: usize = 16;
/// Bins of the histogram kernels.
pub const BINS: usize = 256;
/// Keys per thread of the merge sorts (what CUB's `BlockMergeSort` and
/// `WarpMergeSort` examples use).
pub const MERGE_ITEMS: usize = 4;
/// Runs per thread of the run-length decode (CUB's example's).
pub const RLD_RUNS: usize = 2;
/// Decoded items per thread and window of the run-length decode (CUB's
/// example's).
pub const RLD_DECODED: usize = 4;

/// Parameters of every kernel of the experiment: `(input, output, n, reps)`.
pub type PrimArgs = (*const u32, *mut u32, u32, u32);

/// The round constant of radix-sort round `r`.
pub const fn round_key(r: u32) -> u32 {
    r.wrapping_mul(0x9e37_79b9)
}

/// One tile per block: load with `A`, store with `A`.
#[inline(always)]
#[track_caller]
fn copy_body<const B: u32, A: BlockAlgorithm, L: NeedsTempStorage, M: NeedsTempStorage>(
    load_temp: &TempStorage<L>,
    store_temp: &TempStorage<M>,
    input: *const u32,
    output: *mut u32,
    n: u32,
) {
    let block = this_thread_block().with_threads::<B>();
    let tile = B as usize * ITEMS;
    let n = n as usize;
    let base = block_idx().x as usize * tile;
    if base >= n {
        return;
    }
    // SAFETY: the launcher passes `n` readable elements.
    let src = unsafe { core::slice::from_raw_parts(input, n) };
    let load = BlockLoad::<u32, B, ITEMS, A>::new(&block, load_temp);
    let store = BlockStore::<u32, B, ITEMS, A>::new(&block, store_temp);
    let dst = output.wrapping_add(base);
    if base + tile <= n {
        let x = load.load(&src[base..]);
        // SAFETY: this block's tile of the `n` outputs, each written once.
        unsafe { store.store(dst, x) };
    } else {
        let valid = n - base;
        let x = load.load_partial(&src[base..], valid, 0);
        // SAFETY: as above, the first `valid`.
        unsafe { store.store_partial(dst, valid, x) };
    }
}

/// `x = 3x + p` for the blocked items of thread `rank`.
#[inline(always)]
fn transform(x: &mut [u32; ITEMS], rank: u32) {
    for (i, v) in x.iter_mut().enumerate() {
        *v = v
            .wrapping_mul(3)
            .wrapping_add(rank * ITEMS as u32 + i as u32);
    }
}

/// Exchange rounds on whole tiles (one tile per block; `n` a multiple of
/// the tile).
#[inline(always)]
#[track_caller]
fn exchange_body<const B: u32, const WARP: bool, L: NeedsTempStorage>(
    temp: &TempStorage<L>,
    input: *const u32,
    output: *mut u32,
    n: u32,
    reps: u32,
) {
    let block = this_thread_block().with_threads::<B>();
    let warp = tiled_partition::<32>(&block);
    let tile = B as usize * ITEMS;
    let base = block_idx().x as usize * tile;
    if base + tile > n as usize {
        return;
    }
    // SAFETY: the tile lies inside the `n` inputs.
    let src = unsafe { core::slice::from_raw_parts(input.add(base), tile) };
    let r = rank_in(&block);
    let ex = BlockExchange::<u32, B, ITEMS>::new(&block, temp);
    let (lane, wbase) = (r & 31, (r / 32) as usize * 32 * ITEMS);
    let mut x: [u32; ITEMS] = if WARP {
        direct::load_striped::<32, u32, ITEMS>(lane, &src[wbase..])
    } else {
        direct::load_striped::<B, u32, ITEMS>(r, src)
    };
    for _ in 0..reps {
        if WARP {
            x = ex.warp_striped_to_blocked(x);
            warp.sync();
            transform(&mut x, r);
            x = ex.blocked_to_warp_striped(x);
            warp.sync();
        } else {
            x = ex.striped_to_blocked(x);
            block.sync();
            transform(&mut x, r);
            x = ex.blocked_to_striped(x);
            block.sync();
        }
    }
    // SAFETY: this block's tile of the outputs, each element written once.
    unsafe {
        if WARP {
            direct::store_striped::<32, u32, ITEMS>(lane, output.add(base + wbase), &x)
        } else {
            direct::store_striped::<B, u32, ITEMS>(r, output.add(base), &x)
        }
    }
}

/// Sort rounds on whole tiles of `N` keys per thread (one tile per
/// block): `sort_round` sorts the keys once (and moves what it holds with
/// them); the keys are xor-ed with a round constant before each round but
/// the first, then (`SYNC`) the block syncs.
#[inline(always)]
#[track_caller]
fn sort_rounds<const B: u32, const N: usize, const SYNC: bool>(
    input: *const u32,
    n: u32,
    reps: u32,
    mut sort_round: impl FnMut(&mut [u32; N]),
) -> Option<(u32, usize, [u32; N])> {
    let block = this_thread_block().with_threads::<B>();
    let tile = B as usize * N;
    let base = block_idx().x as usize * tile;
    if base + tile > n as usize {
        return None;
    }
    // SAFETY: the tile lies inside the `n` inputs.
    let src = unsafe { core::slice::from_raw_parts(input.add(base), tile) };
    let r = block.thread_rank();
    let mut keys: [u32; N] = direct::load_blocked(r, src);
    for round in 0..reps {
        if round > 0 {
            let k = round_key(round);
            for v in keys.iter_mut() {
                *v ^= k;
            }
            if SYNC {
                block.sync();
            }
        }
        sort_round(&mut keys);
    }
    Some((r, base, keys))
}

/// Radix-sort rounds: [`sort_rounds`] of [`ITEMS`] keys, the block synced
/// before each round but the first.
#[inline(always)]
#[track_caller]
fn radix_rounds<const B: u32>(
    input: *const u32,
    n: u32,
    reps: u32,
    sort_round: impl FnMut(&mut [u32; ITEMS]),
) -> Option<(u32, usize, [u32; ITEMS])> {
    sort_rounds::<B, ITEMS, true>(input, n, reps, sort_round)
}

/// [`radix_rounds`] of keys only.
#[inline(always)]
#[track_caller]
fn radix_keys_body<const B: u32, L: NeedsTempStorage>(
    temp: &TempStorage<L>,
    input: *const u32,
    output: *mut u32,
    n: u32,
    reps: u32,
) {
    let block = this_thread_block().with_threads::<B>();
    let sort = BlockRadixSort::<u32, B, ITEMS>::new(&block, temp);
    if let Some((r, base, keys)) = radix_rounds::<B>(input, n, reps, |k| sort.sort(k)) {
        // SAFETY: this block's tile of the outputs.
        unsafe { direct::store_blocked(r, output.add(base), &keys) };
    }
}

/// [`radix_rounds`] of keys and values (the keys' tile positions), the
/// values stored `n` after the keys.
#[inline(always)]
#[track_caller]
fn radix_pairs_body<const B: u32, L: NeedsTempStorage>(
    temp: &TempStorage<L>,
    input: *const u32,
    output: *mut u32,
    n: u32,
    reps: u32,
) {
    let block = this_thread_block().with_threads::<B>();
    let r = rank_in(&block);
    let mut values: [u32; ITEMS] = core::array::from_fn(|i| r * ITEMS as u32 + i as u32);
    let sort = BlockRadixSort::<u32, B, ITEMS, u32>::new(&block, temp);
    let done = radix_rounds::<B>(input, n, reps, |k| sort.sort_pairs(k, &mut values));
    if let Some((r, base, keys)) = done {
        // SAFETY: this block's tile of the outputs (keys, and values `n` later).
        unsafe {
            direct::store_blocked(r, output.add(base), &keys);
            direct::store_blocked(r, output.add(n as usize + base), &values);
        }
    }
}

/// Histogram of the whole tiles of `n` bytes, each counted `reps` times.
#[inline(always)]
#[track_caller]
fn histo_body<const B: u32, A: HistogramAlgorithm, L: NeedsTempStorage>(
    temp: &TempStorage<L>,
    input: *const u32,
    output: *mut u32,
    n: u32,
    reps: u32,
) {
    let block = this_thread_block().with_threads::<B>();
    let bins = shared_array!(u32; BINS);
    let histo = BlockHistogram::<u8, B, HISTO_ITEMS, BINS, A>::new(&block, temp);
    histo.init(&bins);
    block.sync();
    let tile = B as usize * HISTO_ITEMS;
    let tiles = n as usize / tile;
    // SAFETY: the launcher passes `n` readable bytes.
    let bytes = unsafe { core::slice::from_raw_parts(input.cast::<u8>(), n as usize) };
    let r = rank_in(&block);
    let mut t = block_idx().x as usize;
    while t < tiles {
        let samples: [u8; HISTO_ITEMS] = direct::load_blocked(r, &bytes[t * tile..]);
        for _ in 0..reps {
            histo.composite(&samples, &bins);
            if A::SORT {
                block.sync();
            }
        }
        t += grid_dim().x as usize;
    }
    block.sync();
    let mut b = r as usize;
    while b < BINS {
        let c = bins.load(b);
        if c != 0 {
            // SAFETY: the launcher passes 256 counters.
            unsafe { red_add(output.add(b), c) };
        }
        b += B as usize;
    }
}

// Kernels of the block sizes `B`: each declares its block
// (`#[kernel(block_dim(B))]`, as CUB's twins are written for `blockDim.x ==
// B`), except the copies, whose block size is checked at run time
// (`with_threads`): their time is their global accesses, and with the
// shorter prologue of a declared block the direct copies' loads (the same
// instructions) hit L1 less often (ncu, H200: 74.9 -> 70.7 % for the warp
// copy at 256 threads) and took 8-14 % longer.
macro_rules! sized {
    ($b:literal, $copy_d:ident $copy_d_k:ident, $copy_s:ident $copy_s_k:ident,
     $copy_v:ident $copy_v_k:ident, $copy_t:ident $copy_t_k:ident, $copy_w:ident $copy_w_k:ident,
     $ex:ident $ex_k:ident, $exw:ident $exw_k:ident, $rk:ident $rk_k:ident, $rp:ident $rp_k:ident,
     $ha:ident $ha_k:ident, $hs:ident $hs_k:ident) => {
        #[doc = concat!("Copy with `Direct`, ", stringify!($b), " threads.")]
        #[kernel]
        pub fn $copy_d(input: *const u32, output: *mut u32, n: u32, _reps: u32) {
            let l = temp_storage!(BlockLoad<u32, $b, ITEMS, Direct>);
            let s = temp_storage!(BlockStore<u32, $b, ITEMS, Direct>);
            copy_body::<$b, Direct, _, _>(&l, &s, input, output, n)
        }
        #[doc = concat!("Copy with `Striped`, ", stringify!($b), " threads.")]
        #[kernel]
        pub fn $copy_s(input: *const u32, output: *mut u32, n: u32, _reps: u32) {
            let l = temp_storage!(BlockLoad<u32, $b, ITEMS, Striped>);
            let s = temp_storage!(BlockStore<u32, $b, ITEMS, Striped>);
            copy_body::<$b, Striped, _, _>(&l, &s, input, output, n)
        }
        #[doc = concat!("Copy with `Vectorize`, ", stringify!($b), " threads.")]
        #[kernel]
        pub fn $copy_v(input: *const u32, output: *mut u32, n: u32, _reps: u32) {
            let l = temp_storage!(BlockLoad<u32, $b, ITEMS, Vectorize>);
            let s = temp_storage!(BlockStore<u32, $b, ITEMS, Vectorize>);
            copy_body::<$b, Vectorize, _, _>(&l, &s, input, output, n)
        }
        #[doc = concat!("Copy with `Transpose`, ", stringify!($b), " threads.")]
        #[kernel]
        pub fn $copy_t(input: *const u32, output: *mut u32, n: u32, _reps: u32) {
            let l = temp_storage!(BlockLoad<u32, $b, ITEMS, Transpose>);
            let s = temp_storage!(BlockStore<u32, $b, ITEMS, Transpose>);
            copy_body::<$b, Transpose, _, _>(&l, &s, input, output, n)
        }
        #[doc = concat!("Copy with `WarpTranspose`, ", stringify!($b), " threads.")]
        #[kernel]
        pub fn $copy_w(input: *const u32, output: *mut u32, n: u32, _reps: u32) {
            let l = temp_storage!(BlockLoad<u32, $b, ITEMS, WarpTranspose>);
            let s = temp_storage!(BlockStore<u32, $b, ITEMS, WarpTranspose>);
            copy_body::<$b, WarpTranspose, _, _>(&l, &s, input, output, n)
        }
        #[doc = concat!("Striped ↔ blocked exchange rounds, ", stringify!($b), " threads.")]
        #[kernel(block_dim($b))]
        pub fn $ex(input: *const u32, output: *mut u32, n: u32, reps: u32) {
            let t = temp_storage!(BlockExchange<u32, $b, ITEMS>);
            exchange_body::<$b, false, _>(&t, input, output, n, reps)
        }
        #[doc = concat!("Warp-striped ↔ blocked exchange rounds, ", stringify!($b), " threads.")]
        #[kernel(block_dim($b))]
        pub fn $exw(input: *const u32, output: *mut u32, n: u32, reps: u32) {
            let t = temp_storage!(BlockExchange<u32, $b, ITEMS>);
            exchange_body::<$b, true, _>(&t, input, output, n, reps)
        }
        #[doc = concat!("Radix sort of keys, ", stringify!($b), " threads.")]
        #[kernel(block_dim($b))]
        pub fn $rk(input: *const u32, output: *mut u32, n: u32, reps: u32) {
            let t = temp_storage!(BlockRadixSort<u32, $b, ITEMS>);
            radix_keys_body::<$b, _>(&t, input, output, n, reps)
        }
        #[doc = concat!("Radix sort of pairs, ", stringify!($b), " threads.")]
        #[kernel(block_dim($b))]
        pub fn $rp(input: *const u32, output: *mut u32, n: u32, reps: u32) {
            let t = temp_storage!(BlockRadixSort<u32, $b, ITEMS, u32>);
            radix_pairs_body::<$b, _>(&t, input, output, n, reps)
        }
        #[doc = concat!("Histogram by shared atomics, ", stringify!($b), " threads.")]
        #[kernel(block_dim($b))]
        pub fn $ha(input: *const u32, output: *mut u32, n: u32, reps: u32) {
            let t = temp_storage!(BlockHistogram<u8, $b, HISTO_ITEMS, BINS, HistogramAtomic>);
            histo_body::<$b, HistogramAtomic, _>(&t, input, output, n, reps)
        }
        #[doc = concat!("Histogram by sorting, ", stringify!($b), " threads.")]
        #[kernel(block_dim($b))]
        pub fn $hs(input: *const u32, output: *mut u32, n: u32, reps: u32) {
            let t = temp_storage!(BlockHistogram<u8, $b, HISTO_ITEMS, BINS, HistogramSort>);
            histo_body::<$b, HistogramSort, _>(&t, input, output, n, reps)
        }
    };
}

sized!(128, prim_copy_direct_128 PRIM_COPY_DIRECT_128, prim_copy_striped_128 PRIM_COPY_STRIPED_128,
    prim_copy_vectorize_128 PRIM_COPY_VECTORIZE_128, prim_copy_transpose_128 PRIM_COPY_TRANSPOSE_128,
    prim_copy_warp_transpose_128 PRIM_COPY_WARP_TRANSPOSE_128, prim_exchange_128 PRIM_EXCHANGE_128,
    prim_exchange_warp_128 PRIM_EXCHANGE_WARP_128, prim_radix_keys_128 PRIM_RADIX_KEYS_128,
    prim_radix_pairs_128 PRIM_RADIX_PAIRS_128, prim_histo_atomic_128 PRIM_HISTO_ATOMIC_128,
    prim_histo_sort_128 PRIM_HISTO_SORT_128);
sized!(256, prim_copy_direct_256 PRIM_COPY_DIRECT_256, prim_copy_striped_256 PRIM_COPY_STRIPED_256,
    prim_copy_vectorize_256 PRIM_COPY_VECTORIZE_256, prim_copy_transpose_256 PRIM_COPY_TRANSPOSE_256,
    prim_copy_warp_transpose_256 PRIM_COPY_WARP_TRANSPOSE_256, prim_exchange_256 PRIM_EXCHANGE_256,
    prim_exchange_warp_256 PRIM_EXCHANGE_WARP_256, prim_radix_keys_256 PRIM_RADIX_KEYS_256,
    prim_radix_pairs_256 PRIM_RADIX_PAIRS_256, prim_histo_atomic_256 PRIM_HISTO_ATOMIC_256,
    prim_histo_sort_256 PRIM_HISTO_SORT_256);
sized!(512, prim_copy_direct_512 PRIM_COPY_DIRECT_512, prim_copy_striped_512 PRIM_COPY_STRIPED_512,
    prim_copy_vectorize_512 PRIM_COPY_VECTORIZE_512, prim_copy_transpose_512 PRIM_COPY_TRANSPOSE_512,
    prim_copy_warp_transpose_512 PRIM_COPY_WARP_TRANSPOSE_512, prim_exchange_512 PRIM_EXCHANGE_512,
    prim_exchange_warp_512 PRIM_EXCHANGE_WARP_512, prim_radix_keys_512 PRIM_RADIX_KEYS_512,
    prim_radix_pairs_512 PRIM_RADIX_PAIRS_512, prim_histo_atomic_512 PRIM_HISTO_ATOMIC_512,
    prim_histo_sort_512 PRIM_HISTO_SORT_512);

/// The caller's rank in a block of `B` threads, as `rank % B`: the same
/// value (the rank is below `B`), but the compiler then knows that it is
/// below `B` and drops the bounds checks of the tile's slices (`rank · N +
/// i < B · N`), as CUB's twins index raw pointers unchecked. Such a check
/// is a branch to `trap` that ptxas must treat as divergent: it put a
/// `WARPSYNC` before every barrier of the rounds after it (the 8-item warp
/// reduce: 472 static SASS instructions with it, 144 without; CUB's 136).
/// (`B` is a power of two here: one `and`.)
#[inline(always)]
fn rank_in<const B: u32>(block: &ThreadBlock<B>) -> u32 {
    block.thread_rank() % B
}

/// A whole tile of `N` items per thread at the start of block `block_idx`
/// (`None` for a block past the last whole tile), its base, and the
/// caller's blocked items of it.
#[inline(always)]
#[track_caller]
fn whole_tile<const B: u32, const N: usize>(
    input: *const u32,
    n: u32,
    rank: u32,
) -> Option<(usize, [u32; N])> {
    let tile = B as usize * N;
    let base = block_idx().x as usize * tile;
    if base + tile > n as usize {
        return None;
    }
    // SAFETY: the tile lies inside the `n` inputs.
    let src = unsafe { core::slice::from_raw_parts(input.add(base), tile) };
    Some((base, direct::load_blocked(rank, src)))
}

/// Merge-sort rounds of [`MERGE_ITEMS`] keys per thread ([`BlockMergeSort`],
/// `a < b`), as the radix kernels' rounds but with no barrier between
/// (the sort ends with one; CUB's starts with one).
#[inline(always)]
#[track_caller]
fn merge_sort_body<const B: u32, L: NeedsTempStorage>(
    temp: &TempStorage<L>,
    input: *const u32,
    output: *mut u32,
    n: u32,
    reps: u32,
) {
    let block = this_thread_block().with_threads::<B>();
    let sort = BlockMergeSort::<u32, B, MERGE_ITEMS>::new(&block, temp);
    let done = sort_rounds::<B, MERGE_ITEMS, false>(input, n, reps, |k| sort.sort(k, |a, b| a < b));
    if let Some((r, base, keys)) = done {
        // SAFETY: this block's tile of the outputs.
        unsafe { direct::store_blocked(r, output.add(base), &keys) };
    }
}

/// Merge-sort rounds per warp ([`WarpMergeSort`] of its `32 ·`
/// [`MERGE_ITEMS`] keys, in its part of the storage): the rounds of
/// [`merge_sort_body`], each warp's run of the tile sorted on its own.
#[inline(always)]
#[track_caller]
fn warp_merge_sort_body<const B: u32, const W: usize>(
    temp: &TempStorage<[WarpMergeSort<u32, MERGE_ITEMS>; W]>,
    input: *const u32,
    output: *mut u32,
    n: u32,
    reps: u32,
) {
    let block = this_thread_block().with_threads::<B>();
    let warp = tiled_partition::<32>(&block);
    let sort = WarpMergeSort::<u32, MERGE_ITEMS>::new(&warp, &temp.part(warp.meta_group_rank()));
    let done = sort_rounds::<B, MERGE_ITEMS, false>(input, n, reps, |k| sort.sort(k, |a, b| a < b));
    if let Some((r, base, keys)) = done {
        // SAFETY: this block's tile of the outputs.
        unsafe { direct::store_blocked(r, output.add(base), &keys) };
    }
}

/// `reps` rounds of [`BlockDiscontinuity::flag_heads_and_tails`] (`a > b`:
/// a descent) on a blocked tile, each item then `x = 3x + head + 2 tail`,
/// a block barrier after each round (the loop of rounds unrolled `K`
/// times); stored blocked.
#[inline(always)]
#[track_caller]
fn discontinuity_body<const B: u32, const K: u32, L: NeedsTempStorage>(
    temp: &TempStorage<L>,
    input: *const u32,
    output: *mut u32,
    n: u32,
    reps: u32,
) {
    let block = this_thread_block().with_threads::<B>();
    let r = rank_in(&block);
    let Some((base, mut x)) = whole_tile::<B, ITEMS>(input, n, r) else {
        return;
    };
    let flags = BlockDiscontinuity::<u32, B>::new(&block, temp);
    unroll::<K>(reps, |_| {
        let (heads, tails) = flags.flag_heads_and_tails(&x, |a, b| a > b);
        unroll!(i in 0..ITEMS => {
            x[i] = x[i]
                .wrapping_mul(3)
                .wrapping_add(heads[i] as u32 + 2 * tails[i] as u32);
        });
        block.sync();
    });
    // SAFETY: this block's tile of the outputs.
    unsafe { direct::store_blocked(r, output.add(base), &x) };
}

/// `reps` rounds of [`BlockAdjacentDifference`] `subtract_left`
/// (`RIGHT == false`) or `subtract_right` (wrapping `a - b`) on a blocked
/// tile, a block barrier after each round (unrolled `K` times); stored
/// blocked.
#[inline(always)]
#[track_caller]
fn adjacent_body<const B: u32, const K: u32, const RIGHT: bool, L: NeedsTempStorage>(
    temp: &TempStorage<L>,
    input: *const u32,
    output: *mut u32,
    n: u32,
    reps: u32,
) {
    let block = this_thread_block().with_threads::<B>();
    let r = rank_in(&block);
    let Some((base, mut x)) = whole_tile::<B, ITEMS>(input, n, r) else {
        return;
    };
    let diff = BlockAdjacentDifference::<u32, B>::new(&block, temp);
    unroll::<K>(reps, |_| {
        x = if RIGHT {
            diff.subtract_right(&x, |a, b| a.wrapping_sub(b))
        } else {
            diff.subtract_left(&x, |a, b| a.wrapping_sub(b))
        };
        block.sync();
    });
    // SAFETY: this block's tile of the outputs.
    unsafe { direct::store_blocked(r, output.add(base), &x) };
}

/// Which [`BlockShuffle`] method a shuffle kernel times.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Shuffle {
    /// `offset(x, -1)` of each item in turn (thread 0 keeps its own).
    Offset,
    /// `rotate(x, 1)` of each item in turn.
    Rotate,
    /// `up_with_suffix(x, fill)`, `fill` the previous round's suffix (0 at
    /// first).
    Up,
    /// `down_with_prefix(x, fill)`, `fill` the previous round's prefix.
    Down,
}

/// `reps` rounds of the [`BlockShuffle`] method `which` on a blocked tile, a
/// block barrier after each call (the rounds unrolled `K` times); stored
/// blocked.
#[inline(always)]
#[track_caller]
fn shuffle_body<const B: u32, const K: u32, L: NeedsTempStorage>(
    which: Shuffle,
    temp: &TempStorage<L>,
    input: *const u32,
    output: *mut u32,
    n: u32,
    reps: u32,
) {
    let block = this_thread_block().with_threads::<B>();
    let r = rank_in(&block);
    let Some((base, mut x)) = whole_tile::<B, ITEMS>(input, n, r) else {
        return;
    };
    let sh = BlockShuffle::<u32, B>::new(&block, temp);
    let mut fill = 0u32;
    unroll::<K>(reps, |_| match which {
        Shuffle::Offset => unroll!(i in 0..ITEMS => {
            x[i] = sh.offset(x[i], -1).unwrap_or(x[i]);
            block.sync();
        }),
        Shuffle::Rotate => unroll!(i in 0..ITEMS => {
            x[i] = sh.rotate(x[i], 1);
            block.sync();
        }),
        Shuffle::Up => {
            (x, fill) = sh.up_with_suffix(&x, fill);
            block.sync();
        }
        Shuffle::Down => {
            (x, fill) = sh.down_with_prefix(&x, fill);
            block.sync();
        }
    });
    // SAFETY: this block's tile of the outputs.
    unsafe { direct::store_blocked(r, output.add(base), &x) };
}

/// Decoding rounds of [`BlockRunLengthDecode`] over tiles of
/// [`RLD_RUNS`] runs per thread: the run of input word `w` in round `k`
/// has the value `w ^ round_key(k)` and the length
/// [`rld_length`]`(w, k)` (1 to 8). Each round decodes every window of
/// `B ·` [`RLD_DECODED`] items and folds the thread's valid items into
/// its accumulators, `acc = 3 acc + item + offset in its run`; a block
/// barrier ends the round. The accumulators are stored blocked, `B ·`
/// [`RLD_DECODED`] words per block.
#[inline(always)]
#[track_caller]
fn rld_body<const B: u32, L: NeedsTempStorage>(
    temp: &TempStorage<L>,
    input: *const u32,
    output: *mut u32,
    n: u32,
    reps: u32,
) {
    let block = this_thread_block().with_threads::<B>();
    let r = rank_in(&block);
    let Some((_, words)) = whole_tile::<B, RLD_RUNS>(input, n, r) else {
        return;
    };
    let mut acc = [0u32; RLD_DECODED];
    for round in 0..reps {
        let k = round_key(round);
        let values = words.map(|w| w ^ k);
        let lengths = words.map(|w| rld_length(w, round));
        let (rld, total) = BlockRunLengthDecode::<u32, B, RLD_RUNS, RLD_DECODED>::new(
            &block, temp, &values, &lengths,
        );
        let mut from = 0;
        while from < total {
            let (items, offsets) = rld.decode(from, 0);
            let first = from + r * RLD_DECODED as u32;
            unroll!(i in 0..RLD_DECODED => {
                if first + (i as u32) < total {
                    acc[i] = acc[i].wrapping_mul(3).wrapping_add(items[i]).wrapping_add(offsets[i]);
                }
            });
            from += B * RLD_DECODED as u32;
        }
        block.sync();
    }
    let out = block_idx().x as usize * B as usize * RLD_DECODED;
    // SAFETY: this block's `B · RLD_DECODED` outputs.
    unsafe { direct::store_blocked(r, output.add(out), &acc) };
}

/// The run length of input word `w` in round `k` of the run-length
/// decode: 1 to 8 (CUB's decoder allows zero-length runs only at the end).
pub const fn rld_length(w: u32, k: u32) -> u32 {
    1 + ((w >> 24).wrapping_add(k) & 7)
}

/// `reps` rounds of [`BlockReduce::sum`] (every thread gets the block's
/// total) on a blocked tile, each item then `x += total` (unrolled `K`
/// times); stored blocked.
#[inline(always)]
#[track_caller]
fn block_reduce_body<const B: u32, const K: u32>(
    input: *const u32,
    output: *mut u32,
    n: u32,
    reps: u32,
) {
    let block = this_thread_block().with_threads::<B>();
    // Not `rank_in`: with the rank known below B, LLVM branched around the
    // 128-thread reduce's last warp step in every round (0.936 -> 1.062× CUB).
    let r = block.thread_rank();
    let Some((base, mut x)) = whole_tile::<B, ITEMS>(input, n, r) else {
        return;
    };
    let reduce = BlockReduce::new(&block);
    unroll::<K>(reps, |_| {
        let total = reduce.sum(&x);
        unroll!(i in 0..ITEMS => { x[i] = x[i].wrapping_add(total); });
    });
    // SAFETY: this block's tile of the outputs.
    unsafe { direct::store_blocked(r, output.add(base), &x) };
}

/// `reps` rounds of [`BlockScan::inclusive_sum`] on a blocked tile (each
/// round scans the previous one's sums; unrolled `K` times); stored
/// blocked.
#[inline(always)]
#[track_caller]
fn block_scan_body<const B: u32, const K: u32>(
    input: *const u32,
    output: *mut u32,
    n: u32,
    reps: u32,
) {
    let block = this_thread_block().with_threads::<B>();
    let r = rank_in(&block);
    let Some((base, mut x)) = whole_tile::<B, ITEMS>(input, n, r) else {
        return;
    };
    let scan = BlockScan::new(&block);
    unroll::<K>(reps, |_| x = scan.inclusive_sum(&x));
    // SAFETY: this block's tile of the outputs.
    unsafe { direct::store_blocked(r, output.add(base), &x) };
}

/// `reps` rounds of [`WarpReduce::sum`] (every lane gets its warp's total)
/// on each warp's blocked run of the tile, each item then `x += total`
/// (unrolled `K` times); stored blocked.
#[inline(always)]
#[track_caller]
fn warp_reduce_body<const B: u32, const K: u32>(
    input: *const u32,
    output: *mut u32,
    n: u32,
    reps: u32,
) {
    let block = this_thread_block().with_threads::<B>();
    let warp = tiled_partition::<32>(&block);
    let r = rank_in(&block);
    let Some((base, mut x)) = whole_tile::<B, ITEMS>(input, n, r) else {
        return;
    };
    let reduce = WarpReduce::new(&warp);
    unroll::<K>(reps, |_| {
        let total = reduce.sum(&x);
        unroll!(i in 0..ITEMS => { x[i] = x[i].wrapping_add(total); });
    });
    // SAFETY: this block's tile of the outputs.
    unsafe { direct::store_blocked(r, output.add(base), &x) };
}

/// `reps` rounds of [`WarpScan::inclusive_sum`] on each warp's blocked run
/// of the tile (unrolled `K` times); stored blocked.
#[inline(always)]
#[track_caller]
fn warp_scan_body<const B: u32, const K: u32>(
    input: *const u32,
    output: *mut u32,
    n: u32,
    reps: u32,
) {
    let block = this_thread_block().with_threads::<B>();
    let warp = tiled_partition::<32>(&block);
    let r = rank_in(&block);
    let Some((base, mut x)) = whole_tile::<B, ITEMS>(input, n, r) else {
        return;
    };
    let scan = WarpScan::new(&warp);
    unroll::<K>(reps, |_| x = scan.inclusive_sum(&x));
    // SAFETY: this block's tile of the outputs.
    unsafe { direct::store_blocked(r, output.add(base), &x) };
}

/// One warp tile of `32 ·` [`ITEMS`] per warp: [`WarpLoad`] then
/// [`WarpStore`] with algorithm `A`, each in its own part of its own
/// storage (no barrier between); a partial warp tile loads and stores its
/// valid items, a warp past `n` does nothing. The output is the input.
#[inline(always)]
#[track_caller]
fn warp_copy_body<const B: u32, const W: usize, A: WarpAlgorithm>(
    load_temp: &TempStorage<[WarpLoad<u32, ITEMS, A>; W]>,
    store_temp: &TempStorage<[WarpStore<u32, ITEMS, A>; W]>,
    input: *const u32,
    output: *mut u32,
    n: u32,
) {
    let block = this_thread_block().with_threads::<B>();
    let warp = tiled_partition::<32>(&block);
    let w = warp.meta_group_rank();
    let wtile = 32 * ITEMS;
    let n = n as usize;
    let base = block_idx().x as usize * B as usize * ITEMS + w as usize * wtile;
    if base >= n {
        return;
    }
    // SAFETY: the launcher passes `n` readable elements.
    let src = unsafe { core::slice::from_raw_parts(input, n) };
    let load = WarpLoad::<u32, ITEMS, A>::new(&warp, &load_temp.part(w));
    let store = WarpStore::<u32, ITEMS, A>::new(&warp, &store_temp.part(w));
    let dst = output.wrapping_add(base);
    if base + wtile <= n {
        let x = load.load(&src[base..]);
        // SAFETY: this warp's tile of the `n` outputs, each written once.
        unsafe { store.store(dst, x) };
    } else {
        let valid = n - base;
        let x = load.load_partial(&src[base..], valid, 0);
        // SAFETY: as above, the first `valid`.
        unsafe { store.store_partial(dst, valid, x) };
    }
}

/// Exchange rounds of each warp's part of a whole tile with
/// [`WarpExchange`] (in the warp's part of the storage): warp-striped
/// loads, `reps` rounds of striped → blocked, `x = 3x + p` at each item's
/// tile position `p`, blocked → striped (a warp barrier after each
/// exchange; unrolled `K` times), warp-striped stores —
/// `prim_exchange_warp_<B>` with the warp's own primitive.
#[inline(always)]
#[track_caller]
fn warp_exchange_body<const B: u32, const K: u32, const W: usize>(
    temp: &TempStorage<[WarpExchange<u32, ITEMS>; W]>,
    input: *const u32,
    output: *mut u32,
    n: u32,
    reps: u32,
) {
    let block = this_thread_block().with_threads::<B>();
    let warp = tiled_partition::<32>(&block);
    let tile = B as usize * ITEMS;
    let base = block_idx().x as usize * tile;
    if base + tile > n as usize {
        return;
    }
    let r = rank_in(&block);
    let (lane, wbase) = (r & 31, (r / 32) as usize * 32 * ITEMS);
    // SAFETY: the warp's part of the tile lies inside the `n` inputs.
    let src = unsafe { core::slice::from_raw_parts(input.add(base + wbase), 32 * ITEMS) };
    let ex = WarpExchange::<u32, ITEMS>::new(&warp, &temp.part(warp.meta_group_rank()));
    let mut x: [u32; ITEMS] = direct::load_striped::<32, u32, ITEMS>(lane, src);
    unroll::<K>(reps, |_| {
        x = ex.striped_to_blocked(x);
        warp.sync();
        transform(&mut x, r);
        x = ex.blocked_to_striped(x);
        warp.sync();
    });
    // SAFETY: this warp's part of the block's tile of the outputs.
    unsafe { direct::store_striped::<32, u32, ITEMS>(lane, output.add(base + wbase), &x) };
}

/// One kernel of the experiment at each block size (128, 256, 512): the
/// body sees the block size as the constant `B` and the parameters under
/// the names given.
macro_rules! at_sizes {
    ($what:literal, $k128:ident $k256:ident $k512:ident,
     |$input:ident, $output:ident, $n:ident, $reps:ident| $body:block) => {
        at_sizes!(@one [block_dim(128)] 128, $what, $k128, $input, $output, $n, $reps, $body);
        at_sizes!(@one [block_dim(256)] 256, $what, $k256, $input, $output, $n, $reps, $body);
        at_sizes!(@one [block_dim(512)] 512, $what, $k512, $input, $output, $n, $reps, $body);
    };
    // Registers capped at 128 threads (the block shuffles: ptxas takes 32
    // there, and CUB's twins 24; see `max_registers`).
    (regs128($r:literal) $what:literal, $k128:ident $k256:ident $k512:ident,
     |$input:ident, $output:ident, $n:ident, $reps:ident| $body:block) => {
        at_sizes!(@one [block_dim(128), max_registers($r)] 128, $what, $k128, $input, $output, $n,
            $reps, $body);
        at_sizes!(@one [block_dim(256)] 256, $what, $k256, $input, $output, $n, $reps, $body);
        at_sizes!(@one [block_dim(512)] 512, $what, $k512, $input, $output, $n, $reps, $body);
    };
    // The copies: the block size checked at run time (see `sized!`).
    (checked $what:literal, $k128:ident $k256:ident $k512:ident,
     |$input:ident, $output:ident, $n:ident, $reps:ident| $body:block) => {
        at_sizes!(@one [] 128, $what, $k128, $input, $output, $n, $reps, $body);
        at_sizes!(@one [] 256, $what, $k256, $input, $output, $n, $reps, $body);
        at_sizes!(@one [] 512, $what, $k512, $input, $output, $n, $reps, $body);
    };
    (@one [$($shape:tt)*] $b:literal, $what:literal, $k:ident, $input:ident, $output:ident,
     $n:ident, $reps:ident, $body:block) => {
        #[doc = concat!($what, ", ", stringify!($b), " threads.")]
        #[kernel($($shape)*)]
        pub fn $k($input: *const u32, $output: *mut u32, $n: u32, $reps: u32) {
            const B: u32 = $b;
            $body
        }
    };
}

at_sizes! {
    "Block merge sort of keys",
    prim_merge_sort_128 prim_merge_sort_256 prim_merge_sort_512,
    |input, output, n, reps| {
        let t = temp_storage!(BlockMergeSort<u32, B, MERGE_ITEMS>);
        merge_sort_body::<B, _>(&t, input, output, n, reps)
    }
}
at_sizes! {
    "Warp merge sorts of keys",
    prim_warp_merge_sort_128 prim_warp_merge_sort_256 prim_warp_merge_sort_512,
    |input, output, n, reps| {
        let t = temp_storage!([WarpMergeSort<u32, MERGE_ITEMS>; (B / 32) as usize]);
        warp_merge_sort_body::<B, _>(&t, input, output, n, reps)
    }
}
at_sizes! {
    "Head and tail flags",
    prim_discontinuity_128 prim_discontinuity_256 prim_discontinuity_512,
    |input, output, n, reps| {
        let t = temp_storage!(BlockDiscontinuity<u32, B>);
        discontinuity_body::<B, 2, _>(&t, input, output, n, reps)
    }
}
at_sizes! {
    "Left differences",
    prim_adjacent_left_128 prim_adjacent_left_256 prim_adjacent_left_512,
    |input, output, n, reps| {
        let t = temp_storage!(BlockAdjacentDifference<u32, B>);
        adjacent_body::<B, 4, false, _>(&t, input, output, n, reps)
    }
}
at_sizes! {
    "Right differences",
    prim_adjacent_right_128 prim_adjacent_right_256 prim_adjacent_right_512,
    |input, output, n, reps| {
        let t = temp_storage!(BlockAdjacentDifference<u32, B>);
        adjacent_body::<B, 4, true, _>(&t, input, output, n, reps)
    }
}
at_sizes! {
    "Block shuffle by an offset",
    prim_shuffle_offset_128 prim_shuffle_offset_256 prim_shuffle_offset_512,
    |input, output, n, reps| {
        let t = temp_storage!(BlockShuffle<u32, B>);
        shuffle_body::<B, 4, _>(Shuffle::Offset, &t, input, output, n, reps)
    }
}
at_sizes! {
    "Block shuffle by a rotation",
    prim_shuffle_rotate_128 prim_shuffle_rotate_256 prim_shuffle_rotate_512,
    |input, output, n, reps| {
        let t = temp_storage!(BlockShuffle<u32, B>);
        shuffle_body::<B, 4, _>(Shuffle::Rotate, &t, input, output, n, reps)
    }
}
at_sizes! {
    regs128(24) "Block shuffle up",
    prim_shuffle_up_128 prim_shuffle_up_256 prim_shuffle_up_512,
    |input, output, n, reps| {
        let t = temp_storage!(BlockShuffle<u32, B>);
        shuffle_body::<B, 4, _>(Shuffle::Up, &t, input, output, n, reps)
    }
}
at_sizes! {
    regs128(24) "Block shuffle down",
    prim_shuffle_down_128 prim_shuffle_down_256 prim_shuffle_down_512,
    |input, output, n, reps| {
        let t = temp_storage!(BlockShuffle<u32, B>);
        shuffle_body::<B, 4, _>(Shuffle::Down, &t, input, output, n, reps)
    }
}
at_sizes! {
    "Run-length decode",
    prim_run_length_decode_128 prim_run_length_decode_256 prim_run_length_decode_512,
    |input, output, n, reps| {
        let t = temp_storage!(BlockRunLengthDecode<u32, B, RLD_RUNS, RLD_DECODED>);
        rld_body::<B, _>(&t, input, output, n, reps)
    }
}
at_sizes! {
    "Block sums of several items per thread",
    prim_block_reduce_128 prim_block_reduce_256 prim_block_reduce_512,
    |input, output, n, reps| {
        block_reduce_body::<B, { if B == 512 { 2 } else { 4 } }>(input, output, n, reps)
    }
}
at_sizes! {
    "Block inclusive prefix sums of several items per thread",
    prim_block_scan_128 prim_block_scan_256 prim_block_scan_512,
    |input, output, n, reps| {
        block_scan_body::<B, { if B == 128 { 2 } else { 1 } }>(input, output, n, reps)
    }
}
at_sizes! {
    "Warp sums of several items per thread",
    prim_warp_reduce_128 prim_warp_reduce_256 prim_warp_reduce_512,
    |input, output, n, reps| {
        warp_reduce_body::<B, 4>(input, output, n, reps)
    }
}
at_sizes! {
    "Warp inclusive prefix sums of several items per thread",
    prim_warp_scan_128 prim_warp_scan_256 prim_warp_scan_512,
    |input, output, n, reps| {
        warp_scan_body::<B, 4>(input, output, n, reps)
    }
}
at_sizes! {
    checked "Warp copy with `Direct`",
    prim_warp_copy_direct_128 prim_warp_copy_direct_256 prim_warp_copy_direct_512,
    |input, output, n, _reps| {
        let l = temp_storage!([WarpLoad<u32, ITEMS, Direct>; (B / 32) as usize]);
        let s = temp_storage!([WarpStore<u32, ITEMS, Direct>; (B / 32) as usize]);
        warp_copy_body::<B, _, Direct>(&l, &s, input, output, n)
    }
}
at_sizes! {
    checked "Warp copy with `Striped`",
    prim_warp_copy_striped_128 prim_warp_copy_striped_256 prim_warp_copy_striped_512,
    |input, output, n, _reps| {
        let l = temp_storage!([WarpLoad<u32, ITEMS, Striped>; (B / 32) as usize]);
        let s = temp_storage!([WarpStore<u32, ITEMS, Striped>; (B / 32) as usize]);
        warp_copy_body::<B, _, Striped>(&l, &s, input, output, n)
    }
}
at_sizes! {
    checked "Warp copy with `Vectorize`",
    prim_warp_copy_vectorize_128 prim_warp_copy_vectorize_256 prim_warp_copy_vectorize_512,
    |input, output, n, _reps| {
        let l = temp_storage!([WarpLoad<u32, ITEMS, Vectorize>; (B / 32) as usize]);
        let s = temp_storage!([WarpStore<u32, ITEMS, Vectorize>; (B / 32) as usize]);
        warp_copy_body::<B, _, Vectorize>(&l, &s, input, output, n)
    }
}
at_sizes! {
    checked "Warp copy with `Transpose`",
    prim_warp_copy_transpose_128 prim_warp_copy_transpose_256 prim_warp_copy_transpose_512,
    |input, output, n, _reps| {
        let l = temp_storage!([WarpLoad<u32, ITEMS, Transpose>; (B / 32) as usize]);
        let s = temp_storage!([WarpStore<u32, ITEMS, Transpose>; (B / 32) as usize]);
        warp_copy_body::<B, _, Transpose>(&l, &s, input, output, n)
    }
}
at_sizes! {
    "Warp exchange rounds",
    prim_warp_exchange_128 prim_warp_exchange_256 prim_warp_exchange_512,
    |input, output, n, reps| {
        let t = temp_storage!([WarpExchange<u32, ITEMS>; (B / 32) as usize]);
        warp_exchange_body::<B, 4, _>(&t, input, output, n, reps)
    }
}

/// The experiment's kernels by name stem (`copy_direct`, …, `histo_sort`,
/// `merge_sort`, …, `warp_exchange`) and block size (128, 256, 512).
#[cfg(not(target_arch = "nvptx64"))]
pub fn kernel(stem: &str, block: u32) -> Option<cooperative_groups::Kernel<PrimArgs>> {
    macro_rules! table {
        ($($s:literal => $k128:ident $k256:ident $k512:ident),*) => {
            match (stem, block) {
                $(
                    ($s, 128) => Some($k128),
                    ($s, 256) => Some($k256),
                    ($s, 512) => Some($k512),
                )*
                _ => None,
            }
        };
    }
    table!(
        "copy_direct" => PRIM_COPY_DIRECT_128 PRIM_COPY_DIRECT_256 PRIM_COPY_DIRECT_512,
        "copy_striped" => PRIM_COPY_STRIPED_128 PRIM_COPY_STRIPED_256 PRIM_COPY_STRIPED_512,
        "copy_vectorize" => PRIM_COPY_VECTORIZE_128 PRIM_COPY_VECTORIZE_256 PRIM_COPY_VECTORIZE_512,
        "copy_transpose" => PRIM_COPY_TRANSPOSE_128 PRIM_COPY_TRANSPOSE_256 PRIM_COPY_TRANSPOSE_512,
        "copy_warp_transpose" => PRIM_COPY_WARP_TRANSPOSE_128 PRIM_COPY_WARP_TRANSPOSE_256 PRIM_COPY_WARP_TRANSPOSE_512,
        "exchange" => PRIM_EXCHANGE_128 PRIM_EXCHANGE_256 PRIM_EXCHANGE_512,
        "exchange_warp" => PRIM_EXCHANGE_WARP_128 PRIM_EXCHANGE_WARP_256 PRIM_EXCHANGE_WARP_512,
        "radix_keys" => PRIM_RADIX_KEYS_128 PRIM_RADIX_KEYS_256 PRIM_RADIX_KEYS_512,
        "radix_pairs" => PRIM_RADIX_PAIRS_128 PRIM_RADIX_PAIRS_256 PRIM_RADIX_PAIRS_512,
        "histo_atomic" => PRIM_HISTO_ATOMIC_128 PRIM_HISTO_ATOMIC_256 PRIM_HISTO_ATOMIC_512,
        "histo_sort" => PRIM_HISTO_SORT_128 PRIM_HISTO_SORT_256 PRIM_HISTO_SORT_512,
        "merge_sort" => PRIM_MERGE_SORT_128 PRIM_MERGE_SORT_256 PRIM_MERGE_SORT_512,
        "warp_merge_sort" => PRIM_WARP_MERGE_SORT_128 PRIM_WARP_MERGE_SORT_256 PRIM_WARP_MERGE_SORT_512,
        "discontinuity" => PRIM_DISCONTINUITY_128 PRIM_DISCONTINUITY_256 PRIM_DISCONTINUITY_512,
        "adjacent_left" => PRIM_ADJACENT_LEFT_128 PRIM_ADJACENT_LEFT_256 PRIM_ADJACENT_LEFT_512,
        "adjacent_right" => PRIM_ADJACENT_RIGHT_128 PRIM_ADJACENT_RIGHT_256 PRIM_ADJACENT_RIGHT_512,
        "shuffle_offset" => PRIM_SHUFFLE_OFFSET_128 PRIM_SHUFFLE_OFFSET_256 PRIM_SHUFFLE_OFFSET_512,
        "shuffle_rotate" => PRIM_SHUFFLE_ROTATE_128 PRIM_SHUFFLE_ROTATE_256 PRIM_SHUFFLE_ROTATE_512,
        "shuffle_up" => PRIM_SHUFFLE_UP_128 PRIM_SHUFFLE_UP_256 PRIM_SHUFFLE_UP_512,
        "shuffle_down" => PRIM_SHUFFLE_DOWN_128 PRIM_SHUFFLE_DOWN_256 PRIM_SHUFFLE_DOWN_512,
        "run_length_decode" => PRIM_RUN_LENGTH_DECODE_128 PRIM_RUN_LENGTH_DECODE_256 PRIM_RUN_LENGTH_DECODE_512,
        "block_reduce" => PRIM_BLOCK_REDUCE_128 PRIM_BLOCK_REDUCE_256 PRIM_BLOCK_REDUCE_512,
        "block_scan" => PRIM_BLOCK_SCAN_128 PRIM_BLOCK_SCAN_256 PRIM_BLOCK_SCAN_512,
        "warp_reduce" => PRIM_WARP_REDUCE_128 PRIM_WARP_REDUCE_256 PRIM_WARP_REDUCE_512,
        "warp_scan" => PRIM_WARP_SCAN_128 PRIM_WARP_SCAN_256 PRIM_WARP_SCAN_512,
        "warp_copy_direct" => PRIM_WARP_COPY_DIRECT_128 PRIM_WARP_COPY_DIRECT_256 PRIM_WARP_COPY_DIRECT_512,
        "warp_copy_striped" => PRIM_WARP_COPY_STRIPED_128 PRIM_WARP_COPY_STRIPED_256 PRIM_WARP_COPY_STRIPED_512,
        "warp_copy_vectorize" => PRIM_WARP_COPY_VECTORIZE_128 PRIM_WARP_COPY_VECTORIZE_256 PRIM_WARP_COPY_VECTORIZE_512,
        "warp_copy_transpose" => PRIM_WARP_COPY_TRANSPOSE_128 PRIM_WARP_COPY_TRANSPOSE_256 PRIM_WARP_COPY_TRANSPOSE_512,
        "warp_exchange" => PRIM_WARP_EXCHANGE_128 PRIM_WARP_EXCHANGE_256 PRIM_WARP_EXCHANGE_512
    )
}
