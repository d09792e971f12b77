/* test_cleanup.c — driver/cleanup.h: remove_tree and the registry.
 *
 *  * remove_tree empties a tree deeper than one getdents buffer and wider
 *    than one read, and never follows a symbolic link out of it (the
 *    handler runs as whoever started the program: a link in a temporary
 *    directory must not cost the user a file);
 *  * a registered directory is gone after a fatal signal, a child made by
 *    cleanup_fork is ended by it (in its own group: its children too), and
 *    the program dies of that signal;
 *  * a signal ignored at start stays ignored. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "driver/cleanup.h"
#include "testsuite/unit/check.h"

static void touch(const char *dir, const char *name)
{
    char p[8192];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    int fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd >= 0) { (void)!write(fd, "x", 1); close(fd); }
}

static bool exists(const char *p)
{
    struct stat st;
    return lstat(p, &st) == 0;
}

static void test_remove_tree(const char *base)
{
    char top[1536], keep[1536], p[4096];
    snprintf(top, sizeof top, "%s/tree", base);
    snprintf(keep, sizeof keep, "%s/outside", base);
    mkdir(top, 0700);
    mkdir(keep, 0700);
    touch(keep, "precious");
    /* 300 files with long names: more than one 4 KiB getdents buffer */
    for (int i = 0; i < 300; i++) {
        char name[128];
        snprintf(name, sizeof name, "file-with-a-rather-long-name-to-fill-the-buffer-%03d", i);
        touch(top, name);
    }
    /* 40 levels (the bound is 64: the handler's stack) */
    snprintf(p, sizeof p, "%s", top);
    for (int d = 0; d < 40; d++) {
        strcat(p, "/d");
        mkdir(p, 0700);
        touch(p, "f");
    }
    snprintf(p, sizeof p, "%s/link-out", top);
    CHECK(symlink(keep, p) == 0, "symlink: %s", strerror(errno));
    snprintf(p, sizeof p, "%s/d/link-file", top);
    char target[2048];
    snprintf(target, sizeof target, "%s/precious", keep);
    CHECK(symlink(target, p) == 0, "symlink: %s", strerror(errno));

    CHECK(remove_tree(top), "remove_tree failed");
    CHECK(!exists(top), "%s is still there", top);
    snprintf(p, sizeof p, "%s/precious", keep);
    CHECK(exists(p), "a file behind a symbolic link was removed");
    CHECK(remove_tree(top), "remove_tree of a missing path");
    CHECK(remove_tree(NULL), "remove_tree(NULL)");
}

/* A child that registers a directory and a grandchild process, then is
 * sent `sig`: the directory must be gone, the grandchild ended, and the
 * child dead of the signal. */
static void test_signal(const char *base, int sig, bool ignore_first)
{
    char dir[2048], pidfile[2048];
    snprintf(dir, sizeof dir, "%s/sig-XXXXXX", base);
    snprintf(pidfile, sizeof pidfile, "%s/grandchild.pid", base);
    unlink(pidfile);
    int ready[2];
    if (pipe(ready) != 0) { CHECK(0, "pipe"); return; }
    pid_t pid = fork();
    if (pid == 0) {
        close(ready[0]);
        signal(sig, ignore_first ? SIG_IGN : SIG_DFL);
        cleanup_install();
        if (!cleanup_mkdtemp(dir)) _exit(90);
        touch(dir, "f");
        pid_t g = cleanup_fork(true);
        if (g == 0) {
            /* the grandchild: a command that starts a process of its own */
            pid_t gg = fork();
            if (gg == 0) { for (;;) pause(); }
            FILE *f = fopen(pidfile, "w");
            if (f) { fprintf(f, "%d\n", (int)gg); fclose(f); }
            for (;;) pause();
        }
        while (!exists(pidfile)) usleep(1000);
        usleep(20000);
        (void)!write(ready[1], dir, strlen(dir) + 1);
        for (;;) pause();
    }
    close(ready[1]);
    char got[4096] = "";
    ssize_t n = read(ready[0], got, sizeof got);
    close(ready[0]);
    CHECK(n > 0, "the child did not get ready");
    FILE *f = fopen(pidfile, "r");
    int gg = 0;
    if (f) { if (fscanf(f, "%d", &gg) != 1) gg = 0; fclose(f); }
    kill(pid, sig);
    int st = 0;
    if (ignore_first) {
        usleep(200000);
        CHECK(waitpid(pid, &st, WNOHANG) == 0, "signal %d ignored at start ended the program", sig);
        kill(pid, SIGTERM);
        sig = SIGTERM;
    }
    waitpid(pid, &st, 0);
    CHECK(WIFSIGNALED(st) && WTERMSIG(st) == sig, "status %#x, not death by signal %d", st, sig);
    CHECK(got[0] && !exists(got), "%s was left behind", got);
    /* the great-grandchild was re-parented; it is gone or a zombie */
    bool gone = false;
    for (int t = 0; t < 500 && !gone; t++) {
        char stat[64], buf[512] = "";
        snprintf(stat, sizeof stat, "/proc/%d/stat", gg);
        FILE *s = fopen(stat, "r");
        if (!s) gone = true;
        else {
            if (fgets(buf, sizeof buf, s)) {
                const char *r = strrchr(buf, ')');
                gone = r && (r[2] == 'Z' || r[2] == 'X');
            }
            fclose(s);
        }
        if (!gone) usleep(10000);
    }
    CHECK(gg > 0 && gone, "process %d, started by a registered child's command, survived", gg);
}

int main(void)
{
    const char *t = getenv("TMPDIR");
    char buf[1024];
    snprintf(buf, sizeof buf, "%s/test_cleanup.XXXXXX", t && *t ? t : "/tmp");
    char *b = mkdtemp(buf);
    if (!b) { perror("mkdtemp"); return 1; }
    test_remove_tree(b);
    test_signal(b, SIGTERM, false);
    test_signal(b, SIGINT, false);
    test_signal(b, SIGHUP, true);
    remove_tree(b);
    printf("%d checks, %d failures\n", checks, failures);
    return failures != 0;
}
