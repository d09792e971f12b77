/* match.c — does a value of the user's function compute what a fingerprint
 * computes?  (The library sites; research §2.4, checklist S2.)
 *
 * Both sides are functions in SSA form (analysis/ssa.h): the fingerprint a
 * small one of its own (fplib.c), the user's the kernel.  A match is a map
 * from the fingerprint's values to the user's, built backwards from the
 * output, in which every fingerprint value has a user value computed the
 * same way:
 *   - an instruction: the same opcode and modifiers, operands matched in
 *     turn (commutative ones either way round), a guarded write with the
 *     same guard and the value it keeps;
 *   - a constant: the same bits, whether an immediate, a `mov` of it, or a
 *     register only ever set to it (CSE, hoisting); powf's #P*F constants
 *     bind the exponent C once and check every other multiple of it;
 *   - a copy (`mov r, s`) on either side is looked through; an address
 *     [r+k] with r = b + k' is [b + k + k'];
 *   - a load: its address, and the memory it reads: the same stores back to
 *     the region's entry (stores to other state spaces and barriers in
 *     between cannot change local memory and are passed over);
 *   - a merge of paths (phi): the user's merge must pick its values under
 *     the same conditions.  Each side's merge becomes a decision tree from
 *     its block's immediate dominator: a node per conditional branch on the
 *     way (the branch's predicate value, then what happens when it is true
 *     and when it is false), a leaf per incoming edge; branches whose both
 *     outcomes lead to the same place fold away (code of the user's that
 *     branches around on its own, scheduled between the parts of the
 *     region), and a loop on the way that the merge is not inside is
 *     passed to its exit.  The trees must be equal, predicates matched as
 *     values and leaves as the values they pick;
 *   - a loop's merge at its header: the value entering it and the value
 *     carried round match; and the loop then leaves on the same condition
 *     (values computed in it and used after it are its last iteration's).
 *   - an input: the user value it stands for (the same one every time);
 *     a depot address: a local address of the user's depot (any offset,
 *     the same one every time); the memory at the region's entry: any.
 * Nothing here depends on where the user's instructions are: nvcc's
 * scheduling, hoisting, CSE across functions of one argument (sinf and
 * cosf share their reduction, logf and powf constants) and the layout of
 * the parts of a region do not matter; what matters is the values.
 * On failure the deepest point reached and why are kept (remarks). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opt/sfu/internal.h"
#include "analysis/dom.h"
#include "analysis/ssa.h"

/* ------------------------------------------------------------ one side */

typedef struct GNode GNode;
struct GNode {
    uint8_t kind;          /* G_LEAF, G_NONE, G_NODE */
    uint32_t pos;          /* G_LEAF: predecessor position */
    uint32_t pval, br;     /* G_NODE: predicate value, branch instruction */
    GNode *t, *f;          /* G_NODE: when the predicate is true / false */
};
enum { G_LEAF, G_NONE, G_NODE };

typedef struct Side {
    Function *fn;
    const Cfg *c;
    const Ssa *s;
    const DomTree *d;
    const LoopInfo *li;
    uint32_t mem;          /* the memory variable */
    GNode **tree;          /* [n] decision tree of the merges at each block (lazy) */
    uint8_t *tree_state;   /* [n] 0 not built, 1 built, 2 failed */
    GNode **pool;          /* every node (freed with the side) */
    uint32_t npool, cpool;
    uint32_t *loop_of_header;   /* [n] loop index + 1 */
} Side;

static void side_init(Side *sd, Function *fn)
{
    memset(sd, 0, sizeof *sd);
    sd->fn = fn;
    sd->c = cfg_get(fn);
    sd->s = ssa_get(fn);
    sd->d = dom_get(fn);
    sd->li = loops_get(fn);
    sd->mem = sd->s->nvars - 1;
    uint32_t n = sd->c->n ? sd->c->n : 1;
    sd->tree = calloc(n, sizeof *sd->tree);
    sd->tree_state = calloc(n, 1);
    sd->loop_of_header = calloc(n, sizeof *sd->loop_of_header);
    if (!sd->tree || !sd->tree_state || !sd->loop_of_header) abort();
    for (uint32_t l = 0; l < sd->li->nloops; l++) sd->loop_of_header[sd->li->loops[l].header] = l + 1;
}

static void side_free(Side *sd)
{
    for (uint32_t i = 0; i < sd->npool; i++) free(sd->pool[i]);
    free(sd->pool);
    free(sd->tree);
    free(sd->tree_state);
    free(sd->loop_of_header);
}

static GNode *gnew(Side *sd, uint8_t kind)
{
    GNode *g = calloc(1, sizeof *g);
    if (!g) abort();
    g->kind = kind;
    if (sd->npool == sd->cpool) {
        sd->cpool = sd->cpool ? sd->cpool * 2 : 64;
        sd->pool = realloc(sd->pool, sizeof *sd->pool * sd->cpool);
        if (!sd->pool) abort();
    }
    sd->pool[sd->npool++] = g;
    return g;
}

static const SsaVal *val(const Side *sd, uint32_t v) { return &sd->s->v[v]; }
static const Instr *def_instr(const Side *sd, uint32_t v) { return &sd->c->instr[val(sd, v)->instr]->u.instr; }

/* The value an operand (element) of instruction i reads; ANA_NONE if none. */
static uint32_t use_at(const Side *sd, uint32_t i, int opnd, int elem)
{
    const Ssa *s = sd->s;
    for (uint32_t u = s->use_start[i]; u < s->use_start[i + 1]; u++) {
        const SsaUse *x = &s->uses[u];
        if (x->flags & (REF_PARTIAL | REF_GUARD | REF_MEM)) continue;
        if (x->opnd == opnd && (elem < 0 || x->elem == elem)) return x->value;
    }
    return ANA_NONE;
}

static uint32_t guard_at(const Side *sd, uint32_t i)
{
    const Ssa *s = sd->s;
    for (uint32_t u = s->use_start[i]; u < s->use_start[i + 1]; u++)
        if (s->uses[u].flags & REF_GUARD) return s->uses[u].value;
    return ANA_NONE;
}

static uint32_t mem_at(const Side *sd, uint32_t i)
{
    const Ssa *s = sd->s;
    for (uint32_t u = s->use_start[i]; u < s->use_start[i + 1]; u++)
        if ((s->uses[u].flags & REF_MEM) && !(s->uses[u].flags & REF_PARTIAL)) return s->uses[u].value;
    for (uint32_t u = s->use_start[i]; u < s->use_start[i + 1]; u++)
        if (s->uses[u].flags & REF_MEM) return s->uses[u].value;
    return ANA_NONE;
}

static bool is_copy(const Instr *in)
{
    return in->op == OP_mov && !in->guard && in->nops == 2 && in->ops[0].kind == OPND_REG && !in->ops[0].comp &&
           in->ops[1].kind == OPND_REG && !in->ops[1].comp && !in->ops[1].flags && !in->ops[1].u.reg->special &&
           !in->ops[1].sel && !in->ops[0].sel;
}

/* Looks through copies and merges whose arguments are all one value. */
static uint32_t skip(const Side *sd, uint32_t v, uint32_t *copies, int *ncopies, int cap)
{
    for (int guard = 0; guard < 64 && v != ANA_NONE; guard++) {
        const SsaVal *x = val(sd, v);
        if (x->kind == SSA_DEF && !x->partial && x->reg != sd->mem) {
            const Instr *in = def_instr(sd, v);
            if (!is_copy(in)) return v;
            if (copies && *ncopies < cap) copies[(*ncopies)++] = x->instr;
            v = use_at(sd, x->instr, 1, -1);
            continue;
        }
        if (x->kind == SSA_PHI) {
            uint32_t same = ANA_NONE;
            bool trivial = true;
            for (uint32_t k = 0; k < x->nargs && trivial; k++) {
                uint32_t a = x->args[k];
                if (a == v) continue;
                if (same == ANA_NONE) same = a;
                else if (a != same) trivial = false;
            }
            if (!trivial || same == ANA_NONE) return v;
            v = same;
            continue;
        }
        return v;
    }
    return v;
}

/* The constant a value is: an unguarded mov of an immediate (bits) or of a
 * symbol's address (*sym). */
static bool const_of(const Side *sd, uint32_t v, uint64_t *bits, Str *sym)
{
    v = skip(sd, v, NULL, NULL, 0);
    if (v == ANA_NONE) return false;
    const SsaVal *x = val(sd, v);
    if (x->kind != SSA_DEF || x->partial || x->reg == sd->mem) return false;
    const Instr *in = def_instr(sd, v);
    if (in->op != OP_mov || in->guard || in->nops != 2 || x->opnd != 0) return false;
    const Operand *o = &in->ops[1];
    *sym = (Str){ 0 };
    if (o->kind == OPND_FLOAT || o->kind == OPND_INT) {
        *bits = (uint64_t)o->value;
        return true;
    }
    if (o->kind == OPND_SYM && o->value == 0) {
        *sym = opnd_text(o);
        *bits = 0;
        return true;
    }
    return false;
}

static bool is_depot_sym(Str s) { return s.len > 13 && !memcmp(s.p, "__local_depot", 13); }

/* [base + off]: the address of a value, adds of immediates folded. */
static uint32_t fold_add(const Side *sd, uint32_t v, int64_t *off)
{
    /* cvta.to.local of (cvta.local of a local address) + k is that address + k
     * (nvcc reaches the depot through %SP, its generic address, at times) */
    bool to_local = false;
    uint32_t keep = v;
    int64_t koff = *off;
    for (int guard = 0; guard < 32; guard++) {
        v = skip(sd, v, NULL, NULL, 0);
        if (v == ANA_NONE) return v;
        const SsaVal *x = val(sd, v);
        if (x->kind != SSA_DEF || x->partial || x->reg == sd->mem) break;
        const Instr *in = def_instr(sd, v);
        if (!in->guard && in->nops == 2 && str_eqc(in->full, "cvta.to.local.u64") && !to_local) {
            to_local = true;
            keep = v, koff = *off;
            v = use_at(sd, x->instr, 1, -1);
            continue;
        }
        if (!in->guard && in->nops == 2 && str_eqc(in->full, "cvta.local.u64") && to_local) {
            to_local = false;
            v = use_at(sd, x->instr, 1, -1);
            continue;
        }
        if (in->op != OP_add || in->guard || in->nops != 3 || in->ops[2].kind != OPND_INT ||
            !(str_eqc(in->full, "add.s64") || str_eqc(in->full, "add.u64")))
            break;
        *off += in->ops[2].value;
        v = use_at(sd, x->instr, 1, -1);
    }
    if (to_local) {   /* no generic depot address inside: the conversion stands */
        *off = koff;
        return keep;
    }
    return v;
}

/* Do two user values compute the same thing?  nvcc recomputes a compare or
 * an address in two places at times where the fingerprint has it once:
 * the same pure instruction over the same values (or constants). */
static bool same_value(const Side *u, uint32_t a, uint32_t b, int depth)
{
    a = skip(u, a, NULL, NULL, 0);
    b = skip(u, b, NULL, NULL, 0);
    if (a == b) return true;
    if (a == ANA_NONE || b == ANA_NONE || depth > 3) return false;
    uint64_t ka, kb;
    Str sa, sb;
    if (const_of(u, a, &ka, &sa) && const_of(u, b, &kb, &sb)) return ka == kb && str_eq(sa, sb);
    const SsaVal *x = val(u, a), *y = val(u, b);
    if (x->kind != SSA_DEF || y->kind != SSA_DEF || x->partial || y->partial || x->reg == u->mem || y->reg == u->mem ||
        x->opnd != y->opnd || x->elem != y->elem)
        return false;
    const Instr *p = def_instr(u, a), *q = def_instr(u, b);
    if (!str_eq(p->full, q->full) || p->nops != q->nops || p->guard || q->guard) return false;
    if (!(opcode_flags_full(p->full.p, p->full.len) & OPF_PURE)) return false;
    for (int k = 1; k < p->nops; k++) {
        const Operand *o1 = &p->ops[k], *o2 = &q->ops[k];
        if (o1->kind != o2->kind) return false;
        if (o1->kind == OPND_REG) {
            if (o1->comp != o2->comp || o1->u.reg->special != o2->u.reg->special) return false;
            if (o1->u.reg->special ? o1->u.reg != o2->u.reg
                                   : !same_value(u, use_at(u, x->instr, k, -1), use_at(u, y->instr, k, -1), depth + 1))
                return false;
        } else if (o1->kind == OPND_FLOAT || o1->kind == OPND_INT) {
            if (o1->value != o2->value) return false;
        } else
            return false;
    }
    return true;
}

/* ------------------------------------------------------ decision trees */

static GNode *gtree(Side *sd, uint32_t J, uint32_t b, GNode **memo, uint8_t *state, GNode **leaf, GNode *none, int depth);

static GNode *gedge(Side *sd, uint32_t J, uint32_t from, uint32_t to, GNode **memo, uint8_t *state, GNode **leaf,
                    GNode *none, int depth)
{
    if (to == J) {
        uint32_t pos = cfg_pred_pos(sd->c, J, from);
        if (pos == ANA_NONE) return NULL;
        if (!leaf[pos]) {
            leaf[pos] = gnew(sd, G_LEAF);
            leaf[pos]->pos = pos;
        }
        return leaf[pos];
    }
    if (to >= sd->c->n) return none;
    return gtree(sd, J, to, memo, state, leaf, none, depth + 1);
}

static GNode *gtree(Side *sd, uint32_t J, uint32_t b, GNode **memo, uint8_t *state, GNode **leaf, GNode *none, int depth)
{
    if (depth > 400) return NULL;
    if (state[b] == 2) return memo[b];
    if (state[b] == 1) return NULL;   /* a cycle that is not a loop passed whole */
    state[b] = 1;
    const Cfg *c = sd->c;
    GNode *r = NULL;
    uint32_t lh = sd->loop_of_header[b];
    if (lh && !loop_contains(sd->li, lh - 1, J)) {
        /* a loop the merge is not inside: on to its one exit */
        const Loop *L = &sd->li->loops[lh - 1];
        if (L->nexits == 1 && L->exits[0] < c->n) {
            uint32_t E = L->exits[0];
            if (E == J) {
                uint32_t from = ANA_NONE, nfrom = 0;
                for (uint32_t k = 0; k < cfg_npred(c, J); k++)
                    if (loop_contains(sd->li, lh - 1, cfg_preds(c, J)[k])) from = cfg_preds(c, J)[k], nfrom++;
                r = nfrom == 1 ? gedge(sd, J, from, J, memo, state, leaf, none, depth) : NULL;
            } else
                r = gtree(sd, J, E, memo, state, leaf, none, depth + 1);
        }
    } else {
        uint32_t ns = cfg_nsucc(c, b);
        const uint32_t *su = cfg_succs(c, b);
        if (c->term[b] == TERM_BRA && (c->flags[b] & CFGB_GUARDED) && ns == 2) {
            uint32_t i = c->term_instr[b];
            const Instr *in = &c->instr[i]->u.instr;
            GNode *tt = gedge(sd, J, b, su[1], memo, state, leaf, none, depth);
            GNode *ff = gedge(sd, J, b, su[0], memo, state, leaf, none, depth);
            if (tt && ff) {
                GNode *wt = in->guard_neg ? ff : tt, *wf = in->guard_neg ? tt : ff;
                if (wt == wf) r = wt;
                else {
                    r = gnew(sd, G_NODE);
                    r->pval = guard_at(sd, i);
                    r->br = i;
                    r->t = wt;
                    r->f = wf;
                }
            }
        } else if (ns == 1) {
            r = gedge(sd, J, b, su[0], memo, state, leaf, none, depth);
        } else if (ns == 0 || (c->term[b] == TERM_RET || c->term[b] == TERM_EXIT)) {
            r = none;
        }
    }
    memo[b] = r;
    state[b] = 2;
    return r;
}

/* The decision tree of the merges at block J (from its immediate dominator). */
static GNode *merge_tree(Side *sd, uint32_t J)
{
    if (sd->tree_state[J]) return sd->tree[J];
    sd->tree_state[J] = 1;
    uint32_t D = sd->d->idom[J];
    if (D == ANA_NONE || D >= sd->c->n) return NULL;
    uint32_t n = sd->c->n;
    GNode **memo = calloc(n, sizeof *memo), **leaf = calloc(cfg_npred(sd->c, J) + 1, sizeof *leaf);
    uint8_t *state = calloc(n, 1);
    GNode *none = gnew(sd, G_NONE);
    sd->tree[J] = gtree(sd, J, D, memo, state, leaf, none, 0);
    free(memo), free(leaf), free(state);
    return sd->tree[J];
}

/* ------------------------------------------------------------ matching */

struct SfuMatcher {
    Side u;
};

typedef struct LoopPair {
    uint32_t fl, ul;       /* loop indices */
} LoopPair;

typedef struct VM {
    Side *u, *f;
    const FpLib *lib;
    const SfuFingerprint *src;
    uint32_t *map;          /* [f nvalues] user value + 1 */
    uint32_t *trail;        /* fingerprint values mapped, in order */
    uint32_t ntrail, ctrail;
    uint32_t *extra;        /* user instructions matched besides value definitions (branches, copies) */
    uint32_t nextra, cextra;
    LoopPair loops[16];
    uint32_t nloops;
    bool pbound;
    double param;
    Str depot_sym[4];
    int64_t depot_off[4];
    bool depot_bound[4];
    uint32_t in_value[2];
    int progress, best;
    char why[200];
    int depth;
    uint32_t ctx_fi, ctx_ui;   /* the instructions being matched (for the reason of a failure) */
} VM;

typedef struct Mark {
    uint32_t ntrail, nextra, nloops;
    bool pbound;
    bool depot_bound[4];
} Mark;

static Mark mark(const VM *m)
{
    Mark k = { m->ntrail, m->nextra, m->nloops, m->pbound, { 0 } };
    memcpy(k.depot_bound, m->depot_bound, sizeof k.depot_bound);
    return k;
}

static void undo(VM *m, Mark k)
{
    while (m->ntrail > k.ntrail) m->map[m->trail[--m->ntrail]] = 0;
    m->nextra = k.nextra;
    m->nloops = k.nloops;
    m->pbound = k.pbound;
    memcpy(m->depot_bound, k.depot_bound, sizeof k.depot_bound);
}

static void set_map(VM *m, uint32_t fv, uint32_t uv)
{
    if (m->ntrail == m->ctrail) {
        m->ctrail = m->ctrail ? m->ctrail * 2 : 256;
        m->trail = realloc(m->trail, sizeof *m->trail * m->ctrail);
        if (!m->trail) abort();
    }
    m->trail[m->ntrail++] = fv;
    m->map[fv] = uv + 1;
}

static void add_extra(VM *m, uint32_t ui)
{
    if (m->nextra == m->cextra) {
        m->cextra = m->cextra ? m->cextra * 2 : 64;
        m->extra = realloc(m->extra, sizeof *m->extra * m->cextra);
        if (!m->extra) abort();
    }
    m->extra[m->nextra++] = ui;
}

static bool fail(VM *m, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool fail(VM *m, const char *fmt, ...)
{
    if ((int)m->ntrail > m->best) {
        m->best = (int)m->ntrail;
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(m->why, sizeof m->why, fmt, ap);
        va_end(ap);
        if (m->ctx_ui != ANA_NONE && n > 0 && (size_t)n < sizeof m->why) {
            const Stmt *us = m->u->c->instr[m->ctx_ui];
            const Stmt *fs = m->f->c->instr[m->ctx_fi];
            snprintf(m->why + n, sizeof m->why - (size_t)n, " (in %.*s at line %u, the fingerprint's %.*s)",
                     (int)us->u.instr.full.len, us->u.instr.full.p, us->line, (int)fs->u.instr.full.len,
                     fs->u.instr.full.p);
        }
    }
    return false;
}

static bool mv(VM *m, uint32_t fv, uint32_t uv);

/* The depot role (%x<k>) a fingerprint value is the entry value of, or -1. */
static int depot_role(const Side *f, uint32_t fv)
{
    fv = skip(f, fv, NULL, NULL, 0);
    if (fv == ANA_NONE) return -1;
    const SsaVal *x = val(f, fv);
    if (x->kind != SSA_ENTRY || x->reg >= f->fn->nregs) return -1;
    const Reg *r = f->fn->regs[x->reg];
    if (r->name.len < 3 || r->name.p[1] != 'x') return -1;
    int k = atoi(r->name.p + 2);
    return k >= 0 && k < 4 ? k : -1;
}

/* Depot role k is the user's depot address sym + off (the same every time). */
static bool bind_depot(VM *m, int k, Str sym, int64_t off)
{
    if (m->depot_bound[k]) {
        if (m->depot_off[k] != off || !str_eq(m->depot_sym[k], sym))
            return fail(m, "two depot addresses of the user's for one of the fingerprint");
        return true;
    }
    m->depot_bound[k] = true;
    m->depot_sym[k] = sym;
    m->depot_off[k] = off;
    return true;
}

/* The user's memory value a local load sees, past stores to other state
 * spaces and barriers (they cannot change local memory). */
static uint32_t skip_foreign_stores(const Side *u, uint32_t v)
{
    for (int guard = 0; guard < 256 && v != ANA_NONE; guard++) {
        const SsaVal *x = val(u, v);
        if (x->kind != SSA_DEF || x->prev == ANA_NONE) return v;
        const Instr *in = def_instr(u, v);
        uint32_t fl = opcode_flags_full(in->full.p, in->full.len);
        Str sp = instr_space(in);
        bool foreign = (fl & OPF_BARRIER) && !(fl & (OPF_CALL | OPF_ATOMIC));
        if ((fl & (OPF_STORE | OPF_ATOMIC)) && sp.len && !str_eqc(sp, ".local") && !(fl & OPF_CALL)) foreign = true;
        if (!foreign) return v;
        v = x->prev;
    }
    return v;
}

static const char *instr_text(const Side *sd, uint32_t i, char *buf, size_t n)
{
    const Stmt *s = sd->c->instr[i];
    snprintf(buf, n, "%.*s", (int)s->u.instr.full.len, s->u.instr.full.p);
    return buf;
}

/* A fingerprint immediate (or constant) against a user operand. */
static bool match_const_(VM *m, uint64_t fbits, Str fsym, const Side *u, const Operand *uo, uint32_t uv);

/* ... and the user's instructions that set it (a mov, copies of it) are
 * part of the region. */
static bool match_const(VM *m, uint64_t fbits, Str fsym, const Side *u, const Operand *uo, uint32_t uv)
{
    if (!match_const_(m, fbits, fsym, u, uo, uv)) return false;
    if (!uo && uv != ANA_NONE) {
        uint32_t copies[16];
        int nc = 0;
        uint32_t d = skip(u, uv, copies, &nc, 16);
        for (int k = 0; k < nc; k++) add_extra(m, copies[k]);
        if (d != ANA_NONE && val(u, d)->kind == SSA_DEF) add_extra(m, val(u, d)->instr);
    }
    return true;
}

static bool match_const_(VM *m, uint64_t fbits, Str fsym, const Side *u, const Operand *uo, uint32_t uv)
{
    uint64_t ubits = 0;
    Str usym = { 0 };
    if (uo && (uo->kind == OPND_FLOAT || uo->kind == OPND_INT)) ubits = (uint64_t)uo->value;
    else if (uo && uo->kind == OPND_SYM) usym = opnd_text(uo);
    else if (uv == ANA_NONE || !const_of(u, uv, &ubits, &usym)) return fail(m, "a constant of the fingerprint is computed");
    if (fsym.len || usym.len) {
        if (is_depot_sym(fsym) && is_depot_sym(usym)) return true;
        return fsym.len == usym.len && !memcmp(fsym.p, usym.p, fsym.len) ? true : fail(m, "a different symbol");
    }
    double factor;
    if (sfu_fplib_param(m->lib, fbits, &factor)) {
        if (ubits >> 32) return fail(m, "a constant exponent that is not an f32");
        uint32_t b32 = (uint32_t)ubits;
        float uf;
        memcpy(&uf, &b32, 4);
        if (!m->pbound) {
            double c = (double)uf / factor;
            float cf = (float)c;
            if (!isfinite(cf)) return fail(m, "a constant exponent out of range");
            m->param = cf;
            m->pbound = true;
        }
        float want = (float)(m->param * factor);
        uint32_t wb;
        memcpy(&wb, &want, 4);
        return wb == b32 ? true : fail(m, "immediate 0f%08X is not %g times the exponent %g", b32, factor, m->param);
    }
    if (fbits == ubits) return true;
    /* an f32 immediate against its f64 or integer spelling is not the same value */
    return fail(m, "immediate %#llx where the fingerprint has %#llx", (unsigned long long)ubits, (unsigned long long)fbits);
}

/* Source operand fk of fingerprint instruction fi against operand uk of user instruction ui. */
static bool match_src(VM *m, uint32_t fi, int fk, uint32_t ui, int uk, int elem)
{
    const Instr *fin = &m->f->c->instr[fi]->u.instr, *uin = &m->u->c->instr[ui]->u.instr;
    const Operand *fo = &fin->ops[fk], *uo = &uin->ops[uk];
    if (elem >= 0) {
        fo = &fo->u.elems[elem];
        uo = &uo->u.elems[elem];
    }
    switch (fo->kind) {
    case OPND_REG: {
        if (fo->u.reg->special) {
            return uo->kind == OPND_REG && uo->u.reg->special && str_eq(uo->u.reg->name, fo->u.reg->name) &&
                   uo->comp == fo->comp;
        }
        if (fo->comp || fo->flags || fo->sel) return fail(m, "an operand form the matcher does not know");
        uint32_t fv = use_at(m->f, fi, fk, elem < 0 ? 255 : elem);
        uint64_t fb;
        Str fs;
        if (fv != ANA_NONE && const_of(m->f, fv, &fb, &fs)) {
            uint32_t uv = uo->kind == OPND_REG ? use_at(m->u, ui, uk, elem < 0 ? 255 : elem) : ANA_NONE;
            return match_const(m, fb, fs, m->u, uo->kind == OPND_REG ? NULL : uo, uv);
        }
        if (uo->kind != OPND_REG || uo->comp || uo->flags || uo->sel || uo->u.reg->special)
            return fail(m, "a register where the user has an immediate");
        return mv(m, fv, use_at(m->u, ui, uk, elem < 0 ? 255 : elem));
    }
    case OPND_FLOAT:
    case OPND_INT: {
        uint32_t uv = uo->kind == OPND_REG ? use_at(m->u, ui, uk, elem < 0 ? 255 : elem) : ANA_NONE;
        return match_const(m, (uint64_t)fo->value, (Str){ 0 }, m->u, uo->kind == OPND_REG ? NULL : uo, uv);
    }
    case OPND_SYM:
        if (uo->kind != OPND_SYM || uo->value != fo->value) return fail(m, "a different symbol operand");
        if (is_depot_sym(opnd_text(fo)) && is_depot_sym(opnd_text(uo))) return true;
        return str_eq(opnd_text(fo), opnd_text(uo)) ? true : fail(m, "a different symbol operand");
    case OPND_SINK: return uo->kind == OPND_SINK;
    case OPND_ADDR: {
        if (uo->kind != OPND_ADDR || fo->n != 1 || uo->n != 1) return fail(m, "an address of another form");
        const Operand *fb = &fo->u.elems[0], *ub = &uo->u.elems[0];
        int64_t foff = fo->value, uoff = uo->value;
        if (fb->kind == OPND_SYM || ub->kind == OPND_SYM) {
            return fb->kind == OPND_SYM && ub->kind == OPND_SYM && str_eq(opnd_text(fb), opnd_text(ub)) &&
                           foff + fb->value == uoff + ub->value
                       ? true
                       : fail(m, "a different address");
        }
        if (fb->kind != OPND_REG || ub->kind != OPND_REG) return fail(m, "an address of another form");
        uint32_t fv = fold_add(m->f, use_at(m->f, fi, fk, 0), &foff);
        uint32_t uv = fold_add(m->u, use_at(m->u, ui, uk, 0), &uoff);
        if (fv == ANA_NONE || uv == ANA_NONE) return fail(m, "an address of another form");
        int k = depot_role(m->f, fv);
        if (k >= 0) {
            /* a depot address of the fingerprint: one of the user's, at the offset bound once */
            uint64_t bits;
            Str sym;
            if (!const_of(m->u, uv, &bits, &sym) || !is_depot_sym(sym))
                return fail(m, "a depot address of the fingerprint is not one of the user's");
            return bind_depot(m, k, sym, uoff - foff);
        }
        if (foff != uoff) return fail(m, "an address at another offset");
        return mv(m, fv, uv);
    }
    case OPND_VEC:
    case OPND_PAIR:
        if (uo->kind != fo->kind || uo->n != fo->n) return fail(m, "a vector of another form");
        for (int e = 0; e < fo->n; e++)
            if (!match_src(m, fi, fk, ui, uk, e)) return false;
        return true;
    default: return fail(m, "an operand form the matcher does not know");
    }
}

static bool commutative(const Instr *in)
{
    if (in->nops < 3) return false;
    switch (in->op) {
    case OP_add: case OP_mul: case OP_min: case OP_max: case OP_and: case OP_or: case OP_xor: return in->nops == 3;
    case OP_fma: case OP_mad: return in->nops == 4;
    default: return false;
    }
}

/* The source operands of a matched instruction pair, operand by operand
 * (commutative ones also the other way round). */
static bool match_operands(VM *m, uint32_t fi, uint32_t ui, int first)
{
    const Instr *fin = &m->f->c->instr[fi]->u.instr;
    Mark k = mark(m);
    bool ok = true;
    for (int j = first; j < fin->nops && ok; j++) ok = match_src(m, fi, j, ui, j, -1);
    if (ok || !commutative(fin) || first != 1) return ok;
    undo(m, k);
    ok = match_src(m, fi, 1, ui, 2, -1) && match_src(m, fi, 2, ui, 1, -1);
    for (int j = 3; j < fin->nops && ok; j++) ok = match_src(m, fi, j, ui, j, -1);
    if (!ok) undo(m, k);
    return ok;
}

static const Loop *loop_at(const Side *sd, uint32_t header) { return &sd->li->loops[sd->loop_of_header[header] - 1]; }

static bool note_loop(VM *m, uint32_t fl, uint32_t ul)
{
    for (uint32_t k = 0; k < m->nloops; k++) {
        if (m->loops[k].fl == fl) return m->loops[k].ul == ul ? true : fail(m, "one loop of the fingerprint is two of the user's");
        if (m->loops[k].ul == ul) return fail(m, "two loops of the fingerprint are one of the user's");
    }
    if (m->nloops == 16) return fail(m, "too many loops");
    m->loops[m->nloops++] = (LoopPair){ fl, ul };
    return true;
}

static bool match_tree(VM *m, const GNode *ft, const GNode *ut, const SsaVal *fp, const SsaVal *up)
{
    if (!ft || !ut) return fail(m, "a merge whose paths the matcher cannot follow");
    if (ft->kind != ut->kind) return fail(m, "a merge whose paths are decided differently");
    switch (ft->kind) {
    case G_NONE: return true;
    case G_LEAF: return mv(m, fp->args[ft->pos], up->args[ut->pos]);
    default:
        if (!mv(m, ft->pval, ut->pval)) return false;
        add_extra(m, ut->br);
        return match_tree(m, ft->t, ut->t, fp, up) && match_tree(m, ft->f, ut->f, fp, up);
    }
}

static bool mv_def_body(VM *m, uint32_t fv, uint32_t uv, const SsaVal *fx, const SsaVal *ux, const Instr *fin);

static bool mv_def(VM *m, uint32_t fv, uint32_t uv)
{
    const SsaVal *fx = val(m->f, fv), *ux = val(m->u, uv);
    char b1[48], b2[48];
    if (ux->kind != SSA_DEF) return fail(m, "%s is a merge of paths in the user's code", instr_text(m->f, fx->instr, b1, sizeof b1));
    const Instr *fin = def_instr(m->f, fv), *uin = def_instr(m->u, uv);
    if (!str_eq(fin->full, uin->full) || fin->nops != uin->nops)
        return fail(m, "%s where the fingerprint has %s", instr_text(m->u, ux->instr, b2, sizeof b2),
                    instr_text(m->f, fx->instr, b1, sizeof b1));
    if (fx->opnd != ux->opnd || fx->elem != ux->elem || fx->partial != ux->partial || (fin->guard != NULL) != (uin->guard != NULL) ||
        fin->guard_neg != uin->guard_neg)
        return fail(m, "%s writes another part or under another guard", instr_text(m->u, ux->instr, b2, sizeof b2));
    set_map(m, fv, uv);
    m->progress++;
    uint32_t sfi = m->ctx_fi, sui = m->ctx_ui;
    m->ctx_fi = fx->instr, m->ctx_ui = ux->instr;
    bool ok = mv_def_body(m, fv, uv, fx, ux, fin);
    m->ctx_fi = sfi, m->ctx_ui = sui;
    return ok;
}

static bool mv_def_body(VM *m, uint32_t fv, uint32_t uv, const SsaVal *fx, const SsaVal *ux, const Instr *fin)
{
    (void)fv, (void)uv;
    if (fin->guard && !mv(m, guard_at(m->f, fx->instr), guard_at(m->u, ux->instr))) return false;
    if (fx->partial && !mv(m, fx->prev, fx->reg == m->f->mem ? skip_foreign_stores(m->u, ux->prev) : ux->prev)) return false;
    /* a store's value is memory: its address and stored value are operands 0.. */
    bool store = fx->reg == m->f->mem;
    if (!match_operands(m, fx->instr, ux->instr, store ? 0 : 1)) return false;
    uint32_t fm = mem_at(m->f, fx->instr);
    if (!store && fm != ANA_NONE) {
        uint32_t um = mem_at(m->u, ux->instr);
        if (um == ANA_NONE) return fail(m, "a load that reads no memory in the user's code");
        if (!mv(m, fm, skip_foreign_stores(m->u, um))) return false;
    }
    return true;
}

/* ------------------------------------------------------ affine values */

/* A value that is base + off + step * k in the k-th iteration (k = 0, 1,
 * ...) of a loop: nvcc walks the reduction's tables with pointers in one
 * kernel (a loop merge stepping by 4) and indexes them in another (base +
 * (i << 2) from a counter): the same values.  loop: index + 1, 0 when the
 * value does not change in any loop; base: a value (ANA_NONE: none). */
typedef struct Aff {
    uint32_t loop, base;
    int64_t off, step;
} Aff;

static bool int_cvt(const Instr *in)
{
    return in->op == OP_cvt && !in->guard && in->nops == 2 &&
           (str_eqc(in->full, "cvt.u32.u64") || str_eqc(in->full, "cvt.s64.s32") || str_eqc(in->full, "cvt.u64.u32") ||
            str_eqc(in->full, "cvt.s32.s64") || str_eqc(in->full, "cvt.u64.s32"));
}

/* v reached from `from` by copies, integer conversions and adds of
 * immediates: the sum of the immediates. */
static bool steps_from(const Side *sd, uint32_t v, uint32_t from, int64_t *c, uint32_t *seen, int *nseen)
{
    *c = 0;
    for (int guard = 0; guard < 16; guard++) {
        v = skip(sd, v, seen, nseen, 64);
        if (v == from) return true;
        const SsaVal *x = val(sd, v);
        if (x->kind != SSA_DEF || x->partial) return false;
        const Instr *in = def_instr(sd, v);
        if (*nseen < 64) seen[(*nseen)++] = x->instr;
        if (int_cvt(in)) {
            v = use_at(sd, x->instr, 1, -1);
            continue;
        }
        if (in->op == OP_add && !in->guard && in->nops == 3 && in->ops[2].kind == OPND_INT) {
            *c += in->ops[2].value;
            v = use_at(sd, x->instr, 1, -1);
            continue;
        }
        return false;
    }
    return false;
}

static bool affine(const Side *sd, uint32_t v, Aff *a, uint32_t *seen, int *nseen, int depth)
{
    v = skip(sd, v, seen, nseen, 64);
    *a = (Aff){ 0, v, 0, 0 };
    if (v == ANA_NONE || depth > 12) return false;
    uint64_t bits;
    Str sym;
    if (const_of(sd, v, &bits, &sym) && !sym.len) {
        const Instr *in = def_instr(sd, v);
        if (in->ops[1].kind == OPND_INT) *a = (Aff){ 0, ANA_NONE, (int64_t)bits, 0 };
        if (*nseen < 64) seen[(*nseen)++] = val(sd, v)->instr;
        return true;
    }
    const SsaVal *x = val(sd, v);
    if (x->kind == SSA_PHI) {
        uint32_t lh = sd->loop_of_header[x->block];
        if (!lh || x->nargs != 2) return true;   /* opaque */
        int in_ = loop_contains(sd->li, lh - 1, cfg_preds(sd->c, x->block)[0]) ? 1 : 0;
        Aff init;
        int64_t c;
        if (!affine(sd, x->args[in_], &init, seen, nseen, depth + 1) || init.loop ||
            !steps_from(sd, x->args[1 - in_], v, &c, seen, nseen))
            return true;   /* opaque */
        *a = (Aff){ lh, init.base, init.off, c };
        return true;
    }
    if (x->kind != SSA_DEF || x->partial || x->reg == sd->mem) return true;
    const Instr *in = def_instr(sd, v);
    if (in->guard) return true;
    uint32_t i = x->instr;
    if (int_cvt(in)) {
        if (*nseen < 64) seen[(*nseen)++] = i;
        return affine(sd, use_at(sd, i, 1, -1), a, seen, nseen, depth + 1);
    }
    bool add = in->op == OP_add && in->nops == 3, shl = in->op == OP_shl && in->nops == 3 && in->ops[2].kind == OPND_INT;
    bool mul = (in->op == OP_mul) && in->nops == 3 && in->ops[2].kind == OPND_INT &&
               (instr_has_mod(in, ".lo") || instr_has_mod(in, ".wide"));
    if (!add && !shl && !mul) return true;
    Aff p, q = { 0, ANA_NONE, 0, 0 };
    int save = *nseen;
    affine(sd, use_at(sd, i, 1, -1), &p, seen, nseen, depth + 1);
    if (add) {
        if (in->ops[2].kind == OPND_INT) q.off = in->ops[2].value;
        else affine(sd, use_at(sd, i, 2, -1), &q, seen, nseen, depth + 1);
        if ((p.loop && q.loop && p.loop != q.loop) || (p.base != ANA_NONE && q.base != ANA_NONE) || (!p.loop && !q.loop)) {
            *nseen = save;
            return true;   /* opaque */
        }
        *a = (Aff){ p.loop ? p.loop : q.loop, p.base != ANA_NONE ? p.base : q.base, p.off + q.off, p.step + q.step };
    } else {
        if (!p.loop || p.base != ANA_NONE) {
            *nseen = save;
            return true;
        }
        int64_t k = in->ops[2].value;
        *a = shl ? (Aff){ p.loop, ANA_NONE, p.off << k, p.step << k } : (Aff){ p.loop, ANA_NONE, p.off * k, p.step * k };
    }
    if (*nseen < 64) seen[(*nseen)++] = i;
    return true;
}

/* fv and uv as affine values of paired loops: the same base, offset and
 * step (the loops' exit conditions are checked when the match ends). */
static bool affine_match(VM *m, uint32_t fv, uint32_t uv)
{
    uint32_t fs[64], us[64];
    int nf = 0, nu = 0;
    Aff a, b;
    affine(m->f, fv, &a, fs, &nf, 0);
    affine(m->u, uv, &b, us, &nu, 0);
    if (!a.loop || !b.loop) return fail(m, "a loop's merge against a value that is not one");
    if (a.step != b.step || a.off != b.off) return fail(m, "a value stepping by %lld from %lld in the fingerprint's loop, by %lld from %lld in the user's",
                                                       (long long)a.step, (long long)a.off, (long long)b.step, (long long)b.off);
    if ((a.base == ANA_NONE) != (b.base == ANA_NONE)) return fail(m, "a loop's value from another kind of start");
    if (!note_loop(m, a.loop - 1, b.loop - 1)) return false;
    set_map(m, fv, uv);
    if (a.base != ANA_NONE && !mv(m, a.base, b.base)) return false;
    for (int k = 0; k < nu; k++) add_extra(m, us[k]);
    return true;
}

static bool mv(VM *m, uint32_t fv, uint32_t uv)
{
    if (fv == ANA_NONE || uv == ANA_NONE) return fail(m, "a value the matcher cannot follow");
    if (++m->depth > 2000) {
        m->depth--;
        return fail(m, "too deep");
    }
    uint32_t copies[16];
    int ncopies = 0;
    fv = skip(m->f, fv, NULL, NULL, 0);
    uv = skip(m->u, uv, copies, &ncopies, 16);
    if (getenv("PTXOPT_SFU_TRACE")) {
        char b1[48], b2[48];
        const SsaVal *a = val(m->f, fv), *b = val(m->u, uv);
        fprintf(stderr, "%*smv f%u(%s %s line %u) u%u(%s %s line %u)\n", m->depth, "", fv,
                a->kind == SSA_DEF ? "def" : a->kind == SSA_PHI ? "phi" : "entry",
                a->kind == SSA_DEF ? instr_text(m->f, a->instr, b1, sizeof b1) : "", a->kind == SSA_DEF ? m->f->c->instr[a->instr]->line : 0,
                uv, b->kind == SSA_DEF ? "def" : b->kind == SSA_PHI ? "phi" : "entry",
                b->kind == SSA_DEF ? instr_text(m->u, b->instr, b2, sizeof b2) : "", b->kind == SSA_DEF ? m->u->c->instr[b->instr]->line : 0);
    }
    bool ok = false;
    if (m->map[fv]) {
        ok = m->map[fv] - 1 == uv || same_value(m->u, m->map[fv] - 1, uv, 0)
                 ? true
                 : fail(m, "one value of the fingerprint is two of the user's");
        goto out;
    }
    uint64_t fb;
    Str fs;
    if (const_of(m->f, fv, &fb, &fs)) {
        ok = match_const(m, fb, fs, m->u, NULL, uv);
        goto out;
    }
    const SsaVal *fx = val(m->f, fv), *ux = val(m->u, uv);
    /* a loop's stepping value spelled differently on the two sides */
    if ((fx->kind == SSA_PHI && m->f->loop_of_header[fx->block] && ux->kind == SSA_DEF) ||
        (ux->kind == SSA_PHI && m->u->loop_of_header[ux->block] && fx->kind == SSA_DEF)) {
        ok = affine_match(m, fv, uv);
        goto out;
    }
    switch (fx->kind) {
    case SSA_ENTRY: {
        if (fx->reg == m->f->mem) {
            if (ux->reg != m->u->mem) { ok = fail(m, "memory against a register"); break; }
            set_map(m, fv, uv);
            ok = true;
            break;
        }
        const Reg *r = m->f->fn->regs[fx->reg];
        if (r->name.len > 2 && r->name.p[1] == 'i') {
            int k = r->name.p[2] - '0';
            if (ux->reg == m->u->mem) { ok = fail(m, "an input against memory"); break; }
            (void)k;
            set_map(m, fv, uv);
            ok = true;
        } else if (r->name.len > 2 && r->name.p[1] == 'x') {
            /* a depot address: the user's value must be one (any offset, bound once) */
            int64_t off = 0;
            uint32_t b = fold_add(m->u, uv, &off);
            uint64_t bits;
            Str sym;
            if (b == ANA_NONE || !const_of(m->u, b, &bits, &sym) || !is_depot_sym(sym)) {
                ok = fail(m, "a depot address of the fingerprint is not one of the user's");
                break;
            }
            ok = bind_depot(m, depot_role(m->f, fv), sym, off);
        } else
            ok = true;   /* read before written in the fingerprint: undefined on that path, any value */
        break;
    }
    case SSA_DEF:
        ok = mv_def(m, fv, uv);
        break;
    case SSA_PHI: {
        if (ux->kind != SSA_PHI) { ok = fail(m, "a merge of the fingerprint's paths is not one in the user's code"); break; }
        uint32_t fb2 = fx->block, ub = ux->block;
        bool fhead = m->f->loop_of_header[fb2] != 0, uhead = m->u->loop_of_header[ub] != 0;
        if (fhead != uhead) { ok = fail(m, "a loop's merge against a merge that is not one"); break; }
        set_map(m, fv, uv);
        m->progress++;
        if (fhead) {
            const Loop *FL = loop_at(m->f, fb2), *UL = loop_at(m->u, ub);
            if (fx->nargs != 2 || ux->nargs != 2) { ok = fail(m, "a loop entered or repeated from more than one place"); break; }
            int fin_ = loop_contains(m->f->li, m->f->loop_of_header[fb2] - 1, cfg_preds(m->f->c, fb2)[0]) ? 1 : 0;
            int uin_ = loop_contains(m->u->li, m->u->loop_of_header[ub] - 1, cfg_preds(m->u->c, ub)[0]) ? 1 : 0;
            (void)FL, (void)UL;
            ok = note_loop(m, m->f->loop_of_header[fb2] - 1, m->u->loop_of_header[ub] - 1) &&
                 mv(m, fx->args[fin_], ux->args[uin_]) && mv(m, fx->args[1 - fin_], ux->args[1 - uin_]);
        } else {
            if (fx->nargs != ux->nargs) { ok = fail(m, "a merge of %u paths against one of %u", fx->nargs, ux->nargs); break; }
            ok = match_tree(m, merge_tree(m->f, fb2), merge_tree(m->u, ub), fx, ux);
        }
        break;
    }
    }
out:
    if (ok)
        for (int k = 0; k < ncopies; k++) add_extra(m, copies[k]);
    m->depth--;
    return ok;
}

/* A loop's one way out: (predicate value, true when the loop repeats), and
 * the branch; false when it has another shape. */
static bool loop_exit(const Side *sd, uint32_t l, uint32_t *pval, bool *repeat_when, uint32_t *br)
{
    const Loop *L = &sd->li->loops[l];
    const Cfg *c = sd->c;
    uint32_t found = 0;
    for (uint32_t k = 0; k < L->nblocks; k++) {
        uint32_t b = L->blocks[k];
        bool leaves = false;
        for (uint32_t j = 0; j < cfg_nsucc(c, b); j++) leaves |= !loop_contains(sd->li, l, cfg_succs(c, b)[j]);
        if (!leaves) continue;
        if (++found > 1) return false;
        if (c->term[b] != TERM_BRA || !(c->flags[b] & CFGB_GUARDED) || cfg_nsucc(c, b) != 2) return false;
        uint32_t i = c->term_instr[b];
        bool taken_in = loop_contains(sd->li, l, cfg_succs(c, b)[1]);
        *pval = guard_at(sd, i);
        *repeat_when = taken_in != c->instr[i]->u.instr.guard_neg;
        *br = i;
    }
    return found == 1;
}

SfuMatcher *sfu_matcher_new(Function *fn)
{
    SfuMatcher *s = calloc(1, sizeof *s);
    if (!s) abort();
    side_init(&s->u, fn);
    return s;
}

void sfu_matcher_free(SfuMatcher *s)
{
    if (!s) return;
    side_free(&s->u);
    free(s);
}

/* The fingerprints' sides: built once (the parsed fingerprints never change). */
static Side *fp_side(const FpLib *l, int index)
{
    static Side **sides;
    static int nsides;
    if (!sides) {
        nsides = sfu_fingerprint_count();
        sides = calloc((size_t)(nsides ? nsides : 1), sizeof *sides);
        if (!sides) abort();
    }
    if (index < 0 || index >= nsides) return NULL;
    if (!sides[index]) {
        sides[index] = calloc(1, sizeof **sides);
        if (!sides[index]) abort();
        side_init(sides[index], sfu_fplib_function(l));
    }
    return sides[index];
}

uint32_t sfu_fp_output(const FpLib *l, int index, bool *is_phi, Str *def_full)
{
    Side *f = fp_side(l, index);
    uint32_t lx = cfg_label_block(f->c, STR_LIT("$LX"));
    if (lx == ANA_NONE || f->c->block_instr[lx] == f->c->block_instr[lx + 1]) return ANA_NONE;
    /* `$LX: mov %__out, <output>; ret;` */
    uint32_t v = skip(f, use_at(f, f->c->block_instr[lx], 1, -1), NULL, NULL, 0);
    if (v == ANA_NONE) return v;
    *is_phi = val(f, v)->kind == SSA_PHI;
    *def_full = val(f, v)->kind == SSA_DEF ? def_instr(f, v)->full : (Str){ 0 };
    return v;
}

/* The library's final `selp o, K, v, p` (or `selp o, v, K, p`) into which
 * nvcc folded an operation with a constant s: `selp U, K op s, B, q` with
 * B = v op s (-2 * logf(x): selp(x == 0 ? +inf : -2 * v)).  The site then
 * computes f(x) op s. */
static bool selp_fold(VM *m, uint32_t fo, uint32_t uv, SfuMatch *out)
{
    const SsaVal *fx = val(m->f, fo), *ux = val(m->u, uv);
    const Instr *fin = def_instr(m->f, fo), *uin = def_instr(m->u, uv);
    if (fin->op != OP_selp || !str_eqc(fin->full, "selp.f32") || !str_eq(fin->full, uin->full) || fin->guard || uin->guard)
        return false;
    for (int k = 1; k <= 2; k++) {
        uint64_t kb;
        Str ks;
        uint32_t fk = use_at(m->f, fx->instr, k, -1);
        const Operand *fo_k = &fin->ops[k];
        bool fconst = fo_k->kind == OPND_FLOAT ? (kb = (uint64_t)fo_k->value, true)
                                                : fk != ANA_NONE && const_of(m->f, fk, &kb, &ks) && !ks.len;
        if (!fconst) continue;
        int vk = 3 - k;
        /* the user's constant arm and operation arm */
        uint64_t ub;
        Str us;
        const Operand *uo_k = &uin->ops[k];
        uint32_t uk = use_at(m->u, ux->instr, k, -1);
        bool uconst = uo_k->kind == OPND_FLOAT ? (ub = (uint64_t)uo_k->value, true)
                                                : uk != ANA_NONE && const_of(m->u, uk, &ub, &us) && !us.len;
        uint32_t bv = use_at(m->u, ux->instr, vk, -1);
        if (!uconst || bv == ANA_NONE) return false;
        bv = skip(m->u, bv, NULL, NULL, 0);
        const SsaVal *bx = val(m->u, bv);
        if (bx->kind != SSA_DEF || bx->partial) return false;
        const Instr *bin = def_instr(m->u, bv);
        bool ftz = instr_has_mod(bin, ".ftz");
        if (!bin->guard && bin->nops == 2 && str_eqc(bin->full, ftz ? "neg.ftz.f32" : "neg.f32") && !(kb >> 32) &&
            !(ub >> 32) && ((uint32_t)kb ^ 0x80000000u) == (uint32_t)ub) {
            /* -f(x): selp(c ? -K : -v) */
            Mark mk = mark(m);
            set_map(m, fo, uv);
            m->progress++;
            if (mv(m, use_at(m->f, fx->instr, vk, -1), use_at(m->u, bx->instr, 1, -1)) &&
                mv(m, use_at(m->f, fx->instr, 3, -1), use_at(m->u, ux->instr, 3, -1))) {
                add_extra(m, bx->instr);
                out->tail = '-';
                return true;
            }
            undo(m, mk);
            return false;
        }
        char op = str_eqc(bin->full, ftz ? "mul.ftz.f32" : "mul.f32") ? '*'
                  : str_eqc(bin->full, ftz ? "add.ftz.f32" : "add.f32") ? '+' : 0;
        if (!op || bin->guard || bin->nops != 3) return false;
        for (int j = 1; j <= 2; j++) {
            const Operand *so = &bin->ops[j];
            uint64_t sb;
            Str ss;
            uint32_t sv = use_at(m->u, bx->instr, j, -1);
            bool sconst = so->kind == OPND_FLOAT ? (sb = (uint64_t)so->value, true)
                                                  : sv != ANA_NONE && const_of(m->u, sv, &sb, &ss) && !ss.len;
            if (!sconst || (sb >> 32) || (kb >> 32) || (ub >> 32)) continue;
            float K, S, K2;
            uint32_t k32 = (uint32_t)kb, s32 = (uint32_t)sb, u32 = (uint32_t)ub;
            memcpy(&K, &k32, 4), memcpy(&S, &s32, 4), memcpy(&K2, &u32, 4);
            float want = op == '*' ? K * S : K + S;
            uint32_t w32;
            memcpy(&w32, &want, 4);
            if (w32 != u32) continue;
            Mark mk = mark(m);
            set_map(m, fo, uv);
            m->progress++;
            uint32_t fv = use_at(m->f, fx->instr, vk, -1), vv = use_at(m->u, bx->instr, 3 - j, -1);
            if (mv(m, fv, vv) && mv(m, use_at(m->f, fx->instr, 3, -1), use_at(m->u, ux->instr, 3, -1))) {
                add_extra(m, bx->instr);
                out->tail = op;
                out->tail_opnd = *so;
                if (so->kind == OPND_REG) {
                    /* the constant as an immediate (its register may not hold it where the site's code goes) */
                    char buf[16];
                    snprintf(buf, sizeof buf, "0f%08X", s32);
                    size_t n = strlen(buf);
                    Module *um = m->u->fn->mod;
                    out->tail_opnd = (Operand){ .kind = OPND_FLOAT, .text = arena_strndup(&um->arena, buf, n),
                                                .textlen = (uint32_t)n, .value = s32 };
                }
                return true;
            }
            undo(m, mk);
        }
        return false;
    }
    return false;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* The user instructions of a (partial) match, sorted, once each. */
static int collect(const VM *m, uint32_t **out)
{
    uint32_t n = 0, cap = m->ntrail + m->nextra + 1;
    uint32_t *v = malloc(sizeof *v * cap);
    if (!v) abort();
    for (uint32_t k = 0; k < m->ntrail; k++) {
        uint32_t uv = m->map[m->trail[k]] - 1;
        const SsaVal *x = val(m->u, uv);
        const SsaVal *fx = val(m->f, m->trail[k]);
        if (x->kind == SSA_DEF && fx->kind == SSA_DEF) v[n++] = x->instr;
    }
    for (uint32_t k = 0; k < m->nextra; k++) v[n++] = m->extra[k];
    qsort(v, n, sizeof *v, cmp_u32);
    uint32_t w = 0;
    for (uint32_t k = 0; k < n; k++)
        if (!w || v[w - 1] != v[k]) v[w++] = v[k];
    *out = v;
    return (int)w;
}

void sfu_match(SfuMatcher *sess, const FpLib *l, int index, uint32_t user_value, SfuMatch *out)
{
    memset(out, 0, sizeof *out);
    Side *f = fp_side(l, index);
    bool is_phi;
    Str full;
    uint32_t fo = sfu_fp_output(l, index, &is_phi, &full);
    if (fo == ANA_NONE) {
        snprintf(out->why, sizeof out->why, "fingerprint without an output");
        return;
    }
    VM m = { .u = &sess->u, .f = f, .lib = l, .src = sfu_fplib_source(l), .ctx_fi = ANA_NONE, .ctx_ui = ANA_NONE, .best = -1 };
    m.map = calloc(f->s->nvalues, sizeof *m.map);
    if (!m.map) abort();
    m.in_value[0] = m.in_value[1] = ANA_NONE;
    uint32_t uv = user_value;
    const SsaVal *ux = val(m.u, uv);
    bool ok;
    /* the library's final mul contracted with an add: fma d, a, b, c = f(x) + c */
    const SsaVal *fx = val(f, fo);
    if (fx->kind == SSA_DEF && ux->kind == SSA_DEF && !ux->partial) {
        const Instr *fin = def_instr(f, fo), *uin = def_instr(m.u, uv);
        bool ftz = instr_has_mod(fin, ".ftz");
        if (str_eqc(fin->full, ftz ? "mul.ftz.f32" : "mul.f32") && str_eqc(uin->full, ftz ? "fma.rn.ftz.f32" : "fma.rn.f32") &&
            !fin->guard && !uin->guard) {
            set_map(&m, fo, uv);
            m.progress++;
            Mark k = mark(&m);
            ok = match_src(&m, fx->instr, 1, ux->instr, 1, -1) && match_src(&m, fx->instr, 2, ux->instr, 2, -1);
            if (!ok) {
                undo(&m, k);
                ok = match_src(&m, fx->instr, 1, ux->instr, 2, -1) && match_src(&m, fx->instr, 2, ux->instr, 1, -1);
            }
            out->tail = '+';
            out->tail_opnd = uin->ops[3];
            goto verify;
        }
    }
    if (fx->kind == SSA_DEF && ux->kind == SSA_DEF && !ux->partial && selp_fold(&m, fo, uv, out)) {
        ok = true;
        goto verify;
    }
    ok = mv(&m, fo, uv);
verify:
    /* every loop the match went through leaves on the same condition */
    for (uint32_t k = 0; ok && k < m.nloops; k++) {
        uint32_t fp_, up, fbr, ubr;
        bool fr, ur;
        if (!loop_exit(f, m.loops[k].fl, &fp_, &fr, &fbr) || !loop_exit(m.u, m.loops[k].ul, &up, &ur, &ubr)) {
            ok = fail(&m, "a loop with more than one way out");
            break;
        }
        if (fr != ur) {
            ok = fail(&m, "a loop that repeats on the opposite condition");
            break;
        }
        ok = mv(&m, fp_, up);
        if (ok) add_extra(&m, ubr);
    }
    const SfuFingerprint *src = m.src;
    for (int k = 0; k < 2; k++) {   /* the inputs: what their entry values map to */
        char nm[8];
        snprintf(nm, sizeof nm, "%%i%d", k);
        Reg *r = ir_find_reg(f->fn, str_c(nm));
        m.in_value[k] = r && m.map[r->id] ? m.map[r->id] - 1 : ANA_NONE;
    }
    for (int k = 0; k < src->nin && ok; k++)
        if (m.in_value[k] == ANA_NONE) ok = fail(&m, "an input the output does not depend on");
    if (ok && src->pclass[0] && !m.pbound) ok = fail(&m, "no constant exponent");
    if (ok && src->pclass[0]) {
        /* the constant's class must be one the fingerprint was generated
         * for (gen.py's pow_class): nvcc's code depends on it */
        char cls[24];
        double c = m.param;
        const char *k = c == (double)(long long)c ? ((long long)c % 2 ? "int-odd" : "int-even") : "frac";
        snprintf(cls, sizeof cls, "%s-%s", k, c < 0 ? "neg" : "pos");
        bool in = false;
        for (const char *p = src->pclass; *p && !in;) {
            size_t n = strcspn(p, ",");
            in = n == strlen(cls) && !strncmp(p, cls, n);
            p += n + (p[n] == ',');
        }
        if (!in) ok = fail(&m, "the constant exponent %g is %s, the fingerprint's are %s", c, cls, src->pclass);
    }
    uint32_t *ui;
    int nu = collect(&m, &ui);
    out->progress = m.best > (int)m.ntrail ? m.best : (int)m.ntrail;
    if (!ok) {
        snprintf(out->why, sizeof out->why, "%s", m.why[0] ? m.why : "differs");
        out->touched = malloc(sizeof *out->touched * (size_t)(nu ? nu : 1));
        for (int k = 0; k < nu; k++) out->touched[k] = m.u->c->instr[ui[k]];
        out->ntouched = nu;
    } else {
        out->ok = true;
        out->cand = malloc(sizeof *out->cand * (size_t)(nu ? nu : 1));
        for (int k = 0; k < nu; k++) out->cand[k] = m.u->c->instr[ui[k]];
        out->ncand = nu;
        out->nin = src->nin;
        for (int k = 0; k < 2; k++) out->in_value[k] = m.in_value[k];
        out->has_param = m.pbound;
        out->param = m.param;
        for (int k = 0; k < 4; k++)
            if (m.depot_bound[k]) {
                out->depot_sym[k] = m.depot_sym[k];
                out->depot_off[k] = m.depot_off[k];
                out->depot_bound[k] = true;
            }
    }
    free(ui);
    free(m.map), free(m.trail), free(m.extra);
}

void sfu_match_free(SfuMatch *m)
{
    free(m->cand);
    free(m->touched);
    m->cand = m->touched = NULL;
}

/* For the other parts of the pass: the user's side of the session. */
Function *sfu_matcher_function(const SfuMatcher *s) { return s->u.fn; }
