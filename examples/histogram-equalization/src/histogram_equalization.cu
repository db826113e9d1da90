// The C++ twin of kernels/src/lib.rs: the same three kernels written with
// CUB's block primitives (BlockLoad, BlockHistogram, BlockScan,
// BlockReduce, BlockStore), the same tiles and the same table.
#include <cub/cub.cuh>

constexpr int BLOCK = 256;
constexpr int ITEMS = 16;
constexpr int TILE = BLOCK * ITEMS;
constexpr int BINS = 256;
constexpr unsigned int ROWS = 16;

using Load = cub::BlockLoad<unsigned char, BLOCK, ITEMS, cub::BLOCK_LOAD_VECTORIZE>;
using Store = cub::BlockStore<unsigned char, BLOCK, ITEMS, cub::BLOCK_STORE_VECTORIZE>;
using Histogram = cub::BlockHistogram<unsigned char, BLOCK, ITEMS, BINS, cub::BLOCK_HISTO_ATOMIC>;

struct MinOp {
    __device__ __forceinline__ unsigned int operator()(unsigned int a, unsigned int b) const { return a < b ? a : b; }
};

// Block b counts the grey levels of tile b into hists[b * BINS ..].
extern "C" __global__ void __launch_bounds__(BLOCK) tile_histograms(const unsigned char *pixels, unsigned int n,
                                                                    unsigned int *hists)
{
    __shared__ typename Histogram::TempStorage bins_storage;
    __shared__ unsigned int bins[BINS];
    const unsigned int first = blockIdx.x * TILE;
    const unsigned int valid = min(n - first, (unsigned int)TILE);
    unsigned char px[ITEMS];
    if (valid == TILE) {
        Load().Load(pixels + first, px);
        Histogram(bins_storage).Histogram(px, bins);
    } else {
        // The partial tile: only its valid pixels are counted.
        Load().Load(pixels + first, px, valid, (unsigned char)0);
        Histogram(bins_storage).InitHistogram(bins);
        __syncthreads();
        for (int i = 0; i < ITEMS; ++i)
            if (threadIdx.x * ITEMS + i < valid)
                atomicAdd(&bins[px[i]], 1u);
    }
    __syncthreads();
    hists[blockIdx.x * BINS + threadIdx.x] = bins[threadIdx.x];
}

// The equalisation table from the tiles' histograms (one block of BINS threads).
extern "C" __global__ void __launch_bounds__(BINS) equalise_lut(const unsigned int *hists, unsigned int tiles,
                                                                unsigned int pixels, unsigned char *lut)
{
    __shared__ typename cub::BlockScan<unsigned int, BINS>::TempStorage scan_storage;
    __shared__ typename cub::BlockReduce<unsigned int, BINS>::TempStorage reduce_storage;
    __shared__ unsigned int cdf_min_shared;
    const unsigned int v = threadIdx.x;
    // ROWS rows' loads in flight before the first add waits (as the Rust kernel).
    unsigned int count = 0;
    unsigned int t = 0;
    for (; t + ROWS <= tiles; t += ROWS) {
#pragma unroll
        for (unsigned int k = 0; k < ROWS; ++k)
            count += hists[(t + k) * BINS + v];
    }
    for (; t < tiles; ++t)
        count += hists[t * BINS + v];
    unsigned int cdf;
    cub::BlockScan<unsigned int, BINS>(scan_storage).InclusiveSum(count, cdf);
    const unsigned int first = count > 0 ? cdf : 0xffffffffu;
    const unsigned int m = cub::BlockReduce<unsigned int, BINS>(reduce_storage).Reduce(first, MinOp());
    if (v == 0)
        cdf_min_shared = m;
    __syncthreads();
    const unsigned int cdf_min = cdf_min_shared;
    const unsigned long long range = pixels > cdf_min ? pixels - cdf_min : 0;
    unsigned char level;
    if (range == 0) {
        level = (unsigned char)v;
    } else {
        const unsigned long long above = cdf > cdf_min ? cdf - cdf_min : 0;
        level = (unsigned char)((above * 255 + range / 2) / range);
    }
    lut[v] = level;
}

// out[i] = lut[pixels[i]], a tile per block.
extern "C" __global__ void __launch_bounds__(BLOCK) apply_lut(const unsigned char *pixels, const unsigned char *lut,
                                                              unsigned int n, unsigned char *out)
{
    __shared__ unsigned int table[BINS];
    table[threadIdx.x] = lut[threadIdx.x];
    const unsigned int first = blockIdx.x * TILE;
    const unsigned int valid = min(n - first, (unsigned int)TILE);
    unsigned char px[ITEMS];
    if (valid == TILE)
        Load().Load(pixels + first, px);
    else
        Load().Load(pixels + first, px, valid, (unsigned char)0);
    __syncthreads();
    for (int i = 0; i < ITEMS; ++i)
        px[i] = (unsigned char)table[px[i]];
    if (valid == TILE)
        Store().Store(out + first, px);
    else
        Store().Store(out + first, px, valid);
}
