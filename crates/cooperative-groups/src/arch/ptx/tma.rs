//! The Tensor Memory Accelerator (sm_90): tile copies (1 to 5 dimensions) between a tensor
//! in global memory, described by a tensor map, and shared memory
//! (`cp.async.bulk.tensor`), with the bulk-group and proxy fences that go
//! with them. Each primitive is one instruction.
//!
//! The tensor map is read in place in parameter space, as nvcc's
//! `__grid_constant__ CUtensorMap`; the swizzle and box the functions take
//! are the map's own (the simulator needs them, the GPU reads the map).

use core::arch::asm;

use super::SharedAddr;
use crate::arch::{BoxShape, TensorAt, TensorDesc};

/// `prefetch.tensormap [map]`: brings the tensor map into the copy
/// engine's cache ahead of its first use.
///
/// # Safety
/// `desc.map` must be the generic address of a 128-byte, 64-byte aligned
/// tensor map in parameter, constant or global memory.
#[inline(always)]
pub unsafe fn tensormap_prefetch(desc: &TensorDesc) {
    // SAFETY: the caller's contract; a prefetch touches no visible memory.
    unsafe { asm!("prefetch.tensormap [{0}];", in(reg64) desc.map, options(nostack)) };
}

/// The tile load of each rank: `$rank` the PTX shape (`"1d"` … `"5d"`),
/// `[$c0, …]` the coordinates' variables, each a named operand of its own
/// name in the template's coordinate list.
macro_rules! load_arrive {
    ($rank:literal, $state:ident, $bar:expr, $dst:expr, $map:expr, $bytes:expr,
     [$c0:ident $(, $c:ident)*]) => {
        asm!(
            "mbarrier.arrive.expect_tx.shared::cta.b64 {state}, [{bar}], {bytes};",
            concat!(
                "{{ .reg .u64 d; .reg .u32 d32; cvta.to.shared.u64 d, {dst}; cvt.u32.u64 d32, d; \
                 cp.async.bulk.tensor.", $rank, ".shared::cluster.global.tile.mbarrier::complete_tx::bytes \
                 [d32], [{map}, {{{", stringify!($c0), "}" $(, ", {", stringify!($c), "}")*,
                "}}], [{bar}]; }}"
            ),
            state = out(reg64) $state, bar = in(reg32) $bar, dst = in(reg64) $dst,
            map = in(reg64) $map, bytes = in(reg32) $bytes, $c0 = in(reg32) $c0,
            $($c = in(reg32) $c,)*
            options(nostack)
        )
    };
}

/// The tile store of each rank, as [`load_arrive`].
macro_rules! store {
    ($rank:literal, $map:expr, $src:expr, [$c0:ident $(, $c:ident)*]) => {
        asm!(
            concat!(
                "{{ .reg .u64 s; .reg .u32 s32; cvta.to.shared.u64 s, {src}; cvt.u32.u64 s32, s; \
                 cp.async.bulk.tensor.", $rank, ".global.shared::cta.tile.bulk_group \
                 [{map}, {{{", stringify!($c0), "}" $(, ", {", stringify!($c), "}")*,
                "}}], [s32]; }}"
            ),
            map = in(reg64) $map, src = in(reg64) $src, $c0 = in(reg32) $c0,
            $($c = in(reg32) $c,)*
            options(nostack)
        )
    };
}

/// One arrival on the mbarrier at `bar` expecting the box's bytes, then
/// the `R`-D tile copy (`R` 1 to 5) of the box at `at` (elements; the
/// coordinates past `R` unused) of the tensor map `desc` into this block's
/// shared `dst`, completing those bytes on the same barrier
/// (`cp.async.bulk.tensor.Rd.shared::cluster.global.tile.mbarrier::
/// complete_tx::bytes`). Elements outside the tensor land as zeros. The
/// token of the arrival's phase.
///
/// # Safety
/// `bar` must hold an initialised mbarrier whose phase expects this
/// arrival; `desc` as in [`tensormap_prefetch`], an `R`-D map whose box
/// and layout are `shape` (the GPU reads them from the map); `dst`
/// aligned to `shape.swizzle.align()`, a generic address of this block's
/// shared memory valid for the box, untouched until the phase completes.
#[inline(always)]
pub unsafe fn tensor_load_arrive<const R: u32>(
    bar: SharedAddr,
    dst: *mut u8,
    desc: &TensorDesc,
    at: TensorAt,
    shape: BoxShape,
) -> u64 {
    let bytes = shape.bytes();
    let (map, [x, y, z, w, v]) = (desc.map, at);
    let state: u64;
    // SAFETY: the caller's contract.
    unsafe {
        match R {
            1 => load_arrive!("1d", state, bar, dst, map, bytes, [x]),
            2 => load_arrive!("2d", state, bar, dst, map, bytes, [x, y]),
            3 => load_arrive!("3d", state, bar, dst, map, bytes, [x, y, z]),
            4 => load_arrive!("4d", state, bar, dst, map, bytes, [x, y, z, w]),
            _ => load_arrive!("5d", state, bar, dst, map, bytes, [x, y, z, w, v]),
        }
    };
    state
}

/// The 2-D tile copy of the box at `at` of `desc` into `dst`'s offset in
/// the shared memory of every block of the cluster whose rank is in
/// `mask`, completing the box's bytes on the mbarrier at `bar`'s offset in
/// each (`cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::
/// complete_tx::bytes.multicast::cluster`): one read, every block of the
/// mask served. No arrival.
///
/// # Safety
/// As [`tensor_load_arrive`] for every block of `mask` (running, its
/// barrier at `bar`'s offset initialised and its phase expecting the
/// box's bytes, its copy of `dst` untouched until the phase completes),
/// less the arrival.
#[inline(always)]
pub unsafe fn tensor_load_multicast(
    bar: SharedAddr,
    dst: *mut u8,
    desc: &TensorDesc,
    at: TensorAt,
    mask: u16,
    _shape: BoxShape,
) {
    // SAFETY: the caller's contract.
    unsafe {
        asm!(
            "{{ .reg .u64 d; .reg .u32 d32; cvta.to.shared.u64 d, {1}; cvt.u32.u64 d32, d; \
             cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster \
             [d32], [{2}, {{{3}, {4}}}], [{0}], {5}; }}",
            in(reg32) bar, in(reg64) dst, in(reg64) desc.map, in(reg32) at[0], in(reg32) at[1],
            in(reg16) mask,
            options(nostack)
        )
    };
}

/// The `R`-D tile store (`R` 1 to 5) of this block's shared `src` into the
/// box at `at` of the tensor map `desc` (`cp.async.bulk.tensor.Rd.
/// global.shared::cta.tile.bulk_group`; elements outside the tensor are
/// not written), in this thread's current bulk group.
///
/// # Safety
/// `desc` as in [`tensormap_prefetch`], an `R`-D map of writable memory
/// whose box and layout are `shape`; `src` a generic address of this
/// block's shared memory aligned to `shape.swizzle.align()` holding the
/// box, its generic-proxy writes fenced ([`fence_proxy_async_shared`])
/// and not written again until the group's reads complete.
#[inline(always)]
pub unsafe fn tensor_store<const R: u32>(
    desc: &TensorDesc,
    at: TensorAt,
    src: *const u8,
    _shape: BoxShape,
) {
    let (map, [x, y, z, w, v]) = (desc.map, at);
    // SAFETY: the caller's contract.
    unsafe {
        match R {
            1 => store!("1d", map, src, [x]),
            2 => store!("2d", map, src, [x, y]),
            3 => store!("3d", map, src, [x, y, z]),
            4 => store!("4d", map, src, [x, y, z, w]),
            _ => store!("5d", map, src, [x, y, z, w, v]),
        }
    };
}

/// The bulk store of `bytes` from this block's shared `src` to global
/// `dst` (`cp.async.bulk.global.shared::cta.bulk_group`), in this thread's
/// current bulk group.
///
/// # Safety
/// `src` a generic address of this block's shared memory and `dst` one of
/// global memory, both 16-byte aligned and valid for `bytes` (a multiple
/// of 16); `src`'s generic-proxy writes fenced and not written again until
/// the group's reads complete; nothing else accesses `dst` meanwhile.
#[inline(always)]
pub unsafe fn bulk_store(dst: *mut u8, src: *const u8, bytes: u32) {
    // SAFETY: the caller's contract.
    unsafe {
        asm!(
            "{{ .reg .u64 s, d; .reg .u32 s32; cvta.to.shared.u64 s, {1}; cvt.u32.u64 s32, s; \
             cvta.to.global.u64 d, {0}; \
             cp.async.bulk.global.shared::cta.bulk_group [d], [s32], {2}; }}",
            in(reg64) dst, in(reg64) src, in(reg32) bytes,
            options(nostack)
        )
    };
}

/// `cp.async.bulk.commit_group`: this thread's bulk stores issued since
/// the last commit become one group.
#[inline(always)]
pub fn bulk_commit_group() {
    // SAFETY: groups this thread's own bulk operations; no operands.
    unsafe { asm!("cp.async.bulk.commit_group;", options(nostack)) };
}

/// `cp.async.bulk.wait_group.read 0`: every bulk group of this thread has
/// finished reading its shared-memory sources.
#[inline(always)]
pub fn bulk_wait_group_read() {
    // SAFETY: waits on this thread's own bulk groups; no operands.
    unsafe { asm!("cp.async.bulk.wait_group.read 0;", options(nostack)) };
}

/// `cp.async.bulk.wait_group 0`: every bulk group of this thread is
/// complete (its writes to global memory performed).
#[inline(always)]
pub fn bulk_wait_group() {
    // SAFETY: waits on this thread's own bulk groups; no operands.
    unsafe { asm!("cp.async.bulk.wait_group 0;", options(nostack)) };
}

/// `fence.proxy.async.shared::cta`: this thread's earlier writes to shared
/// memory (generic proxy) are visible to bulk copies issued after a
/// barrier that follows (async proxy).
#[inline(always)]
pub fn fence_proxy_async_shared() {
    // SAFETY: a fence: no operands, no memory of its own.
    unsafe { asm!("fence.proxy.async.shared::cta;", options(nostack)) };
}
