/* run.h — optimize one PTX file: parse, run the pipeline, print.
 *
 * When every pass of the pipeline is function-local (an empty pipeline is),
 * the file is streamed: each function is parsed, optimized, printed and its
 * memory reused for the next one, so peak memory is that of the largest
 * function (plus the input) and large files cost no page-fault storms.
 * Otherwise the whole module is parsed first. */
#ifndef PTXOPT_RUN_H
#define PTXOPT_RUN_H

#include <stdbool.h>
#include <stddef.h>

#include "codegen/print.h"
#include "opt/pass.h"

typedef struct RunOptions {
    const Pipeline *pipeline;
    Remarks *remarks;
    const char *target;     /* --target=sm_XX text, or NULL */
    int target_sm;
    bool canonical;
    bool no_stream;         /* force whole-module mode */
    OutBuf *keep_input;     /* when set, the input text is copied here (--sass-report) */
} RunOptions;

typedef struct RunStats {
    size_t bytes;
    uint32_t functions;
    size_t blocks, instructions;
    double parse_ms, pass_ms, print_ms;
    size_t ir_bytes;        /* arena memory (peak) */
    bool streamed;
} RunStats;

enum { RUN_OK = 0, RUN_BAD_INPUT = 1, RUN_PASS_FAILED = 3 };

/* Reads `in` ("-" is stdin) and prints the result into `out`.  Diagnostics
 * go to stderr.  Returns RUN_*; on failure `out` holds a partial text that
 * the caller must discard. */
int run_file(const char *in, OutBuf *out, const RunOptions *opt, RunStats *st);

#endif
