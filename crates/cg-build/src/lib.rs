//! Compiles a kernel crate written with `cooperative-groups` to PTX, one
//! module per SM, from the build script of the host crate that launches it,
//! and generates the table that the host crate embeds.
//!
//! ```no_run
//! // build.rs of the host crate (its `fn main`); `../kernels` is the kernel crate.
//! cg_build::KernelCrate::at("../kernels")
//!     .build()
//!     .unwrap_or_else(|e| e.fail());
//! ```
//!
//! The host crate then embeds the table (`ignore`: it exists only in the
//! `OUT_DIR` of a host crate whose build script ran the step above):
//!
//! ```ignore
//! // src/main.rs of the host crate: `KERNELS`, a `cg_runtime::PtxModule`.
//! include!(concat!(env!("OUT_DIR"), "/kernels.rs"));
//!
//! let gpu = cg_runtime::Gpu::open(0, &KERNELS)?;
//! gpu.launch(&kernels::MY_KERNEL, &cfg, args)?;
//! ```
//!
//! # What a kernel crate needs
//!
//! * a library (`src/lib.rs`), `#![no_std]`, with
//!   `#![cfg_attr(target_arch = "nvptx64", feature(abi_gpu_kernel, asm_experimental_arch))]`;
//! * a dependency on `cooperative-groups` and kernels marked `#[kernel]`;
//! * a nightly toolchain with `rust-src` wherever it is built for the GPU
//!   (the host crate itself may build on stable: this crate then runs the
//!   nested build with `rustup run nightly`).
//!
//! The profile (fat LTO, one codegen unit, `panic = "abort"`, `opt-level =
//! 3`) is passed on the command line; the kernel crate's workspace needs no
//! `[profile]` of its own.
//!
//! # Where things go
//!
//! The nested build runs `cargo rustc --target nvptx64-nvidia-cuda
//! -Zbuild-std=core` once per SM, in `<target dir>/cg-build/sm_XX` of the
//! *calling* build (`sm_XX-fp-off` under [`FpContract::Off`], with
//! `-fast-math` appended under [`FastMath::On`]; so `core` is compiled once per SM and then cached, and
//! nothing is written into the kernel crate's source tree), and writes the
//! PTX files and the generated table into `OUT_DIR`. `CG_SMS=90` (a comma
//! separated list) builds fewer SMs while iterating.
//!
//! # Floating-point contraction
//!
//! nvcc contracts a multiply and an add into one fused multiply-add by
//! default (`--fmad=true`); rustc never does (each `*` and `+` rounds on its
//! own). [`FpContract`] picks the policy of the nested build:
//! [`FpContract::Fast`] (the default, nvcc's) or [`FpContract::Off`]
//! (rustc's), with [`KernelCrate::fp_contract`] or the variable
//! [`FP_CONTRACT_VAR`] (`CG_FP_CONTRACT=off`), which overrides the builder.
//! The simulator runs the host build of the same source, which never
//! contracts: under `Fast`, a float result that goes through `a * b + c` may
//! differ from the simulator's in its last bits, under `Off` it does not.
//! `f32::mul_add` / `f64::mul_add` (and `core::f32::math::mul_add` in
//! `no_std`) are one `fma.rn` under either policy, and on the simulator.
//!
//! # Fast math
//!
//! [`FastMath::On`] ([`KernelCrate::fast_math`], or [`FAST_MATH_VAR`]`=1`)
//! is nvcc's `--use_fast_math` for the whole kernel crate, on the GPU
//! build only: `-prec-div=false` (every `f32` `/` is `div.full.f32`, `1 /
//! x` is `rcp.approx.f32`: LLVM's `-nvptx-prec-divf32=1`),
//! `-prec-sqrt=false` (`sqrt.approx.f32`: `-nvptx-prec-sqrtf32=0`), and
//! `-ftz=true` (every `f32` instruction the compiler emitted gets `.ftz`:
//! rustc cannot set LLVM's `denormal-fp-math-f32`, so cg-build rewrites the
//! PTX, see [`fast_math_ptx`]). The math calls (`expf` → `__expf`) are
//! mapped per kernel, by `#[kernel(fast_math)]`, which also marks its entry
//! for the same division, square-root and flush-to-zero rewrite. Inline PTX
//! (`asm!`: the library's `__fdiv_rn`, `__fsqrt_rn`, `__frcp_rn`, the
//! directed roundings) keeps its rounding and only gets `.ftz`. The simulator runs the host
//! build, which knows nothing of this policy: it computes `/` and `sqrt`
//! correctly rounded and keeps subnormals.

#![warn(missing_docs)]

use std::env;
use std::fmt;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

mod sm;
pub use sm::Sm;

/// The SMs built by default: every GPU from Volta on runs one of them (the
/// driver JITs sm_90 PTX for newer GPUs).
pub const DEFAULT_SMS: &[u32] = &[70, 80, 90];

/// The variable that overrides the SM list (`CG_SMS=90` or `CG_SMS=80,90`).
pub const SMS_VAR: &str = "CG_SMS";

/// The variable that overrides the floating-point contraction policy
/// (`CG_FP_CONTRACT=fast` or `CG_FP_CONTRACT=off`; see [`FpContract`]).
pub const FP_CONTRACT_VAR: &str = "CG_FP_CONTRACT";

/// The variable that turns on fast math for the whole kernel crate
/// (`CG_FAST_MATH=1` or `CG_FAST_MATH=0`; see [`FastMath`]).
pub const FAST_MATH_VAR: &str = "CG_FAST_MATH";

/// The variable that denies warnings in the kernel build
/// (`CG_DENY_WARNINGS=1`; see [`KernelCrate::deny_warnings`]).
pub const DENY_WARNINGS_VAR: &str = "CG_DENY_WARNINGS";

/// Whether the nested build may contract a floating-point multiply and add
/// (`a * b + c`, `a * b - c`, `c - a * b`, …) into one fused multiply-add
/// (`fma.rn`, one rounding instead of two).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum FpContract {
    /// Contract wherever LLVM finds a multiply feeding an add, across
    /// statements: nvcc's default (`--fmad=true`), so that a kernel ported
    /// from CUDA C++ computes with the same instructions and roundings as
    /// its original. LLVM's `-fp-contract=fast` (clang's default for CUDA).
    #[default]
    Fast,
    /// Never contract: every `*` and `+` rounds on its own (`mul.rn` and
    /// `add.rn`, which ptxas does not fuse either) — Rust's semantics, and
    /// results bit-identical with the simulator's. nvcc's `--fmad=false`.
    Off,
}

impl FpContract {
    /// `fast` or `off`, as [`FP_CONTRACT_VAR`] spells it.
    pub fn name(self) -> &'static str {
        match self {
            FpContract::Fast => "fast",
            FpContract::Off => "off",
        }
    }

    /// The policy named `fast`/`on` or `off` (any case).
    pub fn parse(s: &str) -> Option<FpContract> {
        match s.trim().to_ascii_lowercase().as_str() {
            "fast" | "on" => Some(FpContract::Fast),
            "off" => Some(FpContract::Off),
            _ => None,
        }
    }

    /// The nested build's flag: LLVM's own `-fp-contract=fast`, or none
    /// (rustc's default never contracts). In `RUSTFLAGS`, which cargo's
    /// fingerprints cover (arguments after `cargo rustc --` are not, so a
    /// changed policy would not rebuild the PTX).
    fn rustflag(self) -> Option<&'static str> {
        match self {
            FpContract::Fast => Some("-Cllvm-args=-fp-contract=fast"),
            FpContract::Off => None,
        }
    }

    /// The nested build's directory for `sm` under this policy: one per
    /// policy, so that switching back and forth does not rebuild `core`.
    fn target_subdir(self, sm: Sm) -> String {
        match self {
            FpContract::Fast => format!("{sm}"),
            FpContract::Off => format!("{sm}-fp-off"),
        }
    }
}

impl fmt::Display for FpContract {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Whether the nested build computes single precision as nvcc's
/// `--use_fast_math` does: approximate division and square root, and
/// subnormals flushed to zero (the GPU build only; see the [crate
/// docs](crate#fast-math)).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[doc(alias = "use_fast_math")]
pub enum FastMath {
    /// IEEE single precision: `div.rn.f32`, `sqrt.rn.f32`, subnormals kept
    /// (nvcc's default, `-prec-div=true -prec-sqrt=true -ftz=false`).
    #[default]
    Off,
    /// nvcc's `--use_fast_math` for division, square root and subnormals
    /// (`-prec-div=false -prec-sqrt=false -ftz=true`): `div.full.f32`,
    /// `rcp.approx.f32`, `sqrt.approx.f32`, and `.ftz` on every `f32`
    /// instruction that has it. The math calls are mapped per kernel by
    /// `#[kernel(fast_math)]`.
    On,
}

impl FastMath {
    /// `on` or `off`, as reports and [`FAST_MATH_VAR`] spell it.
    pub fn name(self) -> &'static str {
        match self {
            FastMath::Off => "off",
            FastMath::On => "on",
        }
    }

    /// The policy named `1`/`on`/`true`/`fast` or `0`/`off`/`false` (any
    /// case).
    pub fn parse(s: &str) -> Option<FastMath> {
        match s.trim().to_ascii_lowercase().as_str() {
            "1" | "on" | "true" | "fast" => Some(FastMath::On),
            "0" | "off" | "false" => Some(FastMath::Off),
            _ => None,
        }
    }

    /// The nested build's flags: LLVM's NVPTX options for division
    /// (`div.full.f32`, and `rcp.approx.f32` for `1 / x`) and square root
    /// (`sqrt.approx.f32`). In `RUSTFLAGS`, so a changed policy rebuilds.
    fn rustflags(self) -> &'static [&'static str] {
        match self {
            FastMath::Off => &[],
            FastMath::On => &[
                "-Cllvm-args=-nvptx-prec-divf32=1",
                "-Cllvm-args=-nvptx-prec-sqrtf32=0",
            ],
        }
    }

    /// The suffix of the nested build's directory under this policy.
    fn dir_suffix(self) -> &'static str {
        match self {
            FastMath::Off => "",
            FastMath::On => "-fast-math",
        }
    }
}

impl fmt::Display for FastMath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The nightlies this project is tested with, named in toolchain errors.
pub const TESTED_NIGHTLIES: &str = "rustc 1.97.0-nightly (2026-05-19)";

/// A kernel crate to build to PTX.
#[derive(Clone, Debug)]
pub struct KernelCrate {
    dir: PathBuf,
    sms: Vec<u32>,
    arch_specific: bool,
    features: Vec<String>,
    name: Option<String>,
    file: Option<String>,
    fp_contract: FpContract,
    fast_math: FastMath,
    deny_warnings: bool,
}

/// Why a build failed: one line naming the fix, and the compiler's output
/// where there is one.
#[derive(Debug)]
pub struct Error {
    /// What went wrong and what to do, in one line.
    pub summary: String,
    /// The nested compiler's output, if it ran.
    pub log: String,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.summary)?;
        if !self.log.is_empty() {
            write!(f, "\n{}", self.log)?;
        }
        Ok(())
    }
}

impl std::error::Error for Error {}

impl Error {
    fn new(summary: impl Into<String>) -> Error {
        Error {
            summary: summary.into(),
            log: String::new(),
        }
    }

    /// Ends the build script: prints the error (the summary also as a cargo
    /// warning, which cargo shows without `-vv`) and exits with status 1.
    pub fn fail(self) -> ! {
        eprintln!("error: {self}");
        println!("cargo:warning={}", self.summary);
        std::process::exit(1)
    }
}

/// What a successful build produced.
#[derive(Clone, Debug)]
pub struct Built {
    /// The generated file to `include!` (in `OUT_DIR`).
    pub table: PathBuf,
    /// The name of the static it defines.
    pub static_name: String,
    /// One PTX file per target, in the order built.
    pub ptx: Vec<(Sm, PathBuf)>,
    /// The floating-point contraction policy the PTX was built with (the
    /// builder's, or [`FP_CONTRACT_VAR`]'s): reports that time the
    /// kernels should state it.
    pub fp_contract: FpContract,
    /// The fast-math policy the PTX was built with (the builder's, or
    /// [`FAST_MATH_VAR`]'s): reports that time the kernels should state it.
    pub fast_math: FastMath,
}

impl KernelCrate {
    /// The kernel crate whose `Cargo.toml` is in `dir` (relative paths are
    /// taken from the calling crate's directory).
    pub fn at(dir: impl AsRef<Path>) -> KernelCrate {
        let dir = dir.as_ref();
        let dir = if dir.is_absolute() {
            dir.to_path_buf()
        } else {
            manifest_dir().join(dir)
        };
        KernelCrate {
            dir,
            sms: DEFAULT_SMS.to_vec(),
            arch_specific: false,
            features: Vec::new(),
            name: None,
            file: None,
            fp_contract: FpContract::default(),
            fast_math: FastMath::default(),
            deny_warnings: false,
        }
    }

    /// Builds the kernel crate (and its path dependencies) with warnings
    /// denied: a warning fails the build as an error would (default: the
    /// warnings are shown as the build script's; [`DENY_WARNINGS_VAR`]`=1`
    /// turns this on from outside).
    pub fn deny_warnings(mut self) -> KernelCrate {
        self.deny_warnings = true;
        self
    }

    /// The SMs to build for (default [`DEFAULT_SMS`]; [`SMS_VAR`] overrides).
    pub fn sms(mut self, sms: &[u32]) -> KernelCrate {
        self.sms = sms.to_vec();
        self
    }

    /// Also builds the arch-specific target of every listed SM that has
    /// one (sm_90 → `sm_90a`), which the runtime loads on a GPU of exactly
    /// that SM: what `wgmma` and `setmaxnreg` need. The portable PTX stays
    /// for newer GPUs (where those calls trap). [`SMS_VAR`] may name the
    /// targets itself (`CG_SMS=90a`).
    pub fn arch_specific(mut self) -> KernelCrate {
        self.arch_specific = true;
        self
    }

    /// Builds the kernel crate with this feature enabled.
    pub fn feature(mut self, feature: &str) -> KernelCrate {
        self.features.push(feature.to_string());
        self
    }

    /// The floating-point contraction policy (default [`FpContract::Fast`],
    /// nvcc's; [`FP_CONTRACT_VAR`] overrides).
    pub fn fp_contract(mut self, policy: FpContract) -> KernelCrate {
        self.fp_contract = policy;
        self
    }

    /// The fast-math policy of the whole crate's GPU build (default
    /// [`FastMath::Off`]; [`FAST_MATH_VAR`] overrides): nvcc's
    /// `--use_fast_math` for division, square root and subnormals.
    #[doc(alias = "use_fast_math")]
    pub fn fast_math(mut self, policy: FastMath) -> KernelCrate {
        self.fast_math = policy;
        self
    }

    /// The name of the generated static (default: the crate's name in upper
    /// case, e.g. `MY_KERNELS` for `my-kernels`) and of its file
    /// (`<name in lower case>.rs` in `OUT_DIR`).
    pub fn name(mut self, name: &str) -> KernelCrate {
        self.name = Some(name.to_string());
        self
    }

    /// Builds one PTX per SM and writes the table; prints the
    /// `cargo:rerun-if-changed` lines that rebuild it when a source file of
    /// the kernel crate or of its path dependencies changes.
    pub fn build(self) -> Result<Built, Error> {
        let manifest = self.dir.join("Cargo.toml");
        let text = fs::read_to_string(&manifest).map_err(|e| {
            Error::new(format!(
                "cannot read the kernel crate's manifest {}: {e}",
                manifest.display()
            ))
        })?;
        let package = package_name(&text)
            .ok_or_else(|| Error::new(format!("{} has no [package] name", manifest.display())))?;
        let lib = lib_name(&text).unwrap_or_else(|| package.replace('-', "_"));
        let static_name = self.name.clone().unwrap_or_else(|| lib.to_uppercase());
        let file = self
            .file
            .clone()
            .unwrap_or_else(|| format!("{}.rs", static_name.to_lowercase()));
        watch_inputs(&self.dir);
        let sms = sms_override().unwrap_or_else(|| sm::expand(&self.sms, self.arch_specific));
        if sms.is_empty() {
            return Err(Error::new(format!(
                "{SMS_VAR} names no SM (e.g. {SMS_VAR}=90)"
            )));
        }
        let fp_contract = fp_contract_override()?.unwrap_or(self.fp_contract);
        let fast_math = fast_math_override()?.unwrap_or(self.fast_math);
        let deny = deny_warnings_override() || self.deny_warnings;
        let cargo = Toolchain::find()?;
        let out = out_dir();
        let target = nested_target_root();
        let tag = if self.features.is_empty() {
            String::new()
        } else {
            format!("-{}", self.features.join("-"))
        };
        eprintln!(
            "cg-build: {package}{tag}: PTX for {} (FP contraction {fp_contract}, fast math {fast_math}) …",
            sms.iter().map(Sm::to_string).collect::<Vec<_>>().join(", ")
        );
        let results: Vec<Result<(Sm, PathBuf, String), Error>> = std::thread::scope(|s| {
            let handles: Vec<_> = sms
                .iter()
                .map(|&sm| {
                    let (cargo, out, target, tag, lib) = (&cargo, &out, &target, &tag, &lib);
                    let this = &self;
                    s.spawn(move || {
                        let ptx = out.join(format!("{lib}{tag}_{sm}.ptx"));
                        let dir = target.join(format!(
                            "{}{}",
                            fp_contract.target_subdir(sm),
                            fast_math.dir_suffix()
                        ));
                        let policy = Policy {
                            sm,
                            fp_contract,
                            fast_math,
                            deny,
                        };
                        let log = this.nested_build(cargo, policy, &dir, &ptx)?;
                        watch_dep_info(&dir, lib);
                        Ok((sm, ptx, log))
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("kernel build thread"))
                .collect()
        });
        let built = results.into_iter().collect::<Result<Vec<_>, _>>()?;
        show_warnings(&package, &built);
        let ptx: Vec<(Sm, PathBuf)> = built.into_iter().map(|(sm, p, _)| (sm, p)).collect();
        let table = out.join(&file);
        fs::write(&table, table_source(&static_name, &lib, &tag, &ptx))
            .map_err(|e| Error::new(format!("cannot write {}: {e}", table.display())))?;
        Ok(Built {
            table,
            static_name,
            ptx,
            fp_contract,
            fast_math,
        })
    }

    /// One `cargo rustc` for `sm` in `target_dir`, then its PTX copied to
    /// `ptx`; the compiler's output (its warnings) returned.
    ///
    /// rustc writes the PTX to a fixed path inside `target_dir` and only
    /// when it compiles the kernel crate: cargo's fingerprints do not
    /// cover the arguments after `cargo rustc --`, so an up-to-date crate
    /// writes nothing. The file there is always the one of the crate's
    /// last compilation in this directory (one per SM, policy and feature
    /// set), which is what this build would produce; copying it makes
    /// every calling build (debug and release share `target_dir`) get it.
    fn nested_build(
        &self,
        cargo: &Toolchain,
        policy: Policy,
        target_dir: &Path,
        ptx: &Path,
    ) -> Result<String, Error> {
        let name = ptx.file_name().expect("a PTX file name");
        let emitted = target_dir.join("ptx").join(name);
        let run = || self.run_nested(cargo, policy, target_dir, &emitted);
        let mut log = run()?;
        if !emitted.exists() {
            // Up to date, but built before the PTX went to `emitted` (or
            // the file was removed): forget the crate's fingerprints so
            // that cargo compiles it (only it) again.
            forget_fingerprints(target_dir, &self.package()?);
            log = run()?;
        }
        let text = fs::read_to_string(&emitted)
            .map_err(|e| Error::new(format!("cannot read {}: {e}", emitted.display())))?;
        let text = declare_launch_bounds(&align_grid_constants(&text));
        let text = fast_math_ptx(&text, policy.fast_math == FastMath::On);
        fs::write(ptx, text)
            .map_err(|e| Error::new(format!("cannot write {}: {e}", ptx.display())))?;
        Ok(log)
    }

    /// The kernel crate's `[package] name`.
    fn package(&self) -> Result<String, Error> {
        let manifest = self.dir.join("Cargo.toml");
        fs::read_to_string(&manifest)
            .ok()
            .and_then(|t| package_name(&t))
            .ok_or_else(|| Error::new(format!("{} has no [package] name", manifest.display())))
    }

    /// The `cargo rustc` of [`nested_build`](Self::nested_build), writing
    /// the PTX to `ptx` if it compiles the kernel crate; its output on
    /// success (cargo replays the warnings of up-to-date crates).
    fn run_nested(
        &self,
        cargo: &Toolchain,
        policy: Policy,
        target_dir: &Path,
        ptx: &Path,
    ) -> Result<String, Error> {
        let sm = policy.sm;
        if let Some(d) = ptx.parent() {
            fs::create_dir_all(d)
                .map_err(|e| Error::new(format!("cannot create {}: {e}", d.display())))?;
        }
        let mut cmd = cargo.command();
        cmd.current_dir(&self.dir)
            .env("RUSTFLAGS", rustflags(&policy))
            .arg("rustc")
            .arg("--manifest-path")
            .arg(self.dir.join("Cargo.toml"))
            .args(PROFILE.iter().flat_map(|kv| ["--config", kv]))
            .args(["--profile", "cg-ptx", "-Zbuild-std=core"])
            .args([
                "--target",
                "nvptx64-nvidia-cuda",
                "--crate-type",
                "staticlib",
            ])
            .args(
                (!self.features.is_empty())
                    .then(|| format!("--features={}", self.features.join(","))),
            )
            .arg("--target-dir")
            .arg(target_dir)
            .arg("--")
            .arg(format!("--emit=asm={}", ptx.display()))
            .stdout(Stdio::null())
            .stderr(Stdio::piped());
        let output = cmd
            .output()
            .map_err(|e| Error::new(format!("cannot run cargo for the kernel build: {e}")))?;
        let log = String::from_utf8_lossy(&output.stderr).into_owned();
        if output.status.success() {
            return Ok(log);
        }
        Err(Error {
            summary: diagnose(&log, sm, &self.dir),
            log,
        })
    }
}

/// What one nested build is built for and with.
#[derive(Clone, Copy, Debug)]
struct Policy {
    sm: Sm,
    fp_contract: FpContract,
    fast_math: FastMath,
    deny: bool,
}

/// The PTX with nvcc's `--use_fast_math` applied to single precision
/// (`-prec-div=false -prec-sqrt=false -ftz=true`), in every function when
/// `everywhere` (the crate's [`FastMath::On`]), else in each entry that
/// `#[kernel(fast_math)]` marked (`// cg-fast-math NAME` in its body):
///
/// * `div.rn.f32` becomes `div.full.ftz.f32`, `rcp.rn.f32`
///   `rcp.approx.ftz.f32`, `sqrt.rn.f32` `sqrt.approx.ftz.f32` (what LLVM's
///   `-nvptx-prec-divf32=1 -nvptx-prec-sqrtf32=0` emit, which the crate
///   policy also passes);
/// * every other `f32` instruction that takes `.ftz` gets it (`add sub mul
///   fma mad div sqrt rcp rsqrt sin cos lg2 ex2 min max abs neg setp`, and
///   `cvt` from `f32`): subnormal inputs and results flush to zero of the
///   same sign, as under nvcc's `-ftz=true` (rustc cannot set LLVM's
///   `denormal-fp-math-f32`, which would make LLVM emit them).
///
/// Inline PTX (between LLVM's `// begin inline asm` and `// end inline
/// asm`) keeps its roundings and approximations (an explicit `__fdiv_rn`
/// stays `div.rn`) and gets `.ftz` only, as nvcc's `-ftz=true` gives it to
/// the intrinsics (`__fdiv_rn` is `div.rn.ftz.f32` there, `__fdividef`
/// `div.approx.ftz.f32`).
pub fn fast_math_ptx(ptx: &str, everywhere: bool) -> String {
    const MARK: &str = "// cg-fast-math ";
    let marked: Vec<&str> = ptx
        .lines()
        .filter_map(|l| l.trim().strip_prefix(MARK))
        .map(str::trim)
        .collect();
    if !everywhere && marked.is_empty() {
        return ptx.to_string();
    }
    let mut out = String::with_capacity(ptx.len() + ptx.len() / 16);
    let mut on = everywhere;
    let mut in_asm = false;
    for line in ptx.split_inclusive('\n') {
        let t = line.trim();
        if let Some(rest) = entry_or_func(t) {
            on = everywhere || marked.contains(&rest);
        } else if t.starts_with("// begin inline asm") {
            in_asm = true;
        } else if t.starts_with("// end inline asm") {
            in_asm = false;
        } else if on && let Some(new) = fast_math_instruction(line, !in_asm) {
            out.push_str(&new);
            continue;
        }
        out.push_str(line);
    }
    out
}

/// The name of the function a PTX line declares (`.entry NAME(` or
/// `.func … NAME(`), if it declares one.
fn entry_or_func(line: &str) -> Option<&str> {
    if line.starts_with("//") {
        return None;
    }
    let at = line
        .find(".entry ")
        .map(|i| i + ".entry ".len())
        .or_else(|| line.find(".func ").map(|i| i + ".func ".len()))?;
    // `.func (.param .b32 func_retval0) NAME(`: skip the return value.
    let rest = line[at..].trim_start();
    let rest = match rest.strip_prefix('(') {
        Some(r) => r[r.find(')')? + 1..].trim_start(),
        None => rest,
    };
    let name = rest.split(['(', ' ', ';']).next()?;
    (!name.is_empty()).then_some(name)
}

/// One instruction line under fast math, if it changes: its opcode's
/// modifiers with `.ftz` inserted where the PTX ISA puts it (after the
/// rounding or `.approx`/`.full` and comparison modifiers, before `.sat`,
/// `.NaN`, `.xorsign` and the types), and (when `approximate`) the IEEE
/// `div`, `rcp`, `sqrt` replaced by their approximations.
fn fast_math_instruction(line: &str, approximate: bool) -> Option<String> {
    let body = line.trim_start();
    let indent = &line[..line.len() - body.len()];
    // An optional guard predicate (`@%p1 `, `@!%p1 `).
    let (guard, rest) = match body.strip_prefix('@') {
        Some(_) => {
            let end = body.find(char::is_whitespace)?;
            let after = body[end..].trim_start();
            (&body[..body.len() - after.len()], after)
        }
        None => ("", body),
    };
    let end = rest.find(char::is_whitespace)?;
    let (opcode, operands) = rest.split_at(end);
    let mut parts: Vec<&str> = opcode.split('.').collect();
    if parts.len() < 2 || parts.contains(&"ftz") {
        return None;
    }
    let base = parts[0];
    let last = *parts.last()?;
    match base {
        "add" | "sub" | "mul" | "fma" | "mad" | "div" | "sqrt" | "rcp" | "rsqrt" | "sin"
        | "cos" | "lg2" | "ex2" | "min" | "max" | "abs" | "neg" | "setp"
            if last == "f32" => {}
        // `cvt` from `f32` to an integer, `f32` or `f64` (the source is
        // the last type).
        "cvt"
            if last == "f32"
                && parts.len() >= 3
                && matches!(
                    parts[parts.len() - 2],
                    "s8" | "s16" | "s32" | "s64" | "u8" | "u16" | "u32" | "u64" | "f32" | "f64"
                ) => {}
        _ => return None,
    }
    // The IEEE forms that fast math approximates.
    match (base, parts[1]) {
        ("div", "rn") if approximate => parts[1] = "full",
        ("rcp" | "sqrt", "rn") if approximate => parts[1] = "approx",
        _ => {}
    }
    // `.ftz` goes before the first of `.sat`, `.NaN`, `.xorsign`, `.relu`
    // and the type(s).
    let types = if base == "cvt" { 2 } else { 1 };
    let at = parts
        .iter()
        .enumerate()
        .skip(1)
        .position(|(i, p)| {
            i >= parts.len() - types || matches!(*p, "sat" | "satfinite" | "NaN" | "xorsign")
        })
        .map(|p| p + 1)?;
    parts.insert(at, "ftz");
    Some(format!("{indent}{guard}{}{operands}", parts.join(".")))
}

/// The nested build's profile: one self-contained, fat-LTO'd module.
const PROFILE: &[&str] = &[
    "profile.cg-ptx.inherits=\"release\"",
    "profile.cg-ptx.opt-level=3",
    "profile.cg-ptx.lto=\"fat\"",
    "profile.cg-ptx.codegen-units=1",
    "profile.cg-ptx.panic=\"abort\"",
    "profile.cg-ptx.debug=false",
    "profile.cg-ptx.incremental=false",
];

/// The PTX with every kernel parameter that the kernel reads in place (a
/// tensor map, which the copy engine reads from parameter space, as nvcc's
/// `__grid_constant__`) declared 64-byte aligned: `#[kernel]` marks each
/// such parameter where it takes its address (`// cg-grid-constant
/// NAME_param_I`), and rustc cannot declare more than 16.
pub fn align_grid_constants(ptx: &str) -> String {
    const MARK: &str = "// cg-grid-constant ";
    let params: Vec<&str> = ptx
        .lines()
        .filter_map(|l| l.trim().strip_prefix(MARK))
        .map(str::trim)
        .collect();
    if params.is_empty() {
        return ptx.to_string();
    }
    let mut out = String::with_capacity(ptx.len());
    for line in ptx.split_inclusive('\n') {
        let t = line.trim_start();
        let decl = t.strip_prefix(".param .align ").and_then(|rest| {
            let (_, rest) = rest.split_once(' ')?;
            let name = rest.strip_prefix(".b8 ")?.split('[').next()?;
            params.contains(&name).then_some(name)
        });
        match decl {
            Some(name) => {
                let indent = &line[..line.len() - t.len()];
                let size = &t[t.find('[').expect("a byte array")..];
                out.push_str(indent);
                out.push_str(".param .align 64 .b8 ");
                out.push_str(name);
                out.push_str(size);
            }
            None => out.push_str(line),
        }
    }
    out
}

/// The PTX with each entry that `#[kernel(launch_bounds(T, B))]` marked
/// (`// cg-launch-bounds NAME T B` in its body) declaring `.maxntid T, 1,
/// 1` and, when `B > 0`, `.minnctapersm B` in its header, as nvcc does for
/// `__launch_bounds__(T, B)`; ptxas then budgets registers for `B` blocks
/// of `T` threads per SM. An entry that `#[kernel(block_dim(X, Y, Z))]`
/// marked (`// cg-block-dim NAME X Y Z`) declares `.reqntid X, Y, Z`
/// instead of `.maxntid` (ptxas refuses both): the driver then launches
/// it with blocks of that shape only. An entry that
/// `#[kernel(max_registers(N))]` marked (`// cg-max-registers NAME N`)
/// declares `.maxnreg N`. rustc cannot declare any of them.
pub fn declare_launch_bounds(ptx: &str) -> String {
    // The marks of one kind, each as its `fields` words (NAME first).
    let marked = |mark: &str, fields: usize| -> Vec<Vec<&str>> {
        ptx.lines()
            .filter_map(|l| l.trim().strip_prefix(mark))
            .map(|m| m.split_whitespace().collect::<Vec<_>>())
            .filter(|f| f.len() == fields)
            .collect()
    };
    let bounds = marked("// cg-launch-bounds ", 3);
    let dims = marked("// cg-block-dim ", 4);
    let regs = marked("// cg-max-registers ", 2);
    if bounds.is_empty() && dims.is_empty() && regs.is_empty() {
        return ptx.to_string();
    }
    let marks = bounds.len() + dims.len() + regs.len();
    let mut out = String::with_capacity(ptx.len() + 64 * marks);
    let mut pending: Option<String> = None;
    for line in ptx.split_inclusive('\n') {
        let t = line.trim();
        if let Some(rest) = t
            .strip_prefix(".visible .entry ")
            .or_else(|| t.strip_prefix(".entry "))
        {
            let name = rest.split('(').next().unwrap_or("").trim();
            let bound = bounds.iter().find(|b| b[0] == name);
            let dim = dims.iter().find(|d| d[0] == name);
            let mut header = String::new();
            match (dim, bound) {
                (Some(d), _) => header += &format!(".reqntid {}, {}, {}\n", d[1], d[2], d[3]),
                (None, Some(b)) => header += &format!(".maxntid {}, 1, 1\n", b[1]),
                (None, None) => {}
            }
            if let Some(b) = bound
                && b[2] != "0"
            {
                header += &format!(".minnctapersm {}\n", b[2]);
            }
            if let Some(r) = regs.iter().find(|r| r[0] == name) {
                header += &format!(".maxnreg {}\n", r[1]);
            }
            pending = (!header.is_empty()).then_some(header);
        }
        out.push_str(line);
        if pending.is_some() && t.ends_with(')') {
            out.push_str(&pending.take().unwrap_or_default());
        }
    }
    out
}

/// `RUSTFLAGS` of the nested build for `sm`: the target CPU (newer
/// nightlies reject `-Ctarget-cpu` after `--`), PTX ISA 8.4 on sm_89+
/// for `elect.sync`, the cluster instructions, `mbarrier.try_wait`, the
/// tensor-map proxy fence of the tile copies and the 8-bit float `mma`
/// (drivers of CUDA 12.4 and newer JIT it),
/// PTX ISA 7.1 on sm_80 for `mbarrier.test_wait.parity` (LLVM's default
/// there is 7.0), the contraction policy's flag, and `-Dwarnings` when
/// warnings are denied (registry dependencies stay capped by cargo).
fn rustflags(policy: &Policy) -> String {
    let sm = policy.sm;
    let mut flags = format!("-Ctarget-cpu={sm}");
    if sm.number >= 89 {
        flags += " -Ctarget-feature=+ptx84";
    } else if sm.number >= 80 {
        flags += " -Ctarget-feature=+ptx71";
    }
    for f in policy
        .fp_contract
        .rustflag()
        .iter()
        .chain(policy.fast_math.rustflags())
    {
        flags += " ";
        flags += f;
    }
    if policy.deny {
        flags += " -Dwarnings";
    }
    flags
}

/// The warnings of a successful kernel build, one block of the compiler's
/// text each, without cargo's per-crate summary lines and without the one
/// note every nested build gets for the PTX ISA target feature that
/// [`rustflags`] chose (rustc calls it unstable; no lint, so nothing can
/// allow it).
fn kernel_warnings(log: &str) -> Vec<String> {
    const ISA_NOTE: &str = "warning: unstable feature specified for `-Ctarget-feature`";
    let mut blocks: Vec<Vec<&str>> = Vec::new();
    let mut open = false;
    for line in log.lines() {
        if open && !line.trim().is_empty() {
            blocks.last_mut().expect("an open block").push(line);
            continue;
        }
        let summary = line.starts_with("warning: `") && line.contains(" generated ");
        open = line.starts_with("warning") && !summary;
        if open {
            blocks.push(vec![line]);
        }
    }
    blocks
        .into_iter()
        .filter(|b| !b[0].starts_with(ISA_NOTE))
        .map(|b| b.join("\n"))
        .collect()
}

/// Shows the kernel build's warnings as the build script's own (cargo
/// prints them for a package of the workspace), each once however many
/// SMs gave it: a warning in a kernel is as worth reading as one in host
/// code, and the nested build's output is otherwise seen only when it
/// fails.
fn show_warnings(package: &str, built: &[(Sm, PathBuf, String)]) {
    let mut seen: Vec<String> = Vec::new();
    for (_, _, log) in built {
        for w in kernel_warnings(log) {
            if !seen.contains(&w) {
                seen.push(w);
            }
        }
    }
    if seen.is_empty() {
        return;
    }
    println!(
        "cargo:warning=cg-build: the kernel build of {package} gave {} warning(s) ({DENY_WARNINGS_VAR}=1 makes them errors):",
        seen.len()
    );
    for line in seen.iter().flat_map(|w| w.lines()) {
        println!("cargo:warning={line}");
    }
}

/// [`DENY_WARNINGS_VAR`]: set to anything but empty or `0`.
fn deny_warnings_override() -> bool {
    println!("cargo:rerun-if-env-changed={DENY_WARNINGS_VAR}");
    env::var(DENY_WARNINGS_VAR).is_ok_and(|v| !v.trim().is_empty() && v.trim() != "0")
}

/// One line saying what to do, from the nested compiler's output.
fn diagnose(log: &str, sm: Sm, dir: &Path) -> String {
    let krate = dir.display();
    if log.contains("abi_gpu_kernel") || log.contains("\"gpu-kernel\" ABI is experimental") {
        format!(
            "the kernel crate at {krate} needs `#![cfg_attr(target_arch = \"nvptx64\", feature(abi_gpu_kernel, asm_experimental_arch))]` in src/lib.rs"
        )
    } else if log.contains("asm_experimental_arch") {
        format!(
            "the kernel crate at {krate} needs `#![cfg_attr(target_arch = \"nvptx64\", feature(asm_experimental_arch))]` in src/lib.rs"
        )
    } else if log.contains("-Zbuild-std") || log.contains("rust-src") {
        "the nightly toolchain lacks rust-src: run `rustup component add rust-src --toolchain nightly`"
            .to_string()
    } else if log.contains("can't find crate for `std`") {
        format!(
            "the kernel crate at {krate} (or a dependency) uses `std`: kernel crates are `#![no_std]`"
        )
    } else {
        format!(
            "building the kernel crate at {krate} for {sm} failed (nested `cargo rustc --target nvptx64-nvidia-cuda`; tested with {TESTED_NIGHTLIES}); the compiler's output follows"
        )
    }
}

/// The nightly toolchain the nested build runs, by its sysroot: its own
/// `cargo` with `RUSTC` set to its own `rustc`, so that every compiler
/// invocation — `core` from `rust-src` included, whose directory has no
/// `rust-toolchain.toml` — uses the same nightly.
struct Toolchain {
    sysroot: PathBuf,
}

impl Toolchain {
    fn find() -> Result<Toolchain, Error> {
        let rustc = env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
        let sysroot = if is_nightly(Command::new(&rustc).arg("-vV")) {
            sysroot_of(Command::new(&rustc))
        } else if is_nightly(Command::new("rustup").args(["run", "nightly", "rustc", "-vV"])) {
            let mut c = Command::new("rustup");
            c.args(["run", "nightly", "rustc"]);
            sysroot_of(c)
        } else {
            None
        };
        let Some(sysroot) = sysroot else {
            return Err(Error::new(format!(
                "the GPU kernels need a nightly toolchain: run `rustup toolchain install nightly --component rust-src` (tested with {TESTED_NIGHTLIES})"
            )));
        };
        if !sysroot.join("lib/rustlib/src/rust/library/core").exists() {
            return Err(Error::new(
                "the nightly toolchain lacks rust-src: run `rustup component add rust-src --toolchain nightly`",
            ));
        }
        Ok(Toolchain { sysroot })
    }

    /// A cargo command with a clean environment: the calling build's flags,
    /// wrappers (clippy-driver under `cargo clippy`), toolchain choice and
    /// target directory must not leak into the nested build.
    fn command(&self) -> Command {
        let bin = self.sysroot.join("bin");
        let mut cmd = Command::new(bin.join("cargo"));
        for (k, _) in env::vars_os() {
            let k = k.to_string_lossy().into_owned();
            if (k.starts_with("CARGO") && k != "CARGO_HOME" && k != "CARGO_NET_OFFLINE")
                || k.starts_with("RUSTC")
                || k == "RUSTUP_TOOLCHAIN"
                || k == "RUSTFLAGS"
                || k == "RUSTDOCFLAGS"
                || k == "CLIPPY_ARGS"
                || k.starts_with("__CARGO")
            {
                cmd.env_remove(&k);
            }
        }
        cmd.env("RUSTC", bin.join("rustc"));
        cmd
    }
}

/// `rustc --print sysroot` of a compiler command.
fn sysroot_of(mut rustc: Command) -> Option<PathBuf> {
    let o = rustc.args(["--print", "sysroot"]).output().ok()?;
    let s = String::from_utf8_lossy(&o.stdout).trim().to_string();
    (o.status.success() && !s.is_empty()).then(|| PathBuf::from(s))
}

fn is_nightly(cmd: &mut Command) -> bool {
    cmd.output()
        .map(|o| {
            let v = String::from_utf8_lossy(&o.stdout);
            o.status.success() && (v.contains("-nightly") || v.contains("-dev"))
        })
        .unwrap_or(false)
}

/// The generated table.
fn table_source(name: &str, lib: &str, tag: &str, ptx: &[(Sm, PathBuf)]) -> String {
    let mut s = format!(
        "/// The PTX of the kernel crate `{lib}`{}, one module per SM (generated by cg-build).\n\
         pub static {name}: ::cg_runtime::PtxModule = ::cg_runtime::PtxModule::new(\n    {lib:?},\n    &[\n",
        if tag.is_empty() {
            String::new()
        } else {
            format!(" (features {})", &tag[1..])
        }
    );
    for (sm, path) in ptx {
        s += &format!(
            "        ::cg_runtime::EmbeddedPtx {{ sm: {}, arch_specific: {}, ptx: include_str!({:?}) }},\n",
            sm.number,
            sm.arch_specific,
            path.display().to_string()
        );
    }
    s += "    ],\n);\n";
    s
}

/// `[package] name` of a manifest.
fn package_name(manifest: &str) -> Option<String> {
    key_in_section(manifest, "package", "name")
}

/// `[lib] name` of a manifest, if set.
fn lib_name(manifest: &str) -> Option<String> {
    key_in_section(manifest, "lib", "name")
}

/// A `key = "value"` line inside `[section]` (enough for the `name` keys;
/// a full TOML parser is not worth a build dependency).
fn key_in_section(manifest: &str, section: &str, key: &str) -> Option<String> {
    let mut inside = false;
    for line in manifest.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            inside = line == format!("[{section}]");
            continue;
        }
        if !inside {
            continue;
        }
        let Some((k, v)) = line.split_once('=') else {
            continue;
        };
        if k.trim() == key {
            let v = v.trim();
            return Some(v.trim_matches('"').to_string());
        }
    }
    None
}

fn manifest_dir() -> PathBuf {
    PathBuf::from(env::var("CARGO_MANIFEST_DIR").expect("cg-build runs inside a build script"))
}

fn out_dir() -> PathBuf {
    PathBuf::from(env::var("OUT_DIR").expect("cg-build runs inside a build script"))
}

/// `<target dir>/cg-build` of the calling build: the ancestor of `OUT_DIR`
/// that cargo marked with `CACHEDIR.TAG`, else `OUT_DIR` itself.
fn nested_target_root() -> PathBuf {
    let out = out_dir();
    out.ancestors()
        .find(|d| d.join("CACHEDIR.TAG").exists())
        .unwrap_or(&out)
        .join("cg-build")
}

/// [`SMS_VAR`], parsed (`None` when unset or empty).
fn sms_override() -> Option<Vec<Sm>> {
    println!("cargo:rerun-if-env-changed={SMS_VAR}");
    let v = env::var(SMS_VAR).ok()?;
    let sms: Vec<Sm> = v.split(',').filter_map(Sm::parse).collect();
    (!v.trim().is_empty()).then_some(sms)
}

/// Removes cargo's fingerprints of `package` from a nested build's
/// directory (`<dir>/nvptx64-nvidia-cuda/cg-ptx/.fingerprint/<package>-*`),
/// so that the next build compiles it again (and nothing else).
fn forget_fingerprints(target_dir: &Path, package: &str) {
    let dir = target_dir.join("nvptx64-nvidia-cuda/cg-ptx/.fingerprint");
    let Ok(entries) = fs::read_dir(&dir) else {
        return;
    };
    let prefix = format!("{package}-");
    for e in entries.flatten() {
        let name = e.file_name();
        let rest = name.to_string_lossy();
        // `<package>-<16 hex digits>`, not another package that starts so.
        let hash = rest.strip_prefix(&prefix).unwrap_or("");
        if hash.len() == 16 && hash.chars().all(|c| c.is_ascii_hexdigit()) {
            let _ = fs::remove_dir_all(e.path());
        }
    }
}

/// [`FP_CONTRACT_VAR`], parsed (`None` when unset or empty; an error for
/// another value).
fn fp_contract_override() -> Result<Option<FpContract>, Error> {
    println!("cargo:rerun-if-env-changed={FP_CONTRACT_VAR}");
    match env::var(FP_CONTRACT_VAR) {
        Ok(v) if !v.trim().is_empty() => FpContract::parse(&v).map(Some).ok_or_else(|| {
            Error::new(format!(
                "{FP_CONTRACT_VAR}={v}: the policy is `fast` (nvcc's default) or `off`"
            ))
        }),
        _ => Ok(None),
    }
}

/// [`FAST_MATH_VAR`], parsed (`None` when unset or empty; an error for
/// another value).
fn fast_math_override() -> Result<Option<FastMath>, Error> {
    println!("cargo:rerun-if-env-changed={FAST_MATH_VAR}");
    match env::var(FAST_MATH_VAR) {
        Ok(v) if !v.trim().is_empty() => FastMath::parse(&v).map(Some).ok_or_else(|| {
            Error::new(format!(
                "{FAST_MATH_VAR}={v}: the policy is `1` (nvcc's --use_fast_math) or `0`"
            ))
        }),
        _ => Ok(None),
    }
}

/// Rebuild when the kernel crate's manifest or sources change (the source
/// files of its path dependencies are added from the dep-info after a
/// successful build).
fn watch_inputs(dir: &Path) {
    for p in [dir.join("Cargo.toml"), dir.join("src")] {
        println!("cargo:rerun-if-changed={}", p.display());
    }
    // The toolchain file and lock file of the kernel crate's workspace.
    for d in dir.ancestors() {
        for f in ["rust-toolchain.toml", "rust-toolchain", "Cargo.lock"] {
            if d.join(f).exists() {
                println!("cargo:rerun-if-changed={}", d.join(f).display());
            }
        }
    }
}

/// Every local source file the PTX was built from (the dep-info cargo
/// writes beside the artifact lists those of path dependencies too).
fn watch_dep_info(target_dir: &Path, lib: &str) {
    let d = target_dir.join(format!("nvptx64-nvidia-cuda/cg-ptx/lib{lib}.d"));
    let Ok(text) = fs::read_to_string(&d) else {
        return;
    };
    let Some((_, deps)) = text.split_once(": ") else {
        return;
    };
    // Paths are separated by spaces (escaped as `\ ` inside a path).
    let mut path = String::new();
    let mut chars = deps.trim().chars().peekable();
    let emit = |p: &mut String| {
        if !p.is_empty() {
            println!("cargo:rerun-if-changed={p}");
            p.clear();
        }
    };
    while let Some(c) = chars.next() {
        match c {
            '\\' if chars.peek() == Some(&' ') => {
                path.push(' ');
                chars.next();
            }
            ' ' | '\n' => emit(&mut path),
            _ => path.push(c),
        }
    }
    emit(&mut path);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_names_of_a_manifest() {
        let m = "[package]\nname = \"my-kernels\"\nversion = \"0.1.0\"\n\n[lib]\nname = \"kern\"\n";
        assert_eq!(package_name(m).as_deref(), Some("my-kernels"));
        assert_eq!(lib_name(m).as_deref(), Some("kern"));
        let m = "[dependencies]\nname = \"x\"\n[package]\nversion = \"1\"\nname=\"k\"\n";
        assert_eq!(package_name(m).as_deref(), Some("k"));
        assert_eq!(lib_name(m), None);
    }

    #[test]
    fn the_table_names_every_sm() {
        let t = table_source(
            "K",
            "kern",
            "-collectives",
            &[
                (Sm::portable(70), "/o/a.ptx".into()),
                (Sm::parse("90a").unwrap(), "/o/b.ptx".into()),
            ],
        );
        assert!(t.contains("pub static K: ::cg_runtime::PtxModule"), "{t}");
        assert!(t.contains("\"kern\""), "{t}");
        assert!(
            t.contains("sm: 70, arch_specific: false, ptx: include_str!(\"/o/a.ptx\")"),
            "{t}"
        );
        assert!(t.contains("sm: 90, arch_specific: true"), "{t}");
        assert!(t.contains("features collectives"), "{t}");
    }

    #[test]
    fn toolchain_errors_name_the_fix() {
        let dir = Path::new("/k");
        assert!(
            diagnose(
                "error[E0658]: the extern \"gpu-kernel\" ABI is experimental",
                Sm::portable(90),
                dir
            )
            .contains("feature(abi_gpu_kernel")
        );
        assert!(
            diagnose("error: can't find crate for `std`", Sm::portable(90), dir).contains("no_std")
        );
        assert!(diagnose("something else", Sm::portable(80), dir).contains("sm_80"));
    }

    #[test]
    fn fp_contract_policies() {
        assert_eq!(FpContract::default(), FpContract::Fast);
        for (s, p) in [
            ("fast", FpContract::Fast),
            ("ON", FpContract::Fast),
            (" off ", FpContract::Off),
        ] {
            assert_eq!(FpContract::parse(s), Some(p), "{s}");
        }
        assert_eq!(FpContract::parse("contract"), None);
        assert_eq!(FpContract::Off.to_string(), "off");
        assert_eq!(FpContract::Fast.target_subdir(Sm::portable(80)), "sm_80");
        assert_eq!(
            FpContract::Off.target_subdir(Sm::portable(80)),
            "sm_80-fp-off"
        );
        assert_eq!(
            FpContract::Fast.target_subdir(Sm::parse("90a").unwrap()),
            "sm_90a"
        );
    }

    #[test]
    fn marked_parameters_are_declared_64_byte_aligned() {
        let ptx = ".visible .entry k(\n\t.param .align 16 .b8 k_param_0[160],\n\t.param .align 16 .b8 k_param_1[160],\n\t.param .u32 k_param_2\n)\n{\n\t// cg-grid-constant k_param_1\n\tmov.b64 %rd1, k_param_1;\n}\n";
        let out = align_grid_constants(ptx);
        assert!(
            out.contains("\t.param .align 16 .b8 k_param_0[160],\n"),
            "{out}"
        );
        assert!(
            out.contains("\t.param .align 64 .b8 k_param_1[160],\n"),
            "{out}"
        );
        assert!(out.contains(".param .u32 k_param_2\n"), "{out}");
        assert_eq!(align_grid_constants("no marks"), "no marks");
    }

    #[test]
    fn marked_entries_declare_their_launch_bounds() {
        let ptx = ".visible .entry a(\n\t.param .u32 a_param_0\n)\n{\n\t// cg-launch-bounds a 256 3\n}\n\
                   .visible .entry b(\n\t.param .u32 b_param_0\n)\n{\n}\n\
                   .visible .entry c()\n{\n\t// cg-launch-bounds c 128 0\n}\n";
        let out = declare_launch_bounds(ptx);
        assert!(
            out.contains("a_param_0\n)\n.maxntid 256, 1, 1\n.minnctapersm 3\n{"),
            "{out}"
        );
        assert!(out.contains("b_param_0\n)\n{"), "{out}");
        assert!(out.contains("c()\n.maxntid 128, 1, 1\n{"), "{out}");
        assert_eq!(out.matches(".maxntid").count(), 2, "{out}");
        assert_eq!(declare_launch_bounds("no marks"), "no marks");
    }

    #[test]
    fn a_block_dim_declares_reqntid_instead_of_maxntid() {
        let ptx = ".visible .entry a(\n\t.param .u32 a_param_0\n)\n{\n\t// cg-block-dim a 256 1 1\n}\n\
                   .visible .entry b()\n{\n\t// cg-launch-bounds b 128 8\n\t// cg-block-dim b 32 4 1\n}\n\
                   .visible .entry c()\n{\n}\n";
        let out = declare_launch_bounds(ptx);
        assert!(out.contains("a_param_0\n)\n.reqntid 256, 1, 1\n{"), "{out}");
        assert!(
            out.contains("b()\n.reqntid 32, 4, 1\n.minnctapersm 8\n{"),
            "{out}"
        );
        assert!(out.contains("c()\n{"), "{out}");
        assert!(!out.contains(".maxntid"), "{out}");
    }

    #[test]
    fn a_register_limit_declares_maxnreg() {
        let ptx = ".visible .entry a()\n{\n\t// cg-block-dim a 128 1 1\n\t// cg-max-registers a 24\n}\n\
                   .visible .entry b()\n{\n\t// cg-max-registers b 40\n}\n";
        let out = declare_launch_bounds(ptx);
        assert!(
            out.contains("a()\n.reqntid 128, 1, 1\n.maxnreg 24\n{"),
            "{out}"
        );
        assert!(out.contains("b()\n.maxnreg 40\n{"), "{out}");
    }

    #[test]
    fn rustflags_name_the_sm_ptx84_and_the_policy() {
        let p = |sm, fp_contract, fast_math, deny| {
            rustflags(&Policy {
                sm: Sm::parse(sm).unwrap(),
                fp_contract,
                fast_math,
                deny,
            })
        };
        assert_eq!(
            p("80", FpContract::Off, FastMath::Off, false),
            "-Ctarget-cpu=sm_80 -Ctarget-feature=+ptx71"
        );
        assert_eq!(
            p("90", FpContract::Off, FastMath::Off, false),
            "-Ctarget-cpu=sm_90 -Ctarget-feature=+ptx84"
        );
        assert_eq!(
            p("70", FpContract::Fast, FastMath::Off, false),
            "-Ctarget-cpu=sm_70 -Cllvm-args=-fp-contract=fast"
        );
        assert_eq!(
            p("90", FpContract::Off, FastMath::Off, true),
            "-Ctarget-cpu=sm_90 -Ctarget-feature=+ptx84 -Dwarnings"
        );
        assert_eq!(
            p("90a", FpContract::Off, FastMath::Off, false),
            "-Ctarget-cpu=sm_90a -Ctarget-feature=+ptx84"
        );
        assert_eq!(
            p("70", FpContract::Fast, FastMath::On, false),
            "-Ctarget-cpu=sm_70 -Cllvm-args=-fp-contract=fast \
             -Cllvm-args=-nvptx-prec-divf32=1 -Cllvm-args=-nvptx-prec-sqrtf32=0"
        );
    }

    #[test]
    fn fast_math_policies() {
        assert_eq!(FastMath::default(), FastMath::Off);
        for (s, p) in [
            ("1", FastMath::On),
            ("ON", FastMath::On),
            (" true ", FastMath::On),
            ("0", FastMath::Off),
            ("off", FastMath::Off),
        ] {
            assert_eq!(FastMath::parse(s), Some(p), "{s}");
        }
        assert_eq!(FastMath::parse("yes please"), None);
        assert_eq!(FastMath::On.to_string(), "on");
        assert_eq!(FastMath::On.dir_suffix(), "-fast-math");
        assert_eq!(FastMath::Off.dir_suffix(), "");
    }

    #[test]
    fn fast_math_approximates_and_flushes_f32_outside_inline_asm() {
        let ptx = "\
.visible .entry a(
\t.param .u64 a_param_0
)
{
\t// begin inline asm
\t// cg-fast-math a
\t// end inline asm
\tdiv.rn.f32 \t%r3, %r1, %r2;
\trcp.rn.f32 \t%r7, %r2;
\tsqrt.rn.f32 \t%r4, %r1;
\tadd.rn.f32 \t%r6, %r5, 0f3F800000;
\tadd.f32 \t%r6, %r5, %r5;
\tfma.rn.sat.f32 \t%r8, %r1, %r2, %r3;
\tmin.NaN.f32 \t%r8, %r1, %r2;
\tmax.f32 \t%r8, %r1, %r2;
\t@%p1 setp.lt.f32 \t%p2, %r1, %r2;
\tcvt.rzi.s32.f32 \t%r9, %r1;
\tcvt.rmi.f32.f32 \t%r9, %r1;
\tcvt.f64.f32 \t%rd9, %r1;
\tcvt.rn.f32.s32 \t%r9, %r10;
\tcvt.rn.f16.f32 \t%rs1, %r1;
\tdiv.rn.f64 \t%rd9, %rd7, %rd8;
\tadd.rn.f32x2 \t%rd9, %rd7, %rd8;
\tex2.approx.ftz.f32 \t%r1, %r1;
\tmov.f32 \t%r1, %r2;
\t// begin inline asm
\tdiv.rn.f32 %r3, %r1, %r2;
\t// end inline asm
\tret;
}
.visible .entry b(
)
{
\tdiv.rn.f32 \t%r3, %r1, %r2;
}
";
        let out = fast_math_ptx(ptx, false);
        for want in [
            "\tdiv.full.ftz.f32 \t%r3, %r1, %r2;\n\trcp.approx.ftz.f32 \t%r7, %r2;\n",
            "\tsqrt.approx.ftz.f32 \t%r4, %r1;\n",
            "\tadd.rn.ftz.f32 \t%r6, %r5, 0f3F800000;\n",
            "\tadd.ftz.f32 \t%r6, %r5, %r5;\n",
            "\tfma.rn.ftz.sat.f32 \t",
            "\tmin.ftz.NaN.f32 \t",
            "\tmax.ftz.f32 \t",
            "\t@%p1 setp.lt.ftz.f32 \t%p2, %r1, %r2;\n",
            "\tcvt.rzi.ftz.s32.f32 \t",
            "\tcvt.rmi.ftz.f32.f32 \t",
            "\tcvt.ftz.f64.f32 \t",
            // Left alone: no `f32` source, `f16` destination, `f64`,
            // packed pairs, already flushed, no `.ftz` form.
            "\tcvt.rn.f32.s32 \t",
            "\tcvt.rn.f16.f32 \t",
            "\tdiv.rn.f64 \t",
            "\tadd.rn.f32x2 \t",
            "\tex2.approx.ftz.f32 \t",
            "\tmov.f32 \t",
            // Inline PTX keeps its rounding, and flushes.
            "\t// begin inline asm\n\tdiv.rn.ftz.f32 %r3, %r1, %r2;\n",
            // The unmarked entry is kept.
            "{\n\tdiv.rn.f32 \t%r3, %r1, %r2;\n}\n",
        ] {
            assert!(out.contains(want), "{want:?} in\n{out}");
        }
        assert_eq!(out.lines().count(), ptx.lines().count());
        // The crate's policy: every function.
        let all = fast_math_ptx(ptx, true);
        assert!(!all.contains("\tdiv.rn.f32 \t"), "{all}");
        assert!(all.contains("\tdiv.rn.ftz.f32 %r3"), "{all}");
        assert_eq!(fast_math_ptx("no marks\n", false), "no marks\n");
        assert_eq!(
            entry_or_func(".func  (.param .b32 func_retval0) helper("),
            Some("helper")
        );
        assert_eq!(entry_or_func(".visible .entry k("), Some("k"));
        assert_eq!(entry_or_func("add.f32 %r1;"), None);
    }

    #[test]
    fn a_kernel_builds_warnings_are_kept_and_its_isa_note_dropped() {
        let log = "\
warning: unstable feature specified for `-Ctarget-feature`: `ptx83`
  |
  = note: this feature is not stably supported; its behavior can change in the future

warning: `cg-isa` (lib) generated 1 warning
   Compiling my-kernels v0.1.0 (/p/kernels)
warning: unused variable: `x`
 --> src/lib.rs:3:9
  |
3 |     let x = 1;
  |         ^ help: if this is intentional, prefix it with an underscore: `_x`

warning: `my-kernels` (lib) generated 1 warning
    Finished `cg-ptx` profile [optimized] target(s) in 1.00s
";
        let w = kernel_warnings(log);
        assert_eq!(w.len(), 1, "{w:?}");
        assert!(w[0].starts_with("warning: unused variable: `x`\n --> src/lib.rs:3:9"));
        assert!(w[0].ends_with("`_x`"));
        assert!(kernel_warnings("   Compiling a\n    Finished x\n").is_empty());
    }
}
