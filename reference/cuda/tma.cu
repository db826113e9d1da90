// C++ twins of cg-kernels' tensor-copy experiment (`cg-lab compare --only
// tma`): the Tensor Memory Accelerator through cuda::ptx, the tensor maps
// as `const __grid_constant__ CUtensorMap` parameters (encoded by the lab
// with cuTensorMapEncodeTiled, the bytes the Rust kernels' maps hold).
// Same shapes as the Rust kernels: 32 x 32 float tiles, two stages, tiles
// blockIdx.x, + gridDim.x, ...; thread 0 issues every copy.

#include <cuda.h>
#include <cuda/ptx>
#include <cooperative_groups.h>
#include <cstdint>

constexpr unsigned TILE = 32;
constexpr unsigned TILE_LEN = TILE * TILE;
constexpr unsigned COPY_BLOCK = 128;
constexpr unsigned TRANSPOSE_BLOCK = 256;

namespace ptx = cuda::ptx;
namespace cg = cooperative_groups;

#if __CUDA_ARCH__ >= 900
// Two barriers, one arrival each; thread i initialises barrier i.
__device__ __forceinline__ void init_bars(uint64_t* full) {
    if (threadIdx.x < 2) {
        ptx::mbarrier_init(&full[threadIdx.x], 1);
        ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);
    }
    __syncthreads();
}

__device__ __forceinline__ void wait_parity(uint64_t* bar, unsigned parity) {
    while (!ptx::mbarrier_try_wait_parity(bar, parity)) {
    }
}

// Thread 0: one arrival expecting the tile's bytes and the tile load.
__device__ __forceinline__ void load_tile(const CUtensorMap* map, float* dst, uint64_t* bar, int x, int y) {
    (void)ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, bar,
                                         TILE_LEN * 4);
    const int32_t coords[2] = {x, y};
    ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global, dst, map, coords, bar);
}

// The block's store of `src` at (x, y): every thread fences its shared
// writes for the async proxy, thread 0 waits for its earlier stores' reads,
// the block syncs, thread 0 stores and commits.
__device__ __forceinline__ void store_tile(const CUtensorMap* map, const float* src, int x, int y) {
    ptx::fence_proxy_async(ptx::space_shared);
    if (threadIdx.x == 0) ptx::cp_async_bulk_wait_group_read(ptx::n32_t<0>());
    __syncthreads();
    if (threadIdx.x == 0) {
        const int32_t coords[2] = {x, y};
        ptx::cp_async_bulk_tensor(ptx::space_global, ptx::space_shared, map, coords, src);
        ptx::cp_async_bulk_commit_group();
    }
}

__device__ __forceinline__ void wait_stores() {
    if (threadIdx.x == 0) ptx::cp_async_bulk_wait_group_read(ptx::n32_t<0>());
    __syncthreads();
}

__device__ __forceinline__ void prefetch_map(const CUtensorMap* map) {
    asm volatile("prefetch.tensormap [%0];" ::"l"(map) : "memory");
}
#endif

// The copy with K stages: trip i stores stage i % K; after its store_tile
// every earlier store has read its stage, so the previous trip's stage takes
// the load of trip i + K - 1 (K - 1 loads in flight).
template <unsigned K>
__device__ __forceinline__ void copy_tiles(const CUtensorMap* src, const CUtensorMap* dst, unsigned width,
                                           unsigned height) {
#if __CUDA_ARCH__ >= 900
    __shared__ alignas(128) float buf[K * TILE_LEN];
    __shared__ uint64_t full[K];
    if (threadIdx.x < K) {
        ptx::mbarrier_init(&full[threadIdx.x], 1);
        ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);
    }
    __syncthreads();
    const bool leader = threadIdx.x == 0;
    const unsigned tiles_x = (width + TILE - 1) / TILE;
    const unsigned tiles = tiles_x * ((height + TILE - 1) / TILE);
    if (leader) {
        prefetch_map(src);
        prefetch_map(dst);
    }
    auto issue = [&](unsigned t, unsigned s) {
        if (leader && t < tiles)
            load_tile(src, buf + s * TILE_LEN, &full[s], t % tiles_x * TILE, t / tiles_x * TILE);
    };
    const unsigned first = blockIdx.x;
    for (unsigned j = 0; j + 1 < K; ++j) issue(first + j * gridDim.x, j);
    bool stored = false;
    unsigned trip = 0;
    for (unsigned t = first; t < tiles; t += gridDim.x, ++trip) {
        unsigned s = trip % K;
        wait_parity(&full[s], (trip / K) & 1);
        store_tile(dst, buf + s * TILE_LEN, t % tiles_x * TILE, t / tiles_x * TILE);
        stored = true;
        issue(t + (K - 1) * gridDim.x, (trip + K - 1) % K);
    }
    if (stored) wait_stores();
#else
    __trap();
#endif
}

extern "C" __global__ void __launch_bounds__(COPY_BLOCK)
    cpp_tma_copy(const __grid_constant__ CUtensorMap src, const __grid_constant__ CUtensorMap dst,
                 unsigned width, unsigned height) {
    copy_tiles<2>(&src, &dst, width, height);
}

extern "C" __global__ void __launch_bounds__(COPY_BLOCK)
    cpp_tma_copy_4(const __grid_constant__ CUtensorMap src, const __grid_constant__ CUtensorMap dst,
                   unsigned width, unsigned height) {
    copy_tiles<4>(&src, &dst, width, height);
}

// Where element (x, y) of a 32 x 32 float tile lies in shared memory:
// dense rows, or the copy engine's 128-byte swizzle (the 16-byte chunk
// index XOR the 128-byte line index mod 8; the tile 1024-byte aligned).
template <bool SWIZZLED>
__device__ __forceinline__ unsigned tile_index(unsigned x, unsigned y) {
    unsigned i = y * TILE + x;
    return SWIZZLED ? i ^ ((y & 7) << 2) : i;
}

// The transpose through two stages of inb (loads) and outb (stores), each
// thread turning 4 diagonals of a warp's share of the tile.
template <bool SWIZZLED>
__device__ __forceinline__ void transpose_tiles(const CUtensorMap* src, const CUtensorMap* dst, unsigned width,
                                                unsigned height, float* inb, float* outb, uint64_t* full) {
#if __CUDA_ARCH__ >= 900
    init_bars(full);
    const bool leader = threadIdx.x == 0;
    const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    const unsigned tiles_x = (width + TILE - 1) / TILE;
    const unsigned tiles = tiles_x * ((height + TILE - 1) / TILE);
    if (leader) {
        prefetch_map(src);
        prefetch_map(dst);
    }
    auto issue = [&](unsigned t, unsigned s) {
        if (leader && t < tiles)
            load_tile(src, inb + s * TILE_LEN, &full[s], t % tiles_x * TILE, t / tiles_x * TILE);
    };
    unsigned t = blockIdx.x;
    issue(t, 0);
    bool stored = false;
    for (unsigned trip = 0; t < tiles; t += gridDim.x, ++trip) {
        unsigned s = trip & 1;
        issue(t + gridDim.x, s ^ 1);
        wait_parity(&full[s], (trip >> 1) & 1);
        const unsigned base = s * TILE_LEN;
#pragma unroll
        for (unsigned k = 0; k < 4; ++k) {
            unsigned r = (lane + warp * 4 + k) % 32;
            outb[base + tile_index<SWIZZLED>(lane, r)] = inb[base + tile_index<SWIZZLED>(r, lane)];
        }
        store_tile(dst, outb + base, t / tiles_x * TILE, t % tiles_x * TILE);
        stored = true;
    }
    if (stored) wait_stores();
#else
    __trap();
#endif
}

extern "C" __global__ void __launch_bounds__(TRANSPOSE_BLOCK)
    cpp_tma_transpose(const __grid_constant__ CUtensorMap src, const __grid_constant__ CUtensorMap dst,
                      unsigned width, unsigned height) {
    __shared__ alignas(128) float inb[2 * TILE_LEN];
    __shared__ alignas(128) float outb[2 * TILE_LEN];
    __shared__ uint64_t full[2];
    transpose_tiles<false>(&src, &dst, width, height, inb, outb, full);
}

// The same with both maps encoded with CU_TENSOR_MAP_SWIZZLE_128B.
extern "C" __global__ void __launch_bounds__(TRANSPOSE_BLOCK)
    cpp_tma_transpose_swizzled(const __grid_constant__ CUtensorMap src, const __grid_constant__ CUtensorMap dst,
                               unsigned width, unsigned height) {
    __shared__ alignas(1024) float inb[2 * TILE_LEN];
    __shared__ alignas(1024) float outb[2 * TILE_LEN];
    __shared__ uint64_t full[2];
    transpose_tiles<true>(&src, &dst, width, height, inb, outb, full);
}

// The 1-D bulk copy (the twin of bulk_copy): one window of BULK_TILE floats
// per block, loaded by one cp.async.bulk on an mbarrier and stored by one
// bulk store (a tail of n % 4 floats by plain loads and stores). Launch
// ceil(n / BULK_TILE) blocks of BULK_BLOCK threads.
constexpr unsigned BULK_TILE = 4096;
constexpr unsigned BULK_BLOCK = 128;

extern "C" __global__ void __launch_bounds__(BULK_BLOCK)
    cpp_bulk_copy(const float* src, float* dst, unsigned n) {
#if __CUDA_ARCH__ >= 900
    __shared__ alignas(128) float buf[BULK_TILE];
    __shared__ uint64_t full;
    if (threadIdx.x == 0) {
        ptx::mbarrier_init(&full, 1);
        ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);
    }
    __syncthreads();
    const unsigned start = blockIdx.x * BULK_TILE;
    const unsigned len = start < n ? min(BULK_TILE, n - start) : 0;
    const unsigned whole = len & ~3u;
    if (threadIdx.x == 0) {
        for (unsigned i = whole; i < len; ++i) buf[i] = src[start + i];
        if (whole > 0) {
            (void)ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &full,
                                                 whole * 4);
            ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, buf, src + start, whole * 4, &full);
        } else {
            (void)ptx::mbarrier_arrive(&full);
        }
    }
    wait_parity(&full, 0);
    ptx::fence_proxy_async(ptx::space_shared);
    __syncthreads();
    if (threadIdx.x == 0) {
        if (whole > 0) ptx::cp_async_bulk(ptx::space_global, ptx::space_shared, dst + start, buf, whole * 4);
        for (unsigned i = whole; i < len; ++i) dst[start + i] = buf[i];
        ptx::cp_async_bulk_commit_group();
    }
    wait_stores();
#else
    __trap();
#endif
}

// The cluster-multicast experiment (twins of cg-kernels' tma_multicast_fold
// and tma_unicast_fold): clusters of MC_CLUSTER blocks along x; cluster c
// takes tiles c, c + clusters, ...; every block folds every tile of its
// cluster into one hash per thread, through a ring of MC_STAGES tiles.
// Multicast: rank 0 loads each tile for the whole cluster
// (cp.async.bulk.tensor ... .multicast::cluster, written in PTX: cuda::ptx
// offers it for sm_90a only) once every block has freed the stage by one
// remote arrival on rank 0's empty barrier; unicast: each block loads its
// own tile into a stage it has read.
constexpr unsigned MC_CLUSTER = 4;
constexpr unsigned MC_BLOCK = 128;
constexpr unsigned MC_STAGES = 4;

template <bool MULTICAST>
__device__ __forceinline__ void fold_tiles(const CUtensorMap* src, unsigned* out, unsigned width,
                                           unsigned height) {
#if __CUDA_ARCH__ >= 900
    __shared__ alignas(128) float buf[MC_STAGES * TILE_LEN];
    __shared__ uint64_t full[MC_STAGES], empty[MC_STAGES];
    if (threadIdx.x < MC_STAGES) {
        ptx::mbarrier_init(&full[threadIdx.x], 1);
        ptx::mbarrier_init(&empty[threadIdx.x], MC_CLUSTER + 0u);
        ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);
    }
    cg::cluster_group cluster = cg::this_cluster();
    const unsigned rank = cluster.block_rank();
    const unsigned t = threadIdx.x;
    const bool leader = t == 0;
    const unsigned tiles_x = (width + TILE - 1) / TILE;
    const unsigned tiles = tiles_x * ((height + TILE - 1) / TILE);
    const unsigned first = blockIdx.x / MC_CLUSTER, step = gridDim.x / MC_CLUSTER;
    if (leader) prefetch_map(src);
    auto issue = [&](unsigned trip) {
        unsigned tile = first + trip * step;
        if (!leader || tile >= tiles) return;
        unsigned s = trip % MC_STAGES;
        int x = tile % tiles_x * TILE, y = tile / tiles_x * TILE;
        float* dst = buf + s * TILE_LEN;
        if (MULTICAST) {
            (void)ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &full[s],
                                                 TILE_LEN * 4);
            if (rank == 0) {
                if (trip >= MC_STAGES) wait_parity(&empty[s], (trip / MC_STAGES - 1) & 1);
                uint16_t mask = (1u << MC_CLUSTER) - 1;
                asm volatile(
                    "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                    ".multicast::cluster [%0], [%1, {%2, %3}], [%4], %5;" ::"r"(
                        (unsigned)__cvta_generic_to_shared(dst)),
                    "l"(src), "r"(x), "r"(y), "r"((unsigned)__cvta_generic_to_shared(&full[s])), "h"(mask)
                    : "memory");
            }
        } else {
            load_tile(src, dst, &full[s], x, y);
        }
    };
    cluster.sync();
    for (unsigned trip = 0; trip < MC_STAGES; ++trip) issue(trip);
    const unsigned col = t % TILE, row0 = t / TILE * 8;
    unsigned acc = rank * 1000 + t + 1;
    unsigned trip = 0;
    for (unsigned tile = first; tile < tiles; tile += step, ++trip) {
        unsigned s = trip % MC_STAGES;
        wait_parity(&full[s], (trip / MC_STAGES) & 1);
#pragma unroll
        for (unsigned r = 0; r < 8; ++r)
            acc = acc * 31 + __float_as_uint(buf[s * TILE_LEN + (row0 + r) * TILE + col]);
        __syncthreads();
        if (MULTICAST && leader)
            ptx::mbarrier_arrive(ptx::sem_release, ptx::scope_cluster, ptx::space_cluster,
                                 cluster.map_shared_rank(&empty[s], 0));
        issue(trip + MC_STAGES);
    }
    out[blockIdx.x * MC_BLOCK + t] = acc;
    cluster.sync();
#else
    __trap();
#endif
}

extern "C" __global__ void __launch_bounds__(MC_BLOCK)
    cpp_tma_multicast_fold(const __grid_constant__ CUtensorMap src, unsigned* out, unsigned width,
                           unsigned height) {
    fold_tiles<true>(&src, out, width, height);
}

extern "C" __global__ void __launch_bounds__(MC_BLOCK)
    cpp_tma_unicast_fold(const __grid_constant__ CUtensorMap src, unsigned* out, unsigned width,
                         unsigned height) {
    fold_tiles<false>(&src, out, width, height);
}
