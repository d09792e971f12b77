// Classic block reduction in static shared memory (blockDim.x must be 256):
// tree reduction with __syncthreads, one partial sum per block in out[blockIdx.x].
#define BLOCK 256
extern "C" __global__ void block_reduce_shared(float *out, const float *in, int n)
{
    __shared__ float buf[BLOCK];
    int t = threadIdx.x;
    int i = blockIdx.x * BLOCK + t;
    buf[t] = (i < n) ? in[i] : 0.0f;
    __syncthreads();
    for (int s = BLOCK / 2; s > 0; s >>= 1) {
        if (t < s)
            buf[t] += buf[t + s];
        __syncthreads();
    }
    if (t == 0)
        out[blockIdx.x] = buf[0];
}
