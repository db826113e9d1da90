// The C++ side of `cg-lab compare --only device_radix_sort`: CUB's
// device-wide radix sort of u32, i32, f32 and u64 keys and of key/value pairs
// (u32 values), built by the lab with nvcc into a
// shared library (`-shared -Xcompiler -fPIC`, static cudart) and called
// through these C entry points on the legacy default stream, the stream the
// lab's driver-API launches and events use (same primary context).
//
// Each call does CUB's two-phase dispatch: the temporary storage size
// query, then the sort, with the storage allocated once and kept (grown
// when a larger size is asked for). The input is left as it was.

#include <cub/device/device_radix_sort.cuh>
#include <cuda_runtime.h>

static void *g_temp = nullptr;
static size_t g_temp_bytes = 0;

static int ensure_temp(size_t bytes) {
    if (bytes <= g_temp_bytes) return 0;
    if (g_temp) cudaFree(g_temp);
    g_temp = nullptr;
    g_temp_bytes = 0;
    if (cudaMalloc(&g_temp, bytes) != cudaSuccess) return -1;
    g_temp_bytes = bytes;
    return 0;
}

template <typename K>
static int sort_keys(const K *in, K *out, int n) {
    size_t bytes = 0;
    if (cub::DeviceRadixSort::SortKeys(nullptr, bytes, in, out, n) != cudaSuccess) return -2;
    if (ensure_temp(bytes)) return -1;
    return (int)cub::DeviceRadixSort::SortKeys(g_temp, bytes, in, out, n);
}

template <typename K>
static int sort_pairs(const K *keys_in, K *keys_out, const unsigned int *values_in, unsigned int *values_out,
                      int n) {
    size_t bytes = 0;
    if (cub::DeviceRadixSort::SortPairs(nullptr, bytes, keys_in, keys_out, values_in, values_out, n) != cudaSuccess)
        return -2;
    if (ensure_temp(bytes)) return -1;
    return (int)cub::DeviceRadixSort::SortPairs(g_temp, bytes, keys_in, keys_out, values_in, values_out, n);
}

// One pair of entry points per key type: cub_radix_sort_keys_<name>,
// cub_radix_sort_pairs_<name>.
#define CG_SORT_ENTRIES(NAME, KEY)                                                                          \
    extern "C" int cub_radix_sort_keys_##NAME(const KEY *in, KEY *out, int n) { return sort_keys(in, out, n); } \
    extern "C" int cub_radix_sort_pairs_##NAME(const KEY *keys_in, KEY *keys_out, const unsigned int *values_in, \
                                               unsigned int *values_out, int n) {                               \
        return sort_pairs(keys_in, keys_out, values_in, values_out, n);                                       \
    }

CG_SORT_ENTRIES(u32, unsigned int)
CG_SORT_ENTRIES(i32, int)
CG_SORT_ENTRIES(f32, float)
CG_SORT_ENTRIES(u64, unsigned long long)

// The last error of the runtime, for the lab's report.
extern "C" const char *cub_radix_sort_last_error(void) { return cudaGetErrorString(cudaGetLastError()); }
