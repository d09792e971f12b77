/* resources.c — the ptxas -v gate (research §2.5 "Caution", §5 S8).
 *
 * The thesis assumed the split costs no registers (one predicate); modern
 * ptxas unrolls the SFU copy and the BoxMuller kernel goes from 24 to 32
 * registers on sm_75.  So after a split the module is assembled before and
 * after (sass/: ptxas -v, the machine-code reader) for the module's
 * target, and each split kernel's registers and occupancy are compared,
 * at its .reqntid/.maxntid block size or 256 threads when it has none:
 *   gate=warn     (default) a remark with the register delta; a warning
 *                 remark when occupancy falls;
 *   gate=maxnreg  the same, and when occupancy falls the kernel gets
 *                 .maxnreg <its original registers> (ptxas then spills
 *                 rather than lose occupancy; the remark says so);
 *   gate=off      no ptxas run.
 * No ptxas/nvdisasm, or an assembler error: a remark, the output stands. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codegen/print.h"
#include "model/arch.h"
#include "model/occupancy.h"
#include "opt/sfu/internal.h"
#include "sass/sass.h"

static char *print(const Module *m, size_t *len)
{
    OutBuf o;
    out_init(&o);
    print_module(&o, m, false);
    *len = o.len;
    char *s = malloc(o.len + 1);
    memcpy(s, o.p, o.len);
    s[o.len] = 0;
    out_free(&o);
    return s;
}

void sfu_gate_begin(SfuGate *g, Module *m, const SfuOptions *o, const PassContext *ctx)
{
    (void)ctx;
    memset(g, 0, sizeof *g);
    g->mode = o->gate;
    if (g->mode == GATE_OFF) return;
    g->before = print(m, &g->len);
}

static int block_threads(const Function *fn)
{
    for (uint32_t i = 0; i < fn->nperf; i++)
        if (str_eqc(fn->perf[i].name, ".reqntid") || str_eqc(fn->perf[i].name, ".maxntid")) {
            int t = 1;
            for (int k = 0; k < fn->perf[i].n; k++) t *= (int)fn->perf[i].v[k];
            return t;
        }
    return 0;
}

static bool has_maxnreg(const Function *fn)
{
    for (uint32_t i = 0; i < fn->nperf; i++)
        if (str_eqc(fn->perf[i].name, ".maxnreg")) return true;
    return false;
}

static void add_maxnreg(Function *fn, int regs)
{
    PerfDirective *nv = ARENA_ARRAY(&fn->mod->arena, PerfDirective, fn->nperf + 1);
    if (fn->nperf) memcpy(nv, fn->perf, sizeof *nv * fn->nperf);
    PerfDirective *p = &nv[fn->nperf];
    memset(p, 0, sizeof *p);
    p->name = STR_LIT(".maxnreg");
    p->text = p->name;
    p->n = 1;
    p->v[0] = (uint32_t)regs;
    fn->perf = nv;
    fn->nperf++;
    fn->header_dirty = true;
}

/* The split kernels' names, comma-separated for ptxas -e (malloc'ed);
 * NULL when they are too many to name on a command line (then every
 * kernel is assembled). */
static char *split_entries(const Module *m, const bool *split_fn)
{
    size_t len = 0;
    for (uint32_t i = 0; i < m->nfuncs; i++)
        if (split_fn[i] && m->funcs[i]->is_entry) len += m->funcs[i]->name.len + 1;
    if (len == 0 || len > 64 * 1024) return NULL;
    char *s = malloc(len + 1), *p = s;
    if (!s) return NULL;
    for (uint32_t i = 0; i < m->nfuncs; i++)
        if (split_fn[i] && m->funcs[i]->is_entry) {
            if (p != s) *p++ = ',';
            memcpy(p, m->funcs[i]->name.p, m->funcs[i]->name.len);
            p += m->funcs[i]->name.len;
        }
    *p = 0;
    return s;
}

void sfu_gate_end(SfuGate *g, Module *m, const PassContext *ctx)
{
    if (g->mode == GATE_OFF || !g->split) {
        free(g->before);
        free(g->split_fn);
        return;
    }
    Remarks *rm = ctx->remarks;
    Function *f0 = NULL;
    for (uint32_t i = 0; i < m->nfuncs && !f0; i++)
        if (g->split_fn && g->split_fn[i]) f0 = m->funcs[i];
    size_t alen;
    char *after = print(m, &alen);
    SassTools t;
    char err[256];
    SassModule before = { 0 }, aft = { 0 };
    int sm = ctx->target_sm ? ctx->target_sm : m->target_sm;
    char arch[16];
    snprintf(arch, sizeof arch, "sm_%d", sm);
    if (!sass_tools_find(&t, err, sizeof err)) {
        remark(rm, PASS, f0, NULL, REMARK_MISSED, "resource gate skipped: %s", err);
        goto done;
    }
    /* only the split kernels are assembled (ptxas -e): the gate compares
     * them alone, and a big module's other kernels would cost minutes */
    char *entries = split_entries(m, g->split_fn);
    bool ok = sass_compile_entries(&t, g->before, g->len, sm ? arch : NULL, entries, &before, err, sizeof err) &&
              sass_compile_entries(&t, after, alen, sm ? arch : NULL, entries, &aft, err, sizeof err);
    free(entries);
    if (!ok) {
        remark(rm, PASS, f0, NULL, REMARK_MISSED, "resource gate: ptxas failed: %s", err);
        sass_tools_free(&t);
        goto done;
    }
    const Arch *a = arch_find(aft.arch);
    for (uint32_t i = 0; i < m->nfuncs; i++) {
        Function *fn = m->funcs[i];
        if (!g->split_fn[i] || !fn->is_entry) continue;
        char name[256];
        snprintf(name, sizeof name, "%.*s", (int)fn->name.len, fn->name.p);
        SassKernel *kb = sass_kernel(&before, name), *ka = sass_kernel(&aft, name);
        if (!kb || !ka || kb->regs < 0 || ka->regs < 0) continue;
        int threads = block_threads(fn);
        int bt = threads ? threads : 256;
        Occupancy ob = { 0 }, oa = { 0 };
        if (a) {
            OccInput ib = occ_input(bt, kb->regs), ia = occ_input(bt, ka->regs);
            ib.smem_static = kb->smem > 0 ? kb->smem : 0;
            ia.smem_static = ka->smem > 0 ? ka->smem : 0;
            ob = occ_compute(a, &ib);
            oa = occ_compute(a, &ia);
        }
        remark(rm, PASS, fn, NULL, REMARK_ANALYSIS,
               "resources (%s, ptxas -v): registers %d -> %d, stack %ld -> %ld, occupancy %d -> %d warps/SM at %d threads%s",
               aft.arch, kb->regs, ka->regs, kb->stack, ka->stack, ob.active_warps, oa.active_warps, bt,
               threads ? "" : " (assumed: no .reqntid/.maxntid)");
        if (a && oa.active_warps < ob.active_warps) {
            if (g->mode == GATE_MAXNREG && !has_maxnreg(fn)) {
                add_maxnreg(fn, kb->regs);
                remark(rm, PASS, fn, NULL, REMARK_MISSED,
                       "warning: the split lowers occupancy (%d -> %d warps/SM); fallback: .maxnreg %d (the original's registers)",
                       ob.active_warps, oa.active_warps, kb->regs);
            } else
                remark(rm, PASS, fn, NULL, REMARK_MISSED,
                       "warning: the split lowers occupancy (%d -> %d warps/SM); consider lambda=all, or gate=maxnreg",
                       ob.active_warps, oa.active_warps);
        }
    }
    sass_tools_free(&t);
done:
    sass_module_free(&before);
    sass_module_free(&aft);
    free(after);
    free(g->before);
    free(g->split_fn);
}
