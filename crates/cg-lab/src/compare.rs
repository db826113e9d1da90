//! `cg-lab compare`: the Rust kernels against NVIDIA's C++ (`cooperative_groups`
//! and CUB) in the same process, on the same GPU, launches interleaved.
//!
//! The C++ twins (`reference/cuda/c02_reference.cu`, embedded in this binary)
//! are built with `nvcc -O3 -arch=sm_XX -cubin` for the device, loaded
//! through the same runtime, verified like the Rust kernels, and timed in the
//! same rounds: `R₁ C₁ R₂ C₂ …` per round. `sass.md` lists both sides'
//! SASS instruction counts per experiment (`cuobjdump -sass`).

use std::path::Path;

use anyhow::{Context, Result, bail};
use cg_runtime::{Backend, Module, tools};
use clap::Args;
use serde::Serialize;

use crate::cli::LabArgs;
use crate::harness::experiment::Options;
use crate::lab::{Lab, ReduceTag, Side, Variant};
use crate::output::write_atomic;
use crate::partial::Recorder;
use crate::progress::Progress;
use crate::report::compare::{Setup, ok};
use crate::results::{CompareRow, Platform};
use crate::stats::Summary;
use crate::timing::{self, Timed};

/// Flags of `cg-lab compare`.
#[derive(Args, Debug)]
pub struct CompareArgs {
    #[command(flatten)]
    pub(crate) lab: LabArgs,
    /// Run only these experiments (comma-separated: intrinsic, tile32,
    /// cg_reduce, cg_scan, warp_reduce, block_reduce, block_scan,
    /// block_reduce_sized, block_scan_sized, last_block, coalesced, cluster,
    /// memcpy_async, tma, device_wide, device_histogram, device_select,
    /// device_radix_sort, primitives, memory, gemm, math); default: all but tma (sm_90, 2.7
    /// GiB of buffers), device_wide (4 GiB
    /// of buffers), device_histogram (1 GiB), device_select (2.25 GiB),
    /// device_radix_sort (12 GiB), memory (6.3 GiB: vector copies, a
    /// streaming read-modify-write, layer norms, a register-tiled SGEMM,
    /// against their C++ twins), primitives
    /// (CUB's block primitives at blocks of 128, 256 and 512: their own
    /// sizes), gemm (sm_90a, against cuBLAS, 1.5 GiB) and math (the math
    /// functions, default and fast math), which run only when named
    #[arg(long, value_delimiter = ',', value_name = "NAMES")]
    pub(crate) only: Vec<String>,
    /// device_radix_sort only: the key types to sort (comma-separated:
    /// u32, i32, f32, u64); default: all four (the 32-bit ones need 6 GiB
    /// of buffers, u64 6 GiB more)
    #[arg(long, value_delimiter = ',', value_name = "TYPES", value_parser = ["u32", "i32", "f32", "u64"])]
    pub(crate) keys: Vec<String>,
    /// device_wide, device_histogram, device_select, device_radix_sort
    /// only: the input sizes, as powers of two (comma-separated exponents
    /// from 10 to 28, e.g. 24,28); default: 20,22,24,26,28. The buffers
    /// follow the largest size; the simulator runs its own small sizes
    #[arg(long, value_delimiter = ',', value_name = "EXPONENTS", value_parser = clap::value_parser!(u32).range(10..=28))]
    pub(crate) sizes: Vec<u32>,
    /// primitives only: the kernels to run, by name (comma-separated, e.g.
    /// adjacent_left,warp_scan; each at blocks of 128, 256 and 512);
    /// default: all thirty
    #[arg(long, value_delimiter = ',', value_name = "NAMES")]
    pub(crate) prims: Vec<String>,
}

/// The input sizes of device_wide, device_histogram, device_select and
/// device_radix_sort without `--sizes`: 2^20 to 2^28 elements (4 MiB to
/// 1 GiB of 4-byte elements).
const DEFAULT_SIZES: [u32; 5] = [1 << 20, 1 << 22, 1 << 24, 1 << 26, 1 << 28];

impl CompareArgs {
    /// Refuses `--keys`, `--sizes` and `--prims` when `--only` names none
    /// of the experiments they apply to: they would be ignored.
    fn check_scoped_flags(&self) -> Result<(), String> {
        let scoped: [(&str, bool, &[&str]); 3] = [
            ("--keys", !self.keys.is_empty(), &[DEVICE_RADIX_SORT]),
            (
                "--sizes",
                !self.sizes.is_empty(),
                &[
                    DEVICE_WIDE,
                    DEVICE_HISTOGRAM,
                    DEVICE_SELECT,
                    DEVICE_RADIX_SORT,
                ],
            ),
            ("--prims", !self.prims.is_empty(), &[PRIMITIVES]),
        ];
        for (flag, given, applies) in scoped {
            if given && !self.only.iter().any(|n| applies.contains(&n.as_str())) {
                return Err(format!(
                    "{flag} applies to {} only: name it in --only",
                    applies.join(", ")
                ));
            }
        }
        Ok(())
    }

    /// The input sizes of `--sizes`, ascending and each once (the host's
    /// histograms count the samples size after size; the reports' tables
    /// list the sizes in that order), or [`DEFAULT_SIZES`].
    fn sizes(&self) -> Vec<u32> {
        if self.sizes.is_empty() {
            return DEFAULT_SIZES.to_vec();
        }
        let mut sizes: Vec<u32> = self.sizes.iter().map(|&e| 1 << e).collect();
        sizes.sort_unstable();
        sizes.dedup();
        sizes
    }
}

/// One Rust kernel against its C++ twin.
#[derive(Clone, Debug)]
struct Experiment {
    /// Row label, e.g. `cg_reduce`.
    name: &'static str,
    /// What the C++ side is.
    cpp_label: &'static str,
    /// The configuration (same data, grid, block, reps on both sides).
    variant: Variant,
    /// `extern "C"` name in the reference module.
    cpp_fn: String,
    /// Rust kernel name (for SASS).
    rust_fn: String,
    /// Tile size column.
    tile: u32,
}

/// What an experiment's table line sees: the block size, the SM of the
/// Rust module and the cluster size.
struct Target {
    block: u32,
    sm: u32,
    clusize: u32,
}

/// The tiles an experiment runs at, one [`Experiment`] each.
enum Tiles {
    /// This tile size.
    Fixed(u32),
    /// Every power of two from 8 to the block size.
    Each,
    /// The whole block.
    Block,
    /// The cluster size.
    Cluster,
}

/// One line of [`EXPERIMENTS`]: a Rust kernel against its C++ twin, at
/// the tiles it runs at; the configuration and both kernels' names follow
/// from the tile and the [`Target`].
struct Spec {
    /// Row label and `--only` name, e.g. `cg_reduce`.
    name: &'static str,
    /// What the C++ side is.
    cpp_label: &'static str,
    /// Where it exists (block size, SM).
    when: fn(&Target) -> bool,
    /// Which tiles.
    tiles: Tiles,
    /// The configuration at a tile.
    variant: fn(u32, &Target) -> Variant,
    /// `extern "C"` name in the reference module at a tile.
    cpp_fn: fn(u32, &Target) -> String,
    /// Rust kernel name (for SASS) at a tile.
    rust_fn: fn(u32, &Target) -> String,
}

const ALWAYS: fn(&Target) -> bool = |_| true;

/// Every experiment of `cg-lab compare`, in the order of its rows (the
/// staged-copy sweep, [`MEMCPY_ASYNC`], runs apart). A new experiment is
/// one more line here.
const EXPERIMENTS: &[Spec] = &[
    Spec {
        name: "intrinsic",
        cpp_label: "hand-written __shfl_down_sync",
        when: ALWAYS,
        tiles: Tiles::Fixed(32),
        variant: |tile, _| Variant::Reduce {
            tag: ReduceTag::Intrinsic,
            tile,
        },
        cpp_fn: |_, _| "cpp_reduce_intrinsic".into(),
        rust_fn: |_, _| "reduce_intrinsic".into(),
    },
    Spec {
        name: "tile32",
        cpp_label: "thread_block_tile<32> shfl_down",
        when: ALWAYS,
        tiles: Tiles::Fixed(32),
        variant: |tile, _| Variant::Reduce {
            tag: ReduceTag::Tile32,
            tile,
        },
        cpp_fn: |_, _| "cpp_reduce_tile32".into(),
        rust_fn: |_, _| "reduce_tile32".into(),
    },
    Spec {
        name: "cg_reduce",
        cpp_label: "cg::reduce(tile, v, plus)",
        when: ALWAYS,
        tiles: Tiles::Each,
        variant: |tile, _| Variant::Reduce {
            tag: ReduceTag::CgReduce,
            tile,
        },
        cpp_fn: |tile, _| format!("cpp_cg_reduce_{tile}"),
        rust_fn: |tile, t| {
            crate::lab::reduce_kernel(ReduceTag::CgReduce, tile, t.block)
                .map(|k| k.name().to_string())
                .unwrap_or_else(|_| format!("cg_reduce_{tile}"))
        },
    },
    Spec {
        name: "cg_scan",
        cpp_label: "cg::inclusive_scan(tile, v, plus)",
        when: ALWAYS,
        tiles: Tiles::Each,
        variant: |tile, _| Variant::TileScan { tile },
        cpp_fn: |tile, _| format!("cpp_cg_scan_{tile}"),
        rust_fn: |tile, t| {
            cg_kernels::c02::cg_scan_kernel(tile, t.block)
                .map(|k| k.name().to_string())
                .unwrap_or_else(|| format!("cg_scan_{tile}"))
        },
    },
    Spec {
        name: "warp_reduce",
        cpp_label: "cub::WarpReduce + shfl broadcast",
        when: ALWAYS,
        tiles: Tiles::Fixed(32),
        variant: |tile, _| Variant::Reduce {
            tag: ReduceTag::CgReduce,
            tile,
        },
        cpp_fn: |_, _| "cub_warp_reduce".into(),
        rust_fn: |_, _| "cg_reduce_32".into(),
    },
    Spec {
        name: "block_reduce",
        cpp_label: "cub::BlockReduce + smem broadcast",
        when: ALWAYS,
        tiles: Tiles::Block,
        variant: |_, _| Variant::BlockReduce,
        cpp_fn: |_, t| format!("cub_block_reduce_{}", t.block),
        rust_fn: |_, _| "block_reduce".into(),
    },
    Spec {
        name: "block_scan",
        cpp_label: "cub::BlockScan::InclusiveSum",
        when: ALWAYS,
        tiles: Tiles::Block,
        variant: |_, _| Variant::BlockScan,
        cpp_fn: |_, t| format!("cub_block_scan_{}", t.block),
        rust_fn: |_, _| "block_scan".into(),
    },
    Spec {
        name: "block_reduce_sized",
        cpp_label: "cub::BlockReduce + smem broadcast",
        when: |t| cg_kernels::c02::block_reduce_sized(t.block).is_some(),
        tiles: Tiles::Block,
        variant: |_, _| Variant::BlockReduceSized,
        cpp_fn: |_, t| format!("cub_block_reduce_{}", t.block),
        rust_fn: |_, t| format!("block_reduce_{}", t.block),
    },
    Spec {
        name: "block_scan_sized",
        cpp_label: "cub::BlockScan::InclusiveSum",
        when: |t| cg_kernels::c02::block_reduce_sized(t.block).is_some(),
        tiles: Tiles::Block,
        variant: |_, _| Variant::BlockScanSized,
        cpp_fn: |_, t| format!("cub_block_scan_{}", t.block),
        rust_fn: |_, t| format!("block_scan_{}", t.block),
    },
    Spec {
        name: "last_block",
        cpp_label: "threadFenceReduction: __threadfence + atomicInc, cub::BlockReduce",
        when: |t| cg_kernels::c02::last_block_reduce_sized(t.block).is_some(),
        tiles: Tiles::Block,
        variant: |_, _| Variant::LastBlock,
        cpp_fn: |_, t| format!("cpp_last_block_reduce_{}", t.block),
        rust_fn: |_, t| format!("last_block_reduce_{}", t.block),
    },
    Spec {
        name: "coalesced",
        cpp_label: "cg::coalesced_threads",
        when: ALWAYS,
        tiles: Tiles::Fixed(32),
        variant: |_, _| Variant::Coalesced,
        cpp_fn: |_, _| "cpp_coalesced_odd".into(),
        rust_fn: |_, _| "coalesced_odd".into(),
    },
    Spec {
        name: "cluster",
        cpp_label: "cg::this_cluster map_shared_rank",
        when: |t| t.sm >= 90,
        tiles: Tiles::Cluster,
        variant: |_, t| Variant::Cluster { size: t.clusize },
        cpp_fn: |_, _| "cpp_cluster_dsmem".into(),
        rust_fn: |_, _| "cluster_dsmem".into(),
    },
];

/// The experiments of [`EXPERIMENTS`] that exist for `block` threads on
/// `sm`, with clusters of `clusize` blocks.
fn experiments(block: u32, sm: u32, clusize: u32) -> Vec<Experiment> {
    let t = Target { block, sm, clusize };
    let mut v = Vec::new();
    for s in EXPERIMENTS.iter().filter(|s| (s.when)(&t)) {
        let tiles = match s.tiles {
            Tiles::Fixed(tile) => vec![tile],
            Tiles::Each => (3..=10)
                .map(|k| 1u32 << k)
                .filter(|&tile| tile <= block)
                .collect(),
            Tiles::Block => vec![block],
            Tiles::Cluster => vec![clusize],
        };
        v.extend(tiles.into_iter().map(|tile| Experiment {
            name: s.name,
            cpp_label: s.cpp_label,
            variant: (s.variant)(tile, &t),
            cpp_fn: (s.cpp_fn)(tile, &t),
            rust_fn: (s.rust_fn)(tile, &t),
            tile,
        }));
    }
    v
}

/// Every experiment name, for `--only`.
fn experiment_names() -> impl Iterator<Item = &'static str> {
    EXPERIMENTS.iter().map(|s| s.name).chain([
        MEMCPY_ASYNC,
        TMA,
        DEVICE_WIDE,
        DEVICE_HISTOGRAM,
        DEVICE_SELECT,
        DEVICE_RADIX_SORT,
        PRIMITIVES,
        GEMM,
        MEMORY,
        MATH,
    ])
}

/// The math functions against CUDA's (`experiments::math`): its own
/// outputs; verified on the simulator when there is no GPU; runs only when
/// named.
const MATH: &str = "math";

/// CUB's block and warp primitives against the library's (`experiments::primitives`): their
/// own sizes and block sizes; verified on the simulator when there is no
/// GPU.
const PRIMITIVES: &str = "primitives";

/// Device-wide reduce and scan against CUB (`experiments::device_wide`): its own
/// sizes and outputs; verified on the simulator when there is no GPU.
const DEVICE_WIDE: &str = "device_wide";

/// The device-wide even histogram against CUB (`experiments::device_histogram`): its
/// own sizes and outputs; verified on the simulator when there is no GPU.
const DEVICE_HISTOGRAM: &str = "device_histogram";

/// The device-wide selections against CUB (`experiments::device_select`): their own
/// sizes and outputs; verified on the simulator when there is no GPU.
const DEVICE_SELECT: &str = "device_select";

/// The device-wide radix sort against CUB (`experiments::device_radix_sort`): its own sizes
/// and outputs; verified on the simulator when there is no GPU.
const DEVICE_RADIX_SORT: &str = "device_radix_sort";

/// The warpgroup-MMA GEMM against cuBLAS (`experiments::gemm`, sm_90a):
/// its own shapes and outputs; verified on the simulator when there is no
/// GPU.
const GEMM: &str = "gemm";

/// The staged-copy sweep (`experiments::memcpy_async`), which has its own sizes and
/// outputs rather than one row per experiment.
const MEMCPY_ASYNC: &str = "memcpy_async";

/// The memory experiment (`experiments::memory`, issue 57): its own
/// shapes and outputs; verified on the simulator when there is no GPU.
const MEMORY: &str = "memory";

/// The tensor-copy sweep (`compare_tma`, sm_90): its own sizes and outputs
/// (2.7 GiB of buffers); runs only when named.
const TMA: &str = "tma";

impl CompareArgs {
    /// The lab's flag checks, `--only`'s names, the flags of one
    /// experiment and `--prims`' names, before anything is built or
    /// launched.
    pub fn validate(&self) -> Result<(), String> {
        self.lab.validate()?;
        check_only(&self.only)?;
        self.check_scoped_flags()?;
        crate::experiments::primitives::check_names(&self.prims)
    }
}

/// Checks `--only`'s names.
fn check_only(only: &[String]) -> Result<(), String> {
    if let Some(bad) = only
        .iter()
        .find(|n| !experiment_names().any(|e| e == n.as_str()))
    {
        return Err(format!(
            "--only: no experiment named `{bad}` (known: {})",
            experiment_names().collect::<Vec<_>>().join(", ")
        ));
    }
    Ok(())
}

/// The experiments named in `only` (all when it is empty).
fn select(all: Vec<Experiment>, only: &[String]) -> Result<Vec<Experiment>> {
    let picked: Vec<Experiment> = all
        .into_iter()
        .filter(|e| only.is_empty() || only.iter().any(|n| n == e.name))
        .collect();
    if picked.is_empty() {
        bail!(
            "--only: none of {} runs on this GPU (cluster needs sm_90+)",
            only.join(", ")
        );
    }
    Ok(picked)
}

/// Launch order for timing: (experiment index, C++ side?).
struct Pairs<'l, 'a> {
    lab: &'l mut Lab<'a>,
    module: &'l Module,
    exps: &'l [Experiment],
}

impl Timed for Pairs<'_, '_> {
    type Variant = (usize, bool);

    fn gpu(&self) -> &cg_runtime::Gpu {
        self.lab.gpu()
    }

    fn launch_async(&mut self, (i, cpp): (usize, bool), reps: u32) -> Result<()> {
        let e = &self.exps[i];
        let side = if cpp {
            Side::Cpp(self.module, &e.cpp_fn)
        } else {
            Side::Rust
        };
        self.lab.launch_side(e.variant, side, reps, false)
    }
}

/// Runs the comparison.
pub fn run(args: &CompareArgs) -> Result<()> {
    let a = &args.lab;
    let apart = |n: &String| {
        n == DEVICE_WIDE
            || n == DEVICE_HISTOGRAM
            || n == DEVICE_SELECT
            || n == DEVICE_RADIX_SORT
            || n == PRIMITIVES
            || n == MEMCPY_ASYNC
            || n == GEMM
            || n == MEMORY
            || n == MATH
    };
    let sizes = args.sizes();
    let opts = Options {
        sizes: &sizes,
        n: a.n,
        keys: &args.keys,
        prims: &args.prims,
        grid: a.grid,
    };
    for e in crate::experiments::EXPERIMENTS {
        // The staged-copy sweep runs by default too.
        let default = args.only.is_empty() && e.name == MEMCPY_ASYNC;
        if default || args.only.iter().any(|n| n == e.name) {
            (e.run)(a, &opts)?;
        }
    }
    if !args.only.is_empty() && args.only.iter().all(apart) {
        return Ok(());
    }
    let Some(nvcc) = tools::find_tool("nvcc") else {
        bail!(
            "`cg-lab compare` builds reference/cuda with nvcc, which was not found \
             (install the CUDA toolkit, put nvcc on PATH, or set CG_NVCC)"
        );
    };
    let backend = a.backend.open()?;
    let Backend::Gpu(gpu) = &backend else {
        bail!("`cg-lab compare` times Rust against C++ on a GPU; none is usable here");
    };
    let sm = gpu.info().sm();
    crate::preflight::check_n(&backend, a.n)?;
    let out = crate::results::out_dir(a.out.as_deref(), &gpu.info().slug());
    crate::preflight::check_out_dir(&out)?;
    let build = std::env::temp_dir().join(format!("cg-lab-reference-{}", std::process::id()));
    eprintln!(
        "building the C++ reference with {} for sm_{sm} …",
        nvcc.display()
    );
    let only: Vec<String> = args
        .only
        .iter()
        .filter(|n| *n != TMA && !apart(n))
        .cloned()
        .collect();
    if args.only.iter().any(|n| n == TMA) {
        let progress = Progress::new(0, a.csv_only);
        let r = crate::compare_tma::run(&backend, a, &nvcc, &out, &progress);
        progress.finish();
        r?;
        if only.is_empty() {
            return Ok(());
        }
    }
    let (cubin, _) = crate::reference::build_cubin(&nvcc, sm, &build, crate::reference::C02_CU)?;
    let module = gpu.load_image(&std::fs::read(&cubin)?)?;
    // The Rust side decides which experiments exist: clusters need sm_90 PTX.
    let rust_sm = if gpu.cluster_support().is_ok() {
        sm
    } else {
        sm.min(gpu.ptx_sm())
    };
    let exps = select(experiments(a.block, rust_sm, a.clusize), &only)?;

    let mut lab = Lab::new(&backend, a)?;
    let progress = Progress::new((exps.len() * 2) as u64 * (1 + a.runs as u64), a.csv_only);
    // Each verdict is printed as its pair is verified; the timings, which
    // interleave every experiment, complete together at the end.
    let mut rec = Recorder::new(|c: &Check| {
        println!(
            "verified {:<18} tile={:<4} rust {} c++ {}  ({})",
            c.experiment,
            c.tile,
            ok(c.rust_verified),
            ok(c.cpp_verified),
            c.check
        )
    })?;
    let measured = verify_and_time(&mut lab, &module, &exps, a, &progress, &mut rec);
    progress.finish();
    let samples = measured.map_err(|e| rec.fail(&out, PARTIAL, e))?;
    let rows: Vec<CompareRow> = exps
        .iter()
        .zip(rec.rows())
        .enumerate()
        .map(|(i, (e, c))| {
            let rust_ms = Summary::of(&samples[2 * i]);
            let cpp_ms = Summary::of(&samples[2 * i + 1]);
            CompareRow {
                experiment: e.name.into(),
                cpp_side: e.cpp_label.into(),
                tile: e.tile,
                rust_over_cpp: rust_ms.median / cpp_ms.median,
                rust_ms,
                cpp_ms,
                rust_verified: c.rust_verified,
                cpp_verified: c.cpp_verified,
                check: c.check.clone(),
            }
        })
        .collect();
    for r in &rows {
        println!(
            "{:<12} tile={:<4} rust={:.4} ms  c++={:.4} ms  rust/c++={:.3}  verify rust {} c++ {}  ({})",
            r.experiment,
            r.tile,
            r.rust_ms.median,
            r.cpp_ms.median,
            r.rust_over_cpp,
            ok(r.rust_verified),
            ok(r.cpp_verified),
            r.cpp_side
        );
    }

    let platform = crate::results::platform(&backend);
    write_outputs(&rows, &platform, a, &out)
        .map_err(|e| crate::partial::save(&out, PARTIAL, &rows, rows.len(), e))?;
    crate::partial::clear(&out, PARTIAL);
    match sass_report(gpu, &cubin, &exps, &build) {
        Ok(text) => {
            let p = out.join("sass.md");
            write_atomic(&p, text.as_bytes())?;
            println!("wrote {}", p.display());
        }
        Err(e) => eprintln!("note: sass.md not written: {e}"),
    }
    std::fs::remove_dir_all(&build).ok();
    let bad: Vec<String> = rows
        .iter()
        .filter(|r| !r.rust_verified || !r.cpp_verified)
        .map(|r| format!("{} tile {} ({})", r.experiment, r.tile, r.check))
        .collect();
    if !bad.is_empty() {
        bail!(
            "verification FAILED: {} (recorded in {})",
            bad.join("; "),
            out.join("compare.csv").display()
        );
    }
    Ok(())
}

/// The stem of compare's partial file (`compare.partial.json`).
const PARTIAL: &str = "compare";

/// Both sides of one experiment, verified (what `compare.partial.json`
/// holds when the timing fails).
#[derive(Clone, Debug, Serialize)]
struct Check {
    experiment: &'static str,
    tile: u32,
    rust_verified: bool,
    cpp_verified: bool,
    check: String,
}

/// Verifies both sides of every experiment (each verdict to `rec` as it
/// comes), then times them interleaved; returns the samples, Rust and C++
/// of each experiment in turn.
fn verify_and_time(
    lab: &mut Lab<'_>,
    module: &Module,
    exps: &[Experiment],
    a: &LabArgs,
    progress: &Progress,
    rec: &mut Recorder<'_, Check>,
) -> Result<Vec<Vec<f64>>> {
    for e in exps {
        let what = format!("{} tile {}", e.name, e.tile);
        progress.set_message(format!("verify {what}"));
        rec.begin(&what)?;
        let (rust_verified, rc) = lab
            .verify_side(e.variant, Side::Rust)
            .with_context(|| format!("verifying the Rust side of {what}"))?;
        let (cpp_verified, cc) = lab
            .verify_side(e.variant, Side::Cpp(module, &e.cpp_fn))
            .with_context(|| format!("verifying the C++ side of {what}"))?;
        progress.inc(2);
        rec.push(Check {
            experiment: e.name,
            tile: e.tile,
            rust_verified,
            cpp_verified,
            check: format!("rust: {rc}; c++: {cc}"),
        });
    }
    let order: Vec<(usize, bool)> = (0..exps.len())
        .flat_map(|i| [(i, false), (i, true)])
        .collect();
    let mut pairs = Pairs { lab, module, exps };
    timing::time_interleaved(
        &mut pairs,
        &order,
        a.warmup,
        a.runs,
        a.reps,
        a.min_sample_ms,
        progress,
    )
    .context("timing")
}

/// Writes `compare.csv`, `compare.md` and `compare.svg` into `out`, each
/// atomically, and says so.
fn write_outputs(rows: &[CompareRow], platform: &Platform, a: &LabArgs, out: &Path) -> Result<()> {
    use crate::report::compare::{csv, markdown};
    let timing = timing::describe(timing::MEMSET_AND_KERNEL, a.warmup, a.runs, a.min_sample_ms);
    let setup = Setup {
        n: a.n,
        block: a.block,
        grid: a.grid,
        reps: a.reps,
    };
    let files = [
        ("compare.csv", csv(rows)),
        ("compare.md", markdown(rows, platform, &timing, &setup)),
        (
            "compare.svg",
            crate::report::plot::compare(rows, &platform.device)?,
        ),
    ];
    let mut written = Vec::new();
    for (name, text) in files {
        let p = out.join(name);
        write_atomic(&p, text.as_bytes())?;
        written.push(p);
    }
    println!(
        "wrote {}",
        written
            .iter()
            .map(|p| p.display().to_string())
            .collect::<Vec<_>>()
            .join(", ")
    );
    Ok(())
}

/// Per experiment, the SASS opcode counts of both sides (`sass.md`).
fn sass_report(
    gpu: &cg_runtime::Gpu,
    cpp_cubin: &Path,
    exps: &[Experiment],
    dir: &Path,
) -> Result<String> {
    let l = crate::listings::listings(gpu, cpp_cubin, dir)?;
    let names: Vec<(&str, &str, &str)> = exps
        .iter()
        .map(|e| (e.name, e.rust_fn.as_str(), e.cpp_fn.as_str()))
        .collect();
    Ok(crate::report::compare::sass(&l, &names))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_experiment_has_a_name_for_only() {
        for e in experiments(1024, 90, 2) {
            assert!(
                experiment_names().any(|n| n == e.name),
                "{} missing",
                e.name
            );
        }
        assert!(check_only(&["block_reduce".into(), "cluster".into()]).is_ok());
        let err = check_only(&["block".into()]).unwrap_err();
        assert!(
            err.contains("`block`") && err.contains("block_reduce"),
            "{err}"
        );
    }

    #[test]
    fn only_keeps_the_named_experiments() {
        let picked = select(experiments(256, 90, 2), &["cg_reduce".into()]).unwrap();
        let tiles: Vec<u32> = picked.iter().map(|e| e.tile).collect();
        assert_eq!(tiles, [8, 16, 32, 64, 128, 256]);
        // 2 baselines, 6 reduce and 6 scan tiles, 8 others.
        assert_eq!(select(experiments(256, 90, 2), &[]).unwrap().len(), 22);
        // No sized block kernels (nor CUB instantiations) for 160 threads.
        assert!(
            experiments(160, 90, 2)
                .iter()
                .all(|e| !e.name.ends_with("_sized") && e.name != "last_block")
        );
        let last = select(experiments(256, 90, 2), &["last_block".into()]).unwrap();
        assert_eq!(last[0].cpp_fn, "cpp_last_block_reduce_256");
        assert_eq!(last[0].rust_fn, "last_block_reduce_256");
        assert!(select(experiments(256, 80, 2), &["cluster".into()]).is_err());
    }
}
