// 3-D 13-point stencil (radius 2 along each axis) on an nx*ny*nz grid, one
// thread per point with 3-D indexing.  Points closer than 2 to a face are
// copied.
extern "C" __global__ void stencil3d_13pt(float *out, const float *in, int nx, int ny, int nz)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    int z = blockIdx.z * blockDim.z + threadIdx.z;
    if (x >= nx || y >= ny || z >= nz)
        return;
    int plane = nx * ny;
    int i = z * plane + y * nx + x;
    if (x < 2 || y < 2 || z < 2 || x >= nx - 2 || y >= ny - 2 || z >= nz - 2) {
        out[i] = in[i];
        return;
    }
    float c0 = 0.5f, c1 = 0.06f, c2 = 0.02f;
    out[i] = c0 * in[i]
           + c1 * (in[i - 1] + in[i + 1] + in[i - nx] + in[i + nx] + in[i - plane] + in[i + plane])
           + c2 * (in[i - 2] + in[i + 2] + in[i - 2 * nx] + in[i + 2 * nx]
                   + in[i - 2 * plane] + in[i + 2 * plane]);
}
