//! [`AtomicSlice`]: global memory that every thread updates atomically.

use core::marker::PhantomData;

use crate::Pod;
use crate::arch;
use crate::atomic::{AtomicRef, AtomicValue, Device, LoadOrdering, Scope, StoreOrdering};

/// A kernel's buffer of atomic objects of scope `S`: any thread may reach
/// any element, and only through an [`AtomicRef`] (a histogram, a counter,
/// a scatter whose targets collide) — what an ownership partition cannot
/// express. The index is checked: past the end, a `trap` on the GPU and a
/// report on the simulator. The memory is known to be global, so every
/// access uses the `.global` forms (`red.relaxed.gpu.global.add.u32`, SASS
/// `REDG` on sm_90; `atom.global`, `ATOMG`), as nvcc emits for a global
/// pointer, where an [`AtomicRef::from_ptr`] of a pointer uses the generic
/// ones.
///
/// ```
/// # use cooperative_groups::prelude::*;
/// # use cooperative_groups::{kernel, AtomicSlice, GlobalSlice};
/// # use cooperative_groups::atomic::Relaxed;
/// /// A 16-bin histogram of `keys`.
/// #[kernel]
/// pub fn histogram(keys: GlobalSlice<u32>, bins: AtomicSlice<u32>) {
///     let (rank, n) = (this_grid().thread_rank() as usize, keys.len());
///     if rank < n {
///         bins.at((keys.load(rank) % 16) as usize).red_add(1, Relaxed);
///     }
/// }
/// # let keys: Vec<u32> = (0..200).collect();
/// # let mut bins = vec![0u32; 16];
/// # cooperative_groups::host::run(&HISTOGRAM, &cg_sim::LaunchConfig::new(4, 64), (&keys[..], &mut bins[..])).unwrap();
/// # assert_eq!(bins.iter().sum::<u32>(), 200);
/// ```
#[repr(C)]
pub struct AtomicSlice<'a, T, S: Scope = Device> {
    ptr: *mut T,
    len: usize,
    /// The launch (or the borrow of the buffer) the view lives in: a view
    /// cannot be kept past it.
    _t: PhantomData<(&'a (), T, S)>,
}

impl<T, S: Scope> Clone for AtomicSlice<'_, T, S> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T, S: Scope> Copy for AtomicSlice<'_, T, S> {}

impl<T, S: Scope> core::fmt::Debug for AtomicSlice<'_, T, S> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("AtomicSlice")
            .field("ptr", &self.ptr)
            .field("len", &self.len)
            .finish()
    }
}

impl<T: AtomicValue + Pod, S: Scope> AtomicSlice<'_, T, S> {
    /// A view of `len` atomic objects at `ptr`.
    ///
    /// # Safety
    /// For the whole launch, `ptr` must be valid for atomic accesses of
    /// `len` elements of `T` aligned to their size, in global memory (host
    /// memory the launch registered, on the simulator), and every access to
    /// them during the launch must be atomic. `cg-runtime`'s launch builds
    /// it from a `&mut Buffer<T>`.
    #[inline(always)]
    pub const unsafe fn from_raw_parts(ptr: *mut T, len: usize) -> Self {
        AtomicSlice {
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

    /// Element `i` as an atomic object: `fetch_add`, `red_add`,
    /// `compare_exchange`, … with the ordering of each call.
    #[inline(always)]
    #[track_caller]
    pub fn at(&self, i: usize) -> AtomicRef<'_, T, S> {
        if i >= self.len {
            arch::global_out_of_bounds(self.ptr.cast(), i, self.len, true)
        }
        // Every atomic of the element may write it: the simulator checks
        // that the launch registered it writable.
        arch::global_region_check_write(self.ptr.wrapping_add(i).cast(), core::mem::size_of::<T>());
        // SAFETY: `i < len`, and `from_raw_parts`'s contract: global
        // memory, valid for atomic accesses for the launch, every access
        // atomic.
        unsafe { AtomicRef::from_global_ptr(self.ptr.add(i)) }
    }

    /// Reads element `i`: `self.at(i).load(order)`, PTX
    /// `ld.relaxed.gpu.global` for [`Relaxed`](crate::atomic::Relaxed)
    /// (`ld.acquire` for [`Acquire`](crate::atomic::Acquire)). The spin of a
    /// CUDA kernel on a counter that other blocks increment, `while
    /// (*(volatile unsigned *)count < n) {}`, is `while count.load(0,
    /// Relaxed) < n {}` (at [`System`](crate::atomic::System) scope, what
    /// `volatile` is in the PTX memory model: an `AtomicSlice<u32,
    /// System>`); [`Acquire`](crate::atomic::Acquire) where the spin must
    /// also see what the incrementing blocks wrote before.
    ///
    /// ```
    /// # use cooperative_groups::prelude::*;
    /// # use cooperative_groups::{kernel, AtomicSlice};
    /// # use cooperative_groups::atomic::{Acquire, Release};
    /// /// Block 0 waits until every other block has arrived.
    /// #[kernel]
    /// pub fn arrivals(count: AtomicSlice<u32>) {
    ///     let block = this_thread_block();
    ///     let blocks = this_grid().num_blocks();
    ///     if block.thread_rank() == 0 {
    ///         if block.group_index().x == 0 {
    ///             while count.load(0, Acquire) < blocks - 1 {}
    ///         } else {
    ///             count.at(0).fetch_add(1, Release);
    ///         }
    ///     }
    /// }
    /// # let mut count = [0u32];
    /// # // Co-resident blocks: a cooperative launch.
    /// # cooperative_groups::host::run(&ARRIVALS, &cg_sim::LaunchConfig::new(4, 32).with_cooperative(true), (&mut count[..],)).unwrap();
    /// # assert_eq!(count[0], 3);
    /// ```
    #[doc(alias = "volatile")]
    #[inline(always)]
    #[track_caller]
    pub fn load<O: LoadOrdering>(&self, i: usize, order: O) -> T {
        self.at(i).load(order)
    }

    /// Writes element `i`: `self.at(i).store(v, order)`, PTX
    /// `st.relaxed.gpu.global` for [`Relaxed`](crate::atomic::Relaxed)
    /// (`st.release` for [`Release`](crate::atomic::Release)).
    #[inline(always)]
    #[track_caller]
    pub fn store<O: StoreOrdering>(&self, i: usize, v: T, order: O) {
        self.at(i).store(v, order)
    }
}
