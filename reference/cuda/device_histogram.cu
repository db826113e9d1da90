// The C++ side of `cg-lab compare --only device_histogram`: CUB's
// device-wide even histogram of u32 samples, built by the lab with nvcc
// into a shared library (`-shared -Xcompiler -fPIC`, static cudart) and
// called through this C entry point on the legacy default stream, the
// stream the lab's driver-API launches and events use (same primary
// context).
//
// Each call does CUB's two-phase dispatch: the temporary storage size
// query, then the algorithm (which clears the histogram itself), with the
// storage allocated once and kept (grown when a larger size is asked for).

#include <cub/device/device_histogram.cuh>
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

// `bins` even bins over [lower, upper) of the first `n` samples.
extern "C" int cub_histogram_even_u32(const unsigned int *samples, unsigned int *hist, int bins,
                                      unsigned int lower, unsigned int upper, int n) {
    size_t bytes = 0;
    if (cub::DeviceHistogram::HistogramEven(nullptr, bytes, samples, hist, bins + 1, lower, upper, n) !=
        cudaSuccess)
        return -2;
    if (ensure_temp(bytes)) return -1;
    return (int)cub::DeviceHistogram::HistogramEven(g_temp, bytes, samples, hist, bins + 1, lower, upper, n);
}

// The last error of the runtime, for the lab's report.
extern "C" const char *cub_histogram_last_error(void) { return cudaGetErrorString(cudaGetLastError()); }

// The bins [levels[i], levels[i + 1]) of the first `n` samples
// (`num_levels` levels in device memory; not const, so that CUB's level
// type is `unsigned int` whether its parameter is `LevelT*` or
// `const LevelT*`).
extern "C" int cub_histogram_range_u32(const unsigned int *samples, unsigned int *hist,
                                       unsigned int *levels, int num_levels, int n) {
    size_t bytes = 0;
    if (cub::DeviceHistogram::HistogramRange(nullptr, bytes, samples, hist, num_levels, levels, n) !=
        cudaSuccess)
        return -2;
    if (ensure_temp(bytes)) return -1;
    return (int)cub::DeviceHistogram::HistogramRange(g_temp, bytes, samples, hist, num_levels, levels, n);
}
