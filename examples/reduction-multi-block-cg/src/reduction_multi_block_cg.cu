// The C++ twin of kernels/src/lib.rs: reductionMultiBlockCG's kernel.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

namespace cg = cooperative_groups;

__device__ void reduce_block(double *sdata, const cg::thread_block &cta)
{
    unsigned int tid = cta.thread_rank();
    cg::thread_block_tile<32> tile32 = cg::tiled_partition<32>(cta);
    sdata[tid] = cg::reduce(tile32, sdata[tid], cg::plus<double>());
    cg::sync(cta);
    if (tid == 0) {
        double beta = 0.0;
        for (unsigned int i = 0; i < cta.size(); i += tile32.size()) {
            beta += sdata[i];
        }
        sdata[0] = beta;
    }
    cg::sync(cta);
}

extern "C" __global__ void reduce_single_pass_multi_block_cg(const float *input, float *out, unsigned int n)
{
    cg::thread_block block = cg::this_thread_block();
    cg::grid_group grid = cg::this_grid();
    extern __shared__ double sdata[];
    unsigned int tid = block.thread_rank();
    sdata[tid] = 0;
    for (unsigned long long i = grid.thread_rank(); i < n; i += grid.size()) {
        sdata[tid] += input[i];
    }
    cg::sync(block);
    reduce_block(sdata, block);
    if (tid == 0) {
        out[blockIdx.x] = sdata[0];
    }
    cg::sync(grid);
    if (grid.thread_rank() == 0) {
        for (unsigned int b = 1; b < gridDim.x; b++) {
            out[0] += out[b];
        }
    }
}
