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
#include "ir/analysis.h"
#include "parser/parse.h"

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

/* --dump / --verify-ir: the whole module after the passes, analysed. */
static int analyze(const Options *o, const Pipeline *pl, const char *in, Remarks *rem)
{
    Module *m = parse_file(in, stderr);
    if (!m) return EXIT_BAD_INPUT;
    if (o->target) ir_set_target(m, o->target, o->target_sm);
    PassContext ctx = { .target_sm = m->target_sm, .remarks = rem };
    int rc = EXIT_OK;
    if (pipeline_run(pl, m, &ctx) != 0) {
        fprintf(stderr, "ptxopt: %s: a pass failed\n", in);
        rc = EXIT_INTERNAL;
    }
    if (rc == EXIT_OK && o->verify_ir) {
        int bad = analysis_verify_llvm(m, stderr);
        if (bad < 0) {
            fprintf(stderr, "ptxopt: --verify-ir needs LLVM (this ptxopt was configured --without-llvm)\n");
            rc = EXIT_USAGE;
        } else if (bad > 0) {
            fprintf(stderr, "ptxopt: internal error: %s: %d disagreement(s) with LLVM's verifier\n", in, bad);
            rc = EXIT_INTERNAL;
        }
    }
    if (rc == EXIT_OK && o->dump) {
        int r = analysis_dump(m, o->dump, o->kernel, o->dump_format ? o->dump_format : "text", stdout);
        if (r) rc = r;
    }
    ir_module_free(m);
    return rc;
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
        int r = (o.dump || o.verify_ir) ? analyze(&o, &pl, o.inputs[i], &rem)
                                         : process(&o, &pl, o.inputs[i], o.output ? o.output : "-", &rem);
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
