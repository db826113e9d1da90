//! Tensor cores as a warp collective: `d = a·b + c` on the 32 threads of a
//! [`ThreadBlockTile<32>`], `mma.sync.aligned`:
//!
//! | inputs `T` | shape | accumulator | SASS | needs |
//! |---|---|---|---|---|
//! | [`f16`](struct@crate::f16), [`bf16`](crate::bf16) | `m16n8k16` | `f32` | `HMMA.16816.F32[.BF16]` | sm_80 |
//! | [`e4m3`](crate::e4m3), [`e5m2`](crate::e5m2) | `m16n8k32` | `f32` | on sm_90: a conversion and two `HMMA.16816.F32` (ptxas; Hopper's fp8 tensor path is `wgmma`) | sm_89, PTX ISA 8.4 |
//! | `i8`, `u8` | `m16n8k32` | `i32` (wrapping) | `IMMA.16832.S8.S8`, `.U8.U8` | sm_80 |
//!
//! (Where the target lacks the instruction, `mma` traps.) The operands are
//! typed fragments: [`MatrixA<T>`] (16 × K, row-major), [`MatrixB<T>`] (K ×
//! 8) and [`Accumulator<C>`] (16 × 8, `C` = `T::Acc`). Each
//! lane holds the elements the PTX ISA's fragment layout gives it; the
//! layout never reaches user code: fragments are built from a function of
//! `(row, col)` ([`MatrixA::from_fn`]), read back as `(row, col, value)`
//! ([`Accumulator::elements`]) and stored to the warp's own tile of an
//! output ([`Accumulator::store`], under the partition
//! [`WarpTiles`](crate::WarpTiles)). A fragment is neither `Copy`,
//! [`Pod`](crate::Pod), [`ShflValue`](crate::ShflValue) nor `Send`: it stays
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
//! `f32` once (integer products are exact, and their sums wrap as the
//! instruction's do). The tensor core's internal order and rounding are not
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

use crate::arch;
use crate::group::ThreadBlockTile;

mod element;
mod fragment;
mod ldmatrix;

pub use element::{Mma16, MmaAcc, MmaElement};
pub use fragment::{Accumulator, MatrixA, MatrixB};

/// `d = a·b + c` on the warp (`mma.sync.aligned.m16n8k16` or `m16n8k32`,
/// see the module's table): every lane of the full warp calls it with its
/// fragments and gets its part of `d`.
#[doc(alias = "mma.sync")]
#[doc(alias = "wmma::mma_sync")]
#[inline(always)]
#[track_caller]
pub fn mma<T: MmaElement>(
    warp: &ThreadBlockTile<32>,
    a: &MatrixA<T>,
    b: &MatrixB<T>,
    c: Accumulator<T::Acc>,
) -> Accumulator<T::Acc> {
    if warp.num_threads() != 32 {
        arch::violation!(
            "mma on a partial warp of {} threads: the tensor core takes all 32 lanes (a block size that is a multiple of 32)",
            warp.num_threads()
        );
    }
    Accumulator::from_array(T::Acc::mma(T::KIND, a.regs(), b.regs(), c.to_array()))
}
