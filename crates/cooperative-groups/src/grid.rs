//! The whole grid as a group (guide §4.4.8): `this_grid()`, and grid-wide
//! `sync()` under a cooperative launch.
//!
//! A grid barrier is only safe when every block of the grid is resident at
//! once, which `cuLaunchCooperativeKernel` guarantees; `cg-runtime` refuses a
//! cooperative grid larger than the occupancy calculator allows (before
//! launching), and the simulator reports `sync()` in a launch that is not
//! cooperative.

use core::marker::PhantomData;

use crate::arch;
use crate::dim::Dim3;

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
    /// Blocks in the grid.
    #[inline(always)]
    pub fn num_blocks(&self) -> u32 {
        Dim3::from_raw(arch::grid_dim()).volume() as u32
    }

    /// This block's linear rank in the grid (x fastest).
    #[inline(always)]
    pub fn block_rank(&self) -> u32 {
        Dim3::from_raw(arch::grid_dim()).linear(Dim3::from_raw(arch::block_idx()))
    }

    /// `blockIdx`.
    #[inline(always)]
    pub fn block_index(&self) -> Dim3 {
        Dim3::from_raw(arch::block_idx())
    }

    /// `gridDim`.
    #[inline(always)]
    pub fn dim_blocks(&self) -> Dim3 {
        Dim3::from_raw(arch::grid_dim())
    }

    /// Threads in the grid (64-bit: grids can exceed 2³² threads).
    #[inline(always)]
    pub fn num_threads(&self) -> u64 {
        self.num_blocks() as u64 * Dim3::from_raw(arch::block_dim()).volume()
    }

    /// The caller's rank among all threads of the grid.
    #[inline(always)]
    pub fn thread_rank(&self) -> u64 {
        let b = Dim3::from_raw(arch::block_dim());
        self.block_rank() as u64 * b.volume() + b.linear(Dim3::from_raw(arch::thread_idx())) as u64
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
