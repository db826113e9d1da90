//! Every kernel of the lab, written once in Rust against `cooperative-groups`.
//!
//! Built twice: for `nvptx64-nvidia-cuda` (one PTX per SM, embedded in the
//! host binary by `cg-runtime`'s build script) and for the host, where each
//! `#[kernel]` also yields a launch descriptor that the simulator can run.
#![no_std]
// `core::f32::math::mul_add`: the lab chains rounds with one FFMA, as nvcc does.
#![feature(core_float_math)]
#![cfg_attr(
    target_arch = "nvptx64",
    feature(abi_gpu_kernel, asm_experimental_arch)
)]

/// `unroll16!(k => { … })`: the body 16 times, `k` the constants 0..16, as
/// straight-line code (per-item arrays stay in registers; LLVM's unroller
/// leaves loops holding votes and shuffles of this size rolled, and the
/// arrays then live in local memory).
macro_rules! unroll16 {
    ($k:ident => $body:block) => {
        unroll16!(@each $k, $body; 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15)
    };
    (@each $k:ident, $body:block; $($n:literal)*) => {
        $( {
            #[allow(clippy::identity_op, clippy::erasing_op)]
            let $k: usize = $n;
            $body
        } )*
    };
}

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
pub mod memcpy_async;
pub mod primitives;
pub mod semantics;
pub mod smoke;
pub mod sync;
pub mod tma;
pub mod typed;
pub mod xorshift;
