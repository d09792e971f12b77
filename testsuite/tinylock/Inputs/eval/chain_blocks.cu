// corpus-archs: sm_80
// A serial chain of tree reductions across CTAs: CTA b sums its blockDim.x
// elements of in with a shared-memory tree, then thread 0 waits for the
// ready flag of CTA b - 1 (volatile spin on global memory), reads its
// running total, publishes prefix[b] = prefix[b - 1] + sum_b and raises
// flags[b] after a fence.  CTAs start in index order, so the one a CTA
// waits for was started before it (any residency works).  Result:
// prefix[b] = sum of in[0 .. (b + 1) * blockDim.x).  flags must be zero.
// Launch: blockDim.x a power of two <= 256, grid = number of chunks;
// in has gridDim.x * blockDim.x ints.
extern "C" __global__ void chain_blocks(int *prefix, volatile int *flags, const int *in)
{
    __shared__ int s[256];
    int t = threadIdx.x, b = blockIdx.x;
    s[t] = in[b * blockDim.x + t];
    __syncthreads();
    for (int k = blockDim.x / 2; k > 0; k >>= 1) {
        if (t < k)
            s[t] += s[t + k];
        __syncthreads();
    }
    if (t == 0) {
        int prev = 0;
        if (b > 0) {
            while (flags[b - 1] == 0)
                ;
            __threadfence();
            prev = ((volatile int *)prefix)[b - 1];
        }
        ((volatile int *)prefix)[b] = prev + s[0];
        __threadfence();
        flags[b] = 1;
    }
}
