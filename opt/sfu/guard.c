/* guard.c — sinf and cosf keep nvcc's precise code for the arguments the
 * approximation is not documented for (issue 24 item 4).
 *
 * sin.approx.f32 / cos.approx.f32 are documented to 2^-20.5 absolute on
 * [-2 pi, 2 pi] and 2^-14.7 on [-100 pi, 100 pi], with "no defined error
 * guarantees" outside.  ptxas lowers them to FMUL.RZ by 1/2 pi (an f32
 * constant) and MUFU.SIN of the product: beyond the range the product's
 * rounding loses the argument's fraction (errors of 0.1 to 1 for |x| of
 * 1e6 to 1e8; emu/approx_error.c models it).  The CUDA programming guide
 * tells __sinf users to range-check by hand; the pass does it for them:
 *
 *         abs.f32       g, x
 *         setp.gtu.f32  p, g, 0f439D1462      // |x| > 100 pi (314.159) or NaN
 *     @p  bra           $slow
 *         sin.approx.f32 out, x
 *     $back:
 *         ...
 *     (after the function's last block)
 *     $slow:
 *         <the fingerprint: nvcc's own sinf, fresh registers, x as input>
 *         mov.f32 out, <its output>
 *         bra $back
 *
 * The precise code is the fingerprint the site matched, instantiated: it
 * came from the same nvcc with the same flags, and it computed the same
 * value graph as the user's region (match.c), so it computes the same.
 * Its depot address roles become the address the user's region used
 * (__local_depotN + offset), set up afresh. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/clone.h"
#include "opt/sfu/internal.h"

/* 100 pi rounded down to f32 (314.159241): the bound holds up to here */
#define HUNDRED_PI_F32 0x439D1462u

static Operand fimm(Module *m, uint32_t bits)
{
    char buf[16];
    snprintf(buf, sizeof buf, "0f%08X", bits);
    size_t n = strlen(buf);
    return (Operand){ .kind = OPND_FLOAT, .text = arena_strndup(&m->arena, buf, n), .textlen = (uint32_t)n, .value = bits };
}

static Stmt *instr(Function *fn, const char *full, int nops, const Operand *ops)
{
    Stmt *s = ir_new_instr(fn, full, nops);
    for (int k = 0; k < nops; k++) s->u.instr.ops[k] = ops[k];
    return s;
}

typedef struct Inst {
    Function *fn, *ff;
    Reg **reg;           /* [ff->nregs] the user's register for each of the fingerprint's */
    Str *lfrom, *lto;    /* the fingerprint's labels and their fresh names */
    int nl;
} Inst;

static Str map_label(const Inst *t, Str l)
{
    for (int k = 0; k < t->nl; k++)
        if (str_eq(t->lfrom[k], l)) return t->lto[k];
    return (Str){ 0 };
}

/* A copy of one of the fingerprint's operands for the user's function. */
static Operand copy_operand(const Inst *t, const Operand *o)
{
    Module *m = t->fn->mod;
    Operand c = *o;
    switch (o->kind) {
    case OPND_REG:
        if (o->u.reg->special) c.u.reg = ir_op_special(t->fn, arena_strndup(&m->arena, o->u.reg->name.p, o->u.reg->name.len), o->comp).u.reg;
        else c.u.reg = t->reg[o->u.reg->id];
        break;
    case OPND_SYM: {
        Str l = map_label(t, opnd_text(o));
        Str name = l.len ? l : opnd_text(o);
        c = ir_op_sym(m, (Str){ arena_strndup(&m->arena, name.p, name.len), name.len }, o->value);
        break;
    }
    case OPND_INT:
    case OPND_FLOAT:
    case OPND_EXPR:
        c.text = arena_strndup(&m->arena, o->text, o->textlen);
        break;
    case OPND_ADDR:
    case OPND_VEC:
    case OPND_LIST:
    case OPND_PAIR:
        if (o->n) {
            Operand *e = ARENA_ARRAY(&m->arena, Operand, o->n);
            for (int k = 0; k < o->n; k++) e[k] = copy_operand(t, &o->u.elems[k]);
            c.u.elems = e;
        }
        break;
    default: break;
    }
    return c;
}

static Str fresh_label(Function *fn, const char *what)
{
    static unsigned counter;
    return sfu_fresh_label(fn, SFU_GUARD_PREFIX, what, &counter);
}

/* Appends statement st to the out-of-line code: a label starts a block, a
 * terminator ends one. */
static Block *put(Function *fn, Block *cur, Stmt *st)
{
    if (st->kind == STMT_LABEL && cur->first) {
        cur = ir_new_block_after(cur);
        cur->label = st->u.label;
    } else if (st->kind == STMT_LABEL) {
        cur->label = st->u.label;
    }
    ir_append(cur, st);
    if (st->kind == STMT_INSTR && (opcode_flags(st->u.instr.op) & OPF_TERMINATOR)) cur = ir_new_block_after(cur);
    (void)fn;
    return cur;
}

void sfu_guard(Function *fn, SfuSite *s, Stmt *first, Stmt *last)
{
    Module *m = fn->mod;
    const FpLib *l = sfu_fplib(s->fp_index);
    Function *ff = l ? sfu_fplib_function(l) : NULL;
    if (!ff) return;
    Str slow = fresh_label(fn, "slow"), back = fresh_label(fn, "back");
    /* the test, in front of the approximate code */
    Reg *g = ir_fresh_reg(fn, ".f32"), *p = ir_fresh_reg(fn, ".pred");
    ir_insert_before(first, instr(fn, "abs.f32", 2, (Operand[]){ ir_op_reg(g), s->in[0] }));
    ir_insert_before(first, instr(fn, "setp.gtu.f32", 3, (Operand[]){ ir_op_reg(p), ir_op_reg(g), fimm(m, HUNDRED_PI_F32) }));
    Stmt *br = instr(fn, "bra", 1, (Operand[]){ ir_op_sym(m, slow, 0) });
    br->u.instr.guard = p;
    ir_insert_before(first, br);
    for (Stmt *t = first; t; t = t->next) {
        t->line = first->line;
        if (t == last) break;
    }
    /* blocks: [... @p bra $slow] [approximate code] [$back: the rest] */
    Block *approx = ir_split_block_before(first);
    Block *rest = last->next ? ir_split_block_before(last->next) : ir_new_block_after(approx);
    Stmt *bl = ir_new_label(fn, back);
    if (rest->first) ir_insert_before(rest->first, bl);
    else ir_append(rest, bl);
    rest->label = back;
    /* the out-of-line precise code after the function's last block */
    Block *end = fn->last;
    if (ir_block_falls_through(end)) {
        Stmt *ret = ir_new_instr(fn, "ret", 0);
        Stmt *li = ir_block_last_instr(end);
        if (li && (opcode_flags(li->u.instr.op) & OPF_TERMINATOR)) end = ir_new_block_after(end);
        ir_append(end, ret);
    }
    Block *cur = ir_new_block_after(end);
    Inst t = { .fn = fn, .ff = ff };
    t.reg = calloc(ff->nregs ? ff->nregs : 1, sizeof *t.reg);
    int nlab = 0;
    FOR_EACH_BLOCK (b, ff)
        FOR_EACH_STMT (st, b) nlab += st->kind == STMT_LABEL;
    t.lfrom = calloc((size_t)nlab + 1, sizeof *t.lfrom);
    t.lto = calloc((size_t)nlab + 1, sizeof *t.lto);
    FOR_EACH_BLOCK (b, ff)
        FOR_EACH_STMT (st, b)
            if (st->kind == STMT_LABEL) {
                t.lfrom[t.nl] = st->u.label;
                t.lto[t.nl++] = fresh_label(fn, "p");
            }
    cur = put(fn, cur, ir_new_label(fn, slow));
    /* the roles: inputs copied in, depot addresses set up, the rest fresh */
    Reg *outr = NULL;
    /* one range declaration per type for the copy's registers */
    for (uint32_t r = 0; r < ff->nregs; r++) {
        Reg *fr = ff->regs[r];
        if (fr->special || t.reg[r]) continue;
        uint32_t cnt = 0;
        for (uint32_t q = r; q < ff->nregs; q++) cnt += !ff->regs[q]->special && str_eq(ff->regs[q]->type, fr->type);
        Reg **got = malloc(sizeof *got * cnt);
        char ty[16];
        snprintf(ty, sizeof ty, "%.*s", (int)fr->type.len, fr->type.p);
        ir_fresh_reg_range(fn, ty, cnt, got);
        uint32_t k = 0;
        for (uint32_t q = r; q < ff->nregs; q++)
            if (!ff->regs[q]->special && str_eq(ff->regs[q]->type, fr->type)) t.reg[q] = got[k++];
        free(got);
    }
    for (uint32_t r = 0; r < ff->nregs; r++) {
        Reg *fr = ff->regs[r];
        if (fr->special) continue;
        char ty[16];
        snprintf(ty, sizeof ty, "%.*s", (int)fr->type.len, fr->type.p);
        if (str_eqc(fr->name, s->fp->out)) outr = t.reg[r];
        if (fr->name.len > 2 && fr->name.p[1] == 'i') {
            int k = fr->name.p[2] - '0';
            if (k < 0 || k >= s->nin) continue;
            char mv[24];
            snprintf(mv, sizeof mv, "mov%s", ty);
            cur = put(fn, cur, instr(fn, mv, 2, (Operand[]){ ir_op_reg(t.reg[r]), s->in[k] }));
        } else if (fr->name.len > 2 && fr->name.p[1] == 'x') {
            int k = atoi(fr->name.p + 2);
            if (k < 0 || k > 3 || !s->depot_bound[k]) continue;
            Str sym = s->depot_sym[k];
            cur = put(fn, cur, instr(fn, "mov.u64", 2, (Operand[]){ ir_op_reg(t.reg[r]), ir_op_sym(m, sym, 0) }));
            if (s->depot_off[k])
                cur = put(fn, cur, instr(fn, "add.u64", 3, (Operand[]){ ir_op_reg(t.reg[r]), ir_op_reg(t.reg[r]),
                                                                        ir_op_int(m, s->depot_off[k]) }));
        }
    }
    FOR_EACH_BLOCK (b, ff)
        FOR_EACH_STMT (st, b) {
            if (st->kind == STMT_LABEL) {
                cur = put(fn, cur, ir_new_label(fn, map_label(&t, st->u.label)));
                continue;
            }
            if (st->kind == STMT_DIRECTIVE && st->dirkind == DIR_PRAGMA) {
                /* nvcc's `.pragma "nounroll"` on the reduction loop: kept */
                Stmt *d = ARENA_NEW(&m->arena, Stmt);
                d->kind = STMT_DIRECTIVE;
                d->dirkind = DIR_PRAGMA;
                d->dirty = true;
                d->u.dir.ntok = st->u.dir.ntok;
                d->u.dir.tok = ARENA_ARRAY(&m->arena, Token, st->u.dir.ntok ? st->u.dir.ntok : 1);
                for (uint32_t k = 0; k < st->u.dir.ntok; k++) {
                    Str x = st->u.dir.tok[k].text;
                    d->u.dir.tok[k] = (Token){ { arena_strndup(&m->arena, x.p, x.len), x.len }, st->u.dir.tok[k].kind };
                }
                cur = put(fn, cur, d);
                continue;
            }
            if (st->kind != STMT_INSTR) continue;
            const Instr *in = &st->u.instr;
            if (in->op == OP_ret) {
                /* the fingerprint's exit: the output to the user's register, back */
                char mv[24];
                snprintf(mv, sizeof mv, "mov%.*s", (int)s->out->type.len, s->out->type.p);
                if (outr) cur = put(fn, cur, instr(fn, s->out->type.len ? mv : "mov.f32", 2, (Operand[]){ ir_op_reg(s->out), ir_op_reg(outr) }));
                cur = put(fn, cur, instr(fn, "bra", 1, (Operand[]){ ir_op_sym(m, back, 0) }));
                continue;
            }
            if (in->nops && in->ops[0].kind == OPND_REG && str_eqc(in->ops[0].u.reg->name, "%__out"))
                continue;   /* fplib.c's read of the output at the exit */
            char full[96];
            snprintf(full, sizeof full, "%.*s", (int)in->full.len, in->full.p);
            Stmt *c = ir_new_instr(fn, full, in->nops);
            for (int k = 0; k < in->nops; k++) c->u.instr.ops[k] = copy_operand(&t, &in->ops[k]);
            if (in->guard) c->u.instr.guard = t.reg[in->guard->id];
            c->u.instr.guard_neg = in->guard_neg;
            c->line = first->line;
            cur = put(fn, cur, c);
            if (in->op == OP_ld && str_eqc(instr_space(in), ".local")) {
                s->self = realloc(s->self, sizeof *s->self * (size_t)(s->nself + 1));
                if (!s->self) abort();
                s->self[s->nself++] = c;
            }
        }
    /* the last block opened after a terminator stays empty: drop it */
    if (!cur->first && cur->prev) {
        cur->prev->next = cur->next;
        if (cur->next) cur->next->prev = cur->prev;
        else fn->last = cur->prev;
    }
    free(t.reg), free(t.lfrom), free(t.lto);
    ir_renumber_blocks(fn);
    analysis_invalidate(fn);
}
