//! The accuracy sweep of the math library on the GPU (`cg-lab
//! math-accuracy`), and the definitions it shares with the simulator's
//! accuracy tests (`cooperative-groups/tests/math_accuracy*.rs`): CUDA's
//! documented bounds, the error of an `f32` result in ulps, the correct
//! directed rounding of an exact value, and the counter-based generator of
//! random arguments. One definition of each, compiled for the GPU and for
//! the host.
//!
//! The kernels measure, per function, over the inputs of one launch: the
//! largest error in ulps and the input where it occurs, the largest
//! absolute error (for the intrinsics CUDA bounds absolutely), the largest
//! error relative to the function's bound, and the count of special-value
//! mismatches (NaN for a number or a number for NaN, a wrong infinity, a
//! zero of the wrong sign). Each thread keeps its own maxima over a
//! grid-stride loop; the block combines them with `reduce` (one
//! `Greater` per maximum, `Plus` per count) and its thread 0 folds them
//! into six `u64` of global memory with `red.max`/`red.add`/`red.min`:
//! whatever the number of inputs, six numbers per function come back.
//!
//! The reference of an `f32` function is the library's `f64` function of
//! the widened input, within about one `f64` ulp (2^-29 of an `f32` ulp:
//! `cooperative-groups/tests/math_accuracy_f64.rs` measures it against
//! `f128`); the intrinsics' references are the exact operations in `f64`
//! (`x + y` as two `f64`s by TwoSum, `x * y` exactly, `x / y`, `sqrt x`
//! and `1 / x` with the sign of their exact remainder).

use cooperative_groups::atomic::Relaxed;
use cooperative_groups::math::{self, fast, rounded};
use cooperative_groups::ops::{Greater, Less, Plus};
use cooperative_groups::prelude::*;
use cooperative_groups::{AtomicSlice, GlobalSlice, OwnedSlice, kernel, reduce};

use crate::math::{apply_unary_f32, apply_unary_f64};

/// Threads per block of the sweep kernels (their block reduction is
/// specialised for this size).
pub const ACC_THREADS: u32 = 256;

/// The `u64` words a sweep kernel accumulates into, per function:
/// [`SLOT_ULP`], [`SLOT_ABS`], [`SLOT_RATIO`] (maxima as [`key`]s),
/// [`SLOT_SPECIAL`] (a count), [`SLOT_SPECIAL_FIRST`] (the smallest tag of
/// a special-value mismatch, `u64::MAX` if none), [`SLOT_TESTED`] (a
/// count). The host clears them to [`initial_slots`] once per function.
pub const ACC_SLOTS: usize = 6;
/// The largest error in ulps, as a [`key`].
pub const SLOT_ULP: usize = 0;
/// The largest absolute error (intrinsics bounded absolutely), as a [`key`].
pub const SLOT_ABS: usize = 1;
/// The largest error divided by what CUDA allows there, as a [`key`]
/// (above 1: over the bound; infinite: a wrong directed rounding).
pub const SLOT_RATIO: usize = 2;
/// Special-value mismatches.
pub const SLOT_SPECIAL: usize = 3;
/// The tag of the first special-value mismatch (smallest tag).
pub const SLOT_SPECIAL_FIRST: usize = 4;
/// Inputs measured (inside the documented domain).
pub const SLOT_TESTED: usize = 5;

/// What the accumulator words hold before the first launch of a function.
pub const fn initial_slots() -> [u64; ACC_SLOTS] {
    [0, 0, 0, 0, u64::MAX, 0]
}

/// The allowance for the reference's own error, in `f32` ulps: the `f64`
/// reference is within 2^-28 `f32` ulp, so a correctly rounded result
/// (0.5 ulp) measured against it stays below `0.5 + 2^-20`.
pub const REFERENCE_SLACK: f64 = 1.0 / 1048576.0;

/// `2^k` as an `f64`, for `-1022 <= k <= 1023`.
#[inline(always)]
const fn pow2(k: i32) -> f64 {
    f64::from_bits(((k + 1023) as u64) << 52)
}

/// The error of the `f32` result `y` against the exact value `r` (an
/// `f64` that holds it to far better than an `f32` ulp), in ulps of `f32`
/// at `r`: `|y - r|` divided by the spacing of `f32` in the binade of `r`
/// (2^-149 below 2^-126). So a correctly rounded result measures at most
/// 0.5.
///
/// Equal NaNs, equal infinities and zeros of the same sign are 0; a
/// result that is NaN where `r` is not (or the reverse), an infinity where
/// `r` is not one and does not round to one, or a zero of the other sign
/// where `r` is zero, is infinite: a special-value mismatch. Where `r`
/// lies beyond `f32::MAX`, the correctly rounded value (`∞` or `MAX`) is
/// exact, and an infinite `y` for an `r` that rounds to `MAX` is measured
/// as `1 +` its distance from `MAX` in ulps of `MAX` (2^104).
#[inline(always)]
pub fn ulp_error_f32(y: f32, r: f64) -> f64 {
    if r.is_nan() {
        return if y.is_nan() { 0.0 } else { f64::INFINITY };
    }
    if y.is_nan() {
        return f64::INFINITY;
    }
    let rf = r as f32; // the correctly rounded result (round to nearest)
    if rf.is_infinite() || y.is_infinite() {
        if y == rf {
            return 0.0;
        }
        if y.is_infinite() && !rf.is_infinite() {
            let m = f32::MAX as f64;
            return ((r.abs() - m) / pow2(104)).abs() + 1.0;
        }
        return if y.is_infinite() || r.is_infinite() {
            f64::INFINITY
        } else {
            ((y as f64 - r) / pow2(104)).abs()
        };
    }
    if y == 0.0 && r == 0.0 {
        return if y.is_sign_negative() == r.is_sign_negative() {
            0.0
        } else {
            f64::INFINITY
        };
    }
    // The binade of |r| from its exponent field (|r| >= 2^-126 here is a
    // normal f64); below 2^-126 the subnormal spacing 2^-149.
    let a = r.abs().max(f32::MIN_POSITIVE as f64);
    let e = ((a.to_bits() >> 52) & 0x7ff) as i32 - 1023;
    let ulp = pow2(e - 23);
    ((y as f64) - r).abs() / ulp
}

/// A rounding direction of the `_rn`, `_rz`, `_ru`, `_rd` intrinsics.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rounding {
    /// To nearest, ties to even.
    Nearest,
    /// Toward zero.
    Zero,
    /// Toward +∞.
    Up,
    /// Toward −∞.
    Down,
}

/// The exact value `hi + lo` (`lo` far below an `f32` ulp of `hi`; only
/// its sign matters, and only where `hi` is an `f32` or halfway between
/// two) rounded to `f32` in direction `mode`, overflow and subnormals
/// included. The reference of the directed-rounding intrinsics.
#[inline(always)]
pub fn round_to_f32(hi: f64, lo: f64, mode: Rounding) -> f32 {
    let t = hi as f32; // to nearest, ties to even
    if hi.is_nan() {
        return t;
    }
    let tv = t as f64;
    let exact_above = tv < hi || (tv == hi && lo > 0.0);
    let exact_below = tv > hi || (tv == hi && lo < 0.0);
    match mode {
        Rounding::Nearest => {
            if tv == hi || lo == 0.0 {
                return t;
            }
            // `hi` exactly halfway between t and its other neighbour:
            // the sign of `lo` decides. (Distances with an infinity
            // counted as 2^128, where rounding to nearest puts it.)
            let at = |v: f32| {
                if v.is_infinite() {
                    pow2(128).copysign(v as f64)
                } else {
                    v as f64
                }
            };
            let tv = at(t);
            let other = if tv < hi { t.next_up() } else { t.next_down() };
            if (tv - hi).abs() != (at(other) - hi).abs() {
                t
            } else if lo > 0.0 {
                if tv > hi { t } else { other }
            } else if tv < hi {
                t
            } else {
                other
            }
        }
        Rounding::Up => {
            if exact_above {
                t.next_up()
            } else {
                t
            }
        }
        Rounding::Down => {
            if exact_below {
                t.next_down()
            } else {
                t
            }
        }
        // Toward zero: down for a positive value, up for a negative one.
        Rounding::Zero => {
            if hi > 0.0 && exact_below {
                t.next_down()
            } else if hi < 0.0 && exact_above {
                t.next_up()
            } else {
                t
            }
        }
    }
}

/// What CUDA allows for a function at one input.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Check {
    /// At most this many ulps (CUDA's tables; a bound of 0 means correctly
    /// rounded: 0.5 measured against the exact value).
    Ulp(f64),
    /// An absolute error of at most this much.
    Abs(f64),
    /// A relative error of at most this much.
    Rel(f64),
    /// The exact value rounded in this direction, bit for bit.
    Rounded(Rounding),
    /// Measured in ulps; CUDA documents no figure here.
    Unbounded,
    /// Outside the documented domain (flushed subnormals, where CUDA says
    /// "larger", lgamma's interval without a bound): not measured.
    Outside,
}

/// A `u64` whose order is that of `(v, tag)`: `v >= 0` rounded up to `f32`
/// in the high half (so the reported maximum is never below the measured
/// one), `tag` (the input's bits or index) in the low half. `red.max` of
/// keys keeps the largest error and where it occurred.
#[inline(always)]
pub fn key(v: f64, tag: u32) -> u64 {
    let t = v as f32;
    let t = if (t as f64) < v { t.next_up() } else { t };
    ((t.to_bits() as u64) << 32) | tag as u64
}

/// The error value of a [`key`].
pub fn key_value(k: u64) -> f32 {
    f32::from_bits((k >> 32) as u32)
}

/// One thread's (and then one block's) measurements.
#[derive(Clone, Copy, Debug)]
struct Tally {
    ulp: u64,
    abs: u64,
    ratio: u64,
    special: u64,
    special_first: u64,
    tested: u64,
}

impl Tally {
    #[inline(always)]
    fn new() -> Tally {
        Tally {
            ulp: 0,
            abs: 0,
            ratio: 0,
            special: 0,
            special_first: u64::MAX,
            tested: 0,
        }
    }

    /// Measures the result `y` against the exact `r` (+ `lo`, for the
    /// directed roundings) under `check`; `tag` names the input.
    #[inline(always)]
    fn record(&mut self, check: Check, y: f32, r: f64, lo: f64, tag: u32) {
        if check == Check::Outside {
            return;
        }
        self.tested += 1;
        let e = ulp_error_f32(y, r);
        if !e.is_finite() {
            self.special += 1;
            self.special_first = self.special_first.min(tag as u64);
            return;
        }
        let ratio = match check {
            Check::Abs(b) => {
                let a = (y as f64 - r).abs();
                self.abs = self.abs.max(key(a, tag));
                a / b
            }
            Check::Ulp(b) => {
                self.ulp = self.ulp.max(key(e, tag));
                e / (b.max(0.5) + REFERENCE_SLACK)
            }
            Check::Rel(b) => {
                self.ulp = self.ulp.max(key(e, tag));
                if r == 0.0 {
                    0.0
                } else {
                    (y as f64 - r).abs() / r.abs() / b
                }
            }
            Check::Rounded(mode) => {
                self.ulp = self.ulp.max(key(e, tag));
                let want = round_to_f32(r, lo, mode);
                if y.to_bits() == want.to_bits() || (y.is_nan() && want.is_nan()) {
                    0.0
                } else {
                    f64::INFINITY
                }
            }
            Check::Unbounded | Check::Outside => {
                self.ulp = self.ulp.max(key(e, tag));
                0.0
            }
        };
        self.ratio = self.ratio.max(key(ratio, tag));
    }

    /// Combines the block's tallies (`reduce` over the block) and folds
    /// them into `acc` from thread 0.
    #[inline(always)]
    fn flush(self, acc: &AtomicSlice<u64>) {
        let block = this_thread_block().with_threads::<ACC_THREADS>();
        let ulp = reduce(&block, self.ulp, Greater);
        let abs = reduce(&block, self.abs, Greater);
        let ratio = reduce(&block, self.ratio, Greater);
        let special = reduce(&block, self.special, Plus);
        let first = reduce(&block, self.special_first, Less);
        let tested = reduce(&block, self.tested, Plus);
        if block.thread_rank() == 0 {
            acc.at(SLOT_ULP).red_max(ulp, Relaxed);
            acc.at(SLOT_ABS).red_max(abs, Relaxed);
            acc.at(SLOT_RATIO).red_max(ratio, Relaxed);
            acc.at(SLOT_SPECIAL).red_add(special, Relaxed);
            acc.at(SLOT_SPECIAL_FIRST).red_min(first, Relaxed);
            acc.at(SLOT_TESTED).red_add(tested, Relaxed);
        }
    }
}

/// CUDA's documented maximum ulp error of one accurate `f32` function
/// (CUDA C++ Programming Guide, "Mathematical Functions"), with the open
/// interval where it documents none.
#[derive(Clone, Copy, Debug)]
pub struct UlpBound {
    /// CUDA's name.
    pub name: &'static str,
    /// The maximum ulp error (0: correctly rounded).
    pub ulp: f64,
    /// Inputs strictly inside this interval are not bounded.
    pub skip: Option<(f32, f32)>,
}

impl UlpBound {
    /// What CUDA allows at `x`.
    #[inline(always)]
    pub fn check(&self, x: f32) -> Check {
        match self.skip {
            Some((lo, hi)) if lo < x && x < hi => Check::Outside,
            _ => Check::Ulp(self.ulp),
        }
    }
}

const fn b(name: &'static str, ulp: f64) -> UlpBound {
    UlpBound {
        name,
        ulp,
        skip: None,
    }
}

/// CUDA's bounds of the unary `f32` functions, in the order of
/// [`UNARY_F32_FUNCTIONS`](crate::math::UNARY_F32_FUNCTIONS). For the
/// inverses and the gamma functions, the sources are discussed in the
/// guide's math chapter (`docs/guide/math.md`, "Accuracy").
pub const UNARY_F32_BOUNDS: [UlpBound; 38] = [
    b("expf", 2.0),
    b("exp2f", 2.0),
    b("exp10f", 2.0),
    b("expm1f", 1.0),
    b("logf", 1.0),
    b("log2f", 1.0),
    b("log10f", 2.0),
    b("log1pf", 1.0),
    b("sqrtf", 0.0),
    b("rsqrtf", 2.0),
    b("cbrtf", 1.0),
    b("sinf", 2.0),
    b("cosf", 2.0),
    b("tanf", 4.0),
    b("sinpif", 1.0),
    b("cospif", 1.0),
    b("asinf", 2.0),
    b("acosf", 2.0),
    b("atanf", 2.0),
    b("sinhf", 3.0),
    b("coshf", 2.0),
    b("tanhf", 2.0),
    b("asinhf", 3.0),
    b("acoshf", 4.0),
    b("atanhf", 3.0),
    b("erff", 2.0),
    b("erfcf", 4.0),
    b("normcdff", 5.0),
    b("floorf", 0.0),
    b("ceilf", 0.0),
    b("truncf", 0.0),
    b("roundf", 0.0),
    b("rintf", 0.0),
    b("erfinvf", 2.0),
    b("erfcinvf", 4.0),
    b("normcdfinvf", 5.0),
    // "6 outside interval -10.001 ... -2.264; larger inside".
    UlpBound {
        name: "lgammaf",
        ulp: 6.0,
        skip: Some((-10.001, -2.264)),
    },
    b("tgammaf", 5.0),
];

/// CUDA's bounds of the binary (and ternary) accurate `f32` functions,
/// in the order of [`ARGS_F32`]'s first entries.
pub const BINARY_F32_BOUNDS: [UlpBound; 11] = [
    b("atan2f", 3.0),
    b("hypotf", 3.0),
    b("powf", 4.0),
    b("fmodf", 0.0),
    b("remainderf", 0.0),
    b("fdimf", 0.0),
    b("nextafterf", 0.0),
    b("copysignf", 0.0),
    b("fminf", 0.0),
    b("fmaxf", 0.0),
    b("fmaf", 0.0),
];

/// A function of the sweep: its name and CUDA's bound in words.
pub type Named = (&'static str, &'static str);

/// The unary `f32` intrinsics the sweep measures (after the accurate
/// functions of [`UNARY_F32_FUNCTIONS`](crate::math::UNARY_F32_FUNCTIONS)),
/// with CUDA's bound (Programming Guide, "Intrinsic Functions"; the PTX
/// ISA for `rsqrt.approx` and `tanh.approx`). The `.ftz` intrinsics are
/// measured where neither the input nor the exact result is subnormal.
pub const INTRINSICS_F32: [Named; 18] = [
    ("__expf", "2 + floor(|1.173 x|) ulp"),
    ("__exp10f", "2 + floor(|2.97 x|) ulp"),
    ("__logf", "2^-21.41 abs in [0.5, 2]; 3 ulp"),
    ("__log2f", "2^-22 abs in [0.5, 2]; 2 ulp"),
    ("__log10f", "2^-24 abs in [0.5, 2]; 3 ulp"),
    ("__sinf", "2^-21.41 abs in [-pi, pi]"),
    ("__cosf", "2^-21.19 abs in [-pi, pi]"),
    ("__tanf", "none (derived) in [-pi, pi]"),
    ("rsqrt.approx", "2^-22.9 relative"),
    ("tanh.approx", "2^-10.987 relative"),
    ("__frcp_rn", "correctly rounded"),
    ("__frcp_rz", "correctly rounded"),
    ("__frcp_ru", "correctly rounded"),
    ("__frcp_rd", "correctly rounded"),
    ("__fsqrt_rn", "correctly rounded"),
    ("__fsqrt_rz", "correctly rounded"),
    ("__fsqrt_ru", "correctly rounded"),
    ("__fsqrt_rd", "correctly rounded"),
];

/// `true` for a nonzero value below `f32`'s normal range.
#[inline(always)]
fn tiny(v: f64) -> bool {
    v != 0.0 && v.abs() < f32::MIN_POSITIVE as f64
}

/// The domain of an `.ftz` intrinsic: neither input nor exact result
/// subnormal.
#[inline(always)]
fn ftz(x: f32, r: f64, c: Check) -> Check {
    if x.is_subnormal() || tiny(r) {
        Check::Outside
    } else {
        c
    }
}

/// `1 / x` in `f64` and the sign of its exact remainder.
#[inline(always)]
fn rcp_exact(x: f32) -> (f64, f64) {
    let q = 1.0 / x as f64;
    (q, math::fma(-q, x as f64, 1.0) * x as f64)
}

/// `sqrt x` in `f64` and the sign of its exact remainder.
#[inline(always)]
fn sqrt_exact(x: f32) -> (f64, f64) {
    let s = math::sqrt(x as f64);
    (s, math::fma(-s, s, x as f64))
}

/// `x / y` in `f64` and the sign of its exact remainder.
#[inline(always)]
fn div_exact(x: f32, y: f32) -> (f64, f64) {
    let q = x as f64 / y as f64;
    (q, math::fma(-q, y as f64, x as f64) * y as f64)
}

/// `a + b` exactly, as `(sum, error)` (TwoSum; `f64` holds the sum of two
/// `f32`s, or of an `f32` product and an `f32`, to within that error), with
/// IEEE's sign of an exact zero sum under `mode`.
#[inline(always)]
fn add_exact(a: f64, b: f64, mode: Rounding) -> (f64, f64) {
    let s = a + b;
    if s == 0.0 {
        // An exact zero (f64 cannot round a nonzero sum of these to 0):
        // two zeros of one sign keep it, any other cancellation is +0,
        // or -0 when rounding down.
        let zero = if a == 0.0 && b == 0.0 && a.is_sign_negative() == b.is_sign_negative() {
            a
        } else if mode == Rounding::Down {
            -0.0
        } else {
            0.0
        };
        return (zero, 0.0);
    }
    let bb = s - a;
    let e = (a - (s - bb)) + (b - bb);
    (s, e)
}

/// The `i`-th unary intrinsic of [`INTRINSICS_F32`] at `x`: its result,
/// the exact value (and remainder sign) and what CUDA allows.
#[inline(always)]
fn intrinsic_unary(i: u32, x: f32) -> (f32, f64, f64, Check) {
    use Rounding::*;
    let xd = x as f64;
    let pi = core::f64::consts::PI;
    let within_pi = xd.abs() <= pi;
    match i {
        0 => {
            let r = math::exp(xd);
            let b = 2.0 + (1.173 * xd).abs() as i64 as f64;
            (fast::expf(x), r, 0.0, ftz(x, r, Check::Ulp(b)))
        }
        1 => {
            let r = math::exp10(xd);
            let b = 2.0 + (2.97 * xd).abs() as i64 as f64;
            (fast::exp10f(x), r, 0.0, ftz(x, r, Check::Ulp(b)))
        }
        2..=4 => {
            let near_one = (0.5..=2.0).contains(&xd);
            let (y, r, abs, ulp) = match i {
                2 => (fast::logf(x), math::log(xd), pow2(-22) * 1.328_686, 3.0), // 2^-21.41
                3 => (fast::log2f(x), math::log2(xd), pow2(-22), 2.0),
                _ => (fast::log10f(x), math::log10(xd), pow2(-24), 3.0),
            };
            let c = if near_one {
                Check::Abs(abs)
            } else {
                Check::Ulp(ulp)
            };
            (y, r, 0.0, ftz(x, r, c))
        }
        5 => {
            let r = math::sin(xd);
            let c = if within_pi {
                Check::Abs(pow2(-22) * 1.328_686) // 2^-21.41
            } else {
                Check::Outside
            };
            (fast::sinf(x), r, 0.0, ftz(x, r, c))
        }
        6 => {
            let r = math::cos(xd);
            let c = if within_pi {
                Check::Abs(pow2(-22) * 1.140_764) // 2^-21.19
            } else {
                Check::Outside
            };
            (fast::cosf(x), r, 0.0, ftz(x, r, c))
        }
        7 => {
            let r = math::tan(xd);
            let c = if within_pi {
                Check::Unbounded
            } else {
                Check::Outside
            };
            (fast::tanf(x), r, 0.0, ftz(x, r, c))
        }
        8 => {
            let r = math::rsqrt(xd);
            let c = Check::Rel(pow2(-23) * 1.071_773); // 2^-22.9
            (fast::rsqrtf(x), r, 0.0, ftz(x, r, c))
        }
        9 => {
            let r = math::tanh(xd);
            let c = Check::Rel(pow2(-11) * 1.009_051); // 2^-10.987
            (fast::tanhf(x), r, 0.0, ftz(x, r, c))
        }
        10..=13 => {
            let (q, lo) = rcp_exact(x);
            let (y, m) = match i {
                10 => (rounded::frcp_rn(x), Nearest),
                11 => (rounded::frcp_rz(x), Zero),
                12 => (rounded::frcp_ru(x), Up),
                _ => (rounded::frcp_rd(x), Down),
            };
            (y, q, lo, Check::Rounded(m))
        }
        _ => {
            let (s, lo) = sqrt_exact(x);
            let (y, m) = match i {
                14 => (rounded::fsqrt_rn(x), Nearest),
                15 => (rounded::fsqrt_rz(x), Zero),
                16 => (rounded::fsqrt_ru(x), Up),
                _ => (rounded::fsqrt_rd(x), Down),
            };
            (y, s, lo, Check::Rounded(m))
        }
    }
}

/// The multi-argument `f32` functions the sweep measures on random
/// arguments: the accurate ones of [`BINARY_F32_BOUNDS`], then the
/// intrinsics, with CUDA's bound in words.
pub const ARGS_F32: [Named; 33] = [
    ("atan2f", "3 ulp"),
    ("hypotf", "3 ulp"),
    ("powf", "4 ulp"),
    ("fmodf", "0 ulp"),
    ("remainderf", "0 ulp"),
    ("fdimf", "0 ulp"),
    ("nextafterf", "0 ulp"),
    ("copysignf", "0 ulp"),
    ("fminf", "0 ulp"),
    ("fmaxf", "0 ulp"),
    ("fmaf", "0 ulp"),
    ("__powf", "none (derived)"),
    ("__fdividef", "2 ulp for 2^-126 <= |y| <= 2^126"),
    ("__fadd_rn", "correctly rounded"),
    ("__fadd_rz", "correctly rounded"),
    ("__fadd_ru", "correctly rounded"),
    ("__fadd_rd", "correctly rounded"),
    ("__fsub_rn", "correctly rounded"),
    ("__fsub_rz", "correctly rounded"),
    ("__fsub_ru", "correctly rounded"),
    ("__fsub_rd", "correctly rounded"),
    ("__fmul_rn", "correctly rounded"),
    ("__fmul_rz", "correctly rounded"),
    ("__fmul_ru", "correctly rounded"),
    ("__fmul_rd", "correctly rounded"),
    ("__fdiv_rn", "correctly rounded"),
    ("__fdiv_rz", "correctly rounded"),
    ("__fdiv_ru", "correctly rounded"),
    ("__fdiv_rd", "correctly rounded"),
    ("__fmaf_rn", "correctly rounded"),
    ("__fmaf_rz", "correctly rounded"),
    ("__fmaf_ru", "correctly rounded"),
    ("__fmaf_rd", "correctly rounded"),
];

/// The rounding of the `k`-th of four `_rn, _rz, _ru, _rd` siblings.
#[inline(always)]
fn mode(k: u32) -> Rounding {
    match k % 4 {
        0 => Rounding::Nearest,
        1 => Rounding::Zero,
        2 => Rounding::Up,
        _ => Rounding::Down,
    }
}

/// The `i`-th function of [`ARGS_F32`] at `(x, y, z)`: its result, the
/// exact value (and remainder sign) and what CUDA allows.
#[inline(always)]
fn args_f32(i: u32, x: f32, y: f32, z: f32) -> (f32, f64, f64, Check) {
    let (xd, yd, zd) = (x as f64, y as f64, z as f64);
    let ulp = |k: usize, v: f32, r: f64| (v, r, 0.0, Check::Ulp(BINARY_F32_BOUNDS[k].ulp));
    match i {
        0 => ulp(0, math::atan2f(x, y), math::atan2(xd, yd)),
        1 => ulp(1, math::hypotf(x, y), math::hypot(xd, yd)),
        2 => ulp(2, math::powf(x, y), math::pow(xd, yd)),
        3 => ulp(3, math::fmodf(x, y), math::fmod(xd, yd)),
        4 => ulp(4, math::remainderf(x, y), math::remainder(xd, yd)),
        5 => {
            let r = if x > y {
                xd - yd
            } else if x.is_nan() || y.is_nan() {
                f64::NAN
            } else {
                0.0
            };
            ulp(5, math::fdimf(x, y), r)
        }
        6 => {
            // The neighbour of x toward y (core's next_up/next_down), y if
            // they are equal.
            let r = if x.is_nan() || y.is_nan() {
                f32::NAN
            } else if x == y {
                y
            } else if x < y {
                x.next_up()
            } else {
                x.next_down()
            };
            ulp(6, math::nextafterf(x, y), r as f64)
        }
        7 => ulp(7, math::copysignf(x, y), xd.copysign(yd)),
        8 | 9 => {
            let (v, r) = if i == 8 {
                (math::fminf(x, y), xd.min(yd))
            } else {
                (math::fmaxf(x, y), xd.max(yd))
            };
            // A zero of either sign is the right value (the sign rule of
            // min/max on zeros is the special-value tests' business).
            let r = if v == 0.0 && r == 0.0 { v as f64 } else { r };
            ulp(i as usize, v, r)
        }
        10 => {
            let (s, e) = add_exact(xd * yd, zd, Rounding::Nearest);
            (math::fmaf(x, y, z), s, e, Check::Rounded(Rounding::Nearest))
        }
        11 => {
            let c = if x > 0.0 && !x.is_subnormal() {
                Check::Unbounded
            } else {
                Check::Outside
            };
            let r = math::pow(xd, yd);
            (fast::powf(x, y), r, 0.0, ftz(x, r, c))
        }
        12 => {
            let r = xd / yd;
            let inside = (pow2(-126)..=pow2(126)).contains(&yd.abs());
            let c = if inside && !tiny(r) && !x.is_subnormal() {
                Check::Ulp(2.0)
            } else {
                Check::Outside
            };
            (fast::fdividef(x, y), r, 0.0, c)
        }
        13..=20 => {
            // add (13..=16), sub (17..=20): exact as two f64s.
            let m = mode(i - 13);
            let yy = if i >= 17 { -yd } else { yd };
            let (s, e) = add_exact(xd, yy, m);
            let v = match i {
                13 => rounded::fadd_rn(x, y),
                14 => rounded::fadd_rz(x, y),
                15 => rounded::fadd_ru(x, y),
                16 => rounded::fadd_rd(x, y),
                17 => rounded::fsub_rn(x, y),
                18 => rounded::fsub_rz(x, y),
                19 => rounded::fsub_ru(x, y),
                _ => rounded::fsub_rd(x, y),
            };
            (v, s, e, Check::Rounded(m))
        }
        21..=24 => {
            // The product of two f32s is exact in f64.
            let m = mode(i - 21);
            let v = match i {
                21 => rounded::fmul_rn(x, y),
                22 => rounded::fmul_rz(x, y),
                23 => rounded::fmul_ru(x, y),
                _ => rounded::fmul_rd(x, y),
            };
            (v, xd * yd, 0.0, Check::Rounded(m))
        }
        25..=28 => {
            let m = mode(i - 25);
            let (q, lo) = div_exact(x, y);
            let v = match i {
                25 => rounded::fdiv_rn(x, y),
                26 => rounded::fdiv_rz(x, y),
                27 => rounded::fdiv_ru(x, y),
                _ => rounded::fdiv_rd(x, y),
            };
            (v, q, lo, Check::Rounded(m))
        }
        _ => {
            let m = mode(i - 29);
            let (s, e) = add_exact(xd * yd, zd, m);
            let v = match i {
                29 => rounded::fmaf_rn(x, y, z),
                30 => rounded::fmaf_rz(x, y, z),
                31 => rounded::fmaf_ru(x, y, z),
                _ => rounded::fmaf_rd(x, y, z),
            };
            (v, s, e, Check::Rounded(m))
        }
    }
}

/// The counter-based hash of the sweep's random arguments (SplitMix64's
/// finaliser): argument `k` of input `i` under `seed` is a function of the
/// three alone, on the GPU and on the host, so a worst case found by the
/// GPU is reproduced from its index.
#[inline(always)]
pub const fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A random `f32` argument from 64 random bits: half the time a random bit
/// pattern (every binade, NaN and ∞ included), half the time a magnitude
/// in `[2^-20, 2^21)` with a random sign, where the functions do most of
/// their work. The simulator tests' pairs use the same mapping.
#[inline(always)]
pub const fn random_f32_arg(b: u64) -> f32 {
    if (b >> 62) & 1 == 0 {
        f32::from_bits(b as u32)
    } else {
        let e = ((b >> 40) % 41) as u32;
        let v = f32::from_bits(((107 + e) << 23) | (b as u32 & 0x7f_ffff));
        if b >> 63 == 1 { -v } else { v }
    }
}

/// Arguments `(x, y, z)` of input `i` under `seed`.
#[inline(always)]
pub const fn args_of(seed: u32, i: u32) -> (f32, f32, f32) {
    let base = ((seed as u64) << 32 | i as u64).wrapping_mul(3);
    (
        random_f32_arg(mix(base)),
        random_f32_arg(mix(base + 1)),
        random_f32_arg(mix(base + 2)),
    )
}

/// The grid-stride loop of one thread over the launch's `count` inputs,
/// measuring each into the thread's tally (a value of its own per loop,
/// so that it stays in registers). A macro, not a function taking a
/// closure: LLVM leaves the larger closures (an `f64` reference of a few
/// hundred instructions) as calls, with the tally on the stack.
macro_rules! grid_stride {
    ($count:expr, |$i:ident, $t:ident| $body:block) => {{
        let grid = this_grid();
        let stride = grid.num_threads();
        let mut n = grid.thread_rank();
        let mut $t = Tally::new();
        while n < $count as u64 {
            let $i = n as u32;
            $body
            n += stride;
        }
        $t
    }};
}

/// The unary sweep: input `i` is the bit pattern `first + i * step`
/// (wrapping), `i < count`. Functions `f < 38` are
/// [`UNARY_F32_FUNCTIONS`](crate::math::UNARY_F32_FUNCTIONS) against the
/// `f64` function of the same name; `38 + k` is intrinsic `k` of
/// [`INTRINSICS_F32`]. The tag of a measurement is the input's bits.
/// `acc`: [`ACC_SLOTS`] words, initialised to [`initial_slots`].
#[kernel]
pub fn math_accuracy_f32(f: u32, first: u32, step: u32, count: u32, acc: AtomicSlice<u64>) {
    // One loop per function (the `match` outside the loop): the function
    // and its reference inline into their own loop, with no dispatch per
    // input.
    macro_rules! accurate {
        ($($k:literal)*) => {
            match f {
                $($k => grid_stride!(count, |i, t| {
                    let x = f32::from_bits(first.wrapping_add(i.wrapping_mul(step)));
                    let y = apply_unary_f32($k, x);
                    let r = apply_unary_f64($k, x as f64);
                    t.record(UNARY_F32_BOUNDS[$k].check(x), y, r, 0.0, x.to_bits());
                }),)*
                other => intrinsics(other - 38, first, step, count),
            }
        };
    }
    let t = accurate!(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37);
    t.flush(&acc);
}

/// [`math_accuracy_f32`]'s loops over the intrinsics.
#[inline(always)]
fn intrinsics(k: u32, first: u32, step: u32, count: u32) -> Tally {
    macro_rules! each {
        ($($k:literal)*) => {
            match k {
                $($k => grid_stride!(count, |i, t| {
                    let x = f32::from_bits(first.wrapping_add(i.wrapping_mul(step)));
                    let (y, r, lo, c) = intrinsic_unary($k, x);
                    t.record(c, y, r, lo, x.to_bits());
                }),)*
                _ => Tally::new(),
            }
        };
    }
    each!(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17)
}

/// The multi-argument sweep: function `f` of [`ARGS_F32`] at the
/// arguments [`args_of`]`(seed, first + i)`, `i < count`. The tag of a
/// measurement is the input's index `first + i`.
#[kernel]
pub fn math_accuracy_args_f32(f: u32, seed: u32, first: u32, count: u32, acc: AtomicSlice<u64>) {
    macro_rules! each {
        ($($k:literal)*) => {
            match f {
                $($k => grid_stride!(count, |i, t| {
                    let n = first.wrapping_add(i);
                    let (x, y, z) = args_of(seed, n);
                    let (v, r, lo, c) = args_f32($k, x, y, z);
                    t.record(c, v, r, lo, n);
                }),)*
                _ => Tally::new(),
            }
        };
    }
    let t = each!(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32);
    t.flush(&acc);
}

/// The binary `f64` functions whose values [`math_binary_f64`] computes
/// (their accuracy is measured on the host against `f128`).
pub const BINARY_F64_FUNCTIONS: [&str; 3] = ["pow", "hypot", "atan2"];

/// `out[i] = F_f(x[i], y[i])` for the `f`-th function of
/// [`BINARY_F64_FUNCTIONS`].
#[kernel]
pub fn math_binary_f64(f: u32, x: GlobalSlice<f64>, y: GlobalSlice<f64>, out: OwnedSlice<f64>) {
    let grid = this_grid();
    if let Some(e) = out.at(&grid) {
        let i = grid.thread_rank() as usize;
        let (a, b) = (x.load(i), y.load(i));
        e.store(match f {
            0 => math::pow(a, b),
            1 => math::hypot(a, b),
            2 => math::atan2(a, b),
            _ => f64::NAN,
        });
    }
}

#[cfg(all(test, not(target_arch = "nvptx64")))]
mod tests {
    use super::*;

    #[test]
    fn ulp_error_follows_the_definition() {
        let eps = f32::EPSILON;
        assert_eq!(ulp_error_f32(1.0, 1.0), 0.0);
        assert_eq!(ulp_error_f32(1.0 + eps, 1.0), 1.0);
        // Below a power of two the binade's ulp is half as large.
        assert_eq!(ulp_error_f32(1.0, 1.0 - eps as f64 / 2.0), 1.0);
        assert_eq!(
            ulp_error_f32(f32::from_bits(3), f32::from_bits(1) as f64),
            2.0
        );
        assert_eq!(ulp_error_f32(f32::NAN, f64::NAN), 0.0);
        assert!(ulp_error_f32(1.0, f64::NAN).is_infinite());
        assert!(ulp_error_f32(f32::NAN, 1.0).is_infinite());
        assert!(ulp_error_f32(0.0, -0.0).is_infinite());
        assert_eq!(ulp_error_f32(-0.0, -0.0), 0.0);
        assert_eq!(ulp_error_f32(f32::INFINITY, 1e39), 0.0);
        assert!(ulp_error_f32(f32::MAX, 1e39) > 1e6);
        assert!(ulp_error_f32(f32::NEG_INFINITY, 1e39).is_infinite());
        // ∞ for a value that rounds to MAX: 1 + its distance from MAX.
        let e = ulp_error_f32(f32::INFINITY, f32::MAX as f64);
        assert_eq!(e, 1.0);
    }

    #[test]
    fn directed_rounding_of_exact_values() {
        use Rounding::*;
        let one = 1.0f64;
        let tiny = 1e-30;
        assert_eq!(round_to_f32(one, tiny, Up), 1.0f32.next_up());
        assert_eq!(round_to_f32(one, tiny, Down), 1.0);
        assert_eq!(round_to_f32(one, -tiny, Down), 1.0f32.next_down());
        assert_eq!(round_to_f32(one, -tiny, Zero), 1.0f32.next_down());
        assert_eq!(round_to_f32(-one, tiny, Zero), -1.0f32.next_down());
        assert_eq!(round_to_f32(one, tiny, Nearest), 1.0);
        // Halfway between 1 and its successor: the remainder decides.
        let half = 1.0 + f32::EPSILON as f64 / 2.0;
        assert_eq!(round_to_f32(half, 0.0, Nearest), 1.0);
        assert_eq!(round_to_f32(half, tiny, Nearest), 1.0f32.next_up());
        assert_eq!(round_to_f32(half, -tiny, Nearest), 1.0);
        // Overflow and underflow.
        assert_eq!(round_to_f32(1e39, 0.0, Zero), f32::MAX);
        assert_eq!(round_to_f32(1e39, 0.0, Up), f32::INFINITY);
        assert_eq!(round_to_f32(-1e39, 0.0, Up), -f32::MAX);
        assert_eq!(round_to_f32(1e-50, 0.0, Up), f32::from_bits(1));
        assert_eq!(round_to_f32(-1e-50, 0.0, Up).to_bits(), (-0.0f32).to_bits());
        assert_eq!(round_to_f32(-1e-50, 0.0, Down), -f32::from_bits(1));
    }

    /// The references of the directed intrinsics agree with the
    /// simulator's exact implementations on random arguments.
    #[test]
    fn intrinsic_references_agree_with_the_exact_simulator() {
        for i in 0..20_000u32 {
            let (x, y, z) = args_of(7, i);
            for f in 13..33 {
                let (v, r, lo, c) = args_f32(f, x, y, z);
                if let Check::Rounded(m) = c {
                    let want = round_to_f32(r, lo, m);
                    assert!(
                        v.to_bits() == want.to_bits() || (v.is_nan() && want.is_nan()),
                        "{} ({x:e}, {y:e}, {z:e}): {v:e} vs {want:e}",
                        ARGS_F32[f as usize].0
                    );
                }
            }
            for f in 10..18 {
                let (v, r, lo, c) = intrinsic_unary(f, x);
                if let Check::Rounded(m) = c {
                    let want = round_to_f32(r, lo, m);
                    assert!(
                        v.to_bits() == want.to_bits() || (v.is_nan() && want.is_nan()),
                        "{} ({x:e}): {v:e} vs {want:e}",
                        INTRINSICS_F32[f as usize].0
                    );
                }
            }
        }
    }

    #[test]
    fn a_wrong_rounding_or_special_value_is_recorded() {
        let mut t = Tally::new();
        t.record(Check::Rounded(Rounding::Up), 1.0, 1.0, 1e-30, 5);
        assert_eq!(key_value(t.ratio), f32::INFINITY);
        assert_eq!(t.ratio as u32, 5);
        t.record(Check::Ulp(1.0), 0.0, -0.0, 0.0, 9);
        assert_eq!((t.special, t.special_first), (1, 9));
        t.record(Check::Ulp(2.0), 1.0 + f32::EPSILON * 3.0, 1.0, 0.0, 11);
        assert_eq!(key_value(t.ulp), 3.0);
        assert_eq!(t.tested, 3);
        t.record(Check::Outside, 0.0, 1.0, 0.0, 12);
        assert_eq!(t.tested, 3);
    }
}
