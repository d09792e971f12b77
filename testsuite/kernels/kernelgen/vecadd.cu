// KernelGen "vecadd" (C, 3-D), CUDA port for the shuffle-synthesis corpus.
//
// Shape (seed-003 §5.1): c = a + b elementwise; no input is read twice, so
// there is nothing to shuffle.  Paper Table 2: 0 shuffles / 2 loads.
// Loop nest: k gang(65535) (blockIdx.x, strided), j sequential and kept
// rolled (`#pragma unroll 1`: NVHPC does not unroll it, and nvcc's unrolling
// would multiply the loads and CSE them across iterations), i vector(512)
// (threadIdx.x + 512*blockIdx.y).  Guessed: full bounds 0..n-1 and the names.
#define A3(p, x, y, z) ((p)[(x) + nx * (y) + nx * ny * (z)])

extern "C" __global__ void __launch_bounds__(512)
vecadd(int nx, int ny, int ns, const float *__restrict__ a,
       const float *__restrict__ b, float *__restrict__ c)
{
    const int i = blockIdx.y * 512 + threadIdx.x;
    if (i >= nx)
        return;
    for (int k = blockIdx.x; k < ns; k += gridDim.x)
        #pragma unroll 1
        for (int j = 0; j < ny; j++)
            A3(c, i, j, k) = A3(a, i, j, k) + A3(b, i, j, k);
}
