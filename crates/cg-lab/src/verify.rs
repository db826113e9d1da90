//! `cg-lab verify`: the differential test. Every differential kernel runs on
//! the simulator and on the GPU, and their outputs must be identical word for
//! word. Writes `differential.json` (both outputs of every case) and
//! `differential.md`; without a GPU, compares the simulator against a
//! reference file written earlier on a GPU (`--reference`).

use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use cg_kernels::diff::DIFF_WORDS;
use cg_kernels::diff::cases::{DIFF_CASES, DiffCase};
use cg_runtime::{Backend, LaunchConfig};
use clap::Args;
use serde::{Deserialize, Serialize};

use crate::backend_choice::BackendArgs;

/// Flags of `cg-lab verify`.
#[derive(Args, Debug)]
pub struct VerifyArgs {
    #[command(flatten)]
    backend: BackendArgs,
    /// Output folder (default: `results/<gpu-slug>/`).
    #[arg(long)]
    out: Option<PathBuf>,
    /// A `differential.json` from an earlier GPU run: compare the simulator
    /// against its GPU outputs (for machines without a GPU).
    #[arg(long)]
    reference: Option<PathBuf>,
    /// Collective test launches per group shape and element type on the GPU
    /// (0 skips them).
    #[arg(long, default_value_t = 24)]
    collectives: u32,
    /// Random sequences of collectives run back to back, per group kind and
    /// element type, after every ordered pair on the multi-warp shapes (0
    /// skips the composed launches).
    #[arg(long, default_value_t = 24)]
    composed: u32,
    /// Last, launch a kernel that never ends and check that the watchdog
    /// (`--timeout`, here 2 s) stops it with an error naming it (GPU only;
    /// the process exits right after, which ends the kernel).
    #[arg(long)]
    watchdog_test: bool,
    /// Seed of the collective test cases.
    #[arg(long, default_value_t = 0x00C0_FFEE)]
    seed: u64,
}

/// One case's outputs on both sides.
#[derive(Debug, Serialize, Deserialize)]
pub struct CaseResult {
    /// Case name.
    pub name: String,
    /// Launch shape.
    pub grid: u32,
    /// Threads per block.
    pub block: u32,
    /// What the case covers.
    pub note: String,
    /// Outputs on the GPU (`DIFF_WORDS` per thread).
    pub gpu: Vec<u32>,
    /// Outputs on the simulator.
    pub sim: Vec<u32>,
    /// Word-for-word equal.
    pub identical: bool,
}

/// The file `differential.json`.
#[derive(Debug, Serialize, Deserialize)]
pub struct DiffReport {
    /// GPU name.
    pub device: String,
    /// Command line.
    pub command: String,
    /// Source revision.
    pub commit: String,
    /// Every case.
    pub cases: Vec<CaseResult>,
}

/// Runs one differential case on `backend`; returns the output words.
pub fn run_case(backend: &Backend, c: &DiffCase) -> Result<Vec<u32>> {
    let words = (c.grid * c.block) as usize * DIFF_WORDS;
    let out = backend.alloc::<u32>(words)?;
    let cfg = LaunchConfig::linear(c.grid, c.block).with_dynamic_smem(c.dynamic_smem);
    backend
        .launch(&c.kernel, &cfg, (out.as_ptr(),))
        .with_context(|| format!("differential case {}", c.name))?;
    Ok(out.to_vec()?)
}

fn first_difference(a: &[u32], b: &[u32]) -> Option<String> {
    if a.len() != b.len() {
        return Some(format!("lengths {} vs {}", a.len(), b.len()));
    }
    let i = a.iter().zip(b).position(|(x, y)| x != y)?;
    let (t, w) = (i / DIFF_WORDS, i % DIFF_WORDS);
    Some(format!(
        "thread {t} word {w}: gpu {:#x}, sim {:#x}",
        a[i], b[i]
    ))
}

/// Runs the differential suite.
pub fn run(args: &VerifyArgs) -> Result<()> {
    let sim = Backend::sim();
    let mut collectives: Option<Vec<crate::verify_collectives::TypeResult>> = None;
    let mut grid_report: Vec<String> = Vec::new();
    let mut semantics: Option<crate::semantics::SemReport> = None;
    let mut sem_failures: Vec<String> = Vec::new();
    let (device, gpu_outputs): (String, Vec<Vec<u32>>) = match &args.reference {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("reading {}", path.display()))?;
            let rep: DiffReport = serde_json::from_str(&text)
                .with_context(|| format!("parsing {}", path.display()))?;
            let mut outs = Vec::new();
            for c in DIFF_CASES {
                let Some(r) = rep.cases.iter().find(|r| r.name == c.name) else {
                    bail!(
                        "{} has no case `{}`: regenerate it with `cg-lab verify` on a GPU",
                        path.display(),
                        c.name
                    );
                };
                outs.push(r.gpu.clone());
            }
            // The C++ differential's words, if committed next to it.
            let sem_path = path.with_file_name("semantics.json");
            if sem_path.is_file() {
                let sem = crate::semantics::read_report(&sem_path)?;
                sem_failures = crate::semantics::check_sim_against(&sem)?;
            } else {
                eprintln!(
                    "note: no {} next to the reference: the simulator is not compared with NVIDIA's C++",
                    sem_path.display()
                );
            }
            (format!("{} (from {})", rep.device, path.display()), outs)
        }
        None => {
            let (backend, why) = args.backend.open_quietly()?;
            let Backend::Gpu(gpu) = &backend else {
                bail!(
                    "the differential test compares a GPU with the simulator, and there is no GPU here{}: \
                     compare the simulator with a committed GPU run instead, \
                     `cg-lab verify --reference docs/results/h200/differential.json`",
                    why.map(|e| format!(" ({e})")).unwrap_or_default()
                );
            };
            let name = gpu.info().name.clone();
            let outs = DIFF_CASES
                .iter()
                .map(|c| run_case(&backend, c))
                .collect::<Result<Vec<_>>>()?;
            let mut grid_lines = grid_suite(&backend)?;
            grid_lines.extend(cluster_suite(&backend)?);
            grid_lines.push(foreign_kernel_check(&backend)?);
            for l in &grid_lines {
                println!("{l}");
            }
            grid_report = grid_lines;
            match cg_runtime::tools::find_tool("nvcc") {
                Some(nvcc) => {
                    eprintln!(
                        "semantics: building reference/cuda/semantics.cu with {} …",
                        nvcc.display()
                    );
                    let build = std::env::temp_dir()
                        .join(format!("cg-lab-semantics-{}", std::process::id()));
                    let (rep, fails) = crate::semantics::run_on_gpu(&backend, &nvcc, &build)?;
                    semantics = Some(rep);
                    sem_failures = fails;
                }
                None => {
                    let note =
                        "semantic differential against NVIDIA's C++: not run (nvcc not found; \
                                put it on PATH or set CG_NVCC)"
                            .to_string();
                    eprintln!("note: {note}");
                    grid_report.push(note);
                }
            }
            match (
                args.collectives > 0 || args.composed > 0,
                crate::kernels::test_ptx(),
            ) {
                (false, _) => {}
                (true, None) => {
                    let note = format!(
                        "collective launches: not run ({})",
                        crate::kernels::NO_TEST_PTX
                    );
                    eprintln!("note: {note}");
                    grid_report.push(note);
                }
                (true, Some(test_ptx)) => {
                    eprintln!(
                        "collectives: loading the test module, {} launches per group shape and type, \
                         {} composed sequences per kind and type …",
                        args.collectives, args.composed
                    );
                    collectives = Some(crate::verify_collectives::run_all(
                        gpu,
                        test_ptx,
                        args.collectives,
                        args.composed,
                        args.seed,
                    )?);
                }
            }
            (name, outs)
        }
    };
    let mut cases = Vec::new();
    let mut failures = Vec::new();
    for (c, gpu) in DIFF_CASES.iter().zip(gpu_outputs) {
        let sim_out = run_case(&sim, c)?;
        let diff = first_difference(&gpu, &sim_out);
        let identical = diff.is_none();
        let verdict = match &diff {
            None => "identical".to_string(),
            Some(d) => format!("DIFFERENT ({d})"),
        };
        println!(
            "{:<14} grid={} block={:<4} {:<38} {verdict}",
            c.name, c.grid, c.block, c.note
        );
        if let Some(d) = diff {
            failures.push(format!("{}: {d}", c.name));
        }
        cases.push(CaseResult {
            name: c.name.into(),
            grid: c.grid,
            block: c.block,
            note: c.note.into(),
            gpu,
            sim: sim_out,
            identical,
        });
    }
    let report = DiffReport {
        device: device.clone(),
        command: crate::results::command_line(),
        commit: env!("CG_LAB_COMMIT").into(),
        cases,
    };
    if args.reference.is_none() {
        let slug = cg_runtime::device::slug(&device);
        let dir = crate::results::out_dir(args.out.as_deref(), &slug);
        std::fs::create_dir_all(&dir)?;
        let json = dir.join("differential.json");
        std::fs::write(&json, serde_json::to_string(&report)? + "\n")?;
        let md = dir.join("differential.md");
        let mut text = markdown(&report);
        if !grid_report.is_empty() {
            text += "\n## Grid-wide sync (cooperative launch), clusters, module identity\n\n";
            for l in &grid_report {
                text += &format!("- {l}\n");
            }
        }
        std::fs::write(&md, text)?;
        println!("wrote {}, {}", json.display(), md.display());
        if let Some(sem) = &semantics {
            let json = dir.join("semantics.json");
            std::fs::write(&json, serde_json::to_string(sem)? + "\n")?;
            let md = dir.join("semantics.md");
            std::fs::write(&md, crate::semantics::markdown(sem))?;
            println!("wrote {}, {}", json.display(), md.display());
        }
        if let Some(results) = &collectives {
            let json = dir.join("collectives.json");
            std::fs::write(&json, serde_json::to_string_pretty(results)? + "\n")?;
            let md = dir.join("collectives.md");
            std::fs::write(
                &md,
                crate::verify_collectives::markdown(results, &device, &report.command, args.seed),
            )?;
            println!("wrote {}, {}", json.display(), md.display());
        }
    }
    if let Some(results) = &collectives {
        for r in results {
            println!(
                "collectives {:<4} {} launches: GPU = model {}, GPU = simulator {}",
                r.elem, r.launches, r.gpu_equals_model, r.gpu_equals_sim
            );
            if r.gpu_equals_model != r.launches || r.gpu_equals_sim != r.launches {
                failures.push(format!("collectives {}: {}", r.elem, r.failures.join("; ")));
            }
        }
    }
    failures.extend(sem_failures.into_iter().map(|f| format!("semantics {f}")));
    let n = report.cases.len();
    if failures.is_empty() {
        println!("differential: {n} of {n} kernels identical on {device} and the simulator");
        if args.watchdog_test {
            // The never-ending kernel still holds the GPU: freeing memory or
            // unloading a module now would wait for it, so leave at once,
            // without destructors (the files are written; exiting ends the
            // kernel).
            use std::io::Write;
            let code = match watchdog_check(&args.backend) {
                Ok(line) => {
                    println!("{line}");
                    0
                }
                Err(e) => {
                    eprintln!("error: {e}");
                    1
                }
            };
            std::io::stdout().flush().ok();
            std::process::exit(code);
        }
        Ok(())
    } else {
        bail!(
            "differential: {} of {n} kernels differ: {}",
            failures.len(),
            failures.join("; ")
        )
    }
}

fn markdown(rep: &DiffReport) -> String {
    let mut s = format!(
        "# Differential test: {} vs the simulator\n\nCommand: `{}` (commit {})\n\n\
         Each kernel writes {DIFF_WORDS} words per thread; GPU and simulator outputs are compared word for word.\n\n\
         | kernel | grid × block | covers | words | result |\n| --- | --- | --- | ---: | --- |\n",
        rep.device, rep.command, rep.commit
    );
    for c in &rep.cases {
        s += &format!(
            "| {} | {} × {} | {} | {} | {} |\n",
            c.name,
            c.grid,
            c.block,
            c.note,
            c.gpu.len(),
            if c.identical {
                "identical"
            } else {
                "**DIFFERENT**"
            }
        );
    }
    s
}

/// What `grid_exchange` leaves in `out[blocks..]` (host model).
fn grid_exchange_expected(blocks: u32, rounds: u32) -> Vec<u32> {
    let mut v: Vec<u32> = (1..=blocks).collect();
    for r in 0..rounds {
        let published = v.clone();
        for b in 0..blocks {
            let next = published[((b + 1 + r) % blocks) as usize];
            v[b as usize] = v[b as usize].wrapping_mul(3).wrapping_add(next);
        }
    }
    v
}

/// Runs `grid_exchange` under a cooperative launch of `blocks` blocks of
/// `block` threads; returns whether the result matches the model.
pub fn grid_check(backend: &Backend, blocks: u32, block: u32, rounds: u32) -> Result<bool> {
    let out = backend.alloc::<u32>(2 * blocks as usize)?;
    let cfg = LaunchConfig::linear(blocks, block).cooperative();
    backend.launch(
        &cg_kernels::grid::GRID_EXCHANGE,
        &cfg,
        (out.as_ptr(), rounds),
    )?;
    Ok(out.to_vec()?[blocks as usize..] == grid_exchange_expected(blocks, rounds)[..])
}

/// The grid-sync part of `cg-lab verify` on a GPU: the largest co-resident
/// cooperative grid syncs correctly (and the simulator agrees at a size it
/// can hold), and one block more is refused before launching.
pub fn grid_suite(backend: &Backend) -> Result<Vec<String>> {
    let Backend::Gpu(gpu) = backend else {
        bail!("grid suite needs a GPU")
    };
    let block = 128;
    let f = gpu
        .kernels()
        .function(cg_kernels::grid::GRID_EXCHANGE.name())?;
    let limit = gpu.max_coresident_blocks(f, cg_runtime::Dim3::x(block), 0)?;
    let mut lines = Vec::new();
    let ok = grid_check(backend, limit, block, 8)?;
    lines.push(format!(
        "grid.sync(): cooperative launch of {limit} blocks × {block} threads (the co-residency limit), 16 grid barriers: {}",
        if ok { "OK" } else { "FAILED" }
    ));
    let sim_ok = grid_check(&Backend::sim(), 16, block, 8)?;
    lines.push(format!(
        "grid.sync() on the simulator, 16 blocks × {block}: {}",
        if sim_ok { "OK" } else { "FAILED" }
    ));
    match grid_check(backend, limit + 1, block, 1) {
        Err(e) if e.to_string().contains("co-resident") => {
            lines.push(format!("{} blocks refused before launch: {e}", limit + 1))
        }
        Err(e) => bail!("one block over the limit failed in an unexpected way: {e}"),
        Ok(_) => bail!("a cooperative grid of {} blocks was not refused", limit + 1),
    }
    if !ok || !sim_ok {
        bail!("grid sync check FAILED:\n{}", lines.join("\n"));
    }
    Ok(lines)
}

/// Launches `spin_until_set` (which never ends) with a watchdog of 2 s:
/// the wait must fail with [`cg_runtime::RuntimeError::Timeout`] naming the
/// kernel. The kernel keeps spinning until the process exits.
fn watchdog_check(args: &crate::backend_choice::BackendArgs) -> Result<String> {
    let backend = args.open()?;
    let Backend::Gpu(gpu) = &backend else {
        bail!("--watchdog-test needs a GPU (the simulator has no watchdog for a spin loop)");
    };
    gpu.set_timeout(std::time::Duration::from_secs(2));
    let flag = backend.alloc::<u32>(1)?;
    eprintln!("watchdog test: launching spin_until_set (never ends) with a 2 s limit …");
    let start = std::time::Instant::now();
    let result = backend.launch(
        &cg_kernels::faults::SPIN_UNTIL_SET,
        &LaunchConfig::linear(2, 64),
        (flag.as_ptr() as *const u32,),
    );
    // Freeing the flag or unloading the module would wait for the kernel,
    // which never ends: leave both to the process's exit.
    std::mem::forget(flag);
    std::mem::forget(backend);
    match result {
        Err(e @ cg_runtime::RuntimeError::Timeout { .. }) => Ok(format!(
            "watchdog: a kernel that never ends was stopped after {:.1} s: {e}",
            start.elapsed().as_secs_f64()
        )),
        Err(e) => bail!("the watchdog test failed in an unexpected way: {e}"),
        Ok(()) => bail!("the never-ending kernel finished: the watchdog test proves nothing"),
    }
}

/// A kernel of this crate (`cg_lab`), which the lab's module — built from
/// `cg_kernels` — does not contain: launching it there must be refused.
#[cooperative_groups::kernel]
pub fn foreign_smoke(out: *mut u32) {
    // SAFETY: never launched on a module that has it; on the simulator the
    // launcher passes one word.
    unsafe { *out = 1 };
}

/// A descriptor launched against a module built from another crate is
/// refused with an error naming both crates (the GPU check of `verify`).
pub fn foreign_kernel_check(backend: &Backend) -> Result<String> {
    let out = backend.alloc::<u32>(1)?;
    match backend.launch(&FOREIGN_SMOKE, &LaunchConfig::linear(1, 1), (out.as_ptr(),)) {
        Err(e @ cg_runtime::RuntimeError::KernelNotInModule { .. }) => Ok(format!(
            "a kernel of another crate, launched against the lab's module: refused ({e})"
        )),
        Err(e) => bail!("a kernel of another crate failed in an unexpected way: {e}"),
        Ok(()) => bail!("a kernel of another crate was launched against the lab's module"),
    }
}

/// What `cluster_tokens` writes for a 1-D grid of `blocks` blocks of
/// `block` threads in clusters of `size` blocks (host model).
fn cluster_tokens_expected(blocks: u32, block: u32, size: u32) -> Vec<u32> {
    let mut v = Vec::with_capacity((blocks * block) as usize);
    for b in 0..blocks {
        let r = b % size;
        for t in 0..block {
            let peer = ((r + 1) % size) * 1000 + (t + 1) % block;
            v.push(peer ^ ((r * 1000 + t) << 16));
        }
    }
    v
}

/// Runs `cluster_tokens` on `blocks` blocks of `block` threads in clusters
/// of `size`; returns whether the result matches the model.
pub fn cluster_check(backend: &Backend, blocks: u32, block: u32, size: u32) -> Result<bool> {
    let out = backend.alloc::<u32>((blocks * block) as usize)?;
    let cfg = LaunchConfig::linear(blocks, block).clusters(cg_runtime::Dim3::x(size));
    backend.launch(&cg_kernels::cluster::CLUSTER_TOKENS, &cfg, (out.as_ptr(),))?;
    Ok(out.to_vec()? == cluster_tokens_expected(blocks, block, size))
}

/// The cluster part of `cg-lab verify` on an sm_90+ GPU: split barrier
/// (`barrier_arrive` / `barrier_wait`) and `map_shared_rank` on raw
/// pointers, for clusters of 2, 4 and 8 blocks, on the GPU and on the
/// simulator. Below sm_90 it says that clusters do not exist there.
pub fn cluster_suite(backend: &Backend) -> Result<Vec<String>> {
    let Backend::Gpu(gpu) = backend else {
        bail!("cluster suite needs a GPU")
    };
    if let Err(why) = gpu.cluster_support() {
        return Ok(vec![format!("clusters: not run ({why})")]);
    }
    let (blocks, block) = (32, 128);
    let mut lines = Vec::new();
    let mut all_ok = true;
    for size in [2u32, 4, 8] {
        let ok = cluster_check(backend, blocks, block, size)?;
        let sim_ok = cluster_check(&Backend::sim(), 16, block, size)?;
        all_ok &= ok && sim_ok;
        lines.push(format!(
            "cluster barrier_arrive/barrier_wait + map_shared_rank, clusters of {size}: GPU ({blocks} blocks × {block}) {}, simulator (16 blocks) {}",
            if ok { "OK" } else { "FAILED" },
            if sim_ok { "OK" } else { "FAILED" }
        ));
    }
    if !all_ok {
        bail!("cluster check FAILED:\n{}", lines.join("\n"));
    }
    Ok(lines)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cluster_tokens_on_the_simulator() {
        for size in [1, 2, 4, 8] {
            assert!(
                cluster_check(&Backend::sim(), 16, 128, size).unwrap(),
                "clusters of {size}"
            );
        }
        assert!(cluster_check(&Backend::sim(), 6, 96, 2).unwrap());
    }

    #[test]
    fn grid_sync_on_the_simulator() {
        assert!(grid_check(&Backend::sim(), 16, 128, 8).unwrap());
        assert!(grid_check(&Backend::sim(), 3, 64, 5).unwrap());
    }

    #[test]
    fn too_large_cooperative_grid_is_refused_on_the_simulator() {
        let e = grid_check(&Backend::sim(), 100_000, 128, 1)
            .unwrap_err()
            .to_string();
        assert!(e.contains("co-resident"), "{e}");
    }

    #[test]
    fn grid_sync_without_a_cooperative_launch_is_reported() {
        let backend = Backend::sim();
        let out = backend.alloc::<u32>(8).unwrap();
        let cfg = LaunchConfig::linear(4, 32);
        let e = backend
            .launch(&cg_kernels::grid::GRID_EXCHANGE, &cfg, (out.as_ptr(), 1))
            .unwrap_err();
        assert!(e.to_string().contains("grid.rs"), "{e}");
    }
}

#[cfg(test)]
mod foreign_kernel_tests {
    use super::*;

    #[test]
    fn a_foreign_descriptor_names_its_crate() {
        assert_eq!(FOREIGN_SMOKE.crate_name(), "cg_lab");
        assert_eq!(cg_kernels::smoke::SMOKE.crate_name(), "cg_kernels");
        // On the simulator there is no module: the kernel runs.
        let sim = Backend::sim();
        let out = sim.alloc::<u32>(1).unwrap();
        sim.launch(&FOREIGN_SMOKE, &LaunchConfig::linear(1, 1), (out.as_ptr(),))
            .unwrap();
        assert_eq!(out.to_vec().unwrap(), [1]);
    }
}
