/* gpu_bench.c — see gpu_bench.h. */
#include "tools/ptxopt-run/gpu_bench.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/fatal.h"

#define TRY(call, what)                                                                       \
    do {                                                                                      \
        CUresult r_ = (call);                                                                 \
        if (r_ != CUDA_SUCCESS) {                                                             \
            snprintf(err, errsz, "%s: %s", what, gpu_error(&s->drv, r_));                     \
            return false;                                                                     \
        }                                                                                     \
    } while (0)

int gpu_session_open(GpuSession *s, int ordinal, bool flush_l2, char *err, size_t errsz)
{
    memset(s, 0, sizeof *s);
    s->ordinal = ordinal;
    if (!gpu_driver_open(&s->drv, err, errsz)) return GPU_NO_DEVICE;
    GpuDriver *d = &s->drv;
    CUresult r = d->cuInit(0);
    if (r != CUDA_SUCCESS) {
        snprintf(err, errsz, "cannot initialise the CUDA driver: %s", gpu_error(d, r));
        return GPU_NO_DEVICE;
    }
    int n = 0;
    r = d->cuDeviceGetCount(&n);
    if (r != CUDA_SUCCESS || n == 0) {
        snprintf(err, errsz, "no CUDA device: %s", gpu_error(d, r != CUDA_SUCCESS ? r : CUDA_ERROR_NO_DEVICE));
        return GPU_NO_DEVICE;
    }
    if (ordinal < 0 || ordinal >= n) {
        snprintf(err, errsz, "no device %d (this machine has %d: 0..%d; CUDA_VISIBLE_DEVICES may hide some)", ordinal, n, n - 1);
        return GPU_SETUP;
    }
    if ((r = d->cuDeviceGet(&s->dev, ordinal)) != CUDA_SUCCESS ||
        (r = d->cuDevicePrimaryCtxRetain(&s->ctx, s->dev)) != CUDA_SUCCESS) {
        snprintf(err, errsz, "cannot open device %d: %s", ordinal, gpu_error(d, r));
        return GPU_NO_DEVICE;
    }
    s->have_ctx = true;
    if ((r = d->cuCtxSetCurrent(s->ctx)) != CUDA_SUCCESS) {
        snprintf(err, errsz, "cannot use device %d: %s", ordinal, gpu_error(d, r));
        return GPU_NO_DEVICE;
    }
    if (d->cuDeviceGetName(s->name, (int)sizeof s->name - 1, s->dev) != CUDA_SUCCESS) strcpy(s->name, "?");
    d->cuDeviceGetAttribute(&s->cc_major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, s->dev);
    d->cuDeviceGetAttribute(&s->cc_minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, s->dev);
    d->cuDeviceGetAttribute(&s->sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, s->dev);
    d->cuDeviceGetAttribute(&s->l2_bytes, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, s->dev);
    d->cuDriverGetVersion(&s->driver_version);
    if ((r = d->cuEventCreate(&s->start, CU_EVENT_DEFAULT)) != CUDA_SUCCESS ||
        (r = d->cuEventCreate(&s->stop, CU_EVENT_DEFAULT)) != CUDA_SUCCESS) {
        snprintf(err, errsz, "cannot create events: %s", gpu_error(d, r));
        return GPU_NO_DEVICE;
    }
    if (flush_l2) {
        /* twice the L2 (at least 8 MiB, in case the driver does not say) */
        s->flush_bytes = s->l2_bytes > 0 ? 2 * (size_t)s->l2_bytes : 0;
        if (s->flush_bytes < ((size_t)8 << 20)) s->flush_bytes = (size_t)8 << 20;
        if ((r = d->cuMemAlloc(&s->flush, s->flush_bytes)) != CUDA_SUCCESS) {
            snprintf(err, errsz, "cannot allocate %zu bytes to flush the L2 cache: %s", s->flush_bytes, gpu_error(d, r));
            return GPU_NO_DEVICE;
        }
    }
    return GPU_OK;
}

void gpu_session_close(GpuSession *s)
{
    GpuDriver *d = &s->drv;
    if (!d->handle) return;
    if (s->flush) d->cuMemFree(s->flush);
    if (s->start) d->cuEventDestroy(s->start);
    if (s->stop) d->cuEventDestroy(s->stop);
    if (s->have_ctx) d->cuDevicePrimaryCtxRelease(s->dev);
    /* the library stays loaded: the driver does not expect to be unloaded */
    memset(s, 0, sizeof *s);
}

bool gpu_load_kernel(GpuSession *s, const char *path, const char *image, const char *kernel, CUmodule *mod, CUfunction *fn,
                     int *regs, char *err, size_t errsz)
{
    GpuDriver *d = &s->drv;
    static char log[8192];
    log[0] = 0;
    CUjit_option opt[] = { CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES };
    void *val[] = { log, (void *)(uintptr_t)sizeof log };
    CUresult r = d->cuModuleLoadDataEx(mod, image, 2, opt, val);
    if (r != CUDA_SUCCESS) {
        /* the JIT's own first line says where, e.g. "ptxas application ptx input, line 12; error : ..." */
        char *nl = strchr(log, '\n');
        if (nl) *nl = 0;
        snprintf(err, errsz, "%s: cannot load: %s%s%s", path, gpu_error(d, r), *log ? ": " : "", log);
        return false;
    }
    r = d->cuModuleGetFunction(fn, *mod, kernel);
    if (r != CUDA_SUCCESS) {
        snprintf(err, errsz, "%s: no kernel '%s': %s", path, kernel, gpu_error(d, r));
        return false;
    }
    *regs = -1;
    if (d->cuFuncGetAttribute(regs, CU_FUNC_ATTRIBUTE_NUM_REGS, *fn) != CUDA_SUCCESS) *regs = -1;
    return true;
}

int gpu_set_global(GpuSession *s, CUmodule mod, const EmuGlobalSet *g, char *err, size_t errsz)
{
    GpuDriver *d = &s->drv;
    CUdeviceptr p = 0;
    size_t size = 0;
    CUresult r = d->cuModuleGetGlobal(&p, &size, mod, g->name);
    if (r == CUDA_ERROR_NOT_FOUND) return GPU_FAILED;
    if (r != CUDA_SUCCESS) {
        snprintf(err, errsz, "cannot find the variable %s: %s", g->name, gpu_error(d, r));
        return GPU_SETUP;
    }
    if (size != 4 && size != 8) {
        snprintf(err, errsz, "the variable %s is %zu bytes (4 or 8 can be set)", g->name, size);
        return GPU_SETUP;
    }
    if (!emu_global_fits(g, size)) {
        snprintf(err, errsz, "the value does not fit the %zu-byte variable %s", size, g->name);
        return GPU_SETUP;
    }
    r = d->cuMemcpyHtoD(p, &g->value, size); /* little-endian: the low bytes */
    if (r != CUDA_SUCCESS) {
        snprintf(err, errsz, "cannot write the variable %s: %s", g->name, gpu_error(d, r));
        return GPU_SETUP;
    }
    return GPU_OK;
}

static size_t arg_size(const EmuArg *a)
{
    switch (a->kind) {
    case EMU_ARG_SCALAR: return emu_type_size(a->type);
    case EMU_ARG_BYTES: return a->nbytes;
    default: return sizeof(CUdeviceptr);
    }
}

bool gpu_check_params(GpuSession *s, CUfunction fn, const EmuArg *args, int nargs, char *err, size_t errsz)
{
    GpuDriver *d = &s->drv;
    if (!d->cuFuncGetParamInfo) return true;
    int n = 0;
    for (;; n++) {
        size_t off, size;
        CUresult r = d->cuFuncGetParamInfo(fn, (size_t)n, &off, &size);
        if (r == CUDA_ERROR_INVALID_VALUE) break; /* past the last parameter */
        if (r != CUDA_SUCCESS) return true;      /* the driver cannot say: launch unchecked */
        if (n < nargs && size != arg_size(&args[n])) {
            snprintf(err, errsz, "argument %d (%s) is %zu bytes; the kernel's parameter %d is %zu", n, args[n].spec,
                     arg_size(&args[n]), n, size);
            return false;
        }
    }
    if (n != nargs) {
        snprintf(err, errsz, "%d argument%s given (--arg); the kernel has %d parameter%s", nargs, nargs == 1 ? "" : "s", n,
                 n == 1 ? "" : "s");
        return false;
    }
    return true;
}

bool gpu_buffers_alloc(GpuSession *s, GpuBuffers *b, const EmuArg *args, int nargs, char *err, size_t errsz)
{
    GpuDriver *d = &s->drv;
    memset(b, 0, sizeof *b);
    b->args = args;
    b->nargs = nargs;
    size_t n = nargs ? (size_t)nargs : 1;
    b->host = calloc(n, sizeof *b->host);
    b->bytes = calloc(n, sizeof *b->bytes);
    b->dev = calloc(n, sizeof *b->dev);
    b->params = calloc(n, sizeof *b->params);
    if (!b->host || !b->bytes || !b->dev || !b->params) fatal_oom();
    for (int i = 0; i < nargs; i++) {
        const EmuArg *a = &args[i];
        if (a->kind == EMU_ARG_SCALAR) { b->params[i] = (void *)&a->bits; continue; } /* little-endian: the low bytes */
        if (a->kind == EMU_ARG_BYTES) { b->params[i] = a->bytes; continue; }
        char why[256];
        b->host[i] = emu_arg_buffer_data(a, why, sizeof why);
        if (!b->host[i]) {
            snprintf(err, errsz, "argument %d (%s): %s", i, a->spec, why);
            return false;
        }
        b->bytes[i] = a->count * emu_type_size(a->type);
        TRY(d->cuMemAlloc(&b->dev[i], b->bytes[i] ? b->bytes[i] : 1), "cannot allocate a buffer");
        b->params[i] = &b->dev[i];
    }
    return true;
}

void gpu_buffers_free(GpuSession *s, GpuBuffers *b)
{
    for (int i = 0; i < b->nargs; i++) {
        free(b->host[i]);
        if (b->dev[i] && s->drv.handle) s->drv.cuMemFree(b->dev[i]);
    }
    free(b->host), free(b->bytes), free(b->dev), free(b->params);
    memset(b, 0, sizeof *b);
}

bool gpu_launch(GpuSession *s, CUfunction fn, GpuBuffers *b, const uint32_t grid[3], const uint32_t block[3],
                uint32_t shared_dyn, float *ms, char *err, size_t errsz)
{
    GpuDriver *d = &s->drv;
    for (int i = 0; i < b->nargs; i++)
        if (b->host[i] && b->bytes[i]) TRY(d->cuMemcpyHtoD(b->dev[i], b->host[i], b->bytes[i]), "cannot copy the inputs");
    /* on the default stream, so the flush ends before the first event */
    if (s->flush) TRY(d->cuMemsetD8(s->flush, 0x5a, s->flush_bytes), "cannot flush the L2 cache");
    TRY(d->cuEventRecord(s->start, NULL), "cannot record an event");
    TRY(d->cuLaunchKernel(fn, grid[0], grid[1], grid[2], block[0], block[1], block[2], shared_dyn, NULL, b->params, NULL),
        "the launch failed");
    TRY(d->cuEventRecord(s->stop, NULL), "cannot record an event");
    TRY(d->cuEventSynchronize(s->stop), "the kernel failed");
    TRY(d->cuCtxSynchronize(), "the kernel failed");
    TRY(d->cuEventElapsedTime(ms, s->start, s->stop), "cannot read the events");
    return true;
}

bool gpu_download(GpuSession *s, GpuBuffers *b, EmuResult *out, char *err, size_t errsz)
{
    GpuDriver *d = &s->drv;
    memset(out, 0, sizeof *out);
    out->nbufs = b->nargs;
    out->bufs = calloc(b->nargs ? (size_t)b->nargs : 1, sizeof *out->bufs);
    if (!out->bufs) fatal_oom();
    for (int i = 0; i < b->nargs; i++) {
        if (!b->host[i]) continue;
        EmuBuffer *eb = &out->bufs[i];
        eb->type = b->args[i].type;
        eb->count = b->args[i].count;
        eb->size = b->bytes[i];
        eb->data = malloc(b->bytes[i] ? b->bytes[i] : 1);
        if (!eb->data) fatal_oom();
        if (b->bytes[i]) TRY(d->cuMemcpyDtoH(eb->data, b->dev[i], b->bytes[i]), "cannot copy the outputs back");
    }
    return true;
}
