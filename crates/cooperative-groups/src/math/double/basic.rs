//! The exact `f64` functions: rounding to integers, min/max, remainders,
//! scaling and decomposition, sign and neighbour manipulation. Each result
//! is the exact (or correctly rounded) value, as CUDA's are (0 ulp).

use super::dd::pow2;
use crate::arch::fp;

/// `fma(x, y, z)`: `x * y + z` rounded once (`fma.rn.f64`). 0 ulp.
#[doc(alias = "fma.rn.f64")]
#[inline(always)]
pub fn fma(x: f64, y: f64, z: f64) -> f64 {
    fp::fma(x, y, z)
}

/// `floor(x)`: the largest integer not above `x` (`cvt.rmi.f64.f64`).
#[doc(alias = "cvt.rmi.f64.f64")]
#[inline(always)]
pub fn floor(x: f64) -> f64 {
    fp::floor(x)
}

/// `ceil(x)`: the smallest integer not below `x` (`cvt.rpi.f64.f64`).
#[doc(alias = "cvt.rpi.f64.f64")]
#[inline(always)]
pub fn ceil(x: f64) -> f64 {
    fp::ceil(x)
}

/// `trunc(x)`: `x` rounded toward zero (`cvt.rzi.f64.f64`).
#[doc(alias = "cvt.rzi.f64.f64")]
#[inline(always)]
pub fn trunc(x: f64) -> f64 {
    fp::trunc(x)
}

/// `rint(x)`: `x` rounded to the nearest integer, ties to even
/// (`cvt.rni.f64.f64`). Also CUDA's `nearbyint`.
#[doc(alias = "nearbyint", alias = "cvt.rni.f64.f64")]
#[inline(always)]
pub fn rint(x: f64) -> f64 {
    fp::rint(x)
}

/// `round(x)`: `x` rounded to the nearest integer, ties away from zero.
#[inline(always)]
pub fn round(x: f64) -> f64 {
    let t = fp::trunc(x);
    // x - t is exact (same binade or smaller); |x - t| >= 0.5 rounds away.
    if (x - t).abs() >= 0.5 {
        t + copysign(1.0, x)
    } else {
        t
    }
}

/// `fmin(x, y)`: the smaller argument; a NaN argument is ignored (NaN only
/// if both are), and −0 is below +0 (`min.f64`).
#[doc(alias = "min.f64")]
#[inline(always)]
pub fn fmin(x: f64, y: f64) -> f64 {
    fp::min(x, y)
}

/// `fmax(x, y)`: the larger argument; a NaN argument is ignored (NaN only
/// if both are), and +0 is above −0 (`max.f64`).
#[doc(alias = "max.f64")]
#[inline(always)]
pub fn fmax(x: f64, y: f64) -> f64 {
    fp::max(x, y)
}

/// `fdim(x, y)`: `x - y` if `x > y`, else `+0`; NaN if either is NaN.
#[inline(always)]
pub fn fdim(x: f64, y: f64) -> f64 {
    if x > y {
        x - y
    } else if x.is_nan() || y.is_nan() {
        x + y
    } else {
        0.0
    }
}

/// `copysign(x, y)`: the magnitude of `x` with the sign of `y`.
#[inline(always)]
pub fn copysign(x: f64, y: f64) -> f64 {
    const SIGN: u64 = 1 << 63;
    f64::from_bits((x.to_bits() & !SIGN) | (y.to_bits() & SIGN))
}

/// The significand (with its hidden bit, `< 2^53`) and the exponent of the
/// positive finite nonzero `a` (bits): `a = m * 2^(e - 1075)`.
#[inline(always)]
fn unpack(a: u64) -> (u64, i32) {
    let e = (a >> 52) as i32;
    if e == 0 {
        let s = a.leading_zeros() as i32 - 11;
        (a << s, 1 - s)
    } else {
        ((a & ((1 << 52) - 1)) | (1 << 52), e)
    }
}

/// The bits of `m * 2^(e - 1075)` for `0 < m < 2^53` (exact: a remainder
/// of representable numbers fits).
#[inline(always)]
fn pack(m: u64, e: i32) -> u64 {
    let s = m.leading_zeros() as i32 - 11;
    let (m, e) = (m << s, e - s);
    if e >= 1 {
        (m & ((1 << 52) - 1)) | ((e as u64) << 52)
    } else {
        m >> (1 - e)
    }
}

/// `fmod(x, y)`: `x - n*y` with `n` the quotient truncated toward zero,
/// exact, with the sign of `x`. NaN if `x` is infinite or `y` is zero; `x`
/// if `y` is infinite and `x` finite.
///
/// The quotient is formed one bit per step (up to 2098 steps for the
/// widest exponent gap), as an exact remainder must.
#[inline(always)]
pub fn fmod(x: f64, y: f64) -> f64 {
    const ABS: u64 = !(1 << 63);
    let (ax, ay) = (x.to_bits() & ABS, y.to_bits() & ABS);
    let sx = x.to_bits() & !ABS;
    if ax >= 0x7ff0_0000_0000_0000 || ay > 0x7ff0_0000_0000_0000 || ay == 0 {
        return f64::NAN;
    }
    if ax < ay {
        return x;
    }
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
        return f64::from_bits(sx);
    }
    f64::from_bits(pack(mx, e) | sx)
}

/// `remainder(x, y)`: `x - n*y` with `n` the quotient rounded to the
/// nearest integer, ties to even (IEEE 754 remainder), exact.
#[inline(always)]
pub fn remainder(x: f64, y: f64) -> f64 {
    let ay = y.abs();
    if x.is_infinite() || x.is_nan() || y.is_nan() || ay == 0.0 {
        return f64::NAN;
    }
    // r = |x| mod 2|y| (|x| if 2|y| overflows), then at most two steps.
    let two_y = ay * 2.0;
    let mut r = if two_y.is_infinite() {
        x.abs()
    } else {
        fmod(x.abs(), two_y)
    };
    let mut odd = false;
    if r >= ay {
        r -= ay; // exact: ay <= r < 2ay
        odd = true;
    }
    let half = ay - r; // exact when it matters (r >= ay/2)
    if r > half || (r == half && odd) {
        r -= ay;
    }
    if r == 0.0 {
        copysign(0.0, x)
    } else if x < 0.0 {
        -r
    } else {
        r
    }
}

/// `ldexp(x, n)`: `x * 2^n` rounded once. Also CUDA's `scalbn`.
#[doc(alias = "scalbn")]
#[inline(always)]
pub fn ldexp(x: f64, n: i32) -> f64 {
    // Beyond ±2200 every nonzero f64 already overflows or underflows; the
    // clamp keeps the steps below at two.
    let mut n = n.clamp(-2200, 2200);
    let mut y = x;
    if n > 1023 {
        y *= pow2(1023);
        n -= 1023;
        if n > 1023 {
            y *= pow2(1023);
            n = (n - 1023).min(1023);
        }
    } else if n < -1022 {
        // Stay normal until the last multiplication (one rounding): y *
        // 2^-969 is normal for |y| >= 2^-53, and a smaller y gives a result
        // below half the least subnormal (+-0) whichever way it is scaled.
        y *= pow2(-1022 + 53);
        n += 1022 - 53;
        if n < -1022 {
            y *= pow2(-1022 + 53);
            n = (n + 1022 - 53).max(-1022);
        }
    }
    y * pow2(n)
}

/// `frexp(x)`: `(m, e)` with `x = m * 2^e` and `0.5 <= |m| < 1`; `(x, 0)`
/// for ±0, ±∞ and NaN.
#[inline(always)]
pub fn frexp(x: f64) -> (f64, i32) {
    let a = x.to_bits() & !(1 << 63);
    if a == 0 || a >= 0x7ff0_0000_0000_0000 {
        return (x, 0);
    }
    let (m, e) = unpack(a);
    // m has its top bit at 52: m * 2^-53 is in [0.5, 1).
    let frac = (x.to_bits() & (1 << 63)) | (1022u64 << 52) | (m & ((1 << 52) - 1));
    (f64::from_bits(frac), e - 1022)
}

/// `modf(x)`: `(fraction, integral part)`, both with the sign of `x`;
/// `(±0, ±∞)` for ±∞.
#[inline(always)]
pub fn modf(x: f64) -> (f64, f64) {
    let i = fp::trunc(x);
    let f = if x.is_infinite() { 0.0 } else { x - i };
    (copysign(f, x), i)
}

/// `nextafter(x, y)`: the next representable `f64` after `x` toward `y`
/// (`y` if equal, NaN if either is NaN).
#[inline(always)]
pub fn nextafter(x: f64, y: f64) -> f64 {
    if x.is_nan() || y.is_nan() {
        return x + y;
    }
    if x == y {
        return y;
    }
    if x == 0.0 {
        return copysign(f64::from_bits(1), y);
    }
    let b = x.to_bits();
    f64::from_bits(if (x < y) == (x > 0.0) { b + 1 } else { b - 1 })
}
