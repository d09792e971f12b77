/* shuffle.c — shuffle synthesis: detection, proof, legality, selection (see
 * shuffle.h; code generation in shuffle_emit.c).
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
 *     D's address (runtime address check), and for a plain load nothing in
 *     S's outermost loop may write S's memory (the value another lane
 *     loaded in another iteration is then still the value in memory);
 *   - no store, atomic, call, barrier or fence that may write S's memory on
 *     any path from S to D that does not pass S again, including paths
 *     through back edges of loops that contain D but not S (a write after
 *     D in such a loop is read by D in the next iteration), unless S's
 *     value cannot change for D (see unchanging); only stores to another
 *     declared variable are
 *     known not to alias (two pointer parameters may);
 *   - same type (32- or 64-bit), plain loads of .global only; predicated,
 *     vector, volatile/ordered loads are skipped with a remark;
 *   - D's destination is not used in its own address (the shuffle writes
 *     it before the fallback load reads the address);
 *   - paper policy: sources are loads that are not themselves
 *     destinations (no shuffle over shuffle), smallest |N| first.
 * Partial and divergent warps and lanes without a source lane use the
 * original load (predicated), never a wrong value. */
#include "opt/shuffle.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/analysis.h"
#include "opt/guard.h"
#include "opt/shuffle_impl.h"

#define PASS "shuffle"

static const char *const shuffle_keys[] = { "max-delta", "max-shuffles", "no-corner", "no-load", "timeout-ms", "budget-ms", "prove", "loops",
                                             "unsigned", "clamp", NULL };

/* prove=: who accepts a pair (see prove_shift). */
typedef enum ProveMode { PROVE_AUTO, PROVE_Z3, PROVE_REWRITE } ProveMode;

typedef struct Options {
    long max_delta, max_shuffles, timeout_ms;
    long budget_ms;     /* per kernel; 0: none */
    bool no_corner, no_load;
    bool loops;         /* sources in loops (with the runtime address check) */
    bool unsign;        /* unsigned indices that may wrap (with the runtime address check) */
    bool clamp;         /* clamped (min/max) indices (with the runtime address check) */
    ProveMode prove;
} Options;

/* Per-target defaults (research §5, §6.3): before Volta a shuffle beats
 * the slow L1/texture path (the paper's gains: Maxwell, Pascal); Volta and
 * newer have a fast unified L1 (28 cycles against a 22-cycle shuffle) and
 * the paper measured slowdowns with large |N| and many shuffles.  A source
 * in a loop needs the runtime address check (two more shuffles per load),
 * which only a slow load path repays: off by default on sm_70 and newer. */
static bool read_options(const PassInvocation *inv, int sm, Options *o, char *err, size_t errsz)
{
    bool modern = sm == 0 || sm >= 70;
    if (!pass_arg_int(inv, "max-delta", &o->max_delta, modern ? 1 : 31, err, errsz) ||
        !pass_arg_int(inv, "max-shuffles", &o->max_shuffles, modern ? 8 : 1000000, err, errsz) ||
        !pass_arg_int(inv, "timeout-ms", &o->timeout_ms, 2000, err, errsz) ||
        !pass_arg_int(inv, "budget-ms", &o->budget_ms, 10000, err, errsz) ||
        !pass_arg_bool(inv, "no-corner", &o->no_corner, false, err, errsz) ||
        !pass_arg_bool(inv, "no-load", &o->no_load, false, err, errsz) ||
        !pass_arg_bool(inv, "loops", &o->loops, !modern, err, errsz) ||
        !pass_arg_bool(inv, "unsigned", &o->unsign, !modern, err, errsz) ||
        !pass_arg_bool(inv, "clamp", &o->clamp, !modern, err, errsz))
        return false;
    if (o->max_delta < 0 || o->max_delta > 31) {
        snprintf(err, errsz, "max-delta=%ld is outside 0..31", o->max_delta);
        return false;
    }
    if (o->max_shuffles < 0 || o->budget_ms < 0) {
        snprintf(err, errsz, "%s=%ld is negative", o->max_shuffles < 0 ? "max-shuffles" : "budget-ms",
                 o->max_shuffles < 0 ? o->max_shuffles : o->budget_ms);
        return false;
    }
    if (o->timeout_ms <= 0 || o->timeout_ms > 86400000) {
        snprintf(err, errsz, "timeout-ms=%ld is outside 1..86400000", o->timeout_ms);
        return false;
    }
    const char *pv = pass_arg(inv, "prove");
    if (!pv || strcmp(pv, "auto") == 0) o->prove = PROVE_AUTO;
    else if (strcmp(pv, "z3") == 0) o->prove = PROVE_Z3;
    else if (strcmp(pv, "rewrite") == 0) o->prove = PROVE_REWRITE;
    else {
        snprintf(err, errsz, "prove=%s must be auto, z3 or rewrite", pv);
        return false;
    }
    return true;
}

/* Pipeline parsing checks the options with the run's own reader (the
 * target only changes defaults, never what is valid). */
static bool shuffle_validate(const PassInvocation *inv, char *err, size_t errsz)
{
    Options o;
    return read_options(inv, 0, &o, err, errsz);
}

/* ------------------------------------------------------------ loads */

/* Why a load is not rewritten, in the order the checks advance: the
 * furthest stage reached is the one reported. */
typedef enum Why {
    WHY_NONE, WHY_NO_EARLIER, WHY_TYPE, WHY_NOT_DOMINATED, WHY_ITERATION, WHY_NO_SHIFT, WHY_CLAMP_OFF, WHY_LOOP_OFF, WHY_LANE_VARYING, WHY_UNSIGNED,
    WHY_LOOP_CLOBBER, WHY_CHECK_FORM, WHY_CLOBBER,
    WHY_PROOF_REFUTED, WHY_PROOF_UNKNOWN, WHY_CHAIN, WHY_LIMIT
} Why;

typedef struct Load {
    uint32_t instr, block, acc;
    Stmt *st;
    const Term *addr;
    Str type;
    int bits;
    bool nc;           /* ld.global.nc */
    bool readonly;     /* a read-only parameter (const __restrict__): no store can change it */
    bool eligible;     /* may take part at all */
    bool dst_ok;       /* may be a destination */
    const char *skip;  /* why not eligible */
    Why why;           /* furthest failure as a destination */
    char detail[160];
    bool is_dst;       /* has a proved candidate */
    bool needs_version; /* chosen, but .version cannot be raised */
    int uses_as_src;
} Load;

static int type_bits(Str t)
{
    static const char *const t32[] = { ".b32", ".u32", ".s32", ".f32" }, *const t64[] = { ".b64", ".u64", ".s64", ".f64" };
    for (int i = 0; i < 4; i++) {
        if (str_eqc(t, t32[i])) return 32;
        if (str_eqc(t, t64[i])) return 64;
    }
    return 0;
}

static int reg_bits(const Reg *r)
{
    switch (r->cls) {
    case RC_B32: case RC_F32: return 32;
    case RC_B64: case RC_F64: return 64;
    default: return 0;
    }
}

static bool reg_in_operand(const Operand *o, const Reg *r)
{
    if (o->kind == OPND_REG) return o->u.reg == r;
    if (o->kind == OPND_ADDR || o->kind == OPND_VEC || o->kind == OPND_LIST || o->kind == OPND_PAIR)
        for (int i = 0; i < o->n; i++)
            if (reg_in_operand(&o->u.elems[i], r)) return true;
    return false;
}

/* A loop-carried value or merge the terms do not model (not an induction
 * variable): an address through it may well depend on %tid.x. */
static const Term *unmodelled_atom(const Term *a, int depth)
{
    if (depth > 64) return NULL;
    if (a->op == T_ATOM) return a->atom == ATOM_LOOPVAL || a->atom == ATOM_PHI ? a : NULL;
    for (uint32_t i = 0; i < a->n; i++) {
        const Term *t = unmodelled_atom(a->args[i], depth + 1);
        if (t) return t;
    }
    return NULL;
}

static void classify(Function *fn, const MemInfo *mi, const MemAccess *a, const LaneFacts *lf, Load *l)
{
    const Instr *in = &l->st->u.instr;
    l->addr = a->addr;
    l->type = instr_type(in);
    l->bits = type_bits(l->type);
    l->nc = a->flags & MACC_NC;
    l->readonly = a->base.kind == BASE_PARAM && a->base.index < mi->nparams && mi->param_readonly[a->base.index];
    if (in->guard) l->skip = "predicated load (not rewritten)";
    else if (instr_has_mod(in, ".v2") || instr_has_mod(in, ".v4") || instr_has_mod(in, ".v8"))
        l->skip = "vector load (not rewritten)";
    else if (instr_has_mod(in, ".volatile") || instr_has_mod(in, ".relaxed") || instr_has_mod(in, ".acquire") ||
             instr_has_mod(in, ".mmio") || instr_has_mod(in, ".cv"))
        l->skip = "volatile or memory-ordered load";
    else if (!l->bits) l->skip = "type is not 32 or 64 bits";
    else if (in->nops != 2 || in->ops[0].kind != OPND_REG || in->ops[0].comp || in->ops[0].u.reg->vec ||
             in->ops[0].u.reg->special)
        l->skip = "destination is not a plain register";
    else if (reg_bits(in->ops[0].u.reg) != l->bits)
        l->skip = "destination register is wider than the loaded type";
    else if (!l->addr) l->skip = "address not modelled";
    else if (!lf->tid || !term_mentions(l->addr, lf->tid))
        l->skip = unmodelled_atom(l->addr, 0)
                      ? "address not tid-affine: it goes through a loop-carried value or merge that is not an induction variable"
                  : shfl_mentions_lane(lf, l->addr) ? "address depends on %laneid but not on %tid.x"
                                                    : "address does not depend on %tid.x";
    l->eligible = l->skip == NULL;
    l->dst_ok = l->eligible && !reg_in_operand(&in->ops[1], in->ops[0].u.reg);
    (void)fn;
}

/* ------------------------------------------------------- legality */

typedef struct Ctx {
    Function *fn;
    LaneFacts lf;
    const Cfg *cfg;
    const DomTree *dom;
    const LoopInfo *li;
    const Uniformity *uni;
    const MemInfo *mi;
    TermTable *tt;
    ProofSession *ps;
    Options o;
    uint8_t *fwd, *bwd;     /* scratch [n] */
    uint32_t *stack;        /* scratch [n] */
} Ctx;

/* May two bases be the same object?  Only two distinct declared variables
 * are known apart: two pointer parameters may point to the same array
 * (PTX cannot say __restrict__; a read-only source is handled as immutable
 * before this is asked). */
static bool same_object(const MemBase *a, const MemBase *b)
{
    if (a->kind == BASE_VAR && b->kind == BASE_VAR) return str_eq(a->name, b->name);
    return true;
}

/* May instruction w (which writes memory) change what S loaded, in any lane? */
static bool clobbers(Ctx *c, const Load *s, uint32_t w)
{
    uint32_t wa = c->mi->acc_of_instr[w];
    if (wa == ANA_NONE) return true; /* barrier, fence, call: other threads' stores become visible */
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

static bool clobber_in_range(Ctx *c, const Load *s, uint32_t from, uint32_t to, uint32_t *at)
{
    return in_range(c, s, clobber_hit, from, to, at);
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
static bool src_reg_survives(Ctx *c, const Load *s, const Load *d)
{
    uint32_t at;
    return !hit_between(c, s, d, writes_src_reg, &at);
}

/* -------------------------------------------------------------- proof */

/* The premise covers the widening of a 32-bit index to a 64-bit address
 * only (C's int/unsigned index next to its neighbour's); narrower values
 * (16-bit arithmetic wraps by design) are proved exactly. */
static bool is_index_widening(const Term *a)
{
    return (a->op == T_SEXT || a->op == T_ZEXT) && a->n == 1 && a->width == 64 && a->args[0]->width == 32;
}

static bool mentions_lane(const Ctx *c, const Term *t) { return shfl_mentions_lane(&c->lf, t); }

/* t as lane l+n sees it: %tid.x + n and %laneid + n (the row guard and the
 * lane-range test of the template make both true where the shuffle is used). */
static const Term *in_lane(Ctx *c, const Term *t, int64_t n)
{
    const Term *tid = c->lf.tid, *lane = c->lf.laneid;
    if (tid && term_mentions(t, tid)) t = term_subst(c->tt, t, tid, term_add(c->tt, tid, term_const(c->tt, tid->width, (uint64_t)n)));
    if (lane && term_mentions(t, lane))
        t = term_subst(c->tt, t, lane, term_add(c->tt, lane, term_const(c->tt, lane->width, (uint64_t)n)));
    return t;
}

/* Premise: no widened 32-bit subterm of A wraps between our lane and the
 * neighbour's (see the file comment). */
static const Term *no_wrap_premise(Ctx *c, const Term *a, int64_t n, const Term *premise, int depth)
{
    if (depth > 64 || !mentions_lane(c, a)) return premise;
    if (is_index_widening(a)) {
        const Term *x = a->args[0], *x2 = in_lane(c, x, n);
        const Term *lhs = term_unop(c->tt, (TermOp)a->op, a->width, x2);
        const Term *rhs = term_add(c->tt, a, term_unop(c->tt, T_SEXT, a->width, term_sub(c->tt, x2, x)));
        const Term *cond = term_binop(c->tt, T_EQ, lhs, rhs);
        premise = premise ? term_binop(c->tt, T_AND, premise, cond) : cond;
    }
    for (uint32_t i = 0; i < a->n; i++) premise = no_wrap_premise(c, a->args[i], n, premise, depth + 1);
    return premise;
}

/* A with %tid.x := %tid.x + N, where every widened subterm ext(x) that
 * mentions %tid.x is rewritten by the premise to ext(x) + sext(x' - x)
 * (x' the shifted x).  Under the premise the result equals A[tid := tid+N];
 * when it is B itself (hash-consed: the same pointer) the equality is proved
 * without the solver.  NULL when A holds an operation we do not rebuild. */
static const Term *shift_under_premise(Ctx *c, const Term *a, int64_t n, int depth)
{
    if (depth > 64) return NULL;
    if (!mentions_lane(c, a)) return a;
    if (a == c->lf.tid || a == c->lf.laneid) return in_lane(c, a, n);
    TermTable *tt = c->tt;
    const Term *x[3] = { NULL, NULL, NULL };
    switch ((TermOp)a->op) {
    case T_SEXT: case T_ZEXT:
        if (is_index_widening(a)) {
            const Term *x2 = in_lane(c, a->args[0], n);
            return term_add(tt, a, term_unop(tt, T_SEXT, a->width, term_sub(tt, x2, a->args[0])));
        }
        if (!(x[0] = shift_under_premise(c, a->args[0], n, depth + 1))) return NULL; /* exact, no premise */
        return term_unop(tt, (TermOp)a->op, a->width, x[0]);
    case T_TRUNC:
        if (!(x[0] = shift_under_premise(c, a->args[0], n, depth + 1))) return NULL;
        return term_unop(tt, (TermOp)a->op, a->width, x[0]);
    case T_ADD: {
        const Term *sum = term_const(tt, a->width, a->k);
        for (uint32_t i = 0; i < a->n; i++) {
            const Term *ai = shift_under_premise(c, a->args[i], n, depth + 1);
            if (!ai) return NULL;
            sum = term_add(tt, sum, term_scale(tt, ai, a->coef[i]));
        }
        return sum;
    }
    case T_MUL: case T_AND: case T_OR: case T_XOR: case T_SHL: case T_LSHR: case T_ASHR:
        if (a->n != 2) return NULL;
        if (!(x[0] = shift_under_premise(c, a->args[0], n, depth + 1)) ||
            !(x[1] = shift_under_premise(c, a->args[1], n, depth + 1)))
            return NULL;
        return term_binop(tt, (TermOp)a->op, x[0], x[1]);
    default:
        return NULL; /* the solver decides */
    }
}

/* The solver's view of an address: every maximal subterm that does not
 * mention %tid.x becomes a free variable (the same subterm, the same
 * variable: terms are hash-consed).  Proving the equation for all values of
 * those variables proves it for the real subterms, and keeps the bit-vector
 * query linear where the real one multiplies kernel parameters (nx*ny*z),
 * which the solver finds slow.  NULL when an operation is not rebuilt. */
static const Term *abstract(Ctx *c, const Term *a, int depth)
{
    if (depth > 64) return NULL;
    TermTable *tt = c->tt;
    if (a->op == T_CONST || a == c->lf.tid || a == c->lf.laneid) return a;
    if (!mentions_lane(c, a))
        return term_var(tt, a->width, arena_printf(&c->fn->mod->arena, "k%u", a->id));
    const Term *x[3];
    if (a->n > 3 && a->op != T_ADD) return NULL;
    switch ((TermOp)a->op) {
    case T_ADD: {
        const Term *sum = term_const(tt, a->width, a->k);
        for (uint32_t i = 0; i < a->n; i++) {
            const Term *ai = abstract(c, a->args[i], depth + 1);
            if (!ai) return NULL;
            sum = term_add(tt, sum, term_scale(tt, ai, a->coef[i]));
        }
        return sum;
    }
    case T_ZEXT: case T_SEXT: case T_TRUNC:
        if (!(x[0] = abstract(c, a->args[0], depth + 1))) return NULL;
        return term_unop(tt, (TermOp)a->op, a->width, x[0]);
    case T_ITE:
        for (int i = 0; i < 3; i++)
            if (!(x[i] = abstract(c, a->args[i], depth + 1))) return NULL;
        return term_ite(tt, x[0], x[1], x[2]);
    case T_ATOM: case T_UF: case T_CONST: case T_NOPS:
        return NULL; /* an atom that mentions tid is tid (handled); UFs keep their own args */
    default:
        if (a->n != 2) return NULL;
        for (int i = 0; i < 2; i++)
            if (!(x[i] = abstract(c, a->args[i], depth + 1))) return NULL;
        return term_binop(tt, (TermOp)a->op, x[0], x[1]);
    }
}

/* The claim the solver checks for "S's address in lane l+N is D's":
 * premise -> A'[tid := tid+N] == B' on the abstracted addresses. */
static ProofClaim shift_claim(Ctx *c, const Term *A, const Term *B, int64_t n)
{
    const Term *a = abstract(c, A, 0), *b = abstract(c, B, 0);
    if (!a || !b) a = A, b = B; /* the real terms, uninterpreted functions and all */
    return (ProofClaim){ .premise = no_wrap_premise(c, a, n, NULL, 0), .x = in_lane(c, a, n), .y = b };
}

static ProofSession *session(Ctx *c)
{
    if (!c->ps) c->ps = proof_session_new(c->tt, (unsigned)c->o.timeout_ms);
    return c->ps;
}

/* Who proves a candidate (issue 6: every accepted pair is a Z3 proof):
 *   prove=auto (default): the premise rewrite above pre-selects by
 *     normalisation (microseconds); Z3 decides the candidates it does not,
 *     and at the end of the kernel's selection Z3 confirms every accepted
 *     pair the rewrite proved (confirm_sites, one proof_all call); a pair
 *     Z3 does not prove is dropped and selection runs again without it.
 *   prove=z3: Z3 decides every candidate on its own, no rewrite (a
 *     reference: the output must be the same, at a query per candidate).
 *   prove=rewrite: the rewrite's word is final, Z3 only decides what it
 *     does not (the behaviour before issue 6, for cost studies).
 * Without Z3 (configure --without-z3) every mode is normalisation only:
 * the rewrite proves, anything else is unknown, and the kernel's remark
 * says so.  *by_z3: the solver itself proved it (no confirmation needed). */
static ProofResult prove_shift(Ctx *c, const Term *A, const Term *B, int64_t n, bool *by_z3, char *cex, size_t cap)
{
    cex[0] = 0;
    *by_z3 = false;
    if (c->o.prove != PROVE_Z3 || !proof_available()) {
        if (shift_under_premise(c, A, n, 0) == B) return PROOF_PROVED;
        if (!proof_available()) return PROOF_UNKNOWN;
    }
    ProofClaim cl = shift_claim(c, A, B, n);
    ProofResult r;
    if (c->o.prove == PROVE_Z3) {
        proof_all(session(c), &cl, 1, &r, cex, cap); /* the solver, never the normal form */
        *by_z3 = true;
        return r;
    }
    unsigned q = proof_session_queries(session(c));
    r = proof_equal_assuming(c->ps, cl.premise, cl.x, cl.y, cex, cap);
    *by_z3 = proof_session_queries(c->ps) > q; /* else the normal form decided */
    return r;
}

/* --------------------------------------------------------- selection */

typedef struct Cand {
    uint32_t src;      /* index into loads */
    int delta;
    bool check;        /* needs the runtime address check (S in a loop, or an unsigned index) */
    bool loop;         /* ... because S is in a loop */
    bool clamp;        /* ... because the addresses clamp their indices */
    const Term *a, *b; /* what the proof relates: the addresses, or their unclamped forms */
    int8_t proved;     /* -1 not yet, 0 failed, 1 proved */
    bool by_z3;        /* proved by the solver itself (else: to be confirmed) */
} Cand;

static void set_why(Load *d, Why w, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void set_why(Load *d, Why w, const char *fmt, ...)
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
    case WHY_LOOP_CLOBBER:
        return "alias: the source is in a loop that may write its memory (lanes of one warp may run different iterations together)";
    case WHY_CHECK_FORM: return "the runtime address check needs [register+offset] addresses";
    case WHY_CLOBBER: return "alias: a store, call or barrier between the loads may change the value";
    case WHY_PROOF_REFUTED: return "proof failed";
    case WHY_PROOF_UNKNOWN: return "proof unknown (time limit, or built without Z3)";
    case WHY_CHAIN: return "its partners are shuffled themselves (no shuffle over shuffle)";
    case WHY_LIMIT: return "limit: max-shuffles reached";
    }
    return "?";
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

/* A repeated source S: may anything that runs while another lane of the
 * warp goes from its S to D write S's memory?  That is any instruction of
 * S's outermost loop (the whole function when the CFG is irreducible);
 * code before the loop can only race with the other lane's load, which
 * the program's own semantics already leave undefined. */
static bool loop_clobbered(Ctx *c, const Load *s, const Load *d, uint32_t *at)
{
    if (unchanging(s, d)) return false;
    const Cfg *g = c->cfg;
    uint32_t l = c->li->innermost[s->block];
    if (l == ANA_NONE || c->li->irreducible) return clobber_in_range(c, s, 0, g->block_instr[g->n], at);
    while (c->li->loops[l].parent != ANA_NONE) l = c->li->loops[l].parent;
    const Loop *lp = &c->li->loops[l];
    for (uint32_t k = 0; k < lp->nblocks; k++) {
        uint32_t b = lp->blocks[k];
        if (clobber_in_range(c, s, g->block_instr[b], g->block_instr[b + 1], at)) return true;
    }
    return false;
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

/* Candidates of d, cheapest |N| first (legality checked, not yet proved). */
static int candidates(Ctx *c, Load *loads, int nloads, int di, Cand *out)
{
    Load *d = &loads[di];
    int n = 0;
    for (int si = 0; si < nloads; si++) {
        Load *s = &loads[si];
        if (si == di || !s->eligible) continue;
        if (!dominates(c, s, d)) {
            if (s->instr < d->instr) set_why(d, WHY_NOT_DOMINATED, "(load at line %u)", s->st->line);
            continue;
        }
        if (!str_eq(s->type, d->type)) {
            set_why(d, WHY_TYPE, "(load at line %u)", s->st->line);
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
            sa = unclamped(c, s->addr, 0), da = unclamped(c, d->addr, 0);
            if (!(sa && da && (sa != s->addr || da != d->addr) &&
                  term_solve_shift(c->tt, sa, da, c->lf.tid, -c->o.max_delta, c->o.max_delta, &N) && N != 0)) {
                set_why(d, WHY_NO_SHIFT, "%s", "");
                continue;
            }
            clamped = in_lane(c, s->addr, N) != d->addr;
            if (clamped && !c->o.clamp) {
                set_why(d, WHY_CLAMP_OFF, "(N = %d from line %u)", (int)N, s->st->line);
                continue;
            }
        }
        /* D after S's loop: S's copy is from the lane's last iteration that
         * reached S, and the address registers may have moved on since;
         * the terms cannot tell, only the runtime check can (N != 0) */
        uint32_t sl = c->li->innermost[s->block];
        if (N == 0 && sl != ANA_NONE && !loop_contains(c->li, sl, d->block)) {
            set_why(d, WHY_ITERATION, "(load at line %u)", s->st->line);
            continue;
        }
        uint32_t at;
        char text[96];
        bool loop_check = N != 0 && !iterations_together(c, s), wrap_check = false;
        if (loop_check && !c->o.loops) {
            set_why(d, WHY_LOOP_OFF, "%s", "");
            continue;
        }
        /* Lane l's D takes what lane l+N's S loaded: the proof may treat a
         * value of S's address that is not a function of the lane as the
         * same in both lanes only when it is warp-uniform.  N = 0 stays in
         * one lane; the loop form compares the two addresses at run time. */
        const Term *v = N != 0 && !loop_check && !clamped ? shfl_lane_varying(&c->lf, s->addr, 0) : NULL;
        if (v) {
            term_format(text, sizeof text, v);
            set_why(d, WHY_LANE_VARYING, "(%s in the address of line %u)", text, s->st->line);
            continue;
        }
        /* an unsigned index may wrap where a signed one may not */
        const Term *w = N != 0 && !loop_check && !clamped ? shfl_unsigned_may_wrap(&c->lf, s->addr, 0) : NULL;
        if (w && !c->o.unsign) {
            term_format(text, sizeof text, w);
            set_why(d, WHY_UNSIGNED, "(%s in the address of line %u)", text, s->st->line);
            continue;
        }
        wrap_check = w != NULL;
        bool check = loop_check || wrap_check || clamped;
        if (loop_check && loop_clobbered(c, s, d, &at)) {
            set_why(d, WHY_LOOP_CLOBBER, "(source at line %u, write at line %u)", s->st->line, c->cfg->instr[at]->line);
            continue;
        }
        if (check && !(reg_address(s->st) && reg_address(d->st))) {
            set_why(d, WHY_CHECK_FORM, "(line %u or %u)", s->st->line, d->st->line);
            continue;
        }
        if (clobbered_between(c, s, d, &at)) {
            set_why(d, WHY_CLOBBER, "(source at line %u, write at line %u)", s->st->line, c->cfg->instr[at]->line);
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

static bool proved(Ctx *c, Load *loads, int di, Cand *k)
{
    if (k->proved < 0) {
        char cex[256] = "";
        Load *s = &loads[k->src], *d = &loads[di];
        ProofResult r = prove_shift(c, k->a, k->b, k->delta, &k->by_z3, cex, sizeof cex);
        k->proved = r == PROOF_PROVED;
        if (r == PROOF_REFUTED) set_why(d, WHY_PROOF_REFUTED, "N = %d from line %u refuted: %s", k->delta, s->st->line, cex);
        else if (r == PROOF_UNKNOWN) set_why(d, WHY_PROOF_UNKNOWN, "N = %d from line %u", k->delta, s->st->line);
    }
    return k->proved == 1;
}

/* prove=auto: Z3 confirms the accepted pairs that only normalisation
 * proved (a fraction of a millisecond each, see proof_all).  A pair it does
 * not prove loses its proof; returns false when one did (the caller selects
 * again, and the destination may take its next candidate or stay a load). */
static bool confirm_sites(Ctx *c, Load *loads, const int *dst, Cand *const *chosen, int nsites, int *dropped)
{
    if (c->o.prove != PROVE_AUTO || !proof_available()) return true;
    ProofClaim *cl = calloc((size_t)nsites + 1, sizeof *cl);
    ProofResult *res = calloc((size_t)nsites + 1, sizeof *res);
    int *which = calloc((size_t)nsites + 1, sizeof *which);
    enum { CEX = 256 };
    char *cex = calloc((size_t)nsites + 1, CEX);
    int n = 0;
    for (int i = 0; i < nsites; i++) {
        if (chosen[i]->by_z3) continue;
        cl[n] = shift_claim(c, chosen[i]->a, chosen[i]->b, chosen[i]->delta);
        which[n++] = i;
    }
    bool all = true;
    if (n) proof_all(session(c), cl, (uint32_t)n, res, cex, CEX);
    for (int j = 0; j < n; j++) {
        Cand *k = chosen[which[j]];
        Load *d = &loads[dst[which[j]]];
        if (res[j] == PROOF_PROVED) {
            k->by_z3 = true;
            continue;
        }
        all = false;
        k->proved = 0;
        ++*dropped;
        if (res[j] == PROOF_REFUTED) /* normalisation was wrong: a bug to report */
            set_why(d, WHY_PROOF_REFUTED, "N = %d from line %u refuted by Z3 after normalisation proved it: %s", k->delta,
                    loads[k->src].st->line, cex + (size_t)j * CEX);
        else
            set_why(d, WHY_PROOF_UNKNOWN, "N = %d from line %u: Z3 did not confirm normalisation", k->delta,
                    loads[k->src].st->line);
    }
    free(cl), free(res), free(which), free(cex);
    return all;
}

/* ------------------------------------------------------------- driver */

/* Who proved the kernel's pairs (tests and studies read it). */
static void proof_remark(const Ctx *c, Remarks *rm, int nsites, int dropped, unsigned q)
{
    if (!nsites && !q) return;
    char extra[64] = "";
    const char *pairs = nsites == 1 ? "pair" : "pairs", *queries = q == 1 ? "query" : "queries";
    if (dropped) snprintf(extra, sizeof extra, "; %d dropped (not proved by Z3)", dropped);
    if (!proof_available())
        remark(rm, PASS, c->fn, NULL, REMARK_ANALYSIS, "proofs: %d %s by normalisation only (built without Z3)", nsites, pairs);
    else if (c->o.prove == PROVE_REWRITE)
        remark(rm, PASS, c->fn, NULL, REMARK_ANALYSIS, "proofs: %d %s by normalisation, not confirmed (prove=rewrite); %u Z3 %s",
               nsites, pairs, q, queries);
    else
        remark(rm, PASS, c->fn, NULL, REMARK_ANALYSIS, "proofs: %d %s proved by Z3 in %u %s%s", nsites, pairs, q, queries, extra);
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
static bool run_function(Function *fn, const Options *o, Remarks *rm, bool version_ok, Budget *bg)
{
    int mark = rm ? rm->n : 0;
    /* The analyses of this kernel go to the module arena after this mark
     * and are released before the rewrite: a module of thousands of
     * kernels then needs the analyses of one at a time, not of all. */
    analysis_invalidate(fn);
    ArenaMark analyses = arena_mark(&fn->mod->arena);
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
        analysis_invalidate(fn);
        arena_release(&fn->mod->arena, analyses);
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
        classify(fn, mi, a, &c.lf, l);
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
        if (first) ncand[d] = candidates(&c, loads, nloads, d, cands + (size_t)d * nloads);
        for (int j = 0; j < ncand[d] && !loads[d].is_dst && !budget_expired(bg); j++)
            if (proved(&c, loads, d, &cands[(size_t)d * nloads + j])) loads[d].is_dst = true;
    }
    first = false;
    /* phase 2: roots only, smallest |N|, up to max-shuffles */
    for (int d = 0; d < nloads && !budget_expired(bg); d++) {
        if (!loads[d].is_dst) continue;
        Cand *best = NULL;
        for (int j = 0; j < ncand[d] && !best && !budget_expired(bg); j++) {
            Cand *cd = &cands[(size_t)d * nloads + j];
            if (loads[cd->src].is_dst) {
                set_why(&loads[d], WHY_CHAIN, "%s", "");
                continue;
            }
            if (proved(&c, loads, d, cd)) best = cd;
        }
        if (!best) continue;
        if (nsites >= o->max_shuffles) {
            set_why(&loads[d], WHY_LIMIT, "(%ld)", o->max_shuffles);
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
                                        .src_live = src_reg_survives(&c, &loads[best->src], &loads[d]) };
        loads[best->src].uses_as_src++;
        sum_abs += abs(best->delta);
    }
    if (!budget_expired(bg) && !confirm_sites(&c, loads, site_dst, chosen, nsites, &dropped)) goto select;
    if (bg->expired) { /* nothing is emitted: unsay the kernel's remarks, leave it as it was */
        remarks_truncate(rm, mark);
        remark(rm, PASS, fn, NULL, REMARK_MISSED, "time budget exceeded (budget-ms=%ld) while analysing %d loads; kernel left unchanged",
               o->budget_ms, nloads);
        nsites = 0;
    }
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
    bool row_guard = !known_row_shape(fn);
    ShflEmitOptions eo = { .no_corner = o->no_corner, .no_load = o->no_load, .row_guard = row_guard,
                           .full_warps = known_full_warps(fn) };
    /* nothing below reads the analyses, their terms or the proofs */
    unsigned queries = proof_session_queries(c.ps);
    if (c.ps) proof_session_free(c.ps);
    c.ps = NULL;
    analysis_invalidate(fn);
    arena_release(&fn->mod->arena, analyses);
    bool need = nsites && shfl_emit(fn, sites, nsites, &eo);
    if (!bg->expired) {
        remark(rm, PASS, fn, NULL, REMARK_ANALYSIS, "loads %d, shuffles %d, mean |N| %.2f%s", nloads,
               nsites, nsites ? (double)sum_abs / nsites : 0.0,
               nsites && need && row_guard ? " (block shape unknown: runtime row guard)" : "");
        proof_remark(&c, rm, nsites, dropped, queries);
    }
    free(sites), free(site_dst), free(chosen), free(loads), free(cands), free(ncand), free(c.fwd), free(c.bwd), free(c.stack);
    return need;
}

static int shuffle_run(Module *m, const PassInvocation *inv, PassContext *ctx)
{
    Options o;
    char err[256];
    if (!read_options(inv, ctx->target_sm, &o, err, sizeof err)) { /* validated when parsed: not reached from the tools */
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
        if (run_function(fn, &o, ctx->remarks, version_ok || can_raise, &bg) && !version_ok) raise = true;
    }
    if (raise) ir_set_version(m, 6, 2);
    return 0;
}

const PassInfo pass_shuffle = {
    .name = "shuffle",
    .summary = "replace neighbour global loads with proven warp shuffles (PTXASW)",
    .function_local = false,
    .local_from_version = 602,   /* it edits the module only to raise .version to 6.2 */
    .keys = shuffle_keys,
    .run = shuffle_run,
    .validate = shuffle_validate,
};
