//! `cg-lab compare --only device_histogram`: the device-wide even
//! histogram written with the library's block primitives
//! (`cg_kernels::device_histogram`: striped 16-byte `BlockLoad`s,
//! per-warp sub-histograms in shared memory by `BlockHistogram`, one
//! global atomic per bin and block) against CUB's
//! `DeviceHistogram::HistogramEven`, 2^20 to 2^28 `u32` samples into 256
//! bins, as bandwidth (4 bytes per sample / median time) and % of the
//! GPU's DRAM peak.
//!
//! The samples are uniformly random over `[0, 2^24)` and the bins even
//! over that range (each 2^16 wide): every bin gets about `n / 256`
//! samples. Both sides' histograms are checked against the host's counts,
//! exactly, at every size before timing (so they are equal to each other,
//! bit for bit). The Rust side's time includes its asynchronous memset of
//! the 256 counters, CUB's its own clearing kernel. Without a GPU the
//! Rust kernel is verified on the simulator at small sizes and nothing is
//! timed.

use std::fmt::Write as _;
use std::path::Path;

use anyhow::{Context, Result, bail};
use cg_kernels::device_histogram::{
    DEVICE_HISTOGRAM_EVEN, HISTO_BLOCK, HISTO_SMEM_BYTES, HISTO_TILE, U4, even_bin, even_shift,
    histogram_grid,
};
use cg_runtime::{Backend, Buffer, Dim3, LaunchConfig, tools};
use serde::Serialize;

use crate::cli::LabArgs;
use crate::output::write_atomic;
use crate::progress::Progress;
use crate::results::pct_cell;
use crate::stats::Summary;
use crate::timing::{self, Timed};

/// Sample counts: 4 MiB to 1 GiB of `u32`.
pub const SIZES: [u32; 5] = [1 << 20, 1 << 22, 1 << 24, 1 << 26, 1 << 28];

/// Sizes the simulator verifies (partial last tiles and vectors).
const SIM_SIZES: [u32; 2] = [1003, 3 * HISTO_TILE as u32 + 17];

/// Bins, and the even levels they cover.
const BINS: u32 = 256;
const LOWER: u32 = 0;
const UPPER: u32 = 1 << 24;

/// Sample `i` of the input: a xorshift stream over `[0, 2^24)`.
fn samples(n: u32) -> Vec<U4> {
    let mut x = 0x2545_f491_4f6c_dd1du64;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        (x >> 40) as u32
    };
    (0..n.div_ceil(4))
        .map(|_| U4([next(), next(), next(), next()]))
        .collect()
}

/// The host's counts of the first `n` samples, for every `n` of `sizes`
/// (ascending).
fn models(data: &[U4], sizes: &[u32]) -> Vec<Vec<u32>> {
    let mut hist = vec![0u32; BINS as usize];
    let mut done = 0usize;
    let mut out = Vec::new();
    for &n in sizes {
        for i in done..n as usize {
            if let Some(b) = even_bin(data[i / 4].0[i % 4], LOWER, UPPER, BINS) {
                hist[b as usize] += 1;
            }
        }
        done = n as usize;
        out.push(hist.clone());
    }
    out
}

type CubFn = unsafe extern "C" fn(*const u32, *mut u32, i32, u32, u32, i32) -> i32;

/// CUB's entry point in the shared library built from `device_histogram.cu`.
struct Cub {
    _lib: libloading::Library,
    histogram: CubFn,
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
        Ok(Cub {
            _lib: lib,
            histogram,
        })
    }
}

struct Bench<'a> {
    backend: &'a Backend,
    cub: Option<&'a Cub>,
    samples: Buffer<U4>,
    hist: Buffer<u32>,
    resident: u32,
}

impl Bench<'_> {
    /// One histogram of the first `n` samples into `hist`, by CUB or by
    /// the Rust kernel (after clearing `hist`).
    fn launch(&mut self, cub: bool, n: u32, sync: bool) -> Result<()> {
        if cub {
            let c = self.cub.context("CUB runs on a GPU only")?;
            // SAFETY: `samples` holds at least `n` samples, `hist` BINS counters.
            let rc = unsafe {
                (c.histogram)(
                    self.samples.as_ptr().cast::<u32>(),
                    self.hist.as_ptr(),
                    BINS as i32,
                    LOWER,
                    UPPER,
                    n as i32,
                )
            };
            if rc != 0 {
                bail!("cub::DeviceHistogram::HistogramEven returned CUDA error {rc}");
            }
        } else {
            self.hist.zero_async()?;
            let cfg = LaunchConfig::linear(histogram_grid(n, self.resident), HISTO_BLOCK)
                .with_dynamic_smem(HISTO_SMEM_BYTES);
            let shift = even_shift(LOWER, UPPER, BINS);
            let args = (&self.samples, n, LOWER, UPPER, BINS, shift, &mut self.hist);
            match self.backend {
                Backend::Gpu(g) if !sync => g.launch(&DEVICE_HISTOGRAM_EVEN, &cfg, args)?,
                b => b.launch(&DEVICE_HISTOGRAM_EVEN, &cfg, args)?,
            }
        }
        if let (true, Backend::Gpu(g)) = (sync, self.backend) {
            g.synchronize()?;
        }
        Ok(())
    }

    /// One launch on `n` samples against the host's counts: (ok, what).
    fn verify(&mut self, cub: bool, n: u32, want: &[u32]) -> Result<(bool, String)> {
        self.hist.copy_from(&[u32::MAX; BINS as usize])?;
        self.launch(cub, n, true)?;
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
    type Variant = (usize, bool);
    fn gpu(&self) -> &cg_runtime::Gpu {
        match self.backend {
            Backend::Gpu(g) => g,
            Backend::Sim(_) => unreachable!("timing runs on a GPU only"),
        }
    }
    fn launch_async(&mut self, (s, cub): (usize, bool), _reps: u32) -> Result<()> {
        self.launch(cub, SIZES[s], false)
    }
}

/// One measured (size, side).
#[derive(Clone, Debug, Serialize)]
struct Point {
    n: u32,
    side: &'static str,
    kernel: &'static str,
    ms: Summary,
    gb_per_s: f64,
    /// `None`: the driver reported no DRAM peak.
    pct_of_peak: Option<f64>,
    verified: bool,
    check: String,
}

fn name(cub: bool) -> &'static str {
    if cub {
        "cub::DeviceHistogram::HistogramEven"
    } else {
        DEVICE_HISTOGRAM_EVEN.name()
    }
}

/// Runs the experiment into `out` (on a GPU) or verifies the Rust kernel
/// on the simulator (without one).
pub fn run(a: &LabArgs, progress: &Progress) -> Result<()> {
    let backend = a.backend.open()?;
    let Backend::Gpu(gpu) = &backend else {
        let max = *SIM_SIZES.iter().max().expect("sizes");
        let data = samples(max);
        let want = models(&data, &SIM_SIZES);
        let mut b = Bench {
            backend: &backend,
            cub: None,
            samples: backend.upload(&data)?,
            hist: backend.alloc(BINS as usize)?,
            resident: 3,
        };
        let mut bad = Vec::new();
        for (n, want) in SIM_SIZES.iter().zip(&want) {
            let (ok, what) = b.verify(false, *n, want)?;
            println!(
                "verified device_histogram {:<24} n={n:<6} on the simulator: {} ({what})",
                name(false),
                if ok { "OK" } else { "FAILED" }
            );
            if !ok {
                bad.push(format!("n={n}"));
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
    let max = *SIZES.iter().max().expect("sizes");
    let data = samples(max);
    let want = models(&data, &SIZES);
    let mut b = Bench {
        backend: &backend,
        cub: Some(&cub),
        samples: backend.upload(&data)?,
        hist: backend.alloc(BINS as usize)?,
        resident,
    };
    drop(data);
    let mut checks = Vec::new();
    for (&n, want) in SIZES.iter().zip(&want) {
        for cub in [false, true] {
            progress.set_message(format!("verify device_histogram {} n={n}", name(cub)));
            let r = b
                .verify(cub, n, want)
                .with_context(|| format!("verifying {} at n = {n}", name(cub)))?;
            println!(
                "verified device_histogram {:<36} n=2^{:<2} {} ({})",
                name(cub),
                n.trailing_zeros(),
                if r.0 { "OK" } else { "FAILED" },
                r.1
            );
            checks.push(r);
        }
    }
    let order: Vec<(usize, bool)> = (0..SIZES.len())
        .flat_map(|s| [(s, false), (s, true)])
        .collect();
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
        .map(|((&(s, cub), smp), (verified, check))| {
            let n = SIZES[s];
            let ms = Summary::of(&smp);
            let gbps = n as f64 * 4.0 / (ms.median * 1e-3) / 1e9;
            Point {
                n,
                side: if cub { "cub" } else { "rust" },
                kernel: name(cub),
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
            markdown(&points, &platform, &timing_text, resident),
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
    let mut s =
        String::from("n,side,kernel,median_ms,p10_ms,p90_ms,gb_per_s,pct_of_peak,verified\n");
    for p in points {
        let _ = writeln!(
            s,
            "{},{},\"{}\",{:.6},{:.6},{:.6},{:.1},{},{}",
            p.n,
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

fn markdown(points: &[Point], p: &crate::results::Platform, timing: &str, resident: u32) -> String {
    let mut s = format!(
        "# Device-wide even histogram: the library against CUB — {}\n\nPlatform: {}\n\nCommand: `{}`\n\n",
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
         block; the counters cleared by a memset first. CUB: `cub::DeviceHistogram::HistogramEven` (nvcc, host \
         dispatch). Bandwidth: 4·n bytes / median time; {peak}. Every point verified before timing (both sides' \
         counts equal the host's). Timing: {timing}; all sizes and sides interleaved.\n"
    );
    let _ = writeln!(
        s,
        "| n | Rust GB/s | % peak | CUB GB/s | % peak | Rust ÷ CUB bandwidth | verified |"
    );
    let _ = writeln!(s, "| --- | ---: | ---: | ---: | ---: | ---: | --- |");
    for n in SIZES {
        let find = |side: &str| {
            points
                .iter()
                .find(|q| q.n == n && q.side == side)
                .expect("every point was measured")
        };
        let (r, c) = (find("rust"), find("cub"));
        let _ = writeln!(
            s,
            "| 2^{} | {:.0} | {} | {:.0} | {} | **{:.3}** | {} |",
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
