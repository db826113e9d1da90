// The C++ twin of kernels/src/lib.rs: conjugateGradientMultiBlockCG's solver
// kernel, one cooperative launch with grid syncs between the steps.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

namespace cg = cooperative_groups;

__device__ __forceinline__ void spmv(const int *rows, const int *cols, const float *vals, int n, float alpha,
                                     const float *x, float *y, const cg::grid_group &grid)
{
    for (unsigned long long i = grid.thread_rank(); i < (unsigned long long)n; i += grid.size()) {
        float out = 0.0f;
        for (int j = rows[i]; j < rows[i + 1]; j++)
            out += alpha * vals[j] * x[cols[j]];
        y[i] = out;
    }
}

__device__ __forceinline__ void saxpy(const float *x, float *y, float a, int n, const cg::grid_group &grid)
{
    for (unsigned long long i = grid.thread_rank(); i < (unsigned long long)n; i += grid.size())
        y[i] = a * x[i] + y[i];
}

__device__ __forceinline__ void scale_and_saxpy(const float *x, float *y, float a, float scale, int n,
                                                const cg::grid_group &grid)
{
    for (unsigned long long i = grid.thread_rank(); i < (unsigned long long)n; i += grid.size())
        y[i] = a * x[i] + scale * y[i];
}

__device__ __forceinline__ void copy(const float *x, float *y, int n, const cg::grid_group &grid)
{
    for (unsigned long long i = grid.thread_rank(); i < (unsigned long long)n; i += grid.size())
        y[i] = x[i];
}

__device__ __forceinline__ void dot(const float *a, const float *b, double *result, int n,
                                    const cg::thread_block &cta, const cg::grid_group &grid)
{
    extern __shared__ double tmp[];
    double sum = 0.0;
    for (unsigned long long i = grid.thread_rank(); i < (unsigned long long)n; i += grid.size())
        sum += (double)(a[i] * b[i]);
    cg::thread_block_tile<32> tile32 = cg::tiled_partition<32>(cta);
    sum = cg::reduce(tile32, sum, cg::plus<double>());
    if (tile32.thread_rank() == 0)
        tmp[tile32.meta_group_rank()] = sum;
    cta.sync();
    if (tile32.meta_group_rank() == 0) {
        const unsigned int lane = tile32.thread_rank();
        sum = lane < tile32.meta_group_size() ? tmp[lane] : 0.0;
        sum = cg::reduce(tile32, sum, cg::plus<double>());
        if (lane == 0)
            atomicAdd(result, sum);
    }
}

extern "C" __global__ void gpu_conjugate_gradient(const int *rows, const int *cols, const float *vals, float *x,
                                                  float *ax, float *p, float *r, double *dot_result, int nnz,
                                                  int n, float tol)
{
    cg::thread_block cta = cg::this_thread_block();
    cg::grid_group grid = cg::this_grid();
    const bool first = grid.thread_rank() == 0;
    const int max_iter = 10000;
    const float alpha = 1.0f, alpham1 = -1.0f;
    volatile double *dot_v = dot_result;

    spmv(rows, cols, vals, n, alpha, x, ax, grid);
    grid.sync();
    saxpy(ax, r, alpham1, n, grid);
    grid.sync();
    dot(r, r, dot_result, n, cta, grid);
    grid.sync();
    float r1 = (float)*dot_v, r0 = 0.0f;
    int k = 1;
    while (r1 > tol * tol && k <= max_iter) {
        if (k > 1)
            scale_and_saxpy(r, p, alpha, r1 / r0, n, grid);
        else
            copy(r, p, n, grid);
        grid.sync();
        spmv(rows, cols, vals, n, alpha, p, ax, grid);
        if (first)
            *dot_v = 0.0;
        grid.sync();
        dot(p, ax, dot_result, n, cta, grid);
        grid.sync();
        const float step = (float)((double)r1 / *dot_v);
        saxpy(p, x, step, n, grid);
        saxpy(ax, r, -step, n, grid);
        r0 = r1;
        grid.sync();
        if (first)
            *dot_v = 0.0;
        grid.sync();
        dot(r, r, dot_result, n, cta, grid);
        grid.sync();
        r1 = (float)*dot_v;
        k++;
    }
}
