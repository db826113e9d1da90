//! Device-wide run-length encoding written with the library, on the
//! device scan's decoupled look-back: the `device_rle` experiment of
//! `cg-lab compare`, against CUB's `DeviceRunLengthEncode::Encode`.
//!
//! [`device_rle_encode_i32`] writes, for each run `j` of equal elements of
//! `input` (maximal, in order), its value to `unique[j]` and its length to
//! `counts[j]`, and the number of runs to `num_runs[0]`.
//!
//! Single pass, laid out as the selections (`device_select`: one block of
//! [`RLE_BLOCK`] threads per tile of [`RLE_TILE`] elements, staged in
//! shared memory by `memcpy_async`, a warp's rounds of 32 contiguous
//! elements, a `ballot` of the run heads — the elements that differ from
//! the one before — per round). Two look-backs, run at once by two warps
//! (`device_wide`'s `tile_offsets2`), give each warp what precedes it: the
//! number of heads (the runs before it: where its heads go), and the
//! index of the last head (the start of the run the tile's first element
//! continues) — a scan with `max` over the warps' last head indices, in
//! tile states of its own. Each head's index then goes to its run's place
//! in a second shared buffer, and the block writes the tile's runs in
//! order (CUB's two-phase scatter: consecutive threads write consecutive
//! runs): run `s`'s value (the element at its head) and the length of the
//! run before it (its head's index minus the previous head's). The last
//! block writes the last run's length (`n −` the last head) and the number
//! of runs. The input is read once, each run's value and length written
//! once.
//!
//! The shape is measured (H200, `docs/results/h200/runs/2026-12-03-select-staged-*`):
//! the two look-backs one after the other, the elements in registers, or
//! each head storing its own run directly were each slower.
//!
//! The tile states are the device scan's (two arrays of one `u64` per
//! block of the grid, one new non-zero `epoch` per launch for both, no
//! reset between launches).

use cooperative_groups::intrinsics::block_idx;
use cooperative_groups::prelude::*;
use cooperative_groups::{ShflValue, dynamic_shared, kernel, unroll, wait};

use crate::device_select::{element_before, run_head, stage};
use crate::device_wide::{Elem, V4, tile_offsets2};

/// Threads per block.
pub const RLE_BLOCK: u32 = 256;
/// Elements per thread (rounds of a warp).
pub const RLE_ITEMS: usize = 24;
/// Elements per tile (block).
pub const RLE_TILE: usize = RLE_BLOCK as usize * RLE_ITEMS;
/// Dynamic shared memory per block: the tile's elements, then its heads'
/// indices in run order.
pub const RLE_SMEM_BYTES: u32 = (8 * RLE_TILE) as u32;

/// Tiles of an encoding of `n` elements.
pub const fn rle_tiles(n: u32) -> u32 {
    (n as usize).div_ceil(RLE_TILE) as u32
}

/// Grid size of [`device_rle_encode_i32`]: one block per tile, at least
/// one (which writes `num_runs` when `n == 0`); also the number of tile
/// states of each array.
pub fn rle_grid(n: u32) -> u32 {
    rle_tiles(n).max(1)
}

/// An element index combined by `max` in the look-back (the last run head
/// before a warp); 0, the identity, stands for "none" (index 0 is always
/// a head, so every real prefix holds it or a later one).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(transparent)]
struct HeadIndex(u32);

// SAFETY: a `u32`, `repr(transparent)`: no padding, every bit pattern valid.
unsafe impl ShflValue for HeadIndex {}

impl Elem for HeadIndex {
    #[inline(always)]
    fn add(self, o: Self) -> Self {
        HeadIndex(self.0.max(o.0))
    }
    #[inline(always)]
    fn to_bits32(self) -> u32 {
        self.0
    }
    #[inline(always)]
    fn from_bits32(b: u32) -> Self {
        HeadIndex(b)
    }
}

/// Parameters of [`device_rle_encode_i32`]: `(input, unique, counts,
/// num_runs, count_states, head_states, n, epoch)`.
pub type RleArgs = (
    *const i32,
    *mut i32,
    *mut u32,
    *mut u32,
    *mut u64,
    *mut u64,
    u32,
    u32,
);

/// The runs of the first `n` elements of `input`: values to `unique`,
/// lengths to `counts` (room for `n` each), their number to
/// `num_runs[0]`. Grid [`rle_grid`]`(n)` blocks of [`RLE_BLOCK`] with
/// [`RLE_SMEM_BYTES`] of dynamic shared memory; `count_states` and
/// `head_states` one `u64` per block each; `epoch` new and non-zero each
/// launch on them.
#[kernel]
#[allow(clippy::too_many_arguments)]
pub fn device_rle_encode_i32(
    input: *const i32,
    unique: *mut i32,
    counts: *mut u32,
    num_runs: *mut u32,
    count_states: *mut u64,
    head_states: *mut u64,
    n: u32,
    epoch: u32,
) {
    let block = this_thread_block().with_threads::<RLE_BLOCK>();
    let warp = tiled_partition::<32>(&block);
    let warp_len = 32 * RLE_ITEMS;
    let n = n as usize;
    let tile = block_idx().x as usize;
    let base = tile * RLE_TILE;
    let w = (block.thread_rank() / 32) as usize;
    let lane = warp.thread_rank() as usize;
    let wloc = w * warp_len;
    let wbase = base + wloc;
    // The tile's elements, then its heads' indices in run order.
    let words = dynamic_shared::<i32>();
    let heads_at = dynamic_shared::<u32>();
    let whole = base + RLE_TILE <= n && (input as usize).is_multiple_of(16);
    // SAFETY: `input` holds `n` elements.
    unsafe { stage::<i32, V4<i32>, RLE_ITEMS>(&warp, whole, input, words, 0, base, wloc, n) };
    if whole {
        wait(&warp);
    } else {
        warp.sync();
    }
    // SAFETY: `input` holds `n` elements.
    let before_warp = unsafe { element_before(input, wbase, n, lane) };
    let mut masks = [0u32; RLE_ITEMS];
    let mut heads = 0u32;
    let mut last_head = 0u32;
    unroll!(k in 0..RLE_ITEMS => {
        let e = wloc + 32 * k + lane;
        let i = base + e;
        masks[k] = warp.ballot(run_head(words, e, 32 * k + lane == 0, before_warp, i, n));
        heads += masks[k].count_ones();
        if masks[k] != 0 {
            last_head = (wbase + 32 * k + 31 - masks[k].leading_zeros() as usize) as u32;
        }
    });
    let (runs, last) = tile_offsets2::<i32, HeadIndex, RLE_BLOCK>(
        &block,
        &warp,
        heads as i32,
        HeadIndex(last_head),
        count_states,
        head_states,
        epoch,
    );
    // Each head's index to its run's place in the tile.
    let below = (1u32 << lane) - 1;
    let mut at = runs.warps_before.map_or(0, |b| b as u32) as usize;
    unroll!(k in 0..RLE_ITEMS => {
        let m = masks[k];
        if m >> lane & 1 != 0 {
            let s = at + (m & below).count_ones() as usize;
            heads_at.store(RLE_TILE + s, (wbase + 32 * k + lane) as u32);
        }
        at += m.count_ones() as usize;
    });
    debug_assert!(at <= RLE_TILE, "the tile's heads fit it");
    block.sync();
    // Run `s` of the tile: its value, and the length of the run before it.
    let prefix = runs.prefix.map_or(0, |p| p as u32) as usize;
    let count = runs.aggregate as u32 as usize;
    let head_before = last.prefix.map_or(0, |h| h.0) as usize;
    let t = block.thread_rank() as usize;
    unroll!(r in 0..RLE_ITEMS => {
        let s = t + RLE_BLOCK as usize * r;
        if s < count {
            let i = heads_at.load(RLE_TILE + s) as usize;
            let p = if s > 0 { heads_at.load(RLE_TILE + s - 1) as usize } else { head_before };
            // SAFETY: `prefix + s` is below the number of runs (≤ n):
            // inside both outputs; each run's value is written by its
            // head, its length by the next run's head (or, for the last
            // run, below), once.
            unsafe {
                unique.add(prefix + s).write(words.load(i - base));
                if prefix + s > 0 {
                    counts.add(prefix + s - 1).write((i - p) as u32);
                }
            }
        }
    });
    // The last tile: the number of runs, and the last run's length (from
    // the tile's last head, or the one before the tile).
    if tile == n.div_ceil(RLE_TILE).max(1) - 1 && t == 0 {
        let total = prefix + count;
        let l = if count > 0 {
            heads_at.load(RLE_TILE + count - 1) as usize
        } else {
            head_before
        };
        // SAFETY: one count and (with runs) the last run's length, each
        // written by this one thread.
        unsafe {
            num_runs.write(total as u32);
            if total > 0 {
                counts.add(total - 1).write((n - l) as u32);
            }
        }
    }
}

/// The sequential model of [`device_rle_encode_i32`]: the runs' values and
/// lengths written to the front of `unique` and `counts` (as long as
/// `input`); returns their number.
pub fn rle_model(input: &[i32], unique: &mut [i32], counts: &mut [u32]) -> usize {
    let mut r = 0;
    for (i, &v) in input.iter().enumerate() {
        if i == 0 || v != input[i - 1] {
            unique[r] = v;
            counts[r] = 0;
            r += 1;
        }
        counts[r - 1] += 1;
    }
    r
}
