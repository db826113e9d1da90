//! The panic handler of `no_std` kernel crates on the GPU: `trap`.
//!
//! A bounds-check failure or an explicit `panic!` in a kernel stops the launch
//! (`trap`) with `CUDA_ERROR_LAUNCH_FAILED`, "unspecified launch failure",
//! which the host runtime reports; the context is unusable after it.
//! Disable the `panic-handler` feature to provide your own.

#[cfg(all(target_arch = "nvptx64", feature = "panic-handler"))]
#[panic_handler]
fn panic(_info: &core::panic::PanicInfo) -> ! {
    crate::arch::trap()
}
