// syrk.cu — PolyBench/GPU 1.0 SYRK (CUDA/SYRK/syrk.cu): C = alpha A A^T + beta C.
// Re-typed from the public source (PolyBench/GPU 1.0, copyright 2012
// University of Delaware, Grauer-Gray et al., InPar 2012; its README states
// the copyright and a citation request, no other licence terms).
// Same access pattern: 2-D blocks of 32x8 (8 warps, thesis Table 5.3), a
// thread per C[i][j] (j = x index), walking a[i*m + k] (uniform in a warp)
// and a[j*m + k] (strided by m across the warp), C updated in memory every
// step (as in the original).  Sizes are parameters here (macros there).
// Launch: grid (ceil(n/32), ceil(n/8)), block (32, 8).
// corpus-archs: sm_80

extern "C" __global__ void syrk_kernel(float alpha, float beta, const float *a, float *c, int n, int m)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < n && j < n) {
        c[i * n + j] *= beta;
        for (int k = 0; k < m; k++)
            c[i * n + j] += alpha * a[i * m + k] * a[j * m + k];
    }
}
