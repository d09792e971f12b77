/* optimize.c — see optimize.h. */
#include "driver/optimize.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ir/fatal.h"
#include "parser/parse.h"

double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* The first line of a diagnostic text, without the newline. */
static void first_line(char *dst, size_t n, const char *text)
{
    size_t len = strcspn(text, "\n");
    if (len >= n) len = n - 1;
    memcpy(dst, text, len);
    dst[len] = 0;
}

static void collect_kernels(const Module *m, OptimizeResult *r)
{
    r->kernels = calloc(m->nfuncs ? m->nfuncs : 1, sizeof(KernelInfo));
    if (!r->kernels) fatal_oom();
    for (uint32_t i = 0; i < m->nfuncs; i++) {
        const Function *fn = m->funcs[i];
        if (!fn->has_body) continue;
        KernelInfo *k = &r->kernels[r->nkernels++];
        k->name = strndup(fn->name.p, fn->name.len);
        if (!k->name) fatal_oom();
        k->entry = fn->is_entry;
    }
}

/* Derives a pass's tally from the remarks it recorded since `first`. */
static void tally_pass(OptimizeResult *r, PassTally *t, int first)
{
    int changed = 0;
    for (int i = first; i < r->remarks.n; i++) {
        const Remark *x = &r->remarks.v[i];
        if (x->kind != REMARK_APPLIED) continue;
        t->sites++;
        bool seen_before = false;
        for (int j = first; j < i && !seen_before; j++)
            seen_before = r->remarks.v[j].kind == REMARK_APPLIED && strcmp(r->remarks.v[j].function, x->function) == 0;
        if (!seen_before) changed++;
    }
    t->kernels_changed = changed;
}

static void module_stats(const Module *m, OptimizeResult *r)
{
    r->nfuncs = m->nfuncs;
    for (uint32_t i = 0; i < m->nfuncs; i++) {
        Function *fn = m->funcs[i];
        r->nblocks += fn->nblocks;
        FOR_EACH_BLOCK(b, fn)
            FOR_EACH_STMT(s, b) r->ninstrs += s->kind == STMT_INSTR;
    }
    r->ir_bytes = m->arena.total;
}

_Noreturn static void crash_now(void)
{
    /* Die of the signal itself, even under a sanitizer's handler. */
    signal(SIGSEGV, SIG_DFL);
    raise(SIGSEGV);
    abort();
}

int optimize_text(const char *name, char *buf, size_t len, const OptimizeConfig *cfg, FILE *diag,
                  OptimizeResult *r)
{
    memset(r, 0, sizeof *r);
    remarks_init(&r->remarks);
    out_init(&r->out);
    r->failed_pass = -1;
    r->bytes = len;
    FaultKind fault = fault_for(&cfg->fault, name);

    if (fault == FAULT_PARSE) {
        static const char junk[] = "\n@@ ptxopt: injected parse fault @@\n";
        char *nb = realloc(buf, len + sizeof junk + 2);
        if (!nb) fatal_oom();
        buf = nb;
        memcpy(buf + len, junk, sizeof junk - 1);
        len += sizeof junk - 1;
    }

    char *dtext = NULL;
    size_t dlen = 0;
    FILE *dmem = open_memstream(&dtext, &dlen);
    if (!dmem) fatal_oom();
    double t0 = now_ms();
    Module *m = parse_module(name, buf, len, dmem);
    double t1 = now_ms();
    fclose(dmem);
    if (diag && dlen) fwrite(dtext, 1, dlen, diag);
    r->ms_parse = t1 - t0;
    if (!m) {
        r->status = 1;
        first_line(r->error, sizeof r->error, dlen ? dtext : "cannot parse the input");
        free(dtext);
        return r->status;
    }
    free(dtext);

    if (fault == FAULT_CRASH) crash_now();
    if (fault == FAULT_TIMEOUT) for (;;) pause();

    if (cfg->target) ir_set_target(m, cfg->target, cfg->target_sm);
    collect_kernels(m, r);
    const Pipeline *pl = cfg->pipeline;
    r->npasses = pl ? pl->n : 0;
    r->tally = calloc(r->npasses ? (size_t)r->npasses : 1, sizeof(PassTally));
    if (!r->tally) fatal_oom();
    PassContext ctx = { .target_sm = m->target_sm, .remarks = &r->remarks };
    for (int i = 0; i < r->npasses; i++) {
        PassTally *t = &r->tally[i];
        t->pass = pl->v[i].pass->name;
        /* One pipeline entry at a time, so a failure names its pass. */
        Pipeline one = { .n = 1, .v = &pl->v[i] };
        int first = r->remarks.n;
        int rc = pipeline_run(&one, m, &ctx);
        t->kernels_seen = r->nkernels;
        tally_pass(r, t, first);
        if (rc) {
            t->failed = true;
            r->failed_pass = i;
            r->status = 3;
            snprintf(r->error, sizeof r->error, "pass '%s' failed", t->pass);
            break;
        }
        t->ran = true;
    }
    if (!r->status && fault == FAULT_PASS) {
        r->status = 3;
        if (r->npasses) {
            r->failed_pass = r->npasses - 1;
            r->tally[r->failed_pass].failed = true;
            snprintf(r->error, sizeof r->error, "pass '%s' failed (injected fault)", r->tally[r->failed_pass].pass);
        } else {
            snprintf(r->error, sizeof r->error, "a pass failed (injected fault)");
        }
    }
    double t2 = now_ms();
    r->ms_passes = t2 - t1;
    if (!r->status) {
        print_module(&r->out, m, cfg->canonical);
        if (fault == FAULT_PTXAS_REJECT) out_cstr(&r->out, "\n// ptxopt: injected fault\nptxopt_injected_fault;\n");
        r->changed = r->out.len != m->len || (m->len && memcmp(r->out.p, m->buf, m->len) != 0);
    }
    r->ms_print = now_ms() - t2;
    if (cfg->stats) module_stats(m, r);
    ir_module_free(m);
    return r->status;
}

void optimize_result_free(OptimizeResult *r)
{
    out_free(&r->out);
    remarks_free(&r->remarks);
    for (int i = 0; i < r->nkernels; i++) free(r->kernels[i].name);
    free(r->kernels);
    free(r->tally);
    memset(r, 0, sizeof *r);
}
