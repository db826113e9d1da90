//! The error function family: `erf`, `erfc`, `normcdf`.
//!
//! `erf x = x * (2/√π + x^2 Q(x^2))` for `|x| < 1` (the leading constant in
//! two parts); beyond, `erfc a = e^(-a^2) * G(a)` with `G` a polynomial in
//! `a - 1.25` on `[0.5, 2]` and in `1/a` on `[2, 10.1]`, and `e^(-a^2)`
//! from `a^2` as a sum of two floats (the rounding of `a^2` alone would cost
//! up to 100 ulp at `a = 10`). Coefficients from
//! `scripts/math_coeffs.py special`.
//!
//! The inverses `erfinv`, `erfcinv`, `normcdfinv` all come down to
//! `erfinv(a)` for `|a| <= 1/2` (`a * (√π/2 + a^2 R(a^2))`) and
//! `erfcinv(z)` for `0 < z < 1/2` with `z` exact (`1 - |x|`, `2 - x`, `2p`
//! are exact where they are used): with `s = sqrt(-ln z)` (the logarithm
//! and the root carried as two floats), a polynomial in `s` on two
//! segments up to `s = 2.35` (`erfcinv = 2.03`), and beyond, a rough
//! polynomial refined by one Newton step on `erfc(y) = z`, whose residual
//! is computed on the scaled `erfc` (`m * 2^j`), so that it stays accurate
//! for subnormal `z`. Coefficients from `scripts/math_coeffs.py inverse`.

use super::basic::copysignf;
use super::exp::exp_hilo;
use super::log::ln_hilo;
use super::util::{fma, horner, scale2, sqrtf};

const C0_HI: f32 = 1.1283792; // 2/√π
const C0_LO: f32 = -5.8635383e-08;
/// `(erf(x)/x - 2/√π) / x^2` in `u = x^2`, `u <= 1`.
const ERF_P: [f32; 9] = [
    -0.37612638,
    0.11283792,
    -0.02686617,
    0.005223968,
    -0.00085479586,
    0.000120466495,
    -1.4798661e-05,
    1.532486e-06,
    -1.0508662e-07,
];
/// `erfc(a) e^(a^2)` in `a - 1`, `0.5 <= a <= 1.5`.
const ERFC_NEAR_P: [f32; 11] = [
    0.42758358,
    -0.27321202,
    0.15437156,
    -0.079226926,
    0.037572306,
    -0.016662763,
    0.0069701737,
    -0.0027608909,
    0.001048799,
    -0.00041432478,
    0.00014230252,
];
/// `erfc(a) e^(a^2)` in `a - 2`, `1.5 <= a <= 2.5`.
const ERFC_MID_P: [f32; 13] = [
    0.25539568,
    -0.10679646,
    0.041802753,
    -0.015460637,
    0.0054407385,
    -0.001831664,
    0.00059247,
    -0.00018478197,
    5.5728862e-05,
    -1.6269754e-05,
    4.623353e-06,
    -1.3555599e-06,
    3.6262608e-07,
];
/// `(erfc(a) e^(a^2) a - 1/√π) / u` in `u = 1/a^2`, `2.5 <= a <= 10.1`.
const ERFC_FAR_P: [f32; 8] = [
    -0.28209448,
    0.4230834,
    -1.0537672,
    3.5544357,
    -13.436788,
    45.11404,
    -104.398544,
    115.49905,
];
const RSQRTPI_HI: f32 = 0.5641896; // 1/√π
const RSQRTPI_LO: f32 = -2.9317691e-08;
const RSQRT2_HI: f32 = core::f32::consts::FRAC_1_SQRT_2;
const RSQRT2_LO: f32 = 1.2101617e-08;

/// `erf x` for `|x| < 1` as `x*C0_HI + x*(C0_LO + u Q(u))`, one rounding.
#[inline(always)]
fn erf_small(x: f32) -> f32 {
    let u = x * x;
    fma(x, C0_HI, x * fma(u, horner(u, ERF_P), C0_LO))
}

/// `erfc(a + lo) = m * 2^j` for `0.5 <= a < 10.1` and a tiny `lo` (the low
/// part of an argument known beyond `f32`), as `(m, g, j)` with `m` the
/// result before its (exact, unless subnormal) scaling and `g = erfc(a)
/// e^(a^2)`, the scaled function.
#[inline(always)]
fn erfc_parts(a: f32, lo: f32) -> (f32, f32, i32) {
    let g = if a < 1.5 {
        horner(a - 1.0, ERFC_NEAR_P) // a - 1 exact
    } else if a < 2.5 {
        horner(a - 2.0, ERFC_MID_P)
    } else {
        // t/√π + t u H(u), one rounding.
        let t = 1.0 / a;
        let u = t * t;
        fma(t, RSQRTPI_HI, t * fma(u, horner(u, ERFC_FAR_P), RSQRTPI_LO))
    };
    // (a + lo)^2 = xx + xx_lo.
    let xx = a * a;
    let xx_lo = fma(a + a, lo, fma(a, a, -xx));
    let (p, q, j) = exp_hilo(-xx);
    // e^-(xx + xx_lo) * g = 2^j (p + q)(1 - xx_lo) g, rounded once
    // before the (exact, unless subnormal) scaling.
    let t = fma(-p, xx_lo, q);
    (fma(p, g, t * g), g, j)
}

/// `erfc(a + lo)` for `0.5 <= a < 10.1` and a tiny `lo`.
#[inline(always)]
fn erfc_core(a: f32, lo: f32) -> f32 {
    let (m, _, j) = erfc_parts(a, lo);
    scale2(m, j)
}

/// `erff(x)`: the error function. CUDA: 2 ulp; `erff(±0) = ±0`,
/// `erff(±∞) = ±1`.
#[doc(alias = "erf")]
#[inline(always)]
pub fn erff(x: f32) -> f32 {
    let a = x.abs();
    if a < 1.0 {
        return if x == 0.0 { x } else { erf_small(x) };
    }
    if x.is_nan() {
        return x + x;
    }
    // erf a = 1 - erfc a; 1 from 3.92 on (erfc a < 2^-25).
    let y = if a < 3.92 {
        1.0 - erfc_core(a, 0.0)
    } else {
        1.0
    };
    copysignf(y, x)
}

/// `erfcf(x)`: `1 - erf x` without cancellation. CUDA: 4 ulp;
/// `erfcf(-∞) = 2`, `erfcf(+∞) = +0`.
#[doc(alias = "erfc")]
#[inline(always)]
pub fn erfcf(x: f32) -> f32 {
    let a = x.abs();
    if a < 0.5 {
        let u = x * x;
        // 1 - x*C0_HI - x*(C0_LO + u Q(u)).
        return fma(-x, C0_HI, fma(-x, fma(u, horner(u, ERF_P), C0_LO), 1.0));
    }
    if x.is_nan() {
        return x + x;
    }
    let e = if a < 10.1 { erfc_core(a, 0.0) } else { 0.0 };
    if x > 0.0 { e } else { 2.0 - e }
}

/// `normcdff(x)`: the standard normal distribution function,
/// `erfc(-x/√2)/2`, with `x/√2` carried beyond `f32` (its rounding would
/// cost up to 100 ulp in the far tail). CUDA: 5 ulp; `normcdff(+∞) = 1`,
/// `normcdff(-∞) = +0`.
#[doc(alias = "normcdf")]
#[inline(always)]
pub fn normcdff(x: f32) -> f32 {
    if x.is_nan() {
        return x + x;
    }
    // u = -x/√2 = u_hi + u_lo.
    let u = x * -RSQRT2_HI;
    let u_lo = fma(x, -RSQRT2_LO, fma(x, -RSQRT2_HI, -u));
    let a = u.abs();
    if a < 0.5 {
        let v = u * u;
        return 0.5 * fma(-u, C0_HI, fma(-u, fma(v, horner(v, ERF_P), C0_LO), 1.0));
    }
    let e = if a < 10.1 {
        // erfc/2 with the halving in the power of two: one rounding where
        // the result is subnormal. `0.5 * erfc` rounds twice there in the
        // source, but ptxas folds the halving into the product before it
        // (`FMUL.D2`, one rounding): 271 of 2^22 inputs near x = -13.7
        // came out one subnormal ulp apart on the GPU and the simulator.
        let (m, _, j) = erfc_parts(a, if u > 0.0 { u_lo } else { -u_lo });
        scale2(m, j - 1)
    } else {
        0.0
    };
    if u > 0.0 { e } else { 1.0 - e }
}

const SQRTPI_2_HI: f32 = 0.88622695; // √π/2
const SQRTPI_2_LO: f32 = -2.66232e-08;
const SQRT2_HI: f32 = core::f32::consts::SQRT_2;
const SQRT2_LO: f32 = 2.4203235e-08;
/// `(erfinv(x)/x - √π/2) / x^2` in `u = x^2`, `u <= 1/4`.
const ERFINV_P: [f32; 8] = [
    0.23201367,
    0.12755632,
    0.08654561,
    0.06509433,
    0.050206214,
    0.052717097,
    0.0006854785,
    0.09493259,
];
/// `erfcinv(e^(-s^2)) = S1_C0 + (S1_C1 + t*S1(t))`, `t = s - S1_MID`,
/// `0.83 <= s <= 1.58`.
const S1_MID: f32 = 1.205;
const S1_C0: f32 = 0.8413683;
const S1_C1: f32 = -2.0989262e-08;
const S1: [f32; 10] = [
    1.0148289,
    0.06472841,
    -0.06677973,
    0.04659074,
    -0.025436103,
    0.0103499,
    -0.0020009575,
    -0.0014704296,
    0.0024680863,
    -0.00176926,
];
/// The same on `1.58 <= s <= 2.35`.
const S2_MID: f32 = 1.965;
const S2_C0: f32 = 1.6314554;
const S2_C1: f32 = -1.595878e-08;
const S2: [f32; 9] = [
    1.0494633,
    0.0016847353,
    -0.007911983,
    0.005662007,
    -0.0030586624,
    0.0014278006,
    -0.00059588207,
    0.00022762355,
    -7.149142e-05,
];
/// A rough `erfcinv(e^(-s^2))` (absolute error 4.2e-05) in `t = s - 6.25`,
/// `2.3 <= s <= 10.2`, for the Newton step.
const FAR: [f32; 7] = [
    6.056029,
    1.0184495,
    -0.001926881,
    0.00023196347,
    -3.256626e-05,
    1.6550857e-07,
    5.870732e-07,
];

/// `erfinv(a)` for `|a| <= 1/2` as `a*C_HI + a*(C_LO + u R(u))`, one
/// rounding (`±0` gives `±0`).
#[inline(always)]
fn erfinv_small(a: f32) -> f32 {
    let u = a * a;
    fma(a, SQRTPI_2_HI, a * fma(u, horner(u, ERFINV_P), SQRTPI_2_LO))
}

/// `erfcinv(z)` for `0 < z < 1/2` (an exact argument; subnormals too).
#[inline(always)]
fn erfcinv_tail(z: f32) -> f32 {
    // s^2 = -ln z = l + l_lo; s = sqrt(l) + s_lo.
    let (lh, ll) = ln_hilo(z);
    let (l, l_lo) = (-lh, -ll);
    let s = sqrtf(l);
    let s_lo = (fma(-s, s, l) + l_lo) / (s + s);
    if s < 2.35 {
        // t = s - mid is exact (Sterbenz); s_lo enters through the slope.
        let (t, c0, c1, d) = if s < 1.58 {
            let t = s - S1_MID;
            (t, S1_C0, S1_C1, horner(t, S1))
        } else {
            let t = s - S2_MID;
            (t, S2_C0, S2_C1, horner(t, S2))
        };
        return c0 + fma(t, d, fma(d, s_lo, c1));
    }
    // y0 within 4.2e-5, then one Newton step on erfc(y) = z: the error
    // after it is about y*(4.2e-5)^2, far below an ulp. With
    // erfc(y0) = m*2^j and g = erfc(y0)*e^(y0^2), the step is
    // (erfc(y0) - z) / (2/√π e^(-y0^2)) = (m - z*2^-j)/m * g * √π/2,
    // where z*2^-j is exact and m - z*2^-j too (Sterbenz).
    let y0 = horner(s - 6.25, FAR);
    let (m, g, j) = erfc_parts(y0, 0.0);
    let r = (m - scale2(z, -j)) / m;
    fma(r * g, SQRTPI_2_HI, y0)
}

/// `erfinvf(x)`: the inverse error function, `y` with `erf(y) = x` for
/// `-1 <= x <= 1`. CUDA: 2 ulp; `erfinvf(±0) = ±0`, `erfinvf(±1) = ±∞`,
/// NaN for `|x| > 1`.
#[doc(alias = "erfinv")]
#[inline(always)]
pub fn erfinvf(x: f32) -> f32 {
    let a = x.abs();
    if a <= 0.5 {
        return if x == 0.0 { x } else { erfinv_small(x) };
    }
    if a < 1.0 {
        // 1 - a is exact for a >= 1/2.
        return copysignf(erfcinv_tail(1.0 - a), x);
    }
    if a == 1.0 {
        copysignf(f32::INFINITY, x)
    } else {
        f32::NAN // |x| > 1 or NaN
    }
}

/// `erfcinv(x)` for `0 < x < 2`.
#[inline(always)]
fn erfcinv_core(x: f32) -> f32 {
    if x < 0.5 {
        erfcinv_tail(x)
    } else if x <= 1.5 {
        erfinv_small(1.0 - x) // exact for 1/2 <= x <= 2
    } else {
        -erfcinv_tail(2.0 - x) // erfcinv(x) = -erfcinv(2 - x), 2 - x exact
    }
}

/// `erfcinvf(x)`: the inverse complementary error function, `y` with
/// `erfc(y) = x` for `0 <= x <= 2`, accurate for tiny `x` (down to the
/// subnormals, `erfcinvf(1e-45) = 10.05`). CUDA: 4 ulp;
/// `erfcinvf(0) = +∞`, `erfcinvf(2) = -∞`, NaN outside `[0, 2]`.
#[doc(alias = "erfcinv")]
#[inline(always)]
pub fn erfcinvf(x: f32) -> f32 {
    if x > 0.0 && x < 2.0 {
        erfcinv_core(x)
    } else if x == 0.0 {
        f32::INFINITY
    } else if x == 2.0 {
        f32::NEG_INFINITY
    } else {
        f32::NAN
    }
}

/// `normcdfinvf(p)`: the inverse of the standard normal distribution
/// function ([`normcdff`]), `-√2 erfcinv(2p)` (`2p` is exact, `√2` in two
/// parts). CUDA: 5 ulp; `normcdfinvf(0) = -∞`, `normcdfinvf(1) = +∞`,
/// NaN outside `[0, 1]`.
#[doc(alias = "normcdfinv")]
#[inline(always)]
pub fn normcdfinvf(p: f32) -> f32 {
    if p > 0.0 && p < 1.0 {
        let y = erfcinv_core(p + p);
        fma(y, -SQRT2_HI, y * -SQRT2_LO) + 0.0 // normcdfinvf(1/2) = +0
    } else if p == 0.0 {
        f32::NEG_INFINITY
    } else if p == 1.0 {
        f32::INFINITY
    } else {
        f32::NAN
    }
}
