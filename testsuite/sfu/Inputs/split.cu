// Kernels for the sfu pass's split tests (testsuite/sfu/pass-split*.test):
// regenerate with  nvcc -arch=sm_75 -O3 -ptx -o split.sm_75.ptx split.cu
//
// k_loop: expf and a division in a loop (unrolled by nvcc: two loops, the
// main one and the remainder) with __syncthreads() inside (aligned
// barriers in the cloned regions); each thread writes its own result.
extern "C" __global__ void k_loop(const float *a, const float *b, float *o, int n)
{
    __shared__ float t[256];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float s = 0.0f;
    for (int j = 0; j < n; j++) {
        t[threadIdx.x] = a[i * n + j];
        __syncthreads();
        s += expf(t[(threadIdx.x + 1) % blockDim.x]) / b[i];
        __syncthreads();
    }
    o[i] = s;
}

// k_body: sites outside any loop (the whole body is the region), with a
// barrier between the exchange and the math.
extern "C" __global__ void k_body(const float *a, const float *b, float *o)
{
    __shared__ float t[256];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    t[threadIdx.x] = a[i];
    __syncthreads();
    o[i] = sinf(t[(threadIdx.x + 1) % blockDim.x]) + logf(b[i]) / b[i];
}
