// gesummv.cu — PolyBench/GPU 1.0 GESUMMV (CUDA/GESUMMV/gesummv.cu): y = alpha A x + beta B x.
// Re-typed from the public source (PolyBench/GPU 1.0, copyright 2012
// University of Delaware, Grauer-Gray et al., InPar 2012; its README states
// the copyright and a citation request, no other licence terms).
// Same access pattern: a thread per row i walks a[i*n + j] and b[i*n + j]
// along the row (uncoalesced, two streams competing for L1) with x[j]
// uniform, updating tmp[i] and y[i] in memory every step (no restrict, as
// in the original).  The problem size is a parameter here (a macro there).
// Launch: 256 threads per block (8 warps, thesis Table 5.3), 1-D grid.
// corpus-archs: sm_80

#define ALPHA 43532.0f
#define BETA 12313.0f

extern "C" __global__ void gesummv_kernel(const float *a, const float *b, const float *x, float *y,
                                          float *tmp, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        for (int j = 0; j < n; j++) {
            tmp[i] += a[i * n + j] * x[j];
            y[i] += b[i * n + j] * x[j];
        }
        y[i] = ALPHA * tmp[i] + BETA * y[i];
    }
}
