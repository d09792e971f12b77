// spmv.cu — Parboil 2.5 spmv (src/cuda/gpu_kernels.cu, spmv_jds): sparse
// matrix times vector in jagged diagonal storage.  Re-typed from the public
// source (Parboil, University of Illinois, NCSA/UIUC open-source licence).
// Same access pattern: a thread per (permuted) row walks the jagged
// diagonals: jds_ptr[k] (uniform), data[] and index[] (coalesced) and the
// gather x[index] (irregular; a texture fetch in the original, a global load
// here); the per-block diagonal count sh_zcnt[] bounds the walk, and the
// result goes to dst[perm[ix]].  The original's two-way unrolled loop is
// written as one loop (nvcc unrolls it).  Launch: 192 threads per block
// (6 warps, thesis Table 5.3), 1-D grid.
// corpus-archs: sm_80

extern "C" __global__ void spmv_jds(float *dst, const float *data, const int *index, const int *perm,
                                    const float *x, int dim, const int *jds_ptr, const int *sh_zcnt)
{
    int ix = blockIdx.x * blockDim.x + threadIdx.x;
    if (ix < dim) {
        float sum = 0.0f;
        int bound = sh_zcnt[blockIdx.x];
        for (int k = 0; k < bound; k++) {
            int j = jds_ptr[k] + ix;
            int in = index[j];
            float d = data[j];
            float t = x[in];
            sum += d * t;
        }
        dst[perm[ix]] = sum;
    }
}
