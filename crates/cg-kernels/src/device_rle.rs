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
//! tile states of its own. Each head's place in the tile then goes to its
//! run's place in a second shared buffer (as a `u16`), and the block writes the tile's runs in
//! order (CUB's two-phase scatter: consecutive threads write consecutive
//! runs): run `s`'s value (the element at its head) and the length of the
//! run before it (its head's index minus the previous head's). The last
//! block writes the last run's length (`n −` the last head) and the number
//! of runs. The input is read once, each run's value and length written
//! once.
//!
//! The shape is measured (H200, at commit d762424:
//! `git show f66ff74:docs/results/h200/runs/2026-12-03-select-staged-ab-d762424/README.md`):
//! the two look-backs one after the other, the elements in registers, or
//! each head storing its own run directly were each slower.
//!
//! The tile states are the device scan's (two arrays of one `u64` per
//! block of the grid, one new non-zero `epoch` per launch for both, no
//! reset between launches).

use cooperative_groups::prelude::*;
use cooperative_groups::{ShflValue, dynamic_shared, kernel, unroll, wait};

use crate::device_select::{WarpPart, element_before, rounds, run_head, stage};
use crate::device_wide::{Elem, V4, tile_offsets2};

/// Threads per block.
pub const RLE_BLOCK: u32 = 256;
/// Elements per thread (rounds of a warp).
pub const RLE_ITEMS: usize = 24;
/// Elements per tile (block).
pub const RLE_TILE: usize = RLE_BLOCK as usize * RLE_ITEMS;
/// Dynamic shared memory per block: the tile's elements, then its heads'
/// places in the tile (`u16`), in run order. 36 KiB: six blocks per SM
/// on an H200 (with `u32` places, 48 KiB, four).
pub const RLE_SMEM_BYTES: u32 = (6 * RLE_TILE) as u32;
const _: () = assert!(RLE_TILE <= 1 << 16, "a place in the tile fits a u16");

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
    // `u32` indices and fixed-size views of the staged tile, as in the
    // selections (`device_select`): no 64-bit compares, no check per
    // element against the dynamic shared memory's run-time length.
    let WarpPart {
        tile,
        base,
        valid,
        w: _,
        lane,
        wloc,
    } = WarpPart::of::<RLE_BLOCK, RLE_ITEMS>(&block, &warp, n);
    let wbase = base + wloc;
    let whole = valid == RLE_TILE as u32 && (input as usize).is_multiple_of(16);
    // SAFETY: `input` holds `n` elements.
    unsafe {
        stage::<i32, V4<i32>, RLE_ITEMS>(
            &warp,
            whole,
            input,
            dynamic_shared(),
            0,
            base as usize,
            wloc as usize,
            n as usize,
        )
    };
    if whole {
        wait(&warp);
    } else {
        warp.sync();
    }
    // The tile's elements, then its heads' indices in run order.
    let words = dynamic_shared::<i32>().array_at::<RLE_TILE>(0);
    let heads_at = dynamic_shared::<u16>().array_at::<RLE_TILE>(2 * RLE_TILE);
    // SAFETY: `input` holds `n` elements.
    let before_warp = unsafe { element_before(input, wbase, n, lane) };
    // Round `k`'s run heads, as a ballot (`check`: against `valid`, in
    // the last tile only; see `rounds`): taken again for the stores below
    // (as the selections do) rather than kept in registers across the
    // look-back.
    let round = |k: usize, check: bool| {
        let e = wloc + 32 * k as u32 + lane;
        let first = 32 * k as u32 + lane == 0;
        let here = !check || e < valid;
        // The input's first element is a head.
        let input_first = first && wbase == 0;
        let head = here && (input_first || run_head(words, e as usize, first, before_warp));
        warp.ballot(head)
    };
    let full = valid == RLE_TILE as u32;
    let mut heads = 0u32;
    let mut last_head = 0u32;
    rounds::<RLE_ITEMS>(full, |k, check| {
        let m = round(k, check);
        heads += m.count_ones();
        if m != 0 {
            last_head = wbase + 32 * k as u32 + 31 - m.leading_zeros();
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
    // A place in the tile (below `RLE_TILE` by construction: a tile has at
    // most that many heads), clamped so that the compiler sees it: the
    // array's bounds check becomes one `min`, not a compare and a branch
    // per use.
    let in_tile = |s: u32| s.min(RLE_TILE as u32 - 1) as usize;
    // Each head's index to its run's place in the tile.
    let below = (1u32 << lane) - 1;
    let mut at = runs.warps_before.map_or(0, |b| b as u32);
    rounds::<RLE_ITEMS>(full, |k, check| {
        let m = round(k, check);
        if m >> lane & 1 != 0 {
            let s = at + (m & below).count_ones();
            heads_at.store(in_tile(s), (wloc + 32 * k as u32 + lane) as u16);
        }
        at += m.count_ones();
    });
    debug_assert!(at as usize <= RLE_TILE, "the tile's heads fit it");
    block.sync();
    // Run `s` of the tile: its value, and the length of the run before it.
    let prefix = runs.prefix.map_or(0, |p| p as u32);
    let count = runs.aggregate as u32;
    let head_before = last.prefix.map_or(0, |h| h.0);
    let t = block.thread_rank();
    unroll!(r in 0..RLE_ITEMS => {
        let s = t + RLE_BLOCK * r as u32;
        if s < count {
            let i = base + heads_at.load(in_tile(s)) as u32;
            let p = if s > 0 { base + heads_at.load(in_tile(s - 1)) as u32 } else { head_before };
            // SAFETY: `prefix + s` is below the number of runs (≤ n):
            // inside both outputs; each run's value is written by its
            // head, its length by the next run's head (or, for the last
            // run, below), once.
            unsafe {
                unique.add((prefix + s) as usize).write(words.load(in_tile(i - base)));
                if prefix + s > 0 {
                    counts.add((prefix + s - 1) as usize).write(i - p);
                }
            }
        }
    });
    // The last tile: the number of runs, and the last run's length (from
    // the tile's last head, or the one before the tile).
    if tile == n.div_ceil(RLE_TILE as u32).max(1) - 1 && t == 0 {
        let total = prefix + count;
        let l = if count > 0 {
            base + heads_at.load(count as usize - 1) as u32
        } else {
            head_before
        };
        // SAFETY: one count and (with runs) the last run's length, each
        // written by this one thread.
        unsafe {
            num_runs.write(total);
            if total > 0 {
                counts.add(total as usize - 1).write(n - l);
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
