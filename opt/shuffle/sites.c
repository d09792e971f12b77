/* sites.c — which global loads may take part in the shuffle pass, and why
 * the others may not (the remark each gets). */
#include "opt/shuffle/internal.h"

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

void shfl_classify(Function *fn, const MemInfo *mi, const MemAccess *a, const LaneFacts *lf, Load *l)
{
    const Instr *in = &l->st->u.instr;
    l->addr = a->addr;
    l->type = instr_type(in);
    l->bits = type_bits(l->type);
    l->nc = a->flags & MACC_NC;
    l->l1_cached = !instr_has_mod(in, ".cg") && !instr_has_mod(in, ".cv") && !instr_has_mod(in, ".L1::no_allocate");
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
