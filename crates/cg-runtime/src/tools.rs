//! Locating NVIDIA's command-line tools (`ptxas`, `nvdisasm`, `cuobjdump`,
//! `nvcc`) for PTX checks, disassembly and the C++ reference build.
//!
//! Search order: the variable `CG_<TOOL>` (e.g. `CG_PTXAS`), then `PATH`,
//! then the wheels `.ci/run` installs under `<repo>/.tools/cuda`, then
//! `$CUDA_HOME/bin` and `/usr/local/cuda/bin`.

use std::path::{Path, PathBuf};

/// The repository root (two levels above this crate).
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Finds `tool`, or `None`.
pub fn find_tool(tool: &str) -> Option<PathBuf> {
    let var = format!("CG_{}", tool.to_uppercase());
    if let Some(p) = std::env::var_os(&var) {
        let p = PathBuf::from(p);
        return p.is_file().then_some(p);
    }
    let mut dirs: Vec<PathBuf> = std::env::var_os("PATH")
        .map(|p| std::env::split_paths(&p).collect())
        .unwrap_or_default();
    let wheels = repo_root().join(".tools/cuda/nvidia");
    for sub in [
        "cuda_nvcc/bin",
        "cu13/bin",
        "cuda_cuobjdump/bin",
        "cuda_nvdisasm/bin",
    ] {
        dirs.push(wheels.join(sub));
    }
    if let Some(home) = std::env::var_os("CUDA_HOME") {
        dirs.push(PathBuf::from(home).join("bin"));
    }
    dirs.push(PathBuf::from("/usr/local/cuda/bin"));
    dirs.into_iter().map(|d| d.join(tool)).find(|p| p.is_file())
}

/// Finds `tool`; where `CI=true` a missing tool is an error (tests must not
/// silently skip in CI), elsewhere `None` with a note on stderr.
pub fn require_tool_in_ci(tool: &str) -> Option<PathBuf> {
    let found = find_tool(tool);
    if found.is_none() {
        let hint = format!(
            "`{tool}` not found: set CG_{} or run `.ci/run`, which installs NVIDIA's wheels under .tools/cuda",
            tool.to_uppercase()
        );
        if std::env::var("CI").is_ok_and(|v| v == "true") {
            panic!("{hint}");
        }
        eprintln!("skipping: {hint}");
    }
    found
}
