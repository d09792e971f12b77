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
 *   cleanup_hold(&old); write a file; cleanup_release(&old);
 *                                      a signal waits until it is written
 *
 * On SIGHUP, SIGINT, SIGQUIT or SIGTERM (those not ignored when the program
 * started: nohup and background jobs keep their SIG_IGN) the handler sends
 * the same signal (or cleanup_forward_as's) to every registered child (to
 * its whole process group when it has one of its own), waits for them
 * (SIGKILL after 2 s, or cleanup_set_grace_ms's), removes every registered directory tree, prints
 * cleanup_set_message's line, and re-raises the signal with its default
 * action.  The handler uses async-signal-safe calls only.
 *
 * The handler never returns to the program: what a child reports after the
 * signal (an exit status, its output) is never read, so a program that
 * records results as children end records none after a signal, and a file
 * it writes under cleanup_hold is either whole or not begun.
 *
 * Up to 1024 children and 16 directories (or files) are tracked at a time (static
 * storage: the handler cannot allocate); more are started, untracked.
 *
 * Registration works without cleanup_install() too (the program then just
 * dies of the signal, as before): library code such as tools/common/worker.c can
 * always use cleanup_fork(). */
#ifndef PTXOPT_CLEANUP_H
#define PTXOPT_CLEANUP_H

#include <signal.h>
#include <stdbool.h>
#include <sys/types.h>

/* Installs the handlers (idempotent). */
void cleanup_install(void);

/* fork(), with the child registered before any signal can be handled.
 * The child gets SIGTERM when this program dies, however it dies
 * (PR_SET_PDEATHSIG; kept across exec): a SIGKILL of the program must not
 * leave an optimizer running without its time limit, nor a ptxas whose
 * result nobody reads.
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

/* mkstemp(), the file registered like a directory, so that a signal
 * removes it: for a temporary file that is renamed into place.  Returns
 * the descriptor or -1 with errno set.  cleanup_forget_path(path) once it
 * is renamed (it is no longer ours to remove), cleanup_remove_dir(path)
 * to remove it. */
int cleanup_mkstemp(char *tmpl);
void cleanup_forget_path(const char *path);

/* SIGKILL cannot be handled: a program killed with it (an OOM killer, a
 * batch system's hard limit, `kill -9`) would leave `dir` behind.  This
 * starts a guardian: a small process that holds the read end of a pipe
 * whose write end only this program (and what it forks, not what it
 * execs) holds; when the pipe reports end of file, whatever ended the
 * program, the guardian removes `dir` (the same directory, checked by
 * device and inode: never another one made under the same name later) and
 * exits.  It ignores the terminal's signals, keeps no descriptor of the
 * program's but the pipe (a build waiting for the end of a pipe is not
 * kept waiting), and removes nothing when the program removed `dir`
 * first.  It is a child that is never waited for: it outlives the
 * program by the time it takes to remove `dir`.  Returns false when it
 * cannot start (the program goes on, unguarded). */
bool cleanup_guard_dir(const char *dir);

/* The registered children get `sig` instead of the signal that arrived
 * (0, the default: the same one).  ptxopt-tune's commands get SIGTERM: it
 * is what asks srun, ssh or a harness to stop cleanly, whichever signal
 * the tuner got (a single SIGINT only makes srun print its status). */
void cleanup_forward_as(int sig);

/* How long the handler waits for the children to end before SIGKILL
 * (default 2000 ms).  ptxopt-tune's Slurm launcher waits longer: an srun
 * still waiting for its allocation cancels the job only if it lives until
 * the allocation answers; killed earlier, it leaves the job to Slurm's
 * own timeouts. */
void cleanup_set_grace_ms(int ms);

/* The line the handler writes to standard error once the children are
 * gone and the directories removed: `before`, the signal's description
 * (strsignal), `after` (which ends with the newline).  NULL: none. */
void cleanup_set_message(const char *before, const char *after);

/* Blocks the handled signals (the mask before goes to *old) ...
 * cleanup_release restores it, and a signal that came meanwhile is handled
 * then.  For what a signal must not cut in half: writing a file through a
 * temporary name, updating a report. */
void cleanup_hold(sigset_t *old);
void cleanup_release(const sigset_t *old);

/* Removes the directory tree `path`, up to 64 levels deep (symbolic links
 * are removed, never followed).  Async-signal-safe.  Returns false when
 * something remained. */
bool remove_tree(const char *path);

#endif
