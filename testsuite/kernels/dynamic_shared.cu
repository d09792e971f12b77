// Dynamic shared memory (extern __shared__, size given at launch): the
// block stages blockDim.x floats followed by blockDim.x ints in one dynamic
// buffer and writes out[i] = s_f[(t+1) % B] * s_i[t].  Launch with
// blockDim.x * 8 bytes of dynamic shared memory.
extern "C" __global__ void dynamic_shared(float *out, const float *f, const int *k, int n)
{
    extern __shared__ float dyn[];
    float *sf = dyn;
    int *si = (int *)&dyn[blockDim.x];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    sf[t] = (i < n) ? f[i] : 0.0f;
    si[t] = (i < n) ? k[i] : 0;
    __syncthreads();
    if (i < n)
        out[i] = sf[(t + 1) % blockDim.x] * (float)si[t];
}
