// KernelGen "matmul" (Fortran in the paper, 2-D), CUDA port for the
// shuffle-synthesis corpus.
//
// Shape (seed-003 §5.1): c(i,j) = sum_k a(i,k)*b(k,j), the i,j loops parallel
// (j gang(65535), i vector(512)) and k an inner sequential loop.  All loads sit
// in that sequential loop; a(i,k) and a(i,k+1) differ along k, not along the
// thread dimension, and b(k,j) is warp-uniform, so there is nothing to
// shuffle.  Paper Table 2: 0 shuffles / 8 loads (NVHPC unrolled k by 4:
// 4 loads of a + 4 of b).
// Column-major (Fortran): a(i,k) = a[i + nx*k], b(k,j) = b[k + nk*j],
// c(i,j) = c[i + nx*j].  Guessed: the argument names/extents, the
// accumulation in a register, and `#pragma unroll 4` to mirror NVHPC's unroll.
extern "C" __global__ void __launch_bounds__(512)
matmul(int nx, int ny, int nk, const float *__restrict__ a,
       const float *__restrict__ b, float *__restrict__ c)
{
    const int i = blockIdx.y * 512 + threadIdx.x;
    if (i >= nx)
        return;
    for (int j = blockIdx.x; j < ny; j += gridDim.x) {
        float sum = 0.0f;
#pragma unroll 4
        for (int k = 0; k < nk; k++)
            sum += a[i + nx * k] * b[k + nk * j];
        c[i + nx * j] = sum;
    }
}
