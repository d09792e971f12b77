/* shuffle_emit.c — the code template of PTXASW (research/seed-003-shuffle.md
 * §3.10), with the hazards of §6.2 fixed:
 *
 *   kernel entry, once:   mov.u32 %lane, %tid.x;  rem.u32 %lane, %lane, 32;
 *                         (+ the row guard, when the block shape is unknown)
 *   after a source S:     mov.b32 %pw, %fS;        (one copy per source)
 *   a destination D, N≠0: activemask.b32  %m;
 *                         setp.ne.s32     %inc, %m, -1;
 *                         setp.gt.u32     %oor, %lane, 31-N;   (N>0)
 *                      or setp.lt.u32     %oor, %lane, |N|;    (N<0)
 *                         or.pred         %fb, %inc, %oor;
 *                        [or.pred         %fb, %fb, %rowbad;]
 *                         shfl.sync.down.b32 %fD|%inc, %pw, N, 31, %m;
 *                      or shfl.sync.up.b32   %fD|%inc, %pw, |N|, 0, %m;
 *                         @%fb ld.global... %fD, [aD];   (the original load)
 *   N = 0:                mov.b32 %fD, %pw;        (the load is removed)
 *
 * A source in a loop (runtime address check): lanes may meet at D in
 * different iterations, so S's address is copied too (before S, which may
 * overwrite its own base register), shuffled with the value, and compared
 * with D's:
 *   before S:             add.s64 %sa, %rS, offS;  mov.b64 {%alo,%ahi}, %sa;
 *   at D, after or.pred:  add.s64 %da, %rD, offD;
 *                         shfl.sync.* %glo|%inc, %alo, ...;  (and %ahi)
 *                         mov.b64 %ga, {%glo,%ghi};
 *                         setp.ne.u64 %bad, %ga, %da;
 *                         or.pred %fb, %fb, %bad;
 * (32-bit addresses: one shuffle, setp.ne.u32.)  A lane whose neighbour
 * loaded another address takes the original load.
 *
 * 64-bit values: the copy is split once (mov.b64 {%lo,%hi}, %fS), each
 * half is shuffled and the halves are joined (mov.b64 %fD, {..}) before
 * the fallback load.  No branch is ever added: the shuffle runs in every
 * active lane (all lanes of %m reach it: nothing but straight-line code
 * lies between activemask and shfl.sync), and only the fallback load is
 * predicated. */
#include "opt/shuffle_impl.h"

#include <stdlib.h>
#include <string.h>

typedef struct SrcCopy {
    Stmt *src;
    Reg *lo, *hi;      /* 32-bit: lo only */
    Reg *alo, *ahi;    /* the address, for the runtime check (NULL until needed) */
} SrcCopy;

static Stmt *add_before(Stmt *pos, Stmt *s) { ir_insert_before(pos, s); return s; }
static Stmt *add_after(Stmt *pos, Stmt *s) { ir_insert_after(pos, s); return s; }

static Stmt *instr2(Function *fn, const char *full, Operand a, Operand b)
{
    Stmt *s = ir_new_instr(fn, full, 2);
    s->u.instr.ops[0] = a, s->u.instr.ops[1] = b;
    return s;
}

static Stmt *instr3(Function *fn, const char *full, Operand a, Operand b, Operand c)
{
    Stmt *s = ir_new_instr(fn, full, 3);
    s->u.instr.ops[0] = a, s->u.instr.ops[1] = b, s->u.instr.ops[2] = c;
    return s;
}

/* The first instruction of the entry block (after the declarations). */
static Stmt *entry_point(Function *fn)
{
    for (Block *b = fn->first; b; b = b->next) {
        Stmt *s = ir_block_first_instr(b);
        if (s) return s;
    }
    return NULL;
}

static SrcCopy *copy_of(Function *fn, SrcCopy *copies, int *n, Stmt *src, int bits)
{
    for (int i = 0; i < *n; i++)
        if (copies[i].src == src) return &copies[i];
    SrcCopy *c = &copies[(*n)++];
    c->src = src;
    Module *m = fn->mod;
    Operand dst = src->u.instr.ops[0];
    c->lo = ir_fresh_reg(fn, ".b32");
    c->hi = NULL;
    c->alo = c->ahi = NULL;
    if (bits == 32) {
        add_after(src, instr2(fn, "mov.b32", ir_op_reg(c->lo), dst));
    } else {
        c->hi = ir_fresh_reg(fn, ".b32");
        Operand halves[2] = { ir_op_reg(c->lo), ir_op_reg(c->hi) };
        add_after(src, instr2(fn, "mov.b64", ir_op_vec(m, halves, 2), dst));
    }
    return c;
}

/* reg+off of a [reg+off] address operand, into a fresh register of the
 * register's width, before pos. */
static Reg *address_value(Function *fn, Stmt *pos, const Operand *addr)
{
    const Operand *base = &addr->u.elems[0];
    bool wide = base->u.reg->cls == RC_B64;
    Reg *r = ir_fresh_reg(fn, wide ? ".b64" : ".b32");
    if (addr->value == 0)
        add_before(pos, instr2(fn, wide ? "mov.b64" : "mov.b32", ir_op_reg(r), *base));
    else
        add_before(pos, instr3(fn, wide ? "add.s64" : "add.s32", ir_op_reg(r), *base, ir_op_int(fn->mod, addr->value)));
    return r;
}

/* The source's address as 32-bit halves, computed once before the source. */
static void copy_address(Function *fn, SrcCopy *c)
{
    if (c->alo) return;
    const Operand *addr = &c->src->u.instr.ops[1], *base = &addr->u.elems[0];
    if (base->u.reg->cls != RC_B64) {
        c->alo = address_value(fn, c->src, addr);
        return;
    }
    Operand whole = addr->value == 0 ? *base : ir_op_reg(address_value(fn, c->src, addr));
    c->alo = ir_fresh_reg(fn, ".b32");
    c->ahi = ir_fresh_reg(fn, ".b32");
    Operand halves[2] = { ir_op_reg(c->alo), ir_op_reg(c->ahi) };
    add_before(c->src, instr2(fn, "mov.b64", ir_op_vec(fn->mod, halves, 2), whole));
}

static Stmt *shuffle(Function *fn, const char *op, Operand out, Reg *pred, Reg *in, int n, int clamp, Reg *mask)
{
    Stmt *sh = ir_new_instr(fn, op, 5);
    /* the output predicate is a sink into the consumed %inc (as the
     * artifact does): reading it would add a dependency */
    sh->u.instr.ops[0] = ir_op_pair(fn->mod, out, ir_op_reg(pred));
    sh->u.instr.ops[1] = ir_op_reg(in);
    sh->u.instr.ops[2] = ir_op_int(fn->mod, n);
    sh->u.instr.ops[3] = ir_op_int(fn->mod, clamp);
    sh->u.instr.ops[4] = ir_op_reg(mask);
    return sh;
}

bool shfl_emit(Function *fn, const ShflSite *sites, int nsites, const ShflEmitOptions *o)
{
    Module *m = fn->mod;
    bool need_mask = false;
    for (int i = 0; i < nsites; i++)
        if (sites[i].delta != 0 && !o->no_load) need_mask = true;

    /* once per kernel: the lane index and the row guard */
    Reg *lane = NULL, *rowbad = NULL;
    Stmt *entry = entry_point(fn);
    if (need_mask && entry) {
        lane = ir_fresh_reg(fn, ".u32");
        add_before(entry, instr2(fn, "mov.u32", ir_op_reg(lane), ir_op_special(fn, "%tid", 'x')));
        add_before(entry, instr3(fn, "rem.u32", ir_op_reg(lane), ir_op_reg(lane), ir_op_int(m, 32)));
        if (o->row_guard) {
            /* tid.x % 32 is the lane and tid.x + N in the same warp only if
             * ntid.x % 32 == 0 or the block is one row (ntid.y*ntid.z == 1) */
            Reg *nx = ir_fresh_reg(fn, ".u32"), *nyz = ir_fresh_reg(fn, ".u32"), *nz = ir_fresh_reg(fn, ".u32");
            Reg *p1 = ir_fresh_reg(fn, ".pred");
            rowbad = ir_fresh_reg(fn, ".pred");
            add_before(entry, instr2(fn, "mov.u32", ir_op_reg(nx), ir_op_special(fn, "%ntid", 'x')));
            add_before(entry, instr3(fn, "and.b32", ir_op_reg(nx), ir_op_reg(nx), ir_op_int(m, 31)));
            add_before(entry, instr3(fn, "setp.ne.u32", ir_op_reg(p1), ir_op_reg(nx), ir_op_int(m, 0)));
            add_before(entry, instr2(fn, "mov.u32", ir_op_reg(nyz), ir_op_special(fn, "%ntid", 'y')));
            add_before(entry, instr2(fn, "mov.u32", ir_op_reg(nz), ir_op_special(fn, "%ntid", 'z')));
            add_before(entry, instr3(fn, "mul.lo.u32", ir_op_reg(nyz), ir_op_reg(nyz), ir_op_reg(nz)));
            add_before(entry, instr3(fn, "setp.ne.u32", ir_op_reg(rowbad), ir_op_reg(nyz), ir_op_int(m, 1)));
            add_before(entry, instr3(fn, "and.pred", ir_op_reg(rowbad), ir_op_reg(rowbad), ir_op_reg(p1)));
        }
    }

    SrcCopy *copies = calloc((size_t)nsites + 1, sizeof *copies);
    int ncopies = 0;
    for (int i = 0; i < nsites; i++) {
        const ShflSite *st = &sites[i];
        SrcCopy *c = copy_of(fn, copies, &ncopies, st->src, st->bits);
        Stmt *d = st->dst;
        Operand dst = d->u.instr.ops[0];
        if (st->delta == 0 || o->no_load) {
            /* plain reuse (or the no-load ablation): the load goes away */
            if (st->bits == 32) {
                add_before(d, instr2(fn, "mov.b32", dst, ir_op_reg(c->lo)));
            } else {
                Operand halves[2] = { ir_op_reg(c->lo), ir_op_reg(c->hi) };
                add_before(d, instr2(fn, "mov.b64", dst, ir_op_vec(m, halves, 2)));
            }
            ir_remove(d);
            continue;
        }
        int n = st->delta < 0 ? -st->delta : st->delta;
        Reg *mask = ir_fresh_reg(fn, ".b32"), *inc = ir_fresh_reg(fn, ".pred"), *oor = ir_fresh_reg(fn, ".pred");
        Reg *fb = ir_fresh_reg(fn, ".pred");
        Stmt *am = ir_new_instr(fn, "activemask.b32", 1);
        am->u.instr.ops[0] = ir_op_reg(mask);
        add_before(d, am);
        add_before(d, instr3(fn, "setp.ne.s32", ir_op_reg(inc), ir_op_reg(mask), ir_op_int(m, -1)));
        if (st->delta > 0)
            add_before(d, instr3(fn, "setp.gt.u32", ir_op_reg(oor), ir_op_reg(lane), ir_op_int(m, 31 - n)));
        else
            add_before(d, instr3(fn, "setp.lt.u32", ir_op_reg(oor), ir_op_reg(lane), ir_op_int(m, n)));
        add_before(d, instr3(fn, "or.pred", ir_op_reg(fb), ir_op_reg(inc), ir_op_reg(oor)));
        if (rowbad) add_before(d, instr3(fn, "or.pred", ir_op_reg(fb), ir_op_reg(fb), ir_op_reg(rowbad)));
        const char *op = st->delta > 0 ? "shfl.sync.down.b32" : "shfl.sync.up.b32";
        int clamp = st->delta > 0 ? 31 : 0;
        Reg *halves_in[2] = { c->lo, c->hi };
        Reg *halves_out[2] = { NULL, NULL };
        Reg *da = st->check ? address_value(fn, d, &d->u.instr.ops[1]) : NULL;
        for (int h = 0; h < (st->bits == 64 ? 2 : 1); h++) {
            Operand out = st->bits == 32 ? dst : ir_op_reg(halves_out[h] = ir_fresh_reg(fn, ".b32"));
            add_before(d, shuffle(fn, op, out, inc, halves_in[h], n, clamp, mask));
        }
        if (st->bits == 64) {
            Operand hv[2] = { ir_op_reg(halves_out[0]), ir_op_reg(halves_out[1]) };
            add_before(d, instr2(fn, "mov.b64", dst, ir_op_vec(m, hv, 2)));
        }
        if (da) {
            copy_address(fn, c);
            Reg *bad = ir_fresh_reg(fn, ".pred");
            if (!c->ahi) {
                Reg *got = ir_fresh_reg(fn, ".b32");
                add_before(d, shuffle(fn, op, ir_op_reg(got), inc, c->alo, n, clamp, mask));
                add_before(d, instr3(fn, "setp.ne.u32", ir_op_reg(bad), ir_op_reg(got), ir_op_reg(da)));
            } else {
                Reg *glo = ir_fresh_reg(fn, ".b32"), *ghi = ir_fresh_reg(fn, ".b32"), *got = ir_fresh_reg(fn, ".b64");
                add_before(d, shuffle(fn, op, ir_op_reg(glo), inc, c->alo, n, clamp, mask));
                add_before(d, shuffle(fn, op, ir_op_reg(ghi), inc, c->ahi, n, clamp, mask));
                Operand gv[2] = { ir_op_reg(glo), ir_op_reg(ghi) };
                add_before(d, instr2(fn, "mov.b64", ir_op_reg(got), ir_op_vec(m, gv, 2)));
                add_before(d, instr3(fn, "setp.ne.u64", ir_op_reg(bad), ir_op_reg(got), ir_op_reg(da)));
            }
            add_before(d, instr3(fn, "or.pred", ir_op_reg(fb), ir_op_reg(fb), ir_op_reg(bad)));
        }
        if (o->no_corner) {
            ir_remove(d);
        } else {
            d->u.instr.guard = fb;
            d->u.instr.guard_neg = false;
            ir_touch(d);
        }
    }
    free(copies);
    return need_mask;
}
