//! The raking block scan: the scan of a whole block of 33–256 threads over
//! 32-bit values, with one warp doing the shuffles (CUB's
//! `BLOCK_SCAN_RAKING`, written for a block size known only at run time).
//!
//! 1. Every thread stores its value in the raking scratch.
//! 2. `bar.sync 0`.
//! 3. The block's first warp rakes: lane `l` loads the `seg = ⌈n / 32⌉`
//!    consecutive values of ranks `l·seg …`, folds them, scans the 32 lane
//!    totals with shuffles and stores every rank's result in place.
//! 4. `bar.sync 0`.
//! 5. Every thread loads its own result.
//!
//! Why not the warp-scan algorithm of [`scan`](super::scan): shuffles and
//! shared-memory accesses share the SM's memory pipe, and with every warp
//! scanning (`5 × shfl` per warp) a 128-thread block issues about 30 such
//! instructions per scan against 22 here — the difference CUB's `BlockScan`
//! had over the warp-scan version on the H200.
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
use crate::arch::{self, RAKE_MAX_THREADS};
use crate::group::barrier;
use crate::group::shape::{Bar, Multi};
use crate::ops::ReduceOp;

/// Values a raking lane handles at most (`RAKE_MAX_THREADS / 32`).
const MAX_SEG: usize = (RAKE_MAX_THREADS / 32) as usize;

/// The raking scan serves this group and value type: the whole block, more
/// than one warp, at most [`RAKE_MAX_THREADS`] threads, 32-bit values.
/// Uniform over the block (`%ntid` and the type only).
#[inline(always)]
pub(crate) fn serves<T: ShflValue>(m: &Multi) -> bool {
    words::<T>() == 1 && m.bar == Bar::Block && m.n > 32 && m.n <= RAKE_MAX_THREADS
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
    // SAFETY (every access below): `word(i)` for `i < n ≤ RAKE_MAX_THREADS`
    // is inside the scratch, and `T` is one 32-bit word (`serves`).
    unsafe { store_shared(word(rank), v) };
    barrier::sync(&m);
    if m.warp_in_group() == 0 {
        let warp = m.warp_seg();
        let seg = m.n.div_ceil(32);
        let first = warp.lane * seg;
        // This lane's values, folded in rank order (no identity mixed in,
        // so a float `-0.0` stays `-0.0`).
        let mut x = [Op::identity(); MAX_SEG];
        let mut total = Op::identity();
        let mut i = 0;
        while i < MAX_SEG {
            let r = first + i as u32;
            if (i as u32) < seg && r < m.n {
                x[i] = unsafe { load_shared(word(r)) };
                total = if i == 0 {
                    x[i]
                } else {
                    Op::combine(total, x[i])
                };
            }
            i += 1;
        }
        // Lanes with no values (past the block's end) are the last ones and
        // carry the identity: they change no earlier lane's prefix.
        let inc = seg_inclusive::<T, Op>(warp, total);
        let prefix = seg_shfl_up_raw(warp, inc, 1);
        let mut acc = prefix;
        let mut i = 0;
        while i < MAX_SEG {
            let r = first + i as u32;
            if (i as u32) < seg && r < m.n {
                let before = if r == 0 { Op::identity() } else { acc };
                acc = if r == 0 { x[i] } else { Op::combine(acc, x[i]) };
                let out = if INCLUSIVE { acc } else { before };
                unsafe { store_shared(word(r), out) };
            }
            i += 1;
        }
    }
    barrier::sync(&m);
    unsafe { load_shared(word(rank)) }
}
