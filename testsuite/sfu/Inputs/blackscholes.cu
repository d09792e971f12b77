// blackscholes.cu — European call and put prices by the Black-Scholes
// formula, one option per thread: the hot kernel of the CUDA SDK sample
// BlackScholes (thesis Table 6.6 "BLA": sqrt, div, log, exp, rcp), written
// anew from the textbook formula with the SDK's polynomial approximation of
// the cumulative normal distribution (Abramowitz-Stegun 26.2.17).
// Regenerate: bash testsuite/sfu/Inputs/regen.sh
__device__ float cnd(float d)
{
    const float A1 = 0.31938153f, A2 = -0.356563782f, A3 = 1.781477937f, A4 = -1.821255978f, A5 = 1.330274429f;
    const float RSQRT2PI = 0.39894228040143267794f;
    float k = 1.0f / (1.0f + 0.2316419f * fabsf(d));
    float c = RSQRT2PI * expf(-0.5f * d * d) * (k * (A1 + k * (A2 + k * (A3 + k * (A4 + k * A5)))));
    return d > 0 ? 1.0f - c : c;
}

extern "C" __global__ void blackscholes(float *call, float *put, const float *price, const float *strike,
                                        const float *years, float r, float v, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float s = price[i], x = strike[i], t = years[i];
    float sqrt_t = sqrtf(t);
    float d1 = (logf(s / x) + (r + 0.5f * v * v) * t) / (v * sqrt_t);
    float d2 = d1 - v * sqrt_t;
    float cd1 = cnd(d1), cd2 = cnd(d2);
    float e = expf(-r * t);
    call[i] = s * cd1 - x * e * cd2;
    put[i] = x * e * (1.0f - cd2) - s * (1.0f - cd1);
}
