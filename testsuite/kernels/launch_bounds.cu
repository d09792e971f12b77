// Occupancy directives: __launch_bounds__(maxThreads, minBlocks) gives
// .maxntid / .minnctapersm, __maxnreg__ gives .maxnreg (the knobs the
// register-tuning pass rewrites).  A register-hungry unrolled polynomial
// evaluation: out[i] = sum_{k<16} c_k * in[i]^k with c_k = 1/(k+1).
#define POLY_BODY                                                   \
    int i = blockIdx.x * blockDim.x + threadIdx.x;                  \
    if (i >= n)                                                     \
        return;                                                     \
    float x = in[i], p = 1.0f, acc = 0.0f;                          \
    _Pragma("unroll") for (int k = 0; k < 16; ++k) {                \
        acc += p / (float)(k + 1);                                  \
        p *= x;                                                     \
    }                                                               \
    out[i] = acc;

extern "C" __global__ void __launch_bounds__(256, 4) poly_bounded(float *out, const float *in, int n)
{
    POLY_BODY
}

extern "C" __global__ void __launch_bounds__(1024) poly_maxthreads(float *out, const float *in, int n)
{
    POLY_BODY
}

extern "C" __global__ void __maxnreg__(32) poly_maxnreg(float *out, const float *in, int n)
{
    POLY_BODY
}

extern "C" __global__ void poly_unbounded(float *out, const float *in, int n)
{
    POLY_BODY
}
