//! The semantic differential against NVIDIA's C++ (part of `cg-lab
//! verify`): every case of `cg_kernels::semantics` (shuffles, partitions,
//! lambdas, atomics) and its twin in `reference/cuda/semantics.cu` or
//! `atomics.cu` (built by nvcc for the device) run on the GPU; the Rust kernel also runs on the simulator; all three outputs must
//! be identical word for word. Written to `semantics.json` /
//! `semantics.md`; without a GPU, the simulator is compared against the C++
//! words of a committed `semantics.json`.

use std::path::Path;

use anyhow::{Context, Result, bail};
use cg_kernels::semantics::cases::{PENDING_CASES, SEM_CASES, SemCase};
use cg_kernels::semantics::{SEM_WORDS, UNDEFINED};
use cg_runtime::{Backend, Gpu, LaunchConfig, Module};
use serde::{Deserialize, Serialize};

use crate::results::first_difference;

/// One case's outputs.
#[derive(Debug, Serialize, Deserialize)]
pub struct SemResult {
    /// Case name.
    pub name: String,
    /// Blocks.
    pub grid: u32,
    /// Threads per block.
    pub block: u32,
    /// What the case covers.
    pub note: String,
    /// NVIDIA's C++ on the GPU (`SEM_WORDS` per thread).
    pub cpp: Vec<u32>,
    /// The Rust kernel on the GPU; empty when it equals `cpp` word for
    /// word (the file then holds one copy of the words, not three).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rust: Vec<u32>,
    /// The Rust kernel on the simulator; empty when it equals `cpp`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sim: Vec<u32>,
    /// Words CUDA defines (not [`UNDEFINED`] on the C++ side).
    pub defined_words: usize,
    /// All three identical.
    pub identical: bool,
}

impl SemResult {
    /// The Rust kernel's words on the GPU: `cpp`'s where the file stores
    /// none (they were equal).
    pub fn rust_words(&self) -> &[u32] {
        if self.rust.is_empty() {
            &self.cpp
        } else {
            &self.rust
        }
    }
}

/// The file `semantics.json`.
#[derive(Debug, Serialize, Deserialize)]
pub struct SemReport {
    /// GPU name.
    pub device: String,
    /// How the C++ was built.
    pub nvcc: String,
    /// Command line.
    pub command: String,
    /// Source revision.
    pub commit: String,
    /// The embedded PTX's floating-point contraction policy
    /// ([`crate::results::FP_CONTRACT`]; empty in files written before it
    /// was recorded).
    #[serde(default)]
    pub fp_contract: String,
    /// The embedded PTX's fast-math policy
    /// ([`crate::results::FAST_MATH`]; empty in files written before it
    /// was recorded).
    #[serde(default)]
    pub fast_math: String,
    /// Every case.
    pub cases: Vec<SemResult>,
}

fn words(c: &SemCase) -> usize {
    (c.grid * c.block) as usize * SEM_WORDS
}

/// Every case the differential runs: the recorded ones and the pending
/// ones.
fn all_cases() -> impl Iterator<Item = &'static SemCase> {
    SEM_CASES.iter().chain(PENDING_CASES)
}

/// Every case, those of plain launches before those of cooperative ones.
/// Once a context has run a cooperative launch, the driver gives its later
/// plain launches a grid workspace too (measured with driver 580.159,
/// CUDA 13.0, on an H100: `scripts/grid-workspace-probe`), and
/// `grid.is_valid()` — NVIDIA's C++ and this library read the same
/// registers — is true there; in a context that has not, it is false, as
/// CUDA defines it and the simulator answers. So the plain cases run
/// first, and `cg-lab verify` runs this differential before its
/// cooperative grid checks.
fn plain_launches_first() -> impl Iterator<Item = &'static SemCase> {
    let plain = all_cases().filter(|c| !c.cooperative);
    plain.chain(all_cases().filter(|c| c.cooperative))
}

/// The case's launch: plain or cooperative, on every side alike.
fn config(c: &SemCase) -> LaunchConfig {
    LaunchConfig::linear(c.grid, c.block).with_cooperative(c.cooperative)
}

/// Runs the Rust kernel of `c` on `backend`.
pub fn run_rust(backend: &Backend, c: &SemCase) -> Result<Vec<u32>> {
    let mut out = backend.alloc::<u32>(words(c))?;
    out.zero()?;
    // SAFETY: every semantic case writes `words(c)` words of `out`.
    unsafe { backend.launch_unchecked(&c.kernel, &config(c), (out.as_ptr(),)) }
        .with_context(|| format!("semantic case {} (Rust)", c.name))?;
    Ok(out.to_vec()?)
}

fn run_cpp(gpu: &Gpu, module: &Module, c: &SemCase) -> Result<Vec<u32>> {
    let out = gpu.alloc::<u32>(words(c))?;
    out.zero()?;
    let f = module.function(c.cpp)?;
    // SAFETY: the C++ twin takes one pointer and writes `words(c)` words.
    unsafe { gpu.launch_function(f, c.cpp, &config(c), (out.as_ptr(),)) }
        .and_then(|()| gpu.synchronize())
        .with_context(|| format!("semantic case {} (C++ {})", c.name, c.cpp))?;
    Ok(out.to_vec()?)
}

fn result(c: &SemCase, cpp: Vec<u32>, rust: Vec<u32>, sim: Vec<u32>) -> (SemResult, Vec<String>) {
    let diffs: Vec<String> = [
        first_difference(SEM_WORDS, ("C++", &cpp), ("Rust", &rust)),
        first_difference(SEM_WORDS, ("C++", &cpp), ("simulator", &sim)),
    ]
    .into_iter()
    .flatten()
    .collect();
    let identical = diffs.is_empty();
    // A side equal to NVIDIA's words is not stored again.
    let unless_same = |side: Vec<u32>| if side == cpp { Vec::new() } else { side };
    let (rust, sim) = (unless_same(rust), unless_same(sim));
    let r = SemResult {
        name: c.name.into(),
        grid: c.grid,
        block: c.block,
        note: c.note.into(),
        defined_words: cpp.iter().filter(|&&w| w != UNDEFINED).count(),
        identical,
        cpp,
        rust,
        sim,
    };
    (r, diffs)
}

/// Builds the C++ twins with `nvcc` and runs every case on the GPU and the
/// simulator. Returns the report and the failures.
pub fn run_on_gpu(
    backend: &Backend,
    nvcc: &Path,
    build_dir: &Path,
) -> Result<(SemReport, Vec<String>)> {
    let Backend::Gpu(gpu) = backend else {
        bail!("the semantic differential runs NVIDIA's C++ on a GPU");
    };
    let sm = gpu.info().sm();
    // Each file of reference/cuda that a case names, built once.
    let mut modules: Vec<(&str, Module)> = Vec::new();
    let mut nvcc_line = crate::reference::nvcc_flags(sm);
    for src in [crate::reference::SEMANTICS_CU, crate::reference::ATOMICS_CU] {
        if !all_cases().any(|c| c.cpp_file == src.stem) {
            continue;
        }
        let (cubin, defines) = crate::reference::build_cubin(nvcc, sm, build_dir, src)?;
        if !defines.is_empty() {
            let note = format!("{}.cu built with {}", src.stem, defines.join(" "));
            println!("note: {note} (this toolkit lacks what the plain build needs)");
            nvcc_line += &format!("; {note}");
        }
        modules.push((src.stem, gpu.load_image(&std::fs::read(&cubin)?)?));
    }
    let sim = Backend::sim();
    let mut cases = Vec::new();
    let mut failures = Vec::new();
    for c in plain_launches_first() {
        let Some((_, module)) = modules.iter().find(|(stem, _)| *stem == c.cpp_file) else {
            bail!(
                "semantic case {}: no reference/cuda/{}.cu",
                c.name,
                c.cpp_file
            );
        };
        let cpp = run_cpp(gpu, module, c)?;
        let rust = run_rust(backend, c)?;
        let on_sim = run_rust(&sim, c)?;
        let (r, diffs) = result(c, cpp, rust, on_sim);
        print_line(&r, &diffs);
        failures.extend(diffs.into_iter().map(|d| format!("{}: {d}", c.name)));
        cases.push(r);
    }
    let report = SemReport {
        device: gpu.info().name.clone(),
        nvcc: nvcc_line,
        command: crate::results::command_line(),
        commit: env!("CG_LAB_COMMIT").into(),
        fp_contract: crate::results::FP_CONTRACT.into(),
        fast_math: crate::results::FAST_MATH.into(),
        cases,
    };
    Ok((report, failures))
}

/// Compares the simulator against the C++ words of an earlier GPU run.
pub fn check_sim_against(reference: &SemReport) -> Result<Vec<String>> {
    let sim = Backend::sim();
    let mut failures = Vec::new();
    for c in all_cases() {
        let Some(r) = reference.cases.iter().find(|r| r.name == c.name) else {
            if PENDING_CASES.iter().any(|p| p.name == c.name) {
                println!(
                    "C++ {:<20} not yet measured on a GPU: the reference predates it (`cg-lab verify` on a GPU records it)",
                    c.name
                );
                continue;
            }
            bail!(
                "the reference has no semantic case `{}`: regenerate it with `cg-lab verify` on a GPU",
                c.name
            );
        };
        let on_sim = run_rust(&sim, c)?;
        let diffs: Vec<String> =
            first_difference(SEM_WORDS, ("C++", &r.cpp), ("simulator", &on_sim))
                .into_iter()
                .collect();
        let (shown, _) = result(c, r.cpp.clone(), r.rust_words().to_vec(), on_sim);
        print_line(&shown, &diffs);
        failures.extend(diffs.into_iter().map(|d| format!("{}: {d}", c.name)));
    }
    Ok(failures)
}

fn print_line(r: &SemResult, diffs: &[String]) {
    let verdict = if diffs.is_empty() {
        "identical".to_string()
    } else {
        format!("DIFFERENT ({})", diffs.join("; "))
    };
    println!(
        "C++ {:<20} grid={} block={:<3} {:<44} {:>5} defined words  {verdict}",
        r.name, r.grid, r.block, r.note, r.defined_words
    );
}

/// Reads a `semantics.json`.
pub fn read_report(path: &Path) -> Result<SemReport> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    serde_json::from_str(&text).with_context(|| format!("parsing {}", path.display()))
}

/// `semantics.md`.
pub fn markdown(rep: &SemReport) -> String {
    let mut s = format!(
        "# Semantic differential: NVIDIA's C++ Cooperative Groups vs this library — {}\n\n\
         Command: `{}` (commit {}). C++: `reference/cuda/semantics.cu`, `{}`. \
         Rust: `crates/cg-kernels/src/semantics.rs`, on the GPU and on the simulator ({}).\n\n\
         Each thread writes {SEM_WORDS} words; where CUDA leaves a result undefined both sides write \
         `{UNDEFINED:#x}` (after making the call), so the comparison covers exactly what CUDA defines.\n\n\
         | case | grid × block | covers | defined words | C++ = Rust (GPU) = Rust (simulator) |\n\
         | --- | --- | --- | ---: | --- |\n",
        rep.device,
        rep.command,
        rep.commit,
        rep.nvcc,
        crate::results::float_policy_text(&rep.fp_contract, &rep.fast_math)
    );
    for c in &rep.cases {
        s += &format!(
            "| {} | {} × {} | {} | {} | {} |\n",
            c.name,
            c.grid,
            c.block,
            c.note,
            c.defined_words,
            if c.identical {
                "identical"
            } else {
                "**DIFFERENT**"
            }
        );
    }
    s
}
