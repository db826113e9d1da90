//! [`GlobalSlice`]: a read-only run of global memory.

use core::marker::PhantomData;

use crate::Pod;
use crate::arch;
use crate::cache::LoadHint;
use crate::vector::{AlignFor, Element, Lanes, Vector};

/// A kernel's read-only input: `len` elements of global memory that nothing
/// writes while the kernel runs (CUDA's `const T* __restrict__` with its
/// length).
///
/// The host passes a buffer by shared reference (`&input` in
/// `cg-runtime`'s launch), so no writable parameter of the same launch can
/// alias it; that is what makes its loads `ld.global.nc` (the read-only
/// data path nvcc uses for `__restrict__` inputs) and what lets the race
/// detector skip them. [`load`](Self::load) checks the index: past the end
/// it traps on the GPU, and the simulator reports the parameter, the index,
/// the length, the thread and the line.
///
/// ```
/// # use cooperative_groups::prelude::*;
/// # use cooperative_groups::{kernel, GlobalSlice, OwnedSlice};
/// #[kernel]
/// pub fn square(x: GlobalSlice<f32>, y: OwnedSlice<f32>) {
///     if let Some(e) = y.at(&this_grid()) {
///         let v = x.load(e.index());      // ld.global.nc.b32
///         e.store(v * v);                 // st.global.b32
///     }
/// }
/// # let x: Vec<f32> = (0..100).map(|i| i as f32).collect();
/// # let mut y = vec![0f32; 100];
/// # cooperative_groups::host::run(&SQUARE, &cg_sim::LaunchConfig::new(2, 64), (&x[..], &mut y[..])).unwrap();
/// # assert_eq!(y[9], 81.0);
/// ```
#[repr(C)]
pub struct GlobalSlice<'a, T> {
    ptr: *const T,
    len: usize,
    /// The launch (or the borrow of the buffer) the view lives in: a view
    /// cannot be kept past it.
    _t: PhantomData<(&'a (), T)>,
}

impl<T> Clone for GlobalSlice<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for GlobalSlice<'_, T> {}

impl<T> core::fmt::Debug for GlobalSlice<'_, T> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("GlobalSlice")
            .field("ptr", &self.ptr)
            .field("len", &self.len)
            .finish()
    }
}

impl<'a, T: Pod> GlobalSlice<'a, T> {
    /// A view of `len` elements at `ptr`.
    ///
    /// # Safety
    /// For the whole launch, `ptr` must be valid for reads of `len`
    /// elements of `T` aligned for `T` in global memory (host memory on the
    /// simulator), and nothing may write them. `cg-runtime`'s launch builds
    /// it from a `&Buffer<T>`.
    #[inline(always)]
    pub const unsafe fn from_raw_parts(ptr: *const T, len: usize) -> Self {
        GlobalSlice {
            ptr,
            len,
            _t: PhantomData,
        }
    }

    /// Number of elements.
    #[inline(always)]
    pub const fn len(&self) -> usize {
        self.len
    }

    /// No elements.
    #[inline(always)]
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The slice cut to the elements a `u32` index reaches (all of them
    /// below 2^32 elements), and that length as a `u32`: for loops that
    /// count in `u32`, as CUDA kernels do. A load bounded by the returned
    /// length carries no check — `i < n` implies `i < len` for the compiler,
    /// which it cannot see from `i < input.len() as u32` (that check is
    /// `setp` + a branch in the loop, and it costs: 2× in a two-loads-per-
    /// iteration reduction on the H200):
    ///
    /// ```
    /// # use cooperative_groups::prelude::*;
    /// # use cooperative_groups::{kernel, GlobalSlice, OwnedSlice, PerBlock};
    /// #[kernel]
    /// pub fn block_sums(input: GlobalSlice<u32>, sums: OwnedSlice<u32, PerBlock>) {
    ///     let (input, n) = input.with_u32_len();
    ///     let (block, grid) = (this_thread_block(), this_grid());
    ///     let mut i = grid.thread_rank() as u32;
    ///     let mut v = 0;
    ///     while i < n {
    ///         v += input.load(i as usize); // no bounds check left here
    ///         i += grid.num_threads() as u32;
    ///     }
    ///     let total = reduce(&block, v, Plus);
    ///     if let Some(e) = sums.leader(&block) {
    ///         e.store(total);
    ///     }
    /// }
    /// let x = vec![1u32; 1000];
    /// let mut sums = vec![0; 2];
    /// let cfg = cg_sim::LaunchConfig::new(2, 64);
    /// cooperative_groups::host::run(&BLOCK_SUMS, &cfg, (&x[..], &mut sums[..])).unwrap();
    /// assert_eq!(sums[0] + sums[1], 1000);
    /// ```
    #[inline(always)]
    pub fn with_u32_len(&self) -> (GlobalSlice<'a, T>, u32) {
        let n = if self.len > u32::MAX as usize {
            u32::MAX
        } else {
            self.len as u32
        };
        let cut = GlobalSlice {
            ptr: self.ptr,
            len: n as usize,
            _t: PhantomData,
        };
        (cut, n)
    }

    /// The address of element 0 (for raw access, e.g. by an `unsafe`
    /// intrinsic; safe code cannot dereference it).
    #[inline(always)]
    pub const fn as_ptr(&self) -> *const T {
        self.ptr
    }

    /// Element `i` (`ld.global.nc`). Past the end: a `trap` on the GPU, a
    /// report naming the parameter, the index and the length on the
    /// simulator.
    #[inline(always)]
    #[track_caller]
    pub fn load(&self, i: usize) -> T {
        if i >= self.len {
            arch::global_out_of_bounds(self.ptr.cast(), i, self.len, false)
        }
        // SAFETY: `i < len`, and the launch made `len` elements readable and
        // unwritten (`from_raw_parts`).
        unsafe { arch::ld_global_nc(self.ptr.add(i)) }
    }

    /// Element `i` with the cache hint `H` ([`cache`](crate::cache):
    /// `x.load_hint(i, Streaming)` is CUDA's `__ldcs(&x[i])`,
    /// `ld.global.cs`). Bounds-checked as [`load`](Self::load).
    #[doc(alias = "__ldcs")]
    #[doc(alias = "__ldcg")]
    #[doc(alias = "__ldlu")]
    #[inline(always)]
    #[track_caller]
    pub fn load_hint<H: LoadHint>(&self, i: usize, hint: H) -> T {
        if i >= self.len {
            arch::global_out_of_bounds(self.ptr.cast(), i, self.len, false)
        }
        // SAFETY: `i < len`, and the launch made `len` elements readable
        // and unwritten (`from_raw_parts`).
        unsafe { hint.load_nc(self.ptr.add(i)) }
    }

    /// Prefetches the cache line of element `i` into L2
    /// (`prefetch.global.L2`). A hint: past the end it does nothing.
    #[doc(alias = "prefetch.global.L2")]
    #[inline(always)]
    pub fn prefetch_l2(&self, i: usize) {
        if i < self.len {
            arch::prefetch_global_l2(self.ptr.wrapping_add(i).cast());
        }
    }

    /// Element `i` without the bounds check.
    ///
    /// # Safety
    /// `i < self.len()`.
    #[inline(always)]
    pub unsafe fn load_unchecked(&self, i: usize) -> T {
        // SAFETY: the caller's `i < len`, and `from_raw_parts`'s contract.
        unsafe { arch::ld_global_nc(self.ptr.add(i)) }
    }

    /// The first `len` elements: a trap on the GPU (a report on the
    /// simulator) if the slice is shorter. A loop bounded by another
    /// slice's length loads through the prefix without a check per load:
    /// `let x = x.prefix(y.len());` then `x.load(i)` for `i < y.len()`.
    #[inline(always)]
    #[track_caller]
    pub fn prefix(&self, len: usize) -> GlobalSlice<'a, T> {
        if len > self.len {
            arch::global_out_of_bounds(self.ptr.cast(), len, self.len, false)
        }
        GlobalSlice {
            ptr: self.ptr,
            len,
            _t: PhantomData,
        }
    }

    /// Elements `start..start + len` as a slice of their own. Panics (traps
    /// on the GPU) if they are not all inside.
    #[inline(always)]
    #[track_caller]
    pub fn slice(&self, start: usize, len: usize) -> GlobalSlice<'a, T> {
        if start > self.len || len > self.len - start {
            arch::global_out_of_bounds(self.ptr.cast(), start.saturating_add(len), self.len, false)
        }
        GlobalSlice {
            ptr: self.ptr.wrapping_add(start),
            len,
            _t: PhantomData,
        }
    }

    /// The elements as a Rust slice, for code that takes one (e.g.
    /// [`memcpy_async`](fn@crate::memcpy_async)). Its loads are plain Rust
    /// loads (generic addresses, unchecked by the simulator's race
    /// detector, which needs none: nothing writes the memory).
    #[inline(always)]
    #[track_caller]
    pub fn as_slice(&self) -> &[T] {
        if self.len == 0 {
            return &[];
        }
        arch::global_region_check(self.ptr.cast(), self.len * core::mem::size_of::<T>());
        // SAFETY: `from_raw_parts`'s contract: `len` readable, unwritten,
        // aligned elements for the whole launch, which outlives `&self`
        // (on the simulator the check above stops a view used outside the
        // launch that registered its memory).
        unsafe { core::slice::from_raw_parts(self.ptr, self.len) }
    }

    /// Elements `i .. i + N` as one [`Vector`]: one `ld.global.nc.v4`
    /// (`LDG.E.128.CONSTANT` for `f32 × 4`) where element `i`'s address is
    /// aligned to the vector, `N` scalar loads where it is not (a row of an
    /// odd pitch, a slice that starts between two vectors) — the values are
    /// the same. Past the end (`i + N > len`): a `trap` on the GPU, a report
    /// on the simulator. The pairing of a row's input with a
    /// [`VecElem2d`](crate::global::VecElem2d) of its output:
    /// `x.row(y).load_vec(v.x())`. For a branch-free loop over a slice's
    /// aligned middle, [`align_to`](Self::align_to).
    #[doc(alias = "float4")]
    #[doc(alias = "reinterpret_cast")]
    #[inline(always)]
    #[track_caller]
    pub fn load_vec<const N: usize>(&self, i: usize) -> Vector<T, N>
    where
        T: Element,
        Lanes<N>: AlignFor<T::Width>,
    {
        if i > self.len || N > self.len - i {
            arch::global_out_of_bounds(self.ptr.cast(), i.saturating_add(N - 1), self.len, false)
        }
        let p = self.ptr.wrapping_add(i);
        if (p as usize).is_multiple_of(core::mem::align_of::<Vector<T, N>>()) {
            // SAFETY: `i + N <= len`: the `N` elements are readable and
            // unwritten (`from_raw_parts`), at an address aligned for the
            // vector (tested), which is exactly their bytes.
            unsafe { arch::ld_global_nc(p.cast::<Vector<T, N>>()) }
        } else {
            // SAFETY: `i + j < i + N <= len`.
            Vector::new(core::array::from_fn(|j| unsafe {
                arch::ld_global_nc(p.add(j))
            }))
        }
    }

    /// [`load_vec`](Self::load_vec) with the cache hint `H`
    /// ([`cache`](crate::cache): `Streaming` is `__ldcs` on a `float4`).
    #[doc(alias = "__ldcs")]
    #[inline(always)]
    #[track_caller]
    pub fn load_vec_hint<const N: usize, H: LoadHint>(&self, i: usize, hint: H) -> Vector<T, N>
    where
        T: Element,
        Lanes<N>: AlignFor<T::Width>,
    {
        if i > self.len || N > self.len - i {
            arch::global_out_of_bounds(self.ptr.cast(), i.saturating_add(N - 1), self.len, false)
        }
        let p = self.ptr.wrapping_add(i);
        if (p as usize).is_multiple_of(core::mem::align_of::<Vector<T, N>>()) {
            // SAFETY: as in `load_vec`.
            unsafe { hint.load_nc(p.cast::<Vector<T, N>>()) }
        } else {
            // SAFETY: as in `load_vec`.
            Vector::new(core::array::from_fn(|j| unsafe { hint.load_nc(p.add(j)) }))
        }
    }

    /// The slice as vectors of `N` elements where it can be (CUDA kernels'
    /// `reinterpret_cast<const float4*>`, with the edges handled): the
    /// elements before the first address aligned to a vector, the aligned
    /// middle as [`Vector`]s (one 16-byte `ld.global.nc.v4` each for
    /// `N × size_of::<T>() == 16`), and the elements after its last whole
    /// vector — like [`slice::align_to`], and safe, as nothing writes the
    /// memory. Runtime buffers start aligned, so the first part is empty
    /// for a whole buffer; it is at most `N - 1` elements, and so is the
    /// last. See [the module](crate::vector) for a kernel.
    #[inline(always)]
    pub fn align_to<const N: usize>(
        &self,
    ) -> (
        GlobalSlice<'a, T>,
        GlobalSlice<'a, Vector<T, N>>,
        GlobalSlice<'a, T>,
    )
    where
        T: Element,
        Lanes<N>: AlignFor<T::Width>,
    {
        let (elem, vec) = (
            core::mem::size_of::<T>(),
            core::mem::size_of::<Vector<T, N>>(),
        );
        // Bytes to the next vector boundary; a whole number of elements
        // unless the slice starts between two (then no element is aligned
        // and every element stays a scalar).
        let gap = (vec - self.ptr as usize % vec) % vec;
        let head = if gap.is_multiple_of(elem) {
            (gap / elem).min(self.len)
        } else {
            self.len
        };
        let vectors = (self.len - head) / N;
        let tail = head + vectors * N;
        let part = |start: usize, len: usize| GlobalSlice {
            ptr: self.ptr.wrapping_add(start),
            len,
            _t: PhantomData,
        };
        let body = GlobalSlice {
            ptr: self.ptr.wrapping_add(head).cast::<Vector<T, N>>(),
            len: vectors,
            _t: PhantomData,
        };
        (part(0, head), body, part(tail, self.len - tail))
    }
}
