//! The fragments: a lane's registers of A, B and the accumulator, built
//! from and read back as `(row, col)` — the PTX layout stays inside.

use core::marker::PhantomData;

use crate::Pod;
use crate::arch::mma_layout::{mma_a_coord, mma_b_coord, mma_c_coord};
use crate::global::WarpTile;
use crate::group::ThreadBlockTile;

use super::element::{MmaAcc, MmaElement};

/// The calling lane's index in its warp, for a full warp.
#[inline(always)]
pub(super) fn lane(warp: &ThreadBlockTile<32>) -> u32 {
    warp.thread_rank()
}

/// A lane's part of the operand `A`: 16 rows of `K` elements of `T`
/// (row-major; `K` = 16 for 16-bit `T`, 32 for 8-bit), in four registers.
pub struct MatrixA<T: MmaElement> {
    regs: [u32; 4],
    _p: PhantomData<(T, *const ())>,
}

/// A lane's part of the operand `B`: `K` rows (`k`) of 8 columns (`n`), in
/// two registers.
pub struct MatrixB<T: MmaElement> {
    regs: [u32; 2],
    _p: PhantomData<(T, *const ())>,
}

/// A lane's part of a 16 × 8 accumulator (`c`, and the result `d`) of
/// `C` (`f32`, or `i32` for integer inputs): four elements.
pub struct Accumulator<C: MmaAcc = f32> {
    d: [C; 4],
    _p: PhantomData<*const ()>,
}

impl<T: MmaElement> core::fmt::Debug for MatrixA<T> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("MatrixA").field("regs", &self.regs).finish()
    }
}
impl<T: MmaElement> core::fmt::Debug for MatrixB<T> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("MatrixB").field("regs", &self.regs).finish()
    }
}
impl<C: MmaAcc + core::fmt::Debug> core::fmt::Debug for Accumulator<C> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Accumulator").field("d", &self.d).finish()
    }
}

/// Registers packed from the elements `f(i)`, `e` per register, element 0
/// in the low bits.
#[inline(always)]
fn pack<const R: usize>(e: usize, mut f: impl FnMut(usize) -> u32) -> [u32; R] {
    let bits = 32 / e;
    let mut regs = [0u32; R];
    crate::unroll!(i in 0..32 => {
        if i < R * e {
            regs[i / e] |= f(i) << (bits * (i % e));
        }
    });
    regs
}

impl<T: MmaElement> MatrixA<T> {
    /// Columns of A: 16 for 16-bit inputs, 32 for 8-bit.
    pub const K: usize = 8 * T::KIND.per_reg();

    /// The fragment whose element `(row, col)` is `f(row, col)`: each lane
    /// calls `f` for its elements (`row < 16`, `col < K`).
    #[inline(always)]
    pub fn from_fn(warp: &ThreadBlockTile<32>, mut f: impl FnMut(usize, usize) -> T) -> Self {
        let (lane, e) = (lane(warp), T::KIND.per_reg());
        MatrixA {
            regs: pack(e, |i| {
                let (row, col) = mma_a_coord(lane, i, e);
                f(row, col).bits()
            }),
            _p: PhantomData,
        }
    }

    /// The `(row, col)` of the calling lane's elements, in register order.
    #[inline(always)]
    pub fn coords(warp: &ThreadBlockTile<32>) -> impl Iterator<Item = (usize, usize)> {
        let (lane, e) = (lane(warp), T::KIND.per_reg());
        (0..4 * e).map(move |i| mma_a_coord(lane, i, e))
    }

    /// The registers, for `mma` and `ldmatrix`.
    #[inline(always)]
    pub(super) fn regs(&self) -> [u32; 4] {
        self.regs
    }

    /// The fragment of these registers.
    #[inline(always)]
    pub(super) fn from_regs(regs: [u32; 4]) -> Self {
        MatrixA {
            regs,
            _p: PhantomData,
        }
    }
}

impl<T: MmaElement> MatrixB<T> {
    /// Rows of B: 16 for 16-bit inputs, 32 for 8-bit.
    pub const K: usize = 8 * T::KIND.per_reg();

    /// The fragment whose element `(k, n)` is `f(k, n)`: each lane calls
    /// `f` for its elements (`k < K`, `n < 8`).
    #[inline(always)]
    pub fn from_fn(warp: &ThreadBlockTile<32>, mut f: impl FnMut(usize, usize) -> T) -> Self {
        let (lane, e) = (lane(warp), T::KIND.per_reg());
        MatrixB {
            regs: pack(e, |i| {
                let (k, n) = mma_b_coord(lane, i, e);
                f(k, n).bits()
            }),
            _p: PhantomData,
        }
    }

    /// The `(k, n)` of the calling lane's elements, in register order.
    #[inline(always)]
    pub fn coords(warp: &ThreadBlockTile<32>) -> impl Iterator<Item = (usize, usize)> {
        let (lane, e) = (lane(warp), T::KIND.per_reg());
        (0..2 * e).map(move |i| mma_b_coord(lane, i, e))
    }

    /// The registers, for `mma`.
    #[inline(always)]
    pub(super) fn regs(&self) -> [u32; 2] {
        self.regs
    }

    /// The fragment of these registers.
    #[inline(always)]
    pub(super) fn from_regs(regs: [u32; 2]) -> Self {
        MatrixB {
            regs,
            _p: PhantomData,
        }
    }
}

impl<C: MmaAcc> Accumulator<C> {
    /// All zeros.
    #[inline(always)]
    pub fn zero(warp: &ThreadBlockTile<32>) -> Self {
        let _ = warp;
        Self::from_array([C::default(); 4])
    }

    /// The accumulator whose element `(row, col)` is `f(row, col)` (`row <
    /// 16`, `col < 8`; each lane calls `f` for its four).
    #[inline(always)]
    pub fn from_fn(warp: &ThreadBlockTile<32>, mut f: impl FnMut(usize, usize) -> C) -> Self {
        let lane = lane(warp);
        Self::from_array(core::array::from_fn(|i| {
            let (row, col) = mma_c_coord(lane, i);
            f(row, col)
        }))
    }

    /// The calling lane's elements as `(row, col, value)`: the epilogue's
    /// view (bias, activation, conversion), with no layout to compute.
    #[inline(always)]
    pub fn elements(&self, warp: &ThreadBlockTile<32>) -> [(usize, usize, C); 4] {
        let lane = lane(warp);
        core::array::from_fn(|i| {
            let (row, col) = mma_c_coord(lane, i);
            (row, col, self.d[i])
        })
    }

    /// Each element `v` at `(row, col)` replaced by `f(row, col, v)`.
    #[inline(always)]
    pub fn map(self, warp: &ThreadBlockTile<32>, mut f: impl FnMut(usize, usize, C) -> C) -> Self {
        let lane = lane(warp);
        Self::from_array(core::array::from_fn(|i| {
            let (row, col) = mma_c_coord(lane, i);
            f(row, col, self.d[i])
        }))
    }

    /// The accumulator of these values (the lane's four, in register
    /// order).
    #[inline(always)]
    pub(super) fn from_array(d: [C; 4]) -> Self {
        Accumulator { d, _p: PhantomData }
    }

    /// The lane's four values, in register order.
    #[inline(always)]
    pub(super) fn to_array(&self) -> [C; 4] {
        self.d
    }
}

impl<C: MmaAcc + Pod> Accumulator<C> {
    /// Writes the accumulator to the 16 × 8 sub-tile `(i, j)` of the warp's
    /// tile (rows `16·i ..`, columns `8·j ..` of it), each lane its own four
    /// elements, those outside the image left out. A sub-tile outside the
    /// warp's tile is a `trap` on the GPU, a report on the simulator.
    #[inline(always)]
    #[track_caller]
    pub fn store<const TM: usize, const TN: usize>(
        &self,
        warp: &ThreadBlockTile<32>,
        tile: &WarpTile<'_, C, TM, TN>,
        i: usize,
        j: usize,
    ) {
        let lane = lane(warp);
        crate::unroll!(k in 0..4 => {
            let (row, col) = mma_c_coord(lane, k);
            tile.store_own(lane, 16 * i + row, 8 * j + col, self.d[k]);
        });
    }
}
