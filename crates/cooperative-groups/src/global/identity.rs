//! Who the calling thread is, in the numbering the partitions use: read
//! from the hardware's special registers, so no value a kernel computes can
//! stand in for it.

use crate::Dim3;
use crate::arch;

/// The calling thread's rank among all threads of the grid (blocks in
/// linear order, threads in linear order inside each), and the grid's
/// thread count: `grid.thread_rank()`, `grid.num_threads()`.
#[inline(always)]
pub(crate) fn grid_thread() -> (usize, usize) {
    let (b, block) = block_rank();
    let t = Dim3::from_array(arch::block_dim());
    let per_block = t.volume() as usize;
    let rank = b * per_block + t.linear(Dim3::from_array(arch::thread_idx())) as usize;
    (rank, block * per_block)
}

/// The calling thread's block's linear rank in the grid, and the grid's
/// block count.
#[inline(always)]
pub(crate) fn block_rank() -> (usize, usize) {
    let g = Dim3::from_array(arch::grid_dim());
    (
        g.linear(Dim3::from_array(arch::block_idx())) as usize,
        g.volume() as usize,
    )
}

/// The calling thread's rank in its block, and the block's size.
#[inline(always)]
pub(crate) fn block_thread() -> (usize, usize) {
    let t = Dim3::from_array(arch::block_dim());
    (
        t.linear(Dim3::from_array(arch::thread_idx())) as usize,
        t.volume() as usize,
    )
}

/// The calling thread's global 2-D position, `blockIdx.{x,y} *
/// blockDim.{x,y} + threadIdx.{x,y}`, for the threads of the grid's first
/// z-plane (a 2-D view's owners; other planes own nothing).
#[inline(always)]
pub(crate) fn grid_xy() -> Option<(usize, usize)> {
    let [tx, ty, tz] = arch::thread_idx();
    let [bx, by, bz] = arch::block_idx();
    let [nx, ny, _] = arch::block_dim();
    (tz == 0 && bz == 0).then(|| {
        (
            bx as usize * nx as usize + tx as usize,
            by as usize * ny as usize + ty as usize,
        )
    })
}

/// The grid's height in threads: `gridDim.y · blockDim.y`.
#[inline(always)]
pub(crate) fn grid_height() -> usize {
    arch::grid_dim()[1] as usize * arch::block_dim()[1] as usize
}

/// The grid's width in threads: `gridDim.x · blockDim.x`.
#[inline(always)]
pub(crate) fn grid_width() -> usize {
    arch::grid_dim()[0] as usize * arch::block_dim()[0] as usize
}
