/* uniform_timing.c — lane timing (issue 22 class 1): when is a load from a
 * warp-uniform address a warp-uniform value?
 *
 * "Same address, so same value" holds for the lanes that execute the load
 * together.  Under independent thread scheduling the lanes of a warp may
 * execute one load at different times, in converged code too (PTX promises
 * convergence nowhere but at .aligned and .sync operations; the emulator's
 * ITS policy splits any group).  Between two lanes' executions another
 * thread may write the memory without a data race when, and only when, the
 * write is ordered between them: the early lane's load happens before the
 * write (it releases something the writer acquires) and the write happens
 * before the late lane's load (the writer releases something the late lane
 * acquires BEFORE its load).  So the late lane executes, before the load in
 * its program order, an instruction that can acquire another thread's
 * writes, and executes it after the early lane already read.
 *
 * Rule.  A plain load (not volatile or strong: those are divergent anyway)
 * of memory that may be written while the kernel runs is divergent, whatever
 * its address, when an instruction that may acquire lies on a path from the
 * kernel's entry to it (the load itself excluded; a loop around the load
 * puts the loop's instructions before it):
 *   - a strong or volatile load, an atomic or reduction, a fence, an
 *     asynchronous or mbarrier operation, a call, an instruction the front
 *     end kept verbatim: each lane executes it on its own, at its own time;
 *   - a barrier (bar/barrier, bar.warp.sync) that not every lane that entered
 *     the kernel reaches together (in a divergent region, a loop lanes leave
 *     in different iterations, or after lanes may have exited): lanes may
 *     pass different numbers of its instances before the load.
 * A barrier every lane reaches together is no such point: all of them pass
 * the same instances, and what one barrier instance orders before one lane's
 * load it orders before all of theirs.
 * Memory nothing writes while the kernel runs keeps the rule from applying:
 * ld.global.nc and ldu (PTX makes a written .nc location undefined), .const,
 * the kernel's own parameters, a read-only (const __restrict__) parameter
 * (memory_unwritten).
 *
 * The rule only adds divergence, and the barriers' convergence depends on
 * divergence, so uniform.c alternates it with the propagation until nothing
 * changes. */
#include "analysis/internal.h"

/* May instruction i make another thread's earlier writes visible to this
 * thread's later loads, each lane at its own time? */
static bool lone_acquire(const Cfg *c, uint32_t i)
{
    const Stmt *st = c->instr[i];
    if (st->kind != STMT_INSTR) return true;          /* verbatim: anything */
    const Instr *in = &st->u.instr;
    uint32_t fl = c->iflags[i];
    if (in->op == OP_UNKNOWN) return true;
    if (fl & OPF_BARRIER) return false; /* a rendezvous: see hazard() */
    if (fl & (OPF_ATOMIC | OPF_FENCE | OPF_ASYNC | OPF_CALL)) return true;
    /* a strong or volatile load may be (half of) an acquire pattern */
    if ((fl & OPF_LOAD) && (fl & OPF_SIDE_EFFECT)) return true;
    return false;
}

/* Do all lanes that entered the kernel reach instruction i together (the
 * internal form of uniform_converged, on the analysis being built)? */
static bool together(const Cfg *c, const Uniformity *u, uint32_t i)
{
    uint32_t b = c->instr_block[i];
    if (u->partial[b] || u->exited_in[b]) return false;
    return u->exit_at[b] == ANA_NONE || i <= u->exit_at[b];
}

static bool hazard(const Cfg *c, const Uniformity *u, uint32_t i)
{
    if (lone_acquire(c, i)) return true;
    return (c->iflags[i] & OPF_BARRIER) && !together(c, u, i);
}

/* Loads that must be divergent by the rule and are not yet: their SSA
 * values go to out (each also flagged in late[]).  u->div, partial and the
 * exits are the analysis so far. */
void uniform_timing(Function *fn, const Uniformity *u, uint8_t *late, U32Vec *out)
{
    const Cfg *c = cfg_get(fn);
    const Ssa *s = u->ssa;
    const MemInfo *mi = memory_get(fn);
    uint32_t n = c->n;
    /* before[b]: a hazard lies on some path from the entry to b's start */
    uint8_t *has = xcalloc(n + 1, 1), *before = xcalloc(n + 1, 1);
    bool any = false;
    for (uint32_t b = 0; b < n; b++)
        for (uint32_t i = c->block_instr[b]; i < c->block_instr[b + 1] && !has[b]; i++)
            if (hazard(c, u, i)) has[b] = 1, any = true;
    if (!any) {
        free(has), free(before);
        return;
    }
    U32Vec w = { 0 };
    for (uint32_t b = 0; b < n; b++)
        if (has[b])
            for (uint32_t j = 0; j < cfg_nsucc(c, b); j++) {
                uint32_t t = cfg_succs(c, b)[j];
                if (t < n && !before[t]) before[t] = 1, u32_push(&w, t);
            }
    while (w.n) {
        uint32_t b = w.v[--w.n];
        for (uint32_t j = 0; j < cfg_nsucc(c, b); j++) {
            uint32_t t = cfg_succs(c, b)[j];
            if (t < n && !before[t]) before[t] = 1, u32_push(&w, t);
        }
    }
    for (uint32_t b = 0; b < n; b++) {
        bool seen = before[b];
        for (uint32_t i = c->block_instr[b]; i < c->block_instr[b + 1]; i++) {
            uint32_t k = mi->acc_of_instr[i];
            const Instr *in = &c->instr[i]->u.instr;
            if (seen && k != ANA_NONE && (mi->acc[k].flags & MACC_LOAD) && !(mi->acc[k].flags & MACC_ATOMIC) &&
                (in->op == OP_ld || in->op == OP_ldu) && !memory_unwritten(fn, k))
                for (uint32_t d = s->def_start[i]; d < s->def_start[i + 1]; d++) {
                    SsaValue v = s->defs[d];
                    if (u->div[v] || s->v[v].reg == s->nvars - 1) continue;
                    late[v] = 1;
                    u32_push(out, v);
                }
            if (!seen && hazard(c, u, i)) seen = true;
        }
    }
    free(has), free(before);
    u32_free(&w);
}
