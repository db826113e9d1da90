//! Builds `cg-kernels` to PTX, once per supported SM, and embeds the files:
//! the lab's module (default features) and the test module (feature
//! `collectives`: every kernel plus the collective test kernels, loaded only
//! by `cg-lab verify`).
//!
//! Each SM gets its own nested `cargo rustc --target nvptx64-nvidia-cuda
//! -Zbuild-std=core` in its own target directory (`target/nvptx/sm_XX`), so
//! `core` is compiled for the GPU once per SM and then cached: an edit to host
//! code does not rerun this script (it watches only the kernel sources), and
//! an edit to a kernel recompiles only the kernel crates.

use std::env;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// SMs we emit PTX for. The runtime picks the newest one ≤ the device's
/// compute capability; the driver JITs sm_90 PTX on newer GPUs too.
const SMS: &[u32] = &[70, 80, 90];

/// Extra target features per SM: PTX ISA 8.0 on sm_90 for `elect.sync`.
fn features(sm: u32) -> &'static str {
    if sm >= 90 {
        " -Ctarget-feature=+ptx80"
    } else {
        ""
    }
}

fn main() {
    let manifest = PathBuf::from(env::var("CARGO_MANIFEST_DIR").unwrap());
    let root = manifest.parent().unwrap().parent().unwrap().to_path_buf();
    let out = PathBuf::from(env::var("OUT_DIR").unwrap());

    for dir in [
        "crates/cg-kernels",
        "crates/cooperative-groups",
        "crates/cg-macros",
    ] {
        println!(
            "cargo:rerun-if-changed={}",
            root.join(dir).join("src").display()
        );
        println!(
            "cargo:rerun-if-changed={}",
            root.join(dir).join("Cargo.toml").display()
        );
    }
    println!(
        "cargo:rerun-if-changed={}",
        root.join("Cargo.toml").display()
    );
    println!(
        "cargo:rerun-if-changed={}",
        root.join("rust-toolchain.toml").display()
    );

    check_toolchain();

    let cargo = env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    // One thread per SM; the two modules of an SM share a target directory
    // (and its compiled `core`), so they build one after the other.
    let results: Vec<(u32, PathBuf, PathBuf)> = std::thread::scope(|s| {
        let handles: Vec<_> = SMS
            .iter()
            .map(|&sm| {
                let (cargo, root, out) = (&cargo, &root, &out);
                s.spawn(move || {
                    let lab = out.join(format!("sm_{sm}.ptx"));
                    let test = out.join(format!("sm_{sm}_test.ptx"));
                    nested_build(cargo, root, sm, &lab, None);
                    nested_build(cargo, root, sm, &test, Some("collectives"));
                    (sm, lab, test)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("kernel build thread"))
            .collect()
    });

    let mut table = String::new();
    for (name, doc, pick) in [
        (
            "EMBEDDED_PTX",
            "The lab's kernels, one PTX per SM, newest last.",
            0,
        ),
        (
            "EMBEDDED_TEST_PTX",
            "Every kernel plus the collective test kernels, one PTX per SM.",
            1,
        ),
    ] {
        table.push_str(&format!(
            "/// {doc}\npub static {name}: &[EmbeddedPtx] = &[\n"
        ));
        for (sm, lab, test) in &results {
            let path = if pick == 0 { lab } else { test };
            table.push_str(&format!(
                "    EmbeddedPtx {{ sm: {sm}, ptx: include_str!({:?}) }},\n",
                path.display().to_string()
            ));
        }
        table.push_str("];\n");
    }
    fs::write(out.join("embedded_ptx.rs"), table).unwrap();
}

/// Builds `cg-kernels` for `sm` (with `feature`, if any), writing its PTX to
/// `ptx`; fails the build script with the compiler's output on error.
fn nested_build(cargo: &str, root: &Path, sm: u32, ptx: &Path, feature: Option<&str>) {
    let mut cmd = Command::new(cargo);
    // A clean environment for the nested cargo: the outer build's flags,
    // wrappers (clippy-driver under `cargo clippy`) and target dir must not leak in.
    for (k, _) in env::vars_os() {
        let k = k.to_string_lossy().into_owned();
        if (k.starts_with("CARGO") && k != "CARGO_HOME" && k != "CARGO_NET_OFFLINE")
            || k.starts_with("RUSTC")
            || k == "RUSTFLAGS"
            || k == "RUSTDOCFLAGS"
            || k == "CLIPPY_ARGS"
            || k.starts_with("__CARGO")
        {
            cmd.env_remove(&k);
        }
    }
    cmd.current_dir(root)
        .env("RUSTFLAGS", format!("-Ctarget-cpu=sm_{sm}{}", features(sm)))
        .args([
            "rustc",
            "-p",
            "cg-kernels",
            "--profile",
            "ptx",
            "-Zbuild-std=core",
        ])
        .args([
            "--target",
            "nvptx64-nvidia-cuda",
            "--crate-type",
            "staticlib",
        ])
        .args(feature.map(|f| format!("--features=cg-kernels/{f}")))
        .arg("--target-dir")
        .arg(root.join("target").join("nvptx").join(format!("sm_{sm}")))
        .arg("--")
        .arg(format!("--emit=asm={}", ptx.display()))
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    let output = cmd
        .output()
        .unwrap_or_else(|e| fail(&format!("cannot run `{cargo}` for the kernel build: {e}")));
    if !output.status.success() {
        let log = String::from_utf8_lossy(&output.stderr);
        let what = feature
            .map(|f| format!(" (feature {f})"))
            .unwrap_or_default();
        fail(&format!(
            "building the kernels for sm_{sm}{what} failed (nested `cargo rustc --target nvptx64-nvidia-cuda`):\n{log}"
        ));
    }
}

/// Fails early, in one line, when the toolchain cannot build for nvptx64.
fn check_toolchain() {
    let rustc = env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let version = Command::new(&rustc)
        .arg("-vV")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
        .unwrap_or_default();
    if !version.contains("-nightly") && !version.contains("-dev") {
        fail(
            "the GPU kernels need a nightly toolchain: run `rustup toolchain install nightly --component rust-src` \
             (rust-toolchain.toml selects it)",
        );
    }
    let sysroot = Command::new(&rustc)
        .args(["--print", "sysroot"])
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_default();
    let src = Path::new(&sysroot).join("lib/rustlib/src/rust/library/core");
    if !src.exists() {
        fail(
            "the nightly toolchain lacks rust-src: run `rustup component add rust-src --toolchain nightly`",
        );
    }
}

fn fail(msg: &str) -> ! {
    eprintln!("error: {msg}");
    println!("cargo:warning={}", msg.lines().next().unwrap_or(msg));
    std::process::exit(1);
}
