/* progress.h — how far a batch run has got, on standard error.
 *
 * On a terminal: one bar redrawn in place (files done/total, MB/s, elapsed
 * time and ETA), at most ten times a second, with failures printed above
 * it.  Otherwise: one plain line per finished file, for logs. */
#ifndef PTXOPT_PROGRESS_H
#define PTXOPT_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef struct Progress {
    FILE *out;
    bool tty, quiet;
    int total, done, failed;
    size_t total_bytes, done_bytes;
    double start, last_draw;
    bool drawn;             /* a bar is on screen */
} Progress;

void progress_start(Progress *p, FILE *out, int total, size_t total_bytes, bool quiet);
/* One file finished: `what` is "ok", "changed", "unchanged" or "FAILED". */
void progress_file(Progress *p, const char *path, const char *what, const char *error, size_t bytes);
/* Text to show above the bar (or between the lines). */
void progress_message(Progress *p, const char *text, size_t len);
void progress_finish(Progress *p);
/* A duration as MM:SS (H:MM:SS from an hour on). */
void format_clock(char *buf, size_t n, double seconds);

#endif
