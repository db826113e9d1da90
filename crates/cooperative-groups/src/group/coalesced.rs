//! [`CoalescedGroup`]: the threads of a warp that are active together
//! (`cg::coalesced_group`), from [`coalesced_threads`] and the partitions.

use super::forward_thread_group;
use super::sealed::Sealed;
use super::shape::{Coal, Shape};
use crate::arch;
use crate::collective::methods::{WarpGroup, common_collectives, warp_collectives};

/// A set of lanes of one warp (`cg::coalesced_group`): the lanes active at a
/// [`coalesced_threads`] call, or a part of a warp group made by
/// [`labeled_partition`](crate::labeled_partition),
/// [`binary_partition`](crate::binary_partition) or
/// [`tiled_partition_dyn`](crate::tiled_partition_dyn).
///
/// Ranks count the members below the caller's lane, so they are dense
/// (`0..num_threads()`) whatever the mask. Shuffles address members by rank
/// (`fns.b32` finds their lanes); ballots and matches return rank masks.
#[derive(Debug)]
pub struct CoalescedGroup {
    mask: u32,
    lane: u32,
    meta_rank: u32,
    meta_size: u32,
}

/// `cg::coalesced_threads()`: the lanes of the caller's warp that execute
/// this call together (`activemask.b32`).
///
/// Which lanes that is after divergence is up to the hardware's scheduler
/// (guide §4.4.3, footnote 1); the simulator models reconvergence at the
/// earliest source position.
#[inline(always)]
#[track_caller]
pub fn coalesced_threads() -> CoalescedGroup {
    let mask = arch::activemask();
    CoalescedGroup {
        mask,
        lane: arch::lane_id(),
        meta_rank: 0,
        meta_size: 1,
    }
}

impl CoalescedGroup {
    #[inline(always)]
    pub(crate) fn from_parts(mask: u32, lane: u32, meta_rank: u32, meta_size: u32) -> Self {
        CoalescedGroup {
            mask,
            lane,
            meta_rank,
            meta_size,
        }
    }

    #[inline(always)]
    pub(crate) fn coal(&self) -> Coal {
        Coal {
            mask: self.mask,
            lane: self.lane,
        }
    }

    /// The caller's rank: the number of members on lower lanes
    /// (`popc(mask & %lanemask_lt)`).
    #[inline(always)]
    pub fn thread_rank(&self) -> u32 {
        self.coal().rank()
    }
    /// Members: `popc(mask)`.
    #[inline(always)]
    pub fn num_threads(&self) -> u32 {
        self.mask.count_ones()
    }
    /// `num_threads()` (CUDA's older name).
    #[inline(always)]
    pub fn size(&self) -> u32 {
        self.num_threads()
    }
    /// The member lanes of the warp (warp-relative: bit `i` is lane `i`).
    #[inline(always)]
    pub fn lane_mask(&self) -> u32 {
        self.mask
    }
    /// The group's index among the groups its parent was split into: 0 for
    /// [`coalesced_threads`]; for [`labeled_partition`](crate::labeled_partition)
    /// the number of groups whose lowest lane is below this group's; for
    /// [`binary_partition`](crate::binary_partition) the predicate (0 when
    /// every member passed the same one).
    #[inline(always)]
    pub fn meta_group_rank(&self) -> u32 {
        self.meta_rank
    }
    /// The number of groups the parent was split into (1 for
    /// [`coalesced_threads`]).
    #[inline(always)]
    pub fn meta_group_size(&self) -> u32 {
        self.meta_size
    }
    /// `bar.warp.sync mask` over the members.
    #[inline(always)]
    #[track_caller]
    pub fn sync(&self) {
        arch::warp_sync(self.mask)
    }

    common_collectives!(pub);
    warp_collectives!(pub);
}

impl Sealed for CoalescedGroup {
    #[inline(always)]
    #[track_caller]
    fn shape(&self) -> Shape {
        Shape::Coal(self.coal())
    }
}

forward_thread_group!(CoalescedGroup);
impl WarpGroup for CoalescedGroup {}
