// The primitives experiment of `cg-lab compare --only primitives` in CUDA
// C++: CUB's block primitives, kernel for kernel the twins of the Rust
// kernels in crates/cg-kernels/src/primitives.rs (`cub_*` here, `prim_*`
// there), at blocks of 128, 256 and 512 threads, ITEMS items per thread.
// Same parameters, tiles, rounds, barriers and global accesses as the Rust
// side; see that file for what each kernel does. `__launch_bounds__(B)`, as
// in memcpy_async.cu (the Rust kernels declare their size with
// `with_threads::<B>()`).

#include <cub/block/block_adjacent_difference.cuh>
#include <cub/block/block_discontinuity.cuh>
#include <cub/block/block_exchange.cuh>
#include <cub/block/block_histogram.cuh>
#include <cub/block/block_load.cuh>
#include <cub/block/block_merge_sort.cuh>
#include <cub/block/block_radix_sort.cuh>
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_run_length_decode.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/block/block_shuffle.cuh>
#include <cub/block/block_store.cuh>
#include <cub/thread/thread_reduce.cuh>
#include <cub/warp/warp_exchange.cuh>
#include <cub/warp/warp_load.cuh>
#include <cub/warp/warp_merge_sort.cuh>
#include <cub/warp/warp_reduce.cuh>
#include <cub/warp/warp_scan.cuh>
#include <cub/warp/warp_store.cuh>
#include <cuda/std/functional>

constexpr int ITEMS = 8;
constexpr int HISTO_ITEMS = 16;
constexpr int BINS = 256;
constexpr int MERGE_ITEMS = 4;
constexpr int RLD_RUNS = 2;
constexpr int RLD_DECODED = 4;

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

// ---- The primitives added after the loads, exchanges, sorts and histograms.

struct Less {
    __device__ __forceinline__ bool operator()(unsigned a, unsigned b) const { return a < b; }
};
struct Greater {
    __device__ __forceinline__ bool operator()(unsigned a, unsigned b) const { return a > b; }
};
struct Minus {
    __device__ __forceinline__ unsigned operator()(unsigned a, unsigned b) const { return a - b; }
};

// Sort rounds on whole tiles of MERGE_ITEMS keys per thread: the keys
// xor-ed with the round constant before each round but the first, no
// barrier between rounds (CUB's merge sort starts each pass with one, the
// Rust one ends each pass with one). SORT is a block or warp merge sort
// handle made from the caller's storage.
template <int B, typename MakeSort>
__device__ __forceinline__ void merge_rounds(const unsigned* in, unsigned* out, unsigned n, unsigned reps,
                                             MakeSort make_sort) {
    constexpr unsigned TILE = B * MERGE_ITEMS;
    size_t base = size_t(blockIdx.x) * TILE;
    if (base + TILE > n) return;
    unsigned r = threadIdx.x;
    unsigned keys[MERGE_ITEMS];
    cub::LoadDirectBlocked(int(r), in + base, keys);
    for (unsigned round = 0; round < reps; ++round) {
        if (round > 0) {
            unsigned k = round_key(round);
#pragma unroll
            for (int i = 0; i < MERGE_ITEMS; ++i) keys[i] ^= k;
        }
        make_sort().Sort(keys, Less());
    }
    cub::StoreDirectBlocked(int(r), out + base, keys);
}

template <int B>
__device__ __forceinline__ void merge_sort_body(const unsigned* in, unsigned* out, unsigned n, unsigned reps) {
    using Sort = cub::BlockMergeSort<unsigned, B, MERGE_ITEMS>;
    __shared__ typename Sort::TempStorage t;
    merge_rounds<B>(in, out, n, reps, [&] { return Sort(t); });
}

// Each warp sorts its 32 * MERGE_ITEMS keys of the tile, in its own storage.
template <int B>
__device__ __forceinline__ void warp_merge_sort_body(const unsigned* in, unsigned* out, unsigned n,
                                                     unsigned reps) {
    using Sort = cub::WarpMergeSort<unsigned, MERGE_ITEMS, 32>;
    __shared__ typename Sort::TempStorage t[B / 32];
    unsigned w = threadIdx.x / 32;
    merge_rounds<B>(in, out, n, reps, [&] { return Sort(t[w]); });
}

// A whole blocked tile of ITEMS per thread, or false past the last one.
template <int B>
__device__ __forceinline__ bool whole_tile(const unsigned* in, unsigned n, size_t& base, unsigned (&x)[ITEMS]) {
    constexpr unsigned TILE = B * ITEMS;
    base = size_t(blockIdx.x) * TILE;
    if (base + TILE > n) return false;
    cub::LoadDirectBlocked(int(threadIdx.x), in + base, x);
    return true;
}

// Head and tail flags rounds (a > b: a descent), x = 3x + head + 2 tail.
template <int B>
__device__ __forceinline__ void discontinuity_body(const unsigned* in, unsigned* out, unsigned n, unsigned reps) {
    using D = cub::BlockDiscontinuity<unsigned, B>;
    __shared__ typename D::TempStorage t;
    size_t base;
    unsigned x[ITEMS];
    if (!whole_tile<B>(in, n, base, x)) return;
    for (unsigned rep = 0; rep < reps; ++rep) {
        bool heads[ITEMS], tails[ITEMS];
        D(t).FlagHeadsAndTails(heads, tails, x, Greater());
#pragma unroll
        for (int i = 0; i < ITEMS; ++i) x[i] = x[i] * 3u + (unsigned(heads[i]) + 2u * unsigned(tails[i]));
        __syncthreads();
    }
    cub::StoreDirectBlocked(int(threadIdx.x), out + base, x);
}

// SubtractLeft (RIGHT false) or SubtractRight rounds, a - b.
template <int B, bool RIGHT>
__device__ __forceinline__ void adjacent_body(const unsigned* in, unsigned* out, unsigned n, unsigned reps) {
    using A = cub::BlockAdjacentDifference<unsigned, B>;
    __shared__ typename A::TempStorage t;
    size_t base;
    unsigned x[ITEMS];
    if (!whole_tile<B>(in, n, base, x)) return;
    for (unsigned rep = 0; rep < reps; ++rep) {
        unsigned y[ITEMS];
        if (RIGHT)
            A(t).SubtractRight(x, y, Minus());
        else
            A(t).SubtractLeft(x, y, Minus());
#pragma unroll
        for (int i = 0; i < ITEMS; ++i) x[i] = y[i];
        __syncthreads();
    }
    cub::StoreDirectBlocked(int(threadIdx.x), out + base, x);
}

enum ShuffleKind { SHUFFLE_OFFSET, SHUFFLE_ROTATE, SHUFFLE_UP, SHUFFLE_DOWN };

// BlockShuffle rounds: Offset(-1) (thread 0 keeps its item) or Rotate(1) of
// each item in turn, or Up / Down of the blocked items with the previous
// round's block suffix / prefix (0 at first) as the fill; a barrier after
// each call.
template <int B, ShuffleKind S>
__device__ __forceinline__ void shuffle_body(const unsigned* in, unsigned* out, unsigned n, unsigned reps) {
    using Sh = cub::BlockShuffle<unsigned, B>;
    __shared__ typename Sh::TempStorage t;
    size_t base;
    unsigned x[ITEMS];
    if (!whole_tile<B>(in, n, base, x)) return;
    unsigned fill = 0;
    for (unsigned rep = 0; rep < reps; ++rep) {
        if (S == SHUFFLE_OFFSET || S == SHUFFLE_ROTATE) {
#pragma unroll
            for (int i = 0; i < ITEMS; ++i) {
                unsigned y = x[i];
                if (S == SHUFFLE_OFFSET)
                    Sh(t).Offset(x[i], y, -1);
                else
                    Sh(t).Rotate(x[i], y, 1u);
                x[i] = y;
                __syncthreads();
            }
        } else {
            unsigned y[ITEMS];
            if (S == SHUFFLE_UP) {
                y[0] = fill;  // thread 0's first item (CUB leaves it as it is)
                Sh(t).Up(x, y, fill);
            } else {
                y[ITEMS - 1] = fill;  // the last thread's last item
                Sh(t).Down(x, y, fill);
            }
#pragma unroll
            for (int i = 0; i < ITEMS; ++i) x[i] = y[i];
            __syncthreads();
        }
    }
    cub::StoreDirectBlocked(int(threadIdx.x), out + base, x);
}

__device__ __forceinline__ unsigned rld_length(unsigned w, unsigned k) { return 1u + (((w >> 24) + k) & 7u); }

// Run-length decode rounds over tiles of RLD_RUNS runs per thread: run
// value w ^ round_key(k), length rld_length(w, k); every window decoded,
// the thread's valid items folded into acc = 3 acc + item + offset; a
// barrier ends the round (the next round's scan reuses the storage).
template <int B>
__device__ __forceinline__ void rld_body(const unsigned* in, unsigned* out, unsigned n, unsigned reps) {
    using D = cub::BlockRunLengthDecode<unsigned, B, RLD_RUNS, RLD_DECODED>;
    __shared__ typename D::TempStorage t;
    constexpr unsigned TILE = B * RLD_RUNS;
    size_t base = size_t(blockIdx.x) * TILE;
    if (base + TILE > n) return;
    unsigned r = threadIdx.x;
    unsigned words[RLD_RUNS];
    cub::LoadDirectBlocked(int(r), in + base, words);
    unsigned acc[RLD_DECODED];
#pragma unroll
    for (int i = 0; i < RLD_DECODED; ++i) acc[i] = 0;
    for (unsigned round = 0; round < reps; ++round) {
        unsigned k = round_key(round);
        unsigned values[RLD_RUNS], lengths[RLD_RUNS];
#pragma unroll
        for (int i = 0; i < RLD_RUNS; ++i) {
            values[i] = words[i] ^ k;
            lengths[i] = rld_length(words[i], round);
        }
        unsigned total = 0;
        D rld(t, values, lengths, total);
        for (unsigned from = 0; from < total; from += B * RLD_DECODED) {
            unsigned items[RLD_DECODED], offsets[RLD_DECODED];
            rld.RunLengthDecode(items, offsets, from);
            unsigned first = from + r * RLD_DECODED;
#pragma unroll
            for (int i = 0; i < RLD_DECODED; ++i)
                if (first + i < total) acc[i] = acc[i] * 3u + items[i] + offsets[i];
        }
        __syncthreads();
    }
    cub::StoreDirectBlocked(int(r), out + size_t(blockIdx.x) * B * RLD_DECODED, acc);
}

// BlockReduce::Sum of ITEMS per thread (valid in thread 0), broadcast
// through shared memory as a CUB user does; x += total. One barrier for
// the broadcast: the next round's reduce has its own before thread 0
// writes `result` again, and its warp totals are written after every
// thread left this round's barrier.
template <int B>
__device__ __forceinline__ void block_reduce_body(const unsigned* in, unsigned* out, unsigned n, unsigned reps) {
    using R = cub::BlockReduce<unsigned, B>;
    __shared__ typename R::TempStorage t;
    __shared__ unsigned result;
    size_t base;
    unsigned x[ITEMS];
    if (!whole_tile<B>(in, n, base, x)) return;
    for (unsigned rep = 0; rep < reps; ++rep) {
        unsigned total = R(t).Sum(x);
        if (threadIdx.x == 0) result = total;
        __syncthreads();
        total = result;
#pragma unroll
        for (int i = 0; i < ITEMS; ++i) x[i] += total;
    }
    cub::StoreDirectBlocked(int(threadIdx.x), out + base, x);
}

// BlockScan::InclusiveSum of ITEMS per thread rounds (barrier: storage reuse).
template <int B>
__device__ __forceinline__ void block_scan_body(const unsigned* in, unsigned* out, unsigned n, unsigned reps) {
    using S = cub::BlockScan<unsigned, B>;
    __shared__ typename S::TempStorage t;
    size_t base;
    unsigned x[ITEMS];
    if (!whole_tile<B>(in, n, base, x)) return;
    for (unsigned rep = 0; rep < reps; ++rep) {
        S(t).InclusiveSum(x, x);
        __syncthreads();
    }
    cub::StoreDirectBlocked(int(threadIdx.x), out + base, x);
}

// A warp's sum of ITEMS per thread: ThreadReduce, WarpReduce::Sum (valid in
// lane 0), a shuffle from lane 0; x += total.
template <int B>
__device__ __forceinline__ void warp_reduce_body(const unsigned* in, unsigned* out, unsigned n, unsigned reps) {
    using WR = cub::WarpReduce<unsigned>;
    __shared__ typename WR::TempStorage t[B / 32];
    size_t base;
    unsigned x[ITEMS];
    if (!whole_tile<B>(in, n, base, x)) return;
    unsigned w = threadIdx.x / 32;
    for (unsigned rep = 0; rep < reps; ++rep) {
        unsigned total = cub::ThreadReduce(x, ::cuda::std::plus<>{});
        total = WR(t[w]).Sum(total);
        total = __shfl_sync(0xffffffffu, total, 0);
#pragma unroll
        for (int i = 0; i < ITEMS; ++i) x[i] += total;
    }
    cub::StoreDirectBlocked(int(threadIdx.x), out + base, x);
}

// A warp's inclusive prefix sums of ITEMS per thread: ThreadReduce,
// WarpScan::ExclusiveSum of the thread totals (0 in lane 0), then the
// thread's running sum from that prefix (CUB's ThreadScanInclusive is in
// its `internal` namespace, so written out as a user does).
template <int B>
__device__ __forceinline__ void warp_scan_body(const unsigned* in, unsigned* out, unsigned n, unsigned reps) {
    using WS = cub::WarpScan<unsigned>;
    __shared__ typename WS::TempStorage t[B / 32];
    size_t base;
    unsigned x[ITEMS];
    if (!whole_tile<B>(in, n, base, x)) return;
    unsigned w = threadIdx.x / 32;
    for (unsigned rep = 0; rep < reps; ++rep) {
        unsigned total = cub::ThreadReduce(x, ::cuda::std::plus<>{});
        unsigned prefix;
        WS(t[w]).ExclusiveSum(total, prefix);
        unsigned acc = prefix;
#pragma unroll
        for (int i = 0; i < ITEMS; ++i) x[i] = acc += x[i];
    }
    cub::StoreDirectBlocked(int(threadIdx.x), out + base, x);
}

// One warp tile of 32 * ITEMS per warp: WarpLoad then WarpStore with the
// same algorithm, each warp in its part of each storage; a partial warp
// tile its valid items, a warp past n nothing.
template <int B, cub::WarpLoadAlgorithm LA, cub::WarpStoreAlgorithm SA>
__device__ __forceinline__ void warp_copy_body(const unsigned* in, unsigned* out, unsigned n) {
    using Load = cub::WarpLoad<unsigned, ITEMS, LA>;
    using Store = cub::WarpStore<unsigned, ITEMS, SA>;
    __shared__ typename Load::TempStorage lt[B / 32];
    __shared__ typename Store::TempStorage st[B / 32];
    constexpr unsigned WTILE = 32 * ITEMS;
    unsigned w = threadIdx.x / 32;
    size_t base = size_t(blockIdx.x) * B * ITEMS + w * WTILE;
    if (base >= n) return;
    unsigned x[ITEMS];
    if (base + WTILE <= n) {
        Load(lt[w]).Load(in + base, x);
        Store(st[w]).Store(out + base, x);
    } else {
        int valid = int(n - base);
        Load(lt[w]).Load(in + base, x, valid, 0u);
        Store(st[w]).Store(out + base, x, valid);
    }
}

// WarpExchange rounds: exchange_body<B, true> with the warp's own exchange.
template <int B>
__device__ __forceinline__ void warp_exchange_body(const unsigned* in, unsigned* out, unsigned n, unsigned reps) {
    using Ex = cub::WarpExchange<unsigned, ITEMS>;
    __shared__ typename Ex::TempStorage t[B / 32];
    constexpr unsigned TILE = B * ITEMS;
    size_t base = size_t(blockIdx.x) * TILE;
    if (base + TILE > n) return;
    unsigned r = threadIdx.x;
    unsigned w = r / 32;
    unsigned x[ITEMS];
    cub::LoadDirectWarpStriped(int(r), in + base, x);
    for (unsigned rep = 0; rep < reps; ++rep) {
        Ex(t[w]).StripedToBlocked(x, x);
        __syncwarp();
        transform(x, r);
        Ex(t[w]).BlockedToStriped(x, x);
        __syncwarp();
    }
    cub::StoreDirectWarpStriped(int(r), out + base, x);
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

// One kernel of the added primitives; CALL in parentheses (its template
// arguments have commas).
#define PRIM_KERNEL(NAME, B, CALL)                                                                           \
    extern "C" __global__ void __launch_bounds__(B) cub_##NAME##_##B(const unsigned* in, unsigned* out,     \
                                                                     unsigned n, unsigned reps) {            \
        (void)reps;                                                                                          \
        CALL;                                                                                                \
    }

#define PRIM_KERNELS_ADDED(B)                                                                                \
    PRIM_KERNEL(merge_sort, B, (merge_sort_body<B>(in, out, n, reps)))                                       \
    PRIM_KERNEL(warp_merge_sort, B, (warp_merge_sort_body<B>(in, out, n, reps)))                             \
    PRIM_KERNEL(discontinuity, B, (discontinuity_body<B>(in, out, n, reps)))                                 \
    PRIM_KERNEL(adjacent_left, B, (adjacent_body<B, false>(in, out, n, reps)))                               \
    PRIM_KERNEL(adjacent_right, B, (adjacent_body<B, true>(in, out, n, reps)))                               \
    PRIM_KERNEL(shuffle_offset, B, (shuffle_body<B, SHUFFLE_OFFSET>(in, out, n, reps)))                      \
    PRIM_KERNEL(shuffle_rotate, B, (shuffle_body<B, SHUFFLE_ROTATE>(in, out, n, reps)))                      \
    PRIM_KERNEL(shuffle_up, B, (shuffle_body<B, SHUFFLE_UP>(in, out, n, reps)))                              \
    PRIM_KERNEL(shuffle_down, B, (shuffle_body<B, SHUFFLE_DOWN>(in, out, n, reps)))                          \
    PRIM_KERNEL(run_length_decode, B, (rld_body<B>(in, out, n, reps)))                                       \
    PRIM_KERNEL(block_reduce, B, (block_reduce_body<B>(in, out, n, reps)))                                   \
    PRIM_KERNEL(block_scan, B, (block_scan_body<B>(in, out, n, reps)))                                       \
    PRIM_KERNEL(warp_reduce, B, (warp_reduce_body<B>(in, out, n, reps)))                                     \
    PRIM_KERNEL(warp_scan, B, (warp_scan_body<B>(in, out, n, reps)))                                         \
    PRIM_KERNEL(warp_copy_direct, B, (warp_copy_body<B, cub::WARP_LOAD_DIRECT, cub::WARP_STORE_DIRECT>(in, out, n)))          \
    PRIM_KERNEL(warp_copy_striped, B, (warp_copy_body<B, cub::WARP_LOAD_STRIPED, cub::WARP_STORE_STRIPED>(in, out, n)))       \
    PRIM_KERNEL(warp_copy_vectorize, B,                                                                      \
                (warp_copy_body<B, cub::WARP_LOAD_VECTORIZE, cub::WARP_STORE_VECTORIZE>(in, out, n)))        \
    PRIM_KERNEL(warp_copy_transpose, B,                                                                      \
                (warp_copy_body<B, cub::WARP_LOAD_TRANSPOSE, cub::WARP_STORE_TRANSPOSE>(in, out, n)))        \
    PRIM_KERNEL(warp_exchange, B, (warp_exchange_body<B>(in, out, n, reps)))

PRIM_KERNELS(128)
PRIM_KERNELS(256)
PRIM_KERNELS(512)
PRIM_KERNELS_ADDED(128)
PRIM_KERNELS_ADDED(256)
PRIM_KERNELS_ADDED(512)
