//! The one vocabulary of the hardware that `cooperative-groups` (the device
//! library), `cg-sim` (the simulator) and `cg-runtime` (the host runtime)
//! share, so that each type has one definition:
//!
//! * [`Dim3`]: CUDA's `dim3`, an extent or index in three dimensions.
//! * [`LaunchConfig`]: grid, block, cluster, dynamic shared memory and
//!   cooperative flag of a launch, with the shape rules every device has
//!   ([`LaunchConfig::validate_shape`], [`ShapeError`]).
//! * [`ShflMode`], [`ReduxOp`]: the modes of `shfl.sync` and the operations
//!   of `redux.sync`.
//! * [`MemScope`], [`MemOrder`]: the `.scope` and `.sem` of a strong memory
//!   operation.
//! * [`Swizzle`]: how the Tensor Memory Accelerator lays a tile out in
//!   shared memory.
//!
//! The names of the instruction operands are the PTX ISA's. The crate is
//! `no_std` with no dependencies: it is compiled for `nvptx64` inside every
//! kernel crate's PTX build and for the host.
//!
//! ```
//! use cg_isa::{Dim3, LaunchConfig};
//!
//! let cfg = LaunchConfig::new((8, 2), 128).with_dynamic_smem(4096);
//! assert_eq!(cfg.grid, Dim3::new(8, 2, 1));
//! assert_eq!(cfg.block.volume(), 128);
//! assert!(cfg.validate_shape().is_ok());
//! ```
#![no_std]
#![warn(missing_docs)]

mod dim;
mod launch;
mod memory;
mod swizzle;
mod warp;

pub use dim::Dim3;
pub use launch::{LaunchConfig, MAX_GRID_BLOCKS, ShapeError};
pub use memory::{MemOrder, MemScope};
pub use swizzle::{MAX_TENSOR_RANK, Swizzle};
pub use warp::{ReduxOp, ShflMode};
