/* spawn.h — run a program and wait for it (the real ptxas). */
#ifndef PTXOPT_SPAWN_H
#define PTXOPT_SPAWN_H

#include <stdbool.h>
#include <stddef.h>

/* Runs the program at `path` with argv (argv[0] is what it sees as its
 * name: ptxas records the base name of its argv[0] in every cubin, so the
 * wrapper passes "...ptxas" on).  stdin_path: a file to read standard
 * input from (NULL: inherited); out_path, err_path: files that capture
 * standard output and error (NULL: inherited).  Returns the waitpid()
 * status, or -1 when the program could not be started (why is in err). */
int spawn_wait(const char *path, char *const argv[], const char *stdin_path, const char *out_path, const char *err_path, char *err,
               size_t errsz);

/* Ends this process the way `status` (a waitpid() status) ended the child:
 * the same exit status, or the same signal. */
_Noreturn void exit_like(int status);

/* The exit status a shell would report for a waitpid() status. */
int status_code(int status);

#endif
