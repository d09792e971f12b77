/* uniform.c — uniformity (divergence) analysis with sync dependence, and
 * may-have-exited.
 *
 * A value is divergent when the lanes of a warp executing it together may
 * disagree on it.  Sources (research/seeds-000-004 §6.3): %tid, %laneid,
 * %lanemask_*, %clock*, %globaltimer*, %warpid, %smid, %pm*, activemask,
 * shfl, match.any, the elect.sync predicate, atomics, calls, volatile loads,
 * local (per-thread) memory, loads through a generic address that may be
 * local, and a .func's own parameters (the caller may pass per-lane
 * values).  Uniform whatever their inputs: vote, redux, match.all, the
 * elected lane of elect.sync, bar.red.  Everything else is divergent iff
 * an input is (data dependence; a guarded write also depends on its guard
 * and on the value it keeps).  Loads from a uniform address are uniform
 * (uniform among the lanes that execute them together).
 *
 * A branch is divergent when its guard (or brx.idx index) is divergent and
 * it has two different successors; .uni branches are trusted (PTX makes a
 * wrong .uni undefined behaviour) but reported as "promised".  For each
 * divergent branch B the paths leaving through different successors are
 * followed up to B's immediate post-dominator; a block reached by two of
 * them is a join and its merges are divergent (sync dependence).  If B is
 * in a loop that its post-dominator is not, lanes may leave that loop in
 * different iterations: values defined in the loop are divergent where
 * they are read outside it (temporal divergence).
 *
 * Blocks inside the region of a divergent branch are reached by only some
 * lanes ("partial").  When such a region contains an edge to the exit
 * (exit/ret, or a guarded one), lanes may have left the function at every
 * point reachable from B ("may have exited"). */
#include "analysis/internal.h"

typedef enum DivKind { DK_DATA, DK_ALWAYS, DK_NEVER } DivKind;

bool uniform_special(Str name)
{
    static const char *const uni[] = { "%ntid", "%ctaid", "%nctaid", "%gridid", "%nwarpid", "%nsmid",
                                       "%total_smem_size", "%aggr_smem_size", "%dynamic_smem_size",
                                       "%is_explicit_cluster", "%clusterid", "%nclusterid", "%cluster_ctaid",
                                       "%cluster_nctaid", "%cluster_ctarank", "%cluster_nctarank",
                                       "%reserved_smem_offset_begin", "%reserved_smem_offset_end",
                                       "%reserved_smem_offset_cap", "%reserved_smem_offset_0",
                                       "%reserved_smem_offset_1" };
    for (size_t i = 0; i < sizeof uni / sizeof uni[0]; i++)
        if (str_eqc(name, uni[i])) return true;
    return str_starts(name, "%envreg");
}

typedef struct UCtx {
    Function *fn;
    const Cfg *c;
    const Ssa *s;
    const DomTree *pd;
    const LoopInfo *li;
    const MemInfo *mi;
    Uniformity *u;
    U32Vec work;              /* values that became divergent */
    U32Vec branches;          /* blocks whose branch became divergent */
    uint32_t *label;          /* scratch for join search */
    uint32_t *lstamp;
    uint8_t *joined;
    uint32_t stamp;
    uint8_t *use_taint;       /* [nuses] read of a temporally divergent value */
} UCtx;

static DivKind div_kind(UCtx *x, uint32_t i, const SsaVal *sv)
{
    const Instr *in = &x->c->instr[i]->u.instr;
    uint32_t fl = x->c->iflags[i];
    switch (in->op) {
    case OP_shfl: case OP_activemask: return DK_ALWAYS;
    case OP_vote: case OP_redux: return DK_NEVER;
    case OP_match: return instr_has_mod(in, ".all") ? DK_NEVER : DK_ALWAYS;
    case OP_elect: return sv->elem == 1 ? DK_ALWAYS : DK_NEVER;
    case OP_bar: case OP_barrier: return instr_has_mod(in, ".red") ? DK_NEVER : DK_ALWAYS;
    case OP_call: case OP_atom: case OP_alloca: case OP_stacksave: case OP_UNKNOWN: return DK_ALWAYS;
    case OP_ld: case OP_ldu: {
        if (fl & OPF_SIDE_EFFECT) return DK_ALWAYS;     /* volatile / strong */
        uint32_t k = x->mi->acc_of_instr[i];
        if (k == ANA_NONE) return DK_ALWAYS;
        const MemAccess *m = &x->mi->acc[k];
        if (m->space == SPACE_LOCAL || m->space == SPACE_GENERIC) return DK_ALWAYS;
        /* a kernel's own parameters are uniform; a .func's parameters and
         * call results (body .param) are whatever the lanes passed */
        if (m->space == SPACE_PARAM && (!x->fn->is_entry || !(m->flags & MACC_ARG))) return DK_ALWAYS;
        return DK_DATA;
    }
    default:
        break;
    }
    if (fl & (OPF_TENSOR | OPF_COLLECTIVE)) return DK_ALWAYS;
    if (fl & (OPF_TEXTURE | OPF_SURFACE)) return DK_DATA;
    if (fl & OPF_PURE) return DK_DATA;
    if (in->op == OP_multimem && instr_has_mod(in, ".ld_reduce")) return DK_DATA;
    return DK_ALWAYS;
}

static void mark(UCtx *x, SsaValue v)
{
    if (x->u->div[v] || x->s->v[v].reg == x->s->nvars - 1) return;
    x->u->div[v] = 1;
    u32_push(&x->work, v);
}

static void mark_branch(UCtx *x, uint32_t b)
{
    if (x->u->branch_div[b]) return;
    if (x->c->flags[b] & CFGB_UNI) {
        x->u->branch_div[b] = 2;   /* promised uniform: trusted */
        return;
    }
    if (cfg_nsucc(x->c, b) < 2) return;
    x->u->branch_div[b] = 1;
    u32_push(&x->branches, b);
}

/* A divergent read of operand(s) in instruction i: propagate. */
static void divergent_read(UCtx *x, uint32_t u)
{
    const SsaUse *su = &x->s->uses[u];
    uint32_t i = su->instr;
    if (su->flags & REF_MEM) return;
    uint32_t b = x->c->instr_block[i];
    if (x->c->term_instr[b] == i) {
        const Instr *in = &x->c->instr[i]->u.instr;
        if ((su->flags & REF_GUARD) || (in->op == OP_brx && su->opnd == 0)) mark_branch(x, b);
    }
    for (uint32_t k = x->s->def_start[i]; k < x->s->def_start[i + 1]; k++) {
        SsaValue d = x->s->defs[k];
        const SsaVal *sv = &x->s->v[d];
        if (x->u->div[d]) continue;
        bool implicit = (su->flags & (REF_GUARD | REF_PARTIAL)) != 0;
        if (implicit && !(su->flags & REF_GUARD) && su->reg != sv->reg) continue;   /* another element's old value */
        if (implicit || div_kind(x, i, sv) == DK_DATA) mark(x, d);
    }
}

/* Blocks reached from the two sides of divergent branch b meet: joins. */
static void sync_dependence(UCtx *x, uint32_t b)
{
    const Cfg *c = x->c;
    uint32_t n = c->n, ipd = x->pd->idom[b];
    uint32_t st = ++x->stamp;
    U32Vec q = { 0 };
    for (uint32_t j = 0; j < cfg_nsucc(c, b); j++) {
        uint32_t s = cfg_succs(c, b)[j];
        if (s >= n) continue;
        x->lstamp[s] = st;
        x->label[s] = s;
        x->joined[s] = 0;
        if (s != ipd) {
            x->u->partial[s] = 1;
            u32_push(&q, s);
        }
    }
    while (q.n) {
        uint32_t y = q.v[--q.n];
        uint32_t L = x->label[y];
        for (uint32_t j = 0; j < cfg_nsucc(c, y); j++) {
            uint32_t t = cfg_succs(c, y)[j];
            if (t >= n || t == b) continue;
            bool changed = false;
            if (x->lstamp[t] != st) {
                x->lstamp[t] = st;
                x->label[t] = L;
                x->joined[t] = 0;
                changed = true;
            } else if (x->label[t] != L && !x->joined[t]) {
                x->joined[t] = 1;
                x->label[t] = t;
                changed = true;
                x->u->join[t] = 1;
                for (uint32_t k = x->s->phi_start[t]; k < x->s->phi_start[t + 1]; k++) {
                    SsaValue p = x->s->phis[k];
                    const SsaVal *pv = &x->s->v[p];
                    bool same = true;
                    for (uint32_t a = 1; a < pv->nargs; a++) same &= pv->args[a] == pv->args[0];
                    if (!same) mark(x, p);
                }
            }
            if (changed && t != ipd) {
                x->u->partial[t] = 1;
                u32_push(&q, t);
            }
        }
    }
    u32_free(&q);
    /* loops that b may leave in different iterations */
    for (uint32_t l = x->li->innermost[b]; l != ANA_NONE; l = x->li->loops[l].parent) {
        if (ipd < n && loop_contains(x->li, l, ipd)) break;
        if (x->u->loop_div_exit[l]) continue;
        x->u->loop_div_exit[l] = 1;
        const Loop *L = &x->li->loops[l];
        for (uint32_t bi = 0; bi < L->nblocks; bi++) {
            uint32_t lb = L->blocks[bi];
            /* values defined in lb: merges then writes */
            for (uint32_t pass = 0; pass < 2; pass++) {
                uint32_t from = pass ? x->s->def_start[c->block_instr[lb]] : x->s->phi_start[lb];
                uint32_t to = pass ? x->s->def_start[c->block_instr[lb + 1]] : x->s->phi_start[lb + 1];
                for (uint32_t k = from; k < to; k++) {
                    SsaValue v = pass ? x->s->defs[k] : x->s->phis[k];
                    if (x->s->v[v].reg == x->s->nvars - 1) continue;
                    for (uint32_t d = x->s->du_start[v]; d < x->s->du_start[v + 1]; d++) {
                        uint32_t use = x->s->du[d];
                        uint32_t ub = c->instr_block[x->s->uses[use].instr];
                        if (loop_contains(x->li, l, ub) || x->use_taint[use]) continue;
                        x->use_taint[use] = 1;
                        divergent_read(x, use);
                    }
                    for (uint32_t d = x->s->pu_start[v]; d < x->s->pu_start[v + 1]; d++) {
                        SsaValue p = x->s->pu[d];
                        if (!loop_contains(x->li, l, x->s->v[p].block)) mark(x, p);
                    }
                }
            }
        }
    }
}

static Uniformity *uniform_build(Function *fn)
{
    Arena *a = ana_arena(fn);
    UCtx x = { 0 };
    x.fn = fn;
    x.c = cfg_get(fn);
    x.s = ssa_get(fn);
    x.pd = postdom_get(fn);
    x.li = loops_get(fn);
    x.mi = memory_get(fn);
    const Cfg *c = x.c;
    const Ssa *s = x.s;
    uint32_t n = c->n;
    Uniformity *u = x.u = ARENA_NEW(a, Uniformity);
    u->ssa = s;
    u->div = ARENA_ARRAY(a, uint8_t, s->nvalues + 1);
    u->branch_div = ARENA_ARRAY(a, uint8_t, n + 1);
    u->join = ARENA_ARRAY(a, uint8_t, n + 1);
    u->partial = ARENA_ARRAY(a, uint8_t, n + 1);
    u->exited_in = ARENA_ARRAY(a, uint8_t, n + 1);
    u->exit_at = ARENA_ARRAY(a, uint32_t, n + 1);
    u->loop_div_exit = ARENA_ARRAY(a, uint8_t, x.li->nloops + 1);
    x.label = xmalloc(sizeof(uint32_t) * (n + 1));
    x.lstamp = xcalloc(n + 1, sizeof(uint32_t));
    x.joined = xcalloc(n + 1, 1);
    x.use_taint = xcalloc(s->use_start[c->ninstr] + 1, 1);

    /* sources */
    for (uint32_t v = 0; v < s->nvars - 1; v++) {
        const Reg *r = fn->regs[v];
        if (r->special && !uniform_special(r->name)) mark(&x, v);
    }
    for (uint32_t i = 0; i < c->ninstr; i++)
        for (uint32_t k = s->def_start[i]; k < s->def_start[i + 1]; k++) {
            SsaValue d = s->defs[k];
            if (div_kind(&x, i, &s->v[d]) == DK_ALWAYS) mark(&x, d);
        }
    /* propagate data and sync dependence to a fixpoint */
    while (x.work.n || x.branches.n) {
        if (x.work.n) {
            SsaValue v = x.work.v[--x.work.n];
            for (uint32_t d = s->du_start[v]; d < s->du_start[v + 1]; d++) divergent_read(&x, s->du[d]);
            for (uint32_t d = s->pu_start[v]; d < s->pu_start[v + 1]; d++) mark(&x, s->pu[d]);
            continue;
        }
        uint32_t b = x.branches.v[--x.branches.n];
        sync_dependence(&x, b);
    }
    /* exits: a divergent region that leaves (or a guarded divergent exit) */
    U32Vec q = { 0 };
    for (uint32_t b = 0; b < n; b++) u->exit_at[b] = ANA_NONE;
    for (uint32_t b = 0; b < n; b++) {
        if (u->branch_div[b] != 1) continue;
        bool leaves = false;
        uint32_t ipd = x.pd->idom[b];
        /* the region again: blocks reachable from b's successors before ipd */
        uint32_t st = ++x.stamp;
        U32Vec r = { 0 };
        for (uint32_t j = 0; j < cfg_nsucc(c, b); j++) {
            uint32_t t = cfg_succs(c, b)[j];
            if (t >= n) { leaves = true; continue; }
            if (t == ipd || x.lstamp[t] == st) continue;
            x.lstamp[t] = st;
            u32_push(&r, t);
        }
        while (r.n && !leaves) {
            uint32_t y = r.v[--r.n];
            for (uint32_t j = 0; j < cfg_nsucc(c, y); j++) {
                uint32_t t = cfg_succs(c, y)[j];
                if (t >= n) { leaves = true; break; }
                if (t == ipd || t == b || x.lstamp[t] == st) continue;
                x.lstamp[t] = st;
                u32_push(&r, t);
            }
        }
        u32_free(&r);
        if (!leaves) continue;
        if (c->term[b] == TERM_RET || c->term[b] == TERM_EXIT || c->term[b] == TERM_TRAP)
            u->exit_at[b] = c->term_instr[b];
        for (uint32_t j = 0; j < cfg_nsucc(c, b); j++) {
            uint32_t t = cfg_succs(c, b)[j];
            if (t < n && !u->exited_in[t]) {
                u->exited_in[t] = 1;
                u32_push(&q, t);
            }
        }
    }
    while (q.n) {
        uint32_t y = q.v[--q.n];
        for (uint32_t j = 0; j < cfg_nsucc(c, y); j++) {
            uint32_t t = cfg_succs(c, y)[j];
            if (t < n && !u->exited_in[t]) {
                u->exited_in[t] = 1;
                u32_push(&q, t);
            }
        }
    }
    u32_free(&q);
    u32_free(&x.work);
    u32_free(&x.branches);
    free(x.label);
    free(x.lstamp);
    free(x.joined);
    free(x.use_taint);
    return u;
}

const Uniformity *uniform_get(Function *fn)
{
    AnalysisCache *ac = analysis_cache(fn);
    if (!ac->uni) ac->uni = uniform_build(fn);
    return ac->uni;
}

/* Is v (defined in a loop lanes may leave at different iterations) read outside that loop at block ub? */
static bool temporal(Function *fn, const Uniformity *u, SsaValue v, uint32_t ub)
{
    const SsaVal *sv = &u->ssa->v[v];
    if (sv->kind == SSA_ENTRY) return false;
    const LoopInfo *li = loops_get(fn);
    for (uint32_t l = li->innermost[sv->block]; l != ANA_NONE; l = li->loops[l].parent)
        if (u->loop_div_exit[l] && !loop_contains(li, l, ub)) return true;
    return false;
}

bool uniform_use(Function *fn, const Stmt *st, const Reg *r)
{
    const Uniformity *u = uniform_get(fn);
    const Cfg *c = cfg_get(fn);
    uint32_t i = cfg_instr_index(c, st);
    if (i == ANA_NONE || !r) return false;
    if (r->special) return uniform_special(r->name);
    SsaValue v = ssa_use_value(fn, st, r);
    if (v == ANA_NONE) return false;
    return !u->div[v] && !temporal(fn, u, v, c->instr_block[i]);
}

bool uniform_may_have_exited(Function *fn, const Stmt *st)
{
    const Uniformity *u = uniform_get(fn);
    const Cfg *c = cfg_get(fn);
    uint32_t i = cfg_instr_index(c, st);
    if (i == ANA_NONE) return true;
    uint32_t b = c->instr_block[i];
    return u->exited_in[b] || (u->exit_at[b] != ANA_NONE && i > u->exit_at[b]);
}

bool uniform_converged(Function *fn, const Stmt *st)
{
    const Uniformity *u = uniform_get(fn);
    const Cfg *c = cfg_get(fn);
    uint32_t i = cfg_instr_index(c, st);
    if (i == ANA_NONE) return false;
    uint32_t b = c->instr_block[i];
    return cfg_reachable(c, b) && !u->partial[b] && !uniform_may_have_exited(fn, st);
}
