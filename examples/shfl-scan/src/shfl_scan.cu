// The C++ twin of kernels/src/lib.rs: shfl_scan's four kernels, written with
// cooperative groups as the Rust port is (same passes, same shuffles).
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

__device__ __forceinline__ unsigned int tile_scan(const cg::thread_block_tile<32> &tile, unsigned int v)
{
    const unsigned int lane = tile.thread_rank();
#pragma unroll
    for (unsigned int d = 1; d < 32; d *= 2) {
        unsigned int n = tile.shfl_up(v, d);
        v += lane >= d ? n : 0;
    }
    return v;
}

__device__ __forceinline__ void scan_tile_totals(const cg::thread_block_tile<32> &tile, unsigned int *sums,
                                                 unsigned int tiles)
{
    if (tile.meta_group_rank() == 0) {
        const unsigned int lane = tile.thread_rank();
        unsigned int s = lane < tiles ? sums[lane] : 0;
        s = tile_scan(tile, s);
        if (lane < tiles)
            sums[lane] = s;
    }
}

extern "C" __global__ void shfl_scan_test(int *data, int *partial_sums)
{
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
    __shared__ unsigned int sums[32];
    const unsigned int id = blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned int lane = tile.thread_rank(), warp = tile.meta_group_rank();
    unsigned int value = tile_scan(tile, (unsigned int)data[id]);
    if (lane == 31)
        sums[warp] = value;
    block.sync();
    scan_tile_totals(tile, sums, blockDim.x / 32);
    block.sync();
    if (warp > 0)
        value += sums[warp - 1];
    data[id] = (int)value;
    if (partial_sums != nullptr && threadIdx.x == blockDim.x - 1)
        partial_sums[blockIdx.x] = (int)value;
}

extern "C" __global__ void uniform_add(int *data, const int *partial_sums, unsigned int len)
{
    __shared__ int buf;
    const unsigned int id = blockIdx.x * blockDim.x + threadIdx.x;
    if (threadIdx.x == 0)
        buf = partial_sums[blockIdx.x];
    __syncthreads();
    if (id < len)
        data[id] = (int)((unsigned int)data[id] + (unsigned int)buf);
}

struct packed4
{
    uint4 v[4];
};

__device__ __forceinline__ packed4 get_prefix_sum(const uint4 &data, const cg::thread_block &cta,
                                                  const cg::thread_block_tile<32> &tile)
{
    __shared__ unsigned int sums[32];
    unsigned int r[16];
    const unsigned int words[4] = {data.x, data.y, data.z, data.w};
#pragma unroll
    for (int k = 0; k < 4; k++) {
        const unsigned int w = words[k];
        const unsigned int carry = k == 0 ? 0 : r[4 * k - 1];
        const unsigned int a = w & 0xff, b = a + ((w >> 8) & 0xff), c = b + ((w >> 16) & 0xff);
        r[4 * k] = a + carry;
        r[4 * k + 1] = b + carry;
        r[4 * k + 2] = c + carry;
        r[4 * k + 3] = c + (w >> 24) + carry;
    }
    const unsigned int lane = tile.thread_rank();
    unsigned int sum = r[15];
#pragma unroll
    for (unsigned int d = 1; d < 32; d *= 2) {
        const unsigned int up = tile.shfl_up(sum, d);
        const unsigned int n = lane >= d ? up : 0;
#pragma unroll
        for (int j = 0; j < 16; j++)
            r[j] += n;
        sum += n;
    }
    const unsigned int warp = tile.meta_group_rank();
    const unsigned int in_warp = min(32u, cta.size() - warp * 32);
    if (lane == in_warp - 1)
        sums[warp] = r[15];
    cta.sync();
    scan_tile_totals(tile, sums, tile.meta_group_size());
    cta.sync();
    if (warp > 0) {
        const unsigned int before = sums[warp - 1];
#pragma unroll
        for (int j = 0; j < 16; j++)
            r[j] += before;
    }
    packed4 out;
#pragma unroll
    for (int k = 0; k < 4; k++)
        out.v[k] = make_uint4(r[4 * k], r[4 * k + 1], r[4 * k + 2], r[4 * k + 3]);
    return out;
}

__device__ __forceinline__ uint4 elem(const packed4 &r, unsigned int idx)
{
    switch (idx & 3) {
    case 0:
        return r.v[0];
    case 1:
        return r.v[1];
    case 2:
        return r.v[2];
    default:
        return r.v[3];
    }
}

__device__ __forceinline__ uint4 shfl_xor4(const cg::thread_block_tile<32> &tile, uint4 v, unsigned int m)
{
    return make_uint4(tile.shfl_xor(v.x, m), tile.shfl_xor(v.y, m), tile.shfl_xor(v.z, m), tile.shfl_xor(v.w, m));
}

extern "C" __global__ void shfl_intimage_rows(const uint4 *img, uint4 *integral)
{
    cg::thread_block cta = cg::this_thread_block();
    cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cta);
    const unsigned int id = cta.thread_rank();
    const unsigned int row = blockIdx.x;
    packed4 r = get_prefix_sum(img[row * blockDim.x + id], cta, tile);
    const unsigned int id_mask = id & 3, id_swizzle = (id + 2) & 3, id_shift = (id >> 2) << 4;
    const unsigned int out = row * blockDim.x * 4;
    r.v[1] = shfl_xor4(tile, r.v[1], 1);
    r.v[2] = shfl_xor4(tile, r.v[2], 2);
    r.v[3] = shfl_xor4(tile, r.v[3], 3);
    integral[out + id_mask + id_shift] = elem(r, id_mask);
    integral[out + id_swizzle + id_shift + 8] = elem(r, id_swizzle);
#pragma unroll
    for (int k = 0; k < 4; k++)
        r.v[k] = shfl_xor4(tile, r.v[k], 1);
    integral[out + id_mask + id_shift + 4] = elem(r, id_mask);
    integral[out + id_swizzle + id_shift + 12] = elem(r, id_swizzle);
}

extern "C" __global__ void shfl_vertical_shfl(unsigned int *img, unsigned int width, unsigned int height)
{
    __shared__ unsigned int sums[32][9];
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<8> tile8 = cg::tiled_partition<8>(block);
    const unsigned int rows = blockDim.y;
    const unsigned int col = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned int step_sum = 0;
    sums[threadIdx.x][threadIdx.y] = 0;
    block.sync();
    for (unsigned int step = 0; step < height / rows; step++) {
        unsigned int *p = img + (threadIdx.y + step * rows) * width + col;
        unsigned int sum = *p;
        sums[threadIdx.x][threadIdx.y] = sum;
        block.sync();
        const unsigned int j = threadIdx.x % 8, k = threadIdx.x / 8 + threadIdx.y * 4;
        unsigned int partial = sums[k][j];
#pragma unroll
        for (unsigned int d = 1; d < 8; d *= 2) {
            const unsigned int n = tile8.shfl_up(partial, d);
            partial += tile8.thread_rank() >= d ? n : 0;
        }
        sums[k][j] = partial;
        block.sync();
        if (threadIdx.y > 0)
            sum += sums[threadIdx.x][threadIdx.y - 1];
        sum += step_sum;
        step_sum += sums[threadIdx.x][rows - 1];
        block.sync();
        *p = sum;
    }
}
