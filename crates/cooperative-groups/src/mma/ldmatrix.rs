//! The 16-bit operands from shared memory: `ldmatrix`, checked once.

use crate::arch;
use crate::group::ThreadBlockTile;
use crate::{Pod, SharedSlice};

use super::element::Mma16;
use super::fragment::{MatrixA, MatrixB, lane};

/// The `.shared` address of element `(row0, col0)` of a row-major matrix
/// of 16-bit elements with rows `ld` apart in `src`, after checking that its `rows ×
/// cols` block lies inside `src` and that every row of the block starts at
/// a 16-byte boundary (`ldmatrix` reads 16-byte rows): a `trap` on the GPU
/// and a report on the simulator otherwise. `None` for a thread the
/// simulator is unwinding.
#[inline(always)]
#[track_caller]
fn shared_block<T: Pod>(
    src: &SharedSlice<T>,
    (row0, col0): (usize, usize),
    ld: usize,
    (rows, cols): (usize, usize),
) -> Option<arch::SharedAddr> {
    let end = row0
        .checked_add(rows - 1)
        .and_then(|r| r.checked_mul(ld))
        .and_then(|r| r.checked_add(col0))
        .and_then(|r| r.checked_add(cols));
    if col0.saturating_add(cols) > ld || end.is_none_or(|e| e > src.len()) {
        arch::violation!(
            "ldmatrix of a {rows} × {cols} block at ({row0}, {col0}) with rows {ld} elements apart: outside the shared slice of {} elements",
            src.len()
        );
    }
    let offset = row0 * ld + col0;
    let base = src.as_ptr().wrapping_add(offset);
    if !(base as usize).is_multiple_of(16) || !(ld * 2).is_multiple_of(16) {
        arch::violation!(
            "ldmatrix rows must start at 16-byte boundaries: the block at ({row0}, {col0}) with rows {ld} elements apart does not"
        );
    }
    arch::sim_only! {
        if !src.own("an ldmatrix source") {
            return None;
        }
    }
    // (In bounds, so the byte offset is inside the 32-bit window.)
    Some(arch::shared_add(src.addr(), (2 * offset) as u32))
}

impl<T: Mma16 + Pod> MatrixA<T> {
    /// The 16 × 16 block at `(row0, col0)` of a row-major matrix in shared
    /// memory whose rows are `ld` elements apart: one
    /// `ldmatrix.sync.aligned.m8n8.x4` (`LDSM.16.M88.4`) for the warp. The
    /// block must lie inside `src` and each of its rows start at a 16-byte
    /// boundary (`ld` a multiple of 8, `col0` too, `src` aligned): checked
    /// once, a `trap` on the GPU and a report on the simulator otherwise.
    #[doc(alias = "ldmatrix")]
    #[doc(alias = "wmma::load_matrix_sync")]
    #[inline(always)]
    #[track_caller]
    pub fn load_shared(
        warp: &ThreadBlockTile<32>,
        src: &SharedSlice<T>,
        row0: usize,
        col0: usize,
        ld: usize,
    ) -> Self {
        let Some(base) = shared_block(src, (row0, col0), ld, (16, 16)) else {
            return MatrixA::from_regs([0; 4]);
        };
        // Lane `8j + r` gives row `r` of matrix `j`: matrices 0..4 are the
        // block's quarters (rows 0–7 / 8–15) × (columns 0–7 / 8–15), in the
        // order of the A fragment's registers.
        let l = lane(warp) as usize;
        let (j, r) = (l / 8, l % 8);
        let row = arch::shared_add(base, (2 * ((r + 8 * (j % 2)) * ld + 8 * (j / 2))) as u32);
        // SAFETY: `row` is a 16-byte aligned row of the checked block in
        // this block's shared memory; the whole warp calls (`mma`'s
        // contract, and the simulator checks it).
        MatrixA::from_regs(unsafe { arch::ldmatrix_x4(row) })
    }
}

impl<T: Mma16 + Pod> MatrixB<T> {
    /// The 16 × 8 block at `(k0, n0)` of a row-major `k × n` matrix in
    /// shared memory whose rows are `ld` elements apart: one
    /// `ldmatrix.sync.aligned.m8n8.x2.trans` (`LDSM.16.MT88.2`) for the
    /// warp, checked as [`MatrixA::load_shared`].
    #[doc(alias = "ldmatrix")]
    #[inline(always)]
    #[track_caller]
    pub fn load_shared(
        warp: &ThreadBlockTile<32>,
        src: &SharedSlice<T>,
        k0: usize,
        n0: usize,
        ld: usize,
    ) -> Self {
        let Some(base) = shared_block(src, (k0, n0), ld, (16, 8)) else {
            return MatrixB::from_regs([0; 2]);
        };
        // Lane `8j + r` (`j < 2`) gives row `k = 8j + r`; lanes 16..32
        // repeat lanes 0..16's addresses (unused).
        let k = lane(warp) as usize % 16;
        let row = arch::shared_add(base, (2 * k * ld) as u32);
        // SAFETY: as in `MatrixA::load_shared`.
        MatrixB::from_regs(unsafe { arch::ldmatrix_x2_trans(row) })
    }
}
