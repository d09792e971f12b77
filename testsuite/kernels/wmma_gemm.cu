// Tensor cores through the WMMA API: 16x16x16 half inputs, float
// accumulator.  A is m*k, B is k*n, C is m*n, all row-major; m, n, k are
// multiples of 16.  One warp (blockDim.x = 32) per 16x16 tile of C, grid =
// (n/16, m/16).  Emits wmma.load / wmma.mma / wmma.store (sm_70+).
#include <mma.h>
#include <cuda_fp16.h>
using namespace nvcuda;

extern "C" __global__ void wmma_gemm_f16_f32(float *c, const __half *a, const __half *b,
                                             int m, int n, int k)
{
    int tile_row = blockIdx.y * 16, tile_col = blockIdx.x * 16;
    if (tile_row >= m || tile_col >= n)
        return;
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
    wmma::fill_fragment(fc, 0.0f);
    for (int p = 0; p < k; p += 16) {
        wmma::load_matrix_sync(fa, a + tile_row * k + p, k);
        wmma::load_matrix_sync(fb, b + p * n + tile_col, n);
        wmma::mma_sync(fc, fa, fb, fc);
    }
    wmma::store_matrix_sync(c + tile_row * n + tile_col, fc, n, wmma::mem_row_major);
}
