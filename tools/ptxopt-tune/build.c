/* build.c — one variant from the input: ptxopt with a pipeline, then
 * ptxas -v; and the probes that find each kernel's register range. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/common/fileio.h"
#include "tools/ptxopt-tune/internal.h"
#include "ir/fatal.h"
#include "opt/run.h"

char *xasprintf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s;
    if (vasprintf(&s, fmt, ap) < 0) fatal_oom();
    va_end(ap);
    return s;
}

void tune_progress(const Tuner *t, const char *fmt, ...)
{
    if (t->cfg->quiet) return;
    va_list ap;
    va_start(ap, fmt);
    fputs("ptxopt-tune: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

/* Runs `pipeline` on the input in memory: *out gets the output and *rm the
 * remarks (the caller frees both, whatever happened).  NULL when it ran;
 * else why not (malloc'ed). */
static char *run_in_memory(const Tuner *t, const char *pipeline, OutBuf *out, Remarks *rm)
{
    out_init(out);
    remarks_init(rm);
    Pipeline p;
    char err[512];
    if (!pipeline_parse(pipeline, &p, err, sizeof err)) return xasprintf("bad pipeline '%s': %s", pipeline, err);
    RunOptions ro = { .pipeline = &p, .remarks = rm };
    if (t->retarget) ro.target = t->arch_name, ro.target_sm = t->arch_sm;
    RunStats st;
    int rc = run_file(t->cfg->input, out, &ro, &st);
    pipeline_free(&p);   /* the remarks name their pass by a literal */
    return rc == RUN_OK ? NULL : xasprintf("ptxopt failed on the input (status %d)", rc);
}

/* Did `pass` rewrite something in `fn` (an "applied" remark)? */
static bool applied_in(const Remarks *rm, const char *pass, const char *fn)
{
    for (int i = 0; i < rm->n; i++)
        if (rm->v[i].kind == REMARK_APPLIED && strcmp(rm->v[i].pass, pass) == 0 && strcmp(rm->v[i].function, fn) == 0) return true;
    return false;
}

/* Runs ptxopt on the input with `pipeline` into `path`.  A "missed" remark
 * (of `kernel`, or of any function when NULL) fails the build, unless the
 * same pass also applied something to that function (a pass that works
 * site by site, like sfu, may leave one site precise and rewrite others;
 * a pass that refuses the kernel, like regtune, applies nothing): it comes
 * back in *missed, and the function's name in *missed_fn when not NULL
 * (both malloc'ed). */
bool tune_build_ptx(Tuner *t, const char *pipeline, const char *path, const char *kernel, char **missed, char **missed_fn)
{
    if (missed_fn) *missed_fn = NULL;
    Remarks rm;
    OutBuf out;
    *missed = run_in_memory(t, pipeline, &out, &rm);
    bool ok = *missed == NULL;
    for (int i = 0; ok && i < rm.n; i++)
        if (rm.v[i].kind == REMARK_MISSED && (!kernel || strcmp(rm.v[i].function, kernel) == 0) &&
            !applied_in(&rm, rm.v[i].pass, rm.v[i].function)) {
            *missed = xasprintf("%s: %s", rm.v[i].pass, rm.v[i].message);
            if (missed_fn) *missed_fn = xasprintf("%s", rm.v[i].function);
            ok = false;
        }
    if (ok) ok = write_file_atomic(path, out.p, out.len);
    out_free(&out);
    remarks_free(&rm);
    return ok;
}

static bool is_tuned_kernel(const Tuner *t, const char *name)
{
    for (int i = 0; i < t->run.nkernels; i++)
        if (strcmp(t->run.kernels[i].name, name) == 0) return true;
    return false;
}

/* Does `pipeline` (one dimension's value) apply to `kernel`?  Asked of the
 * pass itself, not guessed: ptxopt runs it on the input in memory, and it
 * applies when the pass reports having rewritten something (an "applied"
 * remark in the kernel, or in a function that is not one of the kernels
 * tuned: a callee).  Otherwise *why gets the pass's own reason for the kernel (its
 * first "missed" remark, else its last analysis remark).  -1: the run
 * failed (why too). */
int tune_applies(Tuner *t, const char *pipeline, const char *kernel, char **why)
{
    Remarks rm;
    OutBuf out;
    *why = run_in_memory(t, pipeline, &out, &rm);
    int res = *why ? -1 : 0;
    const Remark *missed = NULL, *analysis = NULL;
    for (int i = 0; res == 0 && i < rm.n; i++) {
        const Remark *r = &rm.v[i];
        bool here = strcmp(r->function, kernel) == 0;
        if (r->kind == REMARK_APPLIED && (here || !is_tuned_kernel(t, r->function))) res = 1; /* a callee counts */
        else if (!here) continue;
        else if (r->kind == REMARK_MISSED && !missed) missed = r;
        else if (r->kind == REMARK_ANALYSIS) analysis = r;
    }
    if (res == 0) {
        const Remark *r = missed ? missed : analysis;
        *why = r ? xasprintf("%s: %s", r->pass, r->message) : xasprintf("the pass reports nothing rewritten in %s", kernel);
    }
    out_free(&out);
    remarks_free(&rm);
    return res;
}

/* --------------------------------------------------------------- probes */

PtxasRun tune_ptxas(Tuner *t, const char *ptx, const char *cubin, const char *log)
{
    char *opts[MAX_PTXAS_OPTS + 2];
    int n = 0;
    char rr[32];
    if (t->cfg->maxrregcount) {
        snprintf(rr, sizeof rr, "-maxrregcount=%ld", t->cfg->maxrregcount);
        opts[n++] = rr;
    }
    for (int i = 0; i < t->cfg->nptxas_opts; i++) opts[n++] = t->cfg->ptxas_opts[i];
    return ptxas_run(t->cfg->ptxas, t->arch_name, opts, n, ptx, cubin, log);
}

/* The pipeline that caps every tuned kernel at its probe_cap. */
static char *cap_pipeline(const Tuner *t)
{
    size_t len = 0;
    char *s = calloc(1, 1);
    if (!s) fatal_oom();
    for (int i = 0; i < t->run.nkernels; i++) {
        const TuneKernel *k = &t->run.kernels[i];
        if (k->skip) continue;
        char *frag = xasprintf("%sregtune<maxnreg=%d;kernel=%s>", len ? "," : "", k->probe_cap, k->name);
        s = realloc(s, len + strlen(frag) + 1);
        if (!s) fatal_oom();
        memcpy(s + len, frag, strlen(frag) + 1);
        len += strlen(frag);
        free(frag);
    }
    return s;
}

/* Builds the input with every kernel capped at its probe_cap and assembles
 * it.  A kernel the pass refuses (e.g. one that uses setmaxnreg) is marked
 * not tunable and left out.  false (with *why) when ptxas refuses. */
static bool probe(Tuner *t, const char *what, PtxasRun *out, char **why)
{
    char *ptx = xasprintf("%s/probe-%s.ptx", t->workdir, what), *cubin = xasprintf("%s/probe-%s.cubin", t->workdir, what),
         *log = xasprintf("%s/probe-%s.log", t->workdir, what);
    bool ok = false;
    for (;;) {
        char *pl = cap_pipeline(t), *fn = NULL;
        free(*why);
        *why = NULL;
        ok = tune_build_ptx(t, pl, ptx, NULL, why, &fn);
        free(pl);
        TuneKernel *bad = NULL;
        for (int i = 0; !ok && fn && i < t->run.nkernels; i++)
            if (strcmp(t->run.kernels[i].name, fn) == 0 && !t->run.kernels[i].skip) bad = &t->run.kernels[i];
        free(fn);
        if (ok || !bad) break;
        bad->skip = *why; /* the pass's reason; kept for the report */
        *why = NULL;
    }
    if (ok) {
        ptxas_run_free(out);
        *out = tune_ptxas(t, ptx, cubin, log);
        ok = out->ok;
        if (!ok) *why = strdup(out->error);
    }
    free(ptx), free(cubin), free(log);
    return ok;
}

/* ptxas's own floor for an instruction (wmma/mma fragments, ...):
 *   ptxas fatal : (C7602) Insufficient registers (24) to compile instruction
 *   at line 90 in function K. Try to compile with register target of 28 or higher.
 * Returns 28 and points *fn at "K" (in msg), or 0. */
static int floor_hint(const char *msg, const char **fn, size_t *fnlen)
{
    const char *f = strstr(msg, " in function "), *n = strstr(msg, "register target of ");
    if (!n) return 0;
    *fn = NULL;
    if (f && f < n) {
        f += strlen(" in function ");
        const char *e = f;
        while (*e && *e != '.' && *e != ' ') e++;
        *fn = f;
        *fnlen = (size_t)(e - f);
    }
    return atoi(n + strlen("register target of "));
}

bool tune_probe_range(Tuner *t, PtxasRun *lo, PtxasRun *hi, char **why)
{
    /* the floor: .maxnreg 1, which ptxas raises to its lower bound (24);
     * where an instruction needs more, ptxas names the kernel and the
     * count, and that kernel is probed again there */
    for (int i = 0; i < t->run.nkernels; i++) t->run.kernels[i].probe_cap = 1;
    bool ok = false;
    for (int round = 0; round < 32 && !ok; round++) {
        ok = probe(t, "floor", lo, why);
        if (ok || !*why) break;
        const char *fn;
        size_t fnlen = 0;
        int need = floor_hint(*why, &fn, &fnlen);
        if (!need) break;
        bool raised = false;
        for (int i = 0; i < t->run.nkernels; i++) {
            TuneKernel *k = &t->run.kernels[i];
            if (fn && strlen(k->name) == fnlen && strncmp(k->name, fn, fnlen) == 0 && k->probe_cap < need)
                k->probe_cap = need, raised = true;
        }
        /* a callee's name (or none): raise every kernel below the need */
        if (!raised)
            for (int i = 0; i < t->run.nkernels; i++)
                if (t->run.kernels[i].probe_cap < need) t->run.kernels[i].probe_cap = need, raised = true;
        if (!raised) break;
    }
    if (!ok) return false;
    /* the top: the most registers a block of the kernel's size can launch
     * with (255 when the size is unknown) */
    for (int i = 0; i < t->run.nkernels; i++) {
        TuneKernel *k = &t->run.kernels[i];
        OccInput in = occ_input(k->universal ? t->arch->warp_size : k->block, 0);
        k->probe_cap = crit_regs_for_level(t->arch, &in, 1);
        if (!k->probe_cap) k->probe_cap = t->arch->max_regs_per_thread;
    }
    return probe(t, "top", hi, why);
}
