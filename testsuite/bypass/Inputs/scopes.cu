// Bypass versioning over { } scopes (issue 24 item 1): nvcc wraps every
// call of a __noinline__ function and every __syncthreads_count in a
// scope that declares registers; the body is copied with them.
// Regenerate: nvcc -arch=sm_80 -O3 -ptx -o scopes.sm_80.ptx scopes.cu
__device__ __noinline__ float half(float x) { return x * 0.5f + 1.0f; }

extern "C" __global__ void k_scopes(const float *a, float *o, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float s = 0.0f;
    int c = 0;
    for (int j = 0; j < n; j++) {
        float v = a[i * n + j];
        s += half(v);
        c += __syncthreads_count(v > 0.0f);
    }
    o[i] = s + (float)c;
}
