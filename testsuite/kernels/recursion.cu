// Recursive device functions (need a call stack: .local frames, %SP/%SPL):
// out[i] = fib(in[i] % 24) computed by naive recursion (in[i] >= 0), and
// gcd (out[i] = gcd(a[i], b[i])) by tail recursion in a second kernel.
__device__ int fib(int k)
{
    if (k < 2)
        return k;
    return fib(k - 1) + fib(k - 2);
}

__device__ unsigned gcd_rec(unsigned a, unsigned b)
{
    return b == 0 ? a : gcd_rec(b, a % b);
}

extern "C" __global__ void recursion_fib(int *out, const int *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = fib(in[i] % 24);
}

extern "C" __global__ void recursion_gcd(unsigned *out, const unsigned *a, const unsigned *b, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = gcd_rec(a[i], b[i]);
}
