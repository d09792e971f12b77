/* mock_cuda.c — a stand-in for the NVIDIA driver (libcuda.so.1), for
 * testing ptxopt-run on machines without a GPU (PTXOPT_LIBCUDA points at
 * it).  It implements what ptxopt-run calls, with cuda.h's own prototypes
 * and symbol names (cuMemAlloc is cuMemAlloc_v2 here as in the driver).
 *
 * Device memory is host memory.  A "kernel" does what comments in its PTX
 * say, so that tests can make two modules agree or differ:
 *   // mock-effect: copy P Q    copy pointer parameter P's buffer to Q's
 *   // mock-effect: fill P V    set every byte of parameter P's buffer to V
 *   // mock-effect: fault       the launch fails (CUDA_ERROR_ILLEGAL_ADDRESS)
 *   // mock-jit-error           loading the PTX fails with a JIT log
 *   // mock-time: MS            each launch takes MS milliseconds, times a
 *                               factor cycling through 0.98 .. 1.02 (so the
 *                               median of 5k launches is MS); without it,
 *                               1 + |N - 64| for a `.maxnreg N`, else 50
 *                               (ptxopt-tune's variants: the cap 64 wins)
 * Parameters are read off the PTX's .entry (their sizes, for
 * cuFuncGetParamInfo); a cubin has none (CUDA_ERROR_NOT_SUPPORTED).
 * Module-scope variables (".global [.align N] .TYPE NAME[[N]] [= V];" at
 * the start of a line) get device memory with their initial value, for
 * cuModuleGetGlobal; a cubin has none.
 * MOCK_CUDA_DEVICES=N: the number of devices (default 1).
 * MOCK_CUDA_TRACE=FILE: appends a line for each cuModuleGetGlobal, each
 * cuMemcpyHtoD into a module variable (with the value written) and the
 * first launch of each kernel (with the value of every module variable
 * then), so tests see what reached the driver and in which order. */
#include <cuda.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct MockVar {
    char name[128];
    size_t size;
    unsigned char *data;
} MockVar;

typedef struct MockModule {
    char *image;                 /* NUL-terminated copy (PTX) or NULL (cubin) */
    MockVar vars[32];
    int nvars;
} MockModule;

static MockModule *live[64];     /* loaded modules, to name a variable written by cuMemcpyHtoD */

static void trace(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void trace(const char *fmt, ...)
{
    const char *path = getenv("MOCK_CUDA_TRACE");
    FILE *f = path && *path ? fopen(path, "a") : NULL;
    if (!f) return;
    va_list ap;
    va_start(ap, fmt);
    vfprintf(f, fmt, ap);
    va_end(ap);
    fputc('\n', f);
    fclose(f);
}

/* little-endian, as the GPU */
static unsigned long long var_value(const unsigned char *d, size_t n)
{
    unsigned long long v = 0;
    for (size_t i = n < 8 ? n : 8; i-- > 0;) v = v << 8 | d[i];
    return v;
}

typedef struct MockFunc {
    MockModule *mod;
    const char *entry;           /* ".entry NAME(" in the image */
    int nparams;
    size_t psize[64];
    unsigned long launches;
} MockFunc;

typedef struct MockEvent { double t; } MockEvent;

static CUresult pending = CUDA_SUCCESS;
static double clock_ms;          /* mock time, advanced by launches */

/* allocations, to find a pointer's size */
static struct { char *p; size_t n; } allocs[4096];
static int nallocs;

CUresult cuInit(unsigned int flags) { (void)flags; return CUDA_SUCCESS; }
CUresult cuDriverGetVersion(int *v) { *v = 13000; return CUDA_SUCCESS; }

CUresult cuGetErrorName(CUresult r, const char **s)
{
    switch (r) {
    case CUDA_ERROR_ILLEGAL_ADDRESS: *s = "CUDA_ERROR_ILLEGAL_ADDRESS"; return CUDA_SUCCESS;
    case CUDA_ERROR_NOT_FOUND: *s = "CUDA_ERROR_NOT_FOUND"; return CUDA_SUCCESS;
    case CUDA_ERROR_INVALID_PTX: *s = "CUDA_ERROR_INVALID_PTX"; return CUDA_SUCCESS;
    default: return CUDA_ERROR_INVALID_VALUE; /* ptxopt-run then uses its own words */
    }
}

CUresult cuGetErrorString(CUresult r, const char **s)
{
    switch (r) {
    case CUDA_ERROR_ILLEGAL_ADDRESS: *s = "an illegal memory access was encountered (mock)"; return CUDA_SUCCESS;
    case CUDA_ERROR_NOT_FOUND: *s = "named symbol not found (mock)"; return CUDA_SUCCESS;
    case CUDA_ERROR_INVALID_PTX: *s = "a PTX JIT compilation failed (mock)"; return CUDA_SUCCESS;
    default: return CUDA_ERROR_INVALID_VALUE;
    }
}

CUresult cuDeviceGetCount(int *n)
{
    const char *e = getenv("MOCK_CUDA_DEVICES");
    *n = e ? atoi(e) : 1;
    return CUDA_SUCCESS;
}

CUresult cuDeviceGet(CUdevice *d, int ordinal) { *d = ordinal; return CUDA_SUCCESS; }

CUresult cuDeviceGetName(char *name, int len, CUdevice d)
{
    snprintf(name, (size_t)len, "Mock GPU %d", (int)d);
    return CUDA_SUCCESS;
}

CUresult cuDeviceGetAttribute(int *v, CUdevice_attribute a, CUdevice d)
{
    (void)d;
    switch (a) {
    case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR: *v = 9; break;
    case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR: *v = 0; break;
    case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT: *v = 4; break;
    case CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE: *v = 1 << 20; break;
    default: *v = 0; break;
    }
    return CUDA_SUCCESS;
}

static int ctx_token;
CUresult cuDevicePrimaryCtxRetain(CUcontext *c, CUdevice d) { (void)d; *c = (CUcontext)&ctx_token; return CUDA_SUCCESS; }
CUresult cuDevicePrimaryCtxRelease(CUdevice d) { (void)d; return CUDA_SUCCESS; }
CUresult cuCtxSetCurrent(CUcontext c) { (void)c; return CUDA_SUCCESS; }

CUresult cuCtxSynchronize(void)
{
    CUresult r = pending;
    return r;
}

static size_t type_size(const char *t);

/* ".global [.align N] [.vK] .TYPE NAME[[N]] [= V];" lines of a PTX image. */
static void find_vars(MockModule *mm)
{
    for (const char *l = mm->image; l && *l && mm->nvars < 32; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
        const char *t = l;
        while (*t == ' ' || *t == '\t') t++;
        if (strncmp(t, ".global", 7) != 0 || (t[7] != ' ' && t[7] != '\t')) continue;
        t += 7;
        size_t elem = 0, count = 1;
        while (*t == ' ' || *t == '\t' || *t == '.') {
            while (*t == ' ' || *t == '\t') t++;
            if (!strncmp(t, ".align", 6)) {
                t += 6;
                while (*t == ' ' || (*t >= '0' && *t <= '9')) t++;
            } else if (!strncmp(t, ".v", 2) && t[2] >= '0' && t[2] <= '9') {
                count *= (size_t)atoi(t + 2);
                t += 3;
            } else if (*t == '.') {
                elem = type_size(t);
                while (*t && *t != ' ' && *t != '\t') t++;
            }
        }
        MockVar *v = &mm->vars[mm->nvars];
        size_t n = 0;
        while ((*t >= 'a' && *t <= 'z') || (*t >= 'A' && *t <= 'Z') || (*t >= '0' && *t <= '9') || *t == '_' || *t == '$') {
            if (n + 1 < sizeof v->name) v->name[n++] = *t;
            t++;
        }
        v->name[n] = 0;
        if (!n || !elem) continue;
        if (*t == '[') count *= (size_t)atoi(t + 1);
        v->size = elem * count;
        v->data = calloc(v->size ? v->size : 1, 1);
        const char *eq = strchr(t, '='), *nl = strchr(t, '\n');
        if (eq && (!nl || eq < nl)) {
            unsigned long long iv = strtoull(eq + 1, NULL, 0);
            memcpy(v->data, &iv, v->size < 8 ? v->size : 8);
        }
        mm->nvars++;
    }
}

CUresult cuModuleLoadDataEx(CUmodule *m, const void *image, unsigned int n, CUjit_option *opt, void **val)
{
    MockModule *mm = calloc(1, sizeof *mm);
    if (memcmp(image, "\177ELF", 4) != 0) {
        mm->image = strdup(image);
        if (strstr(mm->image, "// mock-jit-error")) {
            char *log = NULL;
            size_t cap = 0;
            for (unsigned i = 0; i < n; i++) {
                if (opt[i] == CU_JIT_ERROR_LOG_BUFFER) log = val[i];
                if (opt[i] == CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES) cap = (size_t)(uintptr_t)val[i];
            }
            if (log && cap) snprintf(log, cap, "%s", "ptxas application ptx input, line 3; error   : mock error\nsecond line");
            free(mm->image);
            free(mm);
            return CUDA_ERROR_INVALID_PTX;
        }
    }
    if (mm->image) find_vars(mm);
    for (int i = 0; i < 64; i++)
        if (!live[i]) { live[i] = mm; break; }
    *m = (CUmodule)mm;
    return CUDA_SUCCESS;
}

CUresult cuModuleGetGlobal(CUdeviceptr *p, size_t *bytes, CUmodule m, const char *name)
{
    MockModule *mm = (MockModule *)m;
    for (int i = 0; i < mm->nvars; i++)
        if (!strcmp(mm->vars[i].name, name)) {
            if (p) *p = (CUdeviceptr)(uintptr_t)mm->vars[i].data;
            if (bytes) *bytes = mm->vars[i].size;
            trace("cuModuleGetGlobal %s: %zu bytes", name, mm->vars[i].size);
            return CUDA_SUCCESS;
        }
    trace("cuModuleGetGlobal %s: not found", name);
    return CUDA_ERROR_NOT_FOUND;
}

CUresult cuModuleUnload(CUmodule m)
{
    MockModule *mm = (MockModule *)m;
    for (int i = 0; i < 64; i++)
        if (live[i] == mm) live[i] = NULL;
    for (int i = 0; i < mm->nvars; i++) free(mm->vars[i].data);
    free(mm->image);
    free(mm);
    return CUDA_SUCCESS;
}

static size_t type_size(const char *t)
{
    if (!strncmp(t, ".u64", 4) || !strncmp(t, ".s64", 4) || !strncmp(t, ".b64", 4) || !strncmp(t, ".f64", 4)) return 8;
    if (!strncmp(t, ".u32", 4) || !strncmp(t, ".s32", 4) || !strncmp(t, ".b32", 4) || !strncmp(t, ".f32", 4)) return 4;
    if (!strncmp(t, ".u16", 4) || !strncmp(t, ".s16", 4) || !strncmp(t, ".b16", 4) || !strncmp(t, ".f16", 4)) return 2;
    return 1;
}

CUresult cuModuleGetFunction(CUfunction *f, CUmodule m, const char *name)
{
    MockModule *mm = (MockModule *)m;
    MockFunc *mf = calloc(1, sizeof *mf);
    mf->mod = mm;
    if (mm->image) {
        char pat[300];
        snprintf(pat, sizeof pat, ".entry %s(", name);
        mf->entry = strstr(mm->image, pat);
        if (!mf->entry) { free(mf); return CUDA_ERROR_NOT_FOUND; }
        /* ".param .u64 name," / ".param .align 4 .b8 name[12]" up to ')' */
        const char *end = strchr(mf->entry, ')');
        for (const char *p = strstr(mf->entry, ".param"); p && end && p < end && mf->nparams < 64; p = strstr(p + 6, ".param")) {
            const char *t = p + 6;
            while (*t == ' ') t++;
            if (!strncmp(t, ".align", 6)) {
                t += 6;
                while (*t == ' ' || (*t >= '0' && *t <= '9')) t++;
                const char *br = strchr(t, '[');
                mf->psize[mf->nparams++] = br && br < end ? (size_t)atoi(br + 1) : 1;
            } else {
                mf->psize[mf->nparams++] = type_size(t);
            }
        }
    }
    *f = (CUfunction)mf;
    return CUDA_SUCCESS;
}

CUresult cuFuncGetAttribute(int *v, CUfunction_attribute a, CUfunction f)
{
    MockFunc *mf = (MockFunc *)f;
    const char *r = mf->mod->image ? strstr(mf->mod->image, "// mock-regs: ") : NULL;
    *v = a == CU_FUNC_ATTRIBUTE_NUM_REGS ? (r ? atoi(r + 14) : 32) : 0;
    return CUDA_SUCCESS;
}

CUresult cuFuncGetParamInfo(CUfunction f, size_t i, size_t *off, size_t *size)
{
    MockFunc *mf = (MockFunc *)f;
    if (!mf->mod->image) return CUDA_ERROR_NOT_SUPPORTED;
    if (i >= (size_t)mf->nparams) return CUDA_ERROR_INVALID_VALUE;
    *off = 0;
    for (size_t k = 0; k < i; k++) *off += mf->psize[k];
    *size = mf->psize[i];
    return CUDA_SUCCESS;
}

CUresult cuMemAlloc(CUdeviceptr *p, size_t n)
{
    if (!n) return CUDA_ERROR_INVALID_VALUE;
    char *m = malloc(n);
    if (!m || nallocs == 4096) return CUDA_ERROR_OUT_OF_MEMORY;
    allocs[nallocs].p = m;
    allocs[nallocs++].n = n;
    *p = (CUdeviceptr)(uintptr_t)m;
    return CUDA_SUCCESS;
}

CUresult cuMemFree(CUdeviceptr p)
{
    for (int i = 0; i < nallocs; i++)
        if (allocs[i].p == (char *)(uintptr_t)p) {
            free(allocs[i].p);
            allocs[i] = allocs[--nallocs];
            return CUDA_SUCCESS;
        }
    return CUDA_ERROR_INVALID_VALUE;
}

CUresult cuMemcpyHtoD(CUdeviceptr d, const void *h, size_t n)
{
    for (int i = 0; i < 64; i++)
        for (int k = 0; live[i] && k < live[i]->nvars; k++) {
            MockVar *v = &live[i]->vars[k];
            if ((unsigned char *)(uintptr_t)d == v->data) {
                if (n > v->size) return CUDA_ERROR_INVALID_VALUE; /* past the variable */
                trace("cuMemcpyHtoD %s: %zu bytes = %llu", v->name, n, var_value(h, n));
            }
        }
    memcpy((void *)(uintptr_t)d, h, n);
    return CUDA_SUCCESS;
}
CUresult cuMemcpyDtoH(void *h, CUdeviceptr d, size_t n) { memcpy(h, (void *)(uintptr_t)d, n); return CUDA_SUCCESS; }
CUresult cuMemsetD8(CUdeviceptr d, unsigned char v, size_t n) { memset((void *)(uintptr_t)d, v, n); return CUDA_SUCCESS; }

CUresult cuEventCreate(CUevent *e, unsigned int flags) { (void)flags; *e = (CUevent)calloc(1, sizeof(MockEvent)); return CUDA_SUCCESS; }
CUresult cuEventDestroy(CUevent e) { free(e); return CUDA_SUCCESS; }
CUresult cuEventRecord(CUevent e, CUstream s) { (void)s; ((MockEvent *)e)->t = clock_ms; return CUDA_SUCCESS; }
CUresult cuEventSynchronize(CUevent e) { (void)e; return pending; }

CUresult cuEventElapsedTime(float *ms, CUevent a, CUevent b)
{
    *ms = (float)(((MockEvent *)b)->t - ((MockEvent *)a)->t);
    return CUDA_SUCCESS;
}

static size_t alloc_size(CUdeviceptr p)
{
    for (int i = 0; i < nallocs; i++)
        if (allocs[i].p == (char *)(uintptr_t)p) return allocs[i].n;
    return 0;
}

CUresult cuLaunchKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                        unsigned shared, CUstream s, void **params, void **extra)
{
    (void)gx, (void)gy, (void)gz, (void)shared, (void)s, (void)extra;
    MockFunc *mf = (MockFunc *)f;
    if ((unsigned long)bx * by * bz > 1024) return CUDA_ERROR_INVALID_VALUE;
    double t = 50;
    const char *img = mf->mod->image;
    const char *mt = img ? strstr(img, "// mock-time: ") : NULL, *mx = img ? strstr(img, ".maxnreg ") : NULL;
    if (mt) t = atof(mt + 14);
    else if (mx) t = 1 + abs(atoi(mx + 9) - 64);
    static const double factor[5] = { 0.98, 0.99, 1.0, 1.01, 1.02 };
    if (mf->launches == 0) {
        char line[1024];
        size_t at = (size_t)snprintf(line, sizeof line, "cuLaunchKernel %.100s", mf->entry ? mf->entry + 7 : "(cubin)");
        char *paren = strchr(line, '(');
        if (paren && mf->entry) *paren = 0, at = strlen(line);
        for (int k = 0; k < mf->mod->nvars && at < sizeof line - 200; k++)
            at += (size_t)snprintf(line + at, sizeof line - at, "%s %s = %llu", k ? "," : ":", mf->mod->vars[k].name,
                                   var_value(mf->mod->vars[k].data, mf->mod->vars[k].size));
        trace("%s", line);
    }
    clock_ms += t * factor[mf->launches++ % 5];
    for (const char *e = img; e && (e = strstr(e, "// mock-effect: ")); e++) {
        const char *w = e + 16;
        int p = -1, q = -1;
        if (!strncmp(w, "fault", 5)) pending = CUDA_ERROR_ILLEGAL_ADDRESS;
        else if (sscanf(w, "copy %d %d", &p, &q) == 2 && p >= 0 && q >= 0 && p < mf->nparams && q < mf->nparams) {
            CUdeviceptr a = *(CUdeviceptr *)params[p], b = *(CUdeviceptr *)params[q];
            size_t n = alloc_size(a) < alloc_size(b) ? alloc_size(a) : alloc_size(b);
            memcpy((void *)(uintptr_t)b, (void *)(uintptr_t)a, n);
        } else if (sscanf(w, "fill %d %d", &p, &q) == 2 && p >= 0 && p < mf->nparams) {
            CUdeviceptr a = *(CUdeviceptr *)params[p];
            memset((void *)(uintptr_t)a, q, alloc_size(a));
        }
    }
    return CUDA_SUCCESS;
}
