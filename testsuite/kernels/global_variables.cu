// Module-scope device variables: an initialised __device__ array (.global
// with initializer), a __device__ counter, a __managed__ variable and a
// static __device__ table (internal linkage, .global without .visible).
// out[i] = g_table[i & 7] + s_bias[i & 3] + g_managed; g_counter counts calls.
__device__ float g_table[8] = { 0.5f, 1.5f, 2.5f, 3.5f, 4.5f, 5.5f, 6.5f, 7.5f };
__device__ unsigned g_counter;
__managed__ float g_managed = 10.0f;
static __device__ float s_bias[4] = { -1.0f, 0.0f, 1.0f, 2.0f };

extern "C" __global__ void global_variables(float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    out[i] = g_table[i & 7] + s_bias[i & 3] + g_managed;
    atomicAdd(&g_counter, 1u);
}
