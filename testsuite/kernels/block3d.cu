// 3-D blocks and grids: every thread writes its global coordinates,
// out[i] = x + 1000*y + 1000000*z, its linear thread id within the block to
// tid[i] and its linear block id to blk[i], where i = (z*ny + y)*nx + x
// (uses %tid.y/%tid.z, %ntid.*, %ctaid.z and %nctaid.*).
extern "C" __global__ void block3d(int *out, int *tid, int *blk, int nx, int ny, int nz)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    int z = blockIdx.z * blockDim.z + threadIdx.z;
    if (x >= nx || y >= ny || z >= nz)
        return;
    int i = (z * ny + y) * nx + x;
    out[i] = x + 1000 * y + 1000000 * z;
    tid[i] = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
    blk[i] = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
}
