// Double-precision math: sin, exp, log, pow, sqrt and a division (DP units
// and long libdevice sequences; div.rn.f64 / sqrt.rn.f64 single instructions).
extern "C" __global__ void math_double(double *out, const double *x, const double *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    double a = x[i], b = y[i];
    out[i] = sin(a) + exp(-a * a) + log(1.0 + b * b) + pow(1.0 + a * a, b)
           + sqrt(1.0 + b * b) + a / (1.0 + b * b);
}

extern "C" __global__ void math_double_rsqrt(double *out, const double *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = 1.0 / sqrt(x[i]) + rsqrt(x[i] + 1.0);
}
