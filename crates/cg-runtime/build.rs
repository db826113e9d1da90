//! Builds `cg-kernels` to PTX, once per supported SM, and embeds the files.
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
    if sm >= 90 { " -Ctarget-feature=+ptx80" } else { "" }
}

fn main() {
    let manifest = PathBuf::from(env::var("CARGO_MANIFEST_DIR").unwrap());
    let root = manifest.parent().unwrap().parent().unwrap().to_path_buf();
    let out = PathBuf::from(env::var("OUT_DIR").unwrap());

    for dir in ["crates/cg-kernels", "crates/cooperative-groups", "crates/cg-macros"] {
        println!("cargo:rerun-if-changed={}", root.join(dir).join("src").display());
        println!("cargo:rerun-if-changed={}", root.join(dir).join("Cargo.toml").display());
    }
    println!("cargo:rerun-if-changed={}", root.join("Cargo.toml").display());
    println!("cargo:rerun-if-changed={}", root.join("rust-toolchain.toml").display());

    check_toolchain();

    let cargo = env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let builds: Vec<_> = SMS
        .iter()
        .map(|&sm| {
            let ptx = out.join(format!("sm_{sm}.ptx"));
            let child = nested_build(&cargo, &root, sm, &ptx);
            (sm, ptx, child)
        })
        .collect();

    let mut table = String::from("/// PTX of `cg-kernels`, one per SM, newest last.\n");
    table.push_str("pub static EMBEDDED_PTX: &[EmbeddedPtx] = &[\n");
    for (sm, ptx, child) in builds {
        let output = child.wait_with_output().expect("waiting for the nested kernel build");
        if !output.status.success() {
            let log = String::from_utf8_lossy(&output.stderr);
            fail(&format!(
                "building the kernels for sm_{sm} failed (nested `cargo rustc --target nvptx64-nvidia-cuda`):\n{log}"
            ));
        }
        table.push_str(&format!(
            "    EmbeddedPtx {{ sm: {sm}, ptx: include_str!({:?}) }},\n",
            ptx.display().to_string()
        ));
    }
    table.push_str("];\n");
    fs::write(out.join("embedded_ptx.rs"), table).unwrap();
}

/// Starts one nested build of `cg-kernels` for `sm`, writing its PTX to `ptx`.
fn nested_build(cargo: &str, root: &Path, sm: u32, ptx: &Path) -> std::process::Child {
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
        .args(["rustc", "-p", "cg-kernels", "--profile", "ptx", "-Zbuild-std=core"])
        .args(["--target", "nvptx64-nvidia-cuda", "--crate-type", "staticlib"])
        .arg("--target-dir")
        .arg(root.join("target").join("nvptx").join(format!("sm_{sm}")))
        .arg("--")
        .arg(format!("--emit=asm={}", ptx.display()))
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    cmd.spawn().unwrap_or_else(|e| fail(&format!("cannot run `{cargo}` for the kernel build: {e}")))
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
        fail("the nightly toolchain lacks rust-src: run `rustup component add rust-src --toolchain nightly`");
    }
}

fn fail(msg: &str) -> ! {
    eprintln!("error: {msg}");
    println!("cargo:warning={}", msg.lines().next().unwrap_or(msg));
    std::process::exit(1);
}
