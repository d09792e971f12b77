// KernelGen "wave13pt" (C, 3-D), CUDA port for the shuffle-synthesis corpus.
//
// Shape (seed-003 §5.2; terms checked against the artifact's wave13pt.c):
//   w2 = c0*w1[p] - w0[p] + c1*(6 face neighbours of w1 at distance 1)
//                         + c2*(6 neighbours of w1 at distance 2)
// Paper Table 2: 4 shuffles / 14 loads, mean |N| = 2.5.
// Loop nest: k gang(65535) (blockIdx.x, strided), j sequential and kept
// rolled (`#pragma unroll 1`: NVHPC does not unroll it, and nvcc's unrolling
// would multiply the loads and CSE them across iterations), i vector(512)
// (threadIdx.x + 512*blockIdx.y); bounds 2..n-3.
// Guess / deliberate change: the original indexes _A(w, k, j, i), which makes
// the gang index k the unit-stride one and the vector index i the slowest.
// Read literally, no two loads would then be neighbours along tid.x, yet the
// paper found 4 shuffles with mean 2.5 -- exactly the 5 unit-stride loads
// (offsets -2..+2) shuffled from one end.  The stencil is symmetric in the
// three axes, so this port swaps the names: the unit-stride index is the
// vector (threadIdx.x) index, which is the layout the paper's PTX must have had.
// Float literals instead of C double ones.
#define A3(p, x, y, z) ((p)[(x) + nx * (y) + nx * ny * (z)])

extern "C" __global__ void __launch_bounds__(512)
wave13pt(int nx, int ny, int ns, float c0, float c1, float c2,
         const float *__restrict__ w0, const float *__restrict__ w1,
         float *__restrict__ w2)
{
    const int i = 2 + blockIdx.y * 512 + threadIdx.x;
    if (i >= nx - 2)
        return;
    for (int k = 2 + blockIdx.x; k < ns - 2; k += gridDim.x)
        #pragma unroll 1
        for (int j = 2; j < ny - 2; j++)
            A3(w2, i, j, k) =
                c0 * A3(w1, i, j, k) - A3(w0, i, j, k) +
                c1 * (A3(w1, i + 1, j, k) + A3(w1, i - 1, j, k) +
                      A3(w1, i, j + 1, k) + A3(w1, i, j - 1, k) +
                      A3(w1, i, j, k + 1) + A3(w1, i, j, k - 1)) +
                c2 * (A3(w1, i + 2, j, k) + A3(w1, i - 2, j, k) +
                      A3(w1, i, j + 2, k) + A3(w1, i, j - 2, k) +
                      A3(w1, i, j, k + 2) + A3(w1, i, j, k - 2));
}
