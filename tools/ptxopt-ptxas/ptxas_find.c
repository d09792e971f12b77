/* ptxas_find.c — see ptxas_find.h. */
#include "tools/ptxopt-ptxas/ptxas_find.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ir/fatal.h"

typedef struct FileId {
    dev_t dev;
    ino_t ino;
} FileId;

static bool self_id(FileId *id)
{
    struct stat st;
    if (stat("/proc/self/exe", &st) != 0) return false;
    *id = (FileId){ st.st_dev, st.st_ino };
    return true;
}

/* Is (dev, ino) in the list of "dev:ino" words in $var? */
static bool listed(const char *var, const struct stat *st)
{
    const char *list = getenv(var);
    for (const char *p = list; p && *p;) {
        unsigned long long dev, ino;
        int used = 0;
        if (sscanf(p, "%llu:%llu%n", &dev, &ino, &used) != 2) break;
        if ((dev_t)dev == st->st_dev && (ino_t)ino == st->st_ino) return true;
        p += used;
        while (*p == ' ') p++;
    }
    return false;
}

/* Is (dev, ino) this program or a wrapper that started it? */
static bool is_wrapper(const struct stat *st)
{
    FileId self;
    if (self_id(&self) && self.dev == st->st_dev && self.ino == st->st_ino) return true;
    return listed(PTXOPT_WRAPPERS_ENV, st);
}

/* Did a wrapper that started this one run it as "the real ptxas"?  Then it
 * led back here: a script that runs `ptxas` by name, which PATH resolves
 * to this wrapper.  Running it again would recurse without end. */
static bool led_back(const struct stat *st) { return listed(PTXOPT_CHOSEN_ENV, st); }

static bool usable(const char *path)
{
    struct stat st;
    return path && *path && stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0 &&
           !is_wrapper(&st) && !led_back(&st);
}

/* Owned by this user or root, and writable by no one else: what another
 * local user cannot have made or changed. */
static bool trusted_stat(const struct stat *st)
{
    return (st->st_uid == geteuid() || st->st_uid == 0) && !(st->st_mode & (S_IWGRP | S_IWOTH));
}

/* The shadow root's record, `dir`/.ptxopt-real-ptxas, is trusted when the
 * directory, the record and the program it names are; else why not. */
static const char *record_untrusted(const char *dir, const char *rec)
{
    struct stat st;
    if (stat(dir, &st) != 0) return strerror(errno);
    if (!trusted_stat(&st)) return "its directory is another user's or writable by others";
    if (lstat(rec, &st) != 0) return strerror(errno);
    if (st.st_uid != geteuid() && st.st_uid != 0) return "it is another user's";
    if (!S_ISLNK(st.st_mode) && !trusted_stat(&st)) return "it is writable by others";
    if (stat(rec, &st) != 0) return strerror(errno);
    if (!trusted_stat(&st)) return "the program it names is another user's or writable by others";
    return NULL;
}

static char *dup_path(const char *p)
{
    char *s = strdup(p);
    if (!s) fatal_oom();
    return s;
}

/* The directory this program was started from: argv0's, or the PATH entry
 * whose argv0 is this program. */
static char *start_dir(const char *argv0)
{
    if (!argv0 || !*argv0) return NULL;
    const char *slash = strrchr(argv0, '/');
    if (slash) return strndup(argv0, (size_t)(slash - argv0 + (slash == argv0)));
    FileId self;
    const char *path = getenv("PATH");
    if (!path || !self_id(&self)) return NULL;
    char *dirs = dup_path(path), *found = NULL;
    for (char *save = NULL, *d = strtok_r(dirs, ":", &save); d && !found; d = strtok_r(NULL, ":", &save)) {
        char cand[PATH_MAX];
        struct stat st;
        snprintf(cand, sizeof cand, "%s/%s", d, argv0);
        if (stat(cand, &st) == 0 && st.st_dev == self.dev && st.st_ino == self.ino) found = dup_path(d);
    }
    free(dirs);
    return found;
}

bool ptxas_env_problem(char *buf, size_t n)
{
    const char *env = getenv("PTXOPT_PTXAS");
    buf[0] = 0;
    if (!env || !*env || usable(env)) return false;
    struct stat st;
    bool loop = stat(env, &st) == 0 && led_back(&st);
    const char *why = stat(env, &st) != 0 ? strerror(errno)
                      : !S_ISREG(st.st_mode) ? "not a regular file"
                      : access(env, X_OK) != 0 ? "not executable"
                      : is_wrapper(&st) ? "a ptxopt wrapper, not the real ptxas"
                      : "it runs ptxas by name, and that is this wrapper again (a loop); make it run the real "
                        "ptxas by its full path";
    snprintf(buf, n, "PTXOPT_PTXAS=%s: %s", env, why);
    return loop;
}

char *find_real_ptxas(const char *argv0, char *err, size_t errsz, char *note, size_t notesz)
{
    note[0] = 0;
    if (nesting_depth() >= PTXOPT_MAX_NESTING) {
        snprintf(err, errsz, "%d ptxopt wrappers started one another (a loop through $PTXOPT_PTXAS or PATH)",
                 nesting_depth());
        return NULL;
    }
    const char *env = getenv("PTXOPT_PTXAS");
    if (usable(env)) return dup_path(env);

    char cand[PATH_MAX];
    char *dir = start_dir(argv0);
    if (dir) {
        snprintf(cand, sizeof cand, "%s/.ptxopt-real-ptxas", dir);
        const char *why = NULL;
        char *real = NULL;
        if (usable(cand)) {
            why = record_untrusted(dir, cand);
            if (!why) real = realpath(cand, NULL);
            else snprintf(note, notesz, "%s not used: %s", cand, why);
        }
        free(dir);
        if (real) return real;
    }
    const char *cuda = getenv("CUDA_HOME");
    if (cuda && *cuda) {
        snprintf(cand, sizeof cand, "%s/bin/ptxas", cuda);
        if (usable(cand)) return dup_path(cand);
    }
    const char *path = getenv("PATH");
    if (path) {
        char *dirs = dup_path(path);
        for (char *save = NULL, *d = strtok_r(dirs, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
            snprintf(cand, sizeof cand, "%s/ptxas", *d ? d : ".");
            if (usable(cand)) {
                free(dirs);
                return dup_path(cand);
            }
        }
        free(dirs);
    }
    if (usable("/usr/local/cuda/bin/ptxas")) return dup_path("/usr/local/cuda/bin/ptxas");
    snprintf(err, errsz, "cannot find the real ptxas (looked at $PTXOPT_PTXAS, $CUDA_HOME/bin, PATH and "
             "/usr/local/cuda/bin; every ptxas found was a ptxopt wrapper)");
    return NULL;
}

bool started_by_wrapper(void)
{
    const char *list = getenv(PTXOPT_WRAPPERS_ENV);
    return list && *list;
}

int nesting_depth(void)
{
    int n = 0;
    const char *list = getenv(PTXOPT_WRAPPERS_ENV);
    for (const char *p = list; p && *p; p++)
        if (*p != ' ' && (p == list || p[-1] == ' ')) n++;
    return n;
}

static void append_id(const char *var, dev_t dev, ino_t ino)
{
    const char *old = getenv(var);
    char *v;
    if (asprintf(&v, "%s%s%llu:%llu", old && *old ? old : "", old && *old ? " " : "", (unsigned long long)dev,
                 (unsigned long long)ino) < 0)
        fatal_oom();
    setenv(var, v, 1);
    free(v);
}

void mark_wrapper_running(const char *real)
{
    FileId self;
    struct stat st;
    if (self_id(&self)) append_id(PTXOPT_WRAPPERS_ENV, self.dev, self.ino);
    if (real && stat(real, &st) == 0) append_id(PTXOPT_CHOSEN_ENV, st.st_dev, st.st_ino);
}
