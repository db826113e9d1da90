//! The Tensor Memory Accelerator's tile copies on the simulator (see
//! `cg_sim`'s tensor model); every primitive has the signature of its GPU
//! twin.

use cg_sim::lane;

use super::SharedAddr;
use crate::arch::TensorDesc;

fn tile(
    desc: &TensorDesc,
    bw: u32,
    bh: u32,
    elem: u32,
    swizzle: cg_isa::Swizzle,
) -> cg_sim::Tile2d {
    cg_sim::Tile2d {
        base: desc.base as usize,
        width: desc.width,
        height: desc.height,
        pitch: desc.pitch as usize,
        elem: elem as usize,
        bw,
        bh,
        swizzle,
    }
}

/// `prefetch.tensormap`: nothing to prefetch.
///
/// # Safety
/// As on the GPU.
#[inline]
pub unsafe fn tensormap_prefetch(_desc: &TensorDesc) {}

/// `mbarrier.arrive.expect_tx` and the tile load that completes it.
///
/// # Safety
/// As on the GPU (the simulator reports a destination still in flight).
#[track_caller]
#[inline]
#[allow(clippy::too_many_arguments)]
pub unsafe fn tensor_load_2d_arrive(
    bar: SharedAddr,
    dst: *mut u8,
    desc: &TensorDesc,
    x: i32,
    y: i32,
    bw: u32,
    bh: u32,
    elem: u32,
    swizzle: cg_isa::Swizzle,
) -> u64 {
    // SAFETY: forwarded from the caller.
    unsafe { lane::tile_load_arrive(dst, tile(desc, bw, bh, elem, swizzle), x, y, bar) }
}

/// The multicast tile load: the simulator's, to each block of `mask`.
///
/// # Safety
/// As on the GPU (the simulator reports an uninitialised destination
/// barrier or a destination still in flight).
#[track_caller]
#[inline]
#[allow(clippy::too_many_arguments)]
pub unsafe fn tensor_load_2d_multicast(
    bar: SharedAddr,
    dst: *mut u8,
    desc: &TensorDesc,
    x: i32,
    y: i32,
    mask: u16,
    bw: u32,
    bh: u32,
    elem: u32,
    swizzle: cg_isa::Swizzle,
) {
    // SAFETY: forwarded from the caller.
    unsafe { lane::tile_load_multicast(dst, tile(desc, bw, bh, elem, swizzle), x, y, bar, mask) }
}

/// The tile store, in this lane's open bulk group.
///
/// # Safety
/// As on the GPU (the simulator reports a source rewritten too early).
#[track_caller]
#[inline]
#[allow(clippy::too_many_arguments)]
pub unsafe fn tensor_store_2d(
    desc: &TensorDesc,
    x: i32,
    y: i32,
    src: *const u8,
    bw: u32,
    bh: u32,
    elem: u32,
    swizzle: cg_isa::Swizzle,
) {
    // SAFETY: forwarded from the caller.
    unsafe { lane::tile_store(tile(desc, bw, bh, elem, swizzle), x, y, src) }
}

/// The bulk store: the simulator's tile store of one row.
///
/// # Safety
/// As on the GPU (the simulator reports a source rewritten too early).
#[track_caller]
#[inline]
pub unsafe fn bulk_store(dst: *mut u8, src: *const u8, bytes: u32) {
    let row = cg_sim::Tile2d {
        base: dst as usize,
        width: bytes,
        height: 1,
        pitch: bytes as usize,
        elem: 1,
        bw: bytes,
        bh: 1,
        swizzle: cg_isa::Swizzle::None,
    };
    // SAFETY: forwarded from the caller.
    unsafe { lane::tile_store(row, 0, 0, src) }
}

/// `cp.async.bulk.commit_group`.
#[inline]
pub fn bulk_commit_group() {
    lane::bulk_commit()
}

/// `cp.async.bulk.wait_group.read 0`.
#[inline]
pub fn bulk_wait_group_read() {
    lane::bulk_wait()
}

/// `cp.async.bulk.wait_group 0`.
#[inline]
pub fn bulk_wait_group() {
    lane::bulk_wait()
}

/// `fence.proxy.async.shared::cta`: the simulator has one proxy.
#[inline]
pub fn fence_proxy_async_shared() {}
