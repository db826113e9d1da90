//! The primitives experiment of `cg-lab compare --only primitives`: the
//! library's block primitives against CUB's, kernel for kernel
//! (`reference/cuda/primitives.cu` holds the C++ twins, `cub_*` for each
//! `prim_*` here), at blocks of 128, 256 and 512 threads, [`ITEMS`] items
//! per thread.
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
//!
//! Every kernel takes `(input, output, n, reps)` ([`PrimArgs`]); `n` is
//! in elements (`u32`), bytes for the histograms.

use cooperative_groups::atomic::red_add;
use cooperative_groups::intrinsics::{block_idx, grid_dim};
use cooperative_groups::prelude::*;
use cooperative_groups::primitives::{
    BlockAlgorithm, BlockExchange, BlockHistogram, BlockLoad, BlockRadixSort, BlockStore, Direct,
    HistogramAlgorithm, HistogramAtomic, HistogramSort, NeedsTempStorage, Striped, TempStorage,
    Transpose, Vectorize, WarpTranspose, direct,
};
use cooperative_groups::{kernel, shared_array, temp_storage};

/// Items per thread of the copy, exchange and sort kernels.
pub const ITEMS: usize = 8;
/// Samples (bytes) per thread of the histogram kernels.
pub const HISTO_ITEMS: usize = 16;
/// Bins of the histogram kernels.
pub const BINS: usize = 256;

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
    let r = block.thread_rank();
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
    let r = block.thread_rank();
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
    let r = block.thread_rank();
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
        #[kernel]
        pub fn $ex(input: *const u32, output: *mut u32, n: u32, reps: u32) {
            let t = temp_storage!(BlockExchange<u32, $b, ITEMS>);
            exchange_body::<$b, false, _>(&t, input, output, n, reps)
        }
        #[doc = concat!("Warp-striped ↔ blocked exchange rounds, ", stringify!($b), " threads.")]
        #[kernel]
        pub fn $exw(input: *const u32, output: *mut u32, n: u32, reps: u32) {
            let t = temp_storage!(BlockExchange<u32, $b, ITEMS>);
            exchange_body::<$b, true, _>(&t, input, output, n, reps)
        }
        #[doc = concat!("Radix sort of keys, ", stringify!($b), " threads.")]
        #[kernel]
        pub fn $rk(input: *const u32, output: *mut u32, n: u32, reps: u32) {
            let t = temp_storage!(BlockRadixSort<u32, $b, ITEMS>);
            radix_keys_body::<$b, _>(&t, input, output, n, reps)
        }
        #[doc = concat!("Radix sort of pairs, ", stringify!($b), " threads.")]
        #[kernel]
        pub fn $rp(input: *const u32, output: *mut u32, n: u32, reps: u32) {
            let t = temp_storage!(BlockRadixSort<u32, $b, ITEMS, u32>);
            radix_pairs_body::<$b, _>(&t, input, output, n, reps)
        }
        #[doc = concat!("Histogram by shared atomics, ", stringify!($b), " threads.")]
        #[kernel]
        pub fn $ha(input: *const u32, output: *mut u32, n: u32, reps: u32) {
            let t = temp_storage!(BlockHistogram<u8, $b, HISTO_ITEMS, BINS, HistogramAtomic>);
            histo_body::<$b, HistogramAtomic, _>(&t, input, output, n, reps)
        }
        #[doc = concat!("Histogram by sorting, ", stringify!($b), " threads.")]
        #[kernel]
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

/// The experiment's kernels by name stem (`copy_direct`, …, `histo_sort`)
/// and block size (128, 256, 512).
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
        "histo_sort" => PRIM_HISTO_SORT_128 PRIM_HISTO_SORT_256 PRIM_HISTO_SORT_512
    )
}
