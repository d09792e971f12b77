/* trips.c — how many times a block runs per thread, for the profitability
 * gate (issue 22: "loop trip counts where known; weight the body; where
 * unknown, say what it assumes").
 *
 * A loop's trip count is known when it has one exiting block, whose branch
 * tests a setp of a value affine in the loop's iteration count (an
 * induction variable: init + step * iteration, both constants) against a
 * constant: the test is then run on the constants until it leaves (at most
 * 2^20 iterations).  A block weighs the product of the trip counts of its
 * loops; an unknown trip count counts as 1 (the loop runs at least once,
 * as the gate assumes, and the fixed costs at kernel entry are then
 * amortised over the least the body can do; with T iterations the sites
 * and their per-iteration costs scale by T alike, so a rewrite that pays
 * at T = 1 pays at every T). */
#include "opt/shuffle/internal.h"

static unsigned bits_of(Str t)
{
    unsigned w = 0;
    for (size_t i = 2; i < t.len && t.p[i] >= '0' && t.p[i] <= '9'; i++) w = w * 10 + (unsigned)(t.p[i] - '0');
    return t.len >= 3 && (t.p[1] == 's' || t.p[1] == 'u' || t.p[1] == 'b') ? w : 0;
}

/* The value of `setp.<cmp>.<type> a, b` on constants; -1 when unknown. */
static int compare(const Instr *in, uint64_t a, uint64_t b, unsigned w)
{
    if (instr_has_mod(in, ".and") || instr_has_mod(in, ".or") || instr_has_mod(in, ".xor")) return -1;
    Str ty = instr_type(in);
    bool sg = ty.len >= 2 && ty.p[1] == 's';
    uint64_t mask = w >= 64 ? ~0ull : (1ull << w) - 1;
    a &= mask, b &= mask;
    int64_t sa = (int64_t)(a << (64 - w)) >> (64 - w), sb = (int64_t)(b << (64 - w)) >> (64 - w);
    static const char *const mods[] = { ".eq", ".ne", ".lt", ".le", ".gt", ".ge", ".lo", ".ls", ".hi", ".hs" };
    for (int k = 0; k < 10; k++) {
        if (!instr_has_mod(in, mods[k])) continue;
        bool uns = k >= 6 || !sg;
        switch (k) {
        case 0: return a == b;
        case 1: return a != b;
        case 2: case 6: return uns ? a < b : sa < sb;
        case 3: case 7: return uns ? a <= b : sa <= sb;
        case 4: case 8: return uns ? a > b : sa > sb;
        case 5: case 9: return uns ? a >= b : sa >= sb;
        }
    }
    return -1;
}

/* t == k + c * ITER(l) with constants k and c: true and both. */
static bool affine_in_iter(Ctx *c, const Term *t, uint32_t l, uint64_t *k, uint64_t *coef)
{
    const Term *it = term_atom(c->tt, t->width, ATOM_ITER, (Str){ "", 0 }, 0, l, 0);
    if (!term_linear_in(c->tt, t, it, coef)) return false;
    const Term *rest = term_sub(c->tt, t, term_scale(c->tt, it, *coef));
    if (rest->op != T_CONST) return false;
    *k = rest->k;
    return true;
}

static int64_t trip_count(Ctx *c, uint32_t l)
{
    const LoopInfo *li = c->li;
    const Cfg *g = c->cfg;
    const Loop *L = &li->loops[l];
    uint32_t exiting = ANA_NONE;
    for (uint32_t i = 0; i < L->nblocks; i++) {
        uint32_t b = L->blocks[i];
        for (uint32_t j = 0; j < cfg_nsucc(g, b); j++)
            if (!loop_contains(li, l, cfg_succs(g, b)[j])) {
                if (exiting != ANA_NONE && exiting != b) return 0;
                exiting = b;
            }
    }
    if (exiting == ANA_NONE || g->term[exiting] != TERM_BRA || !(g->flags[exiting] & CFGB_GUARDED)) return 0;
    uint32_t ti = g->term_instr[exiting];
    const Instr *br = &g->instr[ti]->u.instr;
    if (!br->guard) return 0;
    /* the target: in the loop (the branch continues) or not (it leaves) */
    uint32_t target = br->nops == 1 && br->ops[0].kind == OPND_SYM ? cfg_label_block(g, opnd_text(&br->ops[0])) : ANA_NONE;
    if (target == ANA_NONE) return 0;
    bool taken_leaves = !loop_contains(li, l, target);
    const Ssa *s = c->lf.ssa;
    SsaValue pv = ssa_reaching(s, ti, br->guard->id);
    if (pv >= s->nvalues || s->v[pv].kind != SSA_DEF || s->v[pv].partial) return 0;
    const Instr *sp = &g->instr[s->v[pv].instr]->u.instr;
    if (sp->op != OP_setp || sp->nops != 3) return 0;
    const Term *a = NULL, *b = NULL;
    uint32_t si = s->v[pv].instr;
    for (uint32_t u = s->use_start[si]; u < s->use_start[si + 1]; u++) {
        if (s->uses[u].opnd == 1) a = vterms_value(c->fn, s->uses[u].value);
        if (s->uses[u].opnd == 2) b = vterms_value(c->fn, s->uses[u].value);
    }
    unsigned w = bits_of(instr_type(sp));
    if (!w || w > 64) return 0;
    if (!a && sp->ops[1].kind == OPND_INT) a = term_const(c->tt, w, (uint64_t)sp->ops[1].value);
    if (!b && sp->ops[2].kind == OPND_INT) b = term_const(c->tt, w, (uint64_t)sp->ops[2].value);
    uint64_t ka, ca, kb, cb;
    if (!a || !b || !affine_in_iter(c, a, l, &ka, &ca) || !affine_in_iter(c, b, l, &kb, &cb)) return 0;
    for (int64_t k = 0; k < (1 << 20); k++) {
        int p = compare(sp, ka + ca * (uint64_t)k, kb + cb * (uint64_t)k, w);
        if (p < 0) return 0;
        if ((p != br->guard_neg) == taken_leaves) return k + 1;
    }
    return 0;
}

double shfl_block_weight(Ctx *c, uint32_t b, bool *assumed)
{
    double w = 1;
    for (uint32_t l = b < c->cfg->n ? c->li->innermost[b] : ANA_NONE; l != ANA_NONE; l = c->li->loops[l].parent) {
        int64_t t = trip_count(c, l);
        if (t > 0) w *= (double)t;
        else *assumed = true;
    }
    if (c->li->irreducible) *assumed = true;
    return w;
}
