// The C++ side of `cg-lab compare --only device_radix_sort`: CUB's
// device-wide radix sort of u32 keys and of u32 key/value pairs, built by the lab with nvcc into a
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

extern "C" int cub_radix_sort_keys_u32(const unsigned int *in, unsigned int *out, int n) {
    size_t bytes = 0;
    if (cub::DeviceRadixSort::SortKeys(nullptr, bytes, in, out, n) != cudaSuccess) return -2;
    if (ensure_temp(bytes)) return -1;
    return (int)cub::DeviceRadixSort::SortKeys(g_temp, bytes, in, out, n);
}

extern "C" int cub_radix_sort_pairs_u32(const unsigned int *keys_in, unsigned int *keys_out,
                                        const unsigned int *values_in, unsigned int *values_out, int n) {
    size_t bytes = 0;
    if (cub::DeviceRadixSort::SortPairs(nullptr, bytes, keys_in, keys_out, values_in, values_out, n) != cudaSuccess)
        return -2;
    if (ensure_temp(bytes)) return -1;
    return (int)cub::DeviceRadixSort::SortPairs(g_temp, bytes, keys_in, keys_out, values_in, values_out, n);
}

// The last error of the runtime, for the lab's report.
extern "C" const char *cub_radix_sort_last_error(void) { return cudaGetErrorString(cudaGetLastError()); }
