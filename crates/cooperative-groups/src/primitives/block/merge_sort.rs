//! [`BlockMergeSort`]: a stable merge sort of the block's items by a
//! comparator (CUB's `BlockMergeSort`), built on the warp merge sort:
//! each warp first merges its own runs ([`WarpMergeSort`]'s passes, with
//! `bar.warp.sync` only), then the block merges the warps' runs with
//! block barriers.

use core::marker::PhantomData;
use core::mem::size_of;

use super::{rank_of, sync};
use crate::arch;
use crate::group::ThreadBlock;
use crate::primitives::storage::{NeedsTempStorage, Smem, TempStorage};
use crate::primitives::warp::merge_sort::{merge_bytes, merge_passes, thread_sort, values_smem};
use crate::value::ShflValue;

/// Stably sorts a block's `BLOCK · N` keys (and values), blocked, by
/// `less` (CUB's `BlockMergeSort<K, BLOCK, N, V>`); the result is blocked.
/// See [`WarpMergeSort`](crate::primitives::WarpMergeSort) for the
/// algorithm and the partial tiles. In a block of whole warps the first
/// `log2(32)` merge passes stay inside each warp.
///
/// ```
/// use cooperative_groups::prelude::*;
/// use cooperative_groups::primitives::BlockMergeSort;
/// use cooperative_groups::temp_storage;
/// # let dev = cg_sim::SimDevice { stack_size: 4 << 20, ..Default::default() };
/// # cg_sim::launch_on(&dev, &cg_sim::LaunchConfig::new(1, 64), &|| {
/// let block = this_thread_block().with_threads::<64>();
/// let temp = temp_storage!(BlockMergeSort<[u32; 2], 64, 2, u32>);
/// let r = block.thread_rank();
/// // Keys compared by their first word only: equal ones keep their order.
/// let mut keys = [[r % 4, r], [(r + 1) % 4, r]];
/// let mut values = [2 * r, 2 * r + 1];
/// BlockMergeSort::new(&block, &temp).sort_pairs(&mut keys, &mut values, |a, b| a[0] < b[0]);
/// // 32 keys with each first word; position k holds first word k / 32.
/// assert_eq!([keys[0][0], keys[1][0]], [2 * r / 32, (2 * r + 1) / 32]);
/// # }).unwrap();
/// ```
pub struct BlockMergeSort<K, const BLOCK: u32, const N: usize, V = ()> {
    rank: u32,
    smem: Smem,
    _t: PhantomData<fn() -> (K, V)>,
}

impl<K, const BLOCK: u32, const N: usize, V> NeedsTempStorage for BlockMergeSort<K, BLOCK, N, V> {
    const TEMP_BYTES: usize = merge_bytes::<K, V>(BLOCK as usize * N);
}

impl<K: ShflValue, const BLOCK: u32, const N: usize, V> BlockMergeSort<K, BLOCK, N, V> {
    /// The sort of `block`'s items in `temp`.
    ///
    /// # Panics
    /// A block of another size than `BLOCK` is a contract violation.
    #[inline(always)]
    #[track_caller]
    pub fn new<L: NeedsTempStorage>(block: &ThreadBlock<BLOCK>, temp: &TempStorage<L>) -> Self {
        const { assert!(N > 0, "a thread holds at least one item") };
        BlockMergeSort {
            rank: rank_of(block),
            smem: temp.smem::<Self>(),
            _t: PhantomData,
        }
    }

    /// `Sort`: `keys` (blocked) by `less`, stably.
    #[inline(always)]
    #[track_caller]
    pub fn sort<F: Fn(&K, &K) -> bool>(&self, keys: &mut [K; N], less: F) {
        let mut none = [0u8; N];
        self.run::<u8, F, false, true>(keys, &mut none, BLOCK as usize * N, None, less);
    }

    /// `Sort(keys, less, valid_items, oob_default)`: the block's first
    /// `valid` keys; the others become `oob` and end after them.
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
        let tile = BLOCK as usize * N;
        let valid = if FULL { tile } else { valid.min(tile) };
        let rank = self.rank;
        thread_sort::<K, U, F, FULL, N>(rank, keys, values, valid, oob, &less);
        let vsmem = values_smem::<K>(self.smem, tile);
        let mut run = N;
        if BLOCK.is_multiple_of(32) && BLOCK > 32 {
            // The warp's passes, in its part of the storage.
            let first = (rank / 32) as usize * 32 * N;
            merge_passes::<K, U, F, _, PAIRS, FULL, N>(
                self.smem.offset((first * size_of::<K>()) as u32),
                vsmem.offset((first * size_of::<U>()) as u32),
                rank & 31,
                32,
                valid.saturating_sub(first).min(32 * N),
                N,
                keys,
                values,
                &less,
                &|| arch::warp_sync(u32::MAX),
            );
            run = 32 * N;
        }
        merge_passes::<K, U, F, _, PAIRS, FULL, N>(
            self.smem,
            vsmem,
            rank,
            BLOCK as usize,
            valid,
            run,
            keys,
            values,
            &less,
            &|| sync(),
        );
    }
}

impl<K: ShflValue, const BLOCK: u32, const N: usize, V: ShflValue> BlockMergeSort<K, BLOCK, N, V> {
    /// `Sort(keys, values, less)`: values move with their keys, stably.
    #[inline(always)]
    #[track_caller]
    pub fn sort_pairs<F: Fn(&K, &K) -> bool>(
        &self,
        keys: &mut [K; N],
        values: &mut [V; N],
        less: F,
    ) {
        self.run::<V, F, true, true>(keys, values, BLOCK as usize * N, None, less);
    }

    /// [`sort_pairs`](Self::sort_pairs) of the block's first `valid` items;
    /// the others get the key `oob` and end after them (their values in an
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
