//! Square root, reciprocal square root, cube root, hypotenuse.

use super::util::{self, bits, fma, from_bits};

/// `sqrtf(x)`: the correctly rounded square root (`sqrt.rn.f32`). CUDA:
/// 0 ulp; `sqrtf(-0) = -0`, `sqrtf(x < 0) = NaN`.
#[doc(alias = "sqrt")]
#[inline(always)]
pub fn sqrtf(x: f32) -> f32 {
    util::sqrtf(x)
}

/// `rsqrtf(x)`: `1 / sqrt(x)` as two correctly rounded operations
/// (`sqrt.rn`, `div.rn`). CUDA: 2 ulp (this is within 1);
/// `rsqrtf(±0) = ±∞`, `rsqrtf(+∞) = +0`, `rsqrtf(x < 0) = NaN`.
#[doc(alias = "rsqrt")]
#[inline(always)]
pub fn rsqrtf(x: f32) -> f32 {
    1.0 / util::sqrtf(x)
}

/// `cbrtf(x)`: the real cube root. CUDA: 1 ulp; `cbrtf(±0) = ±0`,
/// `cbrtf(±∞) = ±∞`.
///
/// An exponent-divided-by-3 first guess, two Newton steps in `f32`, and a
/// last correction from the exact residual `x - y^3` (`y^2` and `y^3` as
/// sums of two floats by `fma`).
#[doc(alias = "cbrt")]
#[inline(always)]
pub fn cbrtf(x: f32) -> f32 {
    let a = x.abs();
    if a == 0.0 || a == f32::INFINITY || x.is_nan() {
        return x + x;
    }
    // Scale subnormals by 2^24 (cube root: 2^8).
    let (a, post) = if a < f32::MIN_POSITIVE {
        (a * 16_777_216.0, 1.0 / 256.0)
    } else {
        (a, 1.0)
    };
    // bits/3 + bias*2/3: a guess within a few percent.
    let mut y = from_bits(bits(a) / 3 + 0x2a51_2ce3);
    // Newton on y^3 = a: y -= (y^3 - a) / (3 y^2), written y*(2/3) + a/(3y^2).
    for _ in 0..2 {
        let y2 = y * y;
        y = fma(y, 2.0 / 3.0, a / (3.0 * y2));
    }
    // Residual a - y^3 exactly enough: y^2 = h + l, y^3 = y*h + y*l.
    let h = y * y;
    let l = fma(y, y, -h);
    let c = fma(y, h, -a); // y*h - a, one rounding
    let c = fma(y, l, c); // + y*l
    let y = fma(-c / (3.0 * h), 1.0, y);
    from_bits(bits(y * post) | (bits(x) & 0x8000_0000))
}

/// `hypotf(x, y)`: `sqrt(x^2 + y^2)` without overflow or underflow in
/// between. CUDA: 3 ulp; `hypotf(±∞, y) = +∞` even if `y` is NaN.
#[doc(alias = "hypot")]
#[inline(always)]
pub fn hypotf(x: f32, y: f32) -> f32 {
    let (ax, ay) = (x.abs(), y.abs());
    if ax == f32::INFINITY || ay == f32::INFINITY {
        return f32::INFINITY;
    }
    if x.is_nan() || y.is_nan() {
        return x + y;
    }
    let (hi, lo) = if ax >= ay { (ax, ay) } else { (ay, ax) };
    if hi == 0.0 {
        return 0.0;
    }
    // Scale by a power of 2 that brings hi near 1 (exact), then
    // sqrt(hi'^2 + lo'^2) with one fma, and scale back.
    // e in [-126, 126] so that both 2^-e and 2^e are normal; hi * 2^-e is
    // in [1, 4) (or [2^-23, 1) for a subnormal hi).
    let e = (((bits(hi) >> 23) as i32).max(1) - 127).min(126);
    let (s, inv) = (util::pow2i(-e), util::pow2i(e));
    let (h, l) = (hi * s, lo * s);
    let r = util::sqrtf(fma(h, h, l * l));
    r * inv
}
