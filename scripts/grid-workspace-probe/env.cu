// The C++ side of the grid-workspace probe (run.sh): NVIDIA's
// grid_group::is_valid() and the raw %envreg0..3 it reads, per thread.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__device__ unsigned env(int i) {
    unsigned r = 0;
    switch (i) {
    case 0: asm volatile("mov.u32 %0, %%envreg0;" : "=r"(r)); break;
    case 1: asm volatile("mov.u32 %0, %%envreg1;" : "=r"(r)); break;
    case 2: asm volatile("mov.u32 %0, %%envreg2;" : "=r"(r)); break;
    case 3: asm volatile("mov.u32 %0, %%envreg3;" : "=r"(r)); break;
    }
    return r;
}
// 8 words per thread: envreg0..3, is_valid, 0xC0FFEE
extern "C" __global__ void cpp_env(unsigned* out) {
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    for (int i = 0; i < 4; i++) out[t * 8 + i] = env(i);
    out[t * 8 + 4] = cg::this_grid().is_valid() ? 1u : 0u;
    out[t * 8 + 5] = 0xC0FFEE;
}
