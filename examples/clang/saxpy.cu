// The clang recipe's example (ptxopt-nvcc(1), CLANG): a kernel and its
// launch, compiled by clang 14 against CUDA 13 through ptxopt.
#include "cuda_min.h"
#include <stdio.h>

__global__ void saxpy(float a, const float *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}

int main()
{
    float *x = 0, *y = 0;
    saxpy<<<1, 32>>>(2.0f, x, y, 0);
    cudaError_t e = cudaDeviceSynchronize();
    printf("saxpy: %s\n", cudaGetErrorString(e));
    return 0;
}
