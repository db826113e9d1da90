//! The raking block scan: the scan of a whole block over 32-bit values,
//! with one warp doing the shuffles (CUB's `BLOCK_SCAN_RAKING`, written for
//! a block size known only at run time).
//!
//! 1. Every thread stores its value in the raking scratch.
//! 2. `bar.sync 0`.
//! 3. The block's first warp rakes: lane `l` loads the `seg = ⌈n / 32⌉`
//!    consecutive values of ranks `l·seg …`, folds them, scans the 32 lane
//!    totals with shuffles and stores every rank's result in place. Blocks
//!    of 64, 128 and 256 threads have their own bodies with the values in
//!    registers; other sizes read them twice from shared memory.
//! 4. `bar.sync 0`.
//! 5. Every thread loads its own result.
//!
//! Why not the warp-scan algorithm of [`scan`](super::scan) (which tiles
//! and wider values use): shuffles and shared-memory accesses share the
//! SM's memory pipe, and with every warp scanning (`5 × shfl` per warp) a
//! 128-thread block issues about 30 such instructions per scan against 22
//! here — on the H200 the warp-scan version ran 1.2× CUB's `BlockScan`.
//! Having one algorithm for every block size also keeps the kernel's
//! registers down: both algorithms behind a run-time branch took 37–39
//! registers per thread, the raking scan alone 32 (8 blocks of 256 threads
//! per SM instead of 6).
//!
//! # Why this is race-free
//!
//! The raking scratch belongs to this algorithm alone, and step 5 reads
//! only the caller's own word (the exclusive scan stores exclusive results
//! in step 3 rather than reading a neighbour's). A thread's next write to
//! its word (step 1 of a later scan) follows its own step-5 read in program
//! order; the raking warp's reads and writes of every word lie between the
//! two barriers of one scan, after every thread's step-1 write of that
//! scan and before any thread's step-5 read.
//!
//! Each group of 32 words has one padding word after it, so lane `l`
//! reading word `l·seg + i` of a power-of-two `seg` hits 32 different
//! banks.

use super::scan::seg_inclusive;
use super::shuffle::seg_shfl_up_raw;
use super::value::{ShflValue, load_shared, store_shared, words};
use crate::arch;
use crate::group::barrier;
use crate::group::shape::{Bar, Multi};
use crate::ops::ReduceOp;

/// The raking scan serves this group and value type: 32-bit values and the
/// whole block (a group of up to 32 warps whose barrier is `bar.sync 0`:
/// the block itself — known at compile time — or a 1024-thread tile).
#[inline(always)]
pub(crate) fn serves<T: ShflValue>(m: &Multi) -> bool {
    words::<T>() == 1 && m.max_warps == 32 && m.bar == Bar::Block
}

/// The scratch word of block rank `i` (one padding word per 32).
#[inline(always)]
#[track_caller]
fn word(i: u32) -> arch::SharedAddr {
    arch::shared_add(arch::rake_scratch(), 4 * (i + i / 32))
}

/// Inclusive (`INCLUSIVE`) or exclusive scan of the block by raking; see
/// the module docs. `serves::<T>(&m)` must hold.
#[inline(always)]
#[track_caller]
pub(crate) fn block_scan<T: ShflValue, Op: ReduceOp<T>, const INCLUSIVE: bool>(
    m: Multi,
    v: T,
) -> T {
    let rank = m.rank();
    // SAFETY: `word(i)` for `i < n ≤ 1024` is inside the
    // scratch, and `T` is one 32-bit word (`serves`).
    unsafe { store_shared(word(rank), v) };
    barrier::sync(&m);
    if m.warp_in_group() == 0 {
        // Whole warps of 2, 4 or 8 values per lane (the usual blocks) get a
        // body without per-value bounds tests.
        match m.n {
            64 => rake_exact::<T, Op, INCLUSIVE, 2>(m),
            128 => rake_exact::<T, Op, INCLUSIVE, 4>(m),
            256 => rake_exact::<T, Op, INCLUSIVE, 8>(m),
            // Larger blocks: 16 or 32 values per lane would not fit in
            // registers without spilling.
            _ => rake_any::<T, Op, INCLUSIVE>(m),
        }
    }
    barrier::sync(&m);
    // SAFETY: as the store above.
    unsafe { load_shared(word(rank)) }
}

/// Step 3, in the raking lane, for a block of exactly `32 · SEG` threads:
/// `SEG` values per lane, kept in registers, at one base address (a
/// lane's words never straddle a padding word, as `SEG` divides 32).
#[inline(always)]
#[track_caller]
fn rake_exact<T: ShflValue, Op: ReduceOp<T>, const INCLUSIVE: bool, const SEG: usize>(m: Multi) {
    let warp = m.warp_seg();
    let first = warp.lane * SEG as u32;
    let base = word(first);
    let at = |i: usize| arch::shared_add(base, 4 * i as u32);
    let mut x = [Op::identity(); SEG];
    let mut total = Op::identity();
    let mut i = 0;
    while i < SEG {
        // SAFETY: rank `first + i < n`, inside the scratch; `T` is one word.
        x[i] = unsafe { load_shared(at(i)) };
        // In rank order, no identity mixed in (a float `-0.0` stays `-0.0`).
        total = if i == 0 {
            x[0]
        } else {
            Op::combine(total, x[i])
        };
        i += 1;
    }
    let prefix = lane_prefix::<T, Op>(m, total);
    let mut acc = prefix;
    let mut i = 0;
    while i < SEG {
        let before = if first + i as u32 == 0 {
            Op::identity()
        } else {
            acc
        };
        acc = if first + i as u32 == 0 {
            x[i]
        } else {
            Op::combine(acc, x[i])
        };
        let out = if INCLUSIVE { acc } else { before };
        // SAFETY: as above.
        unsafe { store_shared(at(i), out) };
        i += 1;
    }
}

/// Step 3, in the raking lane, for any other block: `⌈n / 32⌉` values per
/// lane with bounds tests, read twice from shared memory rather than held
/// in registers (this path must not raise the kernel's register count for
/// the common blocks).
#[inline(always)]
#[track_caller]
fn rake_any<T: ShflValue, Op: ReduceOp<T>, const INCLUSIVE: bool>(m: Multi) {
    let warp = m.warp_seg();
    let seg = m.n.div_ceil(32);
    let first = warp.lane * seg;
    let end = if first + seg < m.n { first + seg } else { m.n };
    // Both passes load `CHUNK` values before combining them, so that the
    // loads' latencies overlap (up to 32 values per lane at 1024 threads).
    let mut total = Op::identity();
    let mut r = first;
    while r < end {
        let x = load_chunk::<T, Op>(r, end);
        let mut j = 0;
        while j < CHUNK {
            if r + j < end {
                let v = x[j as usize];
                total = if r + j == first {
                    v
                } else {
                    Op::combine(total, v)
                };
            }
            j += 1;
        }
        r += CHUNK;
    }
    let prefix = lane_prefix::<T, Op>(m, total);
    let mut acc = prefix;
    let mut r = first;
    while r < end {
        let x = load_chunk::<T, Op>(r, end);
        let mut j = 0;
        while j < CHUNK {
            let i = r + j;
            if i < end {
                let before = if i == 0 { Op::identity() } else { acc };
                acc = if i == 0 {
                    x[j as usize]
                } else {
                    Op::combine(acc, x[j as usize])
                };
                let out = if INCLUSIVE { acc } else { before };
                // SAFETY: rank `i < n`, inside the scratch; `T` is one word.
                unsafe { store_shared(word(i), out) };
            }
            j += 1;
        }
        r += CHUNK;
    }
}

/// Values [`rake_any`] loads at a time.
const CHUNK: u32 = 4;

/// The values of ranks `r .. min(r + CHUNK, end)` (the identity after `end`).
#[inline(always)]
#[track_caller]
fn load_chunk<T: ShflValue, Op: ReduceOp<T>>(r: u32, end: u32) -> [T; CHUNK as usize] {
    let mut x = [Op::identity(); CHUNK as usize];
    let mut j = 0;
    while j < CHUNK {
        if r + j < end {
            // SAFETY: rank `r + j < end ≤ n`, inside the scratch; `T` is one word.
            x[j as usize] = unsafe { load_shared(word(r + j)) };
        }
        j += 1;
    }
    x
}

/// The raking warp's scan of the lane totals: lane `l` gets the fold of
/// lanes `0..l` (lane 0 gets its own total, which it does not use). Lanes
/// with no values (past the block's end) are the last ones and carry the
/// identity: they change no earlier lane's prefix.
#[inline(always)]
#[track_caller]
fn lane_prefix<T: ShflValue, Op: ReduceOp<T>>(m: Multi, total: T) -> T {
    let warp = m.warp_seg();
    let inc = seg_inclusive::<T, Op>(warp, total);
    seg_shfl_up_raw(warp, inc, 1)
}
