/* legality.c — may a matched library region be replaced as a whole?
 * The fingerprint says the region computes f(inputs) into its output; the
 * rest of the function must not see anything else of it:
 *   - single entry: no branch from outside the region to a label inside it;
 *   - single exit: every branch inside goes to a label inside or to the
 *     exit label right after it (the matcher bound them that way);
 *   - every register the region writes, but its output, is dead at the
 *     exit; a constant the region sets (`mov r, IMM`, r only ever set to
 *     that value) that later code still reads is kept, in front of the
 *     replacement, with the interleaved instructions. */
#include <stdlib.h>
#include <string.h>

#include "opt/sfu/internal.h"

static Stmt *next_stmt(Stmt *s)
{
    if (s->next) return s->next;
    for (Block *b = s->block->next; b; b = b->next)
        if (b->first) return b->first;
    return NULL;
}

static bool skipped(const SfuSite *s, const Stmt *t)
{
    for (int k = 0; k < s->nskip; k++)
        if (s->skip[k] == t) return true;
    return false;
}

/* Registers live just after instruction `at` (a malloc'ed set). */
static uint64_t *live_after(Function *fn, const Stmt *at)
{
    const Cfg *c = cfg_get(fn);
    const Liveness *l = liveness_get(fn);
    uint64_t *set = calloc(l->words ? l->words : 1, sizeof *set);
    uint32_t i = cfg_instr_index(c, at);
    if (i == ANA_NONE) return set;
    uint32_t b = c->instr_block[i];
    if (i + 1 < c->block_instr[b + 1]) liveness_before(l, refs_get(fn), i + 1, set);
    else memcpy(set, l->live_out + (size_t)b * l->words, sizeof *set * l->words);
    return set;
}

static bool only_constant(Function *fn, const Reg *r, int64_t v)
{
    FOR_EACH_BLOCK (b, fn)
        FOR_EACH_STMT (s, b) {
            if (s->kind != STMT_INSTR) continue;
            RegRef refs[32];
            int n = refs_of_instr(fn, &s->u.instr, refs, 32);
            for (int k = 0; k < n && k < 32; k++)
                if ((refs[k].flags & REF_DEF) && refs[k].reg == r->id) {
                    const Instr *in = &s->u.instr;
                    if (in->op != OP_mov || in->guard || in->nops != 2 ||
                        (in->ops[1].kind != OPND_FLOAT && in->ops[1].kind != OPND_INT) || in->ops[1].value != v)
                        return false;
                }
        }
    return true;
}

int sfu_region_stmts(const SfuSite *s, Stmt ***out)
{
    int cap = 64, n = 0;
    Stmt **v = malloc(sizeof *v * (size_t)cap);
    for (int c = -1; c < s->nchunks; c++) {
        Stmt *from = c < 0 ? s->first : s->chunk_first[c], *to = c < 0 ? s->last : s->chunk_last[c];
        for (Stmt *t = from; t; t = next_stmt(t)) {
            if (n == cap) v = realloc(v, sizeof *v * (size_t)(cap *= 2));
            v[n++] = t;
            if (t == to) break;
        }
    }
    *out = v;
    return n;
}

static bool member(Stmt *const *v, int n, const Stmt *t)
{
    for (int k = 0; k < n; k++)
        if (v[k] == t) return true;
    return false;
}

void sfu_check_region(Function *fn, SfuSite *s)
{
    s->refused = NULL;
    Stmt **all;
    int n = sfu_region_stmts(s, &all);
    /* single entry: no branch from outside to a label inside */
    FOR_EACH_BLOCK (b, fn)
        FOR_EACH_STMT (t, b) {
            if (t->kind != STMT_INSTR || !(opcode_flags(t->u.instr.op) & OPF_BRANCH) || member(all, n, t)) continue;
            for (int k = 0; k < t->u.instr.nops && !s->refused; k++) {
                const Operand *o = &t->u.instr.ops[k];
                if (o->kind != OPND_SYM) continue;
                for (int j = 0; j < n; j++)
                    if (all[j]->kind == STMT_LABEL && str_eq(opnd_text(o), all[j]->u.label)) {
                        s->refused = "a branch from outside the region enters it";
                        break;
                    }
            }
        }
    /* everything it writes but the output is dead at the exit */
    uint64_t *live = live_after(fn, s->last);
    for (int j = 0; j < n && !s->refused; j++) {
        Stmt *t = all[j];
        if (t->kind != STMT_INSTR || skipped(s, t)) continue;
        RegRef refs[32];
        int nr = refs_of_instr(fn, &t->u.instr, refs, 32);
        for (int k = 0; k < nr && k < 32 && !s->refused; k++) {
            if (!(refs[k].flags & REF_DEF) || refs[k].reg >= fn->nregs) continue;
            if (s->out && refs[k].reg == s->out->id) continue;
            if (!live_bit(live, refs[k].reg)) continue;
            const Instr *in = &t->u.instr;
            bool cmov = j < n && in->op == OP_mov && !in->guard && in->nops == 2 &&
                        (in->ops[1].kind == OPND_FLOAT || in->ops[1].kind == OPND_INT) &&
                        only_constant(fn, fn->regs[refs[k].reg], in->ops[1].value);
            if (cmov && s->nchunks == 0 && s->nskip < SFU_MAX_SKIP) s->skip[s->nskip++] = t;   /* kept, in front */
            else s->refused = "a value the region computes is used after it";
        }
    }
    free(live);
    free(all);
}
