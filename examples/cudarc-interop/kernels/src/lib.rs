//! The kernels a cudarc program launches on its own stream: a block-wide
//! sum over tiles, a whole-array sum in one cooperative launch
//! (`grid.sync()`), and a scaling. Typed parameters, no `unsafe`.
#![no_std]
#![cfg_attr(
    target_arch = "nvptx64",
    feature(abi_gpu_kernel, asm_experimental_arch)
)]

use cooperative_groups::prelude::*;
use cooperative_groups::{GlobalSlice, OwnedSlice, PerBlock, kernel};

/// `sums[b]` = the sum of block `b`'s elements of `input` (one element a
/// thread): each tile of 32 reduces its values (`redux.sync` on sm_80+),
/// then the block reduces the tile sums.
#[kernel]
pub fn block_sums(input: GlobalSlice<u32>, sums: OwnedSlice<u32, PerBlock>) {
    let block = this_thread_block();
    let tile = tiled_partition::<32>(&block);
    let i = this_grid().thread_rank() as usize;
    let x = if i < input.len() { input.load(i) } else { 0 };
    let tile_sum = reduce(&tile, x, Plus);
    let mine = if tile.thread_rank() == 0 { tile_sum } else { 0 };
    let block_sum = reduce(&block, mine, Plus);
    if let Some(e) = sums.leader(&block) {
        e.store(block_sum);
    }
}

/// `partial[0]` = the sum of `input`; the other `partial[b]` hold block
/// `b`'s share (its threads' grid-strided elements). One launch: the
/// blocks write their shares, the grid syncs, and block 0's leader adds
/// them. Launch cooperatively (every block co-resident).
#[kernel]
pub fn grid_sum(input: GlobalSlice<u32>, partial: OwnedSlice<u32, PerBlock>) {
    let block = this_thread_block();
    let grid = this_grid();
    let mut acc = 0u32;
    let mut i = grid.thread_rank() as usize;
    while i < input.len() {
        acc += input.load(i);
        i += grid.num_threads() as usize;
    }
    let share = reduce(&block, acc, Plus);
    let mine = partial.leader(&block);
    if let Some(e) = &mine {
        e.store(share);
    }
    grid.sync();
    // After `grid.sync()` every block's share is visible to block 0.
    if let (0, Some(e)) = (grid.block_rank(), mine) {
        for b in 1..grid.num_blocks() as usize {
            e.store(e.load() + partial.load(b));
        }
    }
}

/// `y[i] = a · x[i]`, each thread its grid-strided elements.
#[kernel]
pub fn scale(x: GlobalSlice<f32>, y: OwnedSlice<f32>, a: f32) {
    for e in y.grid_stride(&this_grid()) {
        e.store(a * x.load(e.index()));
    }
}
