/* ptxopt-run — time a kernel on the GPU, original against optimized
 * (man/ptxopt-run.1).
 *
 *   ptxopt-run A.ptx [B.ptx] --kernel=K --grid=... --block=... --arg=SPEC...
 *
 * Loads each module (PTX, JIT-compiled by the driver, or a cubin) through
 * the CUDA driver API, launches the kernel once from fresh inputs and
 * compares B's buffers with A's (bit for bit, or within --ulp/--rel), then
 * times both: --warmup launches, then --runs timed launches, A's and B's
 * alternating so that a change of clock or temperature touches both alike;
 * before each, the inputs are copied in again and the L2 cache flushed.
 * The median decides.  Arguments have ptxopt-emu's syntax (emu/args.c), so
 * a launch checked on the emulator runs on the GPU as it is; so has
 * --set-global=NAME=VALUE (emu/globals.c), which writes a module variable
 * after loading (cuModuleGetGlobal + cuMemcpyHtoD), before any launch: one
 * delivery=global compile of the bypass or sfu pass times every value.
 *
 * Exit status: 0 the outputs agree (and everything ran); 1 they differ, or
 * a kernel failed; 2 usage or setup error (bad arguments, unreadable
 * module, JIT error, no such kernel); 3 no NVIDIA driver or no device. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "tools/common/cli.h"
#include "tools/ptxopt-run/gpu_bench.h"
#include "emu/emu.h"

enum { ST_OK = 0, ST_DIFFER = 1, ST_USAGE = 2, ST_NO_DEVICE = 3 };
#define MAX_ARGS 256

typedef struct RunModule {
    const char *path, *kernel;
    char *image;
    CUmodule mod;
    CUfunction fn;
    int regs;
    float *times;
    double median, min, max;
    EmuResult out;
} RunModule;

typedef struct Opts {
    RunModule m[2];
    int nmods;
    const char *kernel, *kernel_b;
    uint32_t grid[3], block[3], shared_dyn;
    EmuArg args[MAX_ARGS];
    int nargs;
    long runs, warmup, device, max_report;
    EmuTolerance tol;
    bool flush, time_only;
    EmuGlobalSet globals[64];    /* --set-global, in order */
    int nglobals;
} Opts;

static void usage(FILE *out)
{
    fputs("Usage: ptxopt-run [OPTION]... A.ptx|A.cubin [B.ptx|B.cubin] --kernel=NAME --grid=X[,Y,Z]\n"
          "                  --block=X[,Y,Z] [--arg=SPEC]...\n"
          "Run a kernel on the GPU from each module (PTX or cubin), check that B's outputs\n"
          "equal A's, and time both: warm-up launches, then timed launches with fresh inputs\n"
          "and a flushed L2 cache before each, A's and B's alternating; the median decides.\n"
          "\n"
          "Launch (as ptxopt-emu):\n"
          "  -k, --kernel=NAME      the kernel (.entry) to run\n"
          "      --kernel-b=NAME    its name in B when it differs\n"
          "      --grid=X[,Y,Z]     grid dimensions (default 1)\n"
          "      --block=X[,Y,Z]    block dimensions (default 1)\n"
          "      --shared-dyn=BYTES dynamic shared memory per block\n"
          "      --arg=SPEC         next kernel argument, in order:\n"
          "                           TYPE:VALUE (i8..i64, u8..u64, f16, bf16, f32, f64)\n"
          "                           buf:TYPE:N:zeros|iota|fill=V|file=PATH|random[:SEED[:LO:HI]]\n"
          "                           bytes:HEX   struct:TYPE:VALUE,TYPE:VALUE,...\n"
          "      --set-global=NAME=VALUE\n"
          "                         after loading, write the integer VALUE into the module\n"
          "                         variable NAME (4 or 8 bytes; cuModuleGetGlobal) in each\n"
          "                         module that has it (bypass/sfu delivery=global); repeatable\n"
          "Check:\n"
          "      --ulp=N            floating-point elements may differ by N units in the last place\n"
          "      --rel=E            ... or by a relative error E\n"
          "      --tolerance=ulp:N|rel:E   the same\n"
          "      --max-report=N     differing elements printed (default 10)\n"
          "Timing:\n"
          "  -n, --runs=N           timed launches per module (default 20)\n"
          "      --warmup=N         launches before timing (default 3)\n"
          "      --no-flush         do not flush the L2 cache before each launch\n"
          "      --device=N         the CUDA device (default 0; CUDA_VISIBLE_DEVICES applies)\n"
          "      --time-only        print only the median of the last module, in ms, on one\n"
          "                         line (for ptxopt-tune --measure)\n"
          "  -h, --help             display this help and exit\n"
          "  -V, --version          output version information and exit\n"
          "\n"
          "The table on standard output has one line per module:\n"
          "  module regs median_ms min_ms max_ms speedup check path\n"
          "Exit status: 0 outputs agree, 1 they differ or a kernel failed, 2 usage or setup\n"
          "error, 3 no NVIDIA driver or no CUDA device.  See ptxopt-run(1).\n",
          out);
}

static _Noreturn void usage_error(const char *fmt, const char *arg) { cli_usage_error("ptxopt-run", fmt, arg); }
static long parse_long(const char *opt, const char *v, long lo, long hi) { return cli_parse_long("ptxopt-run", opt, v, lo, hi); }

static void parse_tolerance(Opts *o, const char *spec)
{
    char *end;
    errno = 0;
    if (strncmp(spec, "ulp:", 4) == 0) {
        unsigned long long u = strtoull(spec + 4, &end, 10);
        if (errno || end == spec + 4 || *end || spec[4] == '-') usage_error("invalid tolerance '%s' (ulp:N or rel:E)", spec);
        o->tol.ulp = u;
    } else if (strncmp(spec, "rel:", 4) == 0) {
        double e = strtod(spec + 4, &end);
        if (end == spec + 4 || *end || !isfinite(e) || e < 0) usage_error("invalid tolerance '%s' (ulp:N or rel:E)", spec);
        o->tol.rel = e;
    } else {
        usage_error("invalid tolerance '%s' (ulp:N or rel:E)", spec);
    }
}

enum { OPT_KERNEL_B = 256, OPT_GRID, OPT_BLOCK, OPT_SHARED, OPT_ARG, OPT_ULP, OPT_REL, OPT_TOL, OPT_MAXREP, OPT_WARMUP,
       OPT_NOFLUSH, OPT_DEVICE, OPT_TIMEONLY, OPT_SETGLOBAL };

static void parse_args(int argc, char **argv, Opts *o)
{
    static const struct option longopts[] = {
        { "kernel", required_argument, NULL, 'k' },
        { "kernel-b", required_argument, NULL, OPT_KERNEL_B },
        { "grid", required_argument, NULL, OPT_GRID },
        { "block", required_argument, NULL, OPT_BLOCK },
        { "shared-dyn", required_argument, NULL, OPT_SHARED },
        { "arg", required_argument, NULL, OPT_ARG },
        { "ulp", required_argument, NULL, OPT_ULP },
        { "rel", required_argument, NULL, OPT_REL },
        { "tolerance", required_argument, NULL, OPT_TOL },
        { "max-report", required_argument, NULL, OPT_MAXREP },
        { "runs", required_argument, NULL, 'n' },
        { "warmup", required_argument, NULL, OPT_WARMUP },
        { "no-flush", no_argument, NULL, OPT_NOFLUSH },
        { "device", required_argument, NULL, OPT_DEVICE },
        { "time-only", no_argument, NULL, OPT_TIMEONLY },
        { "set-global", required_argument, NULL, OPT_SETGLOBAL },
        { "help", no_argument, NULL, 'h' },
        { "version", no_argument, NULL, 'V' },
        { NULL, 0, NULL, 0 },
    };
    memset(o, 0, sizeof *o);
    o->grid[0] = o->grid[1] = o->grid[2] = 1;
    o->block[0] = o->block[1] = o->block[2] = 1;
    o->runs = 20;
    o->warmup = 3;
    o->max_report = 10;
    o->flush = true;
    int ch;
    opterr = 0;
    while ((ch = getopt_long(argc, argv, ":k:n:hV", longopts, NULL)) != -1) {
        char err[256], spec[64];
        switch (ch) {
        case 'k': o->kernel = optarg; break;
        case OPT_KERNEL_B: o->kernel_b = optarg; break;
        case OPT_GRID: if (!emu_dims_parse(optarg, o->grid)) usage_error("invalid --grid '%s' (X[,Y,Z], each >= 1)", optarg); break;
        case OPT_BLOCK: if (!emu_dims_parse(optarg, o->block)) usage_error("invalid --block '%s' (X[,Y,Z], each >= 1)", optarg); break;
        case OPT_SHARED: o->shared_dyn = (uint32_t)parse_long("shared-dyn", optarg, 0, 1L << 30); break;
        case OPT_ARG:
            if (o->nargs == MAX_ARGS) usage_error("too many --arg options%s", "");
            if (!emu_arg_parse(optarg, &o->args[o->nargs], err, sizeof err)) {
                char msg[600];
                emu_arg_free(&o->args[o->nargs]);
                snprintf(msg, sizeof msg, "--arg=%%s: %s", err);
                usage_error(msg, optarg);
            }
            o->nargs++;
            break;
        case OPT_ULP: snprintf(spec, sizeof spec, "ulp:%.50s", optarg); parse_tolerance(o, spec); break;
        case OPT_REL: snprintf(spec, sizeof spec, "rel:%.50s", optarg); parse_tolerance(o, spec); break;
        case OPT_TOL: parse_tolerance(o, optarg); break;
        case OPT_MAXREP: o->max_report = parse_long("max-report", optarg, 0, 1000000); break;
        case 'n': o->runs = parse_long("runs", optarg, 1, 1000000); break;
        case OPT_WARMUP: o->warmup = parse_long("warmup", optarg, 0, 1000000); break;
        case OPT_NOFLUSH: o->flush = false; break;
        case OPT_DEVICE: o->device = parse_long("device", optarg, 0, 1023); break;
        case OPT_TIMEONLY: o->time_only = true; break;
        case OPT_SETGLOBAL:
            if (o->nglobals == 64) usage_error("too many --set-global options%s", "");
            if (!emu_global_set_parse(optarg, &o->globals[o->nglobals], err, sizeof err)) {
                char msg[600];
                snprintf(msg, sizeof msg, "--set-global=%%s: %s", err);
                usage_error(msg, optarg);
            }
            o->nglobals++;
            break;
        case 'h': usage(stdout); exit(ST_OK);
        case 'V': printf("ptxopt-run %s\n", PACKAGE_VERSION); exit(ST_OK);
        case ':': usage_error("option '%s' needs a value", argv[optind - 1]); break;
        default: usage_error("unknown option '%s'", argv[optind - 1]); break;
        }
    }
    if (optind >= argc) usage_error("no module (A.ptx or A.cubin)%s", "");
    if (argc - optind > 2) usage_error("at most two modules (A and B; got '%s' too)", argv[optind + 2]);
    if (!o->kernel) usage_error("no --kernel%s", "");
    for (int i = optind; i < argc; i++) {
        RunModule *m = &o->m[o->nmods++];
        m->path = argv[i];
        m->kernel = o->nmods == 2 && o->kernel_b ? o->kernel_b : o->kernel;
    }
    if (o->kernel_b && o->nmods < 2) usage_error("--kernel-b needs a second module%s", "");
    if ((uint64_t)o->block[0] * o->block[1] * o->block[2] > 1024) usage_error("--block: more than 1024 threads%s", "");
}

/* The image the driver loads: a cubin as it is, PTX with its NUL. */
static bool read_module(RunModule *m)
{
    FILE *f = fopen(m->path, "rb");
    size_t n = 0, cap = 1 << 16;
    m->image = f ? malloc(cap + 1) : NULL;
    for (size_t got; m->image && (got = fread(m->image + n, 1, cap - n, f)) > 0;) {
        n += got;
        if (n == cap && !(m->image = realloc(m->image, (cap *= 2) + 1))) abort();
    }
    if (!f || ferror(f)) {
        fprintf(stderr, "ptxopt-run: cannot read %s: %s\n", m->path, strerror(errno));
        if (f) fclose(f);
        return false;
    }
    fclose(f);
    m->image[n] = 0;
    bool elf = n >= 4 && memcmp(m->image, "\177ELF", 4) == 0;
    if (!elf && memchr(m->image, 0, n)) {
        fprintf(stderr, "ptxopt-run: %s: neither PTX text nor a cubin (ELF)\n", m->path);
        return false;
    }
    return true;
}

static int cmp_float(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return x < y ? -1 : x > y;
}

static void summarise(RunModule *m, long runs)
{
    float *s = malloc(sizeof *s * (size_t)runs);
    if (!s) abort();
    memcpy(s, m->times, sizeof *s * (size_t)runs);
    qsort(s, (size_t)runs, sizeof *s, cmp_float);
    m->median = runs % 2 ? s[runs / 2] : ((double)s[runs / 2 - 1] + s[runs / 2]) / 2;
    m->min = s[0];
    m->max = s[runs - 1];
    free(s);
}

static int fail(const char *what, const char *err, int status)
{
    fprintf(stderr, "ptxopt-run: %s%s%s\n", what ? what : "", what ? ": " : "", err);
    return status;
}

int main(int argc, char **argv)
{
    static Opts o;
    parse_args(argc, argv, &o);
    for (int i = 0; i < o.nmods; i++)
        if (!read_module(&o.m[i])) return ST_USAGE;
    for (int i = 0; i < o.nargs; i++) /* a file= input that cannot be read is said before the GPU is touched */
        if (o.args[i].kind == EMU_ARG_BUFFER && o.args[i].init == EMU_INIT_FILE) {
            char err[256];
            uint8_t *d = emu_arg_buffer_data(&o.args[i], err, sizeof err);
            if (!d) {
                fprintf(stderr, "ptxopt-run: argument %d (%s): %s\n", i, o.args[i].spec, err);
                return ST_USAGE;
            }
            free(d);
        }

    static GpuSession s;
    char err[8400];
    int st = gpu_session_open(&s, (int)o.device, o.flush, err, sizeof err);
    if (st != GPU_OK) return fail(NULL, err, st == GPU_SETUP ? ST_USAGE : ST_NO_DEVICE);
    int status = ST_OK;
    GpuBuffers b = { 0 };
    bool set_in[64] = { false };
    for (int i = 0; i < o.nmods; i++) {
        RunModule *m = &o.m[i];
        if (!gpu_load_kernel(&s, m->path, m->image, m->kernel, &m->mod, &m->fn, &m->regs, err, sizeof err)) {
            status = fail(NULL, err, ST_USAGE);
            goto out;
        }
        if (!gpu_check_params(&s, m->fn, o.args, o.nargs, err, sizeof err)) {
            status = fail(m->path, err, ST_USAGE);
            goto out;
        }
        for (int g = 0; g < o.nglobals; g++) {
            int gs = gpu_set_global(&s, m->mod, &o.globals[g], err, sizeof err);
            if (gs == GPU_SETUP) {
                status = fail(m->path, err, ST_USAGE);
                goto out;
            }
            if (gs == GPU_OK) set_in[g] = true;
        }
        m->times = calloc((size_t)o.runs, sizeof *m->times);
        if (!m->times) abort();
    }
    for (int g = 0; g < o.nglobals; g++) /* in A, B or both: a name in neither is a mistake */
        if (!set_in[g]) {
            fprintf(stderr, "ptxopt-run: --set-global: no variable '%s' in %s%s%s\n", o.globals[g].name, o.m[0].path,
                    o.nmods == 2 ? " or " : "", o.nmods == 2 ? o.m[1].path : "");
            status = ST_USAGE;
            goto out;
        }
    if (!gpu_buffers_alloc(&s, &b, o.args, o.nargs, err, sizeof err)) {
        status = fail(NULL, err, ST_USAGE);
        goto out;
    }

    /* the check: one launch of each from the same inputs */
    for (int i = 0; i < o.nmods; i++) {
        RunModule *m = &o.m[i];
        float ms;
        if (!gpu_launch(&s, m->fn, &b, o.grid, o.block, o.shared_dyn, &ms, err, sizeof err) ||
            !gpu_download(&s, &b, &m->out, err, sizeof err)) {
            char what[600];
            snprintf(what, sizeof what, "%s: kernel %s", m->path, m->kernel);
            status = fail(what, err, ST_DIFFER);
            goto out;
        }
    }
    size_t ndiff = 0;
    bool tolerant = o.tol.ulp || o.tol.rel > 0;
    if (o.nmods == 2) {
        ndiff = emu_compare_buffers(stderr, &o.m[0].out, &o.m[1].out, o.args, tolerant ? &o.tol : NULL, NULL,
                                    (int)o.max_report, "A", "B");
        if (ndiff) {
            fprintf(stderr, "ptxopt-run: %s and %s: %zu element%s differ%s\n", o.m[0].path, o.m[1].path, ndiff,
                    ndiff == 1 ? "" : "s", tolerant ? " beyond the tolerance" : "");
            status = ST_DIFFER;
        }
    }
    if (ndiff && o.time_only) goto out; /* no number: the tuner marks the variant failed */

    /* warm-up, then the timed runs, the modules alternating */
    for (long r = -o.warmup; r < o.runs; r++)
        for (int i = 0; i < o.nmods; i++) {
            RunModule *m = &o.m[i];
            float ms;
            if (!gpu_launch(&s, m->fn, &b, o.grid, o.block, o.shared_dyn, &ms, err, sizeof err)) {
                char what[600];
                snprintf(what, sizeof what, "%s: kernel %s", m->path, m->kernel);
                status = fail(what, err, ST_DIFFER);
                goto out;
            }
            if (r >= 0) m->times[r] = ms;
        }
    for (int i = 0; i < o.nmods; i++) summarise(&o.m[i], o.runs);

    if (o.time_only) {
        printf("%.6f ms\n", o.m[o.nmods - 1].median);
    } else {
        printf("# ptxopt-run: device %ld: %s (sm_%d%d, %d SMs, %d KiB L2), driver %d.%d\n", o.device, s.name, s.cc_major,
               s.cc_minor, s.sms, s.l2_bytes / 1024, s.driver_version / 1000, s.driver_version % 1000 / 10);
        printf("# kernel %s, grid %u,%u,%u, block %u,%u,%u, %u B dynamic shared memory; %ld timed runs after %ld warm-up, "
               "%s; clocks as they are\n",
               o.kernel, o.grid[0], o.grid[1], o.grid[2], o.block[0], o.block[1], o.block[2], o.shared_dyn, o.runs, o.warmup,
               o.flush ? "L2 flushed before each" : "L2 not flushed");
        printf("# module regs median_ms min_ms max_ms speedup check path\n");
        for (int i = 0; i < o.nmods; i++) {
            RunModule *m = &o.m[i];
            char check[64];
            if (i == 0) snprintf(check, sizeof check, "%s", o.nmods == 2 ? "reference" : "-");
            else if (ndiff) snprintf(check, sizeof check, "differ:%zu", ndiff);
            else snprintf(check, sizeof check, "%s", tolerant ? "within-tolerance" : "identical");
            char regs[16] = "-"; /* the driver may not say */
            if (m->regs >= 0) snprintf(regs, sizeof regs, "%d", m->regs);
            printf("%c %s %.6f %.6f %.6f %.3f %s %s\n", 'A' + i, regs, m->median, m->min, m->max,
                   m->median > 0 ? o.m[0].median / m->median : 1.0, check, m->path);
        }
    }
out:
    gpu_buffers_free(&s, &b);
    for (int i = 0; i < o.nmods; i++) {
        RunModule *m = &o.m[i];
        if (m->mod && s.drv.handle) s.drv.cuModuleUnload(m->mod);
        emu_result_free(&m->out);
        free(m->times);
        free(m->image);
    }
    gpu_session_close(&s);
    for (int i = 0; i < o.nargs; i++) emu_arg_free(&o.args[i]);
    return status;
}
