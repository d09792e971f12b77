/* resume.c — what earlier runs already measured (--resume=REPORT;
 * man/ptxopt-tune.1, RESUMING).
 *
 * The report is the cache.  During --measure it is rewritten (temporary
 * file, then rename) each time a variant finishes, so whatever kills the
 * tuner, the file holds every variant finished so far ("complete": false
 * in JSON).  It is read back JSON or CSV alike (by its name, as --report
 * writes them: the CSV has the same fields, code_hash and measure among
 * them).  A variant of this run takes the times recorded for it when the
 * report has a variant of the same kernel with the same pipeline and the
 * same machine code ("code_hash": the cubin's .text sections), measured
 * --repeat times.  Anything else (a failed measurement, another --repeat,
 * code that changed since) is measured again.  A report made with another
 * --measure command is refused: its times are not comparable.
 *
 * Measured points the report holds that this run does not have (another
 * strategy's sample, a dimension since removed, the cached points of the
 * report before it) are written back into the new report, so a point once
 * measured stays measured for every later run of the campaign. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tools/common/fileio.h"
#include "tools/common/json_read.h"
#include "tools/ptxopt-tune/tune.h"
#include "ir/fatal.h"
#include "parser/parse.h"

typedef struct Entry {
    char *kernel, *pipeline, *status, *code_hash;   /* code_hash: NULL when none */
    double *times;
    int ntimes;
    bool matched;                /* a variant of this run has its kernel and pipeline */
} Entry;

struct TuneResume {
    Entry *e;
    int n, cap;
};

static char *xstrdup(const char *s)
{
    char *d = strdup(s ? s : "");
    if (!d) fatal_oom();
    return d;
}

static Entry *add_entry(TuneResume *r, const char *kernel, const char *pipeline, const char *status, const char *hash)
{
    if (r->n == r->cap) {
        r->cap = r->cap ? 2 * r->cap : 32;
        r->e = realloc(r->e, sizeof *r->e * (size_t)r->cap);
        if (!r->e) fatal_oom();
    }
    Entry *e = &r->e[r->n++];
    memset(e, 0, sizeof *e);
    e->kernel = xstrdup(kernel);
    e->pipeline = xstrdup(pipeline);
    e->status = xstrdup(status);
    e->code_hash = hash && *hash ? xstrdup(hash) : NULL;
    return e;
}

static void add_time(Entry *e, double t)
{
    e->times = realloc(e->times, sizeof *e->times * (size_t)(e->ntimes + 1));
    if (!e->times) fatal_oom();
    e->times[e->ntimes++] = t;
}

void tune_resume_free(TuneResume *r)
{
    if (!r) return;
    for (int i = 0; i < r->n; i++) {
        Entry *e = &r->e[i];
        free(e->kernel), free(e->pipeline), free(e->status), free(e->code_hash), free(e->times);
    }
    free(r->e);
    free(r);
}

/* The measuring command of the report must be this run's. */
static bool same_command(const char *path, bool dry, const char *cmd, const char *measure_cmd)
{
    if (!dry && cmd && strcmp(cmd, measure_cmd) == 0) return true;
    fprintf(stderr, "ptxopt-tune: %s: %s%s%s; its times are not comparable (give the same --measure, or another file)\n", path,
            dry ? "a dry run's report" : "measured with --measure='", dry ? "" : cmd ? cmd : "?", dry ? "" : "'");
    return false;
}

/* ---------------------------------------------------------------- JSON */

static void json_times(Entry *e, const JsonValue *times)
{
    if (!times || times->kind != JSON_ARRAY) return;
    for (int i = 0; i < times->n; i++)
        if (times->items[i]->kind == JSON_NUMBER) add_time(e, times->items[i]->number);
        else {
            e->ntimes = 0;   /* not a time: nothing to take */
            return;
        }
}

static bool load_json(TuneResume *r, const char *path, const char *text, size_t n, const char *measure_cmd)
{
    char err[256];
    JsonValue *root = json_parse(text, n, err, sizeof err);
    if (!root) {
        fprintf(stderr, "ptxopt-tune: %s:%s (--resume reads a report of ptxopt-tune, JSON or CSV)\n", path, err);
        return false;
    }
    const JsonValue *kernels = json_get(root, "kernels");
    const char *mode = json_str(json_get(root, "mode"));
    if (!kernels || kernels->kind != JSON_ARRAY || !mode) {
        fprintf(stderr, "ptxopt-tune: %s: not a JSON report of ptxopt-tune (no \"mode\" and \"kernels\")\n", path);
        json_free(root);
        return false;
    }
    if (!same_command(path, strcmp(mode, "measure") != 0, json_str(json_get(root, "measure")), measure_cmd)) {
        json_free(root);
        return false;
    }
    for (int i = 0; i < kernels->n; i++) {
        const JsonValue *k = kernels->items[i], *vs = json_get(k, "variants");
        const char *name = json_str(json_get(k, "name"));
        if (!name || !vs || vs->kind != JSON_ARRAY) continue;
        for (int j = 0; j < vs->n; j++) {
            const JsonValue *v = vs->items[j];
            const char *pl = json_str(json_get(v, "pipeline")), *st = json_str(json_get(v, "status"));
            if (!pl || !st) continue;
            Entry *e = add_entry(r, name, pl, st, json_str(json_get(v, "code_hash")));
            json_times(e, json_get(v, "times"));
        }
    }
    const JsonValue *cache = json_get(root, "cache");
    for (int i = 0; cache && cache->kind == JSON_ARRAY && i < cache->n; i++) {
        const JsonValue *c = cache->items[i];
        const char *k = json_str(json_get(c, "kernel")), *pl = json_str(json_get(c, "pipeline"));
        if (!k || !pl) continue;
        Entry *e = add_entry(r, k, pl, "cached", json_str(json_get(c, "code_hash")));
        json_times(e, json_get(c, "times"));
    }
    json_free(root);
    return true;
}

/* ----------------------------------------------------------------- CSV */

/* One record of RFC 4180 CSV from *p (quoted fields, "" inside them,
 * newlines in quotes); fields malloc'ed into *out.  false at the end. */
static bool csv_record(const char **p, char ***out, int *nout)
{
    const char *s = *p;
    if (!*s) return false;
    char **f = NULL;
    int n = 0;
    for (;;) {
        size_t cap = 16, len = 0;
        char *buf = malloc(cap);
        if (!buf) fatal_oom();
        bool quoted = *s == '"';
        if (quoted) s++;
        for (;;) {
            char c = *s;
            if (!c) break;
            if (quoted) {
                if (c == '"' && s[1] == '"') s++;
                else if (c == '"') {
                    s++;
                    quoted = false;
                    continue;
                }
            } else if (c == ',' || c == '\n' || c == '\r') {
                break;
            }
            if (len + 2 > cap) {
                cap *= 2;
                buf = realloc(buf, cap);
                if (!buf) fatal_oom();
            }
            buf[len++] = c;
            s++;
        }
        buf[len] = 0;
        f = realloc(f, sizeof *f * (size_t)(n + 1));
        if (!f) fatal_oom();
        f[n++] = buf;
        if (*s == ',') {
            s++;
            continue;
        }
        if (*s == '\r') s++;
        if (*s == '\n') s++;
        break;
    }
    *p = s;
    *out = f;
    *nout = n;
    return true;
}

static void free_record(char **f, int n)
{
    for (int i = 0; i < n; i++) free(f[i]);
    free(f);
}

static int column(char **h, int nh, const char *name)
{
    for (int i = 0; i < nh; i++)
        if (strcmp(h[i], name) == 0) return i;
    return -1;
}

static bool load_csv(TuneResume *r, const char *path, const char *text, const char *measure_cmd)
{
    const char *p = text;
    char **h;
    int nh;
    if (!csv_record(&p, &h, &nh)) {
        fprintf(stderr, "ptxopt-tune: %s: empty (--resume reads a report of ptxopt-tune, JSON or CSV)\n", path);
        return false;
    }
    int ck = column(h, nh, "kernel"), cp = column(h, nh, "pipeline"), cs = column(h, nh, "status"),
        ct = column(h, nh, "times"), chash = column(h, nh, "code_hash"), cm = column(h, nh, "measure");
    free_record(h, nh);
    if (ck < 0 || cp < 0 || cs < 0 || ct < 0 || chash < 0 || cm < 0) {
        fprintf(stderr, "ptxopt-tune: %s: not a CSV report of ptxopt-tune (no kernel, pipeline, status, times, "
                        "code_hash and measure columns)\n", path);
        return false;
    }
    int need = ck > cp ? ck : cp;
    int cols[] = { cs, ct, chash, cm };
    for (int i = 0; i < 4; i++)
        if (cols[i] > need) need = cols[i];
    char **f;
    int nf, row = 1;
    bool checked = false;
    while (csv_record(&p, &f, &nf)) {
        row++;
        if (nf == 1 && !f[0][0]) { /* a blank line */
            free_record(f, nf);
            continue;
        }
        if (nf <= need) {
            fprintf(stderr, "ptxopt-tune: %s:%d: %d fields, fewer than the header's\n", path, row, nf);
            free_record(f, nf);
            return false;
        }
        if (!checked && !same_command(path, !f[cm][0], f[cm], measure_cmd)) {
            free_record(f, nf);
            return false;
        }
        checked = true;
        Entry *e = add_entry(r, f[ck], f[cp], f[cs], f[chash]);
        for (const char *t = f[ct]; *t;) {
            char *end;
            double x = strtod(t, &end);
            if (end == t) {
                e->ntimes = 0;
                break;
            }
            add_time(e, x);
            t = *end == ';' ? end + 1 : end;
            if (*t && *end != ';') {
                e->ntimes = 0;
                break;
            }
        }
        free_record(f, nf);
    }
    return true;
}

TuneResume *tune_resume_load(const char *path, const char *measure_cmd, bool *ok)
{
    *ok = true;
    struct stat sb;
    if (stat(path, &sb) != 0 && errno == ENOENT) return NULL; /* a first run: nothing to resume */
    size_t n;
    char *text = read_file(path, &n, stderr);
    if (!text) {
        *ok = false;
        return NULL;
    }
    char *z = realloc(text, n + 1);   /* the CSV reader walks to a NUL */
    if (!z) fatal_oom();
    text = z;
    text[n] = 0;
    TuneResume *r = calloc(1, sizeof *r);
    if (!r) fatal_oom();
    size_t len = strlen(path);
    bool csv = len >= 4 && strcmp(path + len - 4, ".csv") == 0;
    *ok = csv ? load_csv(r, path, text, measure_cmd) : load_json(r, path, text, n, measure_cmd);
    free(text);
    if (!*ok) {
        tune_resume_free(r);
        return NULL;
    }
    return r;
}

static bool usable(const Entry *e)
{
    return e->ntimes > 0 && !strstr(e->status, "failed");
}

TuneResumed tune_resume_apply(TuneResume *r, Variant *v, int repeat)
{
    if (!r) return RESUME_NONE;
    const char *pl = v->pipeline ? v->pipeline : "";
    Entry *e = NULL;
    for (int i = 0; i < r->n; i++)
        if (strcmp(r->e[i].kernel, v->kernel->name) == 0 && strcmp(r->e[i].pipeline, pl) == 0) {
            r->e[i].matched = true;
            if (!e || (!usable(e) && usable(&r->e[i]))) e = &r->e[i];
        }
    if (!e || !usable(e)) return RESUME_NONE;
    char hash[32];
    snprintf(hash, sizeof hash, "%016llx", v->code_hash);
    if (!e->code_hash) return RESUME_NONE; /* nothing to check the code against */
    if (strcmp(e->code_hash, hash) != 0) return RESUME_CHANGED;
    if (e->ntimes != repeat) return RESUME_OTHER_REPEAT;
    free(v->times);
    v->times = calloc((size_t)repeat, sizeof *v->times);
    if (!v->times) fatal_oom();
    memcpy(v->times, e->times, sizeof *v->times * (size_t)repeat);
    v->nruns = repeat;
    /* the median again from the times, exactly as a fresh measurement
     * computes it (the report's copy may be rounded) */
    v->median = tune_median(v->times, v->nruns);
    v->measured = true;
    v->resumed = true;
    return RESUME_TAKEN;
}

bool tune_resume_unused(const TuneResume *r, int i, TuneCached *out)
{
    for (int j = 0; r && j < r->n; j++) {
        const Entry *e = &r->e[j];
        if (e->matched || !usable(e) || !e->code_hash) continue;
        /* one entry per kernel and pipeline (a report lists each once) */
        bool first = true;
        for (int k = 0; k < j && first; k++)
            first = !(usable(&r->e[k]) && r->e[k].code_hash && strcmp(r->e[k].kernel, e->kernel) == 0 &&
                      strcmp(r->e[k].pipeline, e->pipeline) == 0);
        if (!first || i--) continue;
        *out = (TuneCached){ e->kernel, e->pipeline, e->code_hash, e->times, e->ntimes };
        return true;
    }
    return false;
}
