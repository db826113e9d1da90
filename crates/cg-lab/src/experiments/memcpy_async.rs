//! `cg-lab compare --only memcpy_async`: double-buffered staging of global
//! tiles into shared memory (`cg_kernels::memcpy_async`) — Rust
//! `memcpy_async` against C++ `cg::memcpy_async`, and both against plain
//! loads — as bandwidth over input sizes from L2-resident (4 MiB) to 2^28
//! floats (1 GiB), every launch of every size verified.
//!
//! The C++ twins are `reference/cuda/memcpy_async.cu` (embedded), built
//! with nvcc for the device. All variants and sizes are timed interleaved
//! in the same rounds. Writes `memcpy_async.{csv,md,json,svg}`,
//! `memcpy_async_sass.md` (opcode counts) and the full SASS of both sides.
//! Without a GPU the Rust kernels are verified on the simulator at small
//! sizes and nothing is timed.

use std::fmt::Write as _;
use std::path::Path;

use anyhow::Result;
use cg_kernels::memcpy_async::{
    BLOCK, PIPE_BLOCK, PIPE_STAGES, SMEM_BYTES, STAGED_ASYNC, STAGED_ASYNC_V4, STAGED_BULK,
    STAGED_BULK_3, STAGED_PIPELINED, STAGED_PLAIN, StagedArgs, TILE, bulk_smem,
};
use cg_runtime::{Backend, Buffer, LaunchConfig, Module};
use cooperative_groups::Kernel;
use serde::Serialize;

use crate::harness::csv::{Column, CsvRow, ms, pct};
use crate::harness::experiment::{Experiment, Options, Outcome, Report, Verified, gpu_of};
use crate::harness::markdown::{head, ok};
use crate::harness::twin::{Build, Twin};
use crate::output::write_atomic;
use crate::reference::{MEMCPY_ASYNC_CU, Source};
use crate::results::{Platform, pct_cell};
use crate::stats::Summary;

/// Input sizes in floats: 4 MiB (L2-resident) to 1 GiB.
const SIZES: [u32; 5] = [1 << 20, 1 << 22, 1 << 24, 1 << 26, 1 << 28];

/// One kernel of the experiment: its label, its Rust kernel (`None`: the
/// C++ function `cpp`), the oldest SM that runs it (bulk copies: sm_90),
/// its dynamic shared memory and its block.
#[derive(Clone, Copy, Debug)]
struct K {
    label: &'static str,
    rust: Option<Kernel<StagedArgs>>,
    cpp: &'static str,
    min_sm: u32,
    smem: u32,
    block: u32,
}

const fn k(label: &'static str, rust: Kernel<StagedArgs>, min_sm: u32, smem: u32) -> K {
    K {
        label,
        rust: Some(rust),
        cpp: "",
        min_sm,
        smem,
        block: BLOCK,
    }
}

const fn cpp(label: &'static str, cpp: &'static str, min_sm: u32, smem: u32) -> K {
    K {
        label,
        rust: None,
        cpp,
        min_sm,
        smem,
        block: BLOCK,
    }
}

const BULK2: u32 = bulk_smem(2);
const BULK3: u32 = bulk_smem(3);
const PIPE: u32 = bulk_smem(PIPE_STAGES as u32);

const VARS: [K; 12] = [
    k(
        "rust memcpy_async (f32, run-time alignment)",
        STAGED_ASYNC,
        70,
        SMEM_BYTES,
    ),
    k(
        "rust memcpy_async (F4, align 16 at compile time)",
        STAGED_ASYNC_V4,
        70,
        SMEM_BYTES,
    ),
    cpp(
        "c++ cg::memcpy_async (aligned_size_t<16>)",
        "cpp_staged_async",
        70,
        SMEM_BYTES,
    ),
    cpp(
        "c++ cg::memcpy_async (float elements)",
        "cpp_staged_async_f32",
        70,
        SMEM_BYTES,
    ),
    k("rust plain loads", STAGED_PLAIN, 70, SMEM_BYTES),
    cpp("c++ plain loads", "cpp_staged_plain", 70, SMEM_BYTES),
    k(
        "rust bulk copies (Mbarrier::arrive_copy), 2 stages",
        STAGED_BULK,
        90,
        BULK2,
    ),
    cpp(
        "c++ cuda::ptx cp_async_bulk, 2 stages",
        "cpp_staged_bulk",
        90,
        BULK2,
    ),
    k("rust bulk copies, 3 stages", STAGED_BULK_3, 90, BULK3),
    cpp(
        "c++ cuda::ptx cp_async_bulk, 3 stages",
        "cpp_staged_bulk_3",
        90,
        BULK3,
    ),
    K {
        block: PIPE_BLOCK,
        ..k(
            "rust bulk copies on a Pipeline, producer warp, 3 stages",
            STAGED_PIPELINED,
            90,
            PIPE,
        )
    },
    K {
        block: PIPE_BLOCK,
        ..cpp(
            "c++ cuda::ptx full/empty mbarriers, producer warp, 3 stages",
            "cpp_staged_pipelined",
            90,
            PIPE,
        )
    },
];

/// The ratios reported: (Rust variant, C++ variant) indices into [`VARS`].
const PAIRS: [(usize, usize); 6] = [(0, 2), (1, 2), (4, 5), (6, 7), (8, 9), (10, 11)];

impl K {
    fn name(&self) -> &'static str {
        self.rust.map_or(self.cpp, |k| k.name())
    }
}

/// The input, the partial sums and the twin's module.
pub struct Bench<'a> {
    backend: &'a Backend,
    module: Option<&'a Module>,
    input: Buffer<f32>,
    partial: Buffer<f32>,
    grid: u32,
    sm: u32,
}

impl Bench<'_> {
    fn launch(&self, v: &K, n: u32, sync: bool) -> Result<()> {
        let cfg = LaunchConfig::linear(self.grid, v.block).with_dynamic_smem(v.smem);
        let args: StagedArgs = (self.input.as_ptr(), self.partial.as_ptr(), n);
        match v.rust {
            // SAFETY: every staged kernel, Rust and C++, reads `n` floats of
            // `input` and writes one partial per block of the grid: this
            // backend's buffers, sized for that, outlive the launch.
            Some(k) if sync => unsafe { self.backend.launch_unchecked(&k, &cfg, args) }?,
            // SAFETY: as above.
            Some(k) => unsafe { gpu_of(self.backend).launch_unchecked(&k, &cfg, args) }?,
            None => {
                let gpu = gpu_of(self.backend);
                let f = self
                    .module
                    .expect("C++ runs on a GPU only")
                    .function(v.cpp)?;
                // SAFETY: as above; the C++ twin takes the same arguments.
                unsafe { gpu.launch_function(f, v.cpp, &cfg, args) }?;
                if sync {
                    gpu.synchronize()?;
                }
            }
        }
        Ok(())
    }
}

/// (size, index into [`VARS`]).
pub type Var = (u32, usize);

/// One (size, kernel) result.
#[derive(Clone, Debug, Serialize)]
pub struct Point {
    n: u32,
    #[serde(skip)]
    var: usize,
    kernel: &'static str,
    side: &'static str,
    ms: Summary,
    gb_per_s: f64,
    /// % of the DRAM peak (`None`: the driver reported no peak).
    pct_of_peak: Option<f64>,
    verified: bool,
    check: String,
}

impl CsvRow for Point {
    const COLUMNS: &'static [Column<Point>] = &[
        ("n", |p| p.n.to_string()),
        ("bytes", |p| (p.n as u64 * 4).to_string()),
        ("kernel", |p| p.kernel.into()),
        ("side", |p| p.side.into()),
        ("median_ms", |p| ms(p.ms.median)),
        ("p10_ms", |p| ms(p.ms.p10)),
        ("p90_ms", |p| ms(p.ms.p90)),
        ("gb_per_s", |p| format!("{:.1}", p.gb_per_s)),
        ("pct_of_peak", |p| pct(p.pct_of_peak)),
        ("verified", |p| p.verified.to_string()),
    ];
}

impl Outcome for Point {
    fn failure(&self) -> Option<String> {
        (!self.verified).then(|| format!("{} n={} ({})", self.kernel, self.n, self.check))
    }
}

/// The point of `(n, var)`.
fn find(points: &[Point], n: u32, var: usize) -> &Point {
    points
        .iter()
        .find(|p| p.n == n && p.var == var)
        .expect("every (size, variant) was measured")
}

/// The variants measured, in order.
fn active(points: &[Point]) -> Vec<usize> {
    let first = points.first().map_or(0, |p| p.n);
    points
        .iter()
        .filter(|p| p.n == first)
        .map(|p| p.var)
        .collect()
}

/// Staged copies against C++ and plain loads.
pub struct MemcpyAsync;

impl Experiment for MemcpyAsync {
    const NAME: &'static str = "memcpy_async";
    const TWIN: Source = MEMCPY_ASYNC_CU;
    const BUILD: Build = Build::Cubin;
    const CUB: bool = false;
    const OWN_SIZES: Option<&'static [u32]> = Some(&SIZES);
    const TIMED: &'static str = "the kernel";
    /// A partial tile and a partial vector; several tiles per block.
    const SIM_SIZES: &'static [u32] = &[1003, 7 * TILE as u32 + 17];
    const WIDTH: (usize, usize) = (24, 24);
    type Variant = Var;
    type Extra = ();
    type Row = Point;
    type Bench<'a> = Bench<'a>;

    fn bench<'a>(
        backend: &'a Backend,
        twin: Option<&'a Twin>,
        sizes: &[u32],
        opts: &Options<'_>,
    ) -> Result<Bench<'a>> {
        let module = twin.map(Twin::module).transpose()?;
        let max = *sizes.iter().max().expect("sizes");
        let input = backend.upload(&crate::data::reduce_input(max))?;
        // The simulator runs a few blocks (sm_90: every kernel).
        let (sm, grid) = match backend {
            Backend::Gpu(gpu) => (gpu.info().sm(), gpu.info().sm_count * 4),
            Backend::Sim(_) => (90, 3),
        };
        let grid = opts.grid.unwrap_or(grid);
        for v in VARS.iter().filter(|v| v.min_sm > sm) {
            eprintln!(
                "note: memcpy_async {} skipped: it needs sm_{}",
                v.name(),
                v.min_sm
            );
        }
        Ok(Bench {
            backend,
            module,
            input,
            partial: backend.alloc::<f32>(grid as usize)?,
            grid,
            sm,
        })
    }

    fn variants(b: &Bench<'_>, sizes: &[u32], _: &Options<'_>, cpp: bool) -> Vec<Var> {
        // The simulator refuses staged_plain's 16-byte loads from a raw
        // pointer (no typed parameter covers them): a GPU verifies it.
        let sim_skips = |v: &K| !cpp && v.name() == STAGED_PLAIN.name();
        let runs = |v: &K| v.min_sm <= b.sm && (cpp || v.rust.is_some()) && !sim_skips(v);
        let active: Vec<usize> = (0..VARS.len()).filter(|&v| runs(&VARS[v])).collect();
        sizes
            .iter()
            .flat_map(|&n| active.iter().map(move |&v| (n, v)))
            .collect()
    }

    fn kernel((_, v): Var) -> String {
        VARS[v].name().into()
    }

    fn n(v: Var) -> u32 {
        v.0
    }

    /// One timed launch, not waited for.
    fn launch(b: &mut Bench<'_>, (n, v): Var) -> Result<()> {
        b.launch(&VARS[v], n, false)
    }

    /// One launch on `n` floats; the partials' sum against the exact sum.
    fn verify(b: &mut Bench<'_>, (n, v): Var) -> Result<Verified> {
        b.partial.zero()?;
        b.launch(&VARS[v], n, true)?;
        let got: f64 = b.partial.to_vec()?.iter().map(|&x| x as f64).sum();
        let want = crate::data::reduce_expected(n);
        let ok = (got - want).abs() <= 1e-6 * want;
        Ok(Verified::new(ok, format!("sum {got:.0} vs {want:.0}")))
    }

    fn rows(
        _: &Bench<'_>,
        vars: &[Var],
        ms: Vec<Summary>,
        checks: Vec<Verified>,
        platform: &Platform,
    ) -> Vec<Point> {
        vars.iter()
            .zip(ms)
            .zip(checks)
            .map(|((&(n, var), ms), c)| {
                let gbps = n as f64 * 4.0 / (ms.median * 1e-3) / 1e9;
                Point {
                    n,
                    var,
                    kernel: VARS[var].name(),
                    side: if VARS[var].rust.is_some() {
                        "rust"
                    } else {
                        "c++"
                    },
                    ms,
                    gb_per_s: gbps,
                    pct_of_peak: platform.pct_of_peak(gbps * 1e9),
                    verified: c.ok,
                    check: c.what,
                }
            })
            .collect()
    }

    fn markdown(points: &[Point], r: &Report<'_, Bench<'_>>) -> String {
        let p = r.platform;
        let mut s = head("memcpy_async: staging global tiles in shared memory", p);
        let (grid, timing) = (r.bench.grid, r.timing);
        let _ = writeln!(
            s,
            "Block-wise sum of `n` floats: blocks of {BLOCK} threads (grid {grid}) take tiles of {TILE} floats in turn, \
             double-buffered in {} KiB of dynamic shared memory (`memcpy_async` of the next tile, `wait_prior::<1>`, \
             sum the current one, `sync`); the bulk-copy kernels start each tile as one `cp.async.bulk` completing \
             on the stage's mbarrier (sm_90); the pipelined kernels ({PIPE_BLOCK} threads) give warp 0 to the \
             copies and let the other {BLOCK} threads wait on each stage's full barrier and release it on its empty \
             barrier, with no block barrier per tile; the plain kernels load the same tiles straight into registers. \
             Every (size, kernel) verified against the exact sum. Timing: {timing}; all sizes and kernels interleaved. \
             Bandwidth = 4·n bytes / median time; {}.\n",
            SMEM_BYTES / 1024,
            p.peak_text()
        );
        let sizes = r.sizes;
        let cols = |s: &mut String, first: &str, col: &dyn Fn(u32) -> String| {
            *s += first;
            for &n in sizes {
                *s += &col(n);
            }
            *s += "\n";
        };
        cols(&mut s, "| kernel |", &|n| {
            format!(" 2^{} ({} MiB) |", n.trailing_zeros(), (n as u64 * 4) >> 20)
        });
        cols(&mut s, "| --- |", &|_| " ---: |".into());
        let active = active(points);
        for &i in &active {
            let v = &VARS[i];
            cols(&mut s, &format!("| {} (`{}`) |", v.label, v.name()), &|n| {
                let q = find(points, n, i);
                let failed = if q.verified { "" } else { " FAILED" };
                format!(
                    " {:.4} ms, {:.0} GB/s, **{}**{failed} |",
                    q.ms.median,
                    q.gb_per_s,
                    pct_cell(q.pct_of_peak)
                )
            });
        }
        s += "\nRatios of medians (Rust ÷ C++):\n\n";
        cols(&mut s, "| Rust | C++ |", &|n| {
            format!(" 2^{} |", n.trailing_zeros())
        });
        cols(&mut s, "| --- | --- |", &|_| " ---: |".into());
        for (r, c) in PAIRS
            .into_iter()
            .filter(|(r, c)| active.contains(r) && active.contains(c))
        {
            let head = format!("| `{}` | `{}` |", VARS[r].name(), VARS[c].name());
            cols(&mut s, &head, &|n| {
                let ratio = find(points, n, r).ms.median / find(points, n, c).ms.median;
                format!(" **{ratio:.3}** |")
            });
        }
        s
    }

    fn more_files(points: &[Point], r: &Report<'_, Bench<'_>>) -> Vec<(&'static str, String)> {
        match r.platform.dram_peak_bytes_per_s {
            Some(peak) => vec![("svg", svg(points, r.sizes, &r.platform.device, peak))],
            None => {
                eprintln!(
                    "note: memcpy_async.svg (% of peak) not written: {}",
                    r.platform.peak_text()
                );
                Vec::new()
            }
        }
    }

    fn line(p: &Point) -> String {
        format!(
            "memcpy_async {:<22} n=2^{:<2} {:>9.4} ms {:>7.1} GB/s {:>7} of peak  {}",
            p.kernel,
            p.n.trailing_zeros(),
            p.ms.median,
            p.gb_per_s,
            pct_cell(p.pct_of_peak),
            ok(p.verified)
        )
    }

    /// Opcode counts per kernel (Rust vs C++), and both sides' full SASS.
    fn sass(b: &Bench<'_>, vars: &[Var], twin: &Twin, dir: &Path, out: &Path) -> Result<()> {
        let Twin::Cubin { path, .. } = twin else {
            anyhow::bail!("the twin is not a cubin");
        };
        let l = crate::listings::listings(gpu_of(b.backend), path, dir)?;
        let first = vars.first().map_or(0, |v| v.0);
        let names: Vec<&str> = vars
            .iter()
            .filter(|v| v.0 == first)
            .map(|&(_, v)| VARS[v].name())
            .collect();
        let code = |name: &str| l.rust.get(name).or_else(|| l.cpp.get(name));
        let full = crate::listings::full_text(names.iter().map(|&n| (n, code(n))));
        let mut md = format!(
            "# SASS of the memcpy_async experiment (sm_{}; Rust PTX sm_{})\n\nOpcode counts (modifiers kept).\n\n",
            l.sm, l.ptx_sm
        );
        md += &crate::harness::markdown::table_head(
            &std::iter::once(("opcode", false))
                .chain(names.iter().map(|&n| (n, true)))
                .collect::<Vec<_>>(),
        );
        let hists: Vec<std::collections::BTreeMap<&str, usize>> = names
            .iter()
            .map(|&n| {
                let mut h = std::collections::BTreeMap::new();
                for i in code(n).into_iter().flatten() {
                    *h.entry(i.opcode.as_str()).or_insert(0) += 1;
                }
                h
            })
            .collect();
        let keys: std::collections::BTreeSet<&str> =
            hists.iter().flat_map(|h| h.keys().copied()).collect();
        for k in keys {
            let counts: Vec<String> = hists
                .iter()
                .map(|h| h.get(k).copied().unwrap_or(0).to_string())
                .collect();
            let _ = writeln!(md, "| {k} | {} |", counts.join(" | "));
        }
        write_atomic(&out.join("memcpy_async_sass.md"), md.as_bytes())?;
        write_atomic(&out.join("memcpy_async_sass.txt"), full.as_bytes())?;
        println!("wrote {}", out.join("memcpy_async_sass.md").display());
        Ok(())
    }
}

/// % of peak against log2(n), one line per kernel.
/// Drawn only when the driver reported a peak (`peak_bytes_per_s`), so every
/// point has its percentage.
fn svg(points: &[Point], sizes: &[u32], device: &str, peak_bytes_per_s: f64) -> String {
    let pct = |p: &Point| p.pct_of_peak.expect("a point's % of a reported peak");
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
    for &n in sizes {
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
    for (row, i) in active(points).into_iter().enumerate() {
        let v = &VARS[i];
        let pts: Vec<String> = sizes
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
