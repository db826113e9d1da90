//! Every kernel of the lab, written once in Rust against `cooperative-groups`.
//!
//! Built twice: for `nvptx64-nvidia-cuda` (one PTX per SM, embedded in the
//! host binary by `cg-runtime`'s build script) and for the host, where each
//! `#[kernel]` also yields a launch descriptor that the simulator can run.
#![no_std]
// `core::f32::math::mul_add`: the lab chains rounds with one FFMA, as nvcc does.
#![feature(core_float_math)]
// `f128`: the host's extended-precision references (`math_reference`).
#![cfg_attr(not(target_arch = "nvptx64"), feature(f128))]
#![cfg_attr(
    target_arch = "nvptx64",
    feature(abi_gpu_kernel, asm_experimental_arch)
)]
// The sm_90 experiments (tensor and bulk copies) compile to nothing before
// sm_90: their imports and constants are unused there.
#![cfg_attr(
    all(target_arch = "nvptx64", not(target_feature = "sm_90")),
    allow(unused_imports, dead_code)
)]

pub mod atomics;
pub mod c02;
pub mod cluster;
#[cfg(any(feature = "collectives", not(target_arch = "nvptx64")))]
pub mod collectives;
pub mod device_histogram;
pub mod device_radix_sort;
pub mod device_rle;
pub mod device_segmented_reduce;
pub mod device_select;
pub mod device_wide;
pub mod diff;
pub mod faults;
pub mod generic;
pub mod grid;
pub mod math;
pub mod math_accuracy;
#[cfg(not(target_arch = "nvptx64"))]
pub mod math_reference;
pub mod math_speed;
pub mod memcpy_async;
pub mod memory;
pub mod narrow;
pub mod primitives;
pub mod semantics;
pub mod smoke;
pub mod sync;
pub mod tma;
pub mod tma_multicast;
pub mod typed;
pub mod wgmma;
pub mod xorshift;
