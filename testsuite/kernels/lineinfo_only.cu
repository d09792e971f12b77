// corpus-flags: -lineinfo
// Optimised code with line information only (-lineinfo, no -G): .loc
// directives (with inlined_at where nvcc emits them) and a .file table,
// but no DWARF sections.  out[i] = a*in[i] + b computed through an inlined
// helper, with a loop: out[i] = sum_{k<m} (in[i] * k + 1).
__device__ __forceinline__ float affine(float x, float a, float b) { return a * x + b; }

extern "C" __global__ void lineinfo_only(float *out, const float *in, int m, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float acc = 0.0f;
    for (int k = 0; k < m; ++k)
        acc += affine(in[i], (float)k, 1.0f);
    out[i] = acc;
}
