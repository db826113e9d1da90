//! Shared memory: statically sized arrays per allocation site
//! ([`shared_array!`](crate::shared_array)) and the block's dynamic shared
//! memory ([`dynamic_shared`]).
//!
//! Accesses are bounds-checked (an out-of-range index traps on the GPU and is
//! reported with its source line by the simulator). They compile to the
//! `.shared` state space (`ld.shared`/`st.shared`, SASS `LDS`/`STS`), as
//! nvcc's do: a generic `ld`/`st` that ptxas cannot prove to be shared costs
//! a block barrier after it several times its own price (measured by
//! `cg-lab sync`). A [`SharedSlice`] (a copy's destination or source,
//! its length known at run time) is accessed through the `.shared` window
//! too, for its padding-free element types (the primitives, the vectors:
//! a `Vector<f32, 4>` by `LDS.128` and `STS.128`). Arrays of a peer block (DSMEM,
//! [`ClusterGroup::map_shared_array`](crate::ClusterGroup::map_shared_array))
//! are reached through generic addresses, as in CUDA. Shared memory is shared
//! by every thread of the block: a value stored by one thread is visible to
//! another only after a barrier of a group containing both (e.g.
//! `block.sync()`), exactly as in CUDA.

use core::marker::PhantomData;

use crate::Pod;
use crate::arch;
use crate::group::{Size, ThreadBlockTile, TileSize};

/// Where a [`SharedArray`] lives: this block's shared memory ([`Local`],
/// reached through the `.shared` window) or a peer block's of the cluster
/// ([`Peer`], reached through a generic address).
pub trait Space: space::Sealed + Copy + 'static {}

mod space {
    pub trait Sealed {
        /// Accesses go through the `.shared` window.
        const LOCAL: bool;
    }
}

/// This block's shared memory (the default).
#[derive(Clone, Copy, Debug)]
pub struct Local;
/// A peer block's shared memory, mapped through DSMEM.
#[derive(Clone, Copy, Debug)]
pub struct Peer;
impl space::Sealed for Local {
    const LOCAL: bool = true;
}
impl space::Sealed for Peer {
    const LOCAL: bool = false;
}
impl Space for Local {}
impl Space for Peer {}

/// A `[T; N]` in shared memory, one per block, declared with
/// [`shared_array!`](crate::shared_array). `T` is [`Pod`]: an element no
/// thread wrote holds whatever bytes were there (on the simulator, a
/// poison pattern), and any bytes must be a valid `T` for a safe `load` —
/// `shared_array!(&u32; 4)` or `shared_array!(bool; 4)` does not compile.
///
/// The handle is a copyable pointer; the memory lives as long as the block.
/// `S` says whose memory it is: [`Local`] (the default), or [`Peer`] for
/// another block's array mapped by
/// [`map_shared_array`](crate::ClusterGroup::map_shared_array).
///
/// On the GPU a handle cannot leave its block in safe code. On the
/// simulator it can (kept in a `Cell` of the launch's closure, or in a
/// `thread_local!`), and its block's shared memory is host memory that
/// the block's end frees: the handle records its block, and every access
/// through it (and through the slices made from it) is checked first — a
/// handle used after its block ended, or by another block, ends the
/// launch with a misuse report naming the access's line.
///
/// ```
/// # use cooperative_groups::{prelude::*, shared_array};
/// # let dev = cg_sim::SimDevice { stack_size: 4 << 20, ..Default::default() };
/// # cg_sim::launch_on(&dev, &cg_sim::LaunchConfig::new(1, 64), &|| {
/// # let block = this_thread_block();
/// # let tile = tiled_partition::<32>(&block);
/// # let warp = tile.meta_group_rank() as usize;
/// # let partial = reduce(&tile, 1.0f32, Plus);
/// let sums = shared_array!(f32; 32);
/// if tile.thread_rank() == 0 {
///     sums.store(warp, partial);
/// }
/// block.sync();
/// let total = sums.load(0) + sums.load(1);
/// # assert_eq!(total, 64.0);
/// # }).unwrap();
/// ```
pub struct SharedArray<T, const N: usize, S: Space = Local> {
    /// Generic address of element 0.
    ptr: *mut T,
    /// Its address in the `.shared` window (meaningful for [`Local`]).
    addr: arch::SharedAddr,
    /// The block whose memory it is (the simulator's; nothing on the GPU).
    owner: arch::SharedOwner,
    _space: PhantomData<S>,
}

impl<T, const N: usize, S: Space> Clone for SharedArray<T, N, S> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T, const N: usize, S: Space> Copy for SharedArray<T, N, S> {}

impl<T: Pod, const N: usize> SharedArray<T, N> {
    /// Wraps the shared allocation at `addr`.
    ///
    /// The handle records the calling thread's block as the array's (see
    /// the type's docs).
    ///
    /// # Safety
    /// `addr` must name a per-block shared allocation of the calling
    /// thread's block, of at least `size_of::<[T; N]>()` bytes aligned for
    /// `T`, that lives as long as the block.
    /// [`shared_array!`](crate::shared_array) guarantees this.
    #[inline(always)]
    pub unsafe fn from_shared_addr(addr: arch::SharedAddr) -> Self {
        // SAFETY: the caller's contract, for the calling thread's block.
        unsafe { Self::from_owned_addr(addr, arch::shared_owner()) }
    }

    /// Wraps the shared allocation at `addr` of the block `owner` names.
    ///
    /// # Safety
    /// As [`from_shared_addr`](Self::from_shared_addr), for `owner`'s
    /// block instead of the calling thread's.
    #[inline(always)]
    unsafe fn from_owned_addr(addr: arch::SharedAddr, owner: arch::SharedOwner) -> Self {
        SharedArray {
            ptr: arch::shared_to_generic(addr).cast(),
            addr,
            owner,
            _space: PhantomData,
        }
    }
}

/// Atomics on the words of this block's arrays: CUDA's `atomicAdd` on a
/// `__shared__` counter (relaxed, block scope), in the `.shared` state
/// space as nvcc writes it. The simulator's race detector sees them as
/// atomics: they never race with each other, and plain accesses of the
/// same word are ordered against them only by barriers.
impl<const N: usize> SharedArray<u32, N> {
    /// `atomicAdd(&a[i], v)`: adds `v` to element `i` and returns the value
    /// before. Panics (traps on the GPU) if `i >= N`.
    ///
    /// Lowers to `atom.shared.add.u32` (SASS `ATOMS.ADD`).
    ///
    /// ```
    /// # use cooperative_groups::{prelude::*, shared_array};
    /// # use std::sync::Mutex;
    /// # let got = Mutex::new(Vec::new());
    /// # cg_sim::launch(&cg_sim::LaunchConfig::new(1, 64), &|| {
    /// let block = this_thread_block();
    /// // Each thread takes a ticket from one block-wide counter.
    /// let next = shared_array!(u32; 1);
    /// if block.thread_rank() == 0 {
    ///     next.store(0, 0);
    /// }
    /// block.sync();
    /// let ticket = next.fetch_add(0, 1);
    /// # got.lock().unwrap().push(ticket);
    /// # }).unwrap();
    /// # let mut got = got.into_inner().unwrap();
    /// # got.sort();
    /// # assert_eq!(got, (0..64).collect::<Vec<u32>>());
    /// ```
    #[inline(always)]
    #[track_caller]
    pub fn fetch_add(&self, i: usize, v: u32) -> u32 {
        assert!(i < N, "shared_array index out of bounds");
        arch::sim_only! {
            if !reach(self.owner, self.ptr.wrapping_add(i), true, ATOMIC) {
                return 0;
            }
        }
        // SAFETY: `i < N`: a 4-byte aligned word of this block's array.
        unsafe { arch::atom_shared_add_u32(arch::shared_add(self.addr, elem_offset::<u32>(i)), v) }
    }

    /// `atomicAdd(&a[i], v)` whose result is not used. Panics (traps on the
    /// GPU) if `i >= N`.
    ///
    /// Lowers to `red.shared.add.u32` (SASS `ATOMS.ADD` to `RZ`).
    #[inline(always)]
    #[track_caller]
    pub fn red_add(&self, i: usize, v: u32) {
        assert!(i < N, "shared_array index out of bounds");
        arch::sim_only! {
            if !reach(self.owner, self.ptr.wrapping_add(i), true, ATOMIC) {
                return;
            }
        }
        // SAFETY: as in `fetch_add`.
        unsafe { arch::red_shared_add_u32(arch::shared_add(self.addr, elem_offset::<u32>(i)), v) }
    }
}

impl<T: Pod, const N: usize> SharedArray<T, N, Peer> {
    /// Wraps a generic pointer to a peer block's `[T; N]` (mapped through
    /// DSMEM).
    ///
    /// # Safety
    /// As [`SharedArray::from_shared_addr`], for a generic address of a
    /// block of the caller's cluster, which `owner` names (a mapped
    /// handle's owner).
    #[inline(always)]
    pub(crate) unsafe fn from_generic_ptr(
        ptr: *mut T,
        local: arch::SharedAddr,
        owner: arch::SharedOwner,
    ) -> Self {
        SharedArray {
            ptr,
            addr: local,
            owner,
            _space: PhantomData,
        }
    }
}

impl<T: Pod, const N: usize, S: Space> SharedArray<T, N, S> {
    /// Element `i`, unchecked: through the `.shared` window for this
    /// block's array, through the generic address for a peer's.
    ///
    /// # Safety
    /// `i < N`.
    #[inline(always)]
    #[track_caller]
    unsafe fn read(&self, i: usize) -> T {
        arch::note_load(self.ptr.wrapping_add(i).cast(), core::mem::size_of::<T>());
        // SAFETY: `i < N` (caller) and the allocation holds `N` elements.
        unsafe {
            if <S as space::Sealed>::LOCAL {
                arch::ld_shared::<T>(arch::shared_add(self.addr, elem_offset::<T>(i)))
            } else {
                self.ptr.add(i).read()
            }
        }
    }

    /// Writes element `i`, unchecked (see [`read`](Self::read)).
    ///
    /// # Safety
    /// `i < N`.
    #[inline(always)]
    #[track_caller]
    unsafe fn write(&self, i: usize, v: T) {
        arch::note_store(self.ptr.wrapping_add(i).cast(), core::mem::size_of::<T>());
        // SAFETY: `i < N` (caller) and the allocation holds `N` elements.
        unsafe {
            if <S as space::Sealed>::LOCAL {
                arch::st_shared_pod::<T>(arch::shared_add(self.addr, elem_offset::<T>(i)), v)
            } else {
                self.ptr.add(i).write(v)
            }
        }
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

    /// A generic pointer to element 0 (for raw access).
    #[inline(always)]
    pub fn as_ptr(&self) -> *mut T {
        self.ptr
    }

    /// Element 0's address in this block's `.shared` window.
    #[inline(always)]
    pub(crate) fn addr(&self) -> arch::SharedAddr {
        self.addr
    }

    /// The block whose memory the array is (the simulator's record).
    #[inline(always)]
    pub(crate) fn owner(&self) -> arch::SharedOwner {
        self.owner
    }

    /// The whole array as a [`SharedSlice`] (e.g. a `memcpy_async`
    /// destination), in the array's space: a peer's array gives a
    /// `SharedSlice<T, Peer>`.
    #[inline(always)]
    pub fn as_slice(&self) -> SharedSlice<T, S> {
        SharedSlice {
            ptr: self.ptr,
            addr: self.addr,
            len: N,
            owner: self.owner,
            _space: PhantomData,
        }
    }

    /// Elements `start..start + len` as a [`SharedSlice`]. Panics (traps
    /// on the GPU) if they are not all inside the array.
    #[inline(always)]
    #[track_caller]
    pub fn slice(&self, start: usize, len: usize) -> SharedSlice<T, S> {
        self.as_slice().slice(start, len)
    }

    /// Reads element `i`. Panics (traps on the GPU) if `i >= N`.
    ///
    /// In a hot loop, give the compiler an index it can bound (`i & (N - 1)`
    /// for a power-of-two `N`, [`load_at`](Self::load_at),
    /// [`load_rank`](Self::load_rank)): a bounds check left in a loop is an
    /// exit that keeps ptxas from eliding a sub-warp tile's `bar.warp.sync`
    /// (its SASS keeps a `WARPSYNC` in every iteration instead of one
    /// convergence test; `cg-lab sync` measured the difference).
    #[inline(always)]
    #[track_caller]
    pub fn load(&self, i: usize) -> T {
        assert!(i < N, "shared_array index out of bounds");
        arch::sim_only! {
            if !reach(self.owner, self.ptr.wrapping_add(i), false, LOAD) {
                return refused();
            }
        }
        // SAFETY: `i < N` and the allocation holds `N` elements of `T`.
        unsafe { self.read(i) }
    }

    /// Writes element `i`. Panics (traps on the GPU) if `i >= N`.
    #[inline(always)]
    #[track_caller]
    pub fn store(&self, i: usize, v: T) {
        assert!(i < N, "shared_array index out of bounds");
        arch::sim_only! {
            if !reach(self.owner, self.ptr.wrapping_add(i), true, STORE) {
                return;
            }
        }
        // SAFETY: `i < N` and the allocation holds `N` elements of `T`.
        unsafe { self.write(i, v) }
    }

    /// Reads element `I`, a constant: `I < N` is checked when the kernel is
    /// compiled, so the PTX has no bounds check.
    #[inline(always)]
    #[track_caller]
    pub fn load_at<const I: usize>(&self) -> T {
        const { assert!(I < N, "shared_array index out of bounds") };
        arch::sim_only! {
            if !reach(self.owner, self.ptr.wrapping_add(I), false, LOAD) {
                return refused();
            }
        }
        // SAFETY: `I < N` (checked at compile time).
        unsafe { self.read(I) }
    }

    /// Writes element `I`, a constant checked against `N` at compile time.
    #[inline(always)]
    #[track_caller]
    pub fn store_at<const I: usize>(&self, v: T) {
        const { assert!(I < N, "shared_array index out of bounds") };
        arch::sim_only! {
            if !reach(self.owner, self.ptr.wrapping_add(I), true, STORE) {
                return;
            }
        }
        // SAFETY: `I < N` (checked at compile time).
        unsafe { self.write(I, v) }
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
        arch::sim_only! {
            let p = self.ptr.wrapping_add(tile.thread_rank() as usize);
            if !reach(self.owner, p, false, LOAD) {
                return refused();
            }
        }
        // SAFETY: `thread_rank() < M <= N`.
        unsafe { self.read(tile.thread_rank() as usize) }
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
        arch::sim_only! {
            let p = self.ptr.wrapping_add(tile.thread_rank() as usize);
            if !reach(self.owner, p, true, STORE) {
                return;
            }
        }
        // SAFETY: `thread_rank() < M <= N`.
        unsafe { self.write(tile.thread_rank() as usize, v) }
    }
}

/// Byte offset of element `i` (below `N`, so in the 32-bit window).
#[inline(always)]
fn elem_offset<T>(i: usize) -> u32 {
    (i * core::mem::size_of::<T>()) as u32
}

/// The block's dynamic shared memory (`extern __shared__`), viewed as `[T]`.
///
/// Its size is the `dynamic_smem_bytes` of the launch; `len()` is that size
/// divided by `size_of::<T>()`.
///
/// Like a [`SharedArray`], the handle records its block on the simulator,
/// where every access through it is checked.
pub struct DynamicShared<T> {
    ptr: *mut T,
    addr: arch::SharedAddr,
    len: usize,
    /// The block whose memory it is (the simulator's; nothing on the GPU).
    owner: arch::SharedOwner,
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
pub fn dynamic_shared<T: Pod>() -> DynamicShared<T> {
    const {
        assert!(
            core::mem::align_of::<T>() <= 16,
            "dynamic shared memory is 16-byte aligned"
        )
    };
    let (addr, bytes) = arch::dynamic_shared();
    DynamicShared {
        ptr: arch::shared_to_generic(addr).cast(),
        addr,
        len: bytes / core::mem::size_of::<T>().max(1),
        owner: arch::shared_owner(),
        _t: PhantomData,
    }
}

impl<T: Pod> DynamicShared<T> {
    /// Element 0's address in this block's `.shared` window.
    #[inline(always)]
    pub(crate) fn addr(&self) -> arch::SharedAddr {
        self.addr
    }

    /// The block whose memory it is (the simulator's record).
    #[inline(always)]
    pub(crate) fn owner(&self) -> arch::SharedOwner {
        self.owner
    }

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

    /// Elements `start..start + N` as a [`SharedArray<T, N>`](SharedArray):
    /// a fixed-size array where the size is a generic parameter (which
    /// [`shared_array!`](crate::shared_array) cannot take). Panics (traps
    /// on the GPU) if they are not all inside.
    ///
    /// ```
    /// # use cooperative_groups::prelude::*;
    /// # use cooperative_groups::dynamic_shared;
    /// fn zeroed<const N: usize>() -> cooperative_groups::SharedArray<u32, N> {
    ///     let a = dynamic_shared::<u32>().array_at::<N>(0);
    ///     let r = this_thread_block().thread_rank() as usize;
    ///     if r < N { a.store(r, 0) }
    ///     this_thread_block().sync();
    ///     a
    /// }
    /// # let cfg = cg_sim::LaunchConfig::new(1, 32).with_dynamic_smem(64);
    /// # cg_sim::launch(&cfg, &|| assert_eq!(zeroed::<16>().load(15), 0)).unwrap();
    /// ```
    #[inline(always)]
    #[track_caller]
    pub fn array_at<const N: usize>(&self, start: usize) -> SharedArray<T, N> {
        assert!(
            start <= self.len && N <= self.len - start,
            "dynamic shared memory array out of bounds"
        );
        let addr = arch::shared_add(self.addr, elem_offset::<T>(start));
        // SAFETY: elements `start..start + N` lie inside the launch's
        // dynamic shared memory (checked), aligned for `T` (the region is
        // 16-byte aligned, `T` at most 16: `dynamic_shared`), alive for
        // the block, whose owner the array keeps.
        unsafe { SharedArray::from_owned_addr(addr, self.owner) }
    }

    /// All of it as a [`SharedSlice`] (e.g. a `memcpy_async` destination).
    #[inline(always)]
    pub fn as_slice(&self) -> SharedSlice<T> {
        SharedSlice {
            ptr: self.ptr,
            addr: self.addr,
            len: self.len,
            owner: self.owner,
            _space: PhantomData,
        }
    }

    /// Elements `start..start + len` as a [`SharedSlice`]. Panics (traps
    /// on the GPU) if they are not all inside.
    #[inline(always)]
    #[track_caller]
    pub fn slice(&self, start: usize, len: usize) -> SharedSlice<T> {
        self.as_slice().slice(start, len)
    }

    /// Reads element `i`. Panics (traps on the GPU) if `i >= len()`.
    #[inline(always)]
    #[track_caller]
    pub fn load(&self, i: usize) -> T {
        assert!(i < self.len, "dynamic shared memory index out of bounds");
        arch::sim_only! {
            if !reach(self.owner, self.ptr.wrapping_add(i), false, LOAD) {
                return refused();
            }
        }
        arch::note_load(self.ptr.wrapping_add(i).cast(), core::mem::size_of::<T>());
        // SAFETY: `i < len` and the launch provided `len` elements.
        unsafe { arch::ld_shared::<T>(arch::shared_add(self.addr, elem_offset::<T>(i))) }
    }

    /// Writes element `i`. Panics (traps on the GPU) if `i >= len()`.
    #[inline(always)]
    #[track_caller]
    pub fn store(&self, i: usize, v: T) {
        assert!(i < self.len, "dynamic shared memory index out of bounds");
        arch::sim_only! {
            if !reach(self.owner, self.ptr.wrapping_add(i), true, STORE) {
                return;
            }
        }
        arch::note_store(self.ptr.wrapping_add(i).cast(), core::mem::size_of::<T>());
        // SAFETY: `i < len` and the launch provided `len` elements.
        unsafe { arch::st_shared_pod::<T>(arch::shared_add(self.addr, elem_offset::<T>(i)), v) }
    }
}

/// A run of `len` elements of `T` in the block's shared memory: a part of
/// a [`SharedArray`] or of [`DynamicShared`] (`slice`, `as_slice`), e.g.
/// one stage of a double buffer filled by
/// [`memcpy_async`](fn@crate::memcpy_async). It keeps the block its
/// memory belongs to, which the simulator checks at every access.
///
/// `S` says whose memory it is, as for [`SharedArray`]: [`Local`] (the
/// default; loads and stores of the padding-free types — primitives,
/// [`Vector`](crate::vector::Vector)s — go through the `.shared` window:
/// `ld.shared`/`st.shared`, SASS `LDS`/`STS`, `LDS.128`/`STS.128` for a
/// 16-byte vector), or [`Peer`] for a slice of a peer block's mapped
/// array (generic loads and stores, as DSMEM needs). The asynchronous copies (`memcpy_async`, the bulk and tensor
/// copies) write only the calling block's own shared memory, so they take
/// a `SharedSlice<T>` — a peer's slice is refused by the compiler.
pub struct SharedSlice<T, S: Space = Local> {
    /// Generic address of element 0.
    ptr: *mut T,
    /// Its address in the `.shared` window (meaningful for [`Local`]).
    addr: arch::SharedAddr,
    len: usize,
    /// The block whose memory it is (the simulator's; nothing on the GPU).
    owner: arch::SharedOwner,
    _space: PhantomData<S>,
}

impl<T, S: Space> Clone for SharedSlice<T, S> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T, S: Space> Copy for SharedSlice<T, S> {}

impl<T: Pod, S: Space> SharedSlice<T, S> {
    /// Number of elements.
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.len
    }

    /// No elements.
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// A generic pointer to element 0.
    #[inline(always)]
    pub fn as_ptr(&self) -> *mut T {
        self.ptr
    }

    arch::sim_only! {
        /// On the simulator: whether the calling thread may use the slice as
        /// `what`, a use that must be its own block's shared memory (a copy's
        /// destination, a store's source) — a misuse report at the caller's
        /// line, before any access, for another block's memory or an ended
        /// block's; `false` only for an unwinding thread, which must skip the
        /// use.
        #[inline(always)]
        #[track_caller]
        pub(crate) fn own(&self, what: &'static str) -> bool {
            arch::shared_own(self.owner, what)
        }
    }

    /// Elements `start..start + len` of this slice. Panics (traps on the
    /// GPU) if they are not all inside.
    #[inline(always)]
    #[track_caller]
    pub fn slice(&self, start: usize, len: usize) -> SharedSlice<T, S> {
        assert!(
            start <= self.len && len <= self.len - start,
            "shared slice out of bounds"
        );
        SharedSlice {
            ptr: self.ptr.wrapping_add(start),
            addr: arch::shared_add(self.addr, elem_offset::<T>(start)),
            len,
            owner: self.owner,
            _space: PhantomData,
        }
    }

    /// Reads element `i`. Panics (traps on the GPU) if `i >= len()`.
    ///
    /// In this block's memory, `ld.shared` (SASS `LDS`; `LDS.128` for a
    /// 16-byte vector); in a peer's, a generic load.
    #[inline(always)]
    #[track_caller]
    pub fn load(&self, i: usize) -> T {
        assert!(i < self.len, "shared slice index out of bounds");
        arch::sim_only! {
            if !reach(self.owner, self.ptr.wrapping_add(i), false, LOAD) {
                return refused();
            }
        }
        arch::note_load(self.ptr.wrapping_add(i).cast(), core::mem::size_of::<T>());
        // SAFETY: `i < len`, and the slice lies inside a shared allocation
        // of its space, aligned for `T` (it was cut from an array or from
        // the dynamic shared memory, both aligned for `T`).
        unsafe {
            if Self::WINDOW {
                arch::ld_shared::<T>(arch::shared_add(self.addr, elem_offset::<T>(i)))
            } else {
                self.ptr.add(i).read()
            }
        }
    }

    /// Writes element `i`. Panics (traps on the GPU) if `i >= len()`.
    ///
    /// In this block's memory, `st.shared` (SASS `STS`; `STS.128` for a
    /// 16-byte vector); in a peer's, a generic store.
    #[inline(always)]
    #[track_caller]
    pub fn store(&self, i: usize, v: T) {
        assert!(i < self.len, "shared slice index out of bounds");
        arch::sim_only! {
            if !reach(self.owner, self.ptr.wrapping_add(i), true, STORE) {
                return;
            }
        }
        arch::note_store(self.ptr.wrapping_add(i).cast(), core::mem::size_of::<T>());
        // SAFETY: as `load`.
        unsafe {
            if Self::WINDOW {
                arch::st_shared_pod::<T>(arch::shared_add(self.addr, elem_offset::<T>(i)), v)
            } else {
                self.ptr.add(i).write(v)
            }
        }
    }

    /// Loads and stores go through the `.shared` window: this block's
    /// memory, of a type whose every byte is part of its value (the
    /// primitives, the [`Vector`](crate::vector::Vector)s, a `Pod` with
    /// [`PADDING_FREE`](Pod::PADDING_FREE)), which passes through
    /// registers. Other types keep the generic access (a `Pod` struct of
    /// user fields: its 16-byte load through registers was measured to
    /// spill a kernel's per-item array to local memory).
    const WINDOW: bool = <S as space::Sealed>::LOCAL && T::PADDING_FREE;
}

impl<T: Pod> SharedSlice<T> {
    /// Element 0's address in this block's `.shared` window.
    #[inline(always)]
    pub(crate) fn addr(&self) -> arch::SharedAddr {
        self.addr
    }
}

arch::sim_only! {
    /// What the simulator's reports call a load through a handle.
    const LOAD: &str = "shared-memory load";
    /// What the simulator's reports call a store through a handle.
    const STORE: &str = "shared-memory store";
    /// What the simulator's reports call an atomic through a handle.
    const ATOMIC: &str = "shared-memory atomic";

    /// On the simulator, before an access (`what`; `write`: a store or an
    /// atomic) of the `T` at `p` through a handle of `owner`: a misuse
    /// report at the caller's line if the calling thread's block may not
    /// use the handle (its block ended, or it is another block's; see
    /// [`SharedArray`]), or if a `memcpy_async` has not yet delivered the
    /// bytes. `false` only for an unwinding thread that may not use it (a
    /// report cannot stop it): the caller skips the access. The GPU has
    /// nothing to check.
    #[inline(always)]
    #[track_caller]
    fn reach<T>(owner: arch::SharedOwner, p: *mut T, write: bool, what: &'static str) -> bool {
        arch::shared_access(owner, p.cast(), core::mem::size_of::<T>(), write, what)
    }

    /// What a load refused to an unwinding thread (see [`reach`]) returns:
    /// a `T` of zero bytes, which is a `T` (`Pod`: any bytes are).
    #[inline(always)]
    fn refused<T: Pod>() -> T {
        // SAFETY: `T` is `Pod`: every bit pattern, all zeros included, is
        // a `T`.
        unsafe { core::mem::zeroed() }
    }
}
