//! The fragment layouts of `mma.m16n8k16` with 16-bit inputs and `f32`
//! accumulators, as the PTX ISA defines them ("Matrix Fragments for
//! `mma.m16n8k16`"): which element of which matrix a lane's register
//! holds. Both backends use them (the simulator to assemble the matrices,
//! the fragments to load and store), so there is one definition.

/// Element `i` (`0..8`) of a lane's A fragment: `(row, col)` of the 16 × 16
/// matrix, for lane `(g, t) = (lane / 4, lane % 4)`.
pub const fn mma_a_coord(lane: u32, i: usize) -> (usize, usize) {
    let (g, t) = ((lane / 4) as usize, (lane % 4) as usize);
    let row = if i % 4 < 2 { g } else { g + 8 };
    let col = 2 * t + (i & 1) + if i < 4 { 0 } else { 8 };
    (row, col)
}

/// Element `i` (`0..4`) of a lane's B fragment: `(k, n)` of the 16 × 8
/// matrix.
pub const fn mma_b_coord(lane: u32, i: usize) -> (usize, usize) {
    let (g, t) = ((lane / 4) as usize, (lane % 4) as usize);
    (2 * t + (i & 1) + if i < 2 { 0 } else { 8 }, g)
}

/// Element `i` (`0..4`) of a lane's accumulator: `(row, col)` of the 16 × 8
/// matrix.
pub const fn mma_c_coord(lane: u32, i: usize) -> (usize, usize) {
    let (g, t) = ((lane / 4) as usize, (lane % 4) as usize);
    (if i < 2 { g } else { g + 8 }, 2 * t + (i & 1))
}
