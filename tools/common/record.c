/* record.c — see record.h. */
#include "tools/common/record.h"

#include <stdlib.h>
#include <string.h>

#include "ir/fatal.h"

static const char *kind_name(RemarkKind k)
{
    return k == REMARK_APPLIED ? "applied" : k == REMARK_MISSED ? "missed" : "analysis";
}

static void remark_json(FILE *out, const Remark *x)
{
    fputs("{\"pass\":", out);
    json_string(out, x->pass);
    fprintf(out, ",\"line\":%d,\"kind\":\"%s\",\"message\":", x->line, kind_name(x->kind));
    json_string(out, x->message);
    fputc('}', out);
}

/* Remarks are grouped by function through index arrays sorted by name (a
 * file of thousands of kernels has thousands of remarks: comparing every
 * kernel with every remark took most of a batch run's time). */
static const OptimizeResult *sort_r;

static int by_remark_function(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    int c = strcmp(sort_r->remarks.v[x].function, sort_r->remarks.v[y].function);
    return c ? c : (x > y) - (x < y);   /* stable: file order within a function */
}

static int by_kernel_name(const void *a, const void *b)
{
    return strcmp(sort_r->kernels[*(const int *)a].name, sort_r->kernels[*(const int *)b].name);
}

static int *sorted_index(const OptimizeResult *r, int n, int (*cmp)(const void *, const void *))
{
    int *ix = malloc(sizeof(int) * (size_t)(n ? n : 1));
    if (!ix) fatal_oom();
    for (int i = 0; i < n; i++) ix[i] = i;
    sort_r = r;
    qsort(ix, (size_t)n, sizeof *ix, cmp);
    return ix;
}

/* First position in the sorted remarks whose function is `name`. */
static int first_remark_of(const OptimizeResult *r, const int *rix, const char *name)
{
    int lo = 0, hi = r->remarks.n;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (strcmp(r->remarks.v[rix[mid]].function, name) < 0) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

static bool is_kernel(const OptimizeResult *r, const int *kix, const char *name)
{
    int lo = 0, hi = r->nkernels;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2, c = strcmp(r->kernels[kix[mid]].name, name);
        if (c == 0) return true;
        if (c < 0) lo = mid + 1;
        else hi = mid;
    }
    return false;
}

void record_kernels_json(FILE *out, const OptimizeResult *r)
{
    int *rix = sorted_index(r, r->remarks.n, by_remark_function);
    int *kix = sorted_index(r, r->nkernels, by_kernel_name);
    fputc('[', out);
    for (int i = 0; i < r->nkernels; i++) {
        const KernelInfo *k = &r->kernels[i];
        fprintf(out, "%s{\"name\":", i ? "," : "");
        json_string(out, k->name);
        fprintf(out, ",\"entry\":%s,\"remarks\":[", k->entry ? "true" : "false");
        int n = 0;
        for (int j = first_remark_of(r, rix, k->name); j < r->remarks.n && strcmp(r->remarks.v[rix[j]].function, k->name) == 0;
             j++) {
            if (n++) fputc(',', out);
            remark_json(out, &r->remarks.v[rix[j]]);
        }
        fputs("]}", out);
    }
    /* remarks about the module, or about a function that has no body */
    bool any = r->nkernels > 0;
    for (int j = 0; j < r->remarks.n; j++) {
        const Remark *x = &r->remarks.v[j];
        if (is_kernel(r, kix, x->function)) continue;
        fprintf(out, "%s{\"name\":", any ? "," : "");
        any = true;
        json_string(out, x->function);
        fputs(",\"entry\":null,\"remarks\":[", out);
        remark_json(out, x);
        fputs("]}", out);
    }
    fputc(']', out);
    free(rix);
    free(kix);
}

static void put_line(FILE *out, const char *key, const char *text)
{
    fprintf(out, "%s ", key);
    for (const char *p = text; *p; p++) fputc(*p == '\n' || *p == '\r' ? ' ' : *p, out);
    fputc('\n', out);
}

void record_write(FILE *out, const OptimizeResult *r, bool written)
{
    fprintf(out, "status %d\n", r->status);
    if (r->status) put_line(out, "error", r->error);
    fprintf(out, "changed %d\nwritten %d\nbytes %zu\nms %.3f %.3f %.3f\n", r->changed, written, r->bytes,
            r->ms_parse, r->ms_passes, r->ms_print);
    for (int i = 0; i < r->npasses; i++) {
        const PassTally *t = &r->tally[i];
        fprintf(out, "pass %s %d %d %d %d %d\n", t->pass, t->ran, t->failed, t->kernels_seen, t->kernels_changed,
                t->sites);
    }
    fprintf(out, "nkernels %d\nkernels ", r->nkernels);
    record_kernels_json(out, r);
    fputs("\nend\n", out);
}

void record_write_sass(FILE *out, int status, const char *text, const char *json)
{
    fprintf(out, "sass_status %d\n", status);
    for (const char *l = text; l && *l;) {
        const char *nl = strchr(l, '\n');
        size_t n = nl ? (size_t)(nl - l) : strlen(l);
        fprintf(out, "sass %.*s\n", (int)n, l);
        l = nl ? nl + 1 : NULL;
    }
    put_line(out, "sass_json", json);
}

void record_write_error(FILE *out, int status, const char *error)
{
    fprintf(out, "status %d\n", status);
    put_line(out, "error", error);
    fputs("end\n", out);
}

static char *dup_range(const char *p, size_t n)
{
    char *s = strndup(p, n);
    if (!s) fatal_oom();
    return s;
}

void record_parse(const char *text, size_t len, FileRecord *rec)
{
    memset(rec, 0, sizeof *rec);
    rec->status = 3;
    const char *p = text, *end = text + len;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        if (!nl) break;   /* an unfinished line: the worker died writing it */
        char *line = dup_range(p, (size_t)(nl - p));
        p = nl + 1;
        char *val = strchr(line, ' ');
        if (val) *val++ = 0;
        else val = line + strlen(line);
        if (strcmp(line, "status") == 0) rec->status = atoi(val);
        else if (strcmp(line, "error") == 0) { free(rec->error); rec->error = dup_range(val, strlen(val)); }
        else if (strcmp(line, "changed") == 0) rec->changed = atoi(val) != 0;
        else if (strcmp(line, "written") == 0) rec->written = atoi(val) != 0;
        else if (strcmp(line, "bytes") == 0) rec->bytes = (size_t)strtoull(val, NULL, 10);
        else if (strcmp(line, "ms") == 0) sscanf(val, "%lf %lf %lf", &rec->ms_parse, &rec->ms_passes, &rec->ms_print);
        else if (strcmp(line, "nkernels") == 0) rec->nkernels = atoi(val);
        else if (strcmp(line, "kernels") == 0) { free(rec->kernels_json); rec->kernels_json = dup_range(val, strlen(val)); }
        else if (strcmp(line, "pass") == 0) {
            char name[256];
            int ran, failed, seen, changed, sites;
            if (sscanf(val, "%255s %d %d %d %d %d", name, &ran, &failed, &seen, &changed, &sites) == 6) {
                PassTally *nt = realloc(rec->tally, sizeof *nt * (size_t)(rec->npasses + 1));
                if (!nt) fatal_oom();
                rec->tally = nt;
                rec->tally[rec->npasses++] = (PassTally){ .pass = dup_range(name, strlen(name)), .ran = ran,
                    .failed = failed, .kernels_seen = seen, .kernels_changed = changed, .sites = sites };
            }
        }
        else if (strcmp(line, "sass_status") == 0) rec->sass_status = atoi(val);
        else if (strcmp(line, "sass_json") == 0) { free(rec->sass_json); rec->sass_json = dup_range(val, strlen(val)); }
        else if (strcmp(line, "sass") == 0) {
            size_t old = rec->sass_text ? strlen(rec->sass_text) : 0, n = strlen(val);
            char *t = realloc(rec->sass_text, old + n + 2);
            if (!t) fatal_oom();
            memcpy(t + old, val, n);
            t[old + n] = '\n';
            t[old + n + 1] = 0;
            rec->sass_text = t;
        }
        else if (strcmp(line, "end") == 0) rec->complete = true;
        free(line);
    }
    if (!rec->complete) rec->status = 3;
}

void record_free(FileRecord *rec)
{
    for (int i = 0; i < rec->npasses; i++) free((char *)rec->tally[i].pass);
    free(rec->tally);
    free(rec->error);
    free(rec->kernels_json);
    free(rec->sass_text);
    free(rec->sass_json);
    memset(rec, 0, sizeof *rec);
}
