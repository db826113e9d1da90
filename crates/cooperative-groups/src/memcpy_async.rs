//! Asynchronous copies from global to shared memory (guide §4.4.7):
//! [`memcpy_async`], [`memcpy_async_bytes`], [`wait`], [`wait_prior`].
//!
//! A group copies a contiguous run of elements (or bytes) into shared
//! memory: every member issues its share, then commits it as one *stage*;
//! the data may be read only after [`wait`] (every stage) or
//! [`wait_prior::<N>`](wait_prior) (all but the newest `N` stages), which
//! wait for the caller's own copies and then sync the group, as CUDA's
//! `cg::wait` / `cg::wait_prior`. Every member of the group must call
//! them.
//!
//! ```
//! # use cooperative_groups::{prelude::*, dynamic_shared, memcpy_async, wait, wait_prior};
//! # let input: Vec<f32> = (0..2048).map(|i| i as f32).collect();
//! # let dev = cg_sim::SimDevice { stack_size: 4 << 20, ..Default::default() };
//! # let cfg = cg_sim::LaunchConfig::new(1, 128).with_dynamic_smem(2048 * 4);
//! # cg_sim::launch_on(&dev, &cfg, &|| {
//! let block = this_thread_block();
//! let buf = dynamic_shared::<f32>();
//! memcpy_async(&block, buf.slice(0, 1024), &input[..1024]);         // stage 0
//! memcpy_async(&block, buf.slice(1024, 1024), &input[1024..2048]); // stage 1
//! wait_prior::<1>(&block);  // stage 0 has landed, stage 1 may be in flight
//! let x = buf.load(block.thread_rank() as usize);
//! # assert_eq!(x, block.thread_rank() as f32);
//! # wait(&block);
//! # }).unwrap();
//! ```
//!
//! ## What it lowers to
//!
//! Members take 16-, 8- or 4-byte *segments* in turn (rank `r` copies
//! segments `r`, `r + size`, …, so a warp's copies are contiguous):
//!
//! | case | sm_80+ | sm_70 |
//! |---|---|---|
//! | `align_of::<T>() >= 16` (known when the kernel is compiled) | `cp.async.cg.shared.global` 16 bytes per segment, no run-time test | `ld.global.v4` + `st.shared.v4` |
//! | other `T`, both addresses 16-aligned (run-time test, a few integer instructions per call) | the same | the same |
//! | other `T`, addresses 8- or 4-aligned relative to each other | `cp.async.ca` of 8 or 4 bytes; the unaligned head and the tail are copied synchronously byte by byte | `ld` + `st` of 8 or 4 bytes |
//! | addresses not even 4-aligned relative to each other, or a source outside global memory (`isspacep.global`) | synchronous byte copy (correct, slow) | synchronous byte copy |
//! | commit, after every call | `cp.async.commit_group` | nothing |
//! | [`wait`] / [`wait_prior::<N>`](wait_prior) | `cp.async.wait_group 0` / `N`, then the group's `sync` | the group's `sync` |
//!
//! The element forms copy `min(dst.len(), src.len())` elements, as CUDA's
//! `memcpy_async(group, dst, dstCount, src, srcCount)`. The bulk copy
//! engine of sm_90 (`cp.async.bulk` + `mbarrier`) is not used.
//!
//! ## On the simulator
//!
//! The destination is filled with [`cg_sim::POISON`](https://docs.rs/cg-sim)
//! when the copy is issued and receives the data only when the copying
//! thread waits. Reading or writing it through [`SharedArray`](crate::SharedArray),
//! [`DynamicShared`](crate::DynamicShared) or [`SharedSlice`] before that,
//! copying into it again, or a thread exiting with copies it never waited
//! for, is reported as a misuse with the source line. The race detector
//! sees each copy as a weak read of the source and a weak write of the
//! destination by the issuing thread, checked when the copy is issued and
//! again at the wait that delivers it: another thread (a member of a
//! group other than the one that waited, or any thread before that
//! group's sync) reading the destination, or writing the source while the
//! copy may still read it, is a data race (see `tests/memcpy_async.rs`).

use core::mem::{MaybeUninit, align_of, size_of};

use crate::arch;
use crate::group::violation;
use crate::group::{
    CoalescedGroup, DynamicTile, Size, ThreadBlock, ThreadBlockTile, ThreadGroup, TileSize,
};
use crate::pod::Pod;
use crate::shared::SharedSlice;

mod sealed {
    pub trait Sealed {}
}

/// The groups that can copy asynchronously: the thread block, its tiles
/// (static and dynamic) and coalesced groups — groups of one block, whose
/// shared memory is the destination (sealed).
pub trait AsyncCopyGroup: ThreadGroup + sealed::Sealed {}

impl<const M: u32> sealed::Sealed for ThreadBlock<M> {}
impl<const M: u32> AsyncCopyGroup for ThreadBlock<M> {}
impl<const N: u32> sealed::Sealed for ThreadBlockTile<N> where Size<N>: TileSize {}
impl<const N: u32> AsyncCopyGroup for ThreadBlockTile<N> where Size<N>: TileSize {}
impl sealed::Sealed for DynamicTile {}
impl AsyncCopyGroup for DynamicTile {}
impl sealed::Sealed for CoalescedGroup {}
impl AsyncCopyGroup for CoalescedGroup {}

/// `cg::memcpy_async(group, dst, dstCount, src, srcCount)`: the group
/// copies `min(dst.len(), src.len())` elements from `src` (global memory)
/// to `dst` (shared memory) as one stage. Every member must call it with
/// the same arguments. The data is visible after [`wait`] or
/// [`wait_prior`]. See the [module](self) for what it lowers to.
#[inline(always)]
#[track_caller]
pub fn memcpy_async<G: AsyncCopyGroup, T: Pod>(group: &G, dst: SharedSlice<T>, src: &[T]) {
    arch::sim_only! {
        if !dst.own(DESTINATION) {
            return;
        }
    }
    let n = dst.len().min(src.len());
    copy::<G, T>(
        group,
        dst.as_ptr().cast(),
        src.as_ptr().cast(),
        n * size_of::<T>(),
    );
    arch::cp_async_commit();
}

/// `cg::memcpy_async(group, dst, src, bytes)`: the group copies the first
/// `bytes` bytes of `src` to `dst` as one stage.
///
/// # Panics
/// `bytes` larger than either side is a contract violation (`trap` on the
/// GPU, a panic on the simulator).
#[inline(always)]
#[track_caller]
pub fn memcpy_async_bytes<G: AsyncCopyGroup, T: Pod>(
    group: &G,
    dst: SharedSlice<T>,
    src: &[T],
    bytes: usize,
) {
    let max = dst.len().min(src.len()) * size_of::<T>();
    if bytes > max {
        violation!("memcpy_async_bytes: {bytes} bytes do not fit (the smaller side has {max})");
    }
    arch::sim_only! {
        if !dst.own(DESTINATION) {
            return;
        }
    }
    copy::<G, T>(group, dst.as_ptr().cast(), src.as_ptr().cast(), bytes);
    arch::cp_async_commit();
}

arch::sim_only! {
    /// What the simulator's report of a destination that is not the calling
    /// block's shared memory (another block's, or one that ended) calls it.
    const DESTINATION: &str = "memcpy_async destination";
}

/// `cg::wait(group)`: waits until every stage the caller committed has
/// landed, then syncs the group (`cp.async.wait_group 0` + `sync`).
#[inline(always)]
#[track_caller]
pub fn wait<G: AsyncCopyGroup>(group: &G) {
    arch::cp_async_wait::<0>();
    group.sync();
}

/// `cg::wait_prior<N>(group)`: waits until every stage the caller
/// committed but the newest `N` has landed, then syncs the group
/// (`cp.async.wait_group N` + `sync`). `N = 0` is [`wait`].
#[inline(always)]
#[track_caller]
pub fn wait_prior<const N: u32>(group: &impl AsyncCopyGroup) {
    arch::cp_async_wait::<N>();
    group.sync();
}

/// Copies `bytes` bytes, the caller's share of the group's copy.
#[inline(always)]
#[track_caller]
fn copy<G: ThreadGroup, T>(group: &G, dst: *mut u8, src: *const u8, bytes: usize) {
    let rank = group.thread_rank() as usize;
    let stride = group.num_threads() as usize;
    if align_of::<T>() >= 16 {
        // Both sides are T-aligned, and T's size is a multiple of 16.
        let body = bytes & !15;
        // SAFETY: `dst` and `src` are 16-aligned (T's alignment) and valid
        // for `bytes` bytes (the callers' slices); the tail is byte-wise.
        unsafe {
            segments::<16>(rank, stride, dst, src, body);
            copy_sync(rank, stride, dst.add(body), src.add(body), bytes - body);
        }
        return;
    }
    if !arch::is_global(src) {
        // SAFETY: both valid for `bytes` bytes.
        unsafe { copy_sync(rank, stride, dst, src, bytes) };
        return;
    }
    // The widest segment both addresses can share: the lowest bit in which
    // they differ (16 if none below 16).
    let diff = (dst as usize ^ src as usize) & 15;
    let align = if diff == 0 {
        16
    } else {
        1 << diff.trailing_zeros()
    };
    let head = ((align - (src as usize & (align - 1))) & (align - 1)).min(bytes);
    if align < 4 || bytes - head < align {
        // SAFETY: both valid for `bytes` bytes.
        unsafe { copy_sync(rank, stride, dst, src, bytes) };
        return;
    }
    let body = (bytes - head) & !(align - 1);
    // SAFETY: after `head` bytes both addresses are `align`-aligned; every
    // range lies inside the `bytes` both are valid for.
    unsafe {
        copy_sync(rank, stride, dst, src, head);
        let (d, s) = (dst.add(head), src.add(head));
        match align {
            16 => segments::<16>(rank, stride, d, s, body),
            8 => segments::<8>(rank, stride, d, s, body),
            _ => segments::<4>(rank, stride, d, s, body),
        }
        let done = head + body;
        copy_sync(rank, stride, dst.add(done), src.add(done), bytes - done);
    }
}

/// The caller's `SIZE`-byte segments of `bytes` (a multiple of `SIZE`):
/// `rank`, `rank + stride`, …
///
/// # Safety
/// `dst` (shared) and `src` (global) `SIZE`-aligned and valid for `bytes`.
#[inline(always)]
#[track_caller]
unsafe fn segments<const SIZE: u32>(
    rank: usize,
    stride: usize,
    dst: *mut u8,
    src: *const u8,
    bytes: usize,
) {
    let n = bytes / SIZE as usize;
    let mut i = rank;
    while i < n {
        let off = i * SIZE as usize;
        // SAFETY: segment `i < n` lies inside both ranges, SIZE-aligned.
        unsafe { arch::cp_async::<SIZE>(dst.add(off), src.add(off)) };
        i += stride;
    }
}

/// The caller's bytes of a synchronous copy: `rank`, `rank + stride`, …
/// (as `MaybeUninit<u8>`: a `Pod` type's padding is copied, never read as
/// a value).
///
/// # Safety
/// Both valid for `bytes` bytes.
#[inline(always)]
#[track_caller]
unsafe fn copy_sync(rank: usize, stride: usize, dst: *mut u8, src: *const u8, bytes: usize) {
    let (dst, src) = (dst.cast::<MaybeUninit<u8>>(), src.cast::<MaybeUninit<u8>>());
    let mut i = rank;
    while i < bytes {
        arch::shared_access_check(dst.wrapping_add(i).cast(), 1, true);
        // SAFETY: `i < bytes`.
        unsafe { dst.add(i).write(src.add(i).read()) };
        arch::note_load(src.wrapping_add(i).cast(), 1);
        arch::note_store(dst.wrapping_add(i).cast(), 1);
        i += stride;
    }
}
