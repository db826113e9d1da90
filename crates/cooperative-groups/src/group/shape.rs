//! The three shapes every group reduces to, and which the collectives are
//! written against once:
//!
//! * [`Seg`]: an aligned run of lanes inside one warp (static tiles ≤ 32,
//!   dynamic tiles) — shuffles use the hardware's segment arithmetic;
//! * [`Coal`]: an arbitrary set of lanes of one warp (coalesced groups,
//!   labeled and binary partitions) — ranks are popcounts;
//! * [`Multi`]: whole warps of one block (tiles of 64–1024 threads, the
//!   block) — a warp step, then an exchange through shared memory.
//!
//! Each group type builds its shape in an `#[inline(always)]` method, so
//! after inlining the `match` on [`Shape`] in a collective is resolved at
//! compile time and only one algorithm remains in the PTX.

use crate::arch;

/// All 32 lanes.
pub(crate) const FULL: u32 = u32::MAX;

/// The lanes `base..base + n` of a warp, as a mask (`n` may be 32).
#[inline(always)]
pub(crate) const fn lane_range(base: u32, n: u32) -> u32 {
    let ones = if n >= 32 { FULL } else { (1u32 << n) - 1 };
    ones << base
}

/// The lanes below `lane` (`%lanemask_lt`).
#[inline(always)]
pub(crate) const fn lanes_below(lane: u32) -> u32 {
    (1u32 << lane) - 1
}

/// An aligned run of lanes of one warp: the `n` existing lanes of a logical
/// segment of `width` lanes (a power of two ≤ 32). `n < width` only for the
/// segment that hangs over the end of a partial last warp, or of a partial
/// parent.
#[derive(Clone, Copy, Debug)]
pub struct Seg {
    /// The segment's width: the tile size `N` (a compile-time constant for
    /// static tiles).
    pub width: u32,
    /// Existing members, `1..=width`.
    pub n: u32,
    /// The calling thread's lane in its warp.
    pub lane: u32,
    /// The `membermask` operand of the `.sync` instructions: the exact lanes,
    /// or all 32 for a 32-lane segment (an immediate `-1`, like hand-written
    /// code; lanes a partial warp lacks count as exited on the GPU and in
    /// the simulator).
    pub op_mask: u32,
    /// Every segment of this width in the block is full (`blockDim` is a
    /// multiple of `width`): then `n == width`. Computed from `%ntid` only,
    /// so the GPU sees a block-uniform condition (a uniform-datapath branch,
    /// no divergence handling) where the algorithms choose between the fast
    /// path and the one that is exact without the missing lanes.
    pub all_full: bool,
}

impl Seg {
    /// The whole warp of the calling lane, with `n` existing lanes
    /// (`all_full`: every warp of the block is full).
    #[inline(always)]
    pub(crate) const fn warp(lane: u32, n: u32, all_full: bool) -> Seg {
        Seg {
            width: 32,
            n,
            lane,
            op_mask: FULL,
            all_full,
        }
    }
    /// First lane of the segment.
    #[inline(always)]
    pub(crate) const fn base(&self) -> u32 {
        self.lane & !(self.width - 1)
    }
    /// The calling thread's rank in the segment.
    #[inline(always)]
    pub(crate) const fn rank(&self) -> u32 {
        self.lane & (self.width - 1)
    }
    /// The existing member lanes.
    #[inline(always)]
    pub(crate) const fn mask(&self) -> u32 {
        lane_range(self.base(), self.n)
    }
    /// Bits 8..12 of `shfl.sync`'s `c` operand: the segment mask.
    #[inline(always)]
    pub(crate) const fn seg_bits(&self) -> u32 {
        (32 - self.width) << 8
    }
    /// `c` for `idx`/`down`/`bfly` shuffles: clamp at the last existing
    /// member, so a source that does not exist yields the caller's own value.
    #[inline(always)]
    pub(crate) const fn clamp(&self) -> u32 {
        self.seg_bits() | (self.n - 1)
    }
    /// `c` of a full segment: a compile-time constant for static tiles.
    #[inline(always)]
    pub(crate) const fn full_clamp(&self) -> u32 {
        self.seg_bits() | 0x1f
    }
    /// All 32 lanes of the warp execute this instruction together, and the
    /// segment is narrower than the warp (one `activemask` and a compare;
    /// nothing for static 32-lane tiles, whose mask is the constant `-1`).
    ///
    /// Why it pays: ptxas wraps every run of `.sync` instructions whose
    /// `membermask` is not a compile-time constant in a convergence check
    /// (`MATCH.ANY` + `REDUX.OR` + `VOTEU.ANY` + a divergent branch). With
    /// the whole warp present the constant full mask is exact — see
    /// `collective::with_warp_mask!` — and the
    /// check is this one vote.
    #[inline(always)]
    #[track_caller]
    pub(crate) fn whole_warp_here(&self) -> bool {
        // The width test folds away for static tiles: no `activemask` at
        // all for a `ThreadBlockTile<32>`.
        self.width < 32 && arch::activemask() == FULL
    }
    /// The same segment, synchronising the whole warp (`membermask = -1`);
    /// call only when [`whole_warp_here`](Self::whole_warp_here) said so.
    /// The data a shuffle moves depends only on its `c` operand (segment
    /// bits and clamp), so results are unchanged.
    ///
    /// Starts with `bar.warp.sync -1`: after it ptxas knows the warp is
    /// converged and adds no divergence check (`UMOV` + `BRA.DIV`) of its
    /// own to the shuffles that follow; on a converged warp the
    /// `WARPSYNC.ALL` costs one issue slot.
    #[inline(always)]
    #[track_caller]
    pub(crate) fn with_whole_warp(self) -> Seg {
        arch::warp_sync(FULL);
        Seg {
            op_mask: FULL,
            ..self
        }
    }
    /// The same segment, synchronising the lanes of the warp that execute
    /// this call together: `membermask` is `activemask` read here (for
    /// segments narrower than the warp; a static 32-lane tile keeps its
    /// constant `-1`). For shuffles only, whose data depends on the `c`
    /// operand alone (the segment bits): every member of the segment is
    /// active, so the mask holds the segment, and the other lanes in it run
    /// the same shuffles (they were converged at the read, and the number
    /// of shuffles depends only on the width, uniform over the block as for
    /// [`with_warp_mask!`](crate::collective)), as `shfl.sync` requires of
    /// every lane of its mask.
    ///
    /// Why it pays: ptxas takes a mask produced by `activemask` as
    /// converged and wraps the shuffles in no convergence check (the
    /// `MATCH.ANY` + `REDUX.OR` + `VOTEU.ANY` + `BRA.DIV` a tile's own mask
    /// costs), and no branch is needed to choose between masks: one
    /// `VOTE.ANY` per call, which ptxas shares between the calls of an
    /// unrolled loop.
    ///
    /// On the simulator the mask stays the segment's own
    /// ([`arch::converged_mask`]): a member that skipped the call is then
    /// reported as a misuse, where the GPU would read its stale register.
    #[inline(always)]
    #[track_caller]
    pub(crate) fn with_active_lanes(self) -> Seg {
        if self.width < 32 {
            Seg {
                op_mask: arch::converged_mask(self.op_mask),
                ..self
            }
        } else {
            self
        }
    }
}

/// An arbitrary, non-empty set of lanes of one warp.
#[derive(Clone, Copy, Debug)]
pub struct Coal {
    /// The member lanes.
    pub mask: u32,
    /// The calling thread's lane.
    pub lane: u32,
}

impl Coal {
    /// Rank: members below the caller.
    #[inline(always)]
    pub(crate) const fn rank(&self) -> u32 {
        (self.mask & lanes_below(self.lane)).count_ones()
    }
    /// Number of members.
    #[inline(always)]
    pub(crate) const fn size(&self) -> u32 {
        self.mask.count_ones()
    }
    /// The lane of the member of rank `r < size()`.
    #[inline(always)]
    pub(crate) fn lane_of(&self, r: u32) -> u32 {
        arch::fns(self.mask, 0, r as i32 + 1)
    }
}

/// How a multi-warp group synchronises.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bar {
    /// The group is the whole block: `bar.sync 0`.
    Block,
    /// Hardware named barrier `id` (1..=15): `bar.sync id, 32 * warps`.
    Named(u32),
    /// Software barrier in shared memory, state slot `slot` (named barrier
    /// ids ran out; see `group::barrier`).
    Soft(u32),
}

/// Whole warps of one block: threads `base..base + n` (block ranks), `base`
/// a multiple of 32.
#[derive(Clone, Copy, Debug)]
pub struct Multi {
    /// The calling thread's linear rank in the block.
    pub block_rank: u32,
    /// Block rank of the group's first thread.
    pub base: u32,
    /// Existing threads of the group.
    pub n: u32,
    /// How the group synchronises.
    pub bar: Bar,
    /// The largest id [`Bar::Named`] can hold for this kind of group in the
    /// blocks the kernel declared, below which `sync` names the barrier as
    /// an immediate (15, the register form, unless the block is bounded to
    /// at most 256 threads; see `barrier::immediate_id_bound`).
    pub max_bar_id: u32,
    /// An upper bound on the group's warps, known at compile time for static
    /// tiles (`N / 32`), 32 for the block.
    pub max_warps: u32,
    /// Every warp of the block is full (`blockDim` is a multiple of 32; see
    /// [`Seg::all_full`]).
    pub warps_full: bool,
    /// The block's collective scratch (`arch::collective_scratch`), read
    /// where the group's handle is made.
    pub scratch: crate::arch::SharedAddr,
    /// The block's software-barrier state (`arch::soft_barrier_scratch`)
    /// for a group that may use it, else `arch::NO_SHARED`: read where the
    /// tile's handle was made, not at each sync.
    pub soft: crate::arch::SharedAddr,
}

impl Multi {
    /// The caller's rank in the group.
    #[inline(always)]
    pub(crate) const fn rank(&self) -> u32 {
        self.block_rank - self.base
    }
    /// The caller's lane.
    #[inline(always)]
    pub(crate) const fn lane(&self) -> u32 {
        self.block_rank & 31
    }
    /// Warps of the group (the last may be partial).
    #[inline(always)]
    pub(crate) const fn warps(&self) -> u32 {
        self.n.div_ceil(32)
    }
    /// The block-level index of the group's first warp.
    #[inline(always)]
    pub(crate) const fn first_warp(&self) -> u32 {
        self.base / 32
    }
    /// The caller's warp index inside the group.
    #[inline(always)]
    pub(crate) const fn warp_in_group(&self) -> u32 {
        self.rank() / 32
    }
    /// The caller's warp, as a segment of its existing lanes.
    #[inline(always)]
    pub(crate) const fn warp_seg(&self) -> Seg {
        let left = self.n - self.warp_in_group() * 32;
        Seg::warp(
            self.lane(),
            if left < 32 { left } else { 32 },
            self.warps_full,
        )
    }
}

/// A group, as the collectives see it.
#[derive(Clone, Copy, Debug)]
pub enum Shape {
    /// Aligned lanes of one warp.
    Seg(Seg),
    /// Arbitrary lanes of one warp.
    Coal(Coal),
    /// Whole warps of one block.
    Multi(Multi),
}
