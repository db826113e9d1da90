//! Device-wide selection (stream compaction) written with the library, on
//! the device scan's decoupled look-back: the `device_select` experiment
//! of `cg-lab compare`, against CUB's `DeviceSelect::Flagged`, `If` and
//! `Unique`.
//!
//! Each kernel copies, in order, the elements of `input` that it selects
//! to the front of `output` and writes their number to `num_selected[0]`:
//!
//! * [`device_select_flagged_i32`]: `input[i]` where `flags[i] != 0`;
//! * [`device_select_if_i32`]: `input[i]` where `input[i] < pivot`;
//! * [`device_select_unique_i32`]: `input[i]` where `i == 0` or
//!   `input[i] != input[i - 1]` (the first of each run of equal values).
//!
//! [`device_partition_flagged_i32`] and [`device_partition_if_i32`]
//! (CUB's `DevicePartition::Flagged`, `If`) also write the rejected
//! elements, in reverse order, to the back of `output`.
//!
//! Single pass, one block of [`SELECT_BLOCK`] threads per tile of
//! [`SELECT_TILE`] elements ([`PARTITION_TILE`] for the partitions; grid
//! [`select_grid`]`(n)` or [`partition_grid`]`(n)`, at least one block;
//! blocks are dispatched in index order, as the device scan relies on),
//! with [`select_smem`] (or [`partition_smem`]) bytes of dynamic shared
//! memory. Warp `w` owns `32 · ITEMS` contiguous elements of the tile
//! and copies them (and their flags) into shared memory with
//! [`memcpy_async()`] — the device scan's staging: no register holds data
//! in flight, so an SM keeps more tiles' loads in flight (measured
//! against elements loaded into registers: H200 runs
//! `2026-12-03-select-staged-ab-d762424` and
//! `2026-12-03-select-staged-tiles-d762424`);
//! a partial last tile, or an input (or flags) not 16-byte aligned, is
//! copied element by element. In round `k` lane `l` takes element `32k + l` of them; each round's
//! selections are a `ballot`: a lane's place among the round's selected
//! elements is the population count of the ballot below it, the warp's
//! total the sum of the rounds' counts. The warps' totals go through the
//! device scan's tile offset (`device_wide`: the block's warp totals, the
//! tile's aggregate and inclusive prefix published in the tile states, the
//! look-back), which gives every warp the number of selected elements
//! before it; each round's selected elements are then stored contiguously
//! from there. The input is read once, the selected elements written once.
//!
//! The tile sizes are measured: 24 elements per thread (the partitions
//! took 16 while their two stores per round needed 58–96 registers; at
//! 32 registers 24 is faster at 2^28 and slower at 2^24, run
//! `2026-12-03-reduce-chunks-ab-7a4873f`); storing through shared memory
//! first (CUB's two-phase scatter) was slower for both.
//!
//! Every instruction per element counts: an Nsight Compute profile on the
//! H200 (run `2026-12-03-select-u32-2d0a89f`) showed these kernels issuing 2.8×
//! CUB's instructions, with the issue slots 68–72 % busy. So indices are
//! `u32`, the staged tile is an array of the tile's size (its indices
//! need no check against a run-time length), a whole tile's rounds run
//! without a bounds check (one uniform branch: `rounds`), and each
//! round's ballot is taken again for the stores instead of kept in
//! registers across the look-back: 32 registers, eight blocks per SM.
//! `Unique` counts a whole tile's heads by 16-byte vectors instead (each
//! head compares two staged elements; by rounds the count loaded both):
//! 0.989–0.994 → 1.004–1.010 of CUB at 2^28 on the H200, A/B in one call
//! (run `2026-12-04-unique-count-8450f21`).
//!
//! The H200 runs named here left the tree;
//! `git show f66ff74:docs/results/h200/runs/<run>/` lists one.
//!
//! The tile states are the device scan's: one `u64` per block of the grid
//! (one for an empty input too), a new non-zero `epoch` per launch, no
//! reset between launches.

use core::mem::size_of;

use cooperative_groups::intrinsics::block_idx;
use cooperative_groups::prelude::*;
use cooperative_groups::{
    DynamicShared, Pod, SharedArray, dynamic_shared, kernel, memcpy_async, unroll, wait,
};

use crate::device_wide::{V4, tile_offsets};

/// Threads per block.
pub const SELECT_BLOCK: u32 = 256;
/// Elements per thread (rounds of a warp) of the selections.
pub const SELECT_ITEMS: usize = 24;
/// Elements per tile (block) of the selections.
pub const SELECT_TILE: usize = SELECT_BLOCK as usize * SELECT_ITEMS;
/// Elements per thread of the partitions.
pub const PARTITION_ITEMS: usize = 24;
/// Elements per tile (block) of the partitions.
pub const PARTITION_TILE: usize = SELECT_BLOCK as usize * PARTITION_ITEMS;

/// Tiles (blocks, tile states) of a selection of `n` elements.
pub const fn select_tiles(n: u32) -> u32 {
    (n as usize).div_ceil(SELECT_TILE) as u32
}

/// Grid size of the selection kernels: one block per tile, at least one
/// (which writes `num_selected` when `n == 0`); also their tile states.
pub fn select_grid(n: u32) -> u32 {
    select_tiles(n).max(1)
}

/// Grid size (and tile states) of the partition kernels.
pub fn partition_grid(n: u32) -> u32 {
    ((n as usize).div_ceil(PARTITION_TILE) as u32).max(1)
}

/// Dynamic shared memory of a tile of `items` per thread: its elements,
/// and its flags for the flagged kernels.
const fn staged_bytes(items: usize, flagged: bool) -> u32 {
    let tile = SELECT_BLOCK as usize * items;
    (4 * tile + if flagged { tile } else { 0 }) as u32
}

/// Dynamic shared memory per block of the selections (`flagged`: of
/// [`device_select_flagged_i32`]).
pub const fn select_smem(flagged: bool) -> u32 {
    staged_bytes(SELECT_ITEMS, flagged)
}

/// Dynamic shared memory per block of the partitions (`flagged`: of
/// [`device_partition_flagged_i32`]).
pub const fn partition_smem(flagged: bool) -> u32 {
    staged_bytes(PARTITION_ITEMS, flagged)
}

/// Sixteen flag bytes, 16-byte aligned (one `cp.async` segment).
#[derive(Clone, Copy, Debug, Default)]
#[repr(C, align(16))]
struct Bytes16([u8; 16]);

// SAFETY: `repr(C)` around `[u8; 16]`: 16 bytes at alignment 16, no
// padding, any bytes are a value.
unsafe impl cooperative_groups::Pod for Bytes16 {}

/// What a kernel selects (the `MODE` of [`select_body`]).
const FLAGGED: u32 = 0;
/// `input[i] < pivot`.
const LESS: u32 = 1;
/// The first of each run of equal elements.
const UNIQUE: u32 = 2;

/// The selection of one tile of `TILE = SELECT_BLOCK · ITEMS` elements
/// (see the module's documentation); `PART`: the rejected elements too,
/// from the back.
///
/// Indices are `u32` (`n` is: 64-bit compares and adds cost two
/// instructions each), and the staged tile is an array of `TILE` elements
/// whose indices the compiler can bound (no check per element against the
/// dynamic shared memory's run-time length).
///
/// # Safety
/// `input` (and `flags` for `FLAGGED`) hold `n` elements, `output` room
/// for `n`, `num_selected` one `u32`, `states` one `u64` per block; the
/// grid is `max(1, ceil(n / TILE))` blocks of [`SELECT_BLOCK`] threads
/// with [`staged_bytes`]`(ITEMS, MODE == FLAGGED)` bytes of dynamic shared
/// memory.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
unsafe fn select_body<const MODE: u32, const PART: bool, const ITEMS: usize, const TILE: usize>(
    input: *const i32,
    flags: *const u8,
    pivot: i32,
    output: *mut i32,
    num_selected: *mut u32,
    states: *mut u64,
    n: u32,
    epoch: u32,
) {
    const { assert!(TILE == SELECT_BLOCK as usize * ITEMS) };
    let block = this_thread_block().with_threads::<SELECT_BLOCK>();
    let warp = tiled_partition::<32>(&block);
    let WarpPart {
        tile,
        base,
        valid,
        w,
        lane,
        wloc,
    } = WarpPart::of::<SELECT_BLOCK, ITEMS>(&block, &warp, n);
    let aligned = (input as usize).is_multiple_of(16)
        && (MODE != FLAGGED || (flags as usize).is_multiple_of(16));
    let whole = valid == TILE as u32 && aligned;
    // SAFETY: `input` holds `n` elements (and `flags` `n` flags).
    unsafe {
        let (b, wl, nn) = (base as usize, wloc as usize, n as usize);
        stage::<i32, V4<i32>, ITEMS>(&warp, whole, input, dynamic_shared(), 0, b, wl, nn);
        if MODE == FLAGGED {
            stage::<u8, Bytes16, ITEMS>(&warp, whole, flags, dynamic_shared(), 4 * TILE, b, wl, nn);
        }
    }
    if whole {
        wait(&warp);
    } else {
        warp.sync();
    }
    // The tile's elements, then (flagged) its flags.
    let words = dynamic_shared::<i32>().array_at::<TILE>(0);
    let bytes = (MODE == FLAGGED).then(|| dynamic_shared::<u8>().array_at::<TILE>(4 * TILE));
    // `Unique`: the element before the warp's first, from memory (the
    // others' are in the warp's own part).
    let before_warp = if MODE == UNIQUE {
        // SAFETY: `input` holds `n` elements.
        unsafe { element_before(input, base + wloc, n, lane) }
    } else {
        0
    };
    // Round `k`'s selections, as a ballot; `check`: whether its places
    // need the check against `valid` (the last tile's; a whole tile's
    // rounds are written out without it). Taken twice, for the warp's
    // count and again for the stores, from the staged tile: keeping the
    // rounds' ballots in registers across the look-back took `ITEMS`
    // more registers, fewer blocks per SM.
    let full = valid == TILE as u32;
    let round = |k: usize, check: bool| {
        let e = wloc + 32 * k as u32 + lane;
        let here = !check || e < valid;
        let selected = match (MODE, bytes) {
            (FLAGGED, Some(bytes)) => here && bytes.load(e as usize) != 0,
            (LESS, _) => here && words.load(e as usize) < pivot,
            _ => {
                // The warp's first element; the input's first is a head.
                let first = 32 * k as u32 + lane == 0;
                let input_first = first && base + wloc == 0;
                here && (input_first || run_head(words, e as usize, first, before_warp))
            }
        };
        warp.ballot(selected)
    };
    let mut total = 0u32;
    if MODE == UNIQUE && full {
        // A whole tile's heads, counted by vectors (the vectors' count is
        // the tile's: `Unique` runs with `SELECT_ITEMS`).
        const { assert!(MODE != UNIQUE || ITEMS == SELECT_ITEMS) };
        total = count_heads::<{ 8 * SELECT_ITEMS }>(&warp, wloc, before_warp, base + wloc == 0);
    } else {
        rounds::<ITEMS>(full, |k, check| total += round(k, check).count_ones());
    }
    let offsets = tile_offsets::<i32, SELECT_BLOCK>(&block, &warp, total as i32, states, epoch);
    let mut at = offsets.before_warp().map_or(0, |b| b as u32);
    let below = (1u32 << lane) - 1;
    rounds::<ITEMS>(full, |k, check| {
        let e = wloc + 32 * k as u32 + lane;
        let mask = round(k, check);
        let j = at + (mask & below).count_ones();
        if mask >> lane & 1 != 0 {
            // SAFETY: `j` is below the number of selected elements (≤ n):
            // inside the output, and every selected element has its own.
            unsafe { output.add(j as usize).write(words.load(e as usize)) };
        } else if PART && (!check || e < valid) {
            // The `i − j`-th rejected element (`j` selected ones precede
            // element `i = base + e`), from the back: `n − 1 − (i − j)`,
            // inside the output and after every selected place.
            // SAFETY: `j ≤ i < n`: inside the output; each rejected
            // element has its own place.
            unsafe {
                output
                    .add((n - 1 - (base + e - j)) as usize)
                    .write(words.load(e as usize))
            };
        }
        at += mask.count_ones();
    });
    // The last warp of the last tile: `at` is the whole count.
    let last_tile = n.div_ceil(TILE as u32).max(1) - 1;
    if tile == last_tile && w == SELECT_BLOCK / 32 - 1 && lane == 0 {
        // SAFETY: `num_selected` holds one `u32`; one thread writes it.
        unsafe { num_selected.write(at) };
    }
}

/// Where a warp's part of its block's tile lies, in `u32` (`n` is: 64-bit
/// compares and adds cost two instructions each): a tile of `BLOCK ·
/// ITEMS` elements per block, `32 · ITEMS` contiguous ones per warp.
pub(crate) struct WarpPart {
    /// The block's tile (its index in the grid).
    pub tile: u32,
    /// The tile's first element: below `n` (or 0), since the grid has
    /// `ceil(n / tile)` blocks.
    pub base: u32,
    /// The tile's elements inside the input: places in the tile are
    /// checked against it, which cannot wrap where `base + place` could.
    pub valid: u32,
    /// The warp in the block: below `BLOCK / 32` (the remainder that
    /// computes it tells the compiler so, and the shared arrays' indices
    /// built from it need no check).
    pub w: u32,
    /// The lane in the warp.
    pub lane: u32,
    /// The warp's first element in the tile.
    pub wloc: u32,
}

impl WarpPart {
    /// The calling thread's part, in a grid of blocks of `BLOCK` threads
    /// over `n` elements, `ITEMS` per thread.
    #[inline(always)]
    pub(crate) fn of<const BLOCK: u32, const ITEMS: usize>(
        block: &ThreadBlock<BLOCK>,
        warp: &ThreadBlockTile<32>,
        n: u32,
    ) -> WarpPart {
        let tile = block_idx().x;
        let len = BLOCK * ITEMS as u32;
        let base = tile * len;
        let w = block.thread_rank() / 32 % (BLOCK / 32);
        WarpPart {
            tile,
            base,
            valid: n.saturating_sub(base).min(len),
            w,
            lane: warp.thread_rank(),
            wloc: w * 32 * ITEMS as u32,
        }
    }
}

/// `f(k, check)` for the rounds `k` of `0..ITEMS`, written out:
/// `check == false` in all of them when `full` (a whole tile: one uniform
/// branch for the block instead of a compare per element), `true` in all
/// otherwise.
#[inline(always)]
pub(crate) fn rounds<const ITEMS: usize>(full: bool, mut f: impl FnMut(usize, bool)) {
    if full {
        unroll!(k in 0..ITEMS => { f(k, false) });
    } else {
        unroll!(k in 0..ITEMS => { f(k, true) });
    }
}

/// Issues the copy of a warp's part of a tile — its `32 · ITEMS`
/// elements from `src + base + wloc` — to `dst` from element `off + wloc`
/// (`off`, `wloc` multiples of a vector `V`, the 16-byte vector of `T`):
/// `whole` (the tile is whole and `src` 16-byte aligned) by
/// `memcpy_async` in vectors, for the caller to `wait` on; otherwise
/// element by element (zeros past `n`), for the caller to `sync` the warp
/// after.
///
/// # Safety
/// `src` holds `n` elements; with `whole`, all of the warp's part.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(crate) unsafe fn stage<T: Pod + Default, V: Pod, const ITEMS: usize>(
    warp: &ThreadBlockTile<32>,
    whole: bool,
    src: *const T,
    dst: DynamicShared<T>,
    off: usize,
    base: usize,
    wloc: usize,
    n: usize,
) {
    let per = size_of::<V>() / size_of::<T>();
    let warp_len = 32 * ITEMS;
    if whole {
        // SAFETY: the warp's part of a whole tile, 16-byte aligned.
        let part = unsafe {
            core::slice::from_raw_parts(src.add(base + wloc).cast::<V>(), warp_len / per)
        };
        memcpy_async(
            warp,
            dynamic_shared::<V>().slice((off + wloc) / per, warp_len / per),
            part,
        );
    } else {
        let lane = warp.thread_rank() as usize;
        unroll!(k in 0..ITEMS => {
            let e = wloc + 32 * k + lane;
            let i = base + e;
            // SAFETY: `i < n`: inside `src`.
            dst.store(off + e, if i < n { unsafe { src.add(i).read() } } else { T::default() });
        });
    }
}

/// In lane 0 of the warp whose part starts at element `wbase`: the element
/// before it (0 if none, or elsewhere); the others' are in the warp's
/// own staged part.
///
/// # Safety
/// `input` holds `n` elements.
#[inline(always)]
pub(crate) unsafe fn element_before(input: *const i32, wbase: u32, n: u32, lane: u32) -> i32 {
    if lane == 0 && wbase > 0 && wbase < n {
        // SAFETY: `0 < wbase < n`: inside the input.
        unsafe { input.add(wbase as usize - 1).read() }
    } else {
        0
    }
}

/// The run heads among a warp's whole staged part of `4 · VECS` elements
/// from `wloc` (see [`run_head`]; `before`: the element before the part,
/// `input_first`: the part starts the input), in every lane: counted by
/// 16-byte vectors, four elements per `LDS.128`, where the rounds of
/// [`select_body`] load two words per element (the count needs no order;
/// the stores that follow keep their rounds). In trip `k` lane `l` takes
/// vector `32k + l` (conflict-free); the element before it is the last of
/// the lane below's vector, by a shuffle, and in lane 0 the last of lane
/// 31's vector in the trip before (the shuffle's rotation hands it to
/// lane 0 one trip early). A plain loop: written out, ptxas hoisted every trip's load and
/// shuffle and spilled under the kernel's 32 registers (and without the
/// bound took 40: six blocks per SM, 0.93× CUB on the H200).
#[inline(always)]
fn count_heads<const VECS: usize>(
    warp: &ThreadBlockTile<32>,
    wloc: u32,
    before: i32,
    input_first: bool,
) -> u32 {
    const { assert!(VECS.is_multiple_of(32)) };
    let vecs = dynamic_shared::<V4<i32>>().array_at::<VECS>(wloc as usize / 4);
    let lane = warp.thread_rank();
    let mut carry = before;
    let mut count = 0u32;
    for k in 0..VECS / 32 {
        let x = vecs.load(32 * k + lane as usize).0;
        let below = warp.shfl(x[3], (lane + 31) % 32);
        let prev = if lane == 0 { carry } else { below };
        carry = below;
        let head = x[0] != prev || (k == 0 && lane == 0 && input_first);
        count +=
            head as u32 + (x[1] != x[0]) as u32 + (x[2] != x[1]) as u32 + (x[3] != x[2]) as u32;
    }
    reduce(warp, count, Plus)
}

/// Whether the element staged at `e` differs from the one before it
/// (staged at `e − 1`, or `before` when `e` starts the warp's part,
/// `first`): a run's head, unless it is the input's first element (a head
/// anyway) or past the input (none); the callers check those.
#[inline(always)]
pub(crate) fn run_head<const N: usize>(
    words: SharedArray<i32, N>,
    e: usize,
    first: bool,
    before: i32,
) -> bool {
    let prev = if first {
        before
    } else {
        words.load(e.wrapping_sub(1))
    };
    words.load(e) != prev
}

/// Parameters of [`device_select_flagged_i32`]: `(input, flags, output,
/// num_selected, tile_states, n, epoch)`.
pub type SelectFlaggedArgs = (
    *const i32,
    *const u8,
    *mut i32,
    *mut u32,
    *mut u64,
    u32,
    u32,
);

/// `input[i]` where `flags[i] != 0`, in order, to the front of `output`;
/// their number to `num_selected[0]`. Grid [`select_grid`]`(n)`, blocks of
/// [`SELECT_BLOCK`] with [`select_smem`]`(true)` bytes of dynamic shared
/// memory; `tile_states` one `u64` per block of the grid, `epoch` new and
/// non-zero each launch on them.
#[kernel]
pub fn device_select_flagged_i32(
    input: *const i32,
    flags: *const u8,
    output: *mut i32,
    num_selected: *mut u32,
    states: *mut u64,
    n: u32,
    epoch: u32,
) {
    // SAFETY: the launcher's contract (this kernel's documentation).
    unsafe {
        select_body::<FLAGGED, false, SELECT_ITEMS, SELECT_TILE>(
            input,
            flags,
            0,
            output,
            num_selected,
            states,
            n,
            epoch,
        )
    }
}

/// `input[i]` where `input[i] < pivot` (see [`device_select_flagged_i32`];
/// [`select_smem`]`(false)` bytes of dynamic shared memory).
#[kernel]
pub fn device_select_if_i32(
    input: *const i32,
    pivot: i32,
    output: *mut i32,
    num_selected: *mut u32,
    states: *mut u64,
    n: u32,
    epoch: u32,
) {
    // SAFETY: the launcher's contract (as for the flagged selection).
    unsafe {
        select_body::<LESS, false, SELECT_ITEMS, SELECT_TILE>(
            input,
            core::ptr::null(),
            pivot,
            output,
            num_selected,
            states,
            n,
            epoch,
        )
    }
}

/// The first element of each run of equal elements (see
/// [`device_select_flagged_i32`]; [`select_smem`]`(false)` bytes of
/// dynamic shared memory). Eight blocks per SM on sm_90
/// (`launch_bounds(256, 8, sm_90)`: 32 registers), as the other
/// selections have.
#[kernel(launch_bounds(256, 8, sm_90))]
pub fn device_select_unique_i32(
    input: *const i32,
    output: *mut i32,
    num_selected: *mut u32,
    states: *mut u64,
    n: u32,
    epoch: u32,
) {
    // SAFETY: the launcher's contract (as for the flagged selection).
    unsafe {
        select_body::<UNIQUE, false, SELECT_ITEMS, SELECT_TILE>(
            input,
            core::ptr::null(),
            0,
            output,
            num_selected,
            states,
            n,
            epoch,
        )
    }
}

/// Partitions `input` by `flags` (CUB's `DevicePartition::Flagged`): the
/// elements whose flag is set, in order, to the front of `output`, the
/// others, in reverse order, to its back; the number selected to
/// `num_selected[0]`. Grid [`partition_grid`]`(n)`, blocks of
/// [`SELECT_BLOCK`] with [`partition_smem`]`(true)` bytes of dynamic
/// shared memory, tile states and epoch as for
/// [`device_select_flagged_i32`].
#[kernel]
pub fn device_partition_flagged_i32(
    input: *const i32,
    flags: *const u8,
    output: *mut i32,
    num_selected: *mut u32,
    states: *mut u64,
    n: u32,
    epoch: u32,
) {
    // SAFETY: the launcher's contract (as for the flagged selection).
    unsafe {
        select_body::<FLAGGED, true, PARTITION_ITEMS, PARTITION_TILE>(
            input,
            flags,
            0,
            output,
            num_selected,
            states,
            n,
            epoch,
        )
    }
}

/// Partitions `input` by `x < pivot` (CUB's `DevicePartition::If`; see
/// [`device_partition_flagged_i32`]; [`partition_smem`]`(false)` bytes of
/// dynamic shared memory).
#[kernel]
pub fn device_partition_if_i32(
    input: *const i32,
    pivot: i32,
    output: *mut i32,
    num_selected: *mut u32,
    states: *mut u64,
    n: u32,
    epoch: u32,
) {
    // SAFETY: the launcher's contract (as for the flagged selection).
    unsafe {
        select_body::<LESS, true, PARTITION_ITEMS, PARTITION_TILE>(
            input,
            core::ptr::null(),
            pivot,
            output,
            num_selected,
            states,
            n,
            epoch,
        )
    }
}

/// The sequential model of the partitions: the selected elements (flagged
/// or `< pivot`, as [`select_model`] selects them) in order, then the
/// others in reverse order, into `out` (as long as `input`); returns the
/// number selected.
pub fn partition_model(
    input: &[i32],
    flags: Option<&[u8]>,
    pivot: Option<i32>,
    out: &mut [i32],
) -> usize {
    let m = select_model(input, flags, pivot, out);
    let mut back = input.len();
    for i in 0..input.len() {
        let keep = match (flags, pivot) {
            (Some(f), _) => f[i] != 0,
            (None, Some(p)) => input[i] < p,
            (None, None) => i == 0 || input[i] != input[i - 1],
        };
        if !keep {
            back -= 1;
            out[back] = input[i];
        }
    }
    m
}

/// The sequential model of the selections: what [`device_select_flagged_i32`]
/// (`flags: Some`), [`device_select_if_i32`] (`pivot: Some`) or
/// [`device_select_unique_i32`] (neither) select from `input`, written to
/// the front of `out` (as long as `input`); returns their number.
pub fn select_model(
    input: &[i32],
    flags: Option<&[u8]>,
    pivot: Option<i32>,
    out: &mut [i32],
) -> usize {
    let mut m = 0;
    for i in 0..input.len() {
        let keep = match (flags, pivot) {
            (Some(f), _) => f[i] != 0,
            (None, Some(p)) => input[i] < p,
            (None, None) => i == 0 || input[i] != input[i - 1],
        };
        if keep {
            out[m] = input[i];
            m += 1;
        }
    }
    m
}
