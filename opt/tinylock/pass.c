/* pass.c — the tinylock pass (see tinylock.h; internal.h lists the other
 * steps, one file each): per kernel, find the spin locks and barriers,
 * prove them, decide, emit, and say what happened to each.
 *
 * Order: spin-lock sites are decided first on the unchanged function; the
 * sites the spinlock rewrite refused are then tried as locks used as flags
 * (flag.c); then barriers (a barrier's obligations read memory accesses
 * that the lock rewrites do not move; analyses are recomputed in
 * between).
 *
 * Profitability of barriers: the rewrite pays when it removes more CTA
 * barriers than it adds (the flags' initialisation needs one, unless a
 * kept barrier can order it); profit=off forces it.  Spin locks: the
 * upgrade removes two full fences and adds nothing. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opt/guard.h"
#include "opt/tinylock/internal.h"

static void run_spin(Function *fn, const TlTarget *t, const Options *o, Remarks *rm)
{
    int n = 0;
    analysis_invalidate(fn);
    SpinSite *s = tl_spin_sites(fn, &n);
    for (int i = 0; i < n; i++) tl_spin_legal(fn, t, &s[i]);
    int done = 0;
    for (int i = 0; i < n; i++) {
        if (!s[i].ok) {
            if (s[i].racy && o->spinlock && o->fix_races && t->ordered) {
                tl_emit_fix_race(fn, &s[i]);
                analysis_invalidate(fn);
                remark(rm, PASS, fn, s[i].cas, REMARK_APPLIED, "racy spin lock fixed (fix-races=1): the %s becomes an acquire at "
                       "%s scope (only adds ordering); fences and release kept", instr_has_mod(&s[i].cas->u.instr, ".exch") ?
                       "atom.exch" : "atom.cas", s[i].cas_scope);
                s[i].racy = false;
                done++;
                continue;
            }
            if (o->spinlock) remark(rm, PASS, fn, s[i].cas, REMARK_MISSED, "spin lock not upgraded: %s", s[i].why);
            continue;
        }
        if (!o->spinlock) continue;
        unsigned rel_line = s[i].release->line;
        bool tas = instr_has_mod(&s[i].cas->u.instr, ".exch");
        tl_emit_spin(fn, t, o, &s[i]);
        analysis_invalidate(fn);
        remark(rm, PASS, fn, s[i].cas, REMARK_APPLIED,
               "spin lock upgraded: %s + %s -> acquire-%s (%s scope), %s + atom.exch -> %s at line %u%s%s; "
               "critical section kept; shared memory +0 bytes",
               tas ? "atom.exch" : "atom.cas", tl_membar(s[i].fence_scope), tas ? "exch" : "CAS", s[i].scope, tl_membar(s[i].fence_scope),
               s[i].release->u.instr.op == OP_st ? "st.release" : "atom.release.exch", rel_line,
               o->backoff > 0 && t->ordered ? ", nanosleep backoff" : "", o->debug_spin > 0 ? ", debug spin bound" : "");
        done++;
    }
    /* the sites the spinlock rewrite left (all of them without it): lock used as a flag */
    int flags = 0;
    if (o->flag && n > done) {
        for (int i = 0; i < n; i++)
            if (!o->spinlock) s[i].ok = false; /* not rewritten as locks: candidates */
        flags = tl_flag_rewrite(fn, t, o, s, n, rm);
    }
    if (n) remark(rm, PASS, fn, NULL, REMARK_ANALYSIS, "spin locks %d, upgraded %d, locks used as flags rewritten %d", n, done, flags);
    free(s);
}

static void run_barrier(Function *fn, const TlTarget *t, const Options *o, Remarks *rm)
{
    analysis_invalidate(fn);
    BarPlan p;
    tl_barrier_sites(fn, &p);
    if (!p.nbars) {
        tl_barrier_plan_free(&p);
        return;
    }
    tl_barrier_legal(fn, t, &p);
    int added = p.ncons && !p.init_before ? 1 : 0;
    bool pays = p.nrelaxed > added;
    if (p.nrelaxed && !pays && o->profit) {
        for (int i = 0; i < p.nbars; i++)
            if (p.bars[i].relaxed)
                p.bars[i].relaxed = false,
                snprintf(p.bars[i].why, sizeof p.bars[i].why,
                         "not profitable: the flags' initialisation needs a barrier of its own (no kept barrier orders it), "
                         "so removing %d barrier%s saves none (profit=off forces)", p.nrelaxed, p.nrelaxed == 1 ? "" : "s");
        p.nrelaxed = 0;
    }
    if (p.nrelaxed && p.ncons) { /* the static shared-memory limit (48 KB without opt-in) */
        Resources r0 = tl_resources(fn, t, p.ntid, 4ll * p.nflags);
        if (r0.smem_before + r0.smem_added > 49152) {
            for (int i = 0; i < p.nbars; i++)
                if (p.bars[i].relaxed)
                    p.bars[i].relaxed = false,
                    snprintf(p.bars[i].why, sizeof p.bars[i].why, "the flags (%lld bytes) would take the kernel's static shared memory "
                             "past 48 KB (%lld bytes now)", r0.smem_added, r0.smem_before);
            p.nrelaxed = 0;
        }
    }
    /* profit=auto prices the flags' shared memory against occupancy: a
     * rewrite that lowers the blocks an SM holds (on the target, at the
     * declared block size) is not taken for the barriers it saves */
    if (p.nrelaxed && p.ncons && o->profit) {
        Resources r0 = tl_resources(fn, t, p.ntid, 4ll * p.nflags);
        if (r0.arch && r0.blocks_after < r0.blocks_before) {
            for (int i = 0; i < p.nbars; i++)
                if (p.bars[i].relaxed)
                    p.bars[i].relaxed = false,
                    snprintf(p.bars[i].why, sizeof p.bars[i].why, "not profitable: the flags (%lld bytes of shared memory) lower the "
                             "blocks per SM on %s from %d to %d (profit=off forces)", r0.smem_added, r0.arch, r0.blocks_before,
                             r0.blocks_after);
            p.nrelaxed = 0;
        }
    }
    for (int i = 0; i < p.nbars; i++) {
        BarSite *b = &p.bars[i];
        if (b->relaxed) continue;
        remark(rm, PASS, fn, b->bar, REMARK_MISSED, "barrier kept: %s", p.why[0] ? p.why : b->why[0] ? b->why : "?");
    }
    if (p.nrelaxed) {
        long long bytes = p.ncons ? 4ll * p.nflags : 0;
        Resources r = tl_resources(fn, t, p.ntid, bytes);
        const char *shape = p.ntid ? "" : "; block shape unknown: kept as @!one_d bar.sync for blocks of several rows";
        for (int i = 0; i < p.nbars; i++) {
            if (!p.bars[i].relaxed) continue;
            int channels = 0;
            for (int k = 0; k < p.ncons; k++) channels += (p.cons[k].bars >> i) & 1;
            if (channels)
                remark(rm, PASS, fn, p.bars[i].bar, REMARK_APPLIED, "barrier replaced by point-to-point %s channels (epoch %d)%s",
                       p.legacy ? "volatile/membar.cta flag" : "st.release/ld.acquire flag", p.bars[i].epoch, shape);
            else /* every crossing pair is the thread's own bytes (N = 0) */
                remark(rm, PASS, fn, p.bars[i].bar, REMARK_APPLIED, "barrier removed: every access crossing it that another thread "
                       "could touch reads the thread's own store (N = 0), which program order keeps; no channel%s", shape);
        }
        for (int i = 0; i < p.ncons; i++)
            remark(rm, PASS, fn, p.cons[i].ld, REMARK_APPLIED, "consumer waits for thread %%tid.x%+lld (producer store at line %u, "
                   "epoch %d; unique producer proved %s)%s", (long long)p.cons[i].shift, p.cons[i].producer->line, p.cons[i].epoch,
                   p.cons[i].by_z3 ? "by Z3 under the path conditions" : "by the affine address",
                   !t->its || (p.cons[i].shift % 32 == 0) ? "" : "; intra-warp pair: the wait relies on independent thread scheduling (sm_70+)");
        char occ[160] = "";
        if (r.arch)
            snprintf(occ, sizeof occ, "; blocks per SM by shared memory and warps on %s: %d -> %d", r.arch, r.blocks_before,
                     r.blocks_after);
        remark(rm, PASS, fn, NULL, REMARK_ANALYSIS,
               "barriers %d, replaced %d, added %d (flag initialisation%s); channels %d; shared memory %lld -> %lld bytes (+%lld)%s",
               p.nbars, p.nrelaxed, added, p.init_before ? " before a kept barrier" : "", p.ncons, r.smem_before,
               r.smem_before + bytes, bytes, occ);
        analysis_invalidate(fn);
        tl_emit_barrier(fn, t, o, &p);
        analysis_invalidate(fn);
    }
    tl_barrier_plan_free(&p);
}

static int tinylock_run(Module *m, const PassInvocation *inv, PassContext *ctx)
{
    Options o;
    char err[256];
    if (!tl_read_options(inv, &o, err, sizeof err)) {
        fprintf(stderr, "ptxopt: pass '%s': %s\n", PASS, err);
        return 1;
    }
    TlTarget t = tl_target(m, ctx->target_sm);
    for (uint32_t i = 0; i < m->nfuncs; i++) {
        Function *fn = m->funcs[i];
        if (!fn->has_body) continue;
        if (fn->opaque) {
            guard_remark_opaque(ctx->remarks, PASS, fn);
            continue;
        }
        if (o.spinlock || o.flag) run_spin(fn, &t, &o, ctx->remarks);
        if (o.barrier) {
            if (!fn->is_entry)
                remark(ctx->remarks, PASS, fn, NULL, REMARK_MISSED, "barriers: not a kernel (a .func may run several times per thread)");
            else
                run_barrier(fn, &t, &o, ctx->remarks);
        }
        analysis_release(fn);   /* done with it: a module of thousands of kernels holds one kernel's analyses */
    }
    return 0;
}

const PassInfo pass_tinylock = {
    .name = "tinylock",
    .summary = "upgrade spin locks to acquire/release; replace barriers that order one producer per consumer by flag channels",
    /* function-local, so streamed: the flags are declared in the kernel's
     * body, and the module's .shared variables, which the shared-memory
     * report and the 48 KB check count, are summed by the parser as it
     * goes (Module.shared_bytes), so streaming does not hide them */
    .function_local = true,
    .keys = tl_keys,
    .run = tinylock_run,
    .validate = tl_validate,
};
