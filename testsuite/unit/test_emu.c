/* test_emu.c — the emulator's library interface (emu/emu.h) and its
 * control-flow facts (emu/postdom.c).
 *
 * Checks: --arg syntax (valid and invalid specs, struct layout); the
 * documented random generator (values fixed here, also reproduced by
 * testsuite/emu/emuref.py); reconvergence pcs and loop headers of a small
 * function; emu_run on tiny kernels under every policy (results, status
 * kinds, counters); emu_compare_buffers with and without tolerances.
 * Prints every failure; exits 1 if any. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/emu.h"
#include "emu/internal.h"
#include "parser/parse.h"

#include "testsuite/unit/check.h"

static Module *parse_text(const char *text)
{
    size_t n = strlen(text);
    char *buf = malloc(n + 2);
    memcpy(buf, text, n);
    return parse_module("test.ptx", buf, n, stderr);
}

static void test_args(void)
{
    EmuArg a;
    char err[200];
    CHECK(emu_arg_parse("i32:-5", &a, err, sizeof err) && a.kind == EMU_ARG_SCALAR && a.type == EMU_T_S32 &&
              a.bits == 0xfffffffbu, "i32:-5");
    emu_arg_free(&a);
    CHECK(emu_arg_parse("f32:0.5", &a, err, sizeof err) && a.bits == 0x3f000000u, "f32:0.5");
    emu_arg_free(&a);
    CHECK(emu_arg_parse("f32:0f3F800000", &a, err, sizeof err) && a.bits == 0x3f800000u, "f32 bits");
    emu_arg_free(&a);
    CHECK(emu_arg_parse("u64:0x10", &a, err, sizeof err) && a.bits == 16, "u64 hex");
    emu_arg_free(&a);
    CHECK(emu_arg_parse("buf:f32:100:random:7:-2:2", &a, err, sizeof err) && a.kind == EMU_ARG_BUFFER && a.count == 100 &&
              a.init == EMU_INIT_RANDOM && a.seed == 7 && a.has_range && a.lo == -2 && a.hi == 2,
          "buf random with range");
    emu_arg_free(&a);
    CHECK(emu_arg_parse("buf:u64:4:random:1:0:18446744073709551615", &a, err, sizeof err) && a.ilo == 0 &&
              a.ispan == 18446744073709551615ull,
          "64-bit integer range");
    emu_arg_free(&a);
    CHECK(emu_arg_parse("buf:i32:4:random:1:-10:-5", &a, err, sizeof err) && a.ilo == -10 && a.ispan == 5, "negative range");
    emu_arg_free(&a);
    CHECK(emu_arg_parse("buf:u8:10:fill=3", &a, err, sizeof err) && a.init == EMU_INIT_FILL && a.fill == 3, "fill");
    emu_arg_free(&a);
    CHECK(emu_arg_parse("bytes:0102ff", &a, err, sizeof err) && a.nbytes == 3 && a.bytes[2] == 0xff, "bytes");
    emu_arg_free(&a);
    /* struct { float; int; double; short; char; } -> offsets 0, 4, 8, 16, 18; size 24 */
    CHECK(emu_arg_parse("struct:f32:1,i32:2,f64:3,i16:4,i8:5", &a, err, sizeof err) && a.nbytes == 24 && a.bytes[16] == 4 &&
              a.bytes[18] == 5 && a.bytes[4] == 2,
          "struct layout");
    emu_arg_free(&a);
    CHECK(!emu_arg_parse("q32:1", &a, err, sizeof err), "unknown type rejected");
    emu_arg_free(&a);
    CHECK(!emu_arg_parse("buf:f32:10:sometimes", &a, err, sizeof err), "unknown initializer rejected");
    emu_arg_free(&a);
    CHECK(!emu_arg_parse("buf:f32:10:random:1:5:2", &a, err, sizeof err), "empty range rejected");
    emu_arg_free(&a);
    CHECK(!emu_arg_parse("i32:12abc", &a, err, sizeof err), "trailing garbage rejected");
    emu_arg_free(&a);
}

uint8_t *emu_arg_buffer_data(const EmuArg *a, char *err, size_t errlen);

static void test_rng(void)
{
    EmuArg a;
    char err[200];
    emu_arg_parse("buf:f32:4:random:7", &a, err, sizeof err);
    uint8_t *d = emu_arg_buffer_data(&a, err, sizeof err);
    float f[4];
    memcpy(f, d, 16);
    /* splitmix64(seed 7), the same values emuref.py computes */
    CHECK(f[0] == (float)-0.22034050524234772 && f[1] == (float)-0.9664233922958374 && f[2] == (float)0.801521360874176 &&
              f[3] == (float)0.1658605933189392,
          "random f32 seed 7: %.9g %.9g %.9g %.9g", f[0], f[1], f[2], f[3]);
    free(d);
    emu_arg_free(&a);
    emu_arg_parse("buf:i32:1000:random:3", &a, err, sizeof err);
    d = emu_arg_buffer_data(&a, err, sizeof err);
    int32_t *v = (int32_t *)d;
    int lo = 1000, hi = -1000;
    for (int i = 0; i < 1000; i++) { if (v[i] < lo) lo = v[i]; if (v[i] > hi) hi = v[i]; }
    CHECK(lo == -128 && hi == 127, "default signed range [-128, 128): %d..%d", lo, hi);
    free(d);
    emu_arg_free(&a);
}

static const char *const cfg_ptx =
    ".version 8.0\n.target sm_80\n.address_size 64\n"
    ".visible .entry k(.param .u32 n)\n{\n"
    "\t.reg .pred %p<4>;\n\t.reg .b32 %r<6>;\n"
    "\tld.param.u32 %r1, [n];\n"               /* pc 0 */
    "\tmov.u32 %r2, %tid.x;\n"                 /* 1 */
    "\tsetp.lt.u32 %p1, %r2, 16;\n"            /* 2 */
    "\t@%p1 bra THEN;\n"                       /* 3: if/else, rpc = JOIN (pc 8) */
    "\tadd.s32 %r3, %r2, 1;\n"                 /* 4 */
    "\tbra.uni JOIN;\n"                        /* 5 */
    "THEN:\n\tadd.s32 %r3, %r2, 2;\n"          /* 6 */
    "\tmov.u32 %r4, 0;\n"                      /* 7 */
    "JOIN:\n\tmov.u32 %r5, 0;\n"               /* 8 */
    "LOOP:\n\tadd.s32 %r5, %r5, 1;\n"          /* 9: loop header */
    "\tsetp.lt.u32 %p2, %r5, %r3;\n"           /* 10 */
    "\t@%p2 bra LOOP;\n"                       /* 11: rpc = 12 */
    "\t@%p1 bra END;\n"                        /* 12: rpc = END (pc 14) */
    "\tadd.s32 %r5, %r5, 1;\n"                 /* 13 */
    "END:\n\tret;\n"                           /* 14 */
    "}\n";

static void test_postdom(void)
{
    Module *m = parse_text(cfg_ptx);
    CHECK(m != NULL, "parse");
    if (!m) return;
    EmuProgram *p = emu_program_new(m, stderr);
    /* 15 instructions and the implicit return after the last one */
    CHECK(p && p->ncode == 16, "decoded 16 instructions (%u)", p ? p->ncode : 0);
    if (p && p->ncode == 16) {
        CHECK(p->code[15].op == EK_RET && !p->code[15].stmt, "implicit return at the end of the body");
        CHECK(p->code[3].rpc == 8, "if/else reconverges at JOIN: %u", p->code[3].rpc);
        CHECK(p->code[11].rpc == 12, "loop exit reconverges after the loop: %u", p->code[11].rpc);
        CHECK(p->code[12].rpc == 14, "if-then reconverges at END: %u", p->code[12].rpc);
        CHECK(p->code[9].loophead && !p->code[8].loophead && !p->code[0].loophead, "loop header");
        CHECK(p->code[5].rpc == NO_PC, "unconditional branches have no reconvergence point");
        CHECK(emu_program_list_unsupported(p, NULL) == 0, "nothing unsupported");
    }
    emu_program_free(p);
    ir_module_free(m);
}

static const char *const run_ptx =
    ".version 8.0\n.target sm_80\n.address_size 64\n"
    ".visible .entry scale(.param .u64 out, .param .u64 in, .param .f32 s, .param .u32 n)\n{\n"
    "\t.reg .pred %p<2>;\n\t.reg .b32 %r<6>;\n\t.reg .f32 %f<3>;\n\t.reg .b64 %rd<6>;\n"
    "\tld.param.u64 %rd1, [out];\n\tld.param.u64 %rd2, [in];\n\tld.param.f32 %f1, [s];\n\tld.param.u32 %r1, [n];\n"
    "\tmov.u32 %r2, %ctaid.x;\n\tmov.u32 %r3, %ntid.x;\n\tmov.u32 %r4, %tid.x;\n\tmad.lo.s32 %r5, %r2, %r3, %r4;\n"
    "\tsetp.ge.s32 %p1, %r5, %r1;\n\t@%p1 bra DONE;\n"
    "\tmul.wide.s32 %rd3, %r5, 4;\n\tadd.s64 %rd4, %rd2, %rd3;\n\tld.global.f32 %f2, [%rd4];\n"
    "\tmul.f32 %f2, %f2, %f1;\n\tadd.s64 %rd5, %rd1, %rd3;\n\tst.global.f32 [%rd5], %f2;\n"
    "DONE:\n\tret;\n}\n";

static void test_run(void)
{
    Module *m = parse_text(run_ptx);
    EmuProgram *p = emu_program_new(m, stderr);
    CHECK(p && emu_program_nkernels(p) == 1 && strcmp(emu_program_kernel(p, 0), "scale") == 0, "kernel list");
    EmuArg args[4];
    char err[200];
    emu_arg_parse("buf:f32:100:zeros", &args[0], err, sizeof err);
    emu_arg_parse("buf:f32:100:iota", &args[1], err, sizeof err);
    emu_arg_parse("f32:0.5", &args[2], err, sizeof err);
    emu_arg_parse("i32:90", &args[3], err, sizeof err);
    EmuResult ref;
    memset(&ref, 0, sizeof ref);
    for (int pol = 0; pol < 3; pol++) {
        EmuLaunch L;
        emu_launch_init(&L);
        L.grid[0] = 4;
        L.block[0] = 30;
        L.args = args;
        L.nargs = 4;
        L.policy = (EmuPolicy)pol;
        EmuResult r;
        EmuStatus st = emu_run(p, &L, &r);
        CHECK(st == EMU_OK, "run under %s: %s", emu_policy_name(L.policy), r.message ? r.message : "");
        if (st == EMU_OK) {
            const float *o = (const float *)r.bufs[0].data;
            bool ok = true;
            for (int i = 0; i < 100; i++) ok &= o[i] == (i < 90 ? 0.5f * (float)i : 0.0f);
            CHECK(ok, "results under %s", emu_policy_name(L.policy));
            CHECK(r.counters.gld_requests > 0 && r.counters.issued[EMU_CLS_FMA] > 0 && r.counters.thread_insts > 0, "counters");
            CHECK(r.kernel && strcmp(r.kernel, "scale") == 0, "kernel name in the result");
        }
        if (pol == 0) ref = r;
        else {
            CHECK(emu_compare_buffers(NULL, &ref, &r, args, NULL, NULL, 0, "a", "b") == 0, "policies agree");
            /* a one-ulp change is a difference, unless tolerated */
            ((uint32_t *)r.bufs[0].data)[7] += 1;
            CHECK(emu_compare_buffers(NULL, &ref, &r, args, NULL, NULL, 0, "a", "b") == 1, "one element differs");
            EmuTolerance tol = { .ulp = 1 };
            CHECK(emu_compare_buffers(NULL, &ref, &r, args, &tol, NULL, 0, "a", "b") == 0, "within 1 ulp");
            emu_result_free(&r);
        }
    }
    emu_result_free(&ref);
    /* setup errors */
    EmuLaunch L;
    emu_launch_init(&L);
    L.args = args;
    L.nargs = 3;
    EmuResult r;
    CHECK(emu_run(p, &L, &r) == EMU_ERR_SETUP && strstr(r.message, "takes 4 parameters"), "argument count");
    emu_result_free(&r);
    L.nargs = 4;
    L.kernel = "nope";
    CHECK(emu_run(p, &L, &r) == EMU_ERR_SETUP && strstr(r.message, "no kernel named"), "kernel name");
    emu_result_free(&r);
    L.kernel = NULL;
    L.block[0] = 2000;
    CHECK(emu_run(p, &L, &r) == EMU_ERR_SETUP, "block too large");
    emu_result_free(&r);
    /* an out-of-bounds run: n larger than the buffers */
    EmuArg big;
    emu_arg_parse("i32:101", &big, err, sizeof err);
    EmuArg save = args[3];
    args[3] = big;
    L.block[0] = 128;
    CHECK(emu_run(p, &L, &r) == EMU_ERR_CHECK && strcmp(r.kind, "OUT_OF_BOUNDS") == 0, "out of bounds: %s", r.kind ? r.kind : "ok");
    emu_result_free(&r);
    args[3] = save;
    emu_arg_free(&big);
    for (int i = 0; i < 4; i++) emu_arg_free(&args[i]);
    emu_program_free(p);
    ir_module_free(m);
}

int main(void)
{
    test_args();
    test_rng();
    test_postdom();
    test_run();
    printf("%d checks, %d failures\n", checks, failures);
    return failures != 0;
}
