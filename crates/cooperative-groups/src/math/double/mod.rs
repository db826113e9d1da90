//! The double-precision (`f64`) half of the math library: CUDA's `double`
//! functions under their CUDA names (`exp`, `sin`, `lgamma`…), re-exported
//! by [`math`](super).
//!
//! The approach differs from the `f32` code's: CUDA documents 1 ulp for
//! most `double` functions, which a polynomial evaluated in `f64` barely
//! reaches. Here each function computes its result as a double-double
//! (about 106 bits, `dd.rs`) from a few exact cores — `e^r - 1` by a short
//! Taylor series and repeated squaring, `ln` by one Newton step on the
//! exponential, a table-free reduction by π/2 — and rounds once at the end.
//! No fitted coefficients, no tables in memory except the bits of 2/π for
//! the largest trigonometric arguments.
//!
//! The building blocks are the correctly rounded PTX instructions
//! (`fma.rn.f64`, `sqrt.rn.f64`, `div.rn.f64`, `cvt.rni.f64.f64`, …) and
//! every product that feeds a sum is an explicit `fma`, so a function gives
//! the same bits on the GPU and on the simulator.

mod basic;
mod consts;
pub(crate) mod dd;
mod exp;
mod gamma;
mod hyperbolic;
mod inverse;
mod log;
mod pow;
mod reduce;
mod roots;
mod special;
mod trig;

pub use basic::{
    ceil, copysign, fdim, floor, fma, fmax, fmin, fmod, frexp, ldexp, modf, nextafter, remainder,
    rint, round, trunc,
};
pub use exp::{exp, exp2, exp10, expm1};
pub use gamma::{lgamma, tgamma};
pub use hyperbolic::{acosh, asinh, atanh, cosh, sinh, tanh};
pub use inverse::{acos, asin, atan, atan2};
pub use log::{log, log1p, log2, log10};
pub use pow::pow;
pub use roots::{cbrt, hypot, rsqrt, sqrt};
pub use special::{erf, erfc, erfcinv, erfinv, normcdf, normcdfinv};
pub use trig::{cos, cospi, sin, sincos, sinpi, tan};
