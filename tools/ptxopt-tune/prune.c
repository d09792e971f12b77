/* prune.c — the points of a kernel's space worth building (issue 25
 * item 5; man/ptxopt-tune.1, THE SPACE).
 *
 * The space is the product of the dimensions, each with its off value.
 * Before anything is built (a ptxas run each), two kinds of point go:
 *   not applicable  a point with a value that the pass, run alone on the
 *                   input, does not apply to the kernel (no "applied"
 *                   remark): bypass op=cg on a kernel whose loads are all
 *                   ld.global.nc, a regtune the kernel refuses.  The pass
 *                   is asked, once per value; its own reason is kept;
 *   constrained     a point a --constraint rules out.
 * Each is counted (attributed to the first reason that applies, in
 * dimension order, then constraint order) and kept with its reason for the
 * table and the reports.  --strategy=random then draws its sample from the
 * points left. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/ptxopt-tune/internal.h"
#include "ir/fatal.h"

/* No product larger than this is enumerated. */
#define MAX_POINTS 1000000L

static unsigned long long name_hash(const char *s)
{
    unsigned long long h = 1469598103934665603ull;
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

int tune_plan_points(Tuner *t, TuneKernel *k, long **out, long *nout)
{
    *out = NULL;
    *nout = 0;
    long size = tune_space_size(k);
    if (size > MAX_POINTS) {
        k->skip = xasprintf("a space of more than %ld points (the dimensions' values, each with off)", MAX_POINTS);
        return 0;
    }
    k->points = size - 1;
    /* 1. ask each pass about each of its values, alone */
    char *bad[TUNE_MAX_DIMS][TUNE_MAX_VALUES] = { { 0 } };   /* reason, or NULL: applies */
    long bad_points[TUNE_MAX_DIMS][TUNE_MAX_VALUES] = { { 0 } };
    for (int d = 0; d < k->ndims; d++)
        for (int j = 0; j < k->dims[d].nvalues; j++) {
            char *value[TUNE_MAX_DIMS] = { 0 };
            value[d] = k->dims[d].values[j];
            char *pl = tune_pipeline(k, value), *why = NULL;
            int a = tune_applies(t, pl, k->name, &why);
            if (a != 1) bad[d][j] = why ? why : xasprintf("%s", a < 0 ? "ptxopt failed" : "not applicable");
            else free(why);
            free(pl);
        }
    /* 2. the points: every value applicable, every constraint met */
    const Config *c = t->cfg;
    long *cons_points = calloc((size_t)c->nconstraints + 1, sizeof *cons_points);
    long *keep = malloc(sizeof *keep * (size_t)(size > 1 ? size : 1));
    if (!cons_points || !keep) fatal_oom();
    long nkeep = 0;
    int status = 1;
    for (long i = 1; i < size && status > 0; i++) {
        long rest = i;
        int vi[TUNE_MAX_DIMS];
        char *value[TUNE_MAX_DIMS] = { 0 };
        for (int d = k->ndims - 1; d >= 0; d--) {
            int nv = k->dims[d].nvalues + 1;
            vi[d] = (int)(rest % nv) - 1;
            value[d] = vi[d] >= 0 ? k->dims[d].values[vi[d]] : NULL;
            rest /= nv;
        }
        int d = 0;
        while (d < k->ndims && !(vi[d] >= 0 && bad[d][vi[d]])) d++;
        if (d < k->ndims) {
            bad_points[d][vi[d]]++;
            k->pruned_inapplicable++;
            continue;
        }
        int ci = 0;
        for (; ci < c->nconstraints; ci++) {
            char err[1024];
            int r = tune_constraint_eval(&c->constraints[ci], k, value, err, sizeof err);
            if (r < 0) {
                fprintf(stderr, "ptxopt-tune: %s\n", err);
                status = -1;
                break;
            }
            if (r == 0) break;
        }
        if (status < 0) break;
        if (ci < c->nconstraints) {
            cons_points[ci]++;
            k->pruned_constraint++;
            continue;
        }
        keep[nkeep++] = i;
    }
    for (int d = 0; d < k->ndims; d++)
        for (int j = 0; j < k->dims[d].nvalues; j++)
            if (bad[d][j]) {
                if (status > 0) tune_add_prune(k, PRUNE_INAPPLICABLE, d, k->dims[d].values[j], -1, bad[d][j], bad_points[d][j]);
                free(bad[d][j]);
            }
    for (int ci = 0; status > 0 && ci < c->nconstraints; ci++)
        if (cons_points[ci]) tune_add_prune(k, PRUNE_CONSTRAINT, -1, NULL, ci, "", cons_points[ci]);
    free(cons_points);
    if (status < 0) {
        free(keep);
        return -1;
    }
    /* 3. --strategy=random: the sample, drawn from what is left (each
     * kernel its own draw, the same for the same seed) */
    k->sampled = -1;
    if (c->strategy == STRAT_RANDOM && nkeep > c->samples) {
        long *pick = malloc(sizeof *pick * (size_t)c->samples);
        if (!pick) fatal_oom();
        long n = tune_sample(nkeep, c->samples, c->seed ^ name_hash(k->name), pick);
        for (long j = 0; j < n; j++) pick[j] = keep[pick[j]];
        free(keep);
        keep = pick;
        nkeep = n;
        k->sampled = n;
    } else if (c->strategy == STRAT_RANDOM) {
        k->sampled = nkeep;
    }
    *out = keep;
    *nout = nkeep;
    return 1;
}
