// atax.cu — PolyBench/GPU 1.0 ATAX (CUDA/ATAX/atax.cu): y = A^T (A x).
// Re-typed from the public source (PolyBench/GPU 1.0, copyright 2012
// University of Delaware, Grauer-Gray et al., InPar 2012; its README states
// the copyright and a citation request, no other licence terms).
// Same access pattern: kernel 1 gives each thread a row i and walks
// A[i*ny + j] along the row (32 rows per warp: uncoalesced, the reuse lives
// in L1), reading and writing tmp[i] every step (no restrict, as in the
// original); kernel 2 gives each thread a column j (coalesced A).  The
// problem size is a parameter here (a macro there).  Launch: 256 threads
// per block (8 warps, thesis Table 5.3), 1-D grid.
// corpus-archs: sm_80

extern "C" __global__ void atax_kernel1(const float *A, const float *x, float *tmp, int nx, int ny)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < nx)
        for (int j = 0; j < ny; j++)
            tmp[i] += A[i * ny + j] * x[j];
}

extern "C" __global__ void atax_kernel2(const float *A, float *y, const float *tmp, int nx, int ny)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j < ny)
        for (int i = 0; i < nx; i++)
            y[j] += A[i * ny + j] * tmp[i];
}
