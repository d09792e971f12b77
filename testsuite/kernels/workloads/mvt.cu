// mvt.cu — PolyBench/GPU 1.0 MVT (CUDA/MVT/mvt.cu): x1 += A y1, x2 += A^T y2.
// Re-typed from the public source (PolyBench/GPU 1.0, copyright 2012
// University of Delaware, Grauer-Gray et al., InPar 2012; its README states
// the copyright and a citation request, no other licence terms).
// Same access pattern: kernel 1 a thread per row (a[i*n + j], uncoalesced),
// kernel 2 a thread per column (a[j*n + i], coalesced), y uniform, x
// updated in memory every step (no restrict, as in the original).  The
// problem size is a parameter here (a macro there).  Launch: 256 threads
// per block (8 warps, thesis Table 5.3), 1-D grid.
// corpus-archs: sm_80

extern "C" __global__ void mvt_kernel1(const float *a, float *x1, const float *y_1, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        for (int j = 0; j < n; j++)
            x1[i] += a[i * n + j] * y_1[j];
}

extern "C" __global__ void mvt_kernel2(const float *a, float *x2, const float *y_2, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        for (int j = 0; j < n; j++)
            x2[i] += a[j * n + i] * y_2[j];
}
