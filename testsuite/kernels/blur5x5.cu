// 5x5 box blur on a row-major w*h image with clamp-to-edge addressing.
// Fully unrolled 25-tap loop: many loads at constant x offsets.
extern "C" __global__ void blur5x5(float *out, const float *in, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h)
        return;
    float sum = 0.0f;
#pragma unroll
    for (int dy = -2; dy <= 2; ++dy) {
#pragma unroll
        for (int dx = -2; dx <= 2; ++dx) {
            int xx = min(max(x + dx, 0), w - 1);
            int yy = min(max(y + dy, 0), h - 1);
            sum += in[yy * w + xx];
        }
    }
    out[y * w + x] = sum * (1.0f / 25.0f);
}
