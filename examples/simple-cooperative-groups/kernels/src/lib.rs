//! simpleCooperativeGroups: one reduction written once against any group,
//! run by the whole block and by its tiles of 32, 16 and 4 threads.
#![no_std]
#![cfg_attr(
    target_arch = "nvptx64",
    feature(abi_gpu_kernel, asm_experimental_arch)
)]

use cooperative_groups::prelude::*;
use cooperative_groups::{DynamicShared, OwnedSlice, dynamic_shared, kernel};

/// A tree sum through shared memory that only knows `g` as a
/// [`ThreadGroup`]: each step halves the active threads, every step
/// between two `g.sync()`. `x[base..base + g.num_threads()]` is the group's
/// workspace. Rank 0 returns the sum, every other rank −1.
fn sum_reduction<G: ThreadGroup>(g: &G, x: DynamicShared<i32>, base: usize, mut val: i32) -> i32 {
    let lane = g.thread_rank();
    let mut i = g.num_threads() / 2;
    while i > 0 {
        x.store(base + lane as usize, val);
        g.sync();
        if lane < i {
            val += x.load(base + (lane + i) as usize);
        }
        g.sync();
        i /= 2;
    }
    if lane == 0 { val } else { -1 }
}

/// One tile size's pass: every thread contributes its rank in its tile of
/// `N`; the tile's workspace is its own slice of the block's.
fn tile_pass<const N: u32>(block: &ThreadBlock, x: DynamicShared<i32>) -> i32
where
    Size<N>: TileSize,
{
    let tile = tiled_partition::<N>(block);
    let base = (block.thread_rank() - tile.thread_rank()) as usize;
    sum_reduction(&tile, x, base, tile.thread_rank() as i32)
}

/// `out` has 4 · blockDim words: what each thread's reduction returned for
/// the block (`out[0..n]`), its tile of 32 (`out[n..2n]`), of 16 and of 4.
/// One block: thread `r` owns `out[r]`, `out[r + n]`, … (its grid-stride
/// elements). Needs `blockDim · 4` bytes of dynamic shared memory.
#[kernel]
pub fn cg_kernel(out: OwnedSlice<i32>) {
    let block = this_thread_block();
    let x = dynamic_shared::<i32>();
    let results = [
        sum_reduction(&block, x, 0, block.thread_rank() as i32),
        {
            block.sync();
            tile_pass::<32>(&block, x)
        },
        {
            block.sync();
            tile_pass::<16>(&block, x)
        },
        {
            block.sync();
            tile_pass::<4>(&block, x)
        },
    ];
    for (e, v) in out.grid_stride(&this_grid()).zip(results) {
        e.store(v);
    }
}
