// __constant__ memory: filter taps and a scale are set with
// cudaMemcpyToSymbol (ld.const).  out[i] = scale * sum_k taps[k] *
// in[clamp(i + k - 8)], k = 0..16.  A second, initialised constant table
// shows .const with an initializer.
__constant__ float c_taps[17];
__constant__ float c_scale;
__constant__ int c_perm[8] = { 3, 1, 4, 0, 6, 5, 7, 2 };

extern "C" __global__ void constant_fir(float *out, const float *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float acc = 0.0f;
#pragma unroll
    for (int k = 0; k < 17; ++k) {
        int j = min(max(i + k - 8, 0), n - 1);
        acc += c_taps[k] * in[j];
    }
    out[i] = c_scale * acc;
}

// out[i] = in[(i & ~7) + c_perm[i & 7]]  (n a multiple of 8).
extern "C" __global__ void constant_permute(float *out, const float *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[(i & ~7) + c_perm[i & 7]];
}
