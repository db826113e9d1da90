//! `cargo cg new <dir>`: a project of two crates, ready to run.
//!
//! ```text
//! <dir>/
//!   Cargo.toml            workspace: kernels + host
//!   rust-toolchain.toml   nightly with rust-src (the GPU build needs them)
//!   kernels/              #![no_std] kernel crate: one #[kernel]
//!   host/                 build.rs (cg-build) + main.rs: runs and verifies it
//! ```

use std::fs;
use std::path::{Path, PathBuf};

/// Where the library comes from in the generated manifests.
fn library_source(krate: &str) -> String {
    // The checkout this binary was built from (`cargo install --path
    // crates/cargo-cg` records it at compile time); a published cargo-cg
    // would depend by version instead.
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let root = root.canonicalize().unwrap_or(root);
    let path = root.join("crates").join(krate);
    if path.join("Cargo.toml").exists() {
        format!("{{ path = {:?} }}", path.display().to_string())
    } else {
        format!("{:?}", env!("CARGO_PKG_VERSION"))
    }
}

pub fn run(args: &[String]) -> Result<(), String> {
    let pos = super::positional(args, &["--name"]);
    let [dir] = pos.as_slice() else {
        return Err("usage: cargo cg new <DIR> [--name NAME]".into());
    };
    let dir = PathBuf::from(dir);
    if dir.exists()
        && fs::read_dir(&dir)
            .map(|mut d| d.next().is_some())
            .unwrap_or(true)
    {
        return Err(format!("{} exists and is not empty", dir.display()));
    }
    let name = match super::flag(args, "--name") {
        Some(n) => n,
        None => dir
            .canonicalize()
            .unwrap_or_else(|_| dir.clone())
            .file_name()
            .and_then(|n| n.to_str())
            .ok_or("cannot derive a project name from the directory: pass --name")?
            .to_string(),
    };
    if name.is_empty()
        || !name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        || name.starts_with(|c: char| c.is_ascii_digit())
    {
        return Err(format!(
            "`{name}` is not a crate name (letters, digits, `-`, `_`; not starting with a digit): pass --name"
        ));
    }
    for (path, text) in files(&name) {
        let p = dir.join(path);
        fs::create_dir_all(p.parent().unwrap()).map_err(|e| format!("{}: {e}", p.display()))?;
        fs::write(&p, text).map_err(|e| format!("{}: {e}", p.display()))?;
    }
    println!(
        "created {} ({name}-kernels: the kernel crate; {name}: the host crate)\n\n\
         next:\n    cd {}\n    cargo run          # on the GPU if there is one, else on the simulator; verifies the result\n    \
         CG_SMS=90 cargo run  # build PTX for one SM only while iterating",
        dir.display(),
        dir.display()
    );
    Ok(())
}

/// The project's files: (path relative to the project, contents).
fn files(name: &str) -> Vec<(&'static str, String)> {
    let lib = format!("{}_kernels", name.replace('-', "_"));
    let cg = library_source("cooperative-groups");
    let runtime = library_source("cg-runtime");
    let build = library_source("cg-build");
    vec![
        (
            "Cargo.toml",
            "[workspace]\nresolver = \"3\"\nmembers = [\"kernels\", \"host\"]\n".to_string(),
        ),
        (
            "rust-toolchain.toml",
            "# The GPU build compiles `core` for nvptx64 (-Zbuild-std): nightly with rust-src.\n\
             [toolchain]\nchannel = \"nightly\"\ncomponents = [\"rust-src\"]\n"
                .to_string(),
        ),
        (".gitignore", "/target\n".to_string()),
        (
            "kernels/Cargo.toml",
            format!(
                "[package]\nname = \"{name}-kernels\"\nversion = \"0.1.0\"\nedition = \"2024\"\n\n\
                 [dependencies]\ncooperative-groups = {cg}\n"
            ),
        ),
        ("kernels/src/lib.rs", KERNEL_LIB.to_string()),
        (
            "host/Cargo.toml",
            format!(
                "[package]\nname = \"{name}\"\nversion = \"0.1.0\"\nedition = \"2024\"\n\n\
                 [dependencies]\ncg-runtime = {runtime}\n{name}-kernels = {{ path = \"../kernels\" }}\n\n\
                 [build-dependencies]\ncg-build = {build}\n"
            ),
        ),
        ("host/build.rs", HOST_BUILD.to_string()),
        (
            "host/src/main.rs",
            HOST_MAIN
                .replace("{lib}", &lib)
                .replace("{static}", &lib.to_uppercase()),
        ),
    ]
}

const KERNEL_LIB: &str = r#"//! The kernels: plain Rust against `cooperative-groups`, compiled to PTX by
//! the host crate's build script (cg-build) and run on the CPU by the
//! simulator.
#![no_std]
#![cfg_attr(target_arch = "nvptx64", feature(abi_gpu_kernel, asm_experimental_arch))]

use cooperative_groups::kernel;
use cooperative_groups::prelude::*;

/// Each warp-sized tile sums its values and gives every thread its exclusive
/// offset inside the tile; the block sums the tile totals.
#[kernel]
pub fn tile_sums(input: *const u32, offsets: *mut u32, totals: *mut u32) {
    let block = this_thread_block();
    let tile = tiled_partition::<32>(&block);
    let i = (block.group_index().x * block.num_threads() + block.thread_rank()) as usize;
    // SAFETY: the launch has one input and one offset per thread.
    let x = unsafe { *input.add(i) };
    let tile_sum = reduce(&tile, x, Plus);
    let offset = exclusive_scan(&tile, x, Plus);
    let mine = if tile.thread_rank() == 0 { tile_sum } else { 0 };
    let block_sum = reduce(&block, mine, Plus);
    // SAFETY: as above; one total per block.
    unsafe { *offsets.add(i) = offset };
    if block.thread_rank() == 0 {
        unsafe { *totals.add(block.group_index().x as usize) = block_sum };
    }
}
"#;

const HOST_BUILD: &str = r#"//! Builds the kernel crate to PTX (one module per SM) and writes the table
//! that src/main.rs includes.
fn main() {
    cg_build::KernelCrate::at("../kernels")
        .build()
        .unwrap_or_else(|e| e.fail());
}
"#;

const HOST_MAIN: &str = r#"//! Runs `tile_sums` on the GPU if there is one, otherwise on the simulator,
//! and checks every output against a CPU computation.

use cg_runtime::{Backend, LaunchConfig};
use {lib}::TILE_SUMS;

// `{static}`: the kernel crate's PTX, one module per SM (written by build.rs).
include!(concat!(env!("OUT_DIR"), "/{lib}.rs"));

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let (blocks, threads) = (64u32, 128u32);
    let n = (blocks * threads) as usize;
    let data: Vec<u32> = (0..n as u32).map(|i| i.wrapping_mul(2_654_435_761) % 1000).collect();
    let backend = match Backend::gpu(0, &{static}) {
        Ok(b) => b,
        Err(e) => {
            println!("running on the simulator: {e}");
            Backend::sim()
        }
    };
    let input = backend.upload(&data)?;
    let offsets = backend.alloc::<u32>(n)?;
    let totals = backend.alloc::<u32>(blocks as usize)?;
    backend.launch(
        &TILE_SUMS,
        &LaunchConfig::linear(blocks, threads),
        (input.as_ptr() as *const u32, offsets.as_ptr(), totals.as_ptr()),
    )?;
    if let Backend::Gpu(gpu) = &backend {
        println!("ran on {} (PTX sm_{})", gpu.info().name, gpu.ptx_sm());
    }
    let (offsets, totals) = (offsets.to_vec()?, totals.to_vec()?);
    for (t, tile) in data.chunks(32).enumerate() {
        let mut acc = 0;
        for (k, &x) in tile.iter().enumerate() {
            let i = 32 * t + k;
            if offsets[i] != acc {
                return Err(format!("thread {i}: offset {} (expected {acc})", offsets[i]).into());
            }
            acc += x;
        }
    }
    for (b, chunk) in data.chunks(threads as usize).enumerate() {
        let want: u32 = chunk.iter().sum();
        if totals[b] != want {
            return Err(format!("block {b}: total {} (expected {want})", totals[b]).into());
        }
    }
    println!("tile_sums: {n} offsets and {blocks} block totals verified");
    Ok(())
}
"#;

#[cfg(test)]
mod tests {
    use super::*;

    /// The README's launch snippet is the generated `main.rs`, line for
    /// line (CI builds and runs a generated project, so the snippet
    /// compiles as written).
    #[test]
    fn the_readme_launch_snippet_is_the_template() {
        let readme = include_str!("../../../README.md");
        let start = readme
            .find("let backend = match Backend::gpu(0, &KERNELS)")
            .expect("README launch snippet");
        let end = start + readme[start..].find("```").unwrap();
        let trimmed = |s: &str| -> Vec<String> {
            s.lines()
                .map(|l| l.trim().to_string())
                .filter(|l| !l.is_empty())
                .collect()
        };
        let snippet = trimmed(&readme[start..end]);
        let main = trimmed(&HOST_MAIN.replace("{static}", "KERNELS"));
        assert!(
            main.windows(snippet.len()).any(|w| w == snippet.as_slice()),
            "the README's launch snippet is not in the generated main.rs:\n{}",
            snippet.join("\n")
        );
    }

    #[test]
    fn a_project_depends_on_this_checkout() {
        let files = files("demo-app");
        let host = &files
            .iter()
            .find(|(p, _)| *p == "host/Cargo.toml")
            .unwrap()
            .1;
        assert!(host.contains("cg-runtime = { path = "), "{host}");
        assert!(
            host.contains("demo-app-kernels = { path = \"../kernels\" }"),
            "{host}"
        );
        let main = &files
            .iter()
            .find(|(p, _)| *p == "host/src/main.rs")
            .unwrap()
            .1;
        assert!(main.contains("use demo_app_kernels::TILE_SUMS;"), "{main}");
        assert!(main.contains("/demo_app_kernels.rs\"));"), "{main}");
        assert!(
            main.contains("Backend::gpu(0, &DEMO_APP_KERNELS)"),
            "{main}"
        );
    }
}
