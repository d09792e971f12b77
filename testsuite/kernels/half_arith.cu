// Half precision: scalar __half fma/compare, half2 vector arithmetic
// (__hfma2, __hmul2), conversions from/to float.  out[i] = in[i]*a + b
// computed in half2 pairs; out_f[i] = float(max(h[i], 0)) in scalar half.
#include <cuda_fp16.h>

extern "C" __global__ void half2_axpb(__half2 *out, const __half2 *in, float a, float b, int npairs)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= npairs)
        return;
    __half2 a2 = __float2half2_rn(a), b2 = __float2half2_rn(b);
    out[i] = __hfma2(in[i], a2, b2);
}

extern "C" __global__ void half_scalar(float *out_f, __half *out_h, const __half *h, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    __half v = h[i];
    __half zero = __float2half(0.0f);
    __half r = __hgt(v, zero) ? v : zero;
    out_f[i] = __half2float(r);
    out_h[i] = __hfma(v, v, __float2half(1.0f));
}

// half2 dot product of pairs with a float accumulator per thread.
extern "C" __global__ void half2_dot(float *out, const __half2 *a, const __half2 *b, int npairs)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= npairs)
        return;
    __half2 p = __hmul2(a[i], b[i]);
    out[i] = __low2float(p) + __high2float(p);
}
