/* dom.c — dominators and post-dominators (Cooper, Harvey & Kennedy's
 * iterative algorithm over reverse postorder), the dominator trees with
 * preorder intervals for O(1) queries, and dominance frontiers (CHK's
 * "runner" walk).  Post-dominators run on the reversed CFG rooted at the
 * virtual exit; blocks that cannot reach the exit get a fake edge to it (the
 * rule is documented in analysis.h), so every block has a post-dominator. */
#include "analysis/internal.h"

/* Reverse postorder of the nodes reachable from root; returns the count. */
static uint32_t graph_rpo(uint32_t n, const uint32_t *ss, const uint32_t *s, uint32_t root, uint32_t *order)
{
    uint8_t *seen = xcalloc(n, 1);
    uint32_t *stack = xmalloc(sizeof(uint32_t) * n);
    uint32_t *it = xmalloc(sizeof(uint32_t) * n);
    uint32_t sp = 0, npost = 0;
    stack[sp] = root;
    it[sp++] = ss[root];
    seen[root] = 1;
    while (sp) {
        uint32_t b = stack[sp - 1];
        if (it[sp - 1] < ss[b + 1]) {
            uint32_t t = s[it[sp - 1]++];
            if (!seen[t]) {
                seen[t] = 1;
                stack[sp] = t;
                it[sp++] = ss[t];
            }
        } else {
            order[npost++] = b;
            sp--;
        }
    }
    for (uint32_t i = 0; i < npost / 2; i++) {
        uint32_t t = order[i];
        order[i] = order[npost - 1 - i];
        order[npost - 1 - i] = t;
    }
    free(seen);
    free(stack);
    free(it);
    return npost;
}

void dom_compute(uint32_t n, const uint32_t *ss, const uint32_t *s, uint32_t root, uint32_t *idom)
{
    for (uint32_t i = 0; i < n; i++) idom[i] = ANA_NONE;
    if (n == 0) return;
    uint32_t *order = xmalloc(sizeof(uint32_t) * n);
    uint32_t nr = graph_rpo(n, ss, s, root, order);
    uint32_t *po = xmalloc(sizeof(uint32_t) * n);   /* postorder number; larger = earlier in RPO */
    for (uint32_t i = 0; i < n; i++) po[i] = ANA_NONE;
    for (uint32_t i = 0; i < nr; i++) po[order[i]] = nr - 1 - i;
    /* predecessors restricted to reachable nodes */
    uint32_t *pc = xcalloc(n + 1, sizeof(uint32_t));
    for (uint32_t b = 0; b < n; b++)
        if (po[b] != ANA_NONE)
            for (uint32_t k = ss[b]; k < ss[b + 1]; k++) pc[s[k] + 1]++;
    for (uint32_t i = 0; i < n; i++) pc[i + 1] += pc[i];
    uint32_t *pr = xmalloc(sizeof(uint32_t) * (pc[n] + 1));
    uint32_t *fill = xmalloc(sizeof(uint32_t) * (n + 1));
    memcpy(fill, pc, sizeof(uint32_t) * (n + 1));
    for (uint32_t b = 0; b < n; b++)
        if (po[b] != ANA_NONE)
            for (uint32_t k = ss[b]; k < ss[b + 1]; k++) pr[fill[s[k]]++] = b;
    free(fill);

    idom[root] = root;
    for (bool changed = true; changed;) {
        changed = false;
        for (uint32_t i = 1; i < nr; i++) {
            uint32_t b = order[i];
            uint32_t nd = ANA_NONE;
            for (uint32_t k = pc[b]; k < pc[b + 1]; k++) {
                uint32_t p = pr[k];
                if (idom[p] == ANA_NONE) continue;
                if (nd == ANA_NONE) { nd = p; continue; }
                uint32_t f1 = p, f2 = nd;     /* intersect */
                while (f1 != f2) {
                    while (po[f1] < po[f2]) f1 = idom[f1];
                    while (po[f2] < po[f1]) f2 = idom[f2];
                }
                nd = f1;
            }
            if (nd != ANA_NONE && idom[b] != nd) {
                idom[b] = nd;
                changed = true;
            }
        }
    }
    idom[root] = ANA_NONE;
    free(order);
    free(po);
    free(pc);
    free(pr);
}

uint32_t dom_nca(const DomTree *d, uint32_t a, uint32_t b)
{
    if (d->pre[a] == ANA_NONE || d->pre[b] == ANA_NONE) return ANA_NONE;
    while (d->depth[a] > d->depth[b]) a = d->idom[a];
    while (d->depth[b] > d->depth[a]) b = d->idom[b];
    while (a != b) {
        a = d->idom[a];
        b = d->idom[b];
    }
    return a;
}

/* Tree children, preorder intervals, depth and frontiers, given idom and
 * the predecessor lists of the graph the tree was computed on. */
static void finish_tree(DomTree *d, Arena *a, uint32_t nn, const uint32_t *ps, const uint32_t *p)
{
    U32Vec src = { 0 }, dst = { 0 };
    for (uint32_t b = 0; b < nn; b++)
        if (d->idom[b] != ANA_NONE) {
            u32_push(&src, d->idom[b]);
            u32_push(&dst, b);
        }
    csr_build(a, nn, src.n, src.v, dst.v, &d->child_start, &d->child);
    u32_free(&src);
    u32_free(&dst);
    d->pre = ARENA_ARRAY(a, uint32_t, nn);
    d->last = ARENA_ARRAY(a, uint32_t, nn);
    d->depth = ARENA_ARRAY(a, uint32_t, nn);
    for (uint32_t i = 0; i < nn; i++) d->pre[i] = d->last[i] = ANA_NONE;
    uint32_t *stack = xmalloc(sizeof(uint32_t) * (nn + 1));
    uint32_t *it = xmalloc(sizeof(uint32_t) * (nn + 1));
    uint32_t sp = 0, num = 0;
    stack[sp] = d->root;
    it[sp++] = d->child_start[d->root];
    d->pre[d->root] = num++;
    d->depth[d->root] = 0;
    while (sp) {
        uint32_t b = stack[sp - 1];
        if (it[sp - 1] < d->child_start[b + 1]) {
            uint32_t c = d->child[it[sp - 1]++];
            d->pre[c] = num++;
            d->depth[c] = d->depth[b] + 1;
            stack[sp] = c;
            it[sp++] = d->child_start[c];
        } else {
            d->last[b] = num - 1;
            sp--;
        }
    }
    free(stack);
    free(it);
    /* frontiers */
    uint32_t *stamp = xmalloc(sizeof(uint32_t) * nn);
    for (uint32_t i = 0; i < nn; i++) stamp[i] = ANA_NONE;
    for (uint32_t b = 0; b < nn; b++) {
        /* a join has two predecessors; the root also counts the function
         * entry as one (a first block that is a loop header) */
        uint32_t np = ps[b + 1] - ps[b] + (b == d->root && !d->post ? 1 : 0);
        if (d->pre[b] == ANA_NONE || np < 2) continue;
        for (uint32_t k = ps[b]; k < ps[b + 1]; k++) {
            uint32_t r = p[k];
            if (d->pre[r] == ANA_NONE) continue;
            while (r != d->idom[b] && r != ANA_NONE) {
                if (stamp[r] != b) {
                    stamp[r] = b;
                    u32_push(&src, r);
                    u32_push(&dst, b);
                }
                r = d->idom[r];
            }
        }
    }
    csr_build(a, nn, src.n, src.v, dst.v, &d->df_start, &d->df);
    u32_free(&src);
    u32_free(&dst);
    free(stamp);
}

static DomTree *dom_build(const Cfg *c, Arena *a)
{
    DomTree *d = ARENA_NEW(a, DomTree);
    uint32_t n = c->n, nn = n + 1;
    d->cfg = c;
    d->root = 0;
    d->idom = ARENA_ARRAY(a, uint32_t, nn);
    if (n == 0) {
        d->idom[0] = ANA_NONE;
        d->root = 0;
    } else {
        /* the graph without the exit node */
        uint32_t *ss = xmalloc(sizeof(uint32_t) * (n + 1));
        uint32_t *s = xmalloc(sizeof(uint32_t) * (c->succ_start[n] + 1));
        uint32_t k = 0;
        for (uint32_t b = 0; b < n; b++) {
            ss[b] = k;
            for (uint32_t j = 0; j < cfg_nsucc(c, b); j++)
                if (cfg_succs(c, b)[j] < n) s[k++] = cfg_succs(c, b)[j];
        }
        ss[n] = k;
        dom_compute(n, ss, s, 0, d->idom);
        d->idom[n] = ANA_NONE;
        free(ss);
        free(s);
    }
    if (n == 0) {
        /* a function without blocks: the tree is the lone exit node */
        d->root = 0;
    }
    finish_tree(d, a, nn, c->pred_start, c->pred);
    if (n == 0) d->pre[0] = ANA_NONE;
    /* the exit node is not part of the dominator tree */
    if (n > 0) {
        d->pre[n] = ANA_NONE;
        d->last[n] = ANA_NONE;
    }
    return d;
}

static DomTree *postdom_build(const Cfg *c, Arena *a)
{
    DomTree *d = ARENA_NEW(a, DomTree);
    uint32_t n = c->n, nn = n + 1;
    d->cfg = c;
    d->post = true;
    d->root = n;
    /* which blocks reach the exit; fake edges for the others */
    uint8_t *reach = xcalloc(nn, 1);
    uint32_t *stack = xmalloc(sizeof(uint32_t) * nn);
    uint32_t sp = 0;
    U32Vec fake = { 0 };
    reach[n] = 1;
    stack[sp++] = n;
    for (uint32_t b = nn; b-- > 0;) {
        if (!reach[b]) {
            u32_push(&fake, b);
            reach[b] = 1;
            stack[sp++] = b;
        }
        while (sp) {
            uint32_t x = stack[--sp];
            for (uint32_t k = 0; k < cfg_npred(c, x); k++) {
                uint32_t p = cfg_preds(c, x)[k];
                if (!reach[p]) {
                    reach[p] = 1;
                    stack[sp++] = p;
                }
            }
        }
    }
    free(reach);
    free(stack);
    d->nfake = fake.n;
    d->fake = ARENA_ARRAY(a, uint32_t, fake.n ? fake.n : 1);
    if (fake.n) memcpy(d->fake, fake.v, sizeof(uint32_t) * fake.n);
    /* reversed graph: succ(x) = cfg preds of x, plus exit -> fake blocks;
     * its predecessor lists: cfg succs of x, plus exit for fake blocks */
    uint32_t *rs = xmalloc(sizeof(uint32_t) * (nn + 1));
    uint32_t *r = xmalloc(sizeof(uint32_t) * (c->pred_start[nn] + fake.n + 1));
    uint32_t *rps = ARENA_ARRAY(a, uint32_t, nn + 1);
    uint32_t *rp = ARENA_ARRAY(a, uint32_t, c->succ_start[nn] + fake.n + 1);
    uint8_t *isfake = xcalloc(nn, 1);
    for (uint32_t i = 0; i < fake.n; i++) isfake[fake.v[i]] = 1;
    uint32_t k = 0, kp = 0;
    for (uint32_t x = 0; x < nn; x++) {
        rs[x] = k;
        for (uint32_t j = 0; j < cfg_npred(c, x); j++) r[k++] = cfg_preds(c, x)[j];
        if (x == n)
            for (uint32_t i = 0; i < fake.n; i++) r[k++] = fake.v[i];
        rps[x] = kp;
        for (uint32_t j = 0; j < cfg_nsucc(c, x); j++) rp[kp++] = cfg_succs(c, x)[j];
        if (isfake[x]) rp[kp++] = n;
    }
    rs[nn] = k;
    rps[nn] = kp;
    d->idom = ARENA_ARRAY(a, uint32_t, nn);
    dom_compute(nn, rs, r, n, d->idom);
    finish_tree(d, a, nn, rps, rp);
    free(rs);
    free(r);
    free(isfake);
    u32_free(&fake);
    return d;
}

const DomTree *dom_get(Function *fn)
{
    AnalysisCache *ac = analysis_cache(fn);
    if (!ac->dom) ac->dom = dom_build(cfg_get(fn), ana_arena(fn));
    return ac->dom;
}

const DomTree *postdom_get(Function *fn)
{
    AnalysisCache *ac = analysis_cache(fn);
    if (!ac->pdom) ac->pdom = postdom_build(cfg_get(fn), ana_arena(fn));
    return ac->pdom;
}
