//! Accuracy of the `f64` functions of `cooperative_groups::math` against a
//! reference more precise than `f64`: the host C library's `_Float128`
//! functions (glibc's `expf128`, `sinf128`…, within a few ulp of a
//! 113-bit significand), reached through nightly Rust's `f128`.
//!
//! Each function is measured in ulps of the `f64` result (the distance of
//! the returned value from the exact one, divided by the spacing of `f64`
//! at the exact value) over random bit patterns (every binade) and random
//! values in the ranges where the function does its work, and checked
//! against CUDA's documented maximum ulp error for the `double` function.
//!
//! * `cargo test --release -p cooperative-groups --test math_accuracy_f64`:
//!   10^6 inputs per function (CI);
//! * debug builds test 2^14 per function;
//! * `CG_MATH_INPUTS=N` sets the count (`-- --ignored` runs the long test,
//!   10^8 unless set), `CG_MATH_ONLY=exp,log` picks functions; the table
//!   prints with `--nocapture`.
//!
//! The cases (CUDA's bounds, the references, the input ranges), the `f64`
//! ulp error and the input stream live in `cg_kernels::math_reference`,
//! which the GPU sweep (`cg-lab math-accuracy`) measures with too.
#![feature(f128)]

use cg_kernels::math_reference::{
    Binary, Rng, Unary, binary_cases, q, ulp_error_f64 as ulp_error, unary_cases,
};
use cooperative_groups::math;

fn inputs() -> usize {
    let default = if cfg!(debug_assertions) {
        1 << 14
    } else {
        1_000_000
    };
    std::env::var("CG_MATH_INPUTS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

fn selected(name: &str) -> bool {
    match std::env::var("CG_MATH_ONLY") {
        Ok(s) => s.split(',').any(|n| n == name),
        Err(_) => true,
    }
}

/// The largest error of `c` over `n` inputs, with the worst input.
fn measure_unary(c: &Unary, n: usize, seed: u64) -> (f64, f64) {
    let mut rng = Rng(seed);
    let (mut worst, mut at) = (0.0f64, 0.0f64);
    for i in 0..n {
        let x = c.input(&mut rng, i);
        if !c.counted(x) {
            continue;
        }
        let e = ulp_error((c.f)(x), (c.reference)(x as f128));
        if e > worst || e.is_nan() {
            (worst, at) = (e, x);
        }
    }
    (worst, at)
}

fn measure_binary(c: &Binary, n: usize, seed: u64) -> (f64, (f64, f64)) {
    let mut rng = Rng(seed);
    let (mut worst, mut at) = (0.0f64, (0.0, 0.0));
    for i in 0..n {
        let (x, y) = c.input(&mut rng, i);
        let e = ulp_error((c.f)(x, y), (c.reference)(x as f128, y as f128));
        if e > worst || e.is_nan() {
            (worst, at) = (e, (x, y));
        }
    }
    (worst, at)
}

/// Runs every selected case over `n` inputs on two threads; panics listing
/// every function over its bound.
fn run(n: usize) {
    let unary = unary_cases();
    let binary = binary_cases();
    let rows = std::sync::Mutex::new(Vec::new());
    let next = std::sync::atomic::AtomicUsize::new(0);
    let total = unary.len() + binary.len();
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| {
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    if i >= total {
                        break;
                    }
                    let row = if i < unary.len() {
                        let c = &unary[i];
                        if !selected(c.name) {
                            continue;
                        }
                        let (w, at) = measure_unary(c, n, 0x1234_5678 + i as u64);
                        (i, c.name, c.bound, w, format!("{at:e}"))
                    } else {
                        let c = &binary[i - unary.len()];
                        if !selected(c.name) {
                            continue;
                        }
                        let (w, at) = measure_binary(c, n, 0x8765_4321 + i as u64);
                        (i, c.name, c.bound, w, format!("{:e}, {:e}", at.0, at.1))
                    };
                    rows.lock().unwrap().push(row);
                }
            });
        }
    });
    let mut rows = rows.into_inner().unwrap();
    rows.sort_by_key(|r| r.0);
    println!("| function | CUDA bound (ulp) | measured max (ulp) | inputs | worst at |");
    println!("| --- | --- | --- | --- | --- |");
    let mut over = Vec::new();
    for (_, name, bound, worst, at) in &rows {
        println!("| `{name}` | {bound} | {worst:.3} | {n} | {at} |");
        // 0-ulp functions: the exact value rounded, so within half an ulp.
        let limit = if *bound == 0.0 { 0.5 } else { *bound };
        if worst.is_nan() || *worst > limit {
            over.push(format!("{name}: {worst} ulp at {at} (bound {bound})"));
        }
    }
    assert!(over.is_empty(), "over CUDA's bound: {over:#?}");
}

#[test]
fn f64_functions_within_cuda_bounds() {
    run(inputs());
}

/// The long run: 10^8 inputs per function unless `CG_MATH_INPUTS` says.
#[test]
#[ignore = "long: 10^8 inputs per function"]
fn f64_functions_within_cuda_bounds_long() {
    let n = std::env::var("CG_MATH_INPUTS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(100_000_000);
    run(n);
}

/// Same bits, or both NaN.
fn same(a: f64, b: f64) -> bool {
    a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan())
}

/// The exact functions (CUDA: 0 ulp) bit for bit against the host's
/// (`std`, the C library, or `f128` where the exact value fits), over
/// random bit patterns and small values with many integers and ties.
#[test]
fn f64_exact_functions_match_bit_for_bit() {
    let n = inputs();
    let mut rng = Rng(0xdead_beef);
    let mut bad = Vec::new();
    let mut check = |name: &str, ok: bool, x: f64, y: f64| {
        if !ok && bad.len() < 20 {
            bad.push(format!("{name}({x:e}, {y:e})"));
        }
    };
    for i in 0..n {
        let (x, y) = if i % 2 == 0 {
            (rng.bits(), rng.bits())
        } else {
            let x = (rng.uniform(-64.0, 64.0) * 4.0).round() / 8.0;
            (x, (rng.uniform(-8.0, 8.0) * 4.0).round() / 4.0)
        };
        check("floor", same(math::floor(x), x.floor()), x, y);
        check("ceil", same(math::ceil(x), x.ceil()), x, y);
        check("trunc", same(math::trunc(x), x.trunc()), x, y);
        check("round", same(math::round(x), x.round()), x, y);
        check("rint", same(math::rint(x), x.round_ties_even()), x, y);
        check("fma", same(math::fma(x, y, x), x.mul_add(y, x)), x, y);
        check("fmod", same(math::fmod(x, y), q::fmod(x, y)), x, y);
        check(
            "remainder",
            same(math::remainder(x, y), q::remainder(x, y)),
            x,
            y,
        );
        check(
            "nextafter",
            same(math::nextafter(x, y), q::nextafter(x, y)),
            x,
            y,
        );
        check("copysign", same(math::copysign(x, y), x.copysign(y)), x, y);
        let d = if x > y { x - y } else { 0.0 };
        check("fdim", same(math::fdim(x, y), d), x, y);
        // PTX min/max: NaN ignored, -0 below +0.
        let lo = if x < y || (x == y && x.is_sign_negative()) {
            x
        } else {
            y
        };
        let hi = if x > y || (x == y && x.is_sign_positive()) {
            x
        } else {
            y
        };
        check("fmin", same(math::fmin(x, y), lo), x, y);
        check("fmax", same(math::fmax(x, y), hi), x, y);
        let k = (rng.next() % 4400) as i32 - 2200;
        let exact = (x as f128 * (2.0f128).powi(k)) as f64;
        check("ldexp", same(math::ldexp(x, k), exact), x, k as f64);
        let (m, e) = math::frexp(x);
        let ok = if x == 0.0 || !x.is_finite() {
            same(m, x) && e == 0
        } else {
            (0.5..1.0).contains(&m.abs()) && (m as f128 * (2.0f128).powi(e)) as f64 == x
        };
        check("frexp", ok, x, y);
        let (f, ip) = math::modf(x);
        let ok = same(ip, x.trunc())
            && (x.is_infinite() && f == 0.0 || same(f, (x - x.trunc()).copysign(x)));
        check("modf", ok, x, y);
    }
    assert!(bad.is_empty(), "differ from the host: {bad:#?}");
}

/// CUDA's special values for the `f64` functions.
#[test]
fn f64_special_values() {
    let (inf, nan) = (f64::INFINITY, f64::NAN);
    let is = |a: f64, b: f64| same(a, b);
    assert!(is(math::exp(-inf), 0.0) && is(math::exp(inf), inf) && is(math::exp(-0.0), 1.0));
    assert!(is(math::expm1(-0.0), -0.0) && is(math::expm1(-inf), -1.0));
    assert!(is(math::log(0.0), -inf) && math::log(-1.0).is_nan() && is(math::log(1.0), 0.0));
    assert!(is(math::log1p(-0.0), -0.0) && is(math::log1p(-1.0), -inf));
    assert!(is(math::log2(0.125), -3.0) && is(math::exp2(-1074.0), f64::from_bits(1)));
    assert!(is(math::rsqrt(-0.0), -inf) && is(math::rsqrt(inf), 0.0));
    assert!(is(math::cbrt(-27.0), -3.0) && is(math::cbrt(-0.0), -0.0));
    assert!(is(math::hypot(inf, nan), inf) && is(math::hypot(3.0, 4.0), 5.0));
    assert!(is(math::sin(-0.0), -0.0) && math::sin(inf).is_nan() && math::cos(-inf).is_nan());
    assert!(is(math::tan(-0.0), -0.0) && is(math::cos(0.0), 1.0));
    assert!(is(math::sinpi(-2.0), -0.0) && is(math::sinpi(3.0), 0.0) && is(math::cospi(0.5), 0.0));
    assert!(is(math::sinpi(0.5), 1.0) && is(math::cospi(1.0), -1.0) && math::sinpi(inf).is_nan());
    assert!(is(math::asin(-0.0), -0.0) && math::asin(1.5).is_nan() && is(math::acos(1.0), 0.0));
    assert!(is(math::atan(inf), std::f64::consts::FRAC_PI_2));
    assert!(is(math::atan2(0.0, -0.0), std::f64::consts::PI));
    assert!(is(math::atan2(-0.0, 0.0), -0.0));
    assert!(is(
        math::atan2(-inf, -inf),
        -3.0 * std::f64::consts::FRAC_PI_4
    ));
    assert!(is(math::sinh(-inf), -inf) && is(math::cosh(-inf), inf) && is(math::tanh(-inf), -1.0));
    assert!(is(math::asinh(-0.0), -0.0) && is(math::acosh(1.0), 0.0) && math::acosh(0.5).is_nan());
    assert!(is(math::atanh(-1.0), -inf) && math::atanh(1.5).is_nan());
    assert!(is(math::pow(nan, 0.0), 1.0) && is(math::pow(1.0, nan), 1.0));
    assert!(is(math::pow(-0.0, -3.0), -inf) && is(math::pow(-0.0, -2.0), inf));
    assert!(is(math::pow(-0.0, 3.0), -0.0) && is(math::pow(-1.0, inf), 1.0));
    assert!(math::pow(-2.0, 0.5).is_nan() && is(math::pow(-2.0, 3.0), -8.0));
    assert!(is(math::pow(0.5, inf), 0.0) && is(math::pow(-inf, -3.0), -0.0));
    assert!(is(math::erf(-0.0), -0.0) && is(math::erf(-inf), -1.0) && is(math::erf(inf), 1.0));
    assert!(is(math::erfc(-inf), 2.0) && is(math::erfc(inf), 0.0) && is(math::erfc(0.0), 1.0));
    assert!(is(math::erfc(30.0), 0.0) && math::erf(nan).is_nan() && math::erfc(nan).is_nan());
    assert!(is(math::normcdf(-inf), 0.0) && is(math::normcdf(inf), 1.0));
    assert!(is(math::normcdf(0.0), 0.5) && math::normcdf(nan).is_nan());
    assert!(is(math::erfinv(-0.0), -0.0) && is(math::erfinv(1.0), inf));
    assert!(is(math::erfinv(-1.0), -inf) && math::erfinv(1.5).is_nan());
    assert!(
        is(math::erfcinv(0.0), inf) && is(math::erfcinv(2.0), -inf) && is(math::erfcinv(1.0), 0.0)
    );
    assert!(
        math::erfcinv(-0.5).is_nan() && math::erfcinv(2.5).is_nan() && math::erfcinv(nan).is_nan()
    );
    assert!(is(math::normcdfinv(0.0), -inf) && is(math::normcdfinv(1.0), inf));
    assert!(is(math::normcdfinv(0.5), 0.0) && math::normcdfinv(1.5).is_nan());
    assert!(is(math::lgamma(1.0), 0.0) && is(math::lgamma(2.0), 0.0) && is(math::lgamma(0.0), inf));
    assert!(
        is(math::lgamma(-0.0), inf) && is(math::lgamma(-3.0), inf) && is(math::lgamma(-inf), inf)
    );
    assert!(
        is(math::lgamma(inf), inf) && is(math::lgamma(1e306), inf) && math::lgamma(nan).is_nan()
    );
    assert!(
        is(math::tgamma(0.0), inf) && is(math::tgamma(-0.0), -inf) && is(math::tgamma(inf), inf)
    );
    assert!(
        math::tgamma(-inf).is_nan() && math::tgamma(-2.0).is_nan() && math::tgamma(nan).is_nan()
    );
    assert!(
        is(math::tgamma(1.0), 1.0) && is(math::tgamma(5.0), 24.0) && is(math::tgamma(172.0), inf)
    );
    assert!(is(math::tgamma(-300.5), -0.0) && is(math::tgamma(-301.5), 0.0));
}
