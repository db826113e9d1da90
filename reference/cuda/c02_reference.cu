// The C-02 experiments in CUDA C++, as the seed chapter wrote them, plus CUB
// versions of the reduce and a block scan. `cg-lab compare` builds this file
// with nvcc (-O3, for the device's SM) into a cubin, loads it through the
// same runtime as the Rust kernels, and interleaves launches of both.
//
// Every kernel has the same parameters and data as its Rust twin in
// crates/cg-kernels/src/c02.rs (extern "C" names: cpp_*, cub_*).

#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/warp/warp_reduce.cuh>

namespace cg = cooperative_groups;

// Grid-stride sum of the input: global memory is read once per launch.
__device__ __forceinline__ float grid_stride_sum(const float* in, unsigned n) {
    float v = 0.f;
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        v += in[i];
    return v;
}

// ---- C-02 reduce: three strategies, `reps` chained rounds -----------------

extern "C" __global__ void cpp_reduce_intrinsic(const float* in, float* partial, unsigned n, unsigned reps) {
    float v = grid_stride_sum(in, n);
    float red = 0.f;
    for (unsigned r = 0; r < reps; ++r) {
        float x = v;
        for (int o = 16; o > 0; o >>= 1) x += __shfl_down_sync(0xffffffffu, x, o);
        red = __shfl_sync(0xffffffffu, x, 0);
        v += red * 1e-30f;
    }
    if ((threadIdx.x & 31) == 0) atomicAdd(&partial[blockIdx.x], red);
}

extern "C" __global__ void cpp_reduce_tile32(const float* in, float* partial, unsigned n, unsigned reps) {
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
    float v = grid_stride_sum(in, n);
    float red = 0.f;
    for (unsigned r = 0; r < reps; ++r) {
        float x = v;
        for (int o = 16; o > 0; o >>= 1) x += tile.shfl_down(x, o);
        red = tile.shfl(x, 0);
        v += red * 1e-30f;
    }
    if (tile.thread_rank() == 0) atomicAdd(&partial[blockIdx.x], red);
}

template <unsigned TILE>
__device__ __forceinline__ void cg_reduce_body(const float* in, float* partial, unsigned n, unsigned reps) {
    cg::thread_block block = cg::this_thread_block();
    auto tile = cg::tiled_partition<TILE>(block);
    float v = grid_stride_sum(in, n);
    float red = 0.f;
    for (unsigned r = 0; r < reps; ++r) {
        red = cg::reduce(tile, v, cg::plus<float>());
        v += red * 1e-30f;
    }
    if (tile.thread_rank() == 0) atomicAdd(&partial[blockIdx.x], red);
}

#define CG_REDUCE(T)                                                                           \
    extern "C" __global__ void cpp_cg_reduce_##T(const float* in, float* partial, unsigned n, \
                                                 unsigned reps) {                              \
        cg_reduce_body<T>(in, partial, n, reps);                                               \
    }
CG_REDUCE(8)
CG_REDUCE(16)
CG_REDUCE(32)
CG_REDUCE(64)
CG_REDUCE(128)
CG_REDUCE(256)
CG_REDUCE(512)
CG_REDUCE(1024)

// ---- CUB reduce: warp (tile 32) and whole block -----------------------------

extern "C" __global__ void cub_warp_reduce(const float* in, float* partial, unsigned n, unsigned reps) {
    using WarpReduce = cub::WarpReduce<float>;
    __shared__ typename WarpReduce::TempStorage tmp[32];
    const unsigned warp = threadIdx.x / 32;
    float v = grid_stride_sum(in, n);
    float red = 0.f;
    for (unsigned r = 0; r < reps; ++r) {
        float x = WarpReduce(tmp[warp]).Sum(v);   // valid in lane 0
        red = __shfl_sync(0xffffffffu, x, 0);     // every lane gets it, as cg::reduce
        v += red * 1e-30f;
    }
    if ((threadIdx.x & 31) == 0) atomicAdd(&partial[blockIdx.x], red);
}

template <int BLOCK>
__device__ __forceinline__ void cub_block_reduce_body(const float* in, float* partial, unsigned n, unsigned reps) {
    using BlockReduce = cub::BlockReduce<float, BLOCK>;
    __shared__ typename BlockReduce::TempStorage tmp;
    __shared__ float result;
    float v = grid_stride_sum(in, n);
    float red = 0.f;
    for (unsigned r = 0; r < reps; ++r) {
        float x = BlockReduce(tmp).Sum(v);        // valid in thread 0
        if (threadIdx.x == 0) result = x;
        __syncthreads();                          // broadcast, and temp storage reuse
        red = result;
        __syncthreads();
        v += red * 1e-30f;
    }
    if (threadIdx.x == 0) atomicAdd(&partial[blockIdx.x], red);
}

#define BLOCK_REDUCE(B)                                                                          \
    extern "C" __global__ void cub_block_reduce_##B(const float* in, float* partial, unsigned n, \
                                                    unsigned reps) {                             \
        cub_block_reduce_body<B>(in, partial, n, reps);                                          \
    }
BLOCK_REDUCE(128)
BLOCK_REDUCE(256)
BLOCK_REDUCE(512)
BLOCK_REDUCE(1024)

// ---- Block inclusive scan: CUB BlockScan and cg::inclusive_scan on a block-sized tile

template <int BLOCK>
__device__ __forceinline__ void cub_block_scan_body(const float* in, float* out, unsigned n, unsigned reps) {
    using BlockScan = cub::BlockScan<float, BLOCK>;
    __shared__ typename BlockScan::TempStorage tmp;
    for (unsigned base = blockIdx.x * BLOCK; base < n; base += gridDim.x * BLOCK) {
        const unsigned i = base + threadIdx.x;
        float x = i < n ? in[i] : 0.f;
        float s = 0.f;
        for (unsigned r = 0; r < reps; ++r) {
            BlockScan(tmp).InclusiveSum(x, s);
            __syncthreads();                      // temp storage reuse
            x += s * 1e-30f;
        }
        if (i < n) out[i] = s;
    }
}

#define BLOCK_SCAN(B)                                                                                  \
    extern "C" __global__ void cub_block_scan_##B(const float* in, float* out, unsigned n, unsigned reps) { \
        cub_block_scan_body<B>(in, out, n, reps);                                                      \
    }
BLOCK_SCAN(128)
BLOCK_SCAN(256)
BLOCK_SCAN(512)
BLOCK_SCAN(1024)

// ---- Tile inclusive scan: cg::inclusive_scan on tiles of 8..1024 threads -----

template <unsigned TILE>
__device__ __forceinline__ void cg_scan_body(const float* in, float* out, unsigned n, unsigned reps) {
    cg::thread_block block = cg::this_thread_block();
    auto tile = cg::tiled_partition<TILE>(block);
    for (unsigned base = blockIdx.x * blockDim.x; base < n; base += gridDim.x * blockDim.x) {
        const unsigned i = base + threadIdx.x;
        float x = i < n ? in[i] : 0.f;
        float s = 0.f;
        for (unsigned r = 0; r < reps; ++r) {
            s = cg::inclusive_scan(tile, x, cg::plus<float>());
            x += s * 1e-30f;
        }
        if (i < n) out[i] = s;
    }
}

#define CG_SCAN(T)                                                                           \
    extern "C" __global__ void cpp_cg_scan_##T(const float* in, float* out, unsigned n,      \
                                               unsigned reps) {                              \
        cg_scan_body<T>(in, out, n, reps);                                                   \
    }
CG_SCAN(8)
CG_SCAN(16)
CG_SCAN(32)
CG_SCAN(64)
CG_SCAN(128)
CG_SCAN(256)
CG_SCAN(512)
CG_SCAN(1024)

// ---- Coalesced odd count ----------------------------------------------------

extern "C" __global__ void cpp_coalesced_odd(const int* in, unsigned long long* out, unsigned n) {
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        if (in[i] & 1) {
            cg::coalesced_group g = cg::coalesced_threads();
            if (g.thread_rank() == 0) atomicAdd(out, (unsigned long long)g.size());
        }
    }
}

// ---- Cluster DSMEM neighbour read (sm_90+) ------------------------------------

extern "C" __global__ void cpp_cluster_dsmem(unsigned* out) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    __shared__ unsigned value;
    cg::cluster_group cluster = cg::this_cluster();
    const unsigned rank = cluster.block_rank();
    if (threadIdx.x == 0) value = rank + 1;
    cluster.sync();
    const unsigned* peer = cluster.map_shared_rank(&value, (rank + 1) % cluster.num_blocks());
    const unsigned v = *peer;
    cluster.sync();
    if (threadIdx.x == 0) out[blockIdx.x] = v;
#endif
}

// ---- Last block finishes the reduction (the threadFenceReduction pattern) ----
//
// Twin of last_block_reduce_B in crates/cg-kernels/src/c02.rs, written the
// classic CUDA way: the block reduces its grid-stride slice (CUB
// BlockReduce), thread 0 stores the partial, __threadfence() publishes it
// before atomicInc draws a ticket; the block with the last ticket sums the
// partials and writes the total to out[gridDim.x]. atomicInc wraps the
// ticket back to 0 on the last draw, ready for the next launch.

template <int BLOCK>
__device__ __forceinline__ void cpp_last_block_body(const float* in, float* out, unsigned n,
                                                    unsigned* ticket) {
    using BlockReduce = cub::BlockReduce<float, BLOCK>;
    __shared__ typename BlockReduce::TempStorage tmp;
    __shared__ bool am_last;
    float sum = BlockReduce(tmp).Sum(grid_stride_sum(in, n));   // valid in thread 0
    if (threadIdx.x == 0) {
        out[blockIdx.x] = sum;
        __threadfence();
        unsigned t = atomicInc(ticket, gridDim.x - 1);
        am_last = (t == gridDim.x - 1);
    }
    __syncthreads();
    if (am_last) {
        float v = 0.f;
        for (unsigned i = threadIdx.x; i < gridDim.x; i += BLOCK) v += out[i];
        __syncthreads();                                          // temp storage reuse
        float total = BlockReduce(tmp).Sum(v);
        if (threadIdx.x == 0) out[gridDim.x] = total;
    }
}

#define LAST_BLOCK(B)                                                                                \
    extern "C" __global__ void cpp_last_block_reduce_##B(const float* in, float* out, unsigned n,     \
                                                         unsigned* ticket) {                         \
        cpp_last_block_body<B>(in, out, n, ticket);                                                  \
    }
LAST_BLOCK(128)
LAST_BLOCK(256)
LAST_BLOCK(512)
LAST_BLOCK(1024)
