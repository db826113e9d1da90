//! The shared-memory exchange of multi-warp collectives.
//!
//! Every multi-warp collective has the same skeleton: a warp-level step, one
//! value per warp written to the caller's warp's *partial* slot of the
//! library's scratch (`cg_lib_collective_scratch`), the group's barrier,
//! reads of the group's partial slots, and the group's barrier again. Some
//! collectives (a `reduce` over more than 4 warps, the block scan's warp
//! path) instead let the group's first warp compute one value per warp
//! between the barriers and store it in that warp's *result* slot, which
//! the warp reads after the second barrier.
//!
//! # Layout
//!
//! The scratch is two halves, partials then results, of 8 rows of 32
//! words each: word `i` of warp `w`'s value is word `w` of row `i` of its
//! half. One-word values of consecutive warps are therefore consecutive, and
//! [`fold`] reads four warps' partials with one `ld.shared.v4` (CUB's
//! `BlockReduce` reads its packed warp totals the same way; 32-byte slots
//! side by side needed a load per warp, one after the other: 1.3× CUB at
//! 1024 threads on the H200). A warp's slot is the same set of words
//! whatever the value's type, so the slots of different warps never
//! overlap — which the argument below needs, since collectives of every
//! type and group share the scratch.
//!
//! # Why this is race-free
//!
//! The lanes of a warp are separate threads of the PTX memory model: they
//! are not in lockstep (sm_70+), and a shuffle or vote between them orders
//! no memory access (the PTX ISA's "Parallel Synchronization and
//! Communication Instructions" state memory ordering for `bar.warp.sync` and
//! for `bar`/`barrier`, and none for `shfl.sync` or `vote.sync`). So no
//! argument may treat a warp as one unit; every conflicting pair of accesses
//! below is ordered by a barrier of the group (`bar.sync id, count` or the
//! software barrier's mbarrier arrive/wait or flag release/acquire), by
//! `bar.warp.sync`, or by program
//! order within one thread.
//!
//! * Partials are written by one lane of their own warp before a
//!   collective's first barrier, and read by the group between its two
//!   barriers. Read-after-write: the first barrier. Write-after-read: the
//!   next write to warp `w`'s partial slot is made by a lane of `w` in a
//!   later collective, after that lane left the second barrier of every
//!   earlier collective whose group contains `w` — and every read of `w`'s
//!   partial lies before such a second barrier.
//! * Results are written by the group's first warp between a collective's
//!   barriers (lane `k` into warp `k`'s slot: [`broadcast`], [`put_for`])
//!   and read by their own warp's lanes after the second ([`result`]).
//!   Read-after-write: the second barrier. Write-after-read: the next write
//!   to warp `w`'s result slot comes after the first barrier of a later
//!   collective whose group contains `w`, which every lane of `w` reaches
//!   only after its read of the earlier result.
//!
//! Both halves are needed: with one, lane 0 of a warp storing the next
//! collective's partial (before any barrier) raced with lanes 1–31 of the
//! same warp still loading the previous collective's result from that slot
//! (the simulator showed lanes 1–29 getting the next value; racecheck on
//! the H200 reported the warp-level hazard). This holds across groups of
//! different sizes and across handles of the same group, so the scratch is
//! shared by all tiles and the block without any bookkeeping.
//!
//! Two barriers per collective is the price of that simplicity; with
//! hardware named barriers each costs a few tens of cycles, against ≈1000
//! for one software barrier in NVIDIA's implementation.

use crate::arch::{self, SharedAddr};
use crate::collective::warp::reduce::seg_reduce;
use crate::group::barrier;
use crate::group::shape::{FULL, Multi};
use crate::ops::ReduceOp;
use crate::value::{
    ShflValue, from_words, load_shared_strided, store_shared_strided, to_words, words,
};

/// Bytes from one word of a slot to the next (one row of the scratch).
const ROW_BYTES: u32 = 4 * arch::SCRATCH_SLOTS;

/// Offset of the result half of the scratch.
const RESULTS: u32 = arch::SCRATCH_SLOTS * arch::SCRATCH_SLOT_BYTES;

/// Word `i` of block warp `warp`'s partial slot.
#[inline(always)]
#[track_caller]
fn slot_word(m: &Multi, warp: u32, i: u32) -> SharedAddr {
    arch::shared_add(m.scratch, 4 * warp + ROW_BYTES * i)
}

/// Writes `v` to the partial slot of the caller's warp (one lane of the
/// warp, before the collective's first barrier).
#[inline(always)]
#[track_caller]
pub(crate) fn put<T: ShflValue>(m: &Multi, v: T) {
    // SAFETY: a warp of the block (< 32) and at most 8 words (`ShflValue`):
    // every word lies inside the partial half, 4-byte aligned.
    unsafe { store_shared_strided(slot_word(m, m.block_rank / 32, 0), ROW_BYTES, v) }
}

/// Reads the partial slot of the group's `k`-th warp (between the
/// collective's barriers).
#[inline(always)]
#[track_caller]
pub(crate) fn get<T: ShflValue>(m: &Multi, k: u32) -> T {
    // SAFETY: as `put`; `k` is a warp of the group.
    unsafe { load_shared_strided(slot_word(m, m.first_warp() + k, 0), ROW_BYTES) }
}

/// The group's first warp stores `v` in the result slot of each of the
/// group's warps (lane `w` → warp `w`), for each to read its own with
/// [`result`] after the closing barrier. Call only from the group's first
/// warp, between the collective's two barriers. The partials it read
/// before are in the other half, so its lanes need no `bar.warp.sync`
/// between their loads and these stores.
#[inline(always)]
#[track_caller]
pub(crate) fn broadcast<T: ShflValue>(m: &Multi, v: T) {
    let lane = m.lane();
    if lane < m.warps() {
        put_for(m, lane, v);
    }
}

/// The group's first warp stores `v` in the result slot of the group's
/// warp `k` (same rules as [`broadcast`]).
#[inline(always)]
#[track_caller]
pub(crate) fn put_for<T: ShflValue>(m: &Multi, k: u32, v: T) {
    let addr = arch::shared_add(slot_word(m, m.first_warp() + k, 0), RESULTS);
    // SAFETY: as `put`, in the result half (`RESULTS` + a partial word's
    // offset stays inside `SCRATCH_BYTES`).
    unsafe { store_shared_strided(addr, ROW_BYTES, v) }
}

/// The caller's warp's result slot (after the collective's second barrier).
#[inline(always)]
#[track_caller]
pub(crate) fn result<T: ShflValue>(m: &Multi) -> T {
    let addr = arch::shared_add(slot_word(m, m.block_rank / 32, 0), RESULTS);
    // SAFETY: as `put_for`.
    unsafe { load_shared_strided(addr, ROW_BYTES) }
}

/// The other warp's value, for a tile of two warps on the software
/// barrier (`Bar::Soft` slot `slot`) and a one-word `T`: lane `src` of
/// each warp hands its `v` to every lane of the other warp, in one flag
/// handshake between the lanes 0 ([`barrier::soft_swap`]) with a shuffle
/// on each side. It replaces the slot exchange and its two barriers; the
/// collective scratch is not touched.
#[inline(always)]
#[track_caller]
pub(crate) fn pair_swap<T: ShflValue>(m: &Multi, slot: u32, v: T, src: u32) -> T {
    let mine = warp_idx(m, to_words(v)[0], src);
    let theirs = barrier::soft_swap(m, slot, mine);
    let mut w = [0u32; 8];
    w[0] = warp_idx(m, theirs, 0);
    from_words(w)
}

/// `shfl.sync.idx` of `word` from lane `src` within the caller's warp:
/// with the constant full mask when the block has no partial warp (ptxas
/// checks a register mask's convergence with four more instructions), as
/// two calls so that the compiler cannot merge them into one with a
/// register mask.
#[inline(always)]
#[track_caller]
fn warp_idx(m: &Multi, word: u32, src: u32) -> u32 {
    if m.warps_full {
        arch::shfl(arch::ShflMode::Idx, FULL, word, src, 0x1f)
    } else {
        arch::shfl(arch::ShflMode::Idx, m.warp_seg().mask(), word, src, 0x1f)
    }
}

/// The reduction of the group's first `count` warp slots (the identity for
/// `count == 0`), the same value for every thread of the calling warp.
///
/// Exact operators with many warps load the slots lane-parallel (lane `l`
/// folds slots `l`, `l + n`, … where `n` is the warp's existing lanes) and
/// reduce across the warp; the others fold the slots in order, sequentially,
/// so every thread computes the same bits — from loads that are all issued
/// before the first operator ([`fold_upto`]).
#[inline(always)]
#[track_caller]
pub(crate) fn fold<T: ShflValue, Op: ReduceOp<T>>(m: &Multi, count: u32, op: Op) -> T {
    let warp = m.warp_seg();
    if Op::EXACT && m.max_warps > 4 {
        let mut acc = op.identity();
        let mut k = warp.lane;
        while k < count {
            acc = op.combine(acc, get(m, k));
            k += warp.n;
        }
        seg_reduce::<T, Op>(warp, acc, op)
    } else {
        // Uniform branches (the block's size, or the warp's place in the
        // group for a scan's prefix), constant for a tile's reduce: each
        // loads no more slots than the next power of two of `count`.
        let c = count.min(m.max_warps);
        if c <= 2 {
            fold_class::<T, Op, 2>(m, count, op)
        } else if c <= 4 {
            fold_class::<T, Op, 4>(m, count, op)
        } else if c <= 8 {
            fold_class::<T, Op, 8>(m, count, op)
        } else if c <= 16 {
            fold_class::<T, Op, 16>(m, count, op)
        } else {
            fold_class::<T, Op, 32>(m, count, op)
        }
    }
}

/// [`fold_upto`] with the common case `count == CAP` (every power-of-two
/// block size) as its own straight-line copy, without a predicate per slot.
#[inline(always)]
#[track_caller]
fn fold_class<T: ShflValue, Op: ReduceOp<T>, const CAP: usize>(m: &Multi, count: u32, op: Op) -> T {
    if count == CAP as u32 {
        fold_upto::<T, Op, CAP>(m, CAP as u32, op)
    } else {
        fold_upto::<T, Op, CAP>(m, count, op)
    }
}

/// [`fold`] of `count ≤ CAP` slots (`CAP` a power of two, at most the
/// group's warps): loads the first `CAP` slots — word `i` of four
/// consecutive warps per `ld.shared.v4` (`v2` for two) — up to 32 words
/// at a time, then folds the first `count` in order. Every load is issued
/// before the first operator, so their latencies overlap (loads taken one
/// at a time cost 1.3× CUB's `BlockReduce` at 256 threads on the H200).
/// Slots from `count` to `CAP` belong to the group or to no warp of the
/// block, so reading them races with nobody.
#[inline(always)]
#[track_caller]
fn fold_upto<T: ShflValue, Op: ReduceOp<T>, const CAP: usize>(m: &Multi, count: u32, op: Op) -> T {
    // Slots per vector load, and slots loaded before folding (≤ 32 words).
    let width = if CAP >= 4 { 4 } else { CAP };
    let batch = CAP.min((32 / words::<T>()).max(width));
    let first = m.first_warp();
    let mut acc = op.identity();
    let mut k0 = 0;
    while k0 < CAP {
        // 32 rows whatever `CAP`: sized `CAP`, the same code took 36–38
        // registers in the 512- and 1024-thread tile kernels (ptxas 13.0),
        // one 1024-thread block per SM instead of two.
        let mut vals = [[0u32; 8]; 32];
        let mut j = 0;
        while j < batch {
            let mut i = 0;
            while i < words::<T>() {
                let addr = slot_word(m, first + (k0 + j) as u32, i as u32);
                // SAFETY: `first + k0 + j` is aligned to `width` (groups
                // start at a multiple of their warps, `width` divides both
                // and the scratch is 16-byte aligned); the words are inside
                // the scratch (`first + CAP ≤ 32`).
                let w = unsafe {
                    match width {
                        4 => arch::ld_shared_v4_u32(addr),
                        2 => {
                            let [a, b] = arch::ld_shared_v2_u32(addr);
                            [a, b, 0, 0]
                        }
                        _ => [arch::ld_shared_u32(addr), 0, 0, 0],
                    }
                };
                let mut l = 0;
                while l < width {
                    vals[j + l][i] = w[l];
                    l += 1;
                }
                i += 1;
            }
            j += width;
        }
        // Slot `j` into the running fold, in rank order, no identity mixed
        // in (a float `-0.0` stays).
        macro_rules! fold_slot {
            ($j:expr) => {{
                let j = $j;
                let k = (k0 + j) as u32;
                if k < count {
                    let x = from_words::<T>(vals[j]);
                    acc = if k == 0 { x } else { op.combine(acc, x) };
                }
            }};
        }
        if cfg!(debug_assertions) {
            // Unoptimised builds (the simulator in a dev profile; the PTX is
            // always optimised): a loop. Written out, each of the 32
            // copies keeps its own stack slots there, and a `cargo cg new`
            // project's block reduce overflowed a simulated thread's
            // 256 KiB stack.
            let mut j = 0;
            while j < batch {
                fold_slot!(j);
                j += 1;
            }
        } else {
            // Written out (`batch ≤ 32`): as a loop, LLVM unrolled the fold
            // of 16 two-word values (a block of 1024 reducing an `F32x2`)
            // only partly, which left `vals` in local memory, zeroed byte
            // by byte (5,000 `STL.U8` in a layer norm's block reduce).
            crate::unroll!(j in 0..batch => { fold_slot!(j); });
        }
        k0 += batch;
    }
    acc
}
