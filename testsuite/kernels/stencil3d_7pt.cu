// 3-D 7-point stencil on an nx*ny*nz grid (x fastest).  2-D blocks over x/y,
// each thread marches along z.  Boundary points are copied.
extern "C" __global__ void stencil3d_7pt(float *out, const float *in, int nx, int ny, int nz)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= nx || y >= ny)
        return;
    int plane = nx * ny;
    for (int z = 0; z < nz; ++z) {
        int i = z * plane + y * nx + x;
        if (x == 0 || y == 0 || z == 0 || x == nx - 1 || y == ny - 1 || z == nz - 1) {
            out[i] = in[i];
            continue;
        }
        out[i] = 0.4f * in[i]
               + 0.1f * (in[i - 1] + in[i + 1] + in[i - nx] + in[i + nx]
                         + in[i - plane] + in[i + plane]);
    }
}
