/* spawn.c — see spawn.h. */
#include "driver/spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

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

int spawn_wait(const char *path, char *const argv[], const char *stdin_path, const char *out_path, const char *err_path, char *err,
               size_t errsz)
{
    /* the child reports a failed exec through a close-on-exec pipe */
    int report[2];
    if (pipe2(report, O_CLOEXEC) != 0) {
        snprintf(err, errsz, "cannot run %s: %s", path, strerror(errno));
        return -1;
    }
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
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
        if (!redirect(stdin_path, STDIN_FILENO, O_RDONLY) ||
            !redirect(out_path, STDOUT_FILENO, O_WRONLY | O_CREAT | O_TRUNC) ||
            !redirect(err_path, STDERR_FILENO, O_WRONLY | O_CREAT | O_TRUNC))
            e = errno;
        else {
            execv(path, argv);
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
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) { status = 127 << 8; break; }
    if (got == (ssize_t)sizeof e) {
        snprintf(err, errsz, "cannot run %s: %s", path, strerror(e));
        return -1;
    }
    return status;
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
