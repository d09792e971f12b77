/* emit_pairs.c — form (a), the thesis's Listing 5.1: every eligible load
 * becomes a complementary predicated pair,
 *
 *     @%p  ld.global.f32      %f1, [%rd2];   // caching warps: the original operator
 *     @!%p ld.global.cg.f32   %f1, [%rd2];   // bypassing warps
 *
 * The cached half keeps the load's own operator, not an explicit .ca: a
 * plain ld.global and ld.global.ca encode differently on sm_75..sm_90
 * (§3.3), so the caching warps run exactly the original instruction.  A
 * load already guarded by @g (or @!g) takes combined guards computed just
 * before it (the guard may be written anywhere before):
 *
 *     and.pred %q1, %g, %p;   and.pred %q2, %g, !%p;
 *     @%q1 ld...;             @%q2 ld.<bypass>...;
 *
 * Each thread runs exactly one half, so a destination that also appears
 * in the address is read before it is written in every thread.  With no
 * predicate (T = 0) the load itself becomes the bypass variant.  The
 * operator is the site's own (op=auto: .cg or, for .nc, .L1::no_allocate). */
#include "opt/bypass/internal.h"

static Operand copy_operand(Module *m, const Operand *o)
{
    Operand c = *o;
    if ((o->kind == OPND_ADDR || o->kind == OPND_VEC || o->kind == OPND_LIST || o->kind == OPND_PAIR) && o->n) {
        Operand *e = ARENA_ARRAY(&m->arena, Operand, o->n);
        for (int i = 0; i < o->n; i++) e[i] = copy_operand(m, &o->u.elems[i]);
        c.u.elems = e;
    }
    return c;
}

Stmt *byp_copy_load(Function *fn, const Stmt *st, const char *full)
{
    const Instr *in = &st->u.instr;
    Stmt *c = ir_new_instr(fn, full, in->nops);
    for (int i = 0; i < in->nops; i++) c->u.instr.ops[i] = copy_operand(fn->mod, &in->ops[i]);
    c->u.instr.guard = in->guard;
    c->u.instr.guard_neg = in->guard_neg;
    c->line = st->line;
    c->col = st->col;
    return c;
}

/* The guard a half runs under: p (or !p) combined with the load's own. */
static void guard_half(Function *fn, Stmt *at, Instr *half, Reg *p, bool neg)
{
    if (!half->guard) {
        half->guard = p;
        half->guard_neg = neg;
        return;
    }
    Reg *q = ir_fresh_reg(fn, ".pred");
    Operand g = ir_op_reg(half->guard), pp = ir_op_reg(p);
    if (half->guard_neg) g.flags |= OPNDF_NEG;
    if (neg) pp.flags |= OPNDF_NEG;
    Operand ops[3] = { ir_op_reg(q), g, pp };
    ir_insert_before(at, byp_instr(fn, "and.pred", 3, ops));
    half->guard = q;
    half->guard_neg = false;
}

void byp_emit_pairs(Function *fn, Site *s, int n, Reg *pred)
{
    Module *m = fn->mod;
    for (int i = 0; i < n; i++) {
        if (s[i].skip) continue;
        Stmt *st = s[i].st;
        const char *bfull = byp_bypass_full(m, &st->u.instr, s[i].op);
        if (!pred) {
            ir_set_full(m, &st->u.instr, bfull);
            ir_touch(st);
            continue;
        }
        Stmt *by = byp_copy_load(fn, st, bfull);          /* with st's own guard */
        guard_half(fn, st, &st->u.instr, pred, false);    /* the and.preds go before st: they read */
        guard_half(fn, st, &by->u.instr, pred, true);     /* the guard where the load would */
        ir_touch(st);
        ir_insert_after(st, by);
    }
}
