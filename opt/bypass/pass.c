/* pass.c — warp-partitioned cache bypassing (Ang Li's thesis, ch. 5;
 * research/seed-002-reg-cache.md §2, §3.3; issue 13): the pass entry and
 * the per-function driver (see bypass.h for the options, internal.h for
 * the other steps, one file each).
 *
 * Per function: find the global loads (sites.c), decide which may be
 * rewritten (legality.c) and what the threshold means for this kernel
 * (profit.c: nothing, plain bypass-all code, or a partition), then emit
 * the header (partition.c) and the form (emit_*.c).  Every load gets a
 * remark: rewritten, and how, or left alone, and why; every function gets
 * one summary remark.  A function whose form is refused (target, PTX ISA)
 * or that is opaque stays byte-identical.  Device functions (.func) are
 * handled like kernels: the header at their entry computes the same warp
 * index (%tid is the thread's, wherever it is read). */
#include "opt/bypass/bypass.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opt/bypass/internal.h"
#include "opt/guard.h"

typedef struct Run {
    const Options *o;
    int sm, ptx;          /* target sm (0: unknown), PTX ISA major*10+minor (-1: unknown) */
    const char *tsym;     /* delivery=global: the variable, NULL when it could not be declared */
    Remarks *rm;
} Run;

static void remark_atomics(const Run *r, Function *fn)
{
    const Cfg *cfg = cfg_get(fn);
    const MemInfo *mi = memory_get(fn);
    for (uint32_t i = 0; i < mi->nacc; i++) {
        const MemAccess *a = &mi->acc[i];
        if ((a->flags & MACC_ATOMIC) && (a->space == SPACE_GLOBAL || a->space == SPACE_GENERIC))
            remark(r->rm, PASS, fn, cfg->instr[a->instr], REMARK_MISSED, "atomic: never rewritten (not a load to cache)");
    }
}

static int count_eligible(const Site *s, int n)
{
    int k = 0;
    for (int i = 0; i < n; i++) k += s[i].skip == NULL;
    return k;
}

static void remark_skipped(const Run *r, Function *fn, const Site *s, int n)
{
    for (int i = 0; i < n; i++)
        if (s[i].skip)
            remark(r->rm, PASS, fn, s[i].st, REMARK_MISSED, "%s%s%s", s[i].skip, s[i].detail[0] ? " " : "", s[i].detail);
}

/* A rewritten load's texts, taken before the rewrite changes them. */
typedef struct Texts {
    Str orig;
    const char *bypass, *hint;
} Texts;

static Texts *take_texts(const Run *r, Function *fn, const Site *s, int n)
{
    Texts *t = calloc((size_t)n + 1, sizeof *t);
    for (int i = 0; i < n; i++)
        if (!s[i].skip) {
            const Instr *in = &s[i].st->u.instr;
            t[i] = (Texts){ in->full, byp_bypass_full(fn->mod, in, s[i].op), byp_hint_full(fn->mod, in) };
        }
    return t;
}

/* op=auto: which operator this load got, and why (" (op=auto: ...)"). */
static const char *auto_note(const Run *r, const Site *x)
{
    if (r->o->op != BOP_AUTO) return "";
    return x->op == BOP_NO_ALLOCATE ? " (op=auto: .L1::no_allocate, an .nc load)" : " (op=auto: .cg, a plain load)";
}

/* The applied remarks, with the form the function finally got. */
static void remark_applied(const Run *r, Function *fn, const Site *s, const Texts *t, int n, BypassForm form, Plan plan)
{
    for (int i = 0; i < n; i++) {
        if (s[i].skip) continue;
        Str orig = t[i].orig;
        const char *note = auto_note(r, &s[i]);
        if (form == FORM_L2POLICY)
            remark(r->rm, PASS, fn, s[i].st, REMARK_APPLIED, "%s: %s with a per-warp L2 policy (%s)",
                   plan == PLAN_ALL_BYPASS ? "T = 0" : "l2policy", t[i].hint,
                   plan == PLAN_ALL_BYPASS ? "evict_first in every warp" : "evict_last in caching warps, evict_first in the others");
        else if (plan == PLAN_ALL_BYPASS)
            remark(r->rm, PASS, fn, s[i].st, REMARK_APPLIED, "T = 0: %.*s becomes %s%s", (int)orig.len, orig.p, t[i].bypass, note);
        else
            remark(r->rm, PASS, fn, s[i].st, REMARK_APPLIED, "%s: caching warps keep %.*s, the others run %s%s",
                   form == FORM_PAIRS ? "pair" : "versioned", (int)orig.len, orig.p, t[i].bypass, note);
    }
}

static void run_function(const Run *r, Function *fn)
{
    const Options *o = r->o;
    char why[320], shape_text[96];
    analysis_invalidate(fn);
    remark_atomics(r, fn);
    int n;
    Site *s = byp_find_sites(fn, &n);
    Shape sh = byp_block_shape(fn);
    long T = 0;
    Plan plan = byp_plan(o, &sh, &T, why, sizeof why);
    BypassForm form = o->form;
    char autowhy[128] = "";
    const char *refused = plan == PLAN_NONE ? NULL : byp_form_refused(fn, o, form, r->sm, r->ptx);
    if (!refused && plan != PLAN_NONE && o->delivery == DELIV_GLOBAL && !r->tsym)
        refused = "delivery=global: the module already declares " BYP_THRESHOLD_SYM " (an earlier run of the pass?); "
                  "function unchanged";
    if (refused) {
        remark(r->rm, PASS, fn, NULL, REMARK_MISSED, "%s", refused);
        for (int i = 0; i < n; i++) remark(r->rm, PASS, fn, s[i].st, REMARK_MISSED, "left alone: %s", refused);
        free(s);
        return;
    }
    byp_check_sites(fn, s, n, o, form, r->sm, r->ptx);
    if (form == FORM_AUTO) form = byp_auto_form(fn, s, n, r->sm, autowhy, sizeof autowhy);
    int ok = count_eligible(s, n);
    remark_skipped(r, fn, s, n);
    if (plan == PLAN_NONE || !ok) {
        for (int i = 0; i < n; i++)
            if (!s[i].skip) remark(r->rm, PASS, fn, s[i].st, REMARK_MISSED, "eligible, unchanged: see the function's remark");
        remark(r->rm, PASS, fn, NULL, REMARK_ANALYSIS, "loads %d, eligible %d, rewritten 0: %s", n, ok,
               plan == PLAN_NONE ? why : n ? "no eligible load" : "no global load");
        free(s);
        return;
    }
    Texts *texts = take_texts(r, fn, s, n);
    analysis_invalidate(fn); /* the rewrite starts: nothing below reads the analyses */
    const char *hdr = "no header";
    if (plan == PLAN_ALL_BYPASS) {
        if (form == FORM_L2POLICY) {
            Anchor a = byp_entry_anchor(fn, false);
            byp_emit_l2policy(fn, &a, s, n, NULL);
        } else
            byp_emit_pairs(fn, s, n, NULL);
    } else {
        Anchor a = byp_entry_anchor(fn, form == FORM_VERSIONING);
        Reg *p = byp_emit_partition(fn, &a, &sh, T, o->delivery == DELIV_GLOBAL ? r->tsym : NULL);
        hdr = byp_shape_text(&sh, shape_text, sizeof shape_text);
        if (form == FORM_L2POLICY) byp_emit_l2policy(fn, &a, s, n, p);
        else if (form == FORM_PAIRS) byp_emit_pairs(fn, s, n, p);
        else {
            const char *vwhy = NULL;
            if (!byp_emit_versioning(fn, &a, s, n, p, &vwhy)) {
                /* the header is there already; pairs need nothing else */
                remark(r->rm, PASS, fn, NULL, REMARK_MISSED, "versioning: %s; predicated pairs instead", vwhy);
                form = FORM_PAIRS;
                byp_emit_pairs(fn, s, n, p);
            }
        }
    }
    analysis_invalidate(fn);
    remark_applied(r, fn, s, texts, n, form, plan);
    free(texts);
    char opt[96] = "evict_last/evict_first L2 policy";
    if (form != FORM_L2POLICY && o->op == BOP_AUTO) {
        int k[3] = { 0 };   /* rewritten loads per operator */
        for (int i = 0; i < n; i++)
            if (!s[i].skip) k[s[i].op]++;
        /* the operators used, each with its count ("op=auto: 9 .cg, 1 .L1::no_allocate") */
        int len = snprintf(opt, sizeof opt, "op=auto:");
        for (int b = BOP_CG; b <= BOP_NO_ALLOCATE; b++)
            if (k[b]) len += snprintf(opt + len, sizeof opt - (size_t)len, "%s %d %s", len > 8 ? "," : "", k[b], byp_op_text((BypassOp)b));
    } else if (form != FORM_L2POLICY)
        snprintf(opt, sizeof opt, "op=%s", byp_op_name(o->op));
    remark(r->rm, PASS, fn, NULL, REMARK_ANALYSIS, "loads %d, rewritten %d (form=%s, %s%s%s; %s; %s)", n, ok,
           byp_form_name(form), opt, autowhy[0] ? "; " : "", autowhy, why, hdr);
    free(s);
}

static int bypass_run(Module *m, const PassInvocation *inv, PassContext *ctx)
{
    Options o;
    char err[256];
    if (!byp_read_options(inv, &o, err, sizeof err)) { /* validated when parsed: not reached from the tools */
        fprintf(stderr, "ptxopt: pass '%s': %s\n", PASS, err);
        return 1;
    }
    Run r = { .o = &o, .sm = ctx->target_sm, .ptx = m->version_major < 0 ? -1 : m->version_major * 10 + m->version_minor,
              .rm = ctx->remarks };
    if (o.has_threshold && o.delivery == DELIV_GLOBAL) {
        bool any = false;
        for (uint32_t i = 0; i < m->nfuncs; i++)
            any |= m->funcs[i]->has_body && !m->funcs[i]->opaque && (!o.kernel || str_eqc(m->funcs[i]->name, o.kernel));
        if (any && byp_declare_threshold(m, o.all ? BYP_MAX_WARPS : o.threshold)) r.tsym = BYP_THRESHOLD_SYM;
    }
    for (uint32_t i = 0; i < m->nfuncs; i++) {
        Function *fn = m->funcs[i];
        if (!fn->has_body) continue;
        if (o.kernel && !str_eqc(fn->name, o.kernel)) continue;
        if (fn->opaque) {
            guard_remark_opaque(ctx->remarks, PASS, fn);
            continue;
        }
        run_function(&r, fn);
        analysis_release(fn);   /* done with it: the next function reuses the memory */
    }
    return 0;
}

/* Function-local, so streamed, unless delivery=global declares its module
 * variable (issue 21: on a 200 MiB module the whole-module IR and
 * analyses took 28.6x the input). */
static bool bypass_local(const PassInvocation *inv)
{
    Options o;
    char err[256];
    return byp_read_options(inv, &o, err, sizeof err) && !(o.has_threshold && o.delivery == DELIV_GLOBAL);
}

const PassInfo pass_bypass = {
    .name = "bypass",
    .summary = "warp-partitioned cache bypassing: warps below a threshold cache, the others bypass L1 (or L2 policy)",
    .function_local = false, /* delivery=global declares a module variable */
    .local_with = bypass_local,
    .keys = byp_keys,
    .run = bypass_run,
    .validate = byp_validate,
};
