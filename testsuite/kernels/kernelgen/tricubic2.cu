// KernelGen "tricubic2" (C, 3-D), CUDA port for the shuffle-synthesis corpus.
//
// Shape (seed-003 §5.2; formulas checked against the artifact's
// tricubic2.c): the same interpolation as tricubic, but with the weights in
// arrays wa/wb/wc[4] and the 4x4x4 sum written as three nested loops that
// accumulate into u1[p] (kk outermost, ii innermost).  The loops have
// constant trip counts and are fully unrolled, so the load trace equals
// tricubic's.  Paper Table 2: 48 shuffles / 67 loads, mean |N| = 2.0.
// Loop nest: k gang(65535) (blockIdx.x, strided), j sequential and kept
// rolled (`#pragma unroll 1`: NVHPC does not unroll it, and nvcc's unrolling
// would multiply the loads and CSE them across iterations), i vector(512)
// (threadIdx.x + 512*blockIdx.y); bounds 2..n-3 (tricubic2's, not tricubic's).
// The accumulation into u1 stays in a register because u1 is __restrict__;
// float literals instead of double ones.
#define A3(p, x, y, z) ((p)[(x) + nx * (y) + nx * ny * (z)])

extern "C" __global__ void __launch_bounds__(512)
tricubic2(int nx, int ny, int ns, const float *__restrict__ u0,
          float *__restrict__ u1, const float *__restrict__ a,
          const float *__restrict__ b, const float *__restrict__ c)
{
    const int i = 2 + blockIdx.y * 512 + threadIdx.x;
    if (i >= nx - 2)
        return;
    for (int k = 2 + blockIdx.x; k < ns - 2; k += gridDim.x)
        #pragma unroll 1
        for (int j = 2; j < ny - 2; j++) {
            float wa[4], wb[4], wc[4];
            const float av = A3(a, i, j, k), bv = A3(b, i, j, k), cv = A3(c, i, j, k);
            wa[0] = 1.0f / 6.0f * av * (av + 1.0f) * (av + 2.0f);
            wa[1] = -0.5f * (av - 1.0f) * (av + 1.0f) * (av + 2.0f);
            wa[2] = 0.5f * (av - 1.0f) * av * (av + 2.0f);
            wa[3] = -1.0f / 6.0f * (av - 1.0f) * av * (av + 1.0f);
            wb[0] = 1.0f / 6.0f * bv * (bv + 1.0f) * (bv + 2.0f);
            wb[1] = -0.5f * (bv - 1.0f) * (bv + 1.0f) * (bv + 2.0f);
            wb[2] = 0.5f * (bv - 1.0f) * bv * (bv + 2.0f);
            wb[3] = -1.0f / 6.0f * (bv - 1.0f) * bv * (bv + 1.0f);
            wc[0] = 1.0f / 6.0f * cv * (cv + 1.0f) * (cv + 2.0f);
            wc[1] = -0.5f * (cv - 1.0f) * (cv + 1.0f) * (cv + 2.0f);
            wc[2] = 0.5f * (cv - 1.0f) * cv * (cv + 2.0f);
            wc[3] = -1.0f / 6.0f * (cv - 1.0f) * cv * (cv + 1.0f);

            A3(u1, i, j, k) = 0.0f;
#pragma unroll
            for (int kk = 0; kk < 4; kk++)
#pragma unroll
                for (int jj = 0; jj < 4; jj++)
#pragma unroll
                    for (int ii = 0; ii < 4; ii++)
                        A3(u1, i, j, k) += wa[ii] * wb[jj] * wc[kk] *
                                           A3(u0, i + ii - 1, j + jj - 1, k + kk - 1);
        }
}
