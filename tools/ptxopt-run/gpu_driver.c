/* gpu_driver.c — see gpu_driver.h. */
#include "tools/ptxopt-run/gpu_driver.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The name after cuda.h's macros: cuMemAlloc -> "cuMemAlloc_v2". */
#define GPU_STR(x) #x
#define GPU_XSTR(x) GPU_STR(x)

bool gpu_driver_open(GpuDriver *d, char *err, size_t errsz)
{
    memset(d, 0, sizeof *d);
    const char *lib = getenv("PTXOPT_LIBCUDA");
    if (!lib || !*lib) lib = "libcuda.so.1";
    d->handle = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
    if (!d->handle) {
        const char *why = dlerror();
        snprintf(err, errsz, "no NVIDIA driver: %s", why ? why : lib);
        return false;
    }
    const char *missing = NULL;
    void *sym;
#define GPU_LOAD(f)                                        \
    sym = dlsym(d->handle, GPU_XSTR(f));                   \
    if (!sym && !missing) missing = GPU_XSTR(f);           \
    memcpy(&d->f, &sym, sizeof sym);
#define GPU_LOAD_OPTIONAL(f)                               \
    sym = dlsym(d->handle, GPU_XSTR(f));                   \
    memcpy(&d->f, &sym, sizeof sym);
    GPU_DRIVER_FUNCS(GPU_LOAD)
    GPU_DRIVER_OPTIONAL_FUNCS(GPU_LOAD_OPTIONAL)
    if (missing) {
        snprintf(err, errsz, "%s has no %s: not an NVIDIA driver, or one older than CUDA %d.%d's", lib, missing,
                 CUDA_VERSION / 1000, CUDA_VERSION % 1000 / 10);
        dlclose(d->handle);
        d->handle = NULL;
        return false;
    }
    return true;
}

/* Our words for the errors ptxopt-run can meet, for a library that has
 * none (the stub answers cuGetErrorName with CUDA_ERROR_STUB_LIBRARY). */
static const char *own_words(CUresult r, const char **name)
{
    switch (r) {
#define W(e, s) case e: *name = #e; return s;
    W(CUDA_SUCCESS, "no error")
    W(CUDA_ERROR_INVALID_VALUE, "invalid argument")
    W(CUDA_ERROR_OUT_OF_MEMORY, "out of memory")
    W(CUDA_ERROR_NOT_INITIALIZED, "the driver is not initialised")
    W(CUDA_ERROR_STUB_LIBRARY, "this is the CUDA toolkit's stub libcuda.so, not an NVIDIA driver")
    W(CUDA_ERROR_NO_DEVICE, "no CUDA-capable device is detected")
    W(CUDA_ERROR_INVALID_DEVICE, "invalid device ordinal")
    W(CUDA_ERROR_INVALID_IMAGE, "the module is not a valid image")
    W(CUDA_ERROR_INVALID_CONTEXT, "invalid context")
    W(CUDA_ERROR_NO_BINARY_FOR_GPU, "the module has no code for this GPU")
    W(CUDA_ERROR_INVALID_PTX, "the PTX JIT compilation failed")
    W(CUDA_ERROR_UNSUPPORTED_PTX_VERSION, "the PTX version is newer than this driver's")
    W(CUDA_ERROR_JIT_COMPILER_NOT_FOUND, "no PTX JIT compiler")
    W(CUDA_ERROR_NOT_FOUND, "named symbol not found")
    W(CUDA_ERROR_ILLEGAL_ADDRESS, "an illegal memory access was encountered")
    W(CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES, "too many resources requested for launch")
    W(CUDA_ERROR_LAUNCH_TIMEOUT, "the launch timed out")
    W(CUDA_ERROR_MISALIGNED_ADDRESS, "misaligned address")
    W(CUDA_ERROR_ILLEGAL_INSTRUCTION, "an illegal instruction was encountered")
    W(CUDA_ERROR_LAUNCH_FAILED, "unspecified launch failure")
    W(CUDA_ERROR_SYSTEM_DRIVER_MISMATCH, "the system driver and the kernel module do not match")
    W(CUDA_ERROR_INVALID_HANDLE, "invalid resource handle")
#undef W
    default: *name = "CUDA error"; return "unknown error";
    }
}

const char *gpu_error(const GpuDriver *d, CUresult r)
{
    static char buf[320];
    const char *name = NULL, *text = NULL;
    if (d && d->cuGetErrorName && d->cuGetErrorName(r, &name) != CUDA_SUCCESS) name = NULL;
    if (d && d->cuGetErrorString && d->cuGetErrorString(r, &text) != CUDA_SUCCESS) text = NULL;
    const char *own_name, *own = own_words(r, &own_name);
    snprintf(buf, sizeof buf, "%s (%d): %s", name ? name : own_name, (int)r, text ? text : own);
    return buf;
}
