//! `cg-lab compare --only gemm`: the library's warpgroup-MMA GEMM
//! (`cg_kernels::wgmma::gemm_wgmma_bf16`, sm_90a) against cuBLAS's
//! `cublasGemmEx` in the same process, on the same device buffers: `C = A ·
//! Bᵀ` with A row-major M × K and B row-major N × K in bf16 (both
//! K-major), C row-major M × N in `f32`, accumulated in `f32`, at 4096³,
//! 8192³ and 8192 × 4096 × 14336 (a deep-K product: the shape of a
//! transformer's down projection), as TFLOP/s (2·M·N·K / median time) and
//! the Rust ÷ cuBLAS time ratio.
//!
//! cuBLAS is host-dispatched, so `reference/cuda/gemm.cu` (embedded) is
//! built with nvcc into a shared library linked with cuBLAS and called
//! through C entry points on the legacy default stream, the one the lab's
//! launches and events use; its handle is made once, when the bench is set
//! up. The inputs are small integers ([`gemm_a`], [`gemm_b`]), so every sum
//! is exact in `f32` and both sides' results are exactly the host's,
//! whatever their order of additions: before timing, each side's output
//! (poisoned with NaN first) is checked against the host's product at
//! [`GEMM_SAMPLES`] sampled elements ([`gemm_check`], the check the
//! `wgmma_gpu` test makes), and the Rust result is compared with cuBLAS's
//! at every element. The kernel needs the arch-specific PTX (`sm_90a`): on
//! a GPU that did not load it the experiment says so and stops. Without a
//! GPU the Rust kernel is verified on the simulator at 128 × 256 × 320
//! (every element, the ring of stages wrapping around) and nothing is
//! timed.

use std::ffi::c_void;
use std::fmt::Write as _;
use std::marker::PhantomData;

use anyhow::{Context, Result, bail};
use cg_kernels::wgmma::{
    GEMM_BK, GEMM_BM, GEMM_BN, GEMM_SAMPLES, GEMM_SMEM, GEMM_STAGES, GEMM_THREADS, GEMM_WGMMA_BF16,
    gemm_a, gemm_b, gemm_check,
};
use cg_runtime::{Backend, Buffer, Gpu, LaunchConfig};
use cooperative_groups::bf16;
use cooperative_groups::tma::Swizzle128B;
use serde::Serialize;

use crate::harness::csv::{Column, CsvRow, ms};
use crate::harness::experiment::{Experiment, Options, Outcome, Report, Verified, gpu_of};
use crate::harness::markdown::{both, head, ok, table_head};
use crate::harness::twin::{Twin, symbol};
use crate::reference::{GEMM_CU, Source};
use crate::results::Platform;
use crate::stats::Summary;

/// A product's shape: C is `m × n`, the inner dimension `k`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Shape {
    /// Rows of A and C.
    pub m: usize,
    /// Rows of B, columns of C.
    pub n: usize,
    /// Columns of A and B.
    pub k: usize,
}

impl Shape {
    /// Floating-point operations of the product: a multiply and an add per
    /// term.
    fn flops(&self) -> f64 {
        2.0 * self.m as f64 * self.n as f64 * self.k as f64
    }

    /// Blocks of the Rust kernel: one per 128 × 256 tile of C.
    fn blocks(&self) -> u32 {
        (self.m.div_ceil(GEMM_BM) * self.n.div_ceil(GEMM_BN)) as u32
    }
}

impl std::fmt::Display for Shape {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}×{}×{}", self.m, self.n, self.k)
    }
}

const fn shape(m: usize, n: usize, k: usize) -> Shape {
    Shape { m, n, k }
}

/// Every shape, by key: a variant's harness "size" is its shape's index
/// here (shapes are three numbers, sizes one). K is a multiple of 64 (the
/// kernel's K tile), M of 128 and N of 256 (whole tiles): the kernel cuts
/// partial tiles of N, but a last row of tiles of 64 rows or fewer leaves
/// the second consumer warpgroup without rows, and with it the `empty`
/// barriers without their 8 arrivals — the producer waits forever once
/// the ring wraps (the simulator reports the deadlock at 64 × 256 × 320).
const SHAPES: [Shape; 4] = [
    // The simulator's: one tile, five K tiles (the four-stage ring wraps).
    shape(128, 256, 320),
    shape(4096, 4096, 4096),
    shape(8192, 8192, 8192),
    // Deep K: 8192 tokens through a 14336 → 4096 projection.
    shape(8192, 4096, 14336),
];

/// The keys a GPU runs: every shape but the simulator's.
const GPU_KEYS: [u32; 3] = [1, 2, 3];

/// The shape of key `key`.
fn shape_of(key: u32) -> Shape {
    SHAPES[key as usize]
}

/// Which side multiplies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// `gemm_wgmma_bf16`.
    Rust,
    /// `cublasGemmEx`.
    Cublas,
}

/// (shape key, side).
pub type Var = (u32, Side);

/// `cublasGemmEx` name in the rows.
const CUBLAS_NAME: &str = "cublasGemmEx (bf16 TN, f32 compute and output)";

fn name(side: Side) -> &'static str {
    match side {
        Side::Rust => GEMM_WGMMA_BF16.name(),
        Side::Cublas => CUBLAS_NAME,
    }
}

fn side_name(side: Side) -> &'static str {
    match side {
        Side::Rust => "rust",
        Side::Cublas => "cublas",
    }
}

type InitFn = unsafe extern "C" fn() -> i32;
type GemmFn = unsafe extern "C" fn(*const c_void, *const c_void, *mut f32, i32, i32, i32) -> i32;

/// cuBLAS's entry points in the library built from `gemm.cu`, with its
/// handle made; the handle is destroyed with this value (the library, the
/// twin's, outlives it: `'a`).
pub struct Cublas<'a> {
    gemm: GemmFn,
    destroy: InitFn,
    /// cuBLAS's version number (`major·10000 + minor·100 + patch`).
    version: i32,
    _lib: PhantomData<&'a Twin>,
}

impl Drop for Cublas<'_> {
    fn drop(&mut self) {
        // SAFETY: `gemm_cublas_destroy()` of the loaded library, which
        // outlives `self` (`'a`); cublasDestroy waits for the device
        // first, so no queued call still needs the handle.
        unsafe { (self.destroy)() };
    }
}

/// One shape's buffers: the inputs on the device and the host, and each
/// side's output.
struct Operands {
    a: Buffer<bf16>,
    b: Buffer<bf16>,
    a_host: Vec<bf16>,
    b_host: Vec<bf16>,
    c_rust: Buffer<f32>,
    /// Only where cuBLAS runs.
    c_cublas: Option<Buffer<f32>>,
}

/// cuBLAS (on a GPU) and the operands of every shape, made when a shape is
/// first verified: setting a bench up costs nothing (the golden test sets
/// one up for the GPU's shapes on the simulator), and a GPU holds the
/// operands of all shapes at once (1.5 GiB).
pub struct Bench<'a> {
    backend: &'a Backend,
    cublas: Option<Cublas<'a>>,
    /// By shape key.
    operands: Vec<Option<Operands>>,
}

impl Bench<'_> {
    /// The operands of shape `key`, made on first use.
    fn operands(&mut self, key: u32) -> Result<&mut Operands> {
        let slot = &mut self.operands[key as usize];
        if slot.is_none() {
            let s = shape_of(key);
            let a_host: Vec<bf16> = (0..s.m * s.k).map(gemm_a).collect();
            let b_host: Vec<bf16> = (0..s.n * s.k).map(gemm_b).collect();
            let backend = self.backend;
            *slot = Some(Operands {
                a: backend.upload(&a_host)?,
                b: backend.upload(&b_host)?,
                a_host,
                b_host,
                c_rust: backend.alloc(s.m * s.n)?,
                c_cublas: match self.cublas {
                    Some(_) => Some(backend.alloc(s.m * s.n)?),
                    None => None,
                },
            });
        }
        Ok(slot.as_mut().expect("made above"))
    }

    /// One product of shape `key` by `side` into its output, waited for
    /// with `sync`.
    fn launch(&mut self, key: u32, side: Side, sync: bool) -> Result<()> {
        let s = shape_of(key);
        let (backend, gemm) = (self.backend, self.cublas.as_ref().map(|c| c.gemm));
        let d = self.operands(key)?;
        match side {
            Side::Rust => {
                // The maps are encoded on the host at each launch (a few
                // µs, while the GPU runs the launches queued before).
                let ta = backend.tensor_map::<bf16, 64, 128, Swizzle128B>(&d.a, s.k, s.m, s.k)?;
                let tb = backend.tensor_map::<bf16, 64, 256, Swizzle128B>(&d.b, s.k, s.n, s.k)?;
                let cfg = LaunchConfig::new(s.blocks(), GEMM_THREADS).with_dynamic_smem(GEMM_SMEM);
                let args = (&ta, &tb, d.c_rust.image_mut(s.n, s.m, s.n));
                match backend {
                    Backend::Gpu(g) if !sync => g.launch(&GEMM_WGMMA_BF16, &cfg, args)?,
                    b => b.launch(&GEMM_WGMMA_BF16, &cfg, args)?,
                }
            }
            Side::Cublas => {
                let gemm = gemm.context("cuBLAS runs on a GPU only")?;
                let c = d.c_cublas.as_ref().context("cuBLAS's output")?;
                // SAFETY: device buffers of M·K and N·K bf16 and M·N f32,
                // alive until the bench's end, after every launch queued.
                let rc = unsafe {
                    gemm(
                        d.a.as_ptr().cast_const().cast(),
                        d.b.as_ptr().cast_const().cast(),
                        c.as_ptr(),
                        s.m as i32,
                        s.n as i32,
                        s.k as i32,
                    )
                };
                if rc != 0 {
                    bail!("{CUBLAS_NAME} at {s} returned cuBLAS status {rc}");
                }
                if sync {
                    gpu_of(backend).synchronize()?;
                }
            }
        }
        Ok(())
    }

    /// Poisons `side`'s output of shape `key` (NaN: an element left
    /// unwritten cannot pass), runs the product and returns the output.
    fn run_checked(&mut self, key: u32, side: Side) -> Result<Vec<f32>> {
        let s = shape_of(key);
        let poison = vec![f32::NAN; s.m * s.n];
        let d = self.operands(key)?;
        match side {
            Side::Rust => d.c_rust.copy_from(&poison)?,
            Side::Cublas => d
                .c_cublas
                .as_mut()
                .context("cuBLAS's output")?
                .copy_from(&poison)?,
        }
        self.launch(key, side, true)?;
        let d = self.operands(key)?;
        Ok(match side {
            Side::Rust => d.c_rust.to_vec()?,
            Side::Cublas => d.c_cublas.as_ref().context("cuBLAS's output")?.to_vec()?,
        })
    }
}

/// One measured (shape, side).
#[derive(Clone, Debug, Serialize)]
pub struct Point {
    m: usize,
    n: usize,
    k: usize,
    side: &'static str,
    kernel: &'static str,
    ms: Summary,
    tflop_per_s: f64,
    verified: bool,
    check: String,
}

impl CsvRow for Point {
    const COLUMNS: &'static [Column<Point>] = &[
        ("m", |p| p.m.to_string()),
        ("n", |p| p.n.to_string()),
        ("k", |p| p.k.to_string()),
        ("side", |p| p.side.into()),
        ("kernel", |p| crate::harness::csv::quoted(p.kernel)),
        ("median_ms", |p| ms(p.ms.median)),
        ("p10_ms", |p| ms(p.ms.p10)),
        ("p90_ms", |p| ms(p.ms.p90)),
        ("tflop_per_s", |p| format!("{:.1}", p.tflop_per_s)),
        ("verified", |p| p.verified.to_string()),
    ];
}

impl Outcome for Point {
    fn failure(&self) -> Option<String> {
        (!self.verified).then(|| {
            format!(
                "{} {}×{}×{} ({})",
                self.kernel, self.m, self.n, self.k, self.check
            )
        })
    }
}

/// What a check found, in words (`full`: it compared every element).
fn described(c: &cg_kernels::wgmma::GemmCheck, full: bool) -> String {
    let what = if full { "" } else { " sampled" };
    match c.first {
        None if full => format!("all {} elements equal the host's", c.checked),
        None => format!("{} sampled elements equal the host's", c.checked),
        Some((i, j, got, want)) => format!(
            "{} of {}{what} elements differ from the host's, first ({i}, {j}): {got} vs {want}",
            c.wrong, c.checked
        ),
    }
}

/// The warpgroup-MMA GEMM against cuBLAS.
pub struct Gemm;

impl Experiment for Gemm {
    const NAME: &'static str = "gemm";
    const TWIN: Source = GEMM_CU;
    const CUB: bool = false;
    const LIBS: &'static [&'static str] = &["cublas"];
    const OWN_SIZES: Option<&'static [u32]> = Some(&GPU_KEYS);
    const TIMED: &'static str = "one launch of the Rust kernel, or one cublasGemmEx call";
    const SIM_SIZES: &'static [u32] = &[0];
    const WIDTH: (usize, usize) = (16, 46);
    type Variant = Var;
    type Extra = ();
    type Row = Point;
    type Bench<'a> = Bench<'a>;

    /// The kernel is `wgmma`, which only the arch-specific PTX (`sm_90a`)
    /// has: without it the kernel would trap at its first multiply.
    fn unsupported(gpu: &Gpu) -> Option<String> {
        if gpu.ptx_sm() == 90 && gpu.ptx_arch_specific() {
            return None;
        }
        let (ma, mi) = gpu.info().compute_capability;
        let embedded = crate::kernels::LAB_PTX
            .ptx()
            .iter()
            .any(|p| p.sm == 90 && p.arch_specific);
        let why = if (ma, mi) != (9, 0) {
            format!(
                "sm_90a loads on a GPU of compute capability 9.0 only (H100, H200), and {} is {ma}.{mi}",
                gpu.info().name
            )
        } else if !embedded {
            "this cg-lab was built without the sm_90a PTX (CG_SMS without 90a): rebuild it with \
             the default targets, or with 90a in CG_SMS"
                .into()
        } else {
            format!(
                "the portable sm_{} PTX was loaded instead ({}={}): unset it, or set it to 90a",
                gpu.ptx_sm(),
                cg_runtime::ptx::PTX_CAP_VAR,
                std::env::var(cg_runtime::ptx::PTX_CAP_VAR).unwrap_or_default()
            )
        };
        Some(format!(
            "the Rust GEMM multiplies with wgmma, which only the arch-specific PTX target sm_90a has; {why}"
        ))
    }

    fn bench<'a>(
        backend: &'a Backend,
        twin: Option<&'a Twin>,
        _: &[u32],
        _: &Options<'_>,
    ) -> Result<Bench<'a>> {
        let cublas = match twin.map(Twin::library).transpose()? {
            Some(lib) => {
                // SAFETY: the symbols have these C signatures (gemm.cu).
                let (init, gemm, version, destroy) = unsafe {
                    (
                        symbol::<InitFn>(lib, "gemm_cublas_init")?,
                        symbol::<GemmFn>(lib, "gemm_cublas_bf16")?,
                        symbol::<InitFn>(lib, "gemm_cublas_version")?,
                        symbol::<InitFn>(lib, "gemm_cublas_destroy")?,
                    )
                };
                // SAFETY: no arguments; the CUDA runtime of the library
                // binds the device's primary context, the lab's.
                let rc = unsafe { init() };
                if rc != 0 {
                    bail!("cublasCreate returned cuBLAS status {rc}");
                }
                Some(Cublas {
                    gemm,
                    destroy,
                    // SAFETY: no arguments, the handle made.
                    version: unsafe { version() },
                    _lib: PhantomData,
                })
            }
            None => None,
        };
        Ok(Bench {
            backend,
            cublas,
            operands: SHAPES.iter().map(|_| None).collect(),
        })
    }

    fn variants(_: &Bench<'_>, keys: &[u32], _: &Options<'_>, cpp: bool) -> Vec<Var> {
        let sides: &[Side] = if cpp {
            &[Side::Rust, Side::Cublas]
        } else {
            &[Side::Rust]
        };
        keys.iter()
            .flat_map(|&k| sides.iter().map(move |&s| (k, s)))
            .collect()
    }

    fn kernel((_, side): Var) -> String {
        name(side).into()
    }

    /// The shape's key.
    fn n(v: Var) -> u32 {
        v.0
    }

    fn label((key, side): Var, sim: bool) -> String {
        let w = if sim { Self::WIDTH.0 } else { Self::WIDTH.1 };
        let on = if sim { " on the simulator:" } else { "" };
        format!("{:<w$} {}{on}", name(side), shape_of(key))
    }

    fn sim_label((key, side): Var) -> String {
        format!("{} {}", name(side), shape_of(key))
    }

    /// One timed launch, not waited for.
    fn launch(b: &mut Bench<'_>, (key, side): Var) -> Result<()> {
        b.launch(key, side, false)
    }

    /// The side's output against the host's at sampled elements (every
    /// element on the simulator); the Rust side's also against cuBLAS's at
    /// every element, where cuBLAS runs.
    fn verify(b: &mut Bench<'_>, (key, side): Var) -> Result<Verified> {
        let s = shape_of(key);
        let got = b.run_checked(key, side)?;
        let full = b.backend.is_sim();
        let d = b.operands(key)?;
        let host = gemm_check(&d.a_host, &d.b_host, &got, (s.m, s.n, s.k), full);
        let mut ok = host.wrong == 0;
        let mut what = described(&host, full);
        if side == Side::Rust && b.cublas.is_some() {
            let theirs = b.run_checked(key, Side::Cublas)?;
            let differ = got.iter().zip(&theirs).filter(|(g, t)| g != t).count();
            ok &= differ == 0;
            if differ == 0 {
                let _ = write!(what, "; all {} equal cuBLAS's", got.len());
            } else {
                let i = got.iter().zip(&theirs).position(|(g, t)| g != t);
                let i = i.expect("a difference");
                let _ = write!(
                    what,
                    "; {differ} of {} differ from cuBLAS's, first ({}, {}): {} vs {}",
                    got.len(),
                    i / s.n,
                    i % s.n,
                    got[i],
                    theirs[i]
                );
            }
        }
        Ok(Verified::new(ok, what))
    }

    fn rows(
        _: &Bench<'_>,
        vars: &[Var],
        ms: Vec<Summary>,
        checks: Vec<Verified>,
        _: &Platform,
    ) -> Vec<Point> {
        vars.iter()
            .zip(ms)
            .zip(checks)
            .map(|((&(key, side), ms), c)| {
                let s = shape_of(key);
                Point {
                    m: s.m,
                    n: s.n,
                    k: s.k,
                    side: side_name(side),
                    kernel: name(side),
                    tflop_per_s: s.flops() / (ms.median * 1e-3) / 1e12,
                    ms,
                    verified: c.ok,
                    check: c.what,
                }
            })
            .collect()
    }

    fn markdown(points: &[Point], r: &Report<'_, Bench<'_>>) -> String {
        let mut s = head(
            "bf16 GEMM on the tensor cores: the library's warpgroup MMA against cuBLAS",
            r.platform,
        );
        let cublas = match r.bench.cublas.as_ref().map(|c| c.version) {
            Some(v) if v > 0 => format!("cuBLAS {}.{}.{}", v / 10000, v / 100 % 100, v % 100),
            _ => "cuBLAS".into(),
        };
        let stage_kib = (GEMM_BM + GEMM_BN) * GEMM_BK * 2 / 1024;
        let _ = writeln!(
            s,
            "C = A · Bᵀ with A M × K and B N × K, row-major bf16 (both K-major), and C M × N, row-major \
             f32, accumulated in f32; both sides multiply the same device buffers, in the same process.\n\n\
             - **Rust**: `{rust}`, PTX target sm_90a. One block per {GEMM_BM} × {GEMM_BN} tile of C (grid = \
             tiles, one tile per block), {GEMM_THREADS} threads: two consumer warpgroups of 64 rows each, \
             sharing the tile's {GEMM_BN} columns of B, each issuing per K tile of {GEMM_BK} one batch of four \
             `wgmma.mma_async` m64n{GEMM_BN}k16 into registers (the next batch issued before the previous one \
             is waited for), and a producer warpgroup whose one thread issues the TMA copies of A's and B's K \
             tiles (128-byte swizzle) into a {GEMM_STAGES}-stage ring of {stage_kib} KiB stages in dynamic \
             shared memory ({GEMM_SMEM} bytes with the alignment), a stage refilled once the consumers' 8 \
             warps let go of it (full and empty mbarriers). No clusters, multicast, persistent tile \
             scheduling or register reallocation. Its two tensor maps are encoded on the host before each \
             launch, while the GPU runs the launches queued before it.\n\
             - **{cublas}**: `cublasGemmEx` on the column-major view of the same memory (Cᵀ = B · Aᵀ: \
             `CUBLAS_OP_T`, `CUBLAS_OP_N`), `CUDA_R_16BF` inputs, `CUDA_R_32F` output, \
             `CUBLAS_COMPUTE_32F`, `CUBLAS_GEMM_DEFAULT` (its heuristic picks the kernel); the handle made \
             once, before anything is timed, on the legacy default stream the lab's launches use.\n\
             - **Verified** before timing, every shape on both sides: the inputs are small integers, so every \
             sum is exact in f32 and both results must equal the host's product exactly; each side's output \
             (poisoned with NaN before its launch) is checked at {GEMM_SAMPLES} sampled elements, and the \
             Rust result against cuBLAS's at every element.\n\
             - **TFLOP/s** = 2·M·N·K / median time; **Rust ÷ cuBLAS** is the ratio of median times (below 1: \
             Rust is faster).\n\
             - **Timing**: {timing}; all shapes and both sides interleaved.\n",
            rust = GEMM_WGMMA_BF16.name(),
            timing = r.timing,
        );
        s += &table_head(&[
            ("M × N × K", false),
            ("Rust ms", true),
            ("Rust TFLOP/s", true),
            ("cuBLAS ms", true),
            ("cuBLAS TFLOP/s", true),
            ("Rust ÷ cuBLAS time", true),
            ("verified", false),
        ]);
        for &key in r.sizes {
            let sh = shape_of(key);
            let find = |side: Side| {
                points
                    .iter()
                    .find(|p| (p.m, p.n, p.k) == (sh.m, sh.n, sh.k) && p.side == side_name(side))
                    .expect("every point was measured")
            };
            let (rs, cb) = (find(Side::Rust), find(Side::Cublas));
            let _ = writeln!(
                s,
                "| {sh} | {:.4} | {:.1} | {:.4} | {:.1} | **{:.3}** | {} |",
                rs.ms.median,
                rs.tflop_per_s,
                cb.ms.median,
                cb.tflop_per_s,
                rs.ms.median / cb.ms.median,
                both(rs.verified, cb.verified)
            );
        }
        s
    }

    fn line(p: &Point) -> String {
        format!(
            "gemm {:<46} {:>17} {:>9.4} ms {:>7.1} TFLOP/s  {}",
            p.kernel,
            format!("{}×{}×{}", p.m, p.n, p.k),
            p.ms.median,
            p.tflop_per_s,
            ok(p.verified)
        )
    }
}

/// The golden files at the GPU's shapes (the harness's golden sizes are
/// input lengths, not shape keys).
#[cfg(test)]
pub fn check_golden() {
    crate::harness::golden::check_experiment_at::<Gemm>(&GPU_KEYS);
}
