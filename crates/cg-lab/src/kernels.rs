//! The PTX of `cg-kernels`, built by `build.rs` through `cg-build`: the
//! lab's module and, with feature `collectives`, the test module, one PTX
//! per SM each.

include!(concat!(env!("OUT_DIR"), "/lab_ptx.rs"));
#[cfg(feature = "collectives")]
include!(concat!(env!("OUT_DIR"), "/test_ptx.rs"));

/// The test module, if this build has it (feature `collectives`).
pub fn test_ptx() -> Option<&'static cg_runtime::PtxModule> {
    #[cfg(feature = "collectives")]
    return Some(&TEST_PTX);
    #[cfg(not(feature = "collectives"))]
    None
}

/// What to do when the test module is missing.
pub const NO_TEST_PTX: &str = "this cg-lab was built without the collective test kernels: \
     rebuild with `cargo build --release -p cg-lab --features collectives`";
