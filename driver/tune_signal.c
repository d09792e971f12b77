/* tune_signal.c — ptxopt-tune's children and what SIGINT/SIGTERM/SIGHUP do
 * to them (see tune.h).
 *
 * Every program the tuner starts (ptxas, the measuring commands) leads its
 * own process group, and that group is in a known set from fork to reap.
 * A signal's handler only records the signal and forwards SIGTERM to every
 * group in the set (kill() is async-signal-safe); the code that waits for
 * children notices the signal and calls tune_die_interrupted(), which gives
 * the groups a moment to end (srun cancels its job step on SIGTERM), kills
 * what is left, runs the cleanup hook (the temporary directory) and ends
 * the tuner by the same signal.  The set is changed with the signals
 * blocked, so the handler never sees it half-updated, and a child is in it
 * before a signal can be delivered (fork happens with the signals blocked).
 *
 * Self-contained on purpose; the wrapper's helper (branch hygiene) does the
 * same for ptxopt-ptxas. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "driver/tune.h"

#define MAX_CHILDREN (TUNE_MAX_JOBS + 8)

static pid_t children[MAX_CHILDREN];
static volatile sig_atomic_t nchildren;
static volatile sig_atomic_t caught;
static void (*cleanup_fn)(void *);
static void *cleanup_arg;
static const int handled[] = { SIGINT, SIGTERM, SIGHUP };

static void on_signal(int sig)
{
    int saved = errno;
    if (!caught) caught = sig;
    for (int i = 0; i < nchildren; i++) kill(-children[i], SIGTERM);
    errno = saved;
}

void tune_signals_install(void (*cleanup)(void *), void *arg)
{
    cleanup_fn = cleanup;
    cleanup_arg = arg;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < sizeof handled / sizeof *handled; i++) sigaddset(&sa.sa_mask, handled[i]);
    sa.sa_flags = 0; /* no SA_RESTART: a blocking waitpid() returns EINTR and the caller looks */
    for (size_t i = 0; i < sizeof handled / sizeof *handled; i++) {
        struct sigaction old;
        /* a signal ignored by whoever started us (nohup) stays ignored */
        if (sigaction(handled[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN) continue;
        sigaction(handled[i], &sa, NULL);
    }
}

void tune_signals_block(sigset_t *old)
{
    sigset_t s;
    sigemptyset(&s);
    for (size_t i = 0; i < sizeof handled / sizeof *handled; i++) sigaddset(&s, handled[i]);
    sigprocmask(SIG_BLOCK, &s, old);
}

void tune_signals_restore(const sigset_t *old) { sigprocmask(SIG_SETMASK, old, NULL); }

void tune_signals_child_reset(const sigset_t *old)
{
    for (size_t i = 0; i < sizeof handled / sizeof *handled; i++) {
        struct sigaction cur;
        if (sigaction(handled[i], NULL, &cur) == 0 && cur.sa_handler != SIG_IGN) signal(handled[i], SIG_DFL);
    }
    sigprocmask(SIG_SETMASK, old, NULL);
}

/* Called with the signals blocked (tune_spawn). */
void tune_child_started(pid_t pid)
{
    if (nchildren < MAX_CHILDREN) {
        children[nchildren] = pid;
        nchildren = nchildren + 1;
    }
}

void tune_child_ended(pid_t pid)
{
    sigset_t old;
    tune_signals_block(&old);
    for (int i = 0; i < nchildren; i++)
        if (children[i] == pid) {
            children[i] = children[nchildren - 1];
            nchildren = nchildren - 1;
            break;
        }
    tune_signals_restore(&old);
}

int tune_interrupted(void) { return caught; }

_Noreturn void tune_die_interrupted(void)
{
    sigset_t old;
    tune_signals_block(&old);
    int sig = caught ? caught : SIGTERM;
    /* SIGTERM went to every group already; give them 2 s, then SIGKILL */
    struct timespec tick = { 0, 10000000 };
    for (int waited = 0; nchildren > 0; waited++) {
        for (int i = 0; i < nchildren;) {
            pid_t w = waitpid(children[i], NULL, WNOHANG);
            if (w == children[i] || (w < 0 && errno == ECHILD)) {
                kill(-children[i], SIGKILL); /* what the leader left behind */
                children[i] = children[nchildren - 1];
                nchildren = nchildren - 1;
            } else {
                i++;
            }
        }
        if (!nchildren) break;
        if (waited == 200)
            for (int i = 0; i < nchildren; i++) kill(-children[i], SIGKILL);
        nanosleep(&tick, NULL);
    }
    if (cleanup_fn) cleanup_fn(cleanup_arg);
    fprintf(stderr, "ptxopt-tune: interrupted by %s; stopped the running commands\n", strsignal(sig));
    fflush(stderr);
    fflush(stdout);
    signal(sig, SIG_DFL);
    sigset_t s;
    sigemptyset(&s);
    sigaddset(&s, sig);
    sigprocmask(SIG_UNBLOCK, &s, NULL);
    raise(sig);
    _exit(128 + sig);
}
