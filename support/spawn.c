/* spawn.c — see spawn.h. */
#include "support/spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "support/cleanup.h"

static bool redirect(const char *path, int fd, int flags)
{
    if (!path) return true;
    int f = open(path, flags, 0666);
    if (f < 0) return false;
    if (f != fd) {
        if (dup2(f, fd) < 0) return false;
        close(f);
    }
    return true;
}

static bool move_fd(int from, int to)
{
    if (from == to) return true;
    if (dup2(from, to) < 0) return false;
    close(from);
    return true;
}

/* Writes the child's standard input and passes its standard error on until
 * both pipes are done.  A child that exits without reading all its input
 * closes the pipe: EPIPE then ends the writing, not this program. */
static void pump(int in_fd, const char *data, size_t len, int err_fd, size_t *err_bytes)
{
    struct sigaction ign = { .sa_handler = SIG_IGN }, old;
    sigemptyset(&ign.sa_mask);
    sigaction(SIGPIPE, &ign, &old);
    size_t off = 0;
    bool err_ok = true;   /* our stderr still takes it */
    if (in_fd >= 0 && len == 0) { close(in_fd); in_fd = -1; }
    while (in_fd >= 0 || err_fd >= 0) {
        struct pollfd p[2];
        int n = 0, ii = -1, ie = -1;
        if (in_fd >= 0) { ii = n; p[n++] = (struct pollfd){ .fd = in_fd, .events = POLLOUT }; }
        if (err_fd >= 0) { ie = n; p[n++] = (struct pollfd){ .fd = err_fd, .events = POLLIN }; }
        if (poll(p, (nfds_t)n, -1) < 0) {
            if (errno == EINTR) continue;
            break;
        }
        if (ii >= 0 && p[ii].revents) {
            ssize_t w = write(in_fd, data + off, len - off);
            if (w > 0) off += (size_t)w;
            if ((w < 0 && errno != EINTR && errno != EAGAIN) || off == len) { close(in_fd); in_fd = -1; }
        }
        if (ie >= 0 && p[ie].revents) {
            char buf[65536];
            ssize_t r = read(err_fd, buf, sizeof buf);
            if (r > 0) {
                *err_bytes += (size_t)r;
                for (ssize_t o = 0; err_ok && o < r;) {
                    ssize_t w = write(STDERR_FILENO, buf + o, (size_t)(r - o));
                    if (w > 0) o += w;
                    else if (w < 0 && errno != EINTR) err_ok = false;   /* keep draining */
                }
            } else if (r == 0 || (errno != EINTR && errno != EAGAIN)) {
                close(err_fd);
                err_fd = -1;
            }
        }
    }
    if (in_fd >= 0) close(in_fd);
    if (err_fd >= 0) close(err_fd);
    sigaction(SIGPIPE, &old, NULL);
}

int spawn_run(const char *path, char *const argv[], SpawnIO *io, char *err, size_t errsz)
{
    /* the child reports a failed exec through a close-on-exec pipe */
    int report[2], in[2] = { -1, -1 }, er[2] = { -1, -1 };
    bool feed = !io->in_path && io->in_data, relay = !io->err_path && io->relay_err;
    io->err_bytes = 0;
    if (pipe2(report, O_CLOEXEC) != 0 || (feed && pipe2(in, O_CLOEXEC) != 0) || (relay && pipe2(er, O_CLOEXEC) != 0)) {
        snprintf(err, errsz, "cannot run %s: %s", path, strerror(errno));
        return -1;   /* (a few descriptors lost on the way to a fallback) */
    }
    fflush(stdout);
    fflush(stderr);
    pid_t pid = cleanup_fork(false);
    if (pid < 0) {
        snprintf(err, errsz, "cannot run %s: %s", path, strerror(errno));
        close(report[0]);
        close(report[1]);
        return -1;
    }
    if (pid == 0) {
        close(report[0]);
        signal(SIGPIPE, SIG_DFL);
        int e = 0;
        if ((feed && (close(in[1]), !move_fd(in[0], STDIN_FILENO))) ||
            (relay && (close(er[0]), !move_fd(er[1], STDERR_FILENO))) ||
            !redirect(io->in_path, STDIN_FILENO, O_RDONLY) ||
            !redirect(io->out_path, STDOUT_FILENO, O_WRONLY | O_CREAT | O_TRUNC) ||
            !redirect(io->err_path, STDERR_FILENO, O_WRONLY | O_CREAT | O_TRUNC))
            e = errno;
        else {
            /* dup2 cleared close-on-exec on the standard descriptors */
            execv(path, argv);
            e = errno;
        }
        if (write(report[1], &e, sizeof e) < 0) {}
        _exit(127);
    }
    close(report[1]);
    if (feed) {
        close(in[0]);
        fcntl(in[1], F_SETFL, O_NONBLOCK);   /* never blocked while its stderr waits */
    }
    if (relay) close(er[1]);
    int e = 0;
    ssize_t got;
    while ((got = read(report[0], &e, sizeof e)) < 0 && errno == EINTR) {}
    close(report[0]);
    if (got == (ssize_t)sizeof e) {
        if (feed) close(in[1]);
        if (relay) close(er[0]);
    } else {
        pump(feed ? in[1] : -1, io->in_data, io->in_len, relay ? er[0] : -1, &io->err_bytes);
    }
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) { status = 127 << 8; break; }
    cleanup_forget(pid);
    if (got == (ssize_t)sizeof e) {
        snprintf(err, errsz, "cannot run %s: %s", path, strerror(e));
        return -1;
    }
    return status;
}

int spawn_wait(const char *path, char *const argv[], const char *stdin_path, const char *out_path, const char *err_path, char *err,
               size_t errsz)
{
    SpawnIO io = { .in_path = stdin_path, .out_path = out_path, .err_path = err_path };
    return spawn_run(path, argv, &io, err, errsz);
}

int status_code(int status)
{
    if (WIFEXITED(status)) return WEXITSTATUS(status);
    if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
    return 1;
}

_Noreturn void exit_like(int status)
{
    fflush(stdout);
    fflush(stderr);
    if (WIFSIGNALED(status)) {
        int sig = WTERMSIG(status);
        signal(sig, SIG_DFL);
        raise(sig);
    }
    exit(status_code(status));
}
