//! Builds the lab's kernels (`cg-kernels`) to PTX through `cg-build`, as a
//! user's host crate builds its own: the lab's module, and with feature
//! `collectives` the test module that `cg-lab verify` loads. Also records
//! the source revision (`git describe --always --dirty`) and the PTX's
//! floating-point contraction policy (`cg_build::FpContract`) and the
//! fast-math policy (`cg_build::FastMath`) for reports.

use std::process::Command;

fn main() {
    // The lab's kernels build without a warning (the library's included:
    // a path dependency here), and for sm_90a too (the warpgroup MMA).
    let lab = cg_build::KernelCrate::at("../cg-kernels")
        .deny_warnings()
        .arch_specific()
        .name("LAB_PTX")
        .build()
        .unwrap_or_else(|e| e.fail());
    println!("cargo:rustc-env=CG_LAB_FP_CONTRACT={}", lab.fp_contract);
    println!("cargo:rustc-env=CG_LAB_FAST_MATH={}", lab.fast_math);
    if std::env::var_os("CARGO_FEATURE_COLLECTIVES").is_some() {
        cg_build::KernelCrate::at("../cg-kernels")
            .deny_warnings()
            .feature("collectives")
            .name("TEST_PTX")
            .build()
            .unwrap_or_else(|e| e.fail());
    }

    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
    println!("cargo:rerun-if-changed={root}/.git/HEAD");
    println!("cargo:rerun-if-changed={root}/.git/index");
    println!("cargo:rerun-if-env-changed=CG_LAB_COMMIT");
    let commit = std::env::var("CG_LAB_COMMIT").ok().or_else(|| {
        let out = Command::new("git")
            .args(["-C", root, "describe", "--always", "--dirty", "--abbrev=12"])
            .output()
            .ok()?;
        out.status
            .success()
            .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
    });
    println!(
        "cargo:rustc-env=CG_LAB_COMMIT={}",
        commit.unwrap_or_else(|| "unknown".into())
    );
}
