// Shared-memory tiled SGEMM C = A*B for row-major n*n matrices, 16x16 tiles
// (blockDim = 16x16).  Any n; out-of-range tile elements are zero-filled.
#define TILE 16
extern "C" __global__ void matmul_tiled(float *c, const float *a, const float *b, int n)
{
    __shared__ float as[TILE][TILE];
    __shared__ float bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty;
    int col = blockIdx.x * TILE + tx;
    float acc = 0.0f;
    for (int t = 0; t < (n + TILE - 1) / TILE; ++t) {
        int ac = t * TILE + tx, br = t * TILE + ty;
        as[ty][tx] = (row < n && ac < n) ? a[row * n + ac] : 0.0f;
        bs[ty][tx] = (br < n && col < n) ? b[br * n + col] : 0.0f;
        __syncthreads();
#pragma unroll
        for (int k = 0; k < TILE; ++k)
            acc += as[ty][k] * bs[k][tx];
        __syncthreads();
    }
    if (row < n && col < n)
        c[row * n + col] = acc;
}
