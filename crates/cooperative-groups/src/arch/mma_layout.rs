//! The fragment layouts of `mma.m16n8k16` (16-bit inputs) and
//! `mma.m16n8k32` (8-bit inputs) with 32-bit accumulators, as the PTX ISA
//! defines them ("Matrix Fragments for `mma.m16n8k16`" and "… `k32`"):
//! which element of which matrix a lane's register holds. Both backends use
//! them (the simulator to assemble the matrices, the fragments to load and
//! store), so there is one definition.
//!
//! With `e` elements per 32-bit register (2 for 16-bit types, 4 for 8-bit)
//! and lane `(g, t) = (lane / 4, lane % 4)`, the two shapes are one
//! formula: A is 16 × 8e, B is 8e × 8, the accumulator 16 × 8.

/// Which multiply the warp runs: the inputs' type, and so the shape
/// (`k16` for the 16-bit types, `k32` for the 8-bit ones) and the
/// accumulator (`f32`, or `s32` for the integer types).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MmaKind {
    /// `f16` inputs, `m16n8k16`, `f32` accumulators.
    F16,
    /// `bf16` inputs, `m16n8k16`, `f32` accumulators.
    Bf16,
    /// `e4m3` inputs, `m16n8k32`, `f32` accumulators (sm_89+).
    E4m3,
    /// `e5m2` inputs, `m16n8k32`, `f32` accumulators (sm_89+).
    E5m2,
    /// `s8` inputs, `m16n8k32`, `s32` accumulators.
    S8,
    /// `u8` inputs, `m16n8k32`, `s32` accumulators.
    U8,
}

impl MmaKind {
    /// Elements per 32-bit register: 2 (16-bit types) or 4 (8-bit).
    pub const fn per_reg(self) -> usize {
        match self {
            MmaKind::F16 | MmaKind::Bf16 => 2,
            _ => 4,
        }
    }
}

/// Element `i` (`0..4e`) of a lane's A fragment: `(row, col)` of the 16 ×
/// 8e matrix.
pub const fn mma_a_coord(lane: u32, i: usize, e: usize) -> (usize, usize) {
    let (g, t) = ((lane / 4) as usize, (lane % 4) as usize);
    let row = if i % (2 * e) < e { g } else { g + 8 };
    let col = e * t + i % e + if i < 2 * e { 0 } else { 4 * e };
    (row, col)
}

/// Element `i` (`0..2e`) of a lane's B fragment: `(k, n)` of the 8e × 8
/// matrix.
pub const fn mma_b_coord(lane: u32, i: usize, e: usize) -> (usize, usize) {
    let (g, t) = ((lane / 4) as usize, (lane % 4) as usize);
    (e * t + i % e + if i < e { 0 } else { 4 * e }, g)
}

/// Element `i` (`0..4`) of a lane's accumulator: `(row, col)` of the 16 × 8
/// matrix.
pub const fn mma_c_coord(lane: u32, i: usize) -> (usize, usize) {
    let (g, t) = ((lane / 4) as usize, (lane % 4) as usize);
    (if i < 2 { g } else { g + 8 }, 2 * t + (i & 1))
}
