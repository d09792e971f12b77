// KernelGen "sincos" (Fortran in the paper, 3-D), CUDA port for the
// shuffle-synthesis corpus.
//
// Shape (seed-003 §5.1): xy = sin(x) + cos(y) elementwise; no input is read
// twice, so there is nothing to shuffle.  Paper Table 2: 0 shuffles / 2 loads
// (and the slowest analysis, from the control flow of sin/cos).
// Loop nest: k gang(65535) (blockIdx.x, strided), j sequential and kept
// rolled (`#pragma unroll 1`: NVHPC does not unroll it, and nvcc's unrolling
// would multiply the loads and CSE them across iterations), i vector(512)
// (threadIdx.x + 512*blockIdx.y); Fortran column-major order, so i is unit
// stride.  Guessed: the exact expression (sin of one input plus cos of the
// other), full bounds, and the use of precise sinf/cosf (which, like NVHPC's
// libm calls, bring their slow-path branches and local-memory tables).
#define A3(p, x, y, z) ((p)[(x) + nx * (y) + nx * ny * (z)])

extern "C" __global__ void __launch_bounds__(512)
sincos_kernel(int nx, int ny, int ns, const float *__restrict__ x,
              const float *__restrict__ y, float *__restrict__ xy)
{
    const int i = blockIdx.y * 512 + threadIdx.x;
    if (i >= nx)
        return;
    for (int k = blockIdx.x; k < ns; k += gridDim.x)
        #pragma unroll 1
        for (int j = 0; j < ny; j++)
            A3(xy, i, j, k) = sinf(A3(x, i, j, k)) + cosf(A3(y, i, j, k));
}
