/* gpu_bench.h — one GPU, modules on it, and timed launches (ptxopt-run).
 *
 * A launch's global buffers are allocated once and shared by every module
 * launched (same sizes, same inputs); before each launch the inputs are
 * copied in again, so every run (checked or timed) starts from the same
 * data whatever the kernel writes, and then the L2 cache is flushed by
 * writing a buffer twice its size.  The time of a launch is between two
 * events on the default stream around the launch alone. */
#ifndef PTXOPT_GPU_BENCH_H
#define PTXOPT_GPU_BENCH_H

#include <stdbool.h>
#include <stdint.h>

#include "tools/ptxopt-run/gpu_driver.h"
#include "emu/emu.h"

typedef struct GpuSession {
    GpuDriver drv;
    CUdevice dev;
    CUcontext ctx;
    bool have_ctx;
    int ordinal;
    char name[256];
    int cc_major, cc_minor, sms, l2_bytes, driver_version;
    CUdeviceptr flush;           /* the L2 flush buffer, or 0 */
    size_t flush_bytes;
    CUevent start, stop;
} GpuSession;

/* The global buffers of a launch and their first contents. */
typedef struct GpuBuffers {
    const EmuArg *args;
    int nargs;
    uint8_t **host;              /* per argument: the input (NULL for scalars) */
    size_t *bytes;
    CUdeviceptr *dev;
    void **params;               /* what cuLaunchKernel reads, per argument */
} GpuBuffers;

enum { GPU_OK = 0, GPU_FAILED = 1, GPU_SETUP = 2, GPU_NO_DEVICE = 3 };

/* Opens the driver and device `ordinal`: GPU_OK, or GPU_NO_DEVICE (no
 * driver, the stub, no device) or GPU_SETUP (no such ordinal) with one
 * line in err. */
int gpu_session_open(GpuSession *s, int ordinal, bool flush_l2, char *err, size_t errsz);
void gpu_session_close(GpuSession *s);

/* Loads a PTX (JIT-compiled by the driver; its log comes back in err) or
 * cubin image and finds the kernel; *regs is its registers per thread. */
bool gpu_load_kernel(GpuSession *s, const char *path, const char *image, const char *kernel, CUmodule *mod, CUfunction *fn,
                     int *regs, char *err, size_t errsz);

/* --set-global: writes g's value, with the size cuModuleGetGlobal reports
 * (4 or 8 bytes), into the module variable g->name.  GPU_OK; GPU_FAILED
 * when the module has no such variable (CUDA_ERROR_NOT_FOUND: the caller
 * decides); GPU_SETUP with one line in err (another size, a value that
 * does not fit, a driver error). */
int gpu_set_global(GpuSession *s, CUmodule mod, const EmuGlobalSet *g, char *err, size_t errsz);

/* The arguments must match the kernel's parameters in number and size
 * (when the driver can say: cuFuncGetParamInfo). */
bool gpu_check_params(GpuSession *s, CUfunction fn, const EmuArg *args, int nargs, char *err, size_t errsz);

bool gpu_buffers_alloc(GpuSession *s, GpuBuffers *b, const EmuArg *args, int nargs, char *err, size_t errsz);
void gpu_buffers_free(GpuSession *s, GpuBuffers *b);

/* One launch from fresh inputs (and a flushed L2 when the session has a
 * flush buffer); *ms its time.  false with the driver's words in err (a
 * kernel fault, a launch the GPU cannot run). */
bool gpu_launch(GpuSession *s, CUfunction fn, GpuBuffers *b, const uint32_t grid[3], const uint32_t block[3],
                uint32_t shared_dyn, float *ms, char *err, size_t errsz);

/* The buffers as the last launch left them, into out->bufs (for
 * emu_compare_buffers; free with emu_result_free). */
bool gpu_download(GpuSession *s, GpuBuffers *b, EmuResult *out, char *err, size_t errsz);

#endif
