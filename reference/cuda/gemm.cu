// The C++ side of `cg-lab compare --only gemm`: cuBLAS's bf16 GEMM, built
// by the lab with nvcc into a shared library (`-shared -Xcompiler -fPIC`,
// static cudart, linked with `-lcublas`) and called through these C entry
// points on the legacy default stream, the stream the lab's driver-API
// launches and events use (same primary context), on the lab's own device
// buffers.
//
// The product is the one the Rust kernel (`gemm_wgmma_bf16`) computes:
// C = A · Bᵀ with A row-major M × K, B row-major N × K (both K-major, bf16)
// and C row-major M × N in f32, accumulated in f32. cuBLAS is column-major:
// a row-major M × N matrix is its column-major N × M transpose, so the call
// computes Cᵀ = B · Aᵀ — B's storage read as a column-major K × N matrix and
// transposed (op T), A's read as a column-major K × M matrix as it is (op N),
// every leading dimension K except C's (N). That is cuBLAS's "TN" case, its
// fastest layout for these operands.
//
// The handle is made once (`gemm_cublas_init`, in the bench's setup), so a
// timed call is cublasGemmEx alone: its heuristic's choice and kernels, the
// workspace cuBLAS keeps with the handle allocated on the first call, which
// the lab's verification makes before anything is timed.

#include <cublas_v2.h>
#include <cuda_runtime.h>

static cublasHandle_t g_handle = nullptr;

// Creates the handle on the legacy default stream; 0 or a cuBLAS status.
extern "C" int gemm_cublas_init(void) {
    if (g_handle) return 0;
    cublasStatus_t s = cublasCreate(&g_handle);
    if (s != CUBLAS_STATUS_SUCCESS) {
        g_handle = nullptr;
        return (int)s;
    }
    // Stream 0 is the default already; said so that the choice is visible.
    return (int)cublasSetStream(g_handle, 0);
}

// C (M × N, f32) = A (M × K, bf16) · Bᵀ (B N × K, bf16), all row-major,
// f32 accumulation; queued, not waited for. 0 or a cuBLAS status (-1: no
// handle).
extern "C" int gemm_cublas_bf16(const void *a, const void *b, float *c, int m, int n, int k) {
    if (!g_handle) return -1;
    const float alpha = 1.0f, beta = 0.0f;
    return (int)cublasGemmEx(g_handle, CUBLAS_OP_T, CUBLAS_OP_N, n, m, k, &alpha, b, CUDA_R_16BF, k, a,
                             CUDA_R_16BF, k, &beta, c, CUDA_R_32F, n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
}

// cuBLAS's version (e.g. 130000 for 13.0.0), for the report.
extern "C" int gemm_cublas_version(void) {
    int v = 0;
    if (!g_handle || cublasGetVersion(g_handle, &v) != CUBLAS_STATUS_SUCCESS) return -1;
    return v;
}

// Destroys the handle (the bench's end).
extern "C" int gemm_cublas_destroy(void) {
    if (!g_handle) return 0;
    cublasStatus_t s = cublasDestroy(g_handle);
    g_handle = nullptr;
    return (int)s;
}
