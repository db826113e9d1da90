// The memory experiment of `cg-lab compare` in CUDA C++: the twins of the
// Rust kernels in crates/cg-kernels/src/memory.rs (extern "C" names
// cpp_*), the same algorithm, launch shape and summation order on both
// sides — 16-byte vector copies of f32 and bf16, a streaming
// read-modify-write (__ldcs/__stcs), a layer norm whose row length is a
// kernel argument (a warp per row, a block per row), and a register-tiled
// matrix product (an 8 x 8 tile of c per thread, a transposed).
//
// Where the Rust side checks a bound the C++ side trusts its caller; where
// the Rust side tests an alignment at run time (a row's start), so does
// this one, and takes the same scalar path when it fails.

#include <cstddef>
#include <cstdint>

// Threads per block of the copies and of the warp-per-row layer norm, and
// of the block-per-row layer norm (memory.rs: COPY_BLOCK, LN_WARP_BLOCK,
// LN_BLOCK).
constexpr unsigned COPY_BLOCK = 256;
constexpr unsigned LN_BLOCK = 1024;

// A thread's index in a one-dimensional grid and the grid's threads.
__device__ __forceinline__ size_t grid_rank() {
    return (size_t)blockIdx.x * blockDim.x + threadIdx.x;
}
__device__ __forceinline__ size_t grid_threads() { return (size_t)gridDim.x * blockDim.x; }

// y = x, one float4 per load and store.
extern "C" __global__ void __launch_bounds__(COPY_BLOCK)
    cpp_copy_f32x4(const float4* __restrict__ x, float4* __restrict__ y, size_t n) {
    for (size_t i = grid_rank(); i < n; i += grid_threads()) y[i] = x[i];
}

// y = x for bf16 data: eight __nv_bfloat16 per 16-byte access, moved as a
// uint4 (the kernel does not look at the values).
extern "C" __global__ void __launch_bounds__(COPY_BLOCK)
    cpp_copy_bf16x8(const uint4* __restrict__ x, uint4* __restrict__ y, size_t n) {
    for (size_t i = grid_rank(); i < n; i += grid_threads()) y[i] = x[i];
}

// y = a*x + y with the streaming hint on every access.
extern "C" __global__ void __launch_bounds__(COPY_BLOCK)
    cpp_axpy_streaming(float a, const float4* __restrict__ x, float4* __restrict__ y, size_t n) {
    for (size_t i = grid_rank(); i < n; i += grid_threads()) {
        float4 xv = __ldcs(&x[i]);
        float4 yv = __ldcs(&y[i]);
        __stcs(&y[i], make_float4(xv.x * a + yv.x, xv.y * a + yv.y, xv.z * a + yv.z,
                                  xv.w * a + yv.w));
    }
}

// ---- layer norm ------------------------------------------------------

// A vector's contribution to (sum, sum of squares), in memory.rs's order.
__device__ __forceinline__ float2 moments(float2 s, float4 v) {
    s.x = s.x + ((v.x + v.y) + (v.z + v.w));
    s.y = s.y + v.x * v.x + v.y * v.y + v.z * v.z + v.w * v.w;
    return s;
}
__device__ __forceinline__ float2 moment(float2 s, float v) {
    return make_float2(s.x + v, s.y + v * v);
}

// The butterfly sum over the warp: every lane gets the total.
__device__ __forceinline__ float2 warp_sum2(float2 v) {
#pragma unroll
    for (int o = 16; o > 0; o /= 2) {
        v.x += __shfl_xor_sync(0xffffffffu, v.x, o);
        v.y += __shfl_xor_sync(0xffffffffu, v.y, o);
    }
    return v;
}

// The sum over the block: warp sums, one per warp in shared memory, the
// first warp folds them and shares the total. Two barriers; the next
// call's stores come after the second, so the slots need no third.
__device__ __forceinline__ float2 block_sum2(float2 v) {
    __shared__ float2 part[32];
    __shared__ float2 total;
    unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    v = warp_sum2(v);
    if (lane == 0) part[warp] = v;
    __syncthreads();
    if (warp == 0) {
        float2 t = lane < (blockDim.x + 31) / 32 ? part[lane] : make_float2(0.f, 0.f);
        t = warp_sum2(t);
        if (lane == 0) total = t;
    }
    __syncthreads();
    return total;
}

// Mean and 1/sqrt(var + eps), var = E[x^2] - mean^2 clamped at 0.
__device__ __forceinline__ float2 stats(float2 t, float inv_c, float eps) {
    float mean = t.x * inv_c;
    float var = fmaxf(t.y * inv_c - mean * mean, 0.f);
    return make_float2(mean, rsqrtf(var + eps));
}

__device__ __forceinline__ bool aligned16(const void* p) {
    return ((uintptr_t)p % 16) == 0;
}

// One row of the layer norm by a group of `size` threads (`rank` the
// caller's): vectors rank, rank + size, ... of the row, the last c % 4
// elements by the owner of the unit they start; `reduce` the group's sum.
template <typename Reduce>
__device__ __forceinline__ void layer_norm_row(const float* __restrict__ xr,
                                               const float* __restrict__ gamma,
                                               const float* __restrict__ beta, float eps,
                                               float* __restrict__ yr, size_t c, float inv_c,
                                               size_t rank, size_t size, Reduce reduce) {
    size_t nv = c / 4;
    bool vec = aligned16(xr) && aligned16(yr) && aligned16(gamma) && aligned16(beta);
    bool owns_tail = nv % size == rank;
    float2 s = make_float2(0.f, 0.f);
    if (vec) {
        const float4* x4 = reinterpret_cast<const float4*>(xr);
        for (size_t k = rank; k < nv; k += size) s = moments(s, x4[k]);
    } else {
        for (size_t k = rank; k < nv; k += size)
            s = moments(s, make_float4(xr[4 * k], xr[4 * k + 1], xr[4 * k + 2], xr[4 * k + 3]));
    }
    if (owns_tail)
        for (size_t j = 4 * nv; j < c; ++j) s = moment(s, xr[j]);
    float2 ms = stats(reduce(s), inv_c, eps);
    float mean = ms.x, rstd = ms.y;
    if (vec) {
        const float4* x4 = reinterpret_cast<const float4*>(xr);
        const float4* g4 = reinterpret_cast<const float4*>(gamma);
        const float4* b4 = reinterpret_cast<const float4*>(beta);
        float4* y4 = reinterpret_cast<float4*>(yr);
        for (size_t k = rank; k < nv; k += size) {
            float4 v = x4[k], g = g4[k], b = b4[k];
            y4[k] = make_float4((v.x - mean) * rstd * g.x + b.x, (v.y - mean) * rstd * g.y + b.y,
                                (v.z - mean) * rstd * g.z + b.z, (v.w - mean) * rstd * g.w + b.w);
        }
    } else {
        for (size_t k = rank; k < nv; k += size)
            for (int l = 0; l < 4; ++l) {
                size_t j = 4 * k + l;
                yr[j] = (xr[j] - mean) * rstd * gamma[j] + beta[j];
            }
    }
    if (owns_tail)
        for (size_t j = 4 * nv; j < c; ++j) yr[j] = (xr[j] - mean) * rstd * gamma[j] + beta[j];
}

// One warp per row: rows w, w + W, ... (w the warp's index in the grid).
extern "C" __global__ void __launch_bounds__(256)
    cpp_layer_norm_warp(const float* __restrict__ x, size_t x_pitch,
                        const float* __restrict__ gamma, const float* __restrict__ beta,
                        float eps, float* __restrict__ y, size_t y_pitch, size_t c, size_t rows) {
    size_t per_block = blockDim.x / 32;
    size_t w = blockIdx.x * per_block + threadIdx.x / 32;
    size_t warps = gridDim.x * per_block;
    float inv_c = 1.f / (float)c;
    for (size_t r = w; r < rows; r += warps)
        layer_norm_row(x + r * x_pitch, gamma, beta, eps, y + r * y_pitch, c, inv_c,
                       threadIdx.x % 32, 32, warp_sum2);
}

// One block per row: rows b, b + B, ...
extern "C" __global__ void __launch_bounds__(LN_BLOCK)
    cpp_layer_norm_block(const float* __restrict__ x, size_t x_pitch,
                         const float* __restrict__ gamma, const float* __restrict__ beta,
                         float eps, float* __restrict__ y, size_t y_pitch, size_t c, size_t rows) {
    float inv_c = 1.f / (float)c;
    for (size_t r = blockIdx.x; r < rows; r += gridDim.x)
        layer_norm_row(x + r * x_pitch, gamma, beta, eps, y + r * y_pitch, c, inv_c,
                       threadIdx.x, blockDim.x, block_sum2);
}

// ---- register-tiled matrix product -----------------------------------

// The k loop of one 8 x 8 tile: per k two float4 of at's row k (the tile's
// rows of a at column k), two of b's row k, 64 multiply-adds. Without
// FULL the second vector of each is loaded only where it exists.
template <bool FULL>
__device__ __forceinline__ void k_loop(float (&acc)[8][8], const float4* __restrict__ at,
                                       size_t at_pitch, size_t at_width,
                                       const float4* __restrict__ b, size_t b_pitch,
                                       size_t b_width, size_t kk, size_t xa, size_t xb) {
    bool a2 = FULL || xa + 1 < at_width, b2 = FULL || xb + 1 < b_width;
    for (size_t k = 0; k < kk; ++k) {
        const float4* ar = at + k * at_pitch;
        const float4* br = b + k * b_pitch;
        float4 z = make_float4(0.f, 0.f, 0.f, 0.f);
        float4 alo = ar[xa], ahi = a2 ? ar[xa + 1] : z;
        float4 blo = br[xb], bhi = b2 ? br[xb + 1] : z;
        float av[8] = {alo.x, alo.y, alo.z, alo.w, ahi.x, ahi.y, ahi.z, ahi.w};
        float bv[8] = {blo.x, blo.y, blo.z, blo.w, bhi.x, bhi.y, bhi.z, bhi.w};
#pragma unroll
        for (int i = 0; i < 8; ++i)
#pragma unroll
            for (int j = 0; j < 8; ++j) acc[i][j] += av[i] * bv[j];
    }
}

// c = a * b: at is a transposed (K rows of M floats, M/4 float4 wide), b
// K x N (N/4 float4 wide), c M x N; thread (gx, gy) of the 2-D grid owns
// rows 8 gy .., columns 8 gx .. of c; tiles cut by the edge store what
// lies inside.
extern "C" __global__ void __launch_bounds__(256)
    cpp_sgemm_8x8(const float4* __restrict__ at, size_t at_pitch, size_t at_width,
                  const float4* __restrict__ b, size_t b_pitch, size_t b_width, size_t kk,
                  float* __restrict__ c, size_t c_pitch, size_t m, size_t n) {
    size_t gx = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    size_t gy = (size_t)blockIdx.y * blockDim.y + threadIdx.y;
    size_t x0 = 8 * gx, y0 = 8 * gy;
    if (x0 >= n || y0 >= m) return;
    size_t rows = m - y0 < 8 ? m - y0 : 8, cols = n - x0 < 8 ? n - x0 : 8;
    size_t xa = y0 / 4, xb = x0 / 4;
    float acc[8][8] = {};
    bool full = rows == 8 && cols == 8;
    if (full && xa + 1 < at_width && xb + 1 < b_width)
        k_loop<true>(acc, at, at_pitch, at_width, b, b_pitch, b_width, kk, xa, xb);
    else
        k_loop<false>(acc, at, at_pitch, at_width, b, b_pitch, b_width, kk, xa, xb);
    float* ct = c + y0 * c_pitch + x0;
    if (full) {
#pragma unroll
        for (int i = 0; i < 8; ++i)
#pragma unroll
            for (int j = 0; j < 8; ++j) ct[i * c_pitch + j] = acc[i][j];
    } else {
        for (size_t i = 0; i < rows; ++i)
            for (size_t j = 0; j < cols; ++j) ct[i * c_pitch + j] = acc[i][j];
    }
}
