/* primitives.c — the primitive library, emitted as PTX and chosen by
 * .target/.version (research/seed-002-sfu-lock.md §3.10, checked with
 * ptxas 13.0 by testsuite/tinylock/primitives-ptxas.test):
 *
 *   flag channel   publish: st.release.cta.shared.u32 [f], v
 *                  wait:    L: ld.acquire.cta.shared.u32 x, [f];
 *                              setp.lt.and.u32 again, x, v, active; @again bra L
 *                  (sm_70+, PTX 6.0+); legacy (below): membar.cta;
 *                  st.volatile.shared / ld.volatile.shared spin; membar.cta
 *   mutex          acquire: L: atom.acquire.SCOPE.SPACE.cas.b32 o, [m], 0, 1;
 *                              setp.ne.u32 again, o, 0; @again bra L
 *                  release: st.release.SCOPE.SPACE.b32 [m], 0
 *                  legacy:  relaxed atom.cas loop + membar; membar + atom.exch
 *   mbarrier       mbarrier.init / mbarrier.arrive / mbarrier.test_wait.parity
 *                  spin (sm_80+, PTX 7.1+); sm_90 + PTX 8.0:
 *                  mbarrier.arrive.release.cta / mbarrier.try_wait.parity.acquire.cta
 *   warp lock      leader = lowest active lane (activemask, brev, bfind.shiftamt;
 *                  elect.sync on sm_90), leader acquires, bar.warp.sync mask;
 *                  unlock: bar.warp.sync mask, leader releases (PTX 6.2+:
 *                  activemask)
 *
 * Every spin loop takes the emit context's debug counter (trap after N
 * iterations) and backoff (nanosleep.u32, ordered targets only). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "opt/tinylock/internal.h"

TlTarget tl_target(const Module *m, int sm_override)
{
    TlTarget t = { .sm = sm_override ? sm_override : m->target_sm, .ptx = 0 };
    if (m->version_major >= 0) t.ptx = m->version_major * 10 + (m->version_minor > 9 ? 9 : m->version_minor);
    bool sm70 = t.sm == 0 || t.sm >= 70, sm80 = t.sm == 0 || t.sm >= 80, sm90 = t.sm == 0 || t.sm >= 90;
    bool p60 = t.ptx == 0 || t.ptx >= 60, p62 = t.ptx == 0 || t.ptx >= 62, p71 = t.ptx == 0 || t.ptx >= 71,
         p80 = t.ptx == 0 || t.ptx >= 80;
    t.its = sm70;
    t.ordered = sm70 && p60;
    t.warp_sync = p62;
    t.mbarrier = sm80 && p71;
    t.mbar_scoped = sm90 && p80;
    return t;
}

Stmt *tl_ins(TlEmit *e, Reg *guard, bool neg, const char *full, int n, const Operand *ops)
{
    Stmt *s = ir_new_instr(e->fn, full, n);
    for (int i = 0; i < n; i++) s->u.instr.ops[i] = ops[i];
    s->u.instr.guard = guard;
    s->u.instr.guard_neg = neg;
    ir_insert_before(e->at, s);
    return s;
}

Operand tl_addr(TlEmit *e, Reg *r, int64_t off) { return ir_op_addr(e->fn->mod, ir_op_reg(r), off); }
Operand tl_imm(TlEmit *e, int64_t v) { return ir_op_int(e->fn->mod, v); }

#define OPS(...) ((const Operand[]){ __VA_ARGS__ })
#define NOPS(...) ((int)(sizeof((const Operand[]){ __VA_ARGS__ }) / sizeof(Operand)))
#define INS(e, g, neg, full, ...) tl_ins((e), (g), (neg), (full), NOPS(__VA_ARGS__), OPS(__VA_ARGS__))

const char *tl_membar(const char *scope)
{
    return strcmp(scope, "cta") == 0 ? "membar.cta" : strcmp(scope, "gpu") == 0 ? "membar.gl" : "membar.sys";
}

Str tl_loop_begin(TlEmit *e, Reg **counter)
{
    *counter = NULL;
    if (e->debug_spin > 0) {
        *counter = ir_fresh_reg(e->fn, ".b32");
        INS(e, NULL, false, "mov.u32", ir_op_reg(*counter), tl_imm(e, 0));
    }
    Str name = ir_fresh_label(e->fn);
    Stmt *lab = ir_new_label(e->fn, name);
    ir_insert_before(e->at, lab);
    ir_split_block_before(lab);
    return name;
}

void tl_debug_count(TlEmit *e, Reg *counter, Reg *again, bool again_neg)
{
    if (!counter) return;
    Reg *q = ir_fresh_reg(e->fn, ".pred");
    INS(e, NULL, false, "add.u32", ir_op_reg(counter), ir_op_reg(counter), tl_imm(e, 1));
    if (again) {
        Operand a = ir_op_reg(again);
        if (again_neg) a.flags |= OPNDF_NEG;
        INS(e, NULL, false, "setp.ge.and.u32", ir_op_reg(q), ir_op_reg(counter), tl_imm(e, e->debug_spin), a);
    } else INS(e, NULL, false, "setp.ge.u32", ir_op_reg(q), ir_op_reg(counter), tl_imm(e, e->debug_spin));
    tl_ins(e, q, false, "trap", 0, NULL);
    ir_split_block_before(e->at); /* a guarded trap ends its block (analysis/cfg.c) */
}

void tl_loop_end(TlEmit *e, Str label, Reg *again, Reg *counter)
{
    tl_debug_count(e, counter, again, false);
    if (e->backoff > 0 && e->t.ordered) INS(e, again, false, "nanosleep.u32", tl_imm(e, e->backoff));
    INS(e, again, false, "bra", ir_op_sym(e->fn->mod, label, 0));
    ir_split_block_before(e->at);
}

/* ------------------------------------------------------------ flags */

void tl_flag_publish(TlEmit *e, Reg *addr, uint32_t value)
{
    if (e->t.ordered) {
        INS(e, NULL, false, "st.release.cta.shared.u32", tl_addr(e, addr, 0), tl_imm(e, value));
        return;
    }
    tl_ins(e, NULL, false, "membar.cta", 0, NULL);
    INS(e, NULL, false, "st.volatile.shared.u32", tl_addr(e, addr, 0), tl_imm(e, value));
}

void tl_flag_wait(TlEmit *e, Reg *addr, uint32_t value, Reg *active)
{
    Reg *f = ir_fresh_reg(e->fn, ".b32"), *again = ir_fresh_reg(e->fn, ".pred"), *cnt;
    Str l = tl_loop_begin(e, &cnt);
    INS(e, active, false, e->t.ordered ? "ld.acquire.cta.shared.u32" : "ld.volatile.shared.u32", ir_op_reg(f),
        tl_addr(e, addr, 0));
    if (active) INS(e, NULL, false, "setp.lt.and.u32", ir_op_reg(again), ir_op_reg(f), tl_imm(e, value), ir_op_reg(active));
    else INS(e, NULL, false, "setp.lt.u32", ir_op_reg(again), ir_op_reg(f), tl_imm(e, value));
    tl_loop_end(e, l, again, cnt);
    if (!e->t.ordered) tl_ins(e, NULL, false, "membar.cta", 0, NULL);
}

/* ------------------------------------------------------------ mutex */

static void fmt(char *buf, size_t cap, const char *f, ...) __attribute__((format(printf, 3, 4)));
static void fmt(char *buf, size_t cap, const char *f, ...)
{
    va_list ap;
    va_start(ap, f);
    vsnprintf(buf, cap, f, ap);
    va_end(ap);
}

void tl_mutex_acquire(TlEmit *e, Reg *addr, const char *space, const char *scope)
{
    Reg *old = ir_fresh_reg(e->fn, ".b32"), *again = ir_fresh_reg(e->fn, ".pred"), *cnt;
    char op[64];
    if (e->t.ordered) fmt(op, sizeof op, "atom.acquire.%s%s.cas.b32", scope, space);
    else fmt(op, sizeof op, "atom%s.cas.b32", space);
    Str l = tl_loop_begin(e, &cnt);
    INS(e, NULL, false, op, ir_op_reg(old), tl_addr(e, addr, 0), tl_imm(e, 0), tl_imm(e, 1));
    INS(e, NULL, false, "setp.ne.u32", ir_op_reg(again), ir_op_reg(old), tl_imm(e, 0));
    tl_loop_end(e, l, again, cnt);
    if (!e->t.ordered) tl_ins(e, NULL, false, tl_membar(scope), 0, NULL);
}

void tl_mutex_release(TlEmit *e, Reg *addr, const char *space, const char *scope)
{
    char op[64];
    if (e->t.ordered) {
        fmt(op, sizeof op, "st.release.%s%s.b32", scope, space);
        INS(e, NULL, false, op, tl_addr(e, addr, 0), tl_imm(e, 0));
        return;
    }
    tl_ins(e, NULL, false, tl_membar(scope), 0, NULL);
    fmt(op, sizeof op, "atom%s.exch.b32", space);
    INS(e, NULL, false, op, ir_op_reg(ir_fresh_reg(e->fn, ".b32")), tl_addr(e, addr, 0), tl_imm(e, 0));
}

/* --------------------------------------------------------- mbarrier */

void tl_mbar_init(TlEmit *e, Reg *addr, uint32_t count)
{
    INS(e, NULL, false, "mbarrier.init.shared.b64", tl_addr(e, addr, 0), tl_imm(e, count));
}

void tl_mbar_arrive(TlEmit *e, Reg *addr)
{
    Reg *state = ir_fresh_reg(e->fn, ".b64");
    INS(e, NULL, false, e->t.mbar_scoped ? "mbarrier.arrive.release.cta.shared.b64" : "mbarrier.arrive.shared.b64",
        ir_op_reg(state), tl_addr(e, addr, 0));
}

void tl_mbar_wait(TlEmit *e, Reg *addr, uint32_t parity)
{
    Reg *done = ir_fresh_reg(e->fn, ".pred"), *again = ir_fresh_reg(e->fn, ".pred"), *cnt;
    Str l = tl_loop_begin(e, &cnt);
    INS(e, NULL, false,
        e->t.mbar_scoped ? "mbarrier.try_wait.parity.acquire.cta.shared.b64" : "mbarrier.test_wait.parity.shared.b64",
        ir_op_reg(done), tl_addr(e, addr, 0), tl_imm(e, parity));
    INS(e, NULL, false, "not.pred", ir_op_reg(again), ir_op_reg(done));
    tl_loop_end(e, l, again, cnt);
}

/* -------------------------------------------------------- warp lock */

void tl_warp_lock(TlEmit *e, Reg *addr, Reg **mask, Reg **leader)
{
    Reg *m = ir_fresh_reg(e->fn, ".b32"), *lead = ir_fresh_reg(e->fn, ".pred");
    INS(e, NULL, false, "activemask.b32", ir_op_reg(m));
    if (e->t.mbar_scoped) {
        INS(e, NULL, false, "elect.sync", ir_op_pair(e->fn->mod, ir_op_sink(), ir_op_reg(lead)), ir_op_reg(m));
    } else {
        Reg *rev = ir_fresh_reg(e->fn, ".b32"), *low = ir_fresh_reg(e->fn, ".b32"), *lane = ir_fresh_reg(e->fn, ".b32");
        INS(e, NULL, false, "brev.b32", ir_op_reg(rev), ir_op_reg(m));
        INS(e, NULL, false, "bfind.shiftamt.u32", ir_op_reg(low), ir_op_reg(rev));
        INS(e, NULL, false, "mov.u32", ir_op_reg(lane), ir_op_special(e->fn, "%laneid", 0));
        INS(e, NULL, false, "setp.eq.u32", ir_op_reg(lead), ir_op_reg(lane), ir_op_reg(low));
    }
    /* the leader spins: the loop's attempts are guarded by it, and the
     * other lanes leave at once (again = leader && old != 0) */
    Reg *old = ir_fresh_reg(e->fn, ".b32"), *again = ir_fresh_reg(e->fn, ".pred"), *cnt;
    Str l = tl_loop_begin(e, &cnt);
    INS(e, lead, false, e->t.ordered ? "atom.acquire.cta.shared.cas.b32" : "atom.shared.cas.b32", ir_op_reg(old),
        tl_addr(e, addr, 0), tl_imm(e, 0), tl_imm(e, 1));
    INS(e, NULL, false, "setp.ne.and.u32", ir_op_reg(again), ir_op_reg(old), tl_imm(e, 0), ir_op_reg(lead));
    tl_loop_end(e, l, again, cnt);
    if (!e->t.ordered) tl_ins(e, NULL, false, "membar.cta", 0, NULL);
    INS(e, NULL, false, "bar.warp.sync", ir_op_reg(m));
    *mask = m, *leader = lead;
}

void tl_warp_unlock(TlEmit *e, Reg *addr, Reg *mask, Reg *leader)
{
    INS(e, NULL, false, "bar.warp.sync", ir_op_reg(mask));
    if (e->t.ordered) {
        INS(e, leader, false, "st.release.cta.shared.b32", tl_addr(e, addr, 0), tl_imm(e, 0));
        return;
    }
    tl_ins(e, leader, false, "membar.cta", 0, NULL);
    INS(e, leader, false, "atom.shared.exch.b32", ir_op_reg(ir_fresh_reg(e->fn, ".b32")), tl_addr(e, addr, 0), tl_imm(e, 0));
}
