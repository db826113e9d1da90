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
//! [`SELECT_TILE`] elements (grid = [`select_tiles`]`(n)`, at least one;
//! blocks are dispatched in index order, as the device scan relies on).
//! Warp `w` owns `32 · SELECT_ITEMS` contiguous elements of the tile; in
//! round `k` its lane `l` reads element `32k + l` of them (every load of a
//! warp covers 128 contiguous bytes). Each round's selections are a
//! `ballot`: a lane's place among the round's selected elements is the
//! population count of the ballot below it, the warp's total the sum of
//! the rounds' counts. The warps' totals go through the device scan's
//! tile offset (`device_wide`: the block's warp totals, the tile's
//! aggregate and inclusive prefix published in the tile states, the
//! look-back), which gives every warp the number of selected elements
//! before it; each round's selected elements are then stored contiguously
//! from there. The input is read once, the selected elements written once.
//!
//! The tile states are the device scan's: one `u64` per block of the grid
//! (one for an empty input too), a new non-zero `epoch` per launch, no
//! reset between launches.

use cooperative_groups::intrinsics::block_idx;
use cooperative_groups::kernel;
use cooperative_groups::prelude::*;

use crate::device_wide::tile_offset;

/// Threads per block.
pub const SELECT_BLOCK: u32 = 256;
/// Elements per thread (rounds of a warp).
pub const SELECT_ITEMS: usize = 16;
/// Elements per tile (block).
pub const SELECT_TILE: usize = SELECT_BLOCK as usize * SELECT_ITEMS;

/// Tiles (blocks, tile states) of a selection of `n` elements.
pub const fn select_tiles(n: u32) -> u32 {
    (n as usize).div_ceil(SELECT_TILE) as u32
}

/// Grid size of the selection kernels: one block per tile, at least one
/// (which writes `num_selected` when `n == 0`).
pub fn select_grid(n: u32) -> u32 {
    select_tiles(n).max(1)
}

/// What a kernel selects.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Flagged,
    Less,
    Unique,
}

/// The selection of one tile (see the module's documentation).
///
/// # Safety
/// `input` (and `flags` for `Flagged`) hold `n` elements, `output` room
/// for `n`, `num_selected` one `u32`, `states` one `u64` per block; the
/// grid is [`select_grid`]`(n)` blocks of [`SELECT_BLOCK`] threads.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
unsafe fn select_body(
    mode: Mode,
    partition: bool,
    input: *const i32,
    flags: *const u8,
    pivot: i32,
    output: *mut i32,
    num_selected: *mut u32,
    states: *mut u64,
    n: u32,
    epoch: u32,
) {
    let block = this_thread_block().with_threads::<SELECT_BLOCK>();
    let warp = tiled_partition::<32>(&block);
    let n = n as usize;
    let tile = block_idx().x as usize;
    let w = (block.thread_rank() / 32) as usize;
    let lane = warp.thread_rank() as usize;
    let wbase = tile * SELECT_TILE + w * 32 * SELECT_ITEMS;
    let mut x = [0i32; SELECT_ITEMS];
    let mut masks = [0u32; SELECT_ITEMS];
    let mut total = 0u32;
    const { assert!(SELECT_ITEMS == 16, "unroll16! covers the rounds") };
    unroll16!(k => {
        let i = wbase + 32 * k + lane;
        let valid = i < n;
        if valid {
            // SAFETY: `i < n`: inside the input.
            x[k] = unsafe { input.add(i).read() };
        }
        let selected = match mode {
            // SAFETY: `i < n`: inside the flags.
            Mode::Flagged => valid && unsafe { flags.add(i).read() } != 0,
            Mode::Less => valid && x[k] < pivot,
            Mode::Unique => {
                // The element before: the lane below's, lane 0's from the
                // round before (lane 31), or, in round 0, from memory.
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
                valid && (i == 0 || x[k] != prev)
            }
        };
        masks[k] = warp.ballot(selected);
        total += masks[k].count_ones();
    });
    let before = tile_offset::<i32, SELECT_BLOCK>(&block, &warp, total as i32, states, epoch);
    let mut at = before.map_or(0, |b| b as u32) as usize;
    let below = (1u32 << lane) - 1;
    unroll16!(k => {
        let i = wbase + 32 * k + lane;
        let j = at + (masks[k] & below).count_ones() as usize;
        if masks[k] >> lane & 1 != 0 {
            // SAFETY: `j` is below the number of selected elements (≤ n):
            // inside the output, and every selected element has its own.
            unsafe { output.add(j).write(x[k]) };
        } else if partition && i < n {
            // The `i − j`-th rejected element (`j` selected ones precede
            // it), from the back: `n − 1 − (i − j)`, inside the output
            // and after every selected place.
            // SAFETY: `j ≤ i < n`: inside the output; each rejected
            // element has its own place.
            unsafe { output.add(n - 1 - (i - j)).write(x[k]) };
        }
        at += masks[k].count_ones() as usize;
    });
    // The last warp of the last tile: `at` is the whole count.
    let last_tile = select_grid(n as u32) as usize - 1;
    if tile == last_tile && w == (SELECT_BLOCK / 32) as usize - 1 && lane == 0 {
        // SAFETY: `num_selected` holds one `u32`; one thread writes it.
        unsafe { num_selected.write(at as u32) };
    }
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
/// [`SELECT_BLOCK`]; `tile_states` one `u64` per block of the grid,
/// `epoch` new and non-zero each launch on them.
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
        select_body(
            Mode::Flagged,
            false,
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

/// `input[i]` where `input[i] < pivot` (see [`device_select_flagged_i32`]).
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
        select_body(
            Mode::Less,
            false,
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
/// [`device_select_flagged_i32`]).
#[kernel]
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
        select_body(
            Mode::Unique,
            false,
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
/// `num_selected[0]` (see [`device_select_flagged_i32`]).
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
        select_body(
            Mode::Flagged,
            true,
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
/// [`device_partition_flagged_i32`]).
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
        select_body(
            Mode::Less,
            true,
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
