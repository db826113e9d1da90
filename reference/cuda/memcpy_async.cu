// The memcpy_async experiment of `cg-lab compare` in CUDA C++: a block-wise
// sum of a large float array staged through shared memory in tiles of TILE
// floats with double buffering (cg::memcpy_async + cg::wait_prior<1>, the
// guide's pattern), and the same sum with plain loads. Same parameters,
// tiles and per-thread summation order as the Rust twins in
// crates/cg-kernels/src/memcpy_async.rs (extern "C" names: cpp_staged_*).
// Launch: blocks of BLOCK threads, 2 * TILE * 4 bytes of dynamic shared memory.

#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cub/block/block_reduce.cuh>
#include <cuda/barrier>
#include <cuda/ptx>

namespace cg = cooperative_groups;

constexpr unsigned BLOCK = 256;
constexpr unsigned TILE = 16 * BLOCK;

__device__ __forceinline__ float sum4(float4 v) { return (v.x + v.y) + (v.z + v.w); }

// This thread's share of the `count` floats of one stage.
__device__ __forceinline__ float stage_sum(const float* stage, unsigned rank, unsigned count) {
    const float4* vec = reinterpret_cast<const float4*>(stage);
    unsigned q = count / 4;
    float acc = 0.f;
#pragma unroll
    for (unsigned k = 0; k < 4; ++k) {
        unsigned j = rank + k * BLOCK;
        if (j < q) acc += sum4(vec[j]);
    }
    if (rank < count % 4) acc += stage[4 * q + rank];
    return acc;
}

template <unsigned THREADS = BLOCK>
__device__ __forceinline__ void finish(float* partial, float acc) {
    using R = cub::BlockReduce<float, THREADS>;
    __shared__ typename R::TempStorage tmp;
    float total = R(tmp).Sum(acc);
    if (threadIdx.x == 0) partial[blockIdx.x] = total;
}

// kAligned: full tiles with cuda::aligned_size_t<16> (16-byte copies, the
// alignment known at compile time); otherwise the element form on float
// (what the guide's examples write: 4-byte copies).
template <bool kAligned>
__device__ __forceinline__ void staged_async(const float* in, float* partial, unsigned n) {
    extern __shared__ __align__(16) float smem[];
    cg::thread_block block = cg::this_thread_block();
    unsigned tiles = (n + TILE - 1) / TILE;
    auto issue = [&](unsigned t, unsigned stage) {
        unsigned start = t * TILE;
        unsigned count = min(TILE, n - start);
        float* dst = smem + stage * TILE;
        if (kAligned && count == TILE)
            cg::memcpy_async(block, dst, in + start, cuda::aligned_size_t<16>(TILE * sizeof(float)));
        else
            cg::memcpy_async(block, dst, size_t(TILE), in + start, size_t(count));
    };
    unsigned t = blockIdx.x, stage = 0;
    float acc = 0.f;
    if (t < tiles) issue(t, 0);
    while (t < tiles) {
        unsigned next = t + gridDim.x;
        if (next < tiles) {
            issue(next, stage ^ 1);
            cg::wait_prior<1>(block);
        } else {
            cg::wait(block);
        }
        acc += stage_sum(smem + stage * TILE, block.thread_rank(), min(TILE, n - t * TILE));
        block.sync();
        t = next;
        stage ^= 1;
    }
    finish(partial, acc);
}

extern "C" __global__ void __launch_bounds__(BLOCK) cpp_staged_async(const float* in, float* partial, unsigned n) {
    staged_async<true>(in, partial, n);
}

extern "C" __global__ void __launch_bounds__(BLOCK) cpp_staged_async_f32(const float* in, float* partial, unsigned n) {
    staged_async<false>(in, partial, n);
}

extern "C" __global__ void __launch_bounds__(BLOCK) cpp_staged_plain(const float* in, float* partial, unsigned n) {
    unsigned tiles = (n + TILE - 1) / TILE;
    unsigned rank = threadIdx.x;
    float acc = 0.f;
    for (unsigned t = blockIdx.x; t < tiles; t += gridDim.x) {
        unsigned base = t * TILE;
        unsigned count = min(TILE, n - base);
        unsigned q = count / 4;
        const float4* vec = reinterpret_cast<const float4*>(in + base);
#pragma unroll
        for (unsigned k = 0; k < 4; ++k) {
            unsigned j = rank + k * BLOCK;
            if (j < q) acc += sum4(vec[j]);
        }
        if (rank < count % 4) acc += in[base + 4 * q + rank];
    }
    finish(partial, acc);
}

// Bulk copies (sm_90): STAGES tiles of shared memory in a ring, the copies
// of the next STAGES - 1 tiles in flight while the block sums one. Thread 0
// starts each tile with one cp.async.bulk of its 16-byte granules, which the
// copy engine completes on the stage's mbarrier (cuda::ptx: cuda::barrier
// has no parity wait), and every thread waits on the phase's parity. A tail
// of n % 4 floats is stored by thread 0 before its arrival. The lab's input
// is 16-byte aligned (cudaMalloc); the Rust twins fall back to plain loads
// otherwise, these trap. Launch with STAGES * TILE * 4 bytes of dynamic
// shared memory.
template <unsigned STAGES>
__device__ __forceinline__ void staged_bulk(const float* in, float* partial, unsigned n) {
#if __CUDA_ARCH__ >= 900
    extern __shared__ __align__(16) float stages[];
    __shared__ uint64_t bars[STAGES];
    if (reinterpret_cast<uintptr_t>(in) % 16 != 0) __trap();
    if (threadIdx.x < STAGES) {
        cuda::ptx::mbarrier_init(&bars[threadIdx.x], 1);
        cuda::ptx::fence_mbarrier_init(cuda::ptx::sem_release, cuda::ptx::scope_cluster);
    }
    __syncthreads();
    unsigned tiles = (n + TILE - 1) / TILE;
    auto issue = [&](unsigned t, unsigned stage) {
        if (threadIdx.x != 0 || t >= tiles) return;
        unsigned start = t * TILE;
        unsigned count = min(TILE, n - start);
        unsigned whole = count & ~3u;
        float* dst = stages + stage * TILE;
        for (unsigned i = whole; i < count; ++i) dst[i] = in[start + i];
        if (whole > 0) {
            (void)cuda::ptx::mbarrier_arrive_expect_tx(cuda::ptx::sem_release, cuda::ptx::scope_cta,
                                                       cuda::ptx::space_shared, &bars[stage], whole * 4);
            cuda::ptx::cp_async_bulk(cuda::ptx::space_cluster, cuda::ptx::space_global, dst, in + start,
                                     whole * 4, &bars[stage]);
        } else {
            (void)cuda::ptx::mbarrier_arrive(&bars[stage]);
        }
    };
    unsigned t = blockIdx.x;
    for (unsigned s = 0; s + 1 < STAGES; ++s) issue(t + s * gridDim.x, s);
    float acc = 0.f;
    for (unsigned trip = 0; t < tiles; t += gridDim.x, ++trip) {
        unsigned stage = trip % STAGES;
        issue(t + (STAGES - 1) * gridDim.x, (trip + STAGES - 1) % STAGES);
        while (!cuda::ptx::mbarrier_try_wait_parity(&bars[stage], (trip / STAGES) & 1)) {
        }
        acc += stage_sum(stages + stage * TILE, threadIdx.x, min(TILE, n - t * TILE));
        __syncthreads();
    }
    finish(partial, acc);
#else
    __trap();
#endif
}

// The bulk copies with a specialised producer warp (the twin of
// staged_pipelined): STAGES stages, each with a full barrier (one arrival
// per fill: thread 0's, with the copy's bytes) and an empty barrier (one
// arrival per consumer warp); thread 0 fills a stage once its consumers
// released it, the BLOCK threads of warps 1.. wait for it to be full, sum it
// and release it (__syncwarp, lane 0 arrives). No block barrier per tile.
// Launch BLOCK + 32 threads.
constexpr unsigned PIPE_STAGES = 3;

extern "C" __global__ void __launch_bounds__(BLOCK + 32)
    cpp_staged_pipelined(const float* in, float* partial, unsigned n) {
#if __CUDA_ARCH__ >= 900
    extern __shared__ __align__(16) float stages[];
    __shared__ uint64_t full[PIPE_STAGES], empty[PIPE_STAGES];
    if (reinterpret_cast<uintptr_t>(in) % 16 != 0) __trap();
    if (threadIdx.x < PIPE_STAGES) {
        cuda::ptx::mbarrier_init(&full[threadIdx.x], 1);
        cuda::ptx::fence_mbarrier_init(cuda::ptx::sem_release, cuda::ptx::scope_cluster);
    }
    __syncthreads();
    if (threadIdx.x < PIPE_STAGES) {
        cuda::ptx::mbarrier_init(&empty[threadIdx.x], unsigned(BLOCK / 32));
        cuda::ptx::fence_mbarrier_init(cuda::ptx::sem_release, cuda::ptx::scope_cluster);
    }
    __syncthreads();
    const unsigned tiles = (n + TILE - 1) / TILE;
    float acc = 0.f;
    if (threadIdx.x == 0) {
        unsigned trip = 0;
        for (unsigned t = blockIdx.x; t < tiles; t += gridDim.x, ++trip) {
            unsigned stage = trip % PIPE_STAGES, use = trip / PIPE_STAGES;
            if (use > 0) {
                while (!cuda::ptx::mbarrier_try_wait_parity(&empty[stage], (use - 1) & 1)) {
                }
            }
            unsigned start = t * TILE;
            unsigned count = min(TILE, n - start);
            unsigned whole = count & ~3u;
            float* dst = stages + stage * TILE;
            for (unsigned i = whole; i < count; ++i) dst[i] = in[start + i];
            if (whole > 0) {
                (void)cuda::ptx::mbarrier_arrive_expect_tx(cuda::ptx::sem_release, cuda::ptx::scope_cta,
                                                           cuda::ptx::space_shared, &full[stage], whole * 4);
                cuda::ptx::cp_async_bulk(cuda::ptx::space_cluster, cuda::ptx::space_global, dst, in + start,
                                         whole * 4, &full[stage]);
            } else {
                (void)cuda::ptx::mbarrier_arrive(&full[stage]);
            }
        }
    } else if (threadIdx.x >= 32) {
        unsigned trip = 0;
        for (unsigned t = blockIdx.x; t < tiles; t += gridDim.x, ++trip) {
            unsigned stage = trip % PIPE_STAGES;
            while (!cuda::ptx::mbarrier_try_wait_parity(&full[stage], (trip / PIPE_STAGES) & 1)) {
            }
            acc += stage_sum(stages + stage * TILE, threadIdx.x - 32, min(TILE, n - t * TILE));
            __syncwarp();
            if (threadIdx.x % 32 == 0) (void)cuda::ptx::mbarrier_arrive(&empty[stage]);
        }
    }
    finish<BLOCK + 32>(partial, acc);
#else
    __trap();
#endif
}

extern "C" __global__ void __launch_bounds__(BLOCK) cpp_staged_bulk(const float* in, float* partial, unsigned n) {
    staged_bulk<2>(in, partial, n);
}

extern "C" __global__ void __launch_bounds__(BLOCK) cpp_staged_bulk_3(const float* in, float* partial, unsigned n) {
    staged_bulk<3>(in, partial, n);
}
