//! What the sample hosts share.
//!
//! * [`backend`]: the GPU if there is one, else the simulator (`CG_SIM=1`
//!   forces the simulator);
//! * [`Cpp`]: the sample's C++ twin (the original's kernels, rewritten),
//!   built by `nvcc` for the device at run time and loaded into the same
//!   process;
//! * [`time_interleaved`]: CUDA-event timing of the Rust and C++ kernels in
//!   alternating rounds, reported as medians ([`time_interleaved_with_reset`]
//!   for kernels that change their own inputs);
//! * [`Rng`]: a small deterministic generator for the inputs.

use std::path::{Path, PathBuf};
use std::process::Command;

use cg_runtime::{Backend, Gpu, Module, PtxModule, Runs, Timing};

/// An error with a message, for the samples' `main`.
pub type Error = Box<dyn std::error::Error>;

/// The GPU with `kernels` loaded, or the simulator where there is none (or
/// `CG_SIM=1` is set). Prints which.
pub fn backend(kernels: &'static PtxModule) -> Backend {
    if std::env::var("CG_SIM").is_ok_and(|v| v == "1") {
        println!("running on the simulator (CG_SIM=1)");
        return Backend::sim();
    }
    match Backend::gpu(0, kernels) {
        Ok(b) => {
            if let Backend::Gpu(g) = &b {
                println!("running on {} (PTX sm_{})", g.info().name, g.ptx_sm());
            }
            b
        }
        Err(e) => {
            println!("running on the simulator: {e}");
            Backend::sim()
        }
    }
}

/// `Err(msg)` unless `ok`.
pub fn ensure(ok: bool, msg: impl FnOnce() -> String) -> Result<(), Error> {
    if ok { Ok(()) } else { Err(msg().into()) }
}

/// A C++ module built by `nvcc -O3 -arch=sm_XX -cubin` and loaded.
pub struct Cpp {
    /// The loaded cubin.
    pub module: Module,
    /// The command line, for reports.
    pub command: String,
}

/// `nvcc`: `$CUDA_HOME/bin`, `/usr/local/cuda/bin`, or the `PATH`.
fn nvcc() -> Option<PathBuf> {
    let mut dirs: Vec<PathBuf> = std::env::var_os("CUDA_HOME")
        .map(|h| vec![PathBuf::from(h).join("bin")])
        .unwrap_or_default();
    dirs.push("/usr/local/cuda/bin".into());
    if let Some(path) = std::env::var_os("PATH") {
        dirs.extend(std::env::split_paths(&path));
    }
    dirs.into_iter()
        .map(|d| d.join("nvcc"))
        .find(|p| p.is_file())
}

impl Cpp {
    /// Builds `source` (a `.cu` file's text, named `stem`) for the device of
    /// `gpu` and loads it. `Err` says why not (no nvcc, a compile error).
    pub fn build(gpu: &Gpu, stem: &str, source: &str) -> Result<Cpp, Error> {
        let nvcc = nvcc().ok_or("no nvcc (set CUDA_HOME or put nvcc on the PATH)")?;
        let sm = gpu.info().sm();
        let dir = std::env::temp_dir().join(format!("cg-samples-{}", std::process::id()));
        std::fs::create_dir_all(&dir)?;
        let cu = dir.join(format!("{stem}.cu"));
        std::fs::write(&cu, source)?;
        let cubin = dir.join(format!("{stem}_sm{sm}.cubin"));
        let out = Command::new(&nvcc)
            .args(["-O3", &format!("-arch=sm_{sm}"), "-cubin", "-o"])
            .arg(&cubin)
            .arg(&cu)
            .output()?;
        if !out.status.success() {
            return Err(format!(
                "nvcc failed on {stem}.cu:\n{}",
                String::from_utf8_lossy(&out.stderr)
            )
            .into());
        }
        let module = gpu.load_image(&std::fs::read(&cubin)?)?;
        Ok(Cpp {
            module,
            command: format!("{} -O3 -arch=sm_{sm} -cubin {stem}.cu", display(&nvcc)),
        })
    }
}

fn display(p: &Path) -> String {
    p.display().to_string()
}

/// Per-launch times (ms) of two launch sequences, measured in `rounds`
/// alternating rounds of `reps` launches each (Rust first in even rounds,
/// C++ first in odd ones), each round one sample of `Gpu::time` (its
/// launches queued between two CUDA events) after one warm-up launch of
/// each; returns the medians, Rust's first.
pub fn time_interleaved(
    gpu: &Gpu,
    rounds: usize,
    reps: usize,
    mut rust: impl FnMut() -> Result<(), Error>,
    mut cpp: impl FnMut() -> Result<(), Error>,
) -> Result<(f64, f64), Error> {
    rust()?;
    cpp()?;
    gpu.synchronize()?;
    let round = Timing {
        warmups: 0,
        repeats: 1,
        runs: Runs::Exactly(reps as u32),
    };
    let time = |f: &mut dyn FnMut() -> Result<(), Error>| -> Result<f64, Error> {
        Ok(gpu.time(&round, f)?.median_ms)
    };
    alternate(rounds, &mut rust, &mut cpp, time)
}

/// Per-launch times (ms) of two launches that change their own inputs:
/// `rounds` alternating rounds (Rust first in even rounds), each timing one
/// launch of each between two CUDA events, with `reset` (e.g. copying the
/// inputs back) run before each timed launch, outside the events. Returns
/// the medians, Rust's first.
pub fn time_interleaved_with_reset(
    gpu: &Gpu,
    rounds: usize,
    mut reset: impl FnMut() -> Result<(), Error>,
    mut rust: impl FnMut() -> Result<(), Error>,
    mut cpp: impl FnMut() -> Result<(), Error>,
) -> Result<(f64, f64), Error> {
    let (start, stop) = (gpu.event()?, gpu.event()?);
    let mut time = |f: &mut dyn FnMut() -> Result<(), Error>| -> Result<f64, Error> {
        reset()?;
        gpu.synchronize()?;
        start.record()?;
        f()?;
        stop.record()?;
        Ok(stop.elapsed_since(&start)? as f64)
    };
    time(&mut rust)?;
    time(&mut cpp)?;
    alternate(rounds, &mut rust, &mut cpp, time)
}

/// A launch sequence of one side.
type Launches<'a> = &'a mut dyn FnMut() -> Result<(), Error>;

/// `rounds` rounds timing both sides with `time`, Rust first in even rounds
/// and C++ first in odd ones (so neither always runs on a warmer GPU);
/// returns the medians, Rust's first.
fn alternate(
    rounds: usize,
    rust: Launches,
    cpp: Launches,
    mut time: impl FnMut(Launches) -> Result<f64, Error>,
) -> Result<(f64, f64), Error> {
    let (mut r, mut c) = (Vec::new(), Vec::new());
    for round in 0..rounds {
        if round % 2 == 0 {
            r.push(time(&mut *rust)?);
            c.push(time(&mut *cpp)?);
        } else {
            c.push(time(&mut *cpp)?);
            r.push(time(&mut *rust)?);
        }
    }
    Ok((median(&mut r), median(&mut c)))
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

/// Prints one timing line: both medians and their ratio.
pub fn report_times(what: &str, rust_ms: f64, cpp_ms: f64) {
    println!(
        "time {what}: Rust {:.4} ms, C++ {:.4} ms, Rust/C++ {:.3}",
        rust_ms,
        cpp_ms,
        rust_ms / cpp_ms
    );
}

/// xorshift64*: deterministic inputs, the same on every machine.
pub struct Rng(u64);

impl Rng {
    /// A generator from a non-zero seed.
    pub fn new(seed: u64) -> Rng {
        Rng(seed.max(1))
    }

    /// The next 31-bit value (as C's `rand()` returns on glibc).
    pub fn next_u31(&mut self) -> u32 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) as u32
    }
}
