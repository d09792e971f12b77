// Fast hardware intrinsics (single SFU instructions in PTX): __sinf, __cosf,
// __expf, __logf, __fdividef, rsqrtf, __frcp_rn and __fsqrt_rn.
extern "C" __global__ void math_fast_intrinsics(float *out, const float *x, const float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float a = x[i], b = y[i];
    float r = __sinf(a) + __cosf(b);
    r += __expf(-a * a);
    r += __logf(1.0f + b * b);
    r += __fdividef(a, 1.0f + b * b);
    r += rsqrtf(1.0f + a * a);
    r += __frcp_rn(2.0f + b * b) + __fsqrt_rn(1.0f + a * a);
    out[i] = r;
}

// Box-Muller transform (mersenne/BoxMuller hotspot): log, sqrt, sin, cos on
// uniform pairs u1 in (0,1], u2 in [0,1).
extern "C" __global__ void box_muller(float *out, const float *u, int npairs)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= npairs)
        return;
    float u1 = u[2 * i], u2 = u[2 * i + 1];
    float r = sqrtf(-2.0f * logf(u1));
    float phi = 6.28318530718f * u2;
    out[2 * i] = r * cosf(phi);
    out[2 * i + 1] = r * sinf(phi);
}
