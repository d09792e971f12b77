// 64-bit pointer arithmetic with size_t indices (no 32-bit truncation:
// mul.wide/cvt.u64 patterns and 64-bit address adds).  Copies a sub-matrix:
// out[r*ld_out + c] = in[(r + r0)*ld_in + c + c0] for r < rows, c < cols.
#include <cstddef>

extern "C" __global__ void size_t_pointers(float *out, const float *in, size_t rows, size_t cols,
                                           size_t ld_out, size_t ld_in, size_t r0, size_t c0)
{
    size_t c = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    size_t r = (size_t)blockIdx.y * blockDim.y + threadIdx.y;
    if (r >= rows || c >= cols)
        return;
    const float *src = in + (r + r0) * ld_in + c0;
    float *dst = out + r * ld_out;
    dst[c] = src[c];
}

// Pointer difference and pointer-sized grid stride: out[k] = 2*k for k < n,
// where p walks base by 64-bit strides.
extern "C" __global__ void pointer_walk(long long *out, const float *base, size_t n)
{
    size_t stride = (size_t)blockDim.x * gridDim.x;
    for (const float *p = base + (size_t)blockIdx.x * blockDim.x + threadIdx.x; p < base + n; p += stride)
        out[p - base] = (long long)(p - base) * 2;
}
