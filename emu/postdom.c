/* postdom.c — the control-flow facts the Hanoi scheduler needs, computed
 * on the decoded code (the emulator keeps its own small CFG so it does not
 * depend on the analyses of ir/):
 *
 *   - for every conditional branch (bra, brx.idx, predicated call), the
 *     reconvergence pc: the first instruction of the immediate
 *     post-dominator of its block (NO_PC when only the function exit
 *     post-dominates it, or when the block cannot reach the exit);
 *   - loop headers (targets of DFS back edges), where Hanoi places a
 *     virtual YIELD.
 *
 * Post-dominators use the iterative algorithm of Cooper, Harvey and
 * Kennedy on the reverse CFG with one virtual exit node. */
#include <stdlib.h>
#include <string.h>

#include "emu/internal.h"

typedef struct Cfg {
    uint32_t nb;                /* blocks; node nb is the virtual exit */
    uint32_t *start, *end;      /* [start, end) pcs, relative to the function */
    uint32_t *succ_off, *succ;  /* CSR successors (exit = nb) */
    uint32_t *pred_off, *pred;
} Cfg;

static bool ends_block(const EInst *I)
{
    switch (I->flow) {
    case FL_BRANCH: case FL_BRX: case FL_RET: case FL_EXIT: case FL_TRAP: return true;
    case FL_CALL: return I->guard >= 0;
    default: return false;
    }
}

static void function_cfg(const EmuProgram *p, const EFunc *ef, Cfg *g, uint32_t *block_of)
{
    uint32_t n = ef->pcn - ef->pc0;
    uint8_t *leader = calloc(n + 1, 1);
    leader[0] = 1;
    for (uint32_t i = 0; i < n; i++) {
        const EInst *I = &p->code[ef->pc0 + i];
        if (ends_block(I) && i + 1 < n) leader[i + 1] = 1;
        if (I->flow == FL_BRANCH && I->aux >= ef->pc0 && I->aux < ef->pcn) leader[I->aux - ef->pc0] = 1;
        if (I->flow == FL_BRX) {
            const uint32_t *t = &p->tabs[I->aux];
            for (uint32_t k = 0; k < t[0]; k++)
                if (t[1 + k] != NO_PC && t[1 + k] >= ef->pc0 && t[1 + k] < ef->pcn) leader[t[1 + k] - ef->pc0] = 1;
        }
    }
    uint32_t nb = 0;
    for (uint32_t i = 0; i < n; i++) nb += leader[i];
    g->nb = nb;
    g->start = calloc(nb + 1, sizeof(uint32_t));
    g->end = calloc(nb + 1, sizeof(uint32_t));
    uint32_t b = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (leader[i]) { if (b) g->end[b - 1] = i; g->start[b++] = i; }
        block_of[i] = b - 1;
    }
    if (nb) g->end[nb - 1] = n;
    /* successors: at most table size + 1 per block */
    uint32_t cap = 0;
    for (uint32_t k = 0; k < nb; k++) {
        const EInst *I = &p->code[ef->pc0 + g->end[k] - 1];
        cap += 2 + (I->flow == FL_BRX ? p->tabs[I->aux] : 0);
    }
    g->succ_off = calloc(nb + 2, sizeof(uint32_t));
    g->succ = calloc(cap + 1, sizeof(uint32_t));
    uint32_t ns = 0;
    for (uint32_t k = 0; k < nb; k++) {
        g->succ_off[k] = ns;
        uint32_t last = g->end[k] - 1;
        const EInst *I = &p->code[ef->pc0 + last];
        bool fall = true;
        switch (I->flow) {
        case FL_BRANCH:
            g->succ[ns++] = (I->aux >= ef->pc0 && I->aux < ef->pcn) ? block_of[I->aux - ef->pc0] : nb;
            fall = I->guard >= 0;
            break;
        case FL_BRX: {
            const uint32_t *t = &p->tabs[I->aux];
            for (uint32_t j = 0; j < t[0]; j++)
                g->succ[ns++] = (t[1 + j] != NO_PC && t[1 + j] >= ef->pc0 && t[1 + j] < ef->pcn) ? block_of[t[1 + j] - ef->pc0] : nb;
            fall = I->guard >= 0;
            break;
        }
        case FL_RET: case FL_EXIT: case FL_TRAP:
            g->succ[ns++] = nb;
            fall = I->guard >= 0;
            break;
        default:
            break;
        }
        if (fall) g->succ[ns++] = (last + 1 < n) ? block_of[last + 1] : nb;
    }
    g->succ_off[nb] = ns;
    g->succ_off[nb + 1] = ns;
    /* predecessors */
    g->pred_off = calloc(nb + 2, sizeof(uint32_t));
    g->pred = calloc(ns + 1, sizeof(uint32_t));
    for (uint32_t k = 0; k < ns; k++) g->pred_off[g->succ[k] + 1]++;
    for (uint32_t k = 0; k < nb + 1; k++) g->pred_off[k + 1] += g->pred_off[k];
    uint32_t *fill = calloc(nb + 2, sizeof(uint32_t));
    for (uint32_t k = 0; k < nb; k++)
        for (uint32_t j = g->succ_off[k]; j < g->succ_off[k + 1]; j++) {
            uint32_t s = g->succ[j];
            g->pred[g->pred_off[s] + fill[s]++] = k;
        }
    free(fill);
    free(leader);
}

static void cfg_free(Cfg *g)
{
    free(g->start); free(g->end); free(g->succ_off); free(g->succ); free(g->pred_off); free(g->pred);
}

/* Immediate post-dominators: ipdom[v] for v < nb; nb = exit; -1 unknown. */
static void postdominators(const Cfg *g, int32_t *ipdom)
{
    uint32_t nb = g->nb, nn = nb + 1;
    int32_t *po = malloc(sizeof(int32_t) * nn);
    uint32_t *order = malloc(sizeof(uint32_t) * nn);
    uint32_t *stack = malloc(sizeof(uint32_t) * nn * 2);
    uint8_t *seen = calloc(nn, 1);
    for (uint32_t i = 0; i < nn; i++) { po[i] = -1; ipdom[i] = -1; }
    /* DFS on the reverse graph (edges: exit -> predecessors) for a postorder */
    uint32_t npo = 0, sp = 0;
    stack[sp++] = nb; stack[sp++] = 0;
    seen[nb] = 1;
    while (sp) {
        uint32_t v = stack[sp - 2], i = stack[sp - 1];
        uint32_t deg = g->pred_off[v + 1] - g->pred_off[v];
        if (i < deg) {
            stack[sp - 1]++;
            uint32_t w = g->pred[g->pred_off[v] + i];
            if (!seen[w]) { seen[w] = 1; stack[sp++] = w; stack[sp++] = 0; }
        } else {
            po[v] = (int32_t)npo;
            order[npo++] = v;
            sp -= 2;
        }
    }
    ipdom[nb] = (int32_t)nb;
    bool changed = true;
    while (changed) {
        changed = false;
        for (uint32_t k = npo; k-- > 0;) {       /* reverse postorder */
            uint32_t v = order[k];
            if (v == nb) continue;
            int32_t nw = -1;
            for (uint32_t j = g->succ_off[v]; j < g->succ_off[v + 1]; j++) {
                uint32_t s = g->succ[j];
                if (ipdom[s] < 0 || po[s] < 0) continue;
                if (nw < 0) { nw = (int32_t)s; continue; }
                int32_t a = (int32_t)s, b = nw;
                while (a != b) {
                    while (po[a] < po[b]) a = ipdom[a];
                    while (po[b] < po[a]) b = ipdom[b];
                }
                nw = a;
            }
            if (nw >= 0 && ipdom[v] != nw) { ipdom[v] = nw; changed = true; }
        }
    }
    free(po); free(order); free(stack); free(seen);
}

/* Marks the first instruction of every loop header (DFS back-edge targets). */
static void loop_headers(EmuProgram *p, const EFunc *ef, const Cfg *g)
{
    uint32_t nb = g->nb;
    if (!nb) return;
    uint8_t *state = calloc(nb, 1);     /* 0 new, 1 on stack, 2 done */
    uint32_t *stack = malloc(sizeof(uint32_t) * nb * 2 + 2);
    uint32_t sp = 0;
    stack[sp++] = 0; stack[sp++] = 0;
    state[0] = 1;
    while (sp) {
        uint32_t v = stack[sp - 2], i = stack[sp - 1];
        uint32_t deg = g->succ_off[v + 1] - g->succ_off[v];
        if (i < deg) {
            stack[sp - 1]++;
            uint32_t w = g->succ[g->succ_off[v] + i];
            if (w >= nb) continue;
            if (state[w] == 1) p->code[ef->pc0 + g->start[w]].loophead = 1;
            else if (state[w] == 0) { state[w] = 1; stack[sp++] = w; stack[sp++] = 0; }
        } else {
            state[v] = 2;
            sp -= 2;
        }
    }
    free(state);
    free(stack);
}

void emu_postdom(EmuProgram *p)
{
    for (uint32_t f = 0; f < p->nfuncs; f++) {
        EFunc *ef = &p->funcs[f];
        uint32_t n = ef->pcn - ef->pc0;
        if (!n) continue;
        uint32_t *block_of = malloc(sizeof(uint32_t) * n);
        Cfg g;
        memset(&g, 0, sizeof g);
        function_cfg(p, ef, &g, block_of);
        int32_t *ipdom = malloc(sizeof(int32_t) * (g.nb + 1));
        postdominators(&g, ipdom);
        for (uint32_t k = 0; k < g.nb; k++) {
            EInst *I = &p->code[ef->pc0 + g.end[k] - 1];
            bool diverges = (I->flow == FL_BRANCH || I->flow == FL_BRX || I->flow == FL_CALL) && (I->guard >= 0 || I->flow == FL_BRX);
            if (!diverges) continue;
            int32_t d = ipdom[k];
            I->rpc = (d < 0 || (uint32_t)d >= g.nb) ? NO_PC : ef->pc0 + g.start[d];
        }
        loop_headers(p, ef, &g);
        free(ipdom);
        free(block_of);
        cfg_free(&g);
    }
}
