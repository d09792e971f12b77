/* emit.c — the tinylock rewrites, built from the primitive library.
 *
 * Spin lock (a proven SpinSite):
 *     L: atom.SPACE.cas.b32 o, [m], 0, 1; setp.ne o, 0; @p bra L;
 *        membar.X;  ...critical section...  membar.X;  atom.SPACE.exch.b32 _, [m], 0;
 *  (or the critical-section form: the loop header's branch skips the
 *  critical section when the CAS failed and a latch retries)
 *  becomes
 *     L: [debug counter: count attempts, trap after N]
 *        atom.acquire.SCOPE.SPACE.cas.b32 o, [m], 0, 1; setp.ne o, 0;
 *        [@failed nanosleep.u32 B;]  @p bra L;
 *        ...critical section...  st.release.SCOPE.SPACE.b32 [m], 0;
 *  (atom.release.SCOPE.SPACE.exch.b32 when the old value is read).  The
 *  critical section is kept as it is, in the same place.
 *
 * Barrier (a BarPlan with relaxed barriers): one .b32 flag per thread,
 * __tinylock_flags[ntid] (1024 when the block shape is unknown), each
 * thread's own word at %tid.x:
 *     entry:       self = &flags[%tid.x]
 *     init:        st.shared.u32 [self], 0 before a kept barrier that
 *                  dominates every relaxed barrier and consumer, else at
 *                  the entry followed by an added bar.sync 0;
 *     barrier j:   publish(self, j) in its place (epoch j: the relaxed
 *                  barriers in dominance order; every thread passes each
 *                  once, whatever it stored) and the barrier is deleted;
 *     consumer:    before its load: p = %tid.x + N; active = p < ntid;
 *                  wait(&flags[p], the latest epoch it crossed, active).
 * A consumer whose producer thread does not exist (p outside the block)
 * reads without waiting, as the original read after the barrier.  When
 * the block shape is unknown, one_d = (%ntid.y == 1 && %ntid.z == 1) is
 * computed at the entry, the barrier stays as @!one_d bar.sync 0 (a
 * CTA-uniform guard) and active includes one_d: the channels replace the
 * barrier only in one-row blocks, where %tid.x names the thread. */
#include <stdio.h>
#include <string.h>

#include "opt/tinylock/internal.h"

static Stmt *first_instr(Function *fn)
{
    for (Block *b = fn->first; b; b = b->next) {
        Stmt *s = ir_block_first_instr(b);
        if (s) return s;
    }
    return NULL;
}

/* ------------------------------------------------------------ spinlock */

static void set_sem(Function *fn, Instr *in, const char *sem, const char *scope)
{
    char buf[128];
    snprintf(buf, sizeof buf, "%.*s.%s.%s%.*s", STR_FMT(in->opname), sem, scope, (int)(in->full.len - in->opname.len),
             in->full.p + in->opname.len);
    ir_set_full(fn->mod, in, buf);
}

/* The blocks that enter the loop headed by the block of `head` (its
 * predecessors outside the loop), from fresh analyses; at most 64. */
static int loop_entries(Function *fn, Block *head, Block **out)
{
    analysis_invalidate(fn);
    const Cfg *cfg = cfg_get(fn);
    const LoopInfo *li = loops_get(fn);
    uint32_t h = cfg_block_index(cfg, head);
    int n = 0;
    if (h == ANA_NONE) return 0;
    for (uint32_t k = 0; k < cfg_npred(cfg, h) && n < 64; k++)
        if (!loop_contains(li, li->innermost[h], cfg_preds(cfg, h)[k])) /* the edges into the loop, not its latches */
            out[n++] = cfg->blocks[cfg_preds(cfg, h)[k]];
    return n;
}

void tl_debug_counter_init(Function *fn, Block *const *entries, int n, Reg *cnt)
{
    for (int k = 0; k < n; k++) {
        Stmt *mv = ir_new_instr(fn, "mov.u32", 2);
        mv->u.instr.ops[0] = ir_op_reg(cnt), mv->u.instr.ops[1] = ir_op_int(fn->mod, 0);
        Stmt *last = ir_block_last_instr(entries[k]);
        if (last && (opcode_flags_full(last->u.instr.full.p, last->u.instr.full.len) & OPF_TERMINATOR))
            ir_insert_before(last, mv);
        else ir_append(entries[k], mv);
    }
}

int tl_loop_entries(Function *fn, Block *head, Block **out) { return loop_entries(fn, head, out); }

void tl_emit_spin(Function *fn, const TlTarget *t, const Options *o, SpinSite *s)
{
    Module *m = fn->mod;
    Block *outside[64];
    int nout = o->debug_spin > 0 ? loop_entries(fn, s->cas->block, outside) : 0; /* before any edit */
    set_sem(fn, &s->cas->u.instr, "acquire", s->scope);
    ir_touch(s->cas);
    Instr *ri = &s->release->u.instr;
    char buf[128];
    if (ri->op == OP_st || s->exch_dead) {
        Operand addr = ri->op == OP_st ? ri->ops[0] : ri->ops[1];
        snprintf(buf, sizeof buf, "st.release.%s%.*s.b32", s->scope, STR_FMT(s->space));
        Stmt *st = ir_new_instr(fn, buf, 2);
        st->u.instr.ops[0] = addr;
        st->u.instr.ops[1] = ir_op_int(m, 0);
        st->line = s->release->line;
        ir_insert_before(s->release, st);
        ir_remove(s->release);
        s->release = st;
    } else {
        set_sem(fn, ri, "release", s->scope);
        ir_touch(s->release);
    }
    ir_remove(s->fence_acq);
    ir_remove(s->fence_rel);
    Instr *b = &s->bra->u.instr;
    TlEmit e = { .fn = fn, .at = s->bra, .t = *t, .debug_spin = o->debug_spin, .backoff = o->backoff };
    if (o->backoff > 0 && t->ordered) {
        Stmt *ns = ir_new_instr(fn, "nanosleep.u32", 1);
        ns->u.instr.ops[0] = ir_op_int(m, o->backoff);
        ns->u.instr.guard = b->guard, ns->u.instr.guard_neg = s->again_neg; /* after a failed attempt */
        ns->line = s->bra->line;
        ir_insert_before(s->bra, ns);
    }
    if (o->debug_spin > 0) {
        /* the counter starts at 0 on every edge into the loop */
        Reg *cnt = ir_fresh_reg(fn, ".b32");
        tl_debug_counter_init(fn, outside, nout, cnt);
        e.at = s->cas; /* counts attempts */
        for (Stmt *p = s->cas->prev; p && p->kind == STMT_INSTR && p->u.instr.op == OP_mov; p = p->prev) e.at = p;
        tl_debug_count(&e, cnt, NULL, false);
    }
}

/* fix-races=1: the lock acquired without a fence.  Only the attempt
 * changes, to an acquire at its own scope: the ABI's memory-order
 * parameter is monotonic, so strengthening relaxed to acquire keeps every
 * execution the original allowed (and removes the ones where the critical
 * section's accesses are performed before the lock is taken). */
void tl_emit_fix_race(Function *fn, SpinSite *s)
{
    set_sem(fn, &s->cas->u.instr, "acquire", s->cas_scope);
    ir_touch(s->cas);
}

/* ------------------------------------------------------------- barrier */

static Stmt *flags_decl(Function *fn, Str name, uint32_t n)
{
    Arena *a = &fn->mod->arena;
    Decl *d = arena_alloc(a, sizeof *d);
    memset(d, 0, sizeof *d);
    d->space = str_c(".shared"), d->type = str_c(".b32"), d->align = 4, d->ndecl = 1;
    d->decls = arena_alloc(a, sizeof *d->decls);
    memset(d->decls, 0, sizeof *d->decls);
    d->decls[0].name = name, d->decls[0].range = -1, d->decls[0].ndims = 1, d->decls[0].dims[0] = n;
    char *num = arena_alloc(a, 16);
    int nl = snprintf(num, 16, "%u", n);
    Token tok[] = { { str_c(".shared"), TOKK_DOTWORD }, { str_c(".align"), TOKK_DOTWORD }, { str_c("4"), TOKK_INT },
                    { str_c(".b32"), TOKK_DOTWORD }, { name, TOKK_WORD }, { str_c("["), TOKK_PUNCT },
                    { { num, (size_t)nl }, TOKK_INT }, { str_c("]"), TOKK_PUNCT } };
    d->ntok = sizeof tok / sizeof tok[0];
    d->tok = arena_alloc(a, sizeof tok);
    memcpy(d->tok, tok, sizeof tok);
    Stmt *s = arena_alloc(a, sizeof *s);
    memset(s, 0, sizeof *s);
    s->kind = STMT_DECL, s->u.decl = d, s->dirty = true;
    return s;
}

static Str flags_name(Function *fn)
{
    static const char base[] = "__tinylock_flags";
    char buf[64];
    for (int k = 0;; k++) {
        if (k) snprintf(buf, sizeof buf, "%s%d", base, k);
        else snprintf(buf, sizeof buf, "%s", base);
        Str nm = str_c(buf);
        Str sp;
        if (!modsyms_find(fn->mod, nm, &sp)) {
            size_t n = strlen(buf);
            char *p = arena_alloc(&fn->mod->arena, n + 1);
            memcpy(p, buf, n + 1);
            return (Str){ p, n };
        }
    }
}

#define OPS(...) ((const Operand[]){ __VA_ARGS__ })
#define NOPS(...) ((int)(sizeof((const Operand[]){ __VA_ARGS__ }) / sizeof(Operand)))
#define INS(e, full, ...) tl_ins((e), NULL, false, (full), NOPS(__VA_ARGS__), OPS(__VA_ARGS__))

void tl_emit_barrier(Function *fn, const TlTarget *t, const Options *o, BarPlan *p)
{
    Module *m = fn->mod;
    Stmt *entry = first_instr(fn);
    Reg *tid = NULL, *ntid = NULL, *base = NULL, *self = NULL, *one_d = NULL;
    TlEmit e = { .fn = fn, .at = entry, .t = *t, .debug_spin = o->debug_spin, .backoff = o->backoff };
    e.t.ordered = !p->legacy;
    bool flags = p->ncons > 0;
    if (flags) {
        Str name = flags_name(fn);
        Stmt *d = flags_decl(fn, name, p->nflags);
        ir_insert_before(fn->first->first ? fn->first->first : entry, d);
        tid = ir_fresh_reg(fn, ".b32"), ntid = ir_fresh_reg(fn, ".b32"), base = ir_fresh_reg(fn, ".b32"), self = ir_fresh_reg(fn, ".b32");
        Reg *off = ir_fresh_reg(fn, ".b32");
        INS(&e, "mov.u32", ir_op_reg(tid), ir_op_special(fn, "%tid", 'x'));
        INS(&e, "mov.u32", ir_op_reg(ntid), ir_op_special(fn, "%ntid", 'x'));
        INS(&e, "mov.u32", ir_op_reg(base), ir_op_sym(m, name, 0));
        INS(&e, "shl.b32", ir_op_reg(off), ir_op_reg(tid), tl_imm(&e, 2));
        INS(&e, "add.s32", ir_op_reg(self), ir_op_reg(base), ir_op_reg(off));
    }
    if (!p->ntid) {
        /* block shape unknown: channels only in one-row blocks, where
         * %tid.x names the thread; elsewhere the barriers stay */
        Reg *ny = ir_fresh_reg(fn, ".b32"), *nz = ir_fresh_reg(fn, ".b32"), *y1 = ir_fresh_reg(fn, ".pred");
        one_d = ir_fresh_reg(fn, ".pred");
        e.at = entry;
        INS(&e, "mov.u32", ir_op_reg(ny), ir_op_special(fn, "%ntid", 'y'));
        INS(&e, "mov.u32", ir_op_reg(nz), ir_op_special(fn, "%ntid", 'z'));
        INS(&e, "setp.eq.u32", ir_op_reg(y1), ir_op_reg(ny), tl_imm(&e, 1));
        INS(&e, "setp.eq.and.u32", ir_op_reg(one_d), ir_op_reg(nz), tl_imm(&e, 1), ir_op_reg(y1));
    }
    if (flags) {
        e.at = p->init_before ? p->init_before : entry;
        INS(&e, "st.shared.u32", tl_addr(&e, self, 0), tl_imm(&e, 0));
        if (!p->init_before) INS(&e, "bar.sync", tl_imm(&e, 0));
    }
    /* each relaxed barrier: the thread publishes that it is past it */
    for (int i = 0; i < p->nbars; i++) {
        BarSite *b = &p->bars[i];
        if (!b->relaxed) continue;
        e.at = b->bar;
        if (flags) tl_flag_publish(&e, self, (uint32_t)b->epoch);
        if (one_d) {
            b->bar->u.instr.guard = one_d, b->bar->u.instr.guard_neg = true; /* @!one_d bar.sync 0 */
            ir_touch(b->bar);
        } else ir_remove(b->bar);
    }
    for (int i = 0; i < p->ncons; i++) {
        Consumer *c = &p->cons[i];
        Reg *pi = ir_fresh_reg(fn, ".b32"), *po = ir_fresh_reg(fn, ".b32"), *pa = ir_fresh_reg(fn, ".b32"),
            *act = ir_fresh_reg(fn, ".pred");
        e.at = c->ld;
        INS(&e, "add.s32", ir_op_reg(pi), ir_op_reg(tid), tl_imm(&e, c->shift));
        if (one_d) INS(&e, "setp.lt.and.u32", ir_op_reg(act), ir_op_reg(pi), ir_op_reg(ntid), ir_op_reg(one_d));
        else INS(&e, "setp.lt.u32", ir_op_reg(act), ir_op_reg(pi), ir_op_reg(ntid));
        INS(&e, "shl.b32", ir_op_reg(po), ir_op_reg(pi), tl_imm(&e, 2));
        INS(&e, "add.s32", ir_op_reg(pa), ir_op_reg(base), ir_op_reg(po));
        tl_flag_wait(&e, pa, (uint32_t)c->epoch, act);
    }
}
