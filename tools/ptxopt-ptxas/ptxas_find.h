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
 * its arguments through.
 *
 * Each wrapper also adds the program it chose as the real ptxas to
 * $PTXOPT_PTXAS_CHOSEN.  A wrapper started (through any number of
 * scripts) by a program that another wrapper chose was reached by a loop:
 * $PTXOPT_PTXAS names a script that runs `ptxas` by name, and PATH has
 * the wrapper first.  That program is then skipped like a wrapper (the
 * search goes on to the next candidate, the real ptxas) and the wrapper
 * says so; PTXOPT_MAX_NESTING wrappers inside one another end the chain
 * with an error, whatever the cause.
 *
 * The shadow root's record is used only when it cannot be another local
 * user's doing: the directory holding it, the record and the program it
 * names are owned by this user or root and writable by no one else. */
#ifndef PTXOPT_PTXAS_FIND_H
#define PTXOPT_PTXAS_FIND_H

#include <stdbool.h>
#include <stddef.h>

#define PTXOPT_WRAPPERS_ENV "PTXOPT_PTXAS_WRAPPERS"
#define PTXOPT_CHOSEN_ENV "PTXOPT_PTXAS_CHOSEN"
#define PTXOPT_MAX_NESTING 8

/* The path of the real ptxas (malloc'ed), or NULL after writing why to
 * err.  argv0 is how this program was started (for the shadow record).
 * note: "" or why a shadow record beside the wrapper was not trusted (the
 * wrapper then warns). */
char *find_real_ptxas(const char *argv0, char *err, size_t errsz, char *note, size_t notesz);

/* Why $PTXOPT_PTXAS, when set, is not used: "" when it is unset, empty or
 * usable; else e.g. "PTXOPT_PTXAS=/x: No such file or directory".  The
 * search then goes on with the other candidates, and the wrapper says so:
 * a setting the user made is never ignored silently.  Returns true when
 * the reason is a loop (only the wrapper inside it can see that). */
bool ptxas_env_problem(char *buf, size_t n);

/* True when another wrapper started this one; how many did. */
bool started_by_wrapper(void);
int nesting_depth(void);

/* Adds this program to $PTXOPT_PTXAS_WRAPPERS and `real`, the ptxas it
 * runs, to $PTXOPT_PTXAS_CHOSEN (before running it). */
void mark_wrapper_running(const char *real);

#endif
