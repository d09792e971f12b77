// KernelGen "divergence" (C, 3-D), CUDA port for the shuffle-synthesis corpus.
//
// Shape (seed-003 §5.1-5.2): w = alpha*(ux[i+1]-ux[i-1]) + beta*(uy[j+1]-uy[j-1])
// + gamma*(uz[k+1]-uz[k-1]).  Paper Table 2: 1 shuffle / 6 loads, |N| = 2.
// Loop nest as in the OpenACC original: k is the gang(65535) loop (blockIdx.x,
// strided by gridDim.x), j is a plain "loop independent" (sequential here and
// kept rolled with `#pragma unroll 1`, as NVHPC leaves it; nvcc would unroll it
// and CSE loads across iterations),
// i is the vector(512) loop (threadIdx.x, chunks of 512 over blockIdx.y).
// Guessed: interior bounds 1..n-2 on every axis and the names of the
// coefficients; float literals instead of C double ones.
#define A3(p, x, y, z) ((p)[(x) + nx * (y) + nx * ny * (z)])

extern "C" __global__ void __launch_bounds__(512)
divergence(int nx, int ny, int ns, float alpha, float beta, float gamma,
           const float *__restrict__ ux, const float *__restrict__ uy,
           const float *__restrict__ uz, float *__restrict__ w)
{
    const int i = 1 + blockIdx.y * 512 + threadIdx.x;
    if (i >= nx - 1)
        return;
    for (int k = 1 + blockIdx.x; k < ns - 1; k += gridDim.x)
        #pragma unroll 1
        for (int j = 1; j < ny - 1; j++)
            A3(w, i, j, k) = alpha * (A3(ux, i + 1, j, k) - A3(ux, i - 1, j, k)) +
                             beta * (A3(uy, i, j + 1, k) - A3(uy, i, j - 1, k)) +
                             gamma * (A3(uz, i, j, k + 1) - A3(uz, i, j, k - 1));
}
