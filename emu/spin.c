/* spin.c — synchronisation sites: contention counters (spins per acquire)
 * and the bounded-progress (livelock) check for spin loops.
 *
 * Lock and flag code waits by re-executing an instruction until another
 * thread changes memory: an atom.cas / atom.exch acquire loop, a flag load
 * (ld.volatile, ld.relaxed, ld.acquire of shared or global memory), an
 * mbarrier.test_wait / try_wait loop, with or without nanosleep back-off.
 * Such an instruction inside a loop (between a backward branch and its
 * target) is a *site*.  Per site the emulator counts
 *   acquires  successful attempts: a CAS that found the compare value, an
 *             exchange that changed the word (a lock taken; an exchange
 *             writing 0 is a release and is not counted), a wait test that
 *             found its phase complete, the first read of a wait;
 *   spins     failed attempts: a CAS or exchange that found the lock taken,
 *             a wait test that failed, a load that re-reads an address this
 *             thread already read at the same site since its last write.
 * spins / acquires is the contention the tiny-lock evaluation reports.
 *
 * Progress: every memory write that changes memory (a store, an atomic
 * that changes its word, an mbarrier update), every thread exit and every
 * completed barrier or collective sets M->last_progress.  With
 * --spin-limit=N, N thread-instructions without progress while threads
 * still run is a LIVELOCK: every running thread is spinning on something
 * nobody will write.  The report names the sites they spin at. */
#include <stdlib.h>
#include <string.h>

#include "emu/internal.h"

static void spin_init(Machine *M)
{
    const EmuProgram *P = M->P;
    M->spin = calloc(P->ncode ? P->ncode : 1, sizeof(SpinStat));
    M->inloop = calloc(P->ncode ? P->ncode : 1, 1);
    for (uint32_t pc = 0; pc < P->ncode; pc++) {
        const EInst *I = &P->code[pc];
        if (I->flow != FL_BRANCH || I->aux > pc) continue;
        for (uint32_t k = I->aux; k <= pc; k++) M->inloop[k] = 1;
    }
}

void spin_site(Exec *x, const EInst *I, int l, uint64_t addr, int outcome)
{
    Machine *M = x->M;
    if (!M->spin) spin_init(M);
    uint32_t pc = (uint32_t)(I - M->P->code);
    if (!M->inloop[pc]) return;
    SpinStat *s = &M->spin[pc];
    Thread *T = x->T[l];
    int hit = -1;
    for (int k = 0; k < 4; k++)
        if (T->spin_pc1[k] == pc + 1 && T->spin_addr[k] == addr) hit = k;
    if (outcome == SPIN_OK) s->acquires++;
    else if (outcome == SPIN_FAIL || hit >= 0) s->spins++;
    else s->acquires++;
    T->spin_last1 = pc + 1;
    if (hit < 0) {
        int k = T->spin_next++ & 3;
        T->spin_pc1[k] = pc + 1;
        T->spin_addr[k] = addr;
    }
}

static const char *site_kind(const EInst *I)
{
    if (I->op == EK_ATOM) return I->sub == AO_CAS ? "cas" : "exch";
    if (I->op == EK_MBAR) return "mbarrier";
    return "load";
}

void spin_result(Machine *M, EmuResult *res)
{
    if (!M->spin) return;
    const EmuProgram *P = M->P;
    int n = 0;
    for (uint32_t pc = 0; pc < P->ncode; pc++) {
        const SpinStat *s = &M->spin[pc];
        const EInst *I = &P->code[pc];
        /* loads that never had to wait are ordinary reads, not sites */
        if (s->spins || ((s->acquires) && I->op != EK_LD)) n++;
    }
    if (!n) return;
    res->spin_sites = calloc((size_t)n, sizeof(EmuSpinSite));
    for (uint32_t pc = 0; pc < P->ncode; pc++) {
        const SpinStat *s = &M->spin[pc];
        const EInst *I = &P->code[pc];
        if (!(s->spins || ((s->acquires) && I->op != EK_LD))) continue;
        EmuSpinSite *o = &res->spin_sites[res->nspin_sites++];
        char text[240];
        o->line = emu_inst_line(I);
        o->text = strdup(emu_inst_text(P, I, text, sizeof text));
        o->kind = site_kind(I);
        o->acquires = s->acquires;
        o->spins = s->spins;
    }
}

void spin_free(Machine *M)
{
    free(M->spin);
    free(M->inloop);
    M->spin = NULL;
    M->inloop = NULL;
}

/* The most recent synchronisation site of a thread, or NO_PC. */
static uint32_t last_site(const Thread *T)
{
    return T->spin_last1 ? T->spin_last1 - 1 : NO_PC;
}

void spin_report_livelock(Machine *M)
{
    const EmuProgram *P = M->P;
    emu_fail(M, EMU_ERR_CHECK, "LIVELOCK", NULL, NULL, 0,
             "no thread wrote memory, exited or completed a barrier in the last %llu thread-instructions (--spin-limit=%llu); "
             "the running threads spin:",
             (unsigned long long)(M->steps - M->last_progress), (unsigned long long)M->L->spin_limit);
    int shown = 0;
    for (uint32_t i = 0; i < M->nres && shown < 8; i++) {
        Cta *c = M->res_cta[i];
        for (uint32_t k = 0; k < c->nwarps && shown < 8; k++) {
            Warp *w = &c->warps[k];
            uint32_t run = 0;
            FOR_LANES(l, w->exist & ~w->exited) if (w->t[l]->status == TS_RUN) run |= 1u << l;
            while (run && shown < 8) {
                const Thread *T0 = w->t[__builtin_ctz(run)];
                uint32_t site = last_site(T0), g = 0;
                FOR_LANES(l, run) if (last_site(w->t[l]) == site && (site != NO_PC || w->t[l]->pc == T0->pc)) g |= 1u << l;
                char lt[120], text[200];
                uint32_t at = site != NO_PC ? site : T0->pc;
                emu_fail_more(M, "  CTA (%u,%u,%u) warp %u lanes %s %s %s:%u: %s", c->id[0], c->id[1], c->id[2], w->id,
                              emu_lanes_text(g, lt, sizeof lt), site != NO_PC ? "spinning on" : "at", P->m->filename,
                              emu_inst_line(&P->code[at]), emu_inst_text(P, &P->code[at], text, sizeof text));
                if (site != NO_PC) emu_fail_more(M, " (%llu spins at this site)", (unsigned long long)M->spin[site].spins);
                emu_fail_more(M, "\n");
                run &= ~g;
                shown++;
            }
        }
    }
}
