//! [`WarpMergeSort`]: a stable merge sort of a tile's items by a
//! comparator (CUB's `WarpMergeSort`), and the merge passes that
//! [`BlockMergeSort`](crate::primitives::BlockMergeSort) runs on top of
//! them.
//!
//! Each thread sorts its `N` items in registers (an odd–even
//! transposition network); then runs of `N`, `2N`, `4N`, … items are
//! merged pairwise until one run covers the group. In a pass every thread
//! stores its items, the group syncs, the thread finds where its `N`
//! output positions start in the merge of its two runs (a binary search
//! along the merge path), merges `N` items sequentially from shared
//! memory, and the group syncs again. Ties keep the first run's items
//! first, so the sort is stable.
//!
//! Partial tiles: items at tile positions `valid` or beyond are out of
//! bounds; they take part in no comparison and end, with the key `oob`,
//! after every valid item.

use core::marker::PhantomData;
use core::mem::size_of;

use super::Lanes;
use crate::group::{Size, ThreadBlockTile, WarpTileSize};
use crate::primitives::storage::{NeedsTempStorage, Smem, TempStorage};
use crate::value::ShflValue;

/// Stably sorts a tile of `W · N` keys (and values) held blocked by a tile
/// of `W ≤ 32` threads, by `less` (CUB's `WarpMergeSort<K, N, W, V>`).
/// The result is blocked: rank `r` holds sorted positions `r · N + i`.
///
/// ```
/// use cooperative_groups::prelude::*;
/// use cooperative_groups::primitives::WarpMergeSort;
/// use cooperative_groups::temp_storage;
/// # let dev = cg_sim::SimDevice { stack_size: 4 << 20, ..Default::default() };
/// # cg_sim::launch_on(&dev, &cg_sim::LaunchConfig::new(1, 32), &|| {
/// let tile = tiled_partition::<32>(&this_thread_block());
/// let temp = temp_storage!(WarpMergeSort<i32, 2, 32>);
/// let r = tile.thread_rank() as i32;
/// let mut keys = [r * 7 % 32, -r];
/// WarpMergeSort::<i32, 2>::new(&tile, &temp).sort(&mut keys, |a, b| a < b);
/// // Ranks 0..15 hold -31..=0 (and a second 0); the rest 1..=31.
/// # let all: Vec<i32> = (0..32).map(|q| q * 7 % 32).chain((0..32).map(|q| -q)).collect();
/// # let mut all = all; all.sort();
/// # assert_eq!(keys, [all[2 * r as usize], all[2 * r as usize + 1]]);
/// # }).unwrap();
/// ```
pub struct WarpMergeSort<K, const N: usize, const W: u32 = 32, V = ()> {
    lanes: Lanes,
    smem: Smem,
    _t: PhantomData<fn() -> (K, V)>,
}

impl<K, const N: usize, const W: u32, V> NeedsTempStorage for WarpMergeSort<K, N, W, V> {
    const TEMP_BYTES: usize = merge_bytes::<K, V>(W as usize * N);
}

/// Bytes of a merge sort's storage for `positions` keys and values: the
/// keys, then the values, each 16-byte aligned.
pub(crate) const fn merge_bytes<K, V>(positions: usize) -> usize {
    (positions * size_of::<K>()).next_multiple_of(16) + positions * size_of::<V>()
}

impl<K: ShflValue, const N: usize, const W: u32, V> WarpMergeSort<K, N, W, V>
where
    Size<W>: WarpTileSize,
{
    /// The sort of `tile`'s items in `temp` (the tile's own part of the
    /// kernel's storage).
    #[inline(always)]
    #[track_caller]
    pub fn new<L: NeedsTempStorage>(tile: &ThreadBlockTile<W>, temp: &TempStorage<L>) -> Self {
        const { assert!(N > 0, "a thread holds at least one item") };
        WarpMergeSort {
            lanes: Lanes::of(tile),
            smem: temp.smem::<Self>(),
            _t: PhantomData,
        }
    }

    /// Sorts `keys` (blocked over the tile) by `less`, stably.
    #[inline(always)]
    #[track_caller]
    pub fn sort<F: Fn(&K, &K) -> bool>(&self, keys: &mut [K; N], less: F) {
        let mut none = [0u8; N];
        self.run::<u8, F, false, true>(keys, &mut none, W as usize * N, None, less);
    }

    /// Sorts the tile's first `valid` keys (the same `valid` in every
    /// member); the others become `oob` and end after them.
    #[inline(always)]
    #[track_caller]
    pub fn sort_partial<F: Fn(&K, &K) -> bool>(
        &self,
        keys: &mut [K; N],
        valid: usize,
        oob: K,
        less: F,
    ) {
        let mut none = [0u8; N];
        self.run::<u8, F, false, false>(keys, &mut none, valid, Some(oob), less);
    }

    #[inline(always)]
    #[track_caller]
    fn run<U: ShflValue, F: Fn(&K, &K) -> bool, const PAIRS: bool, const FULL: bool>(
        &self,
        keys: &mut [K; N],
        values: &mut [U; N],
        valid: usize,
        oob: Option<K>,
        less: F,
    ) {
        let tile = W as usize * N;
        let valid = if FULL { tile } else { valid.min(tile) };
        let rank = self.lanes.rank;
        thread_sort::<K, U, F, FULL, N>(rank, keys, values, valid, oob, &less);
        let lanes = self.lanes;
        merge_passes::<K, U, F, _, PAIRS, FULL, N>(
            self.smem,
            values_smem::<K>(self.smem, tile),
            rank,
            W as usize,
            valid,
            N,
            keys,
            values,
            &less,
            &|| lanes.sync(),
        );
    }
}

impl<K: ShflValue, const N: usize, const W: u32, V: ShflValue> WarpMergeSort<K, N, W, V>
where
    Size<W>: WarpTileSize,
{
    /// Sorts `keys` and moves `values` with them, stably.
    #[inline(always)]
    #[track_caller]
    pub fn sort_pairs<F: Fn(&K, &K) -> bool>(
        &self,
        keys: &mut [K; N],
        values: &mut [V; N],
        less: F,
    ) {
        self.run::<V, F, true, true>(keys, values, W as usize * N, None, less);
    }

    /// [`sort_pairs`](Self::sort_pairs) of the first `valid` items; the
    /// others get the key `oob` and end after them (their values in an
    /// unspecified order).
    #[inline(always)]
    #[track_caller]
    pub fn sort_pairs_partial<F: Fn(&K, &K) -> bool>(
        &self,
        keys: &mut [K; N],
        values: &mut [V; N],
        valid: usize,
        oob: K,
        less: F,
    ) {
        self.run::<V, F, true, false>(keys, values, valid, Some(oob), less);
    }
}

/// The values' part of a merge sort's storage of `positions` keys.
#[inline(always)]
pub(crate) fn values_smem<K>(s: Smem, positions: usize) -> Smem {
    s.offset((positions * size_of::<K>()).next_multiple_of(16) as u32)
}

/// The thread's step: out-of-bounds items (tile positions `valid` or
/// beyond) get `oob`; the valid ones are sorted among themselves. `FULL`:
/// every item is valid (known when compiled).
#[inline(always)]
pub(crate) fn thread_sort<
    K: Copy,
    U: Copy,
    F: Fn(&K, &K) -> bool,
    const FULL: bool,
    const N: usize,
>(
    rank: u32,
    keys: &mut [K; N],
    values: &mut [U; N],
    valid: usize,
    oob: Option<K>,
    less: &F,
) {
    let base = rank as usize * N;
    if FULL || base + N <= valid {
        crate::primitives::thread::sort_network(keys, values, less);
        return;
    }
    let mine = valid.saturating_sub(base);
    if let Some(o) = oob {
        let mut i = 0;
        while i < N {
            if i >= mine {
                keys[i] = o;
            }
            i += 1;
        }
    }
    // Only the first `mine` items take part.
    let mut round = 0;
    while round < N {
        let mut i = round & 1;
        while i + 1 < mine {
            if less(&keys[i + 1], &keys[i]) {
                keys.swap(i, i + 1);
                values.swap(i, i + 1);
            }
            i += 2;
        }
        round += 1;
    }
}

/// Merge passes over a group of `threads` threads (`rank` the caller's)
/// whose sorted runs of `run` items (each thread's `N`, or a whole warp's)
/// become one, in `keys_smem` / `values_smem` (room for `threads · N`
/// each), `sync` the group's barrier. Items at positions `valid` or
/// beyond are out of bounds (after every valid one in each run). `FULL`:
/// every item is valid (`valid` is the tile; known when compiled), and
/// each thread merges as CUB's `SerialMerge` does: the next key of each
/// run in a register, one shared load per item.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
#[track_caller]
pub(crate) fn merge_passes<
    K: ShflValue,
    U: ShflValue,
    F: Fn(&K, &K) -> bool,
    S: Fn(),
    const PAIRS: bool,
    const FULL: bool,
    const N: usize,
>(
    keys_smem: Smem,
    values_smem: Smem,
    rank: u32,
    threads: usize,
    valid: usize,
    run: usize,
    keys: &mut [K; N],
    values: &mut [U; N],
    less: &F,
    sync: &S,
) {
    // Positions as `u32` (a tile has at most 1024 · N of them): 32-bit
    // compares and selects where `usize` took two of each.
    let tile = (threads * N) as u32;
    let valid = valid.min(tile as usize) as u32;
    let n = N as u32;
    let ks = size_of::<K>() as u32;
    let vs = size_of::<U>() as u32;
    let vector_k = (N * size_of::<K>()).is_multiple_of(16);
    let vector_v = (N * size_of::<U>()).is_multiple_of(16);
    let mine = rank * n;
    let mut s = run as u32;
    while s < tile {
        keys_smem.store_run(mine * ks, keys, vector_k);
        if PAIRS {
            values_smem.store_run(mine * vs, values, vector_v);
        }
        sync();
        // The caller's two runs, A then B, and its place in their merge.
        let start = mine / (2 * s) * (2 * s);
        let a0 = start;
        let pa = s.min(tile - a0);
        let b0 = a0 + pa;
        let pb = s.min(tile - b0);
        let (va, vb) = if FULL {
            (pa, pb)
        } else {
            (
                valid.saturating_sub(a0).min(pa),
                valid.saturating_sub(b0).min(pb),
            )
        };
        let key = |p: u32| -> K { keys_smem.load(p * ks) };
        let d = mine - start;
        let dv = if FULL { d } else { d.min(va + vb) };
        // Merge path: the largest `ia` whose A items precede the B item
        // they are compared with (ties: A first).
        let mut lo = dv.saturating_sub(vb);
        let mut hi = dv.min(va);
        while lo < hi {
            let mid = (lo + hi) / 2;
            if less(&key(b0 + dv - 1 - mid), &key(a0 + mid)) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        if FULL {
            // Every item valid: `dv == d < pa + pb`, no out-of-bounds tail.
            // Run A is `a0 .. a0 + pa`, B `b0 .. b0 + pb`; a key past its
            // run is read clamped to the tile and never taken.
            let (a_end, b_end, last) = (a0 + pa, b0 + pb, tile - 1);
            let (mut ia, mut ib) = (a0 + lo, b0 + dv - lo);
            let mut ka = key(ia.min(last));
            let mut kb = key(ib.min(last));
            let mut i = 0;
            while i < N {
                // Ties take A's key first (stable).
                let take_b = ib < b_end && (ia >= a_end || less(&kb, &ka));
                let src = if take_b { ib } else { ia };
                keys[i] = if take_b { kb } else { ka };
                if PAIRS {
                    values[i] = values_smem.load(src * vs);
                }
                if i + 1 < N {
                    if take_b {
                        ib += 1;
                        kb = key(ib.min(last));
                    } else {
                        ia += 1;
                        ka = key(ia.min(last));
                    }
                }
                i += 1;
            }
            sync();
            s *= 2;
            continue;
        }
        let (mut ia, mut ib) = (lo, dv - lo);
        let mut i = 0;
        while i < N {
            let pos = d + i as u32;
            let src = if pos < va + vb {
                let take_a = ib >= vb || (ia < va && !less(&key(b0 + ib), &key(a0 + ia)));
                if take_a {
                    ia += 1;
                    a0 + ia - 1
                } else {
                    ib += 1;
                    b0 + ib - 1
                }
            } else {
                // The out-of-bounds tails: A's, then B's.
                let j = pos - (va + vb);
                if j < pa - va {
                    a0 + va + j
                } else {
                    b0 + vb + (j - (pa - va))
                }
            };
            keys[i] = keys_smem.load(src * ks);
            if PAIRS {
                values[i] = values_smem.load(src * vs);
            }
            i += 1;
        }
        sync();
        s *= 2;
    }
}
