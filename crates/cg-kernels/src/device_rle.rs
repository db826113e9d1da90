//! Device-wide run-length encoding written with the library, on the
//! device scan's decoupled look-back: the `device_rle` experiment of
//! `cg-lab compare`, against CUB's `DeviceRunLengthEncode::Encode`.
//!
//! [`device_rle_encode_i32`] writes, for each run `j` of equal elements of
//! `input` (maximal, in order), its value to `unique[j]` and its length to
//! `counts[j]`, and the number of runs to `num_runs[0]`.
//!
//! Single pass, laid out as the selections (`device_select`: one block of
//! [`RLE_BLOCK`] threads per tile of [`RLE_TILE`] elements, a warp's
//! rounds of 32 contiguous elements, a `ballot` of the run heads — the
//! elements that differ from the one before — per round). Two look-backs
//! give each warp what precedes it: the number of heads (the runs before
//! it: where its heads go), and the index of the last head (the start of
//! the run its first element continues) — a scan with `max` over the
//! warps' last head indices, in tile states of its own. The head at index
//! `i` then writes its value, and the length of the run before it, `i −`
//! the index of the head before it (the next lower lane of its round with
//! a head, else the warp's last head so far); the last warp of the last
//! tile writes the last run's length (`n −` the last head) and the number
//! of runs. The input is read once, each run's value and length written
//! once.
//!
//! The tile states are the device scan's (two arrays of one `u64` per
//! block of the grid, one new non-zero `epoch` per launch for both, no
//! reset between launches).

use cooperative_groups::intrinsics::block_idx;
use cooperative_groups::prelude::*;
use cooperative_groups::{ShflValue, kernel};

use crate::device_wide::{Elem, tile_offset};

/// Threads per block.
pub const RLE_BLOCK: u32 = 256;
/// Elements per thread (rounds of a warp).
pub const RLE_ITEMS: usize = 16;
/// Elements per tile (block).
pub const RLE_TILE: usize = RLE_BLOCK as usize * RLE_ITEMS;

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
/// `num_runs[0]`. Grid [`rle_grid`]`(n)` blocks of [`RLE_BLOCK`];
/// `count_states` and `head_states` one `u64` per block each; `epoch` new
/// and non-zero each launch on them.
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
    let n_elems = n as usize;
    let tile = block_idx().x as usize;
    let w = (block.thread_rank() / 32) as usize;
    let lane = warp.thread_rank() as usize;
    let wbase = tile * RLE_TILE + w * 32 * RLE_ITEMS;
    let mut x = [0i32; RLE_ITEMS];
    let mut masks = [0u32; RLE_ITEMS];
    let mut heads = 0u32;
    let mut last_head = 0u32;
    const { assert!(RLE_ITEMS == 16, "unroll16! covers the rounds") };
    unroll16!(k => {
        let i = wbase + 32 * k + lane;
        let valid = i < n_elems;
        if valid {
            // SAFETY: `i < n`: inside the input.
            x[k] = unsafe { input.add(i).read() };
        }
        // The element before: the lane below's, lane 0's from the round
        // before (lane 31), or, in round 0, from memory.
        let up = warp.shfl_up(x[k], 1);
        let last = if k > 0 { warp.shfl(x[k - 1], 31) } else { 0 };
        let prev = if lane > 0 {
            up
        } else if k > 0 {
            last
        } else if valid && i > 0 {
            // SAFETY: `0 < i < n`: inside the input.
            unsafe { input.add(i - 1).read() }
        } else {
            0
        };
        masks[k] = warp.ballot(valid && (i == 0 || x[k] != prev));
        heads += masks[k].count_ones();
        if masks[k] != 0 {
            last_head = (wbase + 32 * k + 31 - masks[k].leading_zeros() as usize) as u32;
        }
    });
    let runs_before =
        tile_offset::<i32, RLE_BLOCK>(&block, &warp, heads as i32, count_states, epoch)
            .map_or(0, |b| b as u32) as usize;
    // The second tile offset reuses the first's shared words (a shared
    // array is one allocation per source site, however often inlined):
    // its first stores wait for every thread's last reads of them.
    block.sync();
    let head_before = tile_offset::<HeadIndex, RLE_BLOCK>(
        &block,
        &warp,
        HeadIndex(last_head),
        head_states,
        epoch,
    )
    .map_or(0, |h| h.0);
    let below = (1u32 << lane) - 1;
    let mut at = runs_before;
    // The index of the last head before the current round (warp-uniform).
    let mut last = head_before as usize;
    unroll16!(k => {
        let m = masks[k];
        if m >> lane & 1 != 0 {
            let i = wbase + 32 * k + lane;
            let j = at + (m & below).count_ones() as usize;
            let lower = m & below;
            let p = if lower != 0 {
                wbase + 32 * k + 31 - lower.leading_zeros() as usize
            } else {
                last
            };
            // SAFETY: `j` is below the number of runs (≤ n): inside both
            // outputs; each run's value is written by its head, its length
            // by the next run's head (or, for the last run, below), once.
            unsafe {
                unique.add(j).write(x[k]);
                if j > 0 {
                    counts.add(j - 1).write((i - p) as u32);
                }
            }
        }
        at += m.count_ones() as usize;
        if m != 0 {
            last = wbase + 32 * k + 31 - m.leading_zeros() as usize;
        }
    });
    // The last warp of the last tile: `at` runs in all, the last from `last`.
    let last_tile = rle_grid(n) as usize - 1;
    if tile == last_tile && w == (RLE_BLOCK / 32) as usize - 1 && lane == 0 {
        // SAFETY: one `u32` count, and (with runs) the last run's length,
        // each written by this one thread.
        unsafe {
            num_runs.write(at as u32);
            if at > 0 {
                counts.add(at - 1).write((n_elems - last) as u32);
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
