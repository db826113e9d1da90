//! Device-wide atomics on raw pointers (`atomicAdd` and friends).
//!
//! [`atomic_add`] is one `atom` instruction on a generic address, so the
//! pointer may be global or shared memory. [`red_add`] is the global-only
//! add that returns nothing (`red.global.add`, nvcc's code for an unused
//! `atomicAdd`). On the simulator they are host atomics.

use crate::arch;

/// Types with a hardware atomic add.
pub trait AtomicAdd: Copy {
    /// Adds `v` to `*p` atomically; returns the previous value.
    ///
    /// # Safety
    /// `p` must be valid for an aligned atomic read-modify-write.
    unsafe fn atomic_add(p: *mut Self, v: Self) -> Self;

    /// Adds `v` to `*p` atomically, returning nothing (`red.global.add`).
    ///
    /// # Safety
    /// `p` must point to global memory, valid for an aligned atomic access.
    unsafe fn red_add(p: *mut Self, v: Self);
}

impl AtomicAdd for u32 {
    #[inline(always)]
    unsafe fn atomic_add(p: *mut Self, v: Self) -> Self {
        // SAFETY: forwarded contract.
        unsafe { arch::atomic_add_u32(p, v) }
    }
    #[inline(always)]
    unsafe fn red_add(p: *mut Self, v: Self) {
        // SAFETY: forwarded contract.
        unsafe { arch::red_global_add_u32(p, v) }
    }
}
impl AtomicAdd for i32 {
    #[inline(always)]
    unsafe fn atomic_add(p: *mut Self, v: Self) -> Self {
        // SAFETY: forwarded contract; two's-complement add is the same instruction.
        unsafe { arch::atomic_add_u32(p.cast(), v as u32) as i32 }
    }
    #[inline(always)]
    unsafe fn red_add(p: *mut Self, v: Self) {
        // SAFETY: forwarded contract.
        unsafe { arch::red_global_add_u32(p.cast(), v as u32) }
    }
}
impl AtomicAdd for u64 {
    #[inline(always)]
    unsafe fn atomic_add(p: *mut Self, v: Self) -> Self {
        // SAFETY: forwarded contract.
        unsafe { arch::atomic_add_u64(p, v) }
    }
    #[inline(always)]
    unsafe fn red_add(p: *mut Self, v: Self) {
        // SAFETY: forwarded contract.
        unsafe { arch::red_global_add_u64(p, v) }
    }
}
impl AtomicAdd for f32 {
    #[inline(always)]
    unsafe fn atomic_add(p: *mut Self, v: Self) -> Self {
        // SAFETY: forwarded contract.
        unsafe { arch::atomic_add_f32(p, v) }
    }
    #[inline(always)]
    unsafe fn red_add(p: *mut Self, v: Self) {
        // SAFETY: forwarded contract.
        unsafe { arch::red_global_add_f32(p, v) }
    }
}
impl AtomicAdd for f64 {
    #[inline(always)]
    unsafe fn atomic_add(p: *mut Self, v: Self) -> Self {
        // SAFETY: forwarded contract.
        unsafe { arch::atomic_add_f64(p, v) }
    }
    #[inline(always)]
    unsafe fn red_add(p: *mut Self, v: Self) {
        // SAFETY: forwarded contract.
        unsafe { arch::red_global_add_f64(p, v) }
    }
}

/// `atomicAdd(p, v)`: adds `v` to `*p`; returns the previous value.
///
/// # Safety
/// `p` must be valid for an aligned atomic read-modify-write.
#[inline(always)]
pub unsafe fn atomic_add<T: AtomicAdd>(p: *mut T, v: T) -> T {
    // SAFETY: forwarded contract.
    unsafe { T::atomic_add(p, v) }
}

/// `atomicAdd(p, v)` whose old value is not needed, on global memory: one
/// `red.global.add` — what nvcc emits for an unused `atomicAdd` on a global
/// pointer (`RED.E.ADD`); [`atomic_add`] must return the old value and, on a
/// generic address, costs a round trip and a space check.
///
/// # Safety
/// `p` must point to global (device) memory, valid for an aligned atomic
/// access.
#[inline(always)]
pub unsafe fn red_add<T: AtomicAdd>(p: *mut T, v: T) {
    // SAFETY: forwarded contract.
    unsafe { T::red_add(p, v) }
}
