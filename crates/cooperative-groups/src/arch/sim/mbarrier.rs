//! `mbarrier` objects on the simulator: the object's state lives in
//! `cg-sim` beside the block's shared memory (see `cg_sim`'s mbarrier
//! model); every primitive has the signature of its GPU twin.

use cg_sim::lane;

use super::SharedAddr;

/// `mbarrier.init`.
///
/// # Safety
/// As on the GPU (the simulator reports a bad address or count).
#[track_caller]
#[inline]
pub unsafe fn mbarrier_init(addr: SharedAddr, count: u32) {
    lane::mbarrier_init(addr, count)
}

/// `fence.mbarrier_init`: nothing to do on the simulator, whose copies
/// see a barrier's state as soon as the block barrier after its
/// initialisation orders them.
#[inline]
pub fn mbarrier_init_fence() {}

/// `mbarrier.arrive`.
///
/// # Safety
/// As on the GPU (the simulator reports what breaks it).
#[track_caller]
#[inline]
pub unsafe fn mbarrier_arrive(addr: SharedAddr) -> u64 {
    lane::mbarrier_arrive(addr, 1, 0, false)
}

/// `mbarrier.arrive_drop`.
///
/// # Safety
/// As on the GPU.
#[track_caller]
#[inline]
pub unsafe fn mbarrier_arrive_drop(addr: SharedAddr) -> u64 {
    lane::mbarrier_arrive(addr, 1, 0, true)
}

/// `mbarrier.test_wait`.
///
/// # Safety
/// As on the GPU.
#[track_caller]
#[inline]
pub unsafe fn mbarrier_test_wait(addr: SharedAddr, state: u64) -> bool {
    lane::mbarrier_test_wait(addr, state, false)
}

/// `mbarrier.test_wait.parity`.
///
/// # Safety
/// As on the GPU.
#[track_caller]
#[inline]
pub unsafe fn mbarrier_test_wait_parity(addr: SharedAddr, parity: u32) -> bool {
    lane::mbarrier_test_wait(addr, parity as u64, true)
}

/// The blocking wait on a token.
///
/// # Safety
/// As on the GPU.
#[track_caller]
#[inline]
pub unsafe fn mbarrier_wait(addr: SharedAddr, state: u64) {
    lane::mbarrier_wait(addr, state, false)
}

/// The blocking wait on a parity.
///
/// # Safety
/// As on the GPU.
#[track_caller]
#[inline]
pub unsafe fn mbarrier_wait_parity(addr: SharedAddr, parity: u32) {
    lane::mbarrier_wait(addr, parity as u64, true)
}

/// `mbarrier.arrive` with a count.
///
/// # Safety
/// As on the GPU.
#[track_caller]
#[inline]
pub unsafe fn mbarrier_arrive_count(addr: SharedAddr, count: u32) -> u64 {
    lane::mbarrier_arrive(addr, count, 0, false)
}

/// `mbarrier.arrive.expect_tx`.
///
/// # Safety
/// As on the GPU.
#[track_caller]
#[inline]
pub unsafe fn mbarrier_arrive_expect_tx(addr: SharedAddr, bytes: u32) -> u64 {
    lane::mbarrier_arrive(addr, 1, bytes, false)
}

/// `mbarrier.expect_tx`.
///
/// # Safety
/// As on the GPU.
#[track_caller]
#[inline]
pub unsafe fn mbarrier_expect_tx(addr: SharedAddr, bytes: u32) {
    lane::mbarrier_tx(addr, bytes as i64)
}

/// `mbarrier.complete_tx`.
///
/// # Safety
/// As on the GPU.
#[track_caller]
#[inline]
pub unsafe fn mbarrier_complete_tx(addr: SharedAddr, bytes: u32) {
    lane::mbarrier_tx(addr, -(bytes as i64))
}

/// `mbarrier.arrive.expect_tx` and the bulk copy that completes it.
///
/// # Safety
/// As on the GPU (the simulator reports a destination still in flight).
#[track_caller]
#[inline]
pub unsafe fn mbarrier_arrive_bulk_copy(
    bar: SharedAddr,
    dst: *mut u8,
    src: *const u8,
    bytes: u32,
) -> u64 {
    // SAFETY: forwarded from the caller.
    unsafe { lane::bulk_copy_arrive(dst, src, bytes as usize, bar) }
}

/// The multicast bulk copy: the simulator's, to each block of `mask`.
///
/// # Safety
/// As on the GPU (the simulator reports an uninitialised destination
/// barrier or a destination still in flight).
#[track_caller]
#[inline]
pub unsafe fn bulk_copy_multicast(
    bar: SharedAddr,
    dst: *mut u8,
    src: *const u8,
    bytes: u32,
    mask: u16,
) {
    // SAFETY: forwarded from the caller.
    unsafe { lane::bulk_copy_multicast(dst, src, bytes as usize, bar, mask) }
}

/// One arrival on the mbarrier at `addr`'s offset in block `rank` of the
/// cluster.
///
/// # Safety
/// As on the GPU (the simulator reports a rank outside the cluster, a
/// block that has exited, and an uninitialised barrier).
#[track_caller]
#[inline]
pub unsafe fn mbarrier_arrive_remote(addr: SharedAddr, rank: u32) {
    let peer = lane::cluster_map_shared(addr, rank);
    lane::mbarrier_arrive(peer, 1, 0, false);
}
