/* bench_analysis.c — throughput of the analyses (DESIGN.md: all analyses and
 * passes >= 20 MB/s on large real files).
 *
 *   bench_analysis [--repeat=N] [PATH...]
 *
 * Each PATH is a .ptx file or a directory searched for the largest .ptx
 * file (default: the test corpus).  For each file: parse, then compute
 * every analysis of every function with a body (CFG, dominators,
 * post-dominators, loops, register references, liveness and pressure, SSA
 * overlay, induction variables, symbolic terms, memory, uniformity, call
 * graph), best of N runs.  Prints MB/s of parsing alone, of the analyses
 * alone and of both together, and the peak memory of the analyses relative
 * to the input size. */
#define _GNU_SOURCE 1
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "analysis/callgraph.h"
#include "analysis/cfg.h"
#include "analysis/dom.h"
#include "analysis/ivars.h"
#include "analysis/liveness.h"
#include "analysis/loops.h"
#include "analysis/memory.h"
#include "analysis/ssa.h"
#include "analysis/uniform.h"
#include "analysis/value_terms.h"
#include "parser/parse.h"

#ifndef PTXOPT_SRCDIR
#define PTXOPT_SRCDIR "."
#endif

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void largest(const char *dir, char *best, off_t *best_size)
{
    DIR *d = opendir(dir);
    if (!d) return;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.') continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        struct stat st;
        if (stat(path, &st) != 0) continue;
        if (S_ISDIR(st.st_mode)) largest(path, best, best_size);
        else {
            size_t n = strlen(e->d_name);
            if (n > 4 && strcmp(e->d_name + n - 4, ".ptx") == 0 && st.st_size > *best_size) {
                *best_size = st.st_size;
                snprintf(best, 4096, "%s", path);
            }
        }
    }
    closedir(d);
}

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 2);
    if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) {
        fclose(f);
        free(buf);
        return NULL;
    }
    fclose(f);
    *len = (size_t)n;
    return buf;
}

static unsigned analyse(Module *m)
{
    unsigned fns = 0;
    for (uint32_t i = 0; i < m->nfuncs; i++) {
        Function *fn = m->funcs[i];
        if (!fn->has_body) continue;
        fns++;
        cfg_get(fn);
        dom_get(fn);
        postdom_get(fn);
        loops_get(fn);
        liveness_get(fn);
        ssa_get(fn);
        ivars_get(fn);
        vterms_get(fn);
        memory_get(fn);
        uniform_get(fn);
    }
    callgraph_free(callgraph_build(m));
    return fns;
}

static int bench(const char *path, int repeat)
{
    size_t len;
    char *text = slurp(path, &len);
    if (!text) {
        fprintf(stderr, "bench_analysis: cannot read %s\n", path);
        return 1;
    }
    double best_parse = 1e9, best_ana = 1e9;
    unsigned fns = 0;
    size_t arena_parse = 0, arena_all = 0;
    for (int r = 0; r < repeat; r++) {
        char *buf = malloc(len + 2);
        memcpy(buf, text, len);
        double t0 = now();
        Module *m = parse_module(path, buf, len, stderr);
        double t1 = now();
        if (!m) {
            free(text);
            return 1;
        }
        arena_parse = m->arena.total;
        fns = analyse(m);
        double t2 = now();
        arena_all = m->arena.total;
        if (t1 - t0 < best_parse) best_parse = t1 - t0;
        if (t2 - t1 < best_ana) best_ana = t2 - t1;
        ir_module_free(m);
    }
    double mb = len / 1e6;
    printf("%s: %.1f KB, %u functions\n", path, len / 1e3, fns);
    printf("  parse              %8.3f ms  %8.1f MB/s\n", best_parse * 1e3, mb / best_parse);
    printf("  all analyses       %8.3f ms  %8.1f MB/s\n", best_ana * 1e3, mb / best_ana);
    printf("  parse + analyses   %8.3f ms  %8.1f MB/s   (budget: >= 20 MB/s)\n", (best_parse + best_ana) * 1e3,
           mb / (best_parse + best_ana));
    printf("  analysis memory    %8.1f KB  (%.1fx the input; arena after parse %.1f KB)\n",
           (arena_all - arena_parse) / 1e3, (double)(arena_all - arena_parse) / len, arena_parse / 1e3);
    free(text);
    return 0;
}

int main(int argc, char **argv)
{
    int repeat = 20, rc = 0, files = 0;
    for (int i = 1; i < argc; i++)
        if (strncmp(argv[i], "--repeat=", 9) == 0) repeat = atoi(argv[i] + 9) > 0 ? atoi(argv[i] + 9) : 1;
    for (int i = 1; i <= argc; i++) {
        const char *p = i < argc ? argv[i] : (files ? NULL : PTXOPT_SRCDIR "/testsuite/corpus");
        if (!p || strncmp(p, "--", 2) == 0) continue;
        files++;
        struct stat st;
        if (stat(p, &st) == 0 && S_ISDIR(st.st_mode)) {
            static char best[4096];
            off_t size = 0;
            best[0] = 0;
            largest(p, best, &size);
            if (!best[0]) {
                fprintf(stderr, "bench_analysis: no .ptx file under %s\n", p);
                rc = 1;
                continue;
            }
            rc |= bench(best, repeat);
        } else {
            rc |= bench(p, repeat);
        }
    }
    return rc;
}
