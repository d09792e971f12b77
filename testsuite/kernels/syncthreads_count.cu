// Block-wide predicate barriers: __syncthreads_count/_and/_or
// (bar.red.popc / .and / .or) plus a named barrier (bar.sync 1, N) through
// inline asm between the first two warps (blockDim.x >= 64, a multiple of
// 32).  res[blockIdx.x*3 + {0,1,2}] =
// {count(in>0), all(in>0), any(in<0)} over the block, out-of-range = 0.
extern "C" __global__ void syncthreads_count(int *res, float *pair, const int *in, int n)
{
    __shared__ float s[64];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = (i < n) ? in[i] : 0;
    int cnt = __syncthreads_count(v > 0);
    int all = __syncthreads_and(v > 0);
    int any = __syncthreads_or(v < 0);
    if (threadIdx.x == 0) {
        res[blockIdx.x * 3 + 0] = cnt;
        res[blockIdx.x * 3 + 1] = all;
        res[blockIdx.x * 3 + 2] = any;
    }
    // Warps 0 and 1 (blockDim.x >= 64) exchange values through a named
    // barrier that the other warps never touch: pair[i] = in of the
    // thread 32 lanes away within the first 64 threads.
    if (threadIdx.x < 64) {
        s[threadIdx.x] = (float)v;
        asm volatile("bar.sync 1, 64;" ::: "memory");
        if (i < n)
            pair[i] = s[threadIdx.x ^ 32];
    }
}
