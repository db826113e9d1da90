//! The whole grid as a group (guide §4.4.8): `this_grid()`, and grid-wide
//! `sync()` under a cooperative launch.
//!
//! A grid barrier is only safe when every block of the grid is resident at
//! once, which `cuLaunchCooperativeKernel` guarantees; `cg-runtime` refuses a
//! cooperative grid larger than the occupancy calculator allows (before
//! launching), and the simulator reports `sync()` in a launch that is not
//! cooperative.
//!
//! # Grid collectives
//!
//! Beyond CUDA's `grid_group` (whose C++ Cooperative Groups offer no
//! grid-scope `reduce` or scan; CCCL's experimental `cudax` has a
//! grid-scope reduce), [`GridGroup::reduce`], [`GridGroup::inclusive_scan`]
//! and [`GridGroup::exclusive_scan`] combine one value per thread over the
//! whole grid, with every operator of [`ops`](crate::ops) and every
//! [`ShflValue`] the tile collectives take. Each is the block collective,
//! one value per block in a global scratch of the module (two halves of
//! 64 KiB, one per grid-barrier phase: 8192 blocks of 8-byte values, far
//! above the largest cooperative grid of today's GPUs; a larger grid traps),
//! **one** grid barrier, and a fold of the block values in a fixed order:
//! a float result is the same bits in every thread and every run of the
//! same launch shape (grid and block size), though not the bits of a
//! left-to-right sum over the threads.
//!
//! ```ignore
//! let grid = this_grid();
//! let total = grid.reduce(x, Plus);            // every thread of the grid
//! let offset = grid.exclusive_scan(count, Plus); // in grid.thread_rank() order
//! ```

use core::marker::PhantomData;

use crate::Dim3;
use crate::arch;
use crate::collective::grid::{reduce::grid_reduce, scan::grid_scan};
use crate::ops::ReduceOp;
use crate::value::ShflValue;

/// Proof that this thread arrived at the grid barrier
/// ([`GridGroup::barrier_arrive`]), consumed by [`GridGroup::barrier_wait`]:
/// not `Copy`, not `Clone`, `#[must_use]`; a block's or cluster's token
/// does not fit.
#[must_use = "an arrival token must be passed to barrier_wait"]
pub struct GridArrivalToken {
    /// Thread 0's view of the barrier word before its arrival.
    before: u32,
    _not_send: PhantomData<*const ()>,
}

/// The calling thread's grid (`cg::grid_group`). Not `Clone`.
pub struct GridGroup {
    _not_send: PhantomData<*const ()>,
}

/// `cg::this_grid()`.
#[inline(always)]
pub fn this_grid() -> GridGroup {
    GridGroup {
        _not_send: PhantomData,
    }
}

impl GridGroup {
    /// `grid.is_valid()`: whether the kernel was launched cooperatively, so
    /// that [`sync`](Self::sync) and the grid collectives may be used. On the
    /// GPU it tests the grid workspace the driver hands a cooperative launch
    /// (`%envreg1`/`%envreg2`, as CUDA's header does); on the simulator, the
    /// launch's `cooperative` flag.
    ///
    /// On a GPU, what the driver supplies decides, for NVIDIA's C++ and
    /// this library alike: once a CUDA context has run a cooperative
    /// launch, the driver (580, CUDA 13.0; measured on an H100) gives the
    /// context's later *plain* launches the grid workspace too, and this
    /// is true there; before that, false (the simulator: always the
    /// launch's flag). A plain launch is not co-resident by contract, so
    /// launch a kernel that syncs its grid cooperatively rather than
    /// guarding the sync with this (the crate docs' table of differences).
    #[inline(always)]
    pub fn is_valid(&self) -> bool {
        arch::grid_workspace_present()
    }

    /// Blocks in the grid.
    #[inline(always)]
    pub fn num_blocks(&self) -> u32 {
        Dim3::from_array(arch::grid_dim()).volume() as u32
    }

    /// This block's linear rank in the grid (x fastest).
    #[inline(always)]
    pub fn block_rank(&self) -> u32 {
        Dim3::from_array(arch::grid_dim()).linear(Dim3::from_array(arch::block_idx()))
    }

    /// `blockIdx`.
    #[inline(always)]
    pub fn block_index(&self) -> Dim3 {
        Dim3::from_array(arch::block_idx())
    }

    /// `gridDim`.
    #[inline(always)]
    pub fn dim_blocks(&self) -> Dim3 {
        Dim3::from_array(arch::grid_dim())
    }

    /// Threads in the grid (64-bit: grids can exceed 2³² threads).
    #[inline(always)]
    pub fn num_threads(&self) -> u64 {
        self.num_blocks() as u64 * Dim3::from_array(arch::block_dim()).volume()
    }

    /// The caller's rank among all threads of the grid.
    #[inline(always)]
    pub fn thread_rank(&self) -> u64 {
        let b = Dim3::from_array(arch::block_dim());
        self.block_rank() as u64 * b.volume()
            + b.linear(Dim3::from_array(arch::thread_idx())) as u64
    }

    /// Grid-wide barrier: every thread of every block arrives before any
    /// continues, and global-memory writes before it are visible to the whole
    /// grid after it. Requires a cooperative launch (see the module docs).
    ///
    /// Lowers to a block barrier, one release atomic add (`atom.add.release.gpu`) per block on a
    /// barrier word of the module and an acquire spin by thread 0 of each
    /// block, then a block barrier.
    ///
    /// # Panics
    /// Outside a cooperative launch the grid is not guaranteed to be
    /// co-resident: the GPU may hang, and the simulator fails the launch
    /// with a report naming this call.
    #[inline(always)]
    #[track_caller]
    pub fn sync(&self) {
        arch::grid_sync()
    }

    /// `grid.barrier_arrive()`: the first half of [`sync`](Self::sync) —
    /// the block barrier and the block's arrival (release atomic add by
    /// thread 0). Between arrive and wait a thread may do work that needs
    /// no other block's data; the token goes to
    /// [`barrier_wait`](Self::barrier_wait). Requires a cooperative launch.
    #[inline(always)]
    #[track_caller]
    pub fn barrier_arrive(&self) -> GridArrivalToken {
        GridArrivalToken {
            before: arch::grid_arrive(),
            _not_send: PhantomData,
        }
    }

    /// The reduction of every thread's `v` under `op` (`Plus`, `Less`,
    /// `Greater`, `BitAnd`, `BitOr`, `BitXor`, or a closure), returned to
    /// **every** thread of the grid. Requires a cooperative launch, and every
    /// thread of the grid must call it (it contains a grid barrier).
    ///
    /// Lowers to the block [`reduce`](crate::reduce) (warp `redux.sync` or
    /// shuffles, `st.shared`/`bar.sync`), one `st.global` of the block's
    /// total by thread 0 into the module's `cg_grid_scratch` (the half picked
    /// by one `ld.relaxed.gpu` of the barrier word), [`sync`](Self::sync)
    /// (`bar.sync`, `atom.add.release.gpu`, `ld.acquire.gpu` spin,
    /// `bar.sync`), `⌈blocks / blockDim⌉` `ld.global` per thread and a
    /// second block `reduce`.
    ///
    /// The block totals are folded in block-rank order, each thread a
    /// contiguous run, then the block's reduction of the runs: the order
    /// depends only on the grid and block sizes, so float results are
    /// reproducible from run to run and equal in every thread.
    ///
    /// # Panics
    /// On the simulator, when the launch is not cooperative (reported as a
    /// misuse of the grid barrier) or the grid has more blocks than the
    /// scratch holds values of `T` (`65536 / size_of::<T>()`); on the GPU
    /// the latter is a `trap`, and a non-cooperative launch is undefined
    /// (the barrier may never complete), as for [`sync`](Self::sync).
    #[inline(always)]
    #[track_caller]
    pub fn reduce<T: ShflValue, Op: ReduceOp<T>>(&self, v: T, op: Op) -> T {
        grid_reduce::<T, Op>(self.num_blocks(), self.block_rank(), v, op)
    }

    /// The thread of grid rank `r` ([`thread_rank`](Self::thread_rank))
    /// gets `v₀ ⊕ v₁ ⊕ … ⊕ v_r`. Requires a cooperative launch, and every
    /// thread of the grid must call it.
    ///
    /// Lowers to the block [`inclusive_scan`](fn@crate::inclusive_scan), one
    /// `st.global` of the block's total (its last thread's value) into the
    /// module's scratch, [`sync`](Self::sync), then in every block but the
    /// first `⌈rank / blockDim⌉` `ld.global` per thread, a block `reduce`
    /// of the lower blocks' totals and one application of `op`.
    ///
    /// The lower blocks' totals are folded in rank order as in
    /// [`reduce`](Self::reduce): reproducible float results.
    ///
    /// # Panics
    /// As [`reduce`](Self::reduce).
    #[inline(always)]
    #[track_caller]
    pub fn inclusive_scan<T: ShflValue, Op: ReduceOp<T>>(&self, v: T, op: Op) -> T {
        grid_scan::<T, Op, true>(self.num_blocks(), self.block_rank(), v, op)
    }

    /// The thread of grid rank `r > 0` gets `v₀ ⊕ … ⊕ v_{r-1}`; rank 0 gets
    /// [`ReduceOp::identity`]. Same requirements and lowering as
    /// [`inclusive_scan`](Self::inclusive_scan), with the block
    /// [`exclusive_scan`](fn@crate::exclusive_scan).
    ///
    /// # Panics
    /// As [`reduce`](Self::reduce).
    #[inline(always)]
    #[track_caller]
    pub fn exclusive_scan<T: ShflValue, Op: ReduceOp<T>>(&self, v: T, op: Op) -> T {
        grid_scan::<T, Op, false>(self.num_blocks(), self.block_rank(), v, op)
    }

    /// `grid.barrier_wait(token)`: the second half of
    /// [`sync`](Self::sync) — thread 0 waits for every block's arrival
    /// (acquire), then the block barrier. Afterwards the writes every
    /// thread of the grid made before its `barrier_arrive` are visible.
    ///
    /// # Panics
    /// Outside a cooperative launch the grid is not guaranteed to be
    /// co-resident: the GPU may hang, and the simulator fails the launch
    /// with a report naming this call.
    #[inline(always)]
    #[track_caller]
    pub fn barrier_wait(&self, token: GridArrivalToken) {
        arch::grid_wait(token.before)
    }
}

impl crate::group::group_counts::Sealed for GridGroup {}
impl crate::group::GroupCounts for GridGroup {
    type Count = u64;
    #[inline(always)]
    fn rank_in_group(&self) -> u64 {
        self.thread_rank()
    }
    #[inline(always)]
    fn threads_in_group(&self) -> u64 {
        self.num_threads()
    }
}
