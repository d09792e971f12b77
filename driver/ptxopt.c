/* ptxopt.c — the optimizer's command-line driver.
 * For each input: parse, run the pipeline, print losslessly (or
 * canonically) via opt/run.h, and write the result atomically. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "codegen/outfile.h"
#include "codegen/print.h"
#include "driver/batch.h"
#include "driver/options.h"
#include "opt/pass.h"
#include "opt/run.h"

static void print_stats(const char *file, const RunStats *st)
{
    double mb = st->bytes / 1e6, pp = st->parse_ms + st->print_ms;
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    fprintf(stderr,
            "ptxopt: %s: %zu bytes, %u functions, %zu blocks, %zu instructions; "
            "parse %.2f ms, passes %.2f ms, print %.2f ms, parse+print %.0f MB/s; "
            "IR %zu KiB%s, peak RSS %ld KiB\n",
            file, st->bytes, st->functions, st->blocks, st->instructions, st->parse_ms, st->pass_ms,
            st->print_ms, pp > 0 ? mb / (pp / 1e3) : 0.0, st->ir_bytes / 1024,
            st->streamed ? " (streamed)" : "", ru.ru_maxrss);
}

static int process(const Options *o, const Pipeline *pl, const char *in, const char *out, Remarks *rem)
{
    OutFile of;
    if (!outfile_open(&of, out)) return EXIT_BAD_INPUT;
    OutBuf ob;
    out_init_fd(&ob, of.fd);
    RunOptions ro = { .pipeline = pl, .remarks = rem, .target = o->target, .target_sm = o->target_sm,
                      .canonical = o->canonical };
    RunStats st;
    int rc = run_file(in, &ob, &ro, &st);
    if (rc == RUN_OK && !out_flush(&ob)) {
        fprintf(stderr, "ptxopt: cannot write %s: %s\n", out, strerror(ob.err));
        rc = EXIT_BAD_INPUT;
    }
    out_free(&ob);
    if (rc == RUN_OK) {
        if (!outfile_commit(&of)) rc = EXIT_BAD_INPUT;
    } else {
        if (rc == RUN_PASS_FAILED) fprintf(stderr, "ptxopt: %s: a pass failed; no output written\n", in);
        outfile_abort(&of);
    }
    if (o->stats) print_stats(in, &st);
    if (o->remarks) remarks_print(rem, stderr, in);
    return rc == RUN_PASS_FAILED ? EXIT_INTERNAL : rc;
}

int main(int argc, char **argv)
{
    Options o;
    int rc = options_parse(argc, argv, &o);
    if (rc >= 0) return rc;
    Pipeline pl;
    char err[1024];
    if (!pipeline_parse(o.passes ? o.passes : "", &pl, err, sizeof err)) {
        fprintf(stderr, "ptxopt: %s\n", err);
        return EXIT_USAGE;
    }
    if (o.batch) {
        int r = batch_main(&o, &pl);
        pipeline_free(&pl);
        return r;
    }
    Remarks rem;
    remarks_init(&rem);
    int worst = EXIT_OK;
    for (int i = 0; i < o.ninputs; i++) {
        int r = process(&o, &pl, o.inputs[i], o.output ? o.output : "-", &rem);
        if (r > worst) worst = r;
    }
    if (o.report) {
        FILE *f = fopen(o.report, "w");
        if (!f) {
            fprintf(stderr, "ptxopt: cannot write %s\n", o.report);
            if (worst < EXIT_BAD_INPUT) worst = EXIT_BAD_INPUT;
        } else {
            fputs("{\"remarks\":", f);
            remarks_json(&rem, f);
            fputs("}\n", f);
            fclose(f);
        }
    }
    remarks_free(&rem);
    pipeline_free(&pl);
    return worst;
}
