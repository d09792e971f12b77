// KernelGen "laplacian" (C, 3-D), CUDA port for the shuffle-synthesis corpus.
//
// Shape (seed-003 §5.2): 7-point stencil
//   w1 = alpha*w0[i,j,k] + beta*(w0[i+1]+w0[i-1]+w0[j+1]+w0[j-1]+w0[k+1]+w0[k-1]).
// Paper Table 2: 2 shuffles / 7 loads, mean |N| = 1.5.
// Loop nest: k gang(65535) (blockIdx.x, strided), j sequential and kept
// rolled (`#pragma unroll 1`: NVHPC does not unroll it, and nvcc's unrolling
// would multiply the loads and CSE them across iterations), i vector(512)
// (threadIdx.x + 512*blockIdx.y).  Guessed: bounds 1..n-2, the two coefficient
// names and the term order (taken from the sibling lapgsrb), float literals.
#define A3(p, x, y, z) ((p)[(x) + nx * (y) + nx * ny * (z)])

extern "C" __global__ void __launch_bounds__(512)
laplacian(int nx, int ny, int ns, float alpha, float beta,
          const float *__restrict__ w0, float *__restrict__ w1)
{
    const int i = 1 + blockIdx.y * 512 + threadIdx.x;
    if (i >= nx - 1)
        return;
    for (int k = 1 + blockIdx.x; k < ns - 1; k += gridDim.x)
        #pragma unroll 1
        for (int j = 1; j < ny - 1; j++)
            A3(w1, i, j, k) = alpha * A3(w0, i, j, k) +
                              beta * (A3(w0, i + 1, j, k) + A3(w0, i - 1, j, k) +
                                      A3(w0, i, j + 1, k) + A3(w0, i, j - 1, k) +
                                      A3(w0, i, j, k + 1) + A3(w0, i, j, k - 1));
}
