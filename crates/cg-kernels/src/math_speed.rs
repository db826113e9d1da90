//! The kernels of `cg-lab compare --only math`: the throughput of each
//! math function against nvcc's (`reference/cuda/math.cu`), one kernel
//! per function and mode — instances of generic kernels, each its own PTX
//! entry with its function inlined, no dispatch at run time.
//!
//! Per function four kernels (two for `f64`, which `--use_fast_math`
//! leaves alone):
//!
//! * `math_one_<f>(x, y, out, n)`: `out[i] = f(x[i])` (`f(x[i], y[i])`
//!   for the binary functions; `sincosf` writes the cosine to
//!   `out[n + i]`). What the lab checks element by element (against the
//!   host, against C++) and what its SASS table counts: one evaluation.
//! * `math_time_<f>(x, y, out, n, d)`: the timed kernel. Thread `i`
//!   loads `x[i]` (and `y[i]`) and evaluates `f` at [`EVALS`] inputs
//!   `x[i]`, `x[i] + d`, `(x[i] + d) + d`, … (each a plain addition:
//!   nothing for a compiler to fuse), XOR-ing the results' bits into one
//!   word, `out[i]`. The XOR keeps every bit of every result (the lab
//!   checks it bit for bit) and, unlike a sum, gives LLVM and nvcc no
//!   product to fuse into an addition, which would make the GPU's bits
//!   differ from the host's; eight bytes of traffic per [`EVALS`]
//!   evaluations keep the kernel bound by the function, not by memory.
//! * `math_one_fast_<f>`, `math_time_fast_<f>`: the same as
//!   `#[kernel(fast_math)]` kernels: the functions `--use_fast_math`
//!   maps to an intrinsic (`expf` → `__expf`, …: `cg-macros`'
//!   `FAST_FUNCTIONS`) call [`math::fast`]'s, the others the accurate
//!   function, and on the GPU every `f32` division and square root is
//!   approximate and subnormals flush (cg-build's rewrite of the entry),
//!   as nvcc's `--use_fast_math` does to the C++ twin.
//!
//! Every kernel takes raw pointers, as its C++ twin does, so both are
//! launched with the same arguments ([`OneArgs`], [`TimeArgs`]).

use cooperative_groups::intrinsics::{block_dim, block_idx, thread_idx};
use cooperative_groups::math::{self, fast};
use cooperative_groups::{kernel, unroll};

/// Evaluations per thread of the timed kernels (unrolled, as the C++
/// twin's `#pragma unroll` loop).
pub const EVALS: usize = 16;

/// Threads per block of every launch of the experiment.
pub const BLOCK: u32 = 256;

/// `(x, y, out, n)` of the element-wise kernels.
pub type OneArgs<T> = (*const T, *const T, *mut T, u32);

/// `(x, y, out, n, d)` of the timed kernels: `W` is `T`'s bits.
pub type TimeArgs<T, W> = (*const T, *const T, *mut W, u32, T);

/// One `f32` function of the experiment, in both modes.
pub trait MathF32 {
    /// Two results (`sincosf`): the second goes to `out[n + i]` and
    /// into the XOR.
    const TWO: bool = false;
    /// The accurate function (`cooperative_groups::math`); the second
    /// result is 0 unless [`TWO`](Self::TWO).
    fn accurate(x: f32, y: f32) -> (f32, f32);
    /// What a `#[kernel(fast_math)]` kernel calls instead (the
    /// intrinsic where `--use_fast_math` substitutes one).
    fn fast(x: f32, y: f32) -> (f32, f32);
}

/// One `f64` function of the experiment.
pub trait MathF64 {
    /// The function (`cooperative_groups::math`'s `double` one).
    fn accurate(x: f64, y: f64) -> f64;
}

/// A marker type and its [`MathF32`] impl per line: `name(x, y):
/// accurate; fast;` (`two` before the colon: two results).
macro_rules! f32_functions {
    ($($name:ident($x:ident, $y:ident) $($two:ident)?: $acc:expr; $fast:expr;)*) => {$(
        #[doc = concat!("`", stringify!($name), "`: ", stringify!($acc), "; fast: ", stringify!($fast), ".")]
        #[allow(non_camel_case_types)]
        pub struct $name;
        impl MathF32 for $name {
            $(const TWO: bool = f32_functions!(@true $two);)?
            #[inline(always)]
            fn accurate($x: f32, $y: f32) -> (f32, f32) {
                let _ = $y;
                f32_functions!(@pair $($two)? $acc)
            }
            #[inline(always)]
            fn fast($x: f32, $y: f32) -> (f32, f32) {
                let _ = $y;
                f32_functions!(@pair $($two)? $fast)
            }
        }
    )*};
    (@true two) => { true };
    (@pair two $e:expr) => { $e };
    (@pair $e:expr) => { ($e, 0.0) };
}

/// A marker type and its [`MathF64`] impl per line.
macro_rules! f64_functions {
    ($($name:ident($x:ident, $y:ident): $acc:expr;)*) => {$(
        #[doc = concat!("`", stringify!($name), "` (`f64`): ", stringify!($acc), ".")]
        #[allow(non_camel_case_types)]
        pub struct $name;
        impl MathF64 for $name {
            #[inline(always)]
            fn accurate($x: f64, $y: f64) -> f64 {
                let _ = $y;
                $acc
            }
        }
    )*};
}

f32_functions! {
    expf(x, y): math::expf(x); fast::expf(x);
    exp2f(x, y): math::exp2f(x); math::exp2f(x);
    exp10f(x, y): math::exp10f(x); fast::exp10f(x);
    expm1f(x, y): math::expm1f(x); math::expm1f(x);
    logf(x, y): math::logf(x); fast::logf(x);
    log2f(x, y): math::log2f(x); fast::log2f(x);
    log10f(x, y): math::log10f(x); fast::log10f(x);
    log1pf(x, y): math::log1pf(x); math::log1pf(x);
    powf(x, y): math::powf(x, y); fast::powf(x, y);
    sqrtf(x, y): math::sqrtf(x); math::sqrtf(x);
    rsqrtf(x, y): math::rsqrtf(x); fast::rsqrtf(x);
    cbrtf(x, y): math::cbrtf(x); math::cbrtf(x);
    hypotf(x, y): math::hypotf(x, y); math::hypotf(x, y);
    sinf(x, y): math::sinf(x); fast::sinf(x);
    cosf(x, y): math::cosf(x); fast::cosf(x);
    tanf(x, y): math::tanf(x); fast::tanf(x);
    sincosf(x, y) two: math::sincosf(x); fast::sincosf(x);
    sinpif(x, y): math::sinpif(x); math::sinpif(x);
    cospif(x, y): math::cospif(x); math::cospif(x);
    asinf(x, y): math::asinf(x); math::asinf(x);
    acosf(x, y): math::acosf(x); math::acosf(x);
    atanf(x, y): math::atanf(x); math::atanf(x);
    atan2f(x, y): math::atan2f(x, y); math::atan2f(x, y);
    sinhf(x, y): math::sinhf(x); math::sinhf(x);
    coshf(x, y): math::coshf(x); math::coshf(x);
    tanhf(x, y): math::tanhf(x); fast::tanhf(x);
    asinhf(x, y): math::asinhf(x); math::asinhf(x);
    acoshf(x, y): math::acoshf(x); math::acoshf(x);
    atanhf(x, y): math::atanhf(x); math::atanhf(x);
    erff(x, y): math::erff(x); math::erff(x);
    erfcf(x, y): math::erfcf(x); math::erfcf(x);
    erfinvf(x, y): math::erfinvf(x); math::erfinvf(x);
    erfcinvf(x, y): math::erfcinvf(x); math::erfcinvf(x);
    normcdff(x, y): math::normcdff(x); math::normcdff(x);
    normcdfinvf(x, y): math::normcdfinvf(x); math::normcdfinvf(x);
    lgammaf(x, y): math::lgammaf(x); math::lgammaf(x);
    tgammaf(x, y): math::tgammaf(x); math::tgammaf(x);
    fmodf(x, y): math::fmodf(x, y); math::fmodf(x, y);
}

f64_functions! {
    exp(x, y): math::exp(x);
    log(x, y): math::log(x);
    sin(x, y): math::sin(x);
    pow(x, y): math::pow(x, y);
    sqrt(x, y): math::sqrt(x);
}

/// This thread's index in a linear grid, as the C++ twin computes it
/// (`blockIdx.x * blockDim.x + threadIdx.x`, 32 bits).
#[inline(always)]
fn index() -> u32 {
    block_idx().x * block_dim().x + thread_idx().x
}

/// `out[i] = f(x[i], y[i])` (and `out[n + i]` = the second result).
#[inline(always)]
fn one<T: Copy>(
    x: *const T,
    y: *const T,
    out: *mut T,
    n: u32,
    two: bool,
    f: impl Fn(T, T) -> (T, T),
) {
    let i = index();
    if i >= n {
        return;
    }
    let i = i as usize;
    // SAFETY: the launcher passes `n` elements of `x` and `y` (`y`
    // may be `x` for a unary function, which does not read it) and `n`
    // of `out`, `2n` for a function with two results.
    unsafe {
        let (a, b) = f(*x.add(i), *y.add(i));
        *out.add(i) = a;
        if two {
            *out.add(n as usize + i) = b;
        }
    }
}

/// The XOR of the bits of `f`'s results at `x`, `x + d`, … ([`EVALS`]
/// inputs), into `out[i]`.
#[inline(always)]
fn time<T, W>(
    x: *const T,
    y: *const T,
    out: *mut W,
    n: u32,
    d: T,
    bits: impl Fn(T) -> W,
    f: impl Fn(T, T) -> (T, T),
) where
    T: Copy + core::ops::AddAssign,
    W: Copy + core::ops::BitXorAssign + core::ops::BitXor<Output = W>,
{
    let i = index();
    if i >= n {
        return;
    }
    let i = i as usize;
    // SAFETY: as in `one`; `out` holds `n` words.
    unsafe {
        let (mut v, w) = (*x.add(i), *y.add(i));
        let (a, b) = f(v, w);
        let mut acc = bits(a) ^ bits(b);
        unroll!(k in 0..EVALS - 1 => {
            let _ = k;
            v += d;
            let (a, b) = f(v, w);
            acc ^= bits(a) ^ bits(b);
        });
        *out.add(i) = acc;
    }
}

/// One evaluation per element of the `f32` function `F`.
#[kernel(instances(
    expf,
    exp2f,
    exp10f,
    expm1f,
    logf,
    log2f,
    log10f,
    log1pf,
    powf,
    sqrtf,
    rsqrtf,
    cbrtf,
    hypotf,
    sinf,
    cosf,
    tanf,
    sincosf,
    sinpif,
    cospif,
    asinf,
    acosf,
    atanf,
    atan2f,
    sinhf,
    coshf,
    tanhf,
    asinhf,
    acoshf,
    atanhf,
    erff,
    erfcf,
    erfinvf,
    erfcinvf,
    normcdff,
    normcdfinvf,
    lgammaf,
    tgammaf,
    fmodf
))]
pub fn math_one<F: MathF32>(x: *const f32, y: *const f32, out: *mut f32, n: u32) {
    one(x, y, out, n, F::TWO, F::accurate)
}

/// [`EVALS`] evaluations per element of the `f32` function `F`, XOR-ed.
#[kernel(instances(
    expf,
    exp2f,
    exp10f,
    expm1f,
    logf,
    log2f,
    log10f,
    log1pf,
    powf,
    sqrtf,
    rsqrtf,
    cbrtf,
    hypotf,
    sinf,
    cosf,
    tanf,
    sincosf,
    sinpif,
    cospif,
    asinf,
    acosf,
    atanf,
    atan2f,
    sinhf,
    coshf,
    tanhf,
    asinhf,
    acoshf,
    atanhf,
    erff,
    erfcf,
    erfinvf,
    erfcinvf,
    normcdff,
    normcdfinvf,
    lgammaf,
    tgammaf,
    fmodf
))]
pub fn math_time<F: MathF32>(x: *const f32, y: *const f32, out: *mut u32, n: u32, d: f32) {
    time(x, y, out, n, d, f32::to_bits, F::accurate)
}

/// [`math_one`] under fast math.
#[kernel(
    fast_math,
    instances(
        expf,
        exp2f,
        exp10f,
        expm1f,
        logf,
        log2f,
        log10f,
        log1pf,
        powf,
        sqrtf,
        rsqrtf,
        cbrtf,
        hypotf,
        sinf,
        cosf,
        tanf,
        sincosf,
        sinpif,
        cospif,
        asinf,
        acosf,
        atanf,
        atan2f,
        sinhf,
        coshf,
        tanhf,
        asinhf,
        acoshf,
        atanhf,
        erff,
        erfcf,
        erfinvf,
        erfcinvf,
        normcdff,
        normcdfinvf,
        lgammaf,
        tgammaf,
        fmodf
    )
)]
pub fn math_one_fast<F: MathF32>(x: *const f32, y: *const f32, out: *mut f32, n: u32) {
    one(x, y, out, n, F::TWO, F::fast)
}

/// [`math_time`] under fast math.
#[kernel(
    fast_math,
    instances(
        expf,
        exp2f,
        exp10f,
        expm1f,
        logf,
        log2f,
        log10f,
        log1pf,
        powf,
        sqrtf,
        rsqrtf,
        cbrtf,
        hypotf,
        sinf,
        cosf,
        tanf,
        sincosf,
        sinpif,
        cospif,
        asinf,
        acosf,
        atanf,
        atan2f,
        sinhf,
        coshf,
        tanhf,
        asinhf,
        acoshf,
        atanhf,
        erff,
        erfcf,
        erfinvf,
        erfcinvf,
        normcdff,
        normcdfinvf,
        lgammaf,
        tgammaf,
        fmodf
    )
)]
pub fn math_time_fast<F: MathF32>(x: *const f32, y: *const f32, out: *mut u32, n: u32, d: f32) {
    time(x, y, out, n, d, f32::to_bits, F::fast)
}

/// One evaluation per element of the `f64` function `F`.
#[kernel(instances(exp, log, sin, pow, sqrt))]
pub fn math_one_f64<F: MathF64>(x: *const f64, y: *const f64, out: *mut f64, n: u32) {
    one(x, y, out, n, false, |x, y| (F::accurate(x, y), 0.0))
}

/// [`EVALS`] evaluations per element of the `f64` function `F`, XOR-ed.
#[kernel(instances(exp, log, sin, pow, sqrt))]
pub fn math_time_f64<F: MathF64>(x: *const f64, y: *const f64, out: *mut u64, n: u32, d: f64) {
    time(x, y, out, n, d, f64::to_bits, |x, y| {
        (F::accurate(x, y), 0.0)
    })
}

#[cfg(not(target_arch = "nvptx64"))]
pub use host::{F32, F32Fn, F64, F64Fn};

/// The table of the kernels' descriptors (which exist on the host only)
/// and host models, for the lab.
#[cfg(not(target_arch = "nvptx64"))]
mod host {
    use super::*;
    use cooperative_groups::Kernel;

    /// An `f32` function's kernels and host models.
    #[derive(Clone, Copy, Debug)]
    pub struct F32Fn {
        /// CUDA's name (`expf`).
        pub name: &'static str,
        /// 1 or 2 arguments.
        pub arity: u32,
        /// Two results (`sincosf`).
        pub two: bool,
        /// [`math_one`]'s instance.
        pub one: Kernel<OneArgs<f32>>,
        /// [`math_time`]'s instance.
        pub time: Kernel<TimeArgs<f32, u32>>,
        /// [`math_one_fast`]'s instance.
        pub one_fast: Kernel<OneArgs<f32>>,
        /// [`math_time_fast`]'s instance.
        pub time_fast: Kernel<TimeArgs<f32, u32>>,
        /// The accurate function on the host (the same code as the GPU's).
        pub accurate: fn(f32, f32) -> (f32, f32),
        /// The fast-math form on the host (the intrinsics' host models).
        pub fast: fn(f32, f32) -> (f32, f32),
    }

    /// An `f64` function's kernels and host model.
    #[derive(Clone, Copy, Debug)]
    pub struct F64Fn {
        /// CUDA's name (`exp`).
        pub name: &'static str,
        /// 1 or 2 arguments.
        pub arity: u32,
        /// [`math_one_f64`]'s instance.
        pub one: Kernel<OneArgs<f64>>,
        /// [`math_time_f64`]'s instance.
        pub time: Kernel<TimeArgs<f64, u64>>,
        /// The function on the host (the same code as the GPU's).
        pub accurate: fn(f64, f64) -> f64,
    }

    const fn f32_fn<F: MathF32>(
        name: &'static str,
        arity: u32,
        one: Kernel<OneArgs<f32>>,
        time: Kernel<TimeArgs<f32, u32>>,
        one_fast: Kernel<OneArgs<f32>>,
        time_fast: Kernel<TimeArgs<f32, u32>>,
    ) -> F32Fn {
        F32Fn {
            name,
            arity,
            two: F::TWO,
            one,
            time,
            one_fast,
            time_fast,
            accurate: F::accurate,
            fast: F::fast,
        }
    }

    const fn f64_fn<F: MathF64>(
        name: &'static str,
        arity: u32,
        one: Kernel<OneArgs<f64>>,
        time: Kernel<TimeArgs<f64, u64>>,
    ) -> F64Fn {
        F64Fn {
            name,
            arity,
            one,
            time,
            accurate: F::accurate,
        }
    }

    /// Every `f32` function's kernels and host models, in the table's order.
    pub const F32: &[F32Fn] = &[
        f32_fn::<expf>(
            "expf",
            1,
            MATH_ONE_EXPF,
            MATH_TIME_EXPF,
            MATH_ONE_FAST_EXPF,
            MATH_TIME_FAST_EXPF,
        ),
        f32_fn::<exp2f>(
            "exp2f",
            1,
            MATH_ONE_EXP2F,
            MATH_TIME_EXP2F,
            MATH_ONE_FAST_EXP2F,
            MATH_TIME_FAST_EXP2F,
        ),
        f32_fn::<exp10f>(
            "exp10f",
            1,
            MATH_ONE_EXP10F,
            MATH_TIME_EXP10F,
            MATH_ONE_FAST_EXP10F,
            MATH_TIME_FAST_EXP10F,
        ),
        f32_fn::<expm1f>(
            "expm1f",
            1,
            MATH_ONE_EXPM1F,
            MATH_TIME_EXPM1F,
            MATH_ONE_FAST_EXPM1F,
            MATH_TIME_FAST_EXPM1F,
        ),
        f32_fn::<logf>(
            "logf",
            1,
            MATH_ONE_LOGF,
            MATH_TIME_LOGF,
            MATH_ONE_FAST_LOGF,
            MATH_TIME_FAST_LOGF,
        ),
        f32_fn::<log2f>(
            "log2f",
            1,
            MATH_ONE_LOG2F,
            MATH_TIME_LOG2F,
            MATH_ONE_FAST_LOG2F,
            MATH_TIME_FAST_LOG2F,
        ),
        f32_fn::<log10f>(
            "log10f",
            1,
            MATH_ONE_LOG10F,
            MATH_TIME_LOG10F,
            MATH_ONE_FAST_LOG10F,
            MATH_TIME_FAST_LOG10F,
        ),
        f32_fn::<log1pf>(
            "log1pf",
            1,
            MATH_ONE_LOG1PF,
            MATH_TIME_LOG1PF,
            MATH_ONE_FAST_LOG1PF,
            MATH_TIME_FAST_LOG1PF,
        ),
        f32_fn::<powf>(
            "powf",
            2,
            MATH_ONE_POWF,
            MATH_TIME_POWF,
            MATH_ONE_FAST_POWF,
            MATH_TIME_FAST_POWF,
        ),
        f32_fn::<sqrtf>(
            "sqrtf",
            1,
            MATH_ONE_SQRTF,
            MATH_TIME_SQRTF,
            MATH_ONE_FAST_SQRTF,
            MATH_TIME_FAST_SQRTF,
        ),
        f32_fn::<rsqrtf>(
            "rsqrtf",
            1,
            MATH_ONE_RSQRTF,
            MATH_TIME_RSQRTF,
            MATH_ONE_FAST_RSQRTF,
            MATH_TIME_FAST_RSQRTF,
        ),
        f32_fn::<cbrtf>(
            "cbrtf",
            1,
            MATH_ONE_CBRTF,
            MATH_TIME_CBRTF,
            MATH_ONE_FAST_CBRTF,
            MATH_TIME_FAST_CBRTF,
        ),
        f32_fn::<hypotf>(
            "hypotf",
            2,
            MATH_ONE_HYPOTF,
            MATH_TIME_HYPOTF,
            MATH_ONE_FAST_HYPOTF,
            MATH_TIME_FAST_HYPOTF,
        ),
        f32_fn::<sinf>(
            "sinf",
            1,
            MATH_ONE_SINF,
            MATH_TIME_SINF,
            MATH_ONE_FAST_SINF,
            MATH_TIME_FAST_SINF,
        ),
        f32_fn::<cosf>(
            "cosf",
            1,
            MATH_ONE_COSF,
            MATH_TIME_COSF,
            MATH_ONE_FAST_COSF,
            MATH_TIME_FAST_COSF,
        ),
        f32_fn::<tanf>(
            "tanf",
            1,
            MATH_ONE_TANF,
            MATH_TIME_TANF,
            MATH_ONE_FAST_TANF,
            MATH_TIME_FAST_TANF,
        ),
        f32_fn::<sincosf>(
            "sincosf",
            1,
            MATH_ONE_SINCOSF,
            MATH_TIME_SINCOSF,
            MATH_ONE_FAST_SINCOSF,
            MATH_TIME_FAST_SINCOSF,
        ),
        f32_fn::<sinpif>(
            "sinpif",
            1,
            MATH_ONE_SINPIF,
            MATH_TIME_SINPIF,
            MATH_ONE_FAST_SINPIF,
            MATH_TIME_FAST_SINPIF,
        ),
        f32_fn::<cospif>(
            "cospif",
            1,
            MATH_ONE_COSPIF,
            MATH_TIME_COSPIF,
            MATH_ONE_FAST_COSPIF,
            MATH_TIME_FAST_COSPIF,
        ),
        f32_fn::<asinf>(
            "asinf",
            1,
            MATH_ONE_ASINF,
            MATH_TIME_ASINF,
            MATH_ONE_FAST_ASINF,
            MATH_TIME_FAST_ASINF,
        ),
        f32_fn::<acosf>(
            "acosf",
            1,
            MATH_ONE_ACOSF,
            MATH_TIME_ACOSF,
            MATH_ONE_FAST_ACOSF,
            MATH_TIME_FAST_ACOSF,
        ),
        f32_fn::<atanf>(
            "atanf",
            1,
            MATH_ONE_ATANF,
            MATH_TIME_ATANF,
            MATH_ONE_FAST_ATANF,
            MATH_TIME_FAST_ATANF,
        ),
        f32_fn::<atan2f>(
            "atan2f",
            2,
            MATH_ONE_ATAN2F,
            MATH_TIME_ATAN2F,
            MATH_ONE_FAST_ATAN2F,
            MATH_TIME_FAST_ATAN2F,
        ),
        f32_fn::<sinhf>(
            "sinhf",
            1,
            MATH_ONE_SINHF,
            MATH_TIME_SINHF,
            MATH_ONE_FAST_SINHF,
            MATH_TIME_FAST_SINHF,
        ),
        f32_fn::<coshf>(
            "coshf",
            1,
            MATH_ONE_COSHF,
            MATH_TIME_COSHF,
            MATH_ONE_FAST_COSHF,
            MATH_TIME_FAST_COSHF,
        ),
        f32_fn::<tanhf>(
            "tanhf",
            1,
            MATH_ONE_TANHF,
            MATH_TIME_TANHF,
            MATH_ONE_FAST_TANHF,
            MATH_TIME_FAST_TANHF,
        ),
        f32_fn::<asinhf>(
            "asinhf",
            1,
            MATH_ONE_ASINHF,
            MATH_TIME_ASINHF,
            MATH_ONE_FAST_ASINHF,
            MATH_TIME_FAST_ASINHF,
        ),
        f32_fn::<acoshf>(
            "acoshf",
            1,
            MATH_ONE_ACOSHF,
            MATH_TIME_ACOSHF,
            MATH_ONE_FAST_ACOSHF,
            MATH_TIME_FAST_ACOSHF,
        ),
        f32_fn::<atanhf>(
            "atanhf",
            1,
            MATH_ONE_ATANHF,
            MATH_TIME_ATANHF,
            MATH_ONE_FAST_ATANHF,
            MATH_TIME_FAST_ATANHF,
        ),
        f32_fn::<erff>(
            "erff",
            1,
            MATH_ONE_ERFF,
            MATH_TIME_ERFF,
            MATH_ONE_FAST_ERFF,
            MATH_TIME_FAST_ERFF,
        ),
        f32_fn::<erfcf>(
            "erfcf",
            1,
            MATH_ONE_ERFCF,
            MATH_TIME_ERFCF,
            MATH_ONE_FAST_ERFCF,
            MATH_TIME_FAST_ERFCF,
        ),
        f32_fn::<erfinvf>(
            "erfinvf",
            1,
            MATH_ONE_ERFINVF,
            MATH_TIME_ERFINVF,
            MATH_ONE_FAST_ERFINVF,
            MATH_TIME_FAST_ERFINVF,
        ),
        f32_fn::<erfcinvf>(
            "erfcinvf",
            1,
            MATH_ONE_ERFCINVF,
            MATH_TIME_ERFCINVF,
            MATH_ONE_FAST_ERFCINVF,
            MATH_TIME_FAST_ERFCINVF,
        ),
        f32_fn::<normcdff>(
            "normcdff",
            1,
            MATH_ONE_NORMCDFF,
            MATH_TIME_NORMCDFF,
            MATH_ONE_FAST_NORMCDFF,
            MATH_TIME_FAST_NORMCDFF,
        ),
        f32_fn::<normcdfinvf>(
            "normcdfinvf",
            1,
            MATH_ONE_NORMCDFINVF,
            MATH_TIME_NORMCDFINVF,
            MATH_ONE_FAST_NORMCDFINVF,
            MATH_TIME_FAST_NORMCDFINVF,
        ),
        f32_fn::<lgammaf>(
            "lgammaf",
            1,
            MATH_ONE_LGAMMAF,
            MATH_TIME_LGAMMAF,
            MATH_ONE_FAST_LGAMMAF,
            MATH_TIME_FAST_LGAMMAF,
        ),
        f32_fn::<tgammaf>(
            "tgammaf",
            1,
            MATH_ONE_TGAMMAF,
            MATH_TIME_TGAMMAF,
            MATH_ONE_FAST_TGAMMAF,
            MATH_TIME_FAST_TGAMMAF,
        ),
        f32_fn::<fmodf>(
            "fmodf",
            2,
            MATH_ONE_FMODF,
            MATH_TIME_FMODF,
            MATH_ONE_FAST_FMODF,
            MATH_TIME_FAST_FMODF,
        ),
    ];

    /// Every `f64` function's kernels and host model, in the table's order.
    pub const F64: &[F64Fn] = &[
        f64_fn::<exp>("exp", 1, MATH_ONE_F64_EXP, MATH_TIME_F64_EXP),
        f64_fn::<log>("log", 1, MATH_ONE_F64_LOG, MATH_TIME_F64_LOG),
        f64_fn::<sin>("sin", 1, MATH_ONE_F64_SIN, MATH_TIME_F64_SIN),
        f64_fn::<pow>("pow", 2, MATH_ONE_F64_POW, MATH_TIME_F64_POW),
        f64_fn::<sqrt>("sqrt", 1, MATH_ONE_F64_SQRT, MATH_TIME_F64_SQRT),
    ];
}
