// bicg.cu — PolyBench/GPU 1.0 BICG (CUDA/BICG/bicg.cu): the BiCG sub-kernels s = A^T r, q = A p.
// Re-typed from the public source (PolyBench/GPU 1.0, copyright 2012
// University of Delaware, Grauer-Gray et al., InPar 2012; its README states
// the copyright and a citation request, no other licence terms).
// Same access pattern: kernel 1 a thread per column j (coalesced A, r[i]
// uniform), kernel 2 a thread per row i (A[i*ny + j] along the row,
// uncoalesced).  The problem size is a parameter here (a macro there).
// Launch: 256 threads per block (8 warps, thesis Table 5.3), 1-D grid.
// corpus-archs: sm_80

extern "C" __global__ void bicg_kernel1(const float *A, const float *r, float *s, int nx, int ny)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j < ny) {
        s[j] = 0.0f;
        for (int i = 0; i < nx; i++)
            s[j] += A[i * ny + j] * r[i];
    }
}

extern "C" __global__ void bicg_kernel2(const float *A, const float *p, float *q, int nx, int ny)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < nx) {
        q[i] = 0.0f;
        for (int j = 0; j < ny; j++)
            q[i] += A[i * ny + j] * p[j];
    }
}
