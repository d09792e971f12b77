// C++ name mangling: templated kernels (explicitly instantiated for float,
// double and int), a kernel in a namespace, and overloaded kernels.  PTX
// names look like _Z11scale_arrayIfEvPT_PKS0_S0_i.
template <typename T>
__global__ void scale_array(T *out, const T *in, T factor, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i] * factor;
}

template __global__ void scale_array<float>(float *, const float *, float, int);
template __global__ void scale_array<double>(double *, const double *, double, int);
template __global__ void scale_array<int>(int *, const int *, int, int);

// Template with a non-type parameter: out[i] = sum of in[i*K .. i*K+K).
template <int K>
__global__ void chunk_sum(float *out, const float *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float s = 0.0f;
#pragma unroll
    for (int k = 0; k < K; ++k)
        s += in[i * K + k];
    out[i] = s;
}

template __global__ void chunk_sum<4>(float *, const float *, int);
template __global__ void chunk_sum<8>(float *, const float *, int);

namespace ptxopt_test {
namespace detail {
// out[i] = in[i] + 1 (namespaced, so _ZN11ptxopt_test6detail...).
__global__ void increment(int *out, const int *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i] + 1;
}
} // namespace detail
} // namespace ptxopt_test

// Overloads: same name, different parameter types.
__global__ void negate(float *out, const float *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = -in[i];
}

__global__ void negate(int *out, const int *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = -in[i];
}
