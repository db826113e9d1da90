//! reductionMultiBlockCG: the whole reduction in one kernel. Blocks write
//! their sums, the grid syncs (`this_grid().sync()`, which needs a
//! cooperative launch), and one thread adds the block sums.
#![no_std]
#![cfg_attr(
    target_arch = "nvptx64",
    feature(abi_gpu_kernel, asm_experimental_arch)
)]

use cooperative_groups::prelude::*;
use cooperative_groups::{DynamicShared, dynamic_shared, kernel};

/// Sums `sdata[0..blockDim]` into `sdata[0]`: `reduce` per warp, then
/// thread 0 adds the warp sums.
fn reduce_block(sdata: DynamicShared<f64>, cta: &ThreadBlock) {
    let tid = cta.thread_rank() as usize;
    let tile32 = tiled_partition::<32>(cta);
    sdata.store(tid, reduce(&tile32, sdata.load(tid), Plus));
    cta.sync();
    if tid == 0 {
        let mut beta = 0.0;
        let mut i = 0;
        while i < cta.num_threads() {
            beta += sdata.load(i as usize);
            i += tile32.num_threads();
        }
        sdata.store(0, beta);
    }
    cta.sync();
}

/// `out[0]` = the sum of `input[..n]` (the other `out[b]` hold block `b`'s
/// sum). Each thread accumulates its grid-strided elements in its `f64`
/// slot of shared memory (`blockDim · 8` bytes of dynamic shared memory).
/// Launch cooperatively.
#[kernel]
pub fn reduce_single_pass_multi_block_cg(input: *const f32, out: *mut f32, n: u32) {
    let block = this_thread_block();
    let grid = this_grid();
    let sdata = dynamic_shared::<f64>();
    let tid = block.thread_rank() as usize;
    sdata.store(tid, 0.0);
    let mut i = grid.thread_rank();
    while i < n as u64 {
        // SAFETY: i < n, the length of `input`.
        let x = unsafe { *input.add(i as usize) };
        sdata.store(tid, sdata.load(tid) + x as f64);
        i += grid.num_threads();
    }
    block.sync();
    reduce_block(sdata, &block);
    if tid == 0 {
        // SAFETY: `out` has one word per block.
        unsafe { *out.add(grid.block_rank() as usize) = sdata.load(0) as f32 };
    }
    grid.sync();
    if grid.thread_rank() == 0 {
        for b in 1..grid.num_blocks() as usize {
            // SAFETY: as above; every block's sum is visible after grid.sync().
            unsafe { *out += *out.add(b) };
        }
    }
}
