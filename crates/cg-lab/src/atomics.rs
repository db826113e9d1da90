//! `cg-lab atomics`: the atomics differential. Every case of
//! `cg_kernels::atomics` runs as the Rust kernel on the GPU, as its C++ twin
//! (`reference/cuda/atomics.cu`: `atomicCAS`, `atomicInc`,
//! `cuda::atomic_ref<T, cuda::thread_scope_…>` …, built with nvcc for the
//! device) on the GPU, and as the Rust kernel on the simulator; all three
//! outputs must be identical word for word. Writes `atomics.json` (every
//! output) and `atomics.md`.

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, Result, bail};
use cg_kernels::atomics::{ATOMIC_CONTENDED, ATOMIC_PRIVATE, ATOMIC_WORDS};
use cg_runtime::{Backend, LaunchConfig, tools};
use clap::Args;
use cooperative_groups::Kernel;
use serde::{Deserialize, Serialize};

use crate::backend_choice::BackendArgs;

/// The C++ twins, embedded so the binary needs no checkout.
const ATOMICS_CU: &str = include_str!("../../../reference/cuda/atomics.cu");

/// Flags of `cg-lab atomics`.
#[derive(Args, Debug)]
pub struct AtomicsArgs {
    #[command(flatten)]
    backend: BackendArgs,
    /// Output folder (default: `results/<gpu-slug>/`).
    #[arg(long)]
    out: Option<PathBuf>,
}

/// One launch of one case.
struct Case {
    kernel: Kernel<(*mut u32,)>,
    grid: u32,
    block: u32,
}

/// Every case: each kernel at a full-warp and a partial-warp shape.
fn cases() -> Vec<Case> {
    let c = |kernel, grid, block| Case {
        kernel,
        grid,
        block,
    };
    vec![
        c(ATOMIC_PRIVATE, 4, 128),
        c(ATOMIC_PRIVATE, 3, 96),
        c(ATOMIC_CONTENDED, 8, 256),
        c(ATOMIC_CONTENDED, 5, 100),
    ]
}

/// One case's outputs.
#[derive(Serialize, Deserialize)]
pub struct AtomicsResult {
    /// Kernel name (the C++ twin is `cpp_` + this).
    pub kernel: String,
    /// Blocks.
    pub grid: u32,
    /// Threads per block.
    pub block: u32,
    /// Rust on the GPU, C++ on the GPU, Rust on the simulator.
    pub rust: Vec<u32>,
    /// The C++ twin's words.
    pub cpp: Vec<u32>,
    /// The simulator's words.
    pub sim: Vec<u32>,
    /// The first word where any two differ, if one does.
    pub first_difference: Option<String>,
}

/// The first index where `a` and `b` differ, described.
fn first_difference(what: &str, a: &[u32], b: &[u32]) -> Option<String> {
    if a.len() != b.len() {
        return Some(format!("{what}: lengths {} vs {}", a.len(), b.len()));
    }
    a.iter().zip(b).position(|(x, y)| x != y).map(|i| {
        format!(
            "{what}: thread {} word {}: {:#010x} vs {:#010x}",
            i / ATOMIC_WORDS,
            i % ATOMIC_WORDS,
            a[i],
            b[i]
        )
    })
}

/// Builds `atomics.cu` with nvcc for `sm` into `dir`; returns the cubin
/// and the extra flag it needed: a libcu++ without
/// `cuda::thread_scope_cluster` gets `-DCG_NO_THREAD_SCOPE_CLUSTER` (the
/// device scope for the cluster-scope twins; their single-thread results
/// are the same).
fn build(nvcc: &Path, sm: u32, dir: &Path) -> Result<(PathBuf, Option<&'static str>)> {
    std::fs::create_dir_all(dir)?;
    let src = dir.join("atomics.cu");
    std::fs::write(&src, ATOMICS_CU)?;
    let cubin = dir.join(format!("atomics_sm{sm}.cubin"));
    let mut first_error = String::new();
    for extra in [None, Some("-DCG_NO_THREAD_SCOPE_CLUSTER")] {
        let out = Command::new(nvcc)
            .args(["-O3", "-std=c++17", &format!("-arch=sm_{sm}"), "-cubin"])
            .args(extra)
            .arg("-o")
            .arg(&cubin)
            .arg(&src)
            .output()
            .with_context(|| format!("running {}", nvcc.display()))?;
        if out.status.success() {
            return Ok((cubin, extra));
        }
        if first_error.is_empty() {
            first_error = String::from_utf8_lossy(&out.stderr).into_owned();
        }
    }
    bail!("nvcc failed to build reference/cuda/atomics.cu:\n{first_error}")
}

/// The Rust kernel of `c` on `backend` (zeroed output); its words.
fn run_on(backend: &Backend, c: &Case) -> Result<Vec<u32>> {
    let words = (c.grid * c.block) as usize * ATOMIC_WORDS;
    let mut out = backend.alloc::<u32>(words)?;
    out.zero()?;
    let cfg = LaunchConfig::linear(c.grid, c.block);
    backend.launch(&c.kernel, &cfg, (out.as_ptr(),))?;
    Ok(out.to_vec()?)
}

/// Runs the differential.
pub fn run(args: &AtomicsArgs) -> Result<()> {
    let Some(nvcc) = tools::find_tool("nvcc") else {
        bail!("`cg-lab atomics` builds reference/cuda/atomics.cu with nvcc, which was not found");
    };
    let backend = args.backend.open()?;
    let Backend::Gpu(gpu) = &backend else {
        bail!("`cg-lab atomics` compares against nvcc-built kernels on a GPU; none is usable here");
    };
    let sm = gpu.info().sm();
    let dir = std::env::temp_dir().join(format!("cg-lab-atomics-{}", std::process::id()));
    let (cubin, extra) = build(&nvcc, sm, &dir)?;
    if let Some(flag) = extra {
        println!("note: this libcu++ has no cuda::thread_scope_cluster: built with {flag}");
    }
    let module = gpu.load_image(&std::fs::read(&cubin)?)?;
    let sim = Backend::sim();
    let mut results = Vec::new();
    for c in cases() {
        let words = (c.grid * c.block) as usize * ATOMIC_WORDS;
        let cfg = LaunchConfig::linear(c.grid, c.block);
        let name = c.kernel.name().to_string();
        let mut rust = backend.alloc::<u32>(words)?;
        rust.zero()?;
        backend.launch(&c.kernel, &cfg, (rust.as_ptr(),))?;
        let mut cpp = backend.alloc::<u32>(words)?;
        cpp.zero()?;
        let cpp_name = format!("cpp_{name}");
        gpu.launch_function(
            module.function(&cpp_name)?,
            &cpp_name,
            &cfg,
            (cpp.as_ptr(),),
        )?;
        gpu.synchronize()?;
        let sim_out = run_on(&sim, &c)?;
        let (rust, cpp) = (rust.to_vec()?, cpp.to_vec()?);
        let first = first_difference("rust vs c++", &rust, &cpp)
            .or_else(|| first_difference("simulator vs gpu", &sim_out, &rust));
        println!(
            "{name:<18} grid {:>2} × {:<4} {} words: {}",
            c.grid,
            c.block,
            words,
            first.as_deref().unwrap_or("Rust = C++ = simulator")
        );
        results.push(AtomicsResult {
            kernel: name,
            grid: c.grid,
            block: c.block,
            rust,
            cpp,
            sim: sim_out,
            first_difference: first,
        });
    }
    std::fs::remove_dir_all(&dir).ok();
    let out = crate::results::out_dir(args.out.as_deref(), &gpu.info().slug());
    std::fs::create_dir_all(&out)?;
    let platform = crate::run::platform(&backend);
    std::fs::write(out.join("atomics.json"), serde_json::to_string(&results)?)?;
    std::fs::write(out.join("atomics.md"), markdown(&results, &platform.device))?;
    println!("wrote {}", out.join("atomics.{json,md}").display());
    let bad: Vec<&str> = results
        .iter()
        .filter_map(|r| r.first_difference.as_deref())
        .collect();
    if !bad.is_empty() {
        bail!("atomics differential FAILED: {}", bad.join("; "));
    }
    Ok(())
}

fn markdown(results: &[AtomicsResult], device: &str) -> String {
    let mut s = format!(
        "# Atomics differential — {device}\n\n\
         Each kernel of `cg_kernels::atomics` against its C++ twin in \
         `reference/cuda/atomics.cu` (`atomicCAS`, `atomicInc`, `cuda::atomic_ref<T, \
         cuda::thread_scope_…>`, `cuda::atomic_thread_fence`, built with nvcc for the \
         device), and against the simulator: every output word compared.\n\n\
         | kernel | grid × block | words | result |\n| --- | --- | ---: | --- |\n"
    );
    for r in results {
        s += &format!(
            "| {} | {} × {} | {} | {} |\n",
            r.kernel,
            r.grid,
            r.block,
            r.rust.len(),
            r.first_difference
                .as_deref()
                .unwrap_or("identical (Rust = C++ = simulator)")
        );
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The simulator against the C++ twins' words from the H200
    /// (`docs/results/h200/atomics/atomics.json`), on every run: every case
    /// is in the file and every word is identical.
    #[test]
    fn simulator_matches_the_committed_cpp_words() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../docs/results/h200/atomics/atomics.json"
        );
        let text = std::fs::read_to_string(path).expect("the H200's atomics.json");
        let reference: Vec<AtomicsResult> = serde_json::from_str(&text).unwrap();
        let sim = Backend::sim();
        for c in cases() {
            let r = reference
                .iter()
                .find(|r| r.kernel == c.kernel.name() && r.grid == c.grid && r.block == c.block)
                .unwrap_or_else(|| {
                    panic!(
                        "no {} {}x{} in atomics.json: rerun `cg-lab atomics` on a GPU",
                        c.kernel.name(),
                        c.grid,
                        c.block
                    )
                });
            assert!(r.first_difference.is_none(), "{:?}", r.first_difference);
            let on_sim = run_on(&sim, &c).unwrap();
            assert_eq!(
                first_difference("C++ (H200) vs simulator", &r.cpp, &on_sim),
                None,
                "{} {}x{}",
                r.kernel,
                c.grid,
                c.block
            );
        }
    }
}
