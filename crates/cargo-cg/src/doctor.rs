//! `cargo cg doctor [--fix]`: each requirement, OK or what to do; with
//! `--fix`, installs what it can and says what it ran.
//!
//! What `--fix` installs:
//!
//! * the toolchain that `rust-toolchain.toml` names (the nearest one above
//!   the current directory; `nightly` without one), with `rust-src` and the
//!   file's components: `rustup toolchain install`;
//! * `rust-src` where the toolchain lacks it: `rustup component add`;
//! * `ptxas` and `nvdisasm`: NVIDIA's PyPI wheels (the pins of
//!   `scripts/install-cuda-tools.sh`) with `python3 -m pip install --target`
//!   into the tools directory (`cg_runtime::tools::tools_dir`), where
//!   `cargo cg ptx` and the tests look for them.
//!
//! A driver or a GPU it cannot install: it says so.

use std::path::{Path, PathBuf};
use std::process::Command;

use cg_runtime::tools;

/// One check's outcome.
#[derive(Clone, Debug, PartialEq)]
enum Status {
    Ok(String),
    /// Missing but optional: what it would add, and how to get it.
    Optional(String),
    /// Missing and needed: how to fix it.
    Missing(String),
}

/// One requirement: what it is, its state, and what `--fix` would do.
#[derive(Clone, Debug)]
struct Check {
    what: &'static str,
    status: Status,
    fix: Option<Fix>,
}

impl Check {
    fn ok(what: &'static str, state: String) -> Check {
        Check {
            what,
            status: Status::Ok(state),
            fix: None,
        }
    }

    fn missing(what: &'static str, todo: String, fix: Option<Fix>) -> Check {
        Check {
            what,
            status: Status::Missing(todo),
            fix,
        }
    }
}

/// Something `--fix` can install.
#[derive(Clone, Debug, PartialEq)]
enum Fix {
    /// `rustup toolchain install CHANNEL` with these components.
    Toolchain {
        channel: String,
        components: Vec<String>,
    },
    /// `rustup component add rust-src` to that toolchain.
    RustSrc { channel: String },
    /// NVIDIA's wheels, pip-installed into `dir`.
    Wheels { dir: PathBuf },
}

impl Fix {
    /// The command that installs it: program and arguments.
    fn command(&self) -> Vec<String> {
        let strs = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        match self {
            Fix::Toolchain {
                channel,
                components,
            } => {
                let mut c = strs(&[
                    "rustup",
                    "toolchain",
                    "install",
                    channel,
                    "--profile",
                    "minimal",
                ]);
                for k in components {
                    c.extend(["--component".to_string(), k.clone()]);
                }
                c
            }
            Fix::RustSrc { channel } => strs(&[
                "rustup",
                "component",
                "add",
                "rust-src",
                "--toolchain",
                channel,
            ]),
            Fix::Wheels { dir } => {
                let mut c = strs(&[
                    "python3",
                    "-m",
                    "pip",
                    "install",
                    "--quiet",
                    "--disable-pip-version-check",
                    "--no-deps",
                    "--target",
                ]);
                c.push(dir.display().to_string());
                c.extend(strs(&tools::CUDA_WHEELS));
                c
            }
        }
    }
}

/// The toolchain a project asks for: `[toolchain] channel` and
/// `components` of its `rust-toolchain.toml` (or the channel of a plain
/// `rust-toolchain` file).
#[derive(Clone, Debug, PartialEq)]
struct ToolchainFile {
    /// The file it was read from (`None`: no file, the defaults).
    path: Option<PathBuf>,
    channel: String,
    /// The components to install with it; `rust-src` always among them.
    components: Vec<String>,
}

impl ToolchainFile {
    /// The nearest toolchain file in `dir` or above it, or the defaults
    /// (`nightly` with `rust-src`).
    fn find(dir: &Path) -> ToolchainFile {
        for d in dir.ancestors() {
            for name in ["rust-toolchain.toml", "rust-toolchain"] {
                let p = d.join(name);
                if let Ok(text) = std::fs::read_to_string(&p) {
                    return ToolchainFile::parse(&text, Some(p));
                }
            }
        }
        ToolchainFile::parse("", None)
    }

    fn parse(text: &str, path: Option<PathBuf>) -> ToolchainFile {
        let mut channel = None;
        let mut components = vec!["rust-src".to_string()];
        let plain = text.trim();
        if !plain.is_empty() && !plain.contains('=') && !plain.contains('[') {
            // The legacy file: just a channel name.
            channel = Some(plain.to_string());
        }
        for line in text.lines() {
            let Some((key, value)) = line.split_once('=') else {
                continue;
            };
            match key.trim() {
                "channel" => channel = Some(value.trim().trim_matches('"').to_string()),
                "components" => {
                    let list = value.trim().trim_start_matches('[').trim_end_matches(']');
                    for c in list.split(',') {
                        let c = c.trim().trim_matches('"');
                        if !c.is_empty() && !components.iter().any(|k| k == c) {
                            components.push(c.to_string());
                        }
                    }
                }
                _ => {}
            }
        }
        ToolchainFile {
            path,
            channel: channel.unwrap_or_else(|| "nightly".to_string()),
            components,
        }
    }

    /// Where the channel came from, for the report.
    fn origin(&self) -> String {
        match &self.path {
            Some(p) => format!("`{}`, named by {}", self.channel, p.display()),
            None => format!("`{}` (no rust-toolchain.toml here)", self.channel),
        }
    }
}

pub fn run(args: &[String]) -> Result<(), String> {
    let fix = args.iter().any(|a| a == "--fix");
    if let Some(other) = args.iter().find(|a| *a != "--fix") {
        return Err(format!(
            "unknown argument `{other}`\nusage: cargo cg doctor [--fix]"
        ));
    }
    let cwd = std::env::current_dir().map_err(|e| format!("current directory: {e}"))?;
    let toolchain = ToolchainFile::find(&cwd);
    let checks = check_all(&toolchain);
    let missing = report(&checks);
    let fixes = plan(&checks);
    if !fix {
        if !fixes.is_empty() {
            println!("\n`cargo cg doctor --fix` installs what it can of the above:");
            for f in &fixes {
                println!("    {}", f.command().join(" "));
            }
        }
        return verdict(missing);
    }
    if fixes.is_empty() {
        println!("\n--fix: nothing to install");
        return verdict(missing);
    }
    println!();
    apply(&fixes, &mut run_command);
    println!("\nafter --fix:");
    verdict(report(&check_all(&toolchain)))
}

fn verdict(missing: usize) -> Result<(), String> {
    if missing == 0 {
        println!("\nready: `cargo cg new <dir>` then `cargo run` in it");
        Ok(())
    } else {
        Err(format!("{missing} requirement(s) missing (see above)"))
    }
}

/// Prints one line per check; returns how many needed ones are missing.
fn report(checks: &[Check]) -> usize {
    let mut missing = 0;
    for c in checks {
        match &c.status {
            Status::Ok(s) => println!("ok       {}: {s}", c.what),
            Status::Optional(s) => println!("optional {}: {s}", c.what),
            Status::Missing(s) => {
                missing += 1;
                println!("MISSING  {}: {s}", c.what);
            }
        }
    }
    missing
}

/// What `--fix` would run for these checks, once each (one pip install
/// brings both tools).
fn plan(checks: &[Check]) -> Vec<Fix> {
    let mut fixes: Vec<Fix> = Vec::new();
    for f in checks.iter().filter_map(|c| c.fix.clone()) {
        if !fixes.contains(&f) {
            fixes.push(f);
        }
    }
    fixes
}

/// Runs each fix through `runner`, saying what it runs and how it went.
fn apply(fixes: &[Fix], runner: &mut dyn FnMut(&[String]) -> Result<(), String>) -> usize {
    let mut failed = 0;
    for f in fixes {
        let cmd = f.command();
        println!("fix: {}", cmd.join(" "));
        match runner(&cmd) {
            Ok(()) => println!("     done"),
            Err(e) => {
                failed += 1;
                println!("     failed: {e}");
            }
        }
    }
    failed
}

fn run_command(cmd: &[String]) -> Result<(), String> {
    let status = Command::new(&cmd[0])
        .args(&cmd[1..])
        .status()
        .map_err(|e| format!("cannot run `{}`: {e}", cmd[0]))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("`{}` exited with {status}", cmd[0]))
    }
}

fn check_all(toolchain: &ToolchainFile) -> Vec<Check> {
    let (nightly, channel) = nightly(toolchain);
    let has_nightly = matches!(nightly.status, Status::Ok(_));
    let mut checks = vec![nightly, rust_src(&channel, has_nightly)];
    let wheels = Fix::Wheels {
        dir: tools::tools_dir(),
    };
    checks.push(tool(
        "ptxas (optional: PTX checks, SASS)",
        "ptxas",
        "--version",
        &wheels,
    ));
    checks.push(tool(
        "nvdisasm (optional: SASS listings)",
        "nvdisasm",
        "--version",
        &wheels,
    ));
    checks.push(Check {
        what: "CUDA driver and GPU",
        status: gpu(),
        fix: None,
    });
    checks
}

fn output(cmd: &mut Command) -> Option<String> {
    let o = cmd.output().ok()?;
    o.status
        .success()
        .then(|| String::from_utf8_lossy(&o.stdout).trim().to_string())
}

/// The nightly check, and the channel the GPU build uses: the toolchain
/// file's if it names a nightly, else `nightly` (what `cg-build` falls
/// back to under a stable toolchain).
fn nightly(toolchain: &ToolchainFile) -> (Check, String) {
    let named = &toolchain.channel;
    let channel = if named.starts_with("nightly") {
        named.clone()
    } else {
        "nightly".to_string()
    };
    let what = "nightly toolchain";
    if output(Command::new("rustup").arg("--version")).is_none() {
        let todo = "rustup not found: install it from https://rustup.rs, then rerun".into();
        return (Check::missing(what, todo, None), channel);
    }
    let version = output(Command::new("rustup").args(["run", &channel, "rustc", "--version"]));
    let check = match version {
        Some(v) => Check::ok(what, format!("{v}; {}", toolchain.origin())),
        None => Check::missing(
            what,
            format!(
                "{} is not installed: run `rustup toolchain install {channel} --component rust-src`",
                toolchain.origin()
            ),
            Some(Fix::Toolchain {
                channel: channel.clone(),
                components: toolchain.components.clone(),
            }),
        ),
    };
    (check, channel)
}

/// The `rust-src` check; a missing toolchain's install brings `rust-src`
/// with it, so only a present one gets a fix of its own.
fn rust_src(channel: &str, has_nightly: bool) -> Check {
    let what = "rust-src (for -Zbuild-std=core)";
    let sysroot = has_nightly
        .then(|| {
            output(Command::new("rustup").args(["run", channel, "rustc", "--print", "sysroot"]))
        })
        .flatten();
    let Some(sysroot) = sysroot else {
        return Check::missing(what, "needs the nightly toolchain first".into(), None);
    };
    let core = Path::new(&sysroot).join("lib/rustlib/src/rust/library/core");
    if core.exists() {
        Check::ok(what, core.display().to_string())
    } else {
        Check::missing(
            what,
            format!("run `rustup component add rust-src --toolchain {channel}`"),
            Some(Fix::RustSrc {
                channel: channel.to_string(),
            }),
        )
    }
}

fn tool(what: &'static str, name: &str, flag: &str, wheels: &Fix) -> Check {
    match tools::find_tool(name) {
        Some(p) => {
            let v = output(Command::new(&p).arg(flag))
                .and_then(|v| v.lines().last().map(str::to_string))
                .unwrap_or_default();
            Check::ok(what, format!("{} ({v})", p.display()))
        }
        None => Check {
            what,
            status: Status::Optional(format!(
                "not found; `cargo cg doctor --fix` pip-installs NVIDIA's wheels into {}; or set CG_{}=<path>, or install the CUDA toolkit",
                tools::tools_dir().display(),
                name.to_uppercase()
            )),
            fix: Some(wheels.clone()),
        },
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
            "no CUDA driver ({e}): kernels run on the simulator; install the NVIDIA driver to run them on a GPU (--fix cannot)"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_toolchain_file() {
        let t = ToolchainFile::parse(
            "[toolchain]\nchannel = \"nightly-2026-05-19\"\ncomponents = [\"rustfmt\", \"rust-src\", \"clippy\"]\n",
            Some("/p/rust-toolchain.toml".into()),
        );
        assert_eq!(t.channel, "nightly-2026-05-19");
        assert_eq!(t.components, ["rust-src", "rustfmt", "clippy"]);
        assert!(
            t.origin().contains("/p/rust-toolchain.toml"),
            "{}",
            t.origin()
        );
        let legacy = ToolchainFile::parse("nightly-2026-01-01\n", None);
        assert_eq!(legacy.channel, "nightly-2026-01-01");
        assert_eq!(legacy.components, ["rust-src"]);
        let none = ToolchainFile::parse("", None);
        assert_eq!((none.channel.as_str(), none.path), ("nightly", None));
    }

    #[test]
    fn finds_the_nearest_toolchain_file_above() {
        let tmp = std::env::temp_dir().join(format!("cargo-cg-doctor-{}", std::process::id()));
        let deep = tmp.join("a/b");
        std::fs::create_dir_all(&deep).unwrap();
        std::fs::write(
            tmp.join("a/rust-toolchain.toml"),
            "[toolchain]\nchannel = \"nightly-2030-01-01\"\n",
        )
        .unwrap();
        let t = ToolchainFile::find(&deep);
        assert_eq!(t.channel, "nightly-2030-01-01");
        assert_eq!(t.path, Some(tmp.join("a/rust-toolchain.toml")));
        std::fs::remove_dir_all(&tmp).unwrap();
    }

    fn missing(what: &'static str, fix: Fix) -> Check {
        Check {
            what,
            status: Status::Missing(String::new()),
            fix: Some(fix),
        }
    }

    #[test]
    fn plans_each_install_once() {
        let toolchain = Fix::Toolchain {
            channel: "nightly".into(),
            components: vec!["rust-src".into(), "clippy".into()],
        };
        let rust_src = Fix::RustSrc {
            channel: "nightly".into(),
        };
        let wheels = Fix::Wheels {
            dir: "/t/cuda".into(),
        };
        let checks = [
            missing("nightly", toolchain.clone()),
            missing("rust-src", rust_src.clone()),
            missing("ptxas", wheels.clone()),
            missing("nvdisasm", wheels.clone()),
            Check {
                what: "gpu",
                status: Status::Optional(String::new()),
                fix: None,
            },
        ];
        // One pip install brings both tools.
        assert_eq!(
            plan(&checks),
            [toolchain.clone(), rust_src.clone(), wheels.clone()]
        );
        assert_eq!(plan(&checks[2..]), std::slice::from_ref(&wheels));
        assert_eq!(
            toolchain.command().join(" "),
            "rustup toolchain install nightly --profile minimal --component rust-src --component clippy"
        );
        assert_eq!(
            rust_src.command().join(" "),
            "rustup component add rust-src --toolchain nightly"
        );
        let pip = wheels.command().join(" ");
        assert!(
            pip.starts_with("python3 -m pip install --quiet --disable-pip-version-check --no-deps --target /t/cuda "),
            "{pip}"
        );
        for w in tools::CUDA_WHEELS {
            assert!(pip.contains(w), "{pip}");
        }
    }

    #[test]
    fn applies_each_fix_and_counts_failures() {
        let fixes = [
            Fix::RustSrc {
                channel: "nightly".into(),
            },
            Fix::Wheels { dir: "/t".into() },
        ];
        let mut ran = Vec::new();
        let failed = apply(&fixes, &mut |cmd| {
            ran.push(cmd[0].clone());
            if cmd[0] == "python3" {
                Err("no pip".into())
            } else {
                Ok(())
            }
        });
        assert_eq!(ran, ["rustup", "python3"]);
        assert_eq!(failed, 1);
    }
}
