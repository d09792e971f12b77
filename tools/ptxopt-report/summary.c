/* summary.c — see summary.h. */
#include "tools/ptxopt-report/summary.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/fatal.h"

static char *dup_or_null(const char *s)
{
    if (!s) return NULL;
    char *d = strdup(s);
    if (!d) fatal_oom();
    return d;
}

static void *grow(void *p, int n, size_t size)
{
    void *q = realloc(p, size * (size_t)(n + 1));
    if (!q) fatal_oom();
    return q;
}

static bool same(const char *a, const char *b) { return (!a && !b) || (a && b && strcmp(a, b) == 0); }

void summary_init(Summary *s) { memset(s, 0, sizeof *s); }

static void unit_free(Unit *u)
{
    for (int k = 0; k < u->nkernels; k++) {
        KernelDid *kd = &u->kernels[k];
        for (int p = 0; p < kd->npasses; p++) {
            for (int r = 0; r < kd->passes[p].nreasons; r++) free(kd->passes[p].reasons[r].message);
            free(kd->passes[p].reasons);
            free(kd->passes[p].pass);
        }
        free(kd->passes);
        free(kd->name);
    }
    free(u->kernels);
    free(u->source), free(u->object), free(u->target), free(u->pipeline), free(u->used), free(u->reason),
        free(u->status);
    memset(u, 0, sizeof *u);
}

static PassDid *pass_of(KernelDid *k, const char *pass)
{
    for (int i = 0; i < k->npasses; i++)
        if (strcmp(k->passes[i].pass, pass) == 0) return &k->passes[i];
    k->passes = grow(k->passes, k->npasses, sizeof *k->passes);
    PassDid *p = &k->passes[k->npasses++];
    memset(p, 0, sizeof *p);
    p->pass = dup_or_null(pass);
    return p;
}

static KernelDid *kernel_of(Unit *u, const char *name)
{
    for (int i = 0; i < u->nkernels; i++)
        if (strcmp(u->kernels[i].name, name) == 0) return &u->kernels[i];
    u->kernels = grow(u->kernels, u->nkernels, sizeof *u->kernels);
    KernelDid *k = &u->kernels[u->nkernels++];
    memset(k, 0, sizeof *k);
    k->name = dup_or_null(name);
    return k;
}

static void add_reason(PassDid *p, const char *msg)
{
    for (int i = 0; i < p->nreasons; i++)
        if (strcmp(p->reasons[i].message, msg) == 0) { p->reasons[i].count++; return; }
    p->reasons = grow(p->reasons, p->nreasons, sizeof *p->reasons);
    p->reasons[p->nreasons++] = (Reason){ dup_or_null(msg), 1 };
}

static int status_rank(const char *st)
{
    static const char *const order[] = { "not optimized", "unchanged", "changed", "failed" };
    for (int i = 0; st && i < 4; i++)
        if (strcmp(st, order[i]) == 0) return i + 1;
    return 0;
}

/* What one input of the run says about its kernels and passes. */
static void add_input(Unit *u, const JsonValue *in)
{
    const JsonValue *passes = json_get(in, "passes");
    const JsonValue *kernels = json_get(in, "kernels");
    /* the run's status is its inputs' worst: failed, changed, unchanged, not optimized */
    const char *st = json_str(json_get(in, "status"));
    if (st && status_rank(st) > status_rank(u->status)) {
        free(u->status);
        u->status = dup_or_null(st);
    }
    for (int k = 0; kernels && kernels->kind == JSON_ARRAY && k < kernels->n; k++) {
        const char *name = json_str(json_get(kernels->items[k], "name"));
        if (!name) continue;
        KernelDid *kd = kernel_of(u, name);
        /* every pass of the pipeline, even one with nothing to say */
        for (int p = 0; passes && passes->kind == JSON_ARRAY && p < passes->n; p++) {
            const char *pn = json_str(json_get(passes->items[p], "pass"));
            if (!pn) continue;
            PassDid *pd = pass_of(kd, pn);
            if (json_get(passes->items[p], "failed") && json_get(passes->items[p], "failed")->kind == JSON_TRUE)
                pd->failed = true;
        }
        const JsonValue *rem = json_get(kernels->items[k], "remarks");
        for (int r = 0; rem && rem->kind == JSON_ARRAY && r < rem->n; r++) {
            const char *pn = json_str(json_get(rem->items[r], "pass"));
            const char *kind = json_str(json_get(rem->items[r], "kind"));
            const char *msg = json_str(json_get(rem->items[r], "message"));
            if (!pn || !kind) continue;
            PassDid *pd = pass_of(kd, pn);
            if (strcmp(kind, "applied") == 0) pd->applied++;
            else if (strcmp(kind, "missed") == 0) {
                pd->missed++;
                add_reason(pd, msg ? msg : "");
            }
        }
    }
}

bool summary_add(Summary *s, const JsonValue *line, int lineno, char *err, size_t errsz)
{
    const char *tool = json_str(json_get(line, "tool"));
    if (!tool || strcmp(tool, "ptxopt-ptxas") != 0) {
        s->skipped++;
        snprintf(err, errsz, "not a line of a ptxopt-ptxas report (no \"tool\":\"ptxopt-ptxas\")");
        return false;
    }
    s->runs++;
    const JsonValue *inputs = json_get(line, "inputs");
    const char *source = json_str(json_get(line, "source"));
    const char *first = inputs && inputs->kind == JSON_ARRAY && inputs->n > 0
                            ? json_str(json_get(inputs->items[0], "input")) : NULL;
    Unit u;
    memset(&u, 0, sizeof u);
    u.source = dup_or_null(source ? source : first ? first : "(no input)");
    u.object = dup_or_null(json_str(json_get(line, "object")));
    u.target = dup_or_null(json_str(json_get(line, "arch")));
    u.pipeline = dup_or_null(json_str(json_get(line, "pipeline")));
    u.used = dup_or_null(json_str(json_get(line, "used")));
    u.reason = dup_or_null(json_str(json_get(line, "reason")));
    const JsonValue *ps = json_get(line, "ptxas_status");
    u.ptxas_status = ps && ps->kind == JSON_NUMBER ? (int)ps->number : 0;
    const JsonValue *st = json_get(line, "strict");
    u.strict = st && st->kind == JSON_TRUE;
    u.line = lineno;
    for (int i = 0; inputs && inputs->kind == JSON_ARRAY && i < inputs->n; i++) add_input(&u, inputs->items[i]);
    /* a later run of the same unit replaces it */
    for (int i = 0; i < s->nunits; i++) {
        Unit *o = &s->units[i];
        if (same(o->source, u.source) && same(o->object, u.object) && same(o->target, u.target)) {
            unit_free(o);
            *o = u;
            s->superseded++;
            return true;
        }
    }
    s->units = grow(s->units, s->nunits, sizeof *s->units);
    s->units[s->nunits++] = u;
    return true;
}

static int cmp_str(const char *a, const char *b) { return strcmp(a ? a : "", b ? b : ""); }

static int by_unit(const void *a, const void *b)
{
    const Unit *x = a, *y = b;
    int c = cmp_str(x->source, y->source);
    if (!c) c = cmp_str(x->target, y->target);
    if (!c) c = cmp_str(x->object, y->object);
    return c;
}

static int by_kernel(const void *a, const void *b) { return strcmp(((const KernelDid *)a)->name, ((const KernelDid *)b)->name); }

static int by_count(const void *a, const void *b)
{
    const Reason *x = a, *y = b;
    return x->count != y->count ? (y->count > x->count ? 1 : -1) : strcmp(x->message, y->message);
}

void summary_finish(Summary *s)
{
    if (s->nunits) qsort(s->units, (size_t)s->nunits, sizeof *s->units, by_unit);
    for (int i = 0; i < s->nunits; i++) {
        Unit *u = &s->units[i];
        if (u->nkernels) qsort(u->kernels, (size_t)u->nkernels, sizeof *u->kernels, by_kernel);
        for (int k = 0; k < u->nkernels; k++)
            for (int p = 0; p < u->kernels[k].npasses; p++) {
                PassDid *pd = &u->kernels[k].passes[p];
                if (pd->nreasons) qsort(pd->reasons, (size_t)pd->nreasons, sizeof *pd->reasons, by_count);
            }
    }
}

void summary_free(Summary *s)
{
    for (int i = 0; i < s->nunits; i++) unit_free(&s->units[i]);
    free(s->units);
    memset(s, 0, sizeof *s);
}
