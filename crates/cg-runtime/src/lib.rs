//! # cg-runtime
//!
//! The host side of cooperative-groups kernels:
//!
//! * the kernels of `cg-kernels`, compiled by `build.rs` to one PTX per SM
//!   (sm_70, sm_80, sm_90) and embedded ([`ptx`]); at load time the newest PTX
//!   whose SM ≤ the device's compute capability is JIT-compiled by the driver;
//! * device discovery ([`device`]), launches — plain, cooperative (refused
//!   before launch when the grid cannot be co-resident) and cluster (sm_90+) —
//!   memory and CUDA-event timing ([`gpu`]), through the CUDA driver API loaded
//!   at run time, so binaries start on machines without CUDA;
//! * one launch API over the GPU and the `cg-sim` simulator ([`backend`]).
//!
//! Every failure is a [`RuntimeError`] that says what is missing or wrong:
//! no driver, no GPU, an unsupported GPU, a JIT failure with its log, a
//! launch shape the device cannot run.

pub mod backend;
pub mod device;
mod driver;
pub mod error;
pub mod gpu;
pub mod launch;
pub mod ptx;
pub mod sass;
pub mod tools;

pub use backend::{Backend, Buffer};
pub use device::DeviceInfo;
pub use error::{Result, RuntimeError};
pub use gpu::{DeviceBuffer, Event, Function, Gpu, Module};
pub use launch::{Dim3, KernelArgs, KernelParam, LaunchConfig, LaunchKind};
