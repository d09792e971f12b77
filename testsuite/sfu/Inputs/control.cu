// Approximate values that change control flow (issue 24 item 5).
// Regenerate: nvcc -arch=sm_80 -O3 -ptx -o control.sm_80.ptx control.cu
// k_branch: sinf's sign decides a branch (at x = f32(k pi) the precise and
// the approximate sign differ for some k); k_index: expf's value becomes a
// table index (a float-to-int conversion, then an address); k_plain: only
// arithmetic.
extern "C" __global__ void k_branch(const float *a, float *o, const float *alt)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float x = a[i];
    if (sinf(x) > 0.0f)
        o[i] = 1.0f;
    else
        o[i] = alt[i] * 3.0f;
}

extern "C" __global__ void k_index(const float *a, float *o, const float *table)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int k = (int)expf(a[i]);
    o[i] = table[k & 63];
}

extern "C" __global__ void k_plain(const float *a, float *o)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    o[i] = expf(a[i]) * 2.0f;
}
