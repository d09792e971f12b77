/* pass.c — shuffle synthesis: selection, remarks and the pass itself (see
 * shuffle.h; internal.h lists the other steps, one file each).
 *
 * Detection works on the symbolic address terms of the SSA overlay
 * (vterms), not on path-based symbolic execution: for a destination load D
 * with address B and an earlier source load S with address A, a candidate
 * N comes from the affine parts (term_solve_shift) and is then PROVED with
 * Z3:  A[%tid.x := %tid.x + N] == B  for every input.  "Unknown" (time
 * limit) means no rewrite.  Normalisation (shift_under_premise) may pre-select,
 * but every accepted pair is confirmed by Z3 before code is emitted (see
 * prove_shift); built without Z3, normalisation alone decides.
 *
 * Address width.  nvcc widens a 32-bit index (sext/zext to 64 bits) before
 * scaling it, so exact 64-bit equality fails where the neighbour's index
 * wraps (i = INT_MAX).  We prove equality under the premise that, for every
 * widened 32-bit subterm x of A, the neighbour's x does not wrap relative to
 * ours: ext(x') == ext(x) + sext(x' - x).  (The research note's option (c):
 * CUDA/C signed indices do not overflow; PTXASW instead compared modulo
 * 2^32.)  A zero-extended (unsigned) index may wrap by definition: the
 * premise is used for it only where value ranges prove it
 * (shfl_zext_no_wrap), else the pair needs the runtime address check
 * (unsigned=1) or is refused.
 *
 * Lanes (issue 10).  The proof is an equation between lane l+N's S and
 * lane l's D.  Rule: every maximal subterm of S's address that is not a
 * function of the lane must be proven warp-uniform (shfl_lane_varying,
 * from the uniformity analysis), or there is no rewrite, with a remark
 * naming the value; %laneid is a function of the lane and shifts by N with
 * %tid.x (in_lane).  N = 0 copies (one lane) and the loop form (the
 * addresses are compared at run time) do not depend on it.
 *
 * Legality (research §6.2, issue 6 item 2):
 *   - S dominates D (block dominance, or earlier in the same block) and D
 *     lies in S's innermost loop (same iteration);
 *   - the function is a kernel (a .func may run several times per thread);
 *   - for N != 0 with S inside a loop (or any cycle): under independent
 *     thread scheduling lanes can meet at one pc in different iterations
 *     with a full activemask (see iterations_together), so the template
 *     also shuffles S's address and falls back to the load where it is not
 *     D's address (runtime address check).  Writes elsewhere in the loop
 *     (an output pointer that may alias the input) need no versioning:
 *     lane l's D takes what lane l+N's S read in its current iteration; a
 *     write W to that address that lane l's D would see but lane l+N's S
 *     did not is, in the PTX memory model, either a data race with S (no
 *     synchronisation orders W and S: the kernel is undefined) or ordered
 *     after S by a release that lane l+N executes after S and before the
 *     shuffle, i.e. on a path from S to D, which the next rule refuses
 *     (issue 10 §6; the rule before it refused any write in S's loop);
 *   - no store, atomic, call, barrier, fence or release that may write S's
 *     memory or make other threads' writes visible on
 *     any path from S to D that does not pass S again, including paths
 *     through back edges of loops that contain D but not S (a write after
 *     D in such a loop is read by D in the next iteration), unless S's
 *     value cannot change for D (see unchanging); only stores to another
 *     declared variable are known not to alias (two pointer parameters
 *     may);
 *   - same type (32- or 64-bit), plain loads of .global only; predicated,
 *     vector, volatile/ordered loads are skipped with a remark;
 *   - D's destination is not used in its own address (the shuffle writes
 *     it before the fallback load reads the address);
 *   - paper policy: sources are loads that are not themselves
 *     destinations (no shuffle over shuffle), smallest |N| first.
 * Clamped indices (issue 10 §6): N is sought on the unclamped addresses;
 * where the shift commutes with the clamp the clamped pair is proved as it
 * is, otherwise clamp=1 uses the runtime address check.
 *
 * Profitability (issue 12, profit.c): on sm_70 and newer the kernel's
 * N != 0 sites are priced against the loads they replace and dropped,
 * with a remark, unless they pay; profit=off forces them.
 *
 * Partial and divergent warps and lanes without a source lane use the
 * original load (predicated), never a wrong value. */
#include "opt/shuffle/shuffle.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/neighbour.h"
#include "opt/guard.h"
#include "opt/shuffle/internal.h"

void shfl_set_why(Load *d, Why w, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void shfl_set_why(Load *d, Why w, const char *fmt, ...)
{
    if (w < d->why) return;
    d->why = w;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(d->detail, sizeof d->detail, fmt, ap);
    va_end(ap);
}

static const char *why_text(Why w)
{
    switch (w) {
    case WHY_NONE: case WHY_NO_EARLIER: return "no partner: no earlier eligible load";
    case WHY_TYPE: return "no partner of the same type";
    case WHY_NOT_DOMINATED: return "no partner: the candidate source does not execute on every path before it";
    case WHY_ITERATION: return "no partner: the candidate source belongs to another loop iteration";
    case WHY_NO_SHIFT: return "no partner: no earlier load at a constant distance along %tid.x within max-delta";
    case WHY_LOOP_OFF:
        return "source in a loop: its runtime address check costs two more shuffles, off by default on sm_70 and newer (loops=1)";
    case WHY_CLAMP_OFF:
        return "clamped index: the unclamped addresses are a shift apart, but only the runtime address check (clamp=1) "
               "can tell where the clamp bites";
    case WHY_LANE_VARYING:
        return "lanes: a value in the source's address is not a function of the lane and not proven warp-uniform";
    case WHY_UNSIGNED:
        return "unsigned index may wrap between lanes (value ranges do not bound it); the runtime address check "
               "(unsigned=1) would cover it";
    case WHY_CHECK_FORM: return "the runtime address check needs [register+offset] addresses";
    case WHY_CLOBBER: return "alias: a store, call or barrier between the loads may change the value";
    case WHY_PROOF_REFUTED: return "proof failed";
    case WHY_PROOF_UNKNOWN: return "proof unknown (time limit, or built without Z3)";
    case WHY_CHAIN: return "its partners are shuffled themselves (no shuffle over shuffle)";
    case WHY_LIMIT: return "limit: max-shuffles reached";
    case WHY_PROFIT:
        return "not profitable on this target: the shuffles and their guards cost more than the loads they replace "
               "(see the kernel's profitability remark; profit=off forces them)";
    }
    return "?";
}

static bool known_row_shape(const Function *fn)
{
    for (uint32_t i = 0; i < fn->nperf; i++) {
        const PerfDirective *p = &fn->perf[i];
        if (!str_eqc(p->name, ".reqntid") || !p->n) continue;
        uint32_t y = p->n > 1 ? p->v[1] : 1, z = p->n > 2 ? p->v[2] : 1;
        return p->v[0] % 32 == 0 || (y == 1 && z == 1);
    }
    return false;
}

/* .reqntid with a multiple of 32 threads: no partial warp. */
static bool known_full_warps(const Function *fn)
{
    for (uint32_t i = 0; i < fn->nperf; i++) {
        const PerfDirective *p = &fn->perf[i];
        if (!str_eqc(p->name, ".reqntid") || !p->n) continue;
        uint64_t t = p->v[0];
        for (int k = 1; k < p->n; k++) t *= p->v[k];
        return t % 32 == 0;
    }
    return false;
}

/* Returns true when the function needs activemask (.version >= 6.2).
 * When the budget runs out (checked between loads and between proofs) the
 * function is left unchanged, with one remark instead of the per-load ones. */
/* The profitability gate (profit.c): on sm_70 and newer, drop the kernel's
 * N != 0 sites unless their predicted cost is lower than the loads'. */
static int gate(Function *fn, const Options *o, int sm, bool row_guard, Remarks *rm, Load *loads, int nloads, ShflSite *sites,
                int *site_dst, Cand **chosen, int nsites, long *sum_abs)
{
    const NeighbourCost *nc = o->profit ? shfl_profit_model(sm) : NULL;
    if (!nc || !nsites) return nsites;
    bool *cached = calloc((size_t)nsites, sizeof *cached);
    for (int i = 0; i < nsites; i++) cached[i] = loads[site_dst[i]].l1_cached;
    Profit p = shfl_profit(nc, sites, cached, nsites, row_guard);
    free(cached);
    if (!p.sites) return nsites;
    bool pays = p.after < p.before;
    char target[16] = "sm_70+";
    if (sm) snprintf(target, sizeof target, "sm_%d", sm);
    remark(rm, PASS, fn, NULL, REMARK_ANALYSIS,
           "profitability (%s, %s): %d shuffled load%s predicted at %.2f SM cycles per warp against %.2f for the loads "
           "(+%d instructions, %d of them shuffles; -%d L1 lines, -%d sectors); %s",
           target, p.family, p.sites, p.sites == 1 ? "" : "s", p.after, p.before, p.instrs, p.shuffles, p.lines, p.sectors,
           pays ? "rewritten" : "not rewritten (profit=off forces)");
    if (pays) return nsites;
    for (int i = 0; i < nloads; i++) /* "its partners are shuffled themselves" no longer holds */
        if (loads[i].why == WHY_CHAIN) loads[i].why = WHY_NONE, shfl_set_why(&loads[i], WHY_PROFIT, "(%s)", target);
    int k = 0;
    for (int i = 0; i < nsites; i++) {
        if (sites[i].delta == 0) {
            sites[k] = sites[i], site_dst[k] = site_dst[i], chosen[k] = chosen[i], k++;
            continue;
        }
        Load *d = &loads[site_dst[i]];
        loads[chosen[i]->src].uses_as_src--;
        *sum_abs -= abs(sites[i].delta);
        shfl_set_why(d, WHY_PROFIT, "(N = %d from line %u, %s)", sites[i].delta, loads[chosen[i]->src].st->line, target);
    }
    return k;
}

static bool run_function(Function *fn, const Options *o, int sm, Remarks *rm, bool version_ok, Budget *bg)
{
    int mark = rm ? rm->n : 0;
    /* The analyses of this kernel are released before the rewrite
     * (analysis_release): a module of thousands of kernels then needs the
     * analyses of one at a time, not of all. */
    analysis_invalidate(fn);
    const Cfg *cfg = cfg_get(fn);
    const MemInfo *mi = memory_get(fn);
    const ValueTerms *vt = vterms_get(fn);
    Ctx c = { .fn = fn, .cfg = cfg, .dom = dom_get(fn), .li = loops_get(fn), .uni = uniform_get(fn), .mi = mi, .tt = vt->tt, .o = *o };
    c.lf = (LaneFacts){ .uni = c.uni, .li = c.li, .ssa = vt->ssa, .tid = vterms_special(fn, "%tid", 'x'),
                        .laneid = vterms_special(fn, "%laneid", 0) };
    c.o.timeout_ms = budget_left(bg, o->timeout_ms); /* a proof must not outlive the budget by much */

    int nloads = 0;
    for (uint32_t i = 0; i < mi->nacc; i++) {
        const MemAccess *a = &mi->acc[i];
        if ((a->flags & MACC_LOAD) && !(a->flags & (MACC_ATOMIC | MACC_ASYNC | MACC_PREFETCH)) && a->space == SPACE_GLOBAL &&
            str_eqc(cfg->instr[a->instr]->u.instr.opname, "ld") && cfg_reachable(cfg, cfg->instr_block[a->instr]))
            nloads++;
    }
    if (!nloads) {
        remark(rm, PASS, fn, NULL, REMARK_ANALYSIS, "loads 0, shuffles 0");
        analysis_release(fn);
        return false;
    }
    Load *loads = calloc((size_t)nloads, sizeof *loads);
    Cand *cands = calloc((size_t)nloads * (size_t)nloads, sizeof *cands);
    int *ncand = calloc((size_t)nloads, sizeof *ncand);
    c.fwd = calloc(cfg->n + 1, 1);
    c.bwd = calloc(cfg->n + 1, 1);
    c.stack = calloc((size_t)cfg->n * 4 + 64 + cfg->pred_start[cfg->n + 1] + cfg->succ_start[cfg->n + 1], sizeof *c.stack);
    int k = 0;
    for (uint32_t i = 0; i < mi->nacc; i++) {
        const MemAccess *a = &mi->acc[i];
        if (!((a->flags & MACC_LOAD) && !(a->flags & (MACC_ATOMIC | MACC_ASYNC | MACC_PREFETCH)) && a->space == SPACE_GLOBAL &&
              str_eqc(cfg->instr[a->instr]->u.instr.opname, "ld") && cfg_reachable(cfg, cfg->instr_block[a->instr])))
            continue;
        Load *l = &loads[k++];
        l->instr = a->instr, l->acc = i, l->block = cfg->instr_block[a->instr], l->st = cfg->instr[a->instr];
        shfl_classify(fn, mi, a, &c.lf, l);
    }

    ShflSite *sites = calloc((size_t)nloads, sizeof *sites);
    int *site_dst = calloc((size_t)nloads, sizeof *site_dst);
    Cand **chosen = calloc((size_t)nloads, sizeof *chosen);
    int nsites = 0, dropped = 0;
    long sum_abs = 0;
    bool first = true;
select: /* again when Z3 did not confirm a pair: its candidate has lost its proof */
    nsites = 0, sum_abs = 0;
    for (int d = 0; d < nloads; d++) loads[d].is_dst = loads[d].needs_version = false, loads[d].uses_as_src = 0;
    /* phase 1: which loads could be destinations at all */
    for (int d = 0; d < nloads && !budget_expired(bg); d++) {
        if (!loads[d].dst_ok) continue;
        if (first) ncand[d] = shfl_candidates(&c, loads, nloads, d, cands + (size_t)d * nloads);
        for (int j = 0; j < ncand[d] && !loads[d].is_dst && !budget_expired(bg); j++)
            if (shfl_proved(&c, loads, d, &cands[(size_t)d * nloads + j])) loads[d].is_dst = true;
    }
    first = false;
    /* phase 2: roots only, smallest |N|, up to max-shuffles */
    for (int d = 0; d < nloads && !budget_expired(bg); d++) {
        if (!loads[d].is_dst) continue;
        Cand *best = NULL;
        for (int j = 0; j < ncand[d] && !best && !budget_expired(bg); j++) {
            Cand *cd = &cands[(size_t)d * nloads + j];
            if (loads[cd->src].is_dst) {
                shfl_set_why(&loads[d], WHY_CHAIN, "%s", "");
                continue;
            }
            if (shfl_proved(&c, loads, d, cd)) best = cd;
        }
        if (!best) continue;
        if (nsites >= o->max_shuffles) {
            shfl_set_why(&loads[d], WHY_LIMIT, "(%ld)", o->max_shuffles);
            continue;
        }
        if (best->delta != 0 && !version_ok) {
            loads[d].needs_version = true;
            continue;
        }
        site_dst[nsites] = d, chosen[nsites] = best;
        sites[nsites++] = (ShflSite){ .src = loads[best->src].st, .dst = loads[d].st, .delta = best->delta, .bits = loads[d].bits,
                                        .check = best->check, .converged = uniform_converged(fn, loads[d].st),
                                        .in_loop = c.li->innermost[loads[d].block] != ANA_NONE || c.li->irreducible,
                                        .src_live = shfl_src_reg_survives(&c, &loads[best->src], &loads[d]) };
        loads[best->src].uses_as_src++;
        sum_abs += abs(best->delta);
    }
    if (!budget_expired(bg) && !shfl_confirm_sites(&c, loads, site_dst, chosen, nsites, &dropped)) goto select;
    if (bg->expired) { /* nothing is emitted: unsay the kernel's remarks, leave it as it was */
        remarks_truncate(rm, mark);
        remark(rm, PASS, fn, NULL, REMARK_MISSED, "time budget exceeded (budget-ms=%ld) while analysing %d loads; kernel left unchanged",
               o->budget_ms, nloads);
        nsites = 0;
    }
    bool row_guard = !known_row_shape(fn);
    if (!bg->expired) nsites = gate(fn, o, sm, row_guard, rm, loads, nloads, sites, site_dst, chosen, nsites, &sum_abs);
    for (int i = 0; i < nsites; i++) {
        Load *d = &loads[site_dst[i]];
        const Cand *best = chosen[i];
        d->why = WHY_NONE;
        remark(rm, PASS, fn, d->st, REMARK_APPLIED, "%s from the load at line %u (N = %d%s%s)",
               best->delta == 0 ? "register copy" : best->delta > 0 ? "shfl.sync.down" : "shfl.sync.up", loads[best->src].st->line,
               best->delta, d->bits == 64 ? ", 64-bit: two 32-bit shuffles" : "",
               !best->check ? ""
               : best->loop ? ", source in a loop: runtime address check"
               : best->clamp ? ", clamped index: runtime address check"
                             : ", unsigned index: runtime address check");
        d->detail[0] = 1; /* marks: rewritten */
    }
    for (int d = 0; d < nloads && !bg->expired; d++) {
        Load *l = &loads[d];
        if (l->detail[0] == 1) continue;
        if (l->uses_as_src) continue;
        if (!l->eligible) remark(rm, PASS, fn, l->st, REMARK_MISSED, "%s", l->skip);
        else if (!l->dst_ok) remark(rm, PASS, fn, l->st, REMARK_MISSED, "the destination register is used in its own address");
        else if (l->needs_version)
            remark(rm, PASS, fn, l->st, REMARK_MISSED, "needs .version 6.2 or later for activemask");
        else
            remark(rm, PASS, fn, l->st, REMARK_MISSED, "%s%s%s", why_text(l->why), l->detail[0] ? " " : "", l->detail);
    }
    ShflEmitOptions eo = { .no_corner = o->no_corner, .no_load = o->no_load, .row_guard = row_guard,
                           .full_warps = known_full_warps(fn), .version = o->version };
    /* nothing below reads the analyses, their terms or the proofs */
    unsigned queries = proof_session_queries(c.ps);
    if (c.ps) proof_session_free(c.ps);
    c.ps = NULL;
    analysis_release(fn);
    ShflEmitResult er = { 0 };
    if (nsites) er = shfl_emit(fn, sites, nsites, &eo);
    bool need = er.need_mask;
    if (er.versioned)
        remark(rm, PASS, fn, NULL, REMARK_ANALYSIS,
               "kernel versioned on full warps: they run the rewrite with a constant full mask, partial warps a copy of the original body");
    else if (er.no_version)
        remark(rm, PASS, fn, NULL, REMARK_MISSED, "not versioned on full warps (the mask stays computed): %s", er.no_version);
    if (!bg->expired) {
        remark(rm, PASS, fn, NULL, REMARK_ANALYSIS, "loads %d, shuffles %d, mean |N| %.2f%s", nloads,
               nsites, nsites ? (double)sum_abs / nsites : 0.0,
               nsites && need && row_guard ? " (block shape unknown: runtime row guard)" : "");
        shfl_proof_remark(&c, rm, nsites, dropped, queries);
    }
    free(sites), free(site_dst), free(chosen), free(loads), free(cands), free(ncand), free(c.fwd), free(c.bwd), free(c.stack);
    return need;
}

static int shuffle_run(Module *m, const PassInvocation *inv, PassContext *ctx)
{
    Options o;
    char err[256];
    if (!shfl_read_options(inv, ctx->target_sm, &o, err, sizeof err)) { /* validated when parsed: not reached from the tools */
        fprintf(stderr, "ptxopt: pass '%s': %s\n", PASS, err);
        return 1;
    }
    /* activemask needs PTX ISA 6.2; the rewrite raises .version when the
     * target allows it (every sm_75+ toolkit accepts 6.2) */
    bool version_ok = m->version_major < 0 || m->version_major > 6 || (m->version_major == 6 && m->version_minor >= 2);
    bool can_raise = m->version_major >= 0;
    bool raise = false;
    for (uint32_t i = 0; i < m->nfuncs; i++) {
        Function *fn = m->funcs[i];
        if (!fn->has_body) continue;
        if (!fn->is_entry) {
            remark(ctx->remarks, PASS, fn, NULL, REMARK_MISSED,
                   "not a kernel: a .func may run several times per thread (calls in a loop), so lanes may meet in different calls");
            continue;
        }
        if (fn->opaque) { /* S23: byte-identical, the other kernels still optimised */
            guard_remark_opaque(ctx->remarks, PASS, fn);
            continue;
        }
        Budget bg; /* S24: per kernel */
        budget_start(&bg, o.budget_ms, fn);
        if (run_function(fn, &o, ctx->target_sm, ctx->remarks, version_ok || can_raise, &bg) && !version_ok) raise = true;
    }
    if (raise) ir_set_version(m, 6, 2);
    return 0;
}

const PassInfo pass_shuffle = {
    .name = "shuffle",
    .summary = "replace neighbour global loads with proven warp shuffles (PTXASW)",
    .function_local = false,
    .local_from_version = 602,   /* it edits the module only to raise .version to 6.2 */
    .keys = shfl_keys,
    .run = shuffle_run,
    .validate = shfl_validate,
};
