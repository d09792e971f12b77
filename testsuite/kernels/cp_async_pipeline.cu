// corpus-archs: sm_80 sm_86 sm_89 sm_90
// Asynchronous global->shared copies with the pipeline primitives
// (cp.async.ca 4-byte and cp.async.cg 16-byte, commit_group, wait_group).
// Each block stages its segment and writes it back reversed and doubled:
// out[base + t] = 2 * in[base + blockDim.x - 1 - t]  (full blocks only;
// n must be a multiple of blockDim.x, blockDim.x <= 256).
#include <cuda_pipeline.h>

extern "C" __global__ void cp_async_reverse(float *out, const float *in, int n)
{
    __shared__ float s[256];
    int base = blockIdx.x * blockDim.x;
    if (base >= n)
        return;
    __pipeline_memcpy_async(&s[threadIdx.x], &in[base + threadIdx.x], sizeof(float));
    __pipeline_commit();
    __pipeline_wait_prior(0);
    __syncthreads();
    out[base + threadIdx.x] = 2.0f * s[blockDim.x - 1 - threadIdx.x];
}

// 16-byte copies of float4, double-buffered over a grid-stride loop of
// tiles of blockDim.x float4s: out4[j] = in4[j] + 1 on every component.
extern "C" __global__ void cp_async_double_buffer(float4 *out4, const float4 *in4, int n4)
{
    __shared__ float4 s[2][256];
    int stride = blockDim.x * gridDim.x;
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int buf = 0;
    if (j < n4)
        __pipeline_memcpy_async(&s[0][threadIdx.x], &in4[j], sizeof(float4));
    __pipeline_commit();
    for (; j < n4; j += stride) {
        int next = j + stride;
        if (next < n4)
            __pipeline_memcpy_async(&s[buf ^ 1][threadIdx.x], &in4[next], sizeof(float4));
        __pipeline_commit();
        __pipeline_wait_prior(1);
        float4 v = s[buf][threadIdx.x];
        out4[j] = make_float4(v.x + 1.0f, v.y + 1.0f, v.z + 1.0f, v.w + 1.0f);
        buf ^= 1;
    }
}
