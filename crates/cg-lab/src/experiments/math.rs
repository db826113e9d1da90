//! `cg-lab compare --only math`: the throughput of each math function
//! (`cooperative_groups::math`) against CUDA's, one kernel per function
//! (`cg_kernels::math_speed`) and its C++ twin (`reference/cuda/math.cu`,
//! embedded, built twice with nvcc: as is, and with `--use_fast_math`),
//! the same inputs on both sides, in two modes: the accurate functions,
//! and fast math (`#[kernel(fast_math)]` against `--use_fast_math`).
//!
//! Each timed kernel gives every thread one loaded input (two for the
//! binary functions) and [`EVALS`] evaluations at `x`, `x + d`, `x + 2d`,
//! … (the XOR of the results' bits written back: the function's work, not
//! memory, sets the time). Before timing, every (function, mode, side)
//! is verified:
//!
//! * the element-wise kernel (`math_one_<f>`, one evaluation per element)
//!   on the first [`CHECKED`] inputs: Rust's accurate functions bit for
//!   bit against the host's (the same code); Rust's fast forms within the
//!   intrinsics' documented error of the accurate function (on the
//!   simulator, bit for bit against the intrinsics' host models); C++
//!   against Rust: within twice CUDA's documented ulp bound (each side is
//!   within the bound of the exact value), the fast forms within the same
//!   documented error as Rust's; the largest distance in ulps between the
//!   two sides is reported;
//! * the timed kernel's first [`CHECKED`] words, bit for bit: against the
//!   host's XOR of the same evaluations (Rust's accurate functions, and on
//!   the simulator the fast forms), else against the XOR of the same
//!   side's element-wise kernel run on the shifted inputs.
//!
//! Writes `math.{csv,md,json}` and `math_sass.md` (the instruction count
//! of every element-wise and timed kernel, Rust and C++, both modes) and
//! `math_sass.txt` (both sides' element-wise SASS). Without a GPU the Rust
//! kernels are verified on the simulator at a small size and nothing is
//! timed.

use std::fmt::Write as _;
use std::path::Path;

use anyhow::{Context, Result};
use cg_kernels::math_speed::{BLOCK, EVALS, F32, F64};
use cg_runtime::{Backend, Buffer, LaunchConfig, Module, sass};
use cooperative_groups::Kernel;
use serde::Serialize;

use crate::harness::csv::{Column, CsvRow, ms};
use crate::harness::experiment::{Experiment, Options, Outcome, Report, Verified, gpu_of};
use crate::harness::markdown::{head, ok, table_head};
use crate::harness::twin::{Build, Twin};
use crate::output::write_atomic;
use crate::reference::{Flavour, MATH_CU, Source};
use crate::results::Platform;
use crate::stats::Summary;

/// Elements (threads) of a timed launch on a GPU: 2^24, each [`EVALS`]
/// evaluations.
const N: u32 = 1 << 24;

/// Elements checked one by one (and timed words checked) per variant.
pub const CHECKED: u32 = 1 << 16;

/// The fast-math build of the twin.
const FAST: Flavour = Flavour {
    tag: "fast",
    flags: &["--use_fast_math"],
};

/// How a function's inputs are drawn.
#[derive(Clone, Copy, Debug)]
enum Dist {
    /// Uniform in `[lo, hi)`.
    U(f64, f64),
    /// Log-uniform in `[lo, hi)` (both positive).
    L(f64, f64),
}

impl Dist {
    /// The `i`-th of a stream `seed` (a fixed hash: the same inputs on
    /// every run and both sides), kept `room` below the top so that the
    /// shifted inputs of the timed kernel stay in range.
    fn at(self, seed: u64, i: u64, room: f64) -> f64 {
        let mut z = seed
            .wrapping_mul(0x9e37_79b9_7f4a_7c15)
            .wrapping_add(i.wrapping_mul(0xbf58_476d_1ce4_e5b9));
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^= z >> 31;
        let u = (z >> 11) as f64 / (1u64 << 53) as f64;
        match self {
            Dist::U(lo, hi) => lo + (hi - room - lo) * u,
            Dist::L(lo, hi) => (lo.ln() + ((hi - room).ln() - lo.ln()) * u).exp(),
        }
    }

    /// The step `d` between the timed kernel's evaluations: 1/4096 of a
    /// uniform range, an eighth of a log-uniform range's low end.
    fn step(self) -> f64 {
        match self {
            Dist::U(lo, hi) => (hi - lo) / 4096.0,
            Dist::L(lo, _) => lo / 8.0,
        }
    }

    fn text(self) -> String {
        match self {
            Dist::U(lo, hi) => format!("[{lo}, {hi}]"),
            Dist::L(lo, hi) => format!("[{lo:e}, {hi:e}] log-uniform"),
        }
    }
}

/// What the fast form must meet against the accurate function (CUDA
/// C++ Programming Guide, "Intrinsic Functions"; each tolerance adds the
/// accurate function's own bound, which the reference carries).
#[derive(Clone, Copy, Debug)]
enum Fast {
    /// No intrinsic: the accurate function, with approximate division and
    /// square root and flushed subnormals: twice its bound plus 4 ulp.
    Same,
    /// [`Fast::Same`] in ulps of `max(|result|, 1)`: a function with
    /// zeros that it reaches by cancellation (`lgammaf` at 1 and 2), where
    /// an approximate division's error is absolute, not relative.
    SameAbs,
    /// `__expf` / `__exp10f`: `2 + floor(c·|x|)` ulp.
    ExpUlp(f64),
    /// `__logf` & co.: absolute error `abs` in `[0.5, 2]`, else `ulp`.
    Log(f64, f64),
    /// `__sinf` / `__cosf` on `[-π, π]`: absolute error.
    Abs(f64),
    /// `__tanf`: `__sinf · 1/__cosf` (`2^-21` in the angle, times `1 + tan²`).
    Tan,
    /// `__powf`: `ex2(y · lg2 x)`: relative `2^-20 + (|y log2 x| + |y|) 2^-21`.
    Pow,
    /// `tanh.approx`: relative error.
    Rel(f64),
}

/// One function's inputs and bounds.
#[derive(Clone, Copy, Debug)]
struct Spec {
    name: &'static str,
    x: Dist,
    /// The second argument of a binary function.
    y: Option<Dist>,
    /// CUDA's maximum ulp error of the accurate function.
    ulp: f64,
    fast: Fast,
}

const PI: f64 = std::f64::consts::PI;

const fn s(name: &'static str, x: Dist, ulp: f64, fast: Fast) -> Spec {
    Spec {
        name,
        x,
        y: None,
        ulp,
        fast,
    }
}

const fn s2(name: &'static str, x: Dist, y: Dist, ulp: f64) -> Spec {
    Spec {
        name,
        x,
        y: Some(y),
        ulp,
        fast: Fast::Same,
    }
}

use Dist::{L, U};
use Fast::Same;

/// The `f32` functions, in [`F32`]'s order: realistic in-domain inputs.
const SPECS_F32: &[Spec] = &[
    s("expf", U(-30.0, 30.0), 2.0, Fast::ExpUlp(1.173)),
    s("exp2f", U(-40.0, 40.0), 2.0, Same),
    s("exp10f", U(-12.0, 12.0), 2.0, Fast::ExpUlp(2.97)),
    s("expm1f", U(-5.0, 5.0), 1.0, Same),
    s("logf", L(1e-3, 1e3), 1.0, Fast::Log(2.86e-7, 3.0)),
    s("log2f", L(1e-3, 1e3), 1.0, Fast::Log(2.39e-7, 2.0)),
    s("log10f", L(1e-3, 1e3), 2.0, Fast::Log(6.0e-8, 3.0)),
    s("log1pf", U(-0.9, 10.0), 1.0, Same),
    Spec {
        fast: Fast::Pow,
        ..s2("powf", L(1e-2, 1e2), U(-8.0, 8.0), 4.0)
    },
    s("sqrtf", L(1e-6, 1e6), 0.0, Same),
    s("rsqrtf", L(1e-6, 1e6), 2.0, Same),
    s("cbrtf", U(-1e3, 1e3), 1.0, Same),
    s2("hypotf", U(-100.0, 100.0), U(-100.0, 100.0), 3.0),
    s("sinf", U(-PI, PI), 2.0, Fast::Abs(3.6e-7)),
    s("cosf", U(-PI, PI), 2.0, Fast::Abs(4.0e-7)),
    s("tanf", U(-1.5, 1.5), 4.0, Fast::Tan),
    s("sincosf", U(-PI, PI), 2.0, Fast::Abs(4.0e-7)),
    s("sinpif", U(-100.0, 100.0), 1.0, Same),
    s("cospif", U(-100.0, 100.0), 1.0, Same),
    s("asinf", U(-1.0, 1.0), 2.0, Same),
    s("acosf", U(-1.0, 1.0), 2.0, Same),
    s("atanf", U(-50.0, 50.0), 2.0, Same),
    s2("atan2f", U(-10.0, 10.0), U(-10.0, 10.0), 3.0),
    s("sinhf", U(-10.0, 10.0), 3.0, Same),
    s("coshf", U(-10.0, 10.0), 2.0, Same),
    s("tanhf", U(-5.0, 5.0), 2.0, Fast::Rel(5.2e-4)),
    s("asinhf", U(-100.0, 100.0), 3.0, Same),
    s("acoshf", U(1.0, 1e3), 4.0, Same),
    s("atanhf", U(-0.99, 0.99), 3.0, Same),
    s("erff", U(-4.0, 4.0), 2.0, Same),
    s("erfcf", U(-2.0, 9.0), 4.0, Same),
    s("erfinvf", U(-0.999, 0.999), 2.0, Same),
    s("erfcinvf", U(1e-3, 1.999), 4.0, Same),
    s("normcdff", U(-8.0, 8.0), 5.0, Same),
    s("normcdfinvf", U(1e-3, 0.999), 5.0, Same),
    s("lgammaf", U(0.1, 30.0), 6.0, Fast::SameAbs),
    s("tgammaf", U(0.1, 30.0), 5.0, Same),
    s2("fmodf", U(-1e3, 1e3), U(0.5, 10.0), 0.0),
];

/// The `f64` functions, in [`F64`]'s order.
const SPECS_F64: &[Spec] = &[
    s("exp", U(-30.0, 30.0), 1.0, Same),
    s("log", L(1e-3, 1e3), 1.0, Same),
    s("sin", U(-100.0, 100.0), 2.0, Same),
    s2("pow", L(1e-2, 1e2), U(-8.0, 8.0), 2.0),
    s("sqrt", L(1e-6, 1e6), 0.0, Same),
];

/// A function of the experiment: an index into [`F32`] (then [`F64`]).
fn spec(f: usize) -> &'static Spec {
    if f < F32.len() {
        &SPECS_F32[f]
    } else {
        &SPECS_F64[f - F32.len()]
    }
}

/// Every function: [`F32`]'s, then [`F64`]'s.
fn functions() -> usize {
    F32.len() + F64.len()
}

/// One (function, mode, side).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Var {
    /// Index into [`F32`] then [`F64`].
    f: usize,
    fast: bool,
    cpp: bool,
}

impl Var {
    fn f64(&self) -> bool {
        self.f >= F32.len()
    }
    fn name(&self) -> &'static str {
        spec(self.f).name
    }
    fn mode(&self) -> &'static str {
        if self.fast { "fast" } else { "default" }
    }
    fn side(&self) -> &'static str {
        if self.cpp { "c++" } else { "rust" }
    }
    /// The kernels' name stem: `expf`, `f64_exp`.
    fn stem(&self) -> String {
        if self.f64() {
            format!("f64_{}", self.name())
        } else {
            self.name().to_string()
        }
    }
    /// The element-wise and the timed kernel of this side and mode.
    fn kernels(&self) -> (String, String) {
        let stem = self.stem();
        match (self.cpp, self.fast) {
            (true, _) => (
                format!("cpp_math_one_{stem}"),
                format!("cpp_math_time_{stem}"),
            ),
            (false, false) => (format!("math_one_{stem}"), format!("math_time_{stem}")),
            (false, true) => (
                format!("math_one_fast_{stem}"),
                format!("math_time_fast_{stem}"),
            ),
        }
    }
}

/// One function's inputs on the device and their first [`CHECKED`] on
/// the host.
enum Inputs {
    F32 {
        x: Buffer<f32>,
        y: Option<Buffer<f32>>,
        hx: Vec<f32>,
        hy: Vec<f32>,
        d: f32,
    },
    F64 {
        x: Buffer<f64>,
        y: Option<Buffer<f64>>,
        hx: Vec<f64>,
        hy: Vec<f64>,
        d: f64,
    },
}

/// The inputs, output buffers and the twin's modules.
pub struct Bench<'a> {
    backend: &'a Backend,
    /// The plain and the `--use_fast_math` twin.
    modules: Option<(&'a Module, &'a Module)>,
    inputs: Vec<Inputs>,
    /// Elements of a timed launch.
    n: u32,
    /// Elements checked.
    m: u32,
    out32: Buffer<f32>,
    out64: Buffer<f64>,
    words32: Buffer<u32>,
    words64: Buffer<u64>,
    /// The shifted inputs of the checks ([`CHECKED`] each).
    shift32: Buffer<f32>,
    shift64: Buffer<f64>,
}

/// The stream of function `f`'s argument `arg` (0: x, 1: y).
fn seed(f: usize, arg: u64) -> u64 {
    (f as u64 + 1) * 2 + arg
}

impl<'a> Bench<'a> {
    fn new(
        backend: &'a Backend,
        modules: Option<(&'a Module, &'a Module)>,
        n: u32,
    ) -> Result<Self> {
        let m = n.min(CHECKED);
        let nn = n as usize;
        let mut inputs = Vec::with_capacity(functions());
        for f in 0..functions() {
            let sp = spec(f);
            let room = sp.x.step() * EVALS as f64;
            let draw = |dist: Dist, arg: u64, room: f64| -> Vec<f64> {
                (0..nn as u64)
                    .map(|i| dist.at(seed(f, arg), i, room))
                    .collect()
            };
            let xs = draw(sp.x, 0, room);
            let ys = sp.y.map(|y| draw(y, 1, 0.0));
            inputs.push(if f < F32.len() {
                let x: Vec<f32> = xs.iter().map(|&v| v as f32).collect();
                let y: Option<Vec<f32>> = ys.map(|y| y.iter().map(|&v| v as f32).collect());
                Inputs::F32 {
                    hx: x[..m as usize].to_vec(),
                    hy: y
                        .as_ref()
                        .map_or_else(|| x[..m as usize].to_vec(), |y| y[..m as usize].to_vec()),
                    x: backend.upload(&x)?,
                    y: y.map(|y| backend.upload(&y)).transpose()?,
                    d: sp.x.step() as f32,
                }
            } else {
                let y = ys;
                Inputs::F64 {
                    hx: xs[..m as usize].to_vec(),
                    hy: y
                        .as_ref()
                        .map_or_else(|| xs[..m as usize].to_vec(), |y| y[..m as usize].to_vec()),
                    x: backend.upload(&xs)?,
                    y: y.map(|y| backend.upload(&y)).transpose()?,
                    d: sp.x.step(),
                }
            });
        }
        Ok(Bench {
            backend,
            modules,
            inputs,
            n,
            m,
            out32: backend.alloc(2 * m as usize)?,
            out64: backend.alloc(m as usize)?,
            words32: backend.alloc(nn)?,
            words64: backend.alloc(nn)?,
            shift32: backend.alloc(m as usize)?,
            shift64: backend.alloc(m as usize)?,
        })
    }

    /// The C++ module of `v`'s mode.
    fn module(&self, v: Var) -> Result<&'a Module> {
        let (plain, fast) = self.modules.context("C++ runs on a GPU only")?;
        Ok(if v.fast { fast } else { plain })
    }

    /// Launches `kernel` (Rust `rust`, else the twin's function of that
    /// name) over `n` threads with `args`; waits for it unless `timed`.
    ///
    /// # Safety
    /// `args` must be what the kernel reads and writes (the contract of
    /// `cg_kernels::math_speed`: `n` elements of each input, `n` outputs,
    /// `2n` for a function with two results).
    unsafe fn go<A>(
        &self,
        v: Var,
        rust: Kernel<A>,
        cpp: &str,
        n: u32,
        args: A,
        timed: bool,
    ) -> Result<()>
    where
        A: cg_runtime::KernelArgs + cg_runtime::HostArgs<A> + Copy,
    {
        let cfg = LaunchConfig::linear(n.div_ceil(BLOCK), BLOCK);
        if v.cpp {
            let gpu = gpu_of(self.backend);
            let f = self.module(v)?.function(cpp)?;
            // SAFETY: forwarded; the twin takes the same arguments.
            unsafe { gpu.launch_function(f, cpp, &cfg, args) }?;
            if !timed {
                gpu.synchronize()?;
            }
            return Ok(());
        }
        // SAFETY: forwarded.
        unsafe {
            match self.backend {
                Backend::Gpu(g) if timed => g.launch_unchecked(&rust, &cfg, args)?,
                b => b.launch_unchecked(&rust, &cfg, args)?,
            }
        }
        Ok(())
    }

    /// The timed kernel of `v` over `self.n` elements.
    fn time(&mut self, v: Var, timed: bool) -> Result<()> {
        let (_, cpp) = v.kernels();
        let n = self.n;
        match &self.inputs[v.f] {
            Inputs::F32 { x, y, d, .. } => {
                let k = &F32[v.f];
                let rust = if v.fast { k.time_fast } else { k.time };
                let yp = y.as_ref().unwrap_or(x).as_ptr().cast_const();
                let args = (x.as_ptr().cast_const(), yp, self.words32.as_ptr(), n, *d);
                // SAFETY: `n` inputs in `x` and `y`, `n` words out.
                unsafe { self.go(v, rust, &cpp, n, args, timed) }
            }
            Inputs::F64 { x, y, d, .. } => {
                let k = &F64[v.f - F32.len()];
                let yp = y.as_ref().unwrap_or(x).as_ptr().cast_const();
                let args = (x.as_ptr().cast_const(), yp, self.words64.as_ptr(), n, *d);
                // SAFETY: as above.
                unsafe { self.go(v, k.time, &cpp, n, args, timed) }
            }
        }
    }

    /// The element-wise kernel of `v` on the first `m` inputs, `x` shifted
    /// by `k` steps: its `f32` results (both halves for `sincosf`).
    fn one32(&mut self, v: Var, k: usize) -> Result<Vec<f32>> {
        let (cpp, _) = v.kernels();
        let m = self.m;
        let Inputs::F32 { x, y, hx, d, .. } = &self.inputs[v.f] else {
            unreachable!("an f32 function")
        };
        let yp = y.as_ref().unwrap_or(x).as_ptr().cast_const();
        let xp = if k == 0 {
            x.as_ptr().cast_const()
        } else {
            self.shift32.copy_from(&shift(hx, *d, k))?;
            self.shift32.as_ptr().cast_const()
        };
        let kf = &F32[v.f];
        let rust = if v.fast { kf.one_fast } else { kf.one };
        let args = (xp, yp, self.out32.as_ptr(), m);
        // SAFETY: `m` inputs in each (the shifted copy holds `m`), `2m` outputs.
        unsafe { self.go(v, rust, &cpp, m, args, false) }?;
        let mut out = self.out32.to_vec()?;
        out.truncate(if kf.two { 2 * m as usize } else { m as usize });
        Ok(out)
    }

    /// [`Self::one32`] for an `f64` function.
    fn one64(&mut self, v: Var, k: usize) -> Result<Vec<f64>> {
        let (cpp, _) = v.kernels();
        let m = self.m;
        let Inputs::F64 { x, y, hx, d, .. } = &self.inputs[v.f] else {
            unreachable!("an f64 function")
        };
        let yp = y.as_ref().unwrap_or(x).as_ptr().cast_const();
        let xp = if k == 0 {
            x.as_ptr().cast_const()
        } else {
            self.shift64.copy_from(&shift(hx, *d, k))?;
            self.shift64.as_ptr().cast_const()
        };
        let rust = F64[v.f - F32.len()].one;
        let args = (xp, yp, self.out64.as_ptr(), m);
        // SAFETY: `m` inputs in each, `m` outputs.
        unsafe { self.go(v, rust, &cpp, m, args, false) }?;
        Ok(self.out64.to_vec()?)
    }
}

/// `x` shifted by `k` steps of `d`, one addition at a time (as the timed
/// kernels shift it).
fn shift<T: Copy + std::ops::AddAssign>(x: &[T], d: T, k: usize) -> Vec<T> {
    x.iter()
        .map(|&v| {
            let mut v = v;
            for _ in 0..k {
                v += d;
            }
            v
        })
        .collect()
}

/// The distance in representable values between `a` and `b` (0 for two
/// NaNs, infinite for one).
fn ulps32(a: f32, b: f32) -> f64 {
    if a.is_nan() || b.is_nan() {
        return if a.is_nan() && b.is_nan() {
            0.0
        } else {
            f64::INFINITY
        };
    }
    let key = |v: f32| {
        let i = v.to_bits() as i32;
        if i < 0 {
            i32::MIN as i64 - i as i64
        } else {
            i as i64
        }
    };
    (key(a) - key(b)).unsigned_abs() as f64
}

/// [`ulps32`] for `f64`.
fn ulps64(a: f64, b: f64) -> f64 {
    if a.is_nan() || b.is_nan() {
        return if a.is_nan() && b.is_nan() {
            0.0
        } else {
            f64::INFINITY
        };
    }
    let key = |v: f64| {
        let i = v.to_bits() as i64;
        if i < 0 {
            i64::MIN as i128 - i as i128
        } else {
            i as i128
        }
    };
    (key(a) - key(b)).unsigned_abs() as f64
}

/// One ulp of `f32` at `v` (of the smallest normal below it).
fn ulp_of(v: f64) -> f64 {
    let a = v.abs().max(f32::MIN_POSITIVE as f64);
    2f64.powi(a.log2().floor() as i32 - 23)
}

/// Whether the fast form's `got` at `(x, y)` is within `sp`'s tolerance
/// of the accurate `want`.
fn fast_ok(sp: &Spec, x: f32, y: f32, got: f32, want: f32) -> bool {
    if got == want || (got.is_nan() && want.is_nan()) {
        return true;
    }
    let (x, y, g, w) = (x as f64, y as f64, got as f64, want as f64);
    let err = (g - w).abs();
    // Flushed subnormal results.
    if w.abs() < f32::MIN_POSITIVE as f64 && g.abs() < f32::MIN_POSITIVE as f64 {
        return true;
    }
    let u = ulp_of(w);
    let tol = match sp.fast {
        Fast::Same => (2.0 * sp.ulp + 4.0) * u,
        Fast::SameAbs => (2.0 * sp.ulp + 4.0) * ulp_of(w.abs().max(1.0)),
        Fast::ExpUlp(c) => (2.0 + (c * x.abs()).floor() + sp.ulp) * u,
        Fast::Log(abs, _) if (0.5..=2.0).contains(&x) => abs + sp.ulp * u,
        Fast::Log(_, ulp) => (ulp + sp.ulp) * u,
        Fast::Abs(a) => a + sp.ulp * u,
        Fast::Tan => 2f64.powi(-20) * (1.0 + w * w) + (sp.ulp + 2.0) * u,
        Fast::Pow => {
            let t = (y * x.log2()).abs();
            (2f64.powi(-20) + (t + y.abs()) * 2f64.powi(-21)) * w.abs() + sp.ulp * u
        }
        Fast::Rel(r) => r * w.abs() + sp.ulp * u,
    };
    err <= tol
}

/// What a verification measured besides its verdict: for C++, the
/// largest distance in ulps from Rust's results (same mode).
#[derive(Clone, Copy, Debug, Default)]
pub struct Extra {
    ulps: Option<f64>,
}

/// Checks the element-wise results of `v`; (ok, what, ulps from Rust).
fn check_one(b: &mut Bench<'_>, v: Var) -> Result<(bool, String, Option<f64>)> {
    let sp = spec(v.f);
    let sim = b.backend.is_sim();
    let m = b.m as usize;
    if v.f64() {
        let got = b.one64(v, 0)?;
        let Inputs::F64 { hx, hy, .. } = &b.inputs[v.f] else {
            unreachable!()
        };
        let f = F64[v.f - F32.len()].accurate;
        let want: Vec<f64> = (0..m).map(|i| f(hx[i], hy[i])).collect();
        if !v.cpp {
            return Ok(
                match got
                    .iter()
                    .zip(&want)
                    .position(|(g, w)| g.to_bits() != w.to_bits())
                {
                    None => (true, format!("{m} results = host"), None),
                    Some(i) => (
                        false,
                        format!("x = {:e}: {:e}, host {:e}", hx[i], got[i], want[i]),
                        None,
                    ),
                },
            );
        }
        let (worst, at) = worst(got.iter().zip(&want).map(|(&g, &w)| ulps64(g, w)));
        let ok = worst <= 2.0 * sp.ulp;
        return Ok((
            ok,
            format!("{m} results, ≤ {worst} ulp from Rust (x = {:e})", hx[at]),
            Some(worst),
        ));
    }
    let got = b.one32(v, 0)?;
    let Inputs::F32 { hx, hy, .. } = &b.inputs[v.f] else {
        unreachable!()
    };
    let (hx, hy) = (hx.clone(), hy.clone());
    let k = &F32[v.f];
    let pairs: Vec<(f32, f32)> = (0..m).map(|i| (hx[i], hy[i])).collect();
    let model = |fast: bool| -> Vec<f32> {
        let f = if fast { k.fast } else { k.accurate };
        let r: Vec<(f32, f32)> = pairs.iter().map(|&(x, y)| f(x, y)).collect();
        let mut out: Vec<f32> = r.iter().map(|p| p.0).collect();
        if k.two {
            out.extend(r.iter().map(|p| p.1));
        }
        out
    };
    let xi = |i: usize| hx[i % m];
    if !v.cpp && (!v.fast || sim) {
        // The same code on both: bit for bit.
        let want = model(v.fast);
        return Ok(
            match got
                .iter()
                .zip(&want)
                .position(|(g, w)| g.to_bits() != w.to_bits())
            {
                None => (true, format!("{} results = host", got.len()), None),
                Some(i) => (
                    false,
                    format!("x = {:e}: {:e}, host {:e}", xi(i), got[i], want[i]),
                    None,
                ),
            },
        );
    }
    let accurate = model(false);
    let mut ok = true;
    let mut what = format!("{} results", got.len());
    if v.fast
        && let Some(i) =
            (0..got.len()).find(|&i| !fast_ok(sp, xi(i), hy[i % m], got[i], accurate[i]))
    {
        ok = false;
        what = format!("x = {:e}: {:e}, accurate {:e}", xi(i), got[i], accurate[i]);
    }
    if !v.cpp {
        return Ok((ok, what, None));
    }
    // C++ against Rust (same mode).
    let rust = b.one32(Var { cpp: false, ..v }, 0)?;
    let (worst, at) = worst(got.iter().zip(&rust).map(|(&g, &r)| ulps32(g, r)));
    // Each side within CUDA's bound of the exact value: at most twice the
    // bound apart (for `lgammaf` also in ulps of `max(|result|, 1)`: next to
    // its zeros at 1 and 2 a result's own ulp is far below what any
    // fixed-precision evaluation of `ln Γ` keeps).
    let apart = |g: f32, r: f32| match sp.fast {
        Fast::SameAbs => {
            (g as f64 - r as f64).abs() <= 2.0 * sp.ulp * ulp_of((r as f64).abs().max(1.0))
                || ulps32(g, r) <= 2.0 * sp.ulp
        }
        _ => ulps32(g, r) <= 2.0 * sp.ulp,
    };
    if !v.fast
        && let Some(i) = (0..got.len()).find(|&i| !apart(got[i], rust[i]))
    {
        ok = false;
        what = format!(
            "x = {:e}: {:e}, Rust {:e} ({} ulp apart)",
            xi(i),
            got[i],
            rust[i],
            ulps32(got[i], rust[i])
        );
    }
    if ok {
        what = format!("{what}, ≤ {worst} ulp from Rust (x = {:e})", xi(at));
    }
    Ok((ok, what, Some(worst)))
}

/// The largest of `it` and its position.
fn worst(it: impl Iterator<Item = f64>) -> (f64, usize) {
    it.enumerate().fold(
        (0.0, 0),
        |(w, at), (i, u)| if u > w { (u, i) } else { (w, at) },
    )
}

/// Checks the first `m` words of `v`'s timed kernel bit for bit.
fn check_time(b: &mut Bench<'_>, v: Var) -> Result<(bool, String)> {
    let m = b.m as usize;
    let sim = b.backend.is_sim();
    // On the host where the host computes the same bits, else from the
    // same side's element-wise kernel on the shifted inputs.
    let host = !v.cpp && (!v.fast || sim);
    if v.f64() {
        b.time(v, false)?;
        let got = b.words64.to_vec()?;
        let mut want = vec![0u64; m];
        let Inputs::F64 { hx, hy, d, .. } = &b.inputs[v.f] else {
            unreachable!()
        };
        let (hx, hy, d) = (hx.clone(), hy.clone(), *d);
        for k in 0..EVALS {
            let vals = if host {
                let f = F64[v.f - F32.len()].accurate;
                shift(&hx, d, k)
                    .iter()
                    .zip(&hy)
                    .map(|(&x, &y)| f(x, y))
                    .collect()
            } else {
                b.one64(v, k)?
            };
            for (w, r) in want.iter_mut().zip(vals) {
                *w ^= r.to_bits();
            }
        }
        return Ok(verdict_words(&got[..m], &want));
    }
    b.time(v, false)?;
    let got = b.words32.to_vec()?;
    let mut want = vec![0u32; m];
    let Inputs::F32 { hx, hy, d, .. } = &b.inputs[v.f] else {
        unreachable!()
    };
    let (hx, hy, d) = (hx.clone(), hy.clone(), *d);
    let k32 = F32[v.f];
    for k in 0..EVALS {
        let vals: Vec<f32> = if host {
            let f = if v.fast { k32.fast } else { k32.accurate };
            let r: Vec<(f32, f32)> = shift(&hx, d, k)
                .iter()
                .zip(&hy)
                .map(|(&x, &y)| f(x, y))
                .collect();
            let mut out: Vec<f32> = r.iter().map(|p| p.0).collect();
            if k32.two {
                out.extend(r.iter().map(|p| p.1));
            }
            out
        } else {
            b.one32(v, k)?
        };
        for (i, w) in want.iter_mut().enumerate() {
            *w ^= vals[i].to_bits();
            if k32.two {
                *w ^= vals[m + i].to_bits();
            }
        }
    }
    Ok(verdict_words(&got[..m], &want))
}

fn verdict_words<W: PartialEq + std::fmt::LowerHex>(got: &[W], want: &[W]) -> (bool, String) {
    match got.iter().zip(want).position(|(g, w)| g != w) {
        None => (true, format!("{} timed words = model", got.len())),
        Some(i) => (
            false,
            format!("timed word {i}: {:x}, model {:x}", got[i], want[i]),
        ),
    }
}

/// One (function, mode, side) result.
#[derive(Clone, Debug, Serialize)]
pub struct Row {
    function: &'static str,
    #[serde(rename = "type")]
    ty: &'static str,
    mode: &'static str,
    side: &'static str,
    n: u32,
    evals: usize,
    ms: Summary,
    /// Evaluations per second, in billions.
    gevals_per_s: f64,
    /// C++: the largest distance in ulps from Rust's results.
    ulps_from_rust: Option<f64>,
    verified: bool,
    check: String,
    #[serde(skip)]
    var: Var,
}

impl CsvRow for Row {
    const COLUMNS: &'static [Column<Row>] = &[
        ("function", |r| r.function.into()),
        ("type", |r| r.ty.into()),
        ("mode", |r| r.mode.into()),
        ("side", |r| r.side.into()),
        ("n", |r| r.n.to_string()),
        ("evals_per_thread", |r| r.evals.to_string()),
        ("median_ms", |r| ms(r.ms.median)),
        ("p10_ms", |r| ms(r.ms.p10)),
        ("p90_ms", |r| ms(r.ms.p90)),
        ("gevals_per_s", |r| format!("{:.2}", r.gevals_per_s)),
        ("ulps_from_rust", |r| {
            r.ulps_from_rust.map_or_else(String::new, |u| u.to_string())
        }),
        ("verified", |r| r.verified.to_string()),
    ];
}

impl Outcome for Row {
    fn failure(&self) -> Option<String> {
        (!self.verified).then(|| {
            format!(
                "{} {} {} ({})",
                self.function, self.mode, self.side, self.check
            )
        })
    }
}

/// Rust's and C++'s rows of one (function, mode).
fn pair(rows: &[Row], f: usize, fast: bool) -> Option<(&Row, &Row)> {
    let find = |cpp| rows.iter().find(|r| r.var == Var { f, fast, cpp });
    Some((find(false)?, find(true)?))
}

/// Whether a ratio meets 1.00 ± 0.01.
fn meets(ratio: f64) -> bool {
    ratio <= 1.01
}

/// The math functions against CUDA's.
pub struct MathSpeed;

impl Experiment for MathSpeed {
    const NAME: &'static str = "math";
    const TWIN: Source = MATH_CU;
    const BUILD: Build = Build::Cubin;
    const FLAVOURS: &'static [Flavour] = &[FAST];
    const CUB: bool = false;
    const OWN_SIZES: Option<&'static [u32]> = Some(&[N]);
    const TIMED: &'static str = "the kernel";
    /// A partial block.
    const SIM_SIZES: &'static [u32] = &[100];
    const WIDTH: (usize, usize) = (36, 36);
    type Variant = Var;
    type Extra = Extra;
    type Row = Row;
    type Bench<'a> = Bench<'a>;

    fn bench<'a>(
        backend: &'a Backend,
        twin: Option<&'a Twin>,
        sizes: &[u32],
        _: &Options<'_>,
    ) -> Result<Bench<'a>> {
        let modules = match twin {
            Some(t) => Some((t.module()?, &t.flavoured(FAST.tag)?.module)),
            None => None,
        };
        let n = *sizes.iter().max().expect("sizes");
        Bench::new(backend, modules, n)
    }

    fn variants(_: &Bench<'_>, _: &[u32], _: &Options<'_>, cpp: bool) -> Vec<Var> {
        let mut v = Vec::new();
        for f in 0..functions() {
            for fast in [false, true] {
                if fast && f >= F32.len() {
                    continue; // `--use_fast_math` leaves `double` alone
                }
                v.push(Var {
                    f,
                    fast,
                    cpp: false,
                });
                if cpp {
                    v.push(Var { f, fast, cpp: true });
                }
            }
        }
        v
    }

    fn kernel(v: Var) -> String {
        v.kernels().1
    }

    fn n(_: Var) -> u32 {
        N
    }

    fn label(v: Var, sim: bool) -> String {
        let k = Self::kernel(v);
        if sim {
            format!("{k:<36} on the simulator:")
        } else {
            format!("{k:<36}")
        }
    }

    fn sim_label(v: Var) -> String {
        Self::kernel(v)
    }

    fn launch(b: &mut Bench<'_>, v: Var) -> Result<()> {
        b.time(v, true)
    }

    fn verify(b: &mut Bench<'_>, v: Var) -> Result<Verified<Extra>> {
        let (ok1, what1, ulps) = check_one(b, v)?;
        let (ok2, what2) = check_time(b, v)?;
        Ok(Verified {
            ok: ok1 && ok2,
            what: format!("{what1}; {what2}"),
            extra: Extra { ulps },
        })
    }

    fn rows(
        b: &Bench<'_>,
        vars: &[Var],
        ms: Vec<Summary>,
        checks: Vec<Verified<Extra>>,
        _: &Platform,
    ) -> Vec<Row> {
        vars.iter()
            .zip(ms)
            .zip(checks)
            .map(|((&v, ms), c)| Row {
                function: v.name(),
                ty: if v.f64() { "f64" } else { "f32" },
                mode: v.mode(),
                side: v.side(),
                n: b.n,
                evals: EVALS,
                gevals_per_s: b.n as f64 * EVALS as f64 / (ms.median * 1e-3) / 1e9,
                ms,
                ulps_from_rust: c.extra.ulps,
                verified: c.ok,
                check: c.what,
                var: v,
            })
            .collect()
    }

    fn markdown(rows: &[Row], r: &Report<'_, Bench<'_>>) -> String {
        let n = r.bench.n;
        let mut s = head("math: CUDA's math functions, Rust against nvcc", r.platform);
        let _ = writeln!(
            s,
            "One kernel per function and side (`math_time_<f>`, `cpp_math_time_<f>`), blocks of {BLOCK}, \
             {n} threads; each thread loads its input (two for the binary functions) and evaluates the \
             function at {EVALS} inputs `x`, `x + d`, `x + 2d`, … (`d` a 4096th of the range), writing the \
             XOR of the results' bits. Default: the accurate functions (`cooperative_groups::math`, CUDA's \
             math library); fast: `#[kernel(fast_math)]` against `nvcc --use_fast_math`. Every variant \
             verified first: its element-wise kernel on {} inputs (Rust's accurate functions bit for bit \
             against the host's, the fast forms within the intrinsics' documented error, C++ within twice \
             CUDA's ulp bound of Rust's) and its timed kernel's words bit for bit. Timing: {}; all \
             variants interleaved. The must-show is Rust ÷ C++ ≤ 1.00 ± 0.01: ratios above 1.01 are \
             marked **miss**.\n",
            r.bench.m, r.timing
        );
        for fast in [false, true] {
            let _ = writeln!(
                s,
                "## {}\n",
                if fast {
                    "Fast math (`#[kernel(fast_math)]`, `--use_fast_math`)"
                } else {
                    "Default (accurate functions)"
                }
            );
            s += &table_head(&[
                ("function", false),
                ("inputs", false),
                ("Rust ms", true),
                ("C++ ms", true),
                ("Rust ÷ C++", true),
                ("Rust Gevals/s", true),
                ("max ulp Rust–C++", true),
                ("verified", false),
            ]);
            let (mut met, mut all) = (0, 0);
            for f in 0..functions() {
                let Some((a, c)) = pair(rows, f, fast) else {
                    continue;
                };
                let ratio = a.ms.median / c.ms.median;
                all += 1;
                let mark = if meets(ratio) {
                    met += 1;
                    format!("{ratio:.3}")
                } else {
                    format!("**{ratio:.3} miss**")
                };
                let sp = spec(f);
                let inputs = match sp.y {
                    Some(y) => format!("{}, {}", sp.x.text(), y.text()),
                    None => sp.x.text(),
                };
                let _ = writeln!(
                    s,
                    "| `{}`{} | {inputs} | {:.4} | {:.4} | {mark} | {:.1} | {} | {} |",
                    sp.name,
                    if f >= F32.len() { " (f64)" } else { "" },
                    a.ms.median,
                    c.ms.median,
                    a.gevals_per_s,
                    c.ulps_from_rust
                        .map_or_else(|| "–".into(), |u| u.to_string()),
                    if a.verified && c.verified {
                        "both"
                    } else {
                        "FAILED"
                    }
                );
            }
            let _ = writeln!(s, "\n{met} of {all} within 1.00 ± 0.01 (or faster).\n");
        }
        s
    }

    fn line(r: &Row) -> String {
        format!(
            "math {:<12} {:<4} {:<7} {:<4} {:>9.4} ms {:>8.1} Gevals/s  {}",
            r.function,
            r.ty,
            r.mode,
            r.side,
            r.ms.median,
            r.gevals_per_s,
            ok(r.verified)
        )
    }

    /// Instruction counts of every kernel, Rust against C++, both modes;
    /// the element-wise kernels' full SASS.
    fn sass(b: &Bench<'_>, vars: &[Var], twin: &Twin, dir: &Path, out: &Path) -> Result<()> {
        let Twin::Cubin { path, .. } = twin else {
            anyhow::bail!("the twin is not a cubin");
        };
        let l = crate::listings::listings(gpu_of(b.backend), path, dir)?;
        let fast = sass::disassemble(&l.dis, &twin.flavoured(FAST.tag)?.path)
            .map_err(anyhow::Error::msg)?;
        let count = |v: &Var, timed: bool| -> Option<usize> {
            let (one, time) = v.kernels();
            let name = if timed { time } else { one };
            let listing = match (v.cpp, v.fast) {
                (false, _) => &l.rust,
                (true, false) => &l.cpp,
                (true, true) => &fast,
            };
            listing
                .get(&name)
                .map(|code| code.iter().filter(|i| i.opcode != "NOP").count())
        };
        let mut md = format!(
            "# SASS of the math experiment (sm_{}; Rust PTX sm_{})\n\n\
             Instructions per kernel (NOPs left out), the element-wise kernel (one evaluation) and the \
             timed one ({EVALS} evaluations); the functions where Rust's element-wise kernel is longer \
             are marked.\n\n",
            l.sm, l.ptx_sm
        );
        md += &table_head(&[
            ("function", false),
            ("mode", false),
            ("Rust one", true),
            ("C++ one", true),
            ("Rust timed", true),
            ("C++ timed", true),
        ]);
        let mut full = String::new();
        for v in vars.iter().filter(|v| !v.cpp) {
            let c = Var { cpp: true, ..*v };
            let cell = |x: Option<usize>| x.map_or_else(|| "–".into(), |x| x.to_string());
            let (ro, co) = (count(v, false), count(&c, false));
            let longer = matches!((ro, co), (Some(a), Some(b)) if a > b);
            let _ = writeln!(
                md,
                "| `{}`{} | {} | {} | {} | {} | {} |",
                v.stem(),
                if longer { " (longer)" } else { "" },
                v.mode(),
                cell(ro),
                cell(co),
                cell(count(v, true)),
                cell(count(&c, true)),
            );
            let (one, _) = v.kernels();
            let (cone, _) = c.kernels();
            let cpp_listing = if v.fast { &fast } else { &l.cpp };
            full += &crate::listings::full_text([
                (one.as_str(), l.rust.get(&one)),
                (&*format!("{cone} ({})", v.mode()), cpp_listing.get(&cone)),
            ]);
        }
        write_atomic(&out.join("math_sass.md"), md.as_bytes())?;
        write_atomic(&out.join("math_sass.txt"), full.as_bytes())?;
        println!("wrote {}", out.join("math_sass.md").display());
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_specs_follow_the_kernels_table() {
        assert_eq!(SPECS_F32.len(), F32.len());
        assert_eq!(SPECS_F64.len(), F64.len());
        for (s, k) in SPECS_F32.iter().zip(F32) {
            assert_eq!(s.name, k.name);
            assert_eq!(s.y.is_some(), k.arity == 2, "{}", s.name);
        }
        for (s, k) in SPECS_F64.iter().zip(F64) {
            assert_eq!(s.name, k.name);
            assert_eq!(s.y.is_some(), k.arity == 2, "{}", s.name);
        }
    }

    #[test]
    fn the_kernels_verify_on_the_simulator() {
        let backend = Backend::sim();
        let opts = Options {
            sizes: &[],
            n: 0,
            keys: &[],
            prims: &[],
            grid: None,
        };
        let mut b = MathSpeed::bench(&backend, None, MathSpeed::SIM_SIZES, &opts).expect("bench");
        let vars = MathSpeed::variants(&b, MathSpeed::SIM_SIZES, &opts, false);
        let mut bad = Vec::new();
        for v in vars {
            let c = MathSpeed::verify(&mut b, v).expect("verify");
            if !c.ok {
                bad.push(format!("{}: {}", MathSpeed::kernel(v), c.what));
            }
        }
        assert!(bad.is_empty(), "{bad:#?}");
    }

    #[test]
    fn ulps_count_representable_values() {
        assert_eq!(ulps32(1.0, f32::from_bits(1.0f32.to_bits() + 3)), 3.0);
        assert_eq!(ulps32(-0.0, 0.0), 0.0);
        assert_eq!(ulps32(f32::from_bits(1), -f32::from_bits(1)), 2.0);
        assert_eq!(ulps64(2.0, f64::from_bits(2.0f64.to_bits() - 1)), 1.0);
    }
}
