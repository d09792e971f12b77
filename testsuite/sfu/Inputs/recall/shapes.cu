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

// Shapes written after the matcher was done (held out): a loop with a
// runtime trip count and sinf and cosf of two arguments (nvcc indexes the
// second reduction loop with a counter), a shared-memory reduction, a mix
// of constant exponents, Black-Scholes's CND.
// expect: sinf=1 cosf=1
extern "C" __global__ void loop_two_args(const float *a, float *o, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float s = 0.f;
    for (int j = 0; j < n; j++) s += sinf(a[i * n + j]) * cosf(a[i * n + j] * 0.5f);
    o[i] = s;
}

// expect: expf=1 logf=1
extern "C" __global__ void shared_reduce(const float *a, float *o)
{
    __shared__ float t[256];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    t[threadIdx.x] = expf(a[i]) + logf(a[i] + 1.0f);
    __syncthreads();
    for (int s = 128; s > 0; s >>= 1) {
        if (threadIdx.x < s) t[threadIdx.x] += t[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0) o[blockIdx.x] = t[0];
}

// expect: powf=2 logf=1 tanhf=1
extern "C" __global__ void pow_mix(const float *a, float *o)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float x = a[i];
    o[i] = powf(x, 1.5f) + powf(x, 4.0f) + 0.5f * logf(x) + tanhf(x * 0.1f);
}

__device__ float cnd(float d)
{
    const float A1 = 0.31938153f, A2 = -0.356563782f, A3 = 1.781477937f, A4 = -1.821255978f, A5 = 1.330274429f;
    float K = 1.0f / (1.0f + 0.2316419f * fabsf(d));
    float c = 0.39894228040143267794f * expf(-0.5f * d * d) * (K * (A1 + K * (A2 + K * (A3 + K * (A4 + K * A5)))));
    return d > 0 ? 1.0f - c : c;
}

// expect: logf=1 expf=3
extern "C" __global__ void black_scholes(const float *S, const float *X, const float *T, float *call, float R, float V)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float s = S[i], x = X[i], t = T[i], sq = sqrtf(t);
    float d1 = (logf(s / x) + (R + 0.5f * V * V) * t) / (V * sq), d2 = d1 - V * sq;
    call[i] = s * cnd(d1) - x * expf(-R * t) * cnd(d2);
}
