//! # cooperative-groups
//!
//! CUDA Cooperative Groups for Rust kernels compiled by stock nightly `rustc`
//! to PTX, with the same kernels runnable on the CPU through the `cg-sim`
//! simulator.
//!
//! A kernel is a plain Rust function marked [`#[kernel]`](kernel). On
//! `nvptx64` it becomes a PTX entry; on the host it becomes a function the
//! simulator runs once per lane, plus a launch descriptor (`NAME: Kernel<…>`).
//!
//! ```ignore
//! use cooperative_groups::{kernel, intrinsics::*, shared_array};
//!
//! #[kernel]
//! pub fn reverse_warp(out: *mut u32) {
//!     let smem = shared_array!(u32; 32);
//!     let lane = lane_id();
//!     smem.store(lane as usize, lane);
//!     syncthreads();
//!     let mirrored = smem.load(31 - lane as usize);
//!     // lane i receives lane i+1's value
//!     let next = shfl_down_sync(FULL_MASK, mirrored, 1, 32);
//!     unsafe { *out.add(lane as usize) = next };
//! }
//! ```
//!
//! ## Layers
//! * `arch` (private): one set of primitives with two backends — inline PTX
//!   on `nvptx64`, calls into `cg-sim` on the host. All `unsafe` asm lives
//!   there.
//! * [`intrinsics`]: CUDA's raw built-ins (`__shfl_sync`, `__ballot_sync`, …).
//! * [`shared`]: shared-memory arrays and dynamic shared memory.
//! * [`atomic`]: `atomicAdd` and friends.
#![no_std]
#![cfg_attr(target_arch = "nvptx64", feature(asm_experimental_arch, link_llvm_intrinsics))]
#![cfg_attr(target_arch = "nvptx64", allow(internal_features))]

// Lets the macros' `::cooperative_groups::…` paths resolve inside this crate too.
extern crate self as cooperative_groups;

mod arch;
pub mod atomic;
mod dim;
pub mod intrinsics;
#[cfg(not(target_arch = "nvptx64"))]
mod kernel_desc;
mod panic;
pub mod shared;

pub use cg_macros::{kernel, shared_array};
pub use dim::Dim3;
#[cfg(not(target_arch = "nvptx64"))]
pub use kernel_desc::Kernel;
pub use shared::{DynamicShared, SharedArray, dynamic_shared};

/// Items the macros expand to; not part of the public API.
#[doc(hidden)]
pub mod __private {
    #[cfg(not(target_arch = "nvptx64"))]
    pub use crate::arch::static_shared;
}
