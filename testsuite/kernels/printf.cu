// Device printf (vprintf call with a .local argument buffer and a .global
// format string).  Thread 0 of each block prints; every thread writes
// out[i] = i so the kernel also has a checkable result.
#include <cstdio>

extern "C" __global__ void printf_kernel(int *out, const float *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    if (threadIdx.x == 0)
        printf("block %d: in[%d] = %f (n=%d)\n", (int)blockIdx.x, i, (double)in[i], n);
    out[i] = i;
}
