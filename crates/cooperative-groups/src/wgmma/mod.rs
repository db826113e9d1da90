//! Tensor cores as a warpgroup collective (sm_90a): `d += a · bᵀ` on the
//! 128 threads of an aligned [`ThreadBlockTile<128>`](crate::ThreadBlockTile) ([`Warpgroup`]), A
//! (64 × K) and B (N × K) read by the tensor core straight from shared
//! memory, the 64 × N `f32` accumulator in the group's registers —
//! `wgmma.mma_async`, the instruction Hopper's dense peak needs.
//!
//! | inputs `T` | shape per instruction | SASS |
//! |---|---|---|
//! | [`f16`](struct@crate::f16), [`bf16`](crate::bf16) | `m64nNk16` | `HGMMA.64xNx16.F32[.BF16]` |
//! | [`e4m3`](crate::e4m3), [`e5m2`](crate::e5m2) | `m64nNk32` | `QGMMA.64xNx32.F32.E4M3…` |
//!
//! `N` is 8, 16, 32, 64, 128 or 256 ([`Accumulator<N>`]). The instructions
//! exist on the arch-specific target `sm_90a` only: a kernel crate built
//! with cg-build's `arch_specific()` (or `CG_SMS=90a`) has them, and the
//! runtime loads that PTX on an sm_90 GPU; in the portable PTX (and on
//! newer GPUs, which load it) the calls trap.
//!
//! # Operands and their layout
//!
//! An operand is a [`SmemMatrix`]: rows of a K-major matrix (A's rows,
//! B's columns: a "TN" product, B given as `N × K`) in a shared tile laid
//! out as a tensor-map tile of a swizzled layout
//! ([`Swizzle128B`](crate::tma::Swizzle128B): 64 `bf16` per row) — what a
//! TMA load of a box one swizzle wide writes. The descriptor bits are
//! built from the type; the alignment and size are checked once. Threads
//! that stage an operand with their own stores call [`operands_written`]
//! before the multiply (the tensor core reads through the async proxy).
//!
//! # The life cycle, in the types
//!
//! [`Accumulator::begin`] fences (`wgmma.fence`) and gives a [`Batch`];
//! [`Batch::mma`] issues the multiplies of a K tile; [`Batch::commit`]
//! closes the group (`wgmma.commit_group`) and gives an [`InFlight`];
//! [`InFlight::wait`] (`wgmma.wait_group 0`) gives the accumulator back.
//! Until then the registers are the tensor core's, and the accumulator
//! cannot be read, written or moved elsewhere: a compile error, not a
//! silent race. [`InFlight::wait_older`] (`wait_group 1`) frees the shared
//! memory of older groups while the newest runs, and
//! [`InFlight::resume`] issues the next batch without waiting — the
//! pipelined main loop.
//!
//! # On the simulator
//!
//! Each thread reads the rows its elements need through the descriptor
//! (the same address arithmetic and swizzle as the tensor core) when the
//! multiply is issued; products are exact, the sum and the accumulator are
//! added in `f64` and rounded once, so results are bit-identical with the
//! GPU whenever the sums are exactly representable (integers, short
//! binary fractions) and may otherwise differ in the last bits. A lane
//! missing from its warp at any step is reported; shared memory written
//! while a multiply is in flight is not (the simulator reads at issue).
//!
//! ```
//! use cooperative_groups::prelude::*;
//! use cooperative_groups::tma::Swizzle128B;
//! use cooperative_groups::wgmma::{Accumulator, SmemMatrix};
//! use cooperative_groups::{bf16, kernel, shared_array, GlobalSlice, OwnedPitched, WarpgroupTiles};
//!
//! /// `c = a · bᵀ` for one 64 × 8 tile: `a` 64 × 64 and `b` 8 × 64, both
//! /// row-major bf16, staged in shared memory in the 128-byte swizzle.
//! #[kernel]
//! pub fn wg_product(a: GlobalSlice<bf16>, b: GlobalSlice<bf16>, c: OwnedPitched<f32, WarpgroupTiles<64, 8>>) {
//!     let block = this_thread_block();
//!     let sa = shared_array!(bf16; 64 * 64, align 1024);
//!     let sb = shared_array!(bf16; 8 * 64, align 1024);
//!     let t = block.thread_rank() as usize;
//!     // Element (r, k) of a 128-byte-swizzled tile of 64-element rows.
//!     let at = |r: usize, k: usize| {
//!         cooperative_groups::tma::TensorMap2d::<'static, bf16, 64, 64, Swizzle128B>::tile_index(k as u32, r as u32)
//!     };
//!     for i in (t..64 * 64).step_by(128) {
//!         sa.store(at(i / 64, i % 64), a.load(i));
//!     }
//!     for i in (t..8 * 64).step_by(128) {
//!         sb.store(at(i / 64, i % 64), b.load(i));
//!     }
//!     // The stores reach the tensor core (the async proxy), then the block syncs.
//!     cooperative_groups::wgmma::operands_written(&block);
//!     let wg = tiled_partition::<128>(&block);
//!     let (fa, fb) = (sa.as_slice(), sb.as_slice());
//!     let a_tile = SmemMatrix::<bf16, Swizzle128B>::k_major(&fa, 64);
//!     let b_tile = SmemMatrix::<bf16, Swizzle128B>::k_major(&fb, 8);
//!     let acc = Accumulator::<8>::zero(&wg).begin(&wg).mma(&wg, &a_tile, &b_tile).commit().wait();
//!     if let Some(tile) = c.warpgroup_tile(&wg) {
//!         acc.store(&wg, &tile);
//!     }
//! }
//! # use cooperative_groups::host::Image;
//! # let a: Vec<bf16> = (0..64 * 64).map(|i| bf16::from_f32((i % 7) as f32 - 3.0)).collect();
//! # let b: Vec<bf16> = (0..8 * 64).map(|i| bf16::from_f32((i % 5) as f32 - 2.0)).collect();
//! # let mut c = vec![0.0f32; 64 * 8];
//! # cooperative_groups::host::run(&WG_PRODUCT, &cg_sim::LaunchConfig::new(1, 128),
//! #     (&a[..], &b[..], Image::new(&mut c[..], 8, 64, 8))).unwrap();
//! # for i in 0..64 { for j in 0..8 {
//! #     let want: f32 = (0..64).map(|k| a[i * 64 + k].to_f32() * b[j * 64 + k].to_f32()).sum();
//! #     assert_eq!(c[i * 8 + j], want, "({i}, {j})");
//! # } }
//! ```

mod accumulator;
mod element;
mod operand;

pub use accumulator::{Accumulator, Batch, InFlight};
pub use element::{Shape, Warpgroup, WgmmaElement, WgmmaShape};
pub use operand::{SmemMatrix, Swizzled, operands_written};
