/* ivars.c — induction variables, found on the SSA overlay.
 *
 * Basic: a merge value p at a loop header whose argument on every back edge
 * is the same write x = p ± s (add/sub, possibly through mov copies), with
 * s loop-invariant (an immediate, a value defined outside the loop, or a
 * special register that cannot change while the thread runs).  This is
 * what nvcc and NVHPC emit for counted and grid-stride loops
 * ("add.s32 %r10, %r10, %r3" with %r3 = %ntid.x * %nctaid.x).
 * Derived: a write inside the loop computed by add/sub/mul/shl/mad/cvt/mov
 * from exactly one induction variable of the loop and invariants. */
#include "analysis/internal.h"

bool special_is_volatile(Str name)
{
    static const char *const vol[] = { "%clock", "%clock_hi", "%clock64", "%globaltimer", "%globaltimer_lo",
                                       "%globaltimer_hi", "%warpid", "%smid", "%current_graph_exec" };
    for (size_t i = 0; i < sizeof vol / sizeof vol[0]; i++)
        if (str_eqc(name, vol[i])) return true;
    return str_starts(name, "%pm");
}

typedef struct IvCtx {
    Function *fn;
    const Cfg *c;
    const Ssa *s;
    const LoopInfo *li;
} IvCtx;

static const Instr *def_instr(const IvCtx *x, SsaValue v)
{
    const SsaVal *sv = &x->s->v[v];
    if (sv->kind != SSA_DEF || sv->partial) return NULL;
    const Instr *in = &x->c->instr[sv->instr]->u.instr;
    if (in->guard || sv->opnd != 0 || sv->elem != 255) return NULL;
    return in;
}

/* Follow mov copies. */
static SsaValue through_moves(const IvCtx *x, SsaValue v)
{
    for (int guard = 0; guard < 64; guard++) {
        const Instr *in = def_instr(x, v);
        if (!in || in->op != OP_mov || in->nops != 2 || in->ops[1].kind != OPND_REG) return v;
        SsaValue w = ssa_operand_value(x->s, x->s->v[v].instr, 1);
        if (w == ANA_NONE || x->fn->regs[x->s->v[w].reg]->special) return v;
        v = w;
    }
    return v;
}

static bool is_integer_op(const Instr *in)
{
    Str t = instr_type(in);
    return t.len && !type_is_float(t) && !str_eqc(t, ".pred");
}

/* Is SSA value v invariant in loop L?  Defined outside L, or inside it by
 * an unguarded pure integer instruction whose register operands are
 * invariant themselves (nvcc recomputes a stride such as
 * `mul.wide.s32 %rd33, %r15, 4` in the loop body it is used in). */
static bool value_invariant(const IvCtx *x, SsaValue v, uint32_t loop, int depth)
{
    if (v == ANA_NONE) return false;
    const SsaVal *sv = &x->s->v[v];
    if (sv->kind == SSA_ENTRY || !loop_contains(x->li, loop, sv->block)) return true;
    if (depth > 8 || sv->kind != SSA_DEF) return false;
    const Instr *in = def_instr(x, v);
    if (!in || in->guard || !is_integer_op(in) || instr_has_mod(in, ".cc")) return false;
    switch (in->op) {
    case OP_mov: case OP_cvt: case OP_add: case OP_sub: case OP_mul: case OP_mad: case OP_shl: case OP_shr:
    case OP_and: case OP_or: case OP_xor: case OP_neg: case OP_not: case OP_cvta: break;
    default: return false;
    }
    uint32_t i = sv->instr;
    for (int k = 1; k < in->nops; k++) {
        const Operand *o = &in->ops[k];
        if (o->kind == OPND_INT) continue;
        if (o->kind != OPND_REG || !o->u.reg) return false;
        if (o->u.reg->special) {
            if (special_is_volatile(o->u.reg->name)) return false;
            continue;
        }
        if (!value_invariant(x, ssa_operand_value(x->s, i, k), loop, depth + 1)) return false;
    }
    return true;
}

/* Is operand k of the write `v` invariant in loop L?  *imm set for immediates. */
static bool operand_invariant(const IvCtx *x, uint32_t instr, int k, uint32_t loop, bool *is_imm, int64_t *imm)
{
    const Instr *in = &x->c->instr[instr]->u.instr;
    if (k >= in->nops) return false;
    const Operand *o = &in->ops[k];
    *is_imm = false;
    if (o->kind == OPND_INT) {
        *is_imm = true;
        *imm = o->value;
        return true;
    }
    if (o->kind != OPND_REG || !o->u.reg) return false;
    if (o->u.reg->special) return !special_is_volatile(o->u.reg->name);
    return value_invariant(x, ssa_operand_value(x->s, instr, k), loop, 0);
}

/* Sign-extend an immediate to the instruction's type width. */
static int64_t imm_signed(const Instr *in, int64_t v)
{
    unsigned bits = type_bits(instr_type(in));
    if (bits == 0 || bits >= 64) return v;
    uint64_t m = (1ull << bits) - 1, u = (uint64_t)v & m;
    if (u >> (bits - 1)) u |= ~m;
    return (int64_t)u;
}

/* Is special value `v` (through moves) the register %name.comp? */
static bool is_special(const IvCtx *x, uint32_t instr, int k, const char *name, char *comp)
{
    const Instr *in = &x->c->instr[instr]->u.instr;
    const Operand *o = &in->ops[k];
    if (o->kind != OPND_REG || !o->u.reg) return false;
    if (o->u.reg->special) {
        if (!str_eqc(o->u.reg->name, name)) return false;
        if (*comp && o->comp != *comp) return false;
        *comp = o->comp;
        return true;
    }
    SsaValue v = ssa_operand_value(x->s, instr, k);
    for (int guard = 0; v != ANA_NONE && guard < 64; guard++) {
        const Instr *d = def_instr(x, v);
        if (!d || (d->op != OP_mov && d->op != OP_cvt) || d->nops != 2 || d->ops[1].kind != OPND_REG) return false;
        const Operand *s = &d->ops[1];
        if (s->u.reg && s->u.reg->special) {
            if (!str_eqc(s->u.reg->name, name)) return false;
            if (*comp && s->comp != *comp) return false;
            *comp = s->comp;
            return true;
        }
        v = ssa_operand_value(x->s, x->s->v[v].instr, 1);
    }
    return false;
}

/* Is the step %ntid.d * %nctaid.d (mul.lo / mul.wide, either order, possibly copied)? */
static bool is_grid_stride(const IvCtx *x, SsaValue step)
{
    if (step == ANA_NONE) return false;
    step = through_moves(x, step);
    const Instr *in = def_instr(x, step);
    if (!in || in->op != OP_mul || in->nops != 3 || instr_has_mod(in, ".hi")) return false;
    uint32_t i = x->s->v[step].instr;
    char c1 = 0, c2 = 0;
    if (is_special(x, i, 1, "%ntid", &c1) && is_special(x, i, 2, "%nctaid", &c2)) return c1 == c2;
    c1 = c2 = 0;
    if (is_special(x, i, 1, "%nctaid", &c1) && is_special(x, i, 2, "%ntid", &c2)) return c1 == c2;
    return false;
}

/* Does v (through moves) lead back to the header phi p through add/sub
 * instructions of `bits` width that each add a loop-invariant step?  The
 * steps (instruction, operand) are appended to chain in the order they
 * run, at most IV_MAX_CHAIN + 1 of them (nvcc advances a pointer
 * p1 = p + s; p2 = p1 + s; ... in unrolled loops). */
static bool chain_to_phi(const IvCtx *x, SsaValue v, SsaValue p, uint32_t loop, unsigned bits, uint32_t *chain,
                         uint8_t *chain_opnd, int *n)
{
    v = through_moves(x, v);
    if (v == p) return true;
    if (*n > IV_MAX_CHAIN) return false;
    const Instr *in = def_instr(x, v);
    if (!in || (in->op != OP_add && in->op != OP_sub) || in->nops != 3 || !is_integer_op(in)) return false;
    if (instr_has_mod(in, ".cc") || instr_has_mod(in, ".sat") || type_bits(instr_type(in)) != bits) return false;
    uint32_t i = x->s->v[v].instr;
    for (int k = 1; k <= 2; k++) {
        if (in->op == OP_sub && k == 2) break;
        SsaValue a = ssa_operand_value(x->s, i, k);
        bool is_imm;
        int64_t imm;
        if (a == ANA_NONE || !operand_invariant(x, i, 3 - k, loop, &is_imm, &imm)) continue;
        int mark = *n;
        if (chain_to_phi(x, a, p, loop, bits, chain, chain_opnd, n)) {
            chain[*n] = i, chain_opnd[*n] = (uint8_t)(3 - k), (*n)++;
            return true;
        }
        *n = mark;
    }
    return false;
}

/* Basic IV at header phi p of loop L. */
static bool basic_iv(const IvCtx *x, uint32_t loop, SsaValue p, InductionVar *out)
{
    const Cfg *c = x->c;
    const SsaVal *pv = &x->s->v[p];
    const Loop *L = &x->li->loops[loop];
    SsaValue init = ANA_NONE, update = ANA_NONE;
    bool init_mixed = false;
    for (uint32_t j = 0; j < pv->nargs; j++) {
        bool from_entry = j >= cfg_npred(c, L->header);   /* block 0's function-entry argument */
        uint32_t pred = from_entry ? 0 : cfg_preds(c, L->header)[j];
        SsaValue a = pv->args[j];
        if (!from_entry && loop_contains(x->li, loop, pred)) {
            if (update == ANA_NONE) update = a;
            else if (update != a) return false;
        } else if (from_entry || cfg_reachable(c, pred)) {
            if (init == ANA_NONE) init = a;
            else if (init != a) init_mixed = true;
        }
    }
    if (update == ANA_NONE) return false;
    /* the back-edge value is p plus a chain of invariant steps; its last
     * link is the update */
    SsaValue upd = through_moves(x, update);
    const Instr *in = def_instr(x, upd);
    uint32_t chain[IV_MAX_CHAIN + 1];
    uint8_t chain_opnd[IV_MAX_CHAIN + 1];
    int n = 0;
    if (!in || !chain_to_phi(x, upd, p, loop, type_bits(instr_type(in)), chain, chain_opnd, &n) || n == 0) return false;
    int u = n - 1;
    uint32_t i = chain[u];
    bool is_imm;
    int64_t imm = 0;
    operand_invariant(x, i, chain_opnd[u], loop, &is_imm, &imm);   /* invariant: chain_to_phi checked it */
    memset(out, 0, sizeof *out);
    out->nchain = (uint8_t)u;
    memcpy(out->chain_instr, chain, sizeof(uint32_t) * (size_t)u);
    memcpy(out->chain_opnd, chain_opnd, (size_t)u);
    out->loop = loop;
    out->kind = IV_BASIC;
    out->reg = pv->reg;
    out->value = p;
    out->init = init_mixed ? ANA_NONE : init;
    out->update = upd;
    out->step_opnd = chain_opnd[u];
    if (is_imm) {
        out->step_value = ANA_NONE;
        out->step_imm = imm_signed(in, imm);
        out->step_negative = in->op == OP_sub ? out->step_imm > 0 : out->step_imm < 0;
    } else {
        out->step_value = ssa_operand_value(x->s, i, chain_opnd[u]);
        out->step_negative = in->op == OP_sub;
        out->grid_stride = u == 0 && is_grid_stride(x, out->step_value);
    }
    return true;
}

static IvInfo *ivars_build(Function *fn)
{
    IvCtx x = { fn, cfg_get(fn), ssa_get(fn), loops_get(fn) };
    Arena *a = ana_arena(fn);
    IvInfo *iv = ARENA_NEW(a, IvInfo);
    const Ssa *s = x.s;
    uint32_t cap = 16, n = 0;
    InductionVar *v = xmalloc(sizeof(InductionVar) * cap);
    uint32_t *iv_of = xmalloc(sizeof(uint32_t) * (s->nvalues + 1));
    for (uint32_t i = 0; i < s->nvalues; i++) iv_of[i] = ANA_NONE;
    for (uint32_t l = 0; l < x.li->nloops; l++) {
        const Loop *L = &x.li->loops[l];
        uint32_t first = n;
        for (uint32_t k = s->phi_start[L->header]; k < s->phi_start[L->header + 1]; k++) {
            SsaValue p = s->phis[k];
            if (s->v[p].reg == s->nvars - 1) continue;
            InductionVar cand;
            if (!basic_iv(&x, l, p, &cand)) continue;
            if (n == cap) v = xrealloc(v, sizeof(InductionVar) * (cap *= 2));
            iv_of[p] = n;
            v[n++] = cand;
        }
        if (n == first) continue;
        /* derived: writes in the loop's blocks, in layout order */
        for (uint32_t bi = 0; bi < L->nblocks; bi++) {
            uint32_t b = L->blocks[bi];
            for (uint32_t i = x.c->block_instr[b]; i < x.c->block_instr[b + 1]; i++) {
                const Instr *in = &x.c->instr[i]->u.instr;
                if (in->guard || !is_integer_op(in) || in->nops < 2) continue;
                bool ok_op = in->op == OP_add || in->op == OP_sub || in->op == OP_mov || in->op == OP_shl ||
                             in->op == OP_cvt || (in->op == OP_mul && !instr_has_mod(in, ".hi")) ||
                             (in->op == OP_mad && !instr_has_mod(in, ".hi") && !instr_has_mod(in, ".cc"));
                if (!ok_op || instr_has_mod(in, ".sat") || instr_has_mod(in, ".cc")) continue;
                if (s->def_start[i + 1] - s->def_start[i] != 1) continue;
                SsaValue dv = s->defs[s->def_start[i]];
                if (s->v[dv].partial || s->v[dv].opnd != 0 || iv_of[dv] != ANA_NONE) continue;
                uint32_t base = ANA_NONE;
                bool ok = true;
                for (int k = 1; k < in->nops && ok; k++) {
                    SsaValue a = ssa_operand_value(s, i, k);
                    if (a != ANA_NONE && iv_of[a] != ANA_NONE && iv_of[a] >= first) {
                        /* one IV operand, and not as a shift amount */
                        if (base != ANA_NONE || (in->op == OP_shl && k == 2))
                            ok = false;
                        base = iv_of[a];
                        continue;
                    }
                    bool is_imm;
                    int64_t imm;
                    if (!operand_invariant(&x, i, k, l, &is_imm, &imm)) ok = false;
                }
                if (!ok || base == ANA_NONE) continue;
                InductionVar d;
                memset(&d, 0, sizeof d);
                d.loop = l;
                d.kind = IV_DERIVED;
                d.reg = s->v[dv].reg;
                d.value = dv;
                d.init = d.update = d.step_value = ANA_NONE;
                d.base = base;
                d.widened = v[base].widened || instr_has_mod(in, ".wide");
                if (in->op == OP_cvt) {
                    /* cvt.dst.src: widened when dst is wider than src */
                    int nm = instr_nmods(in);
                    Str dst = instr_mod(in, nm - 2), src = instr_mod(in, nm - 1);
                    d.widened = v[base].widened || type_bits(dst) > type_bits(src);
                }
                if (n == cap) v = xrealloc(v, sizeof(InductionVar) * (cap *= 2));
                iv_of[dv] = n;
                v[n++] = d;
            }
        }
    }
    iv->n = n;
    iv->iv = ARENA_ARRAY(a, InductionVar, n ? n : 1);
    if (n) memcpy(iv->iv, v, sizeof(InductionVar) * n);
    free(v);
    free(iv_of);
    return iv;
}

const IvInfo *ivars_get(Function *fn)
{
    AnalysisCache *ac = analysis_cache(fn);
    if (!ac->ivs) ac->ivs = ivars_build(fn);
    return ac->ivs;
}

uint32_t ivars_of_phi(const IvInfo *iv, SsaValue v)
{
    for (uint32_t i = 0; i < iv->n; i++)
        if (iv->iv[i].kind == IV_BASIC && iv->iv[i].value == v) return i;
    return ANA_NONE;
}
