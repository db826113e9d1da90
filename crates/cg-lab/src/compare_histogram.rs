//! `cg-lab compare --only device_histogram`: the device-wide even and
//! range histograms written with the library's block primitives
//! (`cg_kernels::device_histogram`: striped 16-byte `BlockLoad`s,
//! per-warp sub-histograms in shared memory by `BlockHistogram`, one
//! global atomic per bin and block) against CUB's
//! `DeviceHistogram::HistogramEven` and `HistogramRange`, 2^20 to 2^28
//! `u32` samples (or the sizes of `--sizes`) into 256 bins, as bandwidth
//! (4 bytes per sample / median time) and % of the GPU's DRAM peak.
//!
//! The samples are uniformly random over `[0, 2^24)` and the bins even
//! over that range (each 2^16 wide): every bin gets about `n / 256`
//! samples. The range histogram's 257 levels are quadratic over the same
//! range (`levels[i] = 256 i²`: bin `i` is `256 (2i + 1)` wide). Both sides' histograms are checked against the host's counts,
//! exactly, at every size before timing (so they are equal to each other,
//! bit for bit). The Rust side's time includes its asynchronous memset of
//! the 256 counters, CUB's its own clearing kernel. Without a GPU the
//! Rust kernel is verified on the simulator at small sizes and nothing is
//! timed.

use std::fmt::Write as _;
use std::path::Path;

use anyhow::{Context, Result, bail};
use cg_kernels::device_histogram::{
    DEVICE_HISTOGRAM_EVEN, DEVICE_HISTOGRAM_RANGE, HISTO_BLOCK, HISTO_SMEM_BYTES, HISTO_TILE, U4,
    even_bin, even_shift, histogram_grid, range_bin,
};
use cg_kernels::xorshift::Xorshift;
use cg_runtime::{Backend, Buffer, Dim3, LaunchConfig, tools};
use serde::Serialize;

use crate::cli::LabArgs;
use crate::output::write_atomic;
use crate::progress::Progress;
use crate::results::pct_cell;
use crate::stats::Summary;
use crate::timing::{self, Timed};

/// Sizes the simulator verifies (partial last tiles and vectors).
const SIM_SIZES: [u32; 2] = [1003, 3 * HISTO_TILE as u32 + 17];

/// Bins, and the even levels they cover.
const BINS: u32 = 256;
const LOWER: u32 = 0;
const UPPER: u32 = 1 << 24;

/// The range histogram's levels: quadratic over `[0, 2^24)`.
fn levels() -> Vec<u32> {
    (0..=BINS).map(|i| i * i * 256).collect()
}

/// Which histogram.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// Even bins (`HistogramEven`).
    Even,
    /// Bins between levels (`HistogramRange`).
    Range,
}

const KINDS: [Kind; 2] = [Kind::Even, Kind::Range];

/// Sample `i` of the input: a xorshift stream over `[0, 2^24)`.
fn samples(n: u32) -> Vec<U4> {
    let mut x = Xorshift::new(0x2545_f491_4f6c_dd1d);
    let mut next = move || (x.next() >> 40) as u32;
    (0..n.div_ceil(4))
        .map(|_| U4([next(), next(), next(), next()]))
        .collect()
}

/// The host's counts of the first `n` samples, for every `n` of `sizes`
/// (ascending).
fn models(data: &[U4], sizes: &[u32], kind: Kind) -> Vec<Vec<u32>> {
    let mut hist = vec![0u32; BINS as usize];
    let mut done = 0usize;
    let mut out = Vec::new();
    let levels = levels();
    for &n in sizes {
        for i in done..n as usize {
            let s = data[i / 4].0[i % 4];
            let bin = match kind {
                Kind::Even => even_bin(s, LOWER, UPPER, BINS),
                Kind::Range => range_bin(s, &levels),
            };
            if let Some(b) = bin {
                hist[b as usize] += 1;
            }
        }
        done = n as usize;
        out.push(hist.clone());
    }
    out
}

type CubFn = unsafe extern "C" fn(*const u32, *mut u32, i32, u32, u32, i32) -> i32;
type CubRangeFn = unsafe extern "C" fn(*const u32, *mut u32, *const u32, i32, i32) -> i32;

/// CUB's entry points in the shared library built from `device_histogram.cu`.
struct Cub {
    _lib: libloading::Library,
    histogram: CubFn,
    range: CubRangeFn,
}

impl Cub {
    fn build(nvcc: &Path, sm: u32, dir: &Path) -> Result<Cub> {
        let lib = crate::reference::build_shared_library(
            nvcc,
            sm,
            dir,
            crate::reference::DEVICE_HISTOGRAM_CU,
        )?;
        // SAFETY: the library is the one just built from our source; its
        // initialisers are the CUDA runtime's.
        let lib = unsafe { libloading::Library::new(&lib) }.context("loading the CUB library")?;
        // SAFETY: the symbol has the declared C signature (device_histogram.cu).
        let histogram = unsafe { *lib.get::<CubFn>(b"cub_histogram_even_u32")? };
        // SAFETY: as above.
        let range = unsafe { *lib.get::<CubRangeFn>(b"cub_histogram_range_u32")? };
        Ok(Cub {
            _lib: lib,
            histogram,
            range,
        })
    }
}

struct Bench<'a> {
    backend: &'a Backend,
    cub: Option<&'a Cub>,
    samples: Buffer<U4>,
    levels: Buffer<u32>,
    hist: Buffer<u32>,
    resident: u32,
}

impl Bench<'_> {
    /// One histogram of the first `n` samples into `hist`, by CUB or by
    /// the Rust kernel (after clearing `hist`).
    fn launch(&mut self, kind: Kind, cub: bool, n: u32, sync: bool) -> Result<()> {
        if cub {
            let c = self.cub.context("CUB runs on a GPU only")?;
            // SAFETY: `samples` holds at least `n` samples, `hist` BINS
            // counters, `levels` BINS + 1 levels.
            let rc = unsafe {
                match kind {
                    Kind::Even => (c.histogram)(
                        self.samples.as_ptr().cast::<u32>(),
                        self.hist.as_ptr(),
                        BINS as i32,
                        LOWER,
                        UPPER,
                        n as i32,
                    ),
                    Kind::Range => (c.range)(
                        self.samples.as_ptr().cast::<u32>(),
                        self.hist.as_ptr(),
                        self.levels.as_ptr(),
                        BINS as i32 + 1,
                        n as i32,
                    ),
                }
            };
            if rc != 0 {
                bail!("{} returned CUDA error {rc}", name(kind, true));
            }
        } else {
            self.hist.zero_async()?;
            let cfg = LaunchConfig::linear(histogram_grid(n, self.resident), HISTO_BLOCK)
                .with_dynamic_smem(HISTO_SMEM_BYTES);
            match kind {
                Kind::Even => {
                    let shift = even_shift(LOWER, UPPER, BINS);
                    let args = (&self.samples, n, LOWER, UPPER, BINS, shift, &mut self.hist);
                    match self.backend {
                        Backend::Gpu(g) if !sync => g.launch(&DEVICE_HISTOGRAM_EVEN, &cfg, args)?,
                        b => b.launch(&DEVICE_HISTOGRAM_EVEN, &cfg, args)?,
                    }
                }
                Kind::Range => {
                    let args = (&self.samples, n, &self.levels, &mut self.hist);
                    match self.backend {
                        Backend::Gpu(g) if !sync => {
                            g.launch(&DEVICE_HISTOGRAM_RANGE, &cfg, args)?
                        }
                        b => b.launch(&DEVICE_HISTOGRAM_RANGE, &cfg, args)?,
                    }
                }
            }
        }
        if let (true, Backend::Gpu(g)) = (sync, self.backend) {
            g.synchronize()?;
        }
        Ok(())
    }

    /// One launch on `n` samples against the host's counts: (ok, what).
    fn verify(&mut self, kind: Kind, cub: bool, n: u32, want: &[u32]) -> Result<(bool, String)> {
        self.hist.copy_from(&[u32::MAX; BINS as usize])?;
        self.launch(kind, cub, n, true)?;
        let got = self.hist.to_vec()?;
        Ok(match (0..want.len()).find(|&b| got[b] != want[b]) {
            None => (true, format!("{BINS} bins equal the host's counts")),
            Some(b) => (
                false,
                format!("bin {b} counts {}, host {}", got[b], want[b]),
            ),
        })
    }
}

impl Timed for Bench<'_> {
    type Variant = (u32, Kind, bool);
    fn gpu(&self) -> &cg_runtime::Gpu {
        match self.backend {
            Backend::Gpu(g) => g,
            Backend::Sim(_) => unreachable!("timing runs on a GPU only"),
        }
    }
    fn launch_async(&mut self, (n, kind, cub): (u32, Kind, bool), _reps: u32) -> Result<()> {
        self.launch(kind, cub, n, false)
    }
}

/// One measured (size, side).
#[derive(Clone, Debug, Serialize)]
struct Point {
    n: u32,
    histogram: &'static str,
    side: &'static str,
    kernel: &'static str,
    ms: Summary,
    gb_per_s: f64,
    /// `None`: the driver reported no DRAM peak.
    pct_of_peak: Option<f64>,
    verified: bool,
    check: String,
}

fn name(kind: Kind, cub: bool) -> &'static str {
    match (kind, cub) {
        (Kind::Even, true) => "cub::DeviceHistogram::HistogramEven",
        (Kind::Range, true) => "cub::DeviceHistogram::HistogramRange",
        (Kind::Even, false) => DEVICE_HISTOGRAM_EVEN.name(),
        (Kind::Range, false) => DEVICE_HISTOGRAM_RANGE.name(),
    }
}

fn kind_name(kind: Kind) -> &'static str {
    match kind {
        Kind::Even => "even",
        Kind::Range => "range",
    }
}

/// Runs the experiment at `sizes` (`--sizes`) into `out` (on a GPU) or
/// verifies the Rust kernel on the simulator (without one).
pub fn run(a: &LabArgs, sizes: &[u32], progress: &Progress) -> Result<()> {
    let backend = a.backend.open()?;
    let Backend::Gpu(gpu) = &backend else {
        let max = *SIM_SIZES.iter().max().expect("sizes");
        let data = samples(max);
        let mut b = Bench {
            backend: &backend,
            cub: None,
            samples: backend.upload(&data)?,
            levels: backend.upload(&levels())?,
            hist: backend.alloc(BINS as usize)?,
            resident: 3,
        };
        let mut bad = Vec::new();
        for kind in KINDS {
            let want = models(&data, &SIM_SIZES, kind);
            for (n, want) in SIM_SIZES.iter().zip(&want) {
                let (ok, what) = b.verify(kind, false, *n, want)?;
                println!(
                    "verified device_histogram {:<24} n={n:<6} on the simulator: {} ({what})",
                    name(kind, false),
                    if ok { "OK" } else { "FAILED" }
                );
                if !ok {
                    bad.push(format!("{} n={n}", kind_name(kind)));
                }
            }
        }
        println!(
            "device_histogram: no GPU, so CUB was not built and nothing was timed (simulator verification only)"
        );
        if !bad.is_empty() {
            bail!(
                "device_histogram verification FAILED on the simulator: {}",
                bad.join("; ")
            );
        }
        return Ok(());
    };
    let Some(nvcc) = tools::find_tool("nvcc") else {
        bail!(
            "the device_histogram experiment builds reference/cuda/device_histogram.cu with nvcc, which was not found"
        );
    };
    let sm = gpu.info().sm();
    let out = crate::results::out_dir(a.out.as_deref(), &gpu.info().slug());
    crate::preflight::check_out_dir(&out)?;
    let out = out.as_path();
    let dir = std::env::temp_dir().join(format!("cg-lab-device-histogram-{}", std::process::id()));
    eprintln!(
        "building reference/cuda/device_histogram.cu (CUB) with {} for sm_{sm} …",
        nvcc.display()
    );
    let cub = Cub::build(&nvcc, sm, &dir)?;
    let f = gpu.kernels().kernel(&DEVICE_HISTOGRAM_EVEN)?;
    let resident = gpu.max_coresident_blocks(f, Dim3::x(HISTO_BLOCK), HISTO_SMEM_BYTES)?;
    let max = *sizes.iter().max().context("sizes")?;
    let data = samples(max);
    let wants: Vec<Vec<Vec<u32>>> = KINDS.iter().map(|&k| models(&data, sizes, k)).collect();
    let mut b = Bench {
        backend: &backend,
        cub: Some(&cub),
        samples: backend.upload(&data)?,
        levels: backend.upload(&levels())?,
        hist: backend.alloc(BINS as usize)?,
        resident,
    };
    drop(data);
    let order: Vec<(u32, Kind, bool)> = sizes
        .iter()
        .flat_map(|&n| {
            KINDS
                .iter()
                .flat_map(move |&k| [(n, k, false), (n, k, true)])
        })
        .collect();
    let mut checks = Vec::new();
    for &(n, kind, cub) in &order {
        let s = sizes.iter().position(|&m| m == n).expect("a size");
        let want = &wants[KINDS.iter().position(|&k| k == kind).expect("a kind")][s];
        progress.set_message(format!("verify device_histogram {} n={n}", name(kind, cub)));
        let r = b
            .verify(kind, cub, n, want)
            .with_context(|| format!("verifying {} at n = {n}", name(kind, cub)))?;
        println!(
            "verified device_histogram {:<36} n=2^{:<2} {} ({})",
            name(kind, cub),
            n.trailing_zeros(),
            if r.0 { "OK" } else { "FAILED" },
            r.1
        );
        checks.push(r);
    }
    let samples = timing::time_interleaved(
        &mut b,
        &order,
        a.warmup,
        a.runs,
        1,
        a.min_sample_ms,
        progress,
    )
    .context("timing device_histogram")?;
    let platform = crate::results::platform(&backend);
    let points: Vec<Point> = order
        .iter()
        .zip(samples)
        .zip(checks)
        .map(|((&(n, kind, cub), smp), (verified, check))| {
            let ms = Summary::of(&smp);
            let gbps = n as f64 * 4.0 / (ms.median * 1e-3) / 1e9;
            Point {
                n,
                histogram: kind_name(kind),
                side: if cub { "cub" } else { "rust" },
                kernel: name(kind, cub),
                ms,
                gb_per_s: gbps,
                pct_of_peak: platform.pct_of_peak(gbps * 1e9),
                verified,
                check,
            }
        })
        .collect();
    let timing_text = timing::describe(
        "the Rust kernel with its memset of the counters, or one CUB call: its temporary-storage query and kernels, storage allocated beforehand",
        a.warmup,
        a.runs,
        a.min_sample_ms,
    );
    let files = [
        ("device_histogram.csv", csv(&points)),
        (
            "device_histogram.md",
            markdown(&points, sizes, &platform, &timing_text, resident),
        ),
        (
            "device_histogram.json",
            serde_json::to_string_pretty(&points)?,
        ),
    ];
    for (name, text) in files {
        write_atomic(&out.join(name), text.as_bytes())?;
        println!("wrote {}", out.join(name).display());
    }
    for p in &points {
        println!(
            "device_histogram {:<36} n=2^{:<2} {:>9.4} ms {:>7.1} GB/s {:>7} of peak  {}",
            p.kernel,
            p.n.trailing_zeros(),
            p.ms.median,
            p.gb_per_s,
            pct_cell(p.pct_of_peak),
            if p.verified { "OK" } else { "FAILED" }
        );
    }
    std::fs::remove_dir_all(&dir).ok();
    let bad: Vec<String> = points
        .iter()
        .filter(|p| !p.verified)
        .map(|p| format!("{} n={} ({})", p.kernel, p.n, p.check))
        .collect();
    if !bad.is_empty() {
        bail!("device_histogram verification FAILED: {}", bad.join("; "));
    }
    Ok(())
}

fn csv(points: &[Point]) -> String {
    let mut s = String::from(
        "n,histogram,side,kernel,median_ms,p10_ms,p90_ms,gb_per_s,pct_of_peak,verified\n",
    );
    for p in points {
        let _ = writeln!(
            s,
            "{},{},{},\"{}\",{:.6},{:.6},{:.6},{:.1},{},{}",
            p.n,
            p.histogram,
            p.side,
            p.kernel,
            p.ms.median,
            p.ms.p10,
            p.ms.p90,
            p.gb_per_s,
            p.pct_of_peak
                .map_or_else(String::new, |x| format!("{x:.2}")),
            p.verified
        );
    }
    s
}

fn markdown(
    points: &[Point],
    sizes: &[u32],
    p: &crate::results::Platform,
    timing: &str,
    resident: u32,
) -> String {
    let mut s = format!(
        "# Device-wide even and range histograms: the library against CUB — {}\n\nPlatform: {}\n\nCommand: `{}`\n\n",
        p.device,
        p.line(),
        p.command
    );
    let peak = p.peak_text();
    let _ = writeln!(
        s,
        "{BINS} even bins over [{LOWER}, 2^24) of random `u32` samples in that range. Rust: up to {resident} co-resident \
         blocks × {HISTO_BLOCK} threads walking tiles of {HISTO_TILE} samples (striped 16-byte `BlockLoad`s), a \
         sub-histogram per warp in shared memory (`BlockHistogram`, shared atomics), one global atomic per bin and \
         block; the counters cleared by a memset first. The range histogram: 257 quadratic levels over the same \
         range (`levels[i] = 256 i²`), staged in shared memory, each sample's bin by a branch-free binary search. \
         CUB: `cub::DeviceHistogram::HistogramEven` / `HistogramRange` (nvcc, host dispatch). Bandwidth: 4·n bytes / median time; {peak}. Every point verified before timing (both sides' \
         counts equal the host's). Timing: {timing}; all sizes and sides interleaved.\n"
    );
    let _ = writeln!(
        s,
        "| histogram | n | Rust GB/s | % peak | CUB GB/s | % peak | Rust ÷ CUB bandwidth | verified |"
    );
    let _ = writeln!(s, "| --- | --- | ---: | ---: | ---: | ---: | ---: | --- |");
    for (kind, n) in KINDS
        .iter()
        .flat_map(|&k| sizes.iter().map(move |&n| (k, n)))
    {
        let find = |side: &str| {
            points
                .iter()
                .find(|q| q.n == n && q.side == side && q.histogram == kind_name(kind))
                .expect("every point was measured")
        };
        let (r, c) = (find("rust"), find("cub"));
        let _ = writeln!(
            s,
            "| {} | 2^{} | {:.0} | {} | {:.0} | {} | **{:.3}** | {} |",
            kind_name(kind),
            n.trailing_zeros(),
            r.gb_per_s,
            pct_cell(r.pct_of_peak),
            c.gb_per_s,
            pct_cell(c.pct_of_peak),
            r.gb_per_s / c.gb_per_s,
            if r.verified && c.verified {
                "both"
            } else {
                "FAILED"
            }
        );
    }
    s
}
