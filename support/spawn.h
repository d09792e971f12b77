/* spawn.h — run a program and wait for it (the real ptxas).
 *
 * Children are started through support/cleanup.h, so a program that has
 * called cleanup_install() takes them with it when a signal ends it. */
#ifndef PTXOPT_SPAWN_H
#define PTXOPT_SPAWN_H

#include <stdbool.h>
#include <stddef.h>

/* Where the child's standard streams go. */
typedef struct SpawnIO {
    const char *in_path;        /* standard input from this file; */
    const char *in_data;        /* else, when not NULL, these in_len bytes */
    size_t in_len;              /* through a pipe; else inherited */
    const char *out_path;       /* standard output to this file (NULL: inherited) */
    const char *err_path;       /* standard error to this file (NULL: inherited, */
    bool relay_err;             /* or with relay_err passed on to ours through */
    size_t err_bytes;           /* a pipe, the bytes counted here: did it say why it failed?) */
} SpawnIO;

/* Runs the program at `path` with argv (argv[0] is what it sees as its
 * name: ptxas records the base name of its argv[0] in every cubin, so the
 * wrapper passes "...ptxas" on).  Returns the waitpid() status, or -1 when
 * the program could not be started (why is in err). */
int spawn_run(const char *path, char *const argv[], SpawnIO *io, char *err, size_t errsz);

/* The same with files only: stdin_path, out_path, err_path (NULL:
 * inherited). */
int spawn_wait(const char *path, char *const argv[], const char *stdin_path, const char *out_path, const char *err_path, char *err,
               size_t errsz);

/* Ends this process the way `status` (a waitpid() status) ended the child:
 * the same exit status, or the same signal. */
_Noreturn void exit_like(int status);

/* The exit status a shell would report for a waitpid() status. */
int status_code(int status);

#endif
