// Sum reduction: a tree of __shfl_down_sync within each warp, then lane 0 of
// every warp adds its partial sum to out[0] with atomicAdd (int, so the
// result is exact and order-independent).
extern "C" __global__ void reduce_shfl_down(int *out, const int *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = (i < n) ? in[i] : 0;
    for (int offset = 16; offset > 0; offset >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, offset);
    if ((threadIdx.x & 31) == 0)
        atomicAdd(out, v);
}
