/* gpu_driver.h — the CUDA driver API, opened at run time (ptxopt-run).
 *
 * ptxopt-run is built with the toolkit's cuda.h but not linked against
 * libcuda: it opens libcuda.so.1 with dlopen when it needs the GPU.  So the
 * same binary runs --help, checks its arguments and says clearly "no NVIDIA
 * driver" on a machine without one (a program linked against libcuda would
 * not even start there), and the tests can point it at the toolkit's stub
 * library ($PTXOPT_LIBCUDA), where every call fails with
 * CUDA_ERROR_STUB_LIBRARY.
 *
 * Each entry point is looked up under the name cuda.h gives it (cuMemAlloc
 * is cuMemAlloc_v2, cuEventElapsedTime is cuEventElapsedTime_v2 in CUDA
 * 13.0), with the prototype cuda.h declares. */
#ifndef PTXOPT_GPU_DRIVER_H
#define PTXOPT_GPU_DRIVER_H

#include <cuda.h>
#include <stdbool.h>
#include <stddef.h>

/* The entry points ptxopt-run uses; cuFuncGetParamInfo (CUDA 12.4) is
 * optional: without it the arguments are not checked against the kernel. */
#define GPU_DRIVER_FUNCS(X) \
    X(cuInit) X(cuDriverGetVersion) X(cuGetErrorName) X(cuGetErrorString) X(cuDeviceGetCount) X(cuDeviceGet) \
    X(cuDeviceGetName) X(cuDeviceGetAttribute) X(cuDevicePrimaryCtxRetain) X(cuDevicePrimaryCtxRelease) \
    X(cuCtxSetCurrent) X(cuCtxSynchronize) X(cuModuleLoadDataEx) X(cuModuleUnload) X(cuModuleGetFunction) X(cuModuleGetGlobal) \
    X(cuFuncGetAttribute) X(cuMemAlloc) X(cuMemFree) X(cuMemcpyHtoD) X(cuMemcpyDtoH) X(cuMemsetD8) \
    X(cuEventCreate) X(cuEventDestroy) X(cuEventRecord) X(cuEventSynchronize) X(cuEventElapsedTime) X(cuLaunchKernel)
#define GPU_DRIVER_OPTIONAL_FUNCS(X) X(cuFuncGetParamInfo)

#define GPU_DRIVER_MEMBER(f) __typeof__(f) *f;
typedef struct GpuDriver {
    void *handle;
    GPU_DRIVER_FUNCS(GPU_DRIVER_MEMBER)
    GPU_DRIVER_OPTIONAL_FUNCS(GPU_DRIVER_MEMBER)
} GpuDriver;

/* Opens $PTXOPT_LIBCUDA, else libcuda.so.1, and finds every entry point.
 * false after writing one line saying why to err. */
bool gpu_driver_open(GpuDriver *d, char *err, size_t errsz);

/* "CUDA_ERROR_NO_DEVICE (100): no CUDA-capable device is detected": the
 * driver's words when it has them, else ours (the stub library has none). */
const char *gpu_error(const GpuDriver *d, CUresult r);

#endif
