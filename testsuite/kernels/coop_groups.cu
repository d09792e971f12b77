// Cooperative groups: thread_block sync, a 32-wide tiled_partition with
// shfl_down reduction, and a 4-wide tile with tile-local shfl and any().
// out_sum receives one atomicAdd per warp (sum of in[0..n)); quad_max[i] =
// max(0, max over the 4 aligned threads of i's quad), out-of-range = 0.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

extern "C" __global__ void coop_groups_reduce(int *out_sum, int *quad_max, const int *in, int n)
{
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    cg::thread_block_tile<4> quad = cg::tiled_partition<4>(block);

    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = (i < n) ? in[i] : 0;
    block.sync();

    int s = v;
    for (int off = warp.size() / 2; off > 0; off >>= 1)
        s += warp.shfl_down(s, off);
    if (warp.thread_rank() == 0)
        atomicAdd(out_sum, s);

    int m = v;
    for (int off = 1; off < 4; off <<= 1)
        m = max(m, quad.shfl_xor(m, off));
    if (quad.any(m > 0) && i < n)
        quad_max[i] = m;
    else if (i < n)
        quad_max[i] = 0;
}
