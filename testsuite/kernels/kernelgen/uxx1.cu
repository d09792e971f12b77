// KernelGen "uxx1" (C, 3-D), CUDA port for the shuffle-synthesis corpus.
//
// Shape (seed-003 §5.2; terms checked against the artifact's uxx1.c): 4th-order
// staggered differences,
//   d  = 0.25*(d1[i,j,k] + d1[i,j-1,k] + d1[i,j,k-1] + d1[i,j-1,k-1])
//   u1 = u0 + (dth/d)*( c1*(xx[i]-xx[i-1]) + c2*(xx[i+1]-xx[i-2])
//                     + c1*(xy[j]-xy[j-1]) + c2*(xy[j+1]-xy[j-2])
//                     + c1*(xz[k]-xz[k-1]) + c2*(xz[k+1]-xz[k-2]) )
// with dth = 1/nx.  Paper Table 2: 3 shuffles / 17 loads, mean |N| = 2.0.
// Loop nest: k gang(65535) (blockIdx.x, strided), j sequential and kept
// rolled (`#pragma unroll 1`: NVHPC does not unroll it, and nvcc's unrolling
// would multiply the loads and CSE them across iterations), i vector(512)
// (threadIdx.x + 512*blockIdx.y); bounds 2..n-2 as in the original
// (lower 2, upper n-1 exclusive).  Float literals instead of C double ones.
#define A3(p, x, y, z) ((p)[(x) + nx * (y) + nx * ny * (z)])

extern "C" __global__ void __launch_bounds__(512)
uxx1(int nx, int ny, int ns, float c1, float c2,
     const float *__restrict__ u0, float *__restrict__ u1,
     const float *__restrict__ d1, const float *__restrict__ xx,
     const float *__restrict__ xy, const float *__restrict__ xz)
{
    const float dth = 1.0f / nx;
    const int i = 2 + blockIdx.y * 512 + threadIdx.x;
    if (i >= nx - 1)
        return;
    for (int k = 2 + blockIdx.x; k < ns - 1; k += gridDim.x)
        #pragma unroll 1
        for (int j = 2; j < ny - 1; j++) {
            float d = 0.25f * (A3(d1, i, j, k) + A3(d1, i, j - 1, k) +
                               A3(d1, i, j, k - 1) + A3(d1, i, j - 1, k - 1));
            A3(u1, i, j, k) = A3(u0, i, j, k) + (dth / d) *
                (c1 * (A3(xx, i, j, k) - A3(xx, i - 1, j, k)) +
                 c2 * (A3(xx, i + 1, j, k) - A3(xx, i - 2, j, k)) +
                 c1 * (A3(xy, i, j, k) - A3(xy, i, j - 1, k)) +
                 c2 * (A3(xy, i, j + 1, k) - A3(xy, i, j - 2, k)) +
                 c1 * (A3(xz, i, j, k) - A3(xz, i, j, k - 1)) +
                 c2 * (A3(xz, i, j, k + 1) - A3(xz, i, j, k - 2)));
        }
}
