//! Group handles (guide §4.4.2–4.4.5): the implicit [`ThreadBlock`] and
//! [`CoalescedGroup`], and the partitions [`ThreadBlockTile`] (static),
//! [`DynamicTile`] (runtime size), [`labeled_partition`] and
//! [`binary_partition`].
//!
//! Every handle answers [`ThreadGroup`]'s accessors and `sync()` as inherent
//! methods (no import needed); the traits exist for code generic over
//! groups. Handles are not `Clone`: pass them by reference (guide §4.4.3.2).

pub(crate) mod barrier;
mod coalesced;
mod dynamic;
mod partition;
pub(crate) mod shape;
mod thread_block;
mod tile;

pub use coalesced::{CoalescedGroup, coalesced_threads};
pub use dynamic::{DynamicParent, DynamicTile, tiled_partition_dyn};
pub use partition::{binary_partition, labeled_partition};
pub use thread_block::{BlockArrivalToken, ThreadBlock, this_thread_block};
pub use tile::{
    MultiWarpTileSize, Size, StaticParent, ThreadBlockTile, TileSize, TiledParent, WarpTileSize,
    tiled_partition,
};

pub(crate) mod sealed {
    /// Seals the group traits, and gives the collectives a group's shape.
    pub trait Sealed {
        /// The group as the collectives see it.
        #[track_caller]
        fn shape(&self) -> super::shape::Shape;
    }
}

/// What every group answers: its size, the caller's rank, and a barrier.
///
/// Implemented by every group handle of this crate (sealed).
pub trait ThreadGroup: sealed::Sealed {
    /// The caller's rank in the group, `0..num_threads()`.
    fn thread_rank(&self) -> u32;
    /// The number of threads in the group.
    fn num_threads(&self) -> u32;
    /// `num_threads()` (CUDA's older name).
    #[inline(always)]
    fn size(&self) -> u32 {
        self.num_threads()
    }
    /// Waits until every thread of the group has arrived; memory accesses
    /// before it are visible to the group after it.
    fn sync(&self);
}

/// What CUDA's free functions `cg::thread_rank(g)`, `cg::num_threads(g)`
/// and `cg::group_size(g)` take: every group handle, the grid included
/// (whose counts are 64-bit, as `grid_group::thread_rank()`'s are).
pub trait GroupCounts: group_counts::Sealed {
    /// `u32` for the groups of a block or cluster, `u64` for the grid.
    type Count: Copy;
    /// The caller's rank in the group.
    fn rank_in_group(&self) -> Self::Count;
    /// The group's thread count.
    fn threads_in_group(&self) -> Self::Count;
}

/// The seal of [`GroupCounts`]: the grid and the cluster implement it
/// beside their types (`grid.rs`, `cluster.rs`), below which this module lies.
pub(crate) mod group_counts {
    pub trait Sealed {}
}

impl<G: ThreadGroup> group_counts::Sealed for G {}
impl<G: ThreadGroup> GroupCounts for G {
    type Count = u32;
    #[inline(always)]
    fn rank_in_group(&self) -> u32 {
        self.thread_rank()
    }
    #[inline(always)]
    fn threads_in_group(&self) -> u32 {
        self.num_threads()
    }
}
/// `cg::thread_rank(group)`: `group.thread_rank()`, for any group.
#[inline(always)]
pub fn thread_rank<G: GroupCounts>(group: &G) -> G::Count {
    group.rank_in_group()
}

/// `cg::num_threads(group)`: `group.num_threads()`, for any group.
#[inline(always)]
pub fn num_threads<G: GroupCounts>(group: &G) -> G::Count {
    group.threads_in_group()
}

/// `cg::group_size(group)`: CUDA's older name of [`num_threads`].
#[inline(always)]
pub fn group_size<G: GroupCounts>(group: &G) -> G::Count {
    group.threads_in_group()
}

/// `cg::sync(group)`: `group.sync()`.
#[inline(always)]
#[track_caller]
pub fn sync<G: ThreadGroup>(group: &G) {
    group.sync()
}

/// Implements `ThreadGroup` by forwarding to the type's inherent methods.
macro_rules! forward_thread_group {
    ($ty:ty) => {
        forward_thread_group!(impl[] $ty, where);
    };
    (impl[$($gen:tt)*] $ty:ty, where $($bound:tt)*) => {
        impl<$($gen)*> $crate::group::ThreadGroup for $ty where $($bound)* {
            #[inline(always)]
            fn thread_rank(&self) -> u32 {
                <$ty>::thread_rank(self)
            }
            #[inline(always)]
            fn num_threads(&self) -> u32 {
                <$ty>::num_threads(self)
            }
            #[inline(always)]
            #[track_caller]
            fn sync(&self) {
                <$ty>::sync(self)
            }
        }
    };
}
pub(crate) use forward_thread_group;

/// Stops the kernel for a violated contract: `trap` on the GPU, a panic with
/// the formatted message (and the caller's line) on the simulator.
pub(crate) use crate::arch::violation;
