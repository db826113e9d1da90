//! `cg-lab math-accuracy`: the accuracy of the math library measured on
//! the GPU, against CUDA's documented bounds.
//!
//! * every unary `f32` function and every unary `f32` intrinsic on all
//!   2^32 inputs (`--unary-log2 32`, the GPU's default), against the
//!   library's `f64` function of the widened input; the kernel
//!   (`cg_kernels::math_accuracy::math_accuracy_f32`) reduces each launch
//!   to six numbers per function on the GPU;
//! * the binary and ternary `f32` functions and intrinsics on random
//!   arguments from a counter-based hash (`--args-inputs`, 10^8 by
//!   default), reduced the same way;
//! * the `f64` functions on random inputs (`--f64-inputs`): computed on
//!   the GPU, measured on the host against glibc's `_Float128` functions
//!   (no 113-bit arithmetic runs on the GPU; `cg_kernels::math_reference`,
//!   the simulator tests' references).
//!
//! Writes `math_accuracy.{md,csv,json}` and exits non-zero when a function
//! exceeds its bound or mismatches a special value. On the simulator
//! (`--backend sim`) the default sizes are small (2^16 unary inputs
//! strided over the whole bit space), for tests.

use std::path::PathBuf;
use std::time::Instant;

use anyhow::{Context, Result, bail};
use cg_kernels::math::{MATH_UNARY_F64, UNARY_F32_FUNCTIONS, UNARY_F64_FUNCTIONS};
use cg_kernels::math_accuracy::{
    ACC_SLOTS, ACC_THREADS, ARGS_F32, BINARY_F32_BOUNDS, BINARY_F64_FUNCTIONS, INTRINSICS_F32,
    MATH_ACCURACY_ARGS_F32, MATH_ACCURACY_F32, MATH_BINARY_F64, SLOT_ABS, SLOT_RATIO, SLOT_SPECIAL,
    SLOT_SPECIAL_FIRST, SLOT_TESTED, SLOT_ULP, UNARY_F32_BOUNDS, args_of, initial_slots, key_value,
};
use cg_kernels::math_reference::{Rng, binary_cases, unary_cases};
use cg_runtime::{Backend, LaunchConfig};
use clap::Args;

use crate::backend_choice::BackendArgs;
use crate::output::write_atomic;

/// Flags of `cg-lab math-accuracy`.
#[derive(Args, Debug, Clone)]
pub struct MathAccuracyArgs {
    #[command(flatten)]
    pub backend: BackendArgs,
    /// Functions to measure, comma-separated: names (`expf`, `__sinf`,
    /// `powf`, `exp`) or groups (`f32`: the unary functions, `intrinsics`:
    /// the unary intrinsics, `args`: the multi-argument `f32` functions and
    /// intrinsics, `f64`: the double functions). Default: all.
    #[arg(long, value_delimiter = ',')]
    pub functions: Vec<String>,
    /// log2 of the unary `f32` inputs per function, spread evenly over the
    /// 2^32 bit patterns (32: every one). Default 32 on a GPU, 16 on the
    /// simulator.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=32))]
    pub unary_log2: Option<u32>,
    /// Random argument tuples per multi-argument `f32` function. Default
    /// 10^8 on a GPU, 2^12 on the simulator.
    #[arg(long)]
    pub args_inputs: Option<u32>,
    /// Random inputs per `f64` function (their references run on the host:
    /// about 2 µs per input and core). Default 2^22 on a GPU, 2^10 on the
    /// simulator.
    #[arg(long)]
    pub f64_inputs: Option<u64>,
    /// Seed of the random arguments (the report names it; a worst case is
    /// reproduced from the seed and its index).
    #[arg(long, default_value_t = 1)]
    pub seed: u32,
    /// Output folder (default `results/math-accuracy/`).
    #[arg(long)]
    pub out: Option<PathBuf>,
}

/// How one function fared.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Verdict {
    /// Within CUDA's bound, no special-value mismatch.
    Pass,
    /// Over the bound, or a special value wrong.
    Fail,
    /// Measured; CUDA documents no bound (no special-value mismatch).
    NoBound,
}

impl Verdict {
    fn word(self) -> &'static str {
        match self {
            Verdict::Pass => "pass",
            Verdict::Fail => "FAIL",
            Verdict::NoBound => "no bound",
        }
    }
}

/// One row of the report.
#[derive(Clone, Debug)]
struct Row {
    group: &'static str,
    name: String,
    bound: String,
    max_ulp: Option<f64>,
    max_abs: Option<f64>,
    worst: String,
    tested: u64,
    special: u64,
    first_special: String,
    verdict: Verdict,
}

/// Which groups and names the user asked for.
struct Selection(Vec<String>);

impl Selection {
    fn wants(&self, group: &str, name: &str) -> bool {
        self.0.is_empty() || self.0.iter().any(|s| s == group || s == name)
    }
}

/// Every name the command knows, by group (for `--functions` checks).
fn known() -> Vec<(&'static str, &'static str)> {
    let mut v = Vec::new();
    v.extend(UNARY_F32_FUNCTIONS.iter().map(|(n, _)| ("f32", *n)));
    v.extend(INTRINSICS_F32.iter().map(|(n, _)| ("intrinsics", *n)));
    v.extend(ARGS_F32.iter().map(|(n, _)| ("args", *n)));
    v.extend(unary_cases().iter().map(|c| ("f64", c.name)));
    v.extend(binary_cases().iter().map(|c| ("f64", c.name)));
    v
}

impl MathAccuracyArgs {
    /// Refuses unknown function names before anything runs.
    pub fn validate(&self) -> Result<(), String> {
        let k = known();
        for s in &self.functions {
            if !["f32", "intrinsics", "args", "f64"].contains(&s.as_str())
                && !k.iter().any(|(_, n)| n == s)
            {
                return Err(format!(
                    "--functions: unknown function or group `{s}` (groups: f32, intrinsics, args, f64)"
                ));
            }
        }
        Ok(())
    }
}

/// The grid of a sweep launch: enough blocks to fill the GPU several
/// times over (each thread loops over its share of the inputs).
fn sweep_config(backend: &Backend) -> LaunchConfig {
    let blocks = match backend {
        Backend::Gpu(g) => g.info().sm_count * 8,
        Backend::Sim(_) => 4,
    };
    LaunchConfig::linear(blocks, ACC_THREADS)
}

/// Inputs per launch: 2^30 (a launch of a few seconds at most on a large
/// GPU, well under the watchdog's and the `--timeout`'s limits).
const CHUNK: u64 = 1 << 30;

/// The accumulator words of one function after all its launches.
fn sweep<F>(backend: &Backend, mut launch: F, total: u64) -> Result<[u64; ACC_SLOTS]>
where
    F: FnMut(&mut cg_runtime::Buffer<u64>, u32, u32) -> Result<()>,
{
    let mut acc = backend.upload(&initial_slots())?;
    let mut start = 0u64;
    while start < total {
        let count = (total - start).min(CHUNK);
        launch(&mut acc, start as u32, count as u32)?;
        start += count;
    }
    let v = acc.to_vec()?;
    Ok(v.try_into().expect("ACC_SLOTS words"))
}

/// Turns accumulator words into a row; `tag` formats the input a tag names.
fn row_of(
    group: &'static str,
    name: &str,
    bound: String,
    acc: [u64; ACC_SLOTS],
    bounded: bool,
    tag: impl Fn(u32) -> String,
) -> Row {
    let special = acc[SLOT_SPECIAL];
    let ratio = key_value(acc[SLOT_RATIO]) as f64;
    let (ulp, abs) = (acc[SLOT_ULP], acc[SLOT_ABS]);
    let mut worst = Vec::new();
    if ulp != 0 {
        worst.push(tag(ulp as u32));
    }
    if abs != 0 {
        worst.push(format!("{} (abs)", tag(abs as u32)));
    }
    let verdict = if special > 0 || ratio > 1.0 {
        Verdict::Fail
    } else if bounded {
        Verdict::Pass
    } else {
        Verdict::NoBound
    };
    Row {
        group,
        name: name.to_string(),
        bound,
        max_ulp: (ulp != 0 || abs == 0).then(|| key_value(ulp) as f64),
        max_abs: (abs != 0).then(|| key_value(abs) as f64),
        worst: if ratio.is_infinite() {
            format!("{} (wrong rounding)", tag(acc[SLOT_RATIO] as u32))
        } else {
            worst.join("; ")
        },
        tested: acc[SLOT_TESTED],
        special,
        first_special: if special > 0 {
            tag(acc[SLOT_SPECIAL_FIRST] as u32)
        } else {
            String::new()
        },
        verdict,
    }
}

fn f32_input(bits: u32) -> String {
    format!("{:e} (0x{bits:08x})", f32::from_bits(bits))
}

/// Runs the command.
pub fn run(args: &MathAccuracyArgs) -> Result<()> {
    let backend = args.backend.open()?;
    let sim = backend.is_sim();
    let sel = Selection(args.functions.clone());
    let unary_log2 = args.unary_log2.unwrap_or(if sim { 16 } else { 32 });
    let args_inputs = args
        .args_inputs
        .unwrap_or(if sim { 1 << 12 } else { 100_000_000 });
    let f64_inputs = args
        .f64_inputs
        .unwrap_or(if sim { 1 << 10 } else { 1 << 22 });
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from("results/math-accuracy"));
    std::fs::create_dir_all(&out).with_context(|| format!("creating {}", out.display()))?;
    let cfg = sweep_config(&backend);
    let t0 = Instant::now();
    let mut rows: Vec<Row> = Vec::new();
    let total = known().iter().filter(|(g, n)| sel.wants(g, n)).count();
    let progress = |rows: &[Row], t: Instant| {
        let r = rows.last().expect("a row");
        eprintln!(
            "[{}/{total}] {:<12} {:>12} inputs  max {} ulp  {}  ({:.1} s, {:.0} s in all)",
            rows.len(),
            r.name,
            r.tested,
            r.max_ulp.map_or("-".into(), |u| format!("{u:.3}")),
            r.verdict.word(),
            t.elapsed().as_secs_f64(),
            t0.elapsed().as_secs_f64()
        );
    };

    // Unary f32: every bit pattern (or 2^k of them, evenly strided).
    let n_unary = 1u64 << unary_log2;
    let (first, step) = if unary_log2 == 32 {
        (0u32, 1u32)
    } else {
        // An odd stride near 2^(32-k): every exponent and sign, varied
        // low significand bits.
        (0x0001_2345, (1u32 << (32 - unary_log2)) | 1)
    };
    let unary = UNARY_F32_FUNCTIONS
        .iter()
        .map(|(n, _)| ("f32", *n))
        .chain(INTRINSICS_F32.iter().map(|(n, _)| ("intrinsics", *n)));
    for (f, (group, name)) in unary.enumerate() {
        if !sel.wants(group, name) {
            continue;
        }
        let t = Instant::now();
        let acc = sweep(
            &backend,
            |acc, start, count| {
                let first = first.wrapping_add(start.wrapping_mul(step));
                backend
                    .launch(
                        &MATH_ACCURACY_F32,
                        &cfg,
                        (f as u32, first, step, count, &mut *acc),
                    )
                    .with_context(|| name.to_string())
            },
            n_unary,
        )?;
        let (bound, bounded) = if f < UNARY_F32_FUNCTIONS.len() {
            let b = &UNARY_F32_BOUNDS[f];
            assert_eq!(b.name, name, "bound table order");
            let text = match b.skip {
                Some((lo, hi)) => format!("{} ulp outside ({lo}, {hi})", b.ulp),
                None => format!("{} ulp", b.ulp),
            };
            (text, true)
        } else {
            let (_, text) = INTRINSICS_F32[f - UNARY_F32_FUNCTIONS.len()];
            (text.to_string(), !text.starts_with("none"))
        };
        rows.push(row_of(group, name, bound, acc, bounded, f32_input));
        progress(&rows, t);
    }

    // Multi-argument f32: random tuples by index.
    let seed = args.seed;
    for (f, (name, text)) in ARGS_F32.iter().enumerate() {
        if !sel.wants("args", name) {
            continue;
        }
        let t = Instant::now();
        let acc = sweep(
            &backend,
            |acc, start, count| {
                backend
                    .launch(
                        &MATH_ACCURACY_ARGS_F32,
                        &cfg,
                        (f as u32, seed, start, count, &mut *acc),
                    )
                    .with_context(|| name.to_string())
            },
            args_inputs as u64,
        )?;
        if f < BINARY_F32_BOUNDS.len() {
            assert_eq!(BINARY_F32_BOUNDS[f].name, *name, "bound table order");
        }
        let arity = if name.starts_with("__fmaf") || *name == "fmaf" {
            3
        } else {
            2
        };
        let tag = |i: u32| {
            let (x, y, z) = args_of(seed, i);
            if arity == 3 {
                format!("#{i}: ({x:e}, {y:e}, {z:e})")
            } else {
                format!("#{i}: ({x:e}, {y:e})")
            }
        };
        let bounded = !text.starts_with("none");
        rows.push(row_of("args", name, text.to_string(), acc, bounded, tag));
        progress(&rows, t);
    }

    // f64: values on the backend, references on the host.
    for (k, c) in unary_cases().iter().enumerate() {
        if !sel.wants("f64", c.name) {
            continue;
        }
        let t = Instant::now();
        let f = UNARY_F64_FUNCTIONS
            .iter()
            .position(|(n, _)| *n == c.name)
            .with_context(|| format!("{} is not in the f64 kernel", c.name))?;
        let mut rng = Rng(0x1234_5678 ^ ((seed as u64) << 32) ^ k as u64);
        let r = measure_f64(
            &backend,
            f64_inputs,
            |i| {
                let x = c.input(&mut rng, i);
                (x, 0.0)
            },
            |x, _| c.counted(x),
            |b, x, _y, out| {
                let n = x.len() as u32;
                let cfg = LaunchConfig::linear(n.div_ceil(256), 256);
                b.launch(&MATH_UNARY_F64, &cfg, (f as u32, x, out))?;
                Ok(())
            },
            |v, x, _| c.error(v, x),
        )?;
        rows.push(f64_row(c.name, c.bound, r, |x, _| format!("{x:e}")));
        progress(&rows, t);
    }
    for (k, c) in binary_cases().iter().enumerate() {
        if !sel.wants("f64", c.name) {
            continue;
        }
        let t = Instant::now();
        let f = BINARY_F64_FUNCTIONS
            .iter()
            .position(|n| *n == c.name)
            .with_context(|| format!("{} is not in the f64 kernel", c.name))?;
        let mut rng = Rng(0x8765_4321 ^ ((seed as u64) << 32) ^ k as u64);
        let r = measure_f64(
            &backend,
            f64_inputs,
            |i| c.input(&mut rng, i),
            |_, _| true,
            |b, x, y, out| {
                let n = x.len() as u32;
                let cfg = LaunchConfig::linear(n.div_ceil(256), 256);
                b.launch(&MATH_BINARY_F64, &cfg, (f as u32, x, y, out))?;
                Ok(())
            },
            |v, x, y| c.error(v, x, y),
        )?;
        rows.push(f64_row(c.name, c.bound, r, |x, y| {
            format!("({x:e}, {y:e})")
        }));
        progress(&rows, t);
    }

    let device = match &backend {
        Backend::Gpu(g) => g.info().name.clone(),
        Backend::Sim(_) => "cg-sim (the CPU simulator)".to_string(),
    };
    let meta = Meta {
        device,
        commit: env!("CG_LAB_COMMIT"),
        seed,
        unary_inputs: n_unary,
        args_inputs: args_inputs as u64,
        f64_inputs,
        seconds: t0.elapsed().as_secs_f64(),
    };
    let md = markdown(&rows, &meta);
    write_atomic(&out.join("math_accuracy.md"), md.as_bytes())?;
    write_atomic(&out.join("math_accuracy.csv"), csv(&rows).as_bytes())?;
    let json = serde_json::to_string_pretty(&json(&rows, &meta))?;
    write_atomic(&out.join("math_accuracy.json"), json.as_bytes())?;
    print!("{md}");
    eprintln!("wrote {}/math_accuracy.{{md,csv,json}}", out.display());
    let failed: Vec<&str> = rows
        .iter()
        .filter(|r| r.verdict == Verdict::Fail)
        .map(|r| r.name.as_str())
        .collect();
    if !failed.is_empty() {
        bail!(
            "{} function(s) over CUDA's bound or with special-value mismatches: {}",
            failed.len(),
            failed.join(", ")
        );
    }
    Ok(())
}

/// The measurement of one `f64` function.
struct F64Result {
    max_ulp: f64,
    worst: (f64, f64),
    tested: u64,
    special: u64,
    first_special: Option<(f64, f64)>,
}

/// Inputs of the `f64` sweep per round trip (64 MiB of each array).
const F64_CHUNK: u64 = 1 << 23;

/// Draws `n` inputs (`input(i)`), computes the function on the backend
/// (`launch(backend, x, y, out)`) and measures each value against
/// the reference (`error(value, x, y)`, in ulps) on every host core.
fn measure_f64(
    backend: &Backend,
    n: u64,
    mut input: impl FnMut(usize) -> (f64, f64),
    counted: impl Fn(f64, f64) -> bool + Sync,
    launch: impl Fn(
        &Backend,
        &cg_runtime::Buffer<f64>,
        &cg_runtime::Buffer<f64>,
        &mut cg_runtime::Buffer<f64>,
    ) -> Result<()>,
    error: impl Fn(f64, f64, f64) -> f64 + Sync,
) -> Result<F64Result> {
    let mut r = F64Result {
        max_ulp: 0.0,
        worst: (0.0, 0.0),
        tested: 0,
        special: 0,
        first_special: None,
    };
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    let mut done = 0u64;
    while done < n {
        let m = (n - done).min(F64_CHUNK) as usize;
        let (xs, ys): (Vec<f64>, Vec<f64>) = (0..m).map(|i| input(done as usize + i)).unzip();
        let (bx, by) = (backend.upload(&xs)?, backend.upload(&ys)?);
        let mut out = backend.alloc::<f64>(m)?;
        launch(backend, &bx, &by, &mut out)?;
        let vals = out.to_vec()?;
        let per = m.div_ceil(threads);
        let parts: Vec<F64Result> = std::thread::scope(|s| {
            let hs: Vec<_> = (0..threads)
                .map(|t| {
                    let (xs, ys, vals) = (&xs, &ys, &vals);
                    let (counted, error) = (&counted, &error);
                    s.spawn(move || {
                        let mut p = F64Result {
                            max_ulp: 0.0,
                            worst: (0.0, 0.0),
                            tested: 0,
                            special: 0,
                            first_special: None,
                        };
                        for i in t * per..((t + 1) * per).min(m) {
                            let (x, y) = (xs[i], ys[i]);
                            if !counted(x, y) {
                                continue;
                            }
                            p.tested += 1;
                            let e = error(vals[i], x, y);
                            if !e.is_finite() {
                                p.special += 1;
                                p.first_special.get_or_insert((x, y));
                            } else if e > p.max_ulp {
                                (p.max_ulp, p.worst) = (e, (x, y));
                            }
                        }
                        p
                    })
                })
                .collect();
            hs.into_iter().map(|h| h.join().expect("worker")).collect()
        });
        for p in parts {
            r.tested += p.tested;
            r.special += p.special;
            if r.first_special.is_none() {
                r.first_special = p.first_special;
            }
            if p.max_ulp > r.max_ulp {
                (r.max_ulp, r.worst) = (p.max_ulp, p.worst);
            }
        }
        done += m as u64;
    }
    Ok(r)
}

fn f64_row(name: &str, bound: f64, r: F64Result, fmt: impl Fn(f64, f64) -> String) -> Row {
    // A bound of 0 means correctly rounded: 0.5 against the exact value.
    let over = r.max_ulp > bound.max(0.5);
    Row {
        group: "f64",
        name: name.to_string(),
        bound: format!("{bound} ulp"),
        max_ulp: Some(r.max_ulp),
        max_abs: None,
        worst: fmt(r.worst.0, r.worst.1),
        tested: r.tested,
        special: r.special,
        first_special: r.first_special.map_or(String::new(), |(x, y)| fmt(x, y)),
        verdict: if over || r.special > 0 {
            Verdict::Fail
        } else {
            Verdict::Pass
        },
    }
}

/// What the report says about the run.
struct Meta {
    device: String,
    commit: &'static str,
    seed: u32,
    unary_inputs: u64,
    args_inputs: u64,
    f64_inputs: u64,
    seconds: f64,
}

fn opt(v: Option<f64>, digits: usize) -> String {
    v.map_or(String::new(), |v| {
        if v != 0.0 && v < 1e-3 {
            format!("{v:.3e}")
        } else {
            format!("{v:.digits$}")
        }
    })
}

fn markdown(rows: &[Row], m: &Meta) -> String {
    let mut s = String::new();
    s.push_str("# Math library accuracy\n\n");
    s.push_str(&format!(
        "Device: {}. Commit {}. Unary `f32`: {} inputs per function{}; multi-argument `f32`: {} random tuples (seed {}); `f64`: {} random inputs, measured on the host against glibc's `_Float128`. {:.0} s.\n\n",
        m.device,
        m.commit,
        m.unary_inputs,
        if m.unary_inputs == 1 << 32 { " (every bit pattern)" } else { " (strided over the bit patterns)" },
        m.args_inputs,
        m.seed,
        m.f64_inputs,
        m.seconds
    ));
    s.push_str("The `f32` references are the library's `f64` functions of the widened input (within about one `f64` ulp, 2^-29 of an `f32` ulp); the intrinsics' are the exact operations in `f64`. Errors in ulps of the exact value's binade (a correctly rounded result measures up to 0.5); a bound of 0 ulp allows 0.5. Special mismatches: a NaN, infinity or signed zero where CUDA's special value differs.\n\n");
    s.push_str("| function | group | CUDA bound | max ulp | max abs | worst input | inputs tested | special mismatches | verdict |\n");
    s.push_str("| --- | --- | --- | ---: | ---: | --- | ---: | ---: | --- |\n");
    for r in rows {
        let special = if r.special > 0 {
            format!("{} (first: {})", r.special, r.first_special)
        } else {
            "0".into()
        };
        s.push_str(&format!(
            "| `{}` | {} | {} | {} | {} | {} | {} | {} | {} |\n",
            r.name,
            r.group,
            r.bound,
            opt(r.max_ulp, 3),
            opt(r.max_abs, 3),
            r.worst,
            r.tested,
            special,
            r.verdict.word()
        ));
    }
    s
}

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

fn csv(rows: &[Row]) -> String {
    let mut s = String::from(
        "function,group,cuda_bound,max_ulp,max_abs,worst_input,inputs_tested,special_mismatches,first_special,verdict\n",
    );
    for r in rows {
        s.push_str(
            &[
                r.name.clone(),
                r.group.to_string(),
                r.bound.clone(),
                r.max_ulp.map_or(String::new(), |v| format!("{v}")),
                r.max_abs.map_or(String::new(), |v| format!("{v:e}")),
                r.worst.clone(),
                r.tested.to_string(),
                r.special.to_string(),
                r.first_special.clone(),
                r.verdict.word().to_string(),
            ]
            .iter()
            .map(|f| csv_field(f))
            .collect::<Vec<_>>()
            .join(","),
        );
        s.push('\n');
    }
    s
}

fn json(rows: &[Row], m: &Meta) -> serde_json::Value {
    serde_json::json!({
        "device": m.device,
        "commit": m.commit,
        "seed": m.seed,
        "unary_inputs": m.unary_inputs,
        "args_inputs": m.args_inputs,
        "f64_inputs": m.f64_inputs,
        "seconds": m.seconds,
        "functions": rows.iter().map(|r| serde_json::json!({
            "function": r.name,
            "group": r.group,
            "cuda_bound": r.bound,
            "max_ulp": r.max_ulp,
            "max_abs": r.max_abs,
            "worst_input": r.worst,
            "inputs_tested": r.tested,
            "special_mismatches": r.special,
            "first_special": r.first_special,
            "verdict": r.verdict.word(),
        })).collect::<Vec<_>>(),
    })
}
