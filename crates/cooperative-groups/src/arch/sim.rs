//! The host backend: every primitive forwards to the `cg-sim` simulator.
//!
//! Signatures match [`ptx`](super) one for one, so the code above the arch
//! layer compiles unchanged for both. Blocking primitives are
//! `#[track_caller]`: the simulator names the user's source line in reports.

use core::sync::atomic::{AtomicU16, AtomicU32, AtomicU64, Ordering};

use cg_sim::lane;
use cg_sim::lane::AtomicKind;

use super::{RawDim3, ReduxOp, ShflMode};

pub mod fp;
mod mbarrier;
pub use mbarrier::*;
mod tma;
pub use tma::*;
mod mma;
pub use mma::*;
mod wgmma;
pub use wgmma::*;
mod float16;
pub use float16::*;

/// On the host a shared address is a plain pointer into the simulated block's
/// shared-memory buffers.
pub type SharedAddr = *mut u8;
/// A shared address that names nothing (a primitive without storage).
pub const NO_SHARED: SharedAddr = core::ptr::null_mut();

/// `threadIdx`.
#[inline]
pub fn thread_idx() -> RawDim3 {
    lane::thread_idx()
}
/// `blockDim`.
#[inline]
pub fn block_dim() -> RawDim3 {
    lane::block_dim()
}
/// `blockIdx`.
#[inline]
pub fn block_idx() -> RawDim3 {
    lane::block_idx()
}
/// `gridDim`.
#[inline]
pub fn grid_dim() -> RawDim3 {
    lane::grid_dim()
}
/// The simulator's side of the GPU's `assume_block_dim`: a block of
/// another shape than `[x, y, z]` is a contract violation (a launcher
/// refuses it before it runs; a kernel body run by hand gets this panic).
///
/// # Safety
/// None on the host (the signature is the GPU's).
#[track_caller]
pub unsafe fn assume_block_dim(x: u32, y: u32, z: u32) {
    let dim = block_dim();
    if dim != [x, y, z] {
        panic!(
            "the kernel is declared with block_dim({x}, {y}, {z}) and runs in a block of {:?} threads",
            dim
        );
    }
}
/// `v` (the GPU's is a `mov` the optimiser cannot see into).
#[inline]
pub fn opaque(v: u32) -> u32 {
    v
}
/// `%laneid`.
#[inline]
pub fn lane_id() -> u32 {
    lane::lane_id()
}
/// `%dynamic_smem_size`.
#[inline]
pub fn dynamic_smem_size() -> u32 {
    lane::dynamic_shared().1 as u32
}

/// `shfl.sync`.
#[track_caller]
#[inline]
pub fn shfl(mode: ShflMode, mask: u32, v: u32, b: u32, c: u32) -> u32 {
    lane::shfl(mode, mask, v, b, c)
}
/// `shfl.sync.up.b32 d|p` then `@p add.u32 d, d, v`: one step of an
/// integer prefix sum.
#[track_caller]
#[inline]
pub fn shfl_up_add(mask: u32, v: u32, b: u32, c: u32) -> u32 {
    let (d, p) = shfl_up_pred(mask, v, b, c);
    if p { d.wrapping_add(v) } else { d }
}
/// `shfl.sync.up.b32 d|p`: the value and whether the source lane was in
/// range (the PTX ISA's rule: `lane - b` at or above the segment's first
/// lane, which `c` names).
#[track_caller]
#[inline]
pub fn shfl_up_pred(mask: u32, v: u32, b: u32, c: u32) -> (u32, bool) {
    let d = lane::shfl(ShflMode::Up, mask, v, b, c);
    (d, up_in_range(lane::lane_id(), b, c))
}

/// `shfl.sync.up`'s predicate for `lane`: `lane - b` at or above the
/// segment's first lane (the PTX ISA's `j >= maxLane`).
fn up_in_range(lane: u32, b: u32, c: u32) -> bool {
    let seg = (c >> 8) & 0x1f;
    let max_lane = (lane & seg) | (c & 0x1f & !seg);
    lane as i32 - (b & 0x1f) as i32 >= max_lane as i32
}
/// `vote.sync.ballot.b32`.
#[track_caller]
#[inline]
pub fn ballot(mask: u32, pred: bool) -> u32 {
    lane::ballot(mask, pred)
}
/// `vote.sync.any.pred`.
#[track_caller]
#[inline]
pub fn vote_any(mask: u32, pred: bool) -> bool {
    lane::ballot(mask, pred) != 0
}
/// `vote.sync.all.pred`.
#[track_caller]
#[inline]
pub fn vote_all(mask: u32, pred: bool) -> bool {
    lane::ballot(mask, pred) == mask & lane::existing_lanes()
}
/// `match.any.sync`.
#[track_caller]
#[inline]
pub fn match_any(mask: u32, v: u64, wide: bool) -> u32 {
    lane::match_any(mask, if wide { v } else { v as u32 as u64 })
}
/// The lanes of `mask` whose `v` agrees in the low `bits` bits: one
/// `match.any` of the masked value (the GPU's ballots give the same mask;
/// one rendezvous instead of `bits`).
#[track_caller]
#[inline]
pub fn match_any_bits(mask: u32, v: u32, bits: u32) -> u32 {
    let low = if bits >= 32 {
        v
    } else {
        v & ((1u32 << bits) - 1)
    };
    lane::match_any(mask, low as u64)
}
/// `match.all.sync`.
#[track_caller]
#[inline]
pub fn match_all(mask: u32, v: u64, wide: bool) -> u32 {
    lane::match_all(mask, if wide { v } else { v as u32 as u64 })
}
/// `redux.sync`.
#[track_caller]
#[inline]
pub fn redux(op: ReduxOp, mask: u32, v: u32) -> u32 {
    lane::redux(op, mask, v)
}
/// `activemask.b32`, under the simulator's convergence model.
#[track_caller]
#[inline]
pub fn activemask() -> u32 {
    lane::activemask()
}
/// The `membermask` for the shuffles of a segment whose members all
/// execute this call: `members` itself. The GPU's `activemask` would name
/// only the lanes that are here, and a member that skipped the call would be
/// read, not reported; with `members` the shuffle reports it (the data
/// moved is the same either way when every member is here).
#[inline(always)]
pub fn converged_mask(members: u32) -> u32 {
    members
}
/// Branch-weight hint (no effect on the simulator).
#[inline(always)]
pub fn likely(b: bool) -> bool {
    b
}

/// `bar.warp.sync`.
#[track_caller]
#[inline]
pub fn warp_sync(mask: u32) {
    lane::warp_sync(mask)
}
/// `elect.sync`.
#[track_caller]
#[inline]
pub fn elect(mask: u32) -> u32 {
    lane::elect(mask)
}
/// `bar.sync 0`.
#[track_caller]
#[inline]
pub fn sync_threads() {
    lane::sync_threads()
}
/// `block.barrier_arrive()`: the simulator records the release point (the
/// GPU lowers it to nothing; see `block_barrier_wait`).
#[track_caller]
#[inline]
pub fn block_barrier_arrive() {
    lane::block_barrier_arrive()
}
/// `block.barrier_wait()`: `bar.sync 0`, releasing what the thread did
/// before its arrive.
#[track_caller]
#[inline]
pub fn block_barrier_wait() {
    lane::block_barrier_wait()
}
/// `bar.sync id, count`.
#[track_caller]
#[inline]
pub fn barrier_sync(id: u32, count: u32) {
    lane::barrier_sync(id, count)
}
/// `bar.sync id, count` with `id ≤ max_id` (the GPU emits the id as an
/// immediate); the simulator checks the bound.
#[track_caller]
#[inline]
pub fn barrier_sync_upto(id: u32, max_id: u32, count: u32) {
    assert!(
        id >= 1 && id <= max_id.min(15),
        "named barrier {id} is outside 1..={max_id}: the library's barrier bound is wrong"
    );
    lane::barrier_sync(id, count)
}
/// `bar.arrive id, count`.
#[track_caller]
#[inline]
pub fn barrier_arrive(id: u32, count: u32) {
    lane::barrier_arrive(id, count)
}
/// Block-scope fence (`fence.acq_rel.cta`): the simulator runs lanes on one
/// OS thread, so program order is memory order; a compiler fence keeps the
/// optimiser honest, and the race detector gets the fence's ordering.
#[inline]
pub fn fence_block() {
    core::sync::atomic::fence(Ordering::SeqCst);
    lane::mem_fence(false, MemScope::Cta);
}
/// Device-scope fence (`fence.acq_rel.gpu`, see [`fence_block`]).
#[inline]
pub fn fence_device() {
    core::sync::atomic::fence(Ordering::SeqCst);
    lane::mem_fence(false, MemScope::Gpu);
}

/// Tells the simulator's race detector about a plain load of `size` bytes
/// at `p` (the library's shared-memory accessors call it; nothing on the GPU).
#[track_caller]
#[inline]
pub fn note_load(p: *const u8, size: usize) {
    lane::mem_access(p, size, false)
}

/// See [`set_soft_setup_first_sync`].
static SOFT_SETUP_FIRST_SYNC: core::sync::atomic::AtomicBool =
    core::sync::atomic::AtomicBool::new(true);

/// Whether a software-barrier tile's set-up syncs its parent before the
/// leader zeroes the flags (always on the GPU).
#[inline]
pub fn soft_setup_first_sync() -> bool {
    SOFT_SETUP_FIRST_SYNC.load(Ordering::Relaxed)
}

/// Simulator test switch, process-wide: with `false`, a software-barrier
/// tile's set-up leaves out its first parent sync, so that a test can show
/// the hang that sync prevents. Only for a test binary whose other tests
/// create no such tiles (64-thread tiles of blocks of more than 512
/// threads) while it is off.
pub fn set_soft_setup_first_sync(on: bool) {
    SOFT_SETUP_FIRST_SYNC.store(on, Ordering::Relaxed);
}

/// Tells the simulator's race detector about a plain store (see [`note_load`]).
#[track_caller]
#[inline]
pub fn note_store(p: *const u8, size: usize) {
    lane::mem_access(p, size, true)
}

/// A load of a read-only typed global parameter (`ld.global.nc` on the
/// GPU): nothing writes it during the launch, so the race detector needs
/// not see it.
///
/// # Safety
/// `p` must be valid for a read of a `T`.
#[inline]
#[track_caller]
pub unsafe fn ld_global_nc<T: crate::Pod>(p: *const T) -> T {
    if !lane::region_check(p.cast(), core::mem::size_of::<T>()) {
        return zero();
    }
    // SAFETY: forwarded contract (and the region is the running launch's).
    unsafe { global_read(p) }
}

/// A lane's read of a `T` in global memory: a padding-free `T` as relaxed
/// atomic accesses of its bytes (`cg_sim::global_mem`), so that blocks of
/// a safe launch on different worker threads never race on the host, even
/// where the detector reports a race between them; a `T` with padding as
/// a plain read (a safe launch with such a view runs on one thread:
/// `SafeParam::SERIAL`).
///
/// # Safety
/// `p` must be valid for a read of a `T`.
#[inline(always)]
unsafe fn global_read<T: crate::Pod>(p: *const T) -> T {
    if T::PADDING_FREE {
        // SAFETY: the caller's contract; every byte of a padding-free `Pod`
        // in simulated global memory is initialised (host buffers hold
        // values, lanes store values, copies land bytes).
        unsafe { cg_sim::global_mem::load(p) }
    } else {
        // SAFETY: the caller's contract.
        unsafe { p.read() }
    }
}

/// The value an unwinding lane's refused load gives: zero bytes (see
/// `cg_sim::lane::region_check`).
#[inline(never)]
fn zero<T: crate::Pod>() -> T {
    // SAFETY: all-zero bytes are a valid `Pod` value.
    unsafe { core::mem::zeroed() }
}

/// A lane's write of a `T` to global memory, as [`global_read`] reads.
///
/// # Safety
/// `p` must be valid for a write of a `T`.
#[inline(always)]
unsafe fn global_write<T: crate::Pod>(p: *mut T, v: T) {
    if T::PADDING_FREE {
        // SAFETY: the caller's contract; `T` has no padding.
        unsafe { cg_sim::global_mem::store(p, v) }
    } else {
        // SAFETY: the caller's contract.
        unsafe { p.write(v) }
    }
}

/// A weak load of writable global memory (`ld.global`), seen by the race
/// detector; a lane that loads one address over and over gives up its turn
/// (a spin on a plain load ends as a livelock report, not a hang).
///
/// # Safety
/// `p` must be valid for a read of a `T`.
#[track_caller]
#[inline]
pub unsafe fn ld_global<T: crate::Pod>(p: *const T) -> T {
    if !lane::region_check(p.cast(), core::mem::size_of::<T>()) {
        return zero();
    }
    // SAFETY: forwarded contract (and the region is the running launch's).
    let v = unsafe { global_read(p) };
    lane::global_load(p.cast(), core::mem::size_of::<T>());
    v
}

/// A weak store to global memory (`st.global`), seen by the race detector;
/// a store into a parameter registered read-only is a misuse report.
///
/// # Safety
/// `p` must be valid for a write of a `T`.
#[track_caller]
#[inline]
pub unsafe fn st_global<T: crate::Pod>(p: *mut T, v: T) {
    if !lane::region_check_write(p.cast(), core::mem::size_of::<T>()) {
        return;
    }
    // SAFETY: forwarded contract (and the region is the running launch's).
    unsafe { global_write(p, v) };
    note_store(p.cast(), core::mem::size_of::<T>());
}

/// A global load with a cache operator: the simulator has no caches, so
/// it is [`ld_global`].
///
/// # Safety
/// As [`ld_global`].
#[track_caller]
#[inline]
pub unsafe fn ld_global_cached<T: crate::Pod>(p: *const T, _c: super::LoadCache) -> T {
    // SAFETY: forwarded contract.
    unsafe { ld_global(p) }
}

/// A global store with a cache operator: [`st_global`].
///
/// # Safety
/// As [`st_global`].
#[track_caller]
#[inline]
pub unsafe fn st_global_cached<T: crate::Pod>(p: *mut T, v: T, _c: super::StoreCache) {
    // SAFETY: forwarded contract.
    unsafe { st_global(p, v) }
}

/// A read-only global load with an eviction priority: the simulator has
/// no caches, so it is [`ld_global_nc`].
///
/// # Safety
/// As [`ld_global_nc`].
#[track_caller]
#[inline]
pub unsafe fn ld_global_nc_cached<T: crate::Pod>(p: *const T, _c: super::LoadCache) -> T {
    // SAFETY: forwarded contract.
    unsafe { ld_global_nc(p) }
}

/// `createpolicy`: the simulator has no L2, so a policy is a value that
/// changes nothing (0).
#[inline]
pub fn create_policy(_prio: super::L2Priority, _fraction: f32) -> u64 {
    0
}

/// A global load with a cache policy: [`ld_global`].
///
/// # Safety
/// As [`ld_global`].
#[track_caller]
#[inline]
pub unsafe fn ld_global_policy<T: crate::Pod>(p: *const T, _policy: u64) -> T {
    // SAFETY: forwarded contract.
    unsafe { ld_global(p) }
}

/// A read-only global load with a cache policy: [`ld_global_nc`].
///
/// # Safety
/// As [`ld_global_nc`].
#[track_caller]
#[inline]
pub unsafe fn ld_global_nc_policy<T: crate::Pod>(p: *const T, _policy: u64) -> T {
    // SAFETY: forwarded contract.
    unsafe { ld_global_nc(p) }
}

/// A global store with a cache policy: [`st_global`].
///
/// # Safety
/// As [`st_global`].
#[track_caller]
#[inline]
pub unsafe fn st_global_policy<T: crate::Pod>(p: *mut T, v: T, _policy: u64) {
    // SAFETY: forwarded contract.
    unsafe { st_global(p, v) }
}

/// `prefetch.global.L2`: nothing to do without caches.
#[inline]
pub fn prefetch_global_l2(_p: *const u8) {}

/// A plain store through `p` (`p.write(v)` on the GPU: the block and warp
/// primitives' tile stores), as a lane makes it: through
/// `cg_sim::global_mem`, so that blocks of a launch on other worker
/// threads never race on the host, and seen by the race detector at the
/// caller's line. Unlike [`st_global`] it checks no region: the raw stores
/// reach whatever memory their caller's `unsafe` contract names (a typed
/// caller checks its view's region itself).
///
/// # Safety
/// `p` must be valid for a write of a `T` and aligned for it; `T` has no
/// padding bytes.
#[track_caller]
#[inline]
pub unsafe fn st_plain<T: Copy>(p: *mut T, v: T) {
    // SAFETY: the caller's contract: valid, and every byte of `v` is
    // initialised (no padding).
    unsafe { cg_sim::global_mem::store(p, v) };
    note_store(p.cast(), core::mem::size_of::<T>());
}

/// Stops a typed view used outside the launch that registered its memory
/// (before it touches `len` bytes at `p`).
#[track_caller]
#[inline]
pub fn global_region_check(p: *const u8, len: usize) {
    // The callers' accesses cannot be skipped (a Rust slice, a tile store):
    // an unwinding lane outside the regions stops here instead.
    assert!(
        lane::region_check(p, len),
        "a typed global parameter used outside its launch while the thread unwinds"
    );
}

/// [`global_region_check`] for a view that writes the bytes (an atomic
/// slice's element): a parameter registered read-only is a misuse report.
#[track_caller]
#[inline]
pub fn global_region_check_write(p: *const u8, len: usize) {
    // As `global_region_check`: an atomic's access cannot be skipped.
    assert!(
        lane::region_check_write(p, len),
        "a typed global write outside the launch's writable parameters while the thread unwinds"
    );
}

/// An index outside a typed global parameter: the simulator reports it
/// (the parameter's name where the launch registered it, the index, the
/// length, the thread, the line) and stops the launch.
#[track_caller]
#[inline]
pub fn global_out_of_bounds(base: *const u8, index: usize, len: usize, write: bool) -> ! {
    lane::out_of_bounds(base, index, len, write)
}

/// Tells the race detector about a strong access (after performing it).
#[track_caller]
#[inline]
fn note_strong<T>(p: *const T, kind: AtomicKind, o: MemOrder, s: MemScope) {
    lane::mem_atomic(p.cast(), core::mem::size_of::<T>(), kind, o, s)
}
/// Shared addresses are already pointers on the host.
#[inline]
pub fn shared_to_generic(addr: SharedAddr) -> *mut u8 {
    addr
}
/// The simulated block's dynamic shared memory and its size in bytes.
#[track_caller]
#[inline]
pub fn dynamic_shared() -> (SharedAddr, usize) {
    lane::dynamic_shared()
}
/// The simulated block's buffer for the static allocation named `key`.
#[track_caller]
#[inline]
pub fn static_shared(key: &'static str, bytes: usize, align: usize) -> SharedAddr {
    lane::static_shared(key, bytes, align)
}

/// Loads a `T` from the simulated block's shared memory.
///
/// # Safety
/// `addr` must be valid for a `T` and aligned for it.
#[inline]
pub unsafe fn ld_shared<T: Copy + 'static>(addr: SharedAddr) -> T {
    // SAFETY: forwarded contract.
    unsafe { addr.cast::<T>().read() }
}
/// Stores a `T` to the simulated block's shared memory.
///
/// # Safety
/// `addr` must be valid for a `T` and aligned for it.
#[inline]
pub unsafe fn st_shared<T: Copy + 'static>(addr: SharedAddr, v: T) {
    // SAFETY: forwarded contract.
    unsafe { addr.cast::<T>().write(v) }
}

/// Stores a `Pod` `T` to the shared window (the GPU's picks the vector
/// store for 8- and 16-byte types).
///
/// # Safety
/// As [`st_shared`].
#[inline]
pub unsafe fn st_shared_pod<T: crate::Pod>(addr: SharedAddr, v: T) {
    // SAFETY: forwarded contract.
    unsafe { st_shared(addr, v) }
}
/// 32-bit shared-memory load.
///
/// # Safety
/// `addr` must be valid and 4-byte aligned.
#[track_caller]
#[inline]
pub unsafe fn ld_shared_u32(addr: SharedAddr) -> u32 {
    // SAFETY: the caller passes a valid, aligned pointer.
    let v = unsafe { (addr as *const u32).read_volatile() };
    note_load(addr, 4);
    v
}
/// Two consecutive 32-bit words from shared memory.
///
/// # Safety
/// `addr` must be valid for two words and 8-byte aligned.
#[track_caller]
#[inline]
pub unsafe fn ld_shared_v2_u32(addr: SharedAddr) -> [u32; 2] {
    debug_assert!(
        (addr as usize) & 7 == 0,
        "ld.shared.v2 needs an 8-byte aligned address"
    );
    // SAFETY: forwarded contract.
    let v = unsafe { [0, 4].map(|o| (addr.wrapping_add(o) as *const u32).read_volatile()) };
    note_load(addr, 8);
    v
}
/// Four consecutive 32-bit words from shared memory.
///
/// # Safety
/// `addr` must be valid for four words and 16-byte aligned.
#[track_caller]
#[inline]
pub unsafe fn ld_shared_v4_u32(addr: SharedAddr) -> [u32; 4] {
    debug_assert!(
        (addr as usize) & 15 == 0,
        "ld.shared.v4 needs a 16-byte aligned address"
    );
    // SAFETY: forwarded contract.
    let v = unsafe { [0, 4, 8, 12].map(|o| (addr.wrapping_add(o) as *const u32).read_volatile()) };
    note_load(addr, 16);
    v
}
/// 32-bit shared-memory store.
///
/// # Safety
/// `addr` must be valid and 4-byte aligned.
#[track_caller]
#[inline]
pub unsafe fn st_shared_u32(addr: SharedAddr, v: u32) {
    // SAFETY: the caller passes a valid, aligned pointer.
    unsafe { (addr as *mut u32).write_volatile(v) };
    note_store(addr, 4);
}

/// 32-bit shared-memory store under a predicate: nothing is stored (or
/// recorded) when `cond` is false.
///
/// # Safety
/// When `cond` holds, `addr` must be valid and 4-byte aligned.
#[track_caller]
#[inline]
pub unsafe fn st_shared_u32_if(cond: bool, addr: SharedAddr, v: u32) {
    if cond {
        // SAFETY: the caller's contract, `cond` holding.
        unsafe { st_shared_u32(addr, v) };
    }
}

/// Two consecutive 32-bit words to shared memory.
///
/// # Safety
/// `addr` must be valid for two words and 8-byte aligned.
#[track_caller]
#[inline]
pub unsafe fn st_shared_v2_u32(addr: SharedAddr, v: [u32; 2]) {
    debug_assert!(
        (addr as usize) & 7 == 0,
        "st.shared.v2 needs an 8-byte aligned address"
    );
    for (k, w) in v.into_iter().enumerate() {
        // SAFETY: forwarded contract.
        unsafe { (addr.wrapping_add(4 * k) as *mut u32).write_volatile(w) };
    }
    note_store(addr, 8);
}
/// Four consecutive 32-bit words to shared memory.
///
/// # Safety
/// `addr` must be valid for four words and 16-byte aligned.
#[track_caller]
#[inline]
pub unsafe fn st_shared_v4_u32(addr: SharedAddr, v: [u32; 4]) {
    debug_assert!(
        (addr as usize) & 15 == 0,
        "st.shared.v4 needs a 16-byte aligned address"
    );
    for (k, w) in v.into_iter().enumerate() {
        // SAFETY: forwarded contract.
        unsafe { (addr.wrapping_add(4 * k) as *mut u32).write_volatile(w) };
    }
    note_store(addr, 16);
}
/// `red.shared.add.u32`: a relaxed, block-scoped atomic add without result.
///
/// # Safety
/// `addr` must be valid and 4-byte aligned.
#[track_caller]
#[inline]
pub unsafe fn red_shared_add_u32(addr: SharedAddr, v: u32) {
    // SAFETY: forwarded contract.
    unsafe { atom_shared_add_u32(addr, v) };
}

/// `atom.shared.add.u32`: a relaxed, block-scoped atomic add; returns the
/// old value.
///
/// # Safety
/// `addr` must be valid and 4-byte aligned.
#[track_caller]
#[inline]
pub unsafe fn atom_shared_add_u32(addr: SharedAddr, v: u32) -> u32 {
    // SAFETY: forwarded contract.
    unsafe {
        atom_rmw_32(
            Rmw32::Add,
            addr.cast(),
            v,
            MemOrder::Relaxed,
            At::generic(MemScope::Cta),
        )
    }
}

/// Atomic add on a `u32`; returns the old value.
///
/// # Safety
/// `p` must be valid and aligned.
#[track_caller]
#[inline]
pub unsafe fn atomic_add_u32(p: *mut u32, v: u32) -> u32 {
    // SAFETY: the caller passes a valid, aligned pointer.
    let old = unsafe { AtomicU32::from_ptr(p) }.fetch_add(v, Ordering::Relaxed);
    note_strong(p, AtomicKind::Rmw, MemOrder::Relaxed, MemScope::Gpu);
    old
}
/// `red.global.add`: the atomic adds above without the old value.
macro_rules! red_global_add {
    ($name:ident, $t:ty, $add:ident) => {
        /// Atomic add whose old value is dropped (`red.global.add` on the GPU).
        ///
        /// # Safety
        /// `p` must be valid for an aligned atomic access.
        #[track_caller]
        #[inline]
        pub unsafe fn $name(p: *mut $t, v: $t) {
            // SAFETY: forwarded contract.
            unsafe { $add(p, v) };
        }
    };
}
red_global_add!(red_global_add_u32, u32, atomic_add_u32);
red_global_add!(red_global_add_u64, u64, atomic_add_u64);
red_global_add!(red_global_add_f32, f32, atomic_add_f32);
red_global_add!(red_global_add_f64, f64, atomic_add_f64);

/// Atomic add on a `u64`; returns the old value.
///
/// # Safety
/// `p` must be valid and aligned.
#[track_caller]
#[inline]
pub unsafe fn atomic_add_u64(p: *mut u64, v: u64) -> u64 {
    // SAFETY: the caller passes a valid, aligned pointer.
    let old = unsafe { AtomicU64::from_ptr(p) }.fetch_add(v, Ordering::Relaxed);
    note_strong(p, AtomicKind::Rmw, MemOrder::Relaxed, MemScope::Gpu);
    old
}
/// Atomic add on an `f32`; returns the old value.
///
/// # Safety
/// `p` must be valid and aligned.
#[track_caller]
#[inline]
pub unsafe fn atomic_add_f32(p: *mut f32, v: f32) -> f32 {
    // SAFETY: the caller passes a valid, aligned pointer; f32 and u32 share a layout.
    let a = unsafe { AtomicU32::from_ptr(p.cast()) };
    let old = a
        .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |x| {
            Some((f32::from_bits(x) + v).to_bits())
        })
        .unwrap_or_else(|x| x);
    note_strong(p, AtomicKind::Rmw, MemOrder::Relaxed, MemScope::Gpu);
    f32::from_bits(old)
}
/// Atomic add on an `f64`; returns the old value.
///
/// # Safety
/// `p` must be valid and aligned.
#[track_caller]
#[inline]
pub unsafe fn atomic_add_f64(p: *mut f64, v: f64) -> f64 {
    // SAFETY: the caller passes a valid, aligned pointer; f64 and u64 share a layout.
    let a = unsafe { AtomicU64::from_ptr(p.cast()) };
    let old = a
        .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |x| {
            Some((f64::from_bits(x) + v).to_bits())
        })
        .unwrap_or_else(|x| x);
    note_strong(p, AtomicKind::Rmw, MemOrder::Relaxed, MemScope::Gpu);
    f64::from_bits(old)
}
/// Atomic compare-and-swap on a `u32`; returns the old value.
///
/// # Safety
/// `p` must be valid and aligned.
#[track_caller]
#[inline]
pub unsafe fn atomic_cas_u32(p: *mut u32, cmp: u32, new: u32) -> u32 {
    // SAFETY: the caller passes a valid, aligned pointer.
    let old = unsafe { AtomicU32::from_ptr(p) }
        .compare_exchange(cmp, new, Ordering::AcqRel, Ordering::Acquire)
        .unwrap_or_else(|x| x);
    // `atom.cas.b32`: `.relaxed.gpu` by default.
    note_strong(p, AtomicKind::Rmw, MemOrder::Relaxed, MemScope::Gpu);
    old
}
/// Acquire load of a `u32`.
///
/// # Safety
/// `p` must be valid and aligned.
#[track_caller]
#[inline]
pub unsafe fn load_acquire_u32(p: *const u32) -> u32 {
    // SAFETY: the caller passes a valid, aligned pointer.
    let v = unsafe { AtomicU32::from_ptr(p as *mut u32) }.load(Ordering::Acquire);
    note_strong(p, AtomicKind::Load, MemOrder::Acquire, MemScope::Gpu);
    v
}

/// `fns.b32` (see [`fns_model`](super::fns_model)).
#[inline]
pub fn fns(mask: u32, base: u32, offset: i32) -> u32 {
    super::fns_model(mask, base, offset)
}

/// The simulated block's collective scratch (one buffer per block, like the
/// GPU's `.shared` variable).
#[track_caller]
#[inline]
pub fn collective_scratch() -> SharedAddr {
    lane::static_shared(
        "cg_lib_collective_scratch",
        super::SCRATCH_BYTES as usize,
        16,
    )
}

/// The simulated block's raking scratch.
#[track_caller]
#[inline]
pub fn rake_scratch() -> SharedAddr {
    lane::static_shared("cg_lib_rake_scratch", super::RAKE_BYTES as usize, 16)
}

/// The simulated block's software-barrier state.
#[track_caller]
#[inline]
pub fn soft_barrier_scratch() -> SharedAddr {
    lane::static_shared("cg_lib_soft_barrier", super::SOFT_BARRIER_BYTES as usize, 8)
}

/// `addr + bytes`.
#[inline]
pub fn shared_add(addr: SharedAddr, bytes: u32) -> SharedAddr {
    addr.wrapping_add(bytes as usize)
}

/// Volatile 32-bit shared load.
///
/// # Safety
/// `addr` must be valid and 4-byte aligned.
#[track_caller]
#[inline]
pub unsafe fn ld_volatile_shared_u32(addr: SharedAddr) -> u32 {
    // SAFETY: the caller passes a valid, aligned pointer.
    let v = unsafe { (addr as *const u32).read_volatile() };
    // `ld.volatile` is `ld.relaxed.sys` in the memory model.
    note_strong(
        addr as *const u32,
        AtomicKind::Load,
        MemOrder::Relaxed,
        MemScope::Sys,
    );
    v
}

/// Volatile 32-bit shared store.
///
/// # Safety
/// `addr` must be valid and 4-byte aligned.
#[track_caller]
#[inline]
pub unsafe fn st_volatile_shared_u32(addr: SharedAddr, v: u32) {
    // SAFETY: the caller passes a valid, aligned pointer.
    unsafe { (addr as *mut u32).write_volatile(v) };
    note_strong(
        addr as *const u32,
        AtomicKind::Store,
        MemOrder::Relaxed,
        MemScope::Sys,
    );
}

/// Volatile 64-bit shared load.
///
/// # Safety
/// `addr` must be valid and 8-byte aligned.
#[track_caller]
#[inline]
pub unsafe fn ld_volatile_shared_u64(addr: SharedAddr) -> u64 {
    // SAFETY: the caller passes a valid, aligned pointer.
    let v = unsafe { (addr as *const u64).read_volatile() };
    // `ld.volatile` is `ld.relaxed.sys` in the memory model.
    note_strong(
        addr as *const u64,
        AtomicKind::Load,
        MemOrder::Relaxed,
        MemScope::Sys,
    );
    v
}

/// Volatile 64-bit shared store.
///
/// # Safety
/// `addr` must be valid and 8-byte aligned.
#[track_caller]
#[inline]
pub unsafe fn st_volatile_shared_u64(addr: SharedAddr, v: u64) {
    // SAFETY: the caller passes a valid, aligned pointer.
    unsafe { (addr as *mut u64).write_volatile(v) };
    note_strong(
        addr as *const u64,
        AtomicKind::Store,
        MemOrder::Relaxed,
        MemScope::Sys,
    );
}

/// Release store to a shared `u32` (lanes run on one OS thread: a fence
/// keeps the optimiser from moving earlier accesses after it).
///
/// # Safety
/// `addr` must be valid and 4-byte aligned.
#[track_caller]
#[inline]
pub unsafe fn st_release_shared_u32(addr: SharedAddr, v: u32) {
    core::sync::atomic::fence(Ordering::SeqCst);
    // SAFETY: the caller passes a valid, aligned pointer.
    unsafe { (addr as *mut u32).write_volatile(v) };
    note_strong(
        addr as *const u32,
        AtomicKind::Store,
        MemOrder::Release,
        MemScope::Cta,
    );
}

/// Acquire load of a shared `u32` (see [`st_release_shared_u32`]).
///
/// # Safety
/// `addr` must be valid and 4-byte aligned.
#[track_caller]
#[inline]
pub unsafe fn ld_acquire_shared_u32(addr: SharedAddr) -> u32 {
    // SAFETY: the caller passes a valid, aligned pointer.
    let v = unsafe { (addr as *const u32).read_volatile() };
    core::sync::atomic::fence(Ordering::SeqCst);
    note_strong(
        addr as *const u32,
        AtomicKind::Load,
        MemOrder::Acquire,
        MemScope::Cta,
    );
    v
}

/// The body of a spin-wait loop: lanes are coroutines that are never
/// preempted, so a spinning lane must give up its turn (reports name the
/// caller's line).
#[inline]
#[track_caller]
pub fn spin_hint() {
    lane::yield_now()
}

/// Whether the launch is cooperative (the GPU's grid workspace).
#[inline]
pub fn grid_workspace_present() -> bool {
    lane::cooperative()
}

/// Grid-wide barrier of a cooperative launch.
#[track_caller]
#[inline]
pub fn grid_sync() {
    lane::grid_sync()
}

/// The arrival half of the grid barrier. The simulator records the release
/// point and blocks no one: [`grid_wait`] is the whole barrier, so every
/// schedule it runs is one the GPU allows (a thread that never waits shows
/// as a deadlock of the others), and writes between the two are not
/// published by it, as on the GPU.
#[track_caller]
pub fn grid_arrive() -> u32 {
    lane::grid_barrier_arrive();
    0
}

/// The waiting half of the grid barrier (see [`grid_arrive`]).
#[track_caller]
pub fn grid_wait(_before: u32) {
    lane::grid_barrier_wait()
}

/// The grid barrier's phase (0 or 1): the launch's completed grid
/// barriers modulo 2, as the top bit of the GPU's barrier word.
pub fn grid_phase() -> u32 {
    lane::grid_phase()
}

/// Half `phase` of the launch's grid scratch (`GRID_SCRATCH_BYTES` bytes,
/// 16-byte aligned, zeroed when the launch starts).
pub fn grid_scratch(phase: u32) -> *mut u8 {
    let n = super::GRID_SCRATCH_BYTES;
    lane::grid_scratch(2 * n).wrapping_add((phase & 1) as usize * n)
}

/// Checks, as a collective over the warp lanes in `mask`, that every lane
/// passed the same `value` for the argument named `what`.
#[track_caller]
#[inline]
pub fn check_uniform_warp(mask: u32, what: &'static str, value: u64) {
    lane::check_uniform(lane::Scope::Warp(mask), what, value)
}

/// Checks, as a collective over the whole block, that every live thread
/// reached this call (`what` names the operation) with the same `value`.
#[track_caller]
#[inline]
pub fn check_uniform_block(what: &'static str, value: u64) {
    lane::check_uniform(lane::Scope::Block, what, value)
}

/// Cluster registers and operations.
pub mod cluster {
    use cg_sim::lane;

    /// `%cluster_ctarank`.
    pub fn cta_rank() -> u32 {
        lane::cluster_cta_rank()
    }
    /// `%cluster_nctarank`.
    pub fn num_ctas() -> u32 {
        lane::cluster_num_ctas()
    }
    /// `%cluster_ctaid`.
    pub fn cta_idx() -> super::RawDim3 {
        lane::cluster_cta_idx()
    }
    /// `%cluster_nctaid`.
    pub fn cluster_dim() -> super::RawDim3 {
        lane::cluster_dim()
    }
    /// `barrier.cluster.arrive`.
    #[track_caller]
    pub fn arrive() {
        lane::cluster_arrive()
    }
    /// `barrier.cluster.wait`.
    #[track_caller]
    pub fn wait() {
        lane::cluster_wait()
    }
    /// `mapa`: the same shared location in block `rank` of the cluster.
    #[track_caller]
    pub fn map_shared_rank(p: *mut u8, rank: u32) -> *mut u8 {
        lane::cluster_map_shared(p, rank)
    }
    /// `getctarank` (see the GPU backend).
    #[track_caller]
    pub fn query_shared_rank(p: *const u8) -> u32 {
        lane::cluster_query_shared_rank(p)
    }
}

/// Stops the kernel with an error: on the simulator, a panic that the
/// launcher reports with the lane and the source line.
#[track_caller]
pub fn trap() -> ! {
    panic!("kernel trap")
}

/// Stops the kernel for a violated contract: a panic with the formatted
/// message, which the launcher reports with the lane and the source line
/// (the caller's, through `#[track_caller]` functions).
macro_rules! violation {
    ($($fmt:tt)*) => {
        ::core::panic!($($fmt)*)
    };
}
pub(crate) use violation;

/// Code only the simulator runs: the checks of what safe code can do on
/// the host but not on the GPU (a shared-memory handle kept past its block
/// in a `Cell` of the launch's closure or a `thread_local!`, whose memory
/// the block's end freed). The GPU backend's expands to nothing: the
/// checks add no instruction there, and the PTX is that of the code
/// around them.
macro_rules! sim_only {
    ($($code:tt)*) => {
        $($code)*
    };
}
pub(crate) use sim_only;

/// `$sim` on the simulator (the GPU backend's is `$gpu`); the other is not
/// compiled.
macro_rules! sim_or_gpu {
    ($sim:expr, $gpu:expr $(,)?) => {
        $sim
    };
}
pub(crate) use sim_or_gpu;

// ---- Atomics with an ordering and a scope ---------------------------------
//
// Host atomics with the operation's semantics. Lanes are coroutines on one
// OS thread, so every ordering behaves as sequentially consistent here; the
// ordering and the scope still reach this layer (and the host ordering
// follows them), for the happens-before of a future race detector.
//
// A lane spinning on memory that another lane must change would never give
// up its turn (lanes are not preempted): every atomic that leaves memory
// unchanged (a load, a failed compare-and-swap, a min that keeps the old
// value, …) yields the lane, so spin loops make progress and a spin that can
// never end is reported as a livelock instead of hanging.

use super::{
    At, FenceOrder, LoadOrder, MemOrder, MemScope, RedOrder, Rmw16, Rmw32, Rmw64, StoreOrder,
};

fn rmw_order(o: MemOrder) -> Ordering {
    match o {
        MemOrder::Relaxed => Ordering::Relaxed,
        MemOrder::Acquire => Ordering::Acquire,
        MemOrder::Release => Ordering::Release,
        MemOrder::AcqRel => Ordering::AcqRel,
        MemOrder::SeqCst => Ordering::SeqCst,
    }
}

/// The failure ordering of a compare-exchange with success ordering `o`.
fn fail_order(o: MemOrder) -> Ordering {
    match o {
        MemOrder::Relaxed | MemOrder::Release => Ordering::Relaxed,
        MemOrder::Acquire | MemOrder::AcqRel => Ordering::Acquire,
        MemOrder::SeqCst => Ordering::SeqCst,
    }
}

/// Yields the lane after an atomic that did not change memory (see above).
#[track_caller]
#[inline]
fn after_atomic(changed: bool, _o: MemOrder, _s: MemScope) {
    if !changed {
        lane::yield_now();
    }
}

/// Atomic 32-bit load.
///
/// # Safety
/// `p` must be valid for a 4-byte aligned atomic read.
#[track_caller]
#[inline]
pub unsafe fn atom_load_32(p: *const u32, o: LoadOrder, at: At) -> u32 {
    let s = at.scope;
    // SAFETY: the caller passes a valid, aligned pointer.
    let v = unsafe { AtomicU32::from_ptr(p as *mut u32) }.load(load_order(o));
    let mo = load_sim_order(o);
    note_strong(p, AtomicKind::Load, mo, s);
    after_atomic(false, mo, s);
    v
}

/// Atomic 64-bit load.
///
/// # Safety
/// `p` must be valid for an 8-byte aligned atomic read.
#[track_caller]
#[inline]
pub unsafe fn atom_load_64(p: *const u64, o: LoadOrder, at: At) -> u64 {
    let s = at.scope;
    // SAFETY: the caller passes a valid, aligned pointer.
    let v = unsafe { AtomicU64::from_ptr(p as *mut u64) }.load(load_order(o));
    let mo = load_sim_order(o);
    note_strong(p, AtomicKind::Load, mo, s);
    after_atomic(false, mo, s);
    v
}

fn load_order(o: LoadOrder) -> Ordering {
    match o {
        LoadOrder::Relaxed => Ordering::Relaxed,
        LoadOrder::Acquire => Ordering::Acquire,
        LoadOrder::SeqCst => Ordering::SeqCst,
    }
}

/// The race detector's view of a load ordering.
fn load_sim_order(o: LoadOrder) -> MemOrder {
    match o {
        LoadOrder::Relaxed => MemOrder::Relaxed,
        LoadOrder::Acquire => MemOrder::Acquire,
        LoadOrder::SeqCst => MemOrder::SeqCst,
    }
}

/// The race detector's view of a store ordering.
fn store_sim_order(o: StoreOrder) -> MemOrder {
    match o {
        StoreOrder::Relaxed => MemOrder::Relaxed,
        StoreOrder::Release => MemOrder::Release,
        StoreOrder::SeqCst => MemOrder::SeqCst,
    }
}

fn store_order(o: StoreOrder) -> Ordering {
    match o {
        StoreOrder::Relaxed => Ordering::Relaxed,
        StoreOrder::Release => Ordering::Release,
        StoreOrder::SeqCst => Ordering::SeqCst,
    }
}

/// Atomic 32-bit store.
///
/// # Safety
/// `p` must be valid for a 4-byte aligned atomic write.
#[track_caller]
#[inline]
pub unsafe fn atom_store_32(p: *mut u32, v: u32, o: StoreOrder, at: At) {
    let s = at.scope;
    // SAFETY: the caller passes a valid, aligned pointer.
    unsafe { AtomicU32::from_ptr(p) }.store(v, store_order(o));
    note_strong(p, AtomicKind::Store, store_sim_order(o), s);
}

/// Atomic 64-bit store.
///
/// # Safety
/// `p` must be valid for an 8-byte aligned atomic write.
#[track_caller]
#[inline]
pub unsafe fn atom_store_64(p: *mut u64, v: u64, o: StoreOrder, at: At) {
    let s = at.scope;
    // SAFETY: the caller passes a valid, aligned pointer.
    unsafe { AtomicU64::from_ptr(p) }.store(v, store_order(o));
    note_strong(p, AtomicKind::Store, store_sim_order(o), s);
}

/// The new value of a 32-bit word under `op`.
fn apply_32(op: Rmw32, old: u32, v: u32) -> u32 {
    match op {
        Rmw32::Add => old.wrapping_add(v),
        Rmw32::AddF => (f32::from_bits(old) + f32::from_bits(v)).to_bits(),
        Rmw32::MinU => old.min(v),
        Rmw32::MinS => (old as i32).min(v as i32) as u32,
        Rmw32::MaxU => old.max(v),
        Rmw32::MaxS => (old as i32).max(v as i32) as u32,
        Rmw32::And => old & v,
        Rmw32::Or => old | v,
        Rmw32::Xor => old ^ v,
        Rmw32::Exch => v,
        Rmw32::Inc => inc_model(old, v),
        Rmw32::Dec => dec_model(old, v),
        Rmw32::AddF16x2 => f16x2_add(old, v),
        Rmw32::AddBf16x2 => bf16x2_add(old, v),
    }
}

/// The new value of a 64-bit word under `op`.
fn apply_64(op: Rmw64, old: u64, v: u64) -> u64 {
    match op {
        Rmw64::Add => old.wrapping_add(v),
        Rmw64::AddF => (f64::from_bits(old) + f64::from_bits(v)).to_bits(),
        Rmw64::MinU => old.min(v),
        Rmw64::MinS => (old as i64).min(v as i64) as u64,
        Rmw64::MaxU => old.max(v),
        Rmw64::MaxS => (old as i64).max(v as i64) as u64,
        Rmw64::And => old & v,
        Rmw64::Or => old | v,
        Rmw64::Xor => old ^ v,
        Rmw64::Exch => v,
    }
}

/// Atomic read-modify-write of a 32-bit word; returns the old value.
///
/// # Safety
/// `p` must be valid for a 4-byte aligned atomic read-modify-write.
#[track_caller]
#[inline]
pub unsafe fn atom_rmw_32(op: Rmw32, p: *mut u32, v: u32, o: MemOrder, at: At) -> u32 {
    let s = at.scope;
    // SAFETY: the caller passes a valid, aligned pointer.
    let a = unsafe { AtomicU32::from_ptr(p) };
    let old = a
        .fetch_update(rmw_order(o), fail_order(o), |x| Some(apply_32(op, x, v)))
        .unwrap_or_else(|x| x);
    note_strong(p, AtomicKind::Rmw, o, s);
    after_atomic(apply_32(op, old, v) != old, o, s);
    old
}

/// `red.sem.scope.OP` of a 32-bit word: the read-modify-write without its
/// result (`Exch` has no `red` form: it is the `atom`, its result dropped).
///
/// # Safety
/// As [`atom_rmw_32`].
#[track_caller]
#[inline]
pub unsafe fn red_32(op: Rmw32, p: *mut u32, v: u32, o: RedOrder, at: At) {
    // SAFETY: forwarded contract.
    unsafe { atom_rmw_32(op, p, v, o.rmw(), at) };
}

/// `red.sem.scope.OP` of a 64-bit word (see [`red_32`]).
///
/// # Safety
/// As [`atom_rmw_64`].
#[track_caller]
#[inline]
pub unsafe fn red_64(op: Rmw64, p: *mut u64, v: u64, o: RedOrder, at: At) {
    // SAFETY: forwarded contract.
    unsafe { atom_rmw_64(op, p, v, o.rmw(), at) };
}

/// Atomic read-modify-write of a 64-bit word; returns the old value.
///
/// # Safety
/// `p` must be valid for an 8-byte aligned atomic read-modify-write.
#[track_caller]
#[inline]
pub unsafe fn atom_rmw_64(op: Rmw64, p: *mut u64, v: u64, o: MemOrder, at: At) -> u64 {
    let s = at.scope;
    // SAFETY: the caller passes a valid, aligned pointer.
    let a = unsafe { AtomicU64::from_ptr(p) };
    let old = a
        .fetch_update(rmw_order(o), fail_order(o), |x| Some(apply_64(op, x, v)))
        .unwrap_or_else(|x| x);
    note_strong(p, AtomicKind::Rmw, o, s);
    after_atomic(apply_64(op, old, v) != old, o, s);
    old
}

/// Atomic compare-and-swap of a 32-bit word (bitwise compare); returns the
/// old value.
///
/// # Safety
/// `p` must be valid for a 4-byte aligned atomic read-modify-write.
#[track_caller]
#[inline]
pub unsafe fn atom_cas_32(p: *mut u32, cmp: u32, new: u32, o: MemOrder, at: At) -> u32 {
    let s = at.scope;
    // SAFETY: the caller passes a valid, aligned pointer.
    let a = unsafe { AtomicU32::from_ptr(p) };
    let old = a
        .compare_exchange(cmp, new, rmw_order(o), fail_order(o))
        .unwrap_or_else(|x| x);
    note_strong(p, AtomicKind::Rmw, o, s);
    after_atomic(old == cmp && new != cmp, o, s);
    old
}

/// Atomic compare-and-swap of a 64-bit word (bitwise compare); returns the
/// old value.
///
/// # Safety
/// `p` must be valid for an 8-byte aligned atomic read-modify-write.
#[track_caller]
#[inline]
pub unsafe fn atom_cas_64(p: *mut u64, cmp: u64, new: u64, o: MemOrder, at: At) -> u64 {
    let s = at.scope;
    // SAFETY: the caller passes a valid, aligned pointer.
    let a = unsafe { AtomicU64::from_ptr(p) };
    let old = a
        .compare_exchange(cmp, new, rmw_order(o), fail_order(o))
        .unwrap_or_else(|x| x);
    note_strong(p, AtomicKind::Rmw, o, s);
    after_atomic(old == cmp && new != cmp, o, s);
    old
}

/// A fence: lanes share one OS thread, so a host fence (which also keeps
/// the optimiser from moving accesses across it) is all it takes.
#[inline]
pub fn fence(o: FenceOrder, s: MemScope) {
    core::sync::atomic::fence(match o {
        FenceOrder::AcqRel => Ordering::AcqRel,
        FenceOrder::SeqCst => Ordering::SeqCst,
    });
    lane::mem_fence(o == FenceOrder::SeqCst, s);
}

/// `membar.cta`.
#[inline]
pub fn membar_cta() {
    fence(FenceOrder::SeqCst, MemScope::Cta)
}

/// `membar.gl`.
#[inline]
pub fn membar_gl() {
    fence(FenceOrder::SeqCst, MemScope::Gpu)
}

/// `membar.sys`.
#[inline]
pub fn membar_sys() {
    fence(FenceOrder::SeqCst, MemScope::Sys)
}

/// `nanosleep`: the lane gives up its turn (a spin loop's pause).
#[track_caller]
#[inline]
pub fn nanosleep(_ns: u32) {
    lane::yield_now()
}

/// `%clock64`: the simulator has no cycles; a process-wide counter that
/// every read advances, so that a later read is always larger (a timed
/// region is at least one tick).
#[inline]
pub fn clock64() -> u64 {
    static TICKS: AtomicU64 = AtomicU64::new(0);
    TICKS.fetch_add(1, Ordering::Relaxed) + 1
}

/// `isspacep.global`: everything outside the block's shared memory.
#[inline]
pub fn is_global(p: *const u8) -> bool {
    !lane::is_shared(p)
}

/// One asynchronous copy of `SIZE` bytes: lands at the lane's wait.
///
/// # Safety
/// As the GPU backend's: `dst` shared, `src` global, both valid for `SIZE` bytes.
#[track_caller]
#[inline]
pub unsafe fn cp_async<const SIZE: u32>(dst: *mut u8, src: *const u8) {
    // SAFETY: forwarded from the caller.
    unsafe { lane::async_copy(dst, src, SIZE as usize) }
}

/// `cp.async.commit_group`.
#[inline]
pub fn cp_async_commit() {
    lane::async_commit()
}

/// `cp.async.wait_group N`.
#[inline]
pub fn cp_async_wait<const N: u32>() {
    lane::async_wait(N)
}

/// Reports an access to shared bytes that a copy in flight has not delivered.
#[track_caller]
#[inline]
pub fn shared_access_check(p: *const u8, len: usize, write: bool) {
    lane::async_check_access(p, len, write)
}

/// Whose shared memory a handle reaches: the simulator's record of its
/// block ([`cg_sim::lane::SharedOwner`]). The simulated block's shared
/// memory is host memory that its end frees: every access through a
/// handle is checked against the owner first.
pub type SharedOwner = lane::SharedOwner;

/// The owner of a shared-memory handle made now: the calling lane's block.
#[inline]
pub fn shared_owner() -> SharedOwner {
    lane::shared_owner()
}

/// The owner of a handle that names no memory: no lane may use it.
#[inline]
pub const fn no_owner() -> SharedOwner {
    SharedOwner::NOBODY
}

/// Checks an access (`what`; `write`: a store or an atomic) of `len` bytes
/// at `p` through a shared-memory handle of `owner`: a misuse report at
/// the caller's line, before the access, unless the calling lane's block
/// may use the handle (its own, or a live cluster peer's through a mapped
/// handle); then the check of copies in flight. `false` only for an
/// unwinding lane that may not use it: it must skip the access.
#[track_caller]
#[inline]
pub fn shared_access(
    owner: SharedOwner,
    p: *const u8,
    len: usize,
    write: bool,
    what: &'static str,
) -> bool {
    lane::shared_access(owner, p, len, write, what)
}

/// Checks a use (`what`) of a shared-memory handle of `owner` that must be
/// the calling block's own memory (a copy's destination, a store's
/// source): a misuse report at the caller's line otherwise. `false` only
/// for an unwinding lane that may not use it: it must skip the use.
#[track_caller]
#[inline]
pub fn shared_own(owner: SharedOwner, what: &'static str) -> bool {
    lane::shared_own(owner, what)
}

/// `mapa` of a shared-memory handle of `owner` (the calling block's: a
/// misuse report otherwise) whose `size = (bytes, alignment)` start at
/// `p`: the address in block `rank` of the cluster, and the mapped
/// handle's owner.
#[track_caller]
#[inline]
pub fn map_shared_owned(
    owner: SharedOwner,
    p: *mut u8,
    size: (usize, usize),
    rank: u32,
) -> (*mut u8, SharedOwner) {
    lane::cluster_map_owned(owner, p, size, rank)
}

/// A kernel parameter's address in parameter space: the simulator's tile
/// copies read the tensor itself, never the map (and `#[kernel]`'s host
/// body calls no entry prologue).
#[inline]
pub fn grid_constant_address(_param: impl FnOnce() -> u64) -> u64 {
    0
}

/// Atomic 16-bit load.
///
/// # Safety
/// `p` must be valid for a 2-byte aligned atomic read.
#[track_caller]
#[inline]
pub unsafe fn atom_load_16(p: *const u16, o: LoadOrder, at: At) -> u16 {
    let s = at.scope;
    // SAFETY: the caller passes a valid, aligned pointer.
    let v = unsafe { AtomicU16::from_ptr(p as *mut u16) }.load(load_order(o));
    let mo = load_sim_order(o);
    note_strong(p, AtomicKind::Load, mo, s);
    after_atomic(false, mo, s);
    v
}

/// Atomic 16-bit store.
///
/// # Safety
/// `p` must be valid for a 2-byte aligned atomic write.
#[track_caller]
#[inline]
pub unsafe fn atom_store_16(p: *mut u16, v: u16, o: StoreOrder, at: At) {
    let s = at.scope;
    // SAFETY: the caller passes a valid, aligned pointer.
    unsafe { AtomicU16::from_ptr(p) }.store(v, store_order(o));
    note_strong(p, AtomicKind::Store, store_sim_order(o), s);
}

/// Atomic compare-and-swap of a 16-bit word (bitwise compare); returns the
/// old value.
///
/// # Safety
/// `p` must be valid for a 2-byte aligned atomic read-modify-write.
#[track_caller]
#[inline]
pub unsafe fn atom_cas_16(p: *mut u16, cmp: u16, new: u16, o: MemOrder, at: At) -> u16 {
    let s = at.scope;
    // SAFETY: the caller passes a valid, aligned pointer.
    let a = unsafe { AtomicU16::from_ptr(p) };
    let old = a
        .compare_exchange(cmp, new, rmw_order(o), fail_order(o))
        .unwrap_or_else(|x| x);
    note_strong(p, AtomicKind::Rmw, o, s);
    after_atomic(old == cmp && new != cmp, o, s);
    old
}

/// The new value of a 16-bit word under `op`.
fn apply_16(op: Rmw16, old: u16, v: u16) -> u16 {
    match op {
        Rmw16::AddF16 => f16_add(old, v),
        Rmw16::AddBf16 => bf16_add(old, v),
        Rmw16::Exch => v,
    }
}

/// Atomic read-modify-write of a 16-bit word; returns the old value.
///
/// # Safety
/// `p` must be valid for a 2-byte aligned atomic read-modify-write.
#[track_caller]
#[inline]
pub unsafe fn atom_rmw_16(op: Rmw16, p: *mut u16, v: u16, o: MemOrder, at: At) -> u16 {
    let s = at.scope;
    // SAFETY: the caller passes a valid, aligned pointer.
    let a = unsafe { AtomicU16::from_ptr(p) };
    let old = a
        .fetch_update(rmw_order(o), fail_order(o), |x| Some(apply_16(op, x, v)))
        .unwrap_or_else(|x| x);
    note_strong(p, AtomicKind::Rmw, o, s);
    after_atomic(apply_16(op, old, v) != old, o, s);
    old
}

/// `red.sem.scope.add.noftz` of a 16-bit word (see [`red_32`]).
///
/// # Safety
/// As [`atom_rmw_16`].
#[track_caller]
#[inline]
pub unsafe fn red_16(op: Rmw16, p: *mut u16, v: u16, o: RedOrder, at: At) {
    // SAFETY: forwarded contract.
    unsafe { atom_rmw_16(op, p, v, o.rmw(), at) };
}

/// `atom.inc.u32` as the PTX ISA defines it (CUDA's `atomicInc`).
#[inline(always)]
const fn inc_model(old: u32, limit: u32) -> u32 {
    if old >= limit { 0 } else { old + 1 }
}

/// `atom.dec.u32` as the PTX ISA defines it (CUDA's `atomicDec`).
#[inline(always)]
const fn dec_model(old: u32, limit: u32) -> u32 {
    if old == 0 || old > limit {
        limit
    } else {
        old - 1
    }
}

#[cfg(test)]
mod tests {
    use super::{ShflMode, up_in_range};
    use crate::arch::shfl_c;

    /// For a segment of `width` lanes (`c` as the scans pass it) and a
    /// shift `d < width`, the predicate is `rank >= d`, the rank compare
    /// the scans replaced.
    #[test]
    fn up_predicate_is_rank_at_least_d() {
        for width in [1u32, 2, 4, 8, 16, 32] {
            let c = shfl_c(ShflMode::Up, width);
            for lane in 0..32 {
                for d in 1..width {
                    assert_eq!(
                        up_in_range(lane, d, c),
                        lane % width >= d,
                        "w {width} lane {lane} d {d}"
                    );
                }
            }
        }
    }
}
