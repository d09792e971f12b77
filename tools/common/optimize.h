/* optimize.h — one PTX text through parse → passes → print.
 *
 * The one place where the programs (ptxopt, its batch mode and the ptxas
 * wrapper) run the optimizer, so they report the same things: the printed
 * text, whether it changed, the remarks, and per pass a tally derived from
 * the remarks (kernels seen, kernels changed, sites rewritten, failed). */
#ifndef PTXOPT_OPTIMIZE_H
#define PTXOPT_OPTIMIZE_H

#include <stdbool.h>
#include <stdio.h>

#include "codegen/print.h"
#include "support/clock.h"
#include "tools/common/fault.h"
#include "opt/pass.h"

typedef struct OptimizeConfig {
    const Pipeline *pipeline;
    const char *target;     /* --target=sm_XX override, or NULL */
    int target_sm;
    bool canonical;         /* print everything in the canonical style */
    bool stats;             /* fill OptimizeResult.nblocks/ninstrs/ir_bytes */
    Fault fault;            /* injected failure (workers only) */
} OptimizeConfig;

/* What one pipeline entry did to one module. */
typedef struct PassTally {
    const char *pass;       /* the pass's name (static) */
    bool ran;               /* the pass ran to completion */
    bool failed;            /* the pass returned an error */
    int kernels_seen;       /* functions with a body it ran over */
    int kernels_changed;    /* of those, the ones with an "applied" remark */
    int sites;              /* "applied" remarks: sites rewritten */
} PassTally;

typedef struct KernelInfo {
    char *name;
    bool entry;             /* .entry (a kernel) or .func */
} KernelInfo;

typedef struct OptimizeResult {
    int status;             /* 0 ok, 1 bad input (parse), 3 internal (a pass failed) */
    char error[512];        /* one line saying why, when status != 0 */
    int failed_pass;        /* index into tally of the pass that failed, or -1 */
    OutBuf out;             /* the printed module, when status == 0 */
    bool changed;           /* out differs from the input */
    size_t bytes;           /* input size */
    Remarks remarks;
    int npasses;
    PassTally *tally;       /* one per pipeline entry */
    int nkernels;
    KernelInfo *kernels;    /* functions with a body, in module order */
    double ms_parse, ms_passes, ms_print;
    /* --stats */
    unsigned nfuncs;
    size_t nblocks, ninstrs, ir_bytes;
} OptimizeResult;

/* Optimizes `len` bytes at `buf` (malloc'ed with len + 2 bytes; ownership
 * passes to this function).  `name` is used in diagnostics.  Parse
 * diagnostics are copied to `diag` (may be NULL); the first line is kept in
 * r->error.  Returns r->status. */
int optimize_text(const char *name, char *buf, size_t len, const OptimizeConfig *cfg, FILE *diag,
                  OptimizeResult *r);
void optimize_result_free(OptimizeResult *r);

#endif
