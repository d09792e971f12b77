/* report.c — see report.h. */
#include "tools/common/report.h"

#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "tools/common/fileio.h"
#include "ir/fatal.h"

typedef struct PassTotal {
    const char *pass;
    long kernels_seen, kernels_changed, sites, files_failed;
} PassTotal;

/* One total per distinct pass of the pipeline, in pipeline order. */
static int pass_totals(const BatchResult *r, int n, const BatchSummary *s, PassTotal **out)
{
    int np = s->pl ? s->pl->n : 0, k = 0;
    PassTotal *t = calloc((size_t)(np ? np : 1), sizeof *t);
    if (!t) fatal_oom();
    for (int i = 0; i < np; i++) {
        const char *name = s->pl->v[i].pass->name;
        bool dup = false;
        for (int j = 0; j < k && !dup; j++) dup = strcmp(t[j].pass, name) == 0;
        if (!dup) t[k++].pass = name;
    }
    for (int f = 0; f < n; f++) {
        const FileRecord *rec = &r[f].rec;
        for (int i = 0; i < rec->npasses; i++) {
            const PassTally *x = &rec->tally[i];
            for (int j = 0; j < k; j++) {
                if (strcmp(t[j].pass, x->pass) != 0) continue;
                t[j].kernels_seen += x->kernels_seen;
                t[j].kernels_changed += x->kernels_changed;
                t[j].sites += x->sites;
                t[j].files_failed += x->failed;
                break;
            }
        }
    }
    *out = t;
    return k;
}

void report_table(FILE *out, const BatchResult *r, int n, const BatchSummary *s)
{
    PassTotal *t;
    int k = pass_totals(r, n, s, &t);
    fprintf(out, "%-24s %12s %15s %15s %12s\n", "pass", "kernels seen", "kernels changed", "sites rewritten",
            "files failed");
    if (!k) fprintf(out, "%-24s %12s %15s %15s %12s\n", "(no passes)", "-", "-", "-", "-");
    for (int j = 0; j < k; j++)
        fprintf(out, "%-24s %12ld %15ld %15ld %12ld\n", t[j].pass, t[j].kernels_seen, t[j].kernels_changed,
                t[j].sites, t[j].files_failed);
    long outside = 0;   /* failures not charged to a pass: unreadable, unparsable, crashed, timed out */
    for (int f = 0; f < n; f++) {
        if (strcmp(r[f].state, "failed") != 0) continue;
        bool charged = false;
        for (int i = 0; i < r[f].rec.npasses; i++) charged |= r[f].rec.tally[i].failed;
        outside += !charged;
    }
    if (outside) fprintf(out, "%-24s %12s %15s %15s %12ld\n", "(outside passes)", "-", "-", "-", outside);
    fprintf(out, "%d files, %.2f MB: %d changed, %d unchanged, %d failed; %.2f s with %d job%s (%.1f MB/s)\n",
            s->files, s->bytes / 1e6, s->changed, s->unchanged, s->failed, s->seconds, s->jobs, s->jobs == 1 ? "" : "s",
            s->seconds > 0 ? s->bytes / 1e6 / s->seconds : 0.0);
    free(t);
}

static void json_str_or_null(FILE *f, const char *s)
{
    if (s) json_string(f, s);
    else fputs("null", f);
}

static void file_json(FILE *f, const BatchResult *x)
{
    const FileRecord *rec = &x->rec;
    fputs("{\"input\":", f);
    json_string(f, x->input);
    fputs(",\"output\":", f);
    json_str_or_null(f, x->output);
    fprintf(f, ",\"status\":\"%s\",\"exit_status\":%d,\"error\":", x->state, x->exit_status);
    json_str_or_null(f, x->error);
    fprintf(f, ",\"bytes\":%zu,\"ms\":{\"parse\":%.3f,\"passes\":%.3f,\"print\":%.3f},\"passes\":[", rec->bytes,
            rec->ms_parse, rec->ms_passes, rec->ms_print);
    for (int i = 0; i < rec->npasses; i++) {
        const PassTally *t = &rec->tally[i];
        fprintf(f, "%s{\"pass\":", i ? "," : "");
        json_string(f, t->pass);
        fprintf(f, ",\"ran\":%s,\"failed\":%s,\"kernels_seen\":%d,\"kernels_changed\":%d,\"sites_rewritten\":%d}",
                t->ran ? "true" : "false", t->failed ? "true" : "false", t->kernels_seen, t->kernels_changed, t->sites);
    }
    fputs("],\"kernels\":", f);
    fputs(rec->kernels_json ? rec->kernels_json : "[]", f);
    if (rec->sass_json) fprintf(f, ",\"sass\":%s", rec->sass_json);
    fputc('}', f);
}

bool report_write_json(const char *path, const BatchResult *r, int n, const BatchSummary *s)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f) fatal_oom();
    fputs("{\"tool\":\"ptxopt\",\"version\":", f);
    json_string(f, PACKAGE_VERSION);
    fputs(",\"mode\":\"batch\",\"pipeline\":", f);
    json_string(f, s->pipeline ? s->pipeline : "");
    fputs(",\"output_dir\":", f);
    json_str_or_null(f, s->output_dir);
    fprintf(f, ",\"in_place\":%s,\"jobs\":%d,\n\"files\":[\n", s->output_dir ? "false" : "true", s->jobs);
    for (int i = 0; i < n; i++) {
        file_json(f, &r[i]);
        fputs(i + 1 < n ? ",\n" : "\n", f);
    }
    PassTotal *t;
    int k = pass_totals(r, n, s, &t);
    fprintf(f, "],\n\"summary\":{\"files\":%d,\"changed\":%d,\"unchanged\":%d,\"failed\":%d,\"bytes\":%zu,"
            "\"seconds\":%.3f,\"passes\":[", s->files, s->changed, s->unchanged, s->failed, s->bytes, s->seconds);
    for (int j = 0; j < k; j++) {
        fprintf(f, "%s{\"pass\":", j ? "," : "");
        json_string(f, t[j].pass);
        fprintf(f, ",\"kernels_seen\":%ld,\"kernels_changed\":%ld,\"sites_rewritten\":%ld,\"files_failed\":%ld}",
                t[j].kernels_seen, t[j].kernels_changed, t[j].sites, t[j].files_failed);
    }
    free(t);
    fputs("]},\n\"failures\":[", f);
    int nf = 0;
    for (int i = 0; i < n; i++) {
        if (strcmp(r[i].state, "failed") != 0) continue;
        fprintf(f, "%s{\"input\":", nf++ ? "," : "");
        json_string(f, r[i].input);
        fputs(",\"error\":", f);
        json_str_or_null(f, r[i].error);
        fputc('}', f);
    }
    fputs("]}\n", f);
    fclose(f);
    bool ok = write_file_atomic(path, text, len);
    free(text);
    return ok;
}
