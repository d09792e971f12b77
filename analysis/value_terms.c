/* value_terms.c — the symbolic term of every SSA value of a function.
 *
 * Terms are made on demand (vterms_value), each after the terms of the
 * values it reads (an explicit stack, no recursion); a value met again
 * while its own term is being made (only around irreducible cycles) counts
 * as unknown there.  Loop-carried values are only seen by merges at loop
 * headers, which do not look at their back-edge arguments: a basic induction variable becomes
 * init ± step·iter(L), any other loop-carried merge the atom loop(L:%r).
 * A merge elsewhere is its arguments' common term if they all agree, else
 * an atom phi(%r@v).  Integer instructions are translated exactly at the
 * instruction's width (PTX operand-size rules: wider registers truncate,
 * narrower ones extend by the type's signedness); guarded writes become
 * ITE(guard, new, old); loads and other pure instructions become
 * uninterpreted functions of their operands (loads also of the memory
 * state unless the data is immutable); everything else is an opaque atom
 * unique to the value.  Terms deeper than MAX_DEPTH are cut to an opaque
 * atom so that printing and proofs stay bounded. */
#include "analysis/internal.h"

enum { MAX_DEPTH = 128 };

typedef struct Vt {
    Function *fn;
    const Cfg *c;
    const Ssa *s;
    const LoopInfo *li;
    const IvInfo *iv;
    TermTable *tt;
    const Term **term;
    uint32_t *header_loop;   /* [n] loop whose header the block is, ANA_NONE */
} Vt;

typedef struct VtPriv {
    Vt x;
    uint8_t *state;           /* [nvalues] 0: not made, 1: being made, 2: made */
    U32Vec stack;
} VtPriv;

static void value_term(Vt *x, SsaValue v);

static unsigned special_width(Str name)
{
    if (str_eqc(name, "%clock64") || str_eqc(name, "%gridid") || str_eqc(name, "%globaltimer") ||
        str_eqc(name, "%current_graph_exec"))
        return 64;
    if (name.len > 3 && memcmp(name.p + name.len - 3, "_64", 3) == 0) return 64;
    return 32;
}

static unsigned reg_width(const Reg *r)
{
    if (r->vec || r->special) return 0;
    unsigned w = type_bits(r->type);
    return w <= 64 ? w : 0;
}

static const Term *special_atom(TermTable *tt, Str name, char comp)
{
    return term_atom(tt, special_width(name), ATOM_SPECIAL, name, comp, 0, 0);
}

const Term *vterms_special(Function *fn, const char *name, char comp)
{
    const ValueTerms *vt = vterms_get(fn);
    return special_atom(vt->tt, str_c(name), comp);
}

static const Term *fit(TermTable *tt, const Term *t, unsigned w, bool sext)
{
    if (!t || !w) return NULL;
    if (t->width == w) return t;
    if (t->width > w) return term_unop(tt, T_TRUNC, w, t);
    return term_unop(tt, sext ? T_SEXT : T_ZEXT, w, t);
}

static const Term *opaque(Vt *x, SsaValue v)
{
    const SsaVal *sv = &x->s->v[v];
    if (sv->reg == x->s->nvars - 1) return term_atom(x->tt, 32, ATOM_MEM, (Str){ "", 0 }, 0, 0, v);
    const Reg *r = x->fn->regs[sv->reg];
    unsigned w = reg_width(r);
    if (!w) return NULL;
    return term_atom(x->tt, w, ATOM_OPAQUE, r->name, 0, 0, v);
}

/* Term of a float immediate at width w (decimal literals are doubles). */
static const Term *float_imm(Vt *x, const Operand *o, unsigned w)
{
    bool hexform = o->textlen >= 2 && o->text[0] == '0' && (o->text[1] == 'f' || o->text[1] == 'F' ||
                                                             o->text[1] == 'd' || o->text[1] == 'D');
    if (!hexform && w == 32) {
        double d;
        memcpy(&d, &o->value, sizeof d);
        float f = (float)d;
        uint32_t bits;
        memcpy(&bits, &f, sizeof bits);
        return term_const(x->tt, 32, bits);
    }
    return term_const(x->tt, w, (uint64_t)o->value);
}

/* Term of operand k of instruction i at width w (0: its own width). */
static const Term *opnd(Vt *x, uint32_t i, int k, unsigned w, bool sext)
{
    const Instr *in = &x->c->instr[i]->u.instr;
    if (k >= in->nops) return NULL;
    const Operand *o = &in->ops[k];
    const Term *t = NULL;
    switch (o->kind) {
    case OPND_REG:
        if (!o->u.reg) return NULL;
        if (o->u.reg->special) t = special_atom(x->tt, o->u.reg->name, o->comp);
        else {
            if (o->comp || o->sel || (o->flags & OPNDF_MINUS)) return NULL;   /* vector component, byte/half selector, -%r */
            SsaValue v = ssa_operand_value(x->s, i, k);
            if (v == ANA_NONE) return NULL;
            t = x->term[v];
        }
        if (t && (o->flags & OPNDF_NEG)) t = term_not(x->tt, t);
        break;
    case OPND_INT: return term_const(x->tt, w ? w : 64, (uint64_t)o->value);
    case OPND_FLOAT: return float_imm(x, o, w ? w : 64);
    case OPND_SYM:
        t = term_atom(x->tt, x->fn->mod->address_size == 32 ? 32 : 64, ATOM_SYMADDR, opnd_text(o), 0, 0, 0);
        break;
    default:
        return NULL;
    }
    if (!t) return NULL;
    return w ? fit(x->tt, t, w, sext) : t;
}

static const Term *address(Vt *x, uint32_t i, int k)
{
    const Instr *in = &x->c->instr[i]->u.instr;
    if (k < 0 || k >= in->nops) return NULL;
    const Operand *o = &in->ops[k];
    if (o->kind != OPND_ADDR || o->n != 1) return NULL;
    const Operand *b = &o->u.elems[0];
    const Term *base = NULL;
    unsigned aw = x->fn->mod->address_size == 32 ? 32 : 64;
    if (b->kind == OPND_REG && b->u.reg && !b->u.reg->special && !b->comp) {
        for (uint32_t u = x->s->use_start[i]; u < x->s->use_start[i + 1]; u++) {
            const SsaUse *su = &x->s->uses[u];
            if (su->opnd == k && (su->flags & REF_ADDR)) {
                base = x->term[su->value];
                break;
            }
        }
    } else if (b->kind == OPND_SYM) {
        base = term_atom(x->tt, aw, ATOM_SYMADDR, opnd_text(b), 0, 0, 0);
    } else if (b->kind == OPND_INT) {
        base = term_const(x->tt, aw, (uint64_t)b->value);
    }
    if (!base) return NULL;
    return term_add(x->tt, base, term_const(x->tt, base->width, (uint64_t)o->value));
}

const Term *vterms_address(Function *fn, uint32_t instr, int k)
{
    const ValueTerms *vt = vterms_get(fn);
    const Cfg *c = cfg_get(fn);
    if (instr >= c->ninstr) return NULL;

    VtPriv *p = vt->priv;
    /* make the terms the address reads first */
    for (uint32_t u = vt->ssa->use_start[instr]; u < vt->ssa->use_start[instr + 1]; u++)
        if (vt->ssa->uses[u].opnd == k && (vt->ssa->uses[u].flags & REF_ADDR)) vterms_value(fn, vt->ssa->uses[u].value);
    return address(&p->x, instr, k);
}

/* Destination and source types of cvt (first and second type modifiers). */
static void cvt_types(const Instr *in, Str *dst, Str *src)
{
    *dst = *src = (Str){ "", 0 };
    int nm = instr_nmods(in);
    for (int k = 0; k < nm; k++) {
        Str m = instr_mod(in, k);
        if (!type_bits(m) || str_eqc(m, ".sat") || m.len < 3) continue;
        char c1 = m.p[1];
        if (c1 != 'u' && c1 != 's' && c1 != 'b' && c1 != 'f' && c1 != 'e' && c1 != 't') continue;
        if (!dst->len) *dst = m;
        else if (!src->len) *src = m;
    }
}

static bool is_int_type(Str t) { return t.len >= 2 && (t.p[1] == 'u' || t.p[1] == 's' || t.p[1] == 'b') && !type_is_float(t); }

/* Integer comparison of setp/set. */
static const Term *compare(Vt *x, const Instr *in, const Term *a, const Term *b)
{
    bool sg = type_is_signed(instr_type(in));
    static const struct { const char *mod; TermOp op; bool swap, neg, sgn; int kind; } cmps[] = {
        /* kind 0: by type signedness, 1: unsigned, 2: eq/ne */
        { ".eq", T_EQ, false, false, false, 2 }, { ".ne", T_EQ, false, true, false, 2 },
        { ".lt", T_ULT, false, false, false, 0 }, { ".le", T_ULE, false, false, false, 0 },
        { ".gt", T_ULT, true, false, false, 0 }, { ".ge", T_ULE, true, false, false, 0 },
        { ".lo", T_ULT, false, false, false, 1 }, { ".ls", T_ULE, false, false, false, 1 },
        { ".hi", T_ULT, true, false, false, 1 }, { ".hs", T_ULE, true, false, false, 1 },
    };
    for (size_t k = 0; k < sizeof cmps / sizeof cmps[0]; k++) {
        if (!instr_has_mod(in, cmps[k].mod)) continue;
        TermOp op = cmps[k].op;
        if (cmps[k].kind == 0 && sg) op = op == T_ULT ? T_SLT : T_SLE;
        const Term *r = cmps[k].swap ? term_binop(x->tt, op, b, a) : term_binop(x->tt, op, a, b);
        return cmps[k].neg ? term_not(x->tt, r) : r;
    }
    return NULL;
}

static const Term *combine(Vt *x, const Instr *in, const Term *cmp, const Term *c)
{
    if (!c) return cmp;
    if (instr_has_mod(in, ".and")) return term_binop(x->tt, T_AND, cmp, c);
    if (instr_has_mod(in, ".or")) return term_binop(x->tt, T_OR, cmp, c);
    if (instr_has_mod(in, ".xor")) return term_binop(x->tt, T_XOR, cmp, c);
    return NULL;
}

static Str uf_name(Vt *x, const Instr *in, uint8_t elem)
{
    if (elem == 255) return in->full;
    char *p = arena_printf(&x->fn->mod->arena, "%.*s#%u", STR_FMT(in->full), elem);
    return str_c(p);
}

/* An uninterpreted function of all source operands (pure instructions). */
static const Term *uf_of_sources(Vt *x, uint32_t i, const Instr *in, uint8_t elem, unsigned w, int first)
{
    const Term *args[16];
    uint32_t n = 0;
    unsigned tw = type_bits(instr_type(in));
    for (int k = first; k < in->nops; k++) {
        if (n == 16) return NULL;
        const Operand *o = &in->ops[k];
        unsigned ow = (o->kind == OPND_INT || o->kind == OPND_FLOAT) ? (tw && tw <= 64 ? tw : 32) : 0;
        const Term *t = opnd(x, i, k, ow, false);
        if (!t) return NULL;
        args[n++] = t;
    }
    return term_uf(x->tt, uf_name(x, in, elem), w, args, n);
}

static const Term *load(Vt *x, uint32_t i, const Instr *in, const SsaVal *sv, unsigned w)
{
    if (x->c->iflags[i] & OPF_SIDE_EFFECT) return NULL;   /* volatile/strong */
    int ak = -1;
    for (int k = 1; k < in->nops; k++)
        if (in->ops[k].kind == OPND_ADDR) { ak = k; break; }
    const Term *a = address(x, i, ak);
    if (!a) return NULL;
    SsaValue mem = ANA_NONE;
    for (uint32_t u = x->s->use_start[i]; u < x->s->use_start[i + 1]; u++)
        if (x->s->uses[u].flags & REF_MEM) mem = x->s->uses[u].value;
    if (mem == ANA_NONE && in->op == OP_ld && str_eqc(instr_space(in), ".param") && sv->elem == 255 &&
        in->ops[ak].u.elems[0].kind == OPND_SYM && (uint64_t)in->ops[ak].value < (1ull << 31))
        return term_atom(x->tt, w, ATOM_PARAM, opnd_text(&in->ops[ak].u.elems[0]), 0,
                         (uint32_t)in->ops[ak].value, 0);
    const Term *args[2] = { a, mem == ANA_NONE ? NULL : x->term[mem] };
    if (mem != ANA_NONE && !args[1]) return NULL;
    return term_uf(x->tt, uf_name(x, in, sv->elem), w, args, mem == ANA_NONE ? 1 : 2);
}

/* The new value written to `v` by its instruction (before the guard). */
static const Term *def_term(Vt *x, SsaValue v)
{
    const SsaVal *sv = &x->s->v[v];
    uint32_t i = sv->instr;
    const Instr *in = &x->c->instr[i]->u.instr;
    const Reg *dr = x->fn->regs[sv->reg];
    unsigned rw = reg_width(dr);
    if (!rw) return NULL;
    Str ty = instr_type(in);
    unsigned tw = type_bits(ty);
    bool sg = type_is_signed(ty);
    bool integer = is_int_type(ty) || str_eqc(ty, ".pred");
    TermTable *tt = x->tt;
    if (sv->opnd != 0) return NULL;
    uint32_t fl = x->c->iflags[i];

    /* vector / pair destinations */
    if (sv->elem != 255) {
        if (in->op == OP_setp && sv->elem <= 1 && integer) {
            const Term *a = opnd(x, i, 1, tw, sg), *b = opnd(x, i, 2, tw, sg);
            if (!a || !b) return NULL;
            const Term *cmp = compare(x, in, a, b);
            if (!cmp) return NULL;
            if (sv->elem == 1) cmp = term_not(tt, cmp);
            const Term *c = in->nops > 3 ? opnd(x, i, 3, 1, false) : NULL;
            if (in->nops > 3 && !c) return NULL;
            return combine(x, in, cmp, c);
        }
        if (in->op == OP_mov && in->nops == 2 && in->ops[0].kind == OPND_VEC) {
            const Term *src = opnd(x, i, 1, 0, false);
            if (!src) return NULL;
            uint32_t shift = (uint32_t)sv->elem * rw;
            if (shift + rw > src->width) return NULL;
            return fit(tt, term_binop(tt, T_LSHR, src, term_const(tt, src->width, shift)), rw, false);
        }
        if ((in->op == OP_ld || in->op == OP_ldu) && in->ops[0].kind == OPND_VEC) return load(x, i, in, sv, rw);
        return NULL;
    }
    if (in->ops[0].kind != OPND_REG) return NULL;
    const Term *r = NULL;
    bool sat = instr_has_mod(in, ".sat");
    switch (in->op) {
    case OP_mov:
        if (in->nops == 2 && in->ops[1].kind == OPND_VEC) {
            /* pack: {lo, hi} → lo + hi·2^w */
            const Operand *vec = &in->ops[1];
            unsigned ew = rw / (vec->n ? vec->n : 1);
            r = term_const(tt, rw, 0);
            for (uint8_t k = 0; k < vec->n && r; k++) {
                const Operand *e = &vec->u.elems[k];
                const Term *t = NULL;
                if (e->kind == OPND_REG && e->u.reg && !e->u.reg->special) {
                    for (uint32_t u = x->s->use_start[i]; u < x->s->use_start[i + 1]; u++)
                        if (x->s->uses[u].opnd == 1 && x->s->uses[u].elem == k) t = x->term[x->s->uses[u].value];
                } else if (e->kind == OPND_INT) t = term_const(tt, ew, (uint64_t)e->value);
                if (!t || t->width != ew) { r = NULL; break; }
                r = term_add(tt, r, term_scale(tt, term_unop(tt, T_ZEXT, rw, t), ew * k >= 64 ? 0 : 1ull << (ew * k)));
            }
            return r;
        }
        return opnd(x, i, 1, rw, false);
    case OP_add: case OP_sub:
        if (!integer || sat) break;
        {
            const Term *a = opnd(x, i, 1, tw, sg), *b = opnd(x, i, 2, tw, sg);
            if (a && b) r = in->op == OP_add ? term_add(tt, a, b) : term_sub(tt, a, b);
        }
        break;
    case OP_mul: case OP_mad:
        if (!integer || sat) break;
        {
            bool wide = instr_has_mod(in, ".wide"), hi = instr_has_mod(in, ".hi");
            const Term *a = opnd(x, i, 1, tw, sg), *b = opnd(x, i, 2, tw, sg);
            if (!a || !b) break;
            if (wide) {
                a = term_unop(tt, sg ? T_SEXT : T_ZEXT, 2 * tw, a);
                b = term_unop(tt, sg ? T_SEXT : T_ZEXT, 2 * tw, b);
                r = term_mul(tt, a, b);
            } else if (hi) {
                r = term_binop(tt, sg ? T_MULHI_S : T_MULHI_U, a, b);
            } else {
                r = term_mul(tt, a, b);
            }
            if (in->op == OP_mad) {
                const Term *c = opnd(x, i, 3, wide ? 2 * tw : tw, sg);
                r = c ? term_add(tt, r, c) : NULL;
            }
        }
        break;
    case OP_div: case OP_rem:
        if (!integer) break;
        {
            const Term *a = opnd(x, i, 1, tw, sg), *b = opnd(x, i, 2, tw, sg);
            if (a && b)
                r = term_binop(tt, in->op == OP_div ? (sg ? T_SDIV : T_UDIV) : (sg ? T_SREM : T_UREM), a, b);
        }
        break;
    case OP_neg: case OP_not: case OP_abs: case OP_cnot:
        if (!integer) break;
        {
            const Term *a = opnd(x, i, 1, tw, sg);
            if (!a) break;
            if (in->op == OP_neg) r = term_neg(tt, a);
            else if (in->op == OP_not) r = term_not(tt, a);
            else if (in->op == OP_abs)
                r = term_ite(tt, term_binop(tt, T_SLT, a, term_const(tt, tw, 0)), term_neg(tt, a), a);
            else
                r = term_ite(tt, term_binop(tt, T_EQ, a, term_const(tt, tw, 0)), term_const(tt, tw, 1),
                             term_const(tt, tw, 0));
        }
        break;
    case OP_and: case OP_or: case OP_xor: case OP_min: case OP_max:
        if (!integer) break;
        {
            const Term *a = opnd(x, i, 1, tw, sg), *b = opnd(x, i, 2, tw, sg);
            if (!a || !b) break;
            TermOp op = in->op == OP_and ? T_AND : in->op == OP_or ? T_OR : in->op == OP_xor ? T_XOR
                      : in->op == OP_min ? (sg ? T_SMIN : T_UMIN) : (sg ? T_SMAX : T_UMAX);
            r = term_binop(tt, op, a, b);
        }
        break;
    case OP_shl: case OP_shr:
        if (!integer) break;
        {
            const Term *a = opnd(x, i, 1, tw, sg), *b = opnd(x, i, 2, 32, false);
            if (a && b) r = term_binop(tt, in->op == OP_shl ? T_SHL : (sg ? T_ASHR : T_LSHR), a, b);
        }
        break;
    case OP_cvt: {
        Str dt, st;
        cvt_types(in, &dt, &st);
        if (is_int_type(dt) && is_int_type(st) && !sat) {
            unsigned db = type_bits(dt), sb = type_bits(st);
            const Term *a = opnd(x, i, 1, sb, type_is_signed(st));
            if (a) r = fit(tt, a, db, type_is_signed(st));
            if (r) return fit(tt, r, rw, type_is_signed(dt));
            return NULL;
        }
        break;
    }
    case OP_selp:
        if (in->nops == 4) {
            const Term *a = opnd(x, i, 1, tw ? tw : rw, sg), *b = opnd(x, i, 2, tw ? tw : rw, sg);
            const Term *c = opnd(x, i, 3, 1, false);
            if (a && b && c) r = term_ite(tt, c, a, b);
        }
        break;
    case OP_setp:
        if (integer && in->nops >= 3) {
            const Term *a = opnd(x, i, 1, tw, sg), *b = opnd(x, i, 2, tw, sg);
            if (!a || !b) return NULL;
            const Term *cmp = compare(x, in, a, b);
            if (!cmp) return NULL;
            const Term *c = in->nops > 3 ? opnd(x, i, 3, 1, false) : NULL;
            if (in->nops > 3 && !c) return NULL;
            return combine(x, in, cmp, c);
        }
        break;
    case OP_ld: case OP_ldu:
        return load(x, i, in, sv, rw);
    default:
        break;
    }
    if (r) return fit(tt, r, rw, sg);
    /* other pure instructions (floating point, cvta, bfe, ...): uninterpreted */
    if ((fl & OPF_PURE) && !(fl & (OPF_SIDE_EFFECT | OPF_COLLECTIVE | OPF_CONVERGENT)))
        return uf_of_sources(x, i, in, 255, rw, 1);
    return NULL;
}

static const Term *guard_term(Vt *x, uint32_t i)
{
    const Instr *in = &x->c->instr[i]->u.instr;
    for (uint32_t u = x->s->use_start[i]; u < x->s->use_start[i + 1]; u++)
        if (x->s->uses[u].flags & REF_GUARD) {
            const Term *g = in->guard && in->guard->special ? NULL : x->term[x->s->uses[u].value];
            if (!g || g->width != 1) return NULL;
            return in->guard_neg ? term_not(x->tt, g) : g;
        }
    return NULL;
}

static const Term *phi_term(Vt *x, SsaValue v)
{
    const SsaVal *sv = &x->s->v[v];
    if (sv->reg == x->s->nvars - 1) return opaque(x, v);
    const Reg *r = x->fn->regs[sv->reg];
    unsigned w = reg_width(r);
    if (!w) return NULL;
    uint32_t l = x->header_loop[sv->block];
    if (l != ANA_NONE) {
        uint32_t k = ivars_of_phi(x->iv, v);
        if (k != ANA_NONE) {
            const InductionVar *iv = &x->iv->iv[k];
            const Term *init = iv->init != ANA_NONE ? x->term[iv->init] : NULL;
            /* the step of one iteration: the update's, plus a chain's earlier ones */
            const Term *step = term_const(x->tt, w, 0);
            for (int j = 0; j <= iv->nchain && step; j++) {
                uint32_t i = j < iv->nchain ? iv->chain_instr[j] : x->s->v[iv->update].instr;
                const Instr *in = &x->c->instr[i]->u.instr;
                const Term *s = opnd(x, i, j < iv->nchain ? iv->chain_opnd[j] : iv->step_opnd, w, type_is_signed(instr_type(in)));
                step = !s ? NULL : in->op == OP_sub ? term_sub(x->tt, step, s) : term_add(x->tt, step, s);
            }
            if (init && step && init->width == w) {
                const Term *it = term_atom(x->tt, w, ATOM_ITER, (Str){ "", 0 }, 0, l, 0);
                return term_add(x->tt, init, term_mul(x->tt, step, it));
            }
        }
        return term_atom(x->tt, w, ATOM_LOOPVAL, r->name, 0, l, v);
    }
    const Term *common = NULL;
    for (uint32_t j = 0; j < sv->nargs; j++) {
        SsaValue a = sv->args[j];
        if (a == v) continue;
        const Term *t = x->term[a];
        if (!t) { common = NULL; break; }
        if (!common) common = t;
        else if (common != t) { common = NULL; break; }
    }
    if (common) return common;
    return term_atom(x->tt, w, ATOM_PHI, r->name, 0, 0, v);
}

static void value_term(Vt *x, SsaValue v)
{
    const SsaVal *sv = &x->s->v[v];
    const Term *t = NULL;
    if (sv->kind == SSA_ENTRY) {
        /* an undefined register or the memory at entry (specials are read as atoms) */
        if (sv->reg == x->s->nvars - 1 || !x->fn->regs[sv->reg]->special) t = opaque(x, v);
    } else if (sv->kind == SSA_PHI) t = phi_term(x, v);
    else if (sv->kind == SSA_DEF) {
        if (sv->reg == x->s->nvars - 1) t = opaque(x, v);
        else {
            const Instr *in = &x->c->instr[sv->instr]->u.instr;
            bool guarded = in->guard != NULL;
            bool other_partial = sv->partial && !guarded;
            t = other_partial ? NULL : def_term(x, v);
            if (t && t->depth > MAX_DEPTH) t = NULL;
            if (t && guarded) {
                const Term *g = guard_term(x, sv->instr);
                const Term *old = sv->prev != ANA_NONE ? x->term[sv->prev] : NULL;
                t = g && old && old->width == t->width ? term_ite(x->tt, g, t, old) : NULL;
            }
            if (!t) t = opaque(x, v);
        }
    }
    if (t && t->depth > MAX_DEPTH) t = opaque(x, v);
    x->term[v] = t;
}

/* The next value v depends on whose term is not made yet (ANA_NONE if none). */
static SsaValue pending_dep(VtPriv *p, SsaValue v)
{
    const Ssa *s = p->x.s;
    const SsaVal *sv = &s->v[v];
    if (sv->kind == SSA_PHI) {
        if (sv->reg == s->nvars - 1) return ANA_NONE;
        if (p->x.header_loop[sv->block] != ANA_NONE) {
            uint32_t k = ivars_of_phi(p->x.iv, v);
            if (k == ANA_NONE) return ANA_NONE;
            const InductionVar *iv = &p->x.iv->iv[k];
            if (iv->init != ANA_NONE && !p->state[iv->init]) return iv->init;
            SsaValue st = ssa_operand_value(s, s->v[iv->update].instr, iv->step_opnd);
            if (st != ANA_NONE && !p->state[st]) return st;
            for (int j = 0; j < iv->nchain; j++) {
                st = ssa_operand_value(s, iv->chain_instr[j], iv->chain_opnd[j]);
                if (st != ANA_NONE && !p->state[st]) return st;
            }
            return ANA_NONE;
        }
        for (uint32_t j = 0; j < sv->nargs; j++)
            if (!p->state[sv->args[j]]) return sv->args[j];
        return ANA_NONE;
    }
    if (sv->kind != SSA_DEF || sv->reg == s->nvars - 1) return ANA_NONE;
    for (uint32_t u = s->use_start[sv->instr]; u < s->use_start[sv->instr + 1]; u++)
        if (!p->state[s->uses[u].value]) return s->uses[u].value;
    return ANA_NONE;
}

const Term *vterms_value(Function *fn, SsaValue v)
{
    const ValueTerms *vt = vterms_get(fn);
    VtPriv *p = vt->priv;
    if (v >= p->x.s->nvalues) return NULL;
    if (p->state[v] == 2) return p->x.term[v];
    p->state[v] = 1;
    u32_push(&p->stack, v);
    while (p->stack.n) {
        SsaValue x = p->stack.v[p->stack.n - 1];
        SsaValue d = pending_dep(p, x);
        if (d != ANA_NONE) {
            p->state[d] = 1;
            u32_push(&p->stack, d);
            continue;
        }
        value_term(&p->x, x);
        p->state[x] = 2;
        p->stack.n--;
    }
    u32_free(&p->stack);
    return p->x.term[v];
}

static ValueTerms *vterms_build(Function *fn)
{
    Arena *a = ana_arena(fn);
    ValueTerms *vt = ARENA_NEW(a, ValueTerms);
    VtPriv *p = ARENA_NEW(a, VtPriv);
    Vt *x = &p->x;
    *x = (Vt){ fn, cfg_get(fn), ssa_get(fn), loops_get(fn), ivars_get(fn), terms_new_in(a), NULL, NULL };
    const Ssa *s = x->s;
    const Cfg *c = x->c;
    vt->tt = x->tt;
    vt->ssa = s;
    vt->priv = p;
    x->term = ARENA_ARRAY(a, const Term *, s->nvalues + 1);
    p->state = ARENA_ARRAY(a, uint8_t, s->nvalues + 1);
    x->header_loop = ARENA_ARRAY(a, uint32_t, c->n + 1);
    for (uint32_t b = 0; b <= c->n; b++) x->header_loop[b] = ANA_NONE;
    for (uint32_t l = 0; l < x->li->nloops; l++) x->header_loop[x->li->loops[l].header] = l;
    return vt;
}

const ValueTerms *vterms_get(Function *fn)
{
    AnalysisCache *ac = analysis_cache(fn);
    if (!ac->vterms) ac->vterms = vterms_build(fn);
    return ac->vterms;
}
