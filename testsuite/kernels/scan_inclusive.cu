// Inclusive prefix sum (int) of each block's segment: a Kogge-Stone warp scan
// with __shfl_up_sync, then the warp totals are scanned by warp 0 through
// shared memory and added back.  blockDim.x must be a multiple of 32 (<= 1024).
// out[i] = in[blockStart] + ... + in[i]; block_sums[blockIdx.x] = block total.
__device__ __forceinline__ int warp_inclusive_scan(int v)
{
    int lane = threadIdx.x & 31;
#pragma unroll
    for (int d = 1; d < 32; d <<= 1) {
        int u = __shfl_up_sync(0xffffffffu, v, d);
        if (lane >= d)
            v += u;
    }
    return v;
}

extern "C" __global__ void scan_inclusive(int *out, int *block_sums, const int *in, int n)
{
    __shared__ int warp_totals[32];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    int v = warp_inclusive_scan((i < n) ? in[i] : 0);
    if (lane == 31)
        warp_totals[warp] = v;
    __syncthreads();
    if (warp == 0) {
        int nwarps = blockDim.x >> 5;
        int t = (lane < nwarps) ? warp_totals[lane] : 0;
        t = warp_inclusive_scan(t);
        warp_totals[lane] = t;
    }
    __syncthreads();
    if (warp > 0)
        v += warp_totals[warp - 1];
    if (i < n)
        out[i] = v;
    if (threadIdx.x == blockDim.x - 1)
        block_sums[blockIdx.x] = v;
}
