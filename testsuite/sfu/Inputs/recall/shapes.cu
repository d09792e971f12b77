// The recall suite of the sfu pass (issue 24 item 3): ordinary code shapes
// that call sinf, cosf, expf, logf, powf and tanhf (and exp10f, log2f).
// Each kernel says how many calls of each function the compiled code holds
// ("expect:"); regen.sh compiles it with nvcc's four flag sets for sm_75,
// sm_80 and sm_90; recall.py counts the sites the pass finds.
#define N 4

// expect: sinf=4
extern "C" __global__ void unroll_sin(const float *a, float *o)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float s = 0.0f;
#pragma unroll
    for (int j = 0; j < N; j++) s += sinf(a[i * N + j]);
    o[i] = s;
}

// expect: cosf=4
extern "C" __global__ void unroll_cos(const float *a, float *o)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float s = 0.0f;
#pragma unroll
    for (int j = 0; j < N; j++) s += cosf(a[i * N + j]) * a[i * N + j];
    o[i] = s;
}

// expect: expf=4 logf=4
extern "C" __global__ void unroll_explog(const float *a, float *o)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float s = 0.0f;
#pragma unroll
    for (int j = 0; j < N; j++) s += expf(-a[i * N + j]) + logf(a[i * N + j] + 2.0f);
    o[i] = s;
}

// expect: powf=4 tanhf=4
extern "C" __global__ void unroll_powtanh(const float *a, const float *b, float *o)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float s = 0.0f;
#pragma unroll
    for (int j = 0; j < N; j++) s += powf(a[i * N + j], b[j]) * tanhf(a[i * N + j] - b[j]);
    o[i] = s;
}

// expect: sinf=1 cosf=1 logf=1 powf=1 tanhf=1
extern "C" __global__ void five(const float *a, const float *b, float *o)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float x = a[i];
    o[i] = sinf(x) + cosf(x) + logf(x) + powf(x, b[i]) + tanhf(x);
}

// expect: sinf=1 cosf=1
extern "C" __global__ void sin_cos_pair(const float *a, float *o, float *p)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float x = a[i] * 6.2831853f;
    o[i] = sinf(x);
    p[i] = cosf(x);
}

// expect: sinf=1 cosf=1
extern "C" __global__ void sincos_call(const float *a, float *o, float *p)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float s, c;
    sincosf(a[i], &s, &c);
    o[i] = s;
    p[i] = c;
}

// expect: expf=1 logf=1
extern "C" __global__ void exp_log_same(const float *a, float *o)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float x = a[i];
    o[i] = expf(x) * logf(x);
}

// expect: powf=6
extern "C" __global__ void pow_constants(const float *a, float *o, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float x = a[i];
    o[6 * i] = powf(x, 3.0f);
    o[6 * i + 1] = powf(x, 2.5f);
    o[6 * i + 2] = powf(x, -1.0f);
    o[6 * i + 3] = powf(x, 2.0f);
    o[6 * i + 4] = powf(x, 0.75f);
    o[6 * i + 5] = powf(x, (float)n);
}

// expect: logf=2
extern "C" __global__ void log_abs(const float *a, float *o)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    o[i] = logf(fabsf(a[i]) + 1.0f) + logf(fabsf(a[i] - 1.0f) + 0.5f);
}

// expect: expf=1 sinf=1
__device__ __noinline__ float gauss_wave(float x) { return expf(-x * x) * sinf(3.0f * x); }

// expect:
extern "C" __global__ void calls_noinline(const float *a, float *o)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    o[i] = gauss_wave(a[i]) + gauss_wave(a[i] + 1.0f);
}

__device__ __forceinline__ float softplus(float x) { return logf(1.0f + expf(x)); }

// expect: expf=2 logf=2
extern "C" __global__ void calls_inline(const float *a, float *o)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    o[i] = softplus(a[i]) - softplus(-a[i]);
}

// expect: expf=1 tanhf=1 logf=1
extern "C" __global__ void activations(const float *a, float *o)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float x = a[i];
    float sig = 1.0f / (1.0f + expf(-x));
    o[3 * i] = sig;
    o[3 * i + 1] = tanhf(x);
    o[3 * i + 2] = -logf(sig);
}

// expect: sinf=1 cosf=1 expf=1
extern "C" __global__ void rotate_damped(const float *a, const float *t, float *o)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float ang = a[i], d = expf(-0.1f * t[i]);
    o[2 * i] = d * cosf(ang);
    o[2 * i + 1] = d * sinf(ang);
}

// expect: exp10f=1 log2f=1
extern "C" __global__ void base_conv(const float *a, float *o)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    o[i] = exp10f(a[i]) + log2f(a[i] + 3.0f);
}
