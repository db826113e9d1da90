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
#![feature(f128)]

use cooperative_groups::math;

/// glibc's binary128 functions (`libm`, linked by `std`).
#[allow(dead_code)]
mod q {
    unsafe extern "C" {
        pub safe fn expf128(x: f128) -> f128;
        pub safe fn exp2f128(x: f128) -> f128;
        pub safe fn exp10f128(x: f128) -> f128;
        pub safe fn expm1f128(x: f128) -> f128;
        pub safe fn logf128(x: f128) -> f128;
        pub safe fn log2f128(x: f128) -> f128;
        pub safe fn log10f128(x: f128) -> f128;
        pub safe fn log1pf128(x: f128) -> f128;
        pub safe fn powf128(x: f128, y: f128) -> f128;
        pub safe fn sqrtf128(x: f128) -> f128;
        pub safe fn cbrtf128(x: f128) -> f128;
        pub safe fn hypotf128(x: f128, y: f128) -> f128;
        pub safe fn sinf128(x: f128) -> f128;
        pub safe fn cosf128(x: f128) -> f128;
        pub safe fn tanf128(x: f128) -> f128;
        pub safe fn asinf128(x: f128) -> f128;
        pub safe fn acosf128(x: f128) -> f128;
        pub safe fn atanf128(x: f128) -> f128;
        pub safe fn atan2f128(y: f128, x: f128) -> f128;
        pub safe fn sinhf128(x: f128) -> f128;
        pub safe fn coshf128(x: f128) -> f128;
        pub safe fn tanhf128(x: f128) -> f128;
        pub safe fn asinhf128(x: f128) -> f128;
        pub safe fn acoshf128(x: f128) -> f128;
        pub safe fn atanhf128(x: f128) -> f128;
        pub safe fn erff128(x: f128) -> f128;
        pub safe fn erfcf128(x: f128) -> f128;
        pub safe fn lgammaf128_r(x: f128, sign: &mut i32) -> f128;
        pub safe fn tgammaf128(x: f128) -> f128;
        pub safe fn fmod(x: f64, y: f64) -> f64;
        pub safe fn remainder(x: f64, y: f64) -> f64;
        pub safe fn nextafter(x: f64, y: f64) -> f64;
    }
}

/// The error of `y` against the exact `r`, in ulps of `f64` at `r`
/// (subnormal spacing below 2^-1022). An infinite `y` where `r` rounds to
/// infinity, and NaN for NaN, are exact.
fn ulp_error(y: f64, r: f128) -> f64 {
    if r.is_nan() || y.is_nan() {
        return if r.is_nan() && y.is_nan() {
            0.0
        } else {
            f64::INFINITY
        };
    }
    let r64 = r as f64;
    if y.is_infinite() || r64.is_infinite() {
        return if y == r64 { 0.0 } else { f64::INFINITY };
    }
    if r == 0.0 {
        return if y == 0.0 { 0.0 } else { f64::INFINITY };
    }
    // The binade of r from its f128 exponent field.
    let e = ((r.to_bits() >> 112) & 0x7fff) as i32 - 16383;
    let ulp = (2.0f128).powi(e.max(-1022) - 52);
    ((y as f128 - r).abs() / ulp) as f64
}

/// xorshift64*: reproducible inputs.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    /// A random finite `f64` bit pattern (every binade equally likely).
    fn bits(&mut self) -> f64 {
        loop {
            let x = f64::from_bits(self.next());
            if x.is_finite() {
                return x;
            }
        }
    }
    /// Uniform in `[lo, hi)`.
    fn uniform(&mut self, lo: f64, hi: f64) -> f64 {
        let u = (self.next() >> 11) as f64 * (1.0 / 9_007_199_254_740_992.0);
        lo + (hi - lo) * u
    }
}

/// One unary function under test.
struct Unary {
    name: &'static str,
    f: fn(f64) -> f64,
    reference: fn(f128) -> f128,
    /// CUDA's documented maximum ulp error.
    bound: f64,
    /// Ranges sampled uniformly (half the inputs); the rest random bits.
    ranges: &'static [(f64, f64)],
    /// An open interval where CUDA documents no bound (inputs there are
    /// not counted).
    skip: Option<(f64, f64)>,
}

/// `(lo, hi)`: an input range.
type Range = (f64, f64);

/// One binary function under test.
struct Binary {
    name: &'static str,
    f: fn(f64, f64) -> f64,
    reference: fn(f128, f128) -> f128,
    bound: f64,
    /// `(x range, y range)` pairs sampled uniformly (half the inputs).
    ranges: &'static [(Range, Range)],
}

fn unary_cases() -> Vec<Unary> {
    macro_rules! u {
        ($name:ident, $r:expr, $b:expr, $ranges:expr) => {
            Unary {
                name: stringify!($name),
                f: math::$name,
                reference: $r,
                bound: $b,
                ranges: $ranges,
                skip: None,
            }
        };
    }
    vec![
        u!(exp, |x| q::expf128(x), 1.0, &[(-746.0, 710.0), (-1.0, 1.0)]),
        u!(
            exp2,
            |x| q::exp2f128(x),
            1.0,
            &[(-1076.0, 1025.0), (-1.0, 1.0)]
        ),
        u!(
            exp10,
            |x| q::exp10f128(x),
            1.0,
            &[(-324.0, 309.0), (-1.0, 1.0)]
        ),
        u!(
            expm1,
            |x| q::expm1f128(x),
            1.0,
            &[(-40.0, 710.0), (-1.0, 1.0), (-1e-5, 1e-5)]
        ),
        u!(
            log,
            |x| q::logf128(x),
            1.0,
            &[(0.0, 4.0), (0.5, 2.0), (0.999, 1.001)]
        ),
        u!(
            log2,
            |x| q::log2f128(x),
            1.0,
            &[(0.0, 4.0), (0.5, 2.0), (0.999, 1.001)]
        ),
        u!(
            log10,
            |x| q::log10f128(x),
            1.0,
            &[(0.0, 4.0), (0.5, 2.0), (0.999, 1.001)]
        ),
        u!(
            log1p,
            |x| q::log1pf128(x),
            1.0,
            &[(-1.0, 4.0), (-0.5, 0.5), (-1e-3, 1e-3)]
        ),
        u!(sqrt, |x| q::sqrtf128(x), 0.0, &[(0.0, 4.0)]),
        u!(rsqrt, |x| 1.0 / q::sqrtf128(x), 1.0, &[(0.0, 4.0)]),
        u!(cbrt, |x| q::cbrtf128(x), 1.0, &[(-8.0, 8.0)]),
        u!(
            sin,
            |x| q::sinf128(x),
            2.0,
            &[(-10.0, 10.0), (-1e6, 1e6), (1e6, 1.1e6)]
        ),
        u!(
            cos,
            |x| q::cosf128(x),
            2.0,
            &[(-10.0, 10.0), (-1e6, 1e6), (1e6, 1.1e6)]
        ),
        u!(
            tan,
            |x| q::tanf128(x),
            2.0,
            &[(-10.0, 10.0), (-1e6, 1e6), (1e6, 1.1e6)]
        ),
        u!(sinpi, sinpi_ref, 2.0, &[(-4.0, 4.0), (-1e15, 1e15)]),
        u!(cospi, cospi_ref, 2.0, &[(-4.0, 4.0), (-1e15, 1e15)]),
        u!(asin, |x| q::asinf128(x), 2.0, &[(-1.0, 1.0), (0.99, 1.0)]),
        u!(
            acos,
            |x| q::acosf128(x),
            2.0,
            &[(-1.0, 1.0), (0.99, 1.0), (-1.0, -0.99)]
        ),
        u!(atan, |x| q::atanf128(x), 2.0, &[(-4.0, 4.0), (-1e3, 1e3)]),
        u!(
            sinh,
            |x| q::sinhf128(x),
            2.0,
            &[(-711.0, 711.0), (-2.0, 2.0)]
        ),
        u!(
            cosh,
            |x| q::coshf128(x),
            1.0,
            &[(-711.0, 711.0), (-2.0, 2.0)]
        ),
        u!(tanh, |x| q::tanhf128(x), 1.0, &[(-20.0, 20.0), (-1.0, 1.0)]),
        u!(
            asinh,
            |x| q::asinhf128(x),
            3.0,
            &[(-10.0, 10.0), (-1.0, 1.0)]
        ),
        u!(acosh, |x| q::acoshf128(x), 3.0, &[(1.0, 10.0), (1.0, 1.01)]),
        u!(atanh, |x| q::atanhf128(x), 2.0, &[(-1.0, 1.0), (0.99, 1.0)]),
        u!(
            erf,
            |x| q::erff128(x),
            2.0,
            &[(-6.0, 6.0), (-1.0, 1.0), (2.0, 3.0), (-1e-8, 1e-8)]
        ),
        u!(
            erfc,
            |x| q::erfcf128(x),
            5.0,
            &[(-6.0, 28.0), (0.0, 3.0), (2.0, 3.0), (20.0, 27.3)]
        ),
        u!(
            normcdf,
            normcdf_ref,
            5.0,
            &[(-39.0, 9.0), (-5.0, 5.0), (-4.0, -3.0)]
        ),
        u!(
            erfinv,
            erfinv_ref,
            5.0,
            &[(-1.0, 1.0), (0.4, 0.6), (0.999_999, 1.0), (-1e-9, 1e-9)]
        ),
        u!(
            erfcinv,
            erfcinv_ref,
            6.0,
            &[(0.0, 2.0), (0.0, 1e-6), (0.4, 0.6), (1.99, 2.0)]
        ),
        u!(
            normcdfinv,
            normcdfinv_ref,
            8.0,
            &[(0.0, 1.0), (0.0, 1e-9), (0.2, 0.3), (0.999, 1.0)]
        ),
        Unary {
            skip: Some((-23.0001, -2.2637)),
            ..u!(
                lgamma,
                lgamma_ref,
                4.0,
                &[
                    (0.0, 20.0),
                    (0.8, 1.2),
                    (1.8, 2.2),
                    (-2.2637, 0.0),
                    (-60.0, -23.0001),
                    (1e3, 1e6)
                ]
            )
        },
        u!(
            tgamma,
            |x| q::tgammaf128(x),
            10.0,
            &[(-190.0, 172.0), (0.0, 10.0), (-10.0, 0.0), (-1e-3, 1e-3)]
        ),
    ]
}

fn lgamma_ref(x: f128) -> f128 {
    let mut sign = 0;
    q::lgammaf128_r(x, &mut sign)
}

fn normcdf_ref(x: f128) -> f128 {
    0.5 * q::erfcf128(-x * core::f128::consts::FRAC_1_SQRT_2)
}

/// `y` with `erfc y = z`, `erf y = a = 1 - z` (`a` given, as `1 - z` may not
/// be exact in `f128` for tiny `a`), by
/// Newton's method in `f128` on glibc's `erff128` (`|1 - z| <= 1/2`) or
/// `erfcf128` (`z` small, or near 2 by symmetry), from the `f64` `start`:
/// three steps from within a few ulp reach the 113-bit root. A non-finite
/// `start` gives 0 (so the test reports it).
fn inverse_ref(z: f128, a: f128, start: f64) -> f128 {
    if !start.is_finite() {
        return 0.0;
    }
    let c = 2.0 / q::sqrtf128(core::f128::consts::PI);
    let mut y = start as f128;
    for _ in 0..3 {
        let d = c * q::expf128(-y * y);
        let f = if a.abs() <= 0.5 {
            q::erff128(y) - a
        } else if z < 1.0 {
            -(q::erfcf128(y) - z)
        } else {
            q::erfcf128(-y) - (2.0 - z)
        };
        y -= f / d;
    }
    y
}

fn erfinv_ref(x: f128) -> f128 {
    if x.abs() > 1.0 || x.is_nan() {
        return f128::NAN;
    }
    if x.abs() == 1.0 {
        return if x > 0.0 {
            f128::INFINITY
        } else {
            -f128::INFINITY
        };
    }
    inverse_ref(1.0 - x, x, math::erfinv(x as f64))
}

fn erfcinv_ref(z: f128) -> f128 {
    if !(0.0..=2.0).contains(&z) {
        return f128::NAN;
    }
    if z == 0.0 || z == 2.0 {
        return if z == 0.0 {
            f128::INFINITY
        } else {
            -f128::INFINITY
        };
    }
    inverse_ref(z, 1.0 - z, math::erfcinv(z as f64))
}

fn normcdfinv_ref(p: f128) -> f128 {
    if !(0.0..=1.0).contains(&p) {
        return f128::NAN;
    }
    if p == 0.0 || p == 1.0 {
        return if p == 0.0 {
            -f128::INFINITY
        } else {
            f128::INFINITY
        };
    }
    let s2 = q::sqrtf128(2.0);
    let start = -math::normcdfinv(p as f64) / std::f64::consts::SQRT_2;
    let y = inverse_ref(2.0 * p, 1.0 - 2.0 * p, start);
    -s2 * y
}

/// `sin(πx)` with the reduction exact in `f64` (`x - j/2` is exact), then
/// the 113-bit `sin` of `π t`.
fn sinpi_ref(x: f128) -> f128 {
    let (t, q) = half_turns(x);
    let pi = core::f128::consts::PI;
    let (s, c) = (q::sinf128(pi * t), q::cosf128(pi * t));
    let y = [s, c, -s, -c][q];
    if y == 0.0 {
        if x < 0.0 { -0.0 } else { 0.0 }
    } else {
        y
    }
}
fn cospi_ref(x: f128) -> f128 {
    let (t, q) = half_turns(x);
    let pi = core::f128::consts::PI;
    let (s, c) = (q::sinf128(pi * t), q::cosf128(pi * t));
    [c, -s, -c, s][q]
}
/// `x = j/2 + t`, `|t| <= 1/4`, and `j mod 4` (for an `f64` `x`).
fn half_turns(x: f128) -> (f128, usize) {
    let x64 = x as f64;
    if !x64.is_finite() {
        return (f128::NAN, 0);
    }
    if x64.abs() >= 9_007_199_254_740_992.0 {
        return (0.0, 0); // an even integer
    }
    let j = (2.0 * x64).round_ties_even();
    let t = x64 - j / 2.0;
    let q = (j.rem_euclid(4.0)) as usize;
    (t as f128, q)
}

fn binary_cases() -> Vec<Binary> {
    vec![
        Binary {
            name: "pow",
            f: math::pow,
            reference: |x, y| q::powf128(x, y),
            bound: 2.0,
            ranges: &[
                ((0.0, 10.0), (-100.0, 100.0)),
                ((0.9, 1.1), (-1e4, 1e4)),
                ((-10.0, 0.0), (-30.0, 30.0)),
            ],
        },
        Binary {
            name: "hypot",
            f: math::hypot,
            reference: |x, y| q::hypotf128(x, y),
            bound: 2.0,
            ranges: &[((-10.0, 10.0), (-10.0, 10.0)), ((0.0, 1.0), (0.0, 1e-8))],
        },
        Binary {
            name: "atan2",
            f: math::atan2,
            reference: |y, x| q::atan2f128(y, x),
            bound: 2.0,
            ranges: &[((-10.0, 10.0), (-10.0, 10.0)), ((-1.0, 1.0), (-1e-3, 1e-3))],
        },
    ]
}

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
        let x = if i % 2 == 0 || c.ranges.is_empty() {
            rng.bits()
        } else {
            let (lo, hi) = c.ranges[(i / 2) % c.ranges.len()];
            // Round the input to pick up integers, halves… now and then.
            let x = rng.uniform(lo, hi);
            if i % 16 == 1 {
                (x * 4.0).round() / 4.0
            } else {
                x
            }
        };
        if c.skip.is_some_and(|(lo, hi)| lo < x && x < hi) {
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
        let (x, y) = if i % 2 == 0 {
            (rng.bits(), rng.bits())
        } else {
            let ((a, b), (c2, d)) = c.ranges[(i / 2) % c.ranges.len()];
            let y = rng.uniform(c2, d);
            let y = if i % 8 == 1 { y.round() } else { y };
            (rng.uniform(a, b), y)
        };
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
