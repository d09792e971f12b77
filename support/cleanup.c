/* cleanup.c — see cleanup.h.
 *
 * The registry is static storage that the handler reads: fixed arrays, no
 * allocation.  The main program changes it only with the handled signals
 * blocked, so the handler never sees half an entry. */
#include "support/cleanup.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* MAX_DEPTH bounds the handler's stack (a 4 KiB buffer per level) */
enum { MAX_CHILDREN = 1024, MAX_DIRS = 16, MAX_DEPTH = 64 };

static const int handled[] = { SIGHUP, SIGINT, SIGQUIT, SIGTERM };
#define NHANDLED (sizeof handled / sizeof handled[0])
static bool installed[NHANDLED];

typedef struct Child {
    pid_t pid;              /* 0: free slot */
    bool group;             /* leads its own process group */
} Child;
static Child kids[MAX_CHILDREN];
static char dirs[MAX_DIRS][PATH_MAX];   /* "" : free slot */
static volatile sig_atomic_t forward_sig;   /* 0: the signal that arrived */
static volatile sig_atomic_t grace_ticks = 200; /* 10 ms ticks before SIGKILL */
static char message[NHANDLED][256];     /* per handled signal; "" : none */

static void block(sigset_t *old)
{
    sigset_t set;
    sigemptyset(&set);
    for (size_t i = 0; i < NHANDLED; i++) sigaddset(&set, handled[i]);
    sigprocmask(SIG_BLOCK, &set, old);
}

static void restore(const sigset_t *old) { sigprocmask(SIG_SETMASK, old, NULL); }

/* ------------------------------------------------------------ removing a tree */

/* What getdents64 returns (the kernel's struct linux_dirent64): readdir()
 * may allocate, so it cannot be used in a signal handler. */
struct kdirent {
    uint64_t ino;
    int64_t off;
    unsigned short reclen;
    unsigned char type;
    char name[];
};

/* Empties the directory open as dfd.  Entries removed while it is read can
 * make getdents skip others, so it reads again until a pass sees none. */
static bool clear_dir(int dfd, int depth)
{
    for (;;) {
        bool seen = false, removed = false;
        if (lseek(dfd, 0, SEEK_SET) < 0) return false;
        _Alignas(8) char buf[4096];
        long n;
        while ((n = syscall(SYS_getdents64, dfd, buf, sizeof buf)) > 0) {
            for (long off = 0; off < n;) {
                const struct kdirent *d = (const struct kdirent *)(buf + off);
                off += d->reclen;
                const char *name = d->name;
                if (name[0] == '.' && (!name[1] || (name[1] == '.' && !name[2]))) continue;
                seen = true;
                if (unlinkat(dfd, name, 0) == 0) { removed = true; continue; }
                if (errno != EISDIR && errno != EPERM) continue;
                int sub = depth < MAX_DEPTH ? openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) : -1;
                if (sub >= 0) {
                    clear_dir(sub, depth + 1);
                    close(sub);
                }
                if (unlinkat(dfd, name, AT_REMOVEDIR) == 0) removed = true;
            }
        }
        if (n < 0) return false;
        if (!seen) return true;
        if (!removed) return false;
    }
}

bool remove_tree(const char *path)
{
    if (!path || !*path) return true;
    int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) return unlink(path) == 0 || errno == ENOENT;
    clear_dir(fd, 0);
    close(fd);
    return rmdir(path) == 0 || errno == ENOENT;
}

/* ------------------------------------------------------------ the handler */

static void signal_child(const Child *c, int sig)
{
    if (c->group) kill(-c->pid, sig);
    else kill(c->pid, sig);
}

/* Reaps the registered children that have ended; true when none is left. */
static bool reap_ended(pid_t *left, int n)
{
    bool none = true;
    for (int i = 0; i < n; i++) {
        if (!left[i]) continue;
        pid_t r = waitpid(left[i], NULL, WNOHANG);
        if (r == left[i] || (r < 0 && errno != EINTR)) left[i] = 0;
        else none = false;
    }
    return none;
}

static void on_fatal_signal(int sig)
{
    /* every child gets the signal (or the one asked for), then up to 2 s
     * (cleanup_set_grace_ms) to end */
    static pid_t left[MAX_CHILDREN];
    int fwd = forward_sig ? forward_sig : sig;
    for (int i = 0; i < MAX_CHILDREN; i++) {
        left[i] = kids[i].pid;
        if (kids[i].pid > 0) signal_child(&kids[i], fwd);
    }
    struct timespec tick = { 0, 10 * 1000 * 1000 };
    for (int t = 0; t < grace_ticks && !reap_ended(left, MAX_CHILDREN); t++) nanosleep(&tick, NULL);
    for (int i = 0; i < MAX_CHILDREN; i++) {
        if (left[i]) {
            signal_child(&kids[i], SIGKILL);
            while (waitpid(left[i], NULL, 0) < 0 && errno == EINTR) {}
        }
        /* what a command started in its group and left behind */
        if (kids[i].pid > 0 && kids[i].group) kill(-kids[i].pid, SIGKILL);
    }
    for (int i = 0; i < MAX_DIRS; i++)
        if (dirs[i][0]) remove_tree(dirs[i]);
    for (size_t i = 0; i < NHANDLED; i++)
        if (handled[i] == sig && message[i][0]) {
            size_t len = strlen(message[i]);
            for (size_t off = 0; off < len;) {
                ssize_t w = write(STDERR_FILENO, message[i] + off, len - off);
                if (w > 0) off += (size_t)w;
                else if (w < 0 && errno == EINTR) continue;
                else break;
            }
        }

    /* die of the signal itself */
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    sigaction(sig, &dfl, NULL);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, sig);
    sigprocmask(SIG_UNBLOCK, &set, NULL);
    raise(sig);
    _exit(128 + sig);
}

void cleanup_install(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_fatal_signal;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < NHANDLED; i++) sigaddset(&sa.sa_mask, handled[i]);
    for (size_t i = 0; i < NHANDLED; i++) {
        struct sigaction old;
        if (installed[i] || sigaction(handled[i], NULL, &old) != 0) continue;
        if (old.sa_handler == SIG_IGN) continue;   /* nohup, background jobs: stay immune */
        installed[i] = sigaction(handled[i], &sa, NULL) == 0;
    }
}

/* ------------------------------------------------------------ the registry */

pid_t cleanup_fork(bool own_group)
{
    sigset_t old;
    block(&old);
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid == 0) {
        /* dies with us, even of SIGKILL; if we are gone already, now */
        prctl(PR_SET_PDEATHSIG, SIGTERM);
        if (getppid() != parent) raise(SIGTERM);
        /* the child owns none of this: it must die of these signals plainly */
        if (own_group) setpgid(0, 0);
        for (size_t i = 0; i < NHANDLED; i++)
            if (installed[i]) { signal(handled[i], SIG_DFL); installed[i] = false; }
        memset(kids, 0, sizeof kids);
        memset(dirs, 0, sizeof dirs);
        restore(&old);
        return 0;
    }
    if (pid > 0) {
        /* both sides set the group, so it exists whichever runs first */
        if (own_group) setpgid(pid, pid);
        for (int i = 0; i < MAX_CHILDREN; i++)
            if (!kids[i].pid) { kids[i] = (Child){ pid, own_group }; break; }
    }
    restore(&old);
    return pid;
}

void cleanup_forget(pid_t pid)
{
    sigset_t old;
    block(&old);
    for (int i = 0; i < MAX_CHILDREN; i++)
        if (kids[i].pid == pid) kids[i] = (Child){ 0, false };
    restore(&old);
}

static void track(const char *path)
{
    if (strlen(path) >= PATH_MAX) return;
    for (int i = 0; i < MAX_DIRS; i++)
        if (!dirs[i][0]) { strcpy(dirs[i], path); break; }
}

char *cleanup_mkdtemp(char *tmpl)
{
    sigset_t old;
    block(&old);
    char *d = mkdtemp(tmpl);
    int e = errno;
    if (d) track(d);
    restore(&old);
    errno = e;
    return d;
}

int cleanup_mkstemp(char *tmpl)
{
    sigset_t old;
    block(&old);
    int fd = mkstemp(tmpl);
    int e = errno;
    if (fd >= 0) track(tmpl);
    restore(&old);
    errno = e;
    return fd;
}

void cleanup_forget_path(const char *path)
{
    if (!path) return;
    sigset_t old;
    block(&old);
    for (int i = 0; i < MAX_DIRS; i++)
        if (strcmp(dirs[i], path) == 0) dirs[i][0] = 0;
    restore(&old);
}

void cleanup_remove_dir(const char *path)
{
    if (!path) return;
    sigset_t old;
    block(&old);
    remove_tree(path);
    for (int i = 0; i < MAX_DIRS; i++)
        if (strcmp(dirs[i], path) == 0) dirs[i][0] = 0;
    restore(&old);
}

/* ------------------------------------------------------------ the guardian */

/* In the guardian: wait for the end of the pipe, then remove the directory
 * open as dfd if `path` still names it. */
_Noreturn static void guard(int rd, int dfd, const char *path)
{
    struct stat held, now;
    char c;
    ssize_t n;
    while ((n = read(rd, &c, 1)) > 0 || (n < 0 && errno == EINTR)) {}
    if (fstat(dfd, &held) == 0 && lstat(path, &now) == 0 && S_ISDIR(now.st_mode) && now.st_dev == held.st_dev &&
        now.st_ino == held.st_ino) {
        clear_dir(dfd, 0);
        rmdir(path);
    }
    _exit(0);
}

bool cleanup_guard_dir(const char *dir)
{
    int p[2];
    if (strlen(dir) >= PATH_MAX || pipe2(p, O_CLOEXEC) != 0) return false;
    int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (dfd < 0) {
        close(p[0]);
        close(p[1]);
        return false;
    }
    static char path[PATH_MAX];   /* the child's copy: no allocation after fork */
    strcpy(path, dir);
    sigset_t old;
    block(&old);
    pid_t pid = fork();
    if (pid == 0) {
        setsid();   /* out of the terminal's process group: Ctrl-C is not for it */
        for (size_t i = 0; i < NHANDLED; i++) signal(handled[i], SIG_IGN);
        signal(SIGPIPE, SIG_IGN);
        restore(&old);
        /* nothing of the program's stays open here (a build that waits for
         * the end of the program's output must not wait for this) */
        int null = open("/dev/null", O_RDWR);
        for (int fd = 0; fd < 3; fd++) if (null >= 0) dup2(null, fd);
        long max = sysconf(_SC_OPEN_MAX);
        for (int fd = 3; fd < (max > 0 && max < 65536 ? max : 65536); fd++)
            if (fd != p[0] && fd != dfd) close(fd);
        guard(p[0], dfd, path);
    }
    restore(&old);
    close(p[0]);
    close(dfd);
    if (pid < 0) {
        close(p[1]);
        return false;
    }
    /* p[1] stays open (close-on-exec: ptxas and other programs run from
     * here do not hold it) until this process and its forks are gone */
    return true;
}

/* ------------------------------------------------------------ options */

void cleanup_forward_as(int sig) { forward_sig = sig; }

void cleanup_set_grace_ms(int ms) { grace_ticks = ms > 0 ? (ms + 9) / 10 : 0; }

void cleanup_set_message(const char *before, const char *after)
{
    sigset_t old;
    block(&old);
    for (size_t i = 0; i < NHANDLED; i++) {
        message[i][0] = 0;
        if (before || after)
            snprintf(message[i], sizeof message[i], "%s%s%s", before ? before : "", strsignal(handled[i]), after ? after : "");
    }
    restore(&old);
}

void cleanup_hold(sigset_t *old) { block(old); }

void cleanup_release(const sigset_t *old) { restore(old); }
