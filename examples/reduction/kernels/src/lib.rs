//! The `reduction` sample's Cooperative Groups kernels: each block sums a
//! grid-strided share of the input into one partial sum.
#![no_std]
#![cfg_attr(
    target_arch = "nvptx64",
    feature(abi_gpu_kernel, asm_experimental_arch)
)]

use cooperative_groups::prelude::*;
use cooperative_groups::{GlobalSlice, OwnedSlice, PerBlock, dynamic_shared, kernel, shared_array};

/// Kernel 8: each thread sums `input[i]` for `i` = its global index, then
/// every `gridDim · blockDim` further; the block halves its values through
/// shared memory down to one warp, and that warp finishes with `reduce`.
/// `partials[blockIdx]` = the block's sum, written by its thread 0. Needs
/// `blockDim` (at least 64) words of dynamic shared memory.
#[kernel]
pub fn cg_reduce(input: GlobalSlice<i32>, partials: OwnedSlice<i32, PerBlock>) {
    let (input, n) = input.with_u32_len();
    let sdata = dynamic_shared::<i32>();
    let cta = this_thread_block();
    let tile = tiled_partition::<32>(&cta);
    let cta_size = cta.num_threads();
    let rank = cta.thread_rank();
    let stride = this_grid().dim_blocks().x * cta_size;
    let mut v = 0i32;
    let mut i = cta.group_index().x * cta_size + rank;
    while i < n {
        v = v.wrapping_add(input.load(i as usize));
        i += stride;
    }
    sdata.store(rank as usize, v);
    let mut half = cta_size >> 1;
    while half >= 32 {
        cta.sync();
        if rank < half {
            v = v.wrapping_add(sdata.load((rank + half) as usize));
            sdata.store(rank as usize, v);
        }
        half >>= 1;
    }
    cta.sync();
    if tile.meta_group_rank() == 0 {
        v = reduce(&tile, v, Plus);
    }
    if let Some(e) = partials.leader(&cta) {
        e.store(v);
    }
}

/// Kernel 9: blocks of exactly `B` threads in tiles of `G` (several
/// warps); each tile sums with one `reduce`, thread 0 adds the tiles'
/// sums. For a power-of-two `n` each thread first adds two elements a
/// block apart per step, as the original does.
#[kernel(instances((256, 128)))]
pub fn multi_warp_cg_reduce<const B: u32, const G: u32>(
    input: GlobalSlice<i32>,
    partials: OwnedSlice<i32, PerBlock>,
) where
    Size<G>: MultiWarpTileSize,
{
    let (input, n) = input.with_u32_len();
    let sums = shared_array!(i32; 32);
    let cta = this_thread_block().with_threads::<B>();
    let tile = tiled_partition::<G>(&cta);
    let (bid, tid) = (cta.group_index().x, cta.thread_rank());
    let mut grid_size = B * this_grid().dim_blocks().x;
    let mut v = 0i32;
    if n.is_power_of_two() {
        let mut i = bid * B * 2 + tid;
        grid_size <<= 1;
        while i < n {
            v = v.wrapping_add(input.load(i as usize));
            if i + B < n {
                v = v.wrapping_add(input.load((i + B) as usize));
            }
            i += grid_size;
        }
    } else {
        let mut i = bid * B + tid;
        while i < n {
            v = v.wrapping_add(input.load(i as usize));
            i += grid_size;
        }
    }
    v = reduce(&tile, v, Plus);
    if tile.thread_rank() == 0 {
        sums.store(tile.meta_group_rank() as usize, v);
    }
    cta.sync();
    if let Some(e) = partials.leader(&cta) {
        let mut total = 0i32;
        for k in 0..tile.meta_group_size() {
            total = total.wrapping_add(sums.load(k as usize));
        }
        e.store(total);
    }
}
