/* ptxopt — the optimizer's command-line driver.
 * For each input: parse, run the pipeline, print losslessly (or
 * canonically) via opt/run.h, and write the result atomically. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "codegen/outfile.h"
#include "codegen/print.h"
#include "tools/ptxopt/batch.h"
#include "support/cleanup.h"
#include "tools/common/fileio.h"
#include "tools/ptxopt/options.h"
#include "tools/ptxopt/sass_report.h"
#include "opt/pass.h"
#include "opt/run.h"
#include "analysis/dump.h"
#include "analysis/llvm_mirror.h"
#include "ir/fatal.h"
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

/* --sass-report: where its lines and JSON go, for all the inputs. */
typedef struct SassSink {
    SassTools tools;
    FILE *text;             /* standard error, or a memory stream for FILE */
    char *text_buf;
    size_t text_len;
    FILE *json;             /* the "sass" array of --report */
    char *json_buf;
    size_t json_len;
    int njson;
} SassSink;

static int sass_one(const Options *o, SassSink *sk, const char *in, const OutBuf *orig, const OutBuf *res)
{
    SassReport r;
    const char *name = strcmp(in, "-") == 0 ? "<stdin>" : in;
    sass_report_file(&sk->tools, name, orig->p ? orig->p : "", orig->len, res->p ? res->p : "", res->len, o->target, &r);
    if (r.status) fputs(r.text, stderr);
    if (!r.status || sk->text != stderr) fputs(r.text, sk->text);
    fprintf(sk->json, "%s{\"input\":", sk->njson++ ? ",\n" : "");
    json_string(sk->json, name);
    fprintf(sk->json, ",\"sass\":%s}", r.json);
    int rc = r.status == 1 ? EXIT_BAD_INPUT : r.status ? EXIT_INTERNAL : EXIT_OK;
    sass_report_free(&r);
    return rc;
}

static int process(const Options *o, const Pipeline *pl, const char *in, const char *out, Remarks *rem, SassSink *sk)
{
    OutFile of;
    if (!outfile_open(&of, out)) return EXIT_BAD_INPUT;
    /* with --sass-report the result is kept in memory to be assembled */
    OutBuf ob, orig, mem;
    out_init_fd(&ob, of.fd);
    out_init(&orig);
    out_init(&mem);
    RunOptions ro = { .pipeline = pl, .remarks = rem, .target = o->target, .target_sm = o->target_sm,
                      .canonical = o->canonical, .keep_input = sk ? &orig : NULL };
    RunStats st;
    int rc = run_file(in, sk ? &mem : &ob, &ro, &st);
    if (rc == RUN_OK && sk) out_write(&ob, mem.p ? mem.p : "", mem.len);
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
    rc = rc == RUN_PASS_FAILED ? EXIT_INTERNAL : rc;
    if (rc == EXIT_OK && sk) rc = sass_one(o, sk, in, &orig, &mem);
    out_free(&orig);
    out_free(&mem);
    return rc;
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
    SassSink sink, *sk = NULL;
    if (o.sass) {
        memset(&sink, 0, sizeof sink);
        if (!sass_tools_find(&sink.tools, err, sizeof err)) {
            fprintf(stderr, "ptxopt: --sass-report: %s\n", err);
            pipeline_free(&pl);
            return EXIT_USAGE;
        }
        sk = &sink;
        cleanup_install();   /* a signal takes ptxas/nvdisasm and the scratch directory with it */
    }
    if (o.batch) {
        int r = batch_main(&o, &pl, sk ? &sink.tools : NULL);
        if (sk) sass_tools_free(&sink.tools);
        pipeline_free(&pl);
        return r;
    }
    if (sk) {
        sink.text = o.sass_file ? open_memstream(&sink.text_buf, &sink.text_len) : stderr;
        sink.json = open_memstream(&sink.json_buf, &sink.json_len);
        if (!sink.text || !sink.json) fatal_oom();
    }
    Remarks rem;
    remarks_init(&rem);
    int worst = EXIT_OK;
    for (int i = 0; i < o.ninputs; i++) {
        int r = (o.dump || o.verify_ir) ? analyze(&o, &pl, o.inputs[i], &rem)
                                         : process(&o, &pl, o.inputs[i], o.output ? o.output : "-", &rem, sk);
        if (r > worst) worst = r;
    }
    if (sk) {
        if (o.sass_file) {
            fclose(sink.text);
            if (!write_file_atomic(o.sass_file, sink.text_buf ? sink.text_buf : "", sink.text_len) && worst < EXIT_BAD_INPUT)
                worst = EXIT_BAD_INPUT;
            free(sink.text_buf);
        }
        fclose(sink.json);
        sass_tools_free(&sink.tools);
    }
    if (o.report) {
        FILE *f = fopen(o.report, "w");
        if (!f) {
            fprintf(stderr, "ptxopt: cannot write %s\n", o.report);
            if (worst < EXIT_BAD_INPUT) worst = EXIT_BAD_INPUT;
        } else {
            fputs("{\"remarks\":", f);
            remarks_json(&rem, f);
            if (sk) fprintf(f, ",\n\"sass\":[%s]", sink.json_buf ? sink.json_buf : "");
            fputs("}\n", f);
            fclose(f);
        }
    }
    if (sk) free(sink.json_buf);
    remarks_free(&rem);
    pipeline_free(&pl);
    return worst;
}
