//! Deliberately broken kernels, written against the library as a user would:
//! each must end with the simulator's report naming the right source line,
//! quickly, instead of hanging (on a GPU most of them hang or corrupt data).

use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

use cooperative_groups::intrinsics::{FULL_MASK, shfl_sync, thread_idx};
use cooperative_groups::prelude::*;
use cooperative_groups::{Kernel, kernel};

fn launch(k: Kernel<(*mut u32,)>, block: u32) -> (String, Duration) {
    let mut out = vec![0u32; 1024];
    let ptr = out.as_mut_ptr();
    let cfg = cg_sim::LaunchConfig {
        grid: cg_sim::Dim3::x(1),
        block: cg_sim::Dim3::x(block),
        cluster: None,
        dynamic_smem_bytes: 0,
        cooperative: false,
    };
    // SAFETY: the broken kernels write at most one word per thread of `out`.
    let body = unsafe { k.host_fn_unchecked() };
    let t = Instant::now();
    let err =
        cg_sim::launch(&cfg, &|| body((ptr,))).expect_err("the broken kernel must be reported");
    (err.to_string(), t.elapsed())
}

/// The report names `file:line` of this test file.
fn assert_names(report: &str, line: u32) {
    let at = format!("misuse.rs:{line}:");
    assert!(
        report.contains(&at),
        "report should name line {line}:\n{report}"
    );
}

/// Source lines the kernels record as they run, so the tests know which line
/// the report must name.
static LINES: [AtomicU32; 8] = [const { AtomicU32::new(0) }; 8];

fn line_of(i: usize) -> u32 {
    LINES[i].load(Ordering::Relaxed)
}

fn record(i: usize, line: u32) {
    LINES[i].store(line, Ordering::Relaxed)
}

#[kernel]
fn shuffle_in_divergent_branch(out: *mut u32) {
    let block = this_thread_block();
    let tile = tiled_partition::<32>(&block);
    let mut v = tile.thread_rank();
    if tile.thread_rank() < 16 {
        record(0, line!() + 1);
        v = tile.shfl_down(v, 1);
    }
    // SAFETY: one word per thread.
    unsafe { *out.add(block.thread_rank() as usize) = v };
}

#[test]
fn collective_in_a_divergent_branch() {
    let (r, t) = launch(SHUFFLE_IN_DIVERGENT_BRANCH, 32);
    assert_names(&r, line_of(0));
    assert!(t < Duration::from_secs(5));
}

#[kernel]
fn partition_by_half_a_block(out: *mut u32) {
    let block = this_thread_block();
    let mut v = 0;
    if block.thread_rank() < 64 {
        record(1, line!() + 1);
        let tile = tiled_partition::<64>(&block);
        v = reduce(&tile, 1u32, Plus);
    }
    record(2, line!() + 1);
    block.sync();
    // SAFETY: one word per thread.
    unsafe { *out.add(block.thread_rank() as usize) = v };
}

#[test]
fn partition_created_by_half_a_block() {
    let (r, t) = launch(PARTITION_BY_HALF_A_BLOCK, 128);
    assert!(r.contains("misuse.rs:"), "{r}");
    // Either the partition itself or the block barrier the other half waits
    // at is named; both lines are the user's.
    assert!(
        r.contains(&format!("misuse.rs:{}:", line_of(1)))
            || r.contains(&format!("misuse.rs:{}:", line_of(2))),
        "{r}"
    );
    assert!(t < Duration::from_secs(5));
}

#[kernel]
fn barrier_by_a_subset(out: *mut u32) {
    let block = this_thread_block();
    let tile = tiled_partition::<32>(&block);
    // Half of each warp waits at the block barrier, the other half at a
    // shuffle that needs the first half: neither can complete.
    if tile.thread_rank() < 16 {
        record(3, line!() + 1);
        block.sync();
    }
    record(4, line!() + 1);
    let v = tile.shfl(tile.thread_rank(), 0);
    // SAFETY: one word per thread.
    unsafe { *out.add(block.thread_rank() as usize) = v };
}

#[test]
fn barrier_reached_by_a_subset() {
    let (r, t) = launch(BARRIER_BY_A_SUBSET, 64);
    assert!(r.starts_with("deadlock"), "{r}");
    assert_names(&r, line_of(3));
    assert_names(&r, line_of(4));
    assert!(t < Duration::from_secs(5));
}

#[kernel]
fn wrong_mask(out: *mut u32) {
    let t = thread_idx().x;
    // Every lane names the mask of lanes 0..15: lanes 16..31 are not in it.
    let mask = 0x0000_ffff;
    record(5, line!() + 1);
    let v = shfl_sync(mask, t, 0, 32);
    // SAFETY: one word per thread.
    unsafe { *out.add(t as usize) = v };
    let _ = FULL_MASK;
}

#[test]
fn wrong_mask_is_reported() {
    let (r, t) = launch(WRONG_MASK, 32);
    assert!(r.starts_with("misuse"), "{r}");
    assert_names(&r, line_of(5));
    assert!(t < Duration::from_secs(5));
}

#[kernel]
fn non_uniform_tile_size(out: *mut u32) {
    let block = this_thread_block();
    let n = if block.thread_rank() < 8 { 16 } else { 32 };
    record(6, line!() + 1);
    let tile = tiled_partition_dyn(&block, n);
    // SAFETY: one word per thread.
    unsafe { *out.add(block.thread_rank() as usize) = tile.thread_rank() };
}

#[test]
fn non_uniform_argument_is_reported() {
    let (r, t) = launch(NON_UNIFORM_TILE_SIZE, 32);
    assert!(r.starts_with("misuse"), "{r}");
    assert!(r.contains("non-uniform"), "{r}");
    assert_names(&r, line_of(6));
    assert!(t < Duration::from_secs(5));
}
