//! Multi-warp `reduce` on the simulator, whose lanes do not run in lockstep:
//! the first warp folds the warp partials and then overwrites the slots
//! with the total, so its lanes must all have read before any writes (a
//! missing `bar.warp.sync` there gave warp 1 of every tile the total plus
//! its own partial). Named barriers (blocks ≤ 512), the software barrier
//! (64-thread tiles in larger blocks) and the whole block; and the same
//! tiles under a declared block bound (`with_max_threads`), whose barrier
//! ids the simulator checks against the bound.

use cooperative_groups::intrinsics::thread_idx;
use cooperative_groups::kernel;
use cooperative_groups::prelude::*;

/// Each thread writes its 64-thread tile's and its block's sum of `thread_idx().x`.
#[kernel]
pub fn tile64_and_block_sums(out: *mut u32) {
    let block = this_thread_block();
    let t = tiled_partition::<64>(&block);
    let i = thread_idx().x;
    let tile_sum = reduce(&t, i, Plus);
    let block_sum = reduce(&block, i, Plus);
    // SAFETY: the test allocates two words per thread.
    unsafe {
        *out.add(2 * i as usize) = tile_sum;
        *out.add(2 * i as usize + 1) = block_sum;
    }
}

/// Runs `kernel` on the simulator in one block of `block` threads; returns
/// the two words each thread wrote.
fn two_words_per_thread(kernel: &cooperative_groups::Kernel<(*mut u32,)>, block: u32) -> Vec<u32> {
    let mut out = vec![0u32; 2 * block as usize];
    let p = out.as_mut_ptr();
    let cfg = cg_sim::LaunchConfig::new(cg_sim::Dim3::x(1), cg_sim::Dim3::x(block));
    // SAFETY: the kernels write two words per thread of `out`.
    let body = unsafe { kernel.host_fn_unchecked() };
    cg_sim::launch(&cfg, &|| body((p,))).unwrap();
    out
}

#[test]
fn every_warp_gets_the_total() {
    for block in [64u32, 96, 512, 576, 992, 1024] {
        let out = two_words_per_thread(&TILE64_AND_BLOCK_SUMS, block);
        for i in 0..block {
            let first = i / 64 * 64;
            let tile: u32 = (first..(first + 64).min(block)).sum();
            let all: u32 = (0..block).sum();
            assert_eq!(
                out[2 * i as usize],
                tile,
                "block {block}, thread {i}: tile sum"
            );
            assert_eq!(
                out[2 * i as usize + 1],
                all,
                "block {block}, thread {i}: block sum"
            );
        }
    }
}

/// As [`tile64_and_block_sums`] in blocks of at most 256 threads, with
/// 128-thread tiles too: their named barriers are immediates on the GPU.
#[kernel]
pub fn bounded_tile_sums(out: *mut u32) {
    let block = this_thread_block().with_max_threads::<256>();
    let t64 = tiled_partition::<64>(&block);
    let t128 = tiled_partition::<128>(&block);
    let i = thread_idx().x;
    let s64 = reduce(&t64, i, Plus);
    t128.sync();
    let s128 = reduce(&t128, i, Plus);
    // SAFETY: the test allocates two words per thread.
    unsafe {
        *out.add(2 * i as usize) = s64;
        *out.add(2 * i as usize + 1) = s128;
    }
}

#[test]
fn bounded_tiles_reduce_in_every_block_within_the_bound() {
    for block in [128u32, 160, 192, 224, 256] {
        let out = two_words_per_thread(&BOUNDED_TILE_SUMS, block);
        for i in 0..block {
            for (k, size) in [64u32, 128].into_iter().enumerate() {
                let first = i / size * size;
                let want: u32 = (first..(first + size).min(block)).sum();
                assert_eq!(
                    out[2 * i as usize + k],
                    want,
                    "block {block}, thread {i}: tile {size}"
                );
            }
        }
    }
}

/// A 64-thread tile made anew in every round of a loop, in blocks large
/// enough for the software barrier: each new handle re-initialises the
/// tile's barrier state, which must not disturb a member still finishing
/// the previous round. Writes the sum over the rounds of each tile's
/// reduce, and the number of rounds in which `any` saw the round's thread.
#[kernel]
pub fn tile64_made_every_round(out: *mut u32) {
    let block = this_thread_block();
    let i = thread_idx().x;
    let (mut sum, mut seen) = (0u32, 0u32);
    for round in 0..6u32 {
        let t = tiled_partition::<64>(&block);
        sum += reduce(&t, i + round, Plus);
        seen += t.any(i % 64 == round) as u32;
    }
    // SAFETY: the test allocates two words per thread.
    unsafe {
        *out.add(2 * i as usize) = sum;
        *out.add(2 * i as usize + 1) = seen;
    }
}

#[test]
fn software_barrier_tiles_made_every_round() {
    for block in [544u32, 1000, 1024] {
        let out = two_words_per_thread(&TILE64_MADE_EVERY_ROUND, block);
        for i in 0..block {
            let first = i / 64 * 64;
            let members = (first + 64).min(block) - first;
            let want: u32 = (0..6u32)
                .map(|r| (first..first + members).map(|j| j + r).sum::<u32>())
                .sum();
            assert_eq!(out[2 * i as usize], want, "block {block}, thread {i}: sum");
            let seen = (0..6u32).filter(|r| *r < members).count() as u32;
            assert_eq!(
                out[2 * i as usize + 1],
                seen,
                "block {block}, thread {i}: any"
            );
        }
    }
}

/// The block's sum and inclusive prefix sum of `thread_idx().x`, with the
/// block's size declared exactly (`with_threads::<B>()`).
#[inline(always)]
fn sized_block_sums<const B: u32>(out: *mut u32) {
    let block = this_thread_block().with_threads::<B>();
    let i = thread_idx().x;
    let sum = reduce(&block, i, Plus);
    let prefix = inclusive_scan(&block, i, Plus);
    // SAFETY: the test allocates two words per thread.
    unsafe {
        *out.add(2 * i as usize) = sum;
        *out.add(2 * i as usize + 1) = prefix;
    }
}

/// [`sized_block_sums`] in blocks of exactly 96 threads.
#[kernel]
pub fn sized_block_96(out: *mut u32) {
    sized_block_sums::<96>(out)
}

/// [`sized_block_sums`] in blocks of exactly 1000 threads.
#[kernel]
pub fn sized_block_1000(out: *mut u32) {
    sized_block_sums::<1000>(out)
}

/// [`sized_block_sums`] in blocks of exactly 1024 threads.
#[kernel]
pub fn sized_block_1024(out: *mut u32) {
    sized_block_sums::<1024>(out)
}

#[test]
fn blocks_of_a_declared_size_reduce_and_scan() {
    for (kernel, block) in [
        (&SIZED_BLOCK_96, 96u32),
        (&SIZED_BLOCK_1000, 1000),
        (&SIZED_BLOCK_1024, 1024),
    ] {
        let out = two_words_per_thread(kernel, block);
        let all: u32 = (0..block).sum();
        for i in 0..block {
            assert_eq!(out[2 * i as usize], all, "block {block}, thread {i}: sum");
            let prefix: u32 = (0..=i).sum();
            assert_eq!(
                out[2 * i as usize + 1],
                prefix,
                "block {block}, thread {i}: scan"
            );
        }
    }
}
