//! [`OwnedSlice`]: global memory that each thread writes where the groups
//! say it may, and [`Elem`], the witness of one element.

use core::marker::PhantomData;

use crate::Pod;
use crate::arch;
use crate::cache::{LoadHint, StoreHint};

use super::kinds::{Partition, PerThread};

/// A kernel's output (or in-place) buffer: `len` elements of global memory,
/// each **owned** by one thread of the launch as the partition `P` says,
/// written only by its owner through an [`Elem`] the owner obtains from its
/// own identity — so no two threads write one element, by construction.
///
/// | `P` | element `i` belongs to | the owner's elements |
/// |---|---|---|
/// | [`PerThread`] (default) | grid thread `i mod T` (`T` threads in the grid) | [`at`](Self::at) (one), [`grid_stride`](Self::grid_stride) (a grid-stride loop) |
/// | [`Chunked<N>`](super::Chunked) | grid thread `i / N` | [`chunk`](Self::chunk): `N` contiguous elements |
/// | [`PerBlock<W>`](super::PerBlock) | block `i / W`, its member `i mod W mod size` | [`window`](Self::window), [`leader`](Self::leader) |
/// | [`PerTile<N, W>`](super::PerTile) | tile `i / W` of `N` threads (grid-wide numbering), its member `i mod W mod N` | [`window`](Self::window), [`leader`](Self::leader) |
///
/// Any thread may [`load`](Self::load) any element (after the
/// synchronisation that makes the owner's write visible: the simulator's
/// race detector reports a read that nothing orders after the write, across
/// blocks too). A write the partition cannot express goes through an
/// [`AtomicSlice`](super::AtomicSlice) or the `unsafe`
/// [`store_unchecked`](Self::store_unchecked).
///
/// ```
/// # use cooperative_groups::prelude::*;
/// # use cooperative_groups::{kernel, GlobalSlice, OwnedSlice};
/// /// y[i] += a · x[i], a grid-stride loop.
/// #[kernel]
/// pub fn saxpy(a: f32, x: GlobalSlice<f32>, y: OwnedSlice<f32>) {
///     for e in y.grid_stride(&this_grid()) {
///         e.store(e.load() + a * x.load(e.index()));
///     }
/// }
/// # let x = vec![1.0f32; 1000];
/// # let mut y = vec![2.0f32; 1000];
/// # cooperative_groups::host::run(&SAXPY, &cg_sim::LaunchConfig::new(2, 64), (3.0, &x[..], &mut y[..])).unwrap();
/// # assert!(y.iter().all(|&v| v == 5.0));
/// ```
#[repr(C)]
pub struct OwnedSlice<'a, T, P: Partition = PerThread> {
    ptr: *mut T,
    len: usize,
    /// The launch (or the borrow of the buffer) the view lives in: a view
    /// cannot be kept past it.
    _p: PhantomData<(&'a (), T, P)>,
}

impl<T, P: Partition> Clone for OwnedSlice<'_, T, P> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T, P: Partition> Copy for OwnedSlice<'_, T, P> {}

impl<T, P: Partition> core::fmt::Debug for OwnedSlice<'_, T, P> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("OwnedSlice")
            .field("ptr", &self.ptr)
            .field("len", &self.len)
            .finish()
    }
}

impl<'a, T: Pod, P: Partition> OwnedSlice<'a, T, P> {
    /// A view of `len` elements at `ptr`.
    ///
    /// # Safety
    /// For the whole launch, `ptr` must be valid for reads and writes of
    /// `len` elements of `T` aligned for `T` in global memory (host memory
    /// the launch registered, on the simulator), and no other parameter of
    /// the launch may reach them. `cg-runtime`'s launch builds it from a
    /// `&mut Buffer<T>`.
    #[inline(always)]
    pub const unsafe fn from_raw_parts(ptr: *mut T, len: usize) -> Self {
        OwnedSlice {
            ptr,
            len,
            _p: PhantomData,
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

    /// The first `len` elements, under the same partition (an element's
    /// owner does not depend on the length, so the prefix's witnesses are
    /// the slice's): a `trap` on the GPU (a report on the simulator) if the
    /// slice is shorter. Vectors of one length cut to one `n` let the
    /// compiler see that an index below one's length is below the others',
    /// so loads in a loop over one of them carry no check:
    /// `let p = p.prefix(x.len());` then `p.load(e.index())` for `e` of
    /// `x.grid_stride(&grid)`.
    #[inline(always)]
    #[track_caller]
    pub fn prefix(&self, len: usize) -> OwnedSlice<'a, T, P> {
        if len > self.len {
            arch::global_out_of_bounds(self.ptr.cast(), len, self.len, false)
        }
        OwnedSlice {
            ptr: self.ptr,
            len,
            _p: PhantomData,
        }
    }

    /// The address of element 0 (for raw access; safe code cannot
    /// dereference it).
    #[inline(always)]
    pub const fn as_ptr(&self) -> *mut T {
        self.ptr
    }

    /// Element `i`, whoever owns it (`ld.global`): the value its owner wrote
    /// last, once a synchronisation orders that write before this read (a
    /// barrier of a group holding both threads, `grid.sync()`, a
    /// release/acquire pair); without one it is a data race, which the
    /// simulator reports. Past the end: a `trap` on the GPU, a report on
    /// the simulator.
    #[inline(always)]
    #[track_caller]
    pub fn load(&self, i: usize) -> T {
        if i >= self.len {
            arch::global_out_of_bounds(self.ptr.cast(), i, self.len, false)
        }
        // SAFETY: `i < len` (checked) and `from_raw_parts`'s contract.
        unsafe { arch::ld_global(self.ptr.add(i)) }
    }

    /// Writes element `i` whoever owns it, without the bounds check.
    ///
    /// # Safety
    /// `i < self.len()`, and no other thread accesses element `i` while
    /// this write may be in flight without a synchronisation that orders
    /// the two (the partition no longer vouches for it).
    #[inline(always)]
    #[track_caller]
    pub unsafe fn store_unchecked(&self, i: usize, v: T) {
        // SAFETY: the caller's promise, and `from_raw_parts`'s contract.
        unsafe { arch::st_global(self.ptr.add(i), v) }
    }

    /// The witness of element `i`, which the caller owns.
    #[inline(always)]
    #[track_caller]
    pub(crate) fn elem(&self, i: usize) -> Elem<'_, T> {
        debug_assert!(i < self.len);
        Elem {
            // The partition computed `i < len` from the caller's identity.
            ptr: self.ptr.wrapping_add(i),
            index: i,
            _owner: PhantomData,
        }
    }
}

/// The witness that the calling thread owns one element of an
/// [`OwnedSlice`]: made only from the thread's identity by the slice's
/// partition, it cannot be copied, sent to another thread (it is neither
/// [`ShflValue`](crate::ShflValue) nor [`Pod`], nor `Send`), or kept past
/// the slice it borrows. Through it the owner reads and writes its element.
pub struct Elem<'s, T> {
    ptr: *mut T,
    index: usize,
    _owner: PhantomData<(&'s (), *const ())>,
}

impl<T> core::fmt::Debug for Elem<'_, T> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Elem").field("index", &self.index).finish()
    }
}

impl<T: Pod> Elem<'_, T> {
    /// The element's index in its slice.
    #[inline(always)]
    pub fn index(&self) -> usize {
        self.index
    }

    /// Writes the element (`st.global`).
    #[inline(always)]
    #[track_caller]
    pub fn store(&self, v: T) {
        // SAFETY: the partition made this witness for an index below the
        // slice's length, for the one thread that owns it.
        unsafe { arch::st_global(self.ptr, v) }
    }

    /// Reads the element (`ld.global`): what the owner wrote, or what was
    /// there at the launch — an in-place update reads its own elements only.
    #[inline(always)]
    #[track_caller]
    pub fn load(&self) -> T {
        // SAFETY: as `store`.
        unsafe { arch::ld_global(self.ptr) }
    }

    /// Writes the element with the cache hint `H`
    /// ([`cache`](crate::cache): `e.store_hint(v, Streaming)` is CUDA's
    /// `__stcs`, `st.global.cs`).
    #[doc(alias = "__stcs")]
    #[doc(alias = "__stcg")]
    #[doc(alias = "__stwt")]
    #[inline(always)]
    #[track_caller]
    pub fn store_hint<H: StoreHint>(&self, v: T, hint: H) {
        // SAFETY: as `store`.
        unsafe { hint.store(self.ptr, v) }
    }

    /// Reads the element with the cache hint `H` (`e.load_hint(Streaming)`
    /// is `__ldcs`, `ld.global.cs`).
    #[doc(alias = "__ldcs")]
    #[inline(always)]
    #[track_caller]
    pub fn load_hint<H: LoadHint>(&self, hint: H) -> T {
        // SAFETY: as `store`.
        unsafe { hint.load(self.ptr) }
    }

    /// `store(f(load()))`.
    #[inline(always)]
    #[track_caller]
    pub fn update(&self, f: impl FnOnce(T) -> T) {
        self.store(f(self.load()))
    }
}
