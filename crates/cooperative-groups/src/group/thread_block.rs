//! [`ThreadBlock`]: the block of the calling thread (`cg::thread_block`).

use super::forward_thread_group;
use super::sealed::Sealed;
use super::shape::{Bar, Multi, Shape};
use crate::arch;
use crate::dim::Dim3;

/// The thread block of the calling thread (`cg::thread_block`), from
/// [`this_thread_block`].
///
/// Ranks are linear thread indices (x fastest), so warp `w` holds ranks
/// `32w..32w + 32` and tiles are runs of consecutive ranks, as in CUDA.
/// Beyond CUDA, [`reduce`](crate::reduce) and the scans accept a
/// `ThreadBlock` (warp step + one shared-memory exchange, like CUB).
#[derive(Debug)]
pub struct ThreadBlock {
    rank: u32,
    size: u32,
}

/// `cg::this_thread_block()`: the calling thread's block.
///
/// Not a collective: it reads `%tid` and `%ntid` and costs a few integer
/// instructions (which LLVM shares between handles). Create it early and
/// pass it by reference.
#[inline(always)]
pub fn this_thread_block() -> ThreadBlock {
    let [tx, ty, tz] = arch::thread_idx();
    let [nx, ny, nz] = arch::block_dim();
    ThreadBlock {
        rank: (tz * ny + ty) * nx + tx,
        size: nx * ny * nz,
    }
}

impl ThreadBlock {
    /// The caller's linear index in the block, `(z · ny + y) · nx + x`.
    #[inline(always)]
    pub fn thread_rank(&self) -> u32 {
        self.rank
    }
    /// Threads in the block: `nx · ny · nz` (`%ntid`).
    #[inline(always)]
    pub fn num_threads(&self) -> u32 {
        self.size
    }
    /// `num_threads()` (CUDA's older name).
    #[inline(always)]
    pub fn size(&self) -> u32 {
        self.size
    }
    /// `threadIdx` (`%tid`): the caller's 3-D index in the block.
    #[inline(always)]
    pub fn thread_index(&self) -> Dim3 {
        Dim3::from_raw(arch::thread_idx())
    }
    /// `blockDim` (`%ntid`): the block's extent in threads.
    #[inline(always)]
    pub fn dim_threads(&self) -> Dim3 {
        Dim3::from_raw(arch::block_dim())
    }
    /// `blockDim` (CUDA's older name for [`dim_threads`](Self::dim_threads)).
    #[inline(always)]
    pub fn group_dim(&self) -> Dim3 {
        self.dim_threads()
    }
    /// `blockIdx` (`%ctaid`): the block's 3-D index in the grid.
    #[inline(always)]
    pub fn group_index(&self) -> Dim3 {
        Dim3::from_raw(arch::block_idx())
    }
    /// `__syncthreads()`: `bar.sync 0`.
    #[inline(always)]
    #[track_caller]
    pub fn sync(&self) {
        arch::sync_threads()
    }

    /// The block as a multi-warp shape.
    #[inline(always)]
    pub(crate) fn multi(&self) -> Multi {
        Multi {
            block_rank: self.rank,
            base: 0,
            n: self.size,
            bar: Bar::Block,
            max_warps: 32,
            warps_full: self.size & 31 == 0,
        }
    }
}

impl Sealed for ThreadBlock {
    #[inline(always)]
    fn shape(&self) -> Shape {
        Shape::Multi(self.multi())
    }
}

forward_thread_group!(ThreadBlock);
