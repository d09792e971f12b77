// Warp-synchronous code with partial masks: __syncwarp(mask), shuffles
// restricted to the lower half-warp (mask 0x0000ffff, width 16), and a
// __shfl_sync broadcast from lane 0.  For lanes 0..15 of each warp:
// out[i] = sum of in over lanes 0..15 of the warp; lanes 16..31:
// out[i] = in[lane 0 of the warp] * 2.  n must be a multiple of 32.
extern "C" __global__ void warp_sync_partial(float *out, const float *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int lane = threadIdx.x & 31;
    float v = in[i];
    float lane0 = __shfl_sync(0xffffffffu, v, 0);
    if (lane < 16) {
        float s = v;
        for (int off = 8; off > 0; off >>= 1)
            s += __shfl_xor_sync(0x0000ffffu, s, off, 16);
        __syncwarp(0x0000ffffu);
        out[i] = s;
    } else {
        __syncwarp(0xffff0000u);
        out[i] = lane0 * 2.0f;
    }
}
