// 256-bin byte histogram: each block accumulates privately in shared memory
// with shared atomics, then merges into the global histogram with global
// atomics.  hist must be zeroed before launch.
#define BINS 256
extern "C" __global__ void histogram256(unsigned *hist, const unsigned char *data, int n)
{
    __shared__ unsigned local[BINS];
    for (int b = threadIdx.x; b < BINS; b += blockDim.x)
        local[b] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        atomicAdd(&local[data[i]], 1u);
    __syncthreads();
    for (int b = threadIdx.x; b < BINS; b += blockDim.x)
        if (local[b] != 0)
            atomicAdd(&hist[b], local[b]);
}
