// corpus-flags: --extended-lambda
// C++ features that shape PTX names and calls: a kernel template taking a
// functor by value (struct param with a mangled type name), a lambda
// instantiation, and a static member function called as __noinline__.
struct add_bias {
    float bias;
    __device__ float operator()(float x) const { return x + bias; }
};

struct clamp01 {
    __device__ float operator()(float x) const { return fminf(fmaxf(x, 0.0f), 1.0f); }
};

struct helpers {
    __device__ __noinline__ static float twice(float x) { return 2.0f * x; }
};

// out[i] = twice(f(in[i])).
template <typename F>
__global__ void transform(float *out, const float *in, F f, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = helpers::twice(f(in[i]));
}

template __global__ void transform<add_bias>(float *, const float *, add_bias, int);
template __global__ void transform<clamp01>(float *, const float *, clamp01, int);

// Instantiated for a lambda type through a host-side launcher (only the
// device code lands in the PTX); the lambda computes x*x - 1.
void launch_square_minus_one(float *out, const float *in, int n)
{
    auto sq = [] __device__(float x) { return x * x - 1.0f; };
    transform<<<(n + 127) / 128, 128>>>(out, in, sq, n);
}
