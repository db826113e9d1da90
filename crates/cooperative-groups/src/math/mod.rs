//! Math functions for device code: CUDA's single-precision Math API in pure
//! Rust, the same source on the GPU and on the simulator.
//!
//! There is no libm on `nvptx64` (`x.exp()` from `std` does not exist in a
//! `no_std` kernel, and LLVM cannot lower `core::intrinsics::expf32` there),
//! so this module implements each function with the techniques GPU math
//! libraries use: range reduction (Cody–Waite, and a table-free
//! Payne–Hanek for huge trigonometric arguments), polynomials evaluated with
//! one `fma` per coefficient (coefficients derived by
//! `scripts/math_coeffs.py`), and no tables in memory. Every operation is
//! exactly specified by IEEE 754 (`fma`, `sqrt.rn`, `div.rn`, the
//! integral roundings) and every multiply-add is an explicit `fma`, so
//! `-fp-contract=fast` cannot change a result: **a function gives the same
//! bits on the GPU and on the simulator.**
//!
//! Every function is `#[inline(always)]`, as CUDA's are forced inline: the
//! PTX of a kernel never calls into the library (`call` would cost a
//! parameter-space round trip per use).
//!
//! ## Two spellings
//!
//! * Free functions with CUDA's names: [`expf`], [`sinf`], [`normcdff`]…
//!   for `f32`, [`exp`], [`sin`], [`atan2`]… (CUDA's `double` names) for
//!   `f64` (each within CUDA's `double` bound). A port from CUDA C++ keeps its calls as they were
//!   (`expf(x)` → `math::expf(x)`), and the name says the precision.
//! * Method syntax through [`FloatMath`] (in the [prelude](crate::prelude)):
//!   `x.exp()`, `x.sin_cos()`, `x.exp10()`, with Rust's names where `std`
//!   has the function (`ln`, `exp_m1`, `ln_1p`, `powf`, `sin_cos`) so that
//!   kernel code reads like host code.
//!
//! **On the simulator, `std` wins the method call** for the names it has:
//! a kernel crate is `no_std`, but the host build links `std` (through
//! `cg-sim`), and Rust picks an inherent method (`f32::exp` of `std`) over
//! a trait's. So on the host `x.exp()` is `std`'s `exp` (the host libm,
//! correctly rounded or within 1 ulp), on the GPU this module's: the two
//! may differ in the last bit. Call the free function (`math::expf(x)`)
//! where the simulator must reproduce the GPU bit for bit. The methods
//! `std` lacks (`exp10`, `rsqrt`, `sinpi`, `cospi`, `lgamma`, …) are
//! always this module's. `erf` and `erfc` have no method: `std`'s are
//! unstable and a trait method of that name warns (`unstable_name_collisions`).
//!
//! ## Intrinsics
//!
//! [`fast`] has CUDA's approximate intrinsics (`__expf` is
//! [`fast::expf`], `__sinf` [`fast::sinf`], `__fdividef`
//! [`fast::fdividef`], `tanh.approx` [`fast::tanhf`]); [`rounded`] the
//! arithmetic with a named rounding (`__fadd_rz` is [`rounded::fadd_rz`],
//! `__fmaf_ru` [`rounded::fmaf_ru`], `__frcp_rn` [`rounded::frcp_rn`]).
//! CUDA's names are doc aliases (search `__expf`). The rounded forms are
//! exact on the simulator too; the fast ones are not bit-identical there
//! (see [`fast`]). `#[kernel(fast_math)]` maps a kernel's calls to the
//! fast forms, as nvcc's `--use_fast_math` ([`fast::FastMath`]).
//!
//! ## Accuracy
//!
//! Each function documents CUDA's maximum ulp error for it (CUDA C++
//! Programming Guide, "Mathematical Functions", table "Single-Precision
//! Mathematical Standard Library Functions with Maximum ULP Error") and its
//! special values; the measured maxima are in the guide's "Math functions"
//! chapter (`docs/guide/math.md`) and re-measured by
//! `cargo test --release -p cooperative-groups --test math_accuracy`.
//!
//! ```
//! use cooperative_groups::math;
//! use cooperative_groups::prelude::*;
//!
//! let x = 0.5f32;
//! assert_eq!(math::expf(x), 1.648_721_2); // e^0.5 = 1.64872127…, correctly rounded
//! assert_eq!(math::sinpif(1.0), 0.0);
//! assert_eq!(x.exp10(), math::exp10f(x)); // no `std` method: always this module's
//! ```

// The split constants (ln2 = LN2_HI + LN2_LO, …) and the fitted
// coefficients look like rounded `core::f32::consts` on purpose.
#![allow(clippy::approx_constant)]

mod basic;
mod double;
mod exp;
pub mod fast;
mod gamma;
mod hyperbolic;
mod inverse;
mod log;
mod pow;
mod reduce;
mod roots;
pub mod rounded;
mod special;
mod trig;
mod util;

pub use basic::{
    ceilf, copysignf, fdimf, floorf, fmaf, fmaxf, fminf, fmodf, frexpf, ldexpf, modff, nextafterf,
    remainderf, rintf, roundf, truncf,
};
pub use double::{
    acos, acosh, asin, asinh, atan, atan2, atanh, cbrt, ceil, copysign, cos, cosh, cospi, erf,
    erfc, erfcinv, erfinv, exp, exp2, exp10, expm1, fdim, floor, fma, fmax, fmin, fmod, frexp,
    hypot, ldexp, lgamma, log, log1p, log2, log10, modf, nextafter, normcdf, normcdfinv, pow,
    remainder, rint, round, rsqrt, sin, sincos, sinh, sinpi, sqrt, tan, tanh, tgamma, trunc,
};
pub use exp::{exp2f, exp10f, expf, expm1f};
pub use gamma::{lgammaf, tgammaf};
pub use hyperbolic::{acoshf, asinhf, atanhf, coshf, sinhf, tanhf};
pub use inverse::{acosf, asinf, atan2f, atanf};
pub use log::{log1pf, log2f, log10f, logf};
pub use pow::powf;
pub use roots::{cbrtf, hypotf, rsqrtf, sqrtf};
pub use special::{erfcf, erfcinvf, erff, erfinvf, normcdff, normcdfinvf};
pub use trig::{cosf, cospif, sincosf, sinf, sinpif, tanf};

mod sealed {
    pub trait Sealed {}
    impl Sealed for f32 {}
    impl Sealed for f64 {}
}

/// Method syntax for the math functions on `f32` and `f64`: `x.exp()`,
/// `x.sin()`, `x.exp10()`. In the [prelude](crate::prelude).
///
/// Each method is the free function of the same CUDA name: on `f32` the
/// single-precision one (`exp` is [`expf`]), on `f64` the double-precision
/// one (`exp` is [`exp`], `lgamma` is [`lgamma`]); the links below name the
/// `f32` functions. On the host, `std`'s inherent methods of the same name
/// take precedence (see the [module docs](self)); the methods `std` lacks
/// are always these.
///
/// ```
/// use cooperative_groups::math;
/// use cooperative_groups::prelude::*;
///
/// let x = 0.5f64;
/// assert_eq!(x.exp10(), math::exp10(x)); // no `std` method: always this module's
/// assert_eq!(x.normcdfinv(), 0.0);
/// assert_eq!(3.0f64.tgamma(), 2.0);
/// assert_eq!(2.0f64.lgamma(), 0.0);
/// assert!((1.0f64.erfinv()).is_infinite());
/// assert_eq!(x.exp(), x.exp()); // `std`'s `f64::exp` on the host, `math::exp` in a kernel
/// ```
pub trait FloatMath: sealed::Sealed + Sized {
    /// `e^x` ([`expf`]).
    fn exp(self) -> Self;
    /// `2^x` ([`exp2f`]).
    fn exp2(self) -> Self;
    /// `10^x` ([`exp10f`]).
    fn exp10(self) -> Self;
    /// `e^x - 1` ([`expm1f`]).
    fn exp_m1(self) -> Self;
    /// `ln x` ([`logf`]).
    fn ln(self) -> Self;
    /// `log2 x` ([`log2f`]).
    fn log2(self) -> Self;
    /// `log10 x` ([`log10f`]).
    fn log10(self) -> Self;
    /// `ln(1 + x)` ([`log1pf`]).
    fn ln_1p(self) -> Self;
    /// `sqrt x` ([`sqrtf`]).
    fn sqrt(self) -> Self;
    /// `1 / sqrt x` ([`rsqrtf`]).
    fn rsqrt(self) -> Self;
    /// The cube root ([`cbrtf`]).
    fn cbrt(self) -> Self;
    /// `sqrt(x^2 + y^2)` ([`hypotf`]).
    fn hypot(self, y: Self) -> Self;
    /// `sin x` ([`sinf`]).
    fn sin(self) -> Self;
    /// `cos x` ([`cosf`]).
    fn cos(self) -> Self;
    /// `tan x` ([`tanf`]).
    fn tan(self) -> Self;
    /// `(sin x, cos x)` ([`sincosf`]).
    fn sin_cos(self) -> (Self, Self);
    /// `sin(πx)` ([`sinpif`]).
    fn sinpi(self) -> Self;
    /// `cos(πx)` ([`cospif`]).
    fn cospi(self) -> Self;
    /// `x^y` ([`powf`]).
    fn powf(self, y: Self) -> Self;
    /// Arc sine ([`asinf`]).
    fn asin(self) -> Self;
    /// Arc cosine ([`acosf`]).
    fn acos(self) -> Self;
    /// Arc tangent ([`atanf`]).
    fn atan(self) -> Self;
    /// The angle of `(x, self)`: `self.atan2(x)` is `atan2f(self, x)` ([`atan2f`]).
    fn atan2(self, x: Self) -> Self;
    /// Hyperbolic sine ([`sinhf`]).
    fn sinh(self) -> Self;
    /// Hyperbolic cosine ([`coshf`]).
    fn cosh(self) -> Self;
    /// Hyperbolic tangent ([`tanhf`]).
    fn tanh(self) -> Self;
    /// Inverse hyperbolic sine ([`asinhf`]).
    fn asinh(self) -> Self;
    /// Inverse hyperbolic cosine ([`acoshf`]).
    fn acosh(self) -> Self;
    /// Inverse hyperbolic tangent ([`atanhf`]).
    fn atanh(self) -> Self;
    /// The standard normal distribution function ([`normcdff`]).
    fn normcdf(self) -> Self;
    /// Its inverse, the standard normal quantile ([`normcdfinvf`]).
    fn normcdfinv(self) -> Self;
    /// The inverse error function ([`erfinvf`]).
    fn erfinv(self) -> Self;
    /// The inverse complementary error function ([`erfcinvf`]).
    fn erfcinv(self) -> Self;
    /// `ln|Γ(x)|` ([`lgammaf`]).
    fn lgamma(self) -> Self;
    /// The gamma function `Γ(x)` ([`tgammaf`]).
    fn tgamma(self) -> Self;
    /// Round toward −∞ ([`floorf`]).
    fn floor(self) -> Self;
    /// Round toward +∞ ([`ceilf`]).
    fn ceil(self) -> Self;
    /// Round toward zero ([`truncf`]).
    fn trunc(self) -> Self;
    /// Round half away from zero ([`roundf`]).
    fn round(self) -> Self;
    /// Round half to even ([`rintf`]).
    fn round_ties_even(self) -> Self;
    /// `self * a + b` rounded once ([`fmaf`]).
    fn mul_add(self, a: Self, b: Self) -> Self;
    /// `x - y` if positive, else `+0` ([`fdimf`]).
    fn fdim(self, y: Self) -> Self;
    /// IEEE remainder ([`remainderf`]).
    fn remainder(self, y: Self) -> Self;
    /// `x * 2^n` ([`ldexpf`]).
    fn ldexp(self, n: i32) -> Self;
    /// `(m, e)` with `x = m * 2^e`, `0.5 <= |m| < 1` ([`frexpf`]).
    fn frexp(self) -> (Self, i32);
    /// The next `f32` toward `y` ([`nextafterf`]).
    fn nextafter(self, y: Self) -> Self;
}

/// One method per line: `name(args) => function`.
macro_rules! float_math {
    ($ty:ty; $($m:ident($($a:ident: $t:ty),*) -> $r:ty => $f:ident;)*) => {
        impl FloatMath for $ty {
            $(
                #[inline(always)]
                fn $m(self $(, $a: $t)*) -> $r {
                    $f(self $(, $a)*)
                }
            )*
        }
    };
}

float_math! {
    f32;
    exp() -> f32 => expf;
    exp2() -> f32 => exp2f;
    exp10() -> f32 => exp10f;
    exp_m1() -> f32 => expm1f;
    ln() -> f32 => logf;
    log2() -> f32 => log2f;
    log10() -> f32 => log10f;
    ln_1p() -> f32 => log1pf;
    sqrt() -> f32 => sqrtf;
    rsqrt() -> f32 => rsqrtf;
    cbrt() -> f32 => cbrtf;
    hypot(y: f32) -> f32 => hypotf;
    sin() -> f32 => sinf;
    cos() -> f32 => cosf;
    tan() -> f32 => tanf;
    sin_cos() -> (f32, f32) => sincosf;
    sinpi() -> f32 => sinpif;
    cospi() -> f32 => cospif;
    powf(y: f32) -> f32 => powf;
    asin() -> f32 => asinf;
    acos() -> f32 => acosf;
    atan() -> f32 => atanf;
    atan2(x: f32) -> f32 => atan2f;
    sinh() -> f32 => sinhf;
    cosh() -> f32 => coshf;
    tanh() -> f32 => tanhf;
    asinh() -> f32 => asinhf;
    acosh() -> f32 => acoshf;
    atanh() -> f32 => atanhf;
    normcdf() -> f32 => normcdff;
    normcdfinv() -> f32 => normcdfinvf;
    erfinv() -> f32 => erfinvf;
    erfcinv() -> f32 => erfcinvf;
    lgamma() -> f32 => lgammaf;
    tgamma() -> f32 => tgammaf;
    floor() -> f32 => floorf;
    ceil() -> f32 => ceilf;
    trunc() -> f32 => truncf;
    round() -> f32 => roundf;
    round_ties_even() -> f32 => rintf;
    mul_add(a: f32, b: f32) -> f32 => fmaf;
    fdim(y: f32) -> f32 => fdimf;
    remainder(y: f32) -> f32 => remainderf;
    ldexp(n: i32) -> f32 => ldexpf;
    frexp() -> (f32, i32) => frexpf;
    nextafter(y: f32) -> f32 => nextafterf;
}

float_math! {
    f64;
    exp() -> f64 => exp;
    exp2() -> f64 => exp2;
    exp10() -> f64 => exp10;
    exp_m1() -> f64 => expm1;
    ln() -> f64 => log;
    log2() -> f64 => log2;
    log10() -> f64 => log10;
    ln_1p() -> f64 => log1p;
    sqrt() -> f64 => sqrt;
    rsqrt() -> f64 => rsqrt;
    cbrt() -> f64 => cbrt;
    hypot(y: f64) -> f64 => hypot;
    sin() -> f64 => sin;
    cos() -> f64 => cos;
    tan() -> f64 => tan;
    sin_cos() -> (f64, f64) => sincos;
    sinpi() -> f64 => sinpi;
    cospi() -> f64 => cospi;
    powf(y: f64) -> f64 => pow;
    asin() -> f64 => asin;
    acos() -> f64 => acos;
    atan() -> f64 => atan;
    atan2(x: f64) -> f64 => atan2;
    sinh() -> f64 => sinh;
    cosh() -> f64 => cosh;
    tanh() -> f64 => tanh;
    asinh() -> f64 => asinh;
    acosh() -> f64 => acosh;
    atanh() -> f64 => atanh;
    normcdf() -> f64 => normcdf;
    normcdfinv() -> f64 => normcdfinv;
    erfinv() -> f64 => erfinv;
    erfcinv() -> f64 => erfcinv;
    lgamma() -> f64 => lgamma;
    tgamma() -> f64 => tgamma;
    floor() -> f64 => floor;
    ceil() -> f64 => ceil;
    trunc() -> f64 => trunc;
    round() -> f64 => round;
    round_ties_even() -> f64 => rint;
    mul_add(a: f64, b: f64) -> f64 => fma;
    fdim(y: f64) -> f64 => fdim;
    remainder(y: f64) -> f64 => remainder;
    ldexp(n: i32) -> f64 => ldexp;
    frexp() -> (f64, i32) => frexp;
    nextafter(y: f64) -> f64 => nextafter;
}
