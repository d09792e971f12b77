/* loops.c — natural loops: a back edge t → h is an edge whose target
 * dominates its source; the loop of h is h plus every block that reaches a
 * latch without passing h (all back edges to h form one loop).  Loops with
 * different headers are nested or disjoint.  A retreating edge (against
 * reverse postorder) that is not a back edge means an irreducible cycle:
 * it is reported (LoopInfo.irreducible) but forms no loop. */
#include "analysis/internal.h"

typedef struct RawLoop {
    uint32_t header;
    U32Vec blocks, latches;
    uint32_t parent;
} RawLoop;

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

static uint32_t *arena_copy_sorted(Arena *a, U32Vec *v)
{
    if (v->n > 1) qsort(v->v, v->n, sizeof(uint32_t), cmp_u32);
    uint32_t *out = ARENA_ARRAY(a, uint32_t, v->n ? v->n : 1);
    if (v->n) memcpy(out, v->v, sizeof(uint32_t) * v->n);
    return out;
}

bool loop_contains(const LoopInfo *li, uint32_t loop, uint32_t block)
{
    if (block >= li->cfg->n) return false;
    for (uint32_t l = li->innermost[block]; l != ANA_NONE; l = li->loops[l].parent)
        if (l == loop) return true;
    return false;
}

static LoopInfo *loops_build(Function *fn)
{
    const Cfg *c = cfg_get(fn);
    const DomTree *d = dom_get(fn);
    Arena *a = ana_arena(fn);
    LoopInfo *li = ARENA_NEW(a, LoopInfo);
    uint32_t n = c->n;
    li->cfg = c;
    li->innermost = ARENA_ARRAY(a, uint32_t, n + 1);
    for (uint32_t b = 0; b <= n; b++) li->innermost[b] = ANA_NONE;

    /* headers in reverse postorder: outer headers come before inner ones */
    RawLoop *raw = NULL;
    uint32_t nraw = 0, capraw = 0;
    uint32_t *stamp = xmalloc(sizeof(uint32_t) * (n + 1));
    for (uint32_t b = 0; b <= n; b++) stamp[b] = ANA_NONE;
    uint32_t *stack = xmalloc(sizeof(uint32_t) * (n + 1));
    for (uint32_t i = 0; i < c->nrpo; i++) {
        uint32_t h = c->rpo[i];
        U32Vec latches = { 0 };
        for (uint32_t k = 0; k < cfg_npred(c, h); k++) {
            uint32_t t = cfg_preds(c, h)[k];
            if (!cfg_reachable(c, t)) continue;
            if (dom_dominates(d, h, t)) u32_push(&latches, t);
            else if (c->rpo_index[t] >= c->rpo_index[h]) li->irreducible = true;
        }
        if (!latches.n) continue;
        if (nraw == capraw) {
            capraw = capraw ? capraw * 2 : 8;
            raw = xrealloc(raw, sizeof(RawLoop) * capraw);
        }
        RawLoop *L = &raw[nraw];
        memset(L, 0, sizeof *L);
        L->header = h;
        L->latches = latches;
        uint32_t id = nraw++;
        /* body: reverse reachability from the latches, stopping at h */
        uint32_t sp = 0;
        stamp[h] = id;
        u32_push(&L->blocks, h);
        for (uint32_t k = 0; k < latches.n; k++)
            if (stamp[latches.v[k]] != id) {
                stamp[latches.v[k]] = id;
                u32_push(&L->blocks, latches.v[k]);
                stack[sp++] = latches.v[k];
            }
        while (sp) {
            uint32_t x = stack[--sp];
            for (uint32_t k = 0; k < cfg_npred(c, x); k++) {
                uint32_t p = cfg_preds(c, x)[k];
                if (stamp[p] == id || !cfg_reachable(c, p)) continue;
                stamp[p] = id;
                u32_push(&L->blocks, p);
                stack[sp++] = p;
            }
        }
        /* nesting: loops are found outer first, so the innermost loop seen
         * so far at the header is the parent */
        L->parent = li->innermost[h];
        for (uint32_t k = 0; k < L->blocks.n; k++) li->innermost[L->blocks.v[k]] = id;
    }
    free(stack);

    /* final order: preorder of the loop tree, siblings by header index */
    uint32_t *order = xmalloc(sizeof(uint32_t) * (nraw + 1));
    uint32_t *newid = xmalloc(sizeof(uint32_t) * (nraw + 1));
    uint32_t norder = 0;
    {
        /* children lists sorted by header */
        uint32_t *idx = xmalloc(sizeof(uint32_t) * (nraw + 1));
        for (uint32_t i = 0; i < nraw; i++) idx[i] = i;
        /* insertion sort by header block index (few loops) */
        for (uint32_t i = 1; i < nraw; i++) {
            uint32_t x = idx[i], j = i;
            while (j > 0 && raw[idx[j - 1]].header > raw[x].header) { idx[j] = idx[j - 1]; j--; }
            idx[j] = x;
        }
        /* DFS: roots then children, each level in header order */
        uint32_t *st = xmalloc(sizeof(uint32_t) * (nraw + 1));
        uint32_t sp = 0;
        for (uint32_t i = nraw; i-- > 0;)
            if (raw[idx[i]].parent == ANA_NONE) st[sp++] = idx[i];
        while (sp) {
            uint32_t l = st[--sp];
            order[norder++] = l;
            for (uint32_t i = nraw; i-- > 0;)
                if (raw[idx[i]].parent == l) st[sp++] = idx[i];
        }
        free(st);
        free(idx);
    }
    for (uint32_t i = 0; i < norder; i++) newid[order[i]] = i;
    li->nloops = nraw;
    li->loops = ARENA_ARRAY(a, Loop, nraw ? nraw : 1);
    for (uint32_t b = 0; b < n; b++)
        if (li->innermost[b] != ANA_NONE) li->innermost[b] = newid[li->innermost[b]];
    for (uint32_t i = 0; i < norder; i++) {
        RawLoop *R = &raw[order[i]];
        Loop *L = &li->loops[i];
        L->header = R->header;
        L->parent = R->parent == ANA_NONE ? ANA_NONE : newid[R->parent];
        L->depth = L->parent == ANA_NONE ? 1 : li->loops[L->parent].depth + 1;
        L->nblocks = R->blocks.n;
        L->blocks = arena_copy_sorted(a, &R->blocks);
        L->nlatches = R->latches.n;
        L->latches = arena_copy_sorted(a, &R->latches);
        /* exits */
        U32Vec ex = { 0 };
        uint32_t mark = ANA_NONE - 1 - i;
        for (uint32_t k = 0; k < L->nblocks; k++) stamp[L->blocks[k]] = mark;
        for (uint32_t k = 0; k < L->nblocks; k++) {
            uint32_t b = L->blocks[k];
            for (uint32_t j = 0; j < cfg_nsucc(c, b); j++) {
                uint32_t s = cfg_succs(c, b)[j];
                if (stamp[s] == mark) continue;
                bool dup = false;
                for (uint32_t q = 0; q < ex.n; q++) dup |= ex.v[q] == s;
                if (!dup) u32_push(&ex, s);
            }
        }
        L->nexits = ex.n;
        L->exits = arena_copy_sorted(a, &ex);
        u32_free(&ex);
        /* preheader */
        L->preheader = ANA_NONE;
        uint32_t outside = 0, cand = ANA_NONE;
        for (uint32_t k = 0; k < cfg_npred(c, L->header); k++) {
            uint32_t p = cfg_preds(c, L->header)[k];
            if (stamp[p] == mark) continue;
            outside++;
            cand = p;
        }
        if (outside == 1 && cfg_nsucc(c, cand) == 1) L->preheader = cand;
        u32_free(&R->blocks);
        u32_free(&R->latches);
    }
    free(raw);
    free(order);
    free(newid);
    free(stamp);
    return li;
}

const LoopInfo *loops_get(Function *fn)
{
    AnalysisCache *ac = analysis_cache(fn);
    if (!ac->loops) ac->loops = loops_build(fn);
    return ac->loops;
}
