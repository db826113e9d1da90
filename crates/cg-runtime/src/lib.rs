//! # cg-runtime
//!
//! The host side of cooperative-groups kernels. It knows no kernels of its
//! own: a host crate embeds the PTX of its kernel crate, built by
//! `cg-build` in its build script, and hands that table ([`PtxModule`]) to
//! [`Gpu::open`] or [`Backend::gpu`].
//!
//! * the newest embedded PTX whose SM ≤ the device's compute capability is
//!   JIT-compiled by the driver at load time ([`ptx`]); `CG_PTX_SM=70` loads
//!   an older SM's PTX instead;
//! * device discovery ([`device`]), launches — plain, cooperative (refused
//!   before launch when the grid cannot be co-resident) and cluster (sm_90+) —
//!   memory and CUDA-event timing ([`gpu`]), through the CUDA driver API loaded
//!   at run time, so binaries start on machines without CUDA;
//! * one launch API over the GPU and the `cg-sim` simulator ([`backend`]),
//!   with buffers of [`Pod`] types only.
//!
//! ```ignore
//! // build.rs:  cg_build::KernelCrate::at("../kernels").build().unwrap_or_else(|e| e.fail());
//! include!(concat!(env!("OUT_DIR"), "/kernels.rs")); // `KERNELS: PtxModule`
//!
//! let backend = Backend::gpu(0, &KERNELS).unwrap_or_else(|_| Backend::sim());
//! let input = backend.upload(&data)?;
//! let out = backend.alloc::<u32>(data.len())?;
//! backend.launch(&kernels::MY_KERNEL, &LaunchConfig::linear(blocks, 128),
//!                (input.as_ptr() as *const u32, out.as_ptr()))?;
//! let result = out.to_vec()?;
//! ```
//!
//! A `#[kernel]` descriptor knows its crate: launched against the module of
//! another crate it is refused ([`RuntimeError::KernelNotInModule`]) rather
//! than running a same-named kernel. Every failure is a [`RuntimeError`]
//! that says what is missing or wrong: no driver, no GPU, an unsupported
//! GPU, a JIT failure with its log, a launch shape the device cannot run.

pub mod backend;
pub mod device;
mod driver;
pub mod error;
pub mod gpu;
pub mod launch;
pub mod ptx;
pub mod sass;
pub mod tools;

pub use backend::{Backend, Buffer, HostBuffer};
pub use cooperative_groups::Pod;
pub use device::DeviceInfo;
pub use error::{Result, RuntimeError};
pub use gpu::{DeviceBuffer, Event, Function, Gpu, Module};
pub use launch::{Dim3, KernelArgs, KernelParam, LaunchConfig, LaunchKind};
pub use ptx::{EmbeddedPtx, PtxModule};
