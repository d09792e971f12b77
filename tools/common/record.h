/* record.h — what a worker tells its parent about one optimized input.
 *
 * The worker (a forked child) writes a few "key value" lines and a JSON
 * array of its kernels with their remarks; the parent parses the lines back
 * into a FileRecord and keeps the JSON text verbatim for reports.  A record
 * without its final "end" line means the worker died while writing it. */
#ifndef PTXOPT_RECORD_H
#define PTXOPT_RECORD_H

#include <stdbool.h>
#include <stdio.h>

#include "tools/common/optimize.h"

typedef struct FileRecord {
    bool complete;          /* the "end" line arrived */
    int status;             /* 0, 1 (bad input), 3 (internal) */
    char *error;            /* one line, or NULL */
    bool changed;
    bool written;           /* an output file was written */
    size_t bytes;
    double ms_parse, ms_passes, ms_print;
    int npasses;
    PassTally *tally;       /* pass names are owned (strdup) */
    int nkernels;
    char *kernels_json;     /* "[{"name":..,"entry":..,"remarks":[..]},..]" */
    /* --sass-report (batch mode): see tools/ptxopt/sass_report.h */
    int sass_status;
    char *sass_text;        /* its lines, or NULL when there was no report */
    char *sass_json;
} FileRecord;

/* The worker side.  `written` says whether an output file was produced. */
void record_write(FILE *out, const OptimizeResult *r, bool written);
/* A --sass-report of the file (before record_write, which ends the record). */
void record_write_sass(FILE *out, int status, const char *text, const char *json);
/* Just a failure (e.g. the input could not be read). */
void record_write_error(FILE *out, int status, const char *error);
/* The kernels of r with their remarks, as a JSON array. */
void record_kernels_json(FILE *out, const OptimizeResult *r);

/* The parent side: parses text (not NUL-terminated).  Never fails; an
 * incomplete record has complete == false. */
void record_parse(const char *text, size_t len, FileRecord *rec);
void record_free(FileRecord *rec);

#endif
