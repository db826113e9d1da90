//! A device-wide LSD radix sort of `u32`, `i32`, `f32` and `u64` keys (and
//! of pairs: those keys with `u32` values, [`radix_onesweep_pairs`]),
//! written with the library's block primitives and a decoupled look-back
//! per digit (the "onesweep" shape): the `device_radix_sort` experiment of
//! `cg-lab compare`, against CUB's `DeviceRadixSort::SortKeys` and
//! `SortPairs`. Stable: equal keys keep their values' order.
//!
//! Four passes of 8 bits ([`PASSES`]; eight for `u64` keys,
//! [`PASSES_64`], [`passes`]), least significant first, ping-ponging
//! between two buffers, after one histogram launch. A 64-bit key goes
//! through the shared tile as its two 32-bit halves, the low half first
//! ([`SortWords`]); the 32-bit kernels' SASS is the same as before the
//! `u64` instances:
//!
//! 1. [`radix_histograms`] counts every pass's digits of all keys at once
//!    (16-byte loads, a sub-histogram per block in shared memory, then one
//!    global atomic per digit and block) into `counts[pass · 256 + digit]`,
//!    which must be zero before the launch.
//! 2. [`radix_onesweep`] ([`radix_onesweep_pairs`]), once per pass: each
//!    block of [`sort_block`]`::<K>(pairs)` threads takes a tile of
//!    [`sort_tile`]`::<K>(pairs)` keys (tile = block index, blocks dispatched in
//!    order), loaded warp-striped (coalesced rows). CUB's onesweep with
//!    early counts:
//!    - each warp counts its keys' digits in its own 256 counters (one
//!      `red.shared.add` per key);
//!    - thread `d` sums digit `d` over the warps, publishes the tile's
//!      count in its look-back state at once (before any key is ranked),
//!      and turns the warps' counters into their first places in the
//!      sorted tile (one block scan gives both the tile's and the pass's
//!      exclusive prefixes over the digits);
//!    - each warp ranks its keys in order: per item, the lanes with the
//!      same digit (eight ballots, [`match_any_bits`]), one
//!      `atom.shared.add` by the highest of them on the warp's counter,
//!      spread by one `shfl`;
//!    - the keys go to their sorted places in shared memory; thread `d`
//!      looks back over the earlier tiles' states of digit `d` (summing
//!      counts until a tile holding its inclusive prefix) and publishes the
//!      tile's inclusive prefix; the values (pairs), copied into dynamic
//!      shared memory by `memcpy_async` as the pass started ([`sort_smem`]:
//!      no value load waits after the ranking; u32 pairs 0.849 → 0.900 of
//!      CUB on the H200, run `2026-12-03-select-u32-2d0a89f`), go to their
//!      sorted places in that buffer; the block stores the sorted tile
//!      striped, so that consecutive threads write consecutive places of a
//!      digit's run, each key with its value.
//!
//! A state is one `u64`: the count in the low half, the launch's epoch
//! times 4 plus the status (1: the tile's count, 2: its inclusive prefix)
//! in the high half; states of another epoch read as not yet written, so
//! they need no reset between launches (the host passes a new, non-zero
//! epoch to every launch). The missing keys of a partial last tile are all
//! ones (digit 255 in every pass) and rank after every real key; they are
//! not stored. Whole tiles (all but the last) run without a bounds check
//! per key.
//!
//! The shapes: 256 threads × 20 keys (the fastest measured on the H200, run
//! `2026-12-03-onesweep-early-22bc388`: 256×20 and 256×24 builds of each
//! kernel, interleaved), 72 registers, three blocks per SM. Pairs of `u32`
//! keys: CUB's 384 × 23 (80 registers, two blocks per SM; 0.894 → 0.966
//! of CUB at 2^28 against 256 × 20, run `2026-12-03-sort-pairs-tile-3bc34e1`),
//! pairs of the other key types 256 × 20 ([`SortKey`]). The per-item loops are written
//! out ([`unroll()`]) so that the items stay in registers. The pass is
//! bound by its instruction count, not by DRAM (an Nsight Compute profile
//! in run `2026-12-03-sort-ballots-8c5098e`): every instruction per key
//! counts.
//!
//! The H200 runs named here left the tree;
//! `git show f66ff74:docs/results/h200/runs/<run>/` lists one.
//!
//! [`match_any_bits`]: cooperative_groups::ThreadBlockTile::match_any_bits

#[cfg(not(target_arch = "nvptx64"))]
use cooperative_groups::Kernel;
use cooperative_groups::atomic::{AtomicRef, Device, Relaxed};
use cooperative_groups::intrinsics::{block_idx, grid_dim};
use cooperative_groups::prelude::*;
use cooperative_groups::primitives::{BlockScan, RadixKey};
use cooperative_groups::{dynamic_shared, kernel, shared_array, unroll, wait};

use crate::device_select::stage;
use crate::device_wide::V4;

/// Threads per block of a pass of keys (the first [`DIGITS`] threads of
/// a pass's block also own a digit each: every shape has at least
/// `DIGITS`).
pub const SORT_BLOCK: u32 = 256;
/// Keys per thread of a pass of [`radix_onesweep`].
pub const SORT_ITEMS: usize = 20;
/// Threads per block of a pass of [`radix_onesweep_pairs`] with a large
/// tile ([`SortKey::LARGE_PAIRS`]): CUB's shape (384 × 23), whose tiles
/// of 8 832 pairs (34.5 per digit) write longer runs per digit than
/// 256 × 20 (20), and leave fewer tiles to look back over.
pub const SORT_BLOCK_PAIRS: u32 = 384;
/// Pairs per thread of a pass of [`radix_onesweep_pairs`] with a large
/// tile.
pub const SORT_ITEMS_PAIRS: usize = 23;
/// Threads per block of a pass of [`radix_onesweep_pairs`] with a small
/// tile.
pub const SORT_BLOCK_PAIRS_SMALL: u32 = 256;
/// Pairs per thread of a pass of [`radix_onesweep_pairs`] with a small
/// tile.
pub const SORT_ITEMS_PAIRS_SMALL: usize = 20;

/// A sorted key type: its bits ([`RadixKey`], [`SortWords`]) and the tile
/// its pairs' passes take.
pub trait SortKey: RadixKey<Bits: SortWords> {
    /// Pairs with these keys take the large tile ([`SORT_BLOCK_PAIRS`] ×
    /// [`SORT_ITEMS_PAIRS`]; `u32`: 80 registers, two blocks per SM);
    /// the others the small one ([`SORT_BLOCK_PAIRS_SMALL`] ×
    /// [`SORT_ITEMS_PAIRS_SMALL`]): at 384 × 23 the `i32` and `f32`
    /// kernels take 96 registers (one block per SM), the `u64` one more.
    const LARGE_PAIRS: bool;
}

impl SortKey for u32 {
    const LARGE_PAIRS: bool = true;
}
impl SortKey for i32 {
    const LARGE_PAIRS: bool = false;
}
impl SortKey for f32 {
    const LARGE_PAIRS: bool = false;
}
impl SortKey for u64 {
    const LARGE_PAIRS: bool = false;
}

/// Threads per block of [`radix_histograms`] (one digit each).
pub const HIST_BLOCK: u32 = DIGITS as u32;
/// 16-byte vectors per thread and tile of [`radix_histograms`].
pub const HIST_VECS: usize = 4;
/// Keys per tile of [`radix_histograms`].
pub const HIST_TILE: usize = HIST_BLOCK as usize * HIST_VECS * 4;
const _: () = assert!(
    SORT_BLOCK as usize >= DIGITS
        && SORT_BLOCK_PAIRS as usize >= DIGITS
        && SORT_BLOCK_PAIRS_SMALL as usize >= DIGITS
        && SORT_BLOCK & 31 == 0
        && SORT_BLOCK_PAIRS & 31 == 0
        && SORT_BLOCK_PAIRS_SMALL & 31 == 0
);
/// The shape of a pass of the sort of keys `K` (`pairs == false`) or of
/// pairs with keys `K`: threads per block, keys per thread.
const fn shape<K: SortKey>(pairs: bool) -> (u32, usize) {
    match (pairs, K::LARGE_PAIRS) {
        (false, _) => (SORT_BLOCK, SORT_ITEMS),
        (true, true) => (SORT_BLOCK_PAIRS, SORT_ITEMS_PAIRS),
        (true, false) => (SORT_BLOCK_PAIRS_SMALL, SORT_ITEMS_PAIRS_SMALL),
    }
}
/// Threads per block of a pass of the sort of keys `K` (`pairs == false`)
/// or of pairs with keys `K`.
pub const fn sort_block<K: SortKey>(pairs: bool) -> u32 {
    shape::<K>(pairs).0
}
/// Keys per tile (block) of a pass of the sort of keys `K` (`pairs ==
/// false`) or of pairs with keys `K`.
pub const fn sort_tile<K: SortKey>(pairs: bool) -> usize {
    let (block, items) = shape::<K>(pairs);
    block as usize * items
}
/// The largest tile of any pass (the shared buffers' size).
const MAX_TILE: usize = max(
    max(
        SORT_BLOCK as usize * SORT_ITEMS,
        SORT_BLOCK_PAIRS as usize * SORT_ITEMS_PAIRS,
    ),
    SORT_BLOCK_PAIRS_SMALL as usize * SORT_ITEMS_PAIRS_SMALL,
);
const fn max(a: usize, b: usize) -> usize {
    if a > b { a } else { b }
}
/// Bytes of dynamic shared memory per block of a pass: the values' tile
/// for [`radix_onesweep_pairs`] (`pairs`; with the keys' static tile more
/// than the 48 KiB a block gets without opting in: `cg-runtime` raises
/// the kernel's limit), none for [`radix_onesweep`].
pub const fn sort_smem(pairs: bool) -> u32 {
    if pairs { (4 * MAX_TILE) as u32 } else { 0 }
}
/// Digits of a pass (8 bits).
pub const DIGITS: usize = 256;
/// Passes over the 32-bit keys.
pub const PASSES: usize = 4;
/// Passes over the 64-bit keys (`u64`).
pub const PASSES_64: usize = 8;

/// The bits a pass sorts by, 32 or 64 of them ([`RadixKey::Bits`] of the
/// sorted key types): the shared tile holds 32-bit words, so a 64-bit key
/// goes through it as its two halves.
pub trait SortWords: Copy + Default + PartialEq + core::ops::Not<Output = Self> {
    /// Passes of 8 bits: [`PASSES`] or [`PASSES_64`].
    const PASSES: usize;
    /// The digit of the pass that starts at bit `shift`.
    fn digit(self, shift: u32) -> u32;
    /// Bits 0..32.
    fn lo(self) -> u32;
    /// Bits 32..64 (0 for 32-bit keys).
    fn hi(self) -> u32;
    /// The bits of halves `lo` and `hi` (`hi` ignored for 32-bit keys).
    fn from_words(lo: u32, hi: u32) -> Self;
}

impl SortWords for u32 {
    const PASSES: usize = PASSES;
    #[inline(always)]
    fn digit(self, shift: u32) -> u32 {
        (self >> shift) & 0xff
    }
    #[inline(always)]
    fn lo(self) -> u32 {
        self
    }
    #[inline(always)]
    fn hi(self) -> u32 {
        0
    }
    #[inline(always)]
    fn from_words(lo: u32, _: u32) -> u32 {
        lo
    }
}

impl SortWords for u64 {
    const PASSES: usize = PASSES_64;
    #[inline(always)]
    fn digit(self, shift: u32) -> u32 {
        (self >> shift) as u32 & 0xff
    }
    #[inline(always)]
    fn lo(self) -> u32 {
        self as u32
    }
    #[inline(always)]
    fn hi(self) -> u32 {
        (self >> 32) as u32
    }
    #[inline(always)]
    fn from_words(lo: u32, hi: u32) -> u64 {
        (hi as u64) << 32 | lo as u64
    }
}

/// Passes of the sort of keys `K`.
pub const fn passes<K: RadixKey<Bits: SortWords>>() -> usize {
    <K::Bits as SortWords>::PASSES
}

/// Tiles of a pass over `n` keys `K` (at least one: the grid of
/// [`radix_onesweep`], or with `pairs` of [`radix_onesweep_pairs`], whose
/// states number `DIGITS` per tile).
pub fn sort_tiles<K: SortKey>(n: u32, pairs: bool) -> u32 {
    (n as usize).div_ceil(sort_tile::<K>(pairs)).max(1) as u32
}

/// The launch descriptor of a [`radix_histograms`] instance.
#[cfg(not(target_arch = "nvptx64"))]
pub type HistogramsKernel<K> = Kernel<(*const K, *mut u32, u32)>;
/// The launch descriptor of a [`radix_onesweep`] instance.
#[cfg(not(target_arch = "nvptx64"))]
pub type OnesweepKernel<K> = Kernel<(*const K, *mut K, *const u32, *mut u64, u32, u32, u32)>;
/// The launch descriptor of a [`radix_onesweep_pairs`] instance.
#[cfg(not(target_arch = "nvptx64"))]
pub type OnesweepPairsKernel<K> = Kernel<(
    *const K,
    *mut K,
    *const u32,
    *mut u32,
    *const u32,
    *mut u64,
    u32,
    u32,
    u32,
)>;

const COUNT: u32 = 1;
const INCLUSIVE: u32 = 2;

#[inline(always)]
fn pack(epoch: u32, status: u32, value: u32) -> u64 {
    ((epoch.wrapping_mul(4) | status) as u64) << 32 | value as u64
}

/// Counts the digits of every pass (four, or eight for `u64` keys:
/// [`passes`]) of the first `n` keys into `counts` (`passes · DIGITS`
/// counters, zero before the launch). Any
/// grid of [`HIST_BLOCK`] threads: the blocks walk the whole tiles of
/// [`HIST_TILE`] keys with a grid stride, each thread reading its
/// [`HIST_VECS`] 16-byte vectors of a tile first (striped: one load
/// instruction of a warp covers 512 contiguous bytes) and counting their
/// keys after, into the block's four histograms with one `red.shared.add`
/// per key and pass; the keys past the last whole tile (or all of them,
/// when `keys` is not 16-byte aligned) one by one.
#[kernel(instances(u32, i32, f32, u64))]
pub fn radix_histograms<K: RadixKey<Bits: SortWords>>(keys: *const K, counts: *mut u32, n: u32) {
    let block = this_thread_block().with_threads::<HIST_BLOCK>();
    // One histogram per pass (the last four for 64-bit keys only).
    let all = [
        shared_array!(u32; DIGITS),
        shared_array!(u32; DIGITS),
        shared_array!(u32; DIGITS),
        shared_array!(u32; DIGITS),
        shared_array!(u32; DIGITS),
        shared_array!(u32; DIGITS),
        shared_array!(u32; DIGITS),
        shared_array!(u32; DIGITS),
    ];
    let bins = &all[..passes::<K>()];
    let r = block.thread_rank() as usize;
    for b in bins {
        b.store(r, 0);
    }
    block.sync();
    let count = |k: K| {
        let b = sort_bits(k);
        unroll!(p in 0..passes::<K>() => {
            bins[p].red_add(b.digit(8 * p as u32) as usize, 1);
        });
    };
    let n = n as usize;
    let full = if (keys as usize).is_multiple_of(16) {
        n / HIST_TILE
    } else {
        0
    };
    let vectors = keys.cast::<V4<K>>();
    let (blocks, me) = (grid_dim().x as usize, block_idx().x as usize);
    let mut t = me;
    while t < full {
        let mut v = [V4([K::from_bits(K::Bits::default()); 4]); HIST_VECS];
        unroll::<{ HIST_VECS as u32 }>(HIST_VECS as u32, |j| {
            let j = j as usize;
            // SAFETY: vector `j · HIST_BLOCK + r` of whole tile `t < full`:
            // inside the first `n` keys, 16-byte aligned (`full > 0`).
            v[j] = unsafe {
                vectors
                    .add(t * HIST_TILE / 4 + j * HIST_BLOCK as usize + r)
                    .read()
            };
        });
        unroll::<{ HIST_VECS as u32 * 4 }>(HIST_VECS as u32 * 4, |k| {
            count(v[k as usize / 4].0[k as usize % 4]);
        });
        t += blocks;
    }
    let mut i = full * HIST_TILE + me * HIST_BLOCK as usize + r;
    while i < n {
        // SAFETY: `i < n`: inside the keys.
        count(unsafe { keys.add(i).read() });
        i += blocks * HIST_BLOCK as usize;
    }
    block.sync();
    for (p, b) in bins.iter().enumerate() {
        let c = b.load(r);
        if c > 0 {
            // SAFETY: `counts` holds `passes · DIGITS` counters, updated
            // only atomically.
            let a = unsafe { AtomicRef::<u32, Device>::from_ptr(counts.add(p * DIGITS + r)) };
            a.red_add(c, Relaxed);
        }
    }
}

/// One pass of the sort of the first `n` keys (and, with `PAIRS`, their
/// values) from `input` to `output`. See [`radix_onesweep`].
///
/// # Safety
/// As [`radix_onesweep`]'s documentation says; `values_in` and
/// `values_out` as `input` and `output` when `PAIRS`.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
unsafe fn onesweep<
    K: RadixKey<Bits: SortWords>,
    const PAIRS: bool,
    const ITEMS: usize,
    const UNROLL: u32,
    const BLOCK: u32,
>(
    input: *const K,
    output: *mut K,
    values_in: *const u32,
    values_out: *mut u32,
    counts: *const u32,
    states: *mut u64,
    n: u32,
    pass: u32,
    epoch: u32,
) {
    const {
        assert!(
            ITEMS == UNROLL as usize
                && ITEMS <= 32
                && BLOCK as usize * ITEMS <= MAX_TILE
                && BLOCK as usize / 32 * DIGITS <= MAX_TILE
        )
    };
    let tile_keys = BLOCK as usize * ITEMS;
    // Warps per block: a set of digit counters each.
    let warps = BLOCK as usize / 32;
    let block = this_thread_block().with_threads::<BLOCK>();
    let warp = tiled_partition::<32>(&block);
    // The warps' digit counters while ranking, then the sorted tile.
    let buf = shared_array!(u32; MAX_TILE);
    // Output place of the sorted tile's position 0, per digit.
    let base = shared_array!(u32; DIGITS);
    // With `PAIRS`: the tile's values in dynamic shared memory
    // ([`sort_smem`]; the keys kernel has none), copied there by
    // `memcpy_async` as the kernel starts (no register waits for them
    // while the keys are ranked), then in sorted order.
    let staged = dynamic_shared::<u32>();
    // Indices as `u32` (`n` is): 64-bit compares and adds cost two
    // instructions each. `first < n` (the grid has `⌈n / tile_keys⌉`
    // blocks); places inside the tile are checked against `valid`, which
    // cannot wrap where `first + place` could (`n` near 2^32).
    let tile = block_idx().x as usize;
    let first = tile as u32 * tile_keys as u32;
    let valid = n.saturating_sub(first).min(tile_keys as u32);
    let full = valid == tile_keys as u32;
    // (A remainder `% BLOCK` here drops the shared arrays' index checks,
    // but ptxas then schedules the keys pass into 93 registers: two
    // blocks per SM instead of three.)
    let r = block.thread_rank() as usize;
    let (w, lane) = (r / 32, warp.thread_rank());
    let shift = 8 * pass;
    // Keys travel as their order-preserving bits (`RadixKey::to_bits`:
    // the identity for `u32`), back to keys on the way out; a digit comes
    // from a key's digit bits (`-0.0` as `+0.0`).
    let digit = |b: K::Bits| K::digit_bits(b).digit(shift);

    // Warp-striped: item `i` of lane `l` of warp `w` is key
    // `w · 32 · ITEMS + 32 · i + l` of the tile, so that every load is one
    // coalesced row and a warp's items in (item, lane) order are in the
    // input's order (the ranking below is stable for it).
    let at = |i: usize| (w * 32 * ITEMS + 32 * i) as u32 + lane;
    // SAFETY: `first < n`: inside the keys.
    let tile_keys_in = unsafe { input.add(first as usize) };
    // Until the keys go to shared memory, the registers hold their digit
    // bits, and `zeros` the items that were `-0.0` (whose bits are the
    // complement of `+0.0`'s: `to_bits` maps a float's sign bit so): one
    // register, where keeping both forms cost the `f32` sort 27.
    // A missing key (past `n`, in the last tile) has all bits set: digit
    // 255 in every pass, after every real key of the tile (it comes last
    // in the input's order), so it ranks last and is not stored.
    let mut keys = [!K::Bits::default(); ITEMS];
    let mut zeros = 0u32;
    let in_input = |i: usize| at(i) < valid;
    // The values' copy: whole tiles of 16-byte aligned values in vectors,
    // asynchronously; otherwise one by one now (zeros past `n`). Warp
    // `w` copies its own items' values (`at(i)`'s run).
    let async_values = full && (values_in as usize).is_multiple_of(16);
    if PAIRS {
        let wloc = w * 32 * ITEMS;
        // SAFETY: with `PAIRS` the first `n` values are readable, and all
        // of a whole tile's when `async_values`.
        unsafe {
            stage::<u32, V4<u32>, ITEMS>(
                &warp,
                async_values,
                values_in,
                staged,
                0,
                first as usize,
                wloc,
                n as usize,
            )
        };
    }
    items_where::<UNROLL>(full, in_input, |i| {
        // SAFETY: `at(i) < valid`: one of the first `n` keys.
        let b = unsafe { tile_keys_in.add(at(i) as usize).read() }.to_bits();
        keys[i] = K::digit_bits(b);
        zeros |= ((keys[i] != b) as u32) << i;
    });
    let dig = |k: K::Bits| k.digit(shift);

    // 1. Each warp counts its digits in its own counters: one shared
    //    atomic per key (CUB's "early counts": the tile's counts are known,
    //    and published for the later tiles' look-back, before any key is
    //    ranked).
    for j in (r..warps * DIGITS).step_by(BLOCK as usize) {
        buf.store(j, 0);
    }
    block.sync();
    items::<UNROLL>(|i| buf.red_add(w * DIGITS + dig(keys[i]) as usize, 1));
    block.sync();

    // 2. Thread `d` for digit `d`: the tile's count of `d`, published at
    //    once (tile 0's count is its inclusive prefix), and the warps'
    //    places for their first key of `d` in the sorted tile: the count
    //    of the earlier warps, plus the tile's keys of smaller digits.
    let mut count = 0u32;
    if r < DIGITS {
        for wi in 0..warps {
            let c = buf.load(wi * DIGITS + r);
            buf.store(wi * DIGITS + r, count);
            count += c;
        }
        let status = if tile == 0 { INCLUSIVE } else { COUNT };
        // SAFETY: one of the launch's `DIGITS · tiles` states, accessed
        // only atomically.
        unsafe { state(states, tile, r) }.store(pack(epoch, status, count), Relaxed);
    }
    // The exclusive scans over the digits of the tile's counts (low half)
    // and of the pass's global counts (high half) at once.
    let both = if r < DIGITS {
        // SAFETY: `counts` holds the pass's `DIGITS` counters from `pass · DIGITS`.
        let global = unsafe { counts.add(pass as usize * DIGITS + r).read() };
        (global as u64) << 32 | count as u64
    } else {
        0
    };
    let [starts] = BlockScan::new(&block).exclusive_sum(&[both]);
    let (tile_start, digit_start) = (starts as u32, (starts >> 32) as u32);
    if r < DIGITS {
        for wi in 0..warps {
            let c = buf.load(wi * DIGITS + r);
            buf.store(wi * DIGITS + r, c + tile_start);
        }
    }
    block.sync();

    // 3. Each warp ranks its keys in order: one match per item finds the
    //    lanes with the same digit (ballots, not `match.any`: 24 matches
    //    per lane saturate the MIO pipe, see `match_any_bits`); the
    //    highest of them adds their number to the warp's counter of the
    //    digit, and each lane's place is the counter before, plus its
    //    same-digit lanes below it. The next item's atomic comes after
    //    this one's in the warp's instruction order, which keeps equal
    //    keys in input order (stable).
    let below = (1u32 << lane) - 1;
    let mut rank = [0u32; ITEMS];
    items::<UNROLL>(|i| {
        let d = dig(keys[i]);
        let peers = warp.match_any_bits::<8>(d);
        let leader = 31 - peers.leading_zeros();
        let mut old = 0;
        if lane == leader {
            old = buf.fetch_add(w * DIGITS + d as usize, peers.count_ones());
        }
        // A place in the tile (below `tile_keys` by construction), clamped
        // so that the compiler sees it in the shared arrays' bounds: one
        // `min` per key instead of a compare and a branch at its first use.
        let place = warp.shfl(old, leader) + (peers & below).count_ones();
        rank[i] = place.min(MAX_TILE as u32 - 1);
    });
    block.sync();
    // Item `i`'s key bits again (`-0.0` restored).
    let bits = |i: usize| {
        if zeros >> i & 1 != 0 {
            !keys[i]
        } else {
            keys[i]
        }
    };
    items::<UNROLL>(|i| buf.store(rank[i] as usize, bits(i).lo()));

    // 4. The look-back for digit `d`: the counts of the earlier tiles,
    //    summed until one holding its inclusive prefix.
    if r < DIGITS {
        let mut before = 0u32;
        if tile > 0 {
            let mut t = tile;
            loop {
                t -= 1;
                // SAFETY: as above (`t < tile`).
                let s = unsafe { state(states, t, r) };
                let v = loop {
                    let v = s.load(Relaxed);
                    if (v >> 34) as u32 == epoch & 0x3fff_ffff && (v >> 32) & 3 != 0 {
                        break v;
                    }
                };
                before = before.wrapping_add(v as u32);
                if (v >> 32) & 3 == INCLUSIVE as u64 {
                    break;
                }
            }
            // SAFETY: as above.
            let s = unsafe { state(states, tile, r) };
            s.store(pack(epoch, INCLUSIVE, before.wrapping_add(count)), Relaxed);
        }
        // Sorted position `p` of digit `d` goes to `base[d] + p`.
        base.store(r, digit_start.wrapping_add(before).wrapping_sub(tile_start));
    }
    // The values to their sorted places in shared memory too (no
    // register keeps a key's output place for them): each warp reads its
    // staged values, and after a barrier (every warp has read its own)
    // they go to their keys' places in the same buffer.
    // (As an array of the tile's size: its places need no check against
    // a run-time length.)
    let sorted_values = || staged.array_at::<MAX_TILE>(0);
    if PAIRS {
        let sorted_values = sorted_values();
        if async_values {
            wait(&warp);
        } else {
            warp.sync();
        }
        let mut values = [0u32; ITEMS];
        items::<UNROLL>(|i| values[i] = sorted_values.load(at(i) as usize));
        block.sync();
        items::<UNROLL>(|i| sorted_values.store(rank[i] as usize, values[i]));
    }
    block.sync();

    // 5. The sorted tile out, striped: consecutive threads store
    //    consecutive places of a digit's run.
    //    A 64-bit key's low half is in the tile now; its high half goes
    //    through the tile after it.
    //    Striped place `p` of item `i` holds a key when `p < valid`.
    let place = |i: usize| i * BLOCK as usize + r;
    let in_tile = |i: usize| (place(i) as u32) < valid;
    let mut low = [0u32; ITEMS];
    if K::Bits::PASSES == PASSES_64 {
        items_where::<UNROLL>(full, in_tile, |i| low[i] = buf.load(place(i)));
        block.sync();
        items::<UNROLL>(|i| buf.store(rank[i] as usize, bits(i).hi()));
        block.sync();
    }
    items_where::<UNROLL>(full, in_tile, |i| {
        let p = place(i);
        let k = if K::Bits::PASSES == PASSES_64 {
            K::Bits::from_words(low[i], buf.load(p))
        } else {
            K::Bits::from_words(buf.load(p), 0)
        };
        let to = base.load(digit(k) as usize).wrapping_add(p as u32) as usize;
        // SAFETY: `to < n` (a permutation of the keys' places); each place
        // is written by one key (and, with `PAIRS`, its value).
        unsafe {
            output.add(to).write(K::from_bits(k));
            if PAIRS {
                values_out.add(to).write(sorted_values().load(p));
            }
        }
    });
}

/// The bits a key's digits are taken from: its order-preserving bits, with
/// `-0.0` as `+0.0` (CUB's rule: the two zeros are equal keys).
#[inline(always)]
fn sort_bits<K: RadixKey<Bits: SortWords>>(k: K) -> K::Bits {
    K::digit_bits(k.to_bits())
}

/// `f(0)`, …, `f(K - 1)` as straight-line code: the per-item arrays stay
/// in registers.
#[inline(always)]
fn items<const K: u32>(mut f: impl FnMut(usize)) {
    unroll::<K>(K, |i| f(i as usize));
}

/// [`items`] of the items `present` holds for: all of them, unchecked,
/// when `all` (a whole tile: one uniform branch for the block instead of
/// a compare and a branch per item).
#[inline(always)]
fn items_where<const K: u32>(all: bool, present: impl Fn(usize) -> bool, mut f: impl FnMut(usize)) {
    if all {
        items::<K>(f);
    } else {
        items::<K>(|i| {
            if present(i) {
                f(i)
            }
        });
    }
}

/// Digit `d`'s look-back state of tile `t`.
///
/// # Safety
/// `t` is one of the launch's tiles, `states` holds `DIGITS` per tile, and
/// they are accessed only atomically.
#[inline(always)]
unsafe fn state(states: *mut u64, t: usize, d: usize) -> AtomicRef<'static, u64, Device> {
    // SAFETY: the caller's contract.
    unsafe { AtomicRef::<u64, Device>::from_ptr(states.add(t * DIGITS + d)) }
}

/// Pass `pass` (digit bits `8·pass .. 8·pass + 8`) of the sort of the
/// first `n` keys of `input` into `output`, with the pass's global digit
/// counts at `counts[pass · DIGITS ..]` ([`radix_histograms`]) and
/// `states` (`DIGITS` per tile of [`sort_tiles`]`::<K>(n, false)`). Grid
/// [`sort_tiles`]`::<K>(n, false)` blocks of [`SORT_BLOCK`]; `epoch` new and
/// non-zero each launch on the states.
#[kernel(instances(u32, i32, f32, u64))]
pub fn radix_onesweep<K: RadixKey<Bits: SortWords>>(
    input: *const K,
    output: *mut K,
    counts: *const u32,
    states: *mut u64,
    n: u32,
    pass: u32,
    epoch: u32,
) {
    let none = core::ptr::null_mut();
    // SAFETY: the launcher's contract (this kernel's documentation).
    unsafe {
        onesweep::<K, false, SORT_ITEMS, { SORT_ITEMS as u32 }, SORT_BLOCK>(
            input, output, none, none, counts, states, n, pass, epoch,
        )
    }
}

/// [`radix_onesweep`] for pairs: the first `n` values of `values_in` move
/// with their keys to `values_out`; blocks of [`sort_block`]`::<K>(true)`
/// threads, tiles of [`sort_tile`]`::<K>(true)` keys (grid and states:
/// [`sort_tiles`]`::<K>(n, true)`), [`sort_smem`]`(true)` bytes of dynamic
/// shared memory.
#[kernel(instances(u32, i32, f32, u64))]
#[allow(clippy::too_many_arguments)]
pub fn radix_onesweep_pairs<K: SortKey>(
    input: *const K,
    output: *mut K,
    values_in: *const u32,
    values_out: *mut u32,
    counts: *const u32,
    states: *mut u64,
    n: u32,
    pass: u32,
    epoch: u32,
) {
    // SAFETY: the launcher's contract (this kernel's documentation).
    // The shapes of `sort_block` and `sort_tile` (a constant condition:
    // each instance keeps one of the two).
    unsafe {
        if K::LARGE_PAIRS {
            onesweep::<K, true, SORT_ITEMS_PAIRS, { SORT_ITEMS_PAIRS as u32 }, SORT_BLOCK_PAIRS>(
                input, output, values_in, values_out, counts, states, n, pass, epoch,
            )
        } else {
            onesweep::<
                K,
                true,
                SORT_ITEMS_PAIRS_SMALL,
                { SORT_ITEMS_PAIRS_SMALL as u32 },
                SORT_BLOCK_PAIRS_SMALL,
            >(
                input, output, values_in, values_out, counts, states, n, pass, epoch,
            )
        }
    }
}
