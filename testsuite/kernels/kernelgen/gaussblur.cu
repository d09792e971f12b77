// KernelGen "gaussblur" (C, 2-D), CUDA port for the shuffle-synthesis corpus.
//
// Shape (seed-003 §5.1-5.2; terms checked against the artifact's gaussblur.c):
// symmetric 5x5 blur, w1 = f * (s0*centre + s1*(4 at distance 1) + s2*(4
// diagonals) + s4*(4 at distance 2) + s5*(8 knight moves) + s8*(4 corners)),
// f = 1/(s0 + 4*(s1+s2+s4+s8) + 8*s5).
// Paper Table 2: 20 shuffles / 25 loads, mean |N| = 2.5.
// Loop nest: j gang(65535) (blockIdx.x, strided), i vector(512)
// (threadIdx.x + 512*blockIdx.y); bounds 2..n-3.  f is computed in the kernel
// (the original computes it on the host side of the region); float literals.
#define A2(p, x, y) ((p)[(x) + nx * (y)])

extern "C" __global__ void __launch_bounds__(512)
gaussblur(int nx, int ny, float s0, float s1, float s2, float s4, float s5,
          float s8, const float *__restrict__ w0, float *__restrict__ w1)
{
    const float f = 1.0f / (s0 + 4.0f * (s1 + s2 + s4 + s8) + 8.0f * s5);
    const int i = 2 + blockIdx.y * 512 + threadIdx.x;
    if (i >= nx - 2)
        return;
    for (int j = 2 + blockIdx.x; j < ny - 2; j += gridDim.x)
        A2(w1, i, j) = f * (
            s0 * A2(w0, i, j) +
            s1 * (A2(w0, i - 1, j) + A2(w0, i + 1, j) + A2(w0, i, j - 1) + A2(w0, i, j + 1)) +
            s2 * (A2(w0, i - 1, j - 1) + A2(w0, i + 1, j - 1) + A2(w0, i - 1, j + 1) + A2(w0, i + 1, j + 1)) +
            s4 * (A2(w0, i - 2, j) + A2(w0, i + 2, j) + A2(w0, i, j - 2) + A2(w0, i, j + 2)) +
            s5 * (A2(w0, i - 2, j - 1) + A2(w0, i - 1, j - 2) + A2(w0, i + 1, j - 2) + A2(w0, i + 2, j - 1) +
                  A2(w0, i - 2, j + 1) + A2(w0, i - 1, j + 2) + A2(w0, i + 1, j + 2) + A2(w0, i + 2, j + 1)) +
            s8 * (A2(w0, i - 2, j - 2) + A2(w0, i + 2, j - 2) + A2(w0, i - 2, j + 2) + A2(w0, i + 2, j + 2)));
}
