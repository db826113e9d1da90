//! The global-memory side of the primitives, in one place: loads read a
//! tile from a `&[T]` (a slice of the kernel's input, as
//! [`memcpy_async`](crate::memcpy_async()) takes), stores write through a
//! raw pointer (the caller's `unsafe` promise that the tile is its block's
//! to write, or a window or chunk of an `OwnedSlice` that the partition
//! gives the writers).
//!
//! Every store goes through [`arch::st_plain`]: on the GPU the plain write
//! it always was (the same instructions), on the simulator a write the race
//! detector sees at the user's line (`#[track_caller]` down to it) and
//! that blocks on other worker threads never race with on the host.
//!
//! Vector accesses move 16 (or 8) bytes per instruction
//! (`ld.global.v4.u32`, SASS `LDG.E.128`), as CUB's vectorized loads do;
//! the callers check alignment and bounds once per call.

use core::mem::size_of;

use crate::arch;
use crate::value::ShflValue;

/// 16 bytes, 16-byte aligned: one vector access.
#[derive(Clone, Copy)]
#[repr(C, align(16))]
struct V16([u32; 4]);

/// 8 bytes, 8-byte aligned.
#[derive(Clone, Copy)]
#[repr(C, align(8))]
struct V8([u32; 2]);

/// Element `i` of `src`, unchecked.
///
/// # Safety
/// `i < src.len()`.
#[inline(always)]
pub(crate) unsafe fn read<T: Copy>(src: &[T], i: usize) -> T {
    // SAFETY: the caller's bound.
    unsafe { *src.get_unchecked(i) }
}

/// Writes element `i` of the tile at `dst`.
///
/// # Safety
/// `dst.add(i)` must be valid for a write no other thread makes
/// concurrently.
#[inline(always)]
#[track_caller]
pub(crate) unsafe fn write<T: ShflValue>(dst: *mut T, i: usize, v: T) {
    // SAFETY: the caller's contract; a `ShflValue` has no padding.
    unsafe { arch::st_plain(dst.add(i), v) }
}

/// The widest vector (16 or 8 bytes; 0: none) that moves `n` items of `T`
/// at element offsets that are multiples of `n`, from a base address `p`:
/// the run's bytes must be a multiple of the vector, and so must `p`; a run
/// of more than [`MAX_RUN`] bytes moves item by item.
#[inline(always)]
pub(crate) fn vector_bytes<T>(p: *const T, n: usize) -> usize {
    let bytes = n * size_of::<T>();
    let addr = p as usize;
    if bytes > MAX_RUN {
        0
    } else if bytes.is_multiple_of(16) && addr.is_multiple_of(16) {
        16
    } else if bytes.is_multiple_of(8) && addr.is_multiple_of(8) {
        8
    } else {
        0
    }
}

/// The longest run (bytes) that moves as vectors: the words of a run
/// pass through a local buffer that the compiler keeps in registers.
pub(crate) const MAX_RUN: usize = 128;

/// The item at byte `at` of `buf`.
#[inline(always)]
fn item_at<T: ShflValue>(buf: &[u32; MAX_RUN / 4], at: usize) -> T {
    // SAFETY: `at + size_of::<T>() ≤ MAX_RUN` (the callers' runs), and
    // every bit pattern is a `T` (`ShflValue`); unaligned-tolerant.
    unsafe {
        buf.as_ptr()
            .cast::<u8>()
            .add(at)
            .cast::<T>()
            .read_unaligned()
    }
}

/// `N` items from element `i` of `src` in vectors of `VEC` bytes (16 or
/// 8), through a word buffer (constant offsets: registers after
/// unrolling).
///
/// # Safety
/// `i + N <= src.len()`; `VEC` as [`vector_bytes`] returned for the
/// slice's address and a run of `N` items, with `i` a multiple of `N`.
#[inline(always)]
pub(crate) unsafe fn read_run<T: ShflValue, const N: usize, const VEC: usize>(
    src: &[T],
    i: usize,
) -> [T; N] {
    let mut buf = [0u32; MAX_RUN / 4];
    // SAFETY: the caller's bounds: `N` items from `i` are inside `src`.
    let p = unsafe { src.as_ptr().add(i) }.cast::<u8>();
    let vectors = N * size_of::<T>() / VEC;
    let mut k = 0;
    while k < vectors {
        // SAFETY: vector `k` lies inside the run and is aligned for its
        // size (the caller's `VEC` contract).
        unsafe {
            if VEC == 16 {
                let v = p.add(16 * k).cast::<V16>().read().0;
                buf[4 * k..4 * k + 4].copy_from_slice(&v);
            } else {
                let v = p.add(8 * k).cast::<V8>().read().0;
                buf[2 * k..2 * k + 2].copy_from_slice(&v);
            }
        }
        k += 1;
    }
    let mut out = [crate::value::zeroed::<T>(); N];
    let mut j = 0;
    while j < N {
        out[j] = item_at(&buf, j * size_of::<T>());
        j += 1;
    }
    out
}

/// Writes `items` from element `i` of the tile at `dst` in vectors of
/// `VEC` bytes (see [`read_run`]).
///
/// # Safety
/// The `N` elements from `dst.add(i)` must be valid for writes no other
/// thread makes concurrently; `VEC` as for [`read_run`].
#[inline(always)]
#[track_caller]
pub(crate) unsafe fn write_run<T: ShflValue, const N: usize, const VEC: usize>(
    dst: *mut T,
    i: usize,
    items: &[T; N],
) {
    let mut buf = [0u32; MAX_RUN / 4];
    let mut j = 0;
    while j < N {
        // SAFETY: item `j`'s bytes lie inside `buf` (`N · size ≤ MAX_RUN`),
        // and `T` has no padding (`ShflValue`): every byte written is
        // initialised.
        unsafe {
            buf.as_mut_ptr()
                .cast::<u8>()
                .add(j * size_of::<T>())
                .cast::<T>()
                .write_unaligned(items[j])
        };
        j += 1;
    }
    // SAFETY: the caller's contract.
    let p = unsafe { dst.add(i) }.cast::<u8>();
    let vectors = N * size_of::<T>() / VEC;
    let mut k = 0;
    while k < vectors {
        // SAFETY: as in `read_run`, for writes; `V16` and `V8` are words
        // without padding.
        unsafe {
            if VEC == 16 {
                let mut v = V16([0; 4]);
                v.0.copy_from_slice(&buf[4 * k..4 * k + 4]);
                arch::st_plain(p.add(16 * k).cast::<V16>(), v);
            } else {
                let mut v = V8([0; 2]);
                v.0.copy_from_slice(&buf[2 * k..2 * k + 2]);
                arch::st_plain(p.add(8 * k).cast::<V8>(), v);
            }
        }
        k += 1;
    }
}
