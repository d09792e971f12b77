/* report.h — the end of a batch run: the summary table and the JSON report.
 *
 * Both are derived from the per-file records (tools/common/record.h): per pass,
 * kernels seen (functions with a body it ran over), kernels changed (those
 * with an "applied" remark), sites rewritten ("applied" remarks) and files
 * failed (the pass reported an error). */
#ifndef PTXOPT_REPORT_H
#define PTXOPT_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "tools/common/record.h"
#include "opt/pass.h"

typedef struct BatchResult {
    const char *input;
    const char *output;     /* NULL when nothing was written */
    const char *state;      /* "changed", "unchanged" or "failed" */
    int exit_status;        /* 0, 1 (bad input) or 3 (internal error) */
    char *error;            /* one line when failed */
    FileRecord rec;
} BatchResult;

typedef struct BatchSummary {
    const char *pipeline;   /* as given to --passes */
    const Pipeline *pl;
    const char *output_dir; /* NULL with --in-place */
    int jobs;
    int files, changed, unchanged, failed;
    size_t bytes;
    double seconds;
} BatchSummary;

void report_table(FILE *out, const BatchResult *r, int n, const BatchSummary *s);
/* Writes the report atomically; false after printing why. */
bool report_write_json(const char *path, const BatchResult *r, int n, const BatchSummary *s);

#endif
