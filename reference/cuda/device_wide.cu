// The C++ side of `cg-lab compare --only device_wide`: CUB's device-wide
// sum, inclusive prefix sum and segmented sum, built by the lab with nvcc into a shared
// library (`-shared -Xcompiler -fPIC`, static cudart) and called through
// these C entry points on the legacy default stream, the stream the lab's
// driver-API launches and events use (same primary context).
//
// Each call does the usual two-phase CUB dispatch: the temporary storage
// size query, then the algorithm, with the storage allocated once and kept
// (grown when a larger size is asked for), so a timed call is the
// algorithm's kernels only, as in CUB's own benchmarks.

#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_segmented_reduce.cuh>
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

template <typename T>
static int reduce_sum(const T *in, T *out, int n) {
    size_t bytes = 0;
    if (cub::DeviceReduce::Sum(nullptr, bytes, in, out, n) != cudaSuccess) return -2;
    if (ensure_temp(bytes)) return -1;
    return (int)cub::DeviceReduce::Sum(g_temp, bytes, in, out, n);
}

template <typename T>
static int inclusive_sum(const T *in, T *out, int n) {
    size_t bytes = 0;
    if (cub::DeviceScan::InclusiveSum(nullptr, bytes, in, out, n) != cudaSuccess) return -2;
    if (ensure_temp(bytes)) return -1;
    return (int)cub::DeviceScan::InclusiveSum(g_temp, bytes, in, out, n);
}

// One sum per segment [offsets[s], offsets[s + 1]) of `segments` segments.
template <typename T>
static int segmented_sum(const T *in, T *out, int segments, const unsigned int *offsets) {
    size_t bytes = 0;
    if (cub::DeviceSegmentedReduce::Sum(nullptr, bytes, in, out, segments, offsets, offsets + 1) != cudaSuccess)
        return -2;
    if (ensure_temp(bytes)) return -1;
    return (int)cub::DeviceSegmentedReduce::Sum(g_temp, bytes, in, out, segments, offsets, offsets + 1);
}

extern "C" int cub_reduce_sum_i32(const int *in, int *out, int n) { return reduce_sum(in, out, n); }
extern "C" int cub_reduce_sum_f32(const float *in, float *out, int n) { return reduce_sum(in, out, n); }
extern "C" int cub_inclusive_sum_i32(const int *in, int *out, int n) { return inclusive_sum(in, out, n); }
extern "C" int cub_inclusive_sum_f32(const float *in, float *out, int n) { return inclusive_sum(in, out, n); }
extern "C" int cub_segmented_sum_i32(const int *in, int *out, int segments, const unsigned int *offsets) {
    return segmented_sum(in, out, segments, offsets);
}
extern "C" int cub_segmented_sum_f32(const float *in, float *out, int segments, const unsigned int *offsets) {
    return segmented_sum(in, out, segments, offsets);
}
// The last error of the runtime, for the lab's report.
extern "C" const char *cub_last_error(void) { return cudaGetErrorString(cudaGetLastError()); }
