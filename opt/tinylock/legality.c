/* legality.c — the proof obligations of the tinylock rewrites
 * (research/seed-002-sfu-lock.md §3.5, §3.10; seeds-000-004 §3.6).
 *
 * Spin-lock upgrade: acquire-CAS + releasing store replace the relaxed
 * CAS + full fence and full fence + exch only when the fences have no other
 * role and the lock is safe to spin on:
 *   - the target has the acquire/release forms (sm_70+, PTX 6.0+; this
 *     also means independent thread scheduling, without which the shape
 *     "spin until acquired, then the critical section after the loop"
 *     deadlocks under intra-warp contention);
 *   - lock and unlock are in one divergent region: the release block
 *     post-dominates the block after the loop and is dominated by it;
 *   - no barrier, warp collective or call inside the critical section;
 *   - every memory access that the full fences order besides the critical
 *     section (reachable before the acquire or after the release without
 *     crossing a CTA barrier — for a cta-scope lock — or at all) is weak
 *     (a plain ld/st: release orders every earlier access of the thread
 *     and acquire every later one, so message passing through the lock is
 *     kept; what the SC fences add is store->load order, which only
 *     matters to accesses that synchronise: atomics, volatile, relaxed,
 *     acquire/release — a race between weak accesses has no defined
 *     outcome to keep) or reads immutable data.
 * Barrier relaxation: a plain bar.sync 0 that every thread reaches once
 * (not in a loop, converged) is removed only when every pair of accesses
 * crossing it (before it and after it, up to the barriers that stay) that
 * may touch the same bytes from two threads, one of them writing, is a
 * producer store and a consumer load with
 *   - a unique producer: the store's shared address is k + c*%tid.x with
 *     every other part CTA-uniform, |c| >= its width and |c|*ntid < 2^31,
 *     in a 1-D block (.reqntid/.maxntid N,1,1);
 *   - the store executed exactly once by every thread (not guarded, not in
 *     a loop, on every path from the entry, no thread exited before it);
 *   - the load's address equal to the store's in thread %tid.x + N for a
 *     constant N (normalised terms; Z3 when normalisation cannot tell);
 *   - below sm_70 (no ITS) N a multiple of 32 (no intra-warp wait).
 * N = 0 needs no channel (program order); the others get one.  Barriers
 * that fail are kept and the check repeats until nothing changes (a kept
 * barrier shortens the intervals of the others). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opt/tinylock/internal.h"

static bool immutable(const MemInfo *mi, const MemAccess *a)
{
    if (a->flags & MACC_NC) return true;
    if (a->space == SPACE_CONST || a->space == SPACE_PARAM) return true;
    if (!(a->flags & (MACC_STORE | MACC_ATOMIC)) && a->base.kind == BASE_PARAM && a->base.index < mi->nparams &&
        mi->param_readonly[a->base.index])
        return true;
    return false;
}

static bool is_plain_barrier(const Cfg *cfg, uint32_t i, const BarPlan *p, bool only_kept)
{
    if (!(cfg->iflags[i] & OPF_BARRIER)) return false;
    if (!p) return true;
    for (int k = 0; k < p->nbars; k++)
        if (p->bars[k].instr == i) return only_kept ? !p->bars[k].relaxed : true;
    return true;
}

/* Marks in `seen` every instruction reachable from instruction `from`
 * (exclusive) forward or backward, not passing a barrier for which
 * stop(i) holds.  `stack`: cfg->n + 1 slots. */
typedef struct Walk {
    const Cfg *cfg;
    uint8_t *seen;        /* [ninstr] */
    uint8_t *full;        /* [n] block scanned whole */
    uint32_t *stack;
    const BarPlan *plan;  /* stop at its kept barriers; NULL: at every barrier */
    bool stop;            /* stop at barriers at all */
} Walk;

static bool stops(const Walk *w, uint32_t i) { return w->stop && is_plain_barrier(w->cfg, i, w->plan, true); }

static void walk(Walk *w, uint32_t from, bool fwd)
{
    const Cfg *c = w->cfg;
    uint32_t n = 0;
    uint32_t b0 = c->instr_block[from];
    bool go_on = true;
    if (fwd) {
        for (uint32_t i = from + 1; i < c->block_instr[b0 + 1] && go_on; i++) {
            if (stops(w, i)) go_on = false; else w->seen[i] = 1;
        }
        if (go_on) for (uint32_t k = 0; k < cfg_nsucc(c, b0); k++) w->stack[n++] = cfg_succs(c, b0)[k];
    } else {
        for (uint32_t i = from; i-- > c->block_instr[b0] && go_on;) {
            if (stops(w, i)) go_on = false; else w->seen[i] = 1;
        }
        if (go_on) for (uint32_t k = 0; k < cfg_npred(c, b0); k++) w->stack[n++] = cfg_preds(c, b0)[k];
    }
    while (n) {
        uint32_t b = w->stack[--n];
        if (b >= c->n || w->full[b]) continue;
        w->full[b] = 1;
        bool cont = true;
        if (fwd) {
            for (uint32_t i = c->block_instr[b]; i < c->block_instr[b + 1] && cont; i++) {
                if (stops(w, i)) cont = false; else w->seen[i] = 1;
            }
            if (cont) for (uint32_t k = 0; k < cfg_nsucc(c, b); k++) w->stack[n++] = cfg_succs(c, b)[k];
        } else {
            for (uint32_t i = c->block_instr[b + 1]; i-- > c->block_instr[b] && cont;) {
                if (stops(w, i)) cont = false; else w->seen[i] = 1;
            }
            if (cont) for (uint32_t k = 0; k < cfg_npred(c, b); k++) w->stack[n++] = cfg_preds(c, b)[k];
        }
        if (n + c->n + 2 > c->n * 4 + 64) break; /* cannot happen: each block is pushed by its neighbours once */
    }
}

static Walk walk_new(const Cfg *c)
{
    Walk w = { .cfg = c };
    w.seen = calloc(c->ninstr + 1, 1);
    w.full = calloc(c->n + 1, 1);
    w.stack = calloc((size_t)c->pred_start[c->n + 1] + c->succ_start[c->n + 1] + c->n * 4 + 64, sizeof *w.stack);
    return w;
}

static void walk_reset(Walk *w)
{
    memset(w->seen, 0, w->cfg->ninstr + 1);
    memset(w->full, 0, w->cfg->n + 1);
}

static void walk_free(Walk *w) { free(w->seen), free(w->full), free(w->stack); }

/* ------------------------------------------------------------ spinlock */

/* A plain ld/st: no atomicity, no volatile, no memory-order qualifier. */
static bool weak(const Stmt *st, const MemAccess *a)
{
    const Instr *in = &st->u.instr;
    if (a->flags & (MACC_ATOMIC | MACC_VOLATILE | MACC_ASYNC)) return false;
    if (in->op != OP_ld && in->op != OP_st) return false;
    static const char *const m[] = { ".relaxed", ".acquire", ".release", ".volatile", ".mmio", ".sc", ".acq_rel" };
    for (int i = 0; i < 7; i++)
        if (instr_has_mod(in, m[i])) return false;
    return true;
}

void tl_spin_legal(Function *fn, const TlTarget *t, SpinSite *s)
{
    if (!s->ok) return;
    s->ok = false;
    if (!t->ordered) {
        snprintf(s->why, sizeof s->why,
                 "the target has no acquire/release forms (sm_70 and PTX 6.0): the legacy form is the fences the lock already "
                 "has%s", t->its ? "" : " (and without independent thread scheduling an intra-warp spin can deadlock)");
        return;
    }
    const Cfg *cfg = cfg_get(fn);
    const DomTree *dom = dom_get(fn), *pdom = postdom_get(fn);
    const MemInfo *mi = memory_get(fn);
    uint32_t E = cfg_block_index(cfg, s->fence_acq->block), R = cfg_block_index(cfg, s->release->block);
    uint32_t fa = cfg_instr_index(cfg, s->fence_acq), rel = cfg_instr_index(cfg, s->release);
    if (!dom_dominates(dom, E, R) || !dom_dominates(pdom, R, E) || (E == R && rel < fa)) {
        snprintf(s->why, sizeof s->why,
                 "lock and unlock are not in one divergent region: the release at line %u does not post-dominate the acquire",
                 s->release->line);
        return;
    }
    Walk w = walk_new(cfg);
    /* the critical section: forward from the fence, up to the release */
    uint8_t *own = calloc(cfg->ninstr + 1, 1);
    w.stop = false;
    {
        /* blocks between E and R: reachable from E without passing R */
        uint32_t n = 0;
        uint8_t *vis = calloc(cfg->n + 1, 1);
        w.stack[n++] = E;
        while (n) {
            uint32_t b = w.stack[--n];
            if (b >= cfg->n || vis[b]) continue;
            vis[b] = 1;
            for (uint32_t i = cfg->block_instr[b]; i < cfg->block_instr[b + 1]; i++) {
                if (b == E && i < fa) continue;
                if (b == R && i > rel) break;
                own[i] = 1;
            }
            if (b == R) continue;
            for (uint32_t k = 0; k < cfg_nsucc(cfg, b); k++) w.stack[n++] = cfg_succs(cfg, b)[k];
        }
        free(vis);
    }
    uint32_t casi = cfg_instr_index(cfg, s->cas);
    own[casi] = 1;
    for (uint32_t i = 0; i < cfg->ninstr; i++)
        if (own[i] && i != casi && i != fa && i != rel &&
            (cfg->iflags[i] & (OPF_BARRIER | OPF_COLLECTIVE | OPF_CALL))) {
            snprintf(s->why, sizeof s->why, "a barrier, warp collective or call inside the critical section (line %u): lanes "
                     "spinning on the lock can never arrive", cfg->instr[i]->line);
            goto out;
        }
    /* What the full fences order that acquire/release does not.  The
     * fence after the CAS orders every access before the lock (PRE) before
     * every access after it (IN: the critical section; POST: after the
     * release); the fence before the release orders PRE and IN before
     * POST.  An acquire CAS and a releasing store keep PRE and IN before
     * the release and the CAS before IN and POST, but not the pairs
     * PRE x IN, PRE x POST, IN x POST: where either access of such a pair
     * synchronises (atomic, volatile, relaxed, acquire/release: another
     * thread may observe it without the lock), the fences had that role
     * too (issue 23, class 4).  Two weak accesses of such a pair are
     * ordered for every thread that takes the lock (the lock's own
     * release/acquire), and for any other thread only through a fence.sc
     * of its own: so no other fence may be in the kernel either. */
    w.stop = strcmp(s->scope, "cta") == 0;
    w.plan = NULL;
    walk(&w, casi, false);
    uint8_t *pre = malloc(cfg->ninstr + 1);
    memcpy(pre, w.seen, cfg->ninstr + 1);
    walk_reset(&w);
    walk(&w, rel, true);
    uint32_t fr = cfg_instr_index(cfg, s->fence_rel);
    for (uint32_t i = 0; i < cfg->ninstr; i++) {
        if (!cfg_reachable(cfg, cfg->instr_block[i])) continue;
        if ((cfg->iflags[i] & OPF_CALL) && (pre[i] || w.seen[i])) {
            snprintf(s->why, sizeof s->why, "a call at line %u before or after the lock: the callee's accesses and fences are not "
                     "analysed", cfg->instr[i]->line);
            free(pre);
            goto out;
        }
        Opcode op = cfg->instr[i]->u.instr.op;
        if ((op == OP_membar || op == OP_fence) && i != fa && i != fr) {
            snprintf(s->why, sizeof s->why, "another fence in the kernel (line %u): with it, the lock's fences may order accesses for a "
                     "thread that does not take the lock (fence-SC order)", cfg->instr[i]->line);
            free(pre);
            goto out;
        }
    }
    /* the accesses other threads may run while this thread is in the
     * critical section: for a cta-scope lock, those not separated from
     * it by a CTA barrier (every thread of the CTA is between the same
     * two barriers); else every access of the kernel */
    bool cta = strcmp(s->scope, "cta") == 0;
    uint8_t *near = malloc(cfg->ninstr + 1);
    for (uint32_t i = 0; i <= cfg->ninstr; i++) near[i] = !cta || own[i] || pre[i] || w.seen[i];
    /* first strong and first other access of each set (instruction + 1).
     * A synchronising access in the critical section that no synchronising
     * access outside it may touch (every strong access to its bytes is in
     * the critical section too: data the lock protects, like a volatile
     * counter; a weak access synchronises with nothing) is observed only
     * by threads that take the lock, whose own release/acquire orders it. */
    uint32_t strong[3] = { 0 }, any[3] = { 0 };
    for (uint32_t k = 0; k < mi->nacc; k++) {
        const MemAccess *a = &mi->acc[k];
        uint32_t i = a->instr;
        if (i == casi || i == rel || immutable(mi, a)) continue;
        bool st = !weak(cfg->instr[i], a);
        if (st && own[i]) {
            bool prot = true;
            for (uint32_t j = 0; j < mi->nacc && prot; j++) {
                const MemAccess *b = &mi->acc[j];
                if (own[b->instr] || b->instr == casi || !near[b->instr] || immutable(mi, b)) continue;
                if (weak(cfg->instr[b->instr], b)) continue;   /* a weak access synchronises with nothing */
                if (memory_alias(fn, i, b->instr) != ALIAS_NO) prot = false;
            }
            if (prot) st = false;
        }
        bool in_set[3] = { pre[i] && !own[i], own[i] != 0, w.seen[i] && !own[i] };
        for (int x = 0; x < 3; x++) {
            if (!in_set[x]) continue;
            if (!any[x]) any[x] = i + 1;
            if (st && !strong[x]) strong[x] = i + 1;
        }
    }
    free(pre);
    free(near);
    static const char *const setname[3] = { "before the lock", "in the critical section", "after the release" };
    /* the lost pairs: (PRE, IN), (PRE, POST), (IN, POST) */
    static const int pairs[3][2] = { { 0, 1 }, { 0, 2 }, { 1, 2 } };
    for (int q = 0; q < 3; q++) {
        int a = pairs[q][0], b = pairs[q][1];
        uint32_t sa = strong[a] ? strong[a] : 0, sb = strong[b] ? strong[b] : 0;
        uint32_t xa = 0, xb = 0;
        if (sa && any[b]) xa = sa, xb = any[b];
        else if (sb && any[a]) xa = any[a], xb = sb;
        if (!xa) continue;
        snprintf(s->why, sizeof s->why,
                 "the fences also order line %u (%s) before line %u (%s), and one of them synchronises (atomic, volatile or ordered): "
                 "acquire/release on the lock would not keep that order",
                 cfg->instr[xa - 1]->line, setname[a], cfg->instr[xb - 1]->line, setname[b]);
        goto out;
    }
    s->ok = true;
out:
    free(own);
    walk_free(&w);
}

/* ------------------------------------------------------------- barrier */

/* Only %tid.x, launch constants, symbols, parameters and constants. */
static bool cta_uniform_but_tid(const Term *x, const Term *tid, int depth)
{
    if (depth > 64) return false;
    if (x == tid || x->op == T_CONST) return true;
    if (x->op == T_ATOM) {
        if (x->atom == ATOM_SYMADDR || x->atom == ATOM_PARAM) return true;
        if (x->atom == ATOM_SPECIAL)
            return str_eqc(x->name, "%ntid") || str_eqc(x->name, "%ctaid") || str_eqc(x->name, "%nctaid");
        return false;
    }
    if (x->op == T_UF) return false;
    for (uint32_t i = 0; i < x->n; i++)
        if (!cta_uniform_but_tid(x->args[i], tid, depth + 1)) return false;
    return true;
}

typedef struct BCtx {
    Function *fn;
    const TlTarget *t;
    const Cfg *cfg;
    const DomTree *dom, *pdom;
    const LoopInfo *li;
    const MemInfo *mi;
    TermTable *tt;
    const Term *tid;
    ProofSession *ps;
    uint32_t bound;       /* threads per block (ntid, or 1024) */
    const Term **cond;    /* [n] reach condition of each block, NULL until made */
} BCtx;

static bool plain_ld_st(const Instr *in, Opcode op)
{
    if (in->op != op || in->guard) return false;
    if (instr_has_mod(in, ".v2") || instr_has_mod(in, ".v4") || instr_has_mod(in, ".v8")) return false;
    static const char *const m[] = { ".relaxed", ".acquire", ".release", ".volatile", ".mmio" };
    for (int i = 0; i < 5; i++)
        if (instr_has_mod(in, m[i])) return false;
    return str_eqc(instr_space(in), ".shared") || str_eqc(instr_space(in), ".shared::cta");
}

/* A condition that holds in every thread that reaches block b: the
 * conjunction, along b's dominator chain, of the branch conditions of
 * edges d -> s where s has d as its only predecessor (so reaching s means
 * that edge was taken).  Conditions that are not functions of %tid.x and
 * launch constants (loaded data) are left out: a weaker condition is still
 * necessary. */
static const Term *reach_cond(BCtx *c, uint32_t b)
{
    if (c->cond[b]) return c->cond[b];
    const Cfg *cfg = c->cfg;
    const Term *k = term_const(c->tt, 1, 1);
    for (uint32_t s = b; s != 0 && s < cfg->n;) {
        uint32_t d = c->dom->idom[s];
        if (d == ANA_NONE || d >= cfg->n) break;
        if (cfg_npred(cfg, s) == 1 && cfg->term[d] == TERM_BRA && (cfg->flags[d] & CFGB_GUARDED) && cfg_nsucc(cfg, d) == 2) {
            const Stmt *bra = cfg->instr[cfg->term_instr[d]];
            const Term *g = vterms_value(c->fn, ssa_use_value(c->fn, bra, bra->u.instr.guard));
            if (g && g->width == 1 && cta_uniform_but_tid(g, c->tid, 0)) {
                bool taken = cfg_succs(cfg, d)[1] == s;
                bool need = taken != bra->u.instr.guard_neg; /* the guard register's value on this edge */
                k = term_binop(c->tt, T_AND, k, need ? g : term_not(c->tt, g));
            }
        }
        s = d;
    }
    return c->cond[b] = k;
}

/* The fast path, no solver: the store's address is injective in %tid.x
 * (k + c*%tid.x, the rest CTA-uniform, |c| >= width, |c|*threads < 2^31)
 * and the load's address is exactly the store's in thread %tid.x + N:
 * then thread %tid.x + N is the only thread whose store touches those
 * bytes, whichever threads execute the store. */
static bool affine_producer(BCtx *c, const MemAccess *x, const MemAccess *y, int64_t *N)
{
    if (!c->tid || !cta_uniform_but_tid(x->addr, c->tid, 0)) return false;
    uint64_t coef = 0;
    if (!term_linear_in(c->tt, x->addr, c->tid, &coef) || !coef) return false;
    /* the load must read within the one producer's bytes: a wider load
     * also covers its neighbour's store (issue 23, class 1) */
    if (!y->bytes || y->bytes > x->bytes) return false;
    unsigned w = x->addr->width;
    int64_t sc = w == 64 ? (int64_t)coef : (int64_t)(int32_t)(uint32_t)coef;
    uint64_t mag = sc < 0 ? (uint64_t)-sc : (uint64_t)sc;
    if (mag < x->bytes || mag * c->bound >= (1ull << 31)) return false;
    int64_t n;
    if (!term_solve_shift(c->tt, x->addr, y->addr, c->tid, -(int64_t)c->bound, (int64_t)c->bound, &n)) return false;
    const Term *sh = term_subst(c->tt, x->addr, c->tid, term_add(c->tt, c->tid, term_const(c->tt, c->tid->width, (uint64_t)n)));
    if (sh != y->addr) return false;
    *N = n;
    return true;
}

/* With Z3: for every consumer thread t and producer thread t' (both in
 * the block) that reach the load and the store (their reach conditions),
 * if the store's bytes in t' overlap the load's in t, then t' = t + N.
 * When Z3 refutes it, *next (if not NULL) gets the only N that can still
 * hold: the counterexample is an overlapping pair, so a single producer
 * offset, if there is one, is its t' - t; *has_next says whether there
 * was a counterexample to read. */
static bool proved_producer(BCtx *c, const MemAccess *x, const MemAccess *y, int64_t N, int64_t *next, bool *has_next)
{
    if (has_next) *has_next = false;
    if (!proof_available() || !c->tid) return false;
    if (!c->ps) c->ps = proof_session_new(c->tt, 2000);
    TermTable *tt = c->tt;
    const Term *t1 = term_var(tt, 32, "tinylock_consumer"), *t2 = term_var(tt, 32, "tinylock_producer");
    const Term *cy = term_subst(tt, reach_cond(c, c->cfg->instr_block[y->instr]), c->tid, t1);
    const Term *cx = term_subst(tt, reach_cond(c, c->cfg->instr_block[x->instr]), c->tid, t2);
    const Term *ay = term_subst(tt, y->addr, c->tid, t1), *ax = term_subst(tt, x->addr, c->tid, t2);
    /* a shared address is 32 bits as a register and 64 as a symbol
     * operand ([buf] in a 64-bit module): compare the low bits both have.
     * Bytes that overlap overlap there too, so the premise only widens. */
    unsigned w = ax->width < ay->width ? ax->width : ay->width;
    ax = term_unop(tt, T_TRUNC, w, ax);
    ay = term_unop(tt, T_TRUNC, w, ay);
    uint64_t wb = x->bytes > y->bytes ? x->bytes : y->bytes;
    const Term *d = term_add(tt, term_sub(tt, ax, ay), term_const(tt, w, wb - 1));
    const Term *overlap = term_binop(tt, T_ULT, d, term_const(tt, w, 2 * wb - 1));
    const Term *range = term_binop(tt, T_AND, term_binop(tt, T_ULT, t1, term_const(tt, 32, c->bound)),
                                   term_binop(tt, T_ULT, t2, term_const(tt, 32, c->bound)));
    const Term *prem = term_binop(tt, T_AND, term_binop(tt, T_AND, cy, cx), term_binop(tt, T_AND, overlap, range));
    if (proof_equal_assuming(c->ps, prem, t2, term_add(tt, t1, term_const(tt, 32, (uint64_t)N)), NULL, 0) == PROOF_PROVED)
        return true;
    uint64_t v1, v2;
    if (next && proof_counterexample(c->ps, t1, &v1) && proof_counterexample(c->ps, t2, &v2)) {
        *next = (int64_t)(int32_t)(uint32_t)(v2 - v1);
        *has_next = true;
    }
    return false;
}

/* Is y (a load) reading bytes that only thread %tid.x + N may have written
 * with x (a store)? */
static bool matched(BCtx *c, uint32_t kx, uint32_t ky, int64_t *N, bool *z3, char *why, size_t cap)
{
    const MemAccess *x = &c->mi->acc[kx], *y = &c->mi->acc[ky];
    const Stmt *xs = c->cfg->instr[x->instr], *ys = c->cfg->instr[y->instr];
    *z3 = false;
    if (!(x->flags & MACC_STORE) || (x->flags & MACC_ATOMIC) || !plain_ld_st(&xs->u.instr, OP_st) || !x->addr || !x->bytes) {
        snprintf(why, cap, "the access at line %u before the barrier is not a plain unguarded shared store (a %s after the barrier "
                 "may touch its bytes in another thread)", xs->line, (y->flags & (MACC_STORE | MACC_ATOMIC)) ? "write" : "read");
        return false;
    }
    if (!plain_ld_st(&ys->u.instr, OP_ld) || !y->addr || !y->bytes) {
        snprintf(why, cap, "the access at line %u is not a plain unguarded shared load", ys->line);
        return false;
    }
    int64_t n = 0;
    bool ok = affine_producer(c, x, y, &n);
    if (!ok && cta_uniform_but_tid(x->addr, c->tid, 0) && cta_uniform_but_tid(y->addr, c->tid, 0)) {
        /* candidates: the affine shift if any, 0, +-1, then whole warps */
        int64_t cand[80];
        int nc = 0;
        if (term_solve_shift(c->tt, x->addr, y->addr, c->tid, -(int64_t)c->bound, (int64_t)c->bound, &n)) cand[nc++] = n;
        cand[nc++] = 0, cand[nc++] = -1, cand[nc++] = 1;
        for (int64_t k = 32; k < c->bound && nc + 2 <= 80; k += 32) cand[nc++] = -k, cand[nc++] = k;
        /* a refutation names the only offset that can still hold (see
         * proved_producer): among the candidates not tried yet, try that
         * one next, and stop when it is none of them, rather than ask
         * about the rest one by one (issue 21: 780 refuted queries, 20 s,
         * on shoc's fftlib).  The candidates stay the same: no offset
         * outside them is tried, so the pass rewrites what it did. */
        for (int i = 0; i < nc && !ok; i++) {
            int64_t left = 0;
            bool has = false;
            if (proved_producer(c, x, y, cand[i], &left, &has)) {
                ok = true, n = cand[i], *z3 = true;
                break;
            }
            if (!has) continue;
            int j = i + 1;
            while (j < nc && cand[j] != left) j++;
            if (j == nc) break;
            int64_t t = cand[i + 1];
            cand[i + 1] = cand[j], cand[j] = t;
        }
    }
    if (!ok) {
        snprintf(why, cap, "no single producer thread %%tid.x + N: the store at line %u may write the bytes the load at line %u reads "
                 "from more than one thread, or from a thread that is not a constant offset away%s", xs->line, ys->line,
                 proof_available() ? "" : " (built without Z3: only affine addresses are proved)");
        return false;
    }
    if (!c->t->its && n % 32) {
        snprintf(why, cap, "the producer of line %u is in the consumer's warp (N = %lld) and the target has no independent thread "
                 "scheduling", ys->line, (long long)n);
        return false;
    }
    *N = n;
    return true;
}

static bool may_conflict(const Module *m, const MemAccess *x, const MemAccess *y)
{
    if (!(x->flags & (MACC_STORE | MACC_ATOMIC)) && !(y->flags & (MACC_STORE | MACC_ATOMIC))) return false;
    bool gx = x->space == SPACE_GENERIC, gy = y->space == SPACE_GENERIC;
    if (!gx && !gy && x->space != y->space) return false;
    /* different variables never share bytes, except `.extern .shared`
     * arrays, which all start at the dynamic shared memory (class 2) */
    if (x->base.kind == BASE_VAR && y->base.kind == BASE_VAR && !str_eq(x->base.name, y->base.name) &&
        !(memory_var_dynamic_shared(m, x->base.name) && memory_var_dynamic_shared(m, y->base.name)))
        return false;
    return true;
}

/* x's instruction runs before y's on every path (x dominates y). */
static bool instr_dominates(const BCtx *c, uint32_t x, uint32_t y)
{
    uint32_t bx = c->cfg->instr_block[x], by = c->cfg->instr_block[y];
    return bx == by ? x < y : dom_dominates(c->dom, bx, by);
}

void tl_barrier_legal(Function *fn, const TlTarget *t, BarPlan *p)
{
    if (!p->why[0] && p->nbars > 64)
        snprintf(p->why, sizeof p->why, "more than 64 barriers in the kernel (not modelled)");
    if (p->why[0]) {
        for (int i = 0; i < p->nbars; i++) p->bars[i].relaxed = false;
        return;
    }
    const ValueTerms *vt = vterms_get(fn);
    BCtx c = { .fn = fn, .t = t, .cfg = cfg_get(fn), .dom = dom_get(fn), .pdom = postdom_get(fn), .li = loops_get(fn),
               .mi = memory_get(fn), .tt = vt->tt, .tid = vterms_special(fn, "%tid", 'x'), .bound = p->nflags };
    c.cond = calloc(c.cfg->n + 1, sizeof *c.cond);
    p->legacy = !t->ordered;
    for (int i = 0; i < p->nbars; i++) p->bars[i].relaxed = p->bars[i].cand;
    Walk before = walk_new(c.cfg), after = walk_new(c.cfg);
    before.plan = after.plan = p;
    before.stop = after.stop = true;
    p->cons = calloc(c.mi->nacc + 1, sizeof *p->cons);
    bool changed = true;
    while (changed) {
        changed = false;
        p->ncons = 0;
        for (int bi = 0; bi < p->nbars; bi++) {
            BarSite *b = &p->bars[bi];
            if (!b->relaxed) continue;
            walk_reset(&before), walk_reset(&after);
            walk(&before, b->instr, false);
            walk(&after, b->instr, true);
            bool fail = false;
            int mark = p->ncons;
            for (uint32_t kx = 0; kx < c.mi->nacc && !fail; kx++) {
                const MemAccess *x = &c.mi->acc[kx];
                if (!before.seen[x->instr] || immutable(c.mi, x)) continue;
                for (uint32_t ky = 0; ky < c.mi->nacc && !fail; ky++) {
                    const MemAccess *y = &c.mi->acc[ky];
                    if (!after.seen[y->instr] || immutable(c.mi, y) || !may_conflict(fn->mod, x, y)) continue;
                    int64_t n;
                    bool z3;
                    char why[240];
                    if (!matched(&c, kx, ky, &n, &z3, why, sizeof why)) {
                        snprintf(b->why, sizeof b->why, "line %u and line %u cross the barrier and no channel covers them: %s",
                                 c.cfg->instr[x->instr]->line, c.cfg->instr[y->instr]->line, why);
                        fail = true;
                        break;
                    }
                    if (n == 0) continue; /* only the thread's own bytes (affine or Z3): program order, no channel */
                    int k;
                    for (k = 0; k < p->ncons; k++)
                        if (p->cons[k].instr == y->instr) break;
                    if (k == p->ncons)
                        p->cons[p->ncons++] = (Consumer){ .instr = y->instr, .ld = c.cfg->instr[y->instr],
                                                          .producer = c.cfg->instr[x->instr], .shift = n, .by_z3 = z3,
                                                          .bars = 1ull << bi };
                    else if (p->cons[k].shift != n) {
                        snprintf(b->why, sizeof b->why, "the load at line %u reads bytes of two producer threads (%%tid.x%+lld and %%tid.x%+lld)",
                                 c.cfg->instr[y->instr]->line, (long long)p->cons[k].shift, (long long)n);
                        fail = true;
                    } else p->cons[k].bars |= 1ull << bi;
                }
            }
            if (fail) b->relaxed = false, changed = true, p->ncons = mark;
        }
    }
    walk_free(&before), walk_free(&after);
    /* epochs: the relaxed barriers in dominance order (each is on every
     * path, once); a consumer waits for the latest barrier it crossed */
    int order[64], no = 0;
    for (int i = 0; i < p->nbars; i++)
        if (p->bars[i].relaxed) {
            int j = no++;
            while (j > 0 && instr_dominates(&c, p->bars[i].instr, p->bars[order[j - 1]].instr)) order[j] = order[j - 1], j--;
            order[j] = i;
        }
    for (int i = 0; i < p->nbars; i++) p->bars[i].epoch = 0;
    for (int j = 0; j < no; j++) p->bars[order[j]].epoch = j + 1;
    for (int k = 0; k < p->ncons; k++) {
        p->cons[k].epoch = 0;
        for (int i = 0; i < p->nbars; i++)
            if (((p->cons[k].bars >> i) & 1) && p->bars[i].epoch > p->cons[k].epoch) p->cons[k].epoch = p->bars[i].epoch;
    }
    /* keep only consumers with a relaxed barrier (a later failure may have
     * kept the one they were found at) */
    int kept = 0;
    for (int k = 0; k < p->ncons; k++)
        if (p->cons[k].epoch > 0) p->cons[kept++] = p->cons[k];
    p->ncons = kept;
    p->nrelaxed = no;
    /* where the flags are initialised: before a kept barrier that dominates
     * every relaxed barrier (the releases) and every consumer, else at the
     * entry with a barrier added */
    p->init_before = NULL;
    if (p->ncons)
        for (int i = 0; i < p->nbars && !p->init_before; i++) {
            BarSite *b = &p->bars[i];
            if (b->relaxed || c.li->innermost[b->block] != ANA_NONE || !uniform_converged(fn, b->bar)) continue;
            bool all = true;
            for (int k = 0; k < p->nbars && all; k++)
                if (p->bars[k].relaxed) all = instr_dominates(&c, b->instr, p->bars[k].instr);
            for (int k = 0; k < p->ncons && all; k++) all = instr_dominates(&c, b->instr, p->cons[k].instr);
            if (all) p->init_before = b->bar;
        }
    if (c.ps) proof_session_free(c.ps);
    free(c.cond);
}
