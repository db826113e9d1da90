// The C++ twins of the Rust kernels in kernels/src/lib.rs: the reduction
// sample's Cooperative Groups kernels 8 and 9, for int, with C names.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

namespace cg = cooperative_groups;

extern "C" __global__ void cg_reduce(const int *input, int *partials, unsigned int n)
{
    extern __shared__ int sdata[];
    cg::thread_block cta = cg::this_thread_block();
    cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cta);
    unsigned int cta_size = cta.size();
    unsigned int rank = cta.thread_rank();
    unsigned int stride = gridDim.x * cta_size;
    int v = 0;
    for (unsigned int i = blockIdx.x * cta_size + rank; i < n; i += stride) {
        v += input[i];
    }
    sdata[rank] = v;
    for (unsigned int half = cta_size >> 1; half >= 32; half >>= 1) {
        cta.sync();
        if (rank < half) {
            v += sdata[rank + half];
            sdata[rank] = v;
        }
    }
    cta.sync();
    if (tile.meta_group_rank() == 0) {
        v = cg::reduce(tile, v, cg::plus<int>());
    }
    if (rank == 0) {
        partials[blockIdx.x] = v;
    }
}

template <unsigned int B, unsigned int G>
__device__ void multi_warp(const int *input, int *partials, unsigned int n)
{
    __shared__ int sums[32];
    __shared__ cg::block_tile_memory<B> scratch;
    auto cta = cg::this_thread_block(scratch);
    auto tile = cg::tiled_partition<G>(cta);
    unsigned int grid_size = B * gridDim.x;
    int v = 0;
    if ((n & (n - 1)) == 0) {
        unsigned int i = blockIdx.x * B * 2 + threadIdx.x;
        grid_size <<= 1;
        while (i < n) {
            v += input[i];
            if (i + B < n) {
                v += input[i + B];
            }
            i += grid_size;
        }
    } else {
        for (unsigned int i = blockIdx.x * B + threadIdx.x; i < n; i += grid_size) {
            v += input[i];
        }
    }
    v = cg::reduce(tile, v, cg::plus<int>());
    if (tile.thread_rank() == 0) {
        sums[tile.meta_group_rank()] = v;
    }
    cg::sync(cta);
    if (threadIdx.x == 0) {
        int total = 0;
        for (unsigned int k = 0; k < tile.meta_group_size(); k++) {
            total += sums[k];
        }
        partials[blockIdx.x] = total;
    }
}

extern "C" __global__ void multi_warp_cg_reduce_256_128(const int *input, int *partials, unsigned int n)
{
    multi_warp<256, 128>(input, partials, n);
}
