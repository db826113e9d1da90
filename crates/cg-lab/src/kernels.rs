//! The PTX of `cg-kernels`, built by `build.rs` through `cg-build`: the
//! lab's module and the test module (`collectives`), one PTX per SM each.

include!(concat!(env!("OUT_DIR"), "/lab_ptx.rs"));
include!(concat!(env!("OUT_DIR"), "/test_ptx.rs"));
