/* shuffle_impl.h — what the shuffle pass's detection (shuffle.c) hands to
 * its code generator (shuffle_emit.c).  Private to the pass. */
#ifndef PTXOPT_SHUFFLE_IMPL_H
#define PTXOPT_SHUFFLE_IMPL_H

#include <stdbool.h>
#include <stdint.h>

#include "ir/analysis.h"
#include "ir/ir.h"

/* What decides whether lanes l and l+N agree on a value (shuffle_lanes.c). */
typedef struct LaneFacts {
    const Uniformity *uni;
    const LoopInfo *li;
    const Ssa *ssa;
    const Term *tid;       /* %tid.x: lane l+N has %tid.x + N */
    const Term *laneid;    /* %laneid: lane l+N has %laneid + N */
} LaneFacts;

/* Does t mention %tid.x or %laneid? */
bool shfl_mentions_lane(const LaneFacts *lf, const Term *t);
/* The first subterm of t (S's address, S outside every loop) that is not
 * a function of the lane and may differ between lanes l and l+N, or NULL
 * when every such subterm is proven warp-uniform. */
const Term *shfl_lane_varying(const LaneFacts *lf, const Term *t, int depth);
/* Do two threads' values of the 32-bit term x differ by less than 2^31
 * (value ranges from the launch limits)? */
bool shfl_zext_no_wrap(const Term *x);
/* The first zero-extended 32-bit index in a that mentions the lane and
 * may wrap between lanes (shfl_zext_no_wrap fails), or NULL. */
const Term *shfl_unsigned_may_wrap(const LaneFacts *lf, const Term *a, int depth);

/* One rewrite: destination load `dst` takes the value that source load
 * `src` loaded in lane (lane + delta). */
typedef struct ShflSite {
    Stmt *src, *dst;
    int delta;
    int bits;          /* 32 or 64 */
    bool check;        /* runtime address check: src may have run in another
                          iteration in the source lane (src in a loop), or its
                          unsigned index may have wrapped; both addresses
                          are [reg] or [reg+imm] */
    bool converged;    /* every lane that entered the kernel reaches dst
                          together (uniformity: no divergence, no exit) */
    bool in_loop;      /* dst may run more than once per thread */
    bool src_live;     /* src's destination register still holds its value
                          at dst: use it, no copy (64-bit shuffles still
                          split a copy) */
} ShflSite;

typedef struct ShflEmitOptions {
    bool no_corner;    /* ablation: no fallback load */
    bool no_load;      /* ablation: no shuffle, no load */
    bool row_guard;    /* the block shape may put two tid.y rows in one warp */
    bool full_warps;   /* .reqntid: every warp has 32 threads */
} ShflEmitOptions;

/* Rewrites fn for the sites (sources may repeat; destinations are
 * distinct and never sources).  Returns true if anything needs
 * activemask (a site with delta != 0 and no no-load). */
bool shfl_emit(Function *fn, const ShflSite *sites, int nsites, const ShflEmitOptions *o);

#endif
