//! `cargo cg new <dir>`: a project of two crates, ready to run.
//!
//! ```text
//! <dir>/
//!   Cargo.toml            workspace: kernels + host
//!   rust-toolchain.toml   nightly with rust-src (the GPU build needs them)
//!   kernels/              #![no_std] kernel crate: one #[kernel]
//!   host/                 build.rs (cg-build) + main.rs: runs and verifies it
//!   .cargo/config.toml    only with --registry: crates.io replaced by that directory
//! ```
//!
//! The library (`cooperative-groups`, `cg-runtime`, `cg-build`) comes from
//! one of three places, and the command says which it wrote:
//!
//! * `--checkout DIR`: path dependencies on a checkout; the default when
//!   this binary was built from a checkout that still exists;
//! * `--registry DIR`: versions, from a local directory registry that a
//!   checkout's `scripts/registry.sh` writes (the packages `cargo package`
//!   made and verified, with every crate they need from crates.io and the
//!   nightly's library dependencies, so the project builds offline); the
//!   default when this binary was installed from such a directory;
//! * `--crates-io`: versions, from crates.io; the default otherwise.

use std::fs;
use std::path::{Path, PathBuf};

/// The version every crate of this project has (they share the workspace's).
const VERSION: &str = env!("CARGO_PKG_VERSION");

/// The crates a generated project depends on.
const LIBRARY: [&str; 3] = ["cooperative-groups", "cg-runtime", "cg-build"];

/// Where the generated manifests take the library from.
#[derive(Clone, Debug, PartialEq)]
enum Source {
    /// Path dependencies on the crates of a checkout of this repository.
    Checkout(PathBuf),
    /// Versions, served by a local directory registry (a `cargo vendor`
    /// layout, as `scripts/registry.sh` writes): the project's
    /// `.cargo/config.toml` replaces crates.io with it.
    Registry(PathBuf),
    /// Versions, from crates.io.
    CratesIo,
}

impl Source {
    /// The source the flags ask for, or the default: the checkout this
    /// binary was built from (`cargo install --path crates/cargo-cg`), else
    /// the directory registry it was installed from, else crates.io.
    fn choose(args: &[String]) -> Result<Source, String> {
        let checkout = super::flag(args, "--checkout");
        let registry = super::flag(args, "--registry");
        let crates_io = args.iter().any(|a| a == "--crates-io");
        match (checkout, registry, crates_io) {
            (Some(dir), None, false) => {
                let dir = absolute(Path::new(&dir))?;
                is_checkout(&dir).then(|| Source::Checkout(dir.clone())).ok_or_else(|| {
                    format!(
                        "--checkout {}: not a checkout of cooperative-groups (no crates/cooperative-groups/Cargo.toml)",
                        dir.display()
                    )
                })
            }
            (None, Some(dir), false) => {
                let dir = absolute(Path::new(&dir))?;
                match missing_from_registry(&dir) {
                    None => Ok(Source::Registry(dir)),
                    Some(krate) => Err(format!(
                        "--registry {}: no {krate}-{VERSION}/Cargo.toml there (a checkout's `scripts/registry.sh DIR` makes such a directory)",
                        dir.display()
                    )),
                }
            }
            (None, None, true) => Ok(Source::CratesIo),
            (None, None, false) => Ok(Source::default_for(Path::new(env!("CARGO_MANIFEST_DIR")))),
            _ => Err("pass at most one of --checkout DIR, --registry DIR, --crates-io".into()),
        }
    }

    /// The default for a binary built from the package in `manifest_dir`.
    fn default_for(manifest_dir: &Path) -> Source {
        let root = manifest_dir.join("../..");
        let root = root.canonicalize().unwrap_or(root);
        if is_checkout(&root) {
            return Source::Checkout(root);
        }
        // Installed from a directory registry: this package sits in it,
        // next to the library's packages.
        match manifest_dir.parent() {
            Some(reg) if missing_from_registry(reg).is_none() => {
                Source::Registry(reg.canonicalize().unwrap_or_else(|_| reg.to_path_buf()))
            }
            _ => Source::CratesIo,
        }
    }

    /// The dependency line's value for `krate`.
    fn dependency(&self, krate: &str) -> String {
        match self {
            Source::Checkout(root) => {
                let path = root.join("crates").join(krate);
                format!("{{ path = {:?} }}", path.display().to_string())
            }
            Source::Registry(_) | Source::CratesIo => format!("{VERSION:?}"),
        }
    }

    /// The project's `.cargo/config.toml`, where one is needed.
    fn cargo_config(&self) -> Option<String> {
        let Source::Registry(dir) = self else {
            return None;
        };
        Some(format!(
            "# Written by `cargo cg new` for a local registry: every crate, the library's\n\
             # and those of crates.io it needs, comes from this directory, offline.\n\
             # Delete this file to build against crates.io instead.\n\
             [source.crates-io]\nreplace-with = \"cg-local\"\n\n\
             [source.cg-local]\ndirectory = {:?}\n",
            dir.display().to_string()
        ))
    }

    /// One line saying which form the manifests have.
    fn describe(&self) -> String {
        let crates = LIBRARY.join(", ");
        match self {
            Source::Checkout(root) => {
                format!(
                    "dependencies: path — {crates} of the checkout {}",
                    root.display()
                )
            }
            Source::Registry(dir) => format!(
                "dependencies: version {VERSION} — {crates} from the local registry {} (.cargo/config.toml replaces crates.io with it)",
                dir.display()
            ),
            Source::CratesIo => format!(
                "dependencies: version {VERSION} — {crates} from crates.io (or pass --registry DIR for a local registry, --checkout DIR for a checkout)"
            ),
        }
    }
}

/// Whether `root` is a checkout of this repository.
fn is_checkout(root: &Path) -> bool {
    root.join("crates/cooperative-groups/Cargo.toml").is_file()
        && root.join("crates/cg-runtime/Cargo.toml").is_file()
}

/// The first library crate that the directory registry `dir` lacks at this
/// version, or `None` when it has them all.
fn missing_from_registry(dir: &Path) -> Option<&'static str> {
    LIBRARY
        .into_iter()
        .find(|k| !dir.join(format!("{k}-{VERSION}/Cargo.toml")).is_file())
}

fn absolute(dir: &Path) -> Result<PathBuf, String> {
    dir.canonicalize()
        .map_err(|e| format!("{}: {e}", dir.display()))
}

pub fn run(args: &[String]) -> Result<(), String> {
    let pos = super::positional(args, &["--name", "--checkout", "--registry"]);
    let [dir] = pos.as_slice() else {
        return Err(
            "usage: cargo cg new <DIR> [--name NAME] [--checkout DIR | --registry DIR | --crates-io]"
                .into(),
        );
    };
    let source = Source::choose(args)?;
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
    for (path, text) in files(&name, &source) {
        let p = dir.join(path);
        fs::create_dir_all(p.parent().unwrap()).map_err(|e| format!("{}: {e}", p.display()))?;
        fs::write(&p, text).map_err(|e| format!("{}: {e}", p.display()))?;
    }
    println!(
        "created {} ({name}-kernels: the kernel crate; {name}: the host crate)\n{}\n\n\
         next:\n    cd {}\n    cargo run          # on the GPU if there is one, else on the simulator; verifies the result\n    \
         CG_SMS=90 cargo run  # build PTX for one SM only while iterating",
        dir.display(),
        source.describe(),
        dir.display()
    );
    Ok(())
}

/// The project's files: (path relative to the project, contents).
fn files(name: &str, source: &Source) -> Vec<(&'static str, String)> {
    let lib = format!("{}_kernels", name.replace('-', "_"));
    let cg = source.dependency("cooperative-groups");
    let runtime = source.dependency("cg-runtime");
    let build = source.dependency("cg-build");
    let mut files = vec![
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
    ];
    if let Some(config) = source.cargo_config() {
        files.push((".cargo/config.toml", config));
    }
    files
}

const KERNEL_LIB: &str = r#"//! The kernels: plain Rust against `cooperative-groups`, compiled to PTX by
//! the host crate's build script (cg-build) and run on the CPU by the
//! simulator.
#![no_std]
#![cfg_attr(target_arch = "nvptx64", feature(abi_gpu_kernel, asm_experimental_arch))]

use cooperative_groups::prelude::*;
use cooperative_groups::{GlobalSlice, OwnedSlice, PerBlock, kernel};

/// Each warp-sized tile sums its values and gives every thread its exclusive
/// offset inside the tile; the block sums the tile totals. No `unsafe`: the
/// parameters are typed, each thread writes only the elements its identity
/// gives it (`offsets.at(&grid)`, `totals.leader(&block)`), and every index
/// is checked.
#[kernel]
pub fn tile_sums(input: GlobalSlice<u32>, offsets: OwnedSlice<u32>, totals: OwnedSlice<u32, PerBlock>) {
    let block = this_thread_block();
    let tile = tiled_partition::<32>(&block);
    let grid = this_grid();
    let x = input.load(grid.thread_rank() as usize);
    let tile_sum = reduce(&tile, x, Plus);
    let offset = exclusive_scan(&tile, x, Plus);
    let mine = if tile.thread_rank() == 0 { tile_sum } else { 0 };
    let block_sum = reduce(&block, mine, Plus);
    if let Some(e) = offsets.at(&grid) {
        e.store(offset);
    }
    if let Some(e) = totals.leader(&block) {
        e.store(block_sum);
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
    let mut offsets = backend.alloc::<u32>(n)?;
    let mut totals = backend.alloc::<u32>(blocks as usize)?;
    backend.launch(
        &TILE_SUMS,
        &LaunchConfig::linear(blocks, threads),
        (&input, &mut offsets, &mut totals),
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

    /// The guide's getting-started chapter shows the files of a project
    /// named `my-kernels` as this template writes them (CI builds and runs
    /// such a project, so the chapter's code compiles as shown).
    #[test]
    fn the_guide_shows_the_template() {
        let guide = include_str!("../../../docs/guide/getting-started.md");
        let files = files("my-kernels", &Source::CratesIo);
        for path in ["kernels/src/lib.rs", "host/build.rs", "host/src/main.rs"] {
            let text = file(&files, path);
            assert!(
                guide.contains(&format!("```rust,ignore\n{text}```\n")),
                "docs/guide/getting-started.md does not show {path} as the template writes it:\n{text}"
            );
        }
    }

    fn file<'a>(files: &'a [(&str, String)], path: &str) -> &'a str {
        &files
            .iter()
            .find(|(p, _)| *p == path)
            .unwrap_or_else(|| panic!("no {path}"))
            .1
    }

    #[test]
    fn a_project_built_from_a_checkout_depends_on_it_by_path() {
        let root = PathBuf::from("/src/cg");
        let files = files("demo-app", &Source::Checkout(root));
        let host = file(&files, "host/Cargo.toml");
        assert!(
            host.contains("cg-runtime = { path = \"/src/cg/crates/cg-runtime\" }"),
            "{host}"
        );
        assert!(
            host.contains("demo-app-kernels = { path = \"../kernels\" }"),
            "{host}"
        );
        assert!(!files.iter().any(|(p, _)| *p == ".cargo/config.toml"));
        let main = file(&files, "host/src/main.rs");
        assert!(main.contains("use demo_app_kernels::TILE_SUMS;"), "{main}");
        assert!(main.contains("/demo_app_kernels.rs\"));"), "{main}");
        assert!(
            main.contains("Backend::gpu(0, &DEMO_APP_KERNELS)"),
            "{main}"
        );
    }

    #[test]
    fn a_registry_project_depends_by_version_and_replaces_crates_io() {
        let files = files("p", &Source::Registry(PathBuf::from("/r/reg")));
        let kernels = file(&files, "kernels/Cargo.toml");
        assert!(
            kernels.contains(&format!("cooperative-groups = \"{VERSION}\"")),
            "{kernels}"
        );
        let host = file(&files, "host/Cargo.toml");
        assert!(
            host.contains(&format!("cg-runtime = \"{VERSION}\"")),
            "{host}"
        );
        assert!(
            host.contains(&format!("cg-build = \"{VERSION}\"")),
            "{host}"
        );
        assert!(!host.contains("path = \"/"), "{host}");
        let config = file(&files, ".cargo/config.toml");
        assert!(
            config.contains("[source.crates-io]\nreplace-with = \"cg-local\""),
            "{config}"
        );
        assert!(config.contains("directory = \"/r/reg\""), "{config}");
        let crates_io = super::files("p", &Source::CratesIo);
        assert_eq!(file(&crates_io, "host/Cargo.toml"), host);
        assert!(!crates_io.iter().any(|(p, _)| *p == ".cargo/config.toml"));
    }

    #[test]
    fn each_form_says_what_it_wrote() {
        let d = Source::Checkout("/c".into()).describe();
        assert!(
            d.starts_with("dependencies: path") && d.contains("/c"),
            "{d}"
        );
        let d = Source::Registry("/r".into()).describe();
        assert!(
            d.contains(&format!("version {VERSION}")) && d.contains("/r"),
            "{d}"
        );
        let d = Source::CratesIo.describe();
        assert!(d.contains("crates.io"), "{d}");
    }

    #[test]
    fn the_default_follows_where_the_binary_came_from() {
        let tmp = std::env::temp_dir().join(format!("cargo-cg-new-{}", std::process::id()));
        let _ = fs::remove_dir_all(&tmp);
        // A checkout: <root>/crates/cargo-cg is the manifest directory.
        let root = tmp.join("checkout");
        for k in ["cooperative-groups", "cg-runtime", "cargo-cg"] {
            fs::create_dir_all(root.join("crates").join(k)).unwrap();
            fs::write(root.join("crates").join(k).join("Cargo.toml"), "").unwrap();
        }
        assert_eq!(
            Source::default_for(&root.join("crates/cargo-cg")),
            Source::Checkout(root.canonicalize().unwrap())
        );
        // A directory registry: <dir>/cargo-cg-<version> beside the library.
        let reg = tmp.join("reg");
        for k in LIBRARY.iter().chain(&["cargo-cg"]) {
            let d = reg.join(format!("{k}-{VERSION}"));
            fs::create_dir_all(&d).unwrap();
            fs::write(d.join("Cargo.toml"), "").unwrap();
        }
        let installed = reg.join(format!("cargo-cg-{VERSION}"));
        assert_eq!(
            Source::default_for(&installed),
            Source::Registry(reg.canonicalize().unwrap())
        );
        // Neither (a registry that lacks cg-build): crates.io.
        fs::remove_dir_all(reg.join(format!("cg-build-{VERSION}"))).unwrap();
        assert_eq!(Source::default_for(&installed), Source::CratesIo);
        fs::remove_dir_all(&tmp).unwrap();
    }
}
