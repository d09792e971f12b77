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

/* Is (dev, ino) this program or a wrapper that started it? */
static bool is_wrapper(const struct stat *st)
{
    FileId self;
    if (self_id(&self) && self.dev == st->st_dev && self.ino == st->st_ino) return true;
    const char *list = getenv(PTXOPT_WRAPPERS_ENV);
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

static bool usable(const char *path)
{
    struct stat st;
    return path && *path && stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0 &&
           !is_wrapper(&st);
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

void ptxas_env_problem(char *buf, size_t n)
{
    const char *env = getenv("PTXOPT_PTXAS");
    buf[0] = 0;
    if (!env || !*env || usable(env)) return;
    struct stat st;
    const char *why = stat(env, &st) != 0 ? strerror(errno)
                      : !S_ISREG(st.st_mode) ? "not a regular file"
                      : access(env, X_OK) != 0 ? "not executable"
                      : "a ptxopt wrapper, not the real ptxas";
    snprintf(buf, n, "PTXOPT_PTXAS=%s: %s", env, why);
}

char *find_real_ptxas(const char *argv0, char *err, size_t errsz)
{
    const char *env = getenv("PTXOPT_PTXAS");
    if (usable(env)) return dup_path(env);

    char cand[PATH_MAX];
    char *dir = start_dir(argv0);
    if (dir) {
        snprintf(cand, sizeof cand, "%s/.ptxopt-real-ptxas", dir);
        free(dir);
        char *real = usable(cand) ? realpath(cand, NULL) : NULL;
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

void mark_wrapper_running(void)
{
    FileId self;
    if (!self_id(&self)) return;
    const char *old = getenv(PTXOPT_WRAPPERS_ENV);
    char *v;
    if (asprintf(&v, "%s%s%llu:%llu", old && *old ? old : "", old && *old ? " " : "", (unsigned long long)self.dev,
                 (unsigned long long)self.ino) < 0)
        fatal_oom();
    setenv(PTXOPT_WRAPPERS_ENV, v, 1);
    free(v);
}
