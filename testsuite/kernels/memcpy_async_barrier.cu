// corpus-archs: sm_80 sm_86 sm_89 sm_90
// cuda::memcpy_async with a block-scope cuda::barrier in shared memory
// (mbarrier.* and cp.async on sm_80+; the bulk-copy path on sm_90).
// Each block of 256 threads copies 256 floats to shared memory and writes
// out[base + t] = s[t] + s[(t + 1) % 256].  n must be a multiple of 256.
#include <cooperative_groups.h>
#include <cuda/barrier>
namespace cg = cooperative_groups;

extern "C" __global__ void memcpy_async_barrier(float *out, const float *in, int n)
{
    __shared__ alignas(16) float s[256];
#pragma nv_diag_suppress static_var_with_dynamic_init
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    cg::thread_block block = cg::this_thread_block();
    int base = blockIdx.x * 256;
    if (block.thread_rank() == 0)
        init(&bar, block.size());
    block.sync();
    if (base >= n)
        return;
    cuda::memcpy_async(block, s, in + base, cuda::aligned_size_t<16>(sizeof(float) * 256), bar);
    bar.arrive_and_wait();
    int t = threadIdx.x;
    out[base + t] = s[t] + s[(t + 1) & 255];
}
