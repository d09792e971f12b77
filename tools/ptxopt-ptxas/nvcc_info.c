/* nvcc_info.c — see nvcc_info.h. */
#include "tools/ptxopt-ptxas/nvcc_info.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/fatal.h"
#include "tools/ptxopt-ptxas/ptxas_args.h"

/* nvcc's options that take their value as the next word (they also take
 * it after '='), short and long spellings. */
static const char *const with_value[] = {
    "o", "output-file", "x", "I", "include-path", "D", "define-macro", "U", "undefine-macro", "L",
    "library-path", "l", "library", "ccbin", "compiler-bindir", "Xcompiler", "compiler-options", "Xptxas",
    "ptxas-options", "Xlinker", "linker-options", "Xnvlink", "nvlink-options", "Xarchive", "archive-options",
    "Xfatbin", "fatbin-options", "Xcudafe", "arch", "gpu-architecture", "code", "gpu-code", "gencode",
    "generate-code", "include", "pre-include", "isystem", "system-include", "odir", "output-directory", "MF",
    "dependency-output", "MT", "dependency-target-name", "maxrregcount", "std", "rdc",
    "relocatable-device-code", "t", "threads", "ftz", "prec-div", "prec-sqrt", "fmad", "keep-dir", "e",
    "entries", "diag-suppress", "diag-warn", "diag-error", "Werror", "time", "split-compile", "optf",
    "options-file", "ldir", "libdevice-directory", "cudart", "cudadevrt", "default-stream", "run-args",
    "dependency-drive-prefix", "drive-prefix", "target-directory", "lto", "dlto", "archive-options",
};

/* Options after which nvcc writes one file per source instead of linking,
 * and that file's suffix. */
static const struct { const char *opt, *suffix; } compile_only[] = {
    { "c", ".o" }, { "compile", ".o" }, { "dc", ".o" }, { "device-c", ".o" }, { "dw", ".o" }, { "device-w", ".o" },
    { "ptx", ".ptx" }, { "cubin", ".cubin" }, { "fatbin", ".fatbin" }, { "optix-ir", ".optixir" },
    { "ltoir", ".ltoir" },
};

static bool in(const char *name, size_t n, const char *const *list, size_t count)
{
    for (size_t i = 0; i < count; i++)
        if (strlen(list[i]) == n && strncmp(list[i], name, n) == 0) return true;
    return false;
}

static bool has_source_suffix(const char *w)
{
    static const char *const sfx[] = { ".cu", ".cup", ".c", ".cc", ".cxx", ".cpp", ".c++", ".C", ".ptx", ".gpu" };
    const char *dot = strrchr(w, '.');
    if (!dot || strchr(dot, '/')) return false;
    for (size_t i = 0; i < sizeof sfx / sizeof sfx[0]; i++)
        if (strcmp(dot, sfx[i]) == 0) return true;
    return false;
}

static void push(char ***v, int *n, const char *s)
{
    char **nv = realloc(*v, sizeof **v * (size_t)(*n + 1));
    if (!nv) fatal_oom();
    *v = nv;
    if (!(nv[(*n)++] = strdup(s))) fatal_oom();
}

bool nvcc_info_load(NvccInfo *info)
{
    memset(info, 0, sizeof *info);
    const char *env = getenv(PTXOPT_NVCC_ARGV_ENV);
    if (!env || !*env) return false;
    info->argc = ptxas_split_words(env, &info->argv);
    for (int i = 1; i < info->argc; i++) {
        const char *w = info->argv[i];
        if (w[0] != '-' || !w[1]) {
            if (has_source_suffix(w)) push(&info->sources, &info->nsources, w);
            continue;
        }
        const char *name = w + (w[1] == '-' ? 2 : 1);
        const char *eq = strchr(name, '=');
        size_t n = eq ? (size_t)(eq - name) : strlen(name);
        const char *val = eq ? eq + 1 : NULL;
        for (size_t k = 0; k < sizeof compile_only / sizeof compile_only[0]; k++)
            if (strlen(compile_only[k].opt) == n && strncmp(compile_only[k].opt, name, n) == 0)
                info->out_suffix = compile_only[k].suffix;
        if (!in(name, n, with_value, sizeof with_value / sizeof with_value[0])) continue;
        if (!val) {
            if (i + 1 >= info->argc) break;
            val = info->argv[++i];
        }
        if ((n == 1 && name[0] == 'o') || (n == 11 && strncmp(name, "output-file", 11) == 0)) {
            free(info->output);
            if (!(info->output = strdup(val))) fatal_oom();
        } else if ((n == 4 && (strncmp(name, "arch", 4) == 0 || strncmp(name, "code", 4) == 0)) ||
                   (n == 7 && strncmp(name, "gencode", 7) == 0) || (n == 16 && strncmp(name, "gpu-architecture", 16) == 0) ||
                   (n == 8 && strncmp(name, "gpu-code", 8) == 0) || (n == 13 && strncmp(name, "generate-code", 13) == 0)) {
            push(&info->targets, &info->ntargets, val);
        }
    }
    return true;
}

void nvcc_info_free(NvccInfo *info)
{
    strv_free(info->argv);
    for (int i = 0; i < info->nsources; i++) free(info->sources[i]);
    free(info->sources);
    for (int i = 0; i < info->ntargets; i++) free(info->targets[i]);
    free(info->targets);
    free(info->output);
    memset(info, 0, sizeof *info);
}

static const char *base_of(const char *p)
{
    const char *s = strrchr(p, '/');
    return s ? s + 1 : p;
}

/* Does the PTX's name `b` (tmpxft_..._N_STEM[.ARCH].ptx, or STEM.ptx)
 * carry the source stem `stem` (its base name without the suffix)? */
static bool carries(const char *b, const char *stem, size_t sn)
{
    if (strncmp(b, "tmpxft_", 7) == 0) {
        const char *dash = strchr(b, '-');
        const char *us = dash ? strchr(dash, '_') : NULL;
        if (!us) return false;
        b = us + 1;
    }
    if (strncmp(b, stem, sn) != 0) return false;
    const char *rest = b + sn;
    if (strcmp(rest, ".ptx") == 0) return true;
    /* .compute_80.ptx, .sm_90a.ptx: one more dot-separated word */
    if (rest[0] != '.') return false;
    const char *dot = strchr(rest + 1, '.');
    return dot && strcmp(dot, ".ptx") == 0 && !strchr(rest + 1, '/');
}

const char *nvcc_info_source_for(const NvccInfo *info, const char *ptx)
{
    if (info->nsources == 1) return info->sources[0];
    const char *found = NULL, *b = base_of(ptx);
    for (int i = 0; i < info->nsources; i++) {
        const char *sb = base_of(info->sources[i]);
        const char *dot = strrchr(sb, '.');
        if (!carries(b, sb, dot ? (size_t)(dot - sb) : strlen(sb))) continue;
        if (found) return NULL;   /* two sources of that name: cannot tell */
        found = info->sources[i];
    }
    return found;
}

char *nvcc_info_object_for(const NvccInfo *info, const char *source)
{
    if (!info->out_suffix || !source) return NULL;
    char *o;
    if (info->output && info->nsources == 1) {
        o = strdup(info->output);
    } else {
        const char *sb = base_of(source), *dot = strrchr(sb, '.');
        if (asprintf(&o, "%.*s%s", (int)(dot ? (size_t)(dot - sb) : strlen(sb)), sb, info->out_suffix) < 0) o = NULL;
    }
    if (!o) fatal_oom();
    return o;
}
