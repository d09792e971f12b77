/* exec.c — run ptxas or the user's measuring command, output captured
 * to files, with an optional timeout (see tune.h).
 *
 * The child gets its own process group so that a timeout, or a signal that
 * ends the tuner (support/cleanup.h), can end a shell command together with
 * everything it started. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "support/cleanup.h"
#include "tools/ptxopt-tune/tune.h"

static bool redirect(const char *path, int fd)
{
    int f = open(path ? path : "/dev/null", O_WRONLY | O_CREAT | O_APPEND, 0666);
    if (f < 0) return false;
    if (f != fd) {
        if (dup2(f, fd) < 0) return false;
        close(f);
    }
    return true;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

pid_t tune_spawn(char *const argv[], char *const env[], const char *out_path, const char *err_path, char *err, size_t errsz)
{
    /* start from empty files (the child appends, so one file can take both) */
    if (out_path) { int f = open(out_path, O_WRONLY | O_CREAT | O_TRUNC, 0666); if (f >= 0) close(f); }
    if (err_path) { int f = open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0666); if (f >= 0) close(f); }
    int report[2];
    if (pipe2(report, O_CLOEXEC) != 0) {
        snprintf(err, errsz, "cannot run %s: %s", argv[0], strerror(errno));
        return -1;
    }
    fflush(stdout);
    fflush(stderr);
    /* in a process group of its own, registered before a signal can be
     * handled (support/cleanup.h) */
    pid_t pid = cleanup_fork(true);
    if (pid < 0) {
        snprintf(err, errsz, "cannot run %s: %s", argv[0], strerror(errno));
        close(report[0]);
        close(report[1]);
        return -1;
    }
    if (pid == 0) {
        close(report[0]);
        signal(SIGPIPE, SIG_DFL);
        int e = 0;
        int devnull = open("/dev/null", O_RDONLY);
        if (devnull >= 0) { dup2(devnull, STDIN_FILENO); if (devnull != STDIN_FILENO) close(devnull); }
        for (char *const *p = env; p && *p; p++) putenv(*p);
        if (!redirect(out_path, STDOUT_FILENO) || !redirect(err_path, STDERR_FILENO)) e = errno;
        else {
            execvp(argv[0], argv);
            e = errno;
        }
        if (write(report[1], &e, sizeof e) < 0) {}
        _exit(127);
    }
    close(report[1]);
    int e = 0;
    ssize_t got;
    while ((got = read(report[0], &e, sizeof e)) < 0 && errno == EINTR) {}
    close(report[0]);
    if (got == (ssize_t)sizeof e) {
        while (waitpid(pid, NULL, 0) < 0 && errno == EINTR) {}
        cleanup_forget(pid);
        snprintf(err, errsz, "cannot run %s: %s", argv[0], strerror(e));
        return -1;
    }
    return pid;
}

int tune_exit_code(int wstatus)
{
    return WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : WIFSIGNALED(wstatus) ? 128 + WTERMSIG(wstatus) : 1;
}

ExecResult tune_exec(char *const argv[], char *const env[], const char *out_path, const char *err_path, double timeout)
{
    ExecResult r = { .status = -1 };
    pid_t pid = tune_spawn(argv, env, out_path, err_path, r.error, sizeof r.error);
    if (pid < 0) return r;
    int status = 0;
    double deadline = timeout > 0 ? now_s() + timeout : 0;
    for (;;) {
        pid_t w = waitpid(pid, &status, timeout > 0 ? WNOHANG : 0);
        if (w == pid) break;
        if (w < 0 && errno != EINTR) { status = 127 << 8; break; }
        if (w == 0 && now_s() > deadline) {
            kill(-pid, SIGKILL);
            kill(pid, SIGKILL);
            r.timed_out = true;
            while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
            break;
        }
        if (w == 0) nanosleep(&(struct timespec){ 0, 2000000 }, NULL);
    }
    cleanup_forget(pid);
    r.status = tune_exit_code(status);
    return r;
}

const char *tune_last_line(const char *path)
{
    static char line[512], best[512];
    best[0] = 0;
    FILE *f = fopen(path, "r");
    if (!f) return best;
    while (fgets(line, sizeof line, f)) {
        size_t n = strlen(line);
        while (n && (line[n - 1] == '\n' || line[n - 1] == '\r' || line[n - 1] == ' ' || line[n - 1] == '\t')) line[--n] = 0;
        const char *p = line;
        while (*p == ' ' || *p == '\t') p++;
        if (!*p) continue;
        memmove(best, p, strlen(p) + 1);
    }
    fclose(f);
    return best;
}
