//! CUDA's raw built-ins, for code that wants no group handle: thread
//! indices, `__shfl_*_sync`, `__ballot_sync`, `__activemask`, `__syncwarp`,
//! `__syncthreads`.
//!
//! Each function lowers to the one PTX instruction named in its docs. The
//! caller supplies masks by hand, exactly as in CUDA C++; the group types of
//! this crate compute them for you.

use crate::Dim3;
use crate::arch::{self, ShflMode};

/// `FULL_MASK`: all 32 lanes of a warp.
pub const FULL_MASK: u32 = 0xffff_ffff;

/// The number of threads in a warp.
pub const WARP_SIZE: u32 = 32;

/// `threadIdx` (`%tid`).
#[doc(alias = "threadIdx")]
#[inline(always)]
pub fn thread_idx() -> Dim3 {
    Dim3::from_array(arch::thread_idx())
}

/// `blockIdx` (`%ctaid`).
#[doc(alias = "blockIdx")]
#[inline(always)]
pub fn block_idx() -> Dim3 {
    Dim3::from_array(arch::block_idx())
}

/// `blockDim` (`%ntid`).
#[doc(alias = "blockDim")]
#[inline(always)]
pub fn block_dim() -> Dim3 {
    Dim3::from_array(arch::block_dim())
}

/// `gridDim` (`%nctaid`).
#[doc(alias = "gridDim")]
#[inline(always)]
pub fn grid_dim() -> Dim3 {
    Dim3::from_array(arch::grid_dim())
}

/// This thread's lane in its warp (`%laneid`).
#[doc(alias = "laneid")]
#[inline(always)]
pub fn lane_id() -> u32 {
    arch::lane_id()
}

/// A value that one `shfl.sync` moves: exactly one 32-bit register.
pub trait Word32: Copy {
    /// The value's bits.
    fn to_bits32(self) -> u32;
    /// The value back from its bits.
    fn from_bits32(bits: u32) -> Self;
}

impl Word32 for u32 {
    #[inline(always)]
    fn to_bits32(self) -> u32 {
        self
    }
    #[inline(always)]
    fn from_bits32(bits: u32) -> Self {
        bits
    }
}

impl Word32 for i32 {
    #[inline(always)]
    fn to_bits32(self) -> u32 {
        self as u32
    }
    #[inline(always)]
    fn from_bits32(bits: u32) -> Self {
        bits as i32
    }
}

impl Word32 for f32 {
    #[inline(always)]
    fn to_bits32(self) -> u32 {
        self.to_bits()
    }
    #[inline(always)]
    fn from_bits32(bits: u32) -> Self {
        f32::from_bits(bits)
    }
}

#[inline(always)]
#[track_caller]
fn shfl_word<T: Word32>(mode: ShflMode, mask: u32, v: T, b: u32, width: u32) -> T {
    debug_assert!(width.is_power_of_two() && width <= 32);
    T::from_bits32(arch::shfl(
        mode,
        mask,
        v.to_bits32(),
        b,
        arch::shfl_c(mode, width),
    ))
}

/// `__shfl_sync(mask, v, src, width)`: `shfl.sync.idx.b32`.
///
/// # Panics
/// On the simulator, the launch fails with a report naming this call when
/// `mask` does not contain the calling lane or a lane of `mask` has exited
/// (undefined behaviour on the GPU, where it may hang). With debug
/// assertions, panics if `width` is not a power of two ≤ 32.
#[doc(alias = "__shfl_sync")]
#[inline(always)]
#[track_caller]
pub fn shfl_sync<T: Word32>(mask: u32, v: T, src_lane: u32, width: u32) -> T {
    shfl_word(ShflMode::Idx, mask, v, src_lane, width)
}

/// `__shfl_up_sync(mask, v, delta, width)`: `shfl.sync.up.b32`.
///
/// # Panics
/// On the simulator, the launch fails with a report naming this call when
/// `mask` does not contain the calling lane or a lane of `mask` has exited
/// (undefined behaviour on the GPU, where it may hang). With debug
/// assertions, panics if `width` is not a power of two ≤ 32.
#[doc(alias = "__shfl_up_sync")]
#[inline(always)]
#[track_caller]
pub fn shfl_up_sync<T: Word32>(mask: u32, v: T, delta: u32, width: u32) -> T {
    shfl_word(ShflMode::Up, mask, v, delta, width)
}

/// `__shfl_down_sync(mask, v, delta, width)`: `shfl.sync.down.b32`.
///
/// # Panics
/// On the simulator, the launch fails with a report naming this call when
/// `mask` does not contain the calling lane or a lane of `mask` has exited
/// (undefined behaviour on the GPU, where it may hang). With debug
/// assertions, panics if `width` is not a power of two ≤ 32.
#[doc(alias = "__shfl_down_sync")]
#[inline(always)]
#[track_caller]
pub fn shfl_down_sync<T: Word32>(mask: u32, v: T, delta: u32, width: u32) -> T {
    shfl_word(ShflMode::Down, mask, v, delta, width)
}

/// `__shfl_xor_sync(mask, v, lane_mask, width)`: `shfl.sync.bfly.b32`.
///
/// # Panics
/// On the simulator, the launch fails with a report naming this call when
/// `mask` does not contain the calling lane or a lane of `mask` has exited
/// (undefined behaviour on the GPU, where it may hang). With debug
/// assertions, panics if `width` is not a power of two ≤ 32.
#[doc(alias = "__shfl_xor_sync")]
#[inline(always)]
#[track_caller]
pub fn shfl_xor_sync<T: Word32>(mask: u32, v: T, lane_mask: u32, width: u32) -> T {
    shfl_word(ShflMode::Bfly, mask, v, lane_mask, width)
}

/// `__ballot_sync(mask, pred)`: `vote.sync.ballot.b32`.
///
/// # Panics
/// On the simulator, the launch fails with a report naming this call when
/// `mask` does not contain the calling lane or a lane of `mask` has exited
/// (undefined behaviour on the GPU, where it may hang).
#[doc(alias = "__ballot_sync")]
#[inline(always)]
#[track_caller]
pub fn ballot_sync(mask: u32, pred: bool) -> u32 {
    arch::ballot(mask, pred)
}

/// `__any_sync(mask, pred)`: `vote.sync.any.pred`.
///
/// # Panics
/// On the simulator, the launch fails with a report naming this call when
/// `mask` does not contain the calling lane or a lane of `mask` has exited
/// (undefined behaviour on the GPU, where it may hang).
#[doc(alias = "__any_sync")]
#[inline(always)]
#[track_caller]
pub fn any_sync(mask: u32, pred: bool) -> bool {
    arch::vote_any(mask, pred)
}

/// `__all_sync(mask, pred)`: `vote.sync.all.pred`.
///
/// # Panics
/// On the simulator, the launch fails with a report naming this call when
/// `mask` does not contain the calling lane or a lane of `mask` has exited
/// (undefined behaviour on the GPU, where it may hang).
#[doc(alias = "__all_sync")]
#[inline(always)]
#[track_caller]
pub fn all_sync(mask: u32, pred: bool) -> bool {
    arch::vote_all(mask, pred)
}

/// `__activemask()`: `activemask.b32`.
#[doc(alias = "__activemask")]
#[inline(always)]
#[track_caller]
pub fn activemask() -> u32 {
    arch::activemask()
}

/// `__syncwarp(mask)`: `bar.warp.sync`.
///
/// # Panics
/// On the simulator, the launch fails with a report naming this call when
/// `mask` does not contain the calling lane or a lane of `mask` has exited
/// (undefined behaviour on the GPU, where it may hang).
#[doc(alias = "__syncwarp")]
#[inline(always)]
#[track_caller]
pub fn syncwarp(mask: u32) {
    arch::warp_sync(mask)
}

/// `__syncthreads()`: `bar.sync 0`.
#[doc(alias = "__syncthreads")]
#[inline(always)]
#[track_caller]
pub fn syncthreads() {
    arch::sync_threads()
}

/// `__match_any_sync(mask, v)`: `match.any.sync.b32`, the lanes of `mask`
/// holding the same value as this lane.
///
/// # Panics
/// On the simulator, the launch fails with a report naming this call when
/// `mask` does not contain the calling lane or a lane of `mask` has exited
/// (undefined behaviour on the GPU, where it may hang).
#[doc(alias = "__match_any_sync")]
#[inline(always)]
#[track_caller]
pub fn match_any_sync(mask: u32, v: u32) -> u32 {
    arch::match_any(mask, v as u64, false)
}

/// `__match_all_sync(mask, v, &pred)`: `match.all.sync.b32`; `(mask, true)`
/// when every lane of `mask` holds the same value, else `(0, false)`.
///
/// # Panics
/// On the simulator, the launch fails with a report naming this call when
/// `mask` does not contain the calling lane or a lane of `mask` has exited
/// (undefined behaviour on the GPU, where it may hang).
#[doc(alias = "__match_all_sync")]
#[inline(always)]
#[track_caller]
pub fn match_all_sync(mask: u32, v: u32) -> (u32, bool) {
    let m = arch::match_all(mask, v as u64, false);
    (m, m != 0)
}

/// Named barrier `bar.sync id, count`: waits until `count` threads (a
/// multiple of 32, whole warps) have arrived at barrier `id` (0–15).
/// Barrier 0 is `__syncthreads`; large tiles of this crate use 1–15.
///
/// # Panics
/// On the simulator, the launch fails with a report when `id` is not below
/// 16 or `count` is not a nonzero multiple of 32 no larger than the block
/// (undefined on the GPU).
#[doc(alias = "bar.sync")]
#[inline(always)]
#[track_caller]
pub fn named_barrier_sync(id: u32, count: u32) {
    arch::barrier_sync(id, count)
}

/// `bar.arrive id, count`: signals arrival at named barrier `id` without
/// waiting (the producer side of a producer/consumer pair).
///
/// # Panics
/// As [`named_barrier_sync`].
#[doc(alias = "bar.arrive")]
#[inline(always)]
#[track_caller]
pub fn named_barrier_arrive(id: u32, count: u32) {
    arch::barrier_arrive(id, count)
}

/// `clock64()`: the SM's cycle counter (`%clock64`), for timing a region
/// of a kernel in cycles. Each SM counts on its own: compare only two reads
/// of the same thread. On the simulator a counter that each read advances.
#[doc(alias = "clock")]
#[inline(always)]
pub fn clock64() -> u64 {
    arch::clock64()
}
