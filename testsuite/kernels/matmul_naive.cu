// Naive SGEMM C = A*B, A is m*k, B is k*n, all row-major; one thread per
// element of C with 2-D indexing.
extern "C" __global__ void matmul_naive(float *c, const float *a, const float *b,
                                        int m, int n, int k)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= m || col >= n)
        return;
    float acc = 0.0f;
    for (int p = 0; p < k; ++p)
        acc += a[row * k + p] * b[p * n + col];
    c[row * n + col] = acc;
}
