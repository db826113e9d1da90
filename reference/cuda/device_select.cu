// The C++ side of `cg-lab compare --only device_select`: CUB's device-wide
// selections of int (flagged, by a predicate, unique), its partitions
// (flagged, by a predicate) and its run-length encoding, built by the lab
// with nvcc into a shared library (`-shared -Xcompiler -fPIC`, static
// cudart) and called through these C entry points on the legacy default
// stream, the stream the lab's driver-API launches and events use (same
// primary context).
//
// Each call does CUB's two-phase dispatch: the temporary storage size
// query, then the algorithm, with the storage allocated once and kept
// (grown when a larger size is asked for).

#include <cub/device/device_partition.cuh>
#include <cub/device/device_run_length_encode.cuh>
#include <cub/device/device_select.cuh>
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

// The predicate of the Rust side's `device_select_if_i32`.
struct LessThan {
    int pivot;
    __host__ __device__ __forceinline__ bool operator()(const int &x) const { return x < pivot; }
};

extern "C" int cub_select_flagged_i32(const int *in, const unsigned char *flags, int *out, unsigned int *count,
                                      int n) {
    size_t bytes = 0;
    if (cub::DeviceSelect::Flagged(nullptr, bytes, in, flags, out, count, n) != cudaSuccess) return -2;
    if (ensure_temp(bytes)) return -1;
    return (int)cub::DeviceSelect::Flagged(g_temp, bytes, in, flags, out, count, n);
}

extern "C" int cub_select_if_i32(const int *in, int pivot, int *out, unsigned int *count, int n) {
    size_t bytes = 0;
    if (cub::DeviceSelect::If(nullptr, bytes, in, out, count, n, LessThan{pivot}) != cudaSuccess) return -2;
    if (ensure_temp(bytes)) return -1;
    return (int)cub::DeviceSelect::If(g_temp, bytes, in, out, count, n, LessThan{pivot});
}

extern "C" int cub_select_unique_i32(const int *in, int *out, unsigned int *count, int n) {
    size_t bytes = 0;
    if (cub::DeviceSelect::Unique(nullptr, bytes, in, out, count, n) != cudaSuccess) return -2;
    if (ensure_temp(bytes)) return -1;
    return (int)cub::DeviceSelect::Unique(g_temp, bytes, in, out, count, n);
}

extern "C" int cub_partition_flagged_i32(const int *in, const unsigned char *flags, int *out, unsigned int *count,
                                         int n) {
    size_t bytes = 0;
    if (cub::DevicePartition::Flagged(nullptr, bytes, in, flags, out, count, n) != cudaSuccess) return -2;
    if (ensure_temp(bytes)) return -1;
    return (int)cub::DevicePartition::Flagged(g_temp, bytes, in, flags, out, count, n);
}

extern "C" int cub_partition_if_i32(const int *in, int pivot, int *out, unsigned int *count, int n) {
    size_t bytes = 0;
    if (cub::DevicePartition::If(nullptr, bytes, in, out, count, n, LessThan{pivot}) != cudaSuccess) return -2;
    if (ensure_temp(bytes)) return -1;
    return (int)cub::DevicePartition::If(g_temp, bytes, in, out, count, n, LessThan{pivot});
}

extern "C" int cub_rle_encode_i32(const int *in, int *unique, unsigned int *counts, unsigned int *num_runs, int n) {
    size_t bytes = 0;
    if (cub::DeviceRunLengthEncode::Encode(nullptr, bytes, in, unique, counts, num_runs, n) != cudaSuccess) return -2;
    if (ensure_temp(bytes)) return -1;
    return (int)cub::DeviceRunLengthEncode::Encode(g_temp, bytes, in, unique, counts, num_runs, n);
}

// The last error of the runtime, for the lab's report.
extern "C" const char *cub_select_last_error(void) { return cudaGetErrorString(cudaGetLastError()); }
