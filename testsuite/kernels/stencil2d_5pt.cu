// 2-D 5-point stencil on a row-major nx*ny grid with 2-D blocks.  Interior
// points get the average of themselves and their four neighbours; boundary
// points are copied.
extern "C" __global__ void stencil2d_5pt(float *out, const float *in, int nx, int ny)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= nx || y >= ny)
        return;
    int i = y * nx + x;
    if (x == 0 || y == 0 || x == nx - 1 || y == ny - 1) {
        out[i] = in[i];
        return;
    }
    out[i] = 0.2f * (in[i] + in[i - 1] + in[i + 1] + in[i - nx] + in[i + nx]);
}
