/* loops.h — natural loops. */
#ifndef PTXOPT_ANALYSIS_LOOPS_H
#define PTXOPT_ANALYSIS_LOOPS_H

#include <stdint.h>
#include <stdbool.h>

#include "analysis/cfg.h"

typedef struct Loop {
    uint32_t header;
    uint32_t parent;          /* enclosing loop, ANA_NONE if outermost */
    uint32_t depth;           /* 1 for an outermost loop */
    uint32_t preheader;       /* the only predecessor of the header outside the loop, if its
                                 only successor is the header; else ANA_NONE */
    uint32_t nblocks, *blocks;     /* sorted, header included */
    uint32_t nlatches, *latches;   /* sources of back edges (sorted) */
    uint32_t nexits, *exits;       /* blocks outside with a predecessor inside (sorted;
                                      the virtual exit included when the loop can leave) */
} Loop;

typedef struct LoopInfo {
    const Cfg *cfg;
    uint32_t nloops;
    Loop *loops;              /* outer loops before inner ones; siblings in header layout order */
    uint32_t *innermost;      /* [n] innermost loop of each block, ANA_NONE */
    bool irreducible;         /* a cycle without a dominating header exists (not a loop here) */
} LoopInfo;

const LoopInfo *loops_get(Function *fn);
bool loop_contains(const LoopInfo *li, uint32_t loop, uint32_t block);

#endif
