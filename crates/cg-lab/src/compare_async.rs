//! `cg-lab compare --only memcpy_async`: double-buffered staging of global
//! tiles into shared memory (`cg_kernels::memcpy_async`) — Rust
//! `memcpy_async` against C++ `cg::memcpy_async`, and both against plain
//! loads — as bandwidth over input sizes from L2-resident (4 MiB) to 2^28
//! floats (1 GiB), every launch of every size verified.
//!
//! The C++ twins are `reference/cuda/memcpy_async.cu` (embedded), built
//! with nvcc for the device. All variants and sizes are timed interleaved
//! in the same rounds. Writes `memcpy_async.{csv,md,svg}`, `memcpy_async_sass.md`
//! (opcode counts) and the full SASS of both sides.

use std::fmt::Write as _;
use std::path::Path;

use anyhow::{Context, Result, bail};
use cg_kernels::memcpy_async::{
    BLOCK, PIPE_BLOCK, PIPE_STAGES, SMEM_BYTES, STAGED_ASYNC, STAGED_ASYNC_V4, STAGED_BULK,
    STAGED_BULK_3, STAGED_PIPELINED, STAGED_PLAIN, StagedArgs, bulk_smem,
};
use cg_runtime::{Backend, Buffer, LaunchConfig, Module};

use cooperative_groups::Kernel;

use crate::cli::LabArgs;
use crate::listings::{Listings, listings};
use crate::output::write_atomic;
use crate::progress::Progress;
use crate::results::pct_cell;
use crate::stats::Summary;
use crate::timing::{self, Timed};

/// Input sizes in floats: 4 MiB (L2-resident) to 1 GiB.
pub const SIZES: [u32; 5] = [1 << 20, 1 << 22, 1 << 24, 1 << 26, 1 << 28];

/// One kernel of the experiment.
#[derive(Clone, Copy, Debug)]
struct Var {
    label: &'static str,
    /// Rust kernel, or the C++ function's name.
    rust: Option<Kernel<StagedArgs>>,
    cpp: &'static str,
    /// The oldest SM that runs it (bulk copies: sm_90); skipped below.
    min_sm: u32,
    /// Dynamic shared memory of a launch, bytes.
    smem: u32,
    /// Threads per block.
    block: u32,
}

const VARS: [Var; 12] = [
    Var {
        label: "rust memcpy_async (f32, run-time alignment)",
        rust: Some(STAGED_ASYNC),
        cpp: "",
        min_sm: 70,
        smem: SMEM_BYTES,
        block: BLOCK,
    },
    Var {
        label: "rust memcpy_async (F4, align 16 at compile time)",
        rust: Some(STAGED_ASYNC_V4),
        cpp: "",
        min_sm: 70,
        smem: SMEM_BYTES,
        block: BLOCK,
    },
    Var {
        label: "c++ cg::memcpy_async (aligned_size_t<16>)",
        rust: None,
        cpp: "cpp_staged_async",
        min_sm: 70,
        smem: SMEM_BYTES,
        block: BLOCK,
    },
    Var {
        label: "c++ cg::memcpy_async (float elements)",
        rust: None,
        cpp: "cpp_staged_async_f32",
        min_sm: 70,
        smem: SMEM_BYTES,
        block: BLOCK,
    },
    Var {
        label: "rust plain loads",
        rust: Some(STAGED_PLAIN),
        cpp: "",
        min_sm: 70,
        smem: SMEM_BYTES,
        block: BLOCK,
    },
    Var {
        label: "c++ plain loads",
        rust: None,
        cpp: "cpp_staged_plain",
        min_sm: 70,
        smem: SMEM_BYTES,
        block: BLOCK,
    },
    Var {
        label: "rust bulk copies (Mbarrier::arrive_copy), 2 stages",
        rust: Some(STAGED_BULK),
        cpp: "",
        min_sm: 90,
        smem: bulk_smem(2),
        block: BLOCK,
    },
    Var {
        label: "c++ cuda::ptx cp_async_bulk, 2 stages",
        rust: None,
        cpp: "cpp_staged_bulk",
        min_sm: 90,
        smem: bulk_smem(2),
        block: BLOCK,
    },
    Var {
        label: "rust bulk copies, 3 stages",
        rust: Some(STAGED_BULK_3),
        cpp: "",
        min_sm: 90,
        smem: bulk_smem(3),
        block: BLOCK,
    },
    Var {
        label: "c++ cuda::ptx cp_async_bulk, 3 stages",
        rust: None,
        cpp: "cpp_staged_bulk_3",
        min_sm: 90,
        smem: bulk_smem(3),
        block: BLOCK,
    },
    Var {
        label: "rust bulk copies on a Pipeline, producer warp, 3 stages",
        rust: Some(STAGED_PIPELINED),
        cpp: "",
        min_sm: 90,
        smem: bulk_smem(PIPE_STAGES as u32),
        block: PIPE_BLOCK,
    },
    Var {
        label: "c++ cuda::ptx full/empty mbarriers, producer warp, 3 stages",
        rust: None,
        cpp: "cpp_staged_pipelined",
        min_sm: 90,
        smem: bulk_smem(PIPE_STAGES as u32),
        block: PIPE_BLOCK,
    },
];

/// The ratios reported: (Rust variant, C++ variant) indices into [`VARS`].
const PAIRS: [(usize, usize); 6] = [(0, 2), (1, 2), (4, 5), (6, 7), (8, 9), (10, 11)];

impl Var {
    fn name(&self) -> &'static str {
        match self.rust {
            Some(k) => k.name(),
            None => self.cpp,
        }
    }
}

struct Staged<'a> {
    gpu: &'a cg_runtime::Gpu,
    backend: &'a Backend,
    module: &'a Module,
    input: &'a Buffer<f32>,
    partial: Buffer<f32>,
    grid: u32,
}

impl Staged<'_> {
    fn launch(&self, v: &Var, n: u32, sync: bool) -> Result<()> {
        let cfg = LaunchConfig::linear(self.grid, v.block).with_dynamic_smem(v.smem);
        let args: StagedArgs = (self.input.as_ptr(), self.partial.as_ptr(), n);
        match v.rust {
            // SAFETY: every staged kernel, Rust and C++, reads `n` floats of
            // `input` and writes one partial per block of the grid: this
            // GPU's buffers, sized for that, outlive the launch.
            Some(k) if sync => unsafe { self.backend.launch_unchecked(&k, &cfg, args) }?,
            // SAFETY: as above.
            Some(k) => unsafe { self.gpu.launch_unchecked(&k, &cfg, args) }?,
            None => {
                let f = self.module.function(v.cpp)?;
                // SAFETY: as above; the C++ twin takes the same arguments.
                unsafe { self.gpu.launch_function(f, v.cpp, &cfg, args) }?;
                if sync {
                    self.gpu.synchronize()?;
                }
            }
        }
        Ok(())
    }

    /// One launch on `n` floats; the partials' sum against the exact sum.
    fn verify(&mut self, v: &Var, n: u32) -> Result<(bool, String)> {
        self.partial.zero()?;
        self.launch(v, n, true)?;
        let got: f64 = self.partial.to_vec()?.iter().map(|&x| x as f64).sum();
        let want = crate::data::reduce_expected(n);
        let ok = (got - want).abs() <= 1e-6 * want;
        Ok((ok, format!("sum {got:.0} vs {want:.0}")))
    }
}

impl Timed for Staged<'_> {
    type Variant = (usize, usize);
    fn gpu(&self) -> &cg_runtime::Gpu {
        self.gpu
    }
    fn launch_async(&mut self, (s, v): (usize, usize), _reps: u32) -> Result<()> {
        self.launch(&VARS[v], SIZES[s], false)
    }
}

/// One (size, kernel) result.
struct Point {
    n: u32,
    var: usize,
    ms: Summary,
    /// % of the DRAM peak (`None`: the driver reported no peak).
    pct_peak: Option<f64>,
    verified: bool,
    check: String,
}

/// Bandwidth in GB/s of reading `n` floats in `ms` milliseconds.
fn gbps(n: u32, ms: f64) -> f64 {
    n as f64 * 4.0 / (ms * 1e-3) / 1e9
}

impl Point {
    fn gbps(&self) -> f64 {
        gbps(self.n, self.ms.median)
    }
}

/// Runs the experiment into `out`; fails if any launch did not verify.
pub fn run(
    backend: &Backend,
    a: &LabArgs,
    nvcc: &Path,
    out: &Path,
    progress: &Progress,
) -> Result<()> {
    let Backend::Gpu(gpu) = backend else {
        bail!("the memcpy_async experiment times a GPU");
    };
    let sm = gpu.info().sm();
    let build = std::env::temp_dir().join(format!("cg-lab-memcpy-async-{}", std::process::id()));
    eprintln!(
        "building reference/cuda/memcpy_async.cu with {} for sm_{sm} …",
        nvcc.display()
    );
    let (cubin, _) =
        crate::reference::build_cubin(nvcc, sm, &build, crate::reference::MEMCPY_ASYNC_CU)?;
    let module = gpu.load_image(&std::fs::read(&cubin)?)?;
    let max = *SIZES.iter().max().expect("sizes");
    let input = backend.upload(&crate::data::reduce_input(max))?;
    let grid = a.grid.unwrap_or(gpu.info().sm_count * 4);
    let mut st = Staged {
        gpu,
        backend,
        module: &module,
        input: &input,
        partial: backend.alloc::<f32>(grid as usize)?,
        grid,
    };
    // The variants this GPU runs (bulk copies need sm_90).
    let active: Vec<usize> = (0..VARS.len()).filter(|&v| VARS[v].min_sm <= sm).collect();
    for v in VARS.iter().filter(|v| v.min_sm > sm) {
        eprintln!(
            "note: memcpy_async {} skipped: it needs sm_{}",
            v.name(),
            v.min_sm
        );
    }
    let mut checks = Vec::new();
    for &n in &SIZES {
        for v in active.iter().map(|&v| &VARS[v]) {
            progress.set_message(format!("verify memcpy_async {} n={n}", v.name()));
            let (ok, what) = st
                .verify(v, n)
                .with_context(|| format!("verifying {} at n = {n}", v.name()))?;
            println!(
                "verified memcpy_async {:<24} n=2^{:<2} {} ({what})",
                v.name(),
                n.trailing_zeros(),
                if ok { "OK" } else { "FAILED" }
            );
            checks.push((ok, what));
        }
    }
    let order: Vec<(usize, usize)> = (0..SIZES.len())
        .flat_map(|s| active.iter().map(move |&v| (s, v)))
        .collect();
    let samples = timing::time_interleaved(
        &mut st,
        &order,
        a.warmup,
        a.runs,
        1,
        a.min_sample_ms,
        progress,
    )
    .context("timing memcpy_async")?;
    let platform = crate::results::platform(backend);
    let points: Vec<Point> = order
        .iter()
        .zip(samples)
        .zip(checks)
        .map(|((&(s, v), smp), (verified, check))| {
            let ms = Summary::of(&smp);
            Point {
                n: SIZES[s],
                var: v,
                pct_peak: platform.pct_of_peak(gbps(SIZES[s], ms.median) * 1e9),
                ms,
                verified,
                check,
            }
        })
        .collect();
    let timing_text = timing::describe("the kernel", a.warmup, a.runs, a.min_sample_ms);
    let mut files = vec![
        ("memcpy_async.csv", csv(&points)),
        (
            "memcpy_async.md",
            markdown(&points, &active, &platform, &timing_text, grid),
        ),
    ];
    match platform.dram_peak_bytes_per_s {
        Some(peak) => files.push((
            "memcpy_async.svg",
            svg(&points, &active, &platform.device, peak),
        )),
        None => eprintln!(
            "note: memcpy_async.svg (% of peak) not written: {}",
            platform.peak_text()
        ),
    }
    for (name, text) in files {
        write_atomic(&out.join(name), text.as_bytes())?;
        println!("wrote {}", out.join(name).display());
    }
    for p in &points {
        println!(
            "memcpy_async {:<22} n=2^{:<2} {:>9.4} ms {:>7.1} GB/s {:>7} of peak  {}",
            VARS[p.var].name(),
            p.n.trailing_zeros(),
            p.ms.median,
            p.gbps(),
            pct_cell(p.pct_peak),
            if p.verified { "OK" } else { "FAILED" }
        );
    }
    if let Err(e) = write_sass(gpu, &active, &cubin, &build, out) {
        eprintln!("note: memcpy_async SASS not written: {e}");
    }
    std::fs::remove_dir_all(&build).ok();
    let bad: Vec<String> = points
        .iter()
        .filter(|p| !p.verified)
        .map(|p| format!("{} n={} ({})", VARS[p.var].name(), p.n, p.check))
        .collect();
    if !bad.is_empty() {
        bail!("memcpy_async verification FAILED: {}", bad.join("; "));
    }
    Ok(())
}

fn find(points: &[Point], n: u32, var: usize) -> &Point {
    points
        .iter()
        .find(|p| p.n == n && p.var == var)
        .expect("every (size, variant) was measured")
}

fn csv(points: &[Point]) -> String {
    let mut s =
        String::from("n,bytes,kernel,side,median_ms,p10_ms,p90_ms,gb_per_s,pct_of_peak,verified\n");
    for p in points {
        let v = &VARS[p.var];
        let _ = writeln!(
            s,
            "{},{},{},{},{:.6},{:.6},{:.6},{:.1},{},{}",
            p.n,
            p.n as u64 * 4,
            v.name(),
            if v.rust.is_some() { "rust" } else { "c++" },
            p.ms.median,
            p.ms.p10,
            p.ms.p90,
            p.gbps(),
            p.pct_peak.map_or_else(String::new, |x| format!("{x:.2}")),
            p.verified
        );
    }
    s
}

fn markdown(
    points: &[Point],
    active: &[usize],
    p: &crate::results::Platform,
    timing: &str,
    grid: u32,
) -> String {
    let mut s = format!(
        "# memcpy_async: staging global tiles in shared memory — {}\n\nPlatform: {}\n\nCommand: `{}`\n\n",
        p.device,
        p.line(),
        p.command
    );
    let _ = writeln!(
        s,
        "Block-wise sum of `n` floats: blocks of {BLOCK} threads (grid {grid}) take tiles of {} floats in turn, \
         double-buffered in {} KiB of dynamic shared memory (`memcpy_async` of the next tile, `wait_prior::<1>`, \
         sum the current one, `sync`); the bulk-copy kernels start each tile as one `cp.async.bulk` completing \
         on the stage's mbarrier (sm_90); the pipelined kernels ({PIPE_BLOCK} threads) give warp 0 to the \
         copies and let the other {BLOCK} threads wait on each stage's full barrier and release it on its empty \
         barrier, with no block barrier per tile; the plain kernels load the same tiles straight into registers. \
         Every (size, kernel) verified against the exact sum. Timing: {timing}; all sizes and kernels interleaved. \
         Bandwidth = 4·n bytes / median time; {}.\n",
        cg_kernels::memcpy_async::TILE,
        SMEM_BYTES / 1024,
        p.peak_text()
    );
    let _ = write!(s, "| kernel |");
    for n in SIZES {
        let _ = write!(
            s,
            " 2^{} ({} MiB) |",
            n.trailing_zeros(),
            (n as u64 * 4) >> 20
        );
    }
    let _ = write!(s, "\n| --- |");
    for _ in SIZES {
        let _ = write!(s, " ---: |");
    }
    s.push('\n');
    for &i in active {
        let v = &VARS[i];
        let _ = write!(s, "| {} (`{}`) |", v.label, v.name());
        for n in SIZES {
            let q = find(points, n, i);
            let _ = write!(
                s,
                " {:.4} ms, {:.0} GB/s, **{}**{} |",
                q.ms.median,
                q.gbps(),
                pct_cell(q.pct_peak),
                if q.verified { "" } else { " FAILED" }
            );
        }
        s.push('\n');
    }
    let _ = writeln!(s, "\nRatios of medians (Rust ÷ C++):\n");
    let _ = write!(s, "| Rust | C++ |");
    for n in SIZES {
        let _ = write!(s, " 2^{} |", n.trailing_zeros());
    }
    let _ = write!(s, "\n| --- | --- |");
    for _ in SIZES {
        let _ = write!(s, " ---: |");
    }
    s.push('\n');
    for (r, c) in PAIRS
        .into_iter()
        .filter(|(r, c)| active.contains(r) && active.contains(c))
    {
        let _ = write!(s, "| `{}` | `{}` |", VARS[r].name(), VARS[c].name());
        for n in SIZES {
            let ratio = find(points, n, r).ms.median / find(points, n, c).ms.median;
            let _ = write!(s, " **{ratio:.3}** |");
        }
        s.push('\n');
    }
    s
}

/// % of peak against log2(n), one line per kernel.
/// Drawn only when the driver reported a peak (`peak_bytes_per_s`), so every
/// point has its percentage.
fn svg(points: &[Point], active: &[usize], device: &str, peak_bytes_per_s: f64) -> String {
    let pct = |p: &Point| p.pct_peak.expect("a point's % of a reported peak");
    let (w, h, l, r, t, b) = (760.0, 420.0, 60.0, 330.0, 40.0, 50.0);
    let (x0, x1) = (20.0, 28.0);
    let ymax = points.iter().map(pct).fold(100.0f64, f64::max).ceil();
    let px = |lg: f64| l + (lg - x0) / (x1 - x0) * (w - l - r);
    let py = |v: f64| h - b - v / ymax * (h - t - b);
    let colors = [
        "#1f77b4", "#17becf", "#d62728", "#ff9896", "#2ca02c", "#98df8a", "#9467bd", "#c5b0d5",
        "#8c564b", "#c49c94", "#e377c2", "#f7b6d2",
    ];
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" font-family=\"sans-serif\" font-size=\"12\">\n\
         <rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n\
         <text x=\"{l}\" y=\"22\" font-size=\"14\">memcpy_async staging: % of {:.2} TB/s peak — {device}</text>\n",
        peak_bytes_per_s / 1e12
    );
    for k in (0..=ymax as u32).step_by(20) {
        let y = py(k as f64);
        let _ = writeln!(
            s,
            "<line x1=\"{l}\" y1=\"{y:.1}\" x2=\"{:.1}\" y2=\"{y:.1}\" stroke=\"#ddd\"/><text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{k} %</text>",
            w - r,
            l - 6.0,
            y + 4.0
        );
    }
    for n in SIZES {
        let lg = n.trailing_zeros() as f64;
        let _ = writeln!(
            s,
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">2^{}</text>",
            px(lg),
            h - b + 18.0,
            lg
        );
    }
    let _ = writeln!(
        s,
        "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">floats (4 MiB … 1 GiB)</text>",
        (l + w - r) / 2.0,
        h - 10.0
    );
    for (row, &i) in active.iter().enumerate() {
        let v = &VARS[i];
        let pts: Vec<String> = SIZES
            .iter()
            .map(|&n| {
                let q = find(points, n, i);
                format!("{:.1},{:.1}", px(n.trailing_zeros() as f64), py(pct(q)))
            })
            .collect();
        let dash = if v.rust.is_some() {
            ""
        } else {
            " stroke-dasharray=\"5,3\""
        };
        let _ = writeln!(
            s,
            "<polyline points=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"2\"{dash}/>",
            pts.join(" "),
            colors[i]
        );
        let y = t + 20.0 + 18.0 * row as f64;
        let _ = writeln!(
            s,
            "<line x1=\"{:.1}\" y1=\"{y:.1}\" x2=\"{:.1}\" y2=\"{y:.1}\" stroke=\"{}\" stroke-width=\"2\"{dash}/><text x=\"{:.1}\" y=\"{:.1}\">{}</text>",
            w - r + 10.0,
            w - r + 34.0,
            colors[i],
            w - r + 40.0,
            y + 4.0,
            v.label
        );
    }
    s.push_str("</svg>\n");
    s
}

/// Opcode counts per kernel (Rust vs C++), and both sides' full SASS.
fn write_sass(
    gpu: &cg_runtime::Gpu,
    active: &[usize],
    cpp_cubin: &Path,
    dir: &Path,
    out: &Path,
) -> Result<()> {
    let Listings {
        ptx_sm,
        sm,
        rust,
        cpp,
        ..
    } = listings(gpu, cpp_cubin, dir)?;
    let mut md = format!(
        "# SASS of the memcpy_async experiment (sm_{sm}; Rust PTX sm_{})\n\nOpcode counts (modifiers kept).\n\n",
        ptx_sm
    );
    let mut full = String::new();
    let names: Vec<&str> = active.iter().map(|&v| VARS[v].name()).collect();
    for name in &names {
        let Some(code) = rust.get(*name).or_else(|| cpp.get(*name)) else {
            continue;
        };
        let _ = writeln!(full, "// ===== {name} =====");
        for i in code {
            let _ = writeln!(full, "{}", i.text);
        }
        full.push('\n');
    }
    let _ = write!(md, "| opcode |");
    for name in &names {
        let _ = write!(md, " {name} |");
    }
    let _ = write!(md, "\n| --- |");
    for _ in &names {
        let _ = write!(md, " ---: |");
    }
    md.push('\n');
    let mut hists = Vec::new();
    for name in &names {
        let code = rust.get(*name).or_else(|| cpp.get(*name));
        let hist: std::collections::BTreeMap<String, usize> = code
            .map(|c| {
                let mut h = std::collections::BTreeMap::new();
                for i in c {
                    *h.entry(i.opcode.clone()).or_insert(0) += 1;
                }
                h
            })
            .unwrap_or_default();
        hists.push(hist);
    }
    let keys: std::collections::BTreeSet<&String> = hists.iter().flat_map(|h| h.keys()).collect();
    for k in keys {
        let _ = write!(md, "| {k} |");
        for h in &hists {
            let _ = write!(md, " {} |", h.get(k).copied().unwrap_or(0));
        }
        md.push('\n');
    }
    write_atomic(&out.join("memcpy_async_sass.md"), md.as_bytes())?;
    write_atomic(&out.join("memcpy_async_sass.txt"), full.as_bytes())?;
    println!("wrote {}", out.join("memcpy_async_sass.md").display());
    Ok(())
}
