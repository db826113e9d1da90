//! warpAggregatedAtomicsCG: the threads that take a branch together form a
//! `coalesced_threads()` group; its leader does one atomic for all of them
//! and broadcasts the old value. `labeled_partition` splits the group by a
//! bucket so that each bucket gets one atomic per warp.
#![no_std]
#![cfg_attr(
    target_arch = "nvptx64",
    feature(abi_gpu_kernel, asm_experimental_arch)
)]

use cooperative_groups::atomic::{AtomicRef, Relaxed};
use cooperative_groups::prelude::*;
use cooperative_groups::{AtomicSlice, GlobalSlice, kernel};

/// Warp-aggregated `atomicAdd(counter, 1)`: each calling thread gets a
/// distinct old value, with one atomic per coalesced group.
#[inline(always)]
fn atomic_agg_inc(counter: AtomicRef<'_, i32>) -> i32 {
    let active = coalesced_threads();
    let mut res = 0;
    if active.thread_rank() == 0 {
        res = counter.fetch_add(active.num_threads() as i32, Relaxed);
    }
    active.shfl(res, 0) + active.thread_rank() as i32
}

/// Copies the positive elements of `src` to `dst`, counting them in
/// `nres[0]` (stream compaction; the order in `dst` is unspecified). Each
/// position is a ticket of the counter, so no two threads write one; the
/// types cannot show that, so `dst` is written through atomics (relaxed
/// stores: the same `st` but for its `.relaxed.gpu`).
#[kernel]
pub fn filter_arr(dst: AtomicSlice<i32>, nres: AtomicSlice<i32>, src: GlobalSlice<i32>) {
    let block = this_thread_block();
    let stride = (block.num_threads() * this_grid().dim_blocks().x) as usize;
    let mut i = (block.group_index().x * block.num_threads() + block.thread_rank()) as usize;
    while i < src.len() {
        let v = src.load(i);
        if v > 0 {
            dst.at(atomic_agg_inc(nres.at(0)) as usize)
                .store(v, Relaxed);
        }
        i += stride;
    }
}

/// Warp-aggregated increment of `counter`, one per bucket: one atomic per
/// bucket present among the calling threads of a warp.
#[inline(always)]
fn atomic_agg_inc_multi(bucket: i32, counters: &AtomicSlice<i32>) -> i32 {
    let active = coalesced_threads();
    let group = labeled_partition(&active, bucket);
    let mut res = 0;
    if group.thread_rank() == 0 {
        res = counters
            .at(bucket as usize)
            .fetch_add(group.num_threads() as i32, Relaxed);
    }
    group.shfl(res, 0) + group.thread_rank() as i32
}

/// Writes each index `i` with `src[i] < num_buckets` into its bucket's
/// region of `indices` (bucket `b`'s counter starts at `b · src.len()`);
/// the positions are tickets, written through atomics as in `filter_arr`.
#[kernel]
pub fn map_to_buckets(
    src: GlobalSlice<i32>,
    indices: AtomicSlice<i32>,
    counters: AtomicSlice<i32>,
    num_buckets: i32,
) {
    let grid = this_grid();
    let mut i = grid.thread_rank() as usize;
    while i < src.len() {
        let bucket = src.load(i);
        if (0..num_buckets).contains(&bucket) {
            let at = atomic_agg_inc_multi(bucket, &counters) as usize;
            indices.at(at).store(i as i32, Relaxed);
        }
        i += grid.num_threads() as usize;
    }
}

/// `max[b]` = the largest `values[i]` with `src[i] == b`: a `reduce` with
/// `Greater` over each bucket's labeled partition, one `atomicMax` per
/// partition.
#[kernel]
pub fn calculate_max_in_each_bucket(
    src: GlobalSlice<i32>,
    values: GlobalSlice<i32>,
    max: AtomicSlice<i32>,
    num_buckets: i32,
) {
    let grid = this_grid();
    let mut i = grid.thread_rank() as usize;
    while i < src.len() {
        let (bucket, v) = (src.load(i), values.load(i));
        if (0..num_buckets).contains(&bucket) {
            let active = coalesced_threads();
            let group = labeled_partition(&active, bucket);
            let m = reduce(&group, v, Greater);
            if group.thread_rank() == 0 {
                max.at(bucket as usize).red_max(m, Relaxed);
            }
        }
        i += grid.num_threads() as usize;
    }
}
