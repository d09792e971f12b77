// Precise single-precision libdevice math (default flags): sinf, cosf, expf,
// logf, powf, sqrtf and a division.  These expand to long inlined sequences
// that the SFU pass must recognise by fingerprint.
extern "C" __global__ void math_sinf(float *out, const float *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = sinf(in[i]);
}

extern "C" __global__ void math_expf(float *out, const float *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = expf(in[i]);
}

extern "C" __global__ void math_logf(float *out, const float *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = logf(in[i]);
}

extern "C" __global__ void math_powf(float *out, const float *x, const float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = powf(x[i], y[i]);
}

// A mix in one expression: sqrt, division, cos, exp, log.
extern "C" __global__ void math_mix(float *out, const float *x, const float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = sqrtf(x[i]) / (1.0f + y[i] * y[i]) + cosf(x[i]) * expf(-y[i]) + logf(1.0f + x[i]);
}
