/* emit_l2policy.c — form (c), the horizontal partition moved to L2
 * (sm_80+, PTX ISA 7.4; research seed-002 §3.3): one 64-bit cache policy
 * per warp, made once at entry,
 *
 *     createpolicy.fractional.L2::evict_last.b64   %keep;     // fraction 1.0
 *     createpolicy.fractional.L2::evict_first.b64  %stream;
 *     selp.b64 %pol, %keep, %stream, %p;                     // %p: warp < T
 *
 * and every eligible load names it:
 *
 *     ld.global.L2::cache_hint.f32 %f1, [%rd2], %pol;
 *
 * The caching warps' lines are kept in L2 (evict_last), the others' are
 * evicted first.  The load keeps its L1 operator, its guard and its place:
 * one load per site, so ptxas's unrolling and scheduling are those of the
 * original (the pairs form loses them, §3.3 table).  What it cannot do is
 * keep the streaming warps out of L1.  With no predicate (T = 0) only the
 * evict_first policy is made. */
#include <stdio.h>

#include "opt/bypass/internal.h"

static Reg *policy(Function *fn, Anchor *a, const char *priority)
{
    Reg *r = ir_fresh_reg(fn, ".b64");
    char full[96];
    snprintf(full, sizeof full, "createpolicy.fractional.L2::%s.b64", priority);
    Operand op = ir_op_reg(r);
    byp_put(a, byp_instr(fn, full, 1, &op));
    return r;
}

void byp_emit_l2policy(Function *fn, Anchor *a, Site *s, int n, Reg *pred)
{
    Module *m = fn->mod;
    Reg *pol = policy(fn, a, "evict_first");
    if (pred) {
        Reg *keep = policy(fn, a, "evict_last"), *sel = ir_fresh_reg(fn, ".b64");
        Operand ops[4] = { ir_op_reg(sel), ir_op_reg(keep), ir_op_reg(pol), ir_op_reg(pred) };
        byp_put(a, byp_instr(fn, "selp.b64", 4, ops));
        pol = sel;
    }
    for (int i = 0; i < n; i++) {
        if (s[i].skip) continue;
        Stmt *st = s[i].st;
        Instr *in = &st->u.instr;
        Operand *ops = ARENA_ARRAY(&m->arena, Operand, in->nops + 1);
        for (int k = 0; k < in->nops; k++) ops[k] = in->ops[k];
        ops[in->nops] = ir_op_reg(pol);
        ir_set_full(m, in, byp_hint_full(m, in));
        in->ops = ops;
        in->nops++;
        ir_touch(st);
    }
}
