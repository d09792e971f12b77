/* dom.h — dominator and post-dominator trees, dominance frontiers. */
#ifndef PTXOPT_ANALYSIS_DOM_H
#define PTXOPT_ANALYSIS_DOM_H

#include <stdint.h>
#include <stdbool.h>

#include "analysis/cfg.h"

typedef struct DomTree {
    const Cfg *cfg;
    bool post;                /* post-dominators: root is the virtual exit */
    uint32_t root;            /* 0, or cfg->n for post-dominators */
    uint32_t *idom;           /* [n + 1]; ANA_NONE for the root and for nodes not in the tree
                                 (dominators: unreachable blocks and the exit node) */
    uint32_t *child_start, *child;  /* tree children (CSR over n + 1 nodes) */
    uint32_t *pre, *last;     /* preorder number and last preorder number of the subtree */
    uint32_t *depth;
    uint32_t *df_start, *df;  /* dominance frontier; for post-dominators the post-dominance
                                 frontier, i.e. the blocks each node is control dependent on */
    /* Post-dominators only: blocks that cannot reach the exit (infinite
     * loops) get a fake edge to it.  Rule (deterministic): scanning blocks
     * from the last to the first in layout order, a block that does not yet
     * reach the exit gets the fake edge, then everything that reaches it is
     * marked as reaching the exit. */
    uint32_t nfake;
    uint32_t *fake;
} DomTree;

const DomTree *dom_get(Function *fn);
const DomTree *postdom_get(Function *fn);
/* a (post-)dominates b, reflexive; false when either is not in the tree. */
static inline bool dom_dominates(const DomTree *d, uint32_t a, uint32_t b)
{
    if (d->pre[a] == ANA_NONE || d->pre[b] == ANA_NONE) return false;
    return d->pre[a] <= d->pre[b] && d->pre[b] <= d->last[a];
}
/* Nearest common (post-)dominator; ANA_NONE if either is not in the tree. */
uint32_t dom_nca(const DomTree *d, uint32_t a, uint32_t b);
static inline uint32_t dom_ndf(const DomTree *d, uint32_t b) { return d->df_start[b + 1] - d->df_start[b]; }
static inline const uint32_t *dom_dfs(const DomTree *d, uint32_t b) { return d->df + d->df_start[b]; }

/* The algorithm on a bare graph (used by the above and by tests): nodes
 * 0..n-1, successor CSR, root; writes idom[n] (ANA_NONE for the root and
 * unreachable nodes).  Cooper, Harvey & Kennedy, "A Simple, Fast Dominance
 * Algorithm" (2001). */
void dom_compute(uint32_t n, const uint32_t *succ_start, const uint32_t *succ, uint32_t root, uint32_t *idom);

#endif
