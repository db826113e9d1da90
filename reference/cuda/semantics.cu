// The semantic differential: NVIDIA's Cooperative Groups making the same
// calls as the Rust kernels of crates/cg-kernels/src/semantics.rs, word for
// word. `cg-lab verify` builds this file with nvcc (-O3, for the device's
// SM), runs each `cpp_sem_*` kernel next to its Rust twin on the GPU and
// compares the outputs.
//
// Each thread writes SEM_WORDS words at out[global_thread * SEM_WORDS ..].
// Where CUDA leaves a result undefined (a shuffle source that does not exist
// or does not take part) both sides write UNDEFINED after making the call.

#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
#include <cuda/atomic>
#include <cuda_bf16.h>
#include <cuda_fp16.h>

namespace cg = cooperative_groups;

#define SEM_WORDS 64
#define UNDEFINED 0xDEADBEEFu

__device__ __forceinline__ unsigned gtid() { return blockIdx.x * blockDim.x + threadIdx.x; }

__device__ __forceinline__ void put(unsigned* out, int j, unsigned v) { out[gtid() * SEM_WORDS + j] = v; }

__device__ __forceinline__ unsigned lane_id() { return threadIdx.x & 31; }

// Lanes of the caller's warp that exist (the block's last warp may be partial).
__device__ __forceinline__ unsigned warp_lanes() {
    unsigned base = threadIdx.x & ~31u;
    unsigned left = blockDim.x - base;
    return left < 32 ? left : 32;
}

enum Mode { IDX, UP, DOWN, BFLY };

// The source lane of __shfl_*_sync(mask, v, b, width) for `lane` by the PTX
// ISA's rule for shfl.sync, or -1 when the caller keeps its own value.
__device__ __forceinline__ int source_lane(Mode mode, unsigned lane, unsigned b, unsigned width) {
    b &= 31;
    unsigned seg = (32 - width) & 31;
    int min = lane & seg;
    int max = mode == UP ? min : (min | (31 & ~seg));
    int j;
    bool ok;
    switch (mode) {
    case UP: j = (int)lane - (int)b; ok = j >= max; break;
    case DOWN: j = lane + b; ok = j <= max; break;
    case BFLY: j = lane ^ b; ok = j <= max; break;
    default: j = min | (b & ~seg); ok = true; break;
    }
    return ok ? j : -1;
}

// Defined: the source is the caller, an existing lane of the same tile, or
// (the width rule) a lane of an earlier tile while the whole warp takes part.
__device__ __forceinline__ bool tile_defined(Mode mode, unsigned lane, unsigned b, unsigned width) {
    int j = source_lane(mode, lane, b, width);
    if (j < 0) return true;
    if ((unsigned)j < (lane & ~(width - 1))) return warp_lanes() == 32;
    return (unsigned)j < warp_lanes();
}

__device__ __forceinline__ unsigned checked(bool ok, unsigned v) { return ok ? v : UNDEFINED; }

template <unsigned N>
__device__ __forceinline__ void tile_shuffles(unsigned* out) {
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<N> tile = cg::tiled_partition<N>(block);
    unsigned lane = lane_id(), rank = tile.thread_rank();
    unsigned v = gtid() * 7 + 3;
    int j = 0;
    const unsigned srcs[12] = {0, 1, N - 1, N, N + 1, 31, 32, 33, 63, 0xffffffffu, rank * 3 + 1, rank + 5};
#pragma unroll
    for (int i = 0; i < 12; ++i) {
        unsigned r = tile.shfl(v, (int)srcs[i]);
        put(out, j++, checked(tile_defined(IDX, lane, srcs[i], N), r));
    }
    const unsigned deltas[8] = {0, 1, N - 1, N, 31, 32, 33, rank};
#pragma unroll
    for (int i = 0; i < 8; ++i) {
        unsigned r = tile.shfl_up(v, deltas[i]);
        put(out, j++, checked(tile_defined(UP, lane, deltas[i], N), r));
    }
#pragma unroll
    for (int i = 0; i < 8; ++i) {
        unsigned r = tile.shfl_down(v, deltas[i]);
        put(out, j++, checked(tile_defined(DOWN, lane, deltas[i], N), r));
    }
    const unsigned masks[10] = {0, 1, N - 1, N, N + 1, 12, 31, 32, 33, rank * 5};
#pragma unroll
    for (int i = 0; i < 10; ++i) {
        unsigned r = tile.shfl_xor(v, masks[i]);
        put(out, j++, checked(tile_defined(BFLY, lane, masks[i], N), r));
    }
    unsigned long long wide = ((unsigned long long)gtid() << 32) | (gtid() * 3 + 1);
    unsigned long long r = tile.shfl_xor(wide, 5);
    bool ok = tile_defined(BFLY, lane, 5, N);
    put(out, j, checked(ok, (unsigned)r));
    put(out, j + 1, checked(ok, (unsigned)(r >> 32)));
    put(out, j + 2, rank);
    put(out, j + 3, tile.meta_group_rank());
    put(out, j + 4, tile.meta_group_size());
}

extern "C" __global__ void cpp_sem_tile_shfl_1(unsigned* out) { tile_shuffles<1>(out); }
extern "C" __global__ void cpp_sem_tile_shfl_2(unsigned* out) { tile_shuffles<2>(out); }
extern "C" __global__ void cpp_sem_tile_shfl_4(unsigned* out) { tile_shuffles<4>(out); }
extern "C" __global__ void cpp_sem_tile_shfl_8(unsigned* out) { tile_shuffles<8>(out); }
extern "C" __global__ void cpp_sem_tile_shfl_16(unsigned* out) { tile_shuffles<16>(out); }
extern "C" __global__ void cpp_sem_tile_shfl_32(unsigned* out) { tile_shuffles<32>(out); }

// The lane coalesced_group::shfl(v, src) reads (NVIDIA's formula, then the
// hardware's low 5 bits).
__device__ __forceinline__ unsigned coalesced_source(unsigned mask, unsigned src) {
    unsigned lane = src == 0 ? __ffs(mask) - 1 : mask == 0xffffffffu ? src : __fns(mask, 0, (int)src + 1);
    return lane & 31;
}

__device__ __forceinline__ void coalesced_shuffles(const cg::coalesced_group& g, unsigned* out, int at) {
    unsigned rank = g.thread_rank(), size = g.num_threads();
    // The group's lanes, as the Rust side's lane_mask().
    unsigned mask = __activemask();
    unsigned v = gtid() * 11 + 5;
    int j = at;
    const unsigned srcs[10] = {0, 1, size - 1, size, size + 1, 31, 32, 33, rank * 3 + 1, 0xffffffffu};
#pragma unroll
    for (int i = 0; i < 10; ++i) {
        unsigned r = g.shfl(v, (int)srcs[i]);
        bool ok = (mask >> coalesced_source(mask, srcs[i])) & 1;
        put(out, j++, checked(ok, r));
    }
    const unsigned deltas[8] = {0, 1, size - 1, size, 31, 32, 33, rank};
#pragma unroll
    for (int i = 0; i < 8; ++i) put(out, j++, g.shfl_up(v, (int)deltas[i]));
#pragma unroll
    for (int i = 0; i < 8; ++i) put(out, j++, g.shfl_down(v, deltas[i]));
    put(out, j, rank);
    put(out, j + 1, size);
}

extern "C" __global__ void cpp_sem_coalesced_shfl(unsigned* out) {
    cg::coalesced_group all = cg::coalesced_threads();
    coalesced_shuffles(all, out, 0);
    if ((lane_id() * 7) % 5 < 3) {
        cg::coalesced_group g = cg::coalesced_threads();
        coalesced_shuffles(g, out, 28);
    } else {
        cg::coalesced_group g = cg::coalesced_threads();
        coalesced_shuffles(g, out, 28);
    }
}

extern "C" __global__ void cpp_sem_partitions(unsigned* out) {
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
    unsigned lane = lane_id();
    unsigned v = gtid() * 13 + 1;
    int label = ((lane * 5) % 7) & 3;
    cg::coalesced_group l = cg::labeled_partition(tile, label);
    put(out, 0, l.thread_rank());
    put(out, 1, l.num_threads());
    put(out, 2, l.meta_group_rank());
    put(out, 3, l.meta_group_size());
    put(out, 4, l.shfl(v, 0));
    cg::coalesced_group b = cg::binary_partition(tile, lane % 3 == 0);
    put(out, 5, b.thread_rank());
    put(out, 6, b.num_threads());
    put(out, 7, b.meta_group_rank());
    put(out, 8, b.meta_group_size());
    put(out, 9, b.shfl(v, 0));
}

extern "C" __global__ void cpp_sem_closures(unsigned* out) {
    cg::thread_block block = cg::this_thread_block();
    int v = (int)((gtid() * 7919) % 211) - 100;
    int cap = 50;
    auto max = [](int a, int b) { return a > b ? a : b; };
    auto add = [](int a, int b) { return a + b; };
    auto capped = [cap](int a, int b) { int m = a > b ? a : b; return m < cap ? m : cap; };
    cg::thread_block_tile<8> t8 = cg::tiled_partition<8>(block);
    put(out, 0, cg::reduce(t8, v, max));
    put(out, 1, cg::inclusive_scan(t8, v));
    put(out, 2, cg::exclusive_scan(t8, v));
    put(out, 3, cg::exclusive_scan(t8, v, max));
    cg::thread_block_tile<32> t32 = cg::tiled_partition<32>(block);
    put(out, 4, cg::reduce(t32, v, capped));
    put(out, 5, cg::inclusive_scan(t32, v, add));
    if (lane_id() % 3 != 0) {
        cg::coalesced_group g = cg::coalesced_threads();
        put(out, 6, cg::reduce(g, v, max));
        put(out, 7, cg::inclusive_scan(g, v, add));
        put(out, 8, cg::exclusive_scan(g, v, max));
    } else {
        put(out, 6, UNDEFINED);
        put(out, 7, UNDEFINED);
        put(out, 8, UNDEFINED);
    }
}

// The grid group's identity and is_valid() ("the grid can synchronize"):
// `cg-lab verify` runs it in a plain and in a cooperative launch.
extern "C" __global__ void cpp_sem_grid(unsigned* out) {
    cg::grid_group grid = cg::this_grid();
    put(out, 0, grid.is_valid() ? 1u : 0u);
    put(out, 1, (unsigned)grid.num_blocks());
    put(out, 2, (unsigned)grid.block_rank());
    put(out, 3, (unsigned)grid.thread_rank());
    put(out, 4, (unsigned)grid.num_threads());
    put(out, 5, grid.dim_blocks().x);
    put(out, 6, grid.block_index().x);
}

// The collectives that finish in an atomic, on thread_block_tile<8> and
// <32>: targets in the words 32.. of each tile's first thread.
extern "C" __global__ void cpp_sem_updates(unsigned* out) {
    cg::thread_block block = cg::this_thread_block();
    int v = (int)((gtid() * 7919) % 211) - 100;
    cg::thread_block_tile<8> t8 = cg::tiled_partition<8>(block);
    cg::thread_block_tile<32> t32 = cg::tiled_partition<32>(block);
    auto word = [&](unsigned tile_rank, int j) {
        int* p = reinterpret_cast<int*>(out + (gtid() - tile_rank) * SEM_WORDS + j);
        return cuda::atomic_ref<int, cuda::thread_scope_device>(*p);
    };
    unsigned r8 = t8.thread_rank();
    { auto a = word(r8, 32); cg::reduce_update_async(t8, a, v, cg::plus<int>()); }
    { auto a = word(r8, 33); cg::reduce_update_async(t8, a, v, cg::greater<int>()); }
    { auto a = word(r8, 34); cg::reduce_store_async(t8, a, v, cg::less<int>()); }
    { auto a = word(r8, 35); put(out, 0, cg::inclusive_scan_update(t8, a, v, cg::plus<int>())); }
    { auto a = word(r8, 35); put(out, 1, cg::inclusive_scan_update(t8, a, v, cg::plus<int>())); }
    { auto a = word(r8, 36); put(out, 2, cg::exclusive_scan_update(t8, a, v, cg::plus<int>())); }
    { auto a = word(r8, 36); put(out, 3, cg::exclusive_scan_update(t8, a, v, cg::plus<int>())); }
    { auto a = word(r8, 37); put(out, 4, cg::inclusive_scan_update(t8, a, v, cg::greater<int>())); }
    unsigned r32 = t32.thread_rank();
    { auto a = word(r32, 38); put(out, 5, cg::exclusive_scan_update(t32, a, v, cg::bit_xor<int>())); }
    { auto a = word(r32, 39); cg::reduce_update_async(t32, a, v, cg::bit_or<int>()); }
    { auto a = word(r32, 40); cg::reduce_update_async(t32, a, v, cg::plus<int>()); }
}

// The 16-bit floats' collectives (Rust: sem_half): reduce and the scans
// with cg::plus on __nv_bfloat16 and __half, and __hadd2 on __nv_bfloat162, on tiles of 8,
// 32 and 64 (two warps), cg::less / cg::greater on <32> (the inputs have
// no NaN and no -0.0, where the Rust side's __hmin/__hmax would differ
// from cg::less's select). Word 13: the converted input.
__device__ __forceinline__ float half_input(unsigned g) {
    unsigned m = ((g * 2654435761u) >> 8) % 1000u;
    int e = (int)(g % 5u) - 2;
    return ((float)m / 7.0f - 60.0f) * __int_as_float((127 + e) << 23);
}

__device__ __forceinline__ unsigned bits(__nv_bfloat16 x) { return __bfloat16_as_ushort(x); }
__device__ __forceinline__ unsigned bits(__half x) { return __half_as_ushort(x); }
__device__ __forceinline__ unsigned bits(__nv_bfloat162 x) {
    return bits(__low2bfloat16(x)) | (bits(__high2bfloat16(x)) << 16);
}

extern "C" __global__ void cpp_sem_half(unsigned* out) {
    cg::thread_block block = cg::this_thread_block();
    float x = half_input(gtid());
    __nv_bfloat16 v = __float2bfloat16_rn(x);
    __half h = __float2half_rn(x);
    __nv_bfloat162 p = __halves2bfloat162(v, __float2bfloat16_rn(-x * 0.75f));
    cg::thread_block_tile<8> t8 = cg::tiled_partition<8>(block);
    cg::thread_block_tile<32> t32 = cg::tiled_partition<32>(block);
    cg::thread_block_tile<64> t64 = cg::tiled_partition<64>(block);
    using bf = __nv_bfloat16;
    put(out, 0, bits(cg::reduce(t8, v, cg::plus<bf>())));
    put(out, 1, bits(cg::inclusive_scan(t8, v, cg::plus<bf>())));
    put(out, 2, bits(cg::reduce(t32, v, cg::plus<bf>())));
    put(out, 3, bits(cg::inclusive_scan(t32, v, cg::plus<bf>())));
    put(out, 4, bits(cg::exclusive_scan(t32, v, cg::plus<bf>())));
    put(out, 5, bits(cg::reduce(t32, v, cg::less<bf>())));
    put(out, 6, bits(cg::reduce(t32, v, cg::greater<bf>())));
    put(out, 7, bits(cg::reduce(t64, v, cg::plus<bf>())));
    put(out, 8, bits(cg::inclusive_scan(t64, v, cg::plus<bf>())));
    put(out, 9, bits(cg::reduce(t32, h, cg::plus<__half>())));
    put(out, 10, bits(cg::inclusive_scan(t32, h, cg::plus<__half>())));
    put(out, 11, bits(cg::reduce(t64, h, cg::plus<__half>())));
    // __nv_bfloat162 is not trivially copyable, so cg's shuffles reject
    // it: the pair travels as its 32 bits and adds with __hadd2.
    auto add2 = [](unsigned a, unsigned b) {
        __nv_bfloat162 x = *reinterpret_cast<__nv_bfloat162*>(&a);
        __nv_bfloat162 y = *reinterpret_cast<__nv_bfloat162*>(&b);
        return bits(__hadd2(x, y));
    };
    put(out, 12, cg::reduce(t32, bits(p), add2));
    put(out, 13, bits(v));
}
