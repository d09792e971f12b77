/* batch_inputs.c — see batch_inputs.h. */
#include "tools/ptxopt/batch_inputs.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ir/fatal.h"

static char *join(const char *a, const char *b)
{
    char *s;
    size_t n = strlen(a);
    bool slash = n && a[n - 1] == '/';
    if (asprintf(&s, "%s%s%s", a, slash ? "" : "/", b) < 0) fatal_oom();
    return s;
}

static void add(BatchInputs *in, char *path, const char *rel, const char *output_dir, size_t bytes, char *error)
{
    if (in->n == in->cap) {
        in->cap = in->cap ? in->cap * 2 : 64;
        in->v = realloc(in->v, sizeof *in->v * (size_t)in->cap);
        if (!in->v) fatal_oom();
    }
    BatchInput *x = &in->v[in->n++];
    x->path = path;
    x->output = output_dir ? join(output_dir, rel) : strdup(path);
    if (!x->output) fatal_oom();
    x->bytes = bytes;
    x->error = error;
}

static bool has_ptx_suffix(const char *name)
{
    size_t n = strlen(name);
    return n > 4 && strcmp(name + n - 4, ".ptx") == 0;
}

static int by_name(const struct dirent **a, const struct dirent **b) { return strcmp((*a)->d_name, (*b)->d_name); }

/* Adds the *.ptx files below dir; rel is dir's path relative to the root argument ("" at the root). */
static void walk(BatchInputs *in, const char *dir, const char *rel, const char *output_dir, const struct stat *skip)
{
    struct dirent **ents;
    int n = scandir(dir, &ents, NULL, by_name);
    if (n < 0) {
        char *msg;
        if (asprintf(&msg, "cannot read directory %s: %s", dir, strerror(errno)) < 0) fatal_oom();
        add(in, strdup(dir), rel[0] ? rel : ".", NULL, 0, msg);
        return;
    }
    for (int i = 0; i < n; i++) {
        const char *name = ents[i]->d_name;
        if (strcmp(name, ".") == 0 || strcmp(name, "..") == 0) { free(ents[i]); continue; }
        char *path = join(dir, name);
        char *sub = rel[0] ? join(rel, name) : strdup(name);
        if (!sub) fatal_oom();
        struct stat lst, st;
        bool ok = lstat(path, &lst) == 0 && stat(path, &st) == 0;
        if (ok && S_ISDIR(lst.st_mode)) {
            /* real directories only: a symlinked one could loop */
            if (!(skip && st.st_dev == skip->st_dev && st.st_ino == skip->st_ino))
                walk(in, path, sub, output_dir, skip);
            free(path);
        } else if (ok && S_ISREG(st.st_mode) && has_ptx_suffix(name)) {
            add(in, path, sub, output_dir, (size_t)st.st_size, NULL);
            path = NULL;
        } else {
            free(path);
        }
        free(sub);
        free(ents[i]);
    }
    free(ents);
}

static int by_output(const void *a, const void *b)
{
    return strcmp(((const BatchInput *)a)->output, ((const BatchInput *)b)->output);
}

bool batch_inputs_collect(BatchInputs *in, char **args, int nargs, const char *output_dir)
{
    memset(in, 0, sizeof *in);
    struct stat outst, *skip = NULL;
    if (output_dir && stat(output_dir, &outst) == 0) skip = &outst;
    for (int i = 0; i < nargs; i++) {
        const char *a = args[i];
        struct stat st;
        if (stat(a, &st) != 0) {
            char *msg;
            if (asprintf(&msg, "cannot read %s: %s", a, strerror(errno)) < 0) fatal_oom();
            const char *base = strrchr(a, '/');
            add(in, strdup(a), base && base[1] ? base + 1 : a, output_dir, 0, msg);
        } else if (S_ISDIR(st.st_mode)) {
            walk(in, a, "", output_dir, skip);
        } else {
            const char *base = strrchr(a, '/');
            add(in, strdup(a), base && base[1] ? base + 1 : a, output_dir, (size_t)st.st_size, NULL);
        }
    }
    /* two inputs, one output: refuse before anything is written */
    BatchInput *sorted = malloc(sizeof *sorted * (size_t)(in->n ? in->n : 1));
    if (!sorted) fatal_oom();
    memcpy(sorted, in->v, sizeof *sorted * (size_t)in->n);
    qsort(sorted, (size_t)in->n, sizeof *sorted, by_output);
    bool ok = true;
    for (int i = 1; i < in->n && ok; i++) {
        if (strcmp(sorted[i - 1].output, sorted[i].output) == 0) {
            fprintf(stderr, "ptxopt: %s and %s would both be written to %s\n", sorted[i - 1].path, sorted[i].path,
                    sorted[i].output);
            ok = false;
        }
    }
    free(sorted);
    return ok;
}

void batch_inputs_free(BatchInputs *in)
{
    for (int i = 0; i < in->n; i++) {
        free(in->v[i].path);
        free(in->v[i].output);
        free(in->v[i].error);
    }
    free(in->v);
    memset(in, 0, sizeof *in);
}

bool make_parent_dirs(const char *path)
{
    char *p = strdup(path);
    if (!p) fatal_oom();
    bool ok = true;
    for (char *s = p + 1; *s && ok; s++) {
        if (*s != '/') continue;
        *s = 0;
        if (mkdir(p, 0777) != 0 && errno != EEXIST) ok = false;
        *s = '/';
    }
    if (!ok) fprintf(stderr, "ptxopt: cannot create the directory for %s: %s\n", path, strerror(errno));
    free(p);
    return ok;
}
