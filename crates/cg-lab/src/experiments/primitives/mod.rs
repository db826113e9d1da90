//! `cg-lab compare --only primitives`: the library's block and warp
//! primitives (`cg_kernels::primitives`: [`BlockLoad`]/[`BlockStore`] with
//! every algorithm, [`BlockExchange`], [`BlockRadixSort`],
//! [`BlockHistogram`], [`BlockMergeSort`], [`WarpMergeSort`],
//! [`BlockDiscontinuity`], [`BlockAdjacentDifference`], [`BlockShuffle`],
//! [`BlockRunLengthDecode`], [`BlockReduce`] and [`BlockScan`] over
//! several items per thread, [`WarpReduce`] and [`WarpScan`] likewise,
//! [`WarpLoad`]/[`WarpStore`] with every algorithm, [`WarpExchange`])
//! against CUB's, kernel for kernel (`reference/cuda/primitives.cu`,
//! embedded, built with nvcc for the device), at blocks of 128, 256 and
//! 512 threads, every (kernel, block size, side) verified against a host
//! model before timing, all timed interleaved in the same rounds. CUB's
//! warp reduce and scan take one item per thread: their twins do what a
//! CUB user writes (`ThreadReduce`, the warp collective, a shuffle from
//! lane 0 for the reduce's total, the thread's running sum from the
//! scan's prefix); CUB's block reduce gives its total to thread 0, whose
//! twin broadcasts it through shared memory.
//!
//! Writes `primitives.{csv,md,json,svg}`, `primitives_sass.md` (opcode
//! counts of both sides per kernel) and `primitives_sass.txt` (both
//! sides' SASS). Without a GPU the Rust kernels are verified on the
//! simulator at small sizes and nothing is timed. With
//! `CG_LAB_PRIMITIVES_SMALL=1` the GPU runs the simulator's small sizes
//! too (a few blocks per kernel: for `compute-sanitizer`).
//!
//! [`BlockLoad`]: cooperative_groups::primitives::BlockLoad
//! [`BlockStore`]: cooperative_groups::primitives::BlockStore
//! [`BlockExchange`]: cooperative_groups::primitives::BlockExchange
//! [`BlockRadixSort`]: cooperative_groups::primitives::BlockRadixSort
//! [`BlockHistogram`]: cooperative_groups::primitives::BlockHistogram
//! [`BlockMergeSort`]: cooperative_groups::primitives::BlockMergeSort
//! [`WarpMergeSort`]: cooperative_groups::primitives::WarpMergeSort
//! [`BlockDiscontinuity`]: cooperative_groups::primitives::BlockDiscontinuity
//! [`BlockAdjacentDifference`]: cooperative_groups::primitives::BlockAdjacentDifference
//! [`BlockShuffle`]: cooperative_groups::primitives::BlockShuffle
//! [`BlockRunLengthDecode`]: cooperative_groups::primitives::BlockRunLengthDecode
//! [`BlockReduce`]: cooperative_groups::primitives::BlockReduce
//! [`BlockScan`]: cooperative_groups::primitives::BlockScan
//! [`WarpReduce`]: cooperative_groups::primitives::WarpReduce
//! [`WarpScan`]: cooperative_groups::primitives::WarpScan
//! [`WarpLoad`]: cooperative_groups::primitives::WarpLoad
//! [`WarpStore`]: cooperative_groups::primitives::WarpStore
//! [`WarpExchange`]: cooperative_groups::primitives::WarpExchange

use std::fmt::Write as _;
use std::path::Path;

use anyhow::{Context, Result, bail};
use cg_kernels::primitives::{
    HISTO_ITEMS, ITEMS, MERGE_ITEMS, PrimArgs, RLD_DECODED, RLD_RUNS, kernel,
};
use cg_runtime::{Backend, Buffer, Dim3, LaunchConfig, Module};
use serde::Serialize;

use crate::harness::csv::{Column, CsvRow, ms};
use crate::harness::experiment::{Experiment, Options, Outcome, Report, Verified, gpu_of};
use crate::harness::markdown::{both, head, ok, table_head};
use crate::harness::twin::{Build, Twin};
use crate::output::write_atomic;
use crate::reference::{PRIMITIVES_CU, Source};
use crate::results::Platform;
use crate::stats::Summary;

use model::{input_word, model};
use table::{BLOCKS, EXPS, Exp, Kind};

mod model;
mod table;

/// One (kernel, block size, side).
#[derive(Clone, Copy, Debug)]
pub struct Var {
    exp: usize,
    block: u32,
    cub: bool,
}

impl Var {
    fn rust_name(&self) -> String {
        format!("prim_{}_{}", EXPS[self.exp].stem, self.block)
    }
    fn cub_name(&self) -> String {
        format!("cub_{}_{}", EXPS[self.exp].stem, self.block)
    }
    fn name(&self) -> String {
        if self.cub {
            self.cub_name()
        } else {
            self.rust_name()
        }
    }
}

pub struct Bench<'a> {
    backend: &'a Backend,
    module: Option<&'a Module>,
    input: Buffer<u32>,
    host_input: Vec<u32>,
    output: Buffer<u32>,
    /// Elements per experiment (smaller on the simulator).
    n: fn(&Exp) -> u32,
    /// The last model computed, by (experiment, block size, `n`): both
    /// sides of a kernel are verified one after the other.
    model: Option<((usize, u32, u32), Vec<u32>)>,
}

impl Bench<'_> {
    fn launch(&mut self, v: Var, sync: bool) -> Result<()> {
        let e = &EXPS[v.exp];
        let n = (self.n)(e);
        let cfg = LaunchConfig::linear(e.grid(v.block, n), v.block);
        let args: PrimArgs = (
            self.input.as_ptr().cast_const(),
            self.output.as_ptr(),
            n,
            e.reps,
        );
        if v.cub {
            let (Backend::Gpu(g), Some(m)) = (self.backend, self.module) else {
                bail!("CUB runs on a GPU only");
            };
            let name = v.cub_name();
            // SAFETY: as the Rust kernels below: the CUB twin takes the same
            // arguments and touches the same words.
            unsafe { g.launch_function(m.function(&name)?, &name, &cfg, args) }?;
            if sync {
                g.synchronize()?;
            }
            return Ok(());
        }
        let k = kernel(e.stem, v.block).context("no such primitive kernel")?;
        // SAFETY: every primitive kernel reads at most `n` words of `input`
        // (the buffer holds the run's largest `n`) and writes at most `2n` of
        // `output` (the pairs' keys then values; the histogram's 256 bins;
        // the buffer holds twice the largest `n`): this backend's buffers,
        // alive across the launch.
        unsafe {
            match self.backend {
                Backend::Gpu(g) if !sync => g.launch_unchecked(&k, &cfg, args)?,
                b => b.launch_unchecked(&k, &cfg, args)?,
            }
        }
        Ok(())
    }

    /// One launch of `v`, its output against the model; (ok, what).
    fn verify(&mut self, v: Var) -> Result<(bool, String)> {
        let e = &EXPS[v.exp];
        let n = (self.n)(e);
        self.output.zero()?;
        self.launch(v, true)?;
        let key = (v.exp, v.block, n);
        let want = match self.model.take() {
            Some((k, want)) if k == key => want,
            _ => model(e, v.block, &self.host_input, n, e.reps),
        };
        let got = self.output.to_vec()?;
        let got = &got[..want.len()];
        let r = match got.iter().zip(&want).position(|(a, b)| a != b) {
            None => (true, format!("{} outputs equal to the model", want.len())),
            Some(i) => (
                false,
                format!("output {i}: {} where the model has {}", got[i], want[i]),
            ),
        };
        self.model = Some((key, want));
        Ok(r)
    }
}

/// Refuses names in `--prims` that name no primitive kernel, listing the
/// valid names.
pub fn check_names(names: &[String]) -> Result<(), String> {
    let unknown: Vec<&str> = names
        .iter()
        .filter(|n| !EXPS.iter().any(|e| e.stem == n.as_str()))
        .map(String::as_str)
        .collect();
    if unknown.is_empty() {
        return Ok(());
    }
    let valid: Vec<&str> = EXPS.iter().map(|e| e.stem).collect();
    Err(format!(
        "--prims: no primitive kernel named {} (the names: {})",
        unknown.join(", "),
        valid.join(", ")
    ))
}

/// The experiments named in `names` (`--prims`, checked by
/// [`check_names`]; all of them for none), in the table's order.
fn chosen(names: &[String]) -> Vec<usize> {
    (0..EXPS.len())
        .filter(|&i| names.is_empty() || names.iter().any(|n| n == EXPS[i].stem))
        .collect()
}

/// Elements on the simulator: two tiles (the copies a partial third).
fn sim_n(e: &Exp) -> u32 {
    let tile = e.tile(512);
    match e.kind {
        Kind::Copy => 2 * tile + tile / 3,
        Kind::Histogram => 8 * tile,
        _ => 2 * tile,
    }
}

fn gpu_n(e: &Exp) -> u32 {
    e.n
}

/// One measured (kernel, block size): both sides.
#[derive(Clone, Debug, Serialize)]
pub struct Point {
    experiment: &'static str,
    rust_side: &'static str,
    cub_side: &'static str,
    block: u32,
    n: u32,
    reps: u32,
    rust_ms: Summary,
    cub_ms: Summary,
    rust_over_cub: f64,
    /// Bytes read and written once (the copies' bandwidth; a yardstick
    /// for the others) per median time, GB/s.
    rust_gb_per_s: f64,
    cub_gb_per_s: f64,
    rust_blocks_per_sm: Option<u32>,
    cub_blocks_per_sm: Option<u32>,
    rust_verified: bool,
    cub_verified: bool,
    check: String,
}

fn opt(v: Option<u32>) -> String {
    v.map_or_else(|| "?".into(), |x| x.to_string())
}

impl CsvRow for Point {
    const COLUMNS: &'static [Column<Point>] = &[
        ("experiment", |p| p.experiment.into()),
        ("block", |p| p.block.to_string()),
        ("n", |p| p.n.to_string()),
        ("reps", |p| p.reps.to_string()),
        ("rust_median_ms", |p| ms(p.rust_ms.median)),
        ("rust_p10_ms", |p| ms(p.rust_ms.p10)),
        ("rust_p90_ms", |p| ms(p.rust_ms.p90)),
        ("cub_median_ms", |p| ms(p.cub_ms.median)),
        ("cub_p10_ms", |p| ms(p.cub_ms.p10)),
        ("cub_p90_ms", |p| ms(p.cub_ms.p90)),
        ("rust_over_cub", |p| format!("{:.4}", p.rust_over_cub)),
        ("rust_gb_per_s", |p| format!("{:.1}", p.rust_gb_per_s)),
        ("cub_gb_per_s", |p| format!("{:.1}", p.cub_gb_per_s)),
        ("rust_blocks_per_sm", |p| opt(p.rust_blocks_per_sm)),
        ("cub_blocks_per_sm", |p| opt(p.cub_blocks_per_sm)),
        ("rust_verified", |p| p.rust_verified.to_string()),
        ("cub_verified", |p| p.cub_verified.to_string()),
    ];
}

impl Outcome for Point {
    fn failure(&self) -> Option<String> {
        (!self.rust_verified || !self.cub_verified)
            .then(|| format!("{} block {} ({})", self.experiment, self.block, self.check))
    }
}

/// The block and warp primitives against CUB's.
pub struct Primitives;

impl Experiment for Primitives {
    const NAME: &'static str = "primitives";
    const TWIN: Source = PRIMITIVES_CU;
    /// Kernels, launched through the lab's runtime like the Rust ones.
    const BUILD: Build = Build::Cubin;
    const TIMED: &'static str = "the kernel";
    /// None: every kernel has its own size ([`sim_n`] on the simulator).
    const SIM_SIZES: &'static [u32] = &[];
    /// Unused: [`Experiment::label`] is this experiment's own.
    const WIDTH: (usize, usize) = (28, 28);
    type Variant = Var;
    type Extra = ();
    type Row = Point;
    type Bench<'a> = Bench<'a>;

    fn bench<'a>(
        backend: &'a Backend,
        twin: Option<&'a Twin>,
        _: &[u32],
        _: &Options<'_>,
    ) -> Result<Bench<'a>> {
        let module = twin.map(Twin::module).transpose()?;
        // On a GPU each kernel's own size, or with
        // CG_LAB_PRIMITIVES_SMALL=1 the simulator's (a few blocks per
        // kernel: for `compute-sanitizer`); the input the largest either way.
        let (max, n): (u32, fn(&Exp) -> u32) = if backend.is_sim() {
            (EXPS.iter().map(sim_n).max().expect("experiments"), sim_n)
        } else {
            let small = std::env::var("CG_LAB_PRIMITIVES_SMALL").is_ok_and(|v| v == "1");
            let max = EXPS.iter().map(|e| e.n).max().expect("experiments");
            (max, if small { sim_n } else { gpu_n })
        };
        let host_input: Vec<u32> = (0..max).map(input_word).collect();
        Ok(Bench {
            backend,
            module,
            input: backend.upload(&host_input)?,
            host_input,
            output: backend.alloc(2 * max as usize)?,
            n,
            model: None,
        })
    }

    /// Rust then CUB for each kernel and block size.
    fn variants(_: &Bench<'_>, _: &[u32], opts: &Options<'_>, cpp: bool) -> Vec<Var> {
        let mut v = Vec::new();
        for exp in chosen(opts.prims) {
            for block in BLOCKS {
                for cub in [false, true] {
                    if cpp || !cub {
                        v.push(Var { exp, block, cub });
                    }
                }
            }
        }
        v
    }

    fn kernel(v: Var) -> String {
        v.name()
    }

    /// The GPU's size (the kernel's own).
    fn n(v: Var) -> u32 {
        EXPS[v.exp].n
    }

    /// One timed launch, not waited for.
    fn launch(b: &mut Bench<'_>, v: Var) -> Result<()> {
        b.launch(v, false)
    }

    fn verify(b: &mut Bench<'_>, v: Var) -> Result<Verified> {
        let (ok, what) = b.verify(v)?;
        Ok(Verified::new(ok, what))
    }

    /// The kernel only: every kernel has its own size.
    fn label(v: Var, sim: bool) -> String {
        if sim {
            format!("{:<28} on the simulator:", v.rust_name())
        } else {
            format!("{:<28}", v.name())
        }
    }

    fn sim_label(v: Var) -> String {
        v.rust_name()
    }

    /// One row per (kernel, block size): its Rust and CUB variants.
    fn rows(
        b: &Bench<'_>,
        vars: &[Var],
        ms: Vec<Summary>,
        checks: Vec<Verified>,
        _: &Platform,
    ) -> Vec<Point> {
        let occupancy = |v: &Var| -> Option<u32> {
            let Backend::Gpu(gpu) = b.backend else {
                return None;
            };
            let f = if v.cub {
                b.module?.function(&v.cub_name()).ok()?
            } else {
                gpu.kernels()
                    .kernel(&kernel(EXPS[v.exp].stem, v.block)?)
                    .ok()?
            };
            gpu.max_coresident_blocks(f, Dim3::x(v.block), 0)
                .ok()
                .map(|total| total / gpu.info().sm_count.max(1))
        };
        vars.chunks(2)
            .zip(ms.chunks(2))
            .zip(checks.chunks(2))
            .map(|((v, ms), c)| {
                let (r, e) = (v[0], &EXPS[v[0].exp]);
                let (rust_ms, cub_ms) = (ms[0], ms[1]);
                let n = (b.n)(e);
                Point {
                    experiment: e.stem,
                    rust_side: e.rust,
                    cub_side: e.cub,
                    block: r.block,
                    n,
                    reps: e.reps,
                    rust_over_cub: rust_ms.median / cub_ms.median,
                    rust_gb_per_s: e.bytes(n) / (rust_ms.median * 1e-3) / 1e9,
                    cub_gb_per_s: e.bytes(n) / (cub_ms.median * 1e-3) / 1e9,
                    rust_ms,
                    cub_ms,
                    rust_blocks_per_sm: occupancy(&r),
                    cub_blocks_per_sm: occupancy(&v[1]),
                    rust_verified: c[0].ok,
                    cub_verified: c[1].ok,
                    check: format!("rust: {}; cub: {}", c[0].what, c[1].what),
                }
            })
            .collect()
    }

    fn markdown(points: &[Point], r: &Report<'_, Bench<'_>>) -> String {
        let mut s = head("Block primitives: the library against CUB", r.platform);
        let timing = r.timing;
        let _ = writeln!(
            s,
            "Each row is a Rust kernel of `cg_kernels::primitives` and its CUB twin of `reference/cuda/primitives.cu` \
             (same tiles, rounds, barriers and global accesses), {ITEMS} items per thread ({HISTO_ITEMS} bytes for the \
             histograms, {MERGE_ITEMS} keys for the merge sorts, {RLD_RUNS} runs and {RLD_DECODED} decoded items for the \
             run-length decode), at each block size. Every (kernel, block size, side) verified against a host model before \
             timing. Timing: {timing}; all kernels, block sizes and sides interleaved. Blocks/SM: the occupancy \
             calculator's resident blocks per SM (registers and shared memory).\n"
        );
        s += &table_head(&[
            ("experiment", false),
            ("Rust", false),
            ("CUB", false),
            ("n", true),
            ("rounds", true),
            ("block", true),
            ("Rust ms", true),
            ("CUB ms", true),
            ("**Rust ÷ CUB**", true),
            ("GB/s Rust / CUB", true),
            ("blocks/SM Rust / CUB", true),
            ("verified", false),
        ]);
        for q in points {
            let _ = writeln!(
                s,
                "| {} | {} | {} | {} | {} | {} | {:.4} | {:.4} | **{:.3}** | {:.0} / {:.0} | {} / {} | {} |",
                q.experiment,
                q.rust_side,
                q.cub_side,
                q.n,
                q.reps,
                q.block,
                q.rust_ms.median,
                q.cub_ms.median,
                q.rust_over_cub,
                q.rust_gb_per_s,
                q.cub_gb_per_s,
                opt(q.rust_blocks_per_sm),
                opt(q.cub_blocks_per_sm),
                both(q.rust_verified, q.cub_verified)
            );
        }
        let worst = points
            .iter()
            .map(|q| q.rust_over_cub)
            .fold(f64::NAN, f64::max);
        let _ = writeln!(s, "\nLargest Rust ÷ CUB: {worst:.3}.");
        s
    }

    fn line(p: &Point) -> String {
        format!(
            "primitives {:<20} block={:<4} rust={:.4} ms  cub={:.4} ms  rust/cub={:.3}  blocks/SM {}/{}  verify rust {} cub {}",
            p.experiment,
            p.block,
            p.rust_ms.median,
            p.cub_ms.median,
            p.rust_over_cub,
            opt(p.rust_blocks_per_sm),
            opt(p.cub_blocks_per_sm),
            ok(p.rust_verified),
            ok(p.cub_verified)
        )
    }

    /// `primitives.svg`: Rust ÷ CUB per kernel and block size.
    fn more_files(points: &[Point], r: &Report<'_, Bench<'_>>) -> Vec<(&'static str, String)> {
        vec![("svg", svg(points, &r.platform.device))]
    }

    /// `primitives_sass.md` (opcode counts of both sides per kernel pair)
    /// and `primitives_sass.txt` (both sides' SASS).
    fn sass(b: &Bench<'_>, vars: &[Var], twin: &Twin, dir: &Path, out: &Path) -> Result<()> {
        let Twin::Cubin { path, .. } = twin else {
            bail!("the twin is not a cubin");
        };
        let l = crate::listings::listings(gpu_of(b.backend), path, dir)?;
        let names: Vec<(String, String, String)> = vars
            .chunks(2)
            .map(|p| {
                (
                    format!("{} {}", EXPS[p[0].exp].stem, p[0].block),
                    p[0].rust_name(),
                    p[1].cub_name(),
                )
            })
            .collect();
        let refs: Vec<(&str, &str, &str)> = names
            .iter()
            .map(|(a, b, c)| (a.as_str(), b.as_str(), c.as_str()))
            .collect();
        let md = crate::report::compare::sass(&l, &refs);
        let full = crate::listings::full_text(
            names
                .iter()
                .flat_map(|(_, r, c)| [(r.as_str(), l.rust.get(r)), (c.as_str(), l.cpp.get(c))]),
        );
        write_atomic(&out.join("primitives_sass.md"), md.as_bytes())?;
        write_atomic(&out.join("primitives_sass.txt"), full.as_bytes())?;
        println!("wrote {}", out.join("primitives_sass.md").display());
        Ok(())
    }
}

/// Rust ÷ CUB per experiment, one bar per block size.
fn svg(points: &[Point], device: &str) -> String {
    let groups = EXPS.len() as f64;
    // At least 36 px per experiment (three bars and a slanted label).
    let (h, l, t, b) = (420.0, 60.0, 40.0, 130.0);
    let w = (l + 20.0 + 36.0 * groups).max(900.0);
    let ymax = points
        .iter()
        .map(|p| p.rust_over_cub)
        .fold(1.2f64, f64::max)
        .ceil()
        .max(1.5);
    let gw = (w - l - 20.0) / groups;
    let bw = gw / 4.0;
    let py = |v: f64| h - b - v / ymax * (h - t - b);
    let colors = ["#1f77b4", "#ff7f0e", "#2ca02c"];
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" font-family=\"sans-serif\" font-size=\"11\">\n\
         <rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n\
         <text x=\"{l}\" y=\"22\" font-size=\"14\">Block primitives: Rust ÷ CUB time (below 1: faster) — {device}</text>\n"
    );
    let mut k = 0.0;
    while k <= ymax + 1e-9 {
        let y = py(k);
        let _ = writeln!(
            s,
            "<line x1=\"{l}\" y1=\"{y:.1}\" x2=\"{:.1}\" y2=\"{y:.1}\" stroke=\"{}\"/><text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{k:.1}</text>",
            w - 20.0,
            if (k - 1.0).abs() < 1e-9 {
                "#888"
            } else {
                "#ddd"
            },
            l - 6.0,
            y + 4.0
        );
        k += 0.25;
    }
    for (g, e) in EXPS.iter().enumerate() {
        let x0 = l + g as f64 * gw + bw / 2.0;
        for (j, block) in BLOCKS.iter().enumerate() {
            if let Some(p) = points
                .iter()
                .find(|p| p.experiment == e.stem && p.block == *block)
            {
                let y = py(p.rust_over_cub);
                let _ = writeln!(
                    s,
                    "<rect x=\"{:.1}\" y=\"{y:.1}\" width=\"{:.1}\" height=\"{:.1}\" fill=\"{}\"><title>{} {}: {:.3}</title></rect>",
                    x0 + j as f64 * bw,
                    bw * 0.9,
                    py(0.0) - y,
                    colors[j],
                    e.stem,
                    block,
                    p.rust_over_cub
                );
            }
        }
        let _ = writeln!(
            s,
            "<text transform=\"translate({:.1},{:.1}) rotate(-40)\" text-anchor=\"end\">{}</text>",
            x0 + 1.5 * bw,
            h - b + 14.0,
            e.stem
        );
    }
    for (j, block) in BLOCKS.iter().enumerate() {
        let x = w - 200.0 + j as f64 * 60.0;
        let _ = writeln!(
            s,
            "<rect x=\"{x:.1}\" y=\"30\" width=\"10\" height=\"10\" fill=\"{}\"/><text x=\"{:.1}\" y=\"39\">{block}</text>",
            colors[j],
            x + 14.0
        );
    }
    s.push_str("</svg>\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kernel_exists_at_every_block_size() {
        for e in &EXPS {
            for b in BLOCKS {
                assert!(kernel(e.stem, b).is_some(), "{} {b}", e.stem);
            }
        }
    }

    #[test]
    fn models_are_what_the_kernels_compute_on_the_simulator() {
        // The same check as `compare --only primitives` without a GPU, on
        // one block size (the lab's CLI test runs them all).
        let backend = Backend::sim();
        let opts = Options {
            sizes: &[],
            n: 0,
            keys: &[],
            prims: &[],
            grid: None,
        };
        let mut b = Primitives::bench(&backend, None, &[], &opts).unwrap();
        for (exp, e) in EXPS.iter().enumerate() {
            let (ok, what) = b
                .verify(Var {
                    exp,
                    block: 128,
                    cub: false,
                })
                .unwrap();
            assert!(ok, "{}: {what}", e.stem);
        }
    }
}
