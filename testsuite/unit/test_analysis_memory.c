/* test_analysis_memory.c — the analyses' memory is released per function
 * (analysis/cache.c, analysis_release).
 *
 * Issue 21: every function's analyses stayed in the module arena until the
 * module was freed, so a whole-module pass over thousands of kernels held
 * all of them (bypass: 28.6x a 200 MiB input).  Checked here:
 *
 *   reuse         asking every analysis of 200 kernels one after another,
 *                 releasing each, takes no more memory than the first two
 *                 kernels did; invalidating instead (the old behaviour) takes
 *                 far more, so the check can fail;
 *   interleaved   the analyses of A, then of B, then a term made late in A's
 *                 table (as a pass's proof makes them): releasing B keeps A's
 *                 results and that term intact (each table allocates where
 *                 its own function's analyses are), releasing A while B is
 *                 live keeps B's;
 *   streaming     the parser releases a streamed function's analyses with
 *                 its statements, and freeing a module frees them all
 *                 (LeakSanitizer in CI).
 * Exits 1 on any failure. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/cfg.h"
#include "analysis/liveness.h"
#include "analysis/memory.h"
#include "analysis/uniform.h"
#include "analysis/value_terms.h"
#include "parser/parse.h"

#include "testsuite/unit/check.h"

/* A kernel with loads, a loop and a branch: every analysis has work. */
static const char *const kernel =
    ".visible .entry k%d(.param .u64 a, .param .u32 n)\n"
    "{\n"
    "\t.reg .pred %%p<3>;\n\t.reg .b32 %%r<12>;\n\t.reg .f32 %%f<8>;\n\t.reg .b64 %%rd<12>;\n"
    "\tld.param.u64 %%rd1, [a];\n\tld.param.u32 %%r1, [n];\n\tcvta.to.global.u64 %%rd2, %%rd1;\n"
    "\tmov.u32 %%r2, %%tid.x;\n\tmov.u32 %%r3, %%ctaid.x;\n\tmov.u32 %%r4, %%ntid.x;\n\tmad.lo.s32 %%r5, %%r3, %%r4, %%r2;\n"
    "\tsetp.ge.s32 %%p1, %%r5, %%r1;\n\t@%%p1 bra $L_end;\n\tmov.u32 %%r6, 0;\n\tmov.f32 %%f1, 0f00000000;\n"
    "$L_loop:\n\tadd.s32 %%r7, %%r5, %%r6;\n\tmul.wide.s32 %%rd3, %%r7, 4;\n\tadd.s64 %%rd4, %%rd2, %%rd3;\n"
    "\tld.global.f32 %%f2, [%%rd4];\n\tld.global.f32 %%f3, [%%rd4+4];\n\tadd.f32 %%f4, %%f2, %%f3;\n\tadd.f32 %%f1, %%f1, %%f4;\n"
    "\tadd.s32 %%r6, %%r6, 1;\n\tsetp.lt.s32 %%p2, %%r6, 8;\n\t@%%p2 bra $L_loop;\n"
    "\tmul.wide.s32 %%rd5, %%r5, 4;\n\tadd.s64 %%rd6, %%rd2, %%rd5;\n\tst.global.f32 [%%rd6], %%f1;\n"
    "$L_end:\n\tret;\n}\n";

static char *module_text(int nk, size_t *len)
{
    size_t cap = 64 + (size_t)nk * 1200, n = 0;
    char *buf = malloc(cap);
    n += (size_t)snprintf(buf + n, cap - n, ".version 8.0\n.target sm_80\n.address_size 64\n\n");
    for (int i = 0; i < nk; i++) n += (size_t)snprintf(buf + n, cap - n, kernel, i);
    *len = n;
    return buf;   /* parse_module needs len + 2 bytes: cap has them */
}

static void ask_everything(Function *fn)
{
    const MemInfo *mi = memory_get(fn);
    const ValueTerms *vt = vterms_get(fn);
    uniform_get(fn);
    liveness_get(fn);
    for (uint32_t i = 0; i < mi->nacc; i++)
        if (mi->acc[i].addr) (void)term_mentions(mi->acc[i].addr, vterms_special(fn, "%tid", 'x'));
    (void)vt;
}

static void reuse(void)
{
    enum { NK = 200 };
    size_t len;
    char *buf = module_text(NK, &len);
    Module *m = parse_module("mem.ptx", buf, len, stderr);
    CHECK(m && m->nfuncs == NK, "the module parses into %d kernels", NK);
    if (!m) return;
    size_t after2 = 0;
    for (uint32_t i = 0; i < m->nfuncs; i++) {
        ask_everything(m->funcs[i]);
        analysis_release(m->funcs[i]);
        if (i == 1) after2 = analysis_memory(m);
    }
    size_t after_all = analysis_memory(m);
    CHECK(after2 > 0 && after_all == after2, "released per kernel: %zu bytes after 2 kernels, %zu after %d", after2, after_all,
          NK);
    /* the old way: invalidated, never released */
    for (uint32_t i = 0; i < m->nfuncs; i++) {
        ask_everything(m->funcs[i]);
        analysis_invalidate(m->funcs[i]);
    }
    size_t kept = analysis_memory(m);
    CHECK(kept > 20 * after2, "invalidated only, the analyses of all %d kernels stay: %zu bytes (vs %zu)", NK, kept, after2);
    analysis_release_all(m);
    for (uint32_t i = 0; i < m->nfuncs; i++) ask_everything(m->funcs[i]), analysis_release(m->funcs[i]);
    CHECK(analysis_memory(m) == kept, "released memory is reused, not taken again: %zu vs %zu", analysis_memory(m), kept);
    printf("reuse: %zu bytes of analyses for %d kernels one at a time; %zu when kept\n", after_all, NK, kept);
    ir_module_free(m);
}

static void interleaved(void)
{
    size_t len;
    char *buf = module_text(2, &len);
    Module *m = parse_module("mem2.ptx", buf, len, stderr);
    if (!m) return;
    Function *A = m->funcs[0], *B = m->funcs[1];
    ask_everything(A);
    const Cfg *ca = cfg_get(A);
    uint32_t na = ca->n, nia = ca->ninstr;
    ask_everything(B);
    const Cfg *cb = cfg_get(B);
    uint32_t nb = cb->n;
    /* a term made in A's table after B's analyses exist */
    TermTable *tt = vterms_get(A)->tt;
    const Term *late = term_add(tt, term_var(tt, 32, "late_in_A"), term_const(tt, 32, 7));
    analysis_release(B);
    CHECK(late->width == 32 && late->op == T_ADD && late->k == 7 && late->n == 1 && late->args[0]->width == 32,
          "A's late term survives B's release (width %u, op %u, k %llu)", late->width, late->op, (unsigned long long)late->k);
    CHECK(ca->n == na && ca->ninstr == nia, "A's CFG survives B's release");
    /* the other order: A released while B's analyses are above it */
    ask_everything(B);
    cb = cfg_get(B);
    nb = cb->n;
    analysis_release(A);
    CHECK(cb->n == nb && cb->blocks[0]->fn == B, "B's CFG survives A's release");
    size_t before = analysis_memory(m);
    analysis_release(B);
    CHECK(analysis_memory(m) == before, "release keeps the memory for reuse");
    ask_everything(A);
    CHECK(cfg_get(A)->n == na, "A asked again after its release: a fresh CFG");
    ir_module_free(m);
}

typedef struct StreamSeen {
    int funcs;
    size_t peak;
} StreamSeen;

static bool on_item(void *ud, Module *m, Stmt *item)
{
    StreamSeen *s = ud;
    if (item->kind != STMT_FUNC) return true;
    ask_everything(item->u.fn);   /* not released here: the parser does it */
    s->funcs++;
    if (analysis_memory(m) > s->peak) s->peak = analysis_memory(m);
    return true;
}

static void streaming(void)
{
    enum { NK = 100 };
    size_t len;
    char *buf = module_text(NK, &len);
    StreamSeen s = { 0 };
    Module *m = parse_module_stream("mem3.ptx", buf, len, stderr, on_item, &s);
    CHECK(m && s.funcs == NK, "streamed %d kernels", s.funcs);
    size_t one;
    {
        size_t l1;
        char *b1 = module_text(1, &l1);
        Module *m1 = parse_module("one.ptx", b1, l1, stderr);
        ask_everything(m1->funcs[0]);
        one = analysis_memory(m1);
        ir_module_free(m1);
    }
    CHECK(s.peak <= 2 * one, "streaming holds one kernel's analyses: peak %zu bytes, one kernel %zu", s.peak, one);
    ir_module_free(m);
}

int main(void)
{
    reuse();
    interleaved();
    streaming();
    printf("%d checks, %d failures\n", checks, failures);
    return failures ? 1 : 0;
}
