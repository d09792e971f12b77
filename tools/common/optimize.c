/* optimize.c — see optimize.h. */
#include "tools/common/optimize.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ir/fatal.h"
#include "parser/parse.h"

/* The first line of a diagnostic text, without the newline. */
static void first_line(char *dst, size_t n, const char *text)
{
    size_t len = strcspn(text, "\n");
    if (len >= n) len = n - 1;
    memcpy(dst, text, len);
    dst[len] = 0;
}

static void add_kernel(OptimizeResult *r, const Function *fn, int *cap)
{
    if (!fn->has_body) return;
    if (r->nkernels == *cap) {
        *cap = *cap ? *cap * 2 : 16;
        KernelInfo *k = realloc(r->kernels, sizeof(KernelInfo) * (size_t)*cap);
        if (!k) fatal_oom();
        r->kernels = k;
    }
    KernelInfo *k = &r->kernels[r->nkernels++];
    k->name = strndup(fn->name.p, fn->name.len);
    if (!k->name) fatal_oom();
    k->entry = fn->is_entry;
}

/* Adds to a pass's tally what the remarks it recorded since `first` say
 * (once per module, or once per function when streaming). */
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
    t->kernels_changed += changed;
}

static void function_stats(const Function *fn, OptimizeResult *r)
{
    r->nfuncs++;
    r->nblocks += fn->nblocks;
    FOR_EACH_BLOCK(b, fn)
        FOR_EACH_STMT(s, b) r->ninstrs += s->kind == STMT_INSTR;
}

/* Runs the pipeline on m one entry at a time (so that a failure names its
 * pass), adding to the tallies.  False when a pass failed (r->status set). */
static bool run_passes(Module *m, const Pipeline *pl, OptimizeResult *r)
{
    PassContext ctx = { .target_sm = m->target_sm, .remarks = &r->remarks };
    for (int i = 0; i < r->npasses; i++) {
        PassTally *t = &r->tally[i];
        Pipeline one = { .n = 1, .v = &pl->v[i] };
        int first = r->remarks.n;
        int rc = pipeline_run(&one, m, &ctx);
        tally_pass(r, t, first);
        if (rc) {
            t->failed = true;
            r->failed_pass = i;
            r->status = 3;
            snprintf(r->error, sizeof r->error, "pass '%s' failed", t->pass);
            return false;
        }
        t->ran = true;
    }
    return true;
}

/* Streaming (every pass function-local for this module): each top-level
 * item is optimized and printed as soon as it is parsed, so memory is the
 * input plus the largest function, not the whole module's IR. */
typedef struct Stream {
    OptimizeResult *r;
    const OptimizeConfig *cfg;
    int kcap;
    double pass_ms, print_ms;
} Stream;

static bool on_item(void *ud, Module *m, Stmt *item)
{
    Stream *st = ud;
    OptimizeResult *r = st->r;
    if (item->kind == STMT_DIRECTIVE && item->dirkind == DIR_TARGET && st->cfg->target)
        ir_set_target(m, st->cfg->target, st->cfg->target_sm);
    if (item->kind == STMT_FUNC) {
        Function *fn = item->u.fn;
        add_kernel(r, fn, &st->kcap);
        if (st->cfg->stats) function_stats(fn, r);
        double t0 = now_ms();
        bool ok = run_passes(m, st->cfg->pipeline, r);
        st->pass_ms += now_ms() - t0;
        if (!ok) return false;
    }
    double t1 = now_ms();
    print_item(&r->out, m, item, st->cfg->canonical);
    st->print_ms += now_ms() - t1;
    if (m->arena.total > r->ir_bytes) r->ir_bytes = m->arena.total;
    return true;
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

    const Pipeline *pl = cfg->pipeline;
    r->npasses = pl ? pl->n : 0;
    r->tally = calloc(r->npasses ? (size_t)r->npasses : 1, sizeof(PassTally));
    if (!r->tally) fatal_oom();
    for (int i = 0; i < r->npasses; i++) r->tally[i].pass = pl->v[i].pass->name;
    /* (the crash and hang faults strike after a whole-module parse) */
    bool stream = (!pl || pipeline_streamable(pl, parse_peek_version(buf, len))) && fault != FAULT_CRASH && fault != FAULT_TIMEOUT;

    char *dtext = NULL;
    size_t dlen = 0;
    FILE *dmem = open_memstream(&dtext, &dlen);
    if (!dmem) fatal_oom();
    double t0 = now_ms(), t1, t2;
    Module *m;
    Stream st = { .r = r, .cfg = cfg };
    if (stream) {
        m = parse_module_stream(name, buf, len, dmem, on_item, &st);
        if (m && !r->status) print_module_tail(&r->out, m, cfg->canonical);
        t2 = now_ms();
        r->ms_passes = st.pass_ms;
        r->ms_print = st.print_ms;
        r->ms_parse = t2 - t0 - st.pass_ms - st.print_ms;
    } else {
        m = parse_module(name, buf, len, dmem);
        t1 = now_ms();
        r->ms_parse = t1 - t0;
    }
    fclose(dmem);
    if (diag && dlen) fwrite(dtext, 1, dlen, diag);
    if (!m) {
        if (!r->status) {   /* else a pass failed and stopped the stream */
            r->status = 1;
            first_line(r->error, sizeof r->error, dlen ? dtext : "cannot parse the input");
        }
        free(dtext);
        return r->status;
    }
    free(dtext);

    if (fault == FAULT_CRASH) crash_now();
    if (fault == FAULT_TIMEOUT) for (;;) pause();
    if (!stream) {
        if (cfg->target) ir_set_target(m, cfg->target, cfg->target_sm);
        int kcap = 0;
        for (uint32_t i = 0; i < m->nfuncs; i++) {
            add_kernel(r, m->funcs[i], &kcap);
            if (cfg->stats) function_stats(m->funcs[i], r);
        }
        run_passes(m, pl, r);
        t2 = now_ms();
        r->ms_passes = t2 - t1;
    }
    for (int i = 0; i < r->npasses; i++)
        if (r->tally[i].ran || r->tally[i].failed) r->tally[i].kernels_seen = r->nkernels;
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
    if (!r->status) {
        double t3 = now_ms();
        if (!stream) print_module(&r->out, m, cfg->canonical);
        if (fault == FAULT_PTXAS_REJECT) out_cstr(&r->out, "\n// ptxopt: injected fault\nptxopt_injected_fault;\n");
        r->changed = r->out.len != m->len || (m->len && memcmp(r->out.p, m->buf, m->len) != 0);
        if (!stream) r->ms_print = now_ms() - t3;
    }
    if (!stream) r->ir_bytes = m->arena.total;
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
