//! The Tensor Memory Accelerator's tile copies on the simulator (see
//! `cg_sim`'s tensor model); every primitive has the signature of its GPU
//! twin.

use cg_sim::lane;

use super::SharedAddr;
use crate::arch::{BoxShape, TensorAt, TensorDesc};

fn tile(desc: &TensorDesc, shape: BoxShape) -> cg_sim::TensorBox {
    cg_sim::TensorBox {
        base: desc.base as usize,
        dims: desc.dims,
        strides: desc.strides.map(|s| s as usize),
        elem: shape.elem as usize,
        boxdim: shape.boxdim,
        swizzle: shape.swizzle,
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
pub unsafe fn tensor_load_arrive<const R: u32>(
    bar: SharedAddr,
    dst: *mut u8,
    desc: &TensorDesc,
    at: TensorAt,
    shape: BoxShape,
) -> u64 {
    // SAFETY: forwarded from the caller.
    unsafe { lane::tile_load_arrive(dst, tile(desc, shape), at, bar) }
}

/// The multicast tile load: the simulator's, to each block of `mask`.
///
/// # Safety
/// As on the GPU (the simulator reports an uninitialised destination
/// barrier or a destination still in flight).
#[track_caller]
#[inline]
pub unsafe fn tensor_load_multicast(
    bar: SharedAddr,
    dst: *mut u8,
    desc: &TensorDesc,
    at: TensorAt,
    mask: u16,
    shape: BoxShape,
) {
    // SAFETY: forwarded from the caller.
    unsafe { lane::tile_load_multicast(dst, tile(desc, shape), at, bar, mask) }
}

/// The tile store, in this lane's open bulk group.
///
/// # Safety
/// As on the GPU (the simulator reports a source rewritten too early).
#[track_caller]
#[inline]
pub unsafe fn tensor_store<const R: u32>(
    desc: &TensorDesc,
    at: TensorAt,
    src: *const u8,
    shape: BoxShape,
) {
    // SAFETY: forwarded from the caller.
    unsafe { lane::tile_store(tile(desc, shape), at, src) }
}

/// The bulk store: the simulator's tile store of one row.
///
/// # Safety
/// As on the GPU (the simulator reports a source rewritten too early).
#[track_caller]
#[inline]
pub unsafe fn bulk_store(dst: *mut u8, src: *const u8, bytes: u32) {
    let row = tile(
        &TensorDesc::of(dst as u64, &[bytes], &[], 1),
        BoxShape::of([bytes], 1, cg_isa::Swizzle::None),
    );
    // SAFETY: forwarded from the caller.
    unsafe { lane::tile_store(row, [0; 5], src) }
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
