//! Warp matrix multiply-accumulate: `mma.sync.aligned.m16n8k16` (sm_80 and
//! newer), one instruction per call, operands in the registers of the
//! fragment layouts the PTX ISA defines (`HMMA.16816.F32[.BF16]` in SASS).
//! Below sm_80 the instruction does not exist: a call traps.

#[cfg(target_feature = "sm_80")]
use core::arch::asm;

/// `d = a·b + c` on the calling warp: `mma.sync.aligned.m16n8k16.row.col
/// .f32.{bf16,f16}.{bf16,f16}.f32`, `a` 16 × 16 (row-major fragment, four
/// registers of two elements), `b` 16 × 8 (column fragment, two
/// registers), `c` and `d` 16 × 8 `f32` (four each).
#[inline(always)]
pub fn mma_m16n8k16_f32(bf16: bool, a: [u32; 4], b: [u32; 2], c: [f32; 4]) -> [f32; 4] {
    #[cfg(target_feature = "sm_80")]
    {
        let mut d = [0.0f32; 4];
        macro_rules! mma {
            ($insn:literal) => {
                // SAFETY: a warp-collective register operation; the caller
                // (`mma::mma`) guarantees that the 32 lanes of a full warp
                // execute it together (the group contract). No memory.
                unsafe {
                    asm!(
                        concat!($insn, " {{{0}, {1}, {2}, {3}}}, {{{4}, {5}, {6}, {7}}}, {{{8}, {9}}}, {{{10}, {11}, {12}, {13}}};"),
                        out(reg32) d[0], out(reg32) d[1], out(reg32) d[2], out(reg32) d[3],
                        in(reg32) a[0], in(reg32) a[1], in(reg32) a[2], in(reg32) a[3],
                        in(reg32) b[0], in(reg32) b[1],
                        in(reg32) c[0], in(reg32) c[1], in(reg32) c[2], in(reg32) c[3],
                        options(nomem, nostack),
                    )
                }
            };
        }
        if bf16 {
            mma!("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32");
        } else {
            mma!("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32");
        }
        d
    }
    #[cfg(not(target_feature = "sm_80"))]
    {
        let _ = (bf16, a, b, c);
        super::trap()
    }
}
