/* cleanup.h — what a program that runs children must undo when a signal
 * ends it: its child processes and its temporary directories.
 *
 * A CI job's timeout sends SIGTERM to the ptxas wrapper alone; Ctrl-C on a
 * build sends SIGINT to the whole foreground process group.  Either way the
 * program must not leave a child running (re-parented to init) or its
 * temporary files behind, and it must then die of the signal, as a program
 * without handlers would, so that make and the shell report it as usual.
 *
 * Use:
 *   cleanup_install();                 once, early in main
 *   pid = cleanup_fork(own_group);     instead of fork()
 *   ... waitpid(pid, ...); cleanup_forget(pid);
 *   dir = cleanup_mkdtemp(template);   instead of mkdtemp()
 *   ... cleanup_remove_dir(dir);       removes the tree and forgets it
 *
 * On SIGHUP, SIGINT, SIGQUIT or SIGTERM (those not ignored when the program
 * started: nohup and background jobs keep their SIG_IGN) the handler sends
 * the same signal to every registered child (to its whole process group
 * when it has one of its own), waits for them (SIGKILL after 2 s), removes
 * every registered directory tree, and re-raises the signal with its
 * default action.  The handler uses async-signal-safe calls only.
 *
 * Up to 1024 children and 16 directories are tracked at a time (static
 * storage: the handler cannot allocate); more are started, untracked.
 *
 * Registration works without cleanup_install() too (the program then just
 * dies of the signal, as before): library code such as driver/worker.c can
 * always use cleanup_fork(). */
#ifndef PTXOPT_CLEANUP_H
#define PTXOPT_CLEANUP_H

#include <stdbool.h>
#include <sys/types.h>

/* Installs the handlers (idempotent). */
void cleanup_install(void);

/* fork(), with the child registered before any signal can be handled.
 * own_group: the child leads a new process group (a shell command and all
 * it starts get the signal and can be killed together; a terminal's Ctrl-C
 * then reaches them only through this program).  Otherwise the child stays
 * in this program's group, so it still reads the terminal.  In the child,
 * the handled signals are back to their default action and unblocked.
 * Returns what fork() returns. */
pid_t cleanup_fork(bool own_group);

/* The child `pid` has been reaped: stop tracking it. */
void cleanup_forget(pid_t pid);

/* mkdtemp(), the directory registered before any signal can be handled.
 * Returns `tmpl` (now the directory's name) or NULL with errno set. */
char *cleanup_mkdtemp(char *tmpl);

/* Removes the directory tree `path` now and stops tracking it (NULL-safe). */
void cleanup_remove_dir(const char *path);

/* Removes the directory tree `path`, up to 64 levels deep (symbolic links
 * are removed, never followed).  Async-signal-safe.  Returns false when
 * something remained. */
bool remove_tree(const char *path);

#endif
