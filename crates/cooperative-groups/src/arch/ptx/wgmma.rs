//! Warpgroup matrix multiply-accumulate (`wgmma`, sm_90a): the fence,
//! the asynchronous multiply of two shared-memory operands into registers,
//! and the commit and wait of its groups. Only the arch-specific target
//! `sm_90a` has these instructions (cg-build's `arch_specific`); elsewhere
//! a call traps.

#[cfg(target_feature = "sm_90")]
use core::arch::asm;

use super::super::SmemDesc;
use super::super::mma_layout::MmaKind;
#[cfg(target_feature = "sm_90a")]
use super::super::wgmma_layout::desc;

/// `wgmma.fence.sync.aligned`: the accumulator registers written by other
/// instructions are visible to the next `wgmma.mma_async`.
#[inline(always)]
pub fn wgmma_fence() {
    #[cfg(target_feature = "sm_90a")]
    // SAFETY: a warpgroup-collective ordering instruction, no operands.
    unsafe {
        asm!("wgmma.fence.sync.aligned;", options(nostack))
    };
    #[cfg(not(target_feature = "sm_90a"))]
    super::trap()
}

/// `fence.proxy.async.shared::cta` (sm_90 and newer; elsewhere nothing,
/// since there is no `wgmma` to read through the async proxy): this
/// thread's shared-memory stores become visible to the tensor core's
/// operand reads after a barrier.
#[inline(always)]
pub fn wgmma_operand_fence() {
    #[cfg(target_feature = "sm_90")]
    // SAFETY: a fence: no operands, no memory of its own.
    unsafe {
        asm!("fence.proxy.async.shared::cta;", options(nostack))
    };
}

/// `wgmma.commit_group.sync.aligned`: the multiplies issued since the last
/// commit form one group.
#[inline(always)]
pub fn wgmma_commit() {
    #[cfg(target_feature = "sm_90a")]
    // SAFETY: as `wgmma_fence`.
    unsafe {
        asm!("wgmma.commit_group.sync.aligned;", options(nostack))
    };
    #[cfg(not(target_feature = "sm_90a"))]
    super::trap()
}

/// `wgmma.wait_group.sync.aligned N`: at most `N` groups are still in
/// flight. With `N` = 0 the accumulator `d` is then pinned ([`pin`]), so
/// that no read of it is scheduled before the wait; with `N` > 0 it is
/// still the tensor core's, and an instruction defining its registers
/// would serialize the pipeline.
#[inline(always)]
pub fn wgmma_wait<const N: u32, const R: usize>(d: &mut [f32; R]) {
    #[cfg(target_feature = "sm_90a")]
    {
        // SAFETY: as `wgmma_fence`.
        unsafe {
            asm!("wgmma.wait_group.sync.aligned {n};", n = const N, options(nostack));
        }
        if N == 0 {
            pin(d);
        }
    }
    #[cfg(not(target_feature = "sm_90a"))]
    {
        let _ = d;
        super::trap()
    }
}

/// `wgmma.fence` for the accumulator `d`: `d` is pinned first, so that
/// its last writes (a zeroing, an epilogue's) are ordered before the
/// fence rather than sunk after it, next to their first `wgmma` — which
/// ptxas would have to serialize.
#[inline(always)]
pub fn wgmma_fence_for<const R: usize>(d: &mut [f32; R]) {
    #[cfg(target_feature = "sm_90a")]
    pin(d);
    #[cfg(not(target_feature = "sm_90a"))]
    let _ = d;
    wgmma_fence()
}

/// Every register of `d` through an empty `asm` (CUTLASS's
/// `warpgroup_fence_operand`): the compiler keeps each value where this
/// point of the program has it. Written out (at most 128 registers, each
/// a constant index): a rolled loop would put the accumulator in local
/// memory.
#[cfg(target_feature = "sm_90a")]
#[inline(always)]
fn pin<const R: usize>(d: &mut [f32; R]) {
    crate::unroll!(j in 0..32 => {
        crate::unroll!(q in 0..4 => {
            let i = 4 * j + q;
            if i < R {
                // SAFETY: no instruction; the register stays as it is.
                unsafe { asm!("// {0}", inout(reg32) d[i], options(nomem, nostack)) };
            }
        });
    });
}

/// One `wgmma.mma_async` with a predicate that keeps the accumulator
/// (`scale-d` = 1), unnegated inputs and, for the 16-bit kinds, K-major
/// operands (`imm-trans` = 0).
#[cfg(target_feature = "sm_90a")]
macro_rules! wgmma_asm {
    ($insn:expr, $tail:literal, $d:ident, $a:ident, $b:ident, [$first:literal $(, $i:literal)*]) => {
        // SAFETY: the caller's contract (`wgmma_f32`).
        unsafe {
            asm!(
                concat!(
                    "{{ .reg .pred p; setp.ne.b32 p, {one}, 0; ", $insn, " {{{", $first, "}",
                    $(", {", $i, "}",)*
                    "}}, {a}, {b}, p, 1, 1", $tail, "; }}"
                ),
                inout(reg32) $d[$first],
                $(inout(reg32) $d[$i],)*
                a = in(reg64) $a,
                b = in(reg64) $b,
                one = in(reg32) 1u32,
                options(nostack),
            )
        }
    };
}

/// [`wgmma_asm`] for the kind of the inputs: `k16` for the 16-bit floats,
/// `k32` for the 8-bit ones.
#[cfg(target_feature = "sm_90a")]
macro_rules! wgmma_kinds {
    ($kind:ident, $k16:literal, $k32:literal, $d:ident, $a:ident, $b:ident, [$($i:literal),*]) => {
        match $kind {
            MmaKind::Bf16 => wgmma_asm!(
                concat!("wgmma.mma_async.sync.aligned.", $k16, ".f32.bf16.bf16"), ", 0, 0", $d, $a, $b, [$($i),*]
            ),
            MmaKind::F16 => wgmma_asm!(
                concat!("wgmma.mma_async.sync.aligned.", $k16, ".f32.f16.f16"), ", 0, 0", $d, $a, $b, [$($i),*]
            ),
            MmaKind::E4m3 => wgmma_asm!(
                concat!("wgmma.mma_async.sync.aligned.", $k32, ".f32.e4m3.e4m3"), "", $d, $a, $b, [$($i),*]
            ),
            MmaKind::E5m2 => wgmma_asm!(
                concat!("wgmma.mma_async.sync.aligned.", $k32, ".f32.e5m2.e5m2"), "", $d, $a, $b, [$($i),*]
            ),
            _ => super::trap(),
        }
    };
}

/// `d += a · bᵀ` on the calling warpgroup, asynchronously:
/// `wgmma.mma_async.sync.aligned.m64nNk{16,32}.f32.<kind>` with `N = 2R`
/// (8, 16, 32, 64, 128 or 256; others trap), `a` the 64 × K and `b` the
/// N × K operand, both K-major in shared memory.
///
/// # Safety
/// All 128 threads of an aligned warpgroup call it together, after a
/// `wgmma_fence` since `d` was last written otherwise; the operands'
/// shared memory stays unwritten and `d` unread until a `wgmma_wait` that
/// covers this multiply's group.
#[inline(always)]
pub unsafe fn wgmma_f32<const R: usize>(
    kind: MmaKind,
    d: &mut [f32; R],
    a: SmemDesc,
    b: SmemDesc,
    thread: u32,
) {
    let _ = thread;
    #[cfg(target_feature = "sm_90a")]
    {
        let (a, b) = (desc(a.start, a.layout), desc(b.start, b.layout));
        match R {
            4 => {
                let d: &mut [f32; 4] = (&mut d[..]).try_into().unwrap();
                wgmma_kinds!(kind, "m64n8k16", "m64n8k32", d, a, b, [0, 1, 2, 3])
            }
            8 => {
                let d: &mut [f32; 8] = (&mut d[..]).try_into().unwrap();
                wgmma_kinds!(
                    kind,
                    "m64n16k16",
                    "m64n16k32",
                    d,
                    a,
                    b,
                    [0, 1, 2, 3, 4, 5, 6, 7]
                )
            }
            16 => {
                let d: &mut [f32; 16] = (&mut d[..]).try_into().unwrap();
                wgmma_kinds!(
                    kind,
                    "m64n32k16",
                    "m64n32k32",
                    d,
                    a,
                    b,
                    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]
                )
            }
            32 => {
                let d: &mut [f32; 32] = (&mut d[..]).try_into().unwrap();
                wgmma_kinds!(
                    kind,
                    "m64n64k16",
                    "m64n64k32",
                    d,
                    a,
                    b,
                    [
                        0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20,
                        21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31
                    ]
                )
            }
            64 => {
                let d: &mut [f32; 64] = (&mut d[..]).try_into().unwrap();
                wgmma_kinds!(
                    kind,
                    "m64n128k16",
                    "m64n128k32",
                    d,
                    a,
                    b,
                    [
                        0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20,
                        21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39,
                        40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58,
                        59, 60, 61, 62, 63
                    ]
                )
            }
            128 => {
                let d: &mut [f32; 128] = (&mut d[..]).try_into().unwrap();
                wgmma_kinds!(
                    kind,
                    "m64n256k16",
                    "m64n256k32",
                    d,
                    a,
                    b,
                    [
                        0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20,
                        21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39,
                        40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58,
                        59, 60, 61, 62, 63, 64, 65, 66, 67, 68, 69, 70, 71, 72, 73, 74, 75, 76, 77,
                        78, 79, 80, 81, 82, 83, 84, 85, 86, 87, 88, 89, 90, 91, 92, 93, 94, 95, 96,
                        97, 98, 99, 100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111,
                        112, 113, 114, 115, 116, 117, 118, 119, 120, 121, 122, 123, 124, 125, 126,
                        127
                    ]
                )
            }
            _ => super::trap(),
        }
    }
    #[cfg(not(target_feature = "sm_90a"))]
    {
        let _ = (kind, d, a, b);
        super::trap()
    }
}
