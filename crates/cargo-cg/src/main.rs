//! `cargo cg`: the entry point for a project of your own.
//!
//! * `cargo cg new <dir>`: a working project (a kernel crate and a host
//!   crate) whose `cargo run` runs and verifies a sample kernel on the GPU,
//!   or on the simulator where there is none;
//! * `cargo cg doctor [--fix]`: what the machine has (the nightly named by
//!   `rust-toolchain.toml`, `rust-src`, `ptxas`, the CUDA driver, a GPU) and
//!   what to do about what it lacks; `--fix` installs the toolchain,
//!   `rust-src` and NVIDIA's `ptxas`/`nvdisasm` wheels and says what it ran;
//! * `cargo cg ptx <kernel>`: a kernel's PTX, its SASS (`--sass`, where
//!   `ptxas` and `nvdisasm` exist) or its registers and shared memory as
//!   `ptxas -v` reports them (`--check`), from the PTX that `cg-build` wrote
//!   in this project.

#![warn(missing_docs)]

mod doctor;
mod new;
mod ptx;

use std::process::ExitCode;

const USAGE: &str = "\
cargo cg: CUDA Cooperative Groups for Rust kernels

USAGE:
    cargo cg new <DIR> [--name NAME] [--checkout DIR | --registry DIR | --crates-io]
                                       a new project: kernel crate + host crate, depending on
                                       the library by path (a checkout) or by version (a local
                                       directory registry, or crates.io); it says which
    cargo cg doctor [--fix]            check the toolchain, ptxas, driver and GPU; --fix installs
                                       the nightly, rust-src and NVIDIA's ptxas/nvdisasm wheels
    cargo cg ptx <KERNEL> [--sm SM] [--sass | --check] [--target-dir DIR]
                                       print a kernel's PTX, its SASS, or what ptxas -v says of it
    cargo cg help                      this text
";

fn main() -> ExitCode {
    // Run as `cargo cg …`, cargo passes "cg" as the first argument.
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("cg") {
        args.remove(0);
    }
    let result = match args.first().map(String::as_str) {
        Some("new") => new::run(&args[1..]),
        Some("doctor") => doctor::run(&args[1..]),
        Some("ptx") => ptx::run(&args[1..]),
        Some("help" | "--help" | "-h") | None => {
            print!("{USAGE}");
            Ok(())
        }
        Some(other) => Err(format!("unknown command `{other}`\n\n{USAGE}")),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The value after flag `name` in `args`, if present.
fn flag(args: &[String], name: &str) -> Option<String> {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1).cloned())
}

/// `args` without flags and their values (`flags_with_value` take one).
fn positional(args: &[String], flags_with_value: &[&str]) -> Vec<String> {
    let mut out = Vec::new();
    let mut skip = false;
    for a in args {
        if skip {
            skip = false;
        } else if flags_with_value.contains(&a.as_str()) {
            skip = true;
        } else if !a.starts_with("--") {
            out.push(a.clone());
        }
    }
    out
}
