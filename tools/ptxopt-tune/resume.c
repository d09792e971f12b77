/* resume.c — what an earlier, interrupted campaign already measured
 * (--resume=REPORT; man/ptxopt-tune.1, RESUMING).
 *
 * The report is ptxopt-tune's own JSON report: during --measure it is
 * rewritten (temporary file, then rename) each time a variant finishes, so
 * whatever kills the tuner, the file holds every variant finished so far
 * and "complete": false.  A variant of this run takes the times recorded
 * for it when the report has a variant of the same kernel with the same
 * pipeline and the same machine code ("code_hash": the cubin's .text
 * sections), measured --repeat times.  Anything else (a failed
 * measurement, another --repeat, code that changed since) is measured
 * again.  A report made with another --measure command is refused: its
 * times are not comparable. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tools/common/fileio.h"
#include "tools/common/json_read.h"
#include "tools/ptxopt-tune/tune.h"
#include "parser/parse.h"
#include "ir/fatal.h"

struct TuneResume {
    JsonValue *root;
    const JsonValue *kernels;
};

TuneResume *tune_resume_load(const char *path, const char *measure_cmd, bool *ok)
{
    *ok = true;
    struct stat sb;
    if (stat(path, &sb) != 0 && errno == ENOENT) return NULL; /* a first run: nothing to resume */
    size_t n;
    char *text = read_file(path, &n, stderr);
    if (!text) { *ok = false; return NULL; }
    char err[256];
    JsonValue *root = json_parse(text, n, err, sizeof err);
    free(text);
    if (!root) {
        fprintf(stderr, "ptxopt-tune: %s:%s (--resume reads a JSON report of ptxopt-tune)\n", path, err);
        *ok = false;
        return NULL;
    }
    const JsonValue *kernels = json_get(root, "kernels");
    const char *mode = json_str(json_get(root, "mode"));
    if (!kernels || kernels->kind != JSON_ARRAY || !mode) {
        fprintf(stderr, "ptxopt-tune: %s: not a JSON report of ptxopt-tune (no \"mode\" and \"kernels\")\n", path);
        json_free(root);
        *ok = false;
        return NULL;
    }
    const char *cmd = json_str(json_get(root, "measure"));
    if (strcmp(mode, "measure") != 0 || !cmd || strcmp(cmd, measure_cmd) != 0) {
        fprintf(stderr, "ptxopt-tune: %s: %s%s%s; its times are not comparable (give the same --measure, or another file)\n",
                path, strcmp(mode, "measure") ? "a dry run's report" : "measured with --measure='",
                strcmp(mode, "measure") ? "" : cmd ? cmd : "?", strcmp(mode, "measure") ? "" : "'");
        json_free(root);
        *ok = false;
        return NULL;
    }
    TuneResume *r = calloc(1, sizeof *r);
    if (!r) fatal_oom();
    r->root = root;
    r->kernels = kernels;
    return r;
}

void tune_resume_free(TuneResume *r)
{
    if (!r) return;
    json_free(r->root);
    free(r);
}

static const JsonValue *find_variant(const TuneResume *r, const char *kernel, const char *pipeline)
{
    for (int i = 0; i < r->kernels->n; i++) {
        const JsonValue *k = r->kernels->items[i];
        const char *name = json_str(json_get(k, "name"));
        const JsonValue *vs = json_get(k, "variants");
        if (!name || strcmp(name, kernel) != 0 || !vs || vs->kind != JSON_ARRAY) continue;
        for (int j = 0; j < vs->n; j++) {
            const char *pl = json_str(json_get(vs->items[j], "pipeline"));
            if (pl && strcmp(pl, pipeline) == 0) return vs->items[j];
        }
    }
    return NULL;
}

TuneResumed tune_resume_apply(const TuneResume *r, Variant *v, int repeat)
{
    if (!r) return RESUME_NONE;
    const JsonValue *rv = find_variant(r, v->kernel->name, v->pipeline ? v->pipeline : "");
    if (!rv) return RESUME_NONE;
    const JsonValue *times = json_get(rv, "times"), *median = json_get(rv, "time_median");
    const char *status = json_str(json_get(rv, "status"));
    if (!times || times->kind != JSON_ARRAY || !median || median->kind != JSON_NUMBER || !status ||
        strstr(status, "failed"))
        return RESUME_NONE;
    char hash[32];
    snprintf(hash, sizeof hash, "%016llx", v->code_hash);
    const char *rh = json_str(json_get(rv, "code_hash"));
    if (!rh) return RESUME_NONE; /* nothing to check the code against */
    if (strcmp(rh, hash) != 0) return RESUME_CHANGED;
    if (times->n != repeat) return RESUME_OTHER_REPEAT;
    for (int i = 0; i < times->n; i++)
        if (times->items[i]->kind != JSON_NUMBER) return RESUME_NONE;
    free(v->times);
    v->times = calloc((size_t)repeat, sizeof *v->times);
    if (!v->times) fatal_oom();
    for (int i = 0; i < times->n; i++) v->times[i] = times->items[i]->number;
    v->nruns = times->n;
    /* the median again from the times, exactly as a fresh measurement
     * computes it (the report's copy is rounded to 9 digits) */
    v->median = tune_median(v->times, v->nruns);
    v->measured = true;
    v->resumed = true;
    return RESUME_TAKEN;
}
