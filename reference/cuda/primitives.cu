// The primitives experiment of `cg-lab compare --only primitives` in CUDA
// C++: CUB's block primitives, kernel for kernel the twins of the Rust
// kernels in crates/cg-kernels/src/primitives.rs (`cub_*` here, `prim_*`
// there), at blocks of 128, 256 and 512 threads, ITEMS items per thread.
// Same parameters, tiles, rounds, barriers and global accesses as the Rust
// side; see that file for what each kernel does. `__launch_bounds__(B)`, as
// in memcpy_async.cu (the Rust kernels declare their size with
// `with_threads::<B>()`).

#include <cub/block/block_exchange.cuh>
#include <cub/block/block_histogram.cuh>
#include <cub/block/block_load.cuh>
#include <cub/block/block_radix_sort.cuh>
#include <cub/block/block_store.cuh>

constexpr int ITEMS = 8;
constexpr int HISTO_ITEMS = 16;
constexpr int BINS = 256;

__device__ __forceinline__ unsigned round_key(unsigned r) { return r * 0x9e3779b9u; }

// One tile per block: BlockLoad then BlockStore with the same algorithm,
// each with its own storage.
template <int B, cub::BlockLoadAlgorithm LA, cub::BlockStoreAlgorithm SA>
__device__ __forceinline__ void copy_body(const unsigned* in, unsigned* out, unsigned n) {
    using Load = cub::BlockLoad<unsigned, B, ITEMS, LA>;
    using Store = cub::BlockStore<unsigned, B, ITEMS, SA>;
    __shared__ typename Load::TempStorage lt;
    __shared__ typename Store::TempStorage st;
    constexpr unsigned TILE = B * ITEMS;
    size_t base = size_t(blockIdx.x) * TILE;
    if (base >= n) return;
    unsigned x[ITEMS];
    if (base + TILE <= n) {
        Load(lt).Load(in + base, x);
        Store(st).Store(out + base, x);
    } else {
        int valid = int(n - base);
        Load(lt).Load(in + base, x, valid, 0u);
        Store(st).Store(out + base, x, valid);
    }
}

__device__ __forceinline__ void transform(unsigned (&x)[ITEMS], unsigned rank) {
#pragma unroll
    for (int i = 0; i < ITEMS; ++i) x[i] = x[i] * 3u + (rank * ITEMS + i);
}

// Exchange rounds on whole tiles.
template <int B, bool WARP>
__device__ __forceinline__ void exchange_body(const unsigned* in, unsigned* out, unsigned n, unsigned reps) {
    using Ex = cub::BlockExchange<unsigned, B, ITEMS>;
    __shared__ typename Ex::TempStorage t;
    constexpr unsigned TILE = B * ITEMS;
    size_t base = size_t(blockIdx.x) * TILE;
    if (base + TILE > n) return;
    unsigned r = threadIdx.x;
    unsigned x[ITEMS];
    if (WARP)
        cub::LoadDirectWarpStriped(int(r), in + base, x);
    else
        cub::LoadDirectStriped<B>(int(r), in + base, x);
    for (unsigned rep = 0; rep < reps; ++rep) {
        if (WARP) {
            Ex(t).WarpStripedToBlocked(x, x);
            __syncwarp();
            transform(x, r);
            Ex(t).BlockedToWarpStriped(x, x);
            __syncwarp();
        } else {
            Ex(t).StripedToBlocked(x, x);
            __syncthreads();
            transform(x, r);
            Ex(t).BlockedToStriped(x, x);
            __syncthreads();
        }
    }
    if (WARP)
        cub::StoreDirectWarpStriped(int(r), out + base, x);
    else
        cub::StoreDirectStriped<B>(int(r), out + base, x);
}

// The sort of each kernel: keys only (CUB's default value type), or pairs.
template <int B, bool PAIRS>
struct SortOf {
    using T = cub::BlockRadixSort<unsigned, B, ITEMS, unsigned>;
};
template <int B>
struct SortOf<B, false> {
    using T = cub::BlockRadixSort<unsigned, B, ITEMS>;
};

// Radix-sort rounds on whole tiles; pairs: values are the tile positions,
// stored n after the keys.
template <int B, bool PAIRS>
__device__ __forceinline__ void radix_body(const unsigned* in, unsigned* out, unsigned n, unsigned reps) {
    using Sort = typename SortOf<B, PAIRS>::T;
    __shared__ typename Sort::TempStorage t;
    constexpr unsigned TILE = B * ITEMS;
    size_t base = size_t(blockIdx.x) * TILE;
    if (base + TILE > n) return;
    unsigned r = threadIdx.x;
    unsigned keys[ITEMS];
    unsigned values[ITEMS];
    cub::LoadDirectBlocked(int(r), in + base, keys);
#pragma unroll
    for (int i = 0; i < ITEMS; ++i) values[i] = r * ITEMS + i;
    for (unsigned round = 0; round < reps; ++round) {
        if (round > 0) {
            unsigned k = round_key(round);
#pragma unroll
            for (int i = 0; i < ITEMS; ++i) keys[i] ^= k;
            __syncthreads();
        }
        if constexpr (PAIRS)
            Sort(t).Sort(keys, values);
        else
            Sort(t).Sort(keys);
    }
    cub::StoreDirectBlocked(int(r), out + base, keys);
    if (PAIRS) cub::StoreDirectBlocked(int(r), out + n + base, values);
}

// Histogram of the whole tiles of n bytes, each counted reps times.
template <int B, cub::BlockHistogramAlgorithm A>
__device__ __forceinline__ void histo_body(const unsigned* in, unsigned* out, unsigned n, unsigned reps) {
    using H = cub::BlockHistogram<unsigned char, B, HISTO_ITEMS, BINS, A>;
    __shared__ typename H::TempStorage t;
    __shared__ unsigned bins[BINS];
    H h(t);
    h.InitHistogram(bins);
    __syncthreads();
    constexpr unsigned TILE = B * HISTO_ITEMS;
    unsigned tiles = n / TILE;
    const unsigned char* bytes = reinterpret_cast<const unsigned char*>(in);
    unsigned r = threadIdx.x;
    for (unsigned tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
        unsigned char s[HISTO_ITEMS];
        cub::LoadDirectBlocked(int(r), bytes + size_t(tile) * TILE, s);
        for (unsigned rep = 0; rep < reps; ++rep) {
            h.Composite(s, bins);
            if (A == cub::BLOCK_HISTO_SORT) __syncthreads();
        }
    }
    __syncthreads();
    for (unsigned b = r; b < BINS; b += B)
        if (bins[b] != 0) atomicAdd(out + b, bins[b]);
}

#define PRIM_KERNELS(B)                                                                                              \
    extern "C" __global__ void __launch_bounds__(B) cub_copy_direct_##B(const unsigned* in, unsigned* out,         \
                                                                        unsigned n, unsigned) {                   \
        copy_body<B, cub::BLOCK_LOAD_DIRECT, cub::BLOCK_STORE_DIRECT>(in, out, n);                                \
    }                                                                                                              \
    extern "C" __global__ void __launch_bounds__(B) cub_copy_striped_##B(const unsigned* in, unsigned* out,        \
                                                                         unsigned n, unsigned) {                  \
        copy_body<B, cub::BLOCK_LOAD_STRIPED, cub::BLOCK_STORE_STRIPED>(in, out, n);                              \
    }                                                                                                              \
    extern "C" __global__ void __launch_bounds__(B) cub_copy_vectorize_##B(const unsigned* in, unsigned* out,      \
                                                                           unsigned n, unsigned) {                \
        copy_body<B, cub::BLOCK_LOAD_VECTORIZE, cub::BLOCK_STORE_VECTORIZE>(in, out, n);                          \
    }                                                                                                              \
    extern "C" __global__ void __launch_bounds__(B) cub_copy_transpose_##B(const unsigned* in, unsigned* out,      \
                                                                           unsigned n, unsigned) {                \
        copy_body<B, cub::BLOCK_LOAD_TRANSPOSE, cub::BLOCK_STORE_TRANSPOSE>(in, out, n);                          \
    }                                                                                                              \
    extern "C" __global__ void __launch_bounds__(B) cub_copy_warp_transpose_##B(const unsigned* in, unsigned* out, \
                                                                                unsigned n, unsigned) {           \
        copy_body<B, cub::BLOCK_LOAD_WARP_TRANSPOSE, cub::BLOCK_STORE_WARP_TRANSPOSE>(in, out, n);                \
    }                                                                                                              \
    extern "C" __global__ void __launch_bounds__(B) cub_exchange_##B(const unsigned* in, unsigned* out,            \
                                                                     unsigned n, unsigned reps) {                 \
        exchange_body<B, false>(in, out, n, reps);                                                                 \
    }                                                                                                              \
    extern "C" __global__ void __launch_bounds__(B) cub_exchange_warp_##B(const unsigned* in, unsigned* out,       \
                                                                          unsigned n, unsigned reps) {            \
        exchange_body<B, true>(in, out, n, reps);                                                                  \
    }                                                                                                              \
    extern "C" __global__ void __launch_bounds__(B) cub_radix_keys_##B(const unsigned* in, unsigned* out,          \
                                                                       unsigned n, unsigned reps) {               \
        radix_body<B, false>(in, out, n, reps);                                                                    \
    }                                                                                                              \
    extern "C" __global__ void __launch_bounds__(B) cub_radix_pairs_##B(const unsigned* in, unsigned* out,         \
                                                                        unsigned n, unsigned reps) {              \
        radix_body<B, true>(in, out, n, reps);                                                                     \
    }                                                                                                              \
    extern "C" __global__ void __launch_bounds__(B) cub_histo_atomic_##B(const unsigned* in, unsigned* out,        \
                                                                         unsigned n, unsigned reps) {             \
        histo_body<B, cub::BLOCK_HISTO_ATOMIC>(in, out, n, reps);                                                  \
    }                                                                                                              \
    extern "C" __global__ void __launch_bounds__(B) cub_histo_sort_##B(const unsigned* in, unsigned* out,          \
                                                                       unsigned n, unsigned reps) {               \
        histo_body<B, cub::BLOCK_HISTO_SORT>(in, out, n, reps);                                                    \
    }

PRIM_KERNELS(128)
PRIM_KERNELS(256)
PRIM_KERNELS(512)
