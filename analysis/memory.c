/* memory.c — where pointers point: the state space of generic addresses
 * (through cvta), the object an address derives from (a parameter, a
 * declared variable), the memory accesses of a function and a may-alias
 * query (rules in analysis.h at memory_alias).
 *
 * Base objects are a lattice over SSA values, computed to a fixpoint in
 * reverse postorder: NONE (integer data, or not yet known) < one object <
 * UNKNOWN.  An integer merged with a pointer is taken to be that pointer
 * (nvcc's null-or-pointer merges); an access whose address is integer data
 * only is treated as UNKNOWN. */
#include "analysis/internal.h"

const char *mem_space_name(MemSpace s)
{
    static const char *const names[] = { "none", "generic", "global", "shared", "shared::cluster",
                                         "local", "const", "param", "other" };
    return (unsigned)s < sizeof names / sizeof names[0] ? names[s] : "?";
}

static MemSpace space_of_mod(Str m)
{
    if (!m.len) return SPACE_GENERIC;
    if (str_eqc(m, ".global")) return SPACE_GLOBAL;
    if (str_eqc(m, ".shared::cluster")) return SPACE_SHARED_CLUSTER;
    if (str_starts(m, ".shared")) return SPACE_SHARED;
    if (str_eqc(m, ".local")) return SPACE_LOCAL;
    if (str_starts(m, ".const")) return SPACE_CONST;
    if (str_starts(m, ".param")) return SPACE_PARAM;
    return SPACE_OTHER;
}

static MemSpace space_of_decl(Str space)
{
    if (str_eqc(space, ".global")) return SPACE_GLOBAL;
    if (str_starts(space, ".shared")) return SPACE_SHARED;
    if (str_eqc(space, ".local")) return SPACE_LOCAL;
    if (str_starts(space, ".const")) return SPACE_CONST;
    if (str_starts(space, ".param")) return SPACE_PARAM;
    return SPACE_OTHER;
}

typedef struct SymTab {
    const Module *mod;        /* its variables: modsyms */
    StrMap map;               /* name -> index into bases */
    MemBase *bases;
    uint32_t n;
} SymTab;

static void sym_add(SymTab *t, Str name, MemBase b)
{
    if (strmap_get(&t->map, name) != ANA_NONE) return;   /* inner declarations first */
    t->bases[t->n] = b;
    strmap_put(&t->map, name, t->n++);
}

/* The symbols a function declares: its parameters, then its body's
 * variables (first declaration wins); the module's variables are looked up
 * in the module's own table (modsyms) when a name is not here. */
static void symtab_build(SymTab *t, Function *fn, Arena *a)
{
    uint32_t count = 0;
    for (uint32_t i = 0; i < fn->nparam; i++) count += fn->params[i]->ndecl;
    FOR_EACH_BLOCK(blk, fn)
        FOR_EACH_STMT(s, blk)
            if (s->kind == STMT_DECL && !str_eqc(s->u.decl->space, ".reg")) count += s->u.decl->ndecl;
    t->mod = fn->mod;
    strmap_init(&t->map, a, count);
    t->bases = ARENA_ARRAY(a, MemBase, count + 1);
    t->n = 0;
    for (uint32_t i = 0; i < fn->nparam; i++)
        for (uint32_t k = 0; k < fn->params[i]->ndecl; k++) {
            MemBase b = { 0 };
            b.kind = BASE_VAR;
            b.space = SPACE_PARAM;
            b.name = fn->params[i]->decls[k].name;
            b.index = i;
            sym_add(t, b.name, b);
        }
    FOR_EACH_BLOCK(blk, fn)
        FOR_EACH_STMT(s, blk)
            if (s->kind == STMT_DECL && !str_eqc(s->u.decl->space, ".reg"))
                for (uint32_t k = 0; k < s->u.decl->ndecl; k++) {
                    MemBase b = { 0 };
                    b.kind = BASE_VAR;
                    b.space = (uint8_t)space_of_decl(s->u.decl->space);
                    b.name = s->u.decl->decls[k].name;
                    sym_add(t, b.name, b);
                }
}

/* What a symbol operand names: a variable or parameter (BASE_VAR), or
 * nothing known (a function, a label): NONE. */
static MemBase symbol_base(const SymTab *t, Str name)
{
    uint32_t k = strmap_get(&t->map, name);
    if (k != ANA_NONE) return t->bases[k];
    Str space;
    if (!modsyms_find(t->mod, name, &space)) return (MemBase){ 0 };
    MemBase b = { 0 };
    b.kind = BASE_VAR;
    b.space = (uint8_t)space_of_decl(space);
    b.name = name;
    return b;
}

static bool base_eq(const MemBase *a, const MemBase *b)
{
    return a->kind == b->kind && a->space == b->space && a->generic == b->generic && a->index == b->index &&
           str_eq(a->name, b->name);
}

static MemBase unknown_base(MemSpace sp, bool generic)
{
    MemBase b = { 0 };
    b.kind = BASE_UNKNOWN;
    b.space = (uint8_t)sp;
    b.generic = generic;
    return b;
}

static MemBase meet(MemBase a, MemBase b)
{
    if (a.kind == BASE_NONE) return b;
    if (b.kind == BASE_NONE) return a;
    if (base_eq(&a, &b)) return a;
    if (a.space == b.space && a.generic == b.generic) return unknown_base((MemSpace)a.space, a.generic);
    return unknown_base(SPACE_GENERIC, true);
}

typedef struct MemCtx {
    Function *fn;
    const Cfg *c;
    const Ssa *s;
    MemBase *vb;
    SymTab syms;
} MemCtx;

static MemBase operand_base(MemCtx *x, uint32_t i, int k)
{
    const Instr *in = &x->c->instr[i]->u.instr;
    const Operand *o = &in->ops[k];
    if (o->kind == OPND_SYM) return symbol_base(&x->syms, opnd_text(o));
    if (o->kind != OPND_REG || !o->u.reg || o->u.reg->special) return (MemBase){ 0 };
    SsaValue v = ssa_operand_value(x->s, i, k);
    return v == ANA_NONE ? (MemBase){ 0 } : x->vb[v];
}

static MemBase transfer(MemCtx *x, SsaValue v)
{
    const SsaVal *sv = &x->s->v[v];
    MemBase none = { 0 };
    if (sv->kind == SSA_ENTRY || sv->reg == x->s->nvars - 1) return none;
    if (sv->kind == SSA_PHI) {
        MemBase m = none;
        for (uint32_t j = 0; j < sv->nargs; j++) m = meet(m, x->vb[sv->args[j]]);
        return m;
    }
    uint32_t i = sv->instr;
    const Instr *in = &x->c->instr[i]->u.instr;
    MemBase r = none;
    if (sv->opnd != 0 || sv->elem != 255) return unknown_base(SPACE_GENERIC, true);
    switch (in->op) {
    case OP_mov:
        if (in->nops == 2 && in->ops[1].kind != OPND_VEC) r = operand_base(x, i, 1);
        else r = unknown_base(SPACE_GENERIC, true);
        break;
    case OP_ld: {
        const Operand *a = in->nops >= 2 ? &in->ops[1] : NULL;
        unsigned aw = x->fn->mod->address_size == 32 ? 32 : 64;
        if (type_bits(instr_type(in)) != aw) {
            r = none;   /* narrower than an address: data, not a pointer */
            break;
        }
        if (a && a->kind == OPND_ADDR && a->n == 1 && a->u.elems[0].kind == OPND_SYM &&
            str_eqc(instr_space(in), ".param")) {
            MemBase sb = symbol_base(&x->syms, opnd_text(&a->u.elems[0]));
            if (sb.kind == BASE_VAR && sb.space == SPACE_PARAM && sb.index < x->fn->nparam &&
                x->fn->params[sb.index]->ndecl && str_eq(x->fn->params[sb.index]->decls[0].name, sb.name)) {
                r.kind = BASE_PARAM;
                r.index = sb.index;
                r.name = sb.name;
                /* a kernel's pointer arguments are generic addresses of global memory */
                r.space = (uint8_t)(x->fn->is_entry ? SPACE_GLOBAL : SPACE_GENERIC);
                r.generic = true;
                break;
            }
        }
        r = unknown_base(SPACE_GENERIC, true);
        break;
    }
    case OP_cvta: {
        bool to = instr_has_mod(in, ".to");
        MemSpace sp = SPACE_GENERIC;
        int nm = instr_nmods(in);
        for (int k = 0; k < nm; k++) {
            MemSpace t = space_of_mod(instr_mod(in, k));
            if (t != SPACE_GENERIC && t != SPACE_OTHER) sp = t;
        }
        r = operand_base(x, i, 1);
        if (r.kind == BASE_NONE) r.kind = BASE_UNKNOWN;
        r.space = (uint8_t)sp;
        r.generic = !to;
        break;
    }
    case OP_add: case OP_sub: case OP_mad: case OP_and: case OP_or: case OP_cvt: case OP_selp: case OP_min:
    case OP_max: {
        MemBase acc = none;
        int last = in->op == OP_selp ? 2 : in->nops - 1;
        for (int k = 1; k <= last && k < in->nops; k++) {
            MemBase b = operand_base(x, i, k);
            if (b.kind == BASE_NONE) continue;
            if (in->op == OP_sub && k == 2) {
                /* p - q of one object is an integer; anything else is unknown */
                acc = base_eq(&acc, &b) ? none : unknown_base(SPACE_GENERIC, true);
                break;
            }
            if (in->op == OP_mad && k < 3) continue;   /* a product is an offset, not a pointer */
            acc = acc.kind == BASE_NONE ? b : (base_eq(&acc, &b) ? acc : unknown_base(SPACE_GENERIC, true));
        }
        r = acc;
        break;
    }
    default: {
        /* other arithmetic (mul, shl, ...) makes offsets, not pointers; other
         * instructions (loads of pointers, atomics, calls) give unknown ones */
        uint32_t fl = x->c->iflags[i];
        if (fl & OPF_PURE) return none;
        r = unknown_base(SPACE_GENERIC, true);
        break;
    }
    }
    return r;
}

static int address_operand(const Instr *in)
{
    for (int k = 0; k < in->nops; k++)
        if (in->ops[k].kind == OPND_ADDR && in->ops[k].n == 1) return k;
    return -1;
}

static MemInfo *memory_build(Function *fn)
{
    Arena *a = ana_arena(fn);
    MemCtx x = { .fn = fn, .c = cfg_get(fn), .s = ssa_get(fn) };
    const Ssa *s = x.s;
    const Cfg *c = x.c;
    MemInfo *mi = ARENA_NEW(a, MemInfo);
    symtab_build(&x.syms, fn, a);
    x.vb = mi->value_base = ARENA_ARRAY(a, MemBase, s->nvalues + 1);
    /* values in layout-independent order: reachable blocks in RPO, then the rest */
    U32Vec order = { 0 };
    for (uint32_t r = 0; r < c->nrpo; r++) u32_push(&order, c->rpo[r]);
    for (uint32_t b = 0; b < c->n; b++)
        if (!cfg_reachable(c, b)) u32_push(&order, b);
    for (int round = 0; round < 16; round++) {
        bool changed = false;
        for (uint32_t oi = 0; oi < order.n; oi++) {
            uint32_t b = order.v[oi];
            for (uint32_t k = s->phi_start[b]; k < s->phi_start[b + 1]; k++) {
                MemBase nb = transfer(&x, s->phis[k]);
                if (!base_eq(&nb, &x.vb[s->phis[k]])) { x.vb[s->phis[k]] = nb; changed = true; }
            }
            for (uint32_t i = c->block_instr[b]; i < c->block_instr[b + 1]; i++)
                for (uint32_t k = s->def_start[i]; k < s->def_start[i + 1]; k++) {
                    SsaValue v = s->defs[k];
                    MemBase nb = transfer(&x, v);
                    if (!base_eq(&nb, &x.vb[v])) { x.vb[v] = nb; changed = true; }
                }
        }
        if (!changed) break;
        if (round == 15) {
            /* cannot happen on a finite lattice with monotone transfer; stay sound */
            for (uint32_t v = 0; v < s->nvalues; v++)
                if (x.vb[v].kind != BASE_NONE) x.vb[v] = unknown_base(SPACE_GENERIC, true);
        }
    }
    u32_free(&order);

    /* accesses */
    mi->acc_of_instr = ARENA_ARRAY(a, uint32_t, c->ninstr + 1);
    uint32_t nacc = 0;
    for (uint32_t i = 0; i < c->ninstr; i++) {
        mi->acc_of_instr[i] = ANA_NONE;
        const Instr *in = &c->instr[i]->u.instr;
        uint32_t fl = c->iflags[i];
        if ((fl & (OPF_LOAD | OPF_STORE | OPF_ATOMIC)) && in->op != OP_call && address_operand(in) >= 0) nacc++;
        else if ((in->op == OP_prefetch || in->op == OP_prefetchu) && address_operand(in) >= 0) nacc++;
    }
    mi->acc = ARENA_ARRAY(a, MemAccess, nacc + 1);
    for (uint32_t i = 0; i < c->ninstr; i++) {
        const Instr *in = &c->instr[i]->u.instr;
        uint32_t fl = c->iflags[i];
        int ak = address_operand(in);
        bool pf = in->op == OP_prefetch || in->op == OP_prefetchu;
        if (ak < 0 || in->op == OP_call || (!(fl & (OPF_LOAD | OPF_STORE | OPF_ATOMIC)) && !pf)) continue;
        MemAccess *m = &mi->acc[mi->nacc];
        mi->acc_of_instr[i] = mi->nacc++;
        m->instr = i;
        m->opnd = ak;
        if (pf) m->flags |= MACC_PREFETCH;
        if (fl & OPF_ATOMIC) m->flags |= MACC_ATOMIC;
        if (fl & OPF_LOAD) m->flags |= MACC_LOAD;
        if (fl & OPF_STORE) m->flags |= MACC_STORE;
        if (fl & OPF_ASYNC) m->flags |= MACC_ASYNC;
        if (instr_has_mod(in, ".nc") || in->op == OP_ldu) m->flags |= MACC_NC;
        if ((fl & OPF_SIDE_EFFECT) && (fl & OPF_LOAD) && !(fl & (OPF_STORE | OPF_ATOMIC))) m->flags |= MACC_VOLATILE;
        unsigned tb = type_bits(instr_type(in));
        m->bytes = tb >= 8 ? tb / 8 * instr_vec(in) : 0;
        const Operand *ad = &in->ops[ak];
        const Operand *b = &ad->u.elems[0];
        if (b->kind == OPND_SYM) m->base = symbol_base(&x.syms, opnd_text(b));
        else if (b->kind == OPND_REG && b->u.reg && !b->u.reg->special) {
            for (uint32_t u = s->use_start[i]; u < s->use_start[i + 1]; u++)
                if (s->uses[u].opnd == ak && (s->uses[u].flags & REF_ADDR)) {
                    m->base = x.vb[s->uses[u].value];
                    break;
                }
        }
        if (m->base.kind == BASE_NONE) m->base = unknown_base(SPACE_GENERIC, true);
        if (m->base.kind == BASE_VAR && m->base.space == SPACE_PARAM && m->base.index < fn->nparam) {
            const Decl *pd = fn->params[m->base.index];
            for (uint32_t k = 0; k < pd->ndecl; k++)
                if (str_eq(pd->decls[k].name, m->base.name)) m->flags |= MACC_ARG;
        }
        MemSpace sp = space_of_mod(instr_space(in));
        m->generic = sp == SPACE_GENERIC;
        m->space = (uint8_t)(m->generic ? (MemSpace)m->base.space : sp);
        if (m->generic && m->space == SPACE_NONE) m->space = SPACE_GENERIC;
        m->addr = vterms_address(fn, i, ak);
    }
    /* read-only parameters: only loaded through, at least once with .nc, never escaping */
    mi->nparams = fn->nparam;
    mi->param_readonly = ARENA_ARRAY(a, bool, fn->nparam + 1);
    if (fn->is_entry) {
        bool *nc = xcalloc(fn->nparam + 1, 1), *bad = xcalloc(fn->nparam + 1, 1);
        for (uint32_t k = 0; k < mi->nacc; k++) {
            const MemAccess *m = &mi->acc[k];
            if (m->base.kind != BASE_PARAM) continue;
            if (m->flags & (MACC_STORE | MACC_ATOMIC)) bad[m->base.index] = true;
            if (m->flags & MACC_NC) nc[m->base.index] = true;
        }
        /* escapes: a value derived from the parameter used other than as an address */
        for (uint32_t u = 0; u < s->use_start[c->ninstr]; u++) {
            const SsaUse *su = &s->uses[u];
            const MemBase *vb = &x.vb[su->value];
            if (vb->kind != BASE_PARAM || (su->flags & (REF_ADDR | REF_MEM))) continue;
            const Instr *in = &c->instr[su->instr]->u.instr;
            uint32_t fl = c->iflags[su->instr];
            if (fl & (OPF_STORE | OPF_ATOMIC | OPF_CALL) || in->op == OP_UNKNOWN) bad[vb->index] = true;
        }
        for (uint32_t p = 0; p < fn->nparam; p++) mi->param_readonly[p] = nc[p] && !bad[p];
        free(nc);
        free(bad);
    }
    return mi;
}

const MemInfo *memory_get(Function *fn)
{
    AnalysisCache *ac = analysis_cache(fn);
    if (!ac->mem) ac->mem = memory_build(fn);
    return ac->mem;
}

static bool writes(const MemAccess *m) { return (m->flags & (MACC_STORE | MACC_ATOMIC)) != 0; }

static bool immutable(Function *fn, const MemInfo *mi, const MemAccess *m)
{
    if (writes(m)) return false;
    if (m->flags & MACC_NC) return true;
    if (m->space == SPACE_CONST) return true;
    if (m->base.kind == BASE_PARAM && m->base.index < mi->nparams && mi->param_readonly[m->base.index]) return true;
    if ((m->flags & MACC_ARG) && fn->is_entry) return true;   /* a kernel's parameters never change */
    return false;
}

static bool known_space(uint8_t s) { return s != SPACE_GENERIC && s != SPACE_NONE && s != SPACE_OTHER; }

AliasResult memory_alias(Function *fn, uint32_t ia, uint32_t ib)
{
    const MemInfo *mi = memory_get(fn);
    const Cfg *c = cfg_get(fn);
    if (ia >= c->ninstr || ib >= c->ninstr) return ALIAS_MAY;
    uint32_t xa = mi->acc_of_instr[ia], xb = mi->acc_of_instr[ib];
    if (xa == ANA_NONE || xb == ANA_NONE) return ALIAS_MAY;
    const MemAccess *A = &mi->acc[xa], *B = &mi->acc[xb];
    if (known_space(A->space) && known_space(B->space) && A->space != B->space) {
        /* shared::cluster windows include the CTA's own shared memory */
        bool sh = (A->space == SPACE_SHARED && B->space == SPACE_SHARED_CLUSTER) ||
                  (B->space == SPACE_SHARED && A->space == SPACE_SHARED_CLUSTER);
        if (!sh) return ALIAS_NO;
    }
    if ((immutable(fn, mi, A) && writes(B)) || (immutable(fn, mi, B) && writes(A))) return ALIAS_NO;
    const MemBase *ba = &A->base, *bb = &B->base;
    bool same_base = false;
    if (ba->kind == BASE_VAR && bb->kind == BASE_VAR) {
        if (!str_eq(ba->name, bb->name)) return ALIAS_NO;
        same_base = true;
    } else if (ba->kind == BASE_PARAM && bb->kind == BASE_PARAM) {
        same_base = ba->index == bb->index;
    } else if ((ba->kind == BASE_VAR && bb->kind == BASE_PARAM) || (ba->kind == BASE_PARAM && bb->kind == BASE_VAR)) {
        /* a local/shared/param variable is not reachable through a kernel argument */
        const MemBase *v = ba->kind == BASE_VAR ? ba : bb;
        if (v->space == SPACE_LOCAL || v->space == SPACE_SHARED || v->space == SPACE_PARAM) return ALIAS_NO;
    }
    (void)same_base;
    if (A->addr && B->addr && A->addr->width == B->addr->width) {
        const Term *d = term_sub(vterms_get(fn)->tt, B->addr, A->addr);
        if (d->op == T_CONST) {
            int64_t off = (int64_t)d->k;
            if (d->width < 64) {
                uint64_t m = (1ull << d->width) - 1;
                off = (int64_t)(d->k & m);
                if ((d->k >> (d->width - 1)) & 1) off = (int64_t)(d->k | ~m);
            }
            if (A->bytes && B->bytes) {
                if (off >= (int64_t)A->bytes || -off >= (int64_t)B->bytes) return ALIAS_NO;
                if (off == 0 && A->bytes == B->bytes) return ALIAS_MUST;
            }
        }
    }
    return ALIAS_MAY;
}
