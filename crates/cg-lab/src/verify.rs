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
use crate::output::write_atomic;
use crate::partial::Recorder;

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
    pub cases: Vec<CaseResult>,
    /// The grid, cluster and module-identity checks of a GPU run, one
    /// line each (absent from files written before they were recorded).
    #[serde(default)]
    pub checks: Vec<String>,
}

/// Runs one differential case on `backend`; returns the output words.
pub fn run_case(backend: &Backend, c: &DiffCase) -> Result<Vec<u32>> {
    let words = (c.grid * c.block) as usize * DIFF_WORDS;
    let mut out = backend.alloc::<u32>(words)?;
    let cfg = LaunchConfig::linear(c.grid, c.block).with_dynamic_smem(c.dynamic_smem);
    backend
        .launch(&c.kernel, &cfg, (&mut out,))
        .with_context(|| format!("differential case {}", c.name))?;
    Ok(out.to_vec()?)
}

/// What the GPU gave (or a reference file written on one) before the
/// simulator runs: kept whole so that a failure can save it.
#[derive(Default, Serialize)]
struct GpuSide {
    /// GPU name (`… (from FILE)` for a reference).
    device: String,
    /// Each differential case's GPU output, in `DIFF_CASES` order.
    outputs: Vec<CaseOutput>,
    /// Grid, cluster and module-identity checks, one line each.
    checks: Vec<String>,
    /// The checks and collective launches that failed.
    failures: Vec<String>,
    /// The collective launches, per element type (GPU only).
    collectives: Option<Vec<crate::verify_collectives::TypeResult>>,
    /// The semantic differential against NVIDIA's C++ (GPU with nvcc only).
    semantics: Option<crate::semantics::SemReport>,
}

/// One case's GPU output.
#[derive(Serialize)]
struct CaseOutput {
    name: String,
    gpu: Vec<u32>,
}

/// What `differential.partial.json` holds after the simulator's half began.
#[derive(Serialize)]
struct Measured<'a> {
    #[serde(flatten)]
    report: &'a DiffReport,
    #[serde(skip_serializing_if = "Option::is_none")]
    gpu_run: Option<&'a GpuSide>,
}

/// The stem of verify's partial file (`differential.partial.json`).
const PARTIAL: &str = "differential";

/// Runs the differential suite. Each comparison is printed as it is made;
/// the files are written after a GPU run, and after a `--reference` run
/// when `--out` names a folder; a failure saves what was measured before it.
pub fn run(args: &VerifyArgs) -> Result<()> {
    let (mut side, dir) = match &args.reference {
        Some(path) => {
            if let Some(dir) = &args.out {
                crate::preflight::check_out_dir(dir)?;
            }
            let mut side = from_reference(path)?;
            // NVIDIA's C++ words, if committed next to the reference.
            let sem_path = path.with_file_name("semantics.json");
            if sem_path.is_file() {
                let sem = crate::semantics::read_report(&sem_path)?;
                let fails = crate::semantics::check_sim_against(&sem)?;
                side.failures
                    .extend(fails.into_iter().map(|f| format!("semantics {f}")));
            } else {
                eprintln!(
                    "note: no {} next to the reference: the simulator is not compared with NVIDIA's C++",
                    sem_path.display()
                );
            }
            (side, args.out.clone())
        }
        None => {
            let (backend, why) = args.backend.open_quietly()?;
            let Backend::Gpu(gpu) = &backend else {
                bail!(
                    "the differential test compares a GPU with the simulator, and there is no GPU here{}: \
                     compare the simulator with a committed GPU run instead, \
                     `cg-lab verify --reference docs/results/h100/current/verify/differential.json`",
                    why.map(|e| format!(" ({e})")).unwrap_or_default()
                );
            };
            let mut side = GpuSide {
                device: gpu.info().name.clone(),
                ..GpuSide::default()
            };
            let slug = cg_runtime::device::slug(&side.device);
            let dir = crate::results::out_dir(args.out.as_deref(), &slug);
            crate::preflight::check_out_dir(&dir)?;
            on_gpu(args, &backend, gpu, &mut side).map_err(|e| {
                let n = side.outputs.len();
                crate::partial::save(&dir, PARTIAL, &side, n, e)
            })?;
            (side, Some(dir))
        }
    };
    let mut rec = Recorder::new(|r: &CaseResult| {
        let verdict =
            match crate::results::first_difference(DIFF_WORDS, ("gpu", &r.gpu), ("sim", &r.sim)) {
                None => "identical".to_string(),
                Some(d) => format!("DIFFERENT ({d})"),
            };
        println!(
            "{:<14} grid={} block={:<4} {:<38} {verdict}",
            r.name, r.grid, r.block, r.note
        );
    })?;
    let compared = compare_with_sim(&mut side, &mut rec);
    let report = DiffReport {
        device: side.device.clone(),
        command: crate::results::command_line(),
        commit: env!("CG_LAB_COMMIT").into(),
        fp_contract: crate::results::FP_CONTRACT.into(),
        fast_math: crate::results::FAST_MATH.into(),
        cases: rec.into_rows(),
        checks: side.checks.clone(),
    };
    if let Some(dir) = &dir {
        // Everything measured so far: the comparisons, and after a GPU run
        // all of its outputs (those of the cases not compared yet too).
        let measured = Measured {
            report: &report,
            gpu_run: args.reference.is_none().then_some(&side),
        };
        let save = |e| crate::partial::save(dir, PARTIAL, &measured, report.cases.len(), e);
        compared.map_err(save)?;
        write_files(dir, &report, &side, args.seed).map_err(save)?;
        crate::partial::clear(dir, PARTIAL);
    } else {
        compared?;
    }
    let failures = side.failures;
    let n = report.cases.len();
    let device = &report.device;
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
            "differential: {} check(s) failed: {}",
            failures.len(),
            failures.join("; ")
        )
    }
}

/// The GPU outputs of every case from a `differential.json` written on a GPU.
fn from_reference(path: &std::path::Path) -> Result<GpuSide> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let rep: DiffReport =
        serde_json::from_str(&text).with_context(|| format!("parsing {}", path.display()))?;
    let mut side = GpuSide {
        device: format!("{} (from {})", rep.device, path.display()),
        ..GpuSide::default()
    };
    for c in DIFF_CASES {
        let Some(r) = rep.cases.iter().find(|r| r.name == c.name) else {
            bail!(
                "{} has no case `{}`: regenerate it with `cg-lab verify` on a GPU",
                path.display(),
                c.name
            );
        };
        side.outputs.push(CaseOutput {
            name: c.name.into(),
            gpu: r.gpu.clone(),
        });
    }
    Ok(side)
}

/// The GPU half: the semantic differential against NVIDIA's C++, every
/// differential case, the grid, cluster and module checks, then the
/// collective launches; each result goes into `side` as
/// it is measured, so that a later error loses none of them.
fn on_gpu(
    args: &VerifyArgs,
    backend: &Backend,
    gpu: &cg_runtime::Gpu,
    side: &mut GpuSide,
) -> Result<()> {
    // The semantic differential first: its plain launches must run before
    // any cooperative launch of this process (`semantics::run_on_gpu`).
    match cg_runtime::tools::find_tool("nvcc") {
        Some(nvcc) => {
            eprintln!(
                "semantics: building reference/cuda/semantics.cu with {} …",
                nvcc.display()
            );
            let build =
                std::env::temp_dir().join(format!("cg-lab-semantics-{}", std::process::id()));
            let (rep, fails) = crate::semantics::run_on_gpu(backend, &nvcc, &build)?;
            side.checks.push(format!(
                "semantic differential against NVIDIA's C++: {} of {} cases identical",
                rep.cases.iter().filter(|c| c.identical).count(),
                rep.cases.len()
            ));
            side.failures
                .extend(fails.into_iter().map(|f| format!("semantics {f}")));
            side.semantics = Some(rep);
        }
        None => {
            let note = "semantic differential against NVIDIA's C++: not run (nvcc not found; \
                        put it on PATH or set CG_NVCC)";
            eprintln!("note: {note}");
            side.checks.push(note.into());
        }
    }
    for c in DIFF_CASES {
        let gpu_out = run_case(backend, c)?;
        side.outputs.push(CaseOutput {
            name: c.name.into(),
            gpu: gpu_out,
        });
    }
    for suite in [grid_suite, cluster_suite, generic_suite] {
        let (lines, ok) = suite(backend)?;
        if !ok {
            let failed = lines.iter().filter(|l| l.contains("FAILED")).cloned();
            side.failures.extend(failed);
        }
        for l in lines {
            println!("{l}");
            side.checks.push(l);
        }
    }
    let line = foreign_kernel_check(backend)?;
    println!("{line}");
    side.checks.push(line);
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
            side.checks.push(note);
        }
        (true, Some(test_ptx)) => {
            eprintln!(
                "collectives: loading the test module, {} launches per group shape and type, \
                 {} composed sequences per kind and type …",
                args.collectives, args.composed
            );
            let results = side.collectives.insert(Vec::new());
            crate::verify_collectives::run_all(
                gpu,
                test_ptx,
                args.collectives,
                args.composed,
                args.seed,
                results,
            )?;
            for r in results.iter() {
                if r.gpu_equals_model != r.launches || r.gpu_equals_sim != r.launches {
                    side.failures.push(format!(
                        "collectives {}: {}",
                        r.elem,
                        r.failures.join("; ")
                    ));
                }
            }
        }
    }
    Ok(())
}

/// Runs every case on the simulator and compares it with the GPU's output
/// word for word; a difference is recorded (and counted as a failure),
/// not an error.
fn compare_with_sim(side: &mut GpuSide, rec: &mut Recorder<'_, CaseResult>) -> Result<()> {
    let sim = Backend::sim();
    for (c, out) in DIFF_CASES.iter().zip(&side.outputs) {
        rec.begin(c.name)?;
        let sim_out = run_case(&sim, c)?;
        let diff =
            crate::results::first_difference(DIFF_WORDS, ("gpu", &out.gpu), ("sim", &sim_out));
        if let Some(d) = &diff {
            side.failures.push(format!("{}: {d}", c.name));
        }
        rec.push(CaseResult {
            name: c.name.into(),
            grid: c.grid,
            block: c.block,
            note: c.note.into(),
            gpu: out.gpu.clone(),
            sim: sim_out,
            identical: diff.is_none(),
        });
    }
    Ok(())
}

/// `differential.json` and `.md`, and `collectives.json` and `.md` when
/// the collectives ran; each written atomically.
fn write_files(
    dir: &std::path::Path,
    report: &DiffReport,
    side: &GpuSide,
    seed: u64,
) -> Result<()> {
    let json = dir.join("differential.json");
    write_atomic(&json, (serde_json::to_string(report)? + "\n").as_bytes())?;
    let md = dir.join("differential.md");
    let mut text = markdown(report);
    if !report.checks.is_empty() {
        text += "\n## Grid-wide sync (cooperative launch), clusters, module identity\n\n";
        for l in &report.checks {
            text += &format!("- {l}\n");
        }
    }
    write_atomic(&md, text.as_bytes())?;
    println!("wrote {}, {}", json.display(), md.display());
    if let Some(sem) = &side.semantics {
        let json = dir.join("semantics.json");
        write_atomic(&json, (serde_json::to_string(sem)? + "\n").as_bytes())?;
        let md = dir.join("semantics.md");
        write_atomic(&md, crate::semantics::markdown(sem).as_bytes())?;
        println!("wrote {}, {}", json.display(), md.display());
    }
    if let Some(results) = &side.collectives {
        let json = dir.join("collectives.json");
        write_atomic(
            &json,
            (serde_json::to_string_pretty(results)? + "\n").as_bytes(),
        )?;
        let md = dir.join("collectives.md");
        let text =
            crate::verify_collectives::markdown(results, &report.device, &report.command, seed);
        write_atomic(&md, text.as_bytes())?;
        println!("wrote {}, {}", json.display(), md.display());
    }
    Ok(())
}

fn markdown(rep: &DiffReport) -> String {
    let mut s = format!(
        "# Differential test: {} vs the simulator\n\nCommand: `{}` (commit {}; {})\n\n\
         Each kernel writes {DIFF_WORDS} words per thread; GPU and simulator outputs are compared word for word.\n\n\
         | kernel | grid × block | covers | words | result |\n| --- | --- | --- | ---: | --- |\n",
        rep.device,
        rep.command,
        rep.commit,
        crate::results::float_policy_text(&rep.fp_contract, &rep.fast_math)
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
    let cfg = LaunchConfig::linear(blocks, block).with_cooperative(true);
    // SAFETY: `grid_exchange` writes and reads two words per block of `out`.
    unsafe {
        backend.launch_unchecked(
            &cg_kernels::grid::GRID_EXCHANGE,
            &cfg,
            (out.as_ptr(), rounds),
        )
    }?;
    Ok(out.to_vec()?[blocks as usize..] == grid_exchange_expected(blocks, rounds)[..])
}

/// What `grid_collectives` writes for the inputs `inp` (host model: six
/// words per thread, in grid rank order).
fn grid_collectives_expected(inp: &[u32]) -> Vec<u32> {
    let sum = inp.iter().fold(0u32, |a, &v| a.wrapping_add(v));
    let max = inp
        .iter()
        .enumerate()
        .map(|(r, &v)| ((v as u64) << 32) | r as u64)
        .max()
        .unwrap_or(0);
    let (mut inclusive, mut float) = (0u32, 0f32);
    let mut out = Vec::with_capacity(6 * inp.len());
    for &v in inp {
        let exclusive = inclusive;
        inclusive = inclusive.wrapping_add(v);
        float += (v & 15) as f32;
        out.extend([
            sum,
            inclusive,
            exclusive,
            float.to_bits(),
            max as u32,
            (max >> 32) as u32,
        ]);
    }
    out
}

/// Runs `grid_collectives` under a cooperative launch of `blocks` blocks
/// of `block` threads on pseudo-random inputs; returns whether every word
/// matches the model.
pub fn grid_collectives_check(backend: &Backend, blocks: u32, block: u32) -> Result<bool> {
    let n = (blocks * block) as usize;
    let inp: Vec<u32> = (0..n as u32)
        .map(|i| i.wrapping_mul(0x9e37_79b9).rotate_left(7) ^ 0x5bd1_e995)
        .collect();
    let d_inp = backend.upload(&inp)?;
    let mut out = backend.alloc::<u32>(6 * n)?;
    let cfg = LaunchConfig::linear(blocks, block).with_cooperative(true);
    backend.launch(
        &cg_kernels::grid::GRID_COLLECTIVES,
        &cfg,
        (&d_inp, &mut out),
    )?;
    Ok(out.to_vec()? == grid_collectives_expected(&inp))
}

/// The grid-sync part of `cg-lab verify` on a GPU: the largest co-resident
/// cooperative grid syncs correctly (and the simulator agrees at a size it
/// can hold), and one block more is refused before launching. Returns one
/// line per check and whether all passed: a failed check is a result, which
/// the caller records, not an error that would lose the others.
pub fn grid_suite(backend: &Backend) -> Result<(Vec<String>, bool)> {
    let Backend::Gpu(gpu) = backend else {
        bail!("grid suite needs a GPU")
    };
    let block = 128;
    // A kernel's largest cooperative grid of `block`-thread blocks.
    let coresident = |name: &str| -> Result<u32> {
        let f = gpu.kernels().function(name)?;
        Ok(gpu.max_coresident_blocks(f, cg_runtime::Dim3::x(block), 0)?)
    };
    let limit = coresident(cg_kernels::grid::GRID_EXCHANGE.name())?;
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
    // The collectives' kernel holds more registers: its own limit.
    let coll_limit = coresident(cg_kernels::grid::GRID_COLLECTIVES.name())?;
    let coll_ok = grid_collectives_check(backend, coll_limit, block)?;
    lines.push(format!(
        "grid.reduce/inclusive_scan/exclusive_scan (u32 sum, f32 scan, u64 max), {coll_limit} blocks × {block} threads (its co-residency limit): {}",
        if coll_ok { "OK" } else { "FAILED" }
    ));
    let refused = match grid_check(backend, limit + 1, block, 1) {
        Err(e) if e.to_string().contains("co-resident") => {
            lines.push(format!("{} blocks refused before launch: {e}", limit + 1));
            true
        }
        Err(e) => {
            lines.push(format!(
                "{} blocks: FAILED in an unexpected way: {e}",
                limit + 1
            ));
            false
        }
        Ok(_) => {
            lines.push(format!(
                "{} blocks: FAILED: a cooperative grid over the limit was not refused",
                limit + 1
            ));
            false
        }
    };
    Ok((lines, ok && sim_ok && coll_ok && refused))
}

/// Runs one instance of the type-generic `tile_scan_block_sum` on `backend`:
/// its outputs, and whether they equal the host model.
fn generic_instance<T: cg_runtime::Pod + PartialEq + std::ops::Add<Output = T>>(
    backend: &Backend,
    kernel: &cg_runtime::Kernel<(
        cooperative_groups::GlobalSlice<T>,
        cooperative_groups::OwnedSlice<T, cooperative_groups::Chunked<2>>,
    )>,
    input: &[T],
    block: u32,
    zero: T,
) -> Result<(Vec<T>, bool)> {
    let inp = backend.upload(input)?;
    let mut out = backend.alloc::<T>(2 * input.len())?;
    let blocks = input.len() as u32 / block;
    backend
        .launch(
            kernel,
            &LaunchConfig::linear(blocks, block),
            (&inp, &mut out),
        )
        .with_context(|| format!("type-generic kernel {}", kernel.name()))?;
    let got = out.to_vec()?;
    let want: Vec<T> =
        cg_kernels::generic::tile_scan_block_sum_expected(input, block as usize, zero).collect();
    let ok = got == want;
    Ok((got, ok))
}

/// The type-generic kernel `tile_scan_block_sum` (instances u32, i64, f32,
/// f64) on the GPU: each instance equals the host model and the simulator
/// bit for bit.
pub fn generic_suite(backend: &Backend) -> Result<(Vec<String>, bool)> {
    use cg_kernels::generic::*;
    let (block, blocks) = (256u32, 64usize);
    let n = block as usize * blocks;
    // Small integers: every sum is exact in each type, in any order.
    let ints: Vec<u32> = (0..n as u32)
        .map(|i| i.wrapping_mul(2_654_435_761) >> 24)
        .collect();
    let sim = Backend::sim();
    let mut lines = Vec::new();
    let mut all = true;
    macro_rules! instance {
        ($k:expr, $t:ty, $conv:expr, $zero:expr) => {{
            let input: Vec<$t> = ints.iter().map($conv).collect();
            let (gpu, model) = generic_instance(backend, &$k, &input, block, $zero)?;
            let (on_sim, _) = generic_instance(&sim, &$k, &input[..4 * block as usize], block, $zero)?;
            let same = on_sim == gpu[..on_sim.len()];
            let ok = model && same;
            all &= ok;
            lines.push(format!(
                "type-generic kernel {} ({} blocks × {block}): {} (host model: {}, simulator on the first 4 blocks: {})",
                $k.name(),
                blocks,
                if ok { "OK" } else { "FAILED" },
                if model { "equal" } else { "DIFFERENT" },
                if same { "bit-identical" } else { "DIFFERENT" },
            ));
        }};
    }
    instance!(TILE_SCAN_BLOCK_SUM_U32, u32, |&x| x, 0);
    instance!(TILE_SCAN_BLOCK_SUM_I64, i64, |&x| x as i64 - 128, 0);
    instance!(TILE_SCAN_BLOCK_SUM_F32, f32, |&x| x as f32, 0.0);
    instance!(TILE_SCAN_BLOCK_SUM_F64, f64, |&x| x as f64 * 0.5, 0.0);
    Ok((lines, all))
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
    // SAFETY: the kernel reads one word of `flag` (forever).
    let result = unsafe {
        backend.launch_unchecked(
            &cg_kernels::faults::SPIN_UNTIL_SET,
            &LaunchConfig::linear(2, 64),
            (flag.as_ptr() as *const u32,),
        )
    };
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
pub fn foreign_smoke(out: cooperative_groups::OwnedSlice<u32>) {
    if let Some(e) = out.at(&cooperative_groups::this_grid()) {
        e.store(1);
    }
}

/// A descriptor launched against a module built from another crate is
/// refused with an error naming both crates (the GPU check of `verify`).
pub fn foreign_kernel_check(backend: &Backend) -> Result<String> {
    let mut out = backend.alloc::<u32>(1)?;
    match backend.launch(&FOREIGN_SMOKE, &LaunchConfig::linear(1, 1), (&mut out,)) {
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
    let mut out = backend.alloc::<u32>((blocks * block) as usize)?;
    let cfg = LaunchConfig::linear(blocks, block).with_cluster(cg_runtime::Dim3::x(size));
    backend.launch(&cg_kernels::cluster::CLUSTER_TOKENS, &cfg, (&mut out,))?;
    Ok(out.to_vec()? == cluster_tokens_expected(blocks, block, size))
}

/// The cluster part of `cg-lab verify` on an sm_90+ GPU: split barrier
/// (`barrier_arrive` / `barrier_wait`) and `map_shared_rank` on raw
/// pointers, for clusters of 2, 4 and 8 blocks, on the GPU and on the
/// simulator. Below sm_90 it says that clusters do not exist there.
/// Returns one line per cluster size and whether all passed.
pub fn cluster_suite(backend: &Backend) -> Result<(Vec<String>, bool)> {
    let Backend::Gpu(gpu) = backend else {
        bail!("cluster suite needs a GPU")
    };
    if let Err(why) = gpu.cluster_support() {
        return Ok((vec![format!("clusters: not run ({why})")], true));
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
    Ok((lines, all_ok))
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
    fn the_type_generic_kernel_on_the_simulator() {
        // The suite's model check, on the simulator standing in for the GPU.
        let (lines, ok) = generic_suite(&Backend::sim()).unwrap();
        assert!(ok, "{lines:#?}");
        assert_eq!(lines.len(), 4);
    }

    #[test]
    fn grid_sync_on_the_simulator() {
        assert!(grid_check(&Backend::sim(), 16, 128, 8).unwrap());
        assert!(grid_check(&Backend::sim(), 3, 64, 5).unwrap());
    }

    #[test]
    fn grid_collectives_on_the_simulator() {
        assert!(grid_collectives_check(&Backend::sim(), 5, 96).unwrap());
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
        // SAFETY: `grid_exchange` uses two words per block of `out`.
        let e = unsafe {
            backend.launch_unchecked(&cg_kernels::grid::GRID_EXCHANGE, &cfg, (out.as_ptr(), 1))
        }
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
        let mut out = sim.alloc::<u32>(1).unwrap();
        sim.launch(&FOREIGN_SMOKE, &LaunchConfig::linear(1, 1), (&mut out,))
            .unwrap();
        assert_eq!(out.to_vec().unwrap(), [1]);
    }
}
