// Butterfly warp reduction with __shfl_xor_sync: every lane ends with the
// warp's maximum and sum, written per element (out_max[i], out_sum[i]).
// Lanes with i >= n take part with -3e38 / 0; blockDim.x a multiple of 32.
extern "C" __global__ void warp_reduce_xor(float *out_max, int *out_sum, const float *in,
                                           const int *vals, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float m = (i < n) ? in[i] : -3.0e38f;
    int s = (i < n) ? vals[i] : 0;
#pragma unroll
    for (int mask = 1; mask < 32; mask <<= 1) {
        m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, mask));
        s += __shfl_xor_sync(0xffffffffu, s, mask);
    }
    if (i < n) {
        out_max[i] = m;
        out_sum[i] = s;
    }
}
