// KernelGen "gradient" (C, 3-D), CUDA port for the shuffle-synthesis corpus.
//
// Shape (seed-003 §5.2): the three central differences of divergence taken over
// a single input u and written to three outputs:
//   gx = alpha*(u[i+1]-u[i-1]), gy = beta*(u[j+1]-u[j-1]), gz = gamma*(u[k+1]-u[k-1]).
// Paper Table 2: 1 shuffle / 6 loads, |N| = 2.
// Loop nest: k gang(65535) (blockIdx.x, strided), j sequential and kept
// rolled (`#pragma unroll 1`: NVHPC does not unroll it, and nvcc's unrolling
// would multiply the loads and CSE them across iterations), i vector(512)
// (threadIdx.x + 512*blockIdx.y).  Guessed: bounds 1..n-2, coefficient names,
// float literals.
#define A3(p, x, y, z) ((p)[(x) + nx * (y) + nx * ny * (z)])

extern "C" __global__ void __launch_bounds__(512)
gradient(int nx, int ny, int ns, float alpha, float beta, float gamma,
         const float *__restrict__ u, float *__restrict__ gx,
         float *__restrict__ gy, float *__restrict__ gz)
{
    const int i = 1 + blockIdx.y * 512 + threadIdx.x;
    if (i >= nx - 1)
        return;
    for (int k = 1 + blockIdx.x; k < ns - 1; k += gridDim.x)
        #pragma unroll 1
        for (int j = 1; j < ny - 1; j++) {
            A3(gx, i, j, k) = alpha * (A3(u, i + 1, j, k) - A3(u, i - 1, j, k));
            A3(gy, i, j, k) = beta * (A3(u, i, j + 1, k) - A3(u, i, j - 1, k));
            A3(gz, i, j, k) = gamma * (A3(u, i, j, k + 1) - A3(u, i, j, k - 1));
        }
}
