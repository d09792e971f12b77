// A gather: each thread reads an index, then the input at that index and
// its neighbour, a per-column weight (float2 vector load) and writes one
// output; 2-D indexing so that 1-D and 2-D blocks both make sense.
// Cache-sensitive in the thesis's sense: the gathered lines are reused by
// other warps only if they stay in L1.  Regenerate the PTX with
//   nvcc -arch=sm_80 -ptx -O3 gather.cu -o gather.sm_80.ptx
extern "C" __global__ void gather(float *out, const float *in, const int *idx, const float2 *w, int n, int width)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    int i = y * width + x;
    if (x >= width || i >= n)
        return;
    int j = idx[i];
    float2 c = w[x % 8];
    float a = in[j], b = in[(j + 1) % n];
    out[i] = a * c.x + b * c.y;
}
