/* worker.c — see worker.h. */
#include "tools/common/worker.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "support/cleanup.h"
#include "tools/common/optimize.h"

bool worker_start(Worker *w, WorkFn fn, void *arg, double timeout_s)
{
    int res[2], err[2];
    memset(w, 0, sizeof *w);
    w->fd[0] = w->fd[1] = -1;
    out_init(&w->result);
    out_init(&w->diag);
    if (pipe2(res, O_CLOEXEC) != 0) goto fail;
    if (pipe2(err, O_CLOEXEC) != 0) { close(res[0]); close(res[1]); goto fail; }
    fflush(stdout);
    fflush(stderr);
    pid_t pid = cleanup_fork(false);   /* a signal that ends us ends it too */
    if (pid < 0) {
        close(res[0]); close(res[1]); close(err[0]); close(err[1]);
        goto fail;
    }
    if (pid == 0) {
        /* the child: nothing it prints may reach the parent's stdout */
        int null = open("/dev/null", O_RDWR);
        if (null >= 0) { dup2(null, STDIN_FILENO); dup2(null, STDOUT_FILENO); }
        dup2(err[1], STDERR_FILENO);
        close(res[0]);
        close(err[0]);
        signal(SIGPIPE, SIG_DFL);
        FILE *out = fdopen(res[1], "w");
        int rc = out ? fn(arg, out) : 3;
        if (out && fclose(out) != 0 && rc == 0) rc = 3;
        fflush(stderr);
        _exit(rc);   /* no atexit handlers: they belong to the parent */
    }
    close(res[1]);
    close(err[1]);
    w->pid = pid;
    w->fd[0] = res[0];
    w->fd[1] = err[0];
    w->running = true;
    w->deadline = timeout_s > 0 ? now_ms() + timeout_s * 1e3 : 0;
    return true;
fail:
    fprintf(stderr, "ptxopt: cannot start a worker process: %s\n", strerror(errno));
    return false;
}

static void finish(Worker *w)
{
    for (int k = 0; k < 2; k++)
        if (w->fd[k] >= 0) { close(w->fd[k]); w->fd[k] = -1; }
    while (waitpid(w->pid, &w->wstatus, 0) < 0 && errno == EINTR) {}
    cleanup_forget(w->pid);
    w->running = false;
}

int worker_wait_any(Worker *ws, int n)
{
    struct pollfd *pfd = calloc((size_t)n * 2 + 1, sizeof *pfd);
    int *owner = calloc((size_t)n * 2 + 1, sizeof *owner);
    if (!pfd || !owner) { free(pfd); free(owner); return -1; }
    int done = -1;
    for (;;) {
        int np = 0, running = 0;
        double now = now_ms(), next_deadline = 0;
        for (int i = 0; i < n && done < 0; i++) {
            Worker *w = &ws[i];
            if (!w->running) continue;
            running++;
            if (w->deadline && now >= w->deadline && !w->timed_out) {
                w->timed_out = true;
                kill(w->pid, SIGKILL);
            }
            if (w->fd[0] < 0 && w->fd[1] < 0) { finish(w); done = i; break; }
            if (w->deadline && !w->timed_out && (!next_deadline || w->deadline < next_deadline))
                next_deadline = w->deadline;
            for (int k = 0; k < 2; k++) {
                if (w->fd[k] < 0) continue;
                pfd[np].fd = w->fd[k];
                pfd[np].events = POLLIN;
                owner[np++] = i * 2 + k;
            }
        }
        if (done >= 0 || !running) break;
        int wait = next_deadline ? (int)(next_deadline - now) + 1 : -1;
        int r = poll(pfd, (nfds_t)np, wait);
        if (r < 0 && errno != EINTR) break;
        for (int j = 0; j < np && r > 0; j++) {
            if (!pfd[j].revents) continue;
            Worker *w = &ws[owner[j] / 2];
            int k = owner[j] % 2;
            OutBuf *b = k == 0 ? &w->result : &w->diag;
            out_reserve(b, 65536);
            ssize_t got = read(w->fd[k], b->p + b->len, b->cap - b->len);
            if (got > 0) b->len += (size_t)got;
            else if (got == 0 || (errno != EINTR && errno != EAGAIN)) { close(w->fd[k]); w->fd[k] = -1; }
        }
    }
    free(pfd);
    free(owner);
    return done;
}

void worker_free(Worker *w)
{
    if (w->running) {
        kill(w->pid, SIGKILL);
        finish(w);
    }
    out_free(&w->result);
    out_free(&w->diag);
}

void worker_describe(const Worker *w, char *buf, size_t n)
{
    if (w->timed_out) snprintf(buf, n, "timed out");
    else if (WIFSIGNALED(w->wstatus))
        snprintf(buf, n, "killed by signal %d (%s)", WTERMSIG(w->wstatus), strsignal(WTERMSIG(w->wstatus)));
    else snprintf(buf, n, "exit status %d", WEXITSTATUS(w->wstatus));
}
