/* test_costmodel.c — the GPUDIAG-style cost model (model/costmodel.h).
 *
 * Standalone: gcc -std=c17 -I. testsuite/unit/test_costmodel.c model/arch.c \
 *                 model/arch_data.c model/occupancy.c model/costmodel.c model/cost_data.c
 * Covers checklist C-01, C-02, C-04, C-05, C-12 of
 * research/seeds-000-004-controlflow-sched.md §6.4 and errata E11–E16:
 * the arithmetic of each expected value is in the comment above it.
 * Prints every failure; exits 1 if any. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "model/costmodel.h"

#include "testsuite/unit/check.h"

static bool near(double a, double b)
{
    return fabs(a - b) <= 1e-9 * (fabs(a) + fabs(b) + 1);
}

/* C-04: Fig. 3.2 of seed 004, and the errata of Eq. 3.5/3.6. */
static void test_fu(void)
{
    /* Two dependent units, t1 = 1, m1 = 1 and t2 = 3, m2 = inf: P1 = 1 + 3 = 4. */
    FuncUnit fig32[2] = { { 1, 1, 1 }, { 3, INFINITY, 1 } };
    double n[2] = { 1, 1 };
    int bot;
    /* c = 3: t1*c/m1 = 3 < 4 -> latency-bound, fu = 1 */
    CHECK(near(cost_fu(fig32, n, 2, 4, 3, &bot), 1.0) && bot == -1, "Fig 3.2 fu(3) = %g bot %d",
          cost_fu(fig32, n, 2, 4, 3, NULL), bot);
    /* c = 5: 5 > 4 -> fu = 5/4 = 1.25, unit 0 is the bottleneck; unit 1 (m = inf) never is */
    CHECK(near(cost_fu(fig32, n, 2, 4, 5, &bot), 1.25) && bot == 0, "Fig 3.2 fu(5) = %g bot %d",
          cost_fu(fig32, n, 2, 4, 5, NULL), bot);
    /* E15: fu(0) = 0, not max{1, ...} = 1 */
    CHECK(cost_fu(fig32, n, 2, 4, 0, &bot) == 0.0 && bot == -1, "fu(0) must be 0");
    /* Steps with s_u = 4: t = 4, P1 = 1 -> fu(c) = 4 * ceil(c/4): 4 for c = 1..4, 8 for 5..8 */
    FuncUnit stepped = { 4, 1, 4 };
    double one = 1;
    for (int c = 1; c <= 8; c++)
        CHECK(near(cost_fu(&stepped, &one, 1, 1, c, NULL), c <= 4 ? 4.0 : 8.0), "s_u=4 step at c=%d: %g", c,
              cost_fu(&stepped, &one, 1, 1, c, NULL));
    /* E13: the exposed time is t * ceil(c/s) / m: t = 8, m = 2 -> 4 (not 8*2 = 16) */
    FuncUnit pair = { 8, 2, 1 };
    CHECK(near(cost_fu(&pair, &one, 1, 1, 1, NULL), 4.0), "E13: t/m");
    /* E14: the bottleneck is the largest busy time with s_u, not argmax t/m.
     * A: t = 4, s = 4; B: t = 2, s = 1.  At c = 4: A 4*1 = 4, B 2*4 = 8 -> B,
     * although Eq. 3.5 (argmax t/m) would pick A. */
    FuncUnit ab[2] = { { 4, 1, 4 }, { 2, 1, 1 } };
    double nab[2] = { 1, 1 };
    CHECK(near(cost_fu(ab, nab, 2, 1, 4, &bot), 8.0) && bot == 1, "E14 bottleneck %d", bot);
    /* ... at c = 1: A 4, B 2 -> A */
    cost_fu(ab, nab, 2, 1, 1, &bot);
    CHECK(bot == 0, "E14 c=1 bottleneck %d", bot);
}

/* C-05: Eq. 3.2 with its tail. */
static void test_waves(void)
{
    double none = 0, one = 1;
    FuncUnit lin = { 1, 1, 1 };
    /* Latency-bound (no unit busy: fu = 1 for c > 0), g = 4 blocks, b = 1:
     * N = 3 -> 1 wave + tail of 1 -> fu(3) + fu(1) = 2; N = 4 -> fu(4) = 1. */
    CHECK(near(cost_wave_time(&lin, &none, 1, 1, 4, 3, 1), 2.0), "latency-bound g=4 N=3");
    CHECK(near(cost_wave_time(&lin, &none, 1, 1, 4, 4, 1), 1.0), "latency-bound g=4 N=4");
    /* Throughput-bound (fu(c) = c): N = 3 -> 3 + 1 = 4 = N = 4 -> 4 */
    CHECK(near(cost_wave_time(&lin, &one, 1, 1, 4, 3, 1), 4.0), "throughput-bound g=4 N=3");
    CHECK(near(cost_wave_time(&lin, &one, 1, 1, 4, 4, 1), 4.0), "throughput-bound g=4 N=4");
    /* E15: no tail -> (g/N) fu(bN) exactly: g = 6, N = 3, latency-bound: 2, not 3 */
    CHECK(near(cost_wave_time(&lin, &none, 1, 1, 6, 3, 2), 2.0), "no tail costs nothing");
    /* b warps per block: fu sees b*N warps; throughput-bound b = 2, N = 3, g = 7:
     * 2 waves of fu(6) = 6 plus tail fu(2) = 2 -> 14 */
    CHECK(near(cost_wave_time(&lin, &one, 1, 1, 7, 3, 2), 14.0), "b=2 g=7 N=3: %g",
          cost_wave_time(&lin, &one, 1, 1, 7, 3, 2));
    CHECK(cost_wave_time(&lin, &one, 1, 1, 0, 3, 2) == 0.0 && cost_wave_time(&lin, &one, 1, 1, 5, 0, 2) == 0.0,
          "empty inputs");
}

static const CostArch *carch(const char *name)
{
    const CostArch *ca = cost_arch_find(name);
    CHECK(ca != NULL, "no cost data for %s", name);
    return ca;
}

static void test_data(void)
{
    size_t n;
    const Arch *t = arch_table(&n);
    for (size_t i = 0; i < n; i++) {
        const CostArch *ca = cost_arch_find(t[i].name);
        CHECK(ca != NULL, "%s has no cost parameters", t[i].name);
        if (!ca)
            continue;
        CHECK(ca->num_sms > 0 && ca->part && *ca->part, "%s SM count", t[i].name);
        for (int u = 0; u < UNIT_COUNT; u++)
            CHECK(ca->unit[u].lanes_per_clock > 0 && ca->unit[u].groups > 0 && ca->unit[u].cite &&
                      *ca->unit[u].cite,
                  "%s unit %s incomplete", t[i].name, cost_unit_name(u));
    }
    CHECK(cost_arch_find("sm_90a") == cost_arch_find("sm_90") && cost_arch_find("sm_999") == NULL, "aliases");
    /* t/m per group = 32 * s / lanes: sm_80 FP32 64 lanes -> 2 cycles; sm_86 128 -> 1;
     * SFU 16 lanes -> 8; shared memory 32 lanes, one group -> 1 */
    FuncUnit u80[UNIT_COUNT], u86[UNIT_COUNT];
    cost_arch_units(carch("sm_80"), arch_find("sm_80"), u80);
    cost_arch_units(carch("sm_86"), arch_find("sm_86"), u86);
    CHECK(near(u80[UNIT_FP32].t, 2) && near(u86[UNIT_FP32].t, 1) && near(u86[UNIT_SFU].t, 8) &&
              near(u80[UNIT_SHARED].t, 1) && u80[UNIT_SHARED].s == 1 && u80[UNIT_FP32].s == 4,
          "derived unit times");
    CHECK(!strcmp(cost_unit_name(UNIT_LATENCY), "latency") && !strcmp(cost_unit_name(UNIT_SFU), "sfu"), "names");
}

static CostCandidate cand(const char *label, int block, int regs, long long grid)
{
    CostCandidate c = { 0 };
    c.label = label;
    c.launch = occ_input(block, regs);
    c.launch.grid_blocks = grid;
    return c;
}

/* The bottleneck moves with the instruction mix. */
static void test_bottleneck_switch(void)
{
    /* sm_80, B = 256, r = 32: 8 blocks = 64 warps = 16 per sub-partition.
     * Busy cycles per period: fp32 2F*16, sfu 8N*16, issue (F+N)*16.
     * F = 100, N = 10: 3200 vs 1280 vs 1760 -> fp32.  N = 30: 3200 vs 3840 -> sfu.
     * The switch is at 8N = 2F, i.e. F = 4N (sm_80's 64:16 lane ratio). */
    const CostArch *a80 = carch("sm_80"), *a86 = carch("sm_86");
    CostCandidate c = cand("mix", 256, 32, 0);
    c.p1_cycles = 50;
    c.mix[UNIT_FP32] = 100;
    c.mix[UNIT_SFU] = 10;
    CostResult r = cost_evaluate(a80, &c);
    CHECK(r.bottleneck == UNIT_FP32 && !strcmp(r.bottleneck_name, "fp32"), "sm_80 F=100 N=10: %s",
          r.bottleneck_name);
    /* steady state per block: fu = 3200/50 = 64 periods for 8 blocks -> 8 per block */
    CHECK(near(r.time_periods, 8.0) && near(r.time_cycles, 400.0), "sm_80 per-block time %g", r.time_periods);
    c.mix[UNIT_SFU] = 30;
    r = cost_evaluate(a80, &c);
    CHECK(r.bottleneck == UNIT_SFU, "sm_80 F=100 N=30: %s", r.bottleneck_name);
    c.mix[UNIT_SFU] = 25;          /* exactly F = 4N: a tie keeps the first unit (fp32) */
    r = cost_evaluate(a80, &c);
    CHECK(r.bottleneck == UNIT_FP32, "sm_80 tie F=4N: %s", r.bottleneck_name);
    /* sm_86 (FP32 at 128 lanes = the issue rate): fp32 F, sfu 8N, issue F+N
     * per warp-group.  F = 100, N = 10: issue 110 > sfu 80 > fp32 100 -> issue;
     * N = 20: sfu 160 > issue 120 -> sfu.  The switch is at F = 7N. */
    c.mix[UNIT_SFU] = 10;
    r = cost_evaluate(a86, &c);
    CHECK(r.bottleneck == UNIT_ISSUE, "sm_86 F=100 N=10: %s", r.bottleneck_name);
    c.mix[UNIT_SFU] = 20;
    r = cost_evaluate(a86, &c);
    CHECK(r.bottleneck == UNIT_SFU, "sm_86 F=100 N=20: %s", r.bottleneck_name);
    /* A long dependency chain hides everything: P1 = 100000 -> latency */
    c.p1_cycles = 100000;
    r = cost_evaluate(a86, &c);
    CHECK(r.bottleneck == UNIT_LATENCY && !strcmp(r.bottleneck_name, "latency"), "latency-bound: %s",
          r.bottleneck_name);
    /* Shared memory is one SM-wide group (s = 1, t = 1): 64 warps * 60
     * ld.shared = 3840 cycles > fp32 2 * 100 * 16 = 3200 -> shared */
    c.p1_cycles = 50;
    c.mix[UNIT_SFU] = 0;
    c.mix[UNIT_SHARED] = 60;
    r = cost_evaluate(a80, &c);
    CHECK(r.bottleneck == UNIT_SHARED, "shared-bound: %s", r.bottleneck_name);
}

/* C-12, C-01, C-02 and E11/E16 through cost_evaluate / cost_rank. */
static void test_ranking(void)
{
    const CostArch *a80 = carch("sm_80");
    /* Grid 108 SMs * 40 blocks: g = 40 per SM.  B = 256 (b = 8).
     * r = 32 -> N = 8 (64 warps): 5 waves; r = 128 -> N = 2 (16 warps): 20 waves. */
    CostCandidate c[3] = { cand("r128", 256, 128, 108 * 40), cand("r32", 256, 32, 108 * 40),
                           cand("r128-1024", 1024, 128, 108 * 40) };
    /* Latency-bound: a short body behind a 2000-cycle chain: fu = 1 -> T = waves */
    for (int i = 0; i < 3; i++) {
        c[i].mix[UNIT_FP32] = 2;
        c[i].mix[UNIT_GLOBAL] = 1;
        c[i].p1_cycles = 2000;
    }
    CostResult res[3];
    int order[3];
    cost_rank(a80, c, 3, res, order);
    CHECK(res[1].occ.blocks_per_sm == 8 && res[0].occ.blocks_per_sm == 2, "N_slot 8 and 2");
    CHECK(res[1].full_waves == 5 && res[1].tail_blocks == 0 && res[0].full_waves == 20, "waves %lld/%lld",
          res[1].full_waves, res[0].full_waves);
    CHECK(near(res[1].time_periods, 5.0) && near(res[0].time_periods, 20.0), "latency-bound T %g %g",
          res[1].time_periods, res[0].time_periods);
    CHECK(order[0] == 1 && order[1] == 0 && order[2] == 2 && res[1].rank == 1 && res[2].rank == 3,
          "latency-bound: higher occupancy first (%d %d %d)", order[0], order[1], order[2]);
    /* C-01: B = 1024 with 128 registers cannot launch (1024*128 > 64K): last */
    CHECK(!res[2].can_launch && res[2].launch_error && strstr(res[2].launch_error, "registers"),
          "impossible candidate: %s", res[2].launch_error ? res[2].launch_error : "(none)");
    /* Throughput-bound: 1000 FP32 per period, P1 = 100.  fu(c) = 2*1000*ceil(c/4)/100:
     * N = 8: c = 64 -> 320, T = 5*320 = 1600; N = 2: c = 16 -> 80, T = 20*80 = 1600. Tie:
     * the callers' order is kept. */
    for (int i = 0; i < 3; i++) {
        c[i].mix[UNIT_FP32] = 1000;
        c[i].mix[UNIT_GLOBAL] = 0;
        c[i].p1_cycles = 100;
    }
    cost_rank(a80, c, 3, res, order);
    CHECK(near(res[0].time_periods, 1600) && near(res[1].time_periods, 1600), "throughput-bound T %g %g",
          res[0].time_periods, res[1].time_periods);
    CHECK(order[0] == 0 && order[1] == 1, "tie keeps order");
    CHECK(res[0].bottleneck == UNIT_FP32 && res[0].confidence == CONF_HIGH, "fp32, high confidence: %s %s",
          res[0].bottleneck_name, cost_confidence_name(res[0].confidence));
    /* Tail: g = 4 per SM (grid 432 on 108 SMs), latency-bound, B = 256.
     * N = 3 (r = 80): fu + fu = 2 periods; N = 4 (r = 64): 1 period. */
    CostCandidate t[2] = { cand("r80", 256, 80, 432), cand("r64", 256, 64, 432) };
    for (int i = 0; i < 2; i++) {
        t[i].mix[UNIT_FP32] = 1;
        t[i].p1_cycles = 1000;
    }
    cost_rank(a80, t, 2, res, order);
    CHECK(res[0].occ.blocks_per_sm == 3 && res[0].full_waves == 1 && res[0].tail_blocks == 1 &&
              near(res[0].time_periods, 2.0),
          "tail N=3: %d blocks, %lld waves + %d", res[0].occ.blocks_per_sm, res[0].full_waves, res[0].tail_blocks);
    CHECK(res[1].occ.blocks_per_sm == 4 && near(res[1].time_periods, 1.0) && order[0] == 1, "tail N=4");
    /* E11/E16: N_slot multiplies the per-warp register allocation by b.  Eq. 3.3
     * as printed, floor(R / roundup(r, r_min)), with r = 64 registers per thread
     * counted per warp (64*32 = 2048) would allow 65536/2048 = 32 blocks of
     * 256 threads; the fixed rule allows 65536 / (2048 * 8) = 4. */
    CostResult e = cost_evaluate(a80, &t[1]);
    CHECK(e.occ.blocks_per_sm == 4 && e.occ.regs_per_warp == 2048 && e.occ.regs_per_block == 16384, "E11: N_slot %d",
          e.occ.blocks_per_sm);
    CHECK(65536 / 2048 == 32, "the unfixed Eq. 3.3 value");
}

static void test_confidence_and_spills(void)
{
    const CostArch *a80 = carch("sm_80");
    CostCandidate c = cand("mem", 256, 64, 0);
    c.p1_cycles = 500;
    c.mix[UNIT_FP32] = 10;
    c.mix[UNIT_GLOBAL] = 10;       /* 50 % memory */
    CostResult r = cost_evaluate(a80, &c);
    CHECK(r.confidence == CONF_LOW && strstr(r.confidence_reason, "memory"), "memory-heavy: %s (%s)",
          cost_confidence_name(r.confidence), r.confidence_reason);
    c.mix[UNIT_GLOBAL] = 0;
    c.mix[UNIT_BRANCH] = 400;      /* guessed unit as the bottleneck */
    r = cost_evaluate(a80, &c);
    CHECK(r.bottleneck == UNIT_BRANCH && r.confidence == CONF_LOW, "guessed bottleneck: %s %s", r.bottleneck_name,
          cost_confidence_name(r.confidence));
    c.mix[UNIT_BRANCH] = 0;
    c.mix[UNIT_FP32] = 1000;
    c.p1_cycles = 0;               /* estimated: serial chain 1000 * 4 cycles */
    r = cost_evaluate(a80, &c);
    CHECK(r.p1_estimated && near(r.p1_cycles, 4000) && r.confidence == CONF_MEDIUM, "estimated P1 %g %s",
          r.p1_cycles, cost_confidence_name(r.confidence));
    /* Spills: 64 bytes stored and loaded once per period -> 16 + 16 warp-instructions */
    double mix[UNIT_COUNT] = { 0 };
    cost_add_spills(mix, 64, 64, 1.0);
    CHECK(near(mix[UNIT_GLOBAL], 32), "spills -> %g", mix[UNIT_GLOBAL]);
    cost_add_spills(mix, 6, 0, 2.0);   /* 6 bytes = 2 slots, twice */
    CHECK(near(mix[UNIT_GLOBAL], 36), "spills rounding -> %g", mix[UNIT_GLOBAL]);
    /* Fewer registers with spills can lose to more registers without:
     * A: r = 32 (N = 8) with 400 spill instructions; B: r = 64 (N = 4), none. */
    CostCandidate s[2] = { cand("r32+spills", 256, 32, 108 * 8), cand("r64", 256, 64, 108 * 8) };
    for (int i = 0; i < 2; i++) {
        s[i].mix[UNIT_FP32] = 200;
        s[i].p1_cycles = 800;
    }
    cost_add_spills(s[0].mix, 800, 800, 1.0);
    CostResult res[2];
    int order[2];
    cost_rank(a80, s, 2, res, order);
    CHECK(order[0] == 1 && res[0].confidence == CONF_LOW, "spilling variant ranked %d, %s", res[0].rank,
          cost_confidence_name(res[0].confidence));
    /* An architecture without data */
    CostResult none = cost_evaluate(NULL, &s[1]);
    CHECK(!none.can_launch && none.launch_error, "NULL arch");
}

int main(void)
{
    test_fu();
    test_waves();
    test_data();
    test_bottleneck_switch();
    test_ranking();
    test_confidence_and_spills();
    printf("%d checks, %d failures\n", checks, failures);
    return failures ? 1 : 0;
}
