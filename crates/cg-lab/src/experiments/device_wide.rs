//! `cg-lab compare --only device_wide`: device-wide sum, inclusive
//! prefix sum and segmented sum written with the library
//! (`cg_kernels::device_wide`: each warp's 2 KiB chunks + `GridGroup::reduce`; a
//! single-pass scan with decoupled look-back;
//! `cg_kernels::device_segmented_reduce`: a block per segment) against
//! CUB's `DeviceReduce::Sum`, `DeviceScan::InclusiveSum` and
//! `DeviceSegmentedReduce::Sum`, `i32` and `f32`, 2^20 to 2^28 elements
//! (or the sizes of `--sizes`), as bandwidth (bytes moved / median time)
//! and % of the GPU's DRAM peak (2 × memory clock × bus width, from the
//! driver: 4.81 TB/s on an H200).
//!
//! CUB is host-dispatched, so `reference/cuda/device_wide.cu` (embedded) is
//! built with nvcc into a shared library and called through C entry points
//! on the legacy default stream, the one the lab's launches and events use.
//! Every (size, type, algorithm, side) is verified before timing (the
//! segmented sums exactly, both types): `i32`
//! exactly (wrapping), `f32` against the exact sum within the rounding
//! bound of a sum whose longest chain of roundings has `k` additions,
//! `|err| ≤ k · 2⁻²⁴ · Σ|xᵢ|`, with `k = n/512 + 64` (any order whose
//! sequential runs are at most n/512 long and whose tree depth is below 64:
//! both sides' orders are; the data, small integers whose running sums stay
//! below 2²⁴, make both exact in practice, and the report gives the largest
//! error seen). Without a GPU the Rust kernels are verified on the
//! simulator at small sizes and nothing is timed.

use std::fmt::Write as _;

use anyhow::{Context, Result, bail};
use cg_kernels::device_segmented_reduce::{
    DEVICE_SEGMENTED_REDUCE_F32, DEVICE_SEGMENTED_REDUCE_I32, SEG_BLOCK, segmented_model,
};
use cg_kernels::device_wide::{
    BLOCK, DEVICE_REDUCE_F32, DEVICE_REDUCE_I32, DEVICE_SCAN_F32, DEVICE_SCAN_I32, SCAN_BLOCK,
    SCAN_SMEM_BYTES, SCAN_TILE, scan_grid, scan_tiles,
};
use cg_runtime::{Backend, Buffer, Dim3, LaunchConfig};
use serde::Serialize;

use crate::harness::csv::{Column, CsvRow, ms, pct, quoted};
use crate::harness::experiment::{Experiment, Options, Outcome, Report, Verified};
use crate::harness::markdown::{both, head, ok, table_head};
use crate::harness::twin::{Twin, symbol};
use crate::reference::{DEVICE_WIDE_CU, Source};
use crate::results::{Platform, pct_cell};
use crate::stats::Summary;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Algo {
    Reduce,
    Scan,
    /// One sum per segment (segments of 1–2048 elements, 1024 on average).
    Segmented,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Ty {
    I32,
    F32,
}

/// One (algorithm, type, side).
#[derive(Clone, Copy, Debug)]
struct Var {
    algo: Algo,
    ty: Ty,
    cub: bool,
}

const fn var(algo: Algo, ty: Ty, cub: bool) -> Var {
    Var { algo, ty, cub }
}

/// Every variant at one size, in timing order (each Rust side before its
/// CUB twin).
const VARS: [Var; 12] = [
    var(Algo::Reduce, Ty::I32, false),
    var(Algo::Reduce, Ty::I32, true),
    var(Algo::Reduce, Ty::F32, false),
    var(Algo::Reduce, Ty::F32, true),
    var(Algo::Scan, Ty::I32, false),
    var(Algo::Scan, Ty::I32, true),
    var(Algo::Scan, Ty::F32, false),
    var(Algo::Scan, Ty::F32, true),
    var(Algo::Segmented, Ty::I32, false),
    var(Algo::Segmented, Ty::I32, true),
    var(Algo::Segmented, Ty::F32, false),
    var(Algo::Segmented, Ty::F32, true),
];

impl Var {
    fn name(&self) -> &'static str {
        match (self.algo, self.ty, self.cub) {
            (Algo::Reduce, Ty::I32, false) => DEVICE_REDUCE_I32.name(),
            (Algo::Reduce, Ty::F32, false) => DEVICE_REDUCE_F32.name(),
            (Algo::Scan, Ty::I32, false) => DEVICE_SCAN_I32.name(),
            (Algo::Scan, Ty::F32, false) => DEVICE_SCAN_F32.name(),
            (Algo::Reduce, Ty::I32, true) => "cub::DeviceReduce::Sum<int>",
            (Algo::Reduce, Ty::F32, true) => "cub::DeviceReduce::Sum<float>",
            (Algo::Scan, Ty::I32, true) => "cub::DeviceScan::InclusiveSum<int>",
            (Algo::Scan, Ty::F32, true) => "cub::DeviceScan::InclusiveSum<float>",
            (Algo::Segmented, Ty::I32, false) => DEVICE_SEGMENTED_REDUCE_I32.name(),
            (Algo::Segmented, Ty::F32, false) => DEVICE_SEGMENTED_REDUCE_F32.name(),
            (Algo::Segmented, Ty::I32, true) => "cub::DeviceSegmentedReduce::Sum<int>",
            (Algo::Segmented, Ty::F32, true) => "cub::DeviceSegmentedReduce::Sum<float>",
        }
    }
    /// Bytes moved for `n` elements: the reduce reads them, the scan reads
    /// and writes them, the segmented sum reads them and its `segments + 1`
    /// offsets and writes its `segments` sums.
    fn bytes(&self, n: u32, segments: u32) -> f64 {
        match self.algo {
            Algo::Reduce => 4.0 * n as f64,
            Algo::Scan => 8.0 * n as f64,
            Algo::Segmented => 4.0 * n as f64 + 8.0 * segments as f64 + 4.0,
        }
    }
}

/// The offsets of the segmented sum over `n` elements: segment `s` has
/// `1 + (s · 2654435761 mod 2^32) mod 2048` elements (1 to 2048, 1024 on
/// average, spread without pattern), the last one cut at `n`.
fn segment_offsets(n: u32) -> Vec<u32> {
    let mut o = vec![0u32];
    let mut s = 0u32;
    while *o.last().expect("offsets") < n {
        let len = 1 + (s.wrapping_mul(2_654_435_761) >> 7) % 2048;
        o.push(o.last().expect("offsets").saturating_add(len).min(n));
        s += 1;
    }
    o
}

/// Element `i` of the input: `((7i + 3) mod 23) − 11`, small integers whose
/// every period of 23 sums to 0 (running sums stay small, so `f32` sums of
/// contiguous runs are exact).
fn elem(i: u32) -> i32 {
    ((i as u64 * 7 + 3) % 23) as i32 - 11
}

type CubFn<T> = unsafe extern "C" fn(*const T, *mut T, i32) -> i32;
/// `(input, out, segments, offsets)`: segment `s` is `offsets[s] .. offsets[s + 1]`.
type CubSegFn<T> = unsafe extern "C" fn(*const T, *mut T, i32, *const u32) -> i32;

/// CUB's entry points in the shared library built from `device_wide.cu`.
pub struct Cub {
    reduce_i32: CubFn<i32>,
    reduce_f32: CubFn<f32>,
    scan_i32: CubFn<i32>,
    scan_f32: CubFn<f32>,
    seg_i32: CubSegFn<i32>,
    seg_f32: CubSegFn<f32>,
}

/// The inputs, outputs and tile states, and the segmented sum's offsets.
pub struct Bench<'a> {
    backend: &'a Backend,
    cub: Option<Cub>,
    in_i: Buffer<i32>,
    in_f: Buffer<f32>,
    out_i: Buffer<i32>,
    out_f: Buffer<f32>,
    sum_i: Buffer<i32>,
    sum_f: Buffer<f32>,
    states: Buffer<u64>,
    /// The segmented sums' outputs (the most segments of any size).
    seg_i: Buffer<i32>,
    seg_f: Buffer<f32>,
    /// The segmented sum's input, per size.
    segments: Vec<Segments>,
    /// The reduce's cooperative grid: as many blocks as fit at once (3 on
    /// the simulator).
    reduce_grid: u32,
    epoch: u32,
}

/// The segmented sum of the first `n` elements.
struct Segments {
    n: u32,
    /// [`segment_offsets`]`(n)`, on the device.
    offsets: Buffer<u32>,
    /// Segments: `offsets.len() − 1`.
    count: u32,
    /// Each segment's sum (the host's, made once with the input).
    want: Vec<i32>,
}

/// The segmented sum of `n` elements among `segments` (a [`Bench`]'s).
fn segments_of(segments: &[Segments], n: u32) -> Result<&Segments> {
    segments
        .iter()
        .find(|g| g.n == n)
        .with_context(|| format!("no segment offsets for n = {n}"))
}

impl Bench<'_> {
    fn next_epoch(&mut self) -> u32 {
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch & 0x3fff_ffff == 0 {
            self.epoch = self.epoch.wrapping_add(1);
        }
        self.epoch
    }

    fn launch(&mut self, v: Var, n: u32, sync: bool) -> Result<()> {
        let reduce_cfg = LaunchConfig::linear(self.reduce_grid, BLOCK).with_cooperative(true);
        let scan_cfg =
            LaunchConfig::linear(scan_grid(n), SCAN_BLOCK).with_dynamic_smem(SCAN_SMEM_BYTES);
        if v.cub {
            let cub = self.cub.as_ref().context("CUB runs on a GPU only")?;
            // SAFETY: device buffers of at least `n` elements (and one for the sum).
            let rc = unsafe {
                match (v.algo, v.ty) {
                    (Algo::Reduce, Ty::I32) => {
                        (cub.reduce_i32)(self.in_i.as_ptr(), self.sum_i.as_ptr(), n as i32)
                    }
                    (Algo::Reduce, Ty::F32) => {
                        (cub.reduce_f32)(self.in_f.as_ptr(), self.sum_f.as_ptr(), n as i32)
                    }
                    (Algo::Scan, Ty::I32) => {
                        (cub.scan_i32)(self.in_i.as_ptr(), self.out_i.as_ptr(), n as i32)
                    }
                    (Algo::Scan, Ty::F32) => {
                        (cub.scan_f32)(self.in_f.as_ptr(), self.out_f.as_ptr(), n as i32)
                    }
                    (Algo::Segmented, ty) => {
                        let g = segments_of(&self.segments, n)?;
                        let (o, k) = (g.offsets.as_ptr().cast_const(), g.count);
                        match ty {
                            Ty::I32 => {
                                (cub.seg_i32)(self.in_i.as_ptr(), self.seg_i.as_ptr(), k as i32, o)
                            }
                            Ty::F32 => {
                                (cub.seg_f32)(self.in_f.as_ptr(), self.seg_f.as_ptr(), k as i32, o)
                            }
                        }
                    }
                }
            };
            if rc != 0 {
                bail!("{} returned CUDA error {rc}", v.name());
            }
            if let (true, Backend::Gpu(g)) = (sync, self.backend) {
                g.synchronize()?;
            }
            return Ok(());
        }
        let epoch = self.next_epoch();
        let (b, sync) = (self.backend, sync);
        // Every launch below: the device-wide kernels read `n` elements of
        // `input`, write `n` of `output` (the scans) or one total, and use
        // the tile-state and partial buffers this struct sized for the grid:
        // this backend's buffers, alive across the launch.
        macro_rules! go {
            ($k:expr, $cfg:expr, $args:expr) => {
                // SAFETY: the buffers above, as the kernel uses them.
                unsafe {
                    match b {
                        Backend::Gpu(g) if !sync => g.launch_unchecked(&$k, &$cfg, $args)?,
                        _ => b.launch_unchecked(&$k, &$cfg, $args)?,
                    }
                }
            };
        }
        if v.algo == Algo::Segmented {
            // Typed parameters: a safe launch, one block per segment.
            let g = segments_of(&self.segments, n)?;
            let (o, cfg) = (&g.offsets, LaunchConfig::linear(g.count, SEG_BLOCK));
            match v.ty {
                Ty::I32 => {
                    let args = (&self.in_i, o, &mut self.seg_i);
                    match b {
                        Backend::Gpu(g) if !sync => {
                            g.launch(&DEVICE_SEGMENTED_REDUCE_I32, &cfg, args)?
                        }
                        _ => b.launch(&DEVICE_SEGMENTED_REDUCE_I32, &cfg, args)?,
                    }
                }
                Ty::F32 => {
                    let args = (&self.in_f, o, &mut self.seg_f);
                    match b {
                        Backend::Gpu(g) if !sync => {
                            g.launch(&DEVICE_SEGMENTED_REDUCE_F32, &cfg, args)?
                        }
                        _ => b.launch(&DEVICE_SEGMENTED_REDUCE_F32, &cfg, args)?,
                    }
                }
            }
            return Ok(());
        }
        match (v.algo, v.ty) {
            (Algo::Reduce, Ty::I32) => go!(
                DEVICE_REDUCE_I32,
                reduce_cfg,
                (self.in_i.as_ptr().cast_const(), self.sum_i.as_ptr(), n)
            ),
            (Algo::Reduce, Ty::F32) => go!(
                DEVICE_REDUCE_F32,
                reduce_cfg,
                (self.in_f.as_ptr().cast_const(), self.sum_f.as_ptr(), n)
            ),
            (Algo::Scan, Ty::I32) => go!(
                DEVICE_SCAN_I32,
                scan_cfg,
                (
                    self.in_i.as_ptr().cast_const(),
                    self.out_i.as_ptr(),
                    self.states.as_ptr(),
                    n,
                    epoch
                )
            ),
            (Algo::Scan, Ty::F32) => go!(
                DEVICE_SCAN_F32,
                scan_cfg,
                (
                    self.in_f.as_ptr().cast_const(),
                    self.out_f.as_ptr(),
                    self.states.as_ptr(),
                    n,
                    epoch
                )
            ),
            (Algo::Segmented, _) => unreachable!("launched above"),
        }
        Ok(())
    }

    /// One launch of `v` on `n` elements, checked; returns (ok, what, max error).
    fn verify(&mut self, v: Var, n: u32) -> Result<(bool, String, f64)> {
        self.sum_i.zero()?;
        self.sum_f.zero()?;
        self.launch(v, n, true)?;
        let k = (n / 512 + 64) as f64;
        let u = f64::powi(2.0, -24);
        Ok(match (v.algo, v.ty) {
            (Algo::Reduce, Ty::I32) => {
                let want = (0..n).fold(0i32, |a, i| a.wrapping_add(elem(i)));
                let got = self.sum_i.to_vec()?[0];
                (
                    got == want,
                    format!("sum {got} vs {want} (exact)"),
                    (got as f64 - want as f64).abs(),
                )
            }
            (Algo::Reduce, Ty::F32) => {
                let want: f64 = (0..n).map(|i| elem(i) as f64).sum();
                let abs: f64 = (0..n).map(|i| elem(i).unsigned_abs() as f64).sum();
                let got = self.sum_f.to_vec()?[0] as f64;
                let err = (got - want).abs();
                let tol = k * u * abs;
                (
                    err <= tol,
                    format!("sum {got} vs {want}, |err| {err} ≤ {tol:.3e}"),
                    err,
                )
            }
            (Algo::Scan, Ty::I32) => {
                let got = self.out_i.to_vec()?;
                let mut acc = 0i32;
                let mut bad = None;
                for i in 0..n {
                    acc = acc.wrapping_add(elem(i));
                    if got[i as usize] != acc && bad.is_none() {
                        bad = Some((i, got[i as usize], acc));
                    }
                }
                match bad {
                    None => (true, format!("{n} prefix sums exact"), 0.0),
                    Some((i, g, w)) => (false, format!("out[{i}] = {g}, want {w}"), f64::INFINITY),
                }
            }
            (Algo::Scan, Ty::F32) => {
                let got = self.out_f.to_vec()?;
                let (mut acc, mut abs, mut worst, mut bad) = (0f64, 0f64, 0f64, None);
                for i in 0..n {
                    acc += elem(i) as f64;
                    abs += elem(i).unsigned_abs() as f64;
                    let err = (got[i as usize] as f64 - acc).abs();
                    worst = worst.max(err);
                    if err > k * u * abs && bad.is_none() {
                        bad = Some((i, got[i as usize], acc));
                    }
                }
                match bad {
                    None => (true, format!("{n} prefix sums, max |err| {worst}"), worst),
                    Some((i, g, w)) => (false, format!("out[{i}] = {g}, want {w}"), worst),
                }
            }
            (Algo::Segmented, ty) => {
                // Every segment's sum exactly: the elements are small
                // integers, so `f32` sums of at most 2048 are exact in any
                // order.
                let g = segments_of(&self.segments, n)?;
                let (want, k) = (&g.want, g.count);
                let got: Vec<i32> = match ty {
                    Ty::I32 => self.seg_i.to_vec()?[..k as usize].to_vec(),
                    Ty::F32 => self.seg_f.to_vec()?[..k as usize]
                        .iter()
                        .map(|&x| x as i32)
                        .collect(),
                };
                match (0..k as usize).find(|&s| got[s] != want[s]) {
                    None => (true, format!("{k} segment sums exact"), 0.0),
                    Some(s) => (
                        false,
                        format!("out[{s}] = {}, want {}", got[s], want[s]),
                        f64::INFINITY,
                    ),
                }
            }
        })
    }
}

/// One measured (size, variant).
#[derive(Clone, Debug, Serialize)]
pub struct Point {
    n: u32,
    algo: Algo,
    ty: Ty,
    side: &'static str,
    kernel: &'static str,
    ms: Summary,
    gb_per_s: f64,
    /// `None`: the driver reported no DRAM peak.
    pct_of_peak: Option<f64>,
    verified: bool,
    check: String,
    max_abs_err: f64,
}

impl CsvRow for Point {
    const COLUMNS: &'static [Column<Point>] = &[
        ("n", |p| p.n.to_string()),
        ("algo", |p| format!("{:?}", p.algo)),
        ("type", |p| format!("{:?}", p.ty)),
        ("side", |p| p.side.into()),
        ("kernel", |p| quoted(p.kernel)),
        ("median_ms", |p| ms(p.ms.median)),
        ("p10_ms", |p| ms(p.ms.p10)),
        ("p90_ms", |p| ms(p.ms.p90)),
        ("gb_per_s", |p| format!("{:.1}", p.gb_per_s)),
        ("pct_of_peak", |p| pct(p.pct_of_peak)),
        ("verified", |p| p.verified.to_string()),
        ("max_abs_err", |p| p.max_abs_err.to_string()),
    ];
}

impl Outcome for Point {
    fn failure(&self) -> Option<String> {
        (!self.verified).then(|| format!("{} n={} ({})", self.kernel, self.n, self.check))
    }
}

/// Device-wide reduce, scan and segmented sum against CUB.
pub struct DeviceWide;

impl Experiment for DeviceWide {
    const NAME: &'static str = "device_wide";
    const TWIN: Source = DEVICE_WIDE_CU;
    const TIMED: &'static str = "the Rust kernel, or one CUB call: its temporary-storage query and kernels, storage allocated beforehand";
    /// A partial last tile and vector tail included.
    const SIM_SIZES: &'static [u32] = &[1003, 3 * SCAN_TILE as u32 + 17];
    const WIDTH: (usize, usize) = (30, 36);
    /// (size, index into [`VARS`]).
    type Variant = (u32, usize);
    /// The largest error seen.
    type Extra = f64;
    type Row = Point;
    type Bench<'a> = Bench<'a>;

    fn bench<'a>(
        backend: &'a Backend,
        twin: Option<&'a Twin>,
        sizes: &[u32],
        opts: &Options<'_>,
    ) -> Result<Bench<'a>> {
        let cub = match twin.map(Twin::library).transpose()? {
            // SAFETY: the symbols have these C signatures (device_wide.cu).
            Some(lib) => Some(unsafe {
                Cub {
                    reduce_i32: symbol(lib, "cub_reduce_sum_i32")?,
                    reduce_f32: symbol(lib, "cub_reduce_sum_f32")?,
                    scan_i32: symbol(lib, "cub_inclusive_sum_i32")?,
                    scan_f32: symbol(lib, "cub_inclusive_sum_f32")?,
                    seg_i32: symbol(lib, "cub_segmented_sum_i32")?,
                    seg_f32: symbol(lib, "cub_segmented_sum_f32")?,
                }
            }),
            None => None,
        };
        // On a GPU: the lab's `--n` memory check, and the reduce's
        // cooperative grid (as many blocks of both types as fit at once).
        let reduce_grid = match backend {
            Backend::Gpu(gpu) => {
                crate::preflight::check_n(backend, opts.n)?;
                let f_i = gpu.kernels().kernel(&DEVICE_REDUCE_I32)?;
                let f_f = gpu.kernels().kernel(&DEVICE_REDUCE_F32)?;
                gpu.max_coresident_blocks(f_i, Dim3::x(BLOCK), 0)?
                    .min(gpu.max_coresident_blocks(f_f, Dim3::x(BLOCK), 0)?)
            }
            Backend::Sim(_) => 3,
        };
        let max = *sizes.iter().max().context("sizes")?;
        let ints: Vec<i32> = (0..max).map(elem).collect();
        let segments = sizes
            .iter()
            .map(|&n| {
                let o = segment_offsets(n);
                let mut want = vec![0; o.len() - 1];
                segmented_model(&ints, &o, &mut want);
                Ok(Segments {
                    n,
                    offsets: backend.upload(&o)?,
                    count: want.len() as u32,
                    want,
                })
            })
            .collect::<Result<Vec<_>>>()?;
        let most = segments.iter().map(|g| g.count).max().unwrap_or(0).max(1) as usize;
        let floats: Vec<f32> = ints.iter().map(|&x| x as f32).collect();
        Ok(Bench {
            backend,
            cub,
            in_i: backend.upload(&ints)?,
            in_f: backend.upload(&floats)?,
            out_i: backend.alloc(max as usize)?,
            out_f: backend.alloc(max as usize)?,
            sum_i: backend.alloc(1)?,
            sum_f: backend.alloc(1)?,
            states: backend.alloc(scan_tiles(max).max(1) as usize)?,
            seg_i: backend.alloc(most)?,
            seg_f: backend.alloc(most)?,
            segments,
            reduce_grid,
            epoch: 0,
        })
    }

    fn variants(_: &Bench<'_>, sizes: &[u32], _: &Options<'_>, cpp: bool) -> Vec<(u32, usize)> {
        sizes
            .iter()
            .flat_map(|&n| (0..VARS.len()).map(move |v| (n, v)))
            .filter(|&(_, v)| cpp || !VARS[v].cub)
            .collect()
    }

    fn kernel((_, v): (u32, usize)) -> String {
        VARS[v].name().into()
    }

    fn n(v: (u32, usize)) -> u32 {
        v.0
    }

    /// One timed launch, not waited for.
    fn launch(b: &mut Bench<'_>, (n, v): (u32, usize)) -> Result<()> {
        b.launch(VARS[v], n, false)
    }

    fn verify(b: &mut Bench<'_>, (n, v): (u32, usize)) -> Result<Verified<f64>> {
        let (ok, what, extra) = b.verify(VARS[v], n)?;
        Ok(Verified { ok, what, extra })
    }

    fn rows(
        b: &Bench<'_>,
        vars: &[(u32, usize)],
        ms: Vec<Summary>,
        checks: Vec<Verified<f64>>,
        platform: &Platform,
    ) -> Vec<Point> {
        vars.iter()
            .zip(ms)
            .zip(checks)
            .map(|((&(n, v), ms), c)| {
                let var = VARS[v];
                let segments = segments_of(&b.segments, n).map_or(0, |g| g.count);
                let gbps = var.bytes(n, segments) / (ms.median * 1e-3) / 1e9;
                Point {
                    n,
                    algo: var.algo,
                    ty: var.ty,
                    side: if var.cub { "cub" } else { "rust" },
                    kernel: var.name(),
                    ms,
                    gb_per_s: gbps,
                    pct_of_peak: platform.pct_of_peak(gbps * 1e9),
                    verified: c.ok,
                    check: c.what,
                    max_abs_err: c.extra,
                }
            })
            .collect()
    }

    fn markdown(points: &[Point], r: &Report<'_, Bench<'_>>) -> String {
        let mut s = head(
            "Device-wide reduce and scan: the library against CUB",
            r.platform,
        );
        let (peak, timing, grid) = (r.platform.peak_text(), r.timing, r.bench.reduce_grid);
        let _ = writeln!(
            s,
            "Rust reduce: one cooperative launch of {grid} blocks × {BLOCK} threads, each warp summing chunks of 2 KiB (16-byte loads) in turn, \
             `GridGroup::reduce`. Rust scan: single pass, decoupled look-back, one block of {SCAN_BLOCK} threads per tile of \
             {SCAN_TILE} elements staged in shared memory (`memcpy_async`). Rust segmented sum: one block of {SEG_BLOCK} threads per segment \
             (segments of 1–2048 elements, 1024 on average; typed parameters, a safe launch). CUB: `cub::DeviceReduce::Sum`, \
             `cub::DeviceScan::InclusiveSum`, `cub::DeviceSegmentedReduce::Sum` (nvcc, host dispatch). \
             Bandwidth: reduce 4·n bytes, scan 8·n bytes (read + write), segmented sum 4·n bytes + its offsets and sums / median time; {peak}. \
             Every point verified before timing (`i32` exact; `f32` within k·2⁻²⁴·Σ|x|, k = n/512 + 64). Timing: {timing}; \
             all sizes and variants interleaved.\n"
        );
        for algo in [Algo::Reduce, Algo::Scan, Algo::Segmented] {
            for ty in [Ty::I32, Ty::F32] {
                let _ = writeln!(s, "\n## {algo:?} {ty:?}\n");
                s += &table_head(&[
                    ("n", false),
                    ("Rust GB/s", true),
                    ("% peak", true),
                    ("CUB GB/s", true),
                    ("% peak", true),
                    ("Rust ÷ CUB bandwidth", true),
                    ("verified", false),
                ]);
                for &n in r.sizes {
                    let find = |side: &str| {
                        points
                            .iter()
                            .find(|p| p.n == n && p.algo == algo && p.ty == ty && p.side == side)
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
                        both(r.verified, c.verified)
                    );
                }
            }
        }
        s
    }

    fn line(p: &Point) -> String {
        format!(
            "device_wide {:<36} n=2^{:<2} {:>9.4} ms {:>7.1} GB/s {:>7} of peak  {}",
            p.kernel,
            p.n.trailing_zeros(),
            p.ms.median,
            p.gb_per_s,
            pct_cell(p.pct_of_peak),
            ok(p.verified)
        )
    }
}
