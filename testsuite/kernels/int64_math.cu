// 64-bit integer arithmetic: mul, mul.hi (__umul64hi), div/rem, shifts,
// popc/clz on 64-bit values, and a 64-bit accumulator loop.
// With d = b|1:  out[i] = ((a*b) ^ __umul64hi(a,b)) + a/d + a%d + (a>>7)
//                          + clzll(a) + popcll(b)   (wrapping 64-bit adds)
extern "C" __global__ void int64_math(long long *out, const long long *a, const long long *b, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    long long x = a[i], y = b[i];
    unsigned long long ux = (unsigned long long)x, uy = (unsigned long long)y;
    long long d = y | 1;
    long long r = (long long)((ux * uy) ^ __umul64hi(ux, uy));
    r += x / d + x % d + (x >> 7) + __clzll(x) + __popcll(y);
    out[i] = r;
}

// sum_{k < m} (a[i] * k) mod 1000003, in 64-bit arithmetic.
extern "C" __global__ void int64_accumulate(unsigned long long *out, const unsigned long long *a,
                                            int m, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned long long acc = 0;
    for (int k = 0; k < m; ++k)
        acc = (acc + a[i] * (unsigned long long)k) % 1000003ull;
    out[i] = acc;
}
