// Texture object reads: tex1Dfetch on a linear buffer (integer index, no
// filtering) and tex2D on a 2-D array at texel centres (x+0.5, y+0.5).
// Emits tex.1d / tex.2d with a .texref operand passed as a u64 parameter.
extern "C" __global__ void texture_read_1d(float *out, cudaTextureObject_t tex, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = 2.0f * tex1Dfetch<float>(tex, i);
}

extern "C" __global__ void texture_read_2d(float *out, cudaTextureObject_t tex, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < w && y < h)
        out[y * w + x] = tex2D<float>(tex, x + 0.5f, y + 0.5f);
}
