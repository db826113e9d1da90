//! The host side of `arch::fp`: the same correctly rounded operations,
//! from the host's `std` (IEEE 754 requires `fma`, `sqrt` and the
//! integral roundings to be exact or correctly rounded, so the results are
//! the GPU's bit for bit).

extern crate std;

/// `fma.rn.f32`: `a * b + c` with one rounding.
#[inline]
pub fn fmaf(a: f32, b: f32, c: f32) -> f32 {
    a.mul_add(b, c)
}
/// `sqrt.rn.f32`: the correctly rounded square root.
#[inline]
pub fn sqrtf(x: f32) -> f32 {
    x.sqrt()
}
/// `cvt.rmi.f32.f32`: round toward −∞.
#[inline]
pub fn floorf(x: f32) -> f32 {
    x.floor()
}
/// `cvt.rpi.f32.f32`: round toward +∞.
#[inline]
pub fn ceilf(x: f32) -> f32 {
    x.ceil()
}
/// `cvt.rzi.f32.f32`: round toward zero.
#[inline]
pub fn truncf(x: f32) -> f32 {
    x.trunc()
}
/// `cvt.rni.f32.f32`: round to the nearest integer, ties to even.
#[inline]
pub fn rintf(x: f32) -> f32 {
    x.round_ties_even()
}
/// `fma.rn.f64`.
#[inline]
pub fn fma(a: f64, b: f64, c: f64) -> f64 {
    a.mul_add(b, c)
}
/// `min.f32` as the PTX ISA defines it: a NaN operand is ignored (NaN only
/// if both are, the canonical NaN), and −0 is below +0. Written out because
/// the host's `minnum` leaves the sign of a zero result unspecified.
#[inline]
pub fn minf(x: f32, y: f32) -> f32 {
    if x.is_nan() && y.is_nan() {
        f32::from_bits(0x7fff_ffff)
    } else if x.is_nan() || y < x {
        y
    } else if y.is_nan() || x < y {
        x
    } else {
        f32::from_bits(x.to_bits() | y.to_bits()) // equal: -0 wins
    }
}
/// `max.f32` as the PTX ISA defines it (see [`minf`]); +0 is above −0.
#[inline]
pub fn maxf(x: f32, y: f32) -> f32 {
    if x.is_nan() && y.is_nan() {
        f32::from_bits(0x7fff_ffff)
    } else if x.is_nan() || y > x {
        y
    } else if y.is_nan() || x > y {
        x
    } else {
        f32::from_bits(x.to_bits() & y.to_bits()) // equal: +0 wins
    }
}
/// `cvt.rmi.f64.f64`: round toward −∞.
#[inline]
pub fn floor(x: f64) -> f64 {
    x.floor()
}
/// `cvt.rpi.f64.f64`: round toward +∞.
#[inline]
pub fn ceil(x: f64) -> f64 {
    x.ceil()
}
/// `cvt.rzi.f64.f64`: round toward zero.
#[inline]
pub fn trunc(x: f64) -> f64 {
    x.trunc()
}
/// `cvt.rni.f64.f64`: round to the nearest integer, ties to even.
#[inline]
pub fn rint(x: f64) -> f64 {
    x.round_ties_even()
}
/// `sqrt.rn.f64`: the correctly rounded square root.
#[inline]
pub fn sqrt(x: f64) -> f64 {
    x.sqrt()
}
/// `min.f64` as the PTX ISA defines it (see [`minf`]).
#[inline]
pub fn min(x: f64, y: f64) -> f64 {
    if x.is_nan() && y.is_nan() {
        f64::from_bits(0x7fff_ffff_ffff_ffff)
    } else if x.is_nan() || y < x {
        y
    } else if y.is_nan() || x < y {
        x
    } else {
        f64::from_bits(x.to_bits() | y.to_bits()) // equal: -0 wins
    }
}
/// `max.f64` as the PTX ISA defines it (see [`minf`]).
#[inline]
pub fn max(x: f64, y: f64) -> f64 {
    if x.is_nan() && y.is_nan() {
        f64::from_bits(0x7fff_ffff_ffff_ffff)
    } else if x.is_nan() || y > x {
        y
    } else if y.is_nan() || x > y {
        x
    } else {
        f64::from_bits(x.to_bits() & y.to_bits()) // equal: +0 wins
    }
}

// The approximate (MUFU) and directed-rounding instructions on the host.
//
// The directed roundings are exact: the correctly rounded (to nearest)
// result, then the sign of the exact residual (computed in `f64`, where
// the products of two `f32` are exact and the sums are exact with their
// TwoSum error) says which neighbour the directed mode picks.
//
// The `.approx` instructions cannot be reproduced bit for bit without the
// hardware's tables: the host computes the function accurately (the host
// libm, within a few ulp), which is within the PTX ISA's documented error
// of the instruction, with the instruction's flush-to-zero of subnormal
// inputs and results. The GPU may differ in the last bits (`tanh.approx`:
// in the last 12 bits, its documented relative error being 2^-11).

/// A rounding direction.
#[derive(Clone, Copy)]
enum Dir {
    Zero,
    Up,
    Down,
}

/// `c` (the nearest `f32` to an exact value `v`) moved to `v`'s neighbour
/// in direction `dir`, where `above` says whether `v > c` (`None`: `v ==
/// c`). An infinite `c` from finite operands is an overflow: `v` lies
/// beyond `±MAX`.
fn directed(c: f32, above: Option<bool>, dir: Dir, finite_ops: bool) -> f32 {
    if c.is_nan() {
        return c;
    }
    let (c, above) = if c.is_infinite() && finite_ops {
        (f32::MAX.copysign(c), Some(c > 0.0))
    } else {
        (c, above)
    };
    match (above, dir) {
        (None, _) => c,
        (Some(true), Dir::Up) => c.next_up(),
        (Some(false), Dir::Down) => c.next_down(),
        (Some(false), Dir::Zero) if c > 0.0 => c.next_down(),
        (Some(true), Dir::Zero) if c < 0.0 => c.next_up(),
        _ => c,
    }
}

/// The sign of `v - c` for the exact `v = s + e` (`e` the TwoSum error of
/// `s`) and an `f32` `c`: `d = s - c` is exact (close values), and when it
/// is not zero it exceeds `|e|`.
fn side(s: f64, e: f64, c: f32) -> Option<bool> {
    let d = s - c as f64;
    if d != 0.0 {
        Some(d > 0.0)
    } else if e != 0.0 {
        Some(e > 0.0)
    } else {
        None
    }
}

/// TwoSum in `f64`: `a + b = s + e` exactly.
fn two_sum(a: f64, b: f64) -> (f64, f64) {
    let s = a + b;
    let v = s - a;
    (s, (a - (s - v)) + (b - v))
}

fn add_dir(a: f32, b: f32, dir: Dir) -> f32 {
    let c = a + b;
    let (s, e) = two_sum(a as f64, b as f64);
    directed(c, side(s, e, c), dir, a.is_finite() && b.is_finite())
}
fn mul_dir(a: f32, b: f32, dir: Dir) -> f32 {
    let c = a * b;
    let p = a as f64 * b as f64; // exact
    directed(c, side(p, 0.0, c), dir, a.is_finite() && b.is_finite())
}
fn fma_dir(a: f32, b: f32, z: f32, dir: Dir) -> f32 {
    let c = a.mul_add(b, z);
    let (s, e) = two_sum(a as f64 * b as f64, z as f64);
    directed(
        c,
        side(s, e, c),
        dir,
        a.is_finite() && b.is_finite() && z.is_finite(),
    )
}
fn div_dir(a: f32, b: f32, dir: Dir) -> f32 {
    let c = a / b;
    if !a.is_finite() || !b.is_finite() || a == 0.0 || b == 0.0 {
        return c; // exact: NaN, ±∞ or ±0
    }
    if c.is_infinite() {
        return directed(c, None, dir, true); // overflow
    }
    if c == 0.0 {
        // Underflow past the smallest subnormal: the exact value is nonzero.
        return directed(c, Some((a > 0.0) == (b > 0.0)), dir, true);
    }
    // a - c*b (c*b is exact in f64; the sum's rounding keeps its sign),
    // times b's sign: where the exact quotient lies from c.
    let r = (c as f64).mul_add(-(b as f64), a as f64);
    let above = if r == 0.0 {
        None
    } else {
        Some((r > 0.0) == (b > 0.0))
    };
    directed(c, above, dir, true)
}
fn sqrt_dir(a: f32, dir: Dir) -> f32 {
    let c = a.sqrt();
    if !c.is_finite() || c == 0.0 {
        return c;
    }
    let r = (c as f64).mul_add(-(c as f64), a as f64);
    directed(c, if r == 0.0 { None } else { Some(r > 0.0) }, dir, true)
}

/// Flush a subnormal to a zero of its sign (`.ftz`).
fn ftz(x: f32) -> f32 {
    if x.is_subnormal() {
        0.0f32.copysign(x)
    } else {
        x
    }
}

/// `ex2.approx.ftz.f32`: the host's `exp2`.
pub fn ex2_approx_ftz(a: f32) -> f32 {
    ftz(ftz(a).exp2())
}
/// `lg2.approx.ftz.f32`: the host's `log2`.
pub fn lg2_approx_ftz(a: f32) -> f32 {
    ftz(a).log2()
}
/// `sin.approx.ftz.f32`: the host's `sin`.
pub fn sin_approx_ftz(a: f32) -> f32 {
    ftz(ftz(a).sin())
}
/// `cos.approx.ftz.f32`: the host's `cos`.
pub fn cos_approx_ftz(a: f32) -> f32 {
    ftz(ftz(a).cos())
}
/// `rsqrt.approx.f32`: `1/sqrt`.
pub fn rsqrt_approx(a: f32) -> f32 {
    1.0 / a.sqrt()
}
/// `rcp.approx.f32`: `1/a`.
pub fn rcp_approx(a: f32) -> f32 {
    1.0 / a
}
/// `div.approx.f32` (maximum 2 ulp for `2^-126 <= |b| <= 2^126`; `a * rcp(b)`,
/// so 0 for `|b|` above 2^126): the same product of `a` and `1/b`.
pub fn div_approx(a: f32, b: f32) -> f32 {
    let r = 1.0 / b;
    a * if b.abs() > 8.507_059e37 && b.is_finite() {
        0.0f32.copysign(b)
    } else {
        r
    }
}
/// `tanh.approx.f32` (maximum relative error 2^-10.987): the host's
/// `tanh`; the GPU's result differs in up to its last 12 bits.
pub fn tanh_approx(a: f32, _fallback: fn(f32) -> f32) -> f32 {
    a.tanh()
}

/// `rcp.rn.f32`.
pub fn rcp_rn(a: f32) -> f32 {
    1.0 / a
}
/// `div.rn.f32`.
pub fn div_rn(a: f32, b: f32) -> f32 {
    a / b
}
/// `sqrt.rn.f32`.
pub fn sqrt_rn(a: f32) -> f32 {
    a.sqrt()
}
/// `rcp.rz.f32`.
pub fn rcp_rz(a: f32) -> f32 {
    div_dir(1.0, a, Dir::Zero)
}
/// `rcp.rp.f32`.
pub fn rcp_ru(a: f32) -> f32 {
    div_dir(1.0, a, Dir::Up)
}
/// `rcp.rm.f32`.
pub fn rcp_rd(a: f32) -> f32 {
    div_dir(1.0, a, Dir::Down)
}
/// `sqrt.rz.f32`.
pub fn sqrt_rz(a: f32) -> f32 {
    sqrt_dir(a, Dir::Zero)
}
/// `sqrt.rp.f32`.
pub fn sqrt_ru(a: f32) -> f32 {
    sqrt_dir(a, Dir::Up)
}
/// `sqrt.rm.f32`.
pub fn sqrt_rd(a: f32) -> f32 {
    sqrt_dir(a, Dir::Down)
}
/// `add.rz.f32`.
pub fn add_rz(a: f32, b: f32) -> f32 {
    add_dir(a, b, Dir::Zero)
}
/// `add.rp.f32`.
pub fn add_ru(a: f32, b: f32) -> f32 {
    add_dir(a, b, Dir::Up)
}
/// `add.rm.f32`.
pub fn add_rd(a: f32, b: f32) -> f32 {
    add_dir(a, b, Dir::Down)
}
/// `mul.rz.f32`.
pub fn mul_rz(a: f32, b: f32) -> f32 {
    mul_dir(a, b, Dir::Zero)
}
/// `mul.rp.f32`.
pub fn mul_ru(a: f32, b: f32) -> f32 {
    mul_dir(a, b, Dir::Up)
}
/// `mul.rm.f32`.
pub fn mul_rd(a: f32, b: f32) -> f32 {
    mul_dir(a, b, Dir::Down)
}
/// `div.rz.f32`.
pub fn div_rz(a: f32, b: f32) -> f32 {
    div_dir(a, b, Dir::Zero)
}
/// `div.rp.f32`.
pub fn div_ru(a: f32, b: f32) -> f32 {
    div_dir(a, b, Dir::Up)
}
/// `div.rm.f32`.
pub fn div_rd(a: f32, b: f32) -> f32 {
    div_dir(a, b, Dir::Down)
}
/// `add.rn.f32`.
pub fn add_rn(a: f32, b: f32) -> f32 {
    a + b
}
/// `mul.rn.f32`.
pub fn mul_rn(a: f32, b: f32) -> f32 {
    a * b
}
/// `fma.rz.f32`.
pub fn fma_rz(a: f32, b: f32, c: f32) -> f32 {
    fma_dir(a, b, c, Dir::Zero)
}
/// `fma.rp.f32`.
pub fn fma_ru(a: f32, b: f32, c: f32) -> f32 {
    fma_dir(a, b, c, Dir::Up)
}
/// `fma.rm.f32`.
pub fn fma_rd(a: f32, b: f32, c: f32) -> f32 {
    fma_dir(a, b, c, Dir::Down)
}
