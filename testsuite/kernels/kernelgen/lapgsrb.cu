// KernelGen "lapgsrb" (C, 3-D), CUDA port for the shuffle-synthesis corpus.
//
// Shape (seed-003 §5.2; term list checked against the artifact's lapgsrb.c):
// 25-point radius-2 stencil over w0 with coefficients c0 (centre), c1 (6 face
// neighbours), c2 (12 edge neighbours), c3 (6 points at distance 2).
// Paper Table 2: 12 shuffles / 25 loads, mean |N| = 1.83.
// Loop nest: k gang(65535) (blockIdx.x, strided), j sequential and kept
// rolled (`#pragma unroll 1`: NVHPC does not unroll it, and nvcc's unrolling
// would multiply the loads and CSE them across iterations), i vector(512)
// (threadIdx.x + 512*blockIdx.y); bounds 2..n-3 on every axis.
// Float literals instead of C double ones.
#define A3(p, x, y, z) ((p)[(x) + nx * (y) + nx * ny * (z)])

extern "C" __global__ void __launch_bounds__(512)
lapgsrb(int nx, int ny, int ns, float c0, float c1, float c2, float c3,
        const float *__restrict__ w0, float *__restrict__ w1)
{
    const int i = 2 + blockIdx.y * 512 + threadIdx.x;
    if (i >= nx - 2)
        return;
    for (int k = 2 + blockIdx.x; k < ns - 2; k += gridDim.x)
        #pragma unroll 1
        for (int j = 2; j < ny - 2; j++)
            A3(w1, i, j, k) =
                c0 * A3(w0, i, j, k) +
                c1 * (A3(w0, i + 1, j, k) + A3(w0, i - 1, j, k) +
                      A3(w0, i, j + 1, k) + A3(w0, i, j - 1, k) +
                      A3(w0, i, j, k + 1) + A3(w0, i, j, k - 1)) +
                c2 * (A3(w0, i + 1, j + 1, k) + A3(w0, i + 1, j, k + 1) +
                      A3(w0, i + 1, j, k - 1) + A3(w0, i + 1, j - 1, k) +
                      A3(w0, i, j + 1, k + 1) + A3(w0, i, j + 1, k - 1) +
                      A3(w0, i, j - 1, k + 1) + A3(w0, i, j - 1, k - 1) +
                      A3(w0, i - 1, j + 1, k) + A3(w0, i - 1, j, k + 1) +
                      A3(w0, i - 1, j, k - 1) + A3(w0, i - 1, j - 1, k)) +
                c3 * (A3(w0, i + 2, j, k) + A3(w0, i - 2, j, k) +
                      A3(w0, i, j + 2, k) + A3(w0, i, j - 2, k) +
                      A3(w0, i, j, k + 2) + A3(w0, i, j, k - 2));
}
