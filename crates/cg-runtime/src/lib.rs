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
//!   memory and CUDA events ([`gpu`]), through the CUDA driver API loaded
//!   at run time, so binaries start on machines without CUDA;
//! * one launch API over the GPU and the `cg-sim` simulator ([`backend`]),
//!   with buffers of [`Pod`] types only: [`Backend::launch`] is safe for
//!   kernels whose parameters are typed ([`SafeArgs`]) and takes the
//!   buffers themselves; a kernel with raw-pointer parameters launches only
//!   through the `unsafe` [`Backend::launch_unchecked`];
//! * timing: [`Backend::time`] queues a launch sequence between CUDA
//!   events, after warm-ups, in repeats, and answers the median and spread
//!   (the simulator: "not timed") ([`timing`]).
//!
//! A complete host program; in a real project `KERNELS` comes from
//! `include!(concat!(env!("OUT_DIR"), "/<kernel crate>.rs"))` after
//! `cg_build::KernelCrate::at("../kernels").build()` in `build.rs`, and the
//! kernel lives in the kernel crate. Here the table is empty, so the GPU
//! backend reports an unsupported device and the program falls back to the
//! simulator, as it does on a machine without a GPU:
//!
//! ```
//! use cg_runtime::{Backend, EmbeddedPtx, LaunchConfig, PtxModule};
//! use cooperative_groups::prelude::*;
//! use cooperative_groups::{GlobalSlice, OwnedSlice, PerBlock};
//!
//! #[cooperative_groups::kernel]
//! pub fn block_sums(input: GlobalSlice<u32>, sums: OwnedSlice<u32, PerBlock>) {
//!     let block = this_thread_block();
//!     let s = reduce(&block, input.load(this_grid().thread_rank() as usize), Plus);
//!     if let Some(e) = sums.leader(&block) {
//!         e.store(s);
//!     }
//! }
//!
//! static KERNELS: PtxModule = PtxModule::new("doctest_kernels", &[] as &[EmbeddedPtx]);
//!
//! # fn main() -> Result<(), cg_runtime::RuntimeError> {
//! let backend = Backend::gpu(0, &KERNELS).unwrap_or_else(|_| Backend::sim());
//! let data: Vec<u32> = (0..512).collect();
//! let input = backend.upload(&data)?;
//! let mut sums = backend.alloc::<u32>(4)?;
//! // A safe launch: the buffers themselves, `&` for the input, `&mut` for
//! // the output (one buffer cannot be both).
//! backend.launch(&BLOCK_SUMS, &LaunchConfig::linear(4, 128), (&input, &mut sums))?;
//! assert_eq!(sums.to_vec()?[1], (128..256).sum::<u32>());
//! # Ok(())
//! # }
//! ```
//!
//! A program that already uses cudarc keeps its context, streams and
//! `CudaSlice`s: [`Gpu::from_context`] loads the kernels into its context,
//! [`Gpu::launch_on`] launches on its stream (asynchronously, in cudarc's
//! stream order) with its slices as the typed arguments, and a
//! [`DeviceBuffer`] lends itself to cudarc as a `CudaSlice` ([`interop`]).
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
pub mod interop;
pub mod launch;
pub mod ptx;
pub mod sass;
mod stream;
pub mod tensor_map;
pub mod tensor_map_3d;
pub mod tensor_map_nd;
pub mod timing;
pub mod tools;

pub use backend::{
    Backend, Buffer, BufferCastMut, BufferSliceMut, HostBuffer, Image, SIM_MAX_SMEM_PER_BLOCK,
};
pub use cg_sim::{SimDevice, SimError};
pub use cooperative_groups::{Kernel, Pod};
/// The cudarc this crate is built on (0.19, driver API, loaded at run
/// time): the `CudaContext`, `CudaStream` and `CudaSlice` types that
/// [`Gpu::from_context`] and [`Gpu::launch_on`] take. A program that uses
/// cudarc itself names the same version ([`interop`] says which features).
pub use cudarc;
pub use device::DeviceInfo;
pub use error::{Result, RuntimeError};
pub use gpu::{DeviceBuffer, Event, Function, Gpu, Module};
pub use interop::{BorrowedCudaSlice, Raw, StreamArg, StreamArgs, StreamLaunch, cuda_context};
pub use launch::{
    Dim3, HostArg, HostArgs, KernelArgs, KernelParam, LaunchConfig, SafeArgs, SafeParam,
    ShapeError, Target,
};
pub use ptx::{EmbeddedPtx, PtxModule};
pub use tensor_map::{RawTensorMap, TensorMap, TensorMapMut};
pub use tensor_map_3d::{TensorMap3, TensorMap3Mut};
pub use tensor_map_nd::{TensorMapNd, TensorMapNdMut};
pub use timing::{Queue, Runs, Timed, Times, Timing};
