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

mod group_counts {
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
impl group_counts::Sealed for crate::GridGroup {}
impl GroupCounts for crate::GridGroup {
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
impl group_counts::Sealed for crate::ClusterGroup {}
impl GroupCounts for crate::ClusterGroup {
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

/// The collectives every warp group has, as inherent methods.
macro_rules! warp_collectives {
    ($($vis:tt)*) => {
        /// `shfl_up(v, delta)`: the value of the member `delta` ranks below;
        /// members of rank `< delta` get their own `v`.
        ///
        /// Lowers to one `shfl.sync.up.b32` per 32-bit word of `T` (tiles),
        /// or `fns.b32` + `shfl.sync.idx.b32` (coalesced groups).
        #[doc(alias = "__shfl_up_sync")]
        #[inline(always)]
        #[track_caller]
        $($vis)* fn shfl_up<T: $crate::ShflValue>(&self, v: T, delta: u32) -> T {
            $crate::collective::shuffle::shfl_up($crate::group::sealed::Sealed::shape(self), v, delta)
        }

        /// `shfl_down(v, delta)`: the value of the member `delta` ranks
        /// above; members whose source does not exist get their own `v`.
        ///
        /// Lowers to one `shfl.sync.down.b32` per 32-bit word (tiles), or
        /// `fns.b32` + `shfl.sync.idx.b32` (coalesced groups).
        #[doc(alias = "__shfl_down_sync")]
        #[inline(always)]
        #[track_caller]
        $($vis)* fn shfl_down<T: $crate::ShflValue>(&self, v: T, delta: u32) -> T {
            $crate::collective::shuffle::shfl_down($crate::group::sealed::Sealed::shape(self), v, delta)
        }

        /// `shfl_xor(v, lane_mask)`: the value of the member of rank
        /// `thread_rank() ^ lane_mask` (own `v` if it does not exist; for
        /// tiles `lane_mask` is taken modulo the tile size).
        ///
        /// Lowers to one `shfl.sync.bfly.b32` per 32-bit word (tiles).
        #[doc(alias = "__shfl_xor_sync")]
        #[inline(always)]
        #[track_caller]
        $($vis)* fn shfl_xor<T: $crate::ShflValue>(&self, v: T, lane_mask: u32) -> T {
            $crate::collective::shuffle::shfl_xor($crate::group::sealed::Sealed::shape(self), v, lane_mask)
        }

        /// `ballot(pred)`: bit `r` is set when the member of rank `r` passed
        /// `true` (group-relative, unlike `__ballot_sync`).
        ///
        /// Lowers to `vote.sync.ballot.b32` (+ a shift for tiles, a bit
        /// compaction for coalesced groups).
        #[doc(alias = "__ballot_sync")]
        #[inline(always)]
        #[track_caller]
        $($vis)* fn ballot(&self, pred: bool) -> u32 {
            $crate::collective::vote::ballot($crate::group::sealed::Sealed::shape(self), pred)
        }

        /// `match_any(v)`: the ranks of the members that passed the same `v`
        /// as the caller (group-relative).
        ///
        /// Lowers to `match.any.sync.b32` (`.b64` for 64-bit values).
        #[doc(alias = "__match_any_sync")]
        #[inline(always)]
        #[track_caller]
        $($vis)* fn match_any<V: $crate::MatchValue>(&self, v: V) -> u32 {
            $crate::collective::match_::match_any($crate::group::sealed::Sealed::shape(self), v)
        }

        /// `match_any` of a small label: the ranks of the members whose
        /// `label` has the same low `BITS` bits as the caller's (the higher
        /// bits are ignored). CUB's `MatchAny<LABEL_BITS>`; CUDA C++ has no
        /// group method for it.
        ///
        /// Lowers to `BITS + 1` `vote.sync.ballot.b32`, which issue on the
        /// ALU pipes: `match.any.sync` is a multi-pass instruction of the
        /// shared-memory (MIO) pipe, and a loop that matches many labels
        /// (ranking radix digits) saturates that pipe. For labels of up to
        /// about 8 bits in such loops this form is the faster one; a lone
        /// `match_any` stays cheaper. The simulator runs it as one
        /// `match_any` of the low bits (the same mask). `BITS` is 1 to 32
        /// (a build of the kernel fails otherwise).
        #[inline(always)]
        #[track_caller]
        $($vis)* fn match_any_bits<const BITS: u32>(&self, label: u32) -> u32 {
            $crate::collective::match_::match_any_bits::<BITS>($crate::group::sealed::Sealed::shape(self), label)
        }

        /// `match_all(v)`: `Some(mask of all ranks)` when every member passed
        /// the same `v`, `None` otherwise (CUDA returns the mask and sets a
        /// predicate).
        ///
        /// Lowers to `match.all.sync.b32` (`.b64` for 64-bit values).
        #[doc(alias = "__match_all_sync")]
        #[inline(always)]
        #[track_caller]
        $($vis)* fn match_all<V: $crate::MatchValue>(&self, v: V) -> Option<u32> {
            $crate::collective::match_::match_all($crate::group::sealed::Sealed::shape(self), v)
        }
    };
}
pub(crate) use warp_collectives;

/// `shfl`, `any`, `all`: on every tile (multi-warp ones included) and
/// coalesced group, as inherent methods.
macro_rules! common_collectives {
    ($($vis:tt)*) => {
        /// `shfl(v, src)`: the value of the member of rank `src` (taken
        /// modulo the tile size for tiles; own `v` if that member does not
        /// exist).
        ///
        /// Within a warp it lowers to one `shfl.sync.idx.b32` per 32-bit word
        /// (`fns.b32` first for coalesced groups). On a multi-warp tile it is
        /// a broadcast — `src` must be the same for the whole tile — through
        /// shared memory: `st.shared` by the source, `bar.sync`, `ld.shared`,
        /// `bar.sync`.
        ///
        /// # Panics
        /// On a multi-warp tile, a `src` that is not the same in every thread
        /// fails the simulator's launch with a report (undefined on the GPU).
        #[doc(alias = "__shfl_sync")]
        #[inline(always)]
        #[track_caller]
        $($vis)* fn shfl<T: $crate::ShflValue>(&self, v: T, src: u32) -> T {
            $crate::collective::shuffle::shfl($crate::group::sealed::Sealed::shape(self), v, src)
        }

        /// `any(pred)`: whether some member passed `true`.
        ///
        /// Lowers to `vote.sync.any.pred`; on a multi-warp tile, one vote per
        /// warp through shared memory between two `bar.sync`.
        #[doc(alias = "__any_sync")]
        #[inline(always)]
        #[track_caller]
        $($vis)* fn any(&self, pred: bool) -> bool {
            $crate::collective::vote::any($crate::group::sealed::Sealed::shape(self), pred)
        }

        /// `all(pred)`: whether every member passed `true`.
        ///
        /// Lowers to `vote.sync.all.pred`; on a multi-warp tile, one vote per
        /// warp through shared memory between two `bar.sync`.
        #[doc(alias = "__all_sync")]
        #[inline(always)]
        #[track_caller]
        $($vis)* fn all(&self, pred: bool) -> bool {
            $crate::collective::vote::all($crate::group::sealed::Sealed::shape(self), pred)
        }
    };
}
pub(crate) use common_collectives;

/// A group that lives inside one warp: tiles of at most 32 threads,
/// [`DynamicTile`]s and [`CoalescedGroup`]s. Only these have the lane-level
/// collectives (`shfl_up`, `ballot`, `match_any`, …) and can be split with
/// [`labeled_partition`] and [`binary_partition`].
///
/// The handles have the same methods inherently; the trait is for code
/// generic over warp groups (sealed).
pub trait WarpGroup: ThreadGroup {
    common_collectives!();
    warp_collectives!();
}

/// Stops the kernel for a violated contract: `trap` on the GPU, a panic with
/// the formatted message (and the caller's line) on the simulator.
pub(crate) use crate::arch::violation;
