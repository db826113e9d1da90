//! Shared memory: statically sized arrays per allocation site
//! ([`shared_array!`](crate::shared_array)) and the block's dynamic shared
//! memory ([`dynamic_shared`]).
//!
//! Accesses are bounds-checked (an out-of-range index traps on the GPU and is
//! reported with its source line by the simulator). Shared memory is shared
//! by every thread of the block: a value stored by one thread is visible to
//! another only after a barrier of a group containing both (e.g.
//! `block.sync()`), exactly as in CUDA.

use core::marker::PhantomData;

use crate::arch;
use crate::group::{Size, ThreadBlockTile, TileSize};

/// A `[T; N]` in shared memory, one per block, declared with
/// [`shared_array!`](crate::shared_array).
///
/// The handle is a copyable pointer; the memory lives as long as the block.
///
/// ```ignore
/// let sums = shared_array!(f32; 32);
/// sums.store(warp, partial);
/// block.sync();
/// let total = sums.load(0) + sums.load(1);
/// ```
pub struct SharedArray<T, const N: usize> {
    ptr: *mut T,
}

impl<T, const N: usize> Clone for SharedArray<T, N> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T, const N: usize> Copy for SharedArray<T, N> {}

impl<T: Copy, const N: usize> SharedArray<T, N> {
    /// Wraps the shared allocation at `addr`.
    ///
    /// # Safety
    /// `addr` must name a per-block shared allocation of at least
    /// `size_of::<[T; N]>()` bytes aligned for `T` that lives for the whole
    /// kernel. [`shared_array!`](crate::shared_array) guarantees this.
    #[inline(always)]
    pub unsafe fn from_shared_addr(addr: arch::SharedAddr) -> Self {
        SharedArray {
            ptr: arch::shared_to_generic(addr).cast(),
        }
    }

    /// Wraps a generic pointer to an `[T; N]` in shared memory (e.g. a
    /// peer block's array mapped through DSMEM).
    ///
    /// # Safety
    /// As [`from_shared_addr`](Self::from_shared_addr), for a generic address.
    #[inline(always)]
    pub(crate) unsafe fn from_generic_ptr(ptr: *mut T) -> Self {
        SharedArray { ptr }
    }

    /// `N`.
    #[inline(always)]
    pub const fn len(&self) -> usize {
        N
    }

    /// `N == 0`.
    #[inline(always)]
    pub const fn is_empty(&self) -> bool {
        N == 0
    }

    /// A generic pointer to element 0 (for raw access and `memcpy_async`).
    #[inline(always)]
    pub fn as_ptr(&self) -> *mut T {
        self.ptr
    }

    /// Reads element `i`. Panics (traps on the GPU) if `i >= N`.
    #[inline(always)]
    #[track_caller]
    pub fn load(&self, i: usize) -> T {
        assert!(i < N, "shared_array index out of bounds");
        // SAFETY: `i < N` and the allocation holds `N` elements of `T`.
        let p = unsafe { self.ptr.add(i) };
        arch::note_load(p.cast(), core::mem::size_of::<T>());
        // SAFETY: as above.
        unsafe { p.read() }
    }

    /// Writes element `i`. Panics (traps on the GPU) if `i >= N`.
    #[inline(always)]
    #[track_caller]
    pub fn store(&self, i: usize, v: T) {
        assert!(i < N, "shared_array index out of bounds");
        // SAFETY: `i < N` and the allocation holds `N` elements of `T`.
        let p = unsafe { self.ptr.add(i) };
        arch::note_store(p.cast(), core::mem::size_of::<T>());
        // SAFETY: as above.
        unsafe { p.write(v) }
    }

    /// Reads element `I`, a constant: `I < N` is checked when the kernel is
    /// compiled, so the PTX has no bounds check.
    #[inline(always)]
    #[track_caller]
    pub fn load_at<const I: usize>(&self) -> T {
        const { assert!(I < N, "shared_array index out of bounds") };
        // SAFETY: `I < N` (checked at compile time).
        let p = unsafe { self.ptr.add(I) };
        arch::note_load(p.cast(), core::mem::size_of::<T>());
        // SAFETY: as above.
        unsafe { p.read() }
    }

    /// Writes element `I`, a constant checked against `N` at compile time.
    #[inline(always)]
    #[track_caller]
    pub fn store_at<const I: usize>(&self, v: T) {
        const { assert!(I < N, "shared_array index out of bounds") };
        // SAFETY: `I < N` (checked at compile time).
        let p = unsafe { self.ptr.add(I) };
        arch::note_store(p.cast(), core::mem::size_of::<T>());
        // SAFETY: as above.
        unsafe { p.write(v) }
    }

    /// Reads the element of the caller's rank in `tile`. A tile of `M ≤ N`
    /// threads (checked at compile time) never indexes out of bounds, so
    /// there is no runtime check.
    #[inline(always)]
    #[track_caller]
    pub fn load_rank<const M: u32>(&self, tile: &ThreadBlockTile<M>) -> T
    where
        Size<M>: TileSize,
    {
        const { assert!(M as usize <= N, "the tile is larger than the array") };
        // SAFETY: `thread_rank() < M <= N`.
        let p = unsafe { self.ptr.add(tile.thread_rank() as usize) };
        arch::note_load(p.cast(), core::mem::size_of::<T>());
        // SAFETY: as above.
        unsafe { p.read() }
    }

    /// Writes the element of the caller's rank in `tile` (`M ≤ N`, checked
    /// at compile time; no runtime check).
    #[inline(always)]
    #[track_caller]
    pub fn store_rank<const M: u32>(&self, tile: &ThreadBlockTile<M>, v: T)
    where
        Size<M>: TileSize,
    {
        const { assert!(M as usize <= N, "the tile is larger than the array") };
        // SAFETY: `thread_rank() < M <= N`.
        let p = unsafe { self.ptr.add(tile.thread_rank() as usize) };
        arch::note_store(p.cast(), core::mem::size_of::<T>());
        // SAFETY: as above.
        unsafe { p.write(v) }
    }
}

/// The block's dynamic shared memory (`extern __shared__`), viewed as `[T]`.
///
/// Its size is the `dynamic_smem_bytes` of the launch; `len()` is that size
/// divided by `size_of::<T>()`.
pub struct DynamicShared<T> {
    ptr: *mut T,
    len: usize,
    _t: PhantomData<T>,
}

impl<T> Clone for DynamicShared<T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for DynamicShared<T> {}

/// The block's dynamic shared memory as a `[T]` (aligned to 16 bytes).
#[inline(always)]
pub fn dynamic_shared<T: Copy>() -> DynamicShared<T> {
    const {
        assert!(
            core::mem::align_of::<T>() <= 16,
            "dynamic shared memory is 16-byte aligned"
        )
    };
    let (addr, bytes) = arch::dynamic_shared();
    DynamicShared {
        ptr: arch::shared_to_generic(addr).cast(),
        len: bytes / core::mem::size_of::<T>().max(1),
        _t: PhantomData,
    }
}

impl<T: Copy> DynamicShared<T> {
    /// Number of `T` that fit in the launch's dynamic shared memory.
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.len
    }

    /// No dynamic shared memory was requested.
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// A generic pointer to element 0.
    #[inline(always)]
    pub fn as_ptr(&self) -> *mut T {
        self.ptr
    }

    /// Reads element `i`. Panics (traps on the GPU) if `i >= len()`.
    #[inline(always)]
    #[track_caller]
    pub fn load(&self, i: usize) -> T {
        assert!(i < self.len, "dynamic shared memory index out of bounds");
        // SAFETY: `i < len` and the launch provided `len` elements.
        let p = unsafe { self.ptr.add(i) };
        arch::note_load(p.cast(), core::mem::size_of::<T>());
        // SAFETY: as above.
        unsafe { p.read() }
    }

    /// Writes element `i`. Panics (traps on the GPU) if `i >= len()`.
    #[inline(always)]
    #[track_caller]
    pub fn store(&self, i: usize, v: T) {
        assert!(i < self.len, "dynamic shared memory index out of bounds");
        // SAFETY: `i < len` and the launch provided `len` elements.
        let p = unsafe { self.ptr.add(i) };
        arch::note_store(p.cast(), core::mem::size_of::<T>());
        // SAFETY: as above.
        unsafe { p.write(v) }
    }
}
