/* sched.c — the scheduler: which lanes run next, and control flow.
 *
 * A *group* is a set of lanes of one warp at the same pc; run_group()
 * executes it for up to a quantum of instructions, until it diverges,
 * blocks at a barrier or collective, exits or yields.
 *
 * ITS-fair (the semantic oracle, after seeds 000/001 §IV): pick a random
 * warp with runnable lanes, a random runnable lane, all runnable lanes at
 * its pc, and sometimes a random subset of them; random quantum.  Any
 * same-pc grouping is allowed under independent thread scheduling.  Random
 * choice alone is fair only with probability 1; to make progress bounded
 * (what lock code needs: the holder of a lock must run while others spin),
 * every FAIR_EVERY-th warp pick takes the runnable warp picked longest ago
 * and every FAIR_EVERY-th group of a warp starts at its runnable lane that
 * ran longest ago.  So a runnable lane runs within FAIR_EVERY * 32 picks of
 * its warp, and a runnable warp is picked within FAIR_EVERY * (number of
 * listed warps) picks: intra-warp spin locks terminate for every seed.
 *
 * Hanoi (deterministic): per warp a stack of splits (pc, mask) and a stack
 * of reconvergence entries (rpc, mask, waiting).  A divergent branch pushes
 * a reconvergence entry at the branch's immediate post-dominator and the
 * two paths, the majority on top.  A split reaching a pending rpc parks;
 * when every expected lane has parked (or exited) the entry pops and the
 * lanes continue together.  Loop headers carry a virtual YIELD: it swaps
 * the two top splits when both belong to the current reconvergence entry,
 * and round-robin moves to the next warp.  A progress watchdog abandons a
 * reconvergence point whose parked lanes wait while the others loop
 * without writing memory (reported as an event); in strict (pre-Volta)
 * mode the same situation is a SIMT deadlock. */
#include <stdlib.h>
#include <string.h>

#include "emu/internal.h"

static inline uint64_t rng_next(Machine *M)
{
    uint64_t z = (M->rng += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static inline bool is_hanoi(const Machine *M) { return M->L->policy != EMU_POLICY_ITS; }

#define FAIR_EVERY 8

/* ------------------------------------------------------------ warp state */

void warp_list(Machine *M, Warp *w)
{
    if (w->listed) return;
    if (M->nactive == M->capactive) {
        M->capactive = M->capactive ? M->capactive * 2 : 64;
        M->active = realloc(M->active, sizeof(Warp *) * M->capactive);
    }
    M->active[M->nactive++] = w;
    w->listed = true;
}

static void ws_push(Warp *w, uint32_t pc, uint32_t mask)
{
    if (!mask) return;
    if (w->nws && w->ws[w->nws - 1].pc == pc) { w->ws[w->nws - 1].mask |= mask; return; }
    if (w->nws == w->capws) {
        w->capws = w->capws ? w->capws * 2 : 8;
        w->ws = realloc(w->ws, sizeof(Split) * (size_t)w->capws);
    }
    w->ws[w->nws++] = (Split){ pc, mask, NO_PC };
}

static void ws_sync(Warp *w)
{
    uint32_t m = 0;
    for (int i = 0; i < w->nws; i++) m |= w->ws[i].mask;
    w->runnable = m;
}

static void rec_push(Warp *w, uint32_t rpc, uint32_t mask, uint32_t branch_pc)
{
    if (w->nrec && w->rec[w->nrec - 1].rpc == rpc && (mask & ~w->rec[w->nrec - 1].mask) == 0) return;
    if (w->nrec == w->caprec) {
        w->caprec = w->caprec ? w->caprec * 2 : 8;
        w->rec = realloc(w->rec, sizeof(Rec) * (size_t)w->caprec);
    }
    w->rec[w->nrec++] = (Rec){ rpc, mask, 0, 0, branch_pc };
}

/* Pops every satisfied reconvergence entry from the top. */
static void hanoi_settle(Warp *w)
{
    while (w->nrec) {
        Rec *r = &w->rec[w->nrec - 1];
        uint32_t need = r->mask & ~w->exited;
        if (need & ~r->waiting) break;
        uint32_t lanes = r->waiting & ~w->exited;
        uint32_t rpc = r->rpc;
        w->nrec--;
        if (lanes) { ws_push(w, rpc, lanes); w->loop_streak = 0; }
    }
    ws_sync(w);
}

/* Parks the lanes of `mask` that reach a pending reconvergence point at pc;
 * returns them. */
static uint32_t hanoi_park(Warp *w, uint32_t pc, uint32_t mask)
{
    for (int k = w->nrec - 1; k >= 0; k--) {
        Rec *r = &w->rec[k];
        if (r->rpc != pc) continue;
        uint32_t parked = mask & r->mask;
        if (!parked) continue;
        r->waiting |= parked;
        /* they leave every inner region (BREAK) */
        for (int j = k + 1; j < w->nrec; j++) { w->rec[j].mask &= ~parked; w->rec[j].waiting &= ~parked; }
        return parked;
    }
    return 0;
}

/* Abandons the top reconvergence entry: its parked lanes go on alone. */
static void hanoi_abandon(Machine *M, Warp *w, const char *why)
{
    Rec *r = &w->rec[w->nrec - 1];
    uint32_t lanes = r->waiting & ~w->exited;
    char lt[120], lt2[120];
    const EInst *B = r->branch_pc != NO_PC ? &M->P->code[r->branch_pc] : NULL;
    emu_event(M, "note: reconvergence abandoned (%s): CTA (%u,%u,%u) warp %u, lanes %s parked at %s:%u waited for lanes %s (divergent branch at line %u)",
              why, w->cta->id[0], w->cta->id[1], w->cta->id[2], w->id, emu_lanes_text(lanes, lt, sizeof lt), M->P->m->filename,
              emu_inst_line(&M->P->code[r->rpc]), emu_lanes_text(r->mask & ~r->waiting & ~w->exited, lt2, sizeof lt2), emu_inst_line(B));
    uint32_t rpc = r->rpc;
    w->nrec--;
    ws_push(w, rpc, lanes);
    ws_sync(w);
    w->loop_streak = 0;
    M->cnt.reconv_abandoned++;
}

void warp_release(Machine *M, Warp *w, uint32_t lanes)
{
    if (!lanes) return;
    if (is_hanoi(M)) {
        uint32_t left = lanes;
        while (left) {
            uint32_t pc = w->t[__builtin_ctz(left)]->pc, g = 0;
            FOR_LANES(k, left) if (w->t[k]->pc == pc) g |= 1u << k;
            ws_push(w, pc, g);
            left &= ~g;
        }
        ws_sync(w);
    } else {
        w->runnable |= lanes;
    }
    warp_list(M, w);
}

void warp_exit_lanes(Machine *M, Warp *w, uint32_t lanes)
{
    if (M->weak) FOR_LANES(l, lanes) weak_release(M, w->t[l]);
    FOR_LANES(l, lanes) w->t[l]->status = TS_EXIT;
    w->exited |= lanes;
    w->runnable &= ~lanes;
    w->cta->live -= (uint32_t)__builtin_popcount(lanes);
    if (is_hanoi(M)) {
        for (int i = 0; i < w->nws; i++) w->ws[i].mask &= ~lanes;
        int k = 0;
        for (int i = 0; i < w->nws; i++) if (w->ws[i].mask) w->ws[k++] = w->ws[i];
        w->nws = k;
        for (int i = 0; i < w->nrec; i++) { w->rec[i].mask &= ~lanes; w->rec[i].waiting &= ~lanes; }
        hanoi_settle(w);
    }
    emu_progress(M, w);
    bar_recheck_after_exit(M, w->cta);
    coll_recheck_after_exit(M, w);
}

/* Divergence: lanes of the top split go to several pcs. */
static void hanoi_diverge(Warp *w, uint32_t rpc, uint32_t branch_pc, uint32_t mask, const uint32_t *pcs, const uint32_t *masks, int n)
{
    w->nws--;                                       /* the split that diverged */
    if (rpc != NO_PC) rec_push(w, rpc, mask, branch_pc);
    /* ascending lane count: the majority ends on top (ties: earlier entry on top) */
    int order[33];
    for (int i = 0; i < n; i++) order[i] = i;
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && __builtin_popcount(masks[order[j - 1]]) < __builtin_popcount(masks[order[j]]); j--) {
            int t = order[j]; order[j] = order[j - 1]; order[j - 1] = t;
        }
    for (int i = 0; i < n; i++) {
        int k = order[i];
        if (w->nws == w->capws) {
            w->capws = w->capws ? w->capws * 2 : 8;
            w->ws = realloc(w->ws, sizeof(Split) * (size_t)w->capws);
        }
        w->ws[w->nws++] = (Split){ pcs[k], masks[k], NO_PC };
    }
    ws_sync(w);
}

/* Virtual YIELD at a loop header; true when the group must stop here. */
static bool hanoi_yield(Machine *M, Warp *w, uint32_t pc)
{
    Split *top = &w->ws[w->nws - 1];
    if (top->yield_pc == pc) { top->yield_pc = NO_PC; return false; }
    top->pc = pc;
    top->yield_pc = pc;
    w->loop_streak++;
    /* Bounded fairness among the warp's paths: a loop that writes memory
     * on every iteration (a retry loop that takes and releases a lock)
     * counts as progress and never trips the watchdog, yet may wait for
     * a path below it on the stack; after 8 watchdog periods of yields the
     * top path goes to the bottom (any order is a valid schedule under
     * independent thread scheduling). */
    if (M->L->policy == EMU_POLICY_HANOI && w->nws >= 2 && ++w->yield_streak > 8 * M->L->watchdog) {
        Split t = w->ws[w->nws - 1];
        memmove(&w->ws[1], &w->ws[0], sizeof(Split) * (size_t)(w->nws - 1));
        w->ws[0] = t;
        w->yield_streak = 0;
        return true;
    }
    if (w->nrec) {
        Rec *r = &w->rec[w->nrec - 1];
        if (r->waiting && w->loop_streak > M->L->watchdog) {
            if (M->L->policy == EMU_POLICY_STRICT) {
                char lt[120], lt2[120];
                emu_fail(M, EMU_ERR_CHECK, "DEADLOCK", &M->P->code[pc], w, top->mask,
                         "SIMT-induced deadlock (strict lock-step policy): lanes %s wait at the reconvergence point %s:%u "
                         "while lanes %s loop here without progress",
                         emu_lanes_text(r->waiting, lt, sizeof lt), M->P->m->filename, emu_inst_line(&M->P->code[r->rpc]),
                         emu_lanes_text(top->mask, lt2, sizeof lt2));
                return true;
            }
            hanoi_abandon(M, w, "progress watchdog");
            return true;
        }
    }
    /* Lock-step: lanes that loop without progress while another path of
     * their warp waits to be scheduled wait for it forever. */
    if (M->L->policy == EMU_POLICY_STRICT && w->nws >= 2 && w->loop_streak > M->L->watchdog) {
        char lt[120], lt2[120];
        uint32_t others = 0;
        for (int i = 0; i < w->nws - 1; i++) others |= w->ws[i].mask;
        emu_fail(M, EMU_ERR_CHECK, "DEADLOCK", &M->P->code[pc], w, top->mask,
                 "SIMT-induced deadlock (strict lock-step policy): lanes %s loop here without progress while lanes %s of "
                 "their warp wait to be scheduled on another path",
                 emu_lanes_text(top->mask, lt, sizeof lt), emu_lanes_text(others, lt2, sizeof lt2));
        return true;
    }
    if (w->nrec) {
        Rec *r = &w->rec[w->nrec - 1];
        if (M->L->policy == EMU_POLICY_HANOI && w->nws >= 2 && r->mask) {
            uint32_t u = w->ws[w->nws - 1].mask | w->ws[w->nws - 2].mask;
            if (!(u & ~r->mask)) {
                Split t = w->ws[w->nws - 1];
                w->ws[w->nws - 1] = w->ws[w->nws - 2];
                w->ws[w->nws - 2] = t;
                return true;
            }
        }
    }
    /* Paths that no pending reconvergence point relates (after an
     * abandonment) are not swapped above; when the top one loops without
     * progress for the watchdog's count, the one below it runs (it may hold
     * the lock the top one spins on). */
    if (M->L->policy == EMU_POLICY_HANOI && w->nws >= 2 && w->loop_streak > M->L->watchdog) {
        Split t = w->ws[w->nws - 1];
        w->ws[w->nws - 1] = w->ws[w->nws - 2];
        w->ws[w->nws - 2] = t;
        w->loop_streak = 0;
    }
    return true;
}

/* ------------------------------------------------------------- run_group */

static void load_lanes(Exec *x, Warp *w, uint32_t lanes)
{
    FOR_LANES(l, lanes) {
        Thread *T = w->t[l];
        x->T[l] = T;
        x->R[l] = T->fr->r;
        x->P[l] = T->fr->p;
    }
}

void exec_refresh_lane(Exec *x, int l)
{
    x->R[l] = x->T[l]->fr->r;
    x->P[l] = x->T[l]->fr->p;
}

static void set_pcs(Warp *w, uint32_t lanes, uint32_t pc)
{
    FOR_LANES(l, lanes) w->t[l]->pc = pc;
}

static bool callee_of(Exec *x, const EInst *I, uint32_t em, uint32_t *callee)
{
    Machine *M = x->M;
    if (I->aux != NO_PC) { *callee = I->aux; return true; }
    uint32_t f = NO_PC;
    FOR_LANES(l, em) {
        if (x->P[l][I->o[1].reg]) { emu_poison_fail(x, I, 1u << l, x->P[l][I->o[1].reg], "a call target"); return false; }
        uint64_t a = x->R[l][I->o[1].reg];
        if (TAG_OF(a) != TAG_FUNC || (a & 0xffffffffu) >= M->P->nfuncs) {
            emu_fail(M, EMU_ERR_CHECK, "BAD_ADDRESS", I, x->w, 1u << l, "indirect call through 0x%llx, which is not a function address",
                     (unsigned long long)a);
            return false;
        }
        uint32_t g = (uint32_t)(a & 0xffffffffu);
        if (f != NO_PC && g != f) {
            emu_fail(M, EMU_ERR_UNSUPPORTED, "UNSUPPORTED", I, x->w, em, "lanes call different functions through one indirect call");
            return false;
        }
        f = g;
    }
    *callee = f;
    return true;
}

static void run_group(Machine *M, Warp *w, uint32_t mask, uint32_t pc, uint32_t quantum)
{
    const EmuProgram *P = M->P;
    const EInst *code = P->code;
    const bool hanoi = is_hanoi(M);
    Exec x;
    x.M = M;
    x.w = w;
    x.mask = mask;
    load_lanes(&x, w, mask);
    for (;;) {
        const EInst *I = &code[pc];
        if (hanoi) {
            if (w->nrec) {
                uint32_t parked = hanoi_park(w, pc, mask);
                if (parked) {
                    set_pcs(w, mask, pc);
                    mask &= ~parked;
                    if (!mask) w->nws--;
                    else { w->ws[w->nws - 1].mask = mask; w->ws[w->nws - 1].pc = pc; }
                    hanoi_settle(w);
                    return;
                }
            }
            if (I->loophead && hanoi_yield(M, w, pc)) { set_pcs(w, mask, pc); return; }
        }
        if (quantum-- == 0) break;
        uint32_t em = mask;
        if (I->guard >= 0) {
            em = 0;
            uint32_t bad = 0, bpsn = 0;
            FOR_LANES(l, mask) {
                if (x.P[l][I->guard]) { if (!bad) bpsn = x.P[l][I->guard]; bad |= 1u << l; }
                if ((x.R[l][I->guard] ^ I->guard_neg) & 1) em |= 1u << l;
            }
            if (bad) { emu_poison_fail(&x, I, bad, bpsn, "a guard predicate"); break; }
        }
        uint32_t nl = (uint32_t)__builtin_popcount(mask);
        M->cnt.issued[I->cls]++;
        M->cnt.issued_total++;
        M->cnt.active_lanes += nl;
        M->cnt.thread_insts += (uint32_t)__builtin_popcount(em);
        M->steps += nl;
        M->clock++;
        if (M->L->trace && M->L->trace_out)
            fprintf(M->L->trace_out, "cta %llu warp %u pc %u line %u lanes %08x\n", (unsigned long long)w->cta->linear, w->id, pc,
                    emu_inst_line(I), mask);
        switch (I->flow) {
        case FL_NORMAL:
            if (em) {
                emu_exec_table[I->op](&x, I, em);
                if (M->failed) goto out;
            }
            pc++;
            continue;
        case FL_BRANCH: {
            uint32_t tk = em, nt = mask & ~em;
            if ((I->flags & F_UNI) && tk && nt) {
                char a[120], b[120];
                emu_fail(M, EMU_ERR_CHECK, "UB_UNI", I, w, mask,
                         "bra.uni executed by lanes that disagree: lanes %s take the branch, lanes %s do not",
                         emu_lanes_text(tk, a, sizeof a), emu_lanes_text(nt, b, sizeof b));
                goto out;
            }
            if (!nt) { pc = I->aux; continue; }
            if (!tk) { pc++; continue; }
            set_pcs(w, tk, I->aux);
            set_pcs(w, nt, pc + 1);
            if (hanoi) {
                uint32_t pcs[2] = { pc + 1, I->aux }, masks[2] = { nt, tk };
                hanoi_diverge(w, I->rpc, pc, mask, pcs, masks, 2);
            }
            return;
        }
        case FL_BRX: {
            const uint32_t *tab = &P->tabs[I->aux];
            uint32_t pcs[33], masks[33];
            int n = 0;
            FOR_LANES(l, em) {
                if (opp(&x, &I->o[0], l)) { emu_poison_fail(&x, I, 1u << l, opp(&x, &I->o[0], l), "a brx.idx index"); goto out; }
                uint64_t idx = opv(&x, &I->o[0], l) & 0xffffffffu;
                if (idx >= tab[0]) {
                    emu_fail(M, EMU_ERR_CHECK, "UB_BRX_RANGE", I, w, 1u << l, "brx.idx index %llu is out of range (the list has %u targets)",
                             (unsigned long long)idx, tab[0]);
                    goto out;
                }
                uint32_t t = tab[1 + idx];
                if (t == NO_PC) { emu_fail(M, EMU_ERR_UNSUPPORTED, "UNSUPPORTED", I, w, 1u << l, "unresolved branch target"); goto out; }
                int k = 0;
                while (k < n && pcs[k] != t) k++;
                if (k == n) { pcs[n] = t; masks[n] = 0; n++; }
                masks[k] |= 1u << l;
            }
            if (mask & ~em) { pcs[n] = pc + 1; masks[n] = mask & ~em; n++; }
            if ((I->flags & F_UNI) && n > 1) {
                emu_fail(M, EMU_ERR_CHECK, "UB_UNI", I, w, mask, "brx.idx.uni executed by lanes that go to %d different targets", n);
                goto out;
            }
            if (n == 1) { pc = pcs[0]; continue; }
            for (int k = 0; k < n; k++) set_pcs(w, masks[k], pcs[k]);
            if (hanoi) hanoi_diverge(w, I->rpc, pc, mask, pcs, masks, n);
            return;
        }
        case FL_CALL: {
            if (!em) { pc++; continue; }
            uint32_t callee;
            if (!callee_of(&x, I, em, &callee)) goto out;
            const EFunc *cf = &P->funcs[callee];
            if (!cf->has_body || cf->pc0 == cf->pcn) {
                emu_fail(M, EMU_ERR_UNSUPPORTED, "UNSUPPORTED", I, w, em, "call to %s, which has no body in this file", cf->name);
                goto out;
            }
            FOR_LANES(l, em) {
                if (!emu_do_call(&x, I, l, callee, pc)) goto out;
                exec_refresh_lane(&x, l);
            }
            if (em == mask) { pc = cf->pc0; continue; }
            set_pcs(w, em, cf->pc0);
            set_pcs(w, mask & ~em, pc + 1);
            if (hanoi) {
                uint32_t pcs[2] = { pc + 1, cf->pc0 }, masks[2] = { mask & ~em, em };
                hanoi_diverge(w, I->rpc, pc, mask, pcs, masks, 2);
            }
            return;
        }
        case FL_RET: {
            if (!em) { pc++; continue; }
            uint32_t exiting = 0;
            FOR_LANES(l, em) {
                if (x.T[l]->depth <= 1) { exiting |= 1u << l; continue; }
                emu_do_return(&x, I, l);
                exec_refresh_lane(&x, l);
            }
            if (M->failed) goto out;
            uint32_t stay = mask & ~em, returned = em & ~exiting;
            set_pcs(w, stay, pc + 1);
            if (!exiting && !stay) {
                uint32_t npc = x.T[__builtin_ctz(returned)]->pc;
                bool same = true;
                FOR_LANES(l, returned) if (x.T[l]->pc != npc) same = false;
                if (same) { pc = npc; continue; }
            }
            set_pcs(w, exiting, pc);
            if (hanoi) {
                w->nws--;
                uint32_t left = returned | stay;
                while (left) {
                    uint32_t p = w->t[__builtin_ctz(left)]->pc, g = 0;
                    FOR_LANES(k, left) if (w->t[k]->pc == p) g |= 1u << k;
                    ws_push(w, p, g);
                    left &= ~g;
                }
                ws_sync(w);
            }
            if (exiting) warp_exit_lanes(M, w, exiting);
            return;
        }
        case FL_EXIT: {
            if (!em) { pc++; continue; }
            uint32_t rest = mask & ~em;
            set_pcs(w, em, pc);
            set_pcs(w, rest, pc + 1);
            if (hanoi) {
                if (rest) { w->ws[w->nws - 1].mask = rest; w->ws[w->nws - 1].pc = pc + 1; }
                else w->nws--;
            }
            warp_exit_lanes(M, w, em);
            return;
        }
        case FL_TRAP:
            if (!em) { pc++; continue; }
            {
                const Thread *T = w->t[__builtin_ctz(em)];
                int others = __builtin_popcount(em) - 1;
                emu_fail(M, EMU_ERR_CHECK, "TRAP", I, w, em, "trap executed at %s:%u by thread (%u,%u,%u) of CTA (%u,%u,%u)%s",
                         P->m->filename, emu_inst_line(I), T->tid[0], T->tid[1], T->tid[2], w->cta->id[0], w->cta->id[1],
                         w->cta->id[2], others ? " (and other lanes of its warp)" : "");
            }
            goto out;
        case FL_BAR:
        case FL_COLL: {
            if (!em) { pc++; continue; }
            uint32_t rest = mask & ~em;
            set_pcs(w, em, pc);
            set_pcs(w, rest, pc + 1);
            w->runnable &= ~em;
            if (hanoi) {
                w->nws--;
                ws_push(w, pc + 1, rest);
                ws_sync(w);
            }
            if (I->flow == FL_BAR) bar_arrive(&x, I, em, pc);
            else coll_arrive(&x, I, em, pc);
            if (hanoi) ws_sync(w);
            return;
        }
        case FL_YIELD:
            pc++;
            goto out;
        case FL_UNSUP:
        default:
            if (!em) { pc++; continue; }
            emu_fail(M, EMU_ERR_UNSUPPORTED, "UNSUPPORTED", I, w, em, "%s", I->unsup ? I->unsup : "not implemented");
            goto out;
        }
    }
out:
    set_pcs(w, mask, pc);
    if (hanoi && w->nws) { w->ws[w->nws - 1].pc = pc; w->ws[w->nws - 1].mask = mask; }
    if (M->hoist_yield) weak_end_group(M);   /* a store went ahead of the load at pc: not a failure */
}

/* ------------------------------------------------------------ scheduling */

static Warp *pick_warp(Machine *M)
{
    bool hanoi = is_hanoi(M);
    if (!hanoi && ++M->picks % FAIR_EVERY == 0) {
        Warp *old = NULL;
        for (uint32_t k = 0; k < M->nactive; k++) {
            Warp *w = M->active[k];
            if (w->runnable && (!old || w->last_pick < old->last_pick)) old = w;
        }
        if (old) { old->last_pick = M->clock; return old; }
    }
    while (M->nactive) {
        uint32_t k;
        if (hanoi) { if (M->rr >= M->nactive) M->rr = 0; k = M->rr; }
        else k = (uint32_t)(rng_next(M) % M->nactive);
        Warp *w = M->active[k];
        if (w->runnable) {
            if (hanoi) M->rr = k + 1;
            w->last_pick = M->clock;
            return w;
        }
        w->listed = false;
        if (hanoi) {
            memmove(&M->active[k], &M->active[k + 1], sizeof(Warp *) * (M->nactive - k - 1));
            M->nactive--;
        } else {
            M->active[k] = M->active[--M->nactive];
        }
    }
    return NULL;
}

static void run_warp(Machine *M, Warp *w)
{
    if (is_hanoi(M)) {
        hanoi_settle(w);
        if (!w->nws) return;
        Split *top = &w->ws[w->nws - 1];
        run_group(M, w, top->mask, top->pc, 64);
        return;
    }
    uint32_t r = w->runnable;
    int n = __builtin_popcount(r);
    int pick = (int)(rng_next(M) % (uint64_t)n);
    uint32_t m = r;
    for (int i = 0; i < pick; i++) m &= m - 1;
    int l0 = __builtin_ctz(m);
    if (++w->picks % FAIR_EVERY == 0)
        FOR_LANES(l, r) if (w->t[l]->last_run < w->t[l0]->last_run) l0 = l;
    uint32_t pc = w->t[l0]->pc, g = 0;
    FOR_LANES(l, r) if (w->t[l]->pc == pc) g |= 1u << l;
    uint64_t z = rng_next(M);
    if (__builtin_popcount(g) > 1 && (z % 100) < M->L->split_percent) {
        uint32_t sub = g & (uint32_t)(z >> 32);
        g = sub | (1u << l0);
    }
    uint32_t quantum = 1 + (uint32_t)((z >> 8) % 48);
    FOR_LANES(l, g) w->t[l]->last_run = M->clock + 1;
    run_group(M, w, g, pc, quantum);
}

static void retire_cta(Machine *M, Cta *c)
{
    uint32_t k = 0;
    for (uint32_t i = 0; i < M->nactive; i++)
        if (M->active[i]->cta != c) M->active[k++] = M->active[i];
    M->nactive = k;
    if (M->rr > M->nactive) M->rr = 0;
    for (uint32_t i = 0; i < M->nres; i++)
        if (M->res_cta[i] == c) { memmove(&M->res_cta[i], &M->res_cta[i + 1], sizeof(Cta *) * (M->nres - i - 1)); M->nres--; break; }
    cache_cta_end(M, c);
    cta_free(M, c);
}

static void describe_blocked(Machine *M)
{
    int shown = 0;
    for (uint32_t i = 0; i < M->nres && shown < 8; i++) {
        Cta *c = M->res_cta[i];
        for (uint32_t k = 0; k < c->nwarps && shown < 8; k++) {
            Warp *w = &c->warps[k];
            uint32_t live = w->exist & ~w->exited;
            if (!live) continue;
            bool any = false;
            FOR_LANES(l, live) if (w->t[l]->status == TS_COLL || w->t[l]->status == TS_BAR) any = true;
            for (int r = 0; r < w->nrec; r++) if (w->rec[r].waiting) any = true;
            if (!any) continue;
            shown++;
            emu_fail_more(M, "  CTA (%u,%u,%u) warp %u:\n", c->id[0], c->id[1], c->id[2], w->id);
            coll_describe_waits(M, w);
            uint32_t bar = 0;
            FOR_LANES(l, live) if (w->t[l]->status == TS_BAR) bar |= 1u << l;
            while (bar) {
                Thread *T = w->t[__builtin_ctz(bar)];
                uint32_t g = 0;
                FOR_LANES(l, bar) if (w->t[l]->pc == T->pc) g |= 1u << l;
                char lt[120];
                Barrier *B = &c->bar[T->bar_id];
                emu_fail_more(M, "    lanes %s wait at barrier %u (%s:%u), %u of %u threads arrived\n", emu_lanes_text(g, lt, sizeof lt),
                              T->bar_id, M->P->m->filename, emu_inst_line(&M->P->code[T->pc]), B->arrived,
                              B->expected ? B->expected : c->live);
                bar &= ~g;
            }
            for (int r = 0; r < w->nrec; r++) {
                Rec *rc = &w->rec[r];
                if (!rc->waiting) continue;
                char lt[120], lt2[120];
                emu_fail_more(M, "    lanes %s parked at the reconvergence point %s:%u wait for lanes %s\n",
                              emu_lanes_text(rc->waiting, lt, sizeof lt), M->P->m->filename, emu_inst_line(&M->P->code[rc->rpc]),
                              emu_lanes_text(rc->mask & ~rc->waiting & ~w->exited, lt2, sizeof lt2));
            }
        }
    }
    if (M->next_cta < M->ncta)
        emu_fail_more(M, "  %llu CTA(s) not yet started: only %u may be resident at once (--resident)\n",
                      (unsigned long long)(M->ncta - M->next_cta), M->nres);
}

static void report_deadlock(Machine *M)
{
    bool coll = false, bar = false;
    uint32_t blocked = 0;
    for (uint32_t i = 0; i < M->nres; i++) {
        Cta *c = M->res_cta[i];
        for (uint32_t t = 0; t < c->nthreads; t++) {
            uint8_t s = c->threads[t].status;
            if (s == TS_COLL) coll = true;
            if (s == TS_BAR) bar = true;
            if (s != TS_EXIT && s != TS_ABSENT) blocked++;
        }
    }
    const char *kind = coll ? "DEADLOCK_COLLECTIVE" : bar ? "DEADLOCK_BARRIER" : "DEADLOCK";
    emu_fail(M, EMU_ERR_CHECK, kind, NULL, NULL, 0, "every one of the %u remaining threads is blocked", blocked);
    describe_blocked(M);
}

static void report_livelock(Machine *M)
{
    emu_fail(M, EMU_ERR_CHECK, "LIVELOCK_SUSPECTED", NULL, NULL, 0,
             "no completion after %llu thread-instructions (the step budget, --max-steps); threads are still running:",
             (unsigned long long)M->steps);
    int shown = 0;
    for (uint32_t i = 0; i < M->nres && shown < 6; i++) {
        Cta *c = M->res_cta[i];
        for (uint32_t k = 0; k < c->nwarps && shown < 6; k++) {
            Warp *w = &c->warps[k];
            uint32_t run = 0;
            FOR_LANES(l, w->exist & ~w->exited) if (w->t[l]->status == TS_RUN) run |= 1u << l;
            while (run) {
                uint32_t pc = w->t[__builtin_ctz(run)]->pc, g = 0;
                FOR_LANES(l, run) if (w->t[l]->pc == pc) g |= 1u << l;
                char lt[120], text[200];
                emu_fail_more(M, "  CTA (%u,%u,%u) warp %u lanes %s at %s:%u: %s\n", c->id[0], c->id[1], c->id[2], w->id,
                              emu_lanes_text(g, lt, sizeof lt), M->P->m->filename, emu_inst_line(&M->P->code[pc]),
                              emu_inst_text(M->P, &M->P->code[pc], text, sizeof text));
                run &= ~g;
                shown++;
            }
        }
    }
    describe_blocked(M);
}

/* Hanoi: when nothing can run, let parked lanes go (progress watchdog). */
static bool abandon_some(Machine *M)
{
    if (M->L->policy != EMU_POLICY_HANOI) return false;
    for (uint32_t i = 0; i < M->nres; i++) {
        Cta *c = M->res_cta[i];
        for (uint32_t k = 0; k < c->nwarps; k++) {
            Warp *w = &c->warps[k];
            for (int r = w->nrec - 1; r >= 0; r--) {
                if (!(w->rec[r].waiting & ~w->exited)) continue;
                /* abandon from the top down to the entry with parked lanes */
                w->nrec = r + 1;
                hanoi_abandon(M, w, "no other thread can run");
                warp_list(M, w);
                return true;
            }
        }
    }
    return false;
}

bool emu_schedule(Machine *M)
{
    uint32_t limit = cache_resident_limit(M, M->L->resident ? M->L->resident : UINT32_MAX);
    M->rng = M->L->seed * 0x2545f4914f6cdd1dull + 0x1234567;
    while (!M->failed) {
        while (M->nres < limit && M->next_cta < M->ncta) {
            Cta *c = cta_new(M, M->next_cta++);
            if (!c) return false;
            cache_cta_start(M, c);
            if (M->nres == M->capres) {
                M->capres = M->capres ? M->capres * 2 : 8;
                M->res_cta = realloc(M->res_cta, sizeof(Cta *) * M->capres);
            }
            M->res_cta[M->nres++] = c;
            for (uint32_t k = 0; k < c->nwarps; k++) warp_list(M, &c->warps[k]);
            if (c->live == 0) { retire_cta(M, c); continue; }
        }
        if (M->nres == 0) break;
        Warp *w = pick_warp(M);
        if (!w) {
            if (abandon_some(M)) continue;
            report_deadlock(M);
            break;
        }
        Cta *c = w->cta;
        run_warp(M, w);
        if (M->weak) weak_tick(M);
        if (c->live == 0 && !M->failed) retire_cta(M, c);
        if (M->steps > M->L->max_steps && !M->failed) { report_livelock(M); break; }
        if (M->L->spin_limit && M->steps - M->last_progress > M->L->spin_limit && !M->failed) { spin_report_livelock(M); describe_blocked(M); break; }
    }
    return !M->failed;
}
