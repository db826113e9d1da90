//! The host's references for the accuracy of the `f64` functions (host
//! only): glibc's `_Float128` functions (within a few ulp of a 113-bit
//! significand) through nightly Rust's `f128`, the error of an `f64` result
//! in `f64` ulps, the cases with CUDA's bounds and the input ranges where
//! each function does its work, and the input stream. Shared by the
//! simulator's test (`cooperative-groups/tests/math_accuracy_f64.rs`) and
//! the GPU sweep (`cg-lab math-accuracy`), which measure the same way.

extern crate std;

use std::vec;
use std::vec::Vec;

use cooperative_groups::math;

/// glibc's binary128 functions (`libm`, linked by `std`).
#[allow(dead_code, missing_docs)]
pub mod q {
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
pub fn ulp_error_f64(y: f64, r: f128) -> f64 {
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
pub struct Rng(pub u64);
impl Rng {
    /// The next 64 random bits.
    #[allow(clippy::should_implement_trait)] // an endless stream
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    /// A random finite `f64` bit pattern (every binade equally likely).
    pub fn bits(&mut self) -> f64 {
        loop {
            let x = f64::from_bits(self.next());
            if x.is_finite() {
                return x;
            }
        }
    }
    /// Uniform in `[lo, hi)`.
    pub fn uniform(&mut self, lo: f64, hi: f64) -> f64 {
        let u = (self.next() >> 11) as f64 * (1.0 / 9_007_199_254_740_992.0);
        lo + (hi - lo) * u
    }
}

/// One unary function under test.
pub struct Unary {
    /// CUDA's name.
    pub name: &'static str,
    /// The function.
    pub f: fn(f64) -> f64,
    /// Its reference in `f128`.
    pub reference: fn(f128) -> f128,
    /// CUDA's documented maximum ulp error.
    pub bound: f64,
    /// Ranges sampled uniformly (half the inputs); the rest random bits.
    pub ranges: &'static [(f64, f64)],
    /// An open interval where CUDA documents no bound (inputs there are
    /// not counted).
    pub skip: Option<(f64, f64)>,
}

/// `(lo, hi)`: an input range.
pub type Range = (f64, f64);

/// One binary function under test.
pub struct Binary {
    /// CUDA's name.
    pub name: &'static str,
    /// The function.
    pub f: fn(f64, f64) -> f64,
    /// Its reference in `f128`.
    pub reference: fn(f128, f128) -> f128,
    /// CUDA's documented maximum ulp error.
    pub bound: f64,
    /// `(x range, y range)` pairs sampled uniformly (half the inputs).
    pub ranges: &'static [(Range, Range)],
}

/// The unary `f64` functions with CUDA's bounds and their references.
pub fn unary_cases() -> Vec<Unary> {
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

/// The binary `f64` functions with CUDA's bounds and their references.
pub fn binary_cases() -> Vec<Binary> {
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

impl Unary {
    /// Input `i` of the stream `rng` (drawn in order, `i = 0, 1, …`): half
    /// random bit patterns (every binade), half uniform in the working
    /// ranges, with every eighth of those rounded to a multiple of 1/4
    /// (integers and halves, where special cases live).
    pub fn input(&self, rng: &mut Rng, i: usize) -> f64 {
        if i.is_multiple_of(2) || self.ranges.is_empty() {
            rng.bits()
        } else {
            let (lo, hi) = self.ranges[(i / 2) % self.ranges.len()];
            let x = rng.uniform(lo, hi);
            if i % 16 == 1 {
                (x * 4.0).round() / 4.0
            } else {
                x
            }
        }
    }

    /// The error of the value `y` at `x` in `f64` ulps (infinite: a
    /// special-value mismatch).
    pub fn error(&self, y: f64, x: f64) -> f64 {
        ulp_error_f64(y, (self.reference)(x as f128))
    }

    /// `false` inside the interval where CUDA documents no bound.
    pub fn counted(&self, x: f64) -> bool {
        !self.skip.is_some_and(|(lo, hi)| lo < x && x < hi)
    }
}

impl Binary {
    /// The error of the value `v` at `(x, y)` in `f64` ulps (infinite: a
    /// special-value mismatch).
    pub fn error(&self, v: f64, x: f64, y: f64) -> f64 {
        ulp_error_f64(v, (self.reference)(x as f128, y as f128))
    }

    /// Input pair `i` of the stream `rng` (drawn in order): half random bit
    /// patterns, half uniform in the working ranges (every fourth `y` of
    /// those an integer).
    pub fn input(&self, rng: &mut Rng, i: usize) -> (f64, f64) {
        if i.is_multiple_of(2) {
            (rng.bits(), rng.bits())
        } else {
            let ((a, b), (c, d)) = self.ranges[(i / 2) % self.ranges.len()];
            let y = rng.uniform(c, d);
            let y = if i % 8 == 1 { y.round() } else { y };
            (rng.uniform(a, b), y)
        }
    }
}
