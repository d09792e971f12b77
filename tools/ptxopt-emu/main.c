/* ptxopt-emu — the emulator's command line (see man/ptxopt-emu.1).
 *
 *   ptxopt-emu FILE.ptx --kernel=K --grid=X[,Y,Z] --block=X[,Y,Z] --arg=... [--dump=I[:FILE]] ...
 *   ptxopt-emu --diff A.ptx B.ptx <same launch options> [--seeds=N] [--ulp=N | --rel=E] [--abs=E]
 *   ptxopt-emu --diff A.ptx B.ptx <same launch options> --error-metric=M [--approx=MODE] [--max-error=E]
 *   ptxopt-emu --spec=LAUNCHES.txt
 *
 * Exit status: 0 the run completed (diff: every output equal; error
 * measurement: within --max-error); 1 the run stopped on a check, an
 * unsupported instruction, or the outputs differ (or the error exceeds
 * --max-error); 2 usage, input or setup errors; 3 (single runs) the
 * kernel executed trap (a debug bounded spin gave up, an assertion
 * failed). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"   /* PACKAGE_VERSION: configure's, as every program reports it */
#include "codegen/outfile.h"
#include "emu/emu.h"
#include "parser/parse.h"

enum { ST_OK = 0, ST_FAIL = 1, ST_USAGE = 2, ST_TRAP = 3 };

typedef struct Dump { int arg; const char *file; } Dump;

typedef struct Opts {
    const char *file, *file_b;
    bool diff;
    EmuLaunch L;
    EmuArg args[256];
    int nargs;
    Dump dumps[64];
    int ndumps;
    int dump_format;              /* -1: from the file name */
    const char *counters;         /* file or "-" */
    EmuCacheConfig cache;         /* --cache (o->L.cache points here) */
    const char *cache_report;     /* file or "-" */
    const char *trace;
    int seeds;
    EmuTolerance tol;
    int max_report;
    bool stats, quiet, list_unsupported;
    const char *kernel_b;
    bool error_mode;              /* --error-metric: measure instead of compare */
    EmuMetric metric;
    double max_error;             /* < 0: none */
    bool has_outputs;
    bool outputs[256];
    EmuGlobalSet globals[64];     /* --set-global, in order */
    int nglobals;
} Opts;

static void usage(FILE *out)
{
    fputs("Usage: ptxopt-emu FILE.ptx --kernel=NAME --grid=X[,Y,Z] --block=X[,Y,Z] [--arg=SPEC]... [options]\n"
          "       ptxopt-emu --diff A.ptx B.ptx <launch options> [--seeds=N] [--ulp=N|--rel=E] [--abs=E]\n"
          "       ptxopt-emu --spec=FILE\n"
          "Run a PTX kernel on the CPU with SIMT semantics and checks.\n\n"
          "Launch:\n"
          "  --kernel=NAME          kernel to run (optional when the file has one)\n"
          "  --grid=X[,Y,Z]         grid dimensions (default 1)\n"
          "  --block=X[,Y,Z]        block dimensions (default 1)\n"
          "  --shared-dyn=BYTES     dynamic shared memory per CTA\n"
          "  --arg=SPEC             next kernel argument, in order:\n"
          "                           TYPE:VALUE (i8..i64, u8..u64, f16, bf16, f32, f64)\n"
          "                           buf:TYPE:N:zeros|iota|fill=V|file=PATH|random[:SEED[:LO:HI]]\n"
          "                           bytes:HEX   struct:TYPE:VALUE,TYPE:VALUE,...\n"
          "  --set-global=NAME=VALUE\n"
          "                         overwrite the .global/.const variable NAME (4 or 8 bytes)\n"
          "                         with the integer VALUE before the launch, as ptxopt-run\n"
          "                         does on the GPU (bypass/sfu delivery=global); repeatable\n"
          "  --dump=ARG[:FILE]      write buffer argument ARG after the run (FILE.txt text,\n"
          "                         FILE.json JSON, other names binary; no FILE: text on stdout)\n"
          "  --dump-format=bin|text|json\n"
          "Scheduling and checks:\n"
          "  --policy=its|hanoi|strict   (default its)\n"
          "  --seed=N               ITS random seed: the schedule and the order of atomics (default 1)\n"
          "  --max-steps=N          thread-instructions before LIVELOCK_SUSPECTED (default 2e9)\n"
          "  --spin-limit=N         LIVELOCK when no thread writes memory, exits or passes a\n"
          "                         barrier for N thread-instructions (default 0: off)\n"
          "  --resident=K           CTAs resident at once (default 8, 0 = all)\n"
          "  --watchdog=N           hanoi/strict: loop-header visits before a stuck reconvergence\n"
          "                         point is abandoned (strict: reported as a SIMT deadlock)\n"
          "  --split=PERCENT        its: how often a same-pc group is split at random (default 20)\n"
          "  --allow-exited-sync    exited lanes in bar.warp.sync/elect.sync masks are not UB\n"
          "  --cooperative          a cooperative launch (grid.sync()): every CTA resident\n"
          "  --approx=MODE          error model of sin/cos/ex2/lg2/rcp/sqrt/rsqrt/tanh.approx and\n"
          "                         div.approx/full: exact (default), bound[:up|:down] (the PTX ISA's\n"
          "                         documented maximum error), random[:SEED] (uniform within it)\n"
          "Output:\n"
          "  --counters[=FILE]      counters as JSON (default: standard output)\n"
          "Cache model (a model, not the hardware; see ptxopt-emu(1)):\n"
          "  --cache=ARCH[,KEY=N...]  simulate per-SM L1, a shared L2 and DRAM sectors for\n"
          "                         ARCH (sm_75, sm_80, sm_86, sm_89, sm_90); keys: l1=KiB,\n"
          "                         carveout=KiB, l2=KiB, assoc=N, l2-assoc=N, sms=N,\n"
          "                         ctas-per-sm=N (replaces --resident), partition=T (warps\n"
          "                         < T count as caching, the others as bypassing),\n"
          "                         index=hash|mod (set index; default hash);\n"
          "                         the counters go into --counters' JSON as \"cache\"\n"
          "  --cache-report[=FILE]  the cache counters as a table, per load site\n"
          "  --trace=FILE           per-warp instruction trace\n"
          "  --stats                timing and thread-instructions/s on standard error\n"
          "  -q, --quiet            no notes on standard error\n"
          "  --list-unsupported     list the instructions of FILE the emulator cannot run\n"
          "Differential mode:\n"
          "  --diff A.ptx B.ptx     run both with the same launch and inputs under N ITS seeds\n"
          "                         and hanoi; compare every buffer; exit 0 only when equal\n"
          "  --kernel-b=NAME        kernel name in B when it differs\n"
          "  --seeds=N              ITS seeds per program (default 3)\n"
          "  --ulp=N, --rel=E       tolerance for floating-point buffers\n"
          "  --abs=E                absolute tolerance: |a - b| <= E + rel * max(|a|, |b|)\n"
          "  --max-report=N         differing elements printed (default 10)\n"
          "  --error-metric=mre|maxrel|maxabs|rmse\n"
          "                         with --diff: run A and B once (both under --approx) and print\n"
          "                         B's output error against A per output buffer and overall\n"
          "  --outputs=I,J,...      the output buffer arguments (default: those A's run writes)\n"
          "  --max-error=E          with --error-metric: exit 1 when the overall error exceeds E\n"
          "  --spec=FILE            run the launches of FILE, one per line (options as above)\n"
          "  --help, --version\n",
          out);
}

static bool parse_u64(const char *s, uint64_t *v)
{
    char *end;
    errno = 0;
    double dv = strtod(s, &end);
    if (end == s || *end || errno || dv < 0) return false;
    *v = (uint64_t)dv;
    return true;
}

static const char *optval(const char *arg, const char *name)
{
    size_t n = strlen(name);
    if (strncmp(arg, name, n) == 0 && arg[n] == '=') return arg + n + 1;
    return NULL;
}

static void opts_init(Opts *o)
{
    memset(o, 0, sizeof *o);
    emu_launch_init(&o->L);
    o->dump_format = -1;
    o->seeds = 3;
    o->max_report = 10;
    o->max_error = -1;
}

static void opts_free(Opts *o)
{
    for (int i = 0; i < o->nargs; i++) emu_arg_free(&o->args[i]);
}

/* Returns -1 to go on, or an exit status. */
static int parse_args(int argc, char **argv, Opts *o, bool top)
{
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i], *v;
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) { usage(stdout); return ST_OK; }
        if (strcmp(a, "--version") == 0) { printf("ptxopt-emu %s\n", PACKAGE_VERSION); return ST_OK; }
        if (strcmp(a, "--diff") == 0) {
            if (i + 2 >= argc) { fprintf(stderr, "ptxopt-emu: --diff needs two files\n"); return ST_USAGE; }
            o->diff = true;
            o->file = argv[++i];
            o->file_b = argv[++i];
            continue;
        }
        if ((v = optval(a, "--kernel"))) { o->L.kernel = v; continue; }
        if ((v = optval(a, "--kernel-b"))) { o->kernel_b = v; continue; }
        if ((v = optval(a, "--grid"))) {
            if (!emu_dims_parse(v, o->L.grid)) { fprintf(stderr, "ptxopt-emu: bad --grid '%s'\n", v); return ST_USAGE; }
            continue;
        }
        if ((v = optval(a, "--block"))) {
            if (!emu_dims_parse(v, o->L.block)) { fprintf(stderr, "ptxopt-emu: bad --block '%s'\n", v); return ST_USAGE; }
            continue;
        }
        if ((v = optval(a, "--shared-dyn"))) {
            uint64_t n;
            if (!parse_u64(v, &n) || n > (1u << 30)) { fprintf(stderr, "ptxopt-emu: bad --shared-dyn '%s'\n", v); return ST_USAGE; }
            o->L.shared_dyn = (uint32_t)n;
            continue;
        }
        if ((v = optval(a, "--arg"))) {
            if (o->nargs == 256) { fprintf(stderr, "ptxopt-emu: too many arguments\n"); return ST_USAGE; }
            char err[300];
            if (!emu_arg_parse(v, &o->args[o->nargs], err, sizeof err)) {
                fprintf(stderr, "ptxopt-emu: --arg=%s: %s\n", v, err);
                emu_arg_free(&o->args[o->nargs]);
                return ST_USAGE;
            }
            o->nargs++;
            continue;
        }
        if ((v = optval(a, "--set-global"))) {
            char err[300];
            if (o->nglobals == 64) { fprintf(stderr, "ptxopt-emu: too many --set-global\n"); return ST_USAGE; }
            if (!emu_global_set_parse(v, &o->globals[o->nglobals], err, sizeof err)) {
                fprintf(stderr, "ptxopt-emu: --set-global=%s: %s\n", v, err);
                return ST_USAGE;
            }
            o->nglobals++;
            continue;
        }
        if ((v = optval(a, "--dump"))) {
            if (o->ndumps == 64) { fprintf(stderr, "ptxopt-emu: too many --dump\n"); return ST_USAGE; }
            char *end;
            long k = strtol(v, &end, 10);
            if (end == v || k < 0 || (*end && *end != ':')) { fprintf(stderr, "ptxopt-emu: bad --dump '%s'\n", v); return ST_USAGE; }
            o->dumps[o->ndumps].arg = (int)k;
            o->dumps[o->ndumps].file = *end == ':' ? end + 1 : NULL;
            o->ndumps++;
            continue;
        }
        if ((v = optval(a, "--dump-format"))) {
            if (strcmp(v, "bin") == 0) o->dump_format = EMU_DUMP_BIN;
            else if (strcmp(v, "text") == 0) o->dump_format = EMU_DUMP_TEXT;
            else if (strcmp(v, "json") == 0) o->dump_format = EMU_DUMP_JSON;
            else { fprintf(stderr, "ptxopt-emu: bad --dump-format '%s'\n", v); return ST_USAGE; }
            continue;
        }
        if ((v = optval(a, "--policy"))) {
            if (strcmp(v, "its") == 0) o->L.policy = EMU_POLICY_ITS;
            else if (strcmp(v, "hanoi") == 0) o->L.policy = EMU_POLICY_HANOI;
            else if (strcmp(v, "strict") == 0) o->L.policy = EMU_POLICY_STRICT;
            else { fprintf(stderr, "ptxopt-emu: bad --policy '%s' (its, hanoi, strict)\n", v); return ST_USAGE; }
            continue;
        }
        uint64_t n;
        if ((v = optval(a, "--seed"))) { if (!parse_u64(v, &o->L.seed)) goto bad; continue; }
        if ((v = optval(a, "--max-steps"))) { if (!parse_u64(v, &o->L.max_steps)) goto bad; continue; }
        if ((v = optval(a, "--spin-limit"))) { if (!parse_u64(v, &o->L.spin_limit)) goto bad; continue; }
        if ((v = optval(a, "--resident"))) { if (!parse_u64(v, &n)) goto bad; o->L.resident = (uint32_t)n; continue; }
        if ((v = optval(a, "--watchdog"))) { if (!parse_u64(v, &n) || !n) goto bad; o->L.watchdog = (uint32_t)n; continue; }
        if ((v = optval(a, "--split"))) { if (!parse_u64(v, &n) || n > 100) goto bad; o->L.split_percent = (uint32_t)n; continue; }
        if ((v = optval(a, "--seeds"))) { if (!parse_u64(v, &n) || !n || n > 1000) goto bad; o->seeds = (int)n; continue; }
        if ((v = optval(a, "--ulp"))) { if (!parse_u64(v, &o->tol.ulp)) goto bad; continue; }
        if ((v = optval(a, "--max-report"))) { if (!parse_u64(v, &n)) goto bad; o->max_report = (int)n; continue; }
        if ((v = optval(a, "--abs"))) {
            char *end;
            o->tol.abs = strtod(v, &end);
            if (end == v || *end || !(o->tol.abs >= 0)) goto bad;
            continue;
        }
        if ((v = optval(a, "--rel"))) {
            char *end;
            o->tol.rel = strtod(v, &end);
            if (*end || o->tol.rel < 0) goto bad;
            continue;
        }
        if ((v = optval(a, "--approx"))) {
            if (!emu_approx_parse(v, &o->L.approx)) {
                fprintf(stderr, "ptxopt-emu: bad --approx '%s' (exact, bound, bound:up, bound:down, random[:SEED])\n", v);
                return ST_USAGE;
            }
            continue;
        }
        if ((v = optval(a, "--error-metric"))) {
            if (!emu_metric_parse(v, &o->metric)) { fprintf(stderr, "ptxopt-emu: bad --error-metric '%s' (mre, maxrel, maxabs, rmse)\n", v); return ST_USAGE; }
            o->error_mode = true;
            continue;
        }
        if ((v = optval(a, "--max-error"))) {
            char *end;
            o->max_error = strtod(v, &end);
            o->error_mode = true;
            if (end == v || *end || !(o->max_error >= 0)) goto bad;
            continue;
        }
        if ((v = optval(a, "--outputs"))) {
            o->has_outputs = o->error_mode = true;
            for (const char *p = v; *p;) {
                char *end;
                long k = strtol(p, &end, 10);
                if (end == p || k < 0 || k >= 256 || (*end && *end != ',')) goto bad;
                o->outputs[k] = true;
                p = *end ? end + 1 : end;
            }
            continue;
        }
        if (strcmp(a, "--allow-exited-sync") == 0) { o->L.allow_exited_sync = true; continue; }
        if (strcmp(a, "--cooperative") == 0) { o->L.cooperative = true; o->L.resident = 0; continue; }
        if ((v = optval(a, "--cache"))) {
            char err[300];
            if (!emu_cache_parse(v, &o->cache, err, sizeof err)) { fprintf(stderr, "ptxopt-emu: --cache=%s: %s\n", v, err); return ST_USAGE; }
            o->L.cache = &o->cache;
            continue;
        }
        if (strcmp(a, "--cache-report") == 0) { o->cache_report = "-"; continue; }
        if ((v = optval(a, "--cache-report"))) { o->cache_report = v; continue; }
        if (strcmp(a, "--counters") == 0) { o->counters = "-"; continue; }
        if ((v = optval(a, "--counters"))) { o->counters = v; continue; }
        if ((v = optval(a, "--trace"))) { o->trace = v; continue; }
        if (strcmp(a, "--stats") == 0) { o->stats = true; continue; }
        if (strcmp(a, "--list-unsupported") == 0) { o->list_unsupported = true; continue; }
        if (strcmp(a, "-q") == 0 || strcmp(a, "--quiet") == 0) { o->quiet = true; continue; }
        if (top && optval(a, "--spec")) continue;   /* handled by main */
        if (a[0] == '-' && a[1]) { fprintf(stderr, "ptxopt-emu: unknown option '%s' (see --help)\n", a); return ST_USAGE; }
        if (o->file) { fprintf(stderr, "ptxopt-emu: more than one input file ('%s', '%s')\n", o->file, a); return ST_USAGE; }
        o->file = a;
        continue;
    bad:
        fprintf(stderr, "ptxopt-emu: bad value in '%s'\n", a);
        return ST_USAGE;
    }
    return -1;
}

/* Writes a dump atomically (codegen/outfile.h: a temporary file beside the
 * target, then rename; /dev/null and FIFOs are written directly). */
static bool write_dump(const char *path, const EmuBuffer *b, EmuDumpFormat f, int arg, int ndumps_stdout)
{
    if (!path || strcmp(path, "-") == 0) {
        if (ndumps_stdout > 1) printf("# argument %d\n", arg);
        bool ok = emu_dump_buffer(stdout, b, f);
        fflush(stdout);
        return ok;
    }
    OutFile of;
    if (!outfile_open(&of, path)) return false;
    FILE *out = fdopen(dup(of.fd), "wb");
    bool ok = out && emu_dump_buffer(out, b, f);
    if (out && fclose(out) != 0) ok = false;
    if (!ok) {
        fprintf(stderr, "ptxopt-emu: cannot write %s: %s\n", path, strerror(errno));
        outfile_abort(&of);
        return false;
    }
    return outfile_commit(&of);
}

static EmuDumpFormat format_for(const Opts *o, const char *file)
{
    if (o->dump_format >= 0) return (EmuDumpFormat)o->dump_format;
    if (!file || strcmp(file, "-") == 0) return EMU_DUMP_TEXT;
    size_t n = strlen(file);
    if (n >= 4 && strcmp(file + n - 4, ".txt") == 0) return EMU_DUMP_TEXT;
    if (n >= 5 && strcmp(file + n - 5, ".json") == 0) return EMU_DUMP_JSON;
    return EMU_DUMP_BIN;
}

static void print_failure(const char *file, const EmuResult *r)
{
    const char *msg = r->message ? r->message : "failed\n";
    fprintf(stderr, "%s: error: %s", file, msg);
    size_t n = strlen(msg);
    if (n == 0 || msg[n - 1] != '\n') fputc('\n', stderr);
}

static EmuProgram *load(const char *file, Module **mp)
{
    Module *m = parse_file(file, stderr);
    if (!m) return NULL;
    EmuProgram *p = emu_program_new(m, stderr);
    if (!p) { ir_module_free(m); return NULL; }
    *mp = m;
    return p;
}

/* --set-global: each variable is written in every program that has it (in
 * --diff, typically only B, the delivery=global rewrite, has it); one that
 * no program has, or that is not 4 or 8 bytes, is a usage error. */
static bool set_globals(const Opts *o, EmuProgram *const *ps, const char *const *files, int n)
{
    for (int g = 0; g < o->nglobals; g++) {
        const EmuGlobalSet *gs = &o->globals[g];
        bool found = false;
        for (int i = 0; i < n; i++) {
            uint64_t size = 0;
            switch (emu_program_set_global(ps[i], gs, &size)) {
            case EMU_GLOBAL_OK: found = true; break;
            case EMU_GLOBAL_NOT_FOUND: break;
            case EMU_GLOBAL_BAD_SIZE:
                fprintf(stderr, "ptxopt-emu: --set-global=%s=...: %s's variable is %llu bytes (4 or 8 can be set)\n", gs->name,
                        files[i], (unsigned long long)size);
                return false;
            case EMU_GLOBAL_TOO_WIDE:
                fprintf(stderr, "ptxopt-emu: --set-global=%s=...: the value does not fit %s's %llu-byte variable\n", gs->name,
                        files[i], (unsigned long long)size);
                return false;
            }
        }
        if (!found) {
            fprintf(stderr, "ptxopt-emu: --set-global: no .global or .const variable '%s' in %s%s%s\n", gs->name, files[0],
                    n > 1 ? " or " : "", n > 1 ? files[1] : "");
            return false;
        }
    }
    return true;
}

static int run_single(Opts *o)
{
    if (!o->file) { fprintf(stderr, "ptxopt-emu: no input file (see --help)\n"); return ST_USAGE; }
    if (o->cache_report && !o->L.cache) { fprintf(stderr, "ptxopt-emu: --cache-report needs --cache=ARCH\n"); return ST_USAGE; }
    Module *m = NULL;
    EmuProgram *p = load(o->file, &m);
    if (!p) return ST_USAGE;
    if (!set_globals(o, &p, &o->file, 1)) { emu_program_free(p); ir_module_free(m); return ST_USAGE; }
    if (o->list_unsupported) {
        int n = emu_program_list_unsupported(p, stdout);
        emu_program_free(p);
        ir_module_free(m);
        return n ? ST_FAIL : ST_OK;
    }
    o->L.args = o->args;
    o->L.nargs = o->nargs;
    FILE *trace = NULL;
    if (o->trace) {
        trace = fopen(o->trace, "w");
        if (!trace) { fprintf(stderr, "ptxopt-emu: cannot write %s\n", o->trace); emu_program_free(p); ir_module_free(m); return ST_USAGE; }
        o->L.trace = true;
        o->L.trace_out = trace;
    }
    EmuResult r;
    EmuStatus st = emu_run(p, &o->L, &r);
    if (trace) fclose(trace);
    int rc = ST_OK;
    if (r.events && !o->quiet) fputs(r.events, stderr);
    if (st != EMU_OK) {
        print_failure(o->file, &r);
        rc = st == EMU_ERR_SETUP ? ST_USAGE : (r.kind && strcmp(r.kind, "TRAP") == 0) ? ST_TRAP : ST_FAIL;
    }
    if (st == EMU_OK) {
        int nstdout = 0;
        for (int i = 0; i < o->ndumps; i++) if (!o->dumps[i].file || strcmp(o->dumps[i].file, "-") == 0) nstdout++;
        for (int i = 0; i < o->ndumps; i++) {
            int k = o->dumps[i].arg;
            if (k >= r.nbufs || !r.bufs[k].data) {
                fprintf(stderr, "ptxopt-emu: --dump=%d: argument %d is not a buffer\n", k, k);
                rc = ST_USAGE;
                continue;
            }
            if (!write_dump(o->dumps[i].file, &r.bufs[k], format_for(o, o->dumps[i].file), k, nstdout)) rc = ST_USAGE;
        }
    }
    if (o->counters && st != EMU_ERR_SETUP) {
        FILE *cf = strcmp(o->counters, "-") == 0 ? stdout : fopen(o->counters, "w");
        if (!cf) { fprintf(stderr, "ptxopt-emu: cannot write %s\n", o->counters); rc = ST_USAGE; }
        else {
            emu_counters_json(cf, &r, &o->L);
            if (cf != stdout) fclose(cf);
        }
    }
    if (o->cache_report && r.cache) {
        FILE *cf = strcmp(o->cache_report, "-") == 0 ? stdout : fopen(o->cache_report, "w");
        if (!cf) { fprintf(stderr, "ptxopt-emu: cannot write %s\n", o->cache_report); rc = ST_USAGE; }
        else {
            emu_cache_report_text(cf, r.cache);
            if (cf != stdout) fclose(cf);
        }
    }
    if (o->stats)
        fprintf(stderr, "ptxopt-emu: %s: %s policy, %llu thread-instructions, %llu warp-instructions in %.3f s: %.1f M thread-instructions/s\n",
                o->file, emu_policy_name(o->L.policy), (unsigned long long)r.counters.active_lanes,
                (unsigned long long)r.counters.issued_total, r.seconds, r.seconds > 0 ? (double)r.counters.active_lanes / r.seconds / 1e6 : 0.0);
    emu_result_free(&r);
    emu_program_free(p);
    ir_module_free(m);
    return rc;
}

/* ------------------------------------------------------------ differential */

typedef struct RunSpec { EmuPolicy policy; uint64_t seed; } RunSpec;

/* The two programs of --diff and of the error measurement, loaded, with
 * --set-global applied to whichever has each variable. */
typedef struct Pair { Module *ma, *mb; EmuProgram *pa, *pb; } Pair;

static void pair_free(Pair *p)
{
    if (p->pa) emu_program_free(p->pa);
    if (p->pb) emu_program_free(p->pb);
    ir_module_free(p->ma);
    ir_module_free(p->mb);
}

static bool pair_load(Opts *o, Pair *p)
{
    *p = (Pair){ 0 };
    if (!(p->pa = load(o->file, &p->ma)) || !(p->pb = load(o->file_b, &p->mb))) {
        pair_free(p);
        return false;
    }
    EmuProgram *const both[2] = { p->pa, p->pb };
    const char *const files[2] = { o->file, o->file_b };
    if (!set_globals(o, both, files, 2)) {
        pair_free(p);
        return false;
    }
    return true;
}

static int run_diff(Opts *o)
{
    Pair pr;
    if (!pair_load(o, &pr)) return ST_USAGE;
    EmuProgram *pa = pr.pa, *pb = pr.pb;
    o->L.args = o->args;
    o->L.nargs = o->nargs;
    int nrun = o->seeds + 1;
    RunSpec *runs = calloc((size_t)nrun, sizeof *runs);
    for (int i = 0; i < o->seeds; i++) { runs[i].policy = EMU_POLICY_ITS; runs[i].seed = o->L.seed + (uint64_t)i; }
    runs[o->seeds].policy = EMU_POLICY_HANOI;
    runs[o->seeds].seed = o->L.seed;
    int rc = ST_OK;
    EmuResult ref;
    memset(&ref, 0, sizeof ref);
    uint8_t *ignore[256] = { 0 };
    char la[96], lb[96];
    /* 1. the original under every schedule: its own results must agree */
    for (int i = 0; i < nrun && rc == ST_OK; i++) {
        EmuLaunch L = o->L;
        L.policy = runs[i].policy;
        L.seed = runs[i].seed;
        EmuResult r;
        EmuStatus st = emu_run(pa, &L, &r);
        if (st != EMU_OK) {
            fprintf(stderr, "ptxopt-emu: the original (%s, %s seed %llu) does not run cleanly:\n", o->file, emu_policy_name(L.policy),
                    (unsigned long long)L.seed);
            print_failure(o->file, &r);
            rc = st == EMU_ERR_SETUP ? ST_USAGE : ST_FAIL;
            emu_result_free(&r);
            break;
        }
        if (i == 0) { ref = r; continue; }
        snprintf(la, sizeof la, "A(its seed %llu)", (unsigned long long)runs[0].seed);
        snprintf(lb, sizeof lb, "A(%s seed %llu)", emu_policy_name(L.policy), (unsigned long long)L.seed);
        size_t nd = emu_compare_buffers(NULL, &ref, &r, o->args, NULL, NULL, 0, la, lb);
        if (nd) {
            fprintf(stderr, "ptxopt-emu: warning: the original is schedule-dependent (%zu elements differ between %s and %s); "
                            "they are left out of the comparison:\n", nd, la, lb);
            emu_compare_buffers(stderr, &ref, &r, o->args, NULL, NULL, o->max_report, la, lb);
            for (int k = 0; k < r.nbufs && k < 256; k++) {
                const EmuBuffer *x = &ref.bufs[k], *y = &r.bufs[k];
                if (!x->data || !y->data) continue;
                size_t es = emu_type_size(x->type);
                if (!ignore[k]) ignore[k] = calloc(x->count + 1, 1);
                for (size_t e = 0; e < x->count; e++)
                    if (memcmp(x->data + e * es, y->data + e * es, es) != 0) ignore[k][e] = 1;
            }
        }
        emu_result_free(&r);
    }
    /* 2. the transformed program under every schedule, against the original */
    size_t total = 0;
    for (int i = 0; i < nrun && rc == ST_OK; i++) {
        EmuLaunch L = o->L;
        L.policy = runs[i].policy;
        L.seed = runs[i].seed;
        if (o->kernel_b) L.kernel = o->kernel_b;
        EmuResult r;
        EmuStatus st = emu_run(pb, &L, &r);
        if (st != EMU_OK) {
            fprintf(stderr, "ptxopt-emu: %s fails under %s seed %llu:\n", o->file_b, emu_policy_name(L.policy), (unsigned long long)L.seed);
            print_failure(o->file_b, &r);
            rc = st == EMU_ERR_SETUP ? ST_USAGE : ST_FAIL;
            emu_result_free(&r);
            break;
        }
        snprintf(la, sizeof la, "A");
        snprintf(lb, sizeof lb, "B(%s seed %llu)", emu_policy_name(L.policy), (unsigned long long)L.seed);
        size_t nd = emu_compare_buffers(NULL, &ref, &r, o->args, &o->tol, (const uint8_t *const *)ignore, 0, la, lb);
        if (nd) {
            fprintf(stdout, "%s and %s differ in %zu element%s under %s seed %llu:\n", o->file, o->file_b, nd, nd == 1 ? "" : "s",
                    emu_policy_name(L.policy), (unsigned long long)L.seed);
            emu_compare_buffers(stdout, &ref, &r, o->args, &o->tol, (const uint8_t *const *)ignore, o->max_report, la, lb);
            total += nd;
            rc = ST_FAIL;
        }
        emu_result_free(&r);
    }
    if (rc == ST_OK && !o->quiet)
        fprintf(stdout, "%s and %s agree (%d ITS seeds and hanoi%s)\n", o->file, o->file_b, o->seeds,
                (o->tol.ulp || o->tol.rel > 0 || o->tol.abs > 0) ? ", within tolerance" : ", bit for bit");
    (void)total;
    if (ref.bufs) emu_result_free(&ref);
    for (int k = 0; k < 256; k++) free(ignore[k]);
    free(runs);
    pair_free(&pr);
    return rc;
}

/* ---------------------------------------------------- error measurement */

static int run_error(Opts *o)
{
    Pair pr;
    if (!pair_load(o, &pr)) return ST_USAGE;
    EmuProgram *pa = pr.pa, *pb = pr.pb;
    o->L.args = o->args;
    o->L.nargs = o->nargs;
    for (int k = 0; o->has_outputs && k < 256; k++)
        if (o->outputs[k] && (k >= o->nargs || o->args[k].kind != EMU_ARG_BUFFER)) {
            fprintf(stderr, "ptxopt-emu: --outputs: argument %d is not a buffer\n", k);
            pair_free(&pr);
            return ST_USAGE;
        }
    EmuErrorAcc per[256], all;
    char err[2048];
    int rc = ST_OK;
    if (o->kernel_b && (!o->L.kernel || strcmp(o->kernel_b, o->L.kernel) != 0)) {
        fprintf(stderr, "ptxopt-emu: --kernel-b is not supported with --error-metric\n");
        rc = ST_USAGE;
    } else if (!emu_output_error(pa, pb, &o->L, o->has_outputs ? o->outputs : NULL, per, &all, NULL, err, sizeof err)) {
        size_t n = strlen(err);
        while (n && err[n - 1] == '\n') err[--n] = 0;
        fprintf(stderr, "ptxopt-emu: %s\n(the reference is %s, the candidate %s)\n", err, o->file, o->file_b);
        rc = ST_FAIL;
    } else {
        const char *mn = emu_metric_name(o->metric);
        for (int k = 0; k < o->nargs; k++) {
            if (!per[k].measured) continue;
            printf("error %s argument %d (%s): %.9g over %zu elements", mn, k, o->args[k].spec, emu_error_value(&per[k], o->metric),
                   per[k].n);
            if (per[k].nan_mismatch) printf(" (%zu NaN on one side only)", per[k].nan_mismatch);
            putchar('\n');
        }
        double e = emu_error_value(&all, o->metric);
        printf("error %s overall: %.9g over %zu elements (--approx=%s)\n", mn, e, all.n, emu_approx_name(o->L.approx.mode));
        if (o->max_error >= 0 && !(e <= o->max_error)) {
            printf("error %s %.9g exceeds --max-error=%g\n", mn, e, o->max_error);
            rc = ST_FAIL;
        }
    }
    pair_free(&pr);
    return rc;
}

/* One launch: a run, a comparison, or an error measurement. */
static int dispatch(Opts *o)
{
    if (!o->diff && o->error_mode) {
        fprintf(stderr, "ptxopt-emu: --error-metric, --max-error and --outputs need --diff A.ptx B.ptx\n");
        return ST_USAGE;
    }
    if (o->diff && o->error_mode && (o->tol.ulp || o->tol.rel > 0 || o->tol.abs > 0)) {
        fprintf(stderr, "ptxopt-emu: --ulp/--rel compare; --error-metric measures: give one of them\n");
        return ST_USAGE;
    }
    return o->diff ? (o->error_mode ? run_error(o) : run_diff(o)) : run_single(o);
}

/* ------------------------------------------------------------- spec files */

static int run_spec(const char *path, const Opts *base)
{
    FILE *f = fopen(path, "r");
    if (!f) { fprintf(stderr, "ptxopt-emu: cannot read %s\n", path); return ST_USAGE; }
    char line[8192];
    int worst = ST_OK, lineno = 0;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        char *argv[512];
        int argc = 0;
        for (char *t = strtok(line, " \t\r\n"); t && argc < 512; t = strtok(NULL, " \t\r\n")) {
            if (t[0] == '#') break;
            argv[argc++] = t;
        }
        if (!argc) continue;
        Opts o;
        opts_init(&o);
        o.quiet = base->quiet;
        o.stats = base->stats;
        int rc = parse_args(argc, argv, &o, false);
        if (rc < 0) {
            if (!o.file) o.file = base->file;
            rc = dispatch(&o);
        }
        if (rc != ST_OK) fprintf(stderr, "ptxopt-emu: %s:%d: launch failed\n", path, lineno);
        if (rc > worst) worst = rc;
        opts_free(&o);
    }
    fclose(f);
    return worst;
}

int main(int argc, char **argv)
{
    Opts o;
    opts_init(&o);
    int rc = parse_args(argc - 1, argv + 1, &o, true);
    if (rc >= 0) { opts_free(&o); return rc; }
    for (int i = 1; i < argc; i++) {
        const char *v = optval(argv[i], "--spec");
        if (v) { rc = run_spec(v, &o); opts_free(&o); return rc; }
    }
    rc = dispatch(&o);
    opts_free(&o);
    return rc;
}
