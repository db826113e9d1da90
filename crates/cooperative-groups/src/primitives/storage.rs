//! [`TempStorage`]: the shared memory a primitive works in — CUB's
//! `TempStorage`, sized at compile time from the primitive's type.
//!
//! A primitive that exchanges data through shared memory states how many
//! bytes it needs ([`NeedsTempStorage::TEMP_BYTES`], a constant of its
//! type). The caller declares the storage once per kernel with
//! [`temp_storage!`](crate::temp_storage) (static shared memory, one
//! allocation per block, like `__shared__ typename T::TempStorage`) or
//! carves it out of the launch's dynamic shared memory
//! ([`TempStorage::from_dynamic`]), and hands it to the primitive's
//! constructor; a storage that is too small for the primitive does not
//! compile. Naming several primitives declares one region large enough for
//! each (CUB's `union` of `TempStorage`s); an array `[P; N]` declares `N`
//! regions, one per warp for warp primitives ([`TempStorage::part`]).
//!
//! # Reuse needs a barrier
//!
//! As in CUB, a storage may serve another primitive, or the same one
//! again, only after a barrier of the group that used it (`block.sync()`
//! for block primitives, `tile.sync()` for a warp primitive's own part):
//! other threads may still be reading what the last call left there. The
//! primitives never add that barrier themselves (CUB's do not either; a
//! kernel that alternates two storages needs none). On the simulator
//! every access a primitive makes to its storage is seen by the race
//! detector, so a reuse without a barrier is reported as a data race with
//! both source lines (`tests/primitives_storage.rs`).
//!
//! A storage too small for the primitive it is handed to does not compile
//! (an error when the kernel is compiled, `E0080`):
//!
//! ```compile_fail,E0080
//! use cooperative_groups::prelude::*;
//! use cooperative_groups::primitives::{BlockExchange, BlockRadixSort};
//! use cooperative_groups::temp_storage;
//! fn kernel() {
//!     let block = this_thread_block().with_threads::<64>();
//!     let temp = temp_storage!(BlockExchange<u32, 64, 2>);
//!     let mut keys = [0u32; 2];
//!     BlockRadixSort::<u32, 64, 2>::new(&block, &temp).sort(&mut keys); // needs more
//! }
//! kernel();
//! ```

use core::marker::PhantomData;
use core::mem::{align_of, size_of};

use crate::arch::{self, SharedAddr};
use crate::group::violation;
use crate::shared::{DynamicShared, SharedArray};
use crate::value::{ShflValue, from_words, to_words, words};

/// The unit [`temp_storage!`](crate::temp_storage) allocates in: 16 bytes,
/// 16-byte aligned (the alignment of the widest shared-memory access, and
/// of CUB's `TempStorage`s). Not part of the API.
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
#[repr(C, align(16))]
pub struct Chunk([u32; 4]);

// SAFETY: `repr(C)` over four `u32`s (16 bytes, no padding): any bytes are
// a `Chunk`.
unsafe impl crate::Pod for Chunk {
    const PADDING_FREE: bool = true;
}

/// A type whose values work in [`TempStorage`]: a primitive (its own
/// need), a tuple of them (the largest need: one region that serves each
/// in turn, CUB's `union`), or an array `[P; N]` (`N` regions, one after
/// the other, each 16-byte aligned).
///
/// ```
/// use cooperative_groups::primitives::{BlockExchange, BlockRadixSort, NeedsTempStorage};
/// type Exchange = BlockExchange<u32, 128, 4>;
/// type Sort = BlockRadixSort<u32, 128, 4>;
/// assert_eq!(Exchange::TEMP_BYTES, 128 * 4 * 4);
/// assert_eq!(<(Exchange, Sort)>::TEMP_BYTES, Sort::TEMP_BYTES.max(Exchange::TEMP_BYTES));
/// assert_eq!(<[Exchange; 3]>::TEMP_BYTES, 3 * Exchange::TEMP_BYTES);
/// ```
pub trait NeedsTempStorage {
    /// Bytes of shared memory needed (0 for a primitive that needs none).
    const TEMP_BYTES: usize;
    /// [`Chunk`]s that hold [`TEMP_BYTES`](Self::TEMP_BYTES) (at least one:
    /// PTX has no empty arrays). Not part of the API.
    #[doc(hidden)]
    const CHUNKS: usize = if Self::TEMP_BYTES == 0 {
        1
    } else {
        Self::TEMP_BYTES.div_ceil(16)
    };
}

/// Bytes of one part of an array layout: 16-byte aligned.
const fn part_bytes(bytes: usize) -> usize {
    bytes.next_multiple_of(16)
}

const fn max(a: usize, b: usize) -> usize {
    if a > b { a } else { b }
}

macro_rules! tuple_storage {
    ($($t:ident)+) => {
        impl<$($t: NeedsTempStorage),+> NeedsTempStorage for ($($t,)+) {
            const TEMP_BYTES: usize = {
                let mut m = 0;
                $( m = max(m, $t::TEMP_BYTES); )+
                m
            };
        }
    };
}
tuple_storage!(A);
tuple_storage!(A B);
tuple_storage!(A B C);
tuple_storage!(A B C D);
tuple_storage!(A B C D E);
tuple_storage!(A B C D E F);

impl<P: NeedsTempStorage, const N: usize> NeedsTempStorage for [P; N] {
    const TEMP_BYTES: usize = N * part_bytes(P::TEMP_BYTES);
}

/// Shared memory for the primitives that [`L`](NeedsTempStorage)
/// describes, one region per block (CUB's `TempStorage`).
///
/// A copyable handle: every thread holds one for the same region. Declare
/// it with [`temp_storage!`](crate::temp_storage), or take it from dynamic
/// shared memory with [`from_dynamic`](Self::from_dynamic); pass it to a
/// primitive's constructor. It may serve another primitive (or the same one
/// again) only after a barrier of the group that used it: the simulator
/// reports a reuse without one as a data race.
///
/// ```
/// use cooperative_groups::prelude::*;
/// use cooperative_groups::primitives::{BlockExchange, BlockRadixSort};
/// use cooperative_groups::temp_storage;
/// # let dev = cg_sim::SimDevice { stack_size: 4 << 20, ..Default::default() };
/// # cg_sim::launch_on(&dev, &cg_sim::LaunchConfig::new(1, 64), &|| {
/// let block = this_thread_block().with_threads::<64>();
/// // One region for both primitives, used one after the other.
/// let temp = temp_storage!(BlockExchange<u32, 64, 2>, BlockRadixSort<u32, 64, 2>);
/// let r = block.thread_rank();
/// let mut keys = [1000 - r, 2000 - r];               // blocked
/// BlockRadixSort::<u32, 64, 2>::new(&block, &temp).sort(&mut keys);
/// block.sync();                                      // before the storage is reused
/// let striped = BlockExchange::new(&block, &temp).blocked_to_striped(keys);
/// # assert_eq!(striped, [937 + r, 1937 + r]);
/// # }).unwrap();
/// ```
pub struct TempStorage<L: NeedsTempStorage> {
    base: SharedAddr,
    /// The block whose shared memory it is: on the simulator, where a
    /// storage kept past its block (or used by another) would reach freed
    /// memory, every access a primitive makes through it is checked.
    owner: arch::SharedOwner,
    _layout: PhantomData<fn() -> L>,
}

impl<L: NeedsTempStorage> Clone for TempStorage<L> {
    #[inline(always)]
    fn clone(&self) -> Self {
        *self
    }
}
impl<L: NeedsTempStorage> Copy for TempStorage<L> {}

impl<L: NeedsTempStorage> TempStorage<L> {
    /// The storage in a [`SharedArray`] of [`Chunk`]s (what
    /// [`temp_storage!`](crate::temp_storage) declares); `N` chunks must
    /// hold `L::TEMP_BYTES` (checked when the kernel is compiled).
    #[doc(hidden)]
    #[inline(always)]
    pub fn from_array<const N: usize>(array: SharedArray<Chunk, N>) -> Self {
        const {
            assert!(
                N * 16 >= L::TEMP_BYTES,
                "the shared array is smaller than the temporary storage"
            )
        };
        TempStorage {
            base: array.addr(),
            owner: array.owner(),
            _layout: PhantomData,
        }
    }

    /// `L::TEMP_BYTES` bytes of the launch's dynamic shared memory from
    /// byte `offset` (a multiple of 16), for kernels whose storage is
    /// sized by a generic parameter (a static array's length must be a
    /// constant of the kernel: [`temp_storage!`](crate::temp_storage)
    /// cannot name a generic type).
    ///
    /// # Panics
    /// An `offset` that is not a multiple of 16, or a region that does
    /// not fit in the launch's dynamic shared memory, is a contract
    /// violation (`trap` on the GPU, a panic on the simulator).
    ///
    /// ```
    /// use cooperative_groups::prelude::*;
    /// use cooperative_groups::primitives::{BlockExchange, NeedsTempStorage, TempStorage};
    /// use cooperative_groups::dynamic_shared;
    /// fn rotate<const B: u32>(x: [u32; 2]) -> [u32; 2] {
    ///     let block = this_thread_block().with_threads::<B>();
    ///     let temp = TempStorage::<BlockExchange<u32, B, 2>>::from_dynamic(&dynamic_shared::<u8>(), 0);
    ///     BlockExchange::new(&block, &temp).blocked_to_striped(x)
    /// }
    /// # let dev = cg_sim::SimDevice { stack_size: 4 << 20, ..Default::default() };
    /// let bytes = BlockExchange::<u32, 32, 2>::TEMP_BYTES as u32;
    /// let cfg = cg_sim::LaunchConfig::new(1, 32).with_dynamic_smem(bytes);
    /// cg_sim::launch_on(&dev, &cfg, &|| {
    ///     let r = this_thread_block().thread_rank();
    ///     assert_eq!(rotate::<32>([2 * r, 2 * r + 1]), [r, r + 32]);
    /// })
    /// .unwrap();
    /// ```
    #[inline(always)]
    #[track_caller]
    pub fn from_dynamic<U: crate::Pod>(dynamic: &DynamicShared<U>, offset: usize) -> Self {
        let bytes = dynamic.len() * size_of::<U>();
        if !offset.is_multiple_of(16) || offset > bytes || bytes - offset < L::TEMP_BYTES {
            violation!(
                "TempStorage::from_dynamic: {} bytes at offset {offset} do not fit in {bytes} bytes of dynamic shared memory 16-byte aligned",
                L::TEMP_BYTES
            );
        }
        TempStorage {
            base: arch::shared_add(dynamic.addr(), offset as u32),
            owner: dynamic.owner(),
            _layout: PhantomData,
        }
    }

    /// The region's size in bytes, `L::TEMP_BYTES`.
    #[inline(always)]
    pub const fn bytes(&self) -> usize {
        L::TEMP_BYTES
    }

    /// The region as a primitive's view, checked when the kernel is
    /// compiled to hold `P::TEMP_BYTES`.
    #[inline(always)]
    pub(crate) fn smem<P: NeedsTempStorage>(&self) -> Smem {
        const {
            assert!(
                L::TEMP_BYTES >= P::TEMP_BYTES,
                "this TempStorage is too small for the primitive: declare it with the primitive's type"
            )
        };
        Smem {
            base: self.base,
            owner: self.owner,
        }
    }
}

impl<P: NeedsTempStorage, const N: usize> TempStorage<[P; N]> {
    /// Part `i` of an array storage (warp `i`'s, for a warp primitive:
    /// `temp.part(tile.meta_group_rank())`).
    ///
    /// # Panics
    /// `i >= N` is a contract violation (`trap` on the GPU, a panic on the
    /// simulator).
    #[inline(always)]
    #[track_caller]
    pub fn part(&self, i: u32) -> TempStorage<P> {
        if i as usize >= N {
            violation!("TempStorage::part({i}) of an array of {N}");
        }
        TempStorage {
            base: arch::shared_add(self.base, i * part_bytes(P::TEMP_BYTES) as u32),
            owner: self.owner,
            _layout: PhantomData,
        }
    }
}

/// A primitive's view of its storage: typed accesses at byte offsets,
/// each seen by the simulator's race detector.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Smem {
    base: SharedAddr,
    /// Its storage's owner (see [`TempStorage`]).
    owner: arch::SharedOwner,
}

/// `T` moves through shared memory as 32-bit words (its size is a multiple
/// of 4); otherwise as one access of its own size.
#[inline(always)]
const fn by_words<T>() -> bool {
    size_of::<T>().is_multiple_of(4) && size_of::<T>() > 0
}

impl Smem {
    /// No storage (a primitive that needs none never touches it).
    #[inline(always)]
    pub(crate) const fn none() -> Smem {
        Smem {
            base: arch::NO_SHARED,
            owner: arch::no_owner(),
        }
    }

    /// The view `bytes` further on.
    #[inline(always)]
    pub(crate) fn offset(self, bytes: u32) -> Smem {
        Smem {
            base: arch::shared_add(self.base, bytes),
            owner: self.owner,
        }
    }

    arch::sim_only! {
        /// On the simulator, before an access: a misuse report at the caller's
        /// line unless the storage is the calling thread's block's (a storage
        /// or a primitive kept past its block, or used by another, would reach
        /// freed memory); `false` only for an unwinding thread that may not
        /// use it, which skips the access. The GPU has nothing to check.
        #[inline(always)]
        #[track_caller]
        fn reach(self) -> bool {
            arch::shared_own(self.owner, "primitive's temporary storage")
        }
    }

    /// Stores `v` at byte offset `off` (a multiple of `T`'s size).
    #[inline(always)]
    #[track_caller]
    pub(crate) fn store<T: ShflValue>(self, off: u32, v: T) {
        arch::sim_only! {
            if !self.reach() {
                return;
            }
        }
        let a = arch::shared_add(self.base, off);
        if by_words::<T>() {
            let w = to_words(v);
            let n = words::<T>();
            if n == 2 && align_of::<T>() >= 8 {
                // SAFETY: inside the primitive's storage (its callers'
                // offsets stay below `TEMP_BYTES`), 8-byte aligned.
                unsafe { arch::st_shared_v2_u32(a, [w[0], w[1]]) };
            } else if n == 4 && align_of::<T>() >= 16 {
                // SAFETY: as above, 16-byte aligned.
                unsafe { arch::st_shared_v4_u32(a, [w[0], w[1], w[2], w[3]]) };
            } else {
                let mut i = 0;
                while i < n {
                    // SAFETY: as above, word `i` of the value.
                    unsafe { arch::st_shared_u32(arch::shared_add(a, 4 * i as u32), w[i]) };
                    i += 1;
                }
            }
        } else {
            arch::note_store(arch::shared_to_generic(a), size_of::<T>());
            // SAFETY: as above, aligned for `T` (offsets are multiples of
            // its size, the base is 16-byte aligned).
            unsafe { arch::st_shared::<T>(a, v) };
        }
    }

    /// Stores the word `v` at byte offset `off` (a multiple of 4) when
    /// `cond` holds: a predicated store, no branch.
    #[inline(always)]
    #[track_caller]
    pub(crate) fn store_if(self, cond: bool, off: u32, v: u32) {
        arch::sim_only! {
            if !self.reach() {
                return;
            }
        }
        // SAFETY: inside the primitive's storage where `cond` holds (its
        // callers' offsets stay below `TEMP_BYTES`), 4-byte aligned.
        unsafe { arch::st_shared_u32_if(cond, arch::shared_add(self.base, off), v) };
    }

    /// Loads the `T` at byte offset `off` (see [`store`](Self::store)).
    #[inline(always)]
    #[track_caller]
    pub(crate) fn load<T: ShflValue>(self, off: u32) -> T {
        arch::sim_only! {
            if !self.reach() {
                return crate::value::zeroed::<T>();
            }
        }
        let a = arch::shared_add(self.base, off);
        if by_words::<T>() {
            let n = words::<T>();
            let mut w = [0u32; 8];
            if n == 2 && align_of::<T>() >= 8 {
                // SAFETY: as in `store`.
                let [x, y] = unsafe { arch::ld_shared_v2_u32(a) };
                w[0] = x;
                w[1] = y;
            } else if n == 4 && align_of::<T>() >= 16 {
                // SAFETY: as in `store`.
                let v = unsafe { arch::ld_shared_v4_u32(a) };
                w[..4].copy_from_slice(&v);
            } else {
                let mut i = 0;
                while i < n {
                    // SAFETY: as in `store`.
                    w[i] = unsafe { arch::ld_shared_u32(arch::shared_add(a, 4 * i as u32)) };
                    i += 1;
                }
            }
            from_words(w)
        } else {
            arch::note_load(arch::shared_to_generic(a), size_of::<T>());
            // SAFETY: as in `store`.
            unsafe { arch::ld_shared::<T>(a) }
        }
    }

    /// Stores `items` at consecutive positions from byte offset `off`
    /// with 16-byte vector stores where `vector` (the caller checked that
    /// `off` is a multiple of 16 and the run's size one of 16 bytes).
    #[inline(always)]
    #[track_caller]
    pub(crate) fn store_run<T: ShflValue, const N: usize>(
        self,
        off: u32,
        items: &[T; N],
        vector: bool,
    ) {
        let size = size_of::<T>() as u32;
        if !(vector && by_words::<T>()) {
            let mut i = 0;
            while i < N {
                self.store(off + i as u32 * size, items[i]);
                i += 1;
            }
            return;
        }
        arch::sim_only! {
            if !self.reach() {
                return;
            }
        }
        let mut buf = [0u32; 4];
        let mut k = 0;
        let mut at = off;
        let mut i = 0;
        while i < N {
            let w = to_words(items[i]);
            let mut j = 0;
            while j < words::<T>() {
                buf[k] = w[j];
                k += 1;
                if k == 4 {
                    // SAFETY: inside the storage; `at` is 16-byte aligned
                    // (the caller's `vector` contract).
                    unsafe { arch::st_shared_v4_u32(arch::shared_add(self.base, at), buf) };
                    at += 16;
                    k = 0;
                }
                j += 1;
            }
            i += 1;
        }
    }

    /// Loads `N` consecutive items from byte offset `off` (see
    /// [`store_run`](Self::store_run)).
    #[inline(always)]
    #[track_caller]
    pub(crate) fn load_run<T: ShflValue, const N: usize>(self, off: u32, vector: bool) -> [T; N] {
        let size = size_of::<T>() as u32;
        let mut out = [crate::value::zeroed::<T>(); N];
        if !(vector && by_words::<T>()) {
            let mut i = 0;
            while i < N {
                out[i] = self.load(off + i as u32 * size);
                i += 1;
            }
            return out;
        }
        arch::sim_only! {
            if !self.reach() {
                return out;
            }
        }
        let mut buf = [0u32; 4];
        let mut k = 4;
        let mut at = off;
        let mut i = 0;
        while i < N {
            let mut w = [0u32; 8];
            let mut j = 0;
            while j < words::<T>() {
                if k == 4 {
                    // SAFETY: as in `store_run`.
                    buf = unsafe { arch::ld_shared_v4_u32(arch::shared_add(self.base, at)) };
                    at += 16;
                    k = 0;
                }
                w[j] = buf[k];
                k += 1;
                j += 1;
            }
            out[i] = from_words(w);
            i += 1;
        }
        out
    }

    /// `red.shared.add.u32` on the word at byte offset `off`.
    #[inline(always)]
    #[track_caller]
    pub(crate) fn red_add(self, off: u32, v: u32) {
        arch::sim_only! {
            if !self.reach() {
                return;
            }
        }
        // SAFETY: inside the storage, 4-byte aligned (the caller's offset).
        unsafe { arch::red_shared_add_u32(arch::shared_add(self.base, off), v) };
    }
}

/// A [`SharedArray`]'s view, for the primitives that work in an array the
/// caller owns (the histogram's bins).
#[inline(always)]
pub(crate) fn array_smem<T: crate::Pod, const N: usize>(a: &SharedArray<T, N>) -> Smem {
    Smem {
        base: a.addr(),
        owner: a.owner(),
    }
}
