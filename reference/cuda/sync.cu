// `cg-lab sync`: what one sync() costs with NVIDIA's Cooperative Groups —
// the twins of crates/cg-kernels/src/sync.rs, loop for loop. `cg-lab sync`
// builds this file with nvcc (-O3, for the device's SM) and times each
// `cpp_sync_*` kernel next to its Rust twin, launches interleaved.
//
// Every kernel: `iters` times, each member stores its running sum mixed with a
// word of the iteration into one half of a double buffer, the group syncs, and
// the member adds its partner's word (the next rank, cyclically). Each store
// depends on the previous load, so iterations cannot overlap. Thread 0 of every block
// reads clock64() around the loop. Parameters: acc (one word per thread),
// cycles (one per block), scratch (the grid's double buffer, 2 * gridDim.x
// words), iters.

#include <cooperative_groups.h>
#include <cuda/barrier>
#include <cuda/ptx>
#include <cuda/std/utility>

namespace cg = cooperative_groups;

__device__ __forceinline__ unsigned word(unsigned i, unsigned who) { return i * 0x9E3779B9u + who; }
__device__ __forceinline__ unsigned stored(unsigned sum, unsigned i, unsigned who) { return sum ^ word(i, who); }

__device__ __forceinline__ void finish(unsigned* acc, unsigned long long* cycles, unsigned sum,
                                       long long t0, long long t1) {
    acc[blockIdx.x * blockDim.x + threadIdx.x] = sum;
    if (threadIdx.x == 0) cycles[blockIdx.x] = (unsigned long long)(t1 - t0);
}

// The loop on a group of consecutive threads (a tile or the block).
template <class G>
__device__ __forceinline__ void exchange(const G& g, unsigned* acc, unsigned long long* cycles, unsigned iters) {
    __shared__ unsigned buf[2048];
    unsigned t = threadIdx.x;
    unsigned r = g.thread_rank(), n = g.num_threads();
    unsigned partner = t - r + (r + 1) % n;
    unsigned sum = 0;
    long long t0 = clock64();
    // Two iterations per trip, one per half of the buffer, as the Rust twin.
#pragma unroll 1
    for (unsigned i = 0; i < iters; i += 2) {
        buf[t] = stored(sum, i, r);
        g.sync();
        sum += buf[partner];
        if (i + 1 < iters) {
            buf[1024 + t] = stored(sum, i + 1, r);
            g.sync();
            sum += buf[1024 + partner];
        }
    }
    long long t1 = clock64();
    finish(acc, cycles, sum, t0, t1);
}

template <unsigned N>
__device__ __forceinline__ void sync_tile(unsigned* acc, unsigned long long* cycles, unsigned iters) {
    auto block = cg::this_thread_block();
    exchange(cg::tiled_partition<N>(block), acc, cycles, iters);
}

#define TILE(N)                                                                                         \
    extern "C" __global__ void cpp_sync_tile_##N(unsigned* acc, unsigned long long* cycles, unsigned*, \
                                                 unsigned iters) {                                      \
        sync_tile<N>(acc, cycles, iters);                                                               \
    }
TILE(1)
TILE(2)
TILE(4)
TILE(8)
TILE(16)
TILE(32)
TILE(64)
TILE(128)
TILE(256)
TILE(512)
TILE(1024)

extern "C" __global__ void cpp_sync_block(unsigned* acc, unsigned long long* cycles, unsigned*, unsigned iters) {
    exchange(cg::this_thread_block(), acc, cycles, iters);
}

// The block's split barrier: barrier_wait(barrier_arrive()).
struct SplitBlock {
    cg::thread_block b;
    __device__ unsigned thread_rank() const { return b.thread_rank(); }
    __device__ unsigned num_threads() const { return b.num_threads(); }
    __device__ void sync() const {
        auto token = b.barrier_arrive();
        b.barrier_wait(cuda::std::move(token));
    }
};

extern "C" __global__ void cpp_sync_block_split(unsigned* acc, unsigned long long* cycles, unsigned*,
                                                unsigned iters) {
    exchange(SplitBlock{cg::this_thread_block()}, acc, cycles, iters);
}

// 64-thread tiles on cuda::barrier (an mbarrier each, 2 arrivals): each
// warp syncs, its lane 0 arrives and waits, the warp syncs again — the twin
// of the Rust kernel written with the mbarrier API.
using block_barrier = cuda::barrier<cuda::thread_scope_block>;

struct MbarTile64 {
    block_barrier* bar;
    unsigned r;
    __device__ unsigned thread_rank() const { return r; }
    __device__ unsigned num_threads() const { return 64; }
    __device__ void sync() const {
        __syncwarp();
        if ((threadIdx.x & 31) == 0) bar->arrive_and_wait();
        __syncwarp();
    }
};

extern "C" __global__ void cpp_sync_mbarrier_tile64(unsigned* acc, unsigned long long* cycles, unsigned*,
                                                    unsigned iters) {
    __shared__ block_barrier bars[16];
    if (threadIdx.x < 16) init(&bars[threadIdx.x], 2);
    __syncthreads();
    exchange(MbarTile64{&bars[(threadIdx.x / 64) & 15], threadIdx.x % 64}, acc, cycles, iters);
}

// 64-thread tiles, every thread arriving (64 per phase), no warp barrier.
struct MbarTile64All {
    block_barrier* bar;
    unsigned r;
    __device__ unsigned thread_rank() const { return r; }
    __device__ unsigned num_threads() const { return 64; }
    __device__ void sync() const { bar->arrive_and_wait(); }
};

extern "C" __global__ void cpp_sync_mbarrier_tile64_all(unsigned* acc, unsigned long long* cycles, unsigned*,
                                                        unsigned iters) {
    __shared__ block_barrier bars[16];
    if (threadIdx.x < 16) init(&bars[threadIdx.x], 64);
    __syncthreads();
    exchange(MbarTile64All{&bars[(threadIdx.x / 64) & 15], threadIdx.x % 64}, acc, cycles, iters);
}

// 64-thread tiles, lane 0 arriving for its warp, every lane waiting on the
// phase's parity (cuda::ptx's mbarrier functions: cuda::barrier has no
// parity wait).
struct MbarTile64Parity {
    uint64_t* bar;
    unsigned r;
    unsigned* phase;
    __device__ unsigned thread_rank() const { return r; }
    __device__ unsigned num_threads() const { return 64; }
    __device__ void sync() const {
        __syncwarp();
        if ((threadIdx.x & 31) == 0) (void)cuda::ptx::mbarrier_arrive(bar);
        while (!cuda::ptx::mbarrier_try_wait_parity(bar, *phase)) {
        }
        *phase ^= 1;
    }
};

extern "C" __global__ void cpp_sync_mbarrier_tile64_parity(unsigned* acc, unsigned long long* cycles,
                                                           unsigned*, unsigned iters) {
    __shared__ uint64_t bars[16];
    if (threadIdx.x < 16) cuda::ptx::mbarrier_init(&bars[threadIdx.x], 2);
    __syncthreads();
    unsigned phase = 0;
    exchange(MbarTile64Parity{&bars[(threadIdx.x / 64) & 15], threadIdx.x % 64, &phase}, acc, cycles, iters);
}

// The whole block on one cuda::barrier: every thread arrive_and_wait().
struct MbarBlock {
    block_barrier* bar;
    __device__ unsigned thread_rank() const { return threadIdx.x; }
    __device__ unsigned num_threads() const { return blockDim.x; }
    __device__ void sync() const { bar->arrive_and_wait(); }
};

extern "C" __global__ void cpp_sync_mbarrier_block(unsigned* acc, unsigned long long* cycles, unsigned*,
                                                   unsigned iters) {
    __shared__ block_barrier bar;
    if (threadIdx.x == 0) init(&bar, blockDim.x);
    __syncthreads();
    exchange(MbarBlock{&bar}, acc, cycles, iters);
}

// cluster.sync(); thread 0 reads the next block's word through DSMEM.
extern "C" __global__ void cpp_sync_cluster(unsigned* acc, unsigned long long* cycles, unsigned*, unsigned iters) {
    __shared__ unsigned buf[2];
    auto cluster = cg::this_cluster();
    unsigned rank = cluster.block_rank();
    unsigned* peer = cluster.map_shared_rank(buf, (rank + 1) % cluster.num_blocks());
    bool lead = threadIdx.x == 0;
    unsigned sum = 0;
    long long t0 = clock64();
    for (unsigned i = 0; i < iters; ++i) {
        unsigned half = i & 1;
        if (lead) buf[half] = stored(sum, i, rank);
        cluster.sync();
        if (lead) sum += peer[half];
    }
    long long t1 = clock64();
    cluster.sync();
    finish(acc, cycles, sum, t0, t1);
}

// grid.sync() under a cooperative launch; thread 0 reads the next block's
// word from global memory.
extern "C" __global__ void cpp_sync_grid(unsigned* acc, unsigned long long* cycles, unsigned* scratch,
                                         unsigned iters) {
    auto grid = cg::this_grid();
    unsigned b = grid.block_rank(), nb = grid.num_blocks();
    unsigned next = (b + 1) % nb;
    bool lead = threadIdx.x == 0;
    unsigned sum = 0;
    long long t0 = clock64();
    for (unsigned i = 0; i < iters; ++i) {
        unsigned half = (i & 1) * nb;
        if (lead) ((volatile unsigned*)scratch)[half + b] = stored(sum, i, b);
        grid.sync();
        if (lead) sum += ((volatile unsigned*)scratch)[half + next];
    }
    long long t1 = clock64();
    finish(acc, cycles, sum, t0, t1);
}
