//! A device-wide LSD radix sort of `u32` keys (and of pairs: `u32` keys
//! with `u32` values, [`radix_onesweep_pairs`]), written with the library's
//! block primitives and a decoupled look-back per digit (the "onesweep"
//! shape): the `device_radix_sort` experiment of `cg-lab compare`, against
//! CUB's `DeviceRadixSort::SortKeys` and `SortPairs`. Stable: equal keys
//! keep their values' order.
//!
//! Four passes of 8 bits, least significant first, ping-ponging between
//! two buffers, after one histogram launch:
//!
//! 1. [`radix_histograms`] counts every pass's digits of all keys at once
//!    (a sub-histogram per block in shared memory, then one global atomic
//!    per digit and block) into `counts[pass · 256 + digit]`, which must be
//!    zero before the launch.
//! 2. [`radix_onesweep`], once per pass: each block of [`SORT_BLOCK`]
//!    threads takes a tile of [`SORT_TILE`] keys (tile = block index,
//!    blocks dispatched in order), sorts it by the pass's digit
//!    ([`BlockRadixSort`] over that bit range: stable), finds each digit's
//!    run in the sorted tile, and thread `d` publishes digit `d`'s count in
//!    the tile's state, looks back over the earlier tiles' states of digit
//!    `d` (summing counts until a tile holding its inclusive prefix) and
//!    publishes the tile's inclusive prefix. With the exclusive scan of the
//!    pass's global digit counts ([`BlockScan`]) every key's place follows:
//!    the keys before its digit, plus those of its digit in earlier tiles,
//!    plus its place in its digit's run; the block scatters them there.
//!
//! A state is one `u64`: the count in the low half, the launch's epoch
//! times 4 plus the status (1: the tile's count, 2: its inclusive prefix)
//! in the high half; states of another epoch read as not yet written, so
//! they need no reset between launches (the host passes a new, non-zero
//! epoch to every launch). A partial last tile is padded with `u32::MAX`,
//! which sorts after every real key of its digit and is not stored.

use cooperative_groups::atomic::{AtomicRef, Device, Relaxed};
use cooperative_groups::intrinsics::{block_idx, grid_dim};
use cooperative_groups::prelude::*;
use cooperative_groups::primitives::{
    BlockHistogram, BlockLoad, BlockRadixSort, BlockScan, Direct, RadixSortOptions,
};
use cooperative_groups::{kernel, shared_array, temp_storage};

/// Threads per block.
pub const SORT_BLOCK: u32 = 256;
/// Keys per thread.
pub const SORT_ITEMS: usize = 8;
/// Keys per tile (block) of a pass.
pub const SORT_TILE: usize = SORT_BLOCK as usize * SORT_ITEMS;
/// Digits of a pass (8 bits).
pub const DIGITS: usize = 256;
/// Passes over the 32-bit keys.
pub const PASSES: usize = 4;

/// Tiles of a pass over `n` keys (at least one: the grid of
/// [`radix_onesweep`], whose states number `DIGITS` per tile).
pub fn sort_tiles(n: u32) -> u32 {
    (n as usize).div_ceil(SORT_TILE).max(1) as u32
}

const COUNT: u32 = 1;
const INCLUSIVE: u32 = 2;

#[inline(always)]
fn pack(epoch: u32, status: u32, value: u32) -> u64 {
    ((epoch.wrapping_mul(4) | status) as u64) << 32 | value as u64
}

/// Counts the digits of all four passes of the first `n` keys into
/// `counts` (`PASSES · DIGITS` counters, zero before the launch). Any
/// grid of [`SORT_BLOCK`] threads (a grid stride).
#[kernel]
pub fn radix_histograms(keys: *const u32, counts: *mut u32, n: u32) {
    let block = this_thread_block().with_threads::<SORT_BLOCK>();
    let bins = [
        shared_array!(u32; DIGITS),
        shared_array!(u32; DIGITS),
        shared_array!(u32; DIGITS),
        shared_array!(u32; DIGITS),
    ];
    let count = Count::without_storage(&block);
    for b in &bins {
        count.init(b);
    }
    block.sync();
    let r = block.thread_rank() as usize;
    let stride = (grid_dim().x * SORT_BLOCK) as usize;
    let mut i = block_idx().x as usize * SORT_BLOCK as usize + r;
    while i < n as usize {
        // SAFETY: `i < n`: inside the keys.
        let k = unsafe { keys.add(i).read() };
        for (p, b) in bins.iter().enumerate() {
            count.composite(&[(k >> (8 * p)) & 0xff], b);
        }
        i += stride;
    }
    block.sync();
    for (p, b) in bins.iter().enumerate() {
        let c = b.load(r);
        if c > 0 {
            // SAFETY: `counts` holds `PASSES · DIGITS` counters, updated
            // only atomically.
            let a = unsafe { AtomicRef::<u32, Device>::from_ptr(counts.add(p * DIGITS + r)) };
            a.red_add(c, Relaxed);
        }
    }
}

type Count = BlockHistogram<u32, SORT_BLOCK, 1, DIGITS>;
type Sort = BlockRadixSort<u32, SORT_BLOCK, SORT_ITEMS>;
type SortPairs = BlockRadixSort<u32, SORT_BLOCK, SORT_ITEMS, u32>;
type Load = BlockLoad<u32, SORT_BLOCK, SORT_ITEMS, Direct>;

/// One pass of the sort of the first `n` keys (and, with `PAIRS`, their
/// values) from `input` to `output`; `sort` sorts the block's tile by the
/// pass's digit. See [`radix_onesweep`].
///
/// # Safety
/// As [`radix_onesweep`]'s documentation says; `values_in` and
/// `values_out` as `input` and `output` when `PAIRS`.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
unsafe fn onesweep<const PAIRS: bool>(
    sort: impl FnOnce(&mut [u32; SORT_ITEMS], &mut [u32; SORT_ITEMS], RadixSortOptions),
    input: *const u32,
    output: *mut u32,
    values_in: *const u32,
    values_out: *mut u32,
    counts: *const u32,
    states: *mut u64,
    n: u32,
    pass: u32,
    epoch: u32,
) {
    let block = this_thread_block().with_threads::<SORT_BLOCK>();
    let begin = shared_array!(u32; DIGITS);
    let end = shared_array!(u32; DIGITS);
    let base = shared_array!(u32; DIGITS);
    let digs = shared_array!(u32; SORT_TILE);
    let n = n as usize;
    let tile = block_idx().x as usize;
    let first = tile * SORT_TILE;
    let valid = n.saturating_sub(first).min(SORT_TILE);
    let r = block.thread_rank() as usize;
    let shift = 8 * pass;
    let load = Load::without_storage(&block);
    // SAFETY: the first `n` keys are readable.
    let src = unsafe { core::slice::from_raw_parts(input, n) };
    let mut keys = load.load_partial(&src[first.min(n)..], valid, u32::MAX);
    let mut values = [0u32; SORT_ITEMS];
    if PAIRS {
        // SAFETY: with `PAIRS` the first `n` values are readable.
        let vsrc = unsafe { core::slice::from_raw_parts(values_in, n) };
        values = load.load_partial(&vsrc[first.min(n)..], valid, 0);
    }
    sort(
        &mut keys,
        &mut values,
        RadixSortOptions::new().bits(shift, shift + 8),
    );
    let digit = |k: u32| (k >> shift) & 0xff;
    begin.store(r, 0);
    end.store(r, 0);
    for (i, &k) in keys.iter().enumerate() {
        digs.store(r * SORT_ITEMS + i, digit(k));
    }
    block.sync();
    // The digits' runs among the first `valid` sorted keys.
    for i in 0..SORT_ITEMS {
        let p = r * SORT_ITEMS + i;
        if p < valid {
            let d = digs.load(p);
            if p == 0 || digs.load(p - 1) != d {
                begin.store(d as usize, p as u32);
            }
            if p + 1 == valid || digs.load(p + 1) != d {
                end.store(d as usize, p as u32 + 1);
            }
        }
    }
    block.sync();
    // Thread `r` for digit `r`: its count here, the look-back for the
    // counts of the earlier tiles.
    let count = end.load(r) - begin.load(r);
    let state = |t: usize| {
        // SAFETY: `t ≤ tile`: one of the launch's `DIGITS · tiles` states,
        // accessed only atomically.
        unsafe { AtomicRef::<u64, Device>::from_ptr(states.add(t * DIGITS + r)) }
    };
    let mut before = 0u32;
    if tile == 0 {
        state(0).store(pack(epoch, INCLUSIVE, count), Relaxed);
    } else {
        state(tile).store(pack(epoch, COUNT, count), Relaxed);
        let mut t = tile;
        loop {
            t -= 1;
            let w = loop {
                let w = state(t).load(Relaxed);
                if (w >> 34) as u32 == epoch & 0x3fff_ffff && (w >> 32) & 3 != 0 {
                    break w;
                }
            };
            before = before.wrapping_add(w as u32);
            if (w >> 32) & 3 == INCLUSIVE as u64 {
                break;
            }
        }
        state(tile).store(pack(epoch, INCLUSIVE, before.wrapping_add(count)), Relaxed);
    }
    // SAFETY: `counts` holds the pass's `DIGITS` counters from `pass · DIGITS`.
    let global = unsafe { counts.add(pass as usize * DIGITS + r).read() };
    let [digit_start] = BlockScan::new(&block).exclusive_sum(&[global]);
    // Key at sorted place `p` with digit `d` goes to `base[d] + p`.
    base.store(
        r,
        digit_start.wrapping_add(before).wrapping_sub(begin.load(r)),
    );
    block.sync();
    for (i, &k) in keys.iter().enumerate() {
        let p = r * SORT_ITEMS + i;
        if p < valid {
            let at = base.load(digit(k) as usize).wrapping_add(p as u32) as usize;
            // SAFETY: `at < n` (a permutation of the keys' places); each
            // place is written by one key (and its value).
            unsafe {
                output.add(at).write(k);
                if PAIRS {
                    values_out.add(at).write(values[i]);
                }
            }
        }
    }
}

/// Pass `pass` (digit bits `8·pass .. 8·pass + 8`) of the sort of the
/// first `n` keys of `input` into `output`, with the pass's global digit
/// counts at `counts[pass · DIGITS ..]` ([`radix_histograms`]) and
/// `states` (`DIGITS` per tile of [`sort_tiles`]`(n)`). Grid
/// [`sort_tiles`]`(n)` blocks of [`SORT_BLOCK`]; `epoch` new and non-zero
/// each launch on the states.
#[kernel]
pub fn radix_onesweep(
    input: *const u32,
    output: *mut u32,
    counts: *const u32,
    states: *mut u64,
    n: u32,
    pass: u32,
    epoch: u32,
) {
    let block = this_thread_block().with_threads::<SORT_BLOCK>();
    let temp = temp_storage!(Sort);
    let sort = |k: &mut [u32; SORT_ITEMS], _: &mut [u32; SORT_ITEMS], o| {
        Sort::new(&block, &temp).sort_keys_with(k, o)
    };
    let none = core::ptr::null_mut();
    // SAFETY: the launcher's contract (this kernel's documentation).
    unsafe {
        onesweep::<false>(
            sort, input, output, none, none, counts, states, n, pass, epoch,
        )
    }
}

/// [`radix_onesweep`] for pairs: the first `n` values of `values_in` move
/// with their keys to `values_out`.
#[kernel]
#[allow(clippy::too_many_arguments)]
pub fn radix_onesweep_pairs(
    input: *const u32,
    output: *mut u32,
    values_in: *const u32,
    values_out: *mut u32,
    counts: *const u32,
    states: *mut u64,
    n: u32,
    pass: u32,
    epoch: u32,
) {
    let block = this_thread_block().with_threads::<SORT_BLOCK>();
    let temp = temp_storage!(SortPairs);
    let sort = |k: &mut [u32; SORT_ITEMS], v: &mut [u32; SORT_ITEMS], o| {
        SortPairs::new(&block, &temp).sort_pairs_with(k, v, o)
    };
    // SAFETY: the launcher's contract (this kernel's documentation).
    unsafe {
        onesweep::<true>(
            sort, input, output, values_in, values_out, counts, states, n, pass, epoch,
        )
    }
}
