//! The block scan over 32-bit values: CUB's raking scan for blocks of 64,
//! 128 and 256 threads, warp scans for the others.
//!
//! Raking (one warp does the shuffles):
//!
//! 1. Every thread stores its value in the raking scratch.
//! 2. `bar.sync 0`.
//! 3. The block's first warp rakes: lane `l` loads the `seg = n / 32`
//!    (2, 4 or 8) consecutive values of ranks `l·seg …` into registers,
//!    folds them, scans the 32 lane totals with shuffles and stores every
//!    rank's result in place.
//! 4. `bar.sync 0`.
//! 5. Every thread loads its own result.
//!
//! Why: shuffles and shared-memory accesses share the SM's memory pipe,
//! and with every warp scanning (`5 × shfl` per warp) a 128-thread block
//! issues about 30 such instructions per scan against 22 here — on the H200
//! the warp-scan version ran 1.2× CUB's `BlockScan`, this one 0.95×.
//!
//! Other block sizes use [`warp_scans`] (every warp scans; one warp scans
//! the warp totals, lane-parallel). Raking them too would mean 9–32 values
//! per raking lane at 1024 threads, folded in sequence while 31 warps wait,
//! and a general raking body next to the three above raised the kernel to
//! 39 registers per thread; with the two algorithms as they are it stays at
//! 32 (8 blocks of 256 threads per SM, not 6).
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
//! reading word `l·seg + i` hits 32 different banks.

use super::exchange;
use super::scan::multi_finish;
use crate::arch;
use crate::collective::warp::scan::{seg_inclusive, seg_inclusive_pred};
use crate::collective::warp::shuffle::seg_shfl_up_raw;
use crate::group::barrier;
use crate::group::shape::{Bar, Multi};
use crate::ops::ReduceOp;
use crate::value::{ShflValue, load_shared, store_shared, words};

/// This module's block scan serves this group and value type: 32-bit
/// values and the whole block (a group of up to 32 warps whose barrier is `bar.sync 0`:
/// the block itself — known at compile time — or a 1024-thread tile).
#[inline(always)]
pub(crate) fn serves<T: ShflValue>(m: &Multi) -> bool {
    words::<T>() == 1 && m.max_warps == 32 && m.bar == Bar::Block
}

/// The scan of any block but 64, 128 or 256 threads: every warp
/// scans its values (`5 × shfl.sync.up`), its last lane stores the warp
/// total in the warp's partial slot, `bar.sync 0`, the first warp scans
/// the totals lane-parallel (one load, `6 × shfl`) and stores each warp's
/// prefix in that warp's result slot, `bar.sync 0`, each warp loads its prefix
/// (the exchange rules of [`exchange`](super::exchange)).
#[inline(always)]
#[track_caller]
fn warp_scans<T: ShflValue, Op: ReduceOp<T>, const INCLUSIVE: bool, const TOTAL: bool>(
    m: Multi,
    v: T,
    op: Op,
) -> (T, T) {
    let warp = m.warp_seg();
    let inc = seg_inclusive_pred::<T, Op>(warp, v, op);
    if warp.rank() == warp.n - 1 {
        exchange::put(&m, inc);
    }
    barrier::sync(&m);
    if m.warp_in_group() == 0 {
        // Lane `w` stands for warp `w` (a block has at most 32 warps). Lanes
        // past the block's warps load the last warp's total again: they
        // come after every real lane, so their values reach no prefix, and
        // the load stays unconditional (a select on `w` here let LLVM split
        // the scan into a copy per case, with divergent shuffles).
        let w = warp.lane;
        let total = exchange::get(&m, w.min(m.warps() - 1));
        let before = lane_prefix::<T, Op, true>(m, total, op);
        // Lane `w` stores warp `w`'s prefix in its result slot (warp 0's
        // is unused); the totals were read from the partial half.
        if w < m.warps() {
            exchange::put_for(&m, w, before);
        }
        if TOTAL && w == m.warps() - 1 {
            // The last warp's prefix and total: the block's (`TOTAL` only
            // for exact operators, which may be folded in any order). Lane
            // 0's `before` is not a prefix: a one-warp block's total is
            // its warp's.
            store_total(if w == 0 {
                total
            } else {
                op.combine(before, total)
            });
        }
    }
    barrier::sync(&m);
    let w = m.warp_in_group();
    let prefix: T = exchange::result(&m);
    let out = multi_finish::<T, Op, INCLUSIVE>(warp, inc, (w > 0).then_some(prefix), op);
    (out, if TOTAL { load_total() } else { op.identity() })
}

/// The scratch word of block rank `i` (one padding word per 32).
#[inline(always)]
#[track_caller]
fn word(i: u32) -> arch::SharedAddr {
    arch::shared_add(arch::rake_scratch(), 4 * (i + i / 32))
}

/// The raking scratch's last word, a padding word no rank uses: where a
/// scan that also gives the block's total leaves it (one lane writes it
/// between the scan's barriers, every thread reads it after the second,
/// and the next write comes after the first barrier of a later block
/// scan, which every thread reaches after its read).
#[inline(always)]
#[track_caller]
fn total_word() -> arch::SharedAddr {
    arch::shared_add(arch::rake_scratch(), arch::RAKE_BYTES - 4)
}

/// Stores the block's total in [`total_word`].
#[inline(always)]
#[track_caller]
fn store_total<T: ShflValue>(t: T) {
    // SAFETY: the scratch's last word, 4-byte aligned; `T` is one word
    // (`serves`).
    unsafe { store_shared(total_word(), t) }
}

/// Loads the block's total from [`total_word`].
#[inline(always)]
#[track_caller]
fn load_total<T: ShflValue>() -> T {
    // SAFETY: as `store_total`.
    unsafe { load_shared(total_word()) }
}

/// Inclusive (`INCLUSIVE`) or exclusive scan of the block by raking; see
/// the module docs. `serves::<T>(&m)` must hold.
#[inline(always)]
#[track_caller]
pub(crate) fn block_scan<T: ShflValue, Op: ReduceOp<T>, const INCLUSIVE: bool>(
    m: Multi,
    v: T,
    op: Op,
) -> T {
    block_scan_total::<T, Op, INCLUSIVE, false>(m, v, op).0
}

/// [`block_scan`] and, with `TOTAL`, the block's total (the identity
/// without): the raking lane or the warp-total lane that holds it stores
/// it between the scan's barriers, and every thread loads it with its own
/// result — no broadcast with two barriers more. `TOTAL` only for
/// [`EXACT`](ReduceOp::EXACT) operators: the total is folded in the scan's
/// order, not as the last rank's inclusive value.
#[inline(always)]
#[track_caller]
pub(crate) fn block_scan_total<
    T: ShflValue,
    Op: ReduceOp<T>,
    const INCLUSIVE: bool,
    const TOTAL: bool,
>(
    m: Multi,
    v: T,
    op: Op,
) -> (T, T) {
    // Raking for the usual block sizes, values in registers; warp scans for
    // the others (a raking lane would fold 9–32 values in sequence at 1024
    // threads while the other warps wait, and a general raking body next to
    // these raised the kernel to 39 registers per thread).
    if !matches!(m.n, 64 | 128 | 256) {
        return warp_scans::<T, Op, INCLUSIVE, TOTAL>(m, v, op);
    }
    let rank = m.rank();
    // SAFETY: `word(i)` for `i < n ≤ 256` is inside the scratch, and `T`
    // is one 32-bit word (`serves`).
    unsafe { store_shared(word(rank), v) };
    barrier::sync(&m);
    if m.warp_in_group() == 0 {
        match m.n {
            64 => rake_exact::<T, Op, INCLUSIVE, TOTAL, 2>(m, op),
            128 => rake_exact::<T, Op, INCLUSIVE, TOTAL, 4>(m, op),
            _ => rake_exact::<T, Op, INCLUSIVE, TOTAL, 8>(m, op), // 256
        }
    }
    barrier::sync(&m);
    // SAFETY: as the store above.
    let out = unsafe { load_shared(word(rank)) };
    (out, if TOTAL { load_total() } else { op.identity() })
}

/// Step 3, in the raking lane, for a block of `32 · SEG` threads:
/// `SEG` values per lane, kept in registers, at one base address (a
/// lane's words never straddle a padding word, as `SEG` divides 32).
#[inline(always)]
#[track_caller]
fn rake_exact<
    T: ShflValue,
    Op: ReduceOp<T>,
    const INCLUSIVE: bool,
    const TOTAL: bool,
    const SEG: usize,
>(
    m: Multi,
    op: Op,
) {
    let warp = m.warp_seg();
    let first = warp.lane * SEG as u32;
    let base = word(first);
    let at = |i: usize| arch::shared_add(base, 4 * i as u32);
    let mut x = [op.identity(); SEG];
    let mut total = op.identity();
    let mut i = 0;
    while i < SEG {
        // SAFETY: rank `first + i < n`, inside the scratch; `T` is one word.
        x[i] = unsafe { load_shared(at(i)) };
        // In rank order, no identity mixed in (a float `-0.0` stays `-0.0`).
        total = if i == 0 {
            x[0]
        } else {
            op.combine(total, x[i])
        };
        i += 1;
    }
    let prefix = lane_prefix::<T, Op, false>(m, total, op);
    let mut acc = prefix;
    let mut i = 0;
    while i < SEG {
        let rank0 = first + i as u32 == 0;
        let before = if rank0 { op.identity() } else { acc };
        acc = if rank0 { x[i] } else { op.combine(acc, x[i]) };
        let out = if INCLUSIVE { acc } else { before };
        // SAFETY: as above.
        unsafe { store_shared(at(i), out) };
        i += 1;
    }
    if TOTAL && warp.lane == 31 {
        // The last raking lane's running value: the block's total.
        store_total(acc);
    }
}

/// The first warp's scan of one total per lane (the raking lanes' totals,
/// or the warp totals): lane `l` gets the fold of lanes `0..l` (lane 0
/// gets its own total, which it does not use, or with `PRED` and an
/// operator with an inverse the identity). Lanes without a total come
/// after every real one, so their values change no prefix.
/// `PRED`: the warp scan combines on the shuffles' predicates
/// ([`seg_inclusive_pred`], for the warp-scan path) or on rank compares
/// (the raking lanes).
#[inline(always)]
#[track_caller]
fn lane_prefix<T: ShflValue, Op: ReduceOp<T>, const PRED: bool>(m: Multi, total: T, op: Op) -> T {
    let warp = m.warp_seg();
    let inc = if PRED {
        seg_inclusive_pred::<T, Op>(warp, total, op)
    } else {
        seg_inclusive::<T, Op>(warp, total, op)
    };
    // The warp-total path with an integer sum: the inclusive value less
    // the own, one shuffle fewer on the block's critical path. (Not in
    // the raking lanes: there it raised the run-length decoder of 256
    // threads from 32 to 39 registers.)
    if let (true, Some(before)) = (PRED, op.uncombine(inc, total)) {
        return before;
    }
    seg_shfl_up_raw(warp, inc, 1)
}
