//! Tensor cores as a warp collective: `d = a·b + c` on the 32 threads of a
//! [`ThreadBlockTile<32>`], `mma.sync.aligned.m16n8k16` (sm_80 and newer)
//! with `f16` or `bf16` inputs and `f32` accumulators.
//!
//! The operands are typed fragments: [`MatrixA<T>`] (16 × 16, row-major),
//! [`MatrixB<T>`] (16 × 8, `k × n`) and [`Accumulator`] (16 × 8 `f32`). Each
//! lane holds the elements the PTX ISA's fragment layout gives it; the
//! layout never reaches user code: fragments are built from a function of
//! `(row, col)` ([`MatrixA::from_fn`]), read back as `(row, col, value)`
//! ([`Accumulator::elements`]) and stored to the warp's own tile of an
//! output ([`Accumulator::store`], under the partition
//! [`WarpTiles`](crate::WarpTiles)). A fragment is neither `Copy`,
//! [`Pod`], [`ShflValue`](crate::ShflValue) nor `Send`: it stays
//! in the registers of the lane that holds it.
//!
//! [`mma`] requires the whole warp: a tile of a partial warp (a block whose
//! size is not a multiple of 32) is refused (a `trap` on the GPU, a report
//! on the simulator), and, as for every collective, all 32 lanes must make
//! the call together (the simulator reports a lane that does not).
//!
//! # On the simulator
//!
//! The lanes exchange their fragments with warp shuffles and compute the
//! product from the whole matrices: each product of two 16-bit floats is
//! exact, the sum and the accumulator are added in `f64` and rounded to
//! `f32` once. The tensor core's internal order and rounding are not
//! documented: results are bit-identical whenever the sums are exactly
//! representable in `f32` (integers, short binary fractions), and
//! otherwise may differ in the last bits.
//!
//! ```
//! use cooperative_groups::prelude::*;
//! use cooperative_groups::mma::{Accumulator, MatrixA, MatrixB, mma};
//! use cooperative_groups::{bf16, kernel, GlobalSlice, OwnedPitched, WarpTiles};
//!
//! /// `c = a · b` for one 16 × 8 tile: `a` 16 × 16 and `b` 16 × 8, both
//! /// row-major bf16.
//! #[kernel]
//! pub fn tile_product(a: GlobalSlice<bf16>, b: GlobalSlice<bf16>, c: OwnedPitched<f32, WarpTiles<16, 8>>) {
//!     let warp = tiled_partition::<32>(&this_thread_block());
//!     let fa = MatrixA::from_fn(&warp, |row, col| a.load(row * 16 + col));
//!     let fb = MatrixB::from_fn(&warp, |k, n| b.load(k * 8 + n));
//!     let acc = mma(&warp, &fa, &fb, Accumulator::zero(&warp));
//!     if let Some(tile) = c.warp_tile(&warp) {
//!         acc.store(&warp, &tile, 0, 0);
//!     }
//! }
//! # use cooperative_groups::host::Image;
//! # let a: Vec<bf16> = (0..256).map(|i| bf16::from_f32((i % 5) as f32)).collect();
//! # let b: Vec<bf16> = (0..128).map(|i| bf16::from_f32((i % 3) as f32 - 1.0)).collect();
//! # let mut c = vec![0.0f32; 128];
//! # cooperative_groups::host::run(&TILE_PRODUCT, &cg_sim::LaunchConfig::new(1, 32),
//! #     (&a[..], &b[..], Image::new(&mut c[..], 8, 16, 8))).unwrap();
//! # for i in 0..16 { for j in 0..8 {
//! #     let want: f32 = (0..16).map(|k| a[i * 16 + k].to_f32() * b[k * 8 + j].to_f32()).sum();
//! #     assert_eq!(c[i * 8 + j], want);
//! # } }
//! ```

use core::marker::PhantomData;

use crate::arch;
use crate::arch::mma_layout::{mma_a_coord, mma_b_coord, mma_c_coord};
use crate::global::WarpTile;
use crate::group::ThreadBlockTile;
use crate::narrow::{bf16, f16};
use crate::{Pod, SharedSlice};

mod sealed {
    pub trait Sealed {}
}

/// The element types the warp MMA multiplies: [`f16`](struct@crate::f16) and [`bf16`]
/// (sealed).
pub trait MmaElement: sealed::Sealed + Copy + 'static {
    /// `bf16` (else `f16`): the instruction's type suffix.
    #[doc(hidden)]
    const BF16: bool;
    /// The value's bits.
    #[doc(hidden)]
    fn bits(self) -> u16;
}

impl sealed::Sealed for f16 {}
impl MmaElement for f16 {
    const BF16: bool = false;
    #[inline(always)]
    fn bits(self) -> u16 {
        self.to_bits()
    }
}
impl sealed::Sealed for bf16 {}
impl MmaElement for bf16 {
    const BF16: bool = true;
    #[inline(always)]
    fn bits(self) -> u16 {
        self.to_bits()
    }
}

/// The calling lane's index in its warp, for a full warp.
#[inline(always)]
fn lane(warp: &ThreadBlockTile<32>) -> u32 {
    warp.thread_rank()
}

/// Two 16-bit values in one register, element 0 in the low half.
#[inline(always)]
fn pack(lo: u16, hi: u16) -> u32 {
    lo as u32 | (hi as u32) << 16
}

/// A lane's part of the 16 × 16 operand `A` (row-major), of element type
/// `T`: eight elements in four registers.
pub struct MatrixA<T: MmaElement> {
    regs: [u32; 4],
    _p: PhantomData<(T, *const ())>,
}

/// A lane's part of the 16 × 8 operand `B` (`k × n`), of element type `T`:
/// four elements in two registers.
pub struct MatrixB<T: MmaElement> {
    regs: [u32; 2],
    _p: PhantomData<(T, *const ())>,
}

/// A lane's part of a 16 × 8 `f32` accumulator (`c`, and the result `d`):
/// four elements.
pub struct Accumulator {
    d: [f32; 4],
    _p: PhantomData<*const ()>,
}

macro_rules! debug_fragment {
    ($name:ident $(<$t:ident>)?, $field:ident) => {
        impl$(<$t: MmaElement>)? core::fmt::Debug for $name$(<$t>)? {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.debug_struct(stringify!($name)).field(stringify!($field), &self.$field).finish()
            }
        }
    };
}
debug_fragment!(MatrixA<T>, regs);
debug_fragment!(MatrixB<T>, regs);
debug_fragment!(Accumulator, d);

impl<T: MmaElement> MatrixA<T> {
    /// The fragment whose element `(row, col)` is `f(row, col)`: each lane
    /// calls `f` for its eight elements (`row < 16`, `col < 16`).
    #[inline(always)]
    pub fn from_fn(warp: &ThreadBlockTile<32>, mut f: impl FnMut(usize, usize) -> T) -> Self {
        let lane = lane(warp);
        let mut e = [0u16; 8];
        crate::unroll!(i in 0..8 => {
            let (row, col) = mma_a_coord(lane, i);
            e[i] = f(row, col).bits();
        });
        MatrixA {
            regs: [
                pack(e[0], e[1]),
                pack(e[2], e[3]),
                pack(e[4], e[5]),
                pack(e[6], e[7]),
            ],
            _p: PhantomData,
        }
    }

    /// The `(row, col)` of the calling lane's eight elements, in register
    /// order.
    #[inline(always)]
    pub fn coords(warp: &ThreadBlockTile<32>) -> [(usize, usize); 8] {
        let lane = lane(warp);
        core::array::from_fn(|i| mma_a_coord(lane, i))
    }
}

/// The address of element `(row0, col0)` of a row-major matrix of 16-bit
/// elements with rows `ld` apart in `src`, after checking that its `rows ×
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
) -> Option<*const u8> {
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
    let base = src.as_ptr().wrapping_add(row0 * ld + col0).cast::<u8>();
    if (base as usize) % 16 != 0 || (ld * 2) % 16 != 0 {
        arch::violation!(
            "ldmatrix rows must start at 16-byte boundaries: the block at ({row0}, {col0}) with rows {ld} elements apart does not"
        );
    }
    arch::sim_only! {
        if !src.own("an ldmatrix source") {
            return None;
        }
    }
    Some(base)
}

impl<T: MmaElement + Pod> MatrixA<T> {
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
            return MatrixA {
                regs: [0; 4],
                _p: PhantomData,
            };
        };
        // Lane `8j + r` gives row `r` of matrix `j`: matrices 0..4 are the
        // block's quarters (rows 0–7 / 8–15) × (columns 0–7 / 8–15), in the
        // order of the A fragment's registers.
        let l = lane(warp) as usize;
        let (j, r) = (l / 8, l % 8);
        let row = base.wrapping_add(2 * ((r + 8 * (j % 2)) * ld + 8 * (j / 2)));
        MatrixA {
            // SAFETY: `row` is a 16-byte aligned row of the checked block in
            // this block's shared memory; the whole warp calls (`mma`'s
            // contract, and the simulator checks it).
            regs: unsafe { arch::ldmatrix_x4(row) },
            _p: PhantomData,
        }
    }
}

impl<T: MmaElement + Pod> MatrixB<T> {
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
            return MatrixB {
                regs: [0; 2],
                _p: PhantomData,
            };
        };
        // Lane `8j + r` (`j < 2`) gives row `k = 8j + r`; lanes 16..32
        // repeat lanes 0..16's addresses (unused).
        let k = lane(warp) as usize % 16;
        let row = base.wrapping_add(2 * k * ld);
        MatrixB {
            // SAFETY: as in `MatrixA::load_shared`.
            regs: unsafe { arch::ldmatrix_x2_trans(row) },
            _p: PhantomData,
        }
    }
}

impl<T: MmaElement> MatrixB<T> {
    /// The fragment whose element `(k, n)` is `f(k, n)`: each lane calls
    /// `f` for its four elements (`k < 16`, `n < 8`).
    #[inline(always)]
    pub fn from_fn(warp: &ThreadBlockTile<32>, mut f: impl FnMut(usize, usize) -> T) -> Self {
        let lane = lane(warp);
        let mut e = [0u16; 4];
        crate::unroll!(i in 0..4 => {
            let (k, n) = mma_b_coord(lane, i);
            e[i] = f(k, n).bits();
        });
        MatrixB {
            regs: [pack(e[0], e[1]), pack(e[2], e[3])],
            _p: PhantomData,
        }
    }

    /// The `(k, n)` of the calling lane's four elements, in register order.
    #[inline(always)]
    pub fn coords(warp: &ThreadBlockTile<32>) -> [(usize, usize); 4] {
        let lane = lane(warp);
        core::array::from_fn(|i| mma_b_coord(lane, i))
    }
}

impl Accumulator {
    /// All zeros.
    #[inline(always)]
    pub fn zero(warp: &ThreadBlockTile<32>) -> Self {
        let _ = warp;
        Accumulator {
            d: [0.0; 4],
            _p: PhantomData,
        }
    }

    /// The accumulator whose element `(row, col)` is `f(row, col)` (`row <
    /// 16`, `col < 8`; each lane calls `f` for its four).
    #[inline(always)]
    pub fn from_fn(warp: &ThreadBlockTile<32>, mut f: impl FnMut(usize, usize) -> f32) -> Self {
        let lane = lane(warp);
        Accumulator {
            d: core::array::from_fn(|i| {
                let (row, col) = mma_c_coord(lane, i);
                f(row, col)
            }),
            _p: PhantomData,
        }
    }

    /// The calling lane's elements as `(row, col, value)`: the epilogue's
    /// view (bias, activation, conversion), with no layout to compute.
    #[inline(always)]
    pub fn elements(&self, warp: &ThreadBlockTile<32>) -> [(usize, usize, f32); 4] {
        let lane = lane(warp);
        core::array::from_fn(|i| {
            let (row, col) = mma_c_coord(lane, i);
            (row, col, self.d[i])
        })
    }

    /// Each element `v` at `(row, col)` replaced by `f(row, col, v)`.
    #[inline(always)]
    pub fn map(
        self,
        warp: &ThreadBlockTile<32>,
        mut f: impl FnMut(usize, usize, f32) -> f32,
    ) -> Self {
        let lane = lane(warp);
        Accumulator {
            d: core::array::from_fn(|i| {
                let (row, col) = mma_c_coord(lane, i);
                f(row, col, self.d[i])
            }),
            _p: PhantomData,
        }
    }

    /// Writes the accumulator to the 16 × 8 sub-tile `(i, j)` of the warp's
    /// tile (rows `16·i ..`, columns `8·j ..` of it), each lane its own four
    /// elements, those outside the image left out. A sub-tile outside the
    /// warp's tile is a `trap` on the GPU, a report on the simulator.
    #[inline(always)]
    #[track_caller]
    pub fn store<const TM: usize, const TN: usize>(
        &self,
        warp: &ThreadBlockTile<32>,
        tile: &WarpTile<'_, f32, TM, TN>,
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

/// `d = a·b + c` on the warp (`mma.sync.aligned.m16n8k16.row.col.f32`,
/// `HMMA.16816.F32` / `.BF16` in SASS): every lane of the full warp calls
/// it with its fragments and gets its part of `d`.
#[doc(alias = "mma.sync")]
#[doc(alias = "wmma::mma_sync")]
#[inline(always)]
#[track_caller]
pub fn mma<T: MmaElement>(
    warp: &ThreadBlockTile<32>,
    a: &MatrixA<T>,
    b: &MatrixB<T>,
    c: Accumulator,
) -> Accumulator {
    if warp.num_threads() != 32 {
        arch::violation!(
            "mma on a partial warp of {} threads: the tensor core takes all 32 lanes (a block size that is a multiple of 32)",
            warp.num_threads()
        );
    }
    Accumulator {
        d: arch::mma_m16n8k16_f32(T::BF16, a.regs, b.regs, c.d),
        _p: PhantomData,
    }
}
