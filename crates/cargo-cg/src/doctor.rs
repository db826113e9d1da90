//! `cargo cg doctor`: each requirement, OK or what to do.

use std::process::Command;

/// One check's outcome.
enum Status {
    Ok(String),
    /// Missing but optional: what it would add, and how to get it.
    Optional(String),
    /// Missing and needed: how to fix it.
    Missing(String),
}

pub fn run(_args: &[String]) -> Result<(), String> {
    let checks: Vec<(&str, Status)> = vec![
        ("nightly toolchain", nightly()),
        ("rust-src (for -Zbuild-std=core)", rust_src()),
        (
            "ptxas (optional: PTX checks, SASS)",
            tool("ptxas", "--version"),
        ),
        (
            "nvdisasm (optional: SASS listings)",
            tool("nvdisasm", "--version"),
        ),
        ("CUDA driver and GPU", gpu()),
    ];
    let mut missing = 0;
    for (what, status) in &checks {
        match status {
            Status::Ok(s) => println!("ok       {what}: {s}"),
            Status::Optional(s) => println!("optional {what}: {s}"),
            Status::Missing(s) => {
                missing += 1;
                println!("MISSING  {what}: {s}");
            }
        }
    }
    if missing == 0 {
        println!("\nready: `cargo cg new <dir>` then `cargo run` in it");
        Ok(())
    } else {
        Err(format!("{missing} requirement(s) missing (see above)"))
    }
}

fn output(cmd: &mut Command) -> Option<String> {
    let o = cmd.output().ok()?;
    o.status
        .success()
        .then(|| String::from_utf8_lossy(&o.stdout).trim().to_string())
}

fn nightly() -> Status {
    let v = output(Command::new("rustup").args(["run", "nightly", "rustc", "--version"]));
    match v {
        Some(v) => Status::Ok(v),
        None => {
            Status::Missing("run `rustup toolchain install nightly --component rust-src`".into())
        }
    }
}

fn rust_src() -> Status {
    let Some(sysroot) =
        output(Command::new("rustup").args(["run", "nightly", "rustc", "--print", "sysroot"]))
    else {
        return Status::Missing("needs the nightly toolchain first".into());
    };
    let core = std::path::Path::new(&sysroot).join("lib/rustlib/src/rust/library/core");
    if core.exists() {
        Status::Ok(format!("{}", core.display()))
    } else {
        Status::Missing("run `rustup component add rust-src --toolchain nightly`".into())
    }
}

fn tool(name: &str, flag: &str) -> Status {
    match cg_runtime::tools::find_tool(name) {
        Some(p) => {
            let v = output(Command::new(&p).arg(flag))
                .and_then(|v| v.lines().last().map(str::to_string))
                .unwrap_or_default();
            Status::Ok(format!("{} ({v})", p.display()))
        }
        None => Status::Optional(format!(
            "not found; `pip install nvidia-cuda-nvcc-cu12 nvidia-cuda-nvdisasm` and set CG_{}=<path>, or install the CUDA toolkit",
            name.to_uppercase()
        )),
    }
}

fn gpu() -> Status {
    match cg_runtime::device::device_count() {
        Ok(0) => Status::Optional(
            "driver loaded, no GPU: kernels run on the simulator (correctness only)".into(),
        ),
        Ok(n) => {
            let names: Vec<String> = (0..n)
                .map(|i| match cg_runtime::device::query(i) {
                    Ok(d) => format!(
                        "{i}: {} (compute capability {}.{}, {} SMs)",
                        d.name, d.compute_capability.0, d.compute_capability.1, d.sm_count
                    ),
                    Err(e) => format!("{i}: {e}"),
                })
                .collect();
            Status::Ok(names.join("; "))
        }
        Err(e) => Status::Optional(format!(
            "no CUDA driver ({e}): kernels run on the simulator; install the NVIDIA driver to run them on a GPU"
        )),
    }
}
