//! Atomics and fences with an ordering and a scope: the model of CUDA's
//! `cuda::atomic_ref<T, Scope>` and `cuda::atomic_thread_fence`, in Rust form.
//!
//! An [`AtomicRef<'a, T, S>`](AtomicRef) views a `T` in global or shared
//! memory as an atomic object of scope `S` ([`Block`], [`Cluster`],
//! [`Device`], [`System`]). Every operation takes its ordering as a value of
//! a marker type ([`Relaxed`], [`Acquire`], [`Release`], [`AcqRel`],
//! [`SeqCst`]), and misuse does not compile:
//!
//! * a load cannot be `Release` or `AcqRel`, a store cannot be `Acquire` or
//!   `AcqRel`, a fence cannot be `Relaxed` (the orderings implement
//!   [`LoadOrdering`], [`StoreOrdering`], [`FenceOrdering`] accordingly);
//! * an operation exists only for the types the hardware has it for:
//!   `fetch_add`/`fetch_sub` on `u32`, `i32`, `u64`, `i64`, `f32`, `f64`, the
//!   16-bit floats [`f16`](struct@crate::f16), [`bf16`](crate::bf16) and
//!   their pairs [`f16x2`](crate::f16x2), [`bf16x2`](crate::bf16x2)
//!   ([`AtomicArith`]); bitwise and min/max on the integers only
//!   ([`AtomicInteger`]: PTX has no float `atom.min`); CUDA's wrapping
//!   `atomicInc`/`atomicDec` ([`AtomicRef::fetch_inc`]) on `u32` only (PTX has
//!   no 64-bit `atom.inc`). The library targets sm_70+, so `f64` add is
//!   always there.
//!
//! # What each call lowers to
//!
//! The instructions are those libcu++ emits for the same `cuda::atomic_ref`
//! call (`sem` ∈ `relaxed`, `acquire`, `release`, `acq_rel`; `scope` ∈ `cta`,
//! `cluster`, `gpu`, `sys`):
//!
//! | Rust | PTX |
//! |---|---|
//! | `load(Relaxed \| Acquire)` | `ld.relaxed.scope.b32` / `ld.acquire.scope.b32` |
//! | `load(SeqCst)` | `fence.sc.scope; ld.acquire.scope.b32` |
//! | `store(v, Relaxed \| Release)` | `st.relaxed.scope.b32` / `st.release.scope.b32` |
//! | `store(v, SeqCst)` | `fence.sc.scope; st.relaxed.scope.b32` |
//! | `fetch_add(v, o)` | `atom.sem.scope.add.{u32,u64,f32,f64}`, `atom.sem.scope.add.noftz.{f16,bf16,f16x2,bf16x2}` (bf16 and its pairs: sm_90; a CAS loop below) |
//! | `fetch_sub(v, o)` | `atom.sem.scope.add` of `-v` (as libcu++) |
//! | `fetch_min/max(v, o)` | `atom.sem.scope.{min,max}.{u32,s32,u64,s64}` |
//! | `fetch_and/or/xor(v, o)` | `atom.sem.scope.{and,or,xor}.{b32,b64}` |
//! | `exchange(v, o)` | `atom.sem.scope.exch.{b32,b64}` |
//! | `compare_exchange(c, v, o)` | `atom.sem.scope.cas.{b32,b64}` |
//! | `fetch_inc/fetch_dec(l, o)` | `atom.sem.scope.{inc,dec}.u32` |
//! | any RMW with `SeqCst` | `fence.sc.scope;` then the `.acquire` form |
//! | `red_add/sub/and/or/xor/min/max(v, Relaxed \| Release)`, `red_inc/dec(l, o)` | `red.sem.scope.OP.TYPE [a], v` (no result; `sem` ∈ `relaxed`, `release`) |
//! | [`fence`]`(AcqRel \| Acquire \| Release, s)` | `fence.acq_rel.scope` |
//! | [`fence`]`(SeqCst, s)` | `fence.sc.scope` |
//! | [`threadfence`], [`threadfence_block`], [`threadfence_system`] | `membar.gl`, `membar.cta`, `membar.sys` |
//! | [`nanosleep`] | `nanosleep.u32` |
//!
//! 64-bit types use the `.b64`/`.u64`/`.s64`/`.f64` forms. Addresses are
//! generic (`[%rd]`), so the same call works on global and shared memory;
//! nvcc writes the `.global` or `.shared` form (`atom.acq_rel.gpu.global.cas.b32`)
//! only where it proves the space, and ptxas resolves a generic address at
//! run time otherwise — the same `ATOM`/`ATOMS`/`ATOMG` family. The
//! [`Cluster`] scope is `.cluster` on sm_90 and `.gpu` on older GPUs (which
//! have no clusters). The classic CUDA names ([`atomic_cas`],
//! [`atomic_exch`], [`atomic_min`] …) are relaxed and device-scoped, which is
//! what PTX's unqualified `atom.OP` (nvcc's code for `atomicCAS` …) means:
//! they emit the explicit `atom.relaxed.gpu.OP` form. [`red_add`] is the
//! global-only add without a result (`red.global.add`).
//!
//! On the simulator every operation is a host atomic with the same
//! semantics (wrapping `inc`/`dec`, signed and unsigned min/max, bitwise
//! compare-and-swap); an atomic that leaves memory unchanged (a load, a
//! failed CAS) gives up the lane's turn, so spin loops progress, and one that
//! can never end is reported as a livelock.
//!
//! # Example: a flag handshake
//!
//! Warp 0 of a block produces a value and publishes it with a release store;
//! warp 1 waits for the flag with acquire loads (pausing with [`nanosleep`])
//! and then reads the value — on the simulator here, and the same code on the
//! GPU:
//!
//! ```
//! use cooperative_groups::atomic::{nanosleep, Acquire, AtomicRef, Block, Relaxed, Release};
//! use cooperative_groups::intrinsics::thread_idx;
//! use std::cell::UnsafeCell;
//!
//! struct Mailbox { data: UnsafeCell<u32>, flag: UnsafeCell<u32>, got: UnsafeCell<u32> }
//! // SAFETY (of the example): the kernel accesses the cells as described below.
//! unsafe impl Sync for Mailbox {}
//! let m = Mailbox { data: UnsafeCell::new(0), flag: UnsafeCell::new(0), got: UnsafeCell::new(0) };
//!
//! cg_sim::launch(&cg_sim::LaunchConfig::new(1, 64), &|| {
//!     // SAFETY: the three words outlive the launch and are only accessed atomically
//!     // (or, `got`, by one lane).
//!     let (data, flag) = unsafe {
//!         (AtomicRef::<u32, Block>::from_ptr(m.data.get()), AtomicRef::<u32, Block>::from_ptr(m.flag.get()))
//!     };
//!     match thread_idx().x {
//!         0 => {
//!             data.store(42, Relaxed);
//!             flag.store(1, Release); // publishes `data`
//!         }
//!         32 => {
//!             while flag.load(Acquire) == 0 {
//!                 nanosleep(100);
//!             }
//!             // SAFETY: only this lane writes `got`.
//!             unsafe { *m.got.get() = data.load(Relaxed) };
//!         }
//!         _ => {}
//!     }
//! })
//! .unwrap();
//! assert_eq!(m.got.into_inner(), 42);
//! ```
//!
//! A "last block finishes" reduction (NVIDIA's `threadFenceReduction`
//! pattern) is `cg_kernels::c02::last_block_reduce`: each block publishes
//! its partial sum with a device-scope `fetch_inc(…, AcqRel)` ticket, and
//! the block that draws the last ticket sums the partials.

use core::marker::PhantomData;

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
    #[track_caller]
    unsafe fn atomic_add(p: *mut Self, v: Self) -> Self {
        // SAFETY: forwarded contract.
        unsafe { arch::atomic_add_u32(p, v) }
    }
    #[inline(always)]
    #[track_caller]
    unsafe fn red_add(p: *mut Self, v: Self) {
        // SAFETY: forwarded contract.
        unsafe { arch::red_global_add_u32(p, v) }
    }
}
impl AtomicAdd for i32 {
    #[inline(always)]
    #[track_caller]
    unsafe fn atomic_add(p: *mut Self, v: Self) -> Self {
        // SAFETY: forwarded contract; two's-complement add is the same instruction.
        unsafe { arch::atomic_add_u32(p.cast(), v as u32) as i32 }
    }
    #[inline(always)]
    #[track_caller]
    unsafe fn red_add(p: *mut Self, v: Self) {
        // SAFETY: forwarded contract.
        unsafe { arch::red_global_add_u32(p.cast(), v as u32) }
    }
}
impl AtomicAdd for u64 {
    #[inline(always)]
    #[track_caller]
    unsafe fn atomic_add(p: *mut Self, v: Self) -> Self {
        // SAFETY: forwarded contract.
        unsafe { arch::atomic_add_u64(p, v) }
    }
    #[inline(always)]
    #[track_caller]
    unsafe fn red_add(p: *mut Self, v: Self) {
        // SAFETY: forwarded contract.
        unsafe { arch::red_global_add_u64(p, v) }
    }
}
impl AtomicAdd for f32 {
    #[inline(always)]
    #[track_caller]
    unsafe fn atomic_add(p: *mut Self, v: Self) -> Self {
        // SAFETY: forwarded contract.
        unsafe { arch::atomic_add_f32(p, v) }
    }
    #[inline(always)]
    #[track_caller]
    unsafe fn red_add(p: *mut Self, v: Self) {
        // SAFETY: forwarded contract.
        unsafe { arch::red_global_add_f32(p, v) }
    }
}
impl AtomicAdd for f64 {
    #[inline(always)]
    #[track_caller]
    unsafe fn atomic_add(p: *mut Self, v: Self) -> Self {
        // SAFETY: forwarded contract.
        unsafe { arch::atomic_add_f64(p, v) }
    }
    #[inline(always)]
    #[track_caller]
    unsafe fn red_add(p: *mut Self, v: Self) {
        // SAFETY: forwarded contract.
        unsafe { arch::red_global_add_f64(p, v) }
    }
}

/// `atomicAdd(p, v)`: adds `v` to `*p`; returns the previous value.
///
/// # Safety
/// `p` must be valid for an aligned atomic read-modify-write.
#[doc(alias = "atomicAdd")]
#[inline(always)]
#[track_caller]
pub unsafe fn atomic_add<T: AtomicAdd>(p: *mut T, v: T) -> T {
    // SAFETY: forwarded contract.
    unsafe { T::atomic_add(p, v) }
}

/// `atomicAdd(p, v)` whose old value is not needed, on global memory: one
/// `red.global.add` — what nvcc emits for an unused `atomicAdd` on a global
/// pointer (`RED.E.ADD`); [`atomic_add`] must return the old value and, on a
/// generic address, costs a round trip and a space check. For another
/// operator, ordering or scope, see [`AtomicRef::red_add`] and its siblings.
///
/// # Safety
/// `p` must point to global (device) memory, valid for an aligned atomic
/// access.
#[doc(alias = "red.global.add")]
#[inline(always)]
#[track_caller]
pub unsafe fn red_add<T: AtomicAdd>(p: *mut T, v: T) {
    // SAFETY: forwarded contract.
    unsafe { T::red_add(p, v) }
}

mod sealed {
    pub trait Sealed {}
}

// ---- Scopes ----------------------------------------------------------------

/// The memory scope of an atomic or a fence: which threads it synchronises
/// with (CUDA's `cuda::thread_scope`).
pub trait Scope: sealed::Sealed + Copy + Default {
    /// The scope as the arch layer sees it.
    #[doc(hidden)]
    const SCOPE: arch::MemScope;
}

macro_rules! scopes {
    ($($(#[$m:meta])* $name:ident => $v:ident),* $(,)?) => {$(
        $(#[$m])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        pub struct $name;
        impl sealed::Sealed for $name {}
        impl Scope for $name {
            const SCOPE: arch::MemScope = arch::MemScope::$v;
        }
    )*};
}

scopes! {
    /// The threads of the block: `cuda::thread_scope_block`, PTX `.cta`.
    #[doc(alias = "thread_scope_block")]
    Block => Cta,
    /// The threads of the cluster: `cuda::thread_scope_cluster`, PTX
    /// `.cluster` (sm_90; `.gpu` on older GPUs, which have no clusters).
    #[doc(alias = "thread_scope_cluster")]
    Cluster => Cluster,
    /// Every thread of the device: `cuda::thread_scope_device`, PTX `.gpu`
    /// (the scope of CUDA's classic `atomicAdd` …).
    #[doc(alias = "thread_scope_device")]
    Device => Gpu,
    /// The device, the host and peer devices: `cuda::thread_scope_system`,
    /// PTX `.sys`.
    #[doc(alias = "thread_scope_system")]
    System => Sys,
}

// ---- Orderings ---------------------------------------------------------------

/// A memory ordering (CUDA's `cuda::std::memory_order`); every ordering is
/// valid for a read-modify-write.
pub trait Ordering: sealed::Sealed + Copy + Default {
    /// The ordering of a read-modify-write.
    #[doc(hidden)]
    const RMW: arch::MemOrder;
}

/// The orderings a load can have: [`Relaxed`], [`Acquire`], [`SeqCst`].
#[diagnostic::on_unimplemented(
    message = "an atomic load cannot have the ordering `{Self}`",
    label = "a load takes `Relaxed`, `Acquire` or `SeqCst`"
)]
pub trait LoadOrdering: Ordering {
    /// The ordering of a load.
    #[doc(hidden)]
    const LOAD: arch::LoadOrder;
}

/// The orderings a store can have: [`Relaxed`], [`Release`], [`SeqCst`].
#[diagnostic::on_unimplemented(
    message = "an atomic store cannot have the ordering `{Self}`",
    label = "a store takes `Relaxed`, `Release` or `SeqCst`"
)]
pub trait StoreOrdering: Ordering {
    /// The ordering of a store.
    #[doc(hidden)]
    const STORE: arch::StoreOrder;
}

/// The orderings a `red` (an atomic whose result is not needed) can have:
/// [`Relaxed`] and [`Release`] — the PTX ISA gives `red` no acquire form
/// (an acquire of a value nobody reads orders nothing).
#[diagnostic::on_unimplemented(
    message = "a `red` cannot have the ordering `{Self}`",
    label = "a red takes `Relaxed` or `Release`",
    note = "use the `fetch_` form for an acquire or sequentially consistent read-modify-write"
)]
pub trait RedOrdering: Ordering {
    /// The ordering of a `red`.
    #[doc(hidden)]
    const RED: arch::RedOrder;
}

impl RedOrdering for Relaxed {
    const RED: arch::RedOrder = arch::RedOrder::Relaxed;
}
impl RedOrdering for Release {
    const RED: arch::RedOrder = arch::RedOrder::Release;
}

/// The orderings a fence can have: every one but [`Relaxed`] (a relaxed
/// fence orders nothing).
#[diagnostic::on_unimplemented(
    message = "a fence cannot have the ordering `{Self}`",
    label = "a fence takes `Acquire`, `Release`, `AcqRel` or `SeqCst`"
)]
pub trait FenceOrdering: Ordering {
    /// The kind of fence.
    #[doc(hidden)]
    const FENCE: arch::FenceOrder;
}

macro_rules! orderings {
    ($($(#[$m:meta])* $name:ident => $rmw:ident),* $(,)?) => {$(
        $(#[$m])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        pub struct $name;
        impl sealed::Sealed for $name {}
        impl Ordering for $name {
            const RMW: arch::MemOrder = arch::MemOrder::$rmw;
        }
    )*};
}

orderings! {
    /// No ordering of other accesses (`memory_order_relaxed`, PTX `.relaxed`).
    #[doc(alias = "memory_order_relaxed")]
    Relaxed => Relaxed,
    /// Later accesses stay after this read (`memory_order_acquire`, PTX
    /// `.acquire`).
    #[doc(alias = "memory_order_acquire")]
    Acquire => Acquire,
    /// Earlier accesses stay before this write (`memory_order_release`, PTX
    /// `.release`).
    #[doc(alias = "memory_order_release")]
    Release => Release,
    /// Both (`memory_order_acq_rel`, PTX `.acq_rel`).
    #[doc(alias = "memory_order_acq_rel")]
    AcqRel => AcqRel,
    /// Sequentially consistent (`memory_order_seq_cst`): `fence.sc.scope`
    /// before the acquire form of the operation, as libcu++ lowers it.
    #[doc(alias = "memory_order_seq_cst")]
    SeqCst => SeqCst,
}

impl LoadOrdering for Relaxed {
    const LOAD: arch::LoadOrder = arch::LoadOrder::Relaxed;
}
impl LoadOrdering for Acquire {
    const LOAD: arch::LoadOrder = arch::LoadOrder::Acquire;
}
impl LoadOrdering for SeqCst {
    const LOAD: arch::LoadOrder = arch::LoadOrder::SeqCst;
}
impl StoreOrdering for Relaxed {
    const STORE: arch::StoreOrder = arch::StoreOrder::Relaxed;
}
impl StoreOrdering for Release {
    const STORE: arch::StoreOrder = arch::StoreOrder::Release;
}
impl StoreOrdering for SeqCst {
    const STORE: arch::StoreOrder = arch::StoreOrder::SeqCst;
}
impl FenceOrdering for Acquire {
    const FENCE: arch::FenceOrder = arch::FenceOrder::AcqRel;
}
impl FenceOrdering for Release {
    const FENCE: arch::FenceOrder = arch::FenceOrder::AcqRel;
}
impl FenceOrdering for AcqRel {
    const FENCE: arch::FenceOrder = arch::FenceOrder::AcqRel;
}
impl FenceOrdering for SeqCst {
    const FENCE: arch::FenceOrder = arch::FenceOrder::SeqCst;
}

// ---- Value types -------------------------------------------------------------

/// The types an [`AtomicRef`] can hold: [`f16`](struct@crate::f16),
/// [`bf16`](crate::bf16) (one 16-bit word), `u32`, `i32`, `f32` and the
/// 16-bit pairs [`f16x2`](crate::f16x2), [`bf16x2`](crate::bf16x2) (one
/// 32-bit word), `u64`, `i64`, `f64` (one 64-bit word). All have atomic
/// `load`, `store`, `exchange` and `compare_exchange`.
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no hardware atomics",
    label = "atomics exist for u32, i32, f32, u64, i64, f64, f16, bf16, f16x2 and bf16x2"
)]
pub trait AtomicValue: sealed::Sealed + Copy {
    #[doc(hidden)]
    unsafe fn load(p: *const Self, o: arch::LoadOrder, s: arch::At) -> Self;
    #[doc(hidden)]
    unsafe fn store(p: *mut Self, v: Self, o: arch::StoreOrder, s: arch::At);
    #[doc(hidden)]
    unsafe fn exchange(p: *mut Self, v: Self, o: arch::MemOrder, s: arch::At) -> Self;
    #[doc(hidden)]
    unsafe fn cas(p: *mut Self, c: Self, v: Self, o: arch::MemOrder, s: arch::At) -> Self;
    /// Bitwise equality (what `atom.cas` compares).
    #[doc(hidden)]
    fn same_bits(a: Self, b: Self) -> bool;
}

/// The types with an atomic add and subtract: the integers of
/// [`AtomicValue`], `f32`, `f64` (`atom.add.f32`, `atom.add.f64`), the
/// 16-bit floats (`atom.add.noftz.f16`, `.bf16`) and their pairs
/// (`atom.add.noftz.f16x2`, `.bf16x2`).
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no hardware atomic add",
    label = "atomic add exists for u32, i32, u64, i64, f32, f64, f16, bf16, f16x2 and bf16x2"
)]
pub trait AtomicArith: AtomicValue {
    #[doc(hidden)]
    unsafe fn add(p: *mut Self, v: Self, o: arch::MemOrder, s: arch::At) -> Self;
    #[doc(hidden)]
    unsafe fn red_add(p: *mut Self, v: Self, o: arch::RedOrder, s: arch::At);
    /// `-v` (wrapping for the integers): `fetch_sub` adds it, as libcu++.
    #[doc(hidden)]
    fn neg(v: Self) -> Self;
}

/// The integer types: bitwise and/or/xor and min/max (signed for `i32` and
/// `i64`, unsigned for `u32` and `u64`). Floats have none of them (PTX has
/// no float `atom.min`/`atom.max`).
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no hardware atomic min/max/and/or/xor",
    label = "these exist for u32, i32, u64 and i64 only"
)]
pub trait AtomicInteger: AtomicArith {
    #[doc(hidden)]
    unsafe fn bitwise(p: *mut Self, v: Self, op: Bitwise, o: arch::MemOrder, s: arch::At) -> Self;
    #[doc(hidden)]
    unsafe fn red_bitwise(p: *mut Self, v: Self, op: Bitwise, o: arch::RedOrder, s: arch::At);
}

/// Which bitwise or ordering operation (internal).
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub enum Bitwise {
    And,
    Or,
    Xor,
    Min,
    Max,
}

macro_rules! atomic_value {
    ($t:ty, $bits:ty, $load:path, $store:path, $rmw:path, $red:path, $op:ident, $cas:path) => {
        impl sealed::Sealed for $t {}
        impl AtomicValue for $t {
            #[inline(always)]
            #[track_caller]
            unsafe fn load(p: *const Self, o: arch::LoadOrder, s: arch::At) -> Self {
                // SAFETY: forwarded contract; the type is one word of its size.
                unsafe { $load(p.cast(), o, s) as Self }
            }
            #[inline(always)]
            #[track_caller]
            unsafe fn store(p: *mut Self, v: Self, o: arch::StoreOrder, s: arch::At) {
                // SAFETY: forwarded contract.
                unsafe { $store(p.cast(), v as $bits, o, s) }
            }
            #[inline(always)]
            #[track_caller]
            unsafe fn exchange(p: *mut Self, v: Self, o: arch::MemOrder, s: arch::At) -> Self {
                // SAFETY: forwarded contract.
                unsafe { $rmw(arch::$op::Exch, p.cast(), v as $bits, o, s) as Self }
            }
            #[inline(always)]
            #[track_caller]
            unsafe fn cas(p: *mut Self, c: Self, v: Self, o: arch::MemOrder, s: arch::At) -> Self {
                // SAFETY: forwarded contract.
                unsafe { $cas(p.cast(), c as $bits, v as $bits, o, s) as Self }
            }
            #[inline(always)]
            fn same_bits(a: Self, b: Self) -> bool {
                a == b
            }
        }
        impl AtomicArith for $t {
            #[inline(always)]
            #[track_caller]
            unsafe fn add(p: *mut Self, v: Self, o: arch::MemOrder, s: arch::At) -> Self {
                // SAFETY: forwarded contract; two's-complement add is one instruction.
                unsafe { $rmw(arch::$op::Add, p.cast(), v as $bits, o, s) as Self }
            }
            #[inline(always)]
            #[track_caller]
            unsafe fn red_add(p: *mut Self, v: Self, o: arch::RedOrder, s: arch::At) {
                // SAFETY: forwarded contract.
                unsafe { $red(arch::$op::Add, p.cast(), v as $bits, o, s) }
            }
            #[inline(always)]
            fn neg(v: Self) -> Self {
                v.wrapping_neg()
            }
        }
    };
}

/// The `arch` operation of a [`Bitwise`] on 32- or 64-bit words.
macro_rules! bitwise_op {
    ($op:ident, $b:expr, $min:ident, $max:ident) => {
        match $b {
            Bitwise::And => arch::$op::And,
            Bitwise::Or => arch::$op::Or,
            Bitwise::Xor => arch::$op::Xor,
            Bitwise::Min => arch::$op::$min,
            Bitwise::Max => arch::$op::$max,
        }
    };
}

macro_rules! atomic_integer {
    ($t:ty, $bits:ty, $rmw:path, $red:path, $op:ident, $min:ident, $max:ident) => {
        impl AtomicInteger for $t {
            #[inline(always)]
            #[track_caller]
            unsafe fn bitwise(
                p: *mut Self,
                v: Self,
                op: Bitwise,
                o: arch::MemOrder,
                s: arch::At,
            ) -> Self {
                let op = bitwise_op!($op, op, $min, $max);
                // SAFETY: forwarded contract.
                unsafe { $rmw(op, p.cast(), v as $bits, o, s) as Self }
            }
            #[inline(always)]
            #[track_caller]
            unsafe fn red_bitwise(
                p: *mut Self,
                v: Self,
                op: Bitwise,
                o: arch::RedOrder,
                s: arch::At,
            ) {
                let op = bitwise_op!($op, op, $min, $max);
                // SAFETY: forwarded contract.
                unsafe { $red(op, p.cast(), v as $bits, o, s) }
            }
        }
    };
}

atomic_value!(
    u32,
    u32,
    arch::atom_load_32,
    arch::atom_store_32,
    arch::atom_rmw_32,
    arch::red_32,
    Rmw32,
    arch::atom_cas_32
);
atomic_value!(
    i32,
    u32,
    arch::atom_load_32,
    arch::atom_store_32,
    arch::atom_rmw_32,
    arch::red_32,
    Rmw32,
    arch::atom_cas_32
);
atomic_value!(
    u64,
    u64,
    arch::atom_load_64,
    arch::atom_store_64,
    arch::atom_rmw_64,
    arch::red_64,
    Rmw64,
    arch::atom_cas_64
);
atomic_value!(
    i64,
    u64,
    arch::atom_load_64,
    arch::atom_store_64,
    arch::atom_rmw_64,
    arch::red_64,
    Rmw64,
    arch::atom_cas_64
);
atomic_integer!(u32, u32, arch::atom_rmw_32, arch::red_32, Rmw32, MinU, MaxU);
atomic_integer!(i32, u32, arch::atom_rmw_32, arch::red_32, Rmw32, MinS, MaxS);
atomic_integer!(u64, u64, arch::atom_rmw_64, arch::red_64, Rmw64, MinU, MaxU);
atomic_integer!(i64, u64, arch::atom_rmw_64, arch::red_64, Rmw64, MinS, MaxS);

macro_rules! atomic_float {
    ($t:ty, $bits:ty, $load:path, $store:path, $rmw:path, $red:path, $op:ident, $cas:path) => {
        impl sealed::Sealed for $t {}
        impl AtomicValue for $t {
            #[inline(always)]
            #[track_caller]
            unsafe fn load(p: *const Self, o: arch::LoadOrder, s: arch::At) -> Self {
                // SAFETY: forwarded contract; the float is one word of its size.
                <$t>::from_bits(unsafe { $load(p.cast(), o, s) })
            }
            #[inline(always)]
            #[track_caller]
            unsafe fn store(p: *mut Self, v: Self, o: arch::StoreOrder, s: arch::At) {
                // SAFETY: forwarded contract.
                unsafe { $store(p.cast(), v.to_bits(), o, s) }
            }
            #[inline(always)]
            #[track_caller]
            unsafe fn exchange(p: *mut Self, v: Self, o: arch::MemOrder, s: arch::At) -> Self {
                // SAFETY: forwarded contract.
                <$t>::from_bits(unsafe { $rmw(arch::$op::Exch, p.cast(), v.to_bits(), o, s) })
            }
            #[inline(always)]
            #[track_caller]
            unsafe fn cas(p: *mut Self, c: Self, v: Self, o: arch::MemOrder, s: arch::At) -> Self {
                // SAFETY: forwarded contract.
                <$t>::from_bits(unsafe { $cas(p.cast(), c.to_bits(), v.to_bits(), o, s) })
            }
            #[inline(always)]
            fn same_bits(a: Self, b: Self) -> bool {
                a.to_bits() == b.to_bits()
            }
        }
        impl AtomicArith for $t {
            #[inline(always)]
            #[track_caller]
            unsafe fn add(p: *mut Self, v: Self, o: arch::MemOrder, s: arch::At) -> Self {
                // SAFETY: forwarded contract.
                <$t>::from_bits(unsafe { $rmw(arch::$op::AddF, p.cast(), v.to_bits(), o, s) })
            }
            #[inline(always)]
            #[track_caller]
            unsafe fn red_add(p: *mut Self, v: Self, o: arch::RedOrder, s: arch::At) {
                // SAFETY: forwarded contract.
                unsafe { $red(arch::$op::AddF, p.cast(), v.to_bits(), o, s) }
            }
            #[inline(always)]
            fn neg(v: Self) -> Self {
                -v
            }
        }
    };
}

atomic_float!(
    f32,
    u32,
    arch::atom_load_32,
    arch::atom_store_32,
    arch::atom_rmw_32,
    arch::red_32,
    Rmw32,
    arch::atom_cas_32
);
atomic_float!(
    f64,
    u64,
    arch::atom_load_64,
    arch::atom_store_64,
    arch::atom_rmw_64,
    arch::red_64,
    Rmw64,
    arch::atom_cas_64
);

/// The packed 16-bit pairs: one 32-bit word each. `fetch_add` is
/// `atom.add.noftz.f16x2` / `.bf16x2` (each half rounded to nearest even,
/// subnormals kept: CUDA's `atomicAdd(__half2*, __half2)` and
/// `atomicAdd(__nv_bfloat162*, …)`); bf16 pairs below sm_90 take a
/// compare-and-swap loop, as `cuda_bf16.hpp` there.
macro_rules! atomic_pair {
    ($t:ty, $add:ident) => {
        impl sealed::Sealed for $t {}
        impl AtomicValue for $t {
            #[inline(always)]
            #[track_caller]
            unsafe fn load(p: *const Self, o: arch::LoadOrder, s: arch::At) -> Self {
                // SAFETY: forwarded contract; the pair is one aligned 32-bit word.
                <$t>::from_bits(unsafe { arch::atom_load_32(p.cast(), o, s) })
            }
            #[inline(always)]
            #[track_caller]
            unsafe fn store(p: *mut Self, v: Self, o: arch::StoreOrder, s: arch::At) {
                // SAFETY: forwarded contract.
                unsafe { arch::atom_store_32(p.cast(), v.to_bits(), o, s) }
            }
            #[inline(always)]
            #[track_caller]
            unsafe fn exchange(p: *mut Self, v: Self, o: arch::MemOrder, s: arch::At) -> Self {
                // SAFETY: forwarded contract.
                <$t>::from_bits(unsafe {
                    arch::atom_rmw_32(arch::Rmw32::Exch, p.cast(), v.to_bits(), o, s)
                })
            }
            #[inline(always)]
            #[track_caller]
            unsafe fn cas(p: *mut Self, c: Self, v: Self, o: arch::MemOrder, s: arch::At) -> Self {
                // SAFETY: forwarded contract.
                <$t>::from_bits(unsafe {
                    arch::atom_cas_32(p.cast(), c.to_bits(), v.to_bits(), o, s)
                })
            }
            #[inline(always)]
            fn same_bits(a: Self, b: Self) -> bool {
                a.to_bits() == b.to_bits()
            }
        }
        impl AtomicArith for $t {
            #[inline(always)]
            #[track_caller]
            unsafe fn add(p: *mut Self, v: Self, o: arch::MemOrder, s: arch::At) -> Self {
                // SAFETY: forwarded contract.
                <$t>::from_bits(unsafe {
                    arch::atom_rmw_32(arch::Rmw32::$add, p.cast(), v.to_bits(), o, s)
                })
            }
            #[inline(always)]
            #[track_caller]
            unsafe fn red_add(p: *mut Self, v: Self, o: arch::RedOrder, s: arch::At) {
                // SAFETY: forwarded contract.
                unsafe { arch::red_32(arch::Rmw32::$add, p.cast(), v.to_bits(), o, s) }
            }
            #[inline(always)]
            fn neg(v: Self) -> Self {
                // Both signs flipped (`__hneg2`): `fetch_sub` adds it.
                <$t>::from_bits(v.to_bits() ^ 0x8000_8000)
            }
        }
    };
}

/// The 16-bit floats: `fetch_add` is `atom.add.noftz.f16` (sm_70+) /
/// `.bf16` (sm_90; a `cas.b16` loop below), CUDA's `atomicAdd(__half*, …)`
/// and `atomicAdd(__nv_bfloat16*, …)`; `exchange` is a `cas.b16` loop
/// (PTX has no 16-bit `atom.exch`).
macro_rules! atomic_half {
    ($t:ty, $add:ident) => {
        impl sealed::Sealed for $t {}
        impl AtomicValue for $t {
            #[inline(always)]
            #[track_caller]
            unsafe fn load(p: *const Self, o: arch::LoadOrder, s: arch::At) -> Self {
                // SAFETY: forwarded contract; the float is one aligned 16-bit word.
                <$t>::from_bits(unsafe { arch::atom_load_16(p.cast(), o, s) })
            }
            #[inline(always)]
            #[track_caller]
            unsafe fn store(p: *mut Self, v: Self, o: arch::StoreOrder, s: arch::At) {
                // SAFETY: forwarded contract.
                unsafe { arch::atom_store_16(p.cast(), v.to_bits(), o, s) }
            }
            #[inline(always)]
            #[track_caller]
            unsafe fn exchange(p: *mut Self, v: Self, o: arch::MemOrder, s: arch::At) -> Self {
                // SAFETY: forwarded contract.
                <$t>::from_bits(unsafe {
                    arch::atom_rmw_16(arch::Rmw16::Exch, p.cast(), v.to_bits(), o, s)
                })
            }
            #[inline(always)]
            #[track_caller]
            unsafe fn cas(p: *mut Self, c: Self, v: Self, o: arch::MemOrder, s: arch::At) -> Self {
                // SAFETY: forwarded contract.
                <$t>::from_bits(unsafe {
                    arch::atom_cas_16(p.cast(), c.to_bits(), v.to_bits(), o, s)
                })
            }
            #[inline(always)]
            fn same_bits(a: Self, b: Self) -> bool {
                a.to_bits() == b.to_bits()
            }
        }
        impl AtomicArith for $t {
            #[inline(always)]
            #[track_caller]
            unsafe fn add(p: *mut Self, v: Self, o: arch::MemOrder, s: arch::At) -> Self {
                // SAFETY: forwarded contract.
                <$t>::from_bits(unsafe {
                    arch::atom_rmw_16(arch::Rmw16::$add, p.cast(), v.to_bits(), o, s)
                })
            }
            #[inline(always)]
            #[track_caller]
            unsafe fn red_add(p: *mut Self, v: Self, o: arch::RedOrder, s: arch::At) {
                // SAFETY: forwarded contract.
                unsafe { arch::red_16(arch::Rmw16::$add, p.cast(), v.to_bits(), o, s) }
            }
            #[inline(always)]
            fn neg(v: Self) -> Self {
                // The sign flipped (`__hneg`): `fetch_sub` adds it.
                <$t>::from_bits(v.to_bits() ^ 0x8000)
            }
        }
    };
}

atomic_half!(half::f16, AddF16);
atomic_half!(half::bf16, AddBf16);
atomic_pair!(crate::narrow::f16x2, AddF16x2);
atomic_pair!(crate::narrow::bf16x2, AddBf16x2);

// ---- AtomicRef ---------------------------------------------------------------

/// A `T` in global or shared memory used as an atomic object of scope `S`
/// for the lifetime `'a`: the model of `cuda::atomic_ref<T, S>`.
///
/// `S` defaults to [`Device`] (CUDA's classic atomics; `cuda::atomic_ref`'s
/// default is the system scope, which costs more and is rarely needed by a
/// kernel). Every method lowers to one instruction (two with [`SeqCst`]);
/// see the [module docs](self) for the table.
///
/// ```
/// use cooperative_groups::atomic::{AtomicRef, Block, Relaxed};
/// let mut x = 5u32;
/// let a = AtomicRef::<u32, Block>::from_mut(&mut x);
/// # // outside a kernel only operations that change memory are allowed on the simulator
/// assert_eq!(a.fetch_add(2, Relaxed), 5);
/// assert_eq!(a.compare_exchange(7, 1, Relaxed), Ok(7));
/// assert_eq!(x, 1);
/// ```
#[doc(alias = "atomic_ref")]
#[derive(Debug)]
pub struct AtomicRef<'a, T: AtomicValue, S: Scope = Device> {
    p: *mut T,
    /// `p` is known to be global memory (an element of an
    /// [`AtomicSlice`](crate::AtomicSlice)): the accesses use the `.global`
    /// forms, as nvcc's do on a global pointer.
    global: bool,
    _life: PhantomData<(&'a T, S)>,
}

impl<T: AtomicValue, S: Scope> Clone for AtomicRef<'_, T, S> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T: AtomicValue, S: Scope> Copy for AtomicRef<'_, T, S> {}

impl<'a, T: AtomicValue, S: Scope> AtomicRef<'a, T, S> {
    /// Views `*p` as an atomic object (`cuda::atomic_ref<T, S> r(*p)`).
    ///
    /// # Safety
    /// For `'a`, `p` must be valid for reads and writes of a `T`, aligned to
    /// its size (4 or 8 bytes), in global or shared memory (or, on the
    /// simulator, host memory), and every access to `*p` that may happen
    /// concurrently with one through this reference must be atomic.
    #[inline(always)]
    pub unsafe fn from_ptr(p: *mut T) -> Self {
        AtomicRef {
            p,
            global: false,
            _life: PhantomData,
        }
    }

    /// [`from_ptr`](Self::from_ptr) of an address known to be in global
    /// memory: every access uses the `.global` state space.
    ///
    /// # Safety
    /// As [`from_ptr`](Self::from_ptr), and `p` is in global memory (host
    /// memory the launch registered, on the simulator).
    #[inline(always)]
    pub(crate) unsafe fn from_global_ptr(p: *mut T) -> Self {
        AtomicRef {
            p,
            global: true,
            _life: PhantomData,
        }
    }

    /// Views an exclusively borrowed `T` as an atomic object.
    #[inline(always)]
    pub fn from_mut(r: &'a mut T) -> Self {
        AtomicRef {
            p: r,
            global: false,
            _life: PhantomData,
        }
    }

    /// The scope and state space of this object's accesses.
    #[inline(always)]
    fn at(&self) -> arch::At {
        arch::At {
            scope: S::SCOPE,
            global: self.global,
        }
    }

    /// The address of the object.
    #[inline(always)]
    pub fn as_ptr(&self) -> *mut T {
        self.p
    }

    /// Atomic load: `ref.load(order)`, PTX `ld.relaxed.scope` /
    /// `ld.acquire.scope` (`fence.sc.scope` first for [`SeqCst`]).
    #[inline(always)]
    #[track_caller]
    pub fn load<O: LoadOrdering>(&self, _order: O) -> T {
        // SAFETY: `from_ptr`'s contract.
        unsafe { T::load(self.p, O::LOAD, self.at()) }
    }

    /// Atomic store: `ref.store(v, order)`, PTX `st.relaxed.scope` /
    /// `st.release.scope` (`fence.sc.scope` + `st.relaxed` for [`SeqCst`]).
    #[inline(always)]
    #[track_caller]
    pub fn store<O: StoreOrdering>(&self, v: T, _order: O) {
        // SAFETY: `from_ptr`'s contract.
        unsafe { T::store(self.p, v, O::STORE, self.at()) }
    }

    /// Atomic exchange: `ref.exchange(v, order)` / `atomicExch`, PTX
    /// `atom.sem.scope.exch.b32` (`.b64`); returns the previous value.
    #[doc(alias = "atomicExch")]
    #[inline(always)]
    #[track_caller]
    pub fn exchange<O: Ordering>(&self, v: T, _order: O) -> T {
        // SAFETY: `from_ptr`'s contract.
        unsafe { T::exchange(self.p, v, O::RMW, self.at()) }
    }

    /// Compare-and-swap: if `*p` has the bits of `current`, writes `new`.
    /// Returns `Ok(previous)` if it wrote, `Err(previous)` if not (the
    /// comparison is bitwise, as the hardware's: `-0.0 != 0.0`, a NaN equals
    /// itself). PTX `atom.sem.scope.cas.b32` (`.b64`); `ref.compare_exchange_strong(expected, new, order)`
    /// with one ordering for both outcomes (PTX has one).
    #[doc(alias = "atomicCAS", alias = "compare_exchange_strong")]
    #[inline(always)]
    #[track_caller]
    pub fn compare_exchange<O: Ordering>(&self, current: T, new: T, _order: O) -> Result<T, T> {
        // SAFETY: `from_ptr`'s contract.
        let old = unsafe { T::cas(self.p, current, new, O::RMW, self.at()) };
        if T::same_bits(old, current) {
            Ok(old)
        } else {
            Err(old)
        }
    }
}

impl<T: AtomicArith, S: Scope> AtomicRef<'_, T, S> {
    /// Atomic add: `ref.fetch_add(v, order)` / `atomicAdd`, PTX
    /// `atom.sem.scope.add.{u32,u64,f32,f64}` (integers wrap); returns the
    /// previous value.
    #[doc(alias = "atomicAdd")]
    #[inline(always)]
    #[track_caller]
    pub fn fetch_add<O: Ordering>(&self, v: T, _order: O) -> T {
        // SAFETY: `from_ptr`'s contract.
        unsafe { T::add(self.p, v, O::RMW, self.at()) }
    }

    /// Atomic subtract: `ref.fetch_sub(v, order)` / `atomicSub`: an
    /// `atom.sem.scope.add` of `-v`, as libcu++ emits it; returns the
    /// previous value.
    #[doc(alias = "atomicSub")]
    #[inline(always)]
    #[track_caller]
    pub fn fetch_sub<O: Ordering>(&self, v: T, _order: O) -> T {
        // SAFETY: `from_ptr`'s contract.
        unsafe { T::add(self.p, T::neg(v), O::RMW, self.at()) }
    }
}

/// `red`: the same operations without a result. PTX `red.sem.scope.OP`
/// (nvcc's code for an atomic whose result is unused, SASS `RED`): the
/// thread does not wait for the old value, so a `red` costs an issue slot
/// where the `fetch_` form waits a round trip to memory. The ordering is
/// [`Relaxed`] or [`Release`] ([`RedOrdering`]); an acquire needs the
/// `fetch_` form.
impl<T: AtomicArith, S: Scope> AtomicRef<'_, T, S> {
    /// `red.sem.scope.add.{u32,u64,f32,f64}`: `fetch_add` without the
    /// previous value.
    #[doc(alias = "red.add")]
    #[inline(always)]
    #[track_caller]
    pub fn red_add<O: RedOrdering>(&self, v: T, _order: O) {
        // SAFETY: `from_ptr`'s contract.
        unsafe { T::red_add(self.p, v, O::RED, self.at()) }
    }

    /// `red.sem.scope.add` of `-v`: `fetch_sub` without the previous value.
    #[inline(always)]
    #[track_caller]
    pub fn red_sub<O: RedOrdering>(&self, v: T, _order: O) {
        // SAFETY: `from_ptr`'s contract.
        unsafe { T::red_add(self.p, T::neg(v), O::RED, self.at()) }
    }
}

impl<T: AtomicInteger, S: Scope> AtomicRef<'_, T, S> {
    /// `red.sem.scope.and.b32` (`.b64`): `fetch_and` without the result.
    #[doc(alias = "red.and")]
    #[inline(always)]
    #[track_caller]
    pub fn red_and<O: RedOrdering>(&self, v: T, _order: O) {
        // SAFETY: `from_ptr`'s contract.
        unsafe { T::red_bitwise(self.p, v, Bitwise::And, O::RED, self.at()) }
    }
    /// `red.sem.scope.or.b32` (`.b64`): `fetch_or` without the result.
    #[doc(alias = "red.or")]
    #[inline(always)]
    #[track_caller]
    pub fn red_or<O: RedOrdering>(&self, v: T, _order: O) {
        // SAFETY: `from_ptr`'s contract.
        unsafe { T::red_bitwise(self.p, v, Bitwise::Or, O::RED, self.at()) }
    }
    /// `red.sem.scope.xor.b32` (`.b64`): `fetch_xor` without the result.
    #[doc(alias = "red.xor")]
    #[inline(always)]
    #[track_caller]
    pub fn red_xor<O: RedOrdering>(&self, v: T, _order: O) {
        // SAFETY: `from_ptr`'s contract.
        unsafe { T::red_bitwise(self.p, v, Bitwise::Xor, O::RED, self.at()) }
    }
    /// `red.sem.scope.min.{u32,s32,u64,s64}`: `fetch_min` without the result.
    #[doc(alias = "red.min")]
    #[inline(always)]
    #[track_caller]
    pub fn red_min<O: RedOrdering>(&self, v: T, _order: O) {
        // SAFETY: `from_ptr`'s contract.
        unsafe { T::red_bitwise(self.p, v, Bitwise::Min, O::RED, self.at()) }
    }
    /// `red.sem.scope.max.{u32,s32,u64,s64}`: `fetch_max` without the result.
    #[doc(alias = "red.max")]
    #[inline(always)]
    #[track_caller]
    pub fn red_max<O: RedOrdering>(&self, v: T, _order: O) {
        // SAFETY: `from_ptr`'s contract.
        unsafe { T::red_bitwise(self.p, v, Bitwise::Max, O::RED, self.at()) }
    }
}

impl<T: AtomicInteger, S: Scope> AtomicRef<'_, T, S> {
    /// Atomic and: `ref.fetch_and(v, order)` / `atomicAnd`, PTX
    /// `atom.sem.scope.and.b32` (`.b64`).
    #[doc(alias = "atomicAnd")]
    #[inline(always)]
    #[track_caller]
    pub fn fetch_and<O: Ordering>(&self, v: T, _order: O) -> T {
        // SAFETY: `from_ptr`'s contract.
        unsafe { T::bitwise(self.p, v, Bitwise::And, O::RMW, self.at()) }
    }
    /// Atomic or: `ref.fetch_or(v, order)` / `atomicOr`, PTX
    /// `atom.sem.scope.or.b32` (`.b64`).
    #[doc(alias = "atomicOr")]
    #[inline(always)]
    #[track_caller]
    pub fn fetch_or<O: Ordering>(&self, v: T, _order: O) -> T {
        // SAFETY: `from_ptr`'s contract.
        unsafe { T::bitwise(self.p, v, Bitwise::Or, O::RMW, self.at()) }
    }
    /// Atomic xor: `ref.fetch_xor(v, order)` / `atomicXor`, PTX
    /// `atom.sem.scope.xor.b32` (`.b64`).
    #[doc(alias = "atomicXor")]
    #[inline(always)]
    #[track_caller]
    pub fn fetch_xor<O: Ordering>(&self, v: T, _order: O) -> T {
        // SAFETY: `from_ptr`'s contract.
        unsafe { T::bitwise(self.p, v, Bitwise::Xor, O::RMW, self.at()) }
    }
    /// Atomic minimum (signed for `i32`/`i64`, unsigned for `u32`/`u64`):
    /// `ref.fetch_min(v, order)` / `atomicMin`, PTX
    /// `atom.sem.scope.min.{u32,s32,u64,s64}`.
    #[doc(alias = "atomicMin")]
    #[inline(always)]
    #[track_caller]
    pub fn fetch_min<O: Ordering>(&self, v: T, _order: O) -> T {
        // SAFETY: `from_ptr`'s contract.
        unsafe { T::bitwise(self.p, v, Bitwise::Min, O::RMW, self.at()) }
    }
    /// Atomic maximum (signed for `i32`/`i64`, unsigned for `u32`/`u64`):
    /// `ref.fetch_max(v, order)` / `atomicMax`, PTX
    /// `atom.sem.scope.max.{u32,s32,u64,s64}`.
    #[doc(alias = "atomicMax")]
    #[inline(always)]
    #[track_caller]
    pub fn fetch_max<O: Ordering>(&self, v: T, _order: O) -> T {
        // SAFETY: `from_ptr`'s contract.
        unsafe { T::bitwise(self.p, v, Bitwise::Max, O::RMW, self.at()) }
    }
}

impl<S: Scope> AtomicRef<'_, u32, S> {
    /// CUDA's `atomicInc(p, limit)`: writes `old >= limit ? 0 : old + 1`
    /// and returns `old` (a counter that wraps to 0 after `limit`). PTX
    /// `atom.sem.scope.inc.u32`; 32-bit only (PTX has no 64-bit `inc`).
    #[doc(alias = "atomicInc")]
    #[inline(always)]
    #[track_caller]
    pub fn fetch_inc<O: Ordering>(&self, limit: u32, _order: O) -> u32 {
        // SAFETY: `from_ptr`'s contract.
        unsafe { arch::atom_rmw_32(arch::Rmw32::Inc, self.p, limit, O::RMW, self.at()) }
    }
    /// CUDA's `atomicDec(p, limit)`: writes `old == 0 || old > limit ?
    /// limit : old - 1` and returns `old`. PTX `atom.sem.scope.dec.u32`;
    /// 32-bit only.
    #[doc(alias = "atomicDec")]
    #[inline(always)]
    #[track_caller]
    pub fn fetch_dec<O: Ordering>(&self, limit: u32, _order: O) -> u32 {
        // SAFETY: `from_ptr`'s contract.
        unsafe { arch::atom_rmw_32(arch::Rmw32::Dec, self.p, limit, O::RMW, self.at()) }
    }
    /// `red.sem.scope.inc.u32`: `fetch_inc` without the result.
    #[doc(alias = "red.inc")]
    #[inline(always)]
    #[track_caller]
    pub fn red_inc<O: RedOrdering>(&self, limit: u32, _order: O) {
        // SAFETY: `from_ptr`'s contract.
        unsafe { arch::red_32(arch::Rmw32::Inc, self.p, limit, O::RED, self.at()) }
    }
    /// `red.sem.scope.dec.u32`: `fetch_dec` without the result.
    #[doc(alias = "red.dec")]
    #[inline(always)]
    #[track_caller]
    pub fn red_dec<O: RedOrdering>(&self, limit: u32, _order: O) {
        // SAFETY: `from_ptr`'s contract.
        unsafe { arch::red_32(arch::Rmw32::Dec, self.p, limit, O::RED, self.at()) }
    }
}

// ---- Fences and sleep --------------------------------------------------------

/// A fence of ordering `O` and scope `S`: `cuda::atomic_thread_fence(order,
/// scope)`. PTX `fence.acq_rel.scope` for [`Acquire`], [`Release`] and
/// [`AcqRel`], `fence.sc.scope` for [`SeqCst`] (as libcu++); a relaxed fence
/// does not compile.
#[doc(alias = "atomic_thread_fence")]
#[inline(always)]
pub fn fence<O: FenceOrdering, S: Scope>(_order: O, _scope: S) {
    arch::fence(O::FENCE, S::SCOPE)
}

/// `__threadfence()`: PTX `membar.gl` (what nvcc emits; the PTX ISA defines
/// it as `fence.sc.gpu`).
#[doc(alias = "__threadfence")]
#[inline(always)]
pub fn threadfence() {
    arch::membar_gl()
}

/// `__threadfence_block()`: PTX `membar.cta` (`fence.sc.cta`).
#[doc(alias = "__threadfence_block")]
#[inline(always)]
pub fn threadfence_block() {
    arch::membar_cta()
}

/// `__threadfence_system()`: PTX `membar.sys` (`fence.sc.sys`).
#[doc(alias = "__threadfence_system")]
#[inline(always)]
pub fn threadfence_system() {
    arch::membar_sys()
}

/// `__nanosleep(ns)`: suspends the thread for about `ns` nanoseconds (the
/// hardware caps it at 1 ms), PTX `nanosleep.u32` (sm_70+) — the pause of a
/// polite spin loop. On the simulator the lane gives up its turn.
#[doc(alias = "__nanosleep")]
#[inline(always)]
#[track_caller]
pub fn nanosleep(ns: u32) {
    arch::nanosleep(ns)
}

// ---- The classic CUDA names ------------------------------------------------------

/// `atomicSub(p, v)`: relaxed, device scope; returns the previous value.
///
/// # Safety
/// `p` must be valid for an aligned atomic read-modify-write, and every
/// concurrent access to `*p` atomic.
#[doc(alias = "atomicSub")]
#[inline(always)]
#[track_caller]
pub unsafe fn atomic_sub<T: AtomicArith>(p: *mut T, v: T) -> T {
    // SAFETY: forwarded contract.
    unsafe { AtomicRef::<T, Device>::from_ptr(p) }.fetch_sub(v, Relaxed)
}

/// `atomicExch(p, v)`: relaxed, device scope; returns the previous value.
///
/// # Safety
/// As [`atomic_sub`].
#[doc(alias = "atomicExch")]
#[inline(always)]
#[track_caller]
pub unsafe fn atomic_exch<T: AtomicValue>(p: *mut T, v: T) -> T {
    // SAFETY: forwarded contract.
    unsafe { AtomicRef::<T, Device>::from_ptr(p) }.exchange(v, Relaxed)
}

/// `atomicCAS(p, compare, val)`: writes `val` if `*p == compare`
/// (bitwise); returns the previous value either way. Relaxed, device scope.
///
/// # Safety
/// As [`atomic_sub`].
#[doc(alias = "atomicCAS")]
#[inline(always)]
#[track_caller]
pub unsafe fn atomic_cas<T: AtomicValue>(p: *mut T, compare: T, val: T) -> T {
    // SAFETY: forwarded contract.
    let r = unsafe { AtomicRef::<T, Device>::from_ptr(p) }.compare_exchange(compare, val, Relaxed);
    match r {
        Ok(v) | Err(v) => v,
    }
}

/// `atomicMin(p, v)` (signed for `i32`/`i64`): relaxed, device scope.
///
/// # Safety
/// As [`atomic_sub`].
#[doc(alias = "atomicMin")]
#[inline(always)]
#[track_caller]
pub unsafe fn atomic_min<T: AtomicInteger>(p: *mut T, v: T) -> T {
    // SAFETY: forwarded contract.
    unsafe { AtomicRef::<T, Device>::from_ptr(p) }.fetch_min(v, Relaxed)
}

/// `atomicMax(p, v)` (signed for `i32`/`i64`): relaxed, device scope.
///
/// # Safety
/// As [`atomic_sub`].
#[doc(alias = "atomicMax")]
#[inline(always)]
#[track_caller]
pub unsafe fn atomic_max<T: AtomicInteger>(p: *mut T, v: T) -> T {
    // SAFETY: forwarded contract.
    unsafe { AtomicRef::<T, Device>::from_ptr(p) }.fetch_max(v, Relaxed)
}

/// `atomicAnd(p, v)`: relaxed, device scope.
///
/// # Safety
/// As [`atomic_sub`].
#[doc(alias = "atomicAnd")]
#[inline(always)]
#[track_caller]
pub unsafe fn atomic_and<T: AtomicInteger>(p: *mut T, v: T) -> T {
    // SAFETY: forwarded contract.
    unsafe { AtomicRef::<T, Device>::from_ptr(p) }.fetch_and(v, Relaxed)
}

/// `atomicOr(p, v)`: relaxed, device scope.
///
/// # Safety
/// As [`atomic_sub`].
#[doc(alias = "atomicOr")]
#[inline(always)]
#[track_caller]
pub unsafe fn atomic_or<T: AtomicInteger>(p: *mut T, v: T) -> T {
    // SAFETY: forwarded contract.
    unsafe { AtomicRef::<T, Device>::from_ptr(p) }.fetch_or(v, Relaxed)
}

/// `atomicXor(p, v)`: relaxed, device scope.
///
/// # Safety
/// As [`atomic_sub`].
#[doc(alias = "atomicXor")]
#[inline(always)]
#[track_caller]
pub unsafe fn atomic_xor<T: AtomicInteger>(p: *mut T, v: T) -> T {
    // SAFETY: forwarded contract.
    unsafe { AtomicRef::<T, Device>::from_ptr(p) }.fetch_xor(v, Relaxed)
}

/// `atomicInc(p, limit)`: `old >= limit ? 0 : old + 1`, relaxed, device
/// scope; `u32` only.
///
/// # Safety
/// As [`atomic_sub`].
#[doc(alias = "atomicInc")]
#[inline(always)]
#[track_caller]
pub unsafe fn atomic_inc(p: *mut u32, limit: u32) -> u32 {
    // SAFETY: forwarded contract.
    unsafe { AtomicRef::<u32, Device>::from_ptr(p) }.fetch_inc(limit, Relaxed)
}

/// `atomicDec(p, limit)`: `old == 0 || old > limit ? limit : old - 1`,
/// relaxed, device scope; `u32` only.
///
/// # Safety
/// As [`atomic_sub`].
#[doc(alias = "atomicDec")]
#[inline(always)]
#[track_caller]
pub unsafe fn atomic_dec(p: *mut u32, limit: u32) -> u32 {
    // SAFETY: forwarded contract.
    unsafe { AtomicRef::<u32, Device>::from_ptr(p) }.fetch_dec(limit, Relaxed)
}
