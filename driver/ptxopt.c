/* ptxopt.c — the optimizer's command-line driver.
 * Reads each input, runs the pipeline, prints it losslessly (or
 * canonically) and writes the result atomically. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "codegen/print.h"
#include "driver/fileio.h"
#include "driver/options.h"
#include "opt/pass.h"
#include "parser/parse.h"

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void apply_target(Module *m, int sm, const char *name)
{
    m->target_sm = sm;
    for (Stmt *s = m->first; s; s = s->next) {
        if (s->kind != STMT_DIRECTIVE || s->dirkind != DIR_TARGET) continue;
        /* replace the sm_XX entry of the target list, keep the others */
        Str t = m->target;
        const char *p = t.p, *end = t.p + t.len;
        const char *sm_at = NULL;
        for (const char *q = p; q + 3 <= end; q++) if (memcmp(q, "sm_", 3) == 0) { sm_at = q; break; }
        char *text;
        if (sm_at) {
            const char *sm_end = sm_at;
            while (sm_end < end && *sm_end != ',' && *sm_end != ' ' && *sm_end != '\t') sm_end++;
            text = arena_printf(&m->arena, ".target %.*s%s%.*s", (int)(sm_at - p), p, name, (int)(end - sm_end), sm_end);
        } else {
            text = arena_printf(&m->arena, ".target %s", name);
        }
        s->u.dir.tok[0].text = str_c(text);
        s->dirty = true;
    }
}

static void print_stats(const char *file, const Module *m, double t_parse, double t_pass, double t_print)
{
    size_t nblocks = 0, ninstr = 0;
    for (uint32_t i = 0; i < m->nfuncs; i++) {
        Function *fn = m->funcs[i];
        nblocks += fn->nblocks;
        FOR_EACH_BLOCK(b, fn)
            FOR_EACH_STMT(s, b) ninstr += s->kind == STMT_INSTR;
    }
    double mb = m->len / 1e6;
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    fprintf(stderr,
            "ptxopt: %s: %zu bytes, %u functions, %zu blocks, %zu instructions; "
            "parse %.2f ms (%.0f MB/s), passes %.2f ms, print %.2f ms (%.0f MB/s), "
            "IR %zu KiB, peak RSS %ld KiB\n",
            file, m->len, m->nfuncs, nblocks, ninstr, t_parse, t_parse > 0 ? mb / (t_parse / 1e3) : 0.0,
            t_pass, t_print, t_print > 0 ? mb / (t_print / 1e3) : 0.0, m->arena.total / 1024, ru.ru_maxrss);
}

static int process(const Options *o, const Pipeline *pl, const char *in, const char *out, Remarks *rem)
{
    double t0 = now_ms();
    Module *m = parse_file(in, stderr);
    if (!m) return EXIT_BAD_INPUT;
    double t1 = now_ms();
    if (o->target) apply_target(m, o->target_sm, o->target);
    PassContext ctx = { .target_sm = m->target_sm, .remarks = rem };
    int rc = pipeline_run(pl, m, &ctx);
    if (rc) {
        fprintf(stderr, "ptxopt: %s: a pass failed; no output written\n", in);
        ir_module_free(m);
        return EXIT_INTERNAL;
    }
    double t2 = now_ms();
    OutBuf ob;
    out_init(&ob);
    print_module(&ob, m, o->canonical);
    double t3 = now_ms();
    bool ok = write_file_atomic(out, ob.p ? ob.p : "", ob.len);
    if (o->stats) print_stats(in, m, t1 - t0, t2 - t1, t3 - t2);
    if (o->remarks) remarks_print(rem, stderr, in);
    out_free(&ob);
    ir_module_free(m);
    return ok ? EXIT_OK : EXIT_BAD_INPUT;
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
