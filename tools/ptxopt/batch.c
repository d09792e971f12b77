/* batch.c — see batch.h. */
#include "tools/ptxopt/batch.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tools/ptxopt/batch_inputs.h"
#include "support/cleanup.h"
#include "tools/common/fileio.h"
#include "tools/common/optimize.h"
#include "tools/common/progress.h"
#include "tools/common/record.h"
#include "tools/common/report.h"
#include "tools/ptxopt/sass_report.h"
#include "tools/common/worker.h"
#include "ir/fatal.h"
#include "parser/parse.h"

typedef struct BatchJob {
    const Options *o;
    const OptimizeConfig *cfg;
    const BatchInput *in;
    const SassTools *tools;     /* --sass-report, or NULL */
} BatchJob;

/* In the worker: optimize one file, write its output, report a record. */
static int batch_work(void *arg, FILE *out)
{
    const BatchJob *job = arg;
    const BatchInput *in = job->in;
    if (in->error) {
        record_write_error(out, EXIT_BAD_INPUT, in->error);
        return EXIT_BAD_INPUT;
    }
    char *dtext = NULL;
    size_t dlen = 0, len;
    FILE *dmem = open_memstream(&dtext, &dlen);
    if (!dmem) fatal_oom();
    char *buf = read_file(in->path, &len, dmem);
    fclose(dmem);
    if (!buf) {
        dtext[strcspn(dtext, "\n")] = 0;
        record_write_error(out, EXIT_BAD_INPUT, dtext);
        free(dtext);
        return EXIT_BAD_INPUT;
    }
    free(dtext);
    char *orig = NULL;
    if (job->tools) {
        cleanup_install();   /* in this worker: a signal ends its ptxas/nvdisasm and removes their directory */
        if (!(orig = malloc(len + 1))) fatal_oom();
        memcpy(orig, buf, len);
    }
    OptimizeResult r;
    /* full diagnostics are shown with --remarks; the failure list has their first line */
    int rc = optimize_text(in->path, buf, len, job->cfg, job->o->remarks ? stderr : NULL, &r);
    if (job->o->remarks) remarks_print(&r.remarks, stderr, in->path);
    bool written = false;
    if (rc == EXIT_OK && (!job->o->in_place || r.changed)) {
        /* a signal (sent on by the parent, support/cleanup.h) waits until the
         * output is renamed into place: no OUTPUT.ptxopt-XXXXXX is left */
        sigset_t old;
        cleanup_hold(&old);
        if (!make_parent_dirs(in->output) || !write_file_atomic(in->output, r.out.p ? r.out.p : "", r.out.len)) {
            r.status = rc = EXIT_BAD_INPUT;
            snprintf(r.error, sizeof r.error, "cannot write %s", in->output);
        } else {
            written = true;
        }
        cleanup_release(&old);
    }
    if (rc == EXIT_OK && job->tools) {
        SassReport sr;
        sass_report_file(job->tools, in->path, orig, len, r.out.p ? r.out.p : "", r.out.len, job->o->target, &sr);
        record_write_sass(out, sr.status, sr.text, sr.json);
        sass_report_free(&sr);
    }
    free(orig);
    record_write(out, &r, written);
    optimize_result_free(&r);
    return rc;
}

static int online_cpus(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > 64 ? 64 : (int)n;
}

/* The first non-empty line of a worker's stderr, for a failure without a record. */
static void first_diag_line(const OutBuf *d, char *buf, size_t n)
{
    buf[0] = 0;
    const char *p = d->p, *end = d->p + d->len;
    while (p && p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t len = (size_t)((nl ? nl : end) - p);
        if (len) {
            snprintf(buf, n, "%.*s", (int)len, p);
            return;
        }
        p = nl ? nl + 1 : end;
    }
}

/* Turns what a finished worker left into the file's result. */
static void collect(BatchResult *res, const BatchInput *in, const Worker *w, double timeout)
{
    record_parse(w->result.p ? w->result.p : "", w->result.len, &res->rec);
    res->input = in->path;
    FileRecord *rec = &res->rec;
    if (rec->complete && rec->status == 0) {
        res->state = rec->changed ? "changed" : "unchanged";
        res->output = rec->written ? in->output : NULL;
        return;
    }
    res->state = "failed";
    if (rec->complete) {
        /* a pass says why on stderr: add its first line to "pass 'x' failed" */
        char diag[256], msg[1024];
        first_diag_line(&w->diag, diag, sizeof diag);
        res->exit_status = rec->status;
        bool add = rec->status == EXIT_INTERNAL && diag[0];
        snprintf(msg, sizeof msg, "%s%s%s", rec->error ? rec->error : "failed", add ? ": " : "", add ? diag : "");
        res->error = strdup(msg);
    } else {
        char how[128], diag[256], msg[512];
        worker_describe(w, how, sizeof how);
        first_diag_line(&w->diag, diag, sizeof diag);
        if (w->timed_out) snprintf(msg, sizeof msg, "the optimizer took longer than %g s; gave up", timeout);
        else snprintf(msg, sizeof msg, "the optimizer died (%s)%s%s", how, diag[0] ? ": " : "", diag);
        res->exit_status = EXIT_INTERNAL;
        res->error = strdup(msg);
    }
    if (!res->error) fatal_oom();
}

/* --sass-report's lines, in input order: to its FILE (atomically) or to
 * standard error; the failures always to standard error too. */
static bool sass_lines(const Options *o, const BatchResult *r, int n)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = o->sass_file ? open_memstream(&text, &len) : stderr;
    if (!f) fatal_oom();
    for (int i = 0; i < n; i++) {
        const char *t = r[i].rec.sass_text;
        if (!t) continue;
        if (r[i].rec.sass_status) fputs(t, stderr);
        if (!r[i].rec.sass_status || f != stderr) fputs(t, f);
    }
    if (!o->sass_file) return true;
    fclose(f);
    bool ok = write_file_atomic(o->sass_file, text ? text : "", len);
    free(text);
    return ok;
}

int batch_main(const Options *o, const Pipeline *pl, const SassTools *tools)
{
    BatchInputs inputs;
    cleanup_install();   /* a signal that ends the batch ends its workers too */
    for (int i = 0; i < o->ninputs; i++) {
        if (strcmp(o->inputs[i], "-") == 0) {
            fprintf(stderr, "ptxopt: standard input cannot be used in batch mode\n");
            return EXIT_USAGE;
        }
    }
    if (!batch_inputs_collect(&inputs, o->inputs, o->ninputs, o->output_dir)) {
        batch_inputs_free(&inputs);
        return EXIT_USAGE;
    }
    char err[512];
    OptimizeConfig cfg = { .pipeline = pl, .target = o->target, .target_sm = o->target_sm,
                           .canonical = o->canonical };
    if (!fault_parse(getenv("PTXOPT_FAULT"), &cfg.fault, err, sizeof err)) {
        fprintf(stderr, "ptxopt: PTXOPT_FAULT: %s\n", err);
        batch_inputs_free(&inputs);
        return EXIT_USAGE;
    }
    int jobs = o->jobs ? o->jobs : online_cpus();
    if (jobs > inputs.n && inputs.n > 0) jobs = inputs.n;
    size_t total_bytes = 0;
    for (int i = 0; i < inputs.n; i++) total_bytes += inputs.v[i].bytes;

    BatchResult *results = calloc((size_t)(inputs.n ? inputs.n : 1), sizeof *results);
    Worker *slots = calloc((size_t)jobs, sizeof *slots);
    BatchJob *jobv = calloc((size_t)(inputs.n ? inputs.n : 1), sizeof *jobv);
    if (!results || !slots || !jobv) fatal_oom();
    Progress prog;
    progress_start(&prog, stderr, inputs.n, total_bytes, o->quiet);
    double t0 = now_ms();
    int next = 0, running = 0;
    while (next < inputs.n || running) {
        for (int s = 0; s < jobs && next < inputs.n; s++) {
            if (slots[s].running) continue;
            jobv[next] = (BatchJob){ .o = o, .cfg = &cfg, .in = &inputs.v[next], .tools = tools };
            if (!worker_start(&slots[s], batch_work, &jobv[next], o->timeout)) {
                /* cannot fork: this file fails, the others may still get a worker */
                results[next] = (BatchResult){ .input = inputs.v[next].path, .state = "failed",
                                               .exit_status = EXIT_INTERNAL, .error = strdup("cannot start a worker") };
                record_parse("", 0, &results[next].rec);
                progress_file(&prog, inputs.v[next].path, "FAILED", results[next].error, inputs.v[next].bytes);
                next++;
                continue;
            }
            slots[s].id = next++;
            running++;
        }
        if (!running) continue;
        int s = worker_wait_any(slots, jobs);
        if (s < 0) break;
        running--;
        int id = slots[s].id;
        collect(&results[id], &inputs.v[id], &slots[s], o->timeout);
        if (o->remarks && slots[s].diag.len) progress_message(&prog, slots[s].diag.p, slots[s].diag.len);
        worker_free(&slots[s]);
        const char *st = results[id].state;
        progress_file(&prog, inputs.v[id].path, strcmp(st, "failed") == 0 ? "FAILED" : st, results[id].error,
                      inputs.v[id].bytes);
    }
    progress_finish(&prog);

    BatchSummary sum = { .pipeline = o->passes, .pl = pl, .output_dir = o->output_dir, .jobs = jobs,
                         .files = inputs.n, .bytes = total_bytes, .seconds = (now_ms() - t0) / 1e3 };
    int worst = EXIT_OK;
    for (int i = 0; i < inputs.n; i++) {
        const char *st = results[i].state;
        if (strcmp(st, "failed") == 0) {
            sum.failed++;
            if (results[i].exit_status > worst) worst = results[i].exit_status;
        } else if (strcmp(st, "changed") == 0) sum.changed++;
        else sum.unchanged++;
    }
    if (tools && !sass_lines(o, results, inputs.n) && worst < EXIT_BAD_INPUT) worst = EXIT_BAD_INPUT;
    for (int i = 0; tools && i < inputs.n; i++) {
        int sst = results[i].rec.sass_status, e = sst == 1 ? EXIT_BAD_INPUT : sst ? EXIT_INTERNAL : EXIT_OK;
        if (e > worst) worst = e;
    }
    fflush(stderr);
    report_table(stdout, results, inputs.n, &sum);
    fflush(stdout);
    if (sum.failed) {
        fprintf(stderr, "ptxopt: %d of %d file%s failed:\n", sum.failed, inputs.n, inputs.n == 1 ? "" : "s");
        for (int i = 0; i < inputs.n; i++)
            if (strcmp(results[i].state, "failed") == 0)
                fprintf(stderr, "  %s: %s\n", results[i].input, results[i].error);
    }
    if (o->report && !report_write_json(o->report, results, inputs.n, &sum) && worst < EXIT_BAD_INPUT)
        worst = EXIT_BAD_INPUT;
    for (int i = 0; i < inputs.n; i++) {
        record_free(&results[i].rec);
        free(results[i].error);
    }
    free(results);
    free(slots);
    free(jobv);
    batch_inputs_free(&inputs);
    return worst;
}
