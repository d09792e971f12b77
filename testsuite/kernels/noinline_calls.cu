// Real PTX calls: __noinline__ device functions with scalar, pointer and
// by-value struct arguments and returns (.func with .param passing, call.uni).
struct pair2 { float a, b; };

__device__ __noinline__ float poly3(float x, float c0, float c1, float c2)
{
    return c0 + x * (c1 + x * c2);
}

__device__ __noinline__ pair2 swap_scale(pair2 p, float s)
{
    pair2 r = { p.b * s, p.a * s };
    return r;
}

__device__ __noinline__ void store_sum(float *dst, pair2 p)
{
    *dst = p.a + p.b;
}

// out[i] = poly3(x,1,2,3) + (3x + 3*poly3(x,0,1,0)) = 1+2x+3x^2 + 6x.
extern "C" __global__ void noinline_calls(float *out, const float *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float x = in[i];
    pair2 p = { x, poly3(x, 0.0f, 1.0f, 0.0f) };
    pair2 q = swap_scale(p, 3.0f);
    float tmp;
    store_sum(&tmp, q);
    out[i] = poly3(x, 1.0f, 2.0f, 3.0f) + tmp;
}
