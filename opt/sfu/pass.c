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
    if (s->fp)
        snprintf(buf, n, "%s (fingerprint %d of nvcc %s, %d instructions%s)", s->fp->func, s->fp_index,
                 sfu_fingerprint_toolkit(s->fp_index), s->ninstr, s->fused ? ", result added: fused tail" : "");
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
    int good = 0;
    char buf[160];
    bool apply = !(o->lambda == 0 && o->delivery == DELIVER_IMM);
    for (int i = 0; i < n; i++) {
        SfuSite *s = &v[i];
        if (s->fp) sfu_check_region(fn, s);
        if (!s->refused && s->kind == SFU_TANH && !tanh_ok(fn->mod))
            s->refused = "tanh.approx.f32 needs sm_75 and .version 7.0";
        if (s->refused) {
            remark(rm, PASS, fn, s->first, REMARK_MISSED, "site %s: left alone: %s", site_what(s, buf, sizeof buf), s->refused);
            continue;
        }
        /* applied: one per site the approximate code gets (the tallies count them) */
        remark(rm, PASS, fn, s->first, apply ? REMARK_APPLIED : REMARK_ANALYSIS, "site %s: %s -> %s; documented error: %s",
               sfu_kind_name(s->kind),
               site_what(s, buf, sizeof buf), sfu_replacement_text(s), sfu_error_bound(s));
        v[good++] = *s;
    }
    bool split = false;
    if (good == 0) {
        remark(rm, PASS, fn, NULL, REMARK_ANALYSIS, "no sites");
    } else if (o->lambda == 0 && o->delivery == DELIVER_IMM) {
        remark(rm, PASS, fn, NULL, REMARK_MISSED, "%d sites; lambda=0: every warp stays precise, kernel unchanged", good);
    } else {
        split = sfu_split(fn, o, v, good, rm);
    }
    free(v);
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
