/* summary.h — the lines of a ptxopt-ptxas --ptxopt-report, folded into
 * what a person asks of a build: per source and target, per kernel, what
 * each pass did, and where the original PTX was used and why.
 *
 * A line is one ptxas run (man/ptxopt-ptxas.1).  Its unit is the user's
 * file when ptxopt-nvcc recorded it ("source", "object"), else the PTX
 * input's name.  A report appended to by several builds holds several runs
 * of one unit: the last one counts (the earlier are "superseded"), so the
 * summary describes the latest build of every file. */
#ifndef PTXOPT_REPORT_SUMMARY_H
#define PTXOPT_REPORT_SUMMARY_H

#include <stdbool.h>
#include <stddef.h>

#include "tools/common/json_read.h"

typedef struct Reason {
    char *message;
    int count;
} Reason;

typedef struct PassDid {
    char *pass;
    int applied;            /* "applied" remarks: sites rewritten */
    int missed;             /* "missed" remarks: sites looked at and left */
    Reason *reasons;        /* the missed remarks' messages, most frequent first (after summary_finish) */
    int nreasons;
    bool failed;            /* the pass reported a failure on this input */
} PassDid;

typedef struct KernelDid {
    char *name;
    PassDid *passes;
    int npasses;
} KernelDid;

typedef struct Unit {
    char *source;           /* the user's file (or the PTX input) */
    char *object;           /* what nvcc wrote for it, or NULL */
    char *target;           /* ptxas's --gpu-name, or NULL */
    char *pipeline;         /* as recorded, or NULL */
    char *used;             /* "optimized", "original" or "none" (strict) */
    char *reason;           /* why the original was used, or NULL */
    char *status;           /* the inputs' status: changed, unchanged, failed, not optimized */
    int ptxas_status;
    bool strict;
    KernelDid *kernels;
    int nkernels;
    int line;               /* the report line it comes from */
} Unit;

typedef struct Summary {
    Unit *units;
    int nunits;
    int runs;               /* lines read */
    int superseded;         /* runs replaced by a later run of the same unit */
    int skipped;            /* lines that are not ptxopt-ptxas reports */
} Summary;

void summary_init(Summary *s);
/* Adds one report line (parsed); false, with why in err, when it is not a
 * ptxopt-ptxas report line. */
bool summary_add(Summary *s, const JsonValue *line, int lineno, char *err, size_t errsz);
/* Sorts units (by source, target), kernels, passes' reasons. */
void summary_finish(Summary *s);
void summary_free(Summary *s);

#endif
