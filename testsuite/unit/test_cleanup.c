/* test_cleanup.c — support/cleanup.h: remove_tree and the registry.
 *
 *  * remove_tree empties a tree deeper than one getdents buffer and wider
 *    than one read, and never follows a symbolic link out of it (the
 *    handler runs as whoever started the program: a link in a temporary
 *    directory must not cost the user a file);
 *  * a registered directory is gone after a fatal signal, a child made by
 *    cleanup_fork is ended by it (in its own group: its children too), and
 *    the program dies of that signal;
 *  * a signal ignored at start stays ignored;
 *  * cleanup_forward_as, cleanup_set_message, cleanup_hold/release. */
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

#include "support/cleanup.h"
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

/* ptxopt-tune's use: cleanup_forward_as(SIGTERM), cleanup_set_message and
 * cleanup_hold.  A child holds the signals while it "writes a file"; SIGINT
 * arrives meanwhile.  The file must be finished first, the registered
 * command (own group) must get SIGTERM rather than SIGINT, the message must
 * be on standard error, and the child must die of SIGINT. */
static char got_path[2048];
static void record_signal(int sig)
{
    int fd = open(got_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd >= 0) {
        char c = sig == SIGTERM ? 'T' : sig == SIGINT ? 'I' : '?';
        (void)!write(fd, &c, 1);
        close(fd);
    }
    _exit(0);
}

static void test_forward_hold(const char *base)
{
    char ready[2048], whole[2048], err[2048];
    snprintf(got_path, sizeof got_path, "%s/fwd.got", base);
    snprintf(ready, sizeof ready, "%s/fwd.ready", base);
    snprintf(whole, sizeof whole, "%s/fwd.whole", base);
    snprintf(err, sizeof err, "%s/fwd.err", base);
    unlink(got_path), unlink(ready), unlink(whole);
    int go[2];
    if (pipe(go) != 0) { CHECK(0, "pipe"); return; }
    pid_t pid = fork();
    if (pid == 0) {
        close(go[0]);
        int fd = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (fd < 0 || dup2(fd, STDERR_FILENO) < 0) _exit(91);
        signal(SIGINT, SIG_DFL);        /* lit starts tests with SIGINT ignored */
        alarm(30);                      /* a failure, not a hang */
        cleanup_install();
        cleanup_forward_as(SIGTERM);
        cleanup_set_message("test_cleanup: interrupted by ", "; stopped the command\n");
        pid_t g = cleanup_fork(true);
        if (g == 0) {
            close(go[1]);
            struct sigaction sa;
            memset(&sa, 0, sizeof sa);
            sa.sa_handler = record_signal;
            sigemptyset(&sa.sa_mask);
            sigaction(SIGTERM, &sa, NULL);
            sigaction(SIGINT, &sa, NULL);
            int r = open(ready, O_WRONLY | O_CREAT | O_TRUNC, 0600);
            if (r >= 0) close(r);
            for (;;) pause();
        }
        while (!exists(ready)) usleep(1000);
        sigset_t old;
        cleanup_hold(&old);
        (void)!write(go[1], "x", 1);
        usleep(200000);                 /* the signal comes meanwhile */
        int w = open(whole, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (w >= 0) close(w);
        cleanup_release(&old);
        for (;;) pause();
    }
    close(go[1]);
    char c;
    ssize_t n = read(go[0], &c, 1);
    close(go[0]);
    CHECK(n == 1, "the child did not get ready");
    kill(pid, SIGINT);
    int st = 0;
    waitpid(pid, &st, 0);
    CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGINT, "status %#x, not death by SIGINT", st);
    CHECK(exists(whole), "the signal did not wait for cleanup_release");
    char got = 0;
    int fd = open(got_path, O_RDONLY);
    if (fd >= 0) { if (read(fd, &got, 1) != 1) got = 0; close(fd); }
    CHECK(got == 'T', "the command got '%c', not SIGTERM ('T')", got ? got : '-');
    char text[512] = "";
    fd = open(err, O_RDONLY);
    if (fd >= 0) { ssize_t k = read(fd, text, sizeof text - 1); if (k > 0) text[k] = 0; close(fd); }
    char want[128];
    snprintf(want, sizeof want, "test_cleanup: interrupted by %s; stopped the command\n", strsignal(SIGINT));
    CHECK(strcmp(text, want) == 0, "standard error was '%s'", text);
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
    test_forward_hold(b);
    remove_tree(b);
    printf("%d checks, %d failures\n", checks, failures);
    return failures != 0;
}
