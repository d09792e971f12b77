/* run.c — parse, optimize and print one file (see run.h). */
#include "opt/run.h"

#include <stdio.h>
#include <string.h>

#include "support/clock.h"
#include "parser/parse.h"

static void count(RunStats *st, const Function *fn)
{
    st->functions++;
    st->blocks += fn->nblocks;
    FOR_EACH_BLOCK(b, fn)
        FOR_EACH_STMT(s, b) st->instructions += s->kind == STMT_INSTR;
}

typedef struct Stream {
    OutBuf *out;
    const RunOptions *opt;
    RunStats *st;
    int rc;
} Stream;

static bool optimize_and_print(Stream *sm, Module *m, Stmt *item)
{
    const RunOptions *opt = sm->opt;
    if (item->kind == STMT_DIRECTIVE && item->dirkind == DIR_TARGET && opt->target)
        ir_set_target(m, opt->target, opt->target_sm);
    if (item->kind == STMT_FUNC) {
        count(sm->st, item->u.fn);
        if (opt->pipeline && opt->pipeline->n) {
            double t0 = now_ms();
            PassContext ctx = { .target_sm = m->target_sm, .remarks = opt->remarks };
            if (pipeline_run(opt->pipeline, m, &ctx) != 0) {
                sm->rc = RUN_PASS_FAILED;
                return false;
            }
            sm->st->pass_ms += now_ms() - t0;
        }
    }
    double t1 = now_ms();
    print_item(sm->out, m, item, opt->canonical);
    sm->st->print_ms += now_ms() - t1;
    if (m->arena.total > sm->st->ir_bytes) sm->st->ir_bytes = m->arena.total;
    return !sm->out->failed;
}

static bool on_item(void *ud, Module *m, Stmt *item) { return optimize_and_print(ud, m, item); }

int run_file(const char *in, OutBuf *out, const RunOptions *opt, RunStats *st)
{
    memset(st, 0, sizeof *st);
    size_t len;
    char *buf = read_file(in, &len, stderr);
    if (!buf) return RUN_BAD_INPUT;
    if (opt->keep_input) out_write(opt->keep_input, buf, len);
    st->bytes = len;
    const char *name = strcmp(in, "-") == 0 ? "<stdin>" : in;
    Stream sm = { out, opt, st, RUN_OK };
    double t0 = now_ms();
    Module *m;
    if (!opt->no_stream && (!opt->pipeline || pipeline_streamable(opt->pipeline, parse_peek_version(buf, len)))) {
        st->streamed = true;
        m = parse_module_stream(name, buf, len, stderr, on_item, &sm);
        if (m) print_module_tail(out, m, opt->canonical);
    } else {
        m = parse_module(name, buf, len, stderr);
        double t1 = now_ms();
        if (m) {
            if (opt->target) ir_set_target(m, opt->target, opt->target_sm);
            for (Stmt *s = m->first; s; s = s->next)
                if (s->kind == STMT_FUNC) count(st, s->u.fn);
            if (opt->pipeline && opt->pipeline->n) {
                PassContext ctx = { .target_sm = m->target_sm, .remarks = opt->remarks };
                if (pipeline_run(opt->pipeline, m, &ctx) != 0) sm.rc = RUN_PASS_FAILED;
            }
            double t2 = now_ms();
            st->pass_ms = t2 - t1;
            if (sm.rc == RUN_OK) print_module(out, m, opt->canonical);
            st->print_ms = now_ms() - t2;
            st->ir_bytes = m->arena.total;
        }
    }
    double total = now_ms() - t0;
    st->parse_ms = total - st->pass_ms - st->print_ms;
    if (!m) return sm.rc != RUN_OK ? sm.rc : RUN_BAD_INPUT;
    ir_module_free(m);
    return sm.rc;
}
