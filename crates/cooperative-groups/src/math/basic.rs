//! The exact functions: rounding to integers, min/max, remainders, scaling
//! and decomposition, sign and neighbour manipulation. Each result is the
//! exact (or correctly rounded) value, as CUDA's are (0 ulp).

use super::util::{self, bits, fma, from_bits};

/// `fmaf(x, y, z)`: `x * y + z` rounded once (`fma.rn.f32`). 0 ulp.
#[doc(alias = "fma")]
#[inline(always)]
pub fn fmaf(x: f32, y: f32, z: f32) -> f32 {
    fma(x, y, z)
}

/// `floorf(x)`: the largest integer not above `x` (`cvt.rmi.f32.f32`).
#[doc(alias = "floor")]
#[inline(always)]
pub fn floorf(x: f32) -> f32 {
    util::floorf(x)
}

/// `ceilf(x)`: the smallest integer not below `x` (`cvt.rpi.f32.f32`).
#[doc(alias = "ceil")]
#[inline(always)]
pub fn ceilf(x: f32) -> f32 {
    util::ceilf(x)
}

/// `truncf(x)`: `x` rounded toward zero (`cvt.rzi.f32.f32`).
#[doc(alias = "trunc")]
#[inline(always)]
pub fn truncf(x: f32) -> f32 {
    util::truncf(x)
}

/// `rintf(x)`: `x` rounded to the nearest integer, ties to even
/// (`cvt.rni.f32.f32`). Also CUDA's `nearbyintf`.
#[doc(alias = "rint", alias = "nearbyintf")]
#[inline(always)]
pub fn rintf(x: f32) -> f32 {
    util::rintf(x)
}

/// `roundf(x)`: `x` rounded to the nearest integer, ties away from zero.
#[doc(alias = "round")]
#[inline(always)]
pub fn roundf(x: f32) -> f32 {
    let t = util::truncf(x);
    // x - t is exact (same binade or smaller); |x - t| >= 0.5 rounds away.
    let d = x - t;
    if d.abs() >= 0.5 {
        t + copysignf(1.0, x)
    } else {
        t
    }
}

/// `fminf(x, y)`: the smaller argument; a NaN argument is ignored (NaN only
/// if both are), and −0 is below +0 (`min.f32`).
#[doc(alias = "fmin")]
#[inline(always)]
pub fn fminf(x: f32, y: f32) -> f32 {
    crate::arch::fp::minf(x, y)
}

/// `fmaxf(x, y)`: the larger argument; a NaN argument is ignored (NaN only
/// if both are), and +0 is above −0 (`max.f32`).
#[doc(alias = "fmax")]
#[inline(always)]
pub fn fmaxf(x: f32, y: f32) -> f32 {
    crate::arch::fp::maxf(x, y)
}

/// `fdimf(x, y)`: `x - y` if `x > y`, else `+0`; NaN if either is NaN.
#[doc(alias = "fdim")]
#[inline(always)]
pub fn fdimf(x: f32, y: f32) -> f32 {
    if x > y {
        x - y
    } else if x.is_nan() || y.is_nan() {
        x + y
    } else {
        0.0
    }
}

/// `copysignf(x, y)`: the magnitude of `x` with the sign of `y`.
#[doc(alias = "copysign")]
#[inline(always)]
pub fn copysignf(x: f32, y: f32) -> f32 {
    from_bits((bits(x) & 0x7fff_ffff) | (bits(y) & 0x8000_0000))
}

/// `fmodf(x, y)`: `x - n*y` with `n` the quotient truncated toward zero,
/// computed exactly (the sign of `x`). NaN if `x` is infinite or `y` is
/// zero; `x` if `y` is infinite and `x` finite.
///
/// The quotient is formed one bit per step (up to 277 steps for the
/// widest exponent gap), as any exact remainder must.
#[doc(alias = "fmod")]
#[inline(always)]
pub fn fmodf(x: f32, y: f32) -> f32 {
    let ax = bits(x) & 0x7fff_ffff;
    let ay = bits(y) & 0x7fff_ffff;
    let sx = bits(x) & 0x8000_0000;
    if ax >= 0x7f80_0000 || ay > 0x7f80_0000 || ay == 0 {
        return f32::NAN; // x infinite or NaN, y NaN or 0
    }
    if ax < ay {
        return x;
    }
    // Integer significands and exponents (subnormals normalized).
    let (mut mx, ex) = unpack(ax);
    let (my, ey) = unpack(ay);
    let mut e = ex;
    while e > ey {
        if mx >= my {
            mx -= my;
        }
        mx <<= 1;
        e -= 1;
    }
    if mx >= my {
        mx -= my;
    }
    if mx == 0 {
        return from_bits(sx);
    }
    from_bits(pack(mx, e) | sx)
}

/// The significand (with its hidden bit, `< 2^24`) and the exponent of the
/// positive finite `a` (bits) such that `a = m * 2^(e - 150)`.
#[inline(always)]
fn unpack(a: u32) -> (u32, i32) {
    let e = (a >> 23) as i32;
    if e == 0 {
        // Subnormal: normalize the significand to 24 bits.
        let s = a.leading_zeros() as i32 - 8;
        (a << s, 1 - s)
    } else {
        ((a & 0x7f_ffff) | 0x80_0000, e)
    }
}

/// The bits of `m * 2^(e - 150)` for `0 < m < 2^24` (exact: the value is a
/// remainder of a representable number, so it fits).
#[inline(always)]
fn pack(m: u32, e: i32) -> u32 {
    let s = m.leading_zeros() as i32 - 8; // shift to put the top bit at 23
    let (m, e) = (m << s, e - s);
    if e >= 1 {
        (m & 0x7f_ffff) | ((e as u32) << 23)
    } else {
        m >> (1 - e) // subnormal result; the shifted-out bits are zero
    }
}

/// `remainderf(x, y)`: `x - n*y` with `n` the quotient rounded to the
/// nearest integer, ties to even (IEEE 754 remainder), exact.
#[doc(alias = "remainder")]
#[inline(always)]
pub fn remainderf(x: f32, y: f32) -> f32 {
    let ay = y.abs();
    if x.is_infinite() || x.is_nan() || y.is_nan() || ay == 0.0 {
        return f32::NAN;
    }
    // r = |x| mod 2|y| (|x| if 2|y| overflows), then at most two steps.
    let two_y = ay * 2.0;
    let mut r = if two_y.is_infinite() {
        x.abs()
    } else {
        fmodf(x.abs(), two_y)
    };
    let mut odd = false;
    if r >= ay {
        r -= ay; // exact: ay <= r < 2ay
        odd = true;
    }
    // r > ay/2, or a tie with an odd quotient: one more y.
    let half = ay - r; // exact when it matters (r >= ay/2)
    if r > half || (r == half && odd) {
        r -= ay;
    }
    if r == 0.0 {
        copysignf(0.0, x)
    } else if x < 0.0 {
        -r
    } else {
        r
    }
}

/// `ldexpf(x, n)`: `x * 2^n` rounded once. Also CUDA's `scalbnf`.
#[doc(alias = "ldexp", alias = "scalbnf")]
#[inline(always)]
pub fn ldexpf(x: f32, n: i32) -> f32 {
    // Clamp n so the loop below is two steps at most; anything beyond
    // ±300 already overflows or underflows every nonzero f32.
    let mut n = n.clamp(-300, 300);
    let mut y = x;
    if n > 127 {
        y *= util::pow2i(127);
        n -= 127;
        if n > 127 {
            y *= util::pow2i(127);
            n -= 127;
            n = n.min(127);
        }
    } else if n < -126 {
        // Stay normal until the last multiplication (one rounding).
        y *= util::pow2i(-126 + 24);
        n += 126 - 24;
        if n < -126 {
            y *= util::pow2i(-126 + 24);
            n += 126 - 24;
            n = n.max(-126);
        }
    }
    y * util::pow2i(n)
}

/// `frexpf(x)`: `(m, e)` with `x = m * 2^e` and `0.5 <= |m| < 1`; `(x, 0)`
/// for ±0, ±∞ and NaN.
#[doc(alias = "frexp")]
#[inline(always)]
pub fn frexpf(x: f32) -> (f32, i32) {
    let a = bits(x) & 0x7fff_ffff;
    if a == 0 || a >= 0x7f80_0000 {
        return (x, 0);
    }
    let (m, e) = unpack(a);
    // m has its top bit at 23: m * 2^-24 is in [0.5, 1).
    let frac = from_bits((bits(x) & 0x8000_0000) | 0x3f00_0000 | (m & 0x7f_ffff));
    (frac, e - 126)
}

/// `modff(x)`: `(fraction, integral part)`, both with the sign of `x`;
/// `(±0, ±∞)` for ±∞.
#[doc(alias = "modf")]
#[inline(always)]
pub fn modff(x: f32) -> (f32, f32) {
    let i = util::truncf(x);
    let f = if x.is_infinite() { 0.0 } else { x - i };
    (copysignf(f, x), i)
}

/// `nextafterf(x, y)`: the next representable `f32` after `x` toward `y`
/// (`y` if equal, NaN if either is NaN).
#[doc(alias = "nextafter")]
#[inline(always)]
pub fn nextafterf(x: f32, y: f32) -> f32 {
    if x.is_nan() || y.is_nan() {
        return x + y;
    }
    if x == y {
        return y;
    }
    if x == 0.0 {
        return copysignf(from_bits(1), y);
    }
    let b = bits(x);
    let b = if (x < y) == (x > 0.0) { b + 1 } else { b - 1 };
    from_bits(b)
}
