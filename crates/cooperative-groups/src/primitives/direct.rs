//! Direct loads and stores of a tile between global memory and the
//! threads' registers, by one thread at a time (CUB's `LoadDirectBlocked`,
//! `LoadDirectStriped`, `LoadDirectBlockedVectorized`, `StoreDirect…`):
//! the thread layer under [`WarpLoad`](super::WarpLoad) and
//! [`BlockLoad`](super::BlockLoad).
//!
//! A thread of rank `rank` (in the block, or in a warp) holds `ITEMS`
//! items of a tile that starts at element 0 of `src` (or `dst`):
//!
//! * **blocked**: items `rank · ITEMS + i` — consecutive items per thread;
//! * **striped** with stride `S` (the group's size): items `rank + i · S`
//!   — consecutive threads read consecutive items (coalesced).
//!
//! Full-tile loads need the thread's items inside `src` (checked once per
//! call: a shorter slice is a contract violation, `trap` on the GPU, a
//! panic on the simulator); `_partial` loads read only items below
//! `valid` (and below `src.len()`) and give the others `oob`; `_into`
//! forms leave them as they were (CUB's guarded loads without a default).
//! Stores write through a raw pointer (`unsafe`: the tile must be the
//! caller's to write); `_partial` stores write only items below `valid`.
//! On the simulator the race detector sees every store, at the caller's
//! line.
//!
//! ```
//! use cooperative_groups::prelude::*;
//! use cooperative_groups::primitives::direct;
//! # let dev = cg_sim::SimDevice { stack_size: 4 << 20, ..Default::default() };
//! let input: Vec<u32> = (0..200).collect();
//! # cg_sim::launch_on(&dev, &cg_sim::LaunchConfig::new(1, 64), &|| {
//! let r = this_thread_block().thread_rank();
//! let blocked: [u32; 2] = direct::load_blocked(r, &input);          // [2r, 2r + 1]
//! let striped: [u32; 2] = direct::load_striped::<64, _, 2>(r, &input); // [r, r + 64]
//! let tail: [u32; 4] = direct::load_blocked_partial(r, &input[128..], 70, u32::MAX);
//! # assert_eq!(blocked, [2 * r, 2 * r + 1]);
//! # assert_eq!(striped, [r, r + 64]);
//! # let want = |k: u32| if k < 70 { 128 + k } else { u32::MAX };
//! # assert_eq!(tail, [want(4 * r), want(4 * r + 1), want(4 * r + 2), want(4 * r + 3)]);
//! # }).unwrap();
//! ```

use super::global;
use crate::group::violation;
use crate::value::ShflValue;

/// The bound check of a full-tile load or store: the thread's last item,
/// `last`, must be below `len`.
#[inline(always)]
#[track_caller]
fn check_full(last: usize, len: usize) {
    if last >= len {
        violation!(
            "a full-tile load or store reaches item {last} of a slice of {len}: use the _partial form for a partial tile"
        );
    }
}

/// Blocked: items `rank · ITEMS .. rank · ITEMS + ITEMS` of `src`.
///
/// # Panics
/// The items must lie inside `src` (contract violation otherwise).
#[inline(always)]
#[track_caller]
pub fn load_blocked<T: ShflValue, const ITEMS: usize>(rank: u32, src: &[T]) -> [T; ITEMS] {
    const { assert!(ITEMS > 0, "a thread holds at least one item") };
    let base = rank as usize * ITEMS;
    check_full(base + ITEMS - 1, src.len());
    let mut out = [crate::value::zeroed::<T>(); ITEMS];
    let mut i = 0;
    while i < ITEMS {
        // SAFETY: `base + i ≤ base + ITEMS - 1 < src.len()` (checked).
        out[i] = unsafe { global::read(src, base + i) };
        i += 1;
    }
    out
}

/// Striped with stride `S`: items `rank + i · S` of `src`.
///
/// # Panics
/// The items must lie inside `src` (contract violation otherwise).
#[inline(always)]
#[track_caller]
pub fn load_striped<const S: u32, T: ShflValue, const ITEMS: usize>(
    rank: u32,
    src: &[T],
) -> [T; ITEMS] {
    const { assert!(ITEMS > 0, "a thread holds at least one item") };
    let base = rank as usize;
    check_full(base + (ITEMS - 1) * S as usize, src.len());
    let mut out = [crate::value::zeroed::<T>(); ITEMS];
    let mut i = 0;
    while i < ITEMS {
        // SAFETY: `base + i·S` is at most the checked last item.
        out[i] = unsafe { global::read(src, base + i * S as usize) };
        i += 1;
    }
    out
}

/// Blocked, with 16- or 8-byte vector loads where the thread's run and
/// `src` allow (CUB's `LoadDirectBlockedVectorized`; element loads
/// otherwise — an unaligned slice costs speed, not correctness).
///
/// # Panics
/// The items must lie inside `src` (contract violation otherwise).
#[inline(always)]
#[track_caller]
pub fn load_blocked_vectorized<T: ShflValue, const ITEMS: usize>(
    rank: u32,
    src: &[T],
) -> [T; ITEMS] {
    const { assert!(ITEMS > 0, "a thread holds at least one item") };
    let base = rank as usize * ITEMS;
    check_full(base + ITEMS - 1, src.len());
    match global::vector_bytes(src.as_ptr(), ITEMS) {
        // SAFETY: `base + ITEMS <= src.len()` (checked); 16 is what
        // `vector_bytes` returned for this slice and a run of `ITEMS`, and
        // `base` is a multiple of `ITEMS`.
        16 => unsafe { global::read_run::<T, ITEMS, 16>(src, base) },
        // SAFETY: as above, for 8.
        8 => unsafe { global::read_run::<T, ITEMS, 8>(src, base) },
        _ => load_blocked(rank, src),
    }
}

/// [`load_blocked`] of a partial tile: items at tile index `valid` or
/// beyond (or beyond `src.len()`) become `oob`.
#[inline(always)]
pub fn load_blocked_partial<T: ShflValue, const ITEMS: usize>(
    rank: u32,
    src: &[T],
    valid: usize,
    oob: T,
) -> [T; ITEMS] {
    let mut out = [oob; ITEMS];
    load_blocked_partial_into(rank, src, valid, &mut out);
    out
}

/// [`load_blocked`] of a partial tile into `items`: those at tile index
/// `valid` or beyond (or beyond `src.len()`) keep their values.
#[inline(always)]
pub fn load_blocked_partial_into<T: ShflValue, const ITEMS: usize>(
    rank: u32,
    src: &[T],
    valid: usize,
    items: &mut [T; ITEMS],
) {
    let valid = valid.min(src.len());
    let base = rank as usize * ITEMS;
    let mut i = 0;
    while i < ITEMS {
        if base + i < valid {
            // SAFETY: `base + i < valid ≤ src.len()`.
            items[i] = unsafe { global::read(src, base + i) };
        }
        i += 1;
    }
}

/// [`load_striped`] of a partial tile: items at tile index `valid` or
/// beyond (or beyond `src.len()`) become `oob`.
#[inline(always)]
pub fn load_striped_partial<const S: u32, T: ShflValue, const ITEMS: usize>(
    rank: u32,
    src: &[T],
    valid: usize,
    oob: T,
) -> [T; ITEMS] {
    let mut out = [oob; ITEMS];
    load_striped_partial_into::<S, T, ITEMS>(rank, src, valid, &mut out);
    out
}

/// [`load_striped`] of a partial tile into `items`; the others keep
/// their values.
#[inline(always)]
pub fn load_striped_partial_into<const S: u32, T: ShflValue, const ITEMS: usize>(
    rank: u32,
    src: &[T],
    valid: usize,
    items: &mut [T; ITEMS],
) {
    let valid = valid.min(src.len());
    let mut i = 0;
    while i < ITEMS {
        let k = rank as usize + i * S as usize;
        if k < valid {
            // SAFETY: `k < valid ≤ src.len()`.
            items[i] = unsafe { global::read(src, k) };
        }
        i += 1;
    }
}

/// Blocked store: item `i` to element `rank · ITEMS + i` of `dst`.
///
/// # Safety
/// Those elements must be valid for writes that no other thread makes
/// concurrently (the tile is the caller's block's, each element written by
/// one thread).
#[inline(always)]
#[track_caller]
pub unsafe fn store_blocked<T: ShflValue, const ITEMS: usize>(
    rank: u32,
    dst: *mut T,
    items: &[T; ITEMS],
) {
    let base = rank as usize * ITEMS;
    let mut i = 0;
    while i < ITEMS {
        // SAFETY: the caller's contract.
        unsafe { global::write(dst, base + i, items[i]) };
        i += 1;
    }
}

/// Striped store with stride `S`: item `i` to element `rank + i · S`.
///
/// # Safety
/// As [`store_blocked`], for those elements.
#[inline(always)]
#[track_caller]
pub unsafe fn store_striped<const S: u32, T: ShflValue, const ITEMS: usize>(
    rank: u32,
    dst: *mut T,
    items: &[T; ITEMS],
) {
    let mut i = 0;
    while i < ITEMS {
        // SAFETY: the caller's contract.
        unsafe { global::write(dst, rank as usize + i * S as usize, items[i]) };
        i += 1;
    }
}

/// Blocked store with 16- or 8-byte vector stores where the thread's run
/// and `dst` allow (element stores otherwise).
///
/// # Safety
/// As [`store_blocked`].
#[inline(always)]
#[track_caller]
pub unsafe fn store_blocked_vectorized<T: ShflValue, const ITEMS: usize>(
    rank: u32,
    dst: *mut T,
    items: &[T; ITEMS],
) {
    let at = rank as usize * ITEMS;
    match global::vector_bytes(dst.cast_const(), ITEMS) {
        // SAFETY: the caller's contract; 16 from `vector_bytes` for `dst`
        // and a run of `ITEMS` at a multiple of `ITEMS`.
        16 => unsafe { global::write_run::<T, ITEMS, 16>(dst, at, items) },
        // SAFETY: as above, for 8.
        8 => unsafe { global::write_run::<T, ITEMS, 8>(dst, at, items) },
        // SAFETY: the caller's contract.
        _ => unsafe { store_blocked(rank, dst, items) },
    }
}

/// Blocked store of a partial tile: items at tile index `valid` or beyond
/// are not written.
///
/// # Safety
/// As [`store_blocked`], for the elements below `valid`.
#[inline(always)]
#[track_caller]
pub unsafe fn store_blocked_partial<T: ShflValue, const ITEMS: usize>(
    rank: u32,
    dst: *mut T,
    valid: usize,
    items: &[T; ITEMS],
) {
    let base = rank as usize * ITEMS;
    let mut i = 0;
    while i < ITEMS {
        if base + i < valid {
            // SAFETY: the caller's contract, below `valid`.
            unsafe { global::write(dst, base + i, items[i]) };
        }
        i += 1;
    }
}

/// Striped store of a partial tile: items at tile index `valid` or beyond
/// are not written.
///
/// # Safety
/// As [`store_blocked`], for the elements below `valid`.
#[inline(always)]
#[track_caller]
pub unsafe fn store_striped_partial<const S: u32, T: ShflValue, const ITEMS: usize>(
    rank: u32,
    dst: *mut T,
    valid: usize,
    items: &[T; ITEMS],
) {
    let mut i = 0;
    while i < ITEMS {
        let k = rank as usize + i * S as usize;
        if k < valid {
            // SAFETY: the caller's contract, below `valid`.
            unsafe { global::write(dst, k, items[i]) };
        }
        i += 1;
    }
}
