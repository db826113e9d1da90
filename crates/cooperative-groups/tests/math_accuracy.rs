//! Accuracy of `cooperative_groups::math` against an `f64` reference (the
//! host's `std` `f64` functions, accurate to well under an `f32` ulp):
//! the maximum error in ulps of each unary `f32` function over random bit
//! patterns plus dense ranges, checked against CUDA's documented bound.
//!
//! * `cargo test -p cooperative-groups --test math_accuracy`: 2^17 inputs
//!   per function (debug builds are slow);
//! * `cargo test --release -p cooperative-groups --test math_accuracy`:
//!   10^7 per function (CI), about a minute on two cores;
//! * `CG_MATH_INPUTS=N` sets the count; `CG_MATH_EXHAUSTIVE=1` tests every
//!   one of the 2^32 inputs (development; minutes per function in release)
//!   and `CG_MATH_ONLY=expf,logf` picks functions. Results print as a
//!   markdown table (`--nocapture`).

//!
//! CUDA's bounds, the ulp error and the random arguments are
//! `cg_kernels::math_accuracy`'s, which the GPU sweep (`cg-lab
//! math-accuracy`) measures with too.

use cg_kernels::math_accuracy::{
    BINARY_F32_BOUNDS, Check, UNARY_F32_BOUNDS, UlpBound, random_f32_arg,
    ulp_error_f32 as ulp_error,
};
use cooperative_groups::math;

/// CUDA's bound of the function `name` (unary or binary).
fn bound(name: &str) -> &'static UlpBound {
    UNARY_F32_BOUNDS
        .iter()
        .chain(&BINARY_F32_BOUNDS)
        .find(|b| b.name == name)
        .unwrap_or_else(|| panic!("no bound for {name}"))
}

/// One unary function under test.
struct Case {
    name: &'static str,
    f: fn(f32) -> f32,
    reference: fn(f64) -> f64,
    /// CUDA's documented maximum ulp error (and where it documents none).
    bound: &'static UlpBound,
}

impl Case {
    /// Inputs where CUDA documents no bound (skipped).
    fn exclude(&self, x: f32) -> bool {
        self.bound.check(x) == Check::Outside
    }
}

fn cases() -> Vec<Case> {
    macro_rules! c {
        ($name:literal, $f:expr, $r:expr, $b:expr) => {
            c!($name, $f, $r, $b, ())
        };
        ($name:literal, $f:expr, $r:expr, $b:expr, $skip:expr) => {{
            let b = bound($name);
            // The table here states the bound too, for the reader; it must
            // agree with the shared one.
            assert_eq!(b.ulp, $b, "{}", $name);
            Case {
                name: $name,
                f: $f,
                reference: $r,
                bound: b,
            }
        }};
    }
    vec![
        c!("expf", math::expf, f64::exp, 2.0),
        c!("exp2f", math::exp2f, f64::exp2, 2.0),
        c!("exp10f", math::exp10f, |x| 10f64.powf(x), 2.0),
        c!("expm1f", math::expm1f, f64::exp_m1, 1.0),
        c!("logf", math::logf, f64::ln, 1.0),
        c!("log2f", math::log2f, f64::log2, 1.0),
        c!("log10f", math::log10f, f64::log10, 2.0),
        c!("log1pf", math::log1pf, f64::ln_1p, 1.0),
        c!("sqrtf", math::sqrtf, f64::sqrt, 0.0),
        c!("rsqrtf", math::rsqrtf, |x| 1.0 / x.sqrt(), 2.0),
        c!("cbrtf", math::cbrtf, f64::cbrt, 1.0),
        c!("sinf", math::sinf, f64::sin, 2.0),
        c!("cosf", math::cosf, f64::cos, 2.0),
        c!("tanf", math::tanf, f64::tan, 4.0),
        c!("sinpif", math::sinpif, sinpi64, 1.0),
        c!("cospif", math::cospif, cospi64, 1.0),
        c!("asinf", math::asinf, f64::asin, 2.0),
        c!("acosf", math::acosf, f64::acos, 2.0),
        c!("atanf", math::atanf, f64::atan, 2.0),
        c!("sinhf", math::sinhf, f64::sinh, 3.0),
        c!("coshf", math::coshf, f64::cosh, 2.0),
        c!("tanhf", math::tanhf, f64::tanh, 2.0),
        c!("asinhf", math::asinhf, f64::asinh, 3.0),
        c!("acoshf", math::acoshf, f64::acosh, 4.0),
        c!("atanhf", math::atanhf, f64::atanh, 3.0),
        c!("erff", math::erff, erf64, 2.0),
        c!("erfcf", math::erfcf, erfc64, 4.0),
        c!(
            "normcdff",
            math::normcdff,
            |x| erfc64(-x / std::f64::consts::SQRT_2) / 2.0,
            5.0
        ),
        c!("erfinvf", math::erfinvf, erfinv64, 2.0),
        c!("erfcinvf", math::erfcinvf, erfcinv64, 4.0),
        c!(
            "normcdfinvf",
            math::normcdfinvf,
            |p| -std::f64::consts::SQRT_2 * erfcinv64(2.0 * p),
            5.0
        ),
        // CUDA's bound holds outside -10.001 < x < -2.264 (the zeros of
        // lgamma there are measured by `lgamma_negative_arguments`).
        c!(
            "lgammaf",
            math::lgammaf,
            lgamma64,
            6.0,
            "-10.001 < x < -2.264"
        ),
        c!("tgammaf", math::tgammaf, |x| c::tgamma(x), 5.0),
        c!("floorf", math::floorf, f64::floor, 0.0),
        c!("ceilf", math::ceilf, f64::ceil, 0.0),
        c!("truncf", math::truncf, f64::trunc, 0.0),
        c!("roundf", math::roundf, f64::round, 0.0),
        c!("rintf", math::rintf, f64::round_ties_even, 0.0),
    ]
}

/// The host C library's `erf`/`erfc` in `f64` (glibc: within a few `f64`
/// ulp, far below an `f32` ulp).
fn erf64(x: f64) -> f64 {
    c::erf(x)
}
fn erfc64(x: f64) -> f64 {
    c::erfc(x)
}

/// `erfinv(a)` in `f64`: Newton's method on the C library's `erf` for
/// `|a| <= 1/2` (there `erf` has a relative error of an `f64` ulp or two,
/// and `erfinv`'s condition number is below 1.1), else [`erfcinv64`] of
/// `1 - |a|` (exact for an `f32` `a`).
fn erfinv64(a: f64) -> f64 {
    if a.is_nan() || a.abs() > 1.0 {
        return f64::NAN;
    }
    if a.abs() > 0.5 {
        return erfcinv64(1.0 - a.abs()).copysign(a);
    }
    if a == 0.0 {
        return a;
    }
    let mut y = a * 0.886;
    for _ in 0..100 {
        let d = (erf64(y) - a) / (2.0 / std::f64::consts::PI.sqrt() * (-y * y).exp());
        y -= d;
        if d.abs() <= y.abs() * 1e-17 {
            break;
        }
    }
    y
}

/// `erfcinv(z)` in `f64`: Newton's method on `ln erfc(y) = ln z` for
/// `z < 1/2` (the logarithm keeps the step accurate down to the
/// subnormal `z`; `dy = d(ln erfc)/(2y)` or less, so the C library's
/// relative error in `erfc` moves `y` by less than an `f64` ulp), else
/// [`erfinv64`] of `1 - z` (exact for an `f32` `z`), with the symmetry
/// `erfcinv(z) = -erfcinv(2 - z)`.
fn erfcinv64(z: f64) -> f64 {
    if z.is_nan() || !(0.0..=2.0).contains(&z) {
        return f64::NAN;
    }
    if z == 0.0 {
        return f64::INFINITY;
    }
    if z == 2.0 {
        return f64::NEG_INFINITY;
    }
    if z > 1.5 {
        return -erfcinv64(2.0 - z);
    }
    if z >= 0.5 {
        return erfinv64(1.0 - z);
    }
    let lz = z.ln();
    let mut y = (-lz).sqrt();
    for _ in 0..100 {
        let e = erfc64(y);
        let slope = -2.0 / std::f64::consts::PI.sqrt() * (-y * y).exp() / e;
        let d = (e.ln() - lz) / slope;
        y -= d;
        if d.abs() <= y * 1e-17 {
            break;
        }
    }
    y
}

/// `ln|Γ(x)|` from the C library (`lgamma_r`, the thread-safe form; glibc
/// keeps a few `f64` ulps of relative error, including near the zeros at
/// 1 and 2).
fn lgamma64(x: f64) -> f64 {
    let mut sign = 0;
    c::lgamma_r(x, &mut sign)
}

/// The host's C math library (linked by `std` on every host the tests run on).
mod c {
    unsafe extern "C" {
        pub safe fn erf(x: f64) -> f64;
        pub safe fn erfc(x: f64) -> f64;
        pub safe fn lgamma_r(x: f64, sign: &mut i32) -> f64;
        pub safe fn tgamma(x: f64) -> f64;
        pub safe fn remainder(x: f64, y: f64) -> f64;
        pub safe fn nextafterf(x: f32, y: f32) -> f32;
    }
}

/// sin(πx) in f64 with an exact reduction (x is an f32, so 2x and the
/// remainder are exact in f64).
fn sinpi64(x: f64) -> f64 {
    let j = (2.0 * x).round_ties_even();
    let t = x - j / 2.0;
    let (s, c) = (std::f64::consts::PI * t).sin_cos();
    let q = (j.rem_euclid(4.0)) as u32;
    let y = [s, c, -s, -c][q as usize];
    if y == 0.0 { 0.0f64.copysign(x) } else { y }
}
fn cospi64(x: f64) -> f64 {
    let j = (2.0 * x).round_ties_even();
    let t = x - j / 2.0;
    let (s, c) = (std::f64::consts::PI * t).sin_cos();
    let q = (j.rem_euclid(4.0)) as u32;
    [c, -s, -c, s][q as usize] + 0.0
}

/// A deterministic xorshift stream of bit patterns.
fn xorshift(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

struct Worst {
    ulp: f64,
    x: f32,
    y: f32,
    r: f64,
}

fn measure(case: &Case, inputs: u64, exhaustive: bool) -> (Worst, u64) {
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get()) as u64;
    let total = if exhaustive { 1u64 << 32 } else { inputs };
    let worsts: Vec<(Worst, u64)> = std::thread::scope(|s| {
        (0..threads)
            .map(|t| {
                s.spawn(move || {
                    let mut w = Worst {
                        ulp: -1.0,
                        x: 0.0,
                        y: 0.0,
                        r: 0.0,
                    };
                    let mut state =
                        0x9e37_79b9_7f4a_7c15u64 ^ (t + 1).wrapping_mul(0x2545_f491_4f6c_dd1d);
                    let (lo, hi) = (total * t / threads, total * (t + 1) / threads);
                    let mut n = 0u64;
                    for i in lo..hi {
                        let x = if exhaustive {
                            f32::from_bits(i as u32)
                        } else if i % 4 == 0 {
                            // A dense range: [-8, 8] with every exponent
                            // equally likely above 2^-30.
                            let b = xorshift(&mut state);
                            let e = (b >> 40) % 33;
                            let v =
                                f32::from_bits(((97 + e as u32) << 23) | (b as u32 & 0x7f_ffff));
                            if b >> 63 == 1 { -v } else { v }
                        } else {
                            f32::from_bits(xorshift(&mut state) as u32)
                        };
                        if case.exclude(x) {
                            continue;
                        }
                        let y = (case.f)(x);
                        let r = (case.reference)(x as f64);
                        let u = ulp_error(y, r);
                        n += 1;
                        if u > w.ulp {
                            w = Worst { ulp: u, x, y, r };
                        }
                    }
                    (w, n)
                })
            })
            .collect::<Vec<_>>()
            .into_iter()
            .map(|h| h.join().unwrap())
            .collect()
    });
    let n = worsts.iter().map(|w| w.1).sum();
    let w = worsts
        .into_iter()
        .map(|w| w.0)
        .max_by(|a, b| a.ulp.total_cmp(&b.ulp))
        .unwrap();
    (w, n)
}

#[test]
fn every_unary_function_within_cudas_bound() {
    let exhaustive = std::env::var_os("CG_MATH_EXHAUSTIVE").is_some();
    let default = if cfg!(debug_assertions) {
        1 << 17
    } else {
        10_000_000
    };
    let inputs = std::env::var("CG_MATH_INPUTS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default);
    let only = std::env::var("CG_MATH_ONLY").ok();
    println!("| function | CUDA bound (ulp) | measured max (ulp) | inputs | worst x |");
    println!("|---|---|---|---|---|");
    let mut failed = Vec::new();
    for case in cases() {
        if let Some(o) = &only
            && !o.split(',').any(|n| n == case.name)
        {
            continue;
        }
        let (w, n) = measure(&case, inputs, exhaustive);
        println!(
            "| `{}` | {} | {:.3} | {} | {:e} (got {:e}, exact {:e}) |",
            case.name, case.bound.ulp, w.ulp, n, w.x, w.y, w.r
        );
        // The bound is on the error measured against the exact value; a
        // correctly rounded result has error up to 0.5.
        if w.ulp > case.bound.ulp.max(0.5) {
            failed.push(case.name);
        }
    }
    assert!(failed.is_empty(), "over CUDA's bound: {failed:?}");
}

/// One binary function under test.
struct Case2 {
    name: &'static str,
    f: fn(f32, f32) -> f32,
    reference: fn(f32, f32) -> f64,
    bound: f64,
}

/// A random pair: each argument a random bit pattern or (half the time) a
/// value in a dense range of magnitudes `[2^-20, 2^21)` (the GPU sweep's
/// mapping, `random_f32_arg`).
fn pair(state: &mut u64) -> (f32, f32) {
    (
        random_f32_arg(xorshift(state)),
        random_f32_arg(xorshift(state)),
    )
}

#[test]
fn every_binary_function_within_cudas_bound() {
    let default = if cfg!(debug_assertions) {
        1 << 16
    } else {
        10_000_000
    };
    let inputs: u64 = std::env::var("CG_MATH_INPUTS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default);
    let only = std::env::var("CG_MATH_ONLY").ok();
    let cases = [
        Case2 {
            name: "atan2f",
            f: math::atan2f,
            reference: |y, x| (y as f64).atan2(x as f64),
            bound: bound("atan2f").ulp,
        },
        Case2 {
            name: "hypotf",
            f: math::hypotf,
            reference: |x, y| (x as f64).hypot(y as f64),
            bound: bound("hypotf").ulp,
        },
        Case2 {
            name: "powf",
            f: math::powf,
            reference: |x, y| (x as f64).powf(y as f64),
            bound: bound("powf").ulp,
        },
        Case2 {
            name: "fmodf",
            f: math::fmodf,
            reference: |x, y| (x as f64) % (y as f64),
            bound: bound("fmodf").ulp,
        },
        Case2 {
            name: "remainderf",
            f: math::remainderf,
            reference: |x, y| c::remainder(x as f64, y as f64),
            bound: bound("remainderf").ulp,
        },
        Case2 {
            name: "fdimf",
            f: math::fdimf,
            reference: |x, y| {
                if x > y {
                    x as f64 - y as f64
                } else if x.is_nan() || y.is_nan() {
                    f64::NAN
                } else {
                    0.0
                }
            },
            bound: bound("fdimf").ulp,
        },
        Case2 {
            name: "nextafterf",
            f: math::nextafterf,
            reference: |x, y| c::nextafterf(x, y) as f64,
            bound: bound("nextafterf").ulp,
        },
        Case2 {
            name: "copysignf",
            f: math::copysignf,
            reference: |x, y| (x as f64).copysign(y as f64),
            bound: bound("copysignf").ulp,
        },
        Case2 {
            name: "fminf",
            f: math::fminf,
            reference: |x, y| (x as f64).min(y as f64),
            bound: bound("fminf").ulp,
        },
        Case2 {
            name: "fmaxf",
            f: math::fmaxf,
            reference: |x, y| (x as f64).max(y as f64),
            bound: bound("fmaxf").ulp,
        },
    ];
    println!("| function | CUDA bound (ulp) | measured max (ulp) | inputs | worst (x, y) |");
    println!("|---|---|---|---|---|");
    let mut failed = Vec::new();
    for case in &cases {
        if let Some(o) = &only
            && !o.split(',').any(|n| n == case.name)
        {
            continue;
        }
        let threads = std::thread::available_parallelism().map_or(2, |n| n.get()) as u64;
        let worst = std::thread::scope(|s| {
            let hs: Vec<_> = (0..threads)
                .map(|t| {
                    s.spawn(move || {
                        let mut state =
                            0x5851_f42d_4c95_7f2du64 ^ (t + 7).wrapping_mul(0x1405_7b7e_f767_814f);
                        let mut w = (-1.0f64, 0f32, 0f32, 0f32, 0f64);
                        for _ in 0..inputs / threads {
                            let (x, y) = pair(&mut state);
                            let got = (case.f)(x, y);
                            let r = (case.reference)(x, y);
                            // fmin/fmax: a zero of either sign is the right value (the
                            // sign rule is its own test); so is any NaN for NaN.
                            let u = if (case.name == "fminf" || case.name == "fmaxf")
                                && got == 0.0
                                && r == 0.0
                            {
                                0.0
                            } else {
                                ulp_error(got, r)
                            };
                            if u > w.0 {
                                w = (u, x, y, got, r);
                            }
                        }
                        w
                    })
                })
                .collect();
            hs.into_iter()
                .map(|h| h.join().unwrap())
                .max_by(|a, b| a.0.total_cmp(&b.0))
                .unwrap()
        });
        println!(
            "| `{}` | {} | {:.3} | {} | ({:e}, {:e}): got {:e}, exact {:e} |",
            case.name,
            case.bound,
            worst.0,
            inputs / threads * threads,
            worst.1,
            worst.2,
            worst.3,
            worst.4
        );
        if worst.0 > case.bound.max(0.5) {
            failed.push(case.name);
        }
    }
    assert!(failed.is_empty(), "over CUDA's bound: {failed:?}");
}

/// Every input of the critical ranges, in any build: `expm1f` where
/// `2^j - 1` stops being exact (`x` near -17), `log1pf` and `logf` around
/// 1 (the cancellation), `sinf`/`cosf` at the Cody–Waite/Payne–Hanek
/// switch, `expf` at the overflow and underflow thresholds, `erfinvf` and
/// `erfcinvf` at their switches (polynomial in `x`, in `sqrt(-ln z)`, the
/// Newton step), `lgammaf` around its zeros at 1 and 2, `tgammaf` up to
/// its overflow.
#[test]
fn critical_ranges_exhaustively() {
    type Range = (&'static str, fn(f32) -> f32, fn(f64) -> f64, f64, f32, f32);
    let ranges: [Range; 18] = [
        ("expm1f", math::expm1f, f64::exp_m1, 1.0, -17.7, -16.8),
        ("expm1f", math::expm1f, f64::exp_m1, 1.0, 0.3, 0.75),
        ("expm1f", math::expm1f, f64::exp_m1, 1.0, -0.75, -0.3),
        ("log1pf", math::log1pf, f64::ln_1p, 1.0, 0.25, 0.5),
        ("log1pf", math::log1pf, f64::ln_1p, 1.0, -0.35, -0.25),
        ("logf", math::logf, f64::ln, 1.0, 0.7, 1.45),
        ("log2f", math::log2f, f64::log2, 1.0, 0.7, 1.45),
        ("sinpif", math::sinpif, sinpi64, 1.0, -0.3, -0.2),
        ("cospif", math::cospif, cospi64, 1.0, 0.2, 0.3),
        ("sinf", math::sinf, f64::sin, 2.0, 104_000.0, 107_000.0),
        ("cosf", math::cosf, f64::cos, 2.0, 104_000.0, 107_000.0),
        ("expf", math::expf, f64::exp, 2.0, -104.5, -86.0),
        ("erfinvf", math::erfinvf, erfinv64, 2.0, 0.45, 0.55),
        ("erfcinvf", math::erfcinvf, erfcinv64, 4.0, 0.0035, 0.0055),
        ("erfcinvf", math::erfcinvf, erfcinv64, 4.0, 0.07, 0.09),
        ("lgammaf", math::lgammaf, lgamma64, 6.0, 0.7, 1.1),
        ("lgammaf", math::lgammaf, lgamma64, 6.0, 1.8, 2.2),
        ("tgammaf", math::tgammaf, |x| c::tgamma(x), 5.0, 33.0, 35.1),
    ];
    for (name, f, r, bound, lo, hi) in ranges {
        assert_eq!(
            bound,
            crate::bound(name).ulp,
            "{name}: the shared table's bound"
        );
        // Every f32 between lo and hi (same sign), by bit pattern.
        let (a, b) = (
            lo.to_bits().min(hi.to_bits()),
            lo.to_bits().max(hi.to_bits()),
        );
        let mut worst = (0.0f64, 0f32);
        for bits in a..=b {
            let x = f32::from_bits(bits);
            let u = ulp_error(f(x), r(x as f64));
            if u > worst.0 {
                worst = (u, x);
            }
        }
        println!(
            "{name} on [{lo}, {hi}]: {} inputs, max {:.3} ulp at {:e}",
            b - a + 1,
            worst.0,
            worst.1
        );
        assert!(
            worst.0 <= bound,
            "{name}({:e}): {:.3} ulp",
            worst.1,
            worst.0
        );
    }
}

/// `lgammaf` for negative `x`, every `f32` (every 61st in debug builds) of
/// `-20 < x < -2.264`: within CUDA's 6 ulp on `(-20, -10.001]` (where every
/// `f32` is at least 2^-20 from the poles, and the reflection's terms
/// cancel to results near 1), and inside `-10.001 < x < -2.264`, where
/// CUDA documents no ulp bound ("larger inside": lgamma has two zeros in
/// each unit interval there), within an absolute error of 4 ulps of 1.0
/// (2^-21) or 4 ulps of the result, whichever is larger.
#[test]
fn lgamma_negative_arguments() {
    let step = if cfg!(debug_assertions) { 61 } else { 1 };
    for (lo, hi, inside) in [(-10.001f32, -2.264f32, true), (-20.0, -10.001, false)] {
        let (a, b) = (hi.to_bits(), lo.to_bits());
        let (mut worst, mut worst_x) = (0.0f64, 0.0f32);
        let (mut worst_ulp, mut worst_ulp_x) = (0.0f64, 0.0f32);
        let mut bits = if inside { a + 1 } else { a };
        while bits < b {
            let x = f32::from_bits(bits);
            let (y, r) = (math::lgammaf(x), lgamma64(x as f64));
            let u = ulp_error(y, r);
            if u > worst_ulp {
                (worst_ulp, worst_ulp_x) = (u, x);
            }
            // The absolute error in ulps of max(1, |r|).
            let e = (y as f64 - r).abs() / (2f64.powi(-23) * r.abs().max(1.0));
            if e > worst {
                (worst, worst_x) = (e, x);
            }
            bits += step;
        }
        println!(
            "lgammaf on ({lo}, {hi}): {worst_ulp:.3} ulp at {worst_ulp_x:e}; \
             absolute error {worst:.3} ulp of max(1, |lgamma|) at {worst_x:e}"
        );
        if inside {
            assert!(worst <= 4.0, "{worst} at {worst_x:e}");
        } else {
            assert!(worst_ulp <= 6.0, "{worst_ulp} ulp at {worst_ulp_x:e}");
        }
    }
}
