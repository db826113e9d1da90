//! The grid collectives' global scratch: one value per block, in the half
//! of the module's `cg_grid_scratch` array (two halves of
//! [`GRID_SCRATCH_BYTES`] bytes) that belongs to the grid barrier's current
//! phase.
//!
//! Why two halves: a block that leaves one grid collective may publish for
//! the next one while a slower block is still reading the first one's
//! values. The barrier word's top bit flips at every grid barrier, so the
//! next collective (after at least one more barrier that every block must
//! reach, i.e. after every read of this one) writes the other half; one
//! barrier per collective is enough.
//!
//! Why a module-global array and not a user buffer: the call then looks
//! like the tile collectives' (`grid.reduce(v, op)`), and a cooperative
//! grid is bounded by the occupancy (sm_90: 32 blocks per SM, 4224 blocks on
//! an H200): 64 KiB hold 8192 values of 8 bytes (16384 of 4, 2048 of 32). A
//! larger grid is a contract violation: `trap` on the GPU, a panic naming
//! the sizes on the simulator. Two launches of one module running at once
//! on different streams share the array, as they share the barrier word.

use crate::arch::{self, GRID_SCRATCH_BYTES};
use crate::collective::reduce::reduce_shape;
use crate::group::sealed::Sealed;
use crate::group::violation;
use crate::ops::ReduceOp;
use crate::value::ShflValue;

/// Blocks whose values of type `T` one half of the scratch holds.
#[inline(always)]
pub(crate) const fn capacity<T>() -> u32 {
    (GRID_SCRATCH_BYTES / core::mem::size_of::<T>()) as u32
}

/// Checks that a grid of `blocks` blocks fits the scratch for `T`.
#[inline(always)]
#[track_caller]
pub(crate) fn check_capacity<T: ShflValue>(blocks: u32) {
    const { assert!(core::mem::align_of::<T>() <= 16) };
    if blocks > capacity::<T>() {
        violation!(
            "grid collective over {blocks} blocks: the grid scratch holds {} values of {} bytes \
             (GRID_SCRATCH_BYTES = {GRID_SCRATCH_BYTES})",
            capacity::<T>(),
            core::mem::size_of::<T>()
        );
    }
}

/// Slot `rank` of scratch half `phase`, as a `T`.
#[inline(always)]
fn slot<T: ShflValue>(phase: u32, rank: u32) -> *mut T {
    arch::grid_scratch(phase)
        .cast::<T>()
        .wrapping_add(rank as usize)
}

/// Stores `v` as block `rank`'s value for the grid barrier that follows
/// (in the half of the current phase). `rank` must be below the capacity
/// checked by [`check_capacity`].
#[inline(always)]
#[track_caller]
pub(crate) fn publish<T: ShflValue>(rank: u32, v: T) {
    let p = slot::<T>(arch::grid_phase(), rank);
    arch::note_store(p.cast(), core::mem::size_of::<T>());
    // SAFETY: the half is 16-byte aligned and `GRID_SCRATCH_BYTES` long,
    // `align_of::<T>() <= 16` and `rank < capacity::<T>()` (checked), so the
    // slot is in bounds and aligned. No other thread accesses it until the
    // next grid barrier: each block writes only its own slot, the readers
    // of this half read after that barrier, and the previous readers of
    // the half finished before the barrier that flipped the phase to it.
    unsafe { p.write(v) }
}

/// Reads block `rank`'s value published before the last grid barrier,
/// from `half`, the half that barrier's phase wrote.
#[inline(always)]
#[track_caller]
fn read<T: ShflValue>(half: u32, rank: u32) -> T {
    let p = slot::<T>(half, rank);
    arch::note_load(p.cast(), core::mem::size_of::<T>());
    // SAFETY: in bounds and aligned as in `publish`; written before the
    // grid barrier this thread has passed, and not written again before the
    // next one.
    unsafe { p.read() }
}

/// The values blocks `0..count` published, combined under `op` and
/// returned to every thread of the calling block: thread `t` folds the
/// contiguous run `[t·c, (t+1)·c)` (`c = ⌈count / blockDim⌉`) from left to
/// right, then the block reduces the threads' partials. The order depends
/// only on `count` and the block size. Call after the grid barrier, with
/// `count` uniform over the block.
#[inline(always)]
#[track_caller]
pub(crate) fn fold<T: ShflValue, Op: ReduceOp<T>>(count: u32, op: Op) -> T {
    let block = crate::this_thread_block();
    let threads = block.num_threads();
    let chunk = count.div_ceil(threads);
    let start = (block.thread_rank() * chunk).min(count);
    let end = (start + chunk).min(count);
    let mut acc = op.identity();
    if start < end {
        // The barrier flipped the phase: the values are in the other half.
        // Loaded once per fold: the barrier word's load is an atomic, which
        // the compiler neither merges nor hoists.
        let half = arch::grid_phase() ^ 1;
        acc = read::<T>(half, start);
        let mut i = start + 1;
        while i < end {
            acc = op.combine(acc, read::<T>(half, i));
            i += 1;
        }
    }
    reduce_shape::<T, Op>(block.shape(), acc, op)
}
