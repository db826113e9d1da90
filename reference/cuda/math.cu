// The math experiment of `cg-lab compare` in CUDA C++: the throughput of
// CUDA's math functions, one kernel per function, the twins of
// crates/cg-kernels/src/math_speed.rs (extern "C" names: cpp_math_one_<f>,
// cpp_math_time_<f>; the f64 ones cpp_math_one_f64_<f>, ...). The lab
// builds this file twice: as it is (the accurate functions) and with
// --use_fast_math (expf -> __expf, ..., approximate division and square
// root, flush-to-zero), the twin of the Rust kernels' fast_math instances.
//
// cpp_math_one_<f>(x, y, out, n): out[i] = f(x[i]) (f(x[i], y[i]) for the
// binary functions; sincosf writes the cosine to out[n + i]).
// cpp_math_time_<f>(x, y, out, n, d): thread i evaluates f at EVALS inputs
// x[i], x[i] + d, (x[i] + d) + d, ... and writes the XOR of the results'
// bits to out[i] (an XOR, not a sum: no product for the compiler to fuse
// into an addition, and every bit of every result kept).
// Launch: linear blocks of 256 threads, one thread per element.

constexpr int EVALS = 16;

__device__ __forceinline__ unsigned bits(float v) { return __float_as_uint(v); }
__device__ __forceinline__ unsigned long long bits(double v) {
    return static_cast<unsigned long long>(__double_as_longlong(v));
}

#define MATH_KERNELS(T, W, NAME, LOAD_Y, CALL)                                                \
    extern "C" __global__ void cpp_math_one_##NAME(const T* xs, const T* ys, T* out,         \
                                                    unsigned n) {                             \
        unsigned i = blockIdx.x * blockDim.x + threadIdx.x;                                  \
        if (i >= n) return;                                                                   \
        T x = xs[i];                                                                          \
        LOAD_Y                                                                                \
        out[i] = CALL;                                                                        \
    }                                                                                         \
    extern "C" __global__ void cpp_math_time_##NAME(const T* xs, const T* ys, W* out,        \
                                                     unsigned n, T d) {                       \
        unsigned i = blockIdx.x * blockDim.x + threadIdx.x;                                  \
        if (i >= n) return;                                                                   \
        T x = xs[i];                                                                          \
        LOAD_Y                                                                                \
        W acc = 0;                                                                            \
        _Pragma("unroll") for (int k = 0; k < EVALS; ++k) {                                   \
            acc ^= bits(CALL);                                                                \
            x += d;                                                                           \
        }                                                                                     \
        out[i] = acc;                                                                         \
    }

#define MATH_UNARY(T, W, NAME, CALL) MATH_KERNELS(T, W, NAME, (void)ys;, CALL)
#define MATH_BINARY(T, W, NAME, CALL) MATH_KERNELS(T, W, NAME, T y = ys[i];, CALL)

// sincosf: both results, the cosine at out[n + i]; both XOR-ed.
#define MATH_SINCOS(NAME)                                                                     \
    extern "C" __global__ void cpp_math_one_##NAME(const float* xs, const float*, float* out, \
                                                    unsigned n) {                             \
        unsigned i = blockIdx.x * blockDim.x + threadIdx.x;                                  \
        if (i >= n) return;                                                                   \
        float s, c;                                                                           \
        sincosf(xs[i], &s, &c);                                                               \
        out[i] = s;                                                                           \
        out[n + i] = c;                                                                       \
    }                                                                                         \
    extern "C" __global__ void cpp_math_time_##NAME(const float* xs, const float*,           \
                                                     unsigned* out, unsigned n, float d) {    \
        unsigned i = blockIdx.x * blockDim.x + threadIdx.x;                                  \
        if (i >= n) return;                                                                   \
        float x = xs[i];                                                                      \
        unsigned acc = 0;                                                                     \
        _Pragma("unroll") for (int k = 0; k < EVALS; ++k) {                                   \
            float s, c;                                                                       \
            sincosf(x, &s, &c);                                                               \
            acc ^= bits(s) ^ bits(c);                                                         \
            x += d;                                                                           \
        }                                                                                     \
        out[i] = acc;                                                                         \
    }

MATH_UNARY(float, unsigned, expf, expf(x))
MATH_UNARY(float, unsigned, exp2f, exp2f(x))
MATH_UNARY(float, unsigned, exp10f, exp10f(x))
MATH_UNARY(float, unsigned, expm1f, expm1f(x))
MATH_UNARY(float, unsigned, logf, logf(x))
MATH_UNARY(float, unsigned, log2f, log2f(x))
MATH_UNARY(float, unsigned, log10f, log10f(x))
MATH_UNARY(float, unsigned, log1pf, log1pf(x))
MATH_BINARY(float, unsigned, powf, powf(x, y))
MATH_UNARY(float, unsigned, sqrtf, sqrtf(x))
MATH_UNARY(float, unsigned, rsqrtf, rsqrtf(x))
MATH_UNARY(float, unsigned, cbrtf, cbrtf(x))
MATH_BINARY(float, unsigned, hypotf, hypotf(x, y))
MATH_UNARY(float, unsigned, sinf, sinf(x))
MATH_UNARY(float, unsigned, cosf, cosf(x))
MATH_UNARY(float, unsigned, tanf, tanf(x))
MATH_SINCOS(sincosf)
MATH_UNARY(float, unsigned, sinpif, sinpif(x))
MATH_UNARY(float, unsigned, cospif, cospif(x))
MATH_UNARY(float, unsigned, asinf, asinf(x))
MATH_UNARY(float, unsigned, acosf, acosf(x))
MATH_UNARY(float, unsigned, atanf, atanf(x))
MATH_BINARY(float, unsigned, atan2f, atan2f(x, y))
MATH_UNARY(float, unsigned, sinhf, sinhf(x))
MATH_UNARY(float, unsigned, coshf, coshf(x))
MATH_UNARY(float, unsigned, tanhf, tanhf(x))
MATH_UNARY(float, unsigned, asinhf, asinhf(x))
MATH_UNARY(float, unsigned, acoshf, acoshf(x))
MATH_UNARY(float, unsigned, atanhf, atanhf(x))
MATH_UNARY(float, unsigned, erff, erff(x))
MATH_UNARY(float, unsigned, erfcf, erfcf(x))
MATH_UNARY(float, unsigned, erfinvf, erfinvf(x))
MATH_UNARY(float, unsigned, erfcinvf, erfcinvf(x))
MATH_UNARY(float, unsigned, normcdff, normcdff(x))
MATH_UNARY(float, unsigned, normcdfinvf, normcdfinvf(x))
MATH_UNARY(float, unsigned, lgammaf, lgammaf(x))
MATH_UNARY(float, unsigned, tgammaf, tgammaf(x))
MATH_BINARY(float, unsigned, fmodf, fmodf(x, y))
MATH_UNARY(double, unsigned long long, f64_exp, exp(x))
MATH_UNARY(double, unsigned long long, f64_log, log(x))
MATH_UNARY(double, unsigned long long, f64_sin, sin(x))
MATH_BINARY(double, unsigned long long, f64_pow, pow(x, y))
MATH_UNARY(double, unsigned long long, f64_sqrt, sqrt(x))
