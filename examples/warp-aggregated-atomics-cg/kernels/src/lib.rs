//! warpAggregatedAtomicsCG: the threads that take a branch together form a
//! `coalesced_threads()` group; its leader does one atomic for all of them
//! and broadcasts the old value. `labeled_partition` splits the group by a
//! bucket so that each bucket gets one atomic per warp.
#![no_std]
#![cfg_attr(
    target_arch = "nvptx64",
    feature(abi_gpu_kernel, asm_experimental_arch)
)]

use cooperative_groups::atomic::{atomic_add, atomic_max};
use cooperative_groups::kernel;
use cooperative_groups::prelude::*;

/// Warp-aggregated `atomicAdd(counter, 1)`: each calling thread gets a
/// distinct old value, with one atomic per coalesced group.
///
/// # Safety
/// `counter` is a valid global word.
#[inline(always)]
unsafe fn atomic_agg_inc(counter: *mut i32) -> i32 {
    let active = coalesced_threads();
    let mut res = 0;
    if active.thread_rank() == 0 {
        // SAFETY: the caller's contract.
        res = unsafe { atomic_add(counter, active.num_threads() as i32) };
    }
    active.shfl(res, 0) + active.thread_rank() as i32
}

/// Copies the positive elements of `src[..n]` to `dst`, counting them in
/// `nres[0]` (stream compaction; the order in `dst` is unspecified).
#[kernel]
pub fn filter_arr(dst: *mut i32, nres: *mut i32, src: *const i32, n: u32) {
    let block = this_thread_block();
    let stride = block.num_threads() * this_grid().dim_blocks().x;
    let mut i = block.group_index().x * block.num_threads() + block.thread_rank();
    while i < n {
        // SAFETY: i < n, the length of `src`.
        let v = unsafe { *src.add(i as usize) };
        if v > 0 {
            // SAFETY: at most n elements are positive: `dst` holds n.
            unsafe { *dst.add(atomic_agg_inc(nres) as usize) = v };
        }
        i += stride;
    }
}

/// Warp-aggregated increment of `counter[bucket]`: one atomic per bucket
/// present among the calling threads of a warp.
///
/// # Safety
/// `counter[bucket]` is a valid global word.
#[inline(always)]
unsafe fn atomic_agg_inc_multi(bucket: i32, counter: *mut i32) -> i32 {
    let active = coalesced_threads();
    let group = labeled_partition(&active, bucket);
    let mut res = 0;
    if group.thread_rank() == 0 {
        // SAFETY: the caller's contract.
        res = unsafe { atomic_add(counter.add(bucket as usize), group.num_threads() as i32) };
    }
    group.shfl(res, 0) + group.thread_rank() as i32
}

/// Writes each index `i` with `src[i] < num_buckets` into its bucket's
/// region of `indices` (bucket `b`'s counter starts at `b · src_size`).
#[kernel]
pub fn map_to_buckets(
    src: *const i32,
    indices: *mut i32,
    counters: *mut i32,
    src_size: u32,
    num_buckets: i32,
) {
    let grid = this_grid();
    let mut i = grid.thread_rank();
    while i < src_size as u64 {
        // SAFETY: i < src_size.
        let bucket = unsafe { *src.add(i as usize) };
        if (0..num_buckets).contains(&bucket) {
            // SAFETY: `counters` has num_buckets words; each bucket's region
            // of `indices` holds src_size words.
            unsafe { *indices.add(atomic_agg_inc_multi(bucket, counters) as usize) = i as i32 };
        }
        i += grid.num_threads();
    }
}

/// `max[b]` = the largest `values[i]` with `src[i] == b`: a `reduce` with
/// `Greater` over each bucket's labeled partition, one `atomicMax` per
/// partition.
#[kernel]
pub fn calculate_max_in_each_bucket(
    src: *const i32,
    values: *const i32,
    max: *mut i32,
    src_size: u32,
    num_buckets: i32,
) {
    let grid = this_grid();
    let mut i = grid.thread_rank();
    while i < src_size as u64 {
        // SAFETY: i < src_size, the length of `src` and `values`.
        let (bucket, v) = unsafe { (*src.add(i as usize), *values.add(i as usize)) };
        if (0..num_buckets).contains(&bucket) {
            let active = coalesced_threads();
            let group = labeled_partition(&active, bucket);
            let m = reduce(&group, v, Greater);
            if group.thread_rank() == 0 {
                // SAFETY: `max` has num_buckets words.
                unsafe { atomic_max(max.add(bucket as usize), m) };
            }
        }
        i += grid.num_threads();
    }
}
