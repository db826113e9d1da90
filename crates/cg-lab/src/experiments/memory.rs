//! `cg-lab compare --only memory` (issue 57): memory as real kernels touch
//! it — the kernels of `cg_kernels::memory`, each against its C++ twin
//! (`reference/cuda/memory.cu`, built as a cubin and launched through the
//! same runtime):
//!
//! * a copy of 2^28 `f32` as 16-byte vectors (`F32x4`, `float4`);
//! * a copy of 2^28 `bf16` as 16-byte vectors of eight (`Bf16x8`, `uint4`);
//! * a streaming read-modify-write `y = a·x + y` of 2^28 `f32`
//!   (`cache::Streaming`: `ld/st.global.cs`, `__ldcs`/`__stcs`);
//! * a layer norm whose row length `C` is a kernel argument, rows of the
//!   run-time windows (`TileRows<32, 4>`: a warp per row at `C` = 768;
//!   `BlockRows<4>`: a block per row at `C` = 50,257), about 2^28 floats
//!   in all;
//! * a register-tiled matrix product (`ThreadTiles<8, 8>`), 4096².
//!
//! Every variant is verified against the host's model before it is timed;
//! the report gives each one's time, bandwidth and % of the DRAM peak
//! (GFLOP/s for the product) and Rust ÷ C++ per kernel. Without a GPU the
//! Rust kernels run on the simulator at small shapes (partial vectors,
//! row tails, misaligned rows, edge tiles) and nothing is timed.

use std::fmt::Write as _;
use std::path::Path;

use anyhow::Result;
use cg_kernels::memory::{
    AXPY_STREAMING, COPY_BF16X8, COPY_BLOCK, COPY_F32X4, GEMM_BLOCK, LAYER_NORM_BLOCK,
    LAYER_NORM_WARP, LN_BLOCK, LN_WARP_BLOCK, SGEMM_8X8, TILE,
};
use cg_runtime::{Backend, Buffer, Dim3, LaunchConfig, Module};
use cooperative_groups::bf16;
use cooperative_groups::vector::{Bf16x8, F32x4};
use serde::Serialize;

use crate::harness::csv::{Column, CsvRow, ms, pct, quoted};
use crate::harness::experiment::{Experiment, Options, Outcome, Report, Verified, gpu_of};
use crate::harness::markdown::{head, ok, table_head};
use crate::harness::twin::{Build, Twin};
use crate::output::write_atomic;
use crate::reference::{MEMORY_CU, Source};
use crate::results::{Platform, pct_cell};
use crate::stats::Summary;

/// Elements of the copies and the read-modify-write on a GPU, and the
/// floats the layer norms' images span at most.
const GPU_N: u32 = 1 << 28;
/// The simulator's: 290 `F32x4`, 145 `Bf16x8` over a grid of 128 threads
/// (each thread two or three trips, the last one partial).
const SIM_N: u32 = 1160;
/// `a` of `y = a·x + y` (a power of two: the products are exact, so the
/// result is the same fused or not).
const AXPY_A: f32 = 0.5;
/// The layer norm's epsilon.
const EPS: f32 = 1e-5;

/// Which kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Op {
    /// `y = x`, `F32x4`.
    CopyF32x4,
    /// `y = x`, `Bf16x8`.
    CopyBf16x8,
    /// `y = a·x + y`, streaming.
    AxpyStreaming,
    /// Layer norm, a warp per row.
    LayerNormWarp,
    /// Layer norm, a block per row.
    LayerNormBlock,
    /// `c = a·b`, 8 × 8 per thread.
    Sgemm,
}

const OPS: [Op; 6] = [
    Op::CopyF32x4,
    Op::CopyBf16x8,
    Op::AxpyStreaming,
    Op::LayerNormWarp,
    Op::LayerNormBlock,
    Op::Sgemm,
];

impl Op {
    /// The Rust kernel's name (the C++ twin's is `cpp_` + it).
    fn kernel(self) -> &'static str {
        match self {
            Op::CopyF32x4 => COPY_F32X4.name(),
            Op::CopyBf16x8 => COPY_BF16X8.name(),
            Op::AxpyStreaming => AXPY_STREAMING.name(),
            Op::LayerNormWarp => LAYER_NORM_WARP.name(),
            Op::LayerNormBlock => LAYER_NORM_BLOCK.name(),
            Op::Sgemm => SGEMM_8X8.name(),
        }
    }

    /// The C++ twin's name.
    fn cpp(self) -> &'static str {
        match self {
            Op::CopyF32x4 => "cpp_copy_f32x4",
            Op::CopyBf16x8 => "cpp_copy_bf16x8",
            Op::AxpyStreaming => "cpp_axpy_streaming",
            Op::LayerNormWarp => "cpp_layer_norm_warp",
            Op::LayerNormBlock => "cpp_layer_norm_block",
            Op::Sgemm => "cpp_sgemm_8x8",
        }
    }

    /// What the report calls it.
    fn label(self) -> &'static str {
        match self {
            Op::CopyF32x4 => "copy f32 (`F32x4` / `float4`)",
            Op::CopyBf16x8 => "copy bf16 (`Bf16x8` / `uint4`)",
            Op::AxpyStreaming => "`y = a·x + y`, streaming (`.cs` / `__ldcs`, `__stcs`)",
            Op::LayerNormWarp => "layer norm, a warp per row (`TileRows<32, 4>`)",
            Op::LayerNormBlock => "layer norm, a block per row (`BlockRows<4>`)",
            Op::Sgemm => "SGEMM, 8 × 8 per thread (`ThreadTiles<8, 8>`)",
        }
    }

    /// A bandwidth kernel (the % of peak applies), not the product.
    fn streams(self) -> bool {
        self != Op::Sgemm
    }
}

/// One layer norm's image: rows of `c` floats, `pitch` apart.
#[derive(Clone, Copy, Debug)]
struct Ln {
    c: usize,
    pitch: usize,
    rows: usize,
}

impl Ln {
    /// Rows of `c` (`pitch` apart) in at most `n` floats.
    fn fit(c: usize, pitch: usize, n: usize) -> Ln {
        Ln {
            c,
            pitch,
            rows: (n - c) / pitch + 1,
        }
    }

    /// Floats the image spans.
    fn span(&self) -> usize {
        self.pitch * (self.rows - 1) + self.c
    }
}

/// The shapes of a run: on a GPU the issue's, on the simulator small ones
/// with every edge case.
#[derive(Clone, Copy, Debug)]
pub struct Shape {
    /// Elements of the copies and the read-modify-write.
    n: usize,
    /// The warp-per-row and block-per-row layer norms.
    ln: [Ln; 2],
    /// `(m, n, k)` of the product.
    gemm: (usize, usize, usize),
    /// The copies' grid and block.
    copy: (u32, u32),
    /// The layer norms' grids and blocks.
    ln_launch: [(u32, u32); 2],
    /// The product's block (2-D).
    gemm_block: (u32, u32),
}

impl Shape {
    fn new(sim: bool, sm_count: u32, grid: Option<u32>) -> Shape {
        if sim {
            // Rows of 41 at a pitch of 41 (misaligned rows: the scalar
            // path, a tail of 1) and of 301 at 304 (aligned, a tail of 1);
            // a product with edge tiles of 4 rows and 4 columns.
            return Shape {
                n: SIM_N as usize,
                ln: [
                    Ln {
                        c: 41,
                        pitch: 41,
                        rows: 11,
                    },
                    Ln {
                        c: 301,
                        pitch: 304,
                        rows: 3,
                    },
                ],
                gemm: (36, 44, 20),
                copy: (grid.unwrap_or(2), 64),
                ln_launch: [(1, 64), (2, 64)],
                gemm_block: (4, 4),
            };
        }
        let n = GPU_N as usize;
        let ln = [Ln::fit(768, 768, n), Ln::fit(50_257, 50_260, n)];
        Shape {
            n,
            ln,
            gemm: (4096, 4096, 4096),
            // One full wave: 2048 resident threads per SM.
            copy: (grid.unwrap_or(sm_count * (2048 / COPY_BLOCK)), COPY_BLOCK),
            ln_launch: [
                (
                    ln[0].rows.div_ceil((LN_WARP_BLOCK / 32) as usize) as u32,
                    LN_WARP_BLOCK,
                ),
                (ln[1].rows as u32, LN_BLOCK),
            ],
            gemm_block: GEMM_BLOCK,
        }
    }

    /// The product's grid: a thread per 8 × 8 tile.
    fn gemm_grid(&self) -> (u32, u32) {
        let (m, n, _) = self.gemm;
        let (bx, by) = self.gemm_block;
        (
            n.div_ceil(TILE).div_ceil(bx as usize) as u32,
            m.div_ceil(TILE).div_ceil(by as usize) as u32,
        )
    }

    /// Bytes a launch of `op` moves to and from DRAM at least (the layer
    /// norm's `gamma` and `beta` stay in cache), or the product's flops.
    fn work(&self, op: Op) -> f64 {
        let n = self.n as f64;
        match op {
            Op::CopyF32x4 => 8.0 * n,
            Op::CopyBf16x8 => 4.0 * n,
            Op::AxpyStreaming => 12.0 * n,
            Op::LayerNormWarp => 8.0 * (self.ln[0].c * self.ln[0].rows) as f64,
            Op::LayerNormBlock => 8.0 * (self.ln[1].c * self.ln[1].rows) as f64,
            Op::Sgemm => {
                let (m, n, k) = self.gemm;
                2.0 * (m * n * k) as f64
            }
        }
    }

    /// The shape in words, for the report.
    fn text(&self, op: Op) -> String {
        match op {
            Op::CopyF32x4 | Op::AxpyStreaming => format!("{} f32", self.n),
            Op::CopyBf16x8 => format!("{} bf16", self.n),
            Op::LayerNormWarp | Op::LayerNormBlock => {
                let l = self.ln[(op == Op::LayerNormBlock) as usize];
                format!("{} rows × C = {} (pitch {})", l.rows, l.c, l.pitch)
            }
            Op::Sgemm => {
                let (m, n, k) = self.gemm;
                format!("{m} × {n} × {k}")
            }
        }
    }
}

// The inputs, as functions of the element's index: the host's models
// recompute them rather than keep a copy of each gigabyte.

/// Input `e` of the `f32` copy and the read-modify-write's `x`: multiples
/// of 1/256 in [-128, 128).
fn fx(e: usize) -> f32 {
    (((e as u64).wrapping_mul(2_654_435_761) >> 7) & 0xffff) as f32 / 256.0 - 128.0
}

/// The read-modify-write's `y` before the launch: multiples of 1/16.
fn fy(e: usize) -> f32 {
    (((e as u64).wrapping_mul(40_503) >> 3) & 0xfff) as f32 / 16.0 - 128.0
}

/// Input `e` of the `bf16` copy.
fn fb(e: usize) -> bf16 {
    bf16::from_f32(fx(e) / 8.0)
}

/// The layer norms' input: multiples of 1/512 in [-1, 1).
fn fl(e: usize) -> f32 {
    (((e as u64).wrapping_mul(2_654_435_761) >> 9) & 0x3ff) as f32 / 512.0 - 1.0
}

/// `gamma(j)`, `beta(j)`.
fn gamma(j: usize) -> f32 {
    1.0 + (j % 7) as f32 / 8.0
}
fn beta(j: usize) -> f32 {
    (j % 5) as f32 / 4.0 - 0.5
}

/// The product's `aᵀ(k, i)` and `b(k, j)`: integers in [-2, 2], so every
/// sum of products is exact in `f32` (|c| ≤ 4 k).
fn fa(k: usize, i: usize) -> f32 {
    ((k * 31 + i * 17) % 5) as f32 - 2.0
}
fn fbm(k: usize, j: usize) -> f32 {
    ((k * 13 + j * 7) % 5) as f32 - 2.0
}

/// `v` as vectors of four.
fn vec4(v: &[f32]) -> Vec<F32x4> {
    v.chunks_exact(4)
        .map(|c| F32x4::new([c[0], c[1], c[2], c[3]]))
        .collect()
}

/// The buffers, the shapes and the twin's module.
pub struct Bench<'a> {
    backend: &'a Backend,
    module: Option<&'a Module>,
    shape: Shape,
    x4: Buffer<F32x4>,
    y4: Buffer<F32x4>,
    ya: Buffer<F32x4>,
    xb: Buffer<Bf16x8>,
    yb: Buffer<Bf16x8>,
    lx: Buffer<f32>,
    ly: Buffer<f32>,
    gamma: Buffer<f32>,
    beta: Buffer<f32>,
    at: Buffer<F32x4>,
    bm: Buffer<F32x4>,
    c: Buffer<f32>,
}

impl Bench<'_> {
    /// One launch of `op`, Rust or C++; waited for with `sync`.
    fn launch(&mut self, op: Op, cpp: bool, sync: bool) -> Result<()> {
        let s = self.shape;
        let cfg = match op {
            Op::CopyF32x4 | Op::CopyBf16x8 | Op::AxpyStreaming => {
                LaunchConfig::linear(s.copy.0, s.copy.1)
            }
            Op::LayerNormWarp => LaunchConfig::linear(s.ln_launch[0].0, s.ln_launch[0].1),
            Op::LayerNormBlock => LaunchConfig::linear(s.ln_launch[1].0, s.ln_launch[1].1),
            Op::Sgemm => {
                let (gx, gy) = s.gemm_grid();
                let (bx, by) = s.gemm_block;
                LaunchConfig::new(Dim3::new(gx, gy, 1), Dim3::new(bx, by, 1))
            }
        };
        if cpp {
            return self.launch_cpp(op, &cfg, sync);
        }
        let lni = (op == Op::LayerNormBlock) as usize;
        let l = s.ln[lni];
        let (m, n, k) = s.gemm;
        // A GPU launch for timing is queued, not waited for; the others
        // (verification, the simulator) wait.
        macro_rules! go {
            ($k:expr, $args:expr) => {
                match self.backend {
                    Backend::Gpu(g) if !sync => g.launch(&$k, &cfg, $args)?,
                    b => b.launch(&$k, &cfg, $args)?,
                }
            };
        }
        match op {
            Op::CopyF32x4 => go!(COPY_F32X4, (&self.x4, &mut self.y4)),
            Op::CopyBf16x8 => go!(COPY_BF16X8, (&self.xb, &mut self.yb)),
            Op::AxpyStreaming => go!(AXPY_STREAMING, (AXPY_A, &self.x4, &mut self.ya)),
            Op::LayerNormWarp => go!(
                LAYER_NORM_WARP,
                (
                    self.lx.image(l.c, l.rows, l.pitch),
                    &self.gamma,
                    &self.beta,
                    EPS,
                    self.ly.image_mut(l.c, l.rows, l.pitch),
                )
            ),
            Op::LayerNormBlock => go!(
                LAYER_NORM_BLOCK,
                (
                    self.lx.image(l.c, l.rows, l.pitch),
                    &self.gamma,
                    &self.beta,
                    EPS,
                    self.ly.image_mut(l.c, l.rows, l.pitch),
                )
            ),
            Op::Sgemm => go!(
                SGEMM_8X8,
                (
                    self.at.image(m / 4, k, m / 4),
                    self.bm.image(n / 4, k, n / 4),
                    self.c.image_mut(n, m, n),
                )
            ),
        }
        if let (true, Backend::Gpu(g)) = (sync, self.backend) {
            g.synchronize()?;
        }
        Ok(())
    }

    /// One launch of `op`'s C++ twin.
    fn launch_cpp(&mut self, op: Op, cfg: &LaunchConfig, sync: bool) -> Result<()> {
        let gpu = gpu_of(self.backend);
        let f = self
            .module
            .expect("C++ runs on a GPU only")
            .function(op.cpp())?;
        let s = self.shape;
        let name = op.cpp();
        let l = s.ln[(op == Op::LayerNormBlock) as usize];
        let (m, n, k) = s.gemm;
        // (Why the launch is sound: the twin reads and writes exactly the
        // elements its Rust kernel does, in this bench's buffers, which are
        // sized for them (`bench`) and outlive the launch; the argument
        // types are the `.cu` file's.)
        // SAFETY: as said above, for every arm.
        unsafe {
            match op {
                Op::CopyF32x4 => gpu.launch_function(
                    f,
                    name,
                    cfg,
                    (self.x4.as_ptr().cast_const(), self.y4.as_ptr(), s.n / 4),
                ),
                Op::CopyBf16x8 => gpu.launch_function(
                    f,
                    name,
                    cfg,
                    (self.xb.as_ptr().cast_const(), self.yb.as_ptr(), s.n / 8),
                ),
                Op::AxpyStreaming => gpu.launch_function(
                    f,
                    name,
                    cfg,
                    (
                        AXPY_A,
                        self.x4.as_ptr().cast_const(),
                        self.ya.as_ptr(),
                        s.n / 4,
                    ),
                ),
                Op::LayerNormWarp | Op::LayerNormBlock => gpu.launch_function(
                    f,
                    name,
                    cfg,
                    (
                        self.lx.as_ptr().cast_const(),
                        l.pitch,
                        self.gamma.as_ptr().cast_const(),
                        self.beta.as_ptr().cast_const(),
                        EPS,
                        self.ly.as_ptr(),
                        l.pitch,
                        l.c,
                        l.rows,
                    ),
                ),
                Op::Sgemm => gpu.launch_function(
                    f,
                    name,
                    cfg,
                    (
                        self.at.as_ptr().cast_const(),
                        m / 4,
                        m / 4,
                        self.bm.as_ptr().cast_const(),
                        n / 4,
                        n / 4,
                        k,
                        self.c.as_ptr(),
                        n,
                        m,
                        n,
                    ),
                ),
            }
        }?;
        if sync {
            gpu.synchronize()?;
        }
        Ok(())
    }

    /// Clears `op`'s output (so that a kernel that writes nothing fails),
    /// and resets the read-modify-write's `y`.
    fn reset(&mut self, op: Op) -> Result<()> {
        match op {
            Op::CopyF32x4 => self.y4.zero(),
            Op::CopyBf16x8 => self.yb.zero(),
            Op::AxpyStreaming => {
                let y: Vec<f32> = (0..self.shape.n).map(fy).collect();
                self.ya.copy_from(&vec4(&y))
            }
            Op::LayerNormWarp | Op::LayerNormBlock => self.ly.zero(),
            Op::Sgemm => self.c.zero(),
        }
        .map_err(Into::into)
    }

    /// `op`'s output against the host's model.
    fn check(&self, op: Op) -> Result<Verified> {
        let s = self.shape;
        let first_bad = |what: &str, count: usize, bad: Option<(usize, String)>| match bad {
            None => Verified::new(true, format!("{count} {what} exact")),
            Some((i, d)) => Verified::new(false, format!("{what} {i}: {d}")),
        };
        Ok(match op {
            Op::CopyF32x4 => {
                let y = self.y4.to_vec()?;
                let bad = (0..s.n).find_map(|e| {
                    let got = y[e / 4][e % 4];
                    (got.to_bits() != fx(e).to_bits())
                        .then(|| (e, format!("{got} instead of {}", fx(e))))
                });
                first_bad("elements", s.n, bad)
            }
            Op::CopyBf16x8 => {
                let y = self.yb.to_vec()?;
                let bad = (0..s.n).find_map(|e| {
                    let got = y[e / 8][e % 8];
                    (got.to_bits() != fb(e).to_bits())
                        .then(|| (e, format!("{got} instead of {}", fb(e))))
                });
                first_bad("elements", s.n, bad)
            }
            Op::AxpyStreaming => {
                let y = self.ya.to_vec()?;
                let bad = (0..s.n).find_map(|e| {
                    let (got, want) = (y[e / 4][e % 4], AXPY_A * fx(e) + fy(e));
                    (got != want).then(|| (e, format!("{got} instead of {want}")))
                });
                first_bad("elements", s.n, bad)
            }
            Op::LayerNormWarp | Op::LayerNormBlock => {
                let l = s.ln[(op == Op::LayerNormBlock) as usize];
                let y = self.ly.to_vec()?;
                let mut worst = 0.0f64;
                let mut bad = None;
                for r in 0..l.rows {
                    let row = |j: usize| fl(r * l.pitch + j) as f64;
                    let mean = (0..l.c).map(row).sum::<f64>() / l.c as f64;
                    let var = (0..l.c).map(|j| (row(j) - mean).powi(2)).sum::<f64>() / l.c as f64;
                    let rstd = 1.0 / (var + EPS as f64).sqrt();
                    for j in 0..l.c {
                        let want = (row(j) - mean) * rstd * gamma(j) as f64 + beta(j) as f64;
                        let got = y[r * l.pitch + j] as f64;
                        let err = (got - want).abs() / (1.0 + want.abs());
                        worst = worst.max(err);
                        // (A NaN fails too.)
                        if !matches!(
                            err.partial_cmp(&1e-4),
                            Some(std::cmp::Ordering::Less | std::cmp::Ordering::Equal)
                        ) && bad.is_none()
                        {
                            bad = Some((r, format!("column {j}: {got} instead of {want}")));
                        }
                    }
                }
                match bad {
                    None => Verified::new(
                        true,
                        format!(
                            "{} rows, largest error {worst:.1e} (relative to 1 + |y|)",
                            l.rows
                        ),
                    ),
                    Some((r, d)) => Verified::new(false, format!("row {r}, {d}")),
                }
            }
            Op::Sgemm => {
                let (m, n, k) = s.gemm;
                let c = self.c.to_vec()?;
                // On the simulator every element; on a GPU whole rows and
                // columns (the edges, the middle and a spread of others).
                let lines = |len: usize| -> Vec<usize> {
                    if self.backend.is_sim() {
                        (0..len).collect()
                    } else {
                        let mut v: Vec<usize> = vec![0, 1, 7, 8, len / 2, len - 1];
                        v.extend((1..11).map(|i| (i * 997 + 13) % len));
                        v.sort_unstable();
                        v.dedup();
                        v
                    }
                };
                let want =
                    |i: usize, j: usize| (0..k).map(|kk| fa(kk, i) * fbm(kk, j)).sum::<f32>();
                let rows = lines(m);
                let mut cells: Vec<(usize, usize)> = Vec::new();
                for &i in &rows {
                    cells.extend((0..n).map(|j| (i, j)));
                }
                if !self.backend.is_sim() {
                    for j in lines(n) {
                        cells.extend((0..m).map(|i| (i, j)));
                    }
                }
                let bad = cells.iter().find_map(|&(i, j)| {
                    let (got, w) = (c[i * n + j], want(i, j));
                    (got != w).then(|| (i * n + j, format!("c({i}, {j}) = {got} instead of {w}")))
                });
                first_bad("elements", cells.len(), bad)
            }
        })
    }
}

/// (kernel, C++?).
pub type Var = (Op, bool);

/// One measured kernel.
#[derive(Clone, Debug, Serialize)]
pub struct Point {
    op: Op,
    shape: String,
    side: &'static str,
    kernel: &'static str,
    ms: Summary,
    /// GB/s for the bandwidth kernels, GFLOP/s for the product.
    rate: f64,
    /// % of the DRAM peak (bandwidth kernels with a reported peak).
    pct_of_peak: Option<f64>,
    verified: bool,
    check: String,
}

impl CsvRow for Point {
    const COLUMNS: &'static [Column<Point>] = &[
        ("kernel", |p| p.kernel.into()),
        ("side", |p| p.side.into()),
        ("shape", |p| quoted(&p.shape)),
        ("median_ms", |p| ms(p.ms.median)),
        ("p10_ms", |p| ms(p.ms.p10)),
        ("p90_ms", |p| ms(p.ms.p90)),
        ("gb_per_s", |p| {
            if p.op.streams() {
                format!("{:.1}", p.rate)
            } else {
                String::new()
            }
        }),
        ("pct_of_peak", |p| pct(p.pct_of_peak)),
        ("gflop_per_s", |p| {
            if p.op.streams() {
                String::new()
            } else {
                format!("{:.1}", p.rate)
            }
        }),
        ("verified", |p| p.verified.to_string()),
    ];
}

impl Outcome for Point {
    fn failure(&self) -> Option<String> {
        (!self.verified).then(|| format!("{} ({})", self.kernel, self.check))
    }
}

/// The kernels of `cg_kernels::memory` against their C++ twins.
pub struct Memory;

impl Experiment for Memory {
    const NAME: &'static str = "memory";
    const TWIN: Source = MEMORY_CU;
    const BUILD: Build = Build::Cubin;
    const CUB: bool = false;
    const OWN_SIZES: Option<&'static [u32]> = Some(&[GPU_N]);
    const TIMED: &'static str = "the kernel";
    const SIM_SIZES: &'static [u32] = &[SIM_N];
    const WIDTH: (usize, usize) = (20, 24);
    type Variant = Var;
    type Extra = ();
    type Row = Point;
    type Bench<'a> = Bench<'a>;

    fn bench<'a>(
        backend: &'a Backend,
        twin: Option<&'a Twin>,
        _sizes: &[u32],
        opts: &Options<'_>,
    ) -> Result<Bench<'a>> {
        let module = twin.map(Twin::module).transpose()?;
        let sm_count = match backend {
            Backend::Gpu(g) => g.info().sm_count,
            Backend::Sim(_) => 0,
        };
        let shape = Shape::new(backend.is_sim(), sm_count, opts.grid);
        let n = shape.n;
        let x: Vec<f32> = (0..n).map(fx).collect();
        let x4 = backend.upload(&vec4(&x))?;
        drop(x);
        let xb: Vec<Bf16x8> = (0..n / 8)
            .map(|v| Bf16x8::new(core::array::from_fn(|l| fb(8 * v + l))))
            .collect();
        let xb = backend.upload(&xb)?;
        let ln_len = shape
            .ln
            .iter()
            .map(Ln::span)
            .max()
            .expect("two layer norms");
        // One input buffer serves both layer norms (`fl` of the element's
        // index, padding included).
        let lx = backend.upload(&(0..ln_len).map(fl).collect::<Vec<_>>())?;
        let cmax = shape.ln.iter().map(|l| l.c).max().expect("two layer norms");
        let (m, nn, k) = shape.gemm;
        let at: Vec<f32> = (0..k * m).map(|e| fa(e / m, e % m)).collect();
        let bm: Vec<f32> = (0..k * nn).map(|e| fbm(e / nn, e % nn)).collect();
        Ok(Bench {
            backend,
            module,
            shape,
            x4,
            y4: backend.alloc(n / 4)?,
            ya: backend.alloc(n / 4)?,
            xb,
            yb: backend.alloc(n / 8)?,
            lx,
            ly: backend.alloc(ln_len)?,
            gamma: backend.upload(&(0..cmax).map(gamma).collect::<Vec<_>>())?,
            beta: backend.upload(&(0..cmax).map(beta).collect::<Vec<_>>())?,
            at: backend.upload(&vec4(&at))?,
            bm: backend.upload(&vec4(&bm))?,
            c: backend.alloc(m * nn)?,
        })
    }

    fn variants(_: &Bench<'_>, _: &[u32], _: &Options<'_>, cpp: bool) -> Vec<Var> {
        OPS.iter()
            .flat_map(|&op| std::iter::once((op, false)).chain(cpp.then_some((op, true))))
            .collect()
    }

    fn kernel((op, cpp): Var) -> String {
        if cpp { op.cpp() } else { op.kernel() }.into()
    }

    fn n(_: Var) -> u32 {
        GPU_N
    }

    /// The kernel only: each has its own shape.
    fn label(v: Var, sim: bool) -> String {
        let k = Self::kernel(v);
        if sim {
            format!("{k:<w$} on the simulator:", w = Self::WIDTH.0)
        } else {
            format!("{k:<w$}", w = Self::WIDTH.1)
        }
    }

    fn sim_label(v: Var) -> String {
        Self::kernel(v)
    }

    fn launch(b: &mut Bench<'_>, (op, cpp): Var) -> Result<()> {
        b.launch(op, cpp, false)
    }

    fn verify(b: &mut Bench<'_>, (op, cpp): Var) -> Result<Verified> {
        b.reset(op)?;
        b.launch(op, cpp, true)?;
        b.check(op)
    }

    fn rows(
        b: &Bench<'_>,
        vars: &[Var],
        ms: Vec<Summary>,
        checks: Vec<Verified>,
        platform: &Platform,
    ) -> Vec<Point> {
        vars.iter()
            .zip(ms)
            .zip(checks)
            .map(|((&(op, cpp), ms), c)| {
                let rate = b.shape.work(op) / (ms.median * 1e-3) / 1e9;
                Point {
                    op,
                    shape: b.shape.text(op),
                    side: if cpp { "c++" } else { "rust" },
                    kernel: if cpp { op.cpp() } else { op.kernel() },
                    ms,
                    rate,
                    pct_of_peak: if op.streams() {
                        platform.pct_of_peak(rate * 1e9)
                    } else {
                        None
                    },
                    verified: c.ok,
                    check: c.what,
                }
            })
            .collect()
    }

    fn markdown(points: &[Point], r: &Report<'_, Bench<'_>>) -> String {
        let p = r.platform;
        let s = r.bench.shape;
        let mut md = head(
            "memory: vectors, cache hints, row windows and register tiles",
            p,
        );
        let _ = writeln!(
            md,
            "Each Rust kernel of `cg_kernels::memory` against its C++ twin (`reference/cuda/memory.cu`, \
             the same algorithm, launch and summation order, built with `nvcc -O3` as a cubin and launched \
             through the same runtime). The copies and the read-modify-write run a grid-stride loop over \
             16-byte vectors (grid {} × {}); the layer norms' row length `C` is a kernel argument (rows \
             padded to a multiple of 4 floats), one warp per row at C = {} (blocks of {}) \
             and one block of {} per row at C = {}, both with `E[x²] − mean²` from one read of the \
             row and `rsqrtf`; the product gives each thread an 8 × 8 tile of `c` (blocks of {} × {}), \
             `a` transposed so that both operands load as 16-byte vectors. Every kernel verified against \
             the host's model before timing (copies bit for bit, the read-modify-write and the product \
             exactly, the layer norms within 1e-4 of a double-precision model). Timing: {}; all kernels \
             interleaved. Bandwidth = the bytes the kernel must move (copy: 8 per `f32`, 4 per `bf16`; \
             `a·x + y`: 12; layer norm: 8 per element) / median time; {}.\n",
            s.copy.0,
            s.copy.1,
            s.ln[0].c,
            s.ln_launch[0].1,
            s.ln_launch[1].1,
            s.ln[1].c,
            s.gemm_block.0,
            s.gemm_block.1,
            r.timing,
            p.peak_text()
        );
        md += &table_head(&[
            ("kernel", false),
            ("shape", false),
            ("Rust ms", true),
            ("C++ ms", true),
            ("Rust", true),
            ("C++", true),
            ("Rust ÷ C++", true),
            ("verified", false),
        ]);
        let find = |op: Op, cpp: bool| {
            points
                .iter()
                .find(|q| q.op == op && (q.side == "c++") == cpp)
        };
        for op in OPS {
            let Some(rust) = find(op, false) else {
                continue;
            };
            let cpp = find(op, true);
            let rate = |q: &Point| {
                if op.streams() {
                    format!("{:.0} GB/s, **{}**", q.rate, pct_cell(q.pct_of_peak))
                } else {
                    format!("{:.0} GFLOP/s", q.rate)
                }
            };
            let (cms, crate_, ratio, cok) = match cpp {
                Some(c) => (
                    format!("{:.4}", c.ms.median),
                    rate(c),
                    format!("**{:.3}**", rust.ms.median / c.ms.median),
                    c.verified,
                ),
                None => ("–".into(), "–".into(), "–".into(), true),
            };
            let _ = writeln!(
                md,
                "| {} (`{}`) | {} | {:.4} | {cms} | {} | {crate_} | {ratio} | {} |",
                op.label(),
                op.kernel(),
                rust.shape,
                rust.ms.median,
                rate(rust),
                if rust.verified && cok {
                    "both"
                } else {
                    "FAILED"
                }
            );
        }
        md
    }

    fn line(p: &Point) -> String {
        let rate = if p.op.streams() {
            format!(
                "{:>7.1} GB/s {:>7} of peak",
                p.rate,
                pct_cell(p.pct_of_peak)
            )
        } else {
            format!("{:>7.1} GFLOP/s", p.rate)
        };
        format!(
            "memory {:<22} {:>9.4} ms {rate}  {}",
            p.kernel,
            p.ms.median,
            ok(p.verified)
        )
    }

    /// Opcode counts per kernel (Rust vs C++), and both sides' full SASS.
    fn sass(b: &Bench<'_>, vars: &[Var], twin: &Twin, dir: &Path, out: &Path) -> Result<()> {
        let Twin::Cubin { path, .. } = twin else {
            anyhow::bail!("the twin is not a cubin");
        };
        let l = crate::listings::listings(gpu_of(b.backend), path, dir)?;
        let names: Vec<String> = vars.iter().map(|&v| Self::kernel(v)).collect();
        let code = |name: &str| l.rust.get(name).or_else(|| l.cpp.get(name));
        let full = crate::listings::full_text(names.iter().map(|n| (n.as_str(), code(n))));
        let mut md = format!(
            "# SASS of the memory experiment (sm_{}; Rust PTX sm_{})\n\nOpcode counts (modifiers kept).\n\n",
            l.sm, l.ptx_sm
        );
        md += &table_head(
            &std::iter::once(("opcode", false))
                .chain(names.iter().map(|n| (n.as_str(), true)))
                .collect::<Vec<_>>(),
        );
        let hists: Vec<std::collections::BTreeMap<&str, usize>> = names
            .iter()
            .map(|n| {
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
        write_atomic(&out.join("memory_sass.md"), md.as_bytes())?;
        write_atomic(&out.join("memory_sass.txt"), full.as_bytes())?;
        println!("wrote {}", out.join("memory_sass.md").display());
        Ok(())
    }
}
