//! Locating NVIDIA's command-line tools (`ptxas`, `nvdisasm`, `cuobjdump`,
//! `nvcc`) for PTX checks, disassembly and the C++ reference build.
//!
//! Search order: the variable `CG_<TOOL>` (e.g. `CG_PTXAS`), then `PATH`,
//! then NVIDIA's PyPI wheels in the [tools directories](tools_dirs) (where
//! `scripts/install-cuda-tools.sh` and `cargo cg doctor --fix` install them),
//! then `$CUDA_HOME/bin` and `/usr/local/cuda/bin`.

use std::path::{Path, PathBuf};

/// The variable that names the tools directory (see [`tools_dir`]).
pub const TOOLS_DIR_VAR: &str = "CG_TOOLS_DIR";

/// The wheels that provide `ptxas` (12.9: sm_70 through sm_90) and
/// `nvdisasm` (13.x: SASS of sm_75 and newer), pinned, as
/// `scripts/install-cuda-tools.sh` installs them.
pub const CUDA_WHEELS: [&str; 2] = [
    "nvidia-cuda-nvcc-cu12==12.9.86",
    "nvidia-cuda-nvdisasm==13.5.37",
];

/// Where each tool lies inside a tools directory with those wheels.
const WHEEL_BINS: [&str; 4] = [
    "nvidia/cuda_nvcc/bin",
    "nvidia/cu13/bin",
    "nvidia/cuda_cuobjdump/bin",
    "nvidia/cuda_nvdisasm/bin",
];

/// The repository root (two levels above this crate) when this crate was
/// built from a checkout; for a crate built from a registry it names no
/// checkout (check with [`checkout_root`]).
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The checkout this crate was built from, if it was and it still exists.
pub fn checkout_root() -> Option<PathBuf> {
    let root = repo_root();
    root.join("crates/cg-runtime/Cargo.toml")
        .is_file()
        .then_some(root)
}

/// The directory NVIDIA's wheels are installed into: [`TOOLS_DIR_VAR`] if
/// set, else `.tools/cuda` of the checkout this crate was built from, else
/// `cg-tools/cuda` under `$CARGO_HOME` (default `~/.cargo`).
pub fn tools_dir() -> PathBuf {
    tools_dirs()
        .into_iter()
        .next()
        .unwrap_or_else(|| PathBuf::from(".tools/cuda"))
}

/// Every directory searched for the wheels, [`tools_dir`] first: the
/// variable's, the checkout's and the one under `$CARGO_HOME`.
pub fn tools_dirs() -> Vec<PathBuf> {
    let mut dirs = Vec::new();
    if let Some(d) = std::env::var_os(TOOLS_DIR_VAR).filter(|d| !d.is_empty()) {
        dirs.push(PathBuf::from(d));
    }
    if let Some(root) = checkout_root() {
        dirs.push(root.join(".tools/cuda"));
    }
    let cargo_home = std::env::var_os("CARGO_HOME")
        .filter(|d| !d.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cargo")));
    if let Some(home) = cargo_home {
        dirs.push(home.join("cg-tools/cuda"));
    }
    dirs
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
    for wheels in tools_dirs() {
        dirs.extend(WHEEL_BINS.iter().map(|sub| wheels.join(sub)));
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
