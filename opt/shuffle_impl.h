/* shuffle_impl.h — what the shuffle pass's detection (shuffle.c) hands to
 * its code generator (shuffle_emit.c).  Private to the pass. */
#ifndef PTXOPT_SHUFFLE_IMPL_H
#define PTXOPT_SHUFFLE_IMPL_H

#include <stdbool.h>
#include <stdint.h>

#include "ir/ir.h"

/* One rewrite: destination load `dst` takes the value that source load
 * `src` loaded in lane (lane + delta). */
typedef struct ShflSite {
    Stmt *src, *dst;
    int delta;
    int bits;          /* 32 or 64 */
    bool check;        /* runtime address check: src may have run in another
                          iteration in the source lane (src in a loop); both
                          addresses are [reg] or [reg+imm] */
} ShflSite;

typedef struct ShflEmitOptions {
    bool no_corner;    /* ablation: no fallback load */
    bool no_load;      /* ablation: no shuffle, no load */
    bool row_guard;    /* the block shape may put two tid.y rows in one warp */
} ShflEmitOptions;

/* Rewrites fn for the sites (sources may repeat; destinations are
 * distinct and never sources).  Returns true if anything needs
 * activemask (a site with delta != 0 and no no-load). */
bool shfl_emit(Function *fn, const ShflSite *sites, int nsites, const ShflEmitOptions *o);

#endif
