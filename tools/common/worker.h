/* worker.h — run a piece of work in a forked child, so that whatever goes
 * wrong in it (a crash, a hang, an internal error that exits) is survivable.
 *
 * The child's standard output is /dev/null, its standard error and a
 * result stream are pipes that the parent collects; a deadline kills it
 * with SIGKILL.  The ptxas wrapper runs one worker, batch mode runs --jobs
 * of them at once (one per file). */
#ifndef PTXOPT_WORKER_H
#define PTXOPT_WORKER_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

#include "codegen/print.h"

typedef struct Worker {
    pid_t pid;
    int fd[2];              /* result pipe, stderr pipe (read ends; -1 at EOF) */
    OutBuf result, diag;    /* what the child wrote to each */
    double deadline;        /* now_ms() value after which it is killed; 0: none */
    bool running;
    bool timed_out;
    int wstatus;            /* waitpid() status once it has finished */
    int id;                 /* the caller's */
} Worker;

/* The work: writes its result to `out`, returns the child's exit status. */
typedef int (*WorkFn)(void *arg, FILE *out);

/* Starts fn(arg, out) in a child.  timeout_s <= 0: no deadline.  Returns
 * false (after printing why) when the child could not be created. */
bool worker_start(Worker *w, WorkFn fn, void *arg, double timeout_s);

/* Collects output from the running workers among ws[0..n-1] until one of
 * them has finished; returns its index, or -1 when none is running.  A
 * finished worker has running == false and its wstatus set. */
int worker_wait_any(Worker *ws, int n);

void worker_free(Worker *w);

/* "exit status N", "killed by signal N (NAME)" or "timed out". */
void worker_describe(const Worker *w, char *buf, size_t n);

#endif
