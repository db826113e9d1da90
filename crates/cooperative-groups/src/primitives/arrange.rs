//! The thread's half of an exchange through shared memory: its items to
//! or from their positions in a tile laid out in a primitive's storage,
//! blocked, striped or scattered by rank. The warp and block exchanges
//! are two of these halves around the group's barrier.
//!
//! Position `k` of the tile lives in slot `k + k / 32` when the tile is
//! *padded* — `ITEMS` a power of two above 4, where `ITEMS` consecutive
//! positions per thread would put a warp's accesses into `32 / ITEMS`
//! banks — and in slot `k` otherwise (CUB's rule). Unpadded blocked runs
//! of a multiple of 16 bytes move as 16-byte vectors (`ld/st.shared.v4`,
//! conflict-free at a quarter warp per wavefront).

use core::mem::size_of;

use super::storage::Smem;
use crate::value::ShflValue;

/// Whether a tile of `ITEMS` per thread is padded (see the module).
#[inline(always)]
pub(crate) const fn padded(items: usize) -> bool {
    items > 4 && items.is_power_of_two()
}

/// Bytes of a tile of `positions` items of `T`, `padded` or not.
#[inline(always)]
pub(crate) const fn tile_bytes<T>(positions: usize, padded: bool) -> usize {
    let pad = if padded { positions / 32 } else { 0 };
    (positions + pad) * size_of::<T>()
}

/// The slot of position `k`.
#[inline(always)]
pub(crate) const fn slot(k: u32, padded: bool) -> u32 {
    if padded { k + (k >> 5) } else { k }
}

/// Blocked runs move as 16-byte vectors: unpadded, and a multiple of 16
/// bytes per thread (so every run starts 16-byte aligned).
#[inline(always)]
const fn vector_run<T>(items: usize) -> bool {
    !padded(items) && (items * size_of::<T>()).is_multiple_of(16)
}

/// The byte offset of position `k`.
#[inline(always)]
fn at<T>(k: u32, padded: bool) -> u32 {
    slot(k, padded) * size_of::<T>() as u32
}

/// Stores a thread's items at positions `rank · ITEMS + i`.
#[inline(always)]
#[track_caller]
pub(crate) fn put_blocked<T: ShflValue, const ITEMS: usize>(
    s: Smem,
    rank: u32,
    items: &[T; ITEMS],
) {
    let base = rank * ITEMS as u32;
    if vector_run::<T>(ITEMS) {
        s.store_run(at::<T>(base, false), items, true);
    } else {
        let pad = padded(ITEMS);
        unroll!(i in 0..ITEMS => {
            s.store(at::<T>(base + i as u32, pad), items[i]);
        });
    }
}

/// Loads a thread's items from positions `rank · ITEMS + i`.
#[inline(always)]
#[track_caller]
pub(crate) fn get_blocked<T: ShflValue, const ITEMS: usize>(s: Smem, rank: u32) -> [T; ITEMS] {
    let base = rank * ITEMS as u32;
    if vector_run::<T>(ITEMS) {
        return s.load_run(at::<T>(base, false), true);
    }
    let pad = padded(ITEMS);
    let mut out = [crate::value::zeroed::<T>(); ITEMS];
    unroll!(i in 0..ITEMS => {
        out[i] = s.load(at::<T>(base + i as u32, pad));
    });
    out
}

/// Stores a thread's items at positions `rank + i · stride`.
#[inline(always)]
#[track_caller]
pub(crate) fn put_striped<T: ShflValue, const ITEMS: usize>(
    s: Smem,
    rank: u32,
    stride: u32,
    items: &[T; ITEMS],
) {
    let pad = padded(ITEMS);
    unroll!(i in 0..ITEMS => {
        s.store(at::<T>(rank + i as u32 * stride, pad), items[i]);
    });
}

/// Loads a thread's items from positions `rank + i · stride`.
#[inline(always)]
#[track_caller]
pub(crate) fn get_striped<T: ShflValue, const ITEMS: usize>(
    s: Smem,
    rank: u32,
    stride: u32,
) -> [T; ITEMS] {
    let pad = padded(ITEMS);
    let mut out = [crate::value::zeroed::<T>(); ITEMS];
    unroll!(i in 0..ITEMS => {
        out[i] = s.load(at::<T>(rank + i as u32 * stride, pad));
    });
    out
}

/// Stores one item at position `rank` (below the tile's positions).
#[inline(always)]
#[track_caller]
pub(crate) fn put_at<T: ShflValue, const ITEMS: usize>(s: Smem, rank: u32, item: T) {
    s.store(at::<T>(rank, padded(ITEMS)), item);
}

/// Stores item `i` at position `ranks[i]` where `keep[i]` (every rank
/// below `positions`: the caller checked, or knows).
#[inline(always)]
#[track_caller]
pub(crate) fn put_ranked<T: ShflValue, const ITEMS: usize>(
    s: Smem,
    items: &[T; ITEMS],
    ranks: &[u32; ITEMS],
    keep: &[bool; ITEMS],
) {
    let pad = padded(ITEMS);
    unroll!(i in 0..ITEMS => {
        if keep[i] {
            s.store(at::<T>(ranks[i], pad), items[i]);
        }
    });
}
