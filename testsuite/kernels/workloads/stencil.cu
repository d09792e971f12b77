// stencil.cu — Parboil 2.5 stencil (src/cuda_base/kernels.cu, naive_kernel):
// a 7-point Jacobi step on an nx*ny*nz grid.  Re-typed from the public
// source (Parboil, University of Illinois, NCSA/UIUC open-source licence).
// Same loads as the naive kernel (A0 at the centre and its six neighbours,
// x fastest); the launch shape is that of Parboil's optimised
// block2D_hybrid_coarsen_x version the thesis ran (2-D blocks of 32x4,
// 4 warps, thesis Table 5.3; each thread walks its (i, j) column along z),
// without that version's shared-memory tile, so every neighbour is a
// global load.  Launch: grid (ceil((nx-2)/32), ceil((ny-2)/4)), block (32, 4).
// corpus-archs: sm_80

#define Index3D(_nx, _ny, _i, _j, _k) ((_i) + (_nx) * ((_j) + (_ny) * (_k)))

extern "C" __global__ void stencil7(float c0, float c1, const float *A0, float *Anext, int nx, int ny, int nz)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x + 1;
    int j = blockIdx.y * blockDim.y + threadIdx.y + 1;
    if (i >= nx - 1 || j >= ny - 1)
        return;
    for (int k = 1; k < nz - 1; k++) {
        Anext[Index3D(nx, ny, i, j, k)] =
            (A0[Index3D(nx, ny, i, j, k + 1)] + A0[Index3D(nx, ny, i, j, k - 1)] +
             A0[Index3D(nx, ny, i, j + 1, k)] + A0[Index3D(nx, ny, i, j - 1, k)] +
             A0[Index3D(nx, ny, i + 1, j, k)] + A0[Index3D(nx, ny, i - 1, j, k)]) * c1 -
            A0[Index3D(nx, ny, i, j, k)] * c0;
    }
}
