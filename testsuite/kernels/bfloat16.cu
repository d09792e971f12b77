// bfloat16: conversions, scalar and bf16x2 arithmetic.  Native bf16 fma is
// sm_80+, but cuda_bf16.h emulates it in fp32 on sm_75, so this compiles for
// all five targets with different PTX.  out[i] = bf16(x)*bf16(y) + bf16(z),
// each operation rounded to bf16 (two roundings, not a fused fma).
#include <cuda_bf16.h>

extern "C" __global__ void bf16_fma(float *out, const float *x, const float *y, const float *z, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    __nv_bfloat16 a = __float2bfloat16(x[i]);
    __nv_bfloat16 b = __float2bfloat16(y[i]);
    __nv_bfloat16 c = __float2bfloat16(z[i]);
    out[i] = __bfloat162float(a * b + c);
}

extern "C" __global__ void bf16x2_mul(__nv_bfloat162 *out, const __nv_bfloat162 *a,
                                      const __nv_bfloat162 *b, int npairs)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < npairs)
        out[i] = __hmul2(a[i], b[i]);
}
