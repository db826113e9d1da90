//! reductionMultiBlockCG: the whole reduction in one kernel. Blocks write
//! their sums, the grid syncs (`this_grid().sync()`, which needs a
//! cooperative launch), and one thread adds the block sums.
#![no_std]
#![cfg_attr(
    target_arch = "nvptx64",
    feature(abi_gpu_kernel, asm_experimental_arch)
)]

use cooperative_groups::prelude::*;
use cooperative_groups::{
    DynamicShared, GlobalSlice, OwnedSlice, PerBlock, dynamic_shared, kernel,
};

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

/// `out[0]` = the sum of `input` (the other `out[b]` hold block `b`'s sum,
/// written by its thread 0). Each thread accumulates its grid-strided
/// elements in its `f64` slot of shared memory (`blockDim · 8` bytes of
/// dynamic shared memory). Launch cooperatively.
#[kernel]
pub fn reduce_single_pass_multi_block_cg(input: GlobalSlice<f32>, out: OwnedSlice<f32, PerBlock>) {
    let block = this_thread_block();
    let grid = this_grid();
    let sdata = dynamic_shared::<f64>();
    let tid = block.thread_rank() as usize;
    sdata.store(tid, 0.0);
    let mut i = grid.thread_rank() as usize;
    while i < input.len() {
        sdata.store(tid, sdata.load(tid) + input.load(i) as f64);
        i += grid.num_threads() as usize;
    }
    block.sync();
    reduce_block(sdata, &block);
    let mine = out.leader(&block);
    if let Some(e) = &mine {
        e.store(sdata.load(0) as f32);
    }
    grid.sync();
    // Block 0's leader (grid thread 0) owns `out[0]`; after `grid.sync()`
    // every block's sum is visible to it.
    // (In a register: the sum in the order the C++ adds, one store.)
    if let (0, Some(e)) = (grid.block_rank(), mine) {
        let sums = out.prefix(grid.num_blocks() as usize);
        let mut total = e.load();
        for b in 1..sums.len() {
            total += sums.load(b);
        }
        e.store(total);
    }
}
