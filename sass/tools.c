/* tools.c — find ptxas and nvdisasm (see sass.h for the order). */
#include "sass/sass.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "ir/fatal.h"

static char *executable(const char *dir, const char *name)
{
    size_t n = strlen(dir) + strlen(name) + 2;
    char *p = malloc(n);
    if (!p) fatal_oom();
    snprintf(p, n, "%s/%s", dir, name);
    if (access(p, X_OK) == 0) return p;
    free(p);
    return NULL;
}

static char *on_path(const char *name)
{
    const char *path = getenv("PATH");
    if (!path) return NULL;
    char *copy = strdup(path), *save = NULL;
    if (!copy) fatal_oom();
    char *found = NULL;
    for (char *d = strtok_r(copy, ":", &save); d && !found; d = strtok_r(NULL, ":", &save))
        if (*d) found = executable(d, name);
    free(copy);
    return found;
}

static char *from_env(const char *var)
{
    const char *v = getenv(var);
    if (!v || !*v || access(v, X_OK) != 0) return NULL;
    char *p = strdup(v);
    if (!p) fatal_oom();
    return p;
}

bool sass_tools_find(SassTools *t, char *err, size_t errsz)
{
    memset(t, 0, sizeof *t);
    t->ptxas = from_env("PTXAS");
    if (!t->ptxas) t->ptxas = on_path("ptxas");
    if (!t->ptxas) t->ptxas = executable("/usr/local/cuda/bin", "ptxas");
    if (!t->ptxas) {
        snprintf(err, errsz, "ptxas not found ($PTXAS, PATH, /usr/local/cuda/bin)");
        return false;
    }
    t->nvdisasm = from_env("NVDISASM");
    if (!t->nvdisasm) t->nvdisasm = on_path("nvdisasm");
    if (!t->nvdisasm) {
        /* the toolkit ptxas came from */
        char *dir = strdup(t->ptxas);
        if (!dir) fatal_oom();
        char *slash = strrchr(dir, '/');
        if (slash) {
            *slash = 0;
            t->nvdisasm = executable(*dir ? dir : "/", "nvdisasm");
        }
        free(dir);
    }
    if (!t->nvdisasm) t->nvdisasm = executable("/usr/local/cuda/bin", "nvdisasm");
#ifdef NVDISASM_PATH
    if (!t->nvdisasm && access(NVDISASM_PATH, X_OK) == 0 && !(t->nvdisasm = strdup(NVDISASM_PATH))) fatal_oom();
#endif
    if (!t->nvdisasm) {
        snprintf(err, errsz, "nvdisasm not found ($NVDISASM, PATH, the CUDA toolkit, or the pip install "
                             "./bootstrap makes: pip install --target=pydeps nvidia-cuda-nvdisasm)");
        sass_tools_free(t);
        return false;
    }
    return true;
}

void sass_tools_free(SassTools *t)
{
    free(t->ptxas);
    free(t->nvdisasm);
    t->ptxas = t->nvdisasm = NULL;
}
