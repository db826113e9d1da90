//! The warpgroup MMA's layouts, as the PTX ISA defines them ("Asynchronous
//! Warpgroup Level Matrix Shared Memory Layout" and "… Register
//! Fragments"): the shared-memory matrix descriptor's bits, the element a
//! descriptor names, and which accumulator element a thread's register
//! holds. Both backends use them (the GPU to build descriptors, the
//! simulator to read the operands through them), so there is one
//! definition.
//!
//! Only K-major operands in the copy engine's swizzled layouts are
//! described: rows of `S` bytes (32, 64 or 128, the swizzle's width) along
//! K, eight rows to a swizzle atom of `8 · S` bytes, atoms stacked along M
//! (or N) — exactly what a tensor-map tile of a `S`-byte-wide box holds.

use cg_isa::Swizzle;

use super::mma_layout::mma_c_coord;

/// The descriptor's fixed bits for a K-major operand in `swizzle`'s layout
/// (everything but the start address): the swizzle mode (bits 62–63: 1 =
/// 128 B, 2 = 64 B, 3 = 32 B), the stride between 8-row atoms along M/N
/// (bits 32–45, in 16-byte units: `8 · S` bytes) and the leading offset
/// (bits 16–29; unused by swizzled K-major layouts, 1 by convention).
/// `swizzle` must not be [`Swizzle::None`].
pub const fn desc_layout(swizzle: Swizzle) -> u64 {
    let mode: u64 = match swizzle {
        Swizzle::B128 => 1,
        Swizzle::B64 => 2,
        Swizzle::B32 => 3,
        Swizzle::None => 0,
    };
    let stride = (8 * swizzle.bytes() as u64) >> 4;
    (mode << 62) | (stride << 32) | (1 << 16)
}

/// The descriptor of a matrix starting at `.shared` address `start`:
/// `layout` with the start address's bits 4–17 in bits 0–13 (the GPU's;
/// the simulator reads through the start and the layout as they are).
#[cfg_attr(not(target_arch = "nvptx64"), allow(dead_code))]
#[inline(always)]
pub const fn desc(start: u32, layout: u64) -> u64 {
    layout | ((start as u64 >> 4) & 0x3fff)
}

/// The swizzle a descriptor's layout names.
pub const fn desc_swizzle(layout: u64) -> Swizzle {
    match layout >> 62 {
        1 => Swizzle::B128,
        2 => Swizzle::B64,
        3 => Swizzle::B32,
        _ => Swizzle::None,
    }
}

/// Where element `(row, k)` of a K-major operand lies, in bytes from its
/// start address before the swizzle: row `row` (of M or N), element `k`
/// along K of `elem` bytes each.
#[inline(always)]
pub const fn desc_offset(layout: u64, row: usize, k: usize, elem: usize) -> usize {
    let s = desc_swizzle(layout).bytes();
    let stride = (((layout >> 32) & 0x3fff) as usize) << 4;
    (row / 8) * stride + (row % 8) * s + k * elem
}

/// Element `i` of thread `t`'s (`t < 128`) accumulator of an `m64nN`
/// warpgroup MMA: `(row, col)` of the 64 × N matrix. Warp `t / 32` holds
/// rows `16w..16w + 16`, in the 16 × 8 accumulator layout of the warp MMA
/// repeated over the N / 8 column blocks (registers `4j..4j + 4`: block
/// `j`).
#[inline(always)]
pub const fn wgmma_d_coord(t: u32, i: usize) -> (usize, usize) {
    let (row, col) = mma_c_coord(t % 32, i % 4);
    (16 * (t / 32) as usize + row, 8 * (i / 4) + col)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn descriptors_carry_start_stride_and_mode() {
        // 128-byte swizzle: atoms of 1024 bytes (64 units), mode 1.
        let l = desc_layout(Swizzle::B128);
        assert_eq!(l, (1 << 62) | (64 << 32) | (1 << 16));
        assert_eq!(desc(0x400 + 32, l) & 0x3fff, (0x400 + 32) >> 4);
        assert_eq!(desc_layout(Swizzle::B32) >> 62, 3);
        assert_eq!(desc_swizzle(desc_layout(Swizzle::B64)), Swizzle::B64);
        // Row 9, element 5 of 2 bytes: second atom, second row.
        assert_eq!(desc_offset(l, 9, 5, 2), 1024 + 128 + 10);
    }

    #[test]
    fn every_accumulator_element_has_one_owner() {
        let mut seen = [[0u8; 256]; 64];
        for t in 0..128 {
            for i in 0..128 {
                let (r, c) = wgmma_d_coord(t, i);
                seen[r][c] += 1;
            }
        }
        assert!(seen.iter().flatten().all(|&n| n == 1));
    }
}
