/* uniform.h — uniformity: what may differ between the lanes of a warp. */
#ifndef PTXOPT_ANALYSIS_UNIFORM_H
#define PTXOPT_ANALYSIS_UNIFORM_H

#include <stdint.h>
#include <stdbool.h>

#include "analysis/ssa.h"

/* Which values and branches may differ between the lanes of a warp, with
 * sync dependence (merges at the joins of a divergent branch) and temporal
 * divergence (values read after a loop lanes leave in different
 * iterations); which blocks only some lanes reach; where lanes may have
 * exited.  The divergence sources and rules are listed in analysis/uniform.c. */

typedef struct Uniformity {
    const Ssa *ssa;
    uint8_t *div;             /* [nvalues] 1: may differ between the lanes of a warp */
    uint8_t *branch_div;      /* [n] 1: the terminator may send lanes different ways;
                                 2: it would, but it is .uni (trusted, as PTX requires) */
    uint8_t *join;            /* [n] sync-dependence join: paths of a divergent branch meet */
    uint8_t *partial;         /* [n] may be reached by only some of the lanes that entered the function */
    uint8_t *exited_in;       /* [n] some lanes may have exited/returned before the block starts */
    uint32_t *exit_at;        /* [n] first instruction after which lanes may have left (a guarded
                                 exit/ret with a divergent guard), ANA_NONE */
    uint8_t *loop_div_exit;   /* [nloops] lanes may leave the loop in different iterations */
} Uniformity;

const Uniformity *uniform_get(Function *fn);
static inline bool uniform_value(const Uniformity *u, SsaValue v) { return !u->div[v]; }
/* Is the value that `st` reads from r the same in all lanes? */
bool uniform_use(Function *fn, const Stmt *st, const Reg *r);
/* Some lanes may have exited (exit, or ret from the function) before st runs. */
bool uniform_may_have_exited(Function *fn, const Stmt *st);
/* Every lane that entered the function reaches st together: not inside a
 * divergent region and no lane may have exited. */
bool uniform_converged(Function *fn, const Stmt *st);
/* Is the special register NAME (e.g. "%ntid", no component) the same in
 * every lane of a warp (a launch constant)? */
bool uniform_special(Str name);

#endif
