// The split over { } scopes (issue 24 item 1): a loop with sinf and expf,
// barriers, and a call of a __noinline__ device function (nvcc wraps the
// call in a scope declaring registers and .param names).
// Regenerate: nvcc -arch=sm_75 -O3 -ptx -o split_call.sm_75.ptx split_call.cu
__device__ __noinline__ float helper(float x) { return x * 0.5f + 1.0f; }

extern "C" __global__ void k_call(const float *a, float *o, int n)
{
    __shared__ float t[256];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float s = 0.0f;
    for (int j = 0; j < n; j++) {
        t[threadIdx.x] = a[i * n + j];
        __syncthreads();
        float v = t[(threadIdx.x + 1) % blockDim.x];
        s += sinf(v) + expf(v) + helper(v);
        __syncthreads();
    }
    o[i] = s;
}

// k_share: approximate values written to shared memory and read by other
// warps (issue 24 item 7): the precise warps of a split compute with them.
extern "C" __global__ void k_share(const float *a, float *o)
{
    __shared__ float t[256];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    t[threadIdx.x] = expf(a[i]);
    __syncthreads();
    o[i] = t[(threadIdx.x + 32) % blockDim.x];
}
