//! NVIDIA's C++ side of the comparisons: the sources of `reference/cuda`,
//! embedded so the binary needs no checkout, and one way to build them.

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, Result, bail};

/// `reference/cuda/c02_reference.cu`: the C-02 experiments (`cg-lab compare`).
pub const C02_CU: (&str, &str) = (
    "c02_reference",
    include_str!("../../../reference/cuda/c02_reference.cu"),
);

/// `reference/cuda/semantics.cu`: the semantic differential (`cg-lab verify`).
pub const SEMANTICS_CU: (&str, &str) = (
    "semantics",
    include_str!("../../../reference/cuda/semantics.cu"),
);

/// The nvcc command line, for reports.
pub fn nvcc_flags(sm: u32) -> String {
    format!("nvcc -O3 -arch=sm_{sm} -cubin")
}

/// Builds `(stem, source)` with nvcc for `sm` into `dir`; returns the cubin.
pub fn build_cubin(
    nvcc: &Path,
    sm: u32,
    dir: &Path,
    (stem, source): (&str, &str),
) -> Result<PathBuf> {
    std::fs::create_dir_all(dir)?;
    let src = dir.join(format!("{stem}.cu"));
    crate::output::write_atomic(&src, source.as_bytes())?;
    let cubin = dir.join(format!("{stem}_sm{sm}.cubin"));
    let out = Command::new(nvcc)
        .args(["-O3", &format!("-arch=sm_{sm}"), "-cubin", "-o"])
        .arg(&cubin)
        .arg(&src)
        .output()
        .with_context(|| format!("running {}", nvcc.display()))?;
    if !out.status.success() {
        bail!(
            "nvcc failed to build reference/cuda/{stem}.cu:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    Ok(cubin)
}
