/* pass.c — the sfu pass: sites, legality, split or replace, remarks (see
 * sfu.h; internal.h lists the steps, one file each).
 *
 * Per function: the single-instruction sites (sites.c) and the library
 * regions (fingerprints.c) are found, each region is checked
 * (legality.c), and every site gets a remark naming what it computes, the
 * approximate sequence and its documented error bound (S11).  Then:
 *   lambda=0, delivery=imm  nothing changes (remark);
 *   lambda=all              every site is replaced in place (no split);
 *   otherwise               the kernel is split (split.c) and the sites of
 *                           the approximate copy are replaced. */
#include "opt/sfu/sfu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opt/guard.h"
#include "opt/sfu/internal.h"

static const char *site_what(const SfuSite *s, char *buf, size_t n)
{
    char same[48] = "";
    if (s->same_call) snprintf(same, sizeof same, "; the same call as site %d", s->same_call);
    if (s->fp && s->fp->pclass[0])
        snprintf(buf, n, "%s (fingerprint %d of nvcc %s, %d instructions; constant exponent %g)", s->fp->func, s->fp_index,
                 sfu_fingerprint_toolkit(s->fp_index), s->ninstr, s->param);
    else if (s->fp)
        snprintf(buf, n, "%s (fingerprint %d of nvcc %s, %d instructions%s%s)", s->fp->func, s->fp_index,
                 sfu_fingerprint_toolkit(s->fp_index), s->ninstr,
                 s->tail == '+' ? ", result added: fused tail" : s->tail == '*' ? ", result scaled: folded tail"
                 : s->tail == '-' ? ", result negated: folded tail" : "", same);
    else if (s->kind == SFU_RSQRT)
        snprintf(buf, n, "1/sqrt (sqrt.rn + rcp.rn pair%s)", s->f64 ? ", f64" : "");
    else
        snprintf(buf, n, "%.*s", (int)s->first->u.instr.full.len, s->first->u.instr.full.p);
    return buf;
}

static bool tanh_ok(const Module *m)
{
    return (m->target_sm == 0 || m->target_sm >= 75) &&
           (m->version_major < 0 || m->version_major > 7 || (m->version_major == 7 && m->version_minor >= 0));
}

static int by_line(const void *a, const void *b)
{
    const SfuSite *x = a, *y = b;
    return x->line != y->line ? (x->line < y->line ? -1 : 1) : 0;
}

static void free_sites(SfuSite *v, int n)
{
    for (int i = 0; i < n; i++) free(v[i].cand);
    free(v);
}

static bool run_function(Function *fn, const SfuOptions *o, Remarks *rm)
{
    SfuSite *v = NULL;
    int n = 0, cap = 0;
    if (sfu_split_done(fn)) {
        remark(rm, PASS, fn, NULL, REMARK_MISSED, "already split by the sfu pass ($__ptxopt_sfu labels): left as it is");
        return false;
    }
    sfu_find_library(fn, o, rm, &v, &n, &cap);
    sfu_find_single(fn, o, rm, &v, &n, &cap);
    if (n > 1) qsort(v, (size_t)n, sizeof *v, by_line); /* v is NULL when there is no site */
    char buf[200];
    bool apply = !(o->lambda == 0 && o->delivery == DELIVER_IMM);
    /* legality, exclusions, where the values go: decided before anything changes */
    for (int i = 0; i < n; i++) {
        SfuSite *s = &v[i];
        s->id = i + 1;
        if (s->fp) sfu_check_region(fn, s);
        if (!s->refused && s->kind == SFU_TANH && !tanh_ok(fn->mod)) s->refused = "tanh.approx.f32 needs sm_75 and .version 7.0";
        for (int k = 0; k < o->nexclude && !s->refused; k++)
            if (o->exclude[k] == s->line) s->refused = "excluded by sites=-LINE";
    }
    /* a tail fused into an fma over the same product as another site's
     * output: the same call, computed twice by nvcc (both are replaced) */
    for (int i = 0; i < n; i++) {
        if (!v[i].fp || v[i].tail != '+') continue;
        for (int j = 0; j < n && !v[i].same_call; j++)
            if (j != i && v[j].fp && !v[j].tail && v[j].kind == v[i].kind && v[j].in_value[0] == v[i].in_value[0] &&
                v[j].in_value[1] == v[i].in_value[1])
                v[i].same_call = v[j].id;
    }
    sfu_reach(fn, v, n);
    int good = 0;
    for (int i = 0; i < n; i++) {
        SfuSite *s = &v[i];
        if (!s->refused && o->safe && s->reaches) s->refused = "its value reaches control flow, a conversion or an address (safe=1)";
        if (s->refused) {
            remark(rm, PASS, fn, s->first, REMARK_MISSED, "site %d, %s: %s: left alone: %s", s->id, sfu_kind_name(s->kind),
                   site_what(s, buf, sizeof buf), s->refused);
            free(s->cand);
            s->cand = NULL;
            continue;
        }
        v[good++] = *s;
    }
    n = good;
    bool split = false;
    if (good == 0) {
        remark(rm, PASS, fn, NULL, REMARK_ANALYSIS, "no sites");
        free(v);
        return false;
    }
    bool *applied = calloc((size_t)n, sizeof *applied);
    SfuPlan *plan = apply ? sfu_plan(fn, o, v, n, applied) : NULL;
    for (int i = 0; i < n; i++) {
        SfuSite *s = &v[i];
        bool done = apply && applied[i];
        if (apply && !done) {
            remark(rm, PASS, fn, s->first, REMARK_MISSED, "site %d, %s: %s: not replaced: its region is not cloned", s->id,
                   sfu_kind_name(s->kind), site_what(s, buf, sizeof buf));
            continue;
        }
        /* applied: one per site the approximate code gets (the tallies count them) */
        remark(rm, PASS, fn, s->first, done ? REMARK_APPLIED : REMARK_ANALYSIS, "site %d, %s: %s -> %s; documented error: %s",
               s->id, sfu_kind_name(s->kind), site_what(s, buf, sizeof buf), sfu_replacement_text(s), sfu_error_bound(s));
        if (s->reaches)
            remark(rm, PASS, fn, s->first, REMARK_ANALYSIS,
                   "site %d's approximate value reaches %s: the outcome may differ from the precise one "
                   "(sites=...,-%d leaves it precise, safe=1 every such site)", s->id, s->reaches, s->line);
        if (s->shared_store && apply && !plan_all(plan))
            remark(rm, PASS, fn, s->first, REMARK_ANALYSIS,
                   "site %d's approximate value is stored to shared memory (%s): precise warps that read it compute "
                   "with approximate data, their results are not bit-exact", s->id, s->shared_store);
    }
    if (!apply) {
        remark(rm, PASS, fn, NULL, REMARK_MISSED, "%d sites; lambda=0: every warp stays precise, kernel unchanged", good);
    } else {
        split = sfu_apply(fn, o, plan, v, n, applied, rm);
    }
    sfu_plan_free(plan);
    free(applied);
    free_sites(v, n);
    return split;
}

static int sfu_run(Module *m, const PassInvocation *inv, PassContext *ctx)
{
    SfuOptions o;
    char err[256];
    if (!sfu_read_options(inv, &o, err, sizeof err)) {
        fprintf(stderr, "ptxopt: pass '%s': %s\n", PASS, err);
        return 1;
    }
    SfuGate gate;
    sfu_gate_begin(&gate, m, &o, ctx);
    gate.split_fn = calloc(m->nfuncs ? m->nfuncs : 1, sizeof *gate.split_fn);
    for (uint32_t i = 0; i < m->nfuncs; i++) {
        Function *fn = m->funcs[i];
        if (!fn->has_body) continue;
        if (fn->opaque) {
            guard_remark_opaque(ctx->remarks, PASS, fn);
            continue;
        }
        if (run_function(fn, &o, ctx->remarks)) gate.split = gate.split_fn[i] = true;
        analysis_release(fn);   /* done with it: the next function reuses the memory */
    }
    sfu_gate_end(&gate, m, ctx);
    /* delivery=global: the variable a harness writes exists even when no
     * kernel was split (no site, or lambda=all under a .reqntid) */
    if (o.delivery == DELIVER_GLOBAL) sfu_lambda_symbol(m, o.lambda);
    return 0;
}

/* Function-local, so streamed, when nothing module-level can happen:
 * delivery=imm (global adds a module variable) and no split for the gate
 * to assemble the whole module for (lambda=all or >= 64 warp ids: every
 * site replaced in place; lambda=0: nothing; or gate=off).  The default,
 * lambda=all, streams (issue 21: 15x the input on a 40 MB module). */
static bool sfu_local(const PassInvocation *inv)
{
    SfuOptions o;
    char err[256];
    if (!sfu_read_options(inv, &o, err, sizeof err) || o.delivery != DELIVER_IMM) return false;
    bool no_split = o.lambda >= SFU_LAMBDA_ALL || o.lambda == 0 || (o.key == KEY_WARPID && o.lambda >= 64);
    return no_split || o.gate == GATE_OFF;
}

const PassInfo pass_sfu = {
    .name = "sfu",
    .summary = "SFU approximation splitting: lambda of each CTA's warps run div/sqrt/sinf/expf/... as SFU approximations",
    .function_local = false,   /* delivery=global adds a module variable; the gate reads the whole module */
    .local_with = sfu_local,
    .keys = sfu_keys,
    .run = sfu_run,
    .validate = sfu_validate,
};
