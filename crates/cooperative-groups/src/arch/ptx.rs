//! The GPU backend: every primitive is one PTX instruction (or a few).
//!
//! Collectives (shuffles, votes, matches, `redux`, `activemask`, warp and
//! block barriers, cluster barriers) call LLVM's NVVM intrinsics rather than
//! inline asm. The intrinsics are marked *convergent*, so LLVM never
//! duplicates, sinks or hoists them across divergent control flow; inline asm
//! is only `sideeffect`, and LLVM was seen merging three `activemask`s of
//! three divergent branches into one. Inline asm remains only where no
//! intrinsic exists (instructions that return a predicate pair, atomics,
//! fences, shared-window address arithmetic): none of those is sensitive to
//! convergence, except `match.all` and `elect.sync`, which are kept in tiny
//! leaf wrappers that the PTX tests check.

use core::arch::asm;

use super::{L2Priority, LoadCache, RawDim3, ShflMode, StoreCache};

pub mod fp;
#[cfg(target_feature = "sm_80")]
mod mbarrier;
#[cfg(target_feature = "sm_80")]
pub use mbarrier::*;
mod mma;
pub use mma::*;
mod wgmma;
pub use wgmma::*;
mod float16;
pub use float16::*;
#[cfg(target_feature = "sm_90")]
mod tma;
#[cfg(target_feature = "sm_90")]
pub use tma::*;

/// Below sm_80 there is no mbarrier: [`HAS_MBARRIER`](super::HAS_MBARRIER)
/// is false there, and the software barrier takes its flag path instead of
/// these.
///
/// # Safety
/// Never called (it traps).
#[cfg(not(target_feature = "sm_80"))]
#[inline(always)]
pub unsafe fn mbarrier_init(_: SharedAddr, _: u32) {
    trap()
}
/// See [`mbarrier_init`].
///
/// # Safety
/// Never called (it traps).
#[cfg(not(target_feature = "sm_80"))]
#[inline(always)]
pub unsafe fn mbarrier_arrive(_: SharedAddr) -> u64 {
    trap()
}
/// See [`mbarrier_init`].
///
/// # Safety
/// Never called (it traps).
#[cfg(not(target_feature = "sm_80"))]
#[inline(always)]
pub unsafe fn mbarrier_wait(_: SharedAddr, _: u64) {
    trap()
}
/// See [`mbarrier_init`].
///
/// # Safety
/// Never called (it traps).
#[cfg(not(target_feature = "sm_80"))]
#[inline(always)]
pub unsafe fn mbarrier_test_wait_parity(_: SharedAddr, _: u32) -> bool {
    trap()
}

/// An address in the shared-memory window (`.shared` state space), 32 bits wide.
pub type SharedAddr = u32;
/// A shared address that names nothing (a primitive without storage).
pub const NO_SHARED: SharedAddr = 0;

#[allow(improper_ctypes)]
unsafe extern "C" {
    #[link_name = "llvm.nvvm.read.ptx.sreg.tid.x"]
    fn nv_tid_x() -> u32;
    #[link_name = "llvm.nvvm.read.ptx.sreg.tid.y"]
    fn nv_tid_y() -> u32;
    #[link_name = "llvm.nvvm.read.ptx.sreg.tid.z"]
    fn nv_tid_z() -> u32;
    #[link_name = "llvm.nvvm.read.ptx.sreg.ntid.x"]
    fn nv_ntid_x() -> u32;
    #[link_name = "llvm.nvvm.read.ptx.sreg.ntid.y"]
    fn nv_ntid_y() -> u32;
    #[link_name = "llvm.nvvm.read.ptx.sreg.ntid.z"]
    fn nv_ntid_z() -> u32;
    #[link_name = "llvm.nvvm.read.ptx.sreg.ctaid.x"]
    fn nv_ctaid_x() -> u32;
    #[link_name = "llvm.nvvm.read.ptx.sreg.ctaid.y"]
    fn nv_ctaid_y() -> u32;
    #[link_name = "llvm.nvvm.read.ptx.sreg.ctaid.z"]
    fn nv_ctaid_z() -> u32;
    #[link_name = "llvm.nvvm.read.ptx.sreg.nctaid.x"]
    fn nv_nctaid_x() -> u32;
    #[link_name = "llvm.nvvm.read.ptx.sreg.nctaid.y"]
    fn nv_nctaid_y() -> u32;
    #[link_name = "llvm.nvvm.read.ptx.sreg.nctaid.z"]
    fn nv_nctaid_z() -> u32;
    #[link_name = "llvm.nvvm.read.ptx.sreg.laneid"]
    fn nv_laneid() -> u32;

    #[link_name = "llvm.nvvm.shfl.sync.idx.i32"]
    fn nv_shfl_idx(mask: u32, v: u32, b: u32, c: u32) -> u32;
    #[link_name = "llvm.nvvm.shfl.sync.up.i32"]
    fn nv_shfl_up(mask: u32, v: u32, b: u32, c: u32) -> u32;
    #[link_name = "llvm.nvvm.shfl.sync.up.i32p"]
    fn nv_shfl_up_p(mask: u32, v: u32, b: u32, c: u32) -> (u32, bool);
    #[link_name = "llvm.nvvm.shfl.sync.down.i32"]
    fn nv_shfl_down(mask: u32, v: u32, b: u32, c: u32) -> u32;
    #[link_name = "llvm.nvvm.shfl.sync.bfly.i32"]
    fn nv_shfl_bfly(mask: u32, v: u32, b: u32, c: u32) -> u32;
    #[link_name = "llvm.nvvm.vote.ballot.sync"]
    fn nv_ballot(mask: u32, pred: bool) -> u32;
    #[link_name = "llvm.nvvm.vote.any.sync"]
    fn nv_vote_any(mask: u32, pred: bool) -> bool;
    #[link_name = "llvm.nvvm.vote.all.sync"]
    fn nv_vote_all(mask: u32, pred: bool) -> bool;
    #[link_name = "llvm.nvvm.match.any.sync.i32"]
    fn nv_match_any_32(mask: u32, v: u32) -> u32;
    #[link_name = "llvm.nvvm.match.any.sync.i64"]
    fn nv_match_any_64(mask: u32, v: u64) -> u32;
    #[link_name = "llvm.nvvm.activemask"]
    fn nv_activemask() -> u32;
    #[link_name = "llvm.nvvm.bar.warp.sync"]
    fn nv_bar_warp_sync(mask: u32);
    #[link_name = "llvm.nvvm.barrier.cta.sync.aligned.all"]
    fn nv_bar_sync_all(id: u32);
    #[link_name = "llvm.nvvm.barrier.cta.sync.aligned.count"]
    fn nv_bar_sync(id: u32, count: u32);
    #[link_name = "llvm.nvvm.barrier.cta.arrive.aligned.count"]
    fn nv_bar_arrive(id: u32, count: u32);
}

#[cfg(target_feature = "sm_80")]
#[allow(improper_ctypes)]
unsafe extern "C" {
    #[link_name = "llvm.nvvm.redux.sync.add"]
    fn nv_redux_add(v: u32, mask: u32) -> u32;
    #[link_name = "llvm.nvvm.redux.sync.umin"]
    fn nv_redux_umin(v: u32, mask: u32) -> u32;
    #[link_name = "llvm.nvvm.redux.sync.umax"]
    fn nv_redux_umax(v: u32, mask: u32) -> u32;
    #[link_name = "llvm.nvvm.redux.sync.min"]
    fn nv_redux_min(v: u32, mask: u32) -> u32;
    #[link_name = "llvm.nvvm.redux.sync.max"]
    fn nv_redux_max(v: u32, mask: u32) -> u32;
    #[link_name = "llvm.nvvm.redux.sync.and"]
    fn nv_redux_and(v: u32, mask: u32) -> u32;
    #[link_name = "llvm.nvvm.redux.sync.or"]
    fn nv_redux_or(v: u32, mask: u32) -> u32;
    #[link_name = "llvm.nvvm.redux.sync.xor"]
    fn nv_redux_xor(v: u32, mask: u32) -> u32;
}

macro_rules! sreg {
    ($name:ident, $intrinsic:ident, $reg:literal) => {
        #[doc = concat!("Reads the special register `", $reg, "`.")]
        #[inline(always)]
        pub fn $name() -> u32 {
            // SAFETY: reading a special register has no side effects.
            unsafe { $intrinsic() }
        }
    };
}

sreg!(tid_x, nv_tid_x, "%tid.x");
sreg!(tid_y, nv_tid_y, "%tid.y");
sreg!(tid_z, nv_tid_z, "%tid.z");
sreg!(ntid_x, nv_ntid_x, "%ntid.x");
sreg!(ntid_y, nv_ntid_y, "%ntid.y");
sreg!(ntid_z, nv_ntid_z, "%ntid.z");
sreg!(ctaid_x, nv_ctaid_x, "%ctaid.x");
sreg!(ctaid_y, nv_ctaid_y, "%ctaid.y");
sreg!(ctaid_z, nv_ctaid_z, "%ctaid.z");
sreg!(nctaid_x, nv_nctaid_x, "%nctaid.x");
sreg!(nctaid_y, nv_nctaid_y, "%nctaid.y");
sreg!(nctaid_z, nv_nctaid_z, "%nctaid.z");
sreg!(lane_id, nv_laneid, "%laneid");

/// Tells LLVM that the block is `[x, y, z]` threads (`%ntid`) and the
/// thread's index (`%tid`) lies inside it, so the block's size and a
/// thread's rank fold to constants and `tid.x`.
///
/// # Safety
/// The launch's blocks must have that shape: the entry declares `.reqntid
/// x, y, z` (`#[kernel(block_dim(…))]`, the only caller), and the driver
/// refuses every other launch.
#[inline(always)]
pub unsafe fn assume_block_dim(x: u32, y: u32, z: u32) {
    // SAFETY: the caller's contract: `.reqntid x, y, z` makes both facts
    // hold for every thread of every launch that runs.
    unsafe {
        core::hint::assert_unchecked(ntid_x() == x && ntid_y() == y && ntid_z() == z);
        core::hint::assert_unchecked(tid_x() < x && tid_y() < y && tid_z() < z);
    }
}

/// `v` through a `mov` that LLVM cannot see into (ptxas drops it): a value
/// the optimiser must not rewrite in terms of where it came from. The arm
/// of `if c { x - y } else { opaque(x) }` stays `x`'s own select, which
/// ptxas predicates (`@p IADD`); with a plain `x` LLVM makes it `x -
/// select(c, y, 0)`, one instruction more.
#[inline(always)]
pub fn opaque(v: u32) -> u32 {
    let r: u32;
    // SAFETY: a register move; touches no memory.
    unsafe { asm!("mov.b32 {0}, {1};", out(reg32) r, in(reg32) v, options(pure, nomem, nostack)) };
    r
}

/// Reads `%dynamic_smem_size` (no intrinsic exists; the asm is pure).
#[inline(always)]
pub fn dynamic_smem_size() -> u32 {
    let r: u32;
    // SAFETY: reading a special register has no side effects.
    unsafe {
        asm!("mov.u32 {0}, %dynamic_smem_size;", out(reg32) r, options(pure, nomem, nostack))
    };
    r
}

/// `threadIdx`.
#[inline(always)]
pub fn thread_idx() -> RawDim3 {
    [tid_x(), tid_y(), tid_z()]
}
/// `blockDim`.
#[inline(always)]
pub fn block_dim() -> RawDim3 {
    [ntid_x(), ntid_y(), ntid_z()]
}
/// `blockIdx`.
#[inline(always)]
pub fn block_idx() -> RawDim3 {
    [ctaid_x(), ctaid_y(), ctaid_z()]
}
/// `gridDim`.
#[inline(always)]
pub fn grid_dim() -> RawDim3 {
    [nctaid_x(), nctaid_y(), nctaid_z()]
}

/// `shfl.sync.{idx,up,down,bfly}.b32 d, v, b, c, mask`.
#[inline(always)]
pub fn shfl(mode: ShflMode, mask: u32, v: u32, b: u32, c: u32) -> u32 {
    // SAFETY: a warp shuffle reads registers of the lanes in `mask`; the
    // caller guarantees those lanes execute the same shuffle (group contract).
    unsafe {
        match mode {
            ShflMode::Idx => nv_shfl_idx(mask, v, b, c),
            ShflMode::Up => nv_shfl_up(mask, v, b, c),
            ShflMode::Down => nv_shfl_down(mask, v, b, c),
            ShflMode::Bfly => nv_shfl_bfly(mask, v, b, c),
        }
    }
}

/// `shfl.sync.up.b32 d|p, v, b, c, mask`: the value and `p`, whether the
/// source lane was in range (`lane - b` at or above the segment's first
/// lane); out of range, `d` is the caller's own `v`.
#[inline(always)]
pub fn shfl_up_pred(mask: u32, v: u32, b: u32, c: u32) -> (u32, bool) {
    // SAFETY: as `shfl`.
    unsafe { nv_shfl_up_p(mask, v, b, c) }
}

/// `shfl.sync.up.b32 d|p, v, b, c, mask; @p add.u32 d, d, v`: one step of
/// an integer prefix sum, the predicate feeding the add directly (CUB's
/// shape for 32-bit sums: two instructions, where `rank >= b` with a
/// select costs a third on the step's dependent chain).
#[inline(always)]
pub fn shfl_up_add(mask: u32, v: u32, b: u32, c: u32) -> u32 {
    let r: u32;
    // SAFETY: a warp shuffle over the lanes of `mask` (group contract), then
    // a register add. `nomem`: registers only; not `pure`: it must not be
    // merged or moved across divergent control flow.
    unsafe {
        asm!(
            "{{ .reg .pred p;",
            "shfl.sync.up.b32 {0}|p, {1}, {2}, {3}, {4};",
            "@p add.u32 {0}, {0}, {1}; }}",
            out(reg32) r,
            in(reg32) v,
            in(reg32) b,
            in(reg32) c,
            in(reg32) mask,
            options(nomem, nostack)
        )
    }
    r
}

/// `vote.sync.ballot.b32`.
#[inline(always)]
pub fn ballot(mask: u32, pred: bool) -> u32 {
    // SAFETY: warp vote over the lanes of `mask` (group contract).
    unsafe { nv_ballot(mask, pred) }
}

/// `vote.sync.any.pred`.
#[inline(always)]
pub fn vote_any(mask: u32, pred: bool) -> bool {
    // SAFETY: warp vote over the lanes of `mask` (group contract).
    unsafe { nv_vote_any(mask, pred) }
}

/// `vote.sync.all.pred`.
#[inline(always)]
pub fn vote_all(mask: u32, pred: bool) -> bool {
    // SAFETY: warp vote over the lanes of `mask` (group contract).
    unsafe { nv_vote_all(mask, pred) }
}

/// `match.any.sync.b32` / `.b64`: the lanes of `mask` holding the same value.
#[inline(always)]
pub fn match_any(mask: u32, v: u64, wide: bool) -> u32 {
    // SAFETY: warp match over the lanes of `mask` (group contract).
    unsafe {
        if wide {
            nv_match_any_64(mask, v)
        } else {
            nv_match_any_32(mask, v as u32)
        }
    }
}

/// The lanes of `mask` whose `v` agrees with the caller's in the low
/// `bits` bits, by `bits + 1` ballots (`vote.sync.ballot.b32`): lanes that
/// share bit `b` are the ballot of that bit, or its complement. Votes
/// issue on the ALU pipes, where `match.any.sync` is a multi-pass
/// instruction of the MIO pipe that a loop of matches saturates (CUB's
/// `MatchAny` for its radix ranks takes the same route).
#[inline(always)]
pub fn match_any_bits(mask: u32, v: u32, bits: u32) -> u32 {
    // The lanes taking part (as `match.any`'s result holds only those):
    // the complement of a ballot would add the lanes of `mask` that do not.
    let mut same = ballot(mask, true);
    let mut b = 0;
    while b < bits {
        same &= same_bit(mask, v, 1 << b);
        b += 1;
    }
    same
}

/// The lanes of `mask` whose `v & bit` is zero exactly when the caller's
/// is: the ballot of the bit, complemented by a predicated `not` where the
/// caller's bit is 0 (one instruction; `ballot ^ (bit − 1)` costs three in
/// SASS: a shift, a sign extension and an add). Lanes outside `mask` may
/// be set: [`match_any_bits`] masks them out.
#[inline(always)]
fn same_bit(mask: u32, v: u32, bit: u32) -> u32 {
    let r: u32;
    // SAFETY: a warp vote over the lanes of `mask` (group contract).
    // `nomem`: registers only; not `pure`: it must not be merged or moved
    // across divergent control flow.
    unsafe {
        asm!(
            "{{ .reg .pred s;",
            "and.b32 {0}, {1}, {2};",
            "setp.ne.u32 s, {0}, 0;",
            "vote.sync.ballot.b32 {0}, s, {3};",
            "@!s not.b32 {0}, {0}; }}",
            out(reg32) r,
            in(reg32) v,
            in(reg32) bit,
            in(reg32) mask,
            options(nomem, nostack)
        )
    }
    r
}

/// `match.all.sync.b32` / `.b64`: `mask` if every lane holds the same value, else 0.
#[inline(always)]
pub fn match_all(mask: u32, v: u64, wide: bool) -> u32 {
    let r: u32;
    // SAFETY: warp match over the lanes of `mask` (group contract).
    // `nomem`: registers only, no memory ordering (as LLVM's `match.any`
    // intrinsic); not `pure`: it must not be merged or moved across
    // divergent control flow.
    unsafe {
        if wide {
            asm!("match.all.sync.b64 {0}, {1}, {2};", out(reg32) r, in(reg64) v, in(reg32) mask, options(nomem, nostack))
        } else {
            asm!("match.all.sync.b32 {0}, {1}, {2};", out(reg32) r, in(reg32) v as u32, in(reg32) mask, options(nomem, nostack))
        }
    }
    r
}

/// `redux.sync` (sm_80+): a warp reduction of a 32-bit integer in one instruction.
#[cfg(target_feature = "sm_80")]
#[inline(always)]
pub fn redux(op: super::ReduxOp, mask: u32, v: u32) -> u32 {
    use super::ReduxOp;
    // SAFETY: warp reduction over the lanes of `mask` (group contract).
    unsafe {
        match op {
            ReduxOp::Add => nv_redux_add(v, mask),
            ReduxOp::MinU => nv_redux_umin(v, mask),
            ReduxOp::MaxU => nv_redux_umax(v, mask),
            ReduxOp::MinS => nv_redux_min(v, mask),
            ReduxOp::MaxS => nv_redux_max(v, mask),
            ReduxOp::And => nv_redux_and(v, mask),
            ReduxOp::Or => nv_redux_or(v, mask),
            ReduxOp::Xor => nv_redux_xor(v, mask),
        }
    }
}

/// Below sm_80 there is no `redux.sync`: [`HAS_REDUX`](super::HAS_REDUX) is
/// false there, and callers take their shuffle path instead of this one.
#[cfg(not(target_feature = "sm_80"))]
#[inline(always)]
pub fn redux(_: super::ReduxOp, _: u32, _: u32) -> u32 {
    trap()
}

/// `activemask.b32`: the lanes of this warp executing this instruction now.
#[inline(always)]
pub fn activemask() -> u32 {
    // SAFETY: reads the active-lane mask; no memory effects.
    unsafe { nv_activemask() }
}

/// The `membermask` for the shuffles of a segment whose members (`members`)
/// all execute this call: the lanes `activemask` reports, which ptxas takes
/// as converged (no convergence check around the shuffles). The simulator
/// uses `members` itself, so that a member that skipped the call is
/// reported instead of read.
#[inline(always)]
pub fn converged_mask(_members: u32) -> u32 {
    activemask()
}

/// Branch-weight hint: `b` is expected to be true (LLVM lays the true side
/// out as the fall-through path).
#[inline(always)]
pub fn likely(b: bool) -> bool {
    core::intrinsics::likely(b)
}

/// `bar.warp.sync mask`.
#[inline(always)]
pub fn warp_sync(mask: u32) {
    // SAFETY: warp barrier over the lanes of `mask` (group contract).
    unsafe { nv_bar_warp_sync(mask) }
}

/// `elect.sync` (sm_90): one lane of `mask`, the same for all; returns its lane id.
#[cfg(target_feature = "sm_90")]
#[inline(always)]
pub fn elect(mask: u32) -> u32 {
    let r: u32;
    // SAFETY: warp election over the lanes of `mask` (group contract).
    // `nomem`: registers only (as LLVM's `elect.sync` intrinsic); not `pure`:
    // it must not be merged or moved across divergent control flow.
    unsafe {
        asm!("{{ .reg .pred p; elect.sync {0}|p, {1}; }}", out(reg32) r, in(reg32) mask, options(nomem, nostack))
    };
    r
}

/// Below sm_90 there is no `elect.sync`: [`HAS_ELECT`](super::HAS_ELECT) is
/// false there, and callers pick the lowest lane instead.
#[cfg(not(target_feature = "sm_90"))]
#[inline(always)]
pub fn elect(_: u32) -> u32 {
    trap()
}

/// `bar.sync 0`: `__syncthreads()`.
#[inline(always)]
pub fn sync_threads() {
    // SAFETY: block barrier; every non-exited thread of the block arrives (group contract).
    unsafe { nv_bar_sync_all(0) }
}

/// `block.barrier_arrive()`: nothing; the arrival is the `bar.sync 0` of
/// [`block_barrier_wait`] (a hardware barrier cannot split one thread's
/// arrival from its wait without shared state to initialise first).
#[inline(always)]
pub fn block_barrier_arrive() {}

/// `block.barrier_wait()`: `bar.sync 0`.
#[inline(always)]
pub fn block_barrier_wait() {
    sync_threads()
}

/// `bar.sync id, count`: named barrier over `count` threads (a multiple of 32).
#[inline(always)]
pub fn barrier_sync(id: u32, count: u32) {
    // SAFETY: named barrier; `count` threads in whole warps arrive (group contract).
    unsafe { nv_bar_sync(id, count) }
}

/// `bar.sync id, count` where `id ≤ max_id` and `max_id` is known at
/// compile time: the id becomes an immediate, so ptxas reserves `max_id + 1`
/// barriers for the kernel instead of all 16 (a register id makes it assume
/// every barrier is used, and 16 barriers per block allow at most 4 blocks
/// per SM on the H200). `max_id ≥ 15` is the register form.
#[inline(always)]
pub fn barrier_sync_upto(id: u32, max_id: u32, count: u32) {
    if max_id >= 15 {
        return barrier_sync(id, count);
    }
    macro_rules! arms {
        ($($k:literal)*) => { $(
            if $k <= max_id && id == $k {
                // SAFETY: as `barrier_sync`, with the id as an immediate.
                // Not `nomem`: a barrier orders the block's memory accesses.
                unsafe { asm!(concat!("bar.sync ", $k, ", {0};"), in(reg32) count, options(nostack)) };
                return;
            }
        )* };
    }
    arms!(1 2 3 4 5 6 7 8 9 10 11 12 13 14);
    // `id ≤ max_id` is the caller's contract (a register id here would
    // bring back the 16-barrier reservation).
    trap()
}

/// `bar.arrive id, count`: arrive on a named barrier without waiting.
#[inline(always)]
pub fn barrier_arrive(id: u32, count: u32) {
    // SAFETY: named barrier arrival; the waiting side counts `count` threads.
    unsafe { nv_bar_arrive(id, count) }
}

/// `membar.cta` / `fence.acq_rel.cta`: order this thread's memory accesses for the block.
#[inline(always)]
pub fn fence_block() {
    // SAFETY: a fence has no operands. Not `nomem`: it orders memory.
    unsafe { asm!("fence.acq_rel.cta;", options(nostack)) };
}

/// `fence.acq_rel.gpu`: order this thread's memory accesses for the device.
#[inline(always)]
pub fn fence_device() {
    // SAFETY: a fence has no operands. Not `nomem`: it orders memory.
    unsafe { asm!("fence.acq_rel.gpu;", options(nostack)) };
}

/// A software-barrier tile's set-up always syncs its parent first on the GPU
/// (the simulator can leave it out, for a test).
#[inline(always)]
pub const fn soft_setup_first_sync() -> bool {
    true
}

/// A plain load for the simulator's race detector: nothing on the GPU.
#[inline(always)]
pub fn note_load(_p: *const u8, _size: usize) {}

/// A plain store for the simulator's race detector: nothing on the GPU.
#[inline(always)]
pub fn note_store(_p: *const u8, _size: usize) {}

/// Converts a shared-window address into a generic pointer.
#[inline(always)]
pub fn shared_to_generic(addr: SharedAddr) -> *mut u8 {
    let p: u64;
    // SAFETY: pure address arithmetic.
    unsafe {
        asm!("cvta.shared.u64 {0}, {1};", out(reg64) p, in(reg64) addr as u64, options(pure, nomem, nostack))
    };
    p as *mut u8
}

core::arch::global_asm!(".extern .shared .align 16 .b8 cg_dynamic_smem[];");

/// The block's dynamic shared memory (`extern __shared__`), and its size in bytes.
#[inline(always)]
pub fn dynamic_shared() -> (SharedAddr, usize) {
    let a: u32;
    // SAFETY: reads the address of the module's dynamic shared-memory symbol.
    unsafe { asm!("mov.u32 {0}, cg_dynamic_smem;", out(reg32) a, options(pure, nomem, nostack)) };
    (a, dynamic_smem_size() as usize)
}

/// `true` for the types whose every byte is part of the value (no
/// padding): the element types [`st_shared`] may hand to `st.shared` as
/// a register. Decided at compile time (a comparison of constants).
#[inline(always)]
fn padding_free<T: 'static>() -> bool {
    use core::any::TypeId;
    let t = TypeId::of::<T>();
    t == TypeId::of::<u8>()
        || t == TypeId::of::<i8>()
        || t == TypeId::of::<u16>()
        || t == TypeId::of::<i16>()
        || t == TypeId::of::<u32>()
        || t == TypeId::of::<i32>()
        || t == TypeId::of::<f32>()
        || t == TypeId::of::<u64>()
        || t == TypeId::of::<i64>()
        || t == TypeId::of::<f64>()
}

/// Global-memory accesses of the typed kernel parameters (`crate::global`):
/// `ld.global.nc` for read-only inputs (what nvcc emits for `const T*
/// __restrict__`), `ld.global`/`st.global` for writable ones. The address
/// is converted with `cvta.to.global` inside each access (ptxas folds the
/// repeats; the generic and global windows coincide), so the state space is
/// explicit whatever LLVM knows about the pointer. Sizes 1, 2, 4, 8 and 16
/// bytes aligned to their size go through registers; others through a
/// generic access.
macro_rules! global_access {
    (ld $space:literal, $opts:tt, $p:ident, $t:ty) => {{
        let (size, align) = (core::mem::size_of::<$t>(), core::mem::align_of::<$t>());
        // SAFETY (of every branch): the caller passes an address valid for a
        // `T` in global memory, aligned for `T`; the branch reads exactly
        // `size_of::<T>()` bytes into registers (initialised values) and
        // reinterprets them as a `T`, which any bytes are (`Pod`).
        unsafe {
            if size == 4 && align >= 4 {
                let r: u32;
                asm!(concat!("{{ .reg .u64 g; cvta.to.global.u64 g, {1}; ld.global", $space, ".b32 {0}, [g]; }}"),
                    out(reg32) r, in(reg64) $p, options $opts);
                core::mem::transmute_copy(&r)
            } else if size == 8 && align >= 8 {
                let r: u64;
                asm!(concat!("{{ .reg .u64 g; cvta.to.global.u64 g, {1}; ld.global", $space, ".b64 {0}, [g]; }}"),
                    out(reg64) r, in(reg64) $p, options $opts);
                core::mem::transmute_copy(&r)
            } else if size == 16 && align >= 16 {
                let (a, b, c, d): (u32, u32, u32, u32);
                asm!(concat!("{{ .reg .u64 g; cvta.to.global.u64 g, {4}; ld.global", $space, ".v4.b32 {{{0}, {1}, {2}, {3}}}, [g]; }}"),
                    out(reg32) a, out(reg32) b, out(reg32) c, out(reg32) d, in(reg64) $p, options $opts);
                core::mem::transmute_copy(&[a, b, c, d])
            } else if size == 2 && align >= 2 {
                let r: u16;
                asm!(concat!("{{ .reg .u64 g; cvta.to.global.u64 g, {1}; ld.global", $space, ".b16 {0}, [g]; }}"),
                    out(reg16) r, in(reg64) $p, options $opts);
                core::mem::transmute_copy(&r)
            } else if size == 1 {
                // (An 8-bit load writes a 16-bit register; the low byte is
                // the value. A plain `read` would be a generic `LD.E.U8`.)
                let r: u16;
                asm!(concat!("{{ .reg .u64 g; cvta.to.global.u64 g, {1}; ld.global", $space, ".u8 {0}, [g]; }}"),
                    out(reg16) r, in(reg64) $p, options $opts);
                core::mem::transmute_copy(&(r as u8))
            } else {
                $p.read()
            }
        }
    }};
}

/// The stores of [`st_global`] and [`st_global_cached`]: `st.global` with
/// the cache operator `$cop` (`""` for none) of the padding-free `Pod`
/// types of 1, 2, 4, 8 or 16 bytes aligned to their size, through registers;
/// a generic store otherwise.
macro_rules! global_store {
    ($cop:literal, $p:ident, $v:ident, $t:ty) => {{
        let (size, align) = (core::mem::size_of::<$t>(), core::mem::align_of::<$t>());
        // SAFETY: the caller passes a valid, aligned global address; a
        // padding-free `T` is bits that are all part of its value, so they
        // pass through integer registers as they are.
        unsafe {
            if !<$t as crate::Pod>::PADDING_FREE {
                $p.write($v)
            } else if size == 4 && align >= 4 {
                let r: u32 = core::mem::transmute_copy(&$v);
                asm!(concat!("{{ .reg .u64 g; cvta.to.global.u64 g, {0}; st.global", $cop, ".b32 [g], {1}; }}"),
                    in(reg64) $p, in(reg32) r, options(nostack));
            } else if size == 8 && align >= 8 {
                let r: u64 = core::mem::transmute_copy(&$v);
                asm!(concat!("{{ .reg .u64 g; cvta.to.global.u64 g, {0}; st.global", $cop, ".b64 [g], {1}; }}"),
                    in(reg64) $p, in(reg64) r, options(nostack));
            } else if size == 16 && align >= 16 {
                let [a, b, c, d]: [u32; 4] = core::mem::transmute_copy(&$v);
                asm!(concat!("{{ .reg .u64 g; cvta.to.global.u64 g, {0}; st.global", $cop, ".v4.b32 [g], {{{1}, {2}, {3}, {4}}}; }}"),
                    in(reg64) $p, in(reg32) a, in(reg32) b, in(reg32) c, in(reg32) d, options(nostack));
            } else if size == 2 && align >= 2 {
                let r: u16 = core::mem::transmute_copy(&$v);
                asm!(concat!("{{ .reg .u64 g; cvta.to.global.u64 g, {0}; st.global", $cop, ".b16 [g], {1}; }}"),
                    in(reg64) $p, in(reg16) r, options(nostack));
            } else if size == 1 {
                let r: u8 = core::mem::transmute_copy(&$v);
                asm!(concat!("{{ .reg .u64 g; cvta.to.global.u64 g, {0}; st.global", $cop, ".u8 [g], {1}; }}"),
                    in(reg64) $p, in(reg16) r as u16, options(nostack));
            } else {
                $p.write($v)
            }
        }
    }};
}

/// `ld.global.nc`: a load of read-only global memory through the
/// non-coherent (texture) path — legal because nothing writes the memory
/// while the kernel runs (a `GlobalSlice` has no writable alias in its
/// launch). `pure`: two identical loads may be merged or hoisted.
///
/// # Safety
/// `p` must be valid for a read of a `T` in global memory, aligned for
/// `T`, and not written by anyone while the kernel runs.
#[inline(always)]
pub unsafe fn ld_global_nc<T: crate::Pod>(p: *const T) -> T {
    global_access!(ld ".nc", (pure, readonly, nostack), p, T)
}

/// `ld.global`: a weak load of writable global memory (never merged or
/// moved across a store or a barrier: not `pure`).
///
/// # Safety
/// `p` must be valid for a read of a `T` in global memory, aligned for `T`.
#[inline(always)]
pub unsafe fn ld_global<T: crate::Pod>(p: *const T) -> T {
    global_access!(ld "", (readonly, nostack), p, T)
}

/// `st.global`: a weak store to global memory, through registers for the
/// padding-free `Pod` types ([`Pod::PADDING_FREE`](crate::Pod)) of 1, 2,
/// 4, 8 or 16 bytes aligned to their size, a generic store otherwise.
///
/// # Safety
/// `p` must be valid for a write of a `T` in global memory, aligned for `T`.
#[inline(always)]
pub unsafe fn st_global<T: crate::Pod>(p: *mut T, v: T) {
    global_store!("", p, v, T)
}

/// `ld.global` with the cache operator `c` (`__ldca`, `__ldcg`, `__ldcs`,
/// `__ldlu`, `__ldcv`): a weak load, as [`ld_global`].
///
/// # Safety
/// As [`ld_global`].
#[inline(always)]
pub unsafe fn ld_global_cached<T: crate::Pod>(p: *const T, c: LoadCache) -> T {
    match c {
        LoadCache::All => global_access!(ld ".ca", (readonly, nostack), p, T),
        LoadCache::Global => global_access!(ld ".cg", (readonly, nostack), p, T),
        LoadCache::Streaming => global_access!(ld ".cs", (readonly, nostack), p, T),
        LoadCache::LastUse => global_access!(ld ".lu", (readonly, nostack), p, T),
        LoadCache::Volatile => global_access!(ld ".cv", (readonly, nostack), p, T),
        // The eviction-priority qualifiers need PTX ISA 7.4 (sm_70+); the
        // builds below sm_90 target an older PTX ISA, so they take the
        // nearest cache operator instead. The `.L2::evict_*` qualifiers
        // of `ld`/`st` themselves exist only for 256-bit accesses (sm_100:
        // ptxas requires `.v8.b32`/`.v4.b64`), so an L2 priority goes
        // through a policy (`createpolicy`, hoisted out of loops: `pure`)
        // and `.L2::cache_hint`, as CUDA's `annotated_ptr` does.
        #[cfg(target_feature = "sm_90")]
        LoadCache::L1NoAllocate => global_access!(ld ".L1::no_allocate", (readonly, nostack), p, T),
        // SAFETY: the caller's contract.
        #[cfg(target_feature = "sm_90")]
        LoadCache::L2EvictFirst => unsafe {
            ld_global_policy(p, create_policy(L2Priority::First, 1.0))
        },
        // SAFETY: the caller's contract.
        #[cfg(target_feature = "sm_90")]
        LoadCache::L2EvictLast => unsafe {
            ld_global_policy(p, create_policy(L2Priority::Last, 1.0))
        },
        #[cfg(not(target_feature = "sm_90"))]
        LoadCache::L1NoAllocate => global_access!(ld ".cg", (readonly, nostack), p, T),
        #[cfg(not(target_feature = "sm_90"))]
        LoadCache::L2EvictFirst => global_access!(ld ".cs", (readonly, nostack), p, T),
        #[cfg(not(target_feature = "sm_90"))]
        LoadCache::L2EvictLast => global_access!(ld "", (readonly, nostack), p, T),
    }
}

/// `ld.global.nc` with an L1/L2 eviction priority (`ld.global.nc.L1::no_allocate`,
/// `ld.global.nc.L2::cache_hint` with an `evict_last` policy, …): a read-only load, as [`ld_global_nc`], with the hint `c` where it
/// is one (sm_90 builds); the cache operators `.ca`/`.cg`/`.cs`/`.lu`/`.cv`
/// do not combine with `.nc` and make a weak load, as [`ld_global_cached`].
///
/// # Safety
/// As [`ld_global_nc`].
#[inline(always)]
pub unsafe fn ld_global_nc_cached<T: crate::Pod>(p: *const T, c: LoadCache) -> T {
    match c {
        #[cfg(target_feature = "sm_90")]
        LoadCache::L1NoAllocate => {
            global_access!(ld ".nc.L1::no_allocate", (pure, readonly, nostack), p, T)
        }
        // SAFETY: the caller's contract.
        #[cfg(target_feature = "sm_90")]
        LoadCache::L2EvictFirst => unsafe {
            ld_global_nc_policy(p, create_policy(L2Priority::First, 1.0))
        },
        // SAFETY: the caller's contract.
        #[cfg(target_feature = "sm_90")]
        LoadCache::L2EvictLast => unsafe {
            ld_global_nc_policy(p, create_policy(L2Priority::Last, 1.0))
        },
        // SAFETY: the caller's contract, which `ld_global_cached`'s is.
        _ => unsafe { ld_global_cached(p, c) },
    }
}

/// A cache policy (`createpolicy.fractional.L2::<priority>.b64`, sm_80+;
/// here on sm_90 builds, 0 below, where the policy loads and stores are
/// plain): an opaque 64-bit value for [`ld_global_policy`] and
/// [`st_global_policy`], the priority applied to the fraction `fraction`
/// (in `(0, 1]`) of the accesses that use it.
#[inline(always)]
pub fn create_policy(prio: L2Priority, fraction: f32) -> u64 {
    #[cfg(target_feature = "sm_90")]
    {
        let r: u64;
        // SAFETY: `createpolicy` only computes a value.
        unsafe {
            match prio {
                L2Priority::Last => {
                    asm!("createpolicy.fractional.L2::evict_last.b64 {0}, {1};",
                    out(reg64) r, in(reg32) fraction, options(pure, nomem, nostack))
                }
                L2Priority::Normal => {
                    asm!("createpolicy.fractional.L2::evict_normal.b64 {0}, {1};",
                    out(reg64) r, in(reg32) fraction, options(pure, nomem, nostack))
                }
                L2Priority::First => {
                    asm!("createpolicy.fractional.L2::evict_first.b64 {0}, {1};",
                    out(reg64) r, in(reg32) fraction, options(pure, nomem, nostack))
                }
            }
        }
        r
    }
    #[cfg(not(target_feature = "sm_90"))]
    {
        let _ = (prio, fraction);
        0
    }
}

/// The loads of [`ld_global_policy`] and [`ld_global_nc_policy`]:
/// `ld.global$space.L2::cache_hint` through registers for 2-, 4-, 8- and
/// 16-byte types aligned to their size, a generic load otherwise.
#[cfg(target_feature = "sm_90")]
macro_rules! policy_load {
    ($space:literal, $opts:tt, $p:ident, $policy:ident, $t:ty) => {{
        let (size, align) = (core::mem::size_of::<$t>(), core::mem::align_of::<$t>());
        // SAFETY (of every branch): as `global_access!`'s; the policy is
        // a value `createpolicy` made.
        unsafe {
            if size == 4 && align >= 4 {
                let r: u32;
                asm!(concat!("{{ .reg .u64 g; cvta.to.global.u64 g, {1}; ld.global", $space, ".L2::cache_hint.b32 {0}, [g], {2}; }}"),
                    out(reg32) r, in(reg64) $p, in(reg64) $policy, options $opts);
                core::mem::transmute_copy(&r)
            } else if size == 8 && align >= 8 {
                let r: u64;
                asm!(concat!("{{ .reg .u64 g; cvta.to.global.u64 g, {1}; ld.global", $space, ".L2::cache_hint.b64 {0}, [g], {2}; }}"),
                    out(reg64) r, in(reg64) $p, in(reg64) $policy, options $opts);
                core::mem::transmute_copy(&r)
            } else if size == 16 && align >= 16 {
                let (a, b, c, d): (u32, u32, u32, u32);
                asm!(concat!("{{ .reg .u64 g; cvta.to.global.u64 g, {4}; ld.global", $space, ".L2::cache_hint.v4.b32 {{{0}, {1}, {2}, {3}}}, [g], {5}; }}"),
                    out(reg32) a, out(reg32) b, out(reg32) c, out(reg32) d, in(reg64) $p, in(reg64) $policy,
                    options $opts);
                core::mem::transmute_copy(&[a, b, c, d])
            } else if size == 2 && align >= 2 {
                let r: u16;
                asm!(concat!("{{ .reg .u64 g; cvta.to.global.u64 g, {1}; ld.global", $space, ".L2::cache_hint.b16 {0}, [g], {2}; }}"),
                    out(reg16) r, in(reg64) $p, in(reg64) $policy, options $opts);
                core::mem::transmute_copy(&r)
            } else {
                $p.read()
            }
        }
    }};
}

/// `ld.global.L2::cache_hint` with the policy `policy` (from
/// [`create_policy`]; a plain `ld.global` on builds below sm_90): a weak
/// load, as [`ld_global`].
///
/// # Safety
/// As [`ld_global`].
#[inline(always)]
pub unsafe fn ld_global_policy<T: crate::Pod>(p: *const T, policy: u64) -> T {
    #[cfg(target_feature = "sm_90")]
    {
        policy_load!("", (readonly, nostack), p, policy, T)
    }
    #[cfg(not(target_feature = "sm_90"))]
    {
        let _ = policy;
        // SAFETY: the caller's contract.
        unsafe { ld_global(p) }
    }
}

/// `ld.global.nc.L2::cache_hint` with the policy `policy` (a plain
/// `ld.global.nc` on builds below sm_90): a read-only load, as
/// [`ld_global_nc`].
///
/// # Safety
/// As [`ld_global_nc`].
#[inline(always)]
pub unsafe fn ld_global_nc_policy<T: crate::Pod>(p: *const T, policy: u64) -> T {
    #[cfg(target_feature = "sm_90")]
    {
        policy_load!(".nc", (pure, readonly, nostack), p, policy, T)
    }
    #[cfg(not(target_feature = "sm_90"))]
    {
        let _ = policy;
        // SAFETY: the caller's contract.
        unsafe { ld_global_nc(p) }
    }
}

/// `st.global.L2::cache_hint` with the policy `policy` (from
/// [`create_policy`]; a plain `st.global` on builds below sm_90), through
/// registers for the padding-free types of 2, 4, 8, 16 bytes.
///
/// # Safety
/// As [`st_global`].
#[inline(always)]
pub unsafe fn st_global_policy<T: crate::Pod>(p: *mut T, v: T, policy: u64) {
    #[cfg(target_feature = "sm_90")]
    {
        let (size, align) = (core::mem::size_of::<T>(), core::mem::align_of::<T>());
        // SAFETY: as `global_store!`'s; the policy is a value
        // `createpolicy` made.
        unsafe {
            if !T::PADDING_FREE {
                p.write(v)
            } else if size == 4 && align >= 4 {
                let r: u32 = core::mem::transmute_copy(&v);
                asm!("{{ .reg .u64 g; cvta.to.global.u64 g, {0}; st.global.L2::cache_hint.b32 [g], {1}, {2}; }}",
                    in(reg64) p, in(reg32) r, in(reg64) policy, options(nostack));
            } else if size == 8 && align >= 8 {
                let r: u64 = core::mem::transmute_copy(&v);
                asm!("{{ .reg .u64 g; cvta.to.global.u64 g, {0}; st.global.L2::cache_hint.b64 [g], {1}, {2}; }}",
                    in(reg64) p, in(reg64) r, in(reg64) policy, options(nostack));
            } else if size == 16 && align >= 16 {
                let [a, b, c, d]: [u32; 4] = core::mem::transmute_copy(&v);
                asm!("{{ .reg .u64 g; cvta.to.global.u64 g, {0}; st.global.L2::cache_hint.v4.b32 [g], {{{1}, {2}, {3}, {4}}}, {5}; }}",
                    in(reg64) p, in(reg32) a, in(reg32) b, in(reg32) c, in(reg32) d, in(reg64) policy, options(nostack));
            } else if size == 2 && align >= 2 {
                let r: u16 = core::mem::transmute_copy(&v);
                asm!("{{ .reg .u64 g; cvta.to.global.u64 g, {0}; st.global.L2::cache_hint.b16 [g], {1}, {2}; }}",
                    in(reg64) p, in(reg16) r, in(reg64) policy, options(nostack));
            } else {
                p.write(v)
            }
        }
    }
    #[cfg(not(target_feature = "sm_90"))]
    {
        let _ = policy;
        // SAFETY: the caller's contract.
        unsafe { st_global(p, v) }
    }
}

/// `st.global` with the cache operator `c` (`__stwb`, `__stcg`, `__stcs`,
/// `__stwt`): a weak store, as [`st_global`].
///
/// # Safety
/// As [`st_global`].
#[inline(always)]
pub unsafe fn st_global_cached<T: crate::Pod>(p: *mut T, v: T, c: StoreCache) {
    match c {
        StoreCache::WriteBack => global_store!(".wb", p, v, T),
        StoreCache::Global => global_store!(".cg", p, v, T),
        StoreCache::Streaming => global_store!(".cs", p, v, T),
        StoreCache::WriteThrough => global_store!(".wt", p, v, T),
        #[cfg(target_feature = "sm_90")]
        StoreCache::L1NoAllocate => global_store!(".L1::no_allocate", p, v, T),
        // SAFETY: the caller's contract (see `ld_global_cached` for why a
        // policy).
        #[cfg(target_feature = "sm_90")]
        StoreCache::L2EvictFirst => unsafe {
            st_global_policy(p, v, create_policy(L2Priority::First, 1.0))
        },
        // SAFETY: the caller's contract.
        #[cfg(target_feature = "sm_90")]
        StoreCache::L2EvictLast => unsafe {
            st_global_policy(p, v, create_policy(L2Priority::Last, 1.0))
        },
        #[cfg(not(target_feature = "sm_90"))]
        StoreCache::L1NoAllocate => global_store!(".cg", p, v, T),
        #[cfg(not(target_feature = "sm_90"))]
        StoreCache::L2EvictFirst => global_store!(".cs", p, v, T),
        #[cfg(not(target_feature = "sm_90"))]
        StoreCache::L2EvictLast => global_store!("", p, v, T),
    }
}

/// `prefetch.global.L2 [p]`: brings the line holding `p` into L2. A hint:
/// it reads nothing into a register and faults on no address.
#[inline(always)]
pub fn prefetch_global_l2(p: *const u8) {
    // SAFETY: a prefetch accesses no memory the program can observe.
    unsafe {
        asm!("{{ .reg .u64 g; cvta.to.global.u64 g, {0}; prefetch.global.L2 [g]; }}",
            in(reg64) p, options(nostack, preserves_flags))
    }
}

/// A plain store through `p`, whatever its state space (the compiler's:
/// `st.global` where it knows the address is global, a generic `st`
/// otherwise): the block and warp primitives' tile stores, the exact
/// instructions of a Rust write (the lab times them against CUB's). The
/// simulator's twin shows it to the race detector.
///
/// # Safety
/// `p` must be valid for a write of a `T` and aligned for it; `T` has no
/// padding bytes.
#[inline(always)]
pub unsafe fn st_plain<T: Copy>(p: *mut T, v: T) {
    // SAFETY: the caller's contract.
    unsafe { p.write(v) }
}

/// The simulator's check that a typed view belongs to the running launch:
/// nothing on the GPU (a view cannot outlive its launch there).
#[inline(always)]
pub fn global_region_check(_p: *const u8, _len: usize) {}

/// The simulator's check that a typed view belongs to the running launch
/// and may write its memory: nothing on the GPU.
#[inline(always)]
pub fn global_region_check_write(_p: *const u8, _len: usize) {}

/// An index outside a typed global parameter: `trap` (the launch fails
/// with `CUDA_ERROR_LAUNCH_FAILED`, as `cg-lab info --bounds` shows on the
/// H200).
#[inline(always)]
pub fn global_out_of_bounds(_base: *const u8, _index: usize, _len: usize, _write: bool) -> ! {
    trap()
}

/// Loads a `T` from the shared window: `ld.shared.b16/b32/b64` for 2-,
/// 4- and 8-byte types aligned to their size, `ld.shared.v4.b32` for
/// 16-byte types aligned to 16 (SASS `LDS`, `LDS.128`), a generic load
/// otherwise.
///
/// # Safety
/// `addr` must be a valid shared address of this block holding a `T`,
/// aligned for `T`.
#[inline(always)]
pub unsafe fn ld_shared<T: Copy + 'static>(addr: SharedAddr) -> T {
    let (size, align) = (core::mem::size_of::<T>(), core::mem::align_of::<T>());
    // SAFETY: the caller passes a valid, aligned address holding a `T`;
    // each branch reads exactly `size_of::<T>()` bytes and reinterprets
    // them as the `T` stored there (`readonly`: the load may be merged
    // with an identical one, never moved across a store or barrier).
    unsafe {
        if size == 4 && align >= 4 {
            let r: u32;
            asm!("ld.shared.b32 {0}, [{1}];", out(reg32) r, in(reg32) addr, options(pure, readonly, nostack));
            core::mem::transmute_copy(&r)
        } else if size == 8 && align >= 8 {
            let r: u64;
            asm!("ld.shared.b64 {0}, [{1}];", out(reg64) r, in(reg32) addr, options(pure, readonly, nostack));
            core::mem::transmute_copy(&r)
        } else if size == 2 && align >= 2 {
            let r: u16;
            asm!("ld.shared.b16 {0}, [{1}];", out(reg16) r, in(reg32) addr, options(pure, readonly, nostack));
            core::mem::transmute_copy(&r)
        } else if size == 1 {
            let r: u16;
            asm!("ld.shared.u8 {0}, [{1}];", out(reg16) r, in(reg32) addr, options(pure, readonly, nostack));
            core::mem::transmute_copy(&(r as u8))
        } else if size == 16 && align >= 16 {
            // A 16-byte vector (`LDS.128`): the generic read below would
            // be a generic `LD.E.128`.
            let (a, b, c, d): (u32, u32, u32, u32);
            asm!(
                "ld.shared.v4.b32 {{{0}, {1}, {2}, {3}}}, [{4}];",
                out(reg32) a, out(reg32) b, out(reg32) c, out(reg32) d, in(reg32) addr,
                options(pure, readonly, nostack)
            );
            core::mem::transmute_copy(&[a, b, c, d])
        } else {
            shared_to_generic(addr).cast::<T>().read()
        }
    }
}

/// Stores a `T` to the shared window: `st.shared.b16/b32/b64` for the
/// padding-free primitive types (SASS `STS`), a generic store otherwise
/// (a type with padding bytes cannot pass through a register).
///
/// # Safety
/// `addr` must be a valid shared address of this block, aligned for `T`.
#[inline(always)]
pub unsafe fn st_shared<T: Copy + 'static>(addr: SharedAddr, v: T) {
    let size = core::mem::size_of::<T>();
    // SAFETY: the caller passes a valid, aligned address; `T` is one of
    // the primitive types of its size (every byte initialised), so its
    // bits are a valid integer of that size.
    unsafe {
        if padding_free::<T>() && size == 4 {
            let r: u32 = core::mem::transmute_copy(&v);
            asm!("st.shared.b32 [{0}], {1};", in(reg32) addr, in(reg32) r, options(nostack));
        } else if padding_free::<T>() && size == 8 {
            let r: u64 = core::mem::transmute_copy(&v);
            asm!("st.shared.b64 [{0}], {1};", in(reg32) addr, in(reg64) r, options(nostack));
        } else if padding_free::<T>() && size == 2 {
            let r: u16 = core::mem::transmute_copy(&v);
            asm!("st.shared.b16 [{0}], {1};", in(reg32) addr, in(reg16) r, options(nostack));
        } else if padding_free::<T>() && size == 1 {
            let r: u8 = core::mem::transmute_copy(&v);
            asm!("st.shared.u8 [{0}], {1};", in(reg32) addr, in(reg16) (r as u16), options(nostack));
        } else {
            shared_to_generic(addr).cast::<T>().write(v)
        }
    }
}

/// Stores a [`Pod`](crate::Pod) `T` to the shared window: as
/// [`st_shared`], and for padding-free types of 8 or 16 bytes aligned to
/// their size (the [`Vector`](crate::vector::Vector)s, `[u32; 4]` aligned
/// to 16, …) one `st.shared.b64` / `st.shared.v4.b32` (SASS `STS.64`,
/// `STS.128`) where the generic store would be a generic `ST.E.128`.
///
/// # Safety
/// As [`st_shared`].
#[inline(always)]
pub unsafe fn st_shared_pod<T: crate::Pod>(addr: SharedAddr, v: T) {
    let (size, align) = (core::mem::size_of::<T>(), core::mem::align_of::<T>());
    // SAFETY: the caller passes a valid address aligned for `T`; a
    // padding-free `T` is bits that are all part of its value, so they
    // pass through integer registers as they are.
    unsafe {
        if T::PADDING_FREE && size == 16 && align >= 16 {
            let [a, b, c, d]: [u32; 4] = core::mem::transmute_copy(&v);
            asm!("st.shared.v4.b32 [{0}], {{{1}, {2}, {3}, {4}}};",
                in(reg32) addr, in(reg32) a, in(reg32) b, in(reg32) c, in(reg32) d, options(nostack));
        } else if T::PADDING_FREE && size == 8 && align >= 8 {
            let r: u64 = core::mem::transmute_copy(&v);
            asm!("st.shared.b64 [{0}], {1};", in(reg32) addr, in(reg64) r, options(nostack));
        } else {
            st_shared::<T>(addr, v)
        }
    }
}

/// 32-bit shared-memory load (`ld.shared.b32`).
///
/// # Safety
/// `addr` must be a valid, 4-byte aligned shared address of this block.
#[inline(always)]
pub unsafe fn ld_shared_u32(addr: SharedAddr) -> u32 {
    let r: u32;
    // SAFETY: the caller passes a valid shared address. `readonly`: a plain
    // load implies no ordering; not `pure`, so it is never merged or hoisted.
    unsafe {
        asm!("ld.shared.b32 {0}, [{1}];", out(reg32) r, in(reg32) addr, options(readonly, nostack))
    };
    r
}

/// Two consecutive 32-bit words from shared memory (`ld.shared.v2.b32`):
/// one instruction where two `ld.shared.b32` would issue twice.
///
/// # Safety
/// `addr` must be a valid, 8-byte aligned shared address of this block with
/// two words behind it.
#[inline(always)]
pub unsafe fn ld_shared_v2_u32(addr: SharedAddr) -> [u32; 2] {
    let (a, b): (u32, u32);
    // SAFETY: the caller passes a valid, aligned shared address. `readonly`
    // as in `ld_shared_u32`.
    unsafe {
        asm!("ld.shared.v2.b32 {{{0}, {1}}}, [{2}];", out(reg32) a, out(reg32) b, in(reg32) addr, options(readonly, nostack))
    };
    [a, b]
}

/// Four consecutive 32-bit words from shared memory (`ld.shared.v4.b32`).
///
/// # Safety
/// `addr` must be a valid, 16-byte aligned shared address of this block
/// with four words behind it.
#[inline(always)]
pub unsafe fn ld_shared_v4_u32(addr: SharedAddr) -> [u32; 4] {
    let (a, b, c, d): (u32, u32, u32, u32);
    // SAFETY: the caller passes a valid, aligned shared address. `readonly`
    // as in `ld_shared_u32`.
    unsafe {
        asm!(
            "ld.shared.v4.b32 {{{0}, {1}, {2}, {3}}}, [{4}];",
            out(reg32) a, out(reg32) b, out(reg32) c, out(reg32) d, in(reg32) addr,
            options(readonly, nostack)
        )
    };
    [a, b, c, d]
}

/// 32-bit shared-memory store (`st.shared.b32`).
///
/// # Safety
/// `addr` must be a valid, 4-byte aligned shared address of this block.
#[inline(always)]
pub unsafe fn st_shared_u32(addr: SharedAddr, v: u32) {
    // SAFETY: the caller passes a valid shared address.
    unsafe { asm!("st.shared.b32 [{0}], {1};", in(reg32) addr, in(reg32) v, options(nostack)) };
}

/// 32-bit shared-memory store under a predicate (`@p st.shared.b32`):
/// nothing is stored when `cond` is false. A predicated store is what
/// nvcc emits for `if (c) smem[i] = v;`; a branch around the store costs
/// a reconvergence point, and an unconditional store to a dummy word costs
/// a shared-memory access (and bank conflicts) for every lane.
///
/// # Safety
/// When `cond` holds, `addr` must be a valid, 4-byte aligned shared
/// address of this block.
#[inline(always)]
pub unsafe fn st_shared_u32_if(cond: bool, addr: SharedAddr, v: u32) {
    // SAFETY: the caller passes a valid shared address where the store happens.
    unsafe {
        asm!(
            "{{ .reg .pred p; setp.ne.b32 p, {c}, 0; @p st.shared.b32 [{a}], {v}; }}",
            c = in(reg32) cond as u32,
            a = in(reg32) addr,
            v = in(reg32) v,
            options(nostack)
        )
    };
}

/// Two consecutive 32-bit words to shared memory (`st.shared.v2.b32`).
///
/// # Safety
/// `addr` must be a valid, 8-byte aligned shared address of this block with
/// two words behind it.
#[inline(always)]
pub unsafe fn st_shared_v2_u32(addr: SharedAddr, v: [u32; 2]) {
    // SAFETY: the caller passes a valid, aligned shared address.
    unsafe {
        asm!("st.shared.v2.b32 [{0}], {{{1}, {2}}};", in(reg32) addr, in(reg32) v[0], in(reg32) v[1], options(nostack))
    };
}

/// Four consecutive 32-bit words to shared memory (`st.shared.v4.b32`).
///
/// # Safety
/// `addr` must be a valid, 16-byte aligned shared address of this block
/// with four words behind it.
#[inline(always)]
pub unsafe fn st_shared_v4_u32(addr: SharedAddr, v: [u32; 4]) {
    // SAFETY: the caller passes a valid, aligned shared address.
    unsafe {
        asm!(
            "st.shared.v4.b32 [{0}], {{{1}, {2}, {3}, {4}}};",
            in(reg32) addr, in(reg32) v[0], in(reg32) v[1], in(reg32) v[2], in(reg32) v[3],
            options(nostack)
        )
    };
}

/// `red.shared.add.u32 [addr], v`: an atomic add without a result on a
/// word of this block's shared memory (relaxed; what nvcc emits for an
/// `atomicAdd` on a `__shared__` counter whose result is unused, SASS
/// `ATOMS`).
///
/// # Safety
/// `addr` must be a valid, 4-byte aligned shared address of this block.
#[inline(always)]
pub unsafe fn red_shared_add_u32(addr: SharedAddr, v: u32) {
    // SAFETY: the caller passes a valid shared address. Not `nomem`: it
    // writes memory.
    unsafe {
        asm!("red.shared.add.u32 [{0}], {1};", in(reg32) addr, in(reg32) v, options(nostack))
    };
}

/// `atom.shared.add.u32 d, [addr], v`: a relaxed, block-scoped atomic
/// add on a word of this block's shared memory; returns the old value
/// (SASS `ATOMS.ADD`).
///
/// # Safety
/// `addr` must be a valid, 4-byte aligned shared address of this block.
#[inline(always)]
pub unsafe fn atom_shared_add_u32(addr: SharedAddr, v: u32) -> u32 {
    let old: u32;
    // SAFETY: the caller passes a valid shared address. Not `nomem`: it
    // reads and writes memory.
    unsafe {
        asm!("atom.shared.add.u32 {0}, [{1}], {2};", out(reg32) old, in(reg32) addr, in(reg32) v, options(nostack))
    };
    old
}

/// `atom.add.u32` on a generic address; returns the old value.
///
/// # Safety
/// `p` must be valid for a 4-byte atomic access.
#[inline(always)]
pub unsafe fn atomic_add_u32(p: *mut u32, v: u32) -> u32 {
    let r: u32;
    // SAFETY: the caller passes a valid pointer.
    unsafe {
        asm!("atom.add.u32 {0}, [{1}], {2};", out(reg32) r, in(reg64) p, in(reg32) v, options(nostack))
    };
    r
}

/// `atom.add.u64` on a generic address; returns the old value.
///
/// # Safety
/// `p` must be valid for an 8-byte atomic access.
#[inline(always)]
pub unsafe fn atomic_add_u64(p: *mut u64, v: u64) -> u64 {
    let r: u64;
    // SAFETY: the caller passes a valid pointer.
    unsafe {
        asm!("atom.add.u64 {0}, [{1}], {2};", out(reg64) r, in(reg64) p, in(reg64) v, options(nostack))
    };
    r
}

/// `atom.add.f32` on a generic address; returns the old value.
///
/// # Safety
/// `p` must be valid for a 4-byte atomic access.
#[inline(always)]
pub unsafe fn atomic_add_f32(p: *mut f32, v: f32) -> f32 {
    let r: f32;
    // SAFETY: the caller passes a valid pointer.
    unsafe {
        asm!("atom.add.f32 {0}, [{1}], {2};", out(reg32) r, in(reg64) p, in(reg32) v, options(nostack))
    };
    r
}

/// `atom.add.f64` on a generic address (sm_60+); returns the old value.
///
/// # Safety
/// `p` must be valid for an 8-byte atomic access.
#[inline(always)]
pub unsafe fn atomic_add_f64(p: *mut f64, v: f64) -> f64 {
    let r: f64;
    // SAFETY: the caller passes a valid pointer.
    unsafe {
        asm!("atom.add.f64 {0}, [{1}], {2};", out(reg64) r, in(reg64) p, in(reg64) v, options(nostack))
    };
    r
}

/// `red.global.add.TYPE` on a generic pointer converted to the global window
/// (`cvta.to.global`): an atomic add that returns nothing — what nvcc emits
/// (`RED.E.ADD`) for an `atomicAdd` on a global pointer whose result is
/// unused. No round trip, no generic-address space check.
macro_rules! red_global_add {
    ($name:ident, $t:ty, $ty:literal, $reg:ident) => {
        #[doc = concat!("`red.global.add.", $ty, "` (see the macro above).")]
        ///
        /// # Safety
        /// `p` must point to global memory, valid for an aligned atomic access.
        #[inline(always)]
        pub unsafe fn $name(p: *mut $t, v: $t) {
            // SAFETY: the caller passes a valid global pointer.
            unsafe {
                asm!(
                    concat!("{{ .reg .u64 g; cvta.to.global.u64 g, {0}; red.global.add.", $ty, " [g], {1}; }}"),
                    in(reg64) p,
                    in($reg) v,
                    options(nostack),
                )
            };
        }
    };
}
red_global_add!(red_global_add_u32, u32, "u32", reg32);
red_global_add!(red_global_add_u64, u64, "u64", reg64);
red_global_add!(red_global_add_f32, f32, "f32", reg32);
red_global_add!(red_global_add_f64, f64, "f64", reg64);

/// `atom.cas.b32` on a generic address; returns the old value.
///
/// # Safety
/// `p` must be valid for a 4-byte atomic access.
#[inline(always)]
pub unsafe fn atomic_cas_u32(p: *mut u32, cmp: u32, new: u32) -> u32 {
    let r: u32;
    // SAFETY: the caller passes a valid pointer.
    unsafe {
        asm!("atom.cas.b32 {0}, [{1}], {2}, {3};", out(reg32) r, in(reg64) p, in(reg32) cmp, in(reg32) new, options(nostack))
    };
    r
}

/// `ld.acquire.gpu.u32`: a load that later accesses cannot move above.
///
/// # Safety
/// `p` must be valid for a 4-byte read.
#[inline(always)]
pub unsafe fn load_acquire_u32(p: *const u32) -> u32 {
    let r: u32;
    // SAFETY: the caller passes a valid pointer. Not `readonly`: an acquire
    // orders the accesses after it (and a spin on it must not be hoisted).
    unsafe { asm!("ld.acquire.gpu.u32 {0}, [{1}];", out(reg32) r, in(reg64) p, options(nostack)) };
    r
}

/// Cluster special registers and operations (sm_90+).
#[cfg(target_feature = "sm_90")]
pub mod cluster {
    use super::RawDim3;

    #[allow(improper_ctypes)]
    unsafe extern "C" {
        #[link_name = "llvm.nvvm.read.ptx.sreg.cluster.ctarank"]
        fn nv_ctarank() -> u32;
        #[link_name = "llvm.nvvm.read.ptx.sreg.cluster.nctarank"]
        fn nv_nctarank() -> u32;
        #[link_name = "llvm.nvvm.read.ptx.sreg.cluster.ctaid.x"]
        fn nv_ctaid_x() -> u32;
        #[link_name = "llvm.nvvm.read.ptx.sreg.cluster.ctaid.y"]
        fn nv_ctaid_y() -> u32;
        #[link_name = "llvm.nvvm.read.ptx.sreg.cluster.ctaid.z"]
        fn nv_ctaid_z() -> u32;
        #[link_name = "llvm.nvvm.read.ptx.sreg.cluster.nctaid.x"]
        fn nv_nctaid_x() -> u32;
        #[link_name = "llvm.nvvm.read.ptx.sreg.cluster.nctaid.y"]
        fn nv_nctaid_y() -> u32;
        #[link_name = "llvm.nvvm.read.ptx.sreg.cluster.nctaid.z"]
        fn nv_nctaid_z() -> u32;
        #[link_name = "llvm.nvvm.barrier.cluster.arrive.aligned"]
        fn nv_arrive();
        #[link_name = "llvm.nvvm.barrier.cluster.wait.aligned"]
        fn nv_wait();
        #[link_name = "llvm.nvvm.mapa"]
        fn nv_mapa(p: *mut u8, rank: u32) -> *mut u8;
    }

    sreg!(cta_rank, nv_ctarank, "%cluster_ctarank");
    sreg!(num_ctas, nv_nctarank, "%cluster_nctarank");
    sreg!(ctaid_x, nv_ctaid_x, "%cluster_ctaid.x");
    sreg!(ctaid_y, nv_ctaid_y, "%cluster_ctaid.y");
    sreg!(ctaid_z, nv_ctaid_z, "%cluster_ctaid.z");
    sreg!(nctaid_x, nv_nctaid_x, "%cluster_nctaid.x");
    sreg!(nctaid_y, nv_nctaid_y, "%cluster_nctaid.y");
    sreg!(nctaid_z, nv_nctaid_z, "%cluster_nctaid.z");

    /// `%cluster_ctaid`: this block's position inside its cluster.
    #[inline(always)]
    pub fn cta_idx() -> RawDim3 {
        [ctaid_x(), ctaid_y(), ctaid_z()]
    }
    /// `%cluster_nctaid`: the cluster's shape in blocks.
    #[inline(always)]
    pub fn cluster_dim() -> RawDim3 {
        [nctaid_x(), nctaid_y(), nctaid_z()]
    }

    /// `barrier.cluster.arrive.aligned` (release semantics by default): every
    /// thread of the warp executes it, as `cluster.sync()` requires anyway.
    #[inline(always)]
    pub fn arrive() {
        // SAFETY: cluster barrier arrival; every thread of the cluster arrives (group contract).
        unsafe { nv_arrive() }
    }

    /// `barrier.cluster.wait.aligned` (acquire semantics by default).
    #[inline(always)]
    pub fn wait() {
        // SAFETY: cluster barrier wait after this thread's arrival (group contract).
        unsafe { nv_wait() }
    }

    /// `mapa.u64`: the generic address of the same shared variable in block `rank` of the cluster.
    #[inline(always)]
    pub fn map_shared_rank(p: *mut u8, rank: u32) -> *mut u8 {
        // SAFETY: pure address translation; dereferencing the result is the caller's business.
        unsafe { nv_mapa(p, rank) }
    }
    /// `getctarank.u64 d, p`: the cluster rank of the block whose shared
    /// memory the generic address `p` points into.
    #[inline(always)]
    pub fn query_shared_rank(p: *const u8) -> u32 {
        let r: u32;
        // SAFETY: pure address arithmetic on the pointer's value; nothing is accessed.
        unsafe {
            core::arch::asm!("getctarank.u64 {0}, {1};", out(reg32) r, in(reg64) p,
                 options(pure, nomem, nostack))
        };
        r
    }
}

/// Below sm_90 every block is a cluster of one: the cluster registers and
/// operations of a one-block cluster (the barrier is the block's).
#[cfg(not(target_feature = "sm_90"))]
pub mod cluster {
    use super::RawDim3;

    /// This block's rank in its cluster of one.
    #[inline(always)]
    pub fn cta_rank() -> u32 {
        0
    }
    /// Blocks in the cluster: one.
    #[inline(always)]
    pub fn num_ctas() -> u32 {
        1
    }
    /// This block's position inside its cluster of one.
    #[inline(always)]
    pub fn cta_idx() -> RawDim3 {
        [0, 0, 0]
    }
    /// The cluster's shape in blocks: `(1, 1, 1)`.
    #[inline(always)]
    pub fn cluster_dim() -> RawDim3 {
        [1, 1, 1]
    }
    /// The cluster barrier of a one-block cluster: `bar.sync 0`.
    #[inline(always)]
    pub fn arrive() {
        super::sync_threads()
    }
    /// Nothing to wait for after [`arrive`]'s `bar.sync 0`.
    #[inline(always)]
    pub fn wait() {}
    /// The only block of the cluster is this one: `p` itself for rank 0,
    /// a trap for any other rank.
    #[inline(always)]
    pub fn map_shared_rank(p: *mut u8, rank: u32) -> *mut u8 {
        if rank != 0 {
            super::trap()
        }
        p
    }
    /// Every shared address belongs to the only block: rank 0.
    #[inline(always)]
    pub fn query_shared_rank(_p: *const u8) -> u32 {
        0
    }
}

/// `fns.b32 d, mask, base, offset`: the `offset`-th set bit of `mask` from
/// `base`, as the PTX ISA defines it (the simulator's `fns_model` transcribes it).
#[inline(always)]
pub fn fns(mask: u32, base: u32, offset: i32) -> u32 {
    let r: u32;
    // SAFETY: pure bit arithmetic.
    unsafe {
        asm!("fns.b32 {0}, {1}, {2}, {3};", out(reg32) r, in(reg32) mask, in(reg32) base, in(reg32) offset,
             options(pure, nomem, nostack))
    };
    r
}

// The library's own shared memory. ptxas allocates a `.shared` variable only
// in the kernels that reference it, so kernels that never use a multi-warp
// collective (or a software-barrier tile) pay nothing for these.
core::arch::global_asm!(
    ".shared .align 16 .b8 cg_lib_collective_scratch[{bytes}];",
    bytes = const super::SCRATCH_BYTES,
);
core::arch::global_asm!(
    ".shared .align 16 .b8 cg_lib_rake_scratch[{bytes}];",
    bytes = const super::RAKE_BYTES,
);
core::arch::global_asm!(
    ".shared .align 8 .b8 cg_lib_soft_barrier[{bytes}];",
    bytes = const super::SOFT_BARRIER_BYTES,
);

/// The block's collective scratch ([`SCRATCH_BYTES`](super::SCRATCH_BYTES)):
/// a partial and a result slot for each of [`SCRATCH_SLOTS`](super::SCRATCH_SLOTS) warps.
#[inline(always)]
pub fn collective_scratch() -> SharedAddr {
    let a: u32;
    // SAFETY: reads the shared-window address of a variable declared above.
    unsafe {
        asm!("mov.u32 {0}, cg_lib_collective_scratch;", out(reg32) a, options(pure, nomem, nostack))
    };
    a
}

/// The block's raking scratch (see [`RAKE_BYTES`](super::RAKE_BYTES)).
#[inline(always)]
pub fn rake_scratch() -> SharedAddr {
    let a: u32;
    // SAFETY: reads the shared-window address of a variable declared above.
    unsafe {
        asm!("mov.u32 {0}, cg_lib_rake_scratch;", out(reg32) a, options(pure, nomem, nostack))
    };
    a
}

/// The block's software-barrier state (see [`SOFT_BARRIER_BYTES`](super::SOFT_BARRIER_BYTES)).
#[inline(always)]
pub fn soft_barrier_scratch() -> SharedAddr {
    let a: u32;
    // SAFETY: reads the shared-window address of a variable declared above.
    unsafe {
        asm!("mov.u32 {0}, cg_lib_soft_barrier;", out(reg32) a, options(pure, nomem, nostack))
    };
    a
}

/// `addr + bytes` in the shared window.
#[inline(always)]
pub fn shared_add(addr: SharedAddr, bytes: u32) -> SharedAddr {
    addr.wrapping_add(bytes)
}

/// `ld.volatile.shared.u32`: a load that ptxas may neither hoist nor merge
/// (spin loops on a flag written by another warp).
///
/// # Safety
/// `addr` must be a valid, 4-byte aligned shared address of this block.
#[inline(always)]
pub unsafe fn ld_volatile_shared_u32(addr: SharedAddr) -> u32 {
    let r: u32;
    // SAFETY: the caller passes a valid shared address.
    unsafe {
        asm!("ld.volatile.shared.u32 {0}, [{1}];", out(reg32) r, in(reg32) addr, options(nostack))
    };
    r
}

/// `st.volatile.shared.u32`.
///
/// # Safety
/// `addr` must be a valid, 4-byte aligned shared address of this block.
#[inline(always)]
pub unsafe fn st_volatile_shared_u32(addr: SharedAddr, v: u32) {
    // SAFETY: the caller passes a valid shared address.
    unsafe {
        asm!("st.volatile.shared.u32 [{0}], {1};", in(reg32) addr, in(reg32) v, options(nostack))
    };
}

/// `ld.volatile.shared.u64` (one load: the two halves are read together).
///
/// # Safety
/// `addr` must be a valid, 8-byte aligned shared address of this block.
#[inline(always)]
pub unsafe fn ld_volatile_shared_u64(addr: SharedAddr) -> u64 {
    let r: u64;
    // SAFETY: the caller passes a valid shared address.
    unsafe {
        asm!("ld.volatile.shared.u64 {0}, [{1}];", out(reg64) r, in(reg32) addr, options(nostack))
    };
    r
}

/// `st.volatile.shared.u64` (one store: the two halves are seen together).
///
/// # Safety
/// `addr` must be a valid, 8-byte aligned shared address of this block.
#[inline(always)]
pub unsafe fn st_volatile_shared_u64(addr: SharedAddr, v: u64) {
    // SAFETY: the caller passes a valid shared address.
    unsafe {
        asm!("st.volatile.shared.u64 [{0}], {1};", in(reg32) addr, in(reg64) v, options(nostack))
    };
}

/// `st.release.cta.shared.u32`: a store that makes this thread's earlier
/// writes (and those ordered before them, e.g. by `bar.warp.sync`) visible
/// to a thread of the block that acquires it.
///
/// # Safety
/// `addr` must be a valid, 4-byte aligned shared address of this block.
#[inline(always)]
pub unsafe fn st_release_shared_u32(addr: SharedAddr, v: u32) {
    // SAFETY: the caller passes a valid shared address.
    unsafe {
        asm!("st.release.cta.shared.u32 [{0}], {1};", in(reg32) addr, in(reg32) v, options(nostack))
    };
}

/// `ld.acquire.cta.shared.u32`: a load after which the writes released by
/// the store it reads are visible to this thread.
///
/// # Safety
/// `addr` must be a valid, 4-byte aligned shared address of this block.
#[inline(always)]
pub unsafe fn ld_acquire_shared_u32(addr: SharedAddr) -> u32 {
    let r: u32;
    // SAFETY: the caller passes a valid shared address.
    unsafe {
        asm!("ld.acquire.cta.shared.u32 {0}, [{1}];", out(reg32) r, in(reg32) addr, options(nostack))
    };
    r
}

// The grid barrier's word: one per module, zeroed when the module loads.
core::arch::global_asm!(".global .align 4 .u32 cg_grid_barrier;");

/// Grid-wide barrier of a cooperative launch.
///
/// Thread 0 of each block adds to the module's barrier word: block 0 adds
/// `0x8000_0000 - (blocks - 1)`, every other block 1, so the top bit flips
/// exactly when the last block arrives (the low bits return to their value
/// before the barrier, so the word is ready for the next one, in this launch
/// or a later one). Each thread 0 then spins until the top bit differs from
/// what it saw before its own add. Block barriers around it hold the rest of
/// the block. The add is `atom.add.release.gpu` and the spin
/// `ld.acquire.gpu` (PTX ISA, memory consistency model: release and acquire
/// patterns; a release is cumulative over what the block's `bar.sync` made
/// thread 0 observe, and the adds of the other blocks continue its release
/// sequence), so the last arrival's acquire orders every block's writes
/// before every block's reads after the barrier — as NVIDIA's `grid.sync()`
/// does on sm_70+. Two `fence.sc.gpu` in their place cost about 350 cycles
/// a barrier on an H200 (`cg-lab sync`).
#[inline(always)]
pub fn grid_sync() {
    grid_wait(grid_arrive());
}

/// The arrival half of [`grid_sync`]: the block barrier, then thread 0's
/// fence and add. Returns the word's value before the add (thread 0's is
/// the one [`grid_wait`] needs; other threads get 0).
#[inline(always)]
pub fn grid_arrive() -> u32 {
    sync_threads();
    if tid_x() == 0 && tid_y() == 0 && tid_z() == 0 {
        let blocks = nctaid_x() * nctaid_y() * nctaid_z();
        let first = ctaid_x() == 0 && ctaid_y() == 0 && ctaid_z() == 0;
        let add = if first {
            0x8000_0000u32.wrapping_sub(blocks - 1)
        } else {
            1
        };
        // SAFETY: `grid_barrier_word` is the module's 4-byte barrier word.
        unsafe {
            atom_rmw_32(
                Rmw32::Add,
                grid_barrier_word(),
                add,
                MemOrder::Release,
                At::generic(MemScope::Gpu),
            )
        }
    } else {
        0
    }
}

/// The waiting half of [`grid_sync`]: thread 0 spins until the word's top
/// bit differs from `before` (its [`grid_arrive`]'s), then the block barrier.
#[inline(always)]
pub fn grid_wait(before: u32) {
    if tid_x() == 0 && tid_y() == 0 && tid_z() == 0 {
        // SAFETY: as in `grid_arrive`.
        unsafe { while (before ^ load_acquire_u32(grid_barrier_word())) & 0x8000_0000 == 0 {} }
    }
    sync_threads();
}

/// The generic address of the module's grid-barrier word.
#[inline(always)]
fn grid_barrier_word() -> *mut u32 {
    let word: u64;
    // SAFETY: address arithmetic on the module's barrier word.
    unsafe {
        asm!("mov.u64 {0}, cg_grid_barrier; cvta.global.u64 {0}, {0};", out(reg64) word, options(pure, nomem, nostack))
    };
    word as *mut u32
}

// The grid collectives' scratch: two halves of `GRID_SCRATCH_BYTES`
// (65536), one per phase of the grid barrier; one per module, like the
// barrier word.
core::arch::global_asm!(".global .align 16 .b8 cg_grid_scratch[131072];");

/// The grid barrier's phase: the top bit of its word (0 or 1), by a relaxed
/// device-scope load (`ld.relaxed.gpu.b32`). It flips when a barrier
/// completes, so between two barriers every thread of the grid reads the
/// same phase.
#[inline(always)]
pub fn grid_phase() -> u32 {
    // SAFETY: `grid_barrier_word` is the module's 4-byte barrier word.
    unsafe {
        atom_load_32(
            grid_barrier_word(),
            LoadOrder::Relaxed,
            At::generic(MemScope::Gpu),
        ) >> 31
    }
}

/// The generic address of half `phase` (0 or 1) of the module's grid
/// scratch: `GRID_SCRATCH_BYTES` bytes, 16-byte aligned, zero when the
/// module loads.
#[inline(always)]
pub fn grid_scratch(phase: u32) -> *mut u8 {
    let base: u64;
    // SAFETY: address arithmetic on the module's scratch array.
    unsafe {
        asm!("mov.u64 {0}, cg_grid_scratch; cvta.global.u64 {0}, {0};", out(reg64) base, options(pure, nomem, nostack))
    };
    (base as *mut u8).wrapping_add((phase & 1) as usize * super::GRID_SCRATCH_BYTES)
}

/// The body of a spin-wait loop: `nanosleep` for about 20 ns, so that the
/// spinning lanes leave the shared-memory pipe and the issue slots to the
/// warps they wait for; the simulator yields the lane there.
#[inline(always)]
pub fn spin_hint() {
    nanosleep(20)
}

/// Argument-uniformity checks exist on the simulator only; on the GPU they cost nothing.
#[inline(always)]
pub fn check_uniform_warp(_mask: u32, _what: &'static str, _value: u64) {}

/// Block-level participation check: simulator only (see [`check_uniform_warp`]).
#[inline(always)]
pub fn check_uniform_block(_what: &'static str, _value: u64) {}

/// Stops the kernel with an error (`trap`): used for contract violations on the device.
#[inline(always)]
pub fn trap() -> ! {
    // SAFETY: `trap` aborts the kernel; nothing after it runs.
    unsafe { asm!("trap;", options(noreturn, nostack)) }
}

/// Stops the kernel for a violated contract: [`trap`] (the launch fails with
/// `CUDA_ERROR_LAUNCH_FAILED`). The message is the simulator's; here
/// its arguments are not even evaluated.
macro_rules! violation {
    ($($fmt:tt)*) => {{
        // The message's arguments count as used (no `unused_variables` in
        // GPU builds) but are never formatted: a trap says no more.
        if false {
            let _ = ::core::format_args!($($fmt)*);
        }
        $crate::arch::trap()
    }};
}
pub(crate) use violation;

/// Code only the simulator runs (see the host backend's): nothing here,
/// so the GPU's instructions are those of the code around it alone.
macro_rules! sim_only {
    ($($code:tt)*) => {};
}
pub(crate) use sim_only;

/// `$gpu` (the host backend's is `$sim`); the other is not compiled.
macro_rules! sim_or_gpu {
    ($sim:expr, $gpu:expr $(,)?) => {
        $gpu
    };
}
pub(crate) use sim_or_gpu;

// ---- Atomics with an ordering and a scope (`cuda::atomic_ref`) -------------
//
// Each operation lowers to the instruction libcu++ emits for the same
// `cuda::atomic_ref<T, scope>` call (its generated `__cuda_*` functions): the
// `.sem` and `.scope` qualifiers in `atom`, `ld` and `st`, and `fence.sc`
// before the operation for `seq_cst` (an acquire operation after it; a
// relaxed store). Addresses are generic, so global and shared memory both
// work; nvcc writes `.global` only where it proves the space.

use super::{
    At, FenceOrder, LoadOrder, MemOrder, MemScope, RedOrder, Rmw16, Rmw32, Rmw64, StoreOrder,
};

/// Expands `$m!(fence_prefix, sem, scope, space, args…)` for the ordering
/// `$o` of kind `$kind` (`rmw`, `load`, `store`, `red`) and the place `$at`
/// (an [`At`]: its scope, and `global` or `generic` as it says): one arm
/// per combination, so every asm template is a literal; after inlining
/// only the combination of the call is left.
macro_rules! sem_scope {
    ($kind:ident, $o:expr, $at:expr, $m:ident($($a:tt)*)) => {
        if $at.global {
            sem_scope!(@scope $kind, $o, $at.scope, $m(global, $($a)*))
        } else {
            sem_scope!(@scope $kind, $o, $at.scope, $m(generic, $($a)*))
        }
    };
    (@scope $kind:ident, $o:expr, $s:expr, $m:ident($($a:tt)*)) => {
        match $s {
            MemScope::Cta => sem_scope!(@$kind $o, ".cta", "fence.sc.cta; ", $m($($a)*)),
            MemScope::Cluster => {
                #[cfg(target_feature = "sm_90")]
                let r = sem_scope!(@$kind $o, ".cluster", "fence.sc.cluster; ", $m($($a)*));
                // No clusters before sm_90 (nor `.cluster` in their PTX):
                // the device scope includes whatever a cluster would.
                #[cfg(not(target_feature = "sm_90"))]
                let r = sem_scope!(@$kind $o, ".gpu", "fence.sc.gpu; ", $m($($a)*));
                r
            }
            MemScope::Gpu => sem_scope!(@$kind $o, ".gpu", "fence.sc.gpu; ", $m($($a)*)),
            MemScope::Sys => sem_scope!(@$kind $o, ".sys", "fence.sc.sys; ", $m($($a)*)),
        }
    };
    (@rmw $o:expr, $s:literal, $sc:literal, $m:ident($($a:tt)*)) => {
        match $o {
            MemOrder::Relaxed => $m!("", ".relaxed", $s, $($a)*),
            MemOrder::Acquire => $m!("", ".acquire", $s, $($a)*),
            MemOrder::Release => $m!("", ".release", $s, $($a)*),
            MemOrder::AcqRel => $m!("", ".acq_rel", $s, $($a)*),
            MemOrder::SeqCst => $m!($sc, ".acquire", $s, $($a)*),
        }
    };
    (@load $o:expr, $s:literal, $sc:literal, $m:ident($($a:tt)*)) => {
        match $o {
            LoadOrder::Relaxed => $m!("", ".relaxed", $s, $($a)*),
            LoadOrder::Acquire => $m!("", ".acquire", $s, $($a)*),
            LoadOrder::SeqCst => $m!($sc, ".acquire", $s, $($a)*),
        }
    };
    (@red $o:expr, $s:literal, $sc:literal, $m:ident($($a:tt)*)) => {
        match $o {
            RedOrder::Relaxed => $m!("", ".relaxed", $s, $($a)*),
            RedOrder::Release => $m!("", ".release", $s, $($a)*),
        }
    };
    (@store $o:expr, $s:literal, $sc:literal, $m:ident($($a:tt)*)) => {
        match $o {
            StoreOrder::Relaxed => $m!("", ".relaxed", $s, $($a)*),
            StoreOrder::Release => $m!("", ".release", $s, $($a)*),
            StoreOrder::SeqCst => $m!($sc, ".relaxed", $s, $($a)*),
        }
    };
}

// The atomic access templates, on a generic address (`generic`) or on a
// global one (`global`: the generic address converted with `cvta.to.global`
// inside the access, which ptxas folds away, then the `.global` form).

macro_rules! atom_asm {
    ($pre:literal, $sem:literal, $scope:literal, generic, $op:literal, $reg:ident, $t:ty, $p:ident, $v:ident) => {{
        let r: $t;
        // SAFETY: the caller passes an address valid for this atomic access.
        unsafe {
            asm!(concat!($pre, "atom", $sem, $scope, $op, " {0}, [{1}], {2};"),
                out($reg) r, in(reg64) $p, in($reg) $v, options(nostack))
        };
        r
    }};
    ($pre:literal, $sem:literal, $scope:literal, global, $op:literal, $reg:ident, $t:ty, $p:ident, $v:ident) => {{
        let r: $t;
        // SAFETY: the caller passes a global address valid for this atomic access.
        unsafe {
            asm!(concat!("{{ .reg .u64 g; cvta.to.global.u64 g, {1}; ", $pre, "atom", $sem, $scope, ".global", $op, " {0}, [g], {2}; }}"),
                out($reg) r, in(reg64) $p, in($reg) $v, options(nostack))
        };
        r
    }};
}

macro_rules! red_asm {
    ($pre:literal, $sem:literal, $scope:literal, generic, $op:literal, $reg:ident, $p:ident, $v:ident) => {{
        // SAFETY: the caller passes an address valid for this atomic access.
        unsafe {
            asm!(concat!($pre, "red", $sem, $scope, $op, " [{0}], {1};"),
                in(reg64) $p, in($reg) $v, options(nostack))
        }
    }};
    ($pre:literal, $sem:literal, $scope:literal, global, $op:literal, $reg:ident, $p:ident, $v:ident) => {{
        // SAFETY: the caller passes a global address valid for this atomic access.
        unsafe {
            asm!(concat!("{{ .reg .u64 g; cvta.to.global.u64 g, {0}; ", $pre, "red", $sem, $scope, ".global", $op, " [g], {1}; }}"),
                in(reg64) $p, in($reg) $v, options(nostack))
        }
    }};
}

macro_rules! cas_asm {
    ($pre:literal, $sem:literal, $scope:literal, generic, $op:literal, $reg:ident, $t:ty, $p:ident, $c:ident, $v:ident) => {{
        let r: $t;
        // SAFETY: the caller passes an address valid for this atomic access.
        unsafe {
            asm!(concat!($pre, "atom", $sem, $scope, $op, " {0}, [{1}], {2}, {3};"),
                out($reg) r, in(reg64) $p, in($reg) $c, in($reg) $v, options(nostack))
        };
        r
    }};
    ($pre:literal, $sem:literal, $scope:literal, global, $op:literal, $reg:ident, $t:ty, $p:ident, $c:ident, $v:ident) => {{
        let r: $t;
        // SAFETY: the caller passes a global address valid for this atomic access.
        unsafe {
            asm!(concat!("{{ .reg .u64 g; cvta.to.global.u64 g, {1}; ", $pre, "atom", $sem, $scope, ".global", $op, " {0}, [g], {2}, {3}; }}"),
                out($reg) r, in(reg64) $p, in($reg) $c, in($reg) $v, options(nostack))
        };
        r
    }};
}

macro_rules! ld_asm {
    ($pre:literal, $sem:literal, $scope:literal, generic, $ty:literal, $reg:ident, $t:ty, $p:ident) => {{
        let r: $t;
        // SAFETY: the caller passes an address valid for this atomic access.
        unsafe {
            asm!(concat!($pre, "ld", $sem, $scope, $ty, " {0}, [{1}];"),
                out($reg) r, in(reg64) $p, options(nostack))
        };
        r
    }};
    ($pre:literal, $sem:literal, $scope:literal, global, $ty:literal, $reg:ident, $t:ty, $p:ident) => {{
        let r: $t;
        // SAFETY: the caller passes a global address valid for this atomic access.
        unsafe {
            asm!(concat!("{{ .reg .u64 g; cvta.to.global.u64 g, {1}; ", $pre, "ld", $sem, $scope, ".global", $ty, " {0}, [g]; }}"),
                out($reg) r, in(reg64) $p, options(nostack))
        };
        r
    }};
}

macro_rules! st_asm {
    ($pre:literal, $sem:literal, $scope:literal, generic, $ty:literal, $reg:ident, $p:ident, $v:ident) => {{
        // SAFETY: the caller passes an address valid for this atomic access.
        unsafe {
            asm!(concat!($pre, "st", $sem, $scope, $ty, " [{0}], {1};"),
                in(reg64) $p, in($reg) $v, options(nostack))
        }
    }};
    ($pre:literal, $sem:literal, $scope:literal, global, $ty:literal, $reg:ident, $p:ident, $v:ident) => {{
        // SAFETY: the caller passes a global address valid for this atomic access.
        unsafe {
            asm!(concat!("{{ .reg .u64 g; cvta.to.global.u64 g, {0}; ", $pre, "st", $sem, $scope, ".global", $ty, " [g], {1}; }}"),
                in(reg64) $p, in($reg) $v, options(nostack))
        }
    }};
}

/// `ld{.relaxed|.acquire}.scope.b32` (seq_cst: `fence.sc.scope` first).
///
/// # Safety
/// `p` must be valid for a 4-byte aligned atomic read.
#[inline(always)]
pub unsafe fn atom_load_32(p: *const u32, o: LoadOrder, s: At) -> u32 {
    sem_scope!(load, o, s, ld_asm(".b32", reg32, u32, p))
}

/// `ld{.relaxed|.acquire}.scope.b64` (seq_cst: `fence.sc.scope` first).
///
/// # Safety
/// `p` must be valid for an 8-byte aligned atomic read.
#[inline(always)]
pub unsafe fn atom_load_64(p: *const u64, o: LoadOrder, s: At) -> u64 {
    sem_scope!(load, o, s, ld_asm(".b64", reg64, u64, p))
}

/// `st{.relaxed|.release}.scope.b32` (seq_cst: `fence.sc.scope` + `st.relaxed`).
///
/// # Safety
/// `p` must be valid for a 4-byte aligned atomic write.
#[inline(always)]
pub unsafe fn atom_store_32(p: *mut u32, v: u32, o: StoreOrder, s: At) {
    sem_scope!(store, o, s, st_asm(".b32", reg32, p, v))
}

/// `st{.relaxed|.release}.scope.b64` (seq_cst: `fence.sc.scope` + `st.relaxed`).
///
/// # Safety
/// `p` must be valid for an 8-byte aligned atomic write.
#[inline(always)]
pub unsafe fn atom_store_64(p: *mut u64, v: u64, o: StoreOrder, s: At) {
    sem_scope!(store, o, s, st_asm(".b64", reg64, p, v))
}

/// `atom.sem.scope.OP.TYPE` on a 32-bit word; returns the old value.
///
/// # Safety
/// `p` must be valid for a 4-byte aligned atomic read-modify-write.
#[inline(always)]
pub unsafe fn atom_rmw_32(op: Rmw32, p: *mut u32, v: u32, o: MemOrder, s: At) -> u32 {
    match op {
        Rmw32::Add => sem_scope!(rmw, o, s, atom_asm(".add.u32", reg32, u32, p, v)),
        Rmw32::AddF => sem_scope!(rmw, o, s, atom_asm(".add.f32", reg32, u32, p, v)),
        Rmw32::MinU => sem_scope!(rmw, o, s, atom_asm(".min.u32", reg32, u32, p, v)),
        Rmw32::MinS => sem_scope!(rmw, o, s, atom_asm(".min.s32", reg32, u32, p, v)),
        Rmw32::MaxU => sem_scope!(rmw, o, s, atom_asm(".max.u32", reg32, u32, p, v)),
        Rmw32::MaxS => sem_scope!(rmw, o, s, atom_asm(".max.s32", reg32, u32, p, v)),
        Rmw32::And => sem_scope!(rmw, o, s, atom_asm(".and.b32", reg32, u32, p, v)),
        Rmw32::Or => sem_scope!(rmw, o, s, atom_asm(".or.b32", reg32, u32, p, v)),
        Rmw32::Xor => sem_scope!(rmw, o, s, atom_asm(".xor.b32", reg32, u32, p, v)),
        Rmw32::Exch => sem_scope!(rmw, o, s, atom_asm(".exch.b32", reg32, u32, p, v)),
        Rmw32::Inc => sem_scope!(rmw, o, s, atom_asm(".inc.u32", reg32, u32, p, v)),
        Rmw32::Dec => sem_scope!(rmw, o, s, atom_asm(".dec.u32", reg32, u32, p, v)),
        Rmw32::AddF16x2 => sem_scope!(rmw, o, s, atom_asm(".add.noftz.f16x2", reg32, u32, p, v)),
        #[cfg(target_feature = "sm_90")]
        Rmw32::AddBf16x2 => sem_scope!(rmw, o, s, atom_asm(".add.noftz.bf16x2", reg32, u32, p, v)),
        #[cfg(not(target_feature = "sm_90"))]
        // SAFETY: forwarded contract.
        Rmw32::AddBf16x2 => unsafe { cas_loop_32(p, v, o, s, bf16x2_add) },
    }
}

/// A read-modify-write of a 32-bit word as a compare-and-swap loop (for
/// an operation the SM has no `atom` for): the old value read relaxed,
/// `atom.cas` of `f(old, v)` until no other thread came in between.
///
/// # Safety
/// As [`atom_rmw_32`].
#[cfg(not(target_feature = "sm_90"))]
#[inline(always)]
unsafe fn cas_loop_32(p: *mut u32, v: u32, o: MemOrder, s: At, f: fn(u32, u32) -> u32) -> u32 {
    // SAFETY: forwarded contract.
    let mut old = unsafe { atom_load_32(p, LoadOrder::Relaxed, s) };
    loop {
        // SAFETY: forwarded contract.
        let seen = unsafe { atom_cas_32(p, old, f(old, v), o, s) };
        if seen == old {
            return old;
        }
        old = seen;
    }
}

/// `atom.sem.scope.OP.TYPE` on a 64-bit word; returns the old value.
///
/// # Safety
/// `p` must be valid for an 8-byte aligned atomic read-modify-write.
#[inline(always)]
pub unsafe fn atom_rmw_64(op: Rmw64, p: *mut u64, v: u64, o: MemOrder, s: At) -> u64 {
    match op {
        Rmw64::Add => sem_scope!(rmw, o, s, atom_asm(".add.u64", reg64, u64, p, v)),
        Rmw64::AddF => sem_scope!(rmw, o, s, atom_asm(".add.f64", reg64, u64, p, v)),
        Rmw64::MinU => sem_scope!(rmw, o, s, atom_asm(".min.u64", reg64, u64, p, v)),
        Rmw64::MinS => sem_scope!(rmw, o, s, atom_asm(".min.s64", reg64, u64, p, v)),
        Rmw64::MaxU => sem_scope!(rmw, o, s, atom_asm(".max.u64", reg64, u64, p, v)),
        Rmw64::MaxS => sem_scope!(rmw, o, s, atom_asm(".max.s64", reg64, u64, p, v)),
        Rmw64::And => sem_scope!(rmw, o, s, atom_asm(".and.b64", reg64, u64, p, v)),
        Rmw64::Or => sem_scope!(rmw, o, s, atom_asm(".or.b64", reg64, u64, p, v)),
        Rmw64::Xor => sem_scope!(rmw, o, s, atom_asm(".xor.b64", reg64, u64, p, v)),
        Rmw64::Exch => sem_scope!(rmw, o, s, atom_asm(".exch.b64", reg64, u64, p, v)),
    }
}

/// `red.sem.scope.OP.TYPE` on a 32-bit word: the read-modify-write
/// without its result, on a generic address (`red.sem.scope.global.OP.TYPE`
/// where `s.global`; `Exch` has no `red` form: it is the `atom`, its result
/// dropped).
///
/// # Safety
/// As [`atom_rmw_32`].
#[inline(always)]
pub unsafe fn red_32(op: Rmw32, p: *mut u32, v: u32, o: RedOrder, s: At) {
    match op {
        Rmw32::Add => sem_scope!(red, o, s, red_asm(".add.u32", reg32, p, v)),
        Rmw32::AddF => sem_scope!(red, o, s, red_asm(".add.f32", reg32, p, v)),
        Rmw32::MinU => sem_scope!(red, o, s, red_asm(".min.u32", reg32, p, v)),
        Rmw32::MinS => sem_scope!(red, o, s, red_asm(".min.s32", reg32, p, v)),
        Rmw32::MaxU => sem_scope!(red, o, s, red_asm(".max.u32", reg32, p, v)),
        Rmw32::MaxS => sem_scope!(red, o, s, red_asm(".max.s32", reg32, p, v)),
        Rmw32::And => sem_scope!(red, o, s, red_asm(".and.b32", reg32, p, v)),
        Rmw32::Or => sem_scope!(red, o, s, red_asm(".or.b32", reg32, p, v)),
        Rmw32::Xor => sem_scope!(red, o, s, red_asm(".xor.b32", reg32, p, v)),
        Rmw32::Inc => sem_scope!(red, o, s, red_asm(".inc.u32", reg32, p, v)),
        Rmw32::Dec => sem_scope!(red, o, s, red_asm(".dec.u32", reg32, p, v)),
        Rmw32::AddF16x2 => sem_scope!(red, o, s, red_asm(".add.noftz.f16x2", reg32, p, v)),
        #[cfg(target_feature = "sm_90")]
        Rmw32::AddBf16x2 => sem_scope!(red, o, s, red_asm(".add.noftz.bf16x2", reg32, p, v)),
        #[cfg(not(target_feature = "sm_90"))]
        // SAFETY: forwarded contract (the loop's result dropped).
        Rmw32::AddBf16x2 => {
            unsafe { atom_rmw_32(op, p, v, o.rmw(), s) };
        }
        // SAFETY: forwarded contract.
        Rmw32::Exch => {
            unsafe { atom_rmw_32(op, p, v, o.rmw(), s) };
        }
    }
}

/// `red.sem.scope.OP.TYPE` on a 64-bit word (see [`red_32`]).
///
/// # Safety
/// As [`atom_rmw_64`].
#[inline(always)]
pub unsafe fn red_64(op: Rmw64, p: *mut u64, v: u64, o: RedOrder, s: At) {
    match op {
        Rmw64::Add => sem_scope!(red, o, s, red_asm(".add.u64", reg64, p, v)),
        Rmw64::AddF => sem_scope!(red, o, s, red_asm(".add.f64", reg64, p, v)),
        Rmw64::MinU => sem_scope!(red, o, s, red_asm(".min.u64", reg64, p, v)),
        Rmw64::MinS => sem_scope!(red, o, s, red_asm(".min.s64", reg64, p, v)),
        Rmw64::MaxU => sem_scope!(red, o, s, red_asm(".max.u64", reg64, p, v)),
        Rmw64::MaxS => sem_scope!(red, o, s, red_asm(".max.s64", reg64, p, v)),
        Rmw64::And => sem_scope!(red, o, s, red_asm(".and.b64", reg64, p, v)),
        Rmw64::Or => sem_scope!(red, o, s, red_asm(".or.b64", reg64, p, v)),
        Rmw64::Xor => sem_scope!(red, o, s, red_asm(".xor.b64", reg64, p, v)),
        // SAFETY: forwarded contract.
        Rmw64::Exch => {
            unsafe { atom_rmw_64(op, p, v, o.rmw(), s) };
        }
    }
}

/// `atom.sem.scope.cas.b32`; returns the old value.
///
/// # Safety
/// `p` must be valid for a 4-byte aligned atomic read-modify-write.
#[inline(always)]
pub unsafe fn atom_cas_32(p: *mut u32, cmp: u32, new: u32, o: MemOrder, s: At) -> u32 {
    sem_scope!(rmw, o, s, cas_asm(".cas.b32", reg32, u32, p, cmp, new))
}

/// `atom.sem.scope.cas.b64`; returns the old value.
///
/// # Safety
/// `p` must be valid for an 8-byte aligned atomic read-modify-write.
#[inline(always)]
pub unsafe fn atom_cas_64(p: *mut u64, cmp: u64, new: u64, o: MemOrder, s: At) -> u64 {
    sem_scope!(rmw, o, s, cas_asm(".cas.b64", reg64, u64, p, cmp, new))
}

macro_rules! fence_asm {
    ($t:literal) => {
        // SAFETY: a fence has no operands.
        unsafe { asm!($t, options(nostack)) }
    };
}

/// `fence.acq_rel.scope` or `fence.sc.scope`.
#[inline(always)]
pub fn fence(o: FenceOrder, s: MemScope) {
    match (o, s) {
        (FenceOrder::AcqRel, MemScope::Cta) => fence_asm!("fence.acq_rel.cta;"),
        (FenceOrder::SeqCst, MemScope::Cta) => fence_asm!("fence.sc.cta;"),
        #[cfg(target_feature = "sm_90")]
        (FenceOrder::AcqRel, MemScope::Cluster) => fence_asm!("fence.acq_rel.cluster;"),
        #[cfg(target_feature = "sm_90")]
        (FenceOrder::SeqCst, MemScope::Cluster) => fence_asm!("fence.sc.cluster;"),
        #[cfg(not(target_feature = "sm_90"))]
        (FenceOrder::AcqRel, MemScope::Cluster) => fence_asm!("fence.acq_rel.gpu;"),
        #[cfg(not(target_feature = "sm_90"))]
        (FenceOrder::SeqCst, MemScope::Cluster) => fence_asm!("fence.sc.gpu;"),
        (FenceOrder::AcqRel, MemScope::Gpu) => fence_asm!("fence.acq_rel.gpu;"),
        (FenceOrder::SeqCst, MemScope::Gpu) => fence_asm!("fence.sc.gpu;"),
        (FenceOrder::AcqRel, MemScope::Sys) => fence_asm!("fence.acq_rel.sys;"),
        (FenceOrder::SeqCst, MemScope::Sys) => fence_asm!("fence.sc.sys;"),
    }
}

/// `membar.cta` (`__threadfence_block`; the PTX ISA defines it as `fence.sc.cta`).
#[inline(always)]
pub fn membar_cta() {
    fence_asm!("membar.cta;")
}

/// `membar.gl` (`__threadfence`; `fence.sc.gpu`).
#[inline(always)]
pub fn membar_gl() {
    fence_asm!("membar.gl;")
}

/// `membar.sys` (`__threadfence_system`; `fence.sc.sys`).
#[inline(always)]
pub fn membar_sys() {
    fence_asm!("membar.sys;")
}

/// `nanosleep.u32 ns` (sm_70+): suspends the thread for about `ns`
/// nanoseconds (at most 1 ms).
#[inline(always)]
pub fn nanosleep(ns: u32) {
    // SAFETY: `nanosleep` reads one register and touches no memory.
    unsafe { asm!("nanosleep.u32 {0};", in(reg32) ns, options(nostack)) }
}

/// `mov.u64 %clock64`: the SM's 64-bit cycle counter (CUDA's `clock64()`).
/// Whether the driver gave this launch a grid workspace: the address it
/// writes into `%envreg1` (high word) and `%envreg2` (low word) on a
/// cooperative launch only — what CUDA's `grid_group::is_valid()` tests.
#[inline(always)]
pub fn grid_workspace_present() -> bool {
    let (hi, lo): (u32, u32);
    // SAFETY: reads two special registers; touches no memory.
    unsafe {
        asm!("mov.u32 {0}, %envreg1; mov.u32 {1}, %envreg2;", out(reg32) hi, out(reg32) lo,
            options(pure, nomem, nostack))
    };
    hi | lo != 0
}

/// `volatile` (no `pure`): two reads are never merged or moved across the
/// code they time.
#[inline(always)]
pub fn clock64() -> u64 {
    let c: u64;
    // SAFETY: reads a special register; touches no memory.
    unsafe { asm!("mov.u64 {0}, %clock64;", out(reg64) c, options(nostack, nomem)) };
    c
}

// Asynchronous copies global → shared (`memcpy_async`). On sm_80+ they
// are `cp.async` with commit groups; on sm_70 (no `cp.async`) the copy is
// synchronous and the commit and wait are no-ops.

/// `isspacep.global`: whether the generic address `p` is global memory.
#[inline(always)]
pub fn is_global(p: *const u8) -> bool {
    let r: u32;
    // SAFETY: a predicate on an address; touches no memory.
    unsafe {
        asm!(
            "{{ .reg .pred g; isspacep.global g, {1}; selp.u32 {0}, 1, 0, g; }}",
            out(reg32) r, in(reg64) p, options(pure, nomem, nostack)
        )
    };
    r != 0
}

/// One `SIZE`-byte (4, 8 or 16) asynchronous copy: `cp.async.ca` (4, 8)
/// or `cp.async.cg` (16, L2 only) on sm_80+; a load and a store on sm_70.
///
/// # Safety
/// `dst` must be a generic address of this block's shared memory and `src`
/// of global memory, both `SIZE`-aligned and valid for `SIZE` bytes.
#[inline(always)]
pub unsafe fn cp_async<const SIZE: u32>(dst: *mut u8, src: *const u8) {
    #[cfg(target_feature = "sm_80")]
    // SAFETY: the caller passes aligned shared and global addresses of SIZE bytes.
    unsafe {
        match SIZE {
            16 => asm!(
                "{{ .reg .u64 d, s; .reg .u32 d32; cvta.to.shared.u64 d, {0}; cvt.u32.u64 d32, d; \
                 cvta.to.global.u64 s, {1}; cp.async.cg.shared.global [d32], [s], 16; }}",
                in(reg64) dst, in(reg64) src, options(nostack)
            ),
            _ => asm!(
                "{{ .reg .u64 d, s; .reg .u32 d32; cvta.to.shared.u64 d, {0}; cvt.u32.u64 d32, d; \
                 cvta.to.global.u64 s, {1}; cp.async.ca.shared.global [d32], [s], {2}; }}",
                in(reg64) dst, in(reg64) src, const SIZE, options(nostack)
            ),
        }
    }
    #[cfg(not(target_feature = "sm_80"))]
    {
        #[derive(Clone, Copy)]
        #[repr(C, align(16))]
        struct V4([u32; 4]);
        // SAFETY: as above; plain aligned loads and stores of SIZE bytes.
        unsafe {
            match SIZE {
                16 => (dst as *mut V4).write((src as *const V4).read()),
                8 => (dst as *mut u64).write((src as *const u64).read()),
                _ => (dst as *mut u32).write((src as *const u32).read()),
            }
        }
    }
}

/// `cp.async.commit_group` (sm_80+; nothing on sm_70).
#[inline(always)]
pub fn cp_async_commit() {
    #[cfg(target_feature = "sm_80")]
    // SAFETY: closes this thread's group of copies; no operands.
    unsafe {
        asm!("cp.async.commit_group;", options(nostack))
    }
}

/// `cp.async.wait_group N` (sm_80+; nothing on sm_70): every committed
/// group of this thread but the newest `N` has landed. A compiler memory
/// barrier, so shared loads after it are not hoisted above it.
#[inline(always)]
pub fn cp_async_wait<const N: u32>() {
    #[cfg(target_feature = "sm_80")]
    // SAFETY: waits on this thread's own copies; no operands.
    unsafe {
        asm!("cp.async.wait_group {0};", const N, options(nostack))
    }
}

/// The simulator checks shared-memory accesses against copies in flight;
/// on the GPU there is nothing to check.
#[inline(always)]
pub fn shared_access_check(_p: *const u8, _len: usize, _write: bool) {}

/// Whose shared memory a handle reaches. The simulator records the block
/// and checks every access (its shared memory is host memory that the
/// block's end frees, and a handle kept past it must be caught); on the
/// GPU a handle cannot leave its block in safe code (statics need `Sync`,
/// there are no thread locals, it is no kernel parameter): nothing to
/// record, and no check (the library's checks are host-only code, so the
/// GPU's instructions are those of an unchecked access).
#[derive(Clone, Copy, Debug)]
pub struct SharedOwner;

/// The owner of a shared-memory handle made now: nothing on the GPU.
#[inline(always)]
pub fn shared_owner() -> SharedOwner {
    SharedOwner
}

/// The owner of a handle that names no memory: nothing on the GPU.
#[inline(always)]
pub const fn no_owner() -> SharedOwner {
    SharedOwner
}

/// The generic address of a kernel parameter read in place (a tensor
/// map, as nvcc's `__grid_constant__`), from `param`, which `#[kernel]`
/// builds from the parameter's PTX name (`mov` of it, `cvta.param`: PTX
/// ISA 7.7): on sm_90, where tile copies read it; 0 below, where there
/// are none (and the PTX ISA of sm_70 has no `cvta.param`).
#[inline(always)]
pub fn grid_constant_address(param: impl FnOnce() -> u64) -> u64 {
    if cfg!(target_feature = "sm_90") {
        param()
    } else {
        0
    }
}

/// `ld{.relaxed|.acquire}.scope.b16` (seq_cst: `fence.sc.scope` +
/// `ld.acquire`).
///
/// # Safety
/// `p` must be valid for a 2-byte aligned atomic read.
#[inline(always)]
pub unsafe fn atom_load_16(p: *const u16, o: LoadOrder, s: At) -> u16 {
    sem_scope!(load, o, s, ld_asm(".b16", reg16, u16, p))
}

/// `st{.relaxed|.release}.scope.b16` (seq_cst: `fence.sc.scope` +
/// `st.relaxed`).
///
/// # Safety
/// `p` must be valid for a 2-byte aligned atomic write.
#[inline(always)]
pub unsafe fn atom_store_16(p: *mut u16, v: u16, o: StoreOrder, s: At) {
    sem_scope!(store, o, s, st_asm(".b16", reg16, p, v))
}

/// `atom.sem.scope.cas.b16` (sm_70+); returns the old value.
///
/// # Safety
/// `p` must be valid for a 2-byte aligned atomic read-modify-write.
#[inline(always)]
pub unsafe fn atom_cas_16(p: *mut u16, cmp: u16, new: u16, o: MemOrder, s: At) -> u16 {
    sem_scope!(rmw, o, s, cas_asm(".cas.b16", reg16, u16, p, cmp, new))
}

/// A read-modify-write of a 16-bit word as a compare-and-swap loop (the
/// exchange, and the bf16 add below sm_90).
///
/// # Safety
/// As [`atom_cas_16`].
#[inline(always)]
unsafe fn cas_loop_16(p: *mut u16, v: u16, o: MemOrder, s: At, f: fn(u16, u16) -> u16) -> u16 {
    // SAFETY: forwarded contract.
    let mut old = unsafe { atom_load_16(p, LoadOrder::Relaxed, s) };
    loop {
        // SAFETY: forwarded contract.
        let seen = unsafe { atom_cas_16(p, old, f(old, v), o, s) };
        if seen == old {
            return old;
        }
        old = seen;
    }
}

/// `atom.sem.scope.add.noftz.{f16,bf16}` on a 16-bit word (bf16: sm_90;
/// a CAS loop below), or the exchange (a CAS loop); returns the old value.
///
/// # Safety
/// As [`atom_cas_16`].
#[inline(always)]
pub unsafe fn atom_rmw_16(op: Rmw16, p: *mut u16, v: u16, o: MemOrder, s: At) -> u16 {
    match op {
        Rmw16::AddF16 => sem_scope!(rmw, o, s, atom_asm(".add.noftz.f16", reg16, u16, p, v)),
        #[cfg(target_feature = "sm_90")]
        Rmw16::AddBf16 => sem_scope!(rmw, o, s, atom_asm(".add.noftz.bf16", reg16, u16, p, v)),
        #[cfg(not(target_feature = "sm_90"))]
        // SAFETY: forwarded contract.
        Rmw16::AddBf16 => unsafe { cas_loop_16(p, v, o, s, bf16_add) },
        // SAFETY: forwarded contract.
        Rmw16::Exch => unsafe { cas_loop_16(p, v, o, s, |_, v| v) },
    }
}

/// `red.sem.scope.add.noftz.{f16,bf16}`: the add without its result
/// (bf16 below sm_90 and the exchange: the `atom`, its result dropped).
///
/// # Safety
/// As [`atom_cas_16`].
#[inline(always)]
pub unsafe fn red_16(op: Rmw16, p: *mut u16, v: u16, o: RedOrder, s: At) {
    match op {
        Rmw16::AddF16 => sem_scope!(red, o, s, red_asm(".add.noftz.f16", reg16, p, v)),
        #[cfg(target_feature = "sm_90")]
        Rmw16::AddBf16 => sem_scope!(red, o, s, red_asm(".add.noftz.bf16", reg16, p, v)),
        // SAFETY: forwarded contract.
        _ => {
            unsafe { atom_rmw_16(op, p, v, o.rmw(), s) };
        }
    }
}
