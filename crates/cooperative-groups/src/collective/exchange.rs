//! The shared-memory exchange of multi-warp collectives.
//!
//! Every multi-warp collective has the same skeleton: a warp-level step, one
//! value per warp written to the caller's warp slot of the library's scratch
//! (`cg_lib_collective_scratch`, 32 slots of 32 bytes, one per warp of the
//! block), the group's barrier, reads of the group's slots, and the group's
//! barrier again.
//!
//! # Why this is race-free
//!
//! * Writes: a warp writes its own slot before a collective's first
//!   barrier; the group's first warp may write the slots of the group's
//!   warps between its two barriers ([`broadcast`]). Slots of different
//!   warps are disjoint, so writes never conflict.
//! * Read-after-write: slots are read between the two barriers (after every
//!   writer of the group passed the first), or after the second by their
//!   own warp only (a broadcast result, written before the second barrier).
//! * Write-after-read: every read of a collective is done before its reader
//!   leaves it (own-slot reads), or before anyone leaves its second barrier
//!   (the others). A warp's own write follows its own earlier reads in
//!   program order; a broadcast into warp `w`'s slot happens after the
//!   first barrier of a collective whose group contains `w`, which `w`
//!   reaches only after finishing its reads of earlier collectives. This
//!   holds across groups of different sizes and across handles of the same
//!   group, so the scratch is shared by all tiles and the block without any
//!   bookkeeping.
//!
//! Two barriers per collective is the price of that simplicity; with
//! hardware named barriers each costs a few tens of cycles, against ≈1000
//! for one software barrier in NVIDIA's implementation.

use super::value::{ShflValue, load_shared, store_shared};
use crate::arch::{self, SharedAddr};
use crate::group::shape::Multi;
use crate::ops::ReduceOp;

/// The scratch slot of block warp `warp`.
#[inline(always)]
#[track_caller]
pub(crate) fn slot(warp: u32) -> SharedAddr {
    arch::shared_add(arch::collective_scratch(), warp * arch::SCRATCH_SLOT_BYTES)
}

/// Writes `v` to the slot of the caller's warp.
#[inline(always)]
#[track_caller]
pub(crate) fn put<T: ShflValue>(m: &Multi, v: T) {
    // SAFETY: the slot holds 32 bytes, `ShflValue`s are at most 32.
    unsafe { store_shared(slot(m.block_rank / 32), v) }
}

/// The group's first warp stores `v` in the slot of each of the group's
/// warps (lane `w` → warp `w`), for each to read its own after the
/// closing barrier. Call only from the group's first warp, between the
/// collective's two barriers, after its reads of the slots
/// (`bar.warp.sync` orders them before the stores).
#[inline(always)]
#[track_caller]
pub(crate) fn broadcast<T: ShflValue>(m: &Multi, v: T) {
    // The lanes of a warp are not in lockstep (sm_70+): every lane's reads
    // of the slots must be done before any lane overwrites one.
    arch::warp_sync(m.warp_seg().mask());
    let lane = m.lane();
    if lane < m.warps() {
        put_for(m, lane, v);
    }
}

/// The group's first warp stores `v` in the slot of the group's warp `k`
/// (same rules as [`broadcast`]; the caller orders its lanes' earlier reads
/// of the slots before this store).
#[inline(always)]
#[track_caller]
pub(crate) fn put_for<T: ShflValue>(m: &Multi, k: u32, v: T) {
    // SAFETY: as `put`; `k` is a warp of the group, inside the scratch.
    unsafe { store_shared(slot(m.first_warp() + k), v) }
}

/// Reads the slot of the group's `k`-th warp.
#[inline(always)]
#[track_caller]
pub(crate) fn get<T: ShflValue>(m: &Multi, k: u32) -> T {
    // SAFETY: as `put`; `k` is a warp of the group, inside the scratch.
    unsafe { load_shared(slot(m.first_warp() + k)) }
}

/// The reduction of the group's first `count` warp slots (the identity for
/// `count == 0`), the same value for every thread of the calling warp.
///
/// Exact operators with many warps load the slots lane-parallel (lane `l`
/// folds slots `l`, `l + n`, … where `n` is the warp's existing lanes) and
/// reduce across the warp; the others fold the slots in order, sequentially
/// (loads eight at a time), so every thread computes the same bits.
#[inline(always)]
#[track_caller]
pub(crate) fn fold<T: ShflValue, Op: ReduceOp<T>>(m: &Multi, count: u32) -> T {
    let warp = m.warp_seg();
    if Op::EXACT && m.max_warps > 4 {
        let mut acc = Op::identity();
        let mut k = warp.lane;
        while k < count {
            acc = Op::combine(acc, get(m, k));
            k += warp.n;
        }
        super::reduce::seg_reduce::<T, Op>(warp, acc)
    } else {
        // In rank order, from loads issued `CHUNK` at a time so that their
        // latencies overlap (a rolled load-then-add loop waits for every
        // load in turn: 1.3× CUB's BlockReduce at 256 threads on the H200).
        const CHUNK: u32 = 8;
        let mut acc = Op::identity();
        let mut k = 0;
        while k < count {
            let mut vals = [Op::identity(); CHUNK as usize];
            let mut j = 0;
            // `max_warps` is a constant for static tiles: no dead loads.
            while j < CHUNK && k + j < m.max_warps {
                if k + j < count {
                    vals[j as usize] = get(m, k + j);
                }
                j += 1;
            }
            let mut j = 0;
            while j < CHUNK && k + j < m.max_warps {
                if k + j < count {
                    let x = vals[j as usize];
                    acc = if k + j == 0 { x } else { Op::combine(acc, x) };
                }
                j += 1;
            }
            k += CHUNK;
        }
        acc
    }
}
