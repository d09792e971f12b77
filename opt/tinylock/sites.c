/* sites.c — where the tinylock rewrites may apply: atom.cas spin-acquire
 * loops with their fences and release (the CUDA-by-Example lock that nvcc
 * compiles from `while (atomicCAS(m, 0, 1) != 0); __threadfence();` and
 * `__threadfence(); atomicExch(m, 0);`), and the CTA barriers of a kernel.
 * The attempt may also be a test-and-set (atom.exch old, [m], k != 0; the
 * hash-table insert's lock).  Two loop shapes: spin until acquired, then
 * the critical section after the loop; or the critical-section form
 * (`while (!done) if (atomicCAS(..) == 0) { ...; done = true; }`), where
 * the header's branch skips the critical section on failure.  Shapes are
 * read through the analyses (loops, SSA, terms), not the text: the compare
 * value is a term equal to 0 wherever it was computed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opt/tinylock/internal.h"

static bool term_is_const(const Term *t, uint64_t *v)
{
    if (!t || t->op != T_CONST) return false;
    *v = t->k;
    return true;
}

/* The term of operand k of instruction i (a register or an immediate). */
static const Term *opnd_term(Function *fn, const Ssa *ssa, uint32_t i, int k)
{
    const Stmt *st = ssa->cfg->instr[i];
    const Operand *o = &st->u.instr.ops[k];
    if (o->kind == OPND_INT) return term_const(vterms_get(fn)->tt, 32, (uint64_t)o->value & 0xffffffffu);
    if (o->kind != OPND_REG) return NULL;
    return vterms_value(fn, ssa_use_value(fn, st, o->u.reg));
}

/* Fence scope: "cta", "gpu", "sys", or NULL when st is not a full fence. */
static const char *fence_scope(const Stmt *st)
{
    if (st->kind != STMT_INSTR || st->u.instr.guard) return NULL;
    const Instr *in = &st->u.instr;
    if (in->op == OP_membar) {
        if (instr_has_mod(in, ".cta")) return "cta";
        if (instr_has_mod(in, ".gl")) return "gpu";
        if (instr_has_mod(in, ".sys")) return "sys";
        return NULL;
    }
    if (in->op == OP_fence && (instr_has_mod(in, ".sc") || instr_has_mod(in, ".acq_rel")) && in->nops == 0) {
        if (instr_has_mod(in, ".cta")) return "cta";
        if (instr_has_mod(in, ".gpu")) return "gpu";
        if (instr_has_mod(in, ".sys")) return "sys";
    }
    return NULL;
}

static bool has_order(const Instr *in)
{
    static const char *const m[] = { ".relaxed", ".acquire", ".release", ".acq_rel", ".volatile", ".mmio" };
    for (int i = 0; i < 6; i++)
        if (instr_has_mod(in, m[i])) return true;
    return false;
}

/* The scope an atom/st names, or dflt when it names none. */
static const char *scope_of(const Instr *in, const char *dflt)
{
    if (instr_has_mod(in, ".sys")) return "sys";
    if (instr_has_mod(in, ".gpu") || instr_has_mod(in, ".cluster")) return "gpu";
    if (instr_has_mod(in, ".cta")) return "cta";
    return dflt;
}

static int scope_rank(const char *s) { return !s ? 0 : strcmp(s, "cta") == 0 ? 1 : strcmp(s, "gpu") == 0 ? 2 : 3; }

/* The lock's space as written: ".shared", ".global" or "" (generic). */
static Str space_of(const Instr *in)
{
    Str s = instr_space(in);
    return s;
}

static const Stmt *prev_instr(const Stmt *s)
{
    for (s = s->prev; s; s = s->prev)
        if (s->kind == STMT_INSTR) return s;
    return NULL;
}

/* The release of the lock at `addr`: atom.exch.b32 _, [m], 0 or
 * st.b32 [m], 0, right after a full fence of the same scope. */
static bool is_release(Function *fn, const Cfg *cfg, const Ssa *ssa, uint32_t i, const Term *addr, Str space, const char *scope)
{
    const Stmt *st = cfg->instr[i];
    const Instr *in = &st->u.instr;
    if (in->guard || (has_order(in) && !instr_has_mod(in, ".volatile"))) return false;
    int ao, vo;
    if (in->op == OP_atom && instr_has_mod(in, ".exch") && in->nops == 3) ao = 1, vo = 2;
    else if (in->op == OP_st && in->nops == 2 && !instr_has_mod(in, ".v2") && !instr_has_mod(in, ".v4")) ao = 0, vo = 1;
    else return false;
    Str ty = instr_type(in);
    if (!str_eqc(ty, ".b32") && !str_eqc(ty, ".u32") && !str_eqc(ty, ".s32")) return false;
    if (!str_eq(space_of(in), space) || vterms_address(fn, i, ao) != addr) return false;
    uint64_t v;
    if (!term_is_const(opnd_term(fn, ssa, i, vo), &v) || v != 0) return false;
    const Stmt *f = prev_instr(st);
    const char *fs = f ? fence_scope(f) : NULL;
    return fs && strcmp(fs, scope) == 0;
}

SpinSite *tl_spin_sites(Function *fn, int *n)
{
    const Cfg *cfg = cfg_get(fn);
    const LoopInfo *li = loops_get(fn);
    const Ssa *ssa = ssa_get(fn);
    SpinSite *v = calloc(li->nloops + 1, sizeof *v);
    *n = 0;
    for (uint32_t L = 0; L < li->nloops; L++) {
        const Loop *lp = &li->loops[L];
        uint32_t h = lp->header;
        if (cfg->term[h] != TERM_BRA || !(cfg->flags[h] & CFGB_GUARDED) || cfg_nsucc(cfg, h) != 2) continue;
        Stmt *bra = cfg->instr[cfg->term_instr[h]];
        /* the attempt: the one atom.cas of the loop header */
        Stmt *cas = NULL;
        uint32_t casi = ANA_NONE;
        bool other = false;
        for (uint32_t i = cfg->block_instr[h]; i < cfg->block_instr[h + 1]; i++) {
            const Instr *in = &cfg->instr[i]->u.instr;
            if (in->op == OP_atom && (instr_has_mod(in, ".cas") || instr_has_mod(in, ".exch")) && str_eqc(instr_type(in), ".b32") &&
                !in->guard && !cas)
                cas = cfg->instr[i], casi = i;
            else if (cfg->iflags[i] & (OPF_LOAD | OPF_STORE | OPF_ATOMIC | OPF_BARRIER | OPF_COLLECTIVE | OPF_FENCE | OPF_CALL))
                other = true;
        }
        if (!cas) continue;
        bool tas = instr_has_mod(&cas->u.instr, ".exch"); /* test-and-set: atom.exch old, [m], k */
        SpinSite *s = &v[(*n)++];
        s->header = h, s->cas = cas, s->bra = bra;
        s->space = space_of(&cas->u.instr);
        s->addr = vterms_address(fn, casi, 1);
        if (other) {
            snprintf(s->why, sizeof s->why, "the spin loop's header does more than one atom.cas (another memory access, fence or collective)");
            continue;
        }
        if (has_order(&cas->u.instr)) {
            snprintf(s->why, sizeof s->why, "the atom.cas already has memory-order semantics");
            continue;
        }
        /* the branch decides on old == 0 (acquired) or old != 0 */
        const Instr *b = &bra->u.instr;
        SsaValue gv = ssa_use_value(fn, bra, b->guard);
        const SsaVal *g = &ssa->v[gv];
        Stmt *setp = g->kind == SSA_DEF ? cfg->instr[g->instr] : NULL;
        uint64_t zero = 1, cmpv, swpv;
        const Instr *si = setp ? &setp->u.instr : NULL;
        bool ne = si && si->op == OP_setp && instr_has_mod(si, ".ne"), eq = si && si->op == OP_setp && instr_has_mod(si, ".eq");
        const Term *old = vterms_value(fn, ssa->defs[ssa->def_start[casi]]);
        const Term *x = si && si->nops == 3 ? opnd_term(fn, ssa, g->instr, 1) : NULL, *y = si && si->nops == 3 ? opnd_term(fn, ssa, g->instr, 2) : NULL;
        bool shape = old && x && y && ((x == old && term_is_const(y, &zero)) || (y == old && term_is_const(x, &zero))) && zero == 0;
        if (!si || (!ne && !eq) || g->partial || si->ops[0].kind != OPND_REG || !shape) {
            snprintf(s->why, sizeof s->why, "the loop header's branch is not a comparison of the atom.cas result with 0");
            continue;
        }
        if (tas ? cas->u.instr.nops != 3 || !term_is_const(opnd_term(fn, ssa, casi, 2), &swpv) || swpv == 0
                : cas->u.instr.nops != 4 || !term_is_const(opnd_term(fn, ssa, casi, 2), &cmpv) || cmpv != 0 ||
                      !term_is_const(opnd_term(fn, ssa, casi, 3), &swpv) || swpv == 0) {
            snprintf(s->why, sizeof s->why, "the %s does not take a free word (0) to a held one (a non-zero constant)",
                     tas ? "atom.exch" : "atom.cas");
            continue;
        }
        /* taken when the guard holds; the guard holds on success when it
         * is (old == 0) or !(old != 0) */
        bool taken_on_success = eq != b->guard_neg;
        s->again_neg = b->guard_neg != taken_on_success; /* the guard, read as "the attempt failed" */
        uint32_t fall = cfg_succs(cfg, h)[0], taken = cfg_succs(cfg, h)[1];
        uint32_t E = taken_on_success ? taken : fall;
        s->setp = setp;
        if (!s->addr) {
            snprintf(s->why, sizeof s->why, "the lock's address is not modelled");
            continue;
        }
        /* the full fence at the start of the acquired path (__threadfence) */
        if (E >= cfg->n || E == h || cfg_npred(cfg, E) != 1) {
            snprintf(s->why, sizeof s->why, "the acquired path does not start a block of its own");
            continue;
        }
        Stmt *f = cfg->block_instr[E] < cfg->block_instr[E + 1] ? cfg->instr[cfg->block_instr[E]] : NULL;
        s->scope = f ? fence_scope(f) : NULL;
        s->cas_scope = scope_of(&cas->u.instr, "gpu");
        if (!s->scope) {
            /* the common CUDA lock: while (atomicCAS(..)); CS; __threadfence(); atomicExch(..) */
            s->racy = true;
            snprintf(s->why, sizeof s->why, "no fence or .acquire where the lock is acquired: the critical section's accesses are not "
                     "ordered after the %s (a data race under the PTX memory model); fix-races=1 makes it an acquire "
                     "(only adds ordering)", tas ? "atom.exch" : "atom.cas");
            continue;
        }
        s->fence_acq = f;
        s->fence_scope = s->scope;
        s->acquire_shape = true;
        /* the release: one, after a fence of the same scope */
        int nrel = 0;
        for (uint32_t i = 0; i < cfg->ninstr; i++)
            if (cfg_reachable(cfg, cfg->instr_block[i]) && is_release(fn, cfg, ssa, i, s->addr, s->space, s->scope)) {
                nrel++;
                s->release = cfg->instr[i];
                s->fence_rel = (Stmt *)prev_instr(s->release);
            }
        if (nrel != 1) {
            if (nrel)
                snprintf(s->why, sizeof s->why, "%d releases of the lock (fence + atom.exch/st of 0): lock and unlock are not one "
                         "critical section in one divergent region", nrel);
            else
                snprintf(s->why, sizeof s->why, "no release of the lock (a fence of the same scope, then atom.exch/st of 0 to the same word)");
            s->release = NULL;
            continue;
        }
        const Instr *ri = &s->release->u.instr;
        /* The rewrite's scope: the fences', but never narrower than the
         * lock operations' own (atom is .gpu when it names none; a
         * volatile store is .sys): a .cta CAS is not morally strong with
         * another CTA's, which would lose mutual exclusion across CTAs.
         * Shared memory has no other CTA: the fences' scope suffices. */
        if (!str_eqc(s->space, ".shared")) {
            const char *rs = ri->op == OP_atom ? scope_of(ri, "gpu") : instr_has_mod(ri, ".volatile") ? "sys" : s->scope;
            if (scope_rank(s->cas_scope) > scope_rank(s->scope)) s->scope = s->cas_scope;
            if (scope_rank(rs) > scope_rank(s->scope)) s->scope = rs;
        }
        s->exch_dead = false;
        if (ri->op == OP_atom) {
            if (ri->ops[0].kind == OPND_SINK) s->exch_dead = true;
            else if (ri->ops[0].kind == OPND_REG) {
                uint32_t i = cfg_instr_index(cfg, s->release);
                SsaValue dv = ssa->defs[ssa->def_start[i]];
                s->exch_dead = ssa->du_start[dv + 1] == ssa->du_start[dv] && ssa->pu_start[dv + 1] == ssa->pu_start[dv];
            }
        }
        s->ok = true;
    }
    return v;
}

/* ------------------------------------------------------------ barriers */

static bool plain_cta_barrier(const Instr *in)
{
    if (in->guard || in->nops != 1 || in->ops[0].kind != OPND_INT || in->ops[0].value != 0) return false;
    if (in->op == OP_bar) return str_eqc(in->full, "bar.sync") || str_eqc(in->full, "bar.cta.sync");
    if (in->op == OP_barrier)
        return str_eqc(in->full, "barrier.sync") || str_eqc(in->full, "barrier.sync.aligned") ||
               str_eqc(in->full, "barrier.cta.sync") || str_eqc(in->full, "barrier.cta.sync.aligned");
    return false;
}

/* Threads per block when .reqntid N,1,1 fixes one row (0: the shape is
 * not known, UINT32_MAX: several rows).  .maxntid bounds the count, not
 * the shape: a 32x2 launch of a .maxntid 64,1,1 kernel is legal (issue
 * 23, class 6); *bound gets the most threads a block may have (0: none
 * declared). */
static uint32_t block_threads(const Function *fn, uint32_t *bound)
{
    *bound = 0;
    uint32_t req = 0;
    for (uint32_t i = 0; i < fn->nperf; i++) {
        const PerfDirective *p = &fn->perf[i];
        if (!p->n) continue;
        uint64_t prod = 1;
        for (uint32_t k = 0; k < p->n && k < 3; k++) prod *= p->v[k];
        if (str_eqc(p->name, ".maxntid") || str_eqc(p->name, ".reqntid"))
            if (!*bound || prod < *bound) *bound = prod > 1024 ? 1024 : (uint32_t)prod;
        if (!str_eqc(p->name, ".reqntid")) continue;
        if ((p->n > 1 && p->v[1] != 1) || (p->n > 2 && p->v[2] != 1)) req = UINT32_MAX; /* not one row */
        else req = p->v[0];
    }
    return req;
}

void tl_barrier_sites(Function *fn, BarPlan *p)
{
    const Cfg *cfg = cfg_get(fn);
    const LoopInfo *li = loops_get(fn);
    const MemInfo *mi = memory_get(fn);
    memset(p, 0, sizeof *p);
    uint32_t bound;
    p->ntid = block_threads(fn, &bound);
    int nb = 0;
    for (uint32_t i = 0; i < cfg->ninstr; i++)
        if (cfg->iflags[i] & OPF_BARRIER) nb++;
    p->bars = calloc((size_t)nb + 1, sizeof *p->bars);
    for (uint32_t i = 0; i < cfg->ninstr; i++) {
        Stmt *st = cfg->instr[i];
        const Instr *in = &st->u.instr;
        uint32_t fl = cfg->iflags[i];
        if (!cfg_reachable(cfg, cfg->instr_block[i])) continue;
        if ((fl & OPF_BARRIER) && plain_cta_barrier(in)) {
            BarSite *b = &p->bars[p->nbars++];
            b->instr = i, b->block = cfg->instr_block[i], b->bar = st;
            b->cand = true;
            if (li->irreducible || li->innermost[b->block] != ANA_NONE)
                b->cand = false, snprintf(b->why, sizeof b->why, "the barrier is in a loop (one channel epoch per barrier instance is not modelled)");
            else if (!uniform_converged(fn, st))
                b->cand = false, snprintf(b->why, sizeof b->why, "the barrier is not reached by every thread together");
            else if (!dom_dominates(postdom_get(fn), b->block, 0))
                b->cand = false, snprintf(b->why, sizeof b->why, "the barrier is not on every path through the kernel");
            continue;
        }
        if (!p->why[0] && (fl & OPF_CALL))
            snprintf(p->why, sizeof p->why, "a call at line %u: the callee's memory accesses are not analysed (a store there may "
                     "cross the barrier)", st->line);
        if (!p->why[0] && (fl & (OPF_BARRIER | OPF_COLLECTIVE)))
            snprintf(p->why, sizeof p->why, "warp-synchronous or named-barrier code at line %u (%.*s): the barrier may have another role",
                     st->line, STR_FMT(in->full));
    }
    if (!p->why[0])
        for (uint32_t k = 0; k < mi->nacc; k++) {
            const MemAccess *a = &mi->acc[k];
            if ((a->space == SPACE_SHARED || a->space == SPACE_GENERIC) && (a->flags & MACC_VOLATILE)) {
                snprintf(p->why, sizeof p->why, "volatile shared access at line %u (a warp-synchronous idiom): the barrier may have another role",
                         cfg->instr[a->instr]->line);
                break;
            }
        }
    if (!p->why[0] && p->ntid == UINT32_MAX && p->nbars)
        snprintf(p->why, sizeof p->why, "the block has several rows (.reqntid/.maxntid): %%tid.x does not name one thread");
    if (p->ntid == UINT32_MAX) p->ntid = 0;
    p->nflags = p->ntid ? p->ntid : bound ? bound : 1024;
}

void tl_barrier_plan_free(BarPlan *p)
{
    free(p->bars), free(p->cons);
    memset(p, 0, sizeof *p);
}
