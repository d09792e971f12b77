// Surface object write: surf2Dwrite of in[y*w+x] * 3 to a 2-D float surface
// (x coordinate in bytes), plus a surf2Dread of the same surface in a second
// kernel.  Emits sust.b.2d / suld.b.2d.
extern "C" __global__ void surface_write_2d(cudaSurfaceObject_t surf, const float *in, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < w && y < h)
        surf2Dwrite(3.0f * in[y * w + x], surf, x * (int)sizeof(float), y);
}

extern "C" __global__ void surface_read_2d(float *out, cudaSurfaceObject_t surf, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < w && y < h)
        out[y * w + x] = surf2Dread<float>(surf, x * (int)sizeof(float), y);
}
