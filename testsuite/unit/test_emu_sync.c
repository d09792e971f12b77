/* test_emu_sync.c — the emulator's lock and synchronisation support through
 * the library interface (emu/emu.h): mbarrier phases and states, the
 * contention counters (EmuResult.spin_sites), the --spin-limit LIVELOCK,
 * MBARRIER_INVALID/OVERFLOW, TRAP, the strict policy's SIMT deadlock of a
 * wait for another path of the same warp, and the bounded ITS fairness (a lock whose holder
 * is one lane of a spinning warp completes for many seeds).
 * Prints every failure; exits 1 if any. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/emu.h"
#include "parser/parse.h"

#include "testsuite/unit/check.h"

static Module *parse_text(const char *text)
{
    size_t n = strlen(text);
    char *buf = malloc(n + 2);
    memcpy(buf, text, n);
    return parse_module("sync.ptx", buf, n, stderr);
}

/* Kernel mb: thread 0 inits a 2-arrival barrier; lanes 0 and 1 arrive
 * (out[0], out[1] = pending_count of their states); lane 2 checks the
 * phase-0 parity before (out[2]) and after (out[3], by try_wait loop) the
 * arrivals; then expect_tx 8 + arrive by lane 0 and complete_tx 8 by lane 1
 * finish phase 1 (out[4] = test_wait.parity 1 result after). */
static const char *const mb_ptx =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry mb(.param .u64 out)\n{\n"
    "\t.shared .align 8 .b64 bar;\n\t.reg .pred %p<8>;\n\t.reg .b32 %r<8>;\n\t.reg .b64 %rd<8>;\n"
    "\tld.param.u64 %rd1, [out];\n\tmov.u32 %r1, %tid.x;\n"
    "\tsetp.ne.u32 %p1, %r1, 0;\n\t@%p1 bra S;\n\tmbarrier.init.shared::cta.b64 [bar], 2;\nS:\n\tbar.sync 0;\n"
    "\tsetp.eq.u32 %p2, %r1, 2;\n\t@%p2 bra WAITER;\n"
    "\tmbarrier.arrive.release.cta.shared::cta.b64 %rd2, [bar];\n\tmbarrier.pending_count.b64 %r2, %rd2;\n"
    "\tmul.wide.u32 %rd3, %r1, 4;\n\tadd.s64 %rd4, %rd1, %rd3;\n\tst.global.u32 [%rd4], %r2;\n\tbra PH1;\n"
    "WAITER:\n\tmbarrier.test_wait.parity.shared::cta.b64 %p3, [bar], 0;\n\tselp.u32 %r3, 1, 0, %p3;\n"
    "\tst.global.u32 [%rd1+8], %r3;\n"
    "W:\n\tmbarrier.try_wait.parity.acquire.cta.shared::cta.b64 %p4, [bar], 0, 1000;\n\t@!%p4 bra W;\n"
    "\tselp.u32 %r4, 1, 0, %p4;\n\tst.global.u32 [%rd1+12], %r4;\n"
    "PH1:\n\tbar.sync 0;\n"
    "\tsetp.eq.u32 %p5, %r1, 0;\n\t@!%p5 bra C;\n\tmbarrier.arrive.expect_tx.shared::cta.b64 %rd5, [bar], 8;\n"
    "\tmbarrier.arrive.shared::cta.b64 _, [bar];\n\tbra E;\n"
    "C:\n\tsetp.eq.u32 %p6, %r1, 1;\n\t@!%p6 bra E;\n\tmbarrier.complete_tx.shared::cta.b64 [bar], 8;\n"
    "E:\n\tbar.sync 0;\n\t@!%p2 bra DONE;\n\tmbarrier.test_wait.parity.shared::cta.b64 %p7, [bar], 1;\n"
    "\tselp.u32 %r5, 1, 0, %p7;\n\tst.global.u32 [%rd1+16], %r5;\nDONE:\n\tret;\n}\n";

/* Kernel lock: 64 threads; a naive CAS spin lock (critical section after
 * the loop) around a non-atomic increment of out[0]. */
static const char *const lock_ptx =
    ".version 8.0\n.target sm_80\n.address_size 64\n"
    ".visible .entry lock(.param .u64 out, .param .u64 m)\n{\n"
    "\t.reg .pred %p<2>;\n\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<3>;\n"
    "\tld.param.u64 %rd1, [out];\n\tld.param.u64 %rd2, [m];\n"
    "L:\n\tatom.acquire.gpu.global.cas.b32 %r1, [%rd2], 0, 1;\n\tsetp.ne.u32 %p1, %r1, 0;\n\t@%p1 bra L;\n"
    "\tld.global.u32 %r2, [%rd1];\n\tadd.u32 %r2, %r2, 1;\n\tst.global.u32 [%rd1], %r2;\n"
    "\tst.release.gpu.global.u32 [%rd2], 0;\n\tret;\n}\n";

static EmuStatus run(EmuProgram *p, EmuArg *args, int nargs, EmuPolicy pol, uint64_t seed, uint32_t block, uint64_t spin_limit,
                     EmuResult *r)
{
    EmuLaunch L;
    emu_launch_init(&L);
    L.block[0] = block;
    L.args = args;
    L.nargs = nargs;
    L.policy = pol;
    L.seed = seed;
    L.spin_limit = spin_limit;
    return emu_run(p, &L, r);
}

static void test_mbarrier(void)
{
    Module *m = parse_text(mb_ptx);
    EmuProgram *p = emu_program_new(m, stderr);
    EmuArg a;
    char err[200];
    emu_arg_parse("buf:u32:5:zeros", &a, err, sizeof err);
    for (int pol = 0; pol < 2; pol++)
        for (uint64_t seed = 1; seed <= (pol == 0 ? 6u : 1u); seed++) {
            EmuResult r;
            EmuStatus st = run(p, &a, 1, (EmuPolicy)pol, seed, 3, 0, &r);
            CHECK(st == EMU_OK, "mbarrier under %s seed %llu: %s", emu_policy_name((EmuPolicy)pol), (unsigned long long)seed,
                  r.message ? r.message : "");
            if (st == EMU_OK) {
                const uint32_t *o = (const uint32_t *)r.bufs[0].data;
                /* the two arrivals leave 1 and 0 pending, in either order */
                CHECK(o[0] + o[1] == 1 && (o[0] == 0 || o[1] == 0), "pending counts %u %u", o[0], o[1]);
                CHECK(o[3] == 1, "try_wait loop ends with the phase complete");
                CHECK(o[4] == 1, "expect_tx / complete_tx complete phase 1 (%u)", o[4]);
                bool found = false;
                for (int i = 0; i < r.nspin_sites; i++)
                    if (strcmp(r.spin_sites[i].kind, "mbarrier") == 0 && strstr(r.spin_sites[i].text, "try_wait")) {
                        found = true;
                        CHECK(r.spin_sites[i].acquires == 1, "one wait completes at the try_wait site (%llu)",
                              (unsigned long long)r.spin_sites[i].acquires);
                    }
                CHECK(found, "the try_wait loop is a contention site");
            }
            emu_result_free(&r);
        }
    /* lock-step: lane 2 spins in try_wait while lanes 0-1, which would
     * arrive, wait on the other path of the warp */
    EmuResult r;
    CHECK(run(p, &a, 1, EMU_POLICY_STRICT, 1, 3, 0, &r) == EMU_ERR_CHECK && strcmp(r.kind, "DEADLOCK") == 0 &&
              strstr(r.message, "wait to be scheduled on another path"),
          "strict: %s", r.message ? r.message : "ok");
    emu_result_free(&r);
    emu_arg_free(&a);
    emu_program_free(p);
    ir_module_free(m);
}

static void test_lock(void)
{
    Module *m = parse_text(lock_ptx);
    EmuProgram *p = emu_program_new(m, stderr);
    EmuArg a[2];
    char err[200];
    emu_arg_parse("buf:u32:1:zeros", &a[0], err, sizeof err);
    emu_arg_parse("buf:u32:1:zeros", &a[1], err, sizeof err);
    /* bounded fairness: the holder runs for every seed */
    for (uint64_t seed = 1; seed <= 20; seed++) {
        EmuResult r;
        EmuStatus st = run(p, a, 2, EMU_POLICY_ITS, seed, 64, 1000000, &r);
        CHECK(st == EMU_OK, "lock seed %llu: %s", (unsigned long long)seed, r.message ? r.message : "");
        if (st == EMU_OK) {
            CHECK(*(const uint32_t *)r.bufs[0].data == 64, "64 critical sections");
            CHECK(r.nspin_sites == 1 && strcmp(r.spin_sites[0].kind, "cas") == 0 && r.spin_sites[0].acquires == 64,
                  "one cas site with 64 acquires");
        }
        emu_result_free(&r);
    }
    EmuResult r;
    CHECK(run(p, a, 2, EMU_POLICY_STRICT, 1, 64, 0, &r) == EMU_ERR_CHECK && strcmp(r.kind, "DEADLOCK") == 0, "strict: SIMT deadlock");
    emu_result_free(&r);
    /* the lock starts taken: the spin-limit check reports LIVELOCK */
    emu_arg_free(&a[1]);
    emu_arg_parse("buf:u32:1:fill=1", &a[1], err, sizeof err);
    CHECK(run(p, a, 2, EMU_POLICY_ITS, 1, 64, 5000, &r) == EMU_ERR_CHECK && strcmp(r.kind, "LIVELOCK") == 0 &&
              strstr(r.message, "spinning on sync.ptx:12: atom.acquire.gpu.global.cas.b32"),
          "spin limit: %s", r.message ? r.message : "");
    emu_result_free(&r);
    emu_arg_free(&a[0]);
    emu_arg_free(&a[1]);
    emu_program_free(p);
    ir_module_free(m);
}

static void test_errors(void)
{
    static const char *const src =
        ".version 8.0\n.target sm_80\n.address_size 64\n"
        ".visible .entry inval()\n{\n\t.shared .align 8 .b64 b;\n\t.reg .b64 %rd<2>;\n"
        "\tmbarrier.init.shared.b64 [b], 1;\n\tmbarrier.inval.shared.b64 [b];\n\tmbarrier.arrive.shared.b64 %rd1, [b];\n\tret;\n}\n"
        ".visible .entry over()\n{\n\t.shared .align 8 .b64 b;\n\t.reg .b64 %rd<2>;\n"
        "\tmbarrier.init.shared.b64 [b], 1;\n\tmbarrier.arrive.shared.b64 %rd1, [b], 2;\n\tret;\n}\n"
        ".visible .entry trapper()\n{\n\t.reg .pred %p<2>;\n\t.reg .b32 %r<2>;\n\tmov.u32 %r1, %tid.x;\n"
        "\tsetp.eq.u32 %p1, %r1, 5;\n\t@%p1 trap;\n\tret;\n}\n";
    Module *m = parse_text(src);
    EmuProgram *p = emu_program_new(m, stderr);
    const char *kernels[3] = { "inval", "over", "trapper" };
    const char *kinds[3] = { "MBARRIER_INVALID", "MBARRIER_OVERFLOW", "TRAP" };
    for (int k = 0; k < 3; k++) {
        EmuLaunch L;
        emu_launch_init(&L);
        L.kernel = kernels[k];
        L.block[0] = k == 2 ? 8 : 1;
        EmuResult r;
        EmuStatus st = emu_run(p, &L, &r);
        CHECK(st == EMU_ERR_CHECK && r.kind && strcmp(r.kind, kinds[k]) == 0, "%s: %s", kernels[k], r.kind ? r.kind : "ok");
        if (k == 2) CHECK(r.message && strstr(r.message, "by thread (5,0,0) of CTA (0,0,0)"), "trap names the thread: %s", r.message);
        emu_result_free(&r);
    }
    emu_program_free(p);
    ir_module_free(m);
}

int main(void)
{
    test_mbarrier();
    test_lock();
    test_errors();
    printf("%d checks, %d failures\n", checks, failures);
    return failures != 0;
}
