/* legality.c — may a matched library region be replaced?
 *
 * The match (match.c) proved that the user's output value is the
 * fingerprint's function of the input values; the approximate code
 * computes that function where the output is defined.  What remains to
 * check is that it can read the inputs there: each input's register must
 * still hold the input's value at that point (nvcc may have reused it in
 * between).  The rest of the precise region needs no proof: prune.c keeps
 * whatever of it is still read.
 *
 * sinf and cosf sites are guarded (guard.c): their precise path is an
 * out-of-line copy of the fingerprint, which reads the depot address the
 * match bound (set up afresh from the depot's symbol). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opt/sfu/internal.h"
#include "analysis/ssa.h"

/* The value of register r where the site's code goes. */
static uint32_t value_at(Function *fn, const SfuSite *s, uint32_t r)
{
    const Cfg *c = cfg_get(fn);
    const Ssa *ss = ssa_get(fn);
    /* the first instruction at or after s->at in its block */
    Stmt *t = s->at;
    while (t && t->kind != STMT_INSTR) t = t->next;
    if (t) return ssa_reaching(ss, cfg_instr_index(c, t), r);
    uint32_t b = cfg_block_index(c, s->at_block);
    return b == ANA_NONE ? ANA_NONE : ssa_at_block_end(ss, b, r);
}

static Operand fimm(Module *m, uint32_t bits)
{
    char buf[16];
    snprintf(buf, sizeof buf, "0f%08X", bits);
    size_t n = strlen(buf);
    return (Operand){ .kind = OPND_FLOAT, .text = arena_strndup(&m->arena, buf, n), .textlen = (uint32_t)n, .value = bits };
}

void sfu_check_region(Function *fn, SfuSite *s)
{
    s->refused = NULL;
    const Ssa *ss = ssa_get(fn);
    for (int k = 0; k < 2; k++) {
        if (k >= s->nin) break;
        if (k == 1 && s->fp->pclass[0]) {
            float c = (float)s->param;
            uint32_t b;
            memcpy(&b, &c, 4);
            s->in[1] = fimm(fn->mod, b);
            continue;
        }
        uint32_t v = s->in_value[k];
        if (v == ANA_NONE) {
            s->refused = "an input the matcher did not bind";
            return;
        }
        const SsaVal *x = &ss->v[v];
        if (x->reg >= fn->nregs) {
            s->refused = "an input that is not a register";
            return;
        }
        Reg *r = fn->regs[x->reg];
        if (r->special) {
            s->in[k] = ir_op_reg(r);
            continue;
        }
        if (value_at(fn, s, x->reg) != v) {
            s->refused = "an input's register is written again before the output is defined";
            return;
        }
        s->in[k] = ir_op_reg(r);
    }
    if (s->kind == SFU_SIN || s->kind == SFU_COS) {
        s->guard = true;
        for (int k = 0; k < 4; k++)
            if (s->depot_bound[k] && !s->depot_sym[k].len) s->refused = "a depot address without its symbol";
    }
}
