// SAXPY with a grid-stride loop: y[i] = a*x[i] + y[i] for all i < n,
// whatever the launch size.
extern "C" __global__ void grid_stride_saxpy(float *y, const float *x, float a, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        y[i] = a * x[i] + y[i];
}
