//! `mbarrier` objects (sm_80+; the transaction counts and `try_wait`
//! sm_90): each primitive is one instruction on a 32-bit shared-window
//! address. Their orderings are the PTX defaults, as CUDA's `cuda::barrier`
//! has them: an arrival releases at `.cta` scope, a wait that returns
//! complete acquires at `.cta` scope.

use core::arch::asm;

use super::SharedAddr;

/// `mbarrier.init.shared.b64 [addr], count`.
///
/// # Safety
/// `addr` must be an 8-byte aligned shared address of this block that no
/// thread uses as an mbarrier until a barrier orders it after this
/// initialisation, and `count` must be `1..=2^20 - 1`.
#[inline(always)]
pub unsafe fn mbarrier_init(addr: SharedAddr, count: u32) {
    // SAFETY: the caller's contract.
    unsafe {
        asm!("mbarrier.init.shared.b64 [{0}], {1};", in(reg32) addr, in(reg32) count, options(nostack))
    };
}

/// Orders this thread's earlier `mbarrier.init`s before what the async
/// proxy (the copy engine completing bulk copies on them) and the
/// cluster's other blocks do with the barriers once a barrier has made
/// them visible: `fence.mbarrier_init.release.cluster` on sm_90, nothing
/// before (no bulk copies there).
#[inline(always)]
pub fn mbarrier_init_fence() {
    #[cfg(target_feature = "sm_90")]
    // SAFETY: a fence: no operands, no memory of its own.
    unsafe {
        asm!("fence.mbarrier_init.release.cluster;", options(nostack))
    };
}

/// `mbarrier.arrive.shared.b64`: one arrival (release); the token of its phase.
///
/// # Safety
/// `addr` must hold an initialised mbarrier whose current phase expects at
/// least one more arrival.
#[inline(always)]
pub unsafe fn mbarrier_arrive(addr: SharedAddr) -> u64 {
    let state: u64;
    // SAFETY: the caller's contract.
    unsafe {
        asm!("mbarrier.arrive.shared.b64 {0}, [{1}];", out(reg64) state, in(reg32) addr, options(nostack))
    };
    state
}

/// `mbarrier.arrive_drop.shared.b64`: one arrival, and one fewer expected
/// from the next phase on.
///
/// # Safety
/// As [`mbarrier_arrive`], and later phases must still expect at least one
/// arrival.
#[inline(always)]
pub unsafe fn mbarrier_arrive_drop(addr: SharedAddr) -> u64 {
    let state: u64;
    // SAFETY: the caller's contract.
    unsafe {
        asm!("mbarrier.arrive_drop.shared.b64 {0}, [{1}];", out(reg64) state, in(reg32) addr, options(nostack))
    };
    state
}

/// `mbarrier.test_wait.shared.b64`: whether the phase of `state` has
/// completed (acquire when it has). Never blocks.
///
/// # Safety
/// `addr` must hold an initialised mbarrier and `state` be a token of it
/// from its current or immediately preceding phase.
#[inline(always)]
pub unsafe fn mbarrier_test_wait(addr: SharedAddr, state: u64) -> bool {
    let done: u32;
    // SAFETY: the caller's contract.
    unsafe {
        asm!(
            "{{ .reg .pred p; mbarrier.test_wait.shared.b64 p, [{1}], {2}; selp.u32 {0}, 1, 0, p; }}",
            out(reg32) done, in(reg32) addr, in(reg64) state, options(nostack)
        )
    };
    done != 0
}

/// `mbarrier.test_wait.parity.shared.b64`: whether the phase of parity
/// `parity` has completed, i.e. the current phase's parity differs.
///
/// # Safety
/// `addr` must hold an initialised mbarrier.
#[inline(always)]
pub unsafe fn mbarrier_test_wait_parity(addr: SharedAddr, parity: u32) -> bool {
    let done: u32;
    // SAFETY: the caller's contract.
    unsafe {
        asm!(
            "{{ .reg .pred p; mbarrier.test_wait.parity.shared.b64 p, [{1}], {2}; selp.u32 {0}, 1, 0, p; }}",
            out(reg32) done, in(reg32) addr, in(reg32) parity, options(nostack)
        )
    };
    done != 0
}

/// `mbarrier.try_wait.shared::cta.b64` (sm_90): as [`mbarrier_test_wait`],
/// but the hardware may park the thread until the phase completes or a
/// time limit passes.
///
/// # Safety
/// As [`mbarrier_test_wait`].
#[cfg(target_feature = "sm_90")]
#[inline(always)]
pub unsafe fn mbarrier_try_wait(addr: SharedAddr, state: u64) -> bool {
    let done: u32;
    // SAFETY: the caller's contract.
    unsafe {
        asm!(
            "{{ .reg .pred p; mbarrier.try_wait.shared::cta.b64 p, [{1}], {2}; selp.u32 {0}, 1, 0, p; }}",
            out(reg32) done, in(reg32) addr, in(reg64) state, options(nostack)
        )
    };
    done != 0
}

/// `mbarrier.try_wait.parity.shared::cta.b64` (sm_90): as
/// [`mbarrier_test_wait_parity`], parking as [`mbarrier_try_wait`].
///
/// # Safety
/// As [`mbarrier_test_wait_parity`].
#[cfg(target_feature = "sm_90")]
#[inline(always)]
pub unsafe fn mbarrier_try_wait_parity(addr: SharedAddr, parity: u32) -> bool {
    let done: u32;
    // SAFETY: the caller's contract.
    unsafe {
        asm!(
            "{{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [{1}], {2}; selp.u32 {0}, 1, 0, p; }}",
            out(reg32) done, in(reg32) addr, in(reg32) parity, options(nostack)
        )
    };
    done != 0
}

/// Waits until the phase of `state` completes: a loop on `try_wait` on
/// sm_90, on `test_wait` before (as `cuda::barrier::wait`). The first try
/// stands before the loop, so that a phase already complete falls
/// through: as one loop, ptxas put its `YIELD` before every try, and a
/// 64-thread tile's sync took 498 cycles on the H200 instead of 286.
///
/// # Safety
/// As [`mbarrier_test_wait`].
#[inline(always)]
pub unsafe fn mbarrier_wait(addr: SharedAddr, state: u64) {
    #[cfg(target_feature = "sm_90")]
    // SAFETY: the caller's contract.
    if !unsafe { mbarrier_try_wait(addr, state) } {
        // SAFETY: as above.
        while !unsafe { mbarrier_try_wait(addr, state) } {}
    }
    #[cfg(not(target_feature = "sm_90"))]
    // SAFETY: the caller's contract.
    while !unsafe { mbarrier_test_wait(addr, state) } {}
}

/// Waits until the phase of parity `parity` completes: on sm_90 one
/// `try_wait.parity` loop written in PTX, the shape nvcc gives
/// `while (!mbarrier_try_wait_parity(…))` (ptxas: one `TRYWAIT` and a
/// branch to an out-of-line retry). The peeled Rust form of
/// [`mbarrier_wait`] cost one more `TRYWAIT` per wait here and was no
/// faster: the H200 A/B of run `2026-12-04-wait-loop-138d015` (`git show
/// f66ff74:docs/results/h200/runs/2026-12-04-wait-loop-138d015/README.md`;
/// tensor copies and folds within ±0.01; `cg-lab sync`'s parity-wait rows 6 %
/// faster at 128 and 256 threads, equal beyond).
///
/// # Safety
/// As [`mbarrier_test_wait_parity`].
#[inline(always)]
pub unsafe fn mbarrier_wait_parity(addr: SharedAddr, parity: u32) {
    #[cfg(target_feature = "sm_90")]
    // SAFETY: the caller's contract.
    unsafe {
        asm!(
            "{{ .reg .pred p; $Lwait: mbarrier.try_wait.parity.shared::cta.b64 p, [{0}], {1}; @!p bra $Lwait; }}",
            in(reg32) addr, in(reg32) parity, options(nostack)
        )
    };
    #[cfg(not(target_feature = "sm_90"))]
    // SAFETY: the caller's contract.
    while !unsafe { mbarrier_test_wait_parity(addr, parity) } {}
}

/// `mbarrier.arrive.shared::cta.b64 state, [addr], count` (sm_90): `count`
/// arrivals at once.
///
/// # Safety
/// As [`mbarrier_arrive`], with at least `count` arrivals still expected.
#[cfg(target_feature = "sm_90")]
#[inline(always)]
pub unsafe fn mbarrier_arrive_count(addr: SharedAddr, count: u32) -> u64 {
    let state: u64;
    // SAFETY: the caller's contract.
    unsafe {
        asm!(
            "mbarrier.arrive.shared::cta.b64 {0}, [{1}], {2};",
            out(reg64) state, in(reg32) addr, in(reg32) count, options(nostack)
        )
    };
    state
}

/// `mbarrier.arrive.expect_tx.shared::cta.b64` (sm_90): one arrival, and
/// `bytes` more transaction bytes that the phase waits for.
///
/// # Safety
/// As [`mbarrier_arrive`], and the phase's transaction count must stay
/// within `±(2^20 - 1)`.
#[cfg(target_feature = "sm_90")]
#[inline(always)]
pub unsafe fn mbarrier_arrive_expect_tx(addr: SharedAddr, bytes: u32) -> u64 {
    let state: u64;
    // SAFETY: the caller's contract.
    unsafe {
        asm!(
            "mbarrier.arrive.expect_tx.shared::cta.b64 {0}, [{1}], {2};",
            out(reg64) state, in(reg32) addr, in(reg32) bytes, options(nostack)
        )
    };
    state
}

/// `mbarrier.expect_tx.relaxed.cta.shared::cta.b64` (sm_90): the current
/// phase waits for `bytes` more transaction bytes.
///
/// # Safety
/// `addr` must hold an initialised mbarrier, and the phase's transaction
/// count must stay within `±(2^20 - 1)`.
#[cfg(target_feature = "sm_90")]
#[inline(always)]
pub unsafe fn mbarrier_expect_tx(addr: SharedAddr, bytes: u32) {
    // SAFETY: the caller's contract.
    unsafe {
        asm!(
            "mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [{0}], {1};",
            in(reg32) addr, in(reg32) bytes, options(nostack)
        )
    };
}

/// `mbarrier.complete_tx.relaxed.cta.shared::cta.b64` (sm_90): `bytes`
/// transaction bytes of the current phase are done (no release: what a
/// thread wrote is published by its arrival, not by this).
///
/// # Safety
/// As [`mbarrier_expect_tx`].
#[cfg(target_feature = "sm_90")]
#[inline(always)]
pub unsafe fn mbarrier_complete_tx(addr: SharedAddr, bytes: u32) {
    // SAFETY: the caller's contract.
    unsafe {
        asm!(
            "mbarrier.complete_tx.relaxed.cta.shared::cta.b64 [{0}], {1};",
            in(reg32) addr, in(reg32) bytes, options(nostack)
        )
    };
}

/// One arrival on the mbarrier at `bar` expecting `bytes` transaction
/// bytes (`mbarrier.arrive.expect_tx`), then a bulk copy of `bytes` from
/// global `src` to this block's shared `dst` that completes them on the
/// same barrier (`cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes`,
/// sm_90: the copy engine, no thread moves the data). The token of the
/// arrival's phase.
///
/// # Safety
/// `bar` must hold an initialised mbarrier whose phase expects this
/// arrival; `dst` must be a generic address of this block's shared memory
/// and `src` of global memory, both 16-byte aligned and valid for `bytes`,
/// a multiple of 16 in `16..2^20`; nothing may access `dst` until the
/// phase completes.
#[cfg(target_feature = "sm_90")]
#[inline(always)]
pub unsafe fn mbarrier_arrive_bulk_copy(
    bar: SharedAddr,
    dst: *mut u8,
    src: *const u8,
    bytes: u32,
) -> u64 {
    let state: u64;
    // SAFETY: the caller's contract.
    unsafe {
        asm!(
            "mbarrier.arrive.expect_tx.shared::cta.b64 {0}, [{1}], {4};",
            "{{ .reg .u64 d, s; .reg .u32 d32; cvta.to.shared.u64 d, {2}; cvt.u32.u64 d32, d; \
             cvta.to.global.u64 s, {3}; \
             cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [d32], [s], {4}, [{1}]; }}",
            out(reg64) state, in(reg32) bar, in(reg64) dst, in(reg64) src, in(reg32) bytes,
            options(nostack)
        )
    };
    state
}

/// The bulk copy of `bytes` from global `src` into `dst`'s offset in the
/// shared memory of every block of the cluster whose rank is in `mask`,
/// completing those bytes on the mbarrier at `bar`'s offset in each
/// (`cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.
/// multicast::cluster`, sm_90: one read of global memory, delivered to
/// every block of the mask). No arrival.
///
/// # Safety
/// Every block of `mask` is running and has an initialised mbarrier at
/// `bar`'s offset whose current phase expects these bytes, and nothing
/// of it accesses its copy of `dst` until that phase completes; `dst`
/// and `src` as for [`mbarrier_arrive_bulk_copy`].
#[cfg(target_feature = "sm_90")]
#[inline(always)]
pub unsafe fn bulk_copy_multicast(
    bar: SharedAddr,
    dst: *mut u8,
    src: *const u8,
    bytes: u32,
    mask: u16,
) {
    // SAFETY: the caller's contract.
    unsafe {
        asm!(
            "{{ .reg .u64 d, s; .reg .u32 d32; cvta.to.shared.u64 d, {1}; cvt.u32.u64 d32, d; \
             cvta.to.global.u64 s, {2}; \
             cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster \
             [d32], [s], {3}, [{0}], {4}; }}",
            in(reg32) bar, in(reg64) dst, in(reg64) src, in(reg32) bytes, in(reg16) mask,
            options(nostack)
        )
    };
}

/// One arrival on the mbarrier at `addr`'s offset in block `rank` of the
/// cluster (`mapa` + `mbarrier.arrive.release.cluster.shared::cluster`,
/// sm_90): releases this thread's writes, at cluster scope, to the threads
/// that wait on that barrier's phase. No token (a remote arrival returns
/// none).
///
/// # Safety
/// Block `rank` of the cluster has not exited and holds an initialised
/// mbarrier at `addr`'s offset.
#[cfg(target_feature = "sm_90")]
#[inline(always)]
pub unsafe fn mbarrier_arrive_remote(addr: SharedAddr, rank: u32) {
    // SAFETY: the caller's contract.
    unsafe {
        asm!(
            "{{ .reg .u32 r; mapa.shared::cluster.u32 r, {0}, {1}; \
             mbarrier.arrive.release.cluster.shared::cluster.b64 _, [r]; }}",
            in(reg32) addr, in(reg32) rank,
            options(nostack)
        )
    };
}
