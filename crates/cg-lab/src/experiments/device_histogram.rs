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

use anyhow::{Result, bail};
use cg_kernels::device_histogram::{
    DEVICE_HISTOGRAM_EVEN, DEVICE_HISTOGRAM_RANGE, HISTO_BLOCK, HISTO_SMEM_BYTES, HISTO_TILE, U4,
    even_bin, even_shift, histogram_grid, range_bin,
};
use cg_kernels::xorshift::Xorshift;
use cg_runtime::{Backend, Buffer, Dim3, LaunchConfig};
use serde::Serialize;

use crate::harness::csv::{Column, CsvRow, ms, pct, quoted};
use crate::harness::experiment::{Experiment, Options, Outcome, Report, Verified};
use crate::harness::markdown::{both, head, ok, table_head};
use crate::harness::twin::{Twin, symbol};
use crate::reference::{DEVICE_HISTOGRAM_CU, Source};
use crate::results::{Platform, pct_cell};
use crate::stats::Summary;

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
pub enum Kind {
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

/// CUB's entry points in the library built from `device_histogram.cu`.
pub struct Cub {
    histogram: CubFn,
    range: CubRangeFn,
}

/// The inputs, the counters and the host's counts.
pub struct Bench<'a> {
    backend: &'a Backend,
    cub: Option<Cub>,
    samples: Buffer<U4>,
    levels: Buffer<u32>,
    hist: Buffer<u32>,
    resident: u32,
    sizes: Vec<u32>,
    /// Per kind, per size of `sizes`: the host's counts.
    wants: Vec<Vec<Vec<u32>>>,
}

impl Bench<'_> {
    /// One histogram of the first `n` samples into `hist`, by CUB or by
    /// the Rust kernel (after clearing `hist`).
    fn launch(&mut self, kind: Kind, cub: bool, n: u32, sync: bool) -> Result<()> {
        if cub {
            let c = self.cub.as_ref().expect("CUB runs on a GPU only");
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
}

/// (size, histogram, CUB?).
pub type Var = (u32, Kind, bool);

/// One measured (size, side).
#[derive(Clone, Debug, Serialize)]
pub struct Point {
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

impl CsvRow for Point {
    const COLUMNS: &'static [Column<Point>] = &[
        ("n", |p| p.n.to_string()),
        ("histogram", |p| p.histogram.into()),
        ("side", |p| p.side.into()),
        ("kernel", |p| quoted(p.kernel)),
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

/// The device-wide histograms against CUB.
pub struct DeviceHistogram;

impl Experiment for DeviceHistogram {
    const NAME: &'static str = "device_histogram";
    const TWIN: Source = DEVICE_HISTOGRAM_CU;
    const TIMED: &'static str = "the Rust kernel with its memset of the counters, or one CUB call: its temporary-storage query and kernels, storage allocated beforehand";
    /// Partial last tiles and vectors.
    const SIM_SIZES: &'static [u32] = &[1003, 3 * HISTO_TILE as u32 + 17];
    const WIDTH: (usize, usize) = (24, 36);
    type Variant = Var;
    type Extra = ();
    type Row = Point;
    type Bench<'a> = Bench<'a>;

    fn bench<'a>(
        backend: &'a Backend,
        twin: Option<&'a Twin>,
        sizes: &[u32],
        _: &Options<'_>,
    ) -> Result<Bench<'a>> {
        let cub = match twin.map(Twin::library).transpose()? {
            // SAFETY: the symbols have these C signatures (device_histogram.cu).
            Some(lib) => Some(unsafe {
                Cub {
                    histogram: symbol(lib, "cub_histogram_even_u32")?,
                    range: symbol(lib, "cub_histogram_range_u32")?,
                }
            }),
            None => None,
        };
        // The simulator runs a few blocks; a GPU fills itself.
        let resident = match backend {
            Backend::Gpu(gpu) => {
                let f = gpu.kernels().kernel(&DEVICE_HISTOGRAM_EVEN)?;
                gpu.max_coresident_blocks(f, Dim3::x(HISTO_BLOCK), HISTO_SMEM_BYTES)?
            }
            Backend::Sim(_) => 3,
        };
        let data = samples(*sizes.iter().max().expect("sizes"));
        Ok(Bench {
            backend,
            cub,
            wants: KINDS.iter().map(|&k| models(&data, sizes, k)).collect(),
            samples: backend.upload(&data)?,
            levels: backend.upload(&levels())?,
            hist: backend.alloc(BINS as usize)?,
            resident,
            sizes: sizes.to_vec(),
        })
    }

    fn variants(_: &Bench<'_>, sizes: &[u32], _: &Options<'_>, cpp: bool) -> Vec<Var> {
        let sides: &[bool] = if cpp { &[false, true] } else { &[false] };
        let mut v = Vec::new();
        // On a GPU size by size; the simulator kind by kind.
        if cpp {
            for &n in sizes {
                for k in KINDS {
                    v.extend(sides.iter().map(|&c| (n, k, c)));
                }
            }
        } else {
            for k in KINDS {
                v.extend(sizes.iter().map(|&n| (n, k, false)));
            }
        }
        v
    }

    fn kernel((_, kind, cub): Var) -> String {
        name(kind, cub).into()
    }

    fn n(v: Var) -> u32 {
        v.0
    }

    fn sim_label((n, kind, _): Var) -> String {
        format!("{} n={n}", kind_name(kind))
    }

    /// One timed launch, not waited for.
    fn launch(b: &mut Bench<'_>, (n, kind, cub): Var) -> Result<()> {
        b.launch(kind, cub, n, false)
    }

    fn verify(b: &mut Bench<'_>, (n, kind, cub): Var) -> Result<Verified> {
        let s = b.sizes.iter().position(|&m| m == n).expect("a size");
        let k = KINDS.iter().position(|&k| k == kind).expect("a kind");
        b.hist.copy_from(&[u32::MAX; BINS as usize])?;
        b.launch(kind, cub, n, true)?;
        let got = b.hist.to_vec()?;
        let want = &b.wants[k][s];
        Ok(match (0..want.len()).find(|&i| got[i] != want[i]) {
            None => Verified::new(true, format!("{BINS} bins equal the host's counts")),
            Some(i) => Verified::new(
                false,
                format!("bin {i} counts {}, host {}", got[i], want[i]),
            ),
        })
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
            .map(|((&(n, kind, cub), ms), c)| {
                let gbps = n as f64 * 4.0 / (ms.median * 1e-3) / 1e9;
                Point {
                    n,
                    histogram: kind_name(kind),
                    side: if cub { "cub" } else { "rust" },
                    kernel: name(kind, cub),
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
        let mut s = head(
            "Device-wide even and range histograms: the library against CUB",
            r.platform,
        );
        let (peak, timing, resident) = (r.platform.peak_text(), r.timing, r.bench.resident);
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
        s += &table_head(&[
            ("histogram", false),
            ("n", false),
            ("Rust GB/s", true),
            ("% peak", true),
            ("CUB GB/s", true),
            ("% peak", true),
            ("Rust ÷ CUB bandwidth", true),
            ("verified", false),
        ]);
        for kind in KINDS {
            for &n in r.sizes {
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
                    both(r.verified, c.verified)
                );
            }
        }
        s
    }

    fn line(p: &Point) -> String {
        format!(
            "device_histogram {:<36} n=2^{:<2} {:>9.4} ms {:>7.1} GB/s {:>7} of peak  {}",
            p.kernel,
            p.n.trailing_zeros(),
            p.ms.median,
            p.gb_per_s,
            pct_cell(p.pct_of_peak),
            ok(p.verified)
        )
    }
}
