//! Global memory as simulated lanes read and write it: every byte through
//! a relaxed atomic.
//!
//! The blocks of a safe launch run on several worker threads
//! ([`launch_parallel`](crate::launch_parallel)), and a safe kernel may
//! read an element that another block writes: a data race on the GPU,
//! which the race detector reports — but only after both accesses ran. On
//! the host, two plain accesses from two threads would then be undefined
//! behaviour of the simulator itself. So the accesses a lane makes to
//! global memory go through here: the typed loads and stores of
//! padding-free values always (`cooperative_groups`' `arch::sim`), and the
//! global bytes of asynchronous, bulk and tensor copies while other
//! workers run blocks of the launch (`Core::concurrent`). Each byte is a
//! relaxed `AtomicU8` access: one access size for all of them, so no two
//! atomic accesses ever partially overlap (Rust's rule for mixed-size
//! atomics). Relaxed byte accesses are plain byte moves on x86-64 and
//! AArch64; values of 1 to 16 bytes are assembled in registers. Safe
//! launches with views of padded element types stay on one thread
//! (`SafeParam::SERIAL`): a padding byte may be uninitialised, and a byte
//! load must not read one.
//!
//! The simulator's atomic read-modify-writes (`atom`, `red`) keep their
//! word-sized host atomics: the launches that may run them on several
//! threads are `unsafe`, with [`launch_parallel`](crate::launch_parallel)'s
//! contract, and the safe ones that take an `AtomicSlice` run on one.

use std::mem::{size_of, transmute_copy};
use std::sync::atomic::{AtomicU8, Ordering::Relaxed};

/// Byte `i` of `p`.
///
/// # Safety
/// `p + i` valid for reads, accessed by other threads only atomically.
#[inline(always)]
unsafe fn byte(p: *const u8, i: usize) -> u8 {
    // SAFETY: the caller's contract; `AtomicU8` has `u8`'s alignment.
    unsafe { AtomicU8::from_ptr(p.add(i).cast_mut()) }.load(Relaxed)
}

/// Byte `i` of `p` set to `v`.
///
/// # Safety
/// `p + i` valid for writes, accessed by other threads only atomically.
#[inline(always)]
unsafe fn set_byte(p: *mut u8, i: usize, v: u8) {
    // SAFETY: the caller's contract.
    unsafe { AtomicU8::from_ptr(p.add(i)) }.store(v, Relaxed)
}

/// A `T` of `N == size_of::<T>()` bytes, read byte by byte into registers.
///
/// # Safety
/// As [`load`].
#[inline(always)]
unsafe fn load_n<T: Copy, const N: usize>(p: *const u8) -> T {
    // SAFETY: the caller's contract, for each of the `N` bytes.
    let b: [u8; N] = std::array::from_fn(|i| unsafe { byte(p, i) });
    // SAFETY: `N == size_of::<T>()`, and the bytes are a `T` (the caller's
    // contract).
    unsafe { transmute_copy(&b) }
}

/// `v` (`N == size_of::<T>()` bytes) written byte by byte.
///
/// # Safety
/// As [`store`].
#[inline(always)]
unsafe fn store_n<T: Copy, const N: usize>(p: *mut u8, v: T) {
    // SAFETY: `N == size_of::<T>()`; `[u8; N]` has no invalid values.
    let b: [u8; N] = unsafe { transmute_copy(&v) };
    for (i, &x) in b.iter().enumerate() {
        // SAFETY: the caller's contract.
        unsafe { set_byte(p, i, x) };
    }
}

/// Loads the `T` at `p`.
///
/// # Safety
/// `p` valid for reads of `size_of::<T>()` bytes, every one initialised,
/// which together are a valid `T`; other threads access them only through
/// this module (or not at all).
#[inline]
pub unsafe fn load<T: Copy>(p: *const T) -> T {
    let p = p.cast::<u8>();
    // SAFETY: (every arm) the caller's contract, with `N` the size of `T`.
    unsafe {
        match size_of::<T>() {
            1 => load_n::<T, 1>(p),
            2 => load_n::<T, 2>(p),
            4 => load_n::<T, 4>(p),
            8 => load_n::<T, 8>(p),
            16 => load_n::<T, 16>(p),
            n => {
                let mut v = std::mem::MaybeUninit::<T>::uninit();
                read(p, std::slice::from_raw_parts_mut(v.as_mut_ptr().cast(), n));
                v.assume_init()
            }
        }
    }
}

/// Stores `v` at `p`.
///
/// # Safety
/// `p` valid for writes of `size_of::<T>()` bytes; `T` has no padding
/// (every byte of `v` is initialised); other threads access the bytes only
/// through this module (or not at all).
#[inline]
pub unsafe fn store<T: Copy>(p: *mut T, v: T) {
    let p = p.cast::<u8>();
    // SAFETY: (every arm) the caller's contract, with `N` the size of `T`.
    unsafe {
        match size_of::<T>() {
            1 => store_n::<T, 1>(p, v),
            2 => store_n::<T, 2>(p, v),
            4 => store_n::<T, 4>(p, v),
            8 => store_n::<T, 8>(p, v),
            16 => store_n::<T, 16>(p, v),
            n => write(
                p,
                std::slice::from_raw_parts((&v as *const T).cast::<u8>(), n),
            ),
        }
    }
}

/// Copies `dst.len()` bytes from global memory at `src` into `dst`.
///
/// # Safety
/// `src` valid for reads of `dst.len()` initialised bytes, accessed by
/// other threads only through this module (or not at all); `dst` does not
/// overlap them.
#[inline]
pub unsafe fn read(src: *const u8, dst: &mut [u8]) {
    for (i, d) in dst.iter_mut().enumerate() {
        // SAFETY: the caller's contract.
        *d = unsafe { byte(src, i) };
    }
}

/// Copies `src` into global memory at `dst`.
///
/// # Safety
/// `dst` valid for writes of `src.len()` bytes, accessed by other threads
/// only through this module (or not at all); `src` does not overlap them.
#[inline]
pub unsafe fn write(dst: *mut u8, src: &[u8]) {
    for (i, &s) in src.iter().enumerate() {
        // SAFETY: the caller's contract.
        unsafe { set_byte(dst, i, s) };
    }
}

impl crate::unit::Core {
    /// Copies `dst.len()` bytes of global memory at `src` into `dst`: byte
    /// by byte through [`read`] while other workers run blocks of the same
    /// launch, one plain copy otherwise (a launch on one thread copies the
    /// bytes as they are, padding included).
    ///
    /// # Safety
    /// As [`read`].
    pub(crate) unsafe fn read_global(&self, src: *const u8, dst: &mut [u8]) {
        if self.concurrent {
            // SAFETY: the caller's contract.
            unsafe { read(src, dst) }
        } else {
            // SAFETY: the caller's contract; no other thread runs lanes.
            unsafe { std::ptr::copy_nonoverlapping(src, dst.as_mut_ptr(), dst.len()) }
        }
    }

    /// Copies `src` into global memory at `dst`, as [`read_global`](Self::read_global) reads.
    ///
    /// # Safety
    /// As [`write`].
    pub(crate) unsafe fn write_global(&self, dst: *mut u8, src: &[u8]) {
        if self.concurrent {
            // SAFETY: the caller's contract.
            unsafe { write(dst, src) }
        } else {
            // SAFETY: the caller's contract; no other thread runs lanes.
            unsafe { std::ptr::copy_nonoverlapping(src.as_ptr(), dst, src.len()) }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loads_and_stores_keep_every_byte() {
        #[derive(Clone, Copy, PartialEq, Debug)]
        #[repr(C)]
        struct Odd([u8; 3], [u8; 2], [u8; 7]);
        let mut m = [0u8; 64];
        let p = m.as_mut_ptr();
        // SAFETY: every access below lies inside `m`, on this thread only
        // (unaligned offsets, as `[u8; N]` views allow).
        unsafe {
            store(p.add(1).cast::<[u8; 4]>(), [1, 2, 3, 4]);
            store(p.add(8).cast::<u64>(), 0x0102_0304_0506_0708);
            store(p.add(16).cast::<u128>(), u128::MAX - 5);
            store(p.add(32).cast::<f32>(), -1.5f32);
            store(
                p.add(40).cast::<Odd>(),
                Odd([9, 8, 7], [0xbe, 0xef], [1; 7]),
            );
            assert_eq!(load(p.add(1).cast::<[u8; 4]>()), [1, 2, 3, 4]);
            assert_eq!(load(p.add(8).cast::<u64>()), 0x0102_0304_0506_0708);
            assert_eq!(load(p.add(16).cast::<u128>()), u128::MAX - 5);
            assert_eq!(load(p.add(32).cast::<f32>()), -1.5);
            assert_eq!(
                load(p.add(40).cast::<Odd>()),
                Odd([9, 8, 7], [0xbe, 0xef], [1; 7])
            );
            assert_eq!(load(p.add(0).cast::<u8>()), 0);
            let mut out = [0u8; 4];
            read(p.add(1), &mut out);
            assert_eq!(out, [1, 2, 3, 4]);
            write(p.add(60), &[5, 6, 7, 8]);
        }
        assert_eq!(m[60..64], [5, 6, 7, 8]);
        assert_eq!(
            u64::from_ne_bytes(m[8..16].try_into().unwrap()),
            0x0102_0304_0506_0708
        );
    }
}
