/* cuda_min.h — what clang 14 needs to compile CUDA against CUDA 12 or 13,
 * whose headers it cannot parse (clang 14 supports CUDA up to 11.5;
 * CUDA 12 removed the texture references that clang's CUDA wrapper
 * headers still use).  Compile with -nocudainc and include this instead of
 * <cuda_runtime.h>: the execution-space attributes, clang's own threadIdx,
 * blockIdx, blockDim, gridDim and warpSize, dim3, and the runtime functions
 * that a kernel launch (<<<...>>>) turns into.  Device code has clang's
 * builtins and libdevice, not CUDA's device headers (no __shfl_sync etc.
 * from <cuda_runtime.h>: use __nvvm_shfl_sync_* or write them).  See
 * the clang recipe in ptxopt-nvcc(1). */
#ifndef PTXOPT_EXAMPLES_CUDA_MIN_H
#define PTXOPT_EXAMPLES_CUDA_MIN_H

#include <stddef.h>

#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __host__ __attribute__((host))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))

#include <__clang_cuda_builtin_vars.h>

struct dim3 {
    unsigned x, y, z;
    __host__ __device__ dim3(unsigned x_ = 1, unsigned y_ = 1, unsigned z_ = 1) : x(x_), y(y_), z(z_) {}
};

typedef struct CUstream_st *cudaStream_t;
typedef int cudaError_t;

extern "C" {
unsigned __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem = 0, cudaStream_t stream = 0);
cudaError_t cudaLaunchKernel(const void *func, dim3 gridDim, dim3 blockDim, void **args, size_t sharedMem,
                             cudaStream_t stream);
cudaError_t cudaMalloc(void **p, size_t bytes);
cudaError_t cudaFree(void *p);
cudaError_t cudaMemcpy(void *dst, const void *src, size_t bytes, int kind);
cudaError_t cudaDeviceSynchronize(void);
const char *cudaGetErrorString(cudaError_t e);
}

#endif
