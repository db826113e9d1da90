//! `cg-lab compare --only device_select`: the device-wide selections,
//! partitions and run-length encoding written with the library
//! (`cg_kernels::device_select`, `cg_kernels::device_rle`: warp ballots,
//! the device scan's decoupled look-back) against CUB's
//! `DeviceSelect::Flagged`, `If`, `Unique`, `DevicePartition::Flagged`,
//! `If` and `DeviceRunLengthEncode::Encode`, 2^20 to 2^28 `i32` (or the
//! sizes of `--sizes`), as elements per second and bandwidth (bytes read
//! and written / median time) with % of the GPU's DRAM peak.
//!
//! The input is runs of 1 to 8 equal values (uniform over `[-500, 500)`):
//! `Unique` keeps about 2 in 9 (and the encoding writes as many runs,
//! each a value and a length); the flags (one byte each) keep about half,
//! and so does `If` (`x < 0`). Every (size, selection, side) is checked
//! against the host's selection (or runs), element for element and the count,
//! before timing (so both sides' outputs are equal). Without a GPU the
//! Rust kernels are verified on the simulator at small sizes and nothing
//! is timed.

use std::fmt::Write as _;

use anyhow::{Context, Result, bail};
use cg_kernels::device_rle::{
    DEVICE_RLE_ENCODE_I32, RLE_BLOCK, RLE_SMEM_BYTES, RLE_TILE, rle_grid,
};
use cg_kernels::device_select::{
    DEVICE_PARTITION_FLAGGED_I32, DEVICE_PARTITION_IF_I32, DEVICE_SELECT_FLAGGED_I32,
    DEVICE_SELECT_IF_I32, DEVICE_SELECT_UNIQUE_I32, PARTITION_TILE, SELECT_BLOCK, SELECT_TILE,
    partition_grid, partition_smem, select_grid, select_smem,
};
use cg_kernels::xorshift::Xorshift;
use cg_runtime::{Backend, Buffer, LaunchConfig};
use serde::Serialize;

use crate::harness::csv::{Column, CsvRow, ms, pct, quoted};
use crate::harness::experiment::{Experiment, Options, Outcome, Report, Verified};
use crate::harness::markdown::{both, head, ok, table_head};
use crate::harness::twin::{Twin, symbol};
use crate::reference::{DEVICE_SELECT_CU, Source};
use crate::results::{Platform, pct_cell};
use crate::stats::Summary;

/// `If` selects `x < PIVOT`.
const PIVOT: i32 = 0;

/// Which selection.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Algo {
    Flagged,
    If,
    Unique,
    RunLengthEncode,
    PartitionFlagged,
    PartitionIf,
}

const ALGOS: [Algo; 6] = [
    Algo::Flagged,
    Algo::If,
    Algo::Unique,
    Algo::RunLengthEncode,
    Algo::PartitionFlagged,
    Algo::PartitionIf,
];

fn name(algo: Algo, cub: bool) -> &'static str {
    match (algo, cub) {
        (Algo::Flagged, false) => DEVICE_SELECT_FLAGGED_I32.name(),
        (Algo::If, false) => DEVICE_SELECT_IF_I32.name(),
        (Algo::Unique, false) => DEVICE_SELECT_UNIQUE_I32.name(),
        (Algo::RunLengthEncode, false) => DEVICE_RLE_ENCODE_I32.name(),
        (Algo::PartitionFlagged, false) => DEVICE_PARTITION_FLAGGED_I32.name(),
        (Algo::PartitionIf, false) => DEVICE_PARTITION_IF_I32.name(),
        (Algo::Flagged, true) => "cub::DeviceSelect::Flagged<int>",
        (Algo::If, true) => "cub::DeviceSelect::If<int, x < 0>",
        (Algo::Unique, true) => "cub::DeviceSelect::Unique<int>",
        (Algo::RunLengthEncode, true) => "cub::DeviceRunLengthEncode::Encode<int>",
        (Algo::PartitionFlagged, true) => "cub::DevicePartition::Flagged<int>",
        (Algo::PartitionIf, true) => "cub::DevicePartition::If<int, x < 0>",
    }
}

/// The input and the flags: a xorshift stream.
fn data(n: u32) -> (Vec<i32>, Vec<u8>) {
    let mut x = Xorshift::new(0x9e37_79b9_7f4a_7c15);
    let mut next = move || x.next() >> 11;
    let mut input = Vec::with_capacity(n as usize + 8);
    while input.len() < n as usize {
        let v = (next() % 1000) as i32 - 500;
        for _ in 0..1 + next() % 8 {
            input.push(v);
        }
    }
    input.truncate(n as usize);
    let flags = (0..n).map(|_| (next() & 1) as u8).collect();
    (input, flags)
}

/// Whether the host selects element `i` of the first `n`.
fn keep(algo: Algo, input: &[i32], flags: &[u8], i: usize) -> bool {
    match algo {
        Algo::Flagged | Algo::PartitionFlagged => flags[i] != 0,
        Algo::If | Algo::PartitionIf => input[i] < PIVOT,
        Algo::Unique | Algo::RunLengthEncode => i == 0 || input[i] != input[i - 1],
    }
}

type FlaggedFn = unsafe extern "C" fn(*const i32, *const u8, *mut i32, *mut u32, i32) -> i32;
type IfFn = unsafe extern "C" fn(*const i32, i32, *mut i32, *mut u32, i32) -> i32;
type UniqueFn = unsafe extern "C" fn(*const i32, *mut i32, *mut u32, i32) -> i32;
type RleFn = unsafe extern "C" fn(*const i32, *mut i32, *mut u32, *mut u32, i32) -> i32;

/// CUB's entry points in the library built from `device_select.cu`.
pub struct Cub {
    flagged: FlaggedFn,
    select_if: IfFn,
    unique: UniqueFn,
    rle: RleFn,
    partition_flagged: FlaggedFn,
    partition_if: IfFn,
}

/// The inputs (on the device and the host), the outputs, the tile states.
pub struct Bench<'a> {
    backend: &'a Backend,
    cub: Option<Cub>,
    /// The host's input and flags, for the checks.
    host: (Vec<i32>, Vec<u8>),
    input: Buffer<i32>,
    flags: Buffer<u8>,
    out: Buffer<i32>,
    /// The runs' lengths (run-length encoding).
    lengths: Buffer<u32>,
    count: Buffer<u32>,
    states: Buffer<u64>,
    /// The encoding's second tile states (its last heads).
    head_states: Buffer<u64>,
    epoch: u32,
}

impl Bench<'_> {
    fn next_epoch(&mut self) -> u32 {
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch & 0x3fff_ffff == 0 {
            self.epoch = self.epoch.wrapping_add(1);
        }
        self.epoch
    }

    fn launch(&mut self, algo: Algo, cub: bool, n: u32, sync: bool) -> Result<()> {
        let (i, f, o, c, s) = (
            self.input.as_ptr().cast_const(),
            self.flags.as_ptr().cast_const(),
            self.out.as_ptr(),
            self.count.as_ptr(),
            self.states.as_ptr(),
        );
        let (l, h) = (self.lengths.as_ptr(), self.head_states.as_ptr());
        if cub {
            let cb = self.cub.as_ref().context("CUB runs on a GPU only")?;
            // SAFETY: device buffers of at least `n` inputs, flags and
            // outputs, and one count.
            let rc = unsafe {
                match algo {
                    Algo::Flagged => (cb.flagged)(i, f, o, c, n as i32),
                    Algo::If => (cb.select_if)(i, PIVOT, o, c, n as i32),
                    Algo::Unique => (cb.unique)(i, o, c, n as i32),
                    Algo::RunLengthEncode => (cb.rle)(i, o, l, c, n as i32),
                    Algo::PartitionFlagged => (cb.partition_flagged)(i, f, o, c, n as i32),
                    Algo::PartitionIf => (cb.partition_if)(i, PIVOT, o, c, n as i32),
                }
            };
            if rc != 0 {
                bail!("{} returned CUDA error {rc}", name(algo, true));
            }
            if let (true, Backend::Gpu(g)) = (sync, self.backend) {
                g.synchronize()?;
            }
            return Ok(());
        }
        let epoch = self.next_epoch();
        let cfg = match algo {
            Algo::RunLengthEncode => {
                LaunchConfig::linear(rle_grid(n), RLE_BLOCK).with_dynamic_smem(RLE_SMEM_BYTES)
            }
            Algo::Flagged | Algo::If | Algo::Unique => {
                LaunchConfig::linear(select_grid(n), SELECT_BLOCK)
                    .with_dynamic_smem(select_smem(algo == Algo::Flagged))
            }
            Algo::PartitionFlagged | Algo::PartitionIf => {
                LaunchConfig::linear(partition_grid(n), SELECT_BLOCK)
                    .with_dynamic_smem(partition_smem(algo == Algo::PartitionFlagged))
            }
        };
        let b = self.backend;
        // Every launch below: `n` inputs (and flags), room for `n` outputs
        // (and `n` lengths), one count and a tile state per block (in each
        // array), this backend's buffers, alive across the launch.
        macro_rules! go {
            ($k:expr, $args:expr) => {
                // SAFETY: the buffers above, as the kernel uses them.
                unsafe {
                    match b {
                        Backend::Gpu(g) if !sync => g.launch_unchecked(&$k, &cfg, $args)?,
                        _ => b.launch_unchecked(&$k, &cfg, $args)?,
                    }
                }
            };
        }
        match algo {
            Algo::Flagged => go!(DEVICE_SELECT_FLAGGED_I32, (i, f, o, c, s, n, epoch)),
            Algo::If => go!(DEVICE_SELECT_IF_I32, (i, PIVOT, o, c, s, n, epoch)),
            Algo::Unique => go!(DEVICE_SELECT_UNIQUE_I32, (i, o, c, s, n, epoch)),
            Algo::RunLengthEncode => go!(DEVICE_RLE_ENCODE_I32, (i, o, l, c, s, h, n, epoch)),
            Algo::PartitionFlagged => go!(DEVICE_PARTITION_FLAGGED_I32, (i, f, o, c, s, n, epoch)),
            Algo::PartitionIf => go!(DEVICE_PARTITION_IF_I32, (i, PIVOT, o, c, s, n, epoch)),
        }
        Ok(())
    }

    /// One launch on the first `n` elements, checked against the host's
    /// selection; returns (ok, what, selected).
    fn verify(
        &mut self,
        algo: Algo,
        cub: bool,
        n: u32,
        input: &[i32],
        flags: &[u8],
    ) -> Result<(bool, String, u64)> {
        self.count.copy_from(&[u32::MAX])?;
        self.launch(algo, cub, n, true)?;
        let count = self.count.to_vec()?[0];
        let got = self.out.to_vec()?;
        let rle = algo == Algo::RunLengthEncode;
        let lengths = if rle {
            self.lengths.to_vec()?
        } else {
            Vec::new()
        };
        let mut m = 0usize;
        let n = n as usize;
        for i in 0..n {
            if keep(algo, input, flags, i) {
                if rle {
                    // The run from `i`: up to the next head (or the end).
                    let len = (i + 1..n).find(|&e| input[e] != input[i]).unwrap_or(n) - i;
                    if lengths.get(m) != Some(&(len as u32)) {
                        return Ok((
                            false,
                            format!("run {m} has length {:?}, host {len}", lengths.get(m)),
                            m as u64,
                        ));
                    }
                }
                if m >= got.len() || got[m] != input[i] {
                    return Ok((
                        false,
                        format!(
                            "output {m} is {:?}, host {} (input {i})",
                            got.get(m),
                            input[i]
                        ),
                        m as u64,
                    ));
                }
                m += 1;
            }
        }
        let partition = matches!(algo, Algo::PartitionFlagged | Algo::PartitionIf);
        if partition {
            // The rejected elements, in reverse order, from the back.
            let mut back = n;
            for i in 0..n {
                if !keep(algo, input, flags, i) {
                    back -= 1;
                    if got[back] != input[i] {
                        return Ok((
                            false,
                            format!(
                                "output {back} is {}, host {} (rejected input {i})",
                                got[back], input[i]
                            ),
                            m as u64,
                        ));
                    }
                }
            }
        }
        Ok(if count as usize == m {
            (
                true,
                if rle {
                    format!("{m} runs, every value and length equals the host's")
                } else if partition {
                    format!("{m} selected, {} rejected, every one in its place", n - m)
                } else {
                    format!("{m} selected, every one equals the host's")
                },
                m as u64,
            )
        } else {
            (false, format!("count {count}, host {m}"), m as u64)
        })
    }
}

/// (size, index into [`ALGOS`], CUB?).
pub type Var = (u32, usize, bool);

/// One measured (size, selection, side).
#[derive(Clone, Debug, Serialize)]
pub struct Point {
    n: u32,
    algo: Algo,
    side: &'static str,
    kernel: &'static str,
    selected: u64,
    ms: Summary,
    gelem_per_s: f64,
    gb_per_s: f64,
    /// `None`: the driver reported no DRAM peak.
    pct_of_peak: Option<f64>,
    verified: bool,
    check: String,
}

impl CsvRow for Point {
    const COLUMNS: &'static [Column<Point>] = &[
        ("n", |p| p.n.to_string()),
        ("algo", |p| format!("{:?}", p.algo)),
        ("side", |p| p.side.into()),
        ("kernel", |p| quoted(p.kernel)),
        ("selected", |p| p.selected.to_string()),
        ("median_ms", |p| ms(p.ms.median)),
        ("p10_ms", |p| ms(p.ms.p10)),
        ("p90_ms", |p| ms(p.ms.p90)),
        ("gelem_per_s", |p| format!("{:.3}", p.gelem_per_s)),
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

/// The device-wide selections against CUB.
pub struct DeviceSelect;

impl Experiment for DeviceSelect {
    const NAME: &'static str = "device_select";
    const TWIN: Source = DEVICE_SELECT_CU;
    const TIMED: &'static str = "the Rust kernel, or one CUB call: its temporary-storage query and kernels, storage allocated beforehand";
    /// Partial last tiles.
    const SIM_SIZES: &'static [u32] = &[1003, 3 * SELECT_TILE as u32 + 17];
    const WIDTH: (usize, usize) = (26, 34);
    type Variant = Var;
    /// The number of selected elements (or runs).
    type Extra = u64;
    type Row = Point;
    type Bench<'a> = Bench<'a>;

    fn bench<'a>(
        backend: &'a Backend,
        twin: Option<&'a Twin>,
        sizes: &[u32],
        _: &Options<'_>,
    ) -> Result<Bench<'a>> {
        let cub = match twin.map(Twin::library).transpose()? {
            // SAFETY: the symbols have these C signatures (device_select.cu).
            Some(lib) => Some(unsafe {
                Cub {
                    flagged: symbol(lib, "cub_select_flagged_i32")?,
                    select_if: symbol(lib, "cub_select_if_i32")?,
                    unique: symbol(lib, "cub_select_unique_i32")?,
                    rle: symbol(lib, "cub_rle_encode_i32")?,
                    partition_flagged: symbol(lib, "cub_partition_flagged_i32")?,
                    partition_if: symbol(lib, "cub_partition_if_i32")?,
                }
            }),
            None => None,
        };
        let (input, flags) = data(*sizes.iter().max().expect("sizes"));
        let n = input.len() as u32;
        Ok(Bench {
            backend,
            cub,
            input: backend.upload(&input)?,
            flags: backend.upload(&flags)?,
            out: backend.alloc(input.len().max(1))?,
            lengths: backend.alloc(input.len().max(1))?,
            count: backend.alloc(1)?,
            states: backend
                .alloc(select_grid(n).max(partition_grid(n)).max(rle_grid(n)) as usize)?,
            head_states: backend.alloc(rle_grid(n) as usize)?,
            epoch: 0,
            host: (input, flags),
        })
    }

    fn variants(_: &Bench<'_>, sizes: &[u32], _: &Options<'_>, cpp: bool) -> Vec<Var> {
        let sides: &[bool] = if cpp { &[false, true] } else { &[false] };
        sizes
            .iter()
            .flat_map(|&n| {
                (0..ALGOS.len()).flat_map(move |a| sides.iter().map(move |&c| (n, a, c)))
            })
            .collect()
    }

    fn kernel((_, a, cub): Var) -> String {
        name(ALGOS[a], cub).into()
    }

    fn n(v: Var) -> u32 {
        v.0
    }

    /// One timed launch, not waited for.
    fn launch(b: &mut Bench<'_>, (n, a, cub): Var) -> Result<()> {
        b.launch(ALGOS[a], cub, n, false)
    }

    fn verify(b: &mut Bench<'_>, (n, a, cub): Var) -> Result<Verified<u64>> {
        let (input, flags) = std::mem::take(&mut b.host);
        let r = b.verify(ALGOS[a], cub, n, &input, &flags);
        b.host = (input, flags);
        let (ok, what, extra) = r?;
        Ok(Verified { ok, what, extra })
    }

    fn rows(
        _: &Bench<'_>,
        vars: &[Var],
        ms: Vec<Summary>,
        checks: Vec<Verified<u64>>,
        platform: &Platform,
    ) -> Vec<Point> {
        vars.iter()
            .zip(ms)
            .zip(checks)
            .map(|((&(n, a, cub), ms), c)| {
                let algo = ALGOS[a];
                let selected = c.extra;
                let flag_bytes = if matches!(algo, Algo::Flagged | Algo::PartitionFlagged) {
                    n as f64
                } else {
                    0.0
                };
                let out_bytes = if algo == Algo::RunLengthEncode {
                    8.0
                } else {
                    4.0
                };
                let written = if matches!(algo, Algo::PartitionFlagged | Algo::PartitionIf) {
                    n as f64
                } else {
                    selected as f64
                };
                let bytes = 4.0 * n as f64 + flag_bytes + out_bytes * written;
                let secs = ms.median * 1e-3;
                let gbps = bytes / secs / 1e9;
                Point {
                    n,
                    algo,
                    side: if cub { "cub" } else { "rust" },
                    kernel: name(algo, cub),
                    selected,
                    ms,
                    gelem_per_s: n as f64 / secs / 1e9,
                    gb_per_s: gbps,
                    pct_of_peak: platform.pct_of_peak(gbps * 1e9),
                    verified: c.ok,
                    check: c.what,
                }
            })
            .collect()
    }

    fn markdown(points: &[Point], r: &Report<'_, Bench<'_>>) -> String {
        let mut s = head("Device-wide selection: the library against CUB", r.platform);
        let (peak, timing) = (r.platform.peak_text(), r.timing);
        let _ = writeln!(
            s,
            "`i32` input of runs of 1–8 equal values; flags one byte each (about half set); `If`: `x < {PIVOT}`. Rust: one \
             block of {SELECT_BLOCK} threads per tile of {SELECT_TILE} elements ({PARTITION_TILE} for the partitions, \
             {RLE_TILE} for the encoding), staged in shared memory by `memcpy_async`, a `ballot` per round of each warp, \
             the device scan's decoupled look-back for the warps' offsets. CUB: `cub::DeviceSelect::Flagged`, `If`, \
             `Unique`, `cub::DevicePartition::Flagged`, `If` and `DeviceRunLengthEncode::Encode` (nvcc, host dispatch). \
             Rust's partitions write each rejected element from the back (its index minus the selected ones before it). \
             Rust's encoding: the selection's layout with two look-backs run at once (the runs before each warp, and \
             its last run head by a `max` scan), the runs written from shared memory in order. Bandwidth: 4·n bytes read \
             (and n of flags) plus 4 per selected element written (8 per run: value and length; a partition writes all n) / \
             median time; {peak}. Every point verified before timing (output and count equal the host's). Timing: \
             {timing}; all sizes, selections and sides interleaved.\n"
        );
        for algo in ALGOS {
            let _ = writeln!(s, "\n## {algo:?}\n");
            s += &table_head(&[
                ("n", false),
                ("selected", true),
                ("Rust Gelem/s", true),
                ("Rust GB/s", true),
                ("% peak", true),
                ("CUB Gelem/s", true),
                ("CUB GB/s", true),
                ("% peak", true),
                ("Rust ÷ CUB throughput", true),
                ("verified", false),
            ]);
            for &n in r.sizes {
                let find = |side: &str| {
                    points
                        .iter()
                        .find(|q| q.n == n && q.algo == algo && q.side == side)
                        .expect("every point was measured")
                };
                let (r, c) = (find("rust"), find("cub"));
                let _ = writeln!(
                    s,
                    "| 2^{} | {} | {:.2} | {:.0} | {} | {:.2} | {:.0} | {} | **{:.3}** | {} |",
                    n.trailing_zeros(),
                    r.selected,
                    r.gelem_per_s,
                    r.gb_per_s,
                    pct_cell(r.pct_of_peak),
                    c.gelem_per_s,
                    c.gb_per_s,
                    pct_cell(c.pct_of_peak),
                    r.gelem_per_s / c.gelem_per_s,
                    both(r.verified, c.verified)
                );
            }
        }
        s
    }

    fn line(p: &Point) -> String {
        format!(
            "device_select {:<34} n=2^{:<2} {:>9.4} ms {:>6.2} Gelem/s {:>7.1} GB/s {:>7} of peak  {}",
            p.kernel,
            p.n.trailing_zeros(),
            p.ms.median,
            p.gelem_per_s,
            p.gb_per_s,
            pct_cell(p.pct_of_peak),
            ok(p.verified)
        )
    }
}
