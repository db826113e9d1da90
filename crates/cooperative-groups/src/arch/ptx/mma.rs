//! Warp matrix multiply-accumulate: `mma.sync.aligned.m16n8k16` (16-bit
//! inputs, sm_80 and newer) and `m16n8k32` (8-bit inputs: `s8`/`u8` on
//! sm_80+, `e4m3`/`e5m2` on sm_89+ with PTX ISA 8.4, which cg-build
//! asks for there), one instruction per call, operands in
//! the registers of the fragment layouts the PTX ISA defines
//! (`HMMA.16816.F32[.BF16]`, `IMMA.16832.S8.S8`, `QMMA.16832.F32.E4M3…` in
//! SASS). Where the target lacks the instruction, a call traps.

#[cfg(target_feature = "sm_80")]
use core::arch::asm;

use super::super::mma_layout::MmaKind;

/// One `mma.sync.aligned` with four 32-bit results, A in four registers, B
/// in two, C in four.
#[cfg(target_feature = "sm_80")]
macro_rules! mma_asm {
    ($insn:literal, $d:ident, $a:ident, $b:ident, $c:ident) => {
        // SAFETY: a warp-collective register operation; the caller
        // (`mma::mma`) guarantees that the 32 lanes of a full warp execute
        // it together (the group contract). No memory.
        unsafe {
            asm!(
                concat!($insn, " {{{0}, {1}, {2}, {3}}}, {{{4}, {5}, {6}, {7}}}, {{{8}, {9}}}, {{{10}, {11}, {12}, {13}}};"),
                out(reg32) $d[0], out(reg32) $d[1], out(reg32) $d[2], out(reg32) $d[3],
                in(reg32) $a[0], in(reg32) $a[1], in(reg32) $a[2], in(reg32) $a[3],
                in(reg32) $b[0], in(reg32) $b[1],
                in(reg32) $c[0], in(reg32) $c[1], in(reg32) $c[2], in(reg32) $c[3],
                options(nomem, nostack),
            )
        }
    };
}

/// `d = a·b + c` on the calling warp with `f32` accumulators:
/// `mma.sync.aligned.m16n8k16.row.col.f32.{f16,bf16}…f32` or
/// `m16n8k32.row.col.f32.{e4m3,e5m2}…f32` (`kind`: not an integer kind).
#[inline(always)]
pub fn mma_m16n8_f32(kind: MmaKind, a: [u32; 4], b: [u32; 2], c: [f32; 4]) -> [f32; 4] {
    #[cfg(target_feature = "sm_80")]
    {
        let mut d = [0.0f32; 4];
        match kind {
            MmaKind::Bf16 => mma_asm!(
                "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32",
                d,
                a,
                b,
                c
            ),
            MmaKind::F16 => mma_asm!(
                "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32",
                d,
                a,
                b,
                c
            ),
            #[cfg(all(target_feature = "sm_89", target_feature = "ptx84"))]
            MmaKind::E4m3 => mma_asm!(
                "mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32",
                d,
                a,
                b,
                c
            ),
            #[cfg(all(target_feature = "sm_89", target_feature = "ptx84"))]
            MmaKind::E5m2 => mma_asm!(
                "mma.sync.aligned.m16n8k32.row.col.f32.e5m2.e5m2.f32",
                d,
                a,
                b,
                c
            ),
            _ => super::trap(),
        }
        d
    }
    #[cfg(not(target_feature = "sm_80"))]
    {
        let _ = (kind, a, b, c);
        super::trap()
    }
}

/// `d = a·b + c` on the calling warp with `s32` accumulators:
/// `mma.sync.aligned.m16n8k32.row.col.s32.{s8,u8}…s32` (no `.satfinite`:
/// the sum wraps modulo 2^32).
#[inline(always)]
pub fn mma_m16n8k32_s32(kind: MmaKind, a: [u32; 4], b: [u32; 2], c: [i32; 4]) -> [i32; 4] {
    #[cfg(target_feature = "sm_80")]
    {
        let mut d = [0i32; 4];
        match kind {
            MmaKind::S8 => mma_asm!(
                "mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32",
                d,
                a,
                b,
                c
            ),
            MmaKind::U8 => mma_asm!(
                "mma.sync.aligned.m16n8k32.row.col.s32.u8.u8.s32",
                d,
                a,
                b,
                c
            ),
            _ => super::trap(),
        }
        d
    }
    #[cfg(not(target_feature = "sm_80"))]
    {
        let _ = (kind, a, b, c);
        super::trap()
    }
}

/// `ldmatrix.sync.aligned.m8n8.x4.shared.b16`: four 8 × 8 matrices of
/// 16-bit elements from shared memory, each lane `8j + r` giving the
/// address of row `r` of matrix `j`; register `j` of lane `l` gets row `l /
/// 4`, columns `2(l mod 4)` and `+1` of matrix `j` (`LDSM.16.M88.4`).
///
/// # Safety
/// `row` is an address in this block's `.shared` window, 16-byte aligned,
/// valid for 16 bytes of reads; all 32 lanes of the warp call it together.
#[inline(always)]
pub unsafe fn ldmatrix_x4(row: super::SharedAddr) -> [u32; 4] {
    #[cfg(target_feature = "sm_80")]
    {
        let (r0, r1, r2, r3): (u32, u32, u32, u32);
        // SAFETY: the caller's contract; reads shared memory only.
        unsafe {
            asm!(
                "ldmatrix.sync.aligned.m8n8.x4.shared.b16 {{{0}, {1}, {2}, {3}}}, [{4}];",
                out(reg32) r0, out(reg32) r1, out(reg32) r2, out(reg32) r3,
                in(reg32) row,
                options(readonly, nostack),
            )
        };
        [r0, r1, r2, r3]
    }
    #[cfg(not(target_feature = "sm_80"))]
    {
        let _ = row;
        super::trap()
    }
}

/// `ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16`: two 8 × 8 matrices,
/// transposed: lanes `0..16` give the row addresses (lane `8j + r`: row
/// `r` of matrix `j`); register `j` of lane `l` gets rows `2(l mod 4)` and
/// `+1`, column `l / 4` of matrix `j` (`LDSM.16.MT88.2`).
///
/// # Safety
/// As [`ldmatrix_x4`] (lanes `16..32` pass an address too, unused).
#[inline(always)]
pub unsafe fn ldmatrix_x2_trans(row: super::SharedAddr) -> [u32; 2] {
    #[cfg(target_feature = "sm_80")]
    {
        let (r0, r1): (u32, u32);
        // SAFETY: the caller's contract; reads shared memory only.
        unsafe {
            asm!(
                "ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {{{0}, {1}}}, [{2}];",
                out(reg32) r0, out(reg32) r1,
                in(reg32) row,
                options(readonly, nostack),
            )
        };
        [r0, r1]
    }
    #[cfg(not(target_feature = "sm_80"))]
    {
        let _ = row;
        super::trap()
    }
}
