//! The collectives as methods of the group handles: the macros that write
//! them into each handle's `impl` (inherent methods, so no trait needs
//! importing) and the [`WarpGroup`] trait for code generic over warp
//! groups. Here, above the collectives they call, rather than beside the
//! handles in `group`, which the collectives use.

use crate::group::ThreadGroup;

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
/// [`DynamicTile`](crate::DynamicTile)s and
/// [`CoalescedGroup`](crate::CoalescedGroup)s. Only these have the
/// lane-level collectives (`shfl_up`, `ballot`, `match_any`, …) and can be
/// split with [`labeled_partition`](crate::labeled_partition) and
/// [`binary_partition`](crate::binary_partition).
///
/// The handles have the same methods inherently; the trait is for code
/// generic over warp groups (sealed).
pub trait WarpGroup: ThreadGroup {
    common_collectives!();
    warp_collectives!();
}
