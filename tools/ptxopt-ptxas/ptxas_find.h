/* ptxas_find.h — find the real ptxas, never the wrapper itself.
 *
 * Candidates, in order: $PTXOPT_PTXAS; the real ptxas recorded in a shadow
 * CUDA root (the file .ptxopt-real-ptxas beside the wrapper, made by
 * ptxopt-nvcc); $CUDA_HOME/bin/ptxas; every ptxas on PATH;
 * /usr/local/cuda/bin/ptxas.  A candidate is skipped when it is the
 * running program (same device and inode, so symlinks and hard links to the
 * wrapper are seen through) or any wrapper that started this one: each
 * wrapper adds its own identity to $PTXOPT_PTXAS_WRAPPERS before it runs
 * ptxas, so a chain of wrapper copies can never loop, and a wrapper that
 * finds the variable set knows it was started by another and only passes
 * its arguments through. */
#ifndef PTXOPT_PTXAS_FIND_H
#define PTXOPT_PTXAS_FIND_H

#include <stdbool.h>
#include <stddef.h>

#define PTXOPT_WRAPPERS_ENV "PTXOPT_PTXAS_WRAPPERS"

/* The path of the real ptxas (malloc'ed), or NULL after writing why to
 * err.  argv0 is how this program was started (for the shadow record). */
char *find_real_ptxas(const char *argv0, char *err, size_t errsz);

/* Why $PTXOPT_PTXAS, when set, is not used: "" when it is unset, empty or
 * usable; else e.g. "PTXOPT_PTXAS=/x: No such file or directory".  The
 * search then goes on with the other candidates, and the wrapper says so:
 * a setting the user made is never ignored silently. */
void ptxas_env_problem(char *buf, size_t n);

/* True when another wrapper started this one. */
bool started_by_wrapper(void);

/* Adds this program to $PTXOPT_PTXAS_WRAPPERS (before running ptxas). */
void mark_wrapper_running(void);

#endif
