// High register pressure: many live accumulators.
extern "C" __global__ void pressure(const float *__restrict__ in, float *__restrict__ out, int n)
{
    float acc[64];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
#pragma unroll
    for (int k = 0; k < 64; k++) acc[k] = in[i + k * n];
    float s = 0.f;
#pragma unroll
    for (int r = 0; r < 6; r++) {
#pragma unroll
        for (int k = 0; k < 64; k++) acc[k] = fmaf(acc[k], acc[(k * 7 + r + 1) % 64], s);
        s += acc[r * 5];
    }
#pragma unroll
    for (int k = 0; k < 64; k++) out[i + k * n] = acc[k];
}

extern "C" __global__ void tiled(const float *__restrict__ in, float *__restrict__ out, int n)
{
    __shared__ float tile[32][33];
    float acc[24];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
#pragma unroll
    for (int k = 0; k < 24; k++) acc[k] = in[i + k * n];
    tile[threadIdx.y][threadIdx.x] = acc[0];
    __syncthreads();
#pragma unroll
    for (int r = 0; r < 4; r++) {
#pragma unroll
        for (int k = 0; k < 24; k++) acc[k] = fmaf(acc[k], acc[(k * 5 + r + 1) % 24], tile[threadIdx.x][(k + r) % 32]);
    }
#pragma unroll
    for (int k = 0; k < 24; k++) out[i + k * n] = acc[k];
}
