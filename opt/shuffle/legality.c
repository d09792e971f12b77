/* legality.c — which earlier loads may feed a destination: dominance,
 * iterations, memory and register clobbers on every path, the lane rule,
 * and which pairs need the runtime address check (see pass.c's comment). */
#include <stdlib.h>
#include <string.h>

#include "opt/shuffle/internal.h"

/* May two bases be the same object?  Only two distinct declared variables
 * are known apart: two pointer parameters may point to the same array
 * (PTX cannot say __restrict__; a read-only source is handled as immutable
 * before this is asked). */
static bool same_object(const MemBase *a, const MemBase *b)
{
    if (a->kind == BASE_VAR && b->kind == BASE_VAR) return str_eq(a->name, b->name);
    return true;
}

/* Does instruction i order this thread's earlier accesses before other
 * threads' later ones (a release: barrier, fence, mbarrier/async op, or a
 * store/atomic with .release/.acq_rel semantics)?  Another thread may then
 * write S's memory after S and before D without a data race, whatever
 * object the releasing instruction itself touches. */
static bool releases(const Ctx *c, uint32_t i)
{
    const Instr *in = &c->cfg->instr[i]->u.instr;
    if (c->cfg->iflags[i] & (OPF_BARRIER | OPF_FENCE | OPF_ASYNC | OPF_CALL)) return true;
    return instr_has_mod(in, ".release") || instr_has_mod(in, ".acq_rel");
}

/* May instruction w (which writes memory) change what S loaded, in any lane? */
static bool clobbers(Ctx *c, const Load *s, uint32_t w)
{
    uint32_t wa = c->mi->acc_of_instr[w];
    if (wa == ANA_NONE || releases(c, w)) return true; /* other threads' stores become visible */
    const MemAccess *x = &c->mi->acc[wa], *sa = &c->mi->acc[s->acc];
    if (!(x->flags & (MACC_STORE | MACC_ATOMIC))) return false;
    if (x->space != SPACE_GENERIC && sa->space != SPACE_GENERIC && x->space != sa->space) return false;
    /* another lane's store may hit S's address even when ours does not:
     * only distinct objects are disjoint for every lane */
    return same_object(&x->base, &sa->base);
}

static bool writes_memory(const Ctx *c, uint32_t i)
{
    return refs_writes_memory(&c->cfg->instr[i]->u.instr, c->cfg->iflags[i]);
}

/* What a path scan looks for: an instruction that changes S's value in
 * memory, or one that overwrites S's destination register. */
typedef bool (*Hit)(Ctx *c, const Load *s, uint32_t i);

static bool clobber_hit(Ctx *c, const Load *s, uint32_t i) { return writes_memory(c, i) && clobbers(c, s, i); }

static bool in_range(Ctx *c, const Load *s, Hit hit, uint32_t from, uint32_t to, uint32_t *at)
{
    for (uint32_t i = from; i < to; i++)
        if (hit(c, s, i)) {
            *at = i;
            return true;
        }
    return false;
}

/* Marks in `mark` the blocks reachable from the blocks on c->stack[0..sp)
 * by edges (successors, or predecessors when `back`), never entering or
 * passing `stop`. */
static void flood(Ctx *c, uint8_t *mark, uint32_t sp, uint32_t stop, bool back)
{
    const Cfg *g = c->cfg;
    while (sp) {
        uint32_t b = c->stack[--sp];
        if (b >= g->n || b == stop || mark[b]) continue;
        mark[b] = 1;
        uint32_t n = back ? cfg_npred(g, b) : cfg_nsucc(g, b);
        const uint32_t *next = back ? cfg_preds(g, b) : cfg_succs(g, b);
        for (uint32_t k = 0; k < n; k++) c->stack[sp++] = next[k];
    }
}

/* May D read what S read without any clobber check?  A read-only
 * parameter (const __restrict__: nothing in the kernel writes it), or both
 * loads .nc: ld.global.nc promises the memory is not written while the
 * kernel runs, and a D that reads written memory through it may see a
 * stale value on hardware anyway (the emulator reports it).  A .nc source
 * and a plain destination are not enough: the plain load must see a
 * store the kernel made in between (issue 10, found by the emulator's
 * UB_NC_WRITTEN check). */
static bool unchanging(const Load *s, const Load *d)
{
    return s->readonly || (s->nc && d->nc);
}

/* An instruction (hit) on a path from S to D that does not pass S again, *including*
 * paths that pass D and come back to it: D in a loop that S is not in
 * reads, in every iteration after the first, what the loop body wrote
 * after D in the iteration before (issue 10: legality covers the back
 * edges of loops that contain D but not S).  *at gets the write.
 *   - same block, S before D: only the instructions between them (any
 *     path that leaves the block comes back through S);
 *   - else: S's block after S; every block reachable from S and reaching
 *     D without passing S, D's block included when D reaches itself so;
 *     D's block before D in any case. */
static bool hit_between(Ctx *c, const Load *s, const Load *d, Hit hit, uint32_t *at)
{
    const Cfg *g = c->cfg;
    uint32_t sb = s->block, db = d->block, sp = 0;
    if (sb == db) return in_range(c, s, hit, s->instr + 1, d->instr, at);
    if (in_range(c, s, hit, s->instr + 1, g->block_instr[sb + 1], at)) return true;
    if (in_range(c, s, hit, g->block_instr[db], d->instr, at)) return true;
    memset(c->fwd, 0, g->n + 1);
    memset(c->bwd, 0, g->n + 1);
    for (uint32_t k = 0; k < cfg_nsucc(g, sb); k++) c->stack[sp++] = cfg_succs(g, sb)[k];
    flood(c, c->fwd, sp, sb, false);
    sp = 0;
    for (uint32_t k = 0; k < cfg_npred(g, db); k++) c->stack[sp++] = cfg_preds(g, db)[k];
    flood(c, c->bwd, sp, sb, true);
    /* db itself is in both sets exactly when a path D -> ... -> D avoids S */
    for (uint32_t b = 0; b < g->n; b++)
        if (c->fwd[b] && c->bwd[b] && in_range(c, s, hit, g->block_instr[b], g->block_instr[b + 1], at)) return true;
    return false;
}

static bool clobbered_between(Ctx *c, const Load *s, const Load *d, uint32_t *at)
{
    return !unchanging(s, d) && hit_between(c, s, d, clobber_hit, at);
}

static bool writes_src_reg(Ctx *c, const Load *s, uint32_t i)
{
    const Ssa *ssa = c->lf.ssa;
    uint32_t r = s->st->u.instr.ops[0].u.reg->id;
    for (uint32_t k = ssa->def_start[i]; k < ssa->def_start[i + 1]; k++)
        if (ssa->v[ssa->defs[k]].reg == r) return true;
    return false;
}

/* Does S's destination register still hold S's value at D (no write to it
 * on any path between)?  Then D can shuffle it without a copy. */
bool shfl_src_reg_survives(Ctx *c, const Load *s, const Load *d)
{
    uint32_t at;
    return !hit_between(c, s, d, writes_src_reg, &at);
}

/* Independent thread scheduling: a full activemask proves that all 32
 * lanes execute this instruction together, not that they are in the same
 * dynamic instance of it.  Inside a loop, lanes of one warp may run
 * different iterations and meet at the same pc (the emulator's ITS policy
 * does exactly that, even in loops without lane-dependent branches); then
 * lane l+N's copy of S comes from another iteration.  Outside loops each
 * instruction of a kernel runs at most once per thread, and the shuffled
 * value is S's only one (D may be in a loop: S's value is then the same in
 * every iteration, and an address that equals A(tid+N) cannot depend on
 * the iteration).  In an irreducible CFG cycles need not be loops: every
 * source is treated as repeated. */
static bool iterations_together(const Ctx *c, const Load *s)
{
    return c->li->innermost[s->block] == ANA_NONE && !c->li->irreducible;
}

/* The address of a load, when it is [reg] or [reg+imm] with a 32- or 64-bit
 * register (what the runtime address check can copy and compare). */
static bool reg_address(const Stmt *st)
{
    const Operand *a = &st->u.instr.ops[1];
    if (a->kind != OPND_ADDR || a->n != 1 || a->u.elems[0].kind != OPND_REG) return false;
    const Reg *r = a->u.elems[0].u.reg;
    return !r->special && !r->vec && !a->u.elems[0].comp && (r->cls == RC_B64 || r->cls == RC_B32);
}

static bool dominates(const Ctx *c, const Load *s, const Load *d)
{
    if (s->block == d->block) return s->instr < d->instr;
    return dom_dominates(c->dom, s->block, d->block);
}

/* a with every min/max that clamps a lane-dependent index replaced by that
 * index (the one operand that mentions the lane); NULL when a term is too
 * deep.  Only ever used with the runtime address check. */
static const Term *unclamped(Ctx *c, const Term *a, int depth)
{
    if (depth > 64) return NULL;
    if (!mentions_lane(c, a) || a->n == 0) return a;
    TermOp op = (TermOp)a->op;
    if ((op == T_SMIN || op == T_SMAX || op == T_UMIN || op == T_UMAX) && a->n == 2 &&
        mentions_lane(c, a->args[0]) != mentions_lane(c, a->args[1]))
        return unclamped(c, mentions_lane(c, a->args[0]) ? a->args[0] : a->args[1], depth + 1);
    const Term *x[3];
    switch (op) {
    case T_ADD: {
        const Term *sum = term_const(c->tt, a->width, a->k);
        for (uint32_t i = 0; i < a->n; i++) {
            const Term *ai = unclamped(c, a->args[i], depth + 1);
            if (!ai) return NULL;
            sum = term_add(c->tt, sum, term_scale(c->tt, ai, a->coef[i]));
        }
        return sum;
    }
    case T_ZEXT: case T_SEXT: case T_TRUNC:
        return (x[0] = unclamped(c, a->args[0], depth + 1)) ? term_unop(c->tt, op, a->width, x[0]) : NULL;
    case T_MUL: case T_SHL: case T_AND: case T_OR: case T_XOR: case T_LSHR: case T_ASHR:
    case T_SMIN: case T_SMAX: case T_UMIN: case T_UMAX:
        if (a->n != 2 || !(x[0] = unclamped(c, a->args[0], depth + 1)) || !(x[1] = unclamped(c, a->args[1], depth + 1)))
            return NULL;
        return term_binop(c->tt, op, x[0], x[1]);
    default:
        return a; /* not rebuilt: left as it is (no clamp found inside) */
    }
}

/* unclamped(l->addr), computed once per load: it was asked for every pair
 * of loads, a fifth of the pass's time on a 40 MB module (issue 21). */
static const Term *load_unclamped(Ctx *c, Load *l)
{
    if (!l->unclamped_done) l->unclamped = unclamped(c, l->addr, 0), l->unclamped_done = true;
    return l->unclamped;
}

/* Candidates of d, cheapest |N| first (legality checked, not yet proved). */
int shfl_candidates(Ctx *c, Load *loads, int nloads, int di, Cand *out)
{
    Load *d = &loads[di];
    int n = 0;
    for (int si = 0; si < nloads; si++) {
        Load *s = &loads[si];
        if (si == di || !s->eligible) continue;
        if (!dominates(c, s, d)) {
            if (s->instr < d->instr) shfl_set_why(d, WHY_NOT_DOMINATED, "(load at line %u)", s->st->line);
            continue;
        }
        if (!str_eq(s->type, d->type)) {
            shfl_set_why(d, WHY_TYPE, "(load at line %u)", s->st->line);
            continue;
        }
        int64_t N = 0;
        /* the same address (hash-consed) is N = 0 even where term_solve_shift
         * cannot see %tid.x linearly, e.g. a[idx[i]] loaded twice */
        bool clamped = false;
        const Term *sa = s->addr, *da = d->addr;
        if (s->addr != d->addr &&
            !term_solve_shift(c->tt, s->addr, d->addr, c->lf.tid, -c->o.max_delta, c->o.max_delta, &N)) {
            /* clamp-to-edge indices (min/max): the unclamped addresses may
             * be a shift apart.  Where the offset sits inside the clamp
             * (min(max(x + dx, 0), w - 1)) the shift commutes with it and
             * the clamped addresses are equal too (the proof decides);
             * otherwise only the runtime address check can tell where the
             * clamp bites. */
            sa = load_unclamped(c, s), da = load_unclamped(c, d);
            if (!(sa && da && (sa != s->addr || da != d->addr) &&
                  term_solve_shift(c->tt, sa, da, c->lf.tid, -c->o.max_delta, c->o.max_delta, &N) && N != 0)) {
                shfl_set_why(d, WHY_NO_SHIFT, "%s", "");
                continue;
            }
            clamped = shfl_in_lane(c, s->addr, N) != d->addr;
            if (clamped && !c->o.clamp) {
                shfl_set_why(d, WHY_CLAMP_OFF, "(N = %d from line %u)", (int)N, s->st->line);
                continue;
            }
        }
        /* D after S's loop: S's copy is from the lane's last iteration that
         * reached S, and the address registers may have moved on since;
         * the terms cannot tell, only the runtime check can (N != 0) */
        uint32_t sl = c->li->innermost[s->block];
        if (N == 0 && sl != ANA_NONE && !loop_contains(c->li, sl, d->block)) {
            shfl_set_why(d, WHY_ITERATION, "(load at line %u)", s->st->line);
            continue;
        }
        uint32_t at;
        char text[96];
        bool loop_check = N != 0 && !iterations_together(c, s), wrap_check = false;
        if (loop_check && !c->o.loops) {
            shfl_set_why(d, WHY_LOOP_OFF, "%s", "");
            continue;
        }
        /* Lane l's D takes what lane l+N's S loaded: the proof may treat a
         * value of S's address that is not a function of the lane as the
         * same in both lanes only when it is warp-uniform.  N = 0 stays in
         * one lane; the loop form compares the two addresses at run time. */
        const Term *v = N != 0 && !loop_check && !clamped ? shfl_lane_varying(&c->lf, s->addr, 0) : NULL;
        if (v) {
            term_format(text, sizeof text, v);
            shfl_set_why(d, WHY_LANE_VARYING, "(%s in the address of line %u)", text, s->st->line);
            continue;
        }
        /* an unsigned index may wrap where a signed one may not */
        const Term *w = N != 0 && !loop_check && !clamped ? shfl_unsigned_may_wrap(&c->lf, s->addr, 0) : NULL;
        if (w && !c->o.unsign) {
            term_format(text, sizeof text, w);
            shfl_set_why(d, WHY_UNSIGNED, "(%s in the address of line %u)", text, s->st->line);
            continue;
        }
        wrap_check = w != NULL;
        bool check = loop_check || wrap_check || clamped;
        if (check && !(reg_address(s->st) && reg_address(d->st))) {
            shfl_set_why(d, WHY_CHECK_FORM, "(line %u or %u)", s->st->line, d->st->line);
            continue;
        }
        if (clobbered_between(c, s, d, &at)) {
            shfl_set_why(d, WHY_CLOBBER, "(source at line %u, write at line %u)", s->st->line, c->cfg->instr[at]->line);
            continue;
        }
        out[n++] = (Cand){ .src = (uint32_t)si, .delta = (int)N, .check = check, .loop = loop_check, .clamp = clamped,
                           .a = clamped ? sa : s->addr, .b = clamped ? da : d->addr, .proved = -1 };
    }
    /* insertion sort by |N|, then by source order (stable) */
    for (int i = 1; i < n; i++) {
        Cand k = out[i];
        int j = i - 1;
        while (j >= 0 && abs(out[j].delta) > abs(k.delta)) out[j + 1] = out[j], j--;
        out[j + 1] = k;
    }
    return n;
}
