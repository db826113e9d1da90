//! Narrow floats: [`f16`](struct@crate::f16) and [`bf16`] (the `half` crate's types, which
//! cudarc and the Rust numeric ecosystem use, so a host buffer and device
//! code share one type) and the packed pairs [`f16x2`] and [`bf16x2`].
//!
//! * **Plain data.** All four are [`Pod`](crate::Pod) (runtime buffers,
//!   kernel parameters, shared memory), [`ShflValue`](crate::ShflValue)
//!   (a 16-bit value travels in the low half of one 32-bit shuffle word, a
//!   pair fills it) and [`MatchValue`](crate::MatchValue).
//! * **Arithmetic as instructions.** [`Float16`] gives the scalars
//!   `add_rn`, `sub_rn`, `mul_rn`, `fma_rn`, `hmin`, `hmax` and the
//!   conversions from and to `f32`, each one PTX instruction on sm_80+
//!   (bf16 `+ - *` need sm_90 for their own instructions; sm_80 uses
//!   `fma.rn.bf16`); the pairs have the same as methods and `+ - *`.
//! * **Collectives.** [`reduce`](crate::reduce) and the scans take all
//!   four with [`Plus`](crate::ops::Plus) (`add.rn`, one rounding per
//!   step, in NVIDIA's combining order: the bits of `cg::reduce(tile, x,
//!   cg::plus<__nv_bfloat16>())`), [`Less`](crate::ops::Less) and
//!   [`Greater`](crate::ops::Greater) (`__hmin` / `__hmax`), on tiles,
//!   coalesced groups, multi-warp tiles and the block.
//! * **Atomics.** [`AtomicRef`](crate::atomic::AtomicRef) and
//!   [`AtomicSlice`](crate::AtomicSlice) of all four: `fetch_add` is
//!   `atom.add.noftz.{f16,bf16,f16x2,bf16x2}` (the bf16 forms sm_90; a
//!   compare-and-swap loop below), CUDA's `atomicAdd` on them.
//! * **8-bit floats.** [`e4m3`] and [`e5m2`] (sm_89+ in hardware;
//!   software elsewhere): storage with saturating conversions from `f32`
//!   and exact ones back, one `cvt` per pair.
//! * **The simulator** computes each operation in `f32` and rounds once to
//!   nearest even, which gives the correctly rounded result for `+ - *`
//!   (24 ≥ 2·11 + 2 bits), `fma` exactly; a NaN result is the canonical NaN
//!   `0x7fff` as on the GPU. The crate's `half_floats` tests check every
//!   conversion and operation against references that round once.
//!
//! ```
//! use cooperative_groups::prelude::*;
//! use cooperative_groups::{bf16, narrow::Float16};
//! # let dev = cg_sim::SimDevice { stack_size: 4 << 20, ..Default::default() };
//! # cg_sim::launch_on(&dev, &cg_sim::LaunchConfig::new(1, 32), &|| {
//! let tile = tiled_partition::<32>(&this_thread_block());
//! let x = bf16::from_f32_rn(tile.thread_rank() as f32 * 0.1); // cvt.rn.bf16.f32
//! let sum = reduce(&tile, x, Plus);     // 5 × (shfl.sync.bfly.b32 + add.rn.bf16)
//! let top = reduce(&tile, x, Greater);  // 5 × (shfl.sync.bfly.b32 + max.bf16)
//! # assert_eq!(top, bf16::from_f32_rn(3.1));
//! # assert!((sum.widen() - 49.6).abs() < 0.5);
//! # }).unwrap();
//! ```

mod fp8;
mod pair;
mod reduce_ops;
mod scalar;

pub use fp8::{e4m3, e5m2};
pub use half::{bf16, f16};
pub use pair::{bf16x2, f16x2};
pub use scalar::Float16;
