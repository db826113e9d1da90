//! A type-generic kernel: one Rust function, four PTX entries
//! (`tile_scan_block_sum_u32`, `…_i64`, `…_f32`, `…_f64`), the
//! `template <typename T> __global__` of CUDA C++ with its explicit
//! instantiations. `cg-lab verify` runs every instance on the GPU and on the
//! simulator and compares them bit for bit and with a host model.

use cooperative_groups::ops::{Plus, ReduceOp};
use cooperative_groups::prelude::*;
use cooperative_groups::{Chunked, GlobalSlice, OwnedSlice, Pod, ShflValue, kernel};

/// Each thread reads `input[i]` and writes its tile-32 inclusive prefix sum
/// to `out[2i]` and its block's total to `out[2i + 1]` (one input per
/// thread, two outputs: the thread's chunk of two).
#[kernel(instances(u32, i64, f32, f64))]
pub fn tile_scan_block_sum<T: ShflValue + Pod>(
    input: GlobalSlice<T>,
    out: OwnedSlice<T, Chunked<2>>,
) where
    Plus: ReduceOp<T>,
{
    let block = this_thread_block();
    let tile = tiled_partition::<32>(&block);
    let grid = this_grid();
    let x = input.load(grid.thread_rank() as usize);
    let scan = inclusive_scan(&tile, x, Plus);
    let total = reduce(&block, x, Plus);
    out.chunk(&grid).store_all([scan, total]);
}

/// What [`tile_scan_block_sum`] writes for `input` in blocks of `block`
/// threads (whole warps), for inputs whose sums are exact in `T`.
pub fn tile_scan_block_sum_expected<T: Copy + core::ops::Add<Output = T>>(
    input: &[T],
    block: usize,
    zero: T,
) -> impl Iterator<Item = T> + '_ {
    input.iter().enumerate().flat_map(move |(i, _)| {
        let tile = i / 32 * 32;
        let scan = input[tile..=i].iter().fold(zero, |a, &b| a + b);
        let b = i / block * block;
        let total = input[b..b + block].iter().fold(zero, |a, &b| a + b);
        [scan, total]
    })
}
