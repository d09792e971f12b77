// KernelGen "gameoflife" (C, 2-D), CUDA port for the shuffle-synthesis corpus.
//
// Shape (seed-003 §5.1-5.2; formula checked against the artifact's
// gameoflife.c): L = sum of the 8 neighbours of u0[i,j];
//   u1[i,j] = 1 / (1 + (u0[i,j] + L - 3) * (L - 3) * C),  C = 1e20
// (a branch-free Life rule).  Paper Table 2: 6 shuffles / 9 loads, mean |N| = 1.5.
// Loop nest: j is the gang(65535) loop (blockIdx.x, strided by gridDim.x),
// i the vector(128) loop (threadIdx.x + 128*blockIdx.y); bounds 1..n-2.
// Float literals instead of C double ones (1e20 is representable in float).
#define A2(p, x, y) ((p)[(x) + nx * (y)])

extern "C" __global__ void __launch_bounds__(128)
gameoflife(int nx, int ny, const float *__restrict__ u0, float *__restrict__ u1)
{
    const int i = 1 + blockIdx.y * 128 + threadIdx.x;
    if (i >= nx - 1)
        return;
    for (int j = 1 + blockIdx.x; j < ny - 1; j += gridDim.x) {
        const float C = 1e20f;
        float L = A2(u0, i - 1, j - 1) + A2(u0, i, j - 1) + A2(u0, i + 1, j - 1) +
                  A2(u0, i - 1, j) + A2(u0, i + 1, j) +
                  A2(u0, i - 1, j + 1) + A2(u0, i, j + 1) + A2(u0, i + 1, j + 1);
        A2(u1, i, j) = 1.0f / (1.0f + (A2(u0, i, j) + L - 3.0f) * (L - 3.0f) * C);
    }
}
