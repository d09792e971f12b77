/* test_occupancy.c — the architecture table and the occupancy calculator.
 *
 * Standalone: gcc -std=c17 -I. testsuite/unit/test_occupancy.c model/arch.c \
 *                 model/arch_data.c model/occupancy.c
 * Every expected value below is worked out by hand in the comment above it
 * (rw = registers per warp after rounding, wps = warps per sub-partition,
 * R_sub = 65536 / 4 = 16384).  Includes the thesis's own occupancy examples
 * (research/seed-002-reg-cache.md §1.7) and cases where the thesis's printed
 * Eq. 4.3 (per-block register rounding) gives a different, wrong answer.
 * Prints every failure; exits 1 if any. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "model/arch.h"
#include "model/occupancy.h"

#include "testsuite/unit/check.h"

static const Arch *arch(const char *name)
{
    const Arch *a = arch_find(name);
    CHECK(a != NULL, "arch %s missing", name);
    return a;
}

/* Checks blocks/SM, the named limit and the occupancy (to 1e-3). */
static void expect(int line, const char *an, OccInput in, int blocks, OccLimit limit, double occ)
{
    const Arch *a = arch(an);
    if (!a)
        return;
    Occupancy o = occ_compute(a, &in);
    CHECK(o.error == OCC_OK && o.blocks_per_sm == blocks && o.limit == limit && fabs(o.occupancy - occ) < 1e-3,
          "line %d %s B=%d r=%d smem=%lld: got %d blocks (%s, %.4f, %s), want %d (%s, %.4f)", line, an,
          in.block_threads, in.regs_per_thread, in.smem_static + in.smem_dynamic, o.blocks_per_sm,
          occ_limit_name(o.limit), o.occupancy, occ_error_message(o.error), blocks, occ_limit_name(limit), occ);
}

static void expect_fail(int line, const char *an, OccInput in, OccError err, OccLimit limit)
{
    const Arch *a = arch(an);
    if (!a)
        return;
    Occupancy o = occ_compute(a, &in);
    CHECK(o.error == err && o.blocks_per_sm == 0 && o.limit == limit && o.occupancy == 0.0,
          "line %d %s B=%d r=%d: got error %d (%s) %d blocks limit %s, want error %d limit %s", line, an,
          in.block_threads, in.regs_per_thread, o.error, occ_error_message(o.error), o.blocks_per_sm,
          occ_limit_name(o.limit), err, occ_limit_name(limit));
}

static OccInput smem(OccInput in, long long bytes)
{
    in.smem_static = bytes;
    return in;
}

/* The thesis's Eq. 4.3 as printed (registers rounded per CTA, no sub-partitions). */
static int thesis_eq43(const Arch *a, int block, int r, int smem_bytes)
{
    int w = (block + 31) / 32;
    int regs_cta = 32 * w * r;
    int by_regs = a->regs_per_sm / (((regs_cta + a->reg_alloc_unit - 1) / a->reg_alloc_unit) * a->reg_alloc_unit);
    int by_warps = a->max_warps_per_sm / w;
    int by_smem = smem_bytes ? a->smem_per_sm / (((smem_bytes + a->smem_alloc_unit - 1) / a->smem_alloc_unit) *
                                                 a->smem_alloc_unit)
                             : 1 << 30;
    int n = a->max_blocks_per_sm;
    if (by_regs < n) n = by_regs;
    if (by_warps < n) n = by_warps;
    if (by_smem < n) n = by_smem;
    return n;
}

static void test_arch_table(void)
{
    size_t n;
    const Arch *t = arch_table(&n);
    CHECK(n >= 8, "only %zu architectures", n);
    static const char *const required[] = { "sm_75", "sm_80", "sm_86", "sm_87", "sm_89", "sm_90", "sm_100", "sm_120" };
    for (size_t i = 0; i < sizeof required / sizeof required[0]; i++) {
        const Arch *a = arch_find(required[i]);
        CHECK(a && !strcmp(a->name, required[i]) && a->ptxas13, "%s missing or not ptxas13", required[i]);
    }
    for (size_t i = 0; i < n; i++) {
        const Arch *a = &t[i];
        /* internal consistency of every entry */
        CHECK(a->max_warps_per_sm * a->warp_size == a->max_threads_per_sm, "%s warps vs threads", a->name);
        CHECK(a->sm == a->major * 10 + a->minor, "%s sm number", a->name);
        CHECK(arch_by_sm(a->sm) == a && arch_find(a->name) == a, "%s lookup", a->name);
        CHECK(i == 0 || t[i - 1].sm < a->sm, "%s table not ascending", a->name);
        CHECK(a->smem_per_block_optin <= a->smem_per_sm && a->smem_per_block <= a->smem_per_block_optin,
              "%s shared-memory limits out of order", a->name);
        CHECK(a->n_carveouts == 0 || a->carveout_kb[a->n_carveouts - 1] * 1024 == a->smem_per_sm,
              "%s largest carve-out != smem_per_sm", a->name);
        for (int k = 1; k < a->n_carveouts; k++)
            CHECK(a->carveout_kb[k - 1] < a->carveout_kb[k], "%s carve-outs not ascending", a->name);
        CHECK(a->smem_reserved_per_block == (a->major >= 8 ? 1024 : 0), "%s reserved smem", a->name);
        CHECK(a->smem_alloc_unit == (a->major >= 8 ? 128 : 256), "%s smem unit", a->name);
        CHECK(a->barrier_limit == (a->major >= 9), "%s barrier limit applies from cc 9", a->name);
        CHECK(a->min_regs_per_thread <= 32 && a->max_regs_per_thread == 255, "%s register range", a->name);
    }
    /* Spot checks against the programming guide / header (arch_data.c). */
    CHECK(arch("sm_86")->max_threads_per_sm == 1536 && arch("sm_86")->max_blocks_per_sm == 16, "sm_86 limits");
    CHECK(arch("sm_89")->max_blocks_per_sm == 24 && arch("sm_120")->max_blocks_per_sm == 24, "cc 8.9/12 blocks");
    CHECK(arch("sm_75")->max_threads_per_sm == 1024 && arch("sm_75")->smem_per_sm == 64 * 1024, "sm_75 limits");
    CHECK(arch("sm_90")->smem_per_sm == 228 * 1024 && arch("sm_90")->smem_per_block_optin == 227 * 1024, "sm_90 smem");
    CHECK(arch("sm_80")->smem_per_sm == 164 * 1024 && arch("sm_87")->smem_per_sm == 164 * 1024, "GA100/Orin smem");

    /* Name spellings and aliases. */
    CHECK(arch_find("sm_90a") == arch_by_sm(90), "sm_90a");
    CHECK(arch_find("sm_100f") == arch_by_sm(100) && arch_find("sm_100a") == arch_by_sm(100), "sm_100a/f");
    CHECK(arch_find("sm_120a") == arch_by_sm(120), "sm_120a");
    CHECK(arch_find("compute_86") == arch_by_sm(86) && arch_find("8.6") == arch_by_sm(86), "compute_86, 8.6");
    CHECK(arch_find("sm86") == arch_by_sm(86) && arch_find("86") == arch_by_sm(86), "sm86, 86");
    CHECK(arch_find("10.0") == arch_by_sm(100) && arch_find("lto_89") == arch_by_sm(89), "10.0, lto_89");
    static const char *const bad[] = { "", "sm_", "sm_999", "sm_86b", "sm_86aa", "8.", "8.66", "x86", "sm_-1",
                                       "sm_1000", "sm_8.6.1" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        CHECK(arch_find(bad[i]) == NULL, "'%s' should not be an architecture", bad[i]);
    CHECK(arch_find(NULL) == NULL && arch_by_sm(0) == NULL, "NULL/0 lookups");

    /* Carve-out alignment (cudaOccAlignUpShmemSizeVoltaPlus). */
    CHECK(arch_carveout_at_least(arch("sm_80"), 0) == 0, "sm_80 step 0");
    CHECK(arch_carveout_at_least(arch("sm_80"), 8193) == 16 * 1024, "sm_80 8K+1 -> 16K");
    CHECK(arch_carveout_at_least(arch("sm_80"), 65 * 1024) == 100 * 1024, "sm_80 65K -> 100K");
    CHECK(arch_carveout_at_least(arch("sm_80"), 165 * 1024) == -1, "sm_80 165K: none");
    CHECK(arch_carveout_at_least(arch("sm_75"), 0) == 32 * 1024, "Turing has no 0 KB step");
}

static void test_registers(void)
{
    /* sm_80, B=256 (b=8), r=32: rw = 32*32 = 1024; wps = 16384/1024 = 16 -> 64/8 = 8.
     * warps 64/8 = 8 ties: limit is warps; occupancy 64/64. */
    expect(__LINE__, "sm_80", occ_input(256, 32), 8, OCC_LIMIT_WARPS, 1.0);
    /* r=33: 1056 -> 1280; wps = 12 (12.8) -> 48/8 = 6 blocks; 48/64 */
    expect(__LINE__, "sm_80", occ_input(256, 33), 6, OCC_LIMIT_REGISTERS, 0.75);
    /* r=40: 1280 again -> 6; r=41: 1312 -> 1536, wps 10 -> 40/8 = 5 */
    expect(__LINE__, "sm_80", occ_input(256, 40), 6, OCC_LIMIT_REGISTERS, 0.75);
    expect(__LINE__, "sm_80", occ_input(256, 41), 5, OCC_LIMIT_REGISTERS, 0.625);
    /* r=255: 8160 -> 8192, wps 2 -> 8/8 = 1 */
    expect(__LINE__, "sm_80", occ_input(256, 255), 1, OCC_LIMIT_REGISTERS, 0.125);
    /* sm_86, B=128 (b=4), r=64: 2048, wps 8 -> 32/4 = 8; warps 48/4 = 12; 32/48 */
    expect(__LINE__, "sm_86", occ_input(128, 64), 8, OCC_LIMIT_REGISTERS, 32.0 / 48);
    /* sm_86, B=128, r=40: 1280, wps 12 -> 48/4 = 12; warps 12; blocks 16: warps */
    expect(__LINE__, "sm_86", occ_input(128, 40), 12, OCC_LIMIT_WARPS, 1.0);
    /* Sub-partition rule with b not a multiple of 4: sm_80, B=96 (b=3), r=128:
     * 4096, wps 4 -> 16/3 = 5 blocks.  A per-SM pool would give 65536/(4096*3) = 5
     * too; at r=136 (4352, wps 3 -> 12/3 = 4) the pool gives 65536/13056 = 5. */
    expect(__LINE__, "sm_80", occ_input(96, 128), 5, OCC_LIMIT_REGISTERS, 15.0 / 64);
    expect(__LINE__, "sm_80", occ_input(96, 136), 4, OCC_LIMIT_REGISTERS, 12.0 / 64);
    /* Partial warps allocate whole warps: B=33 is 2 warps. sm_75, r=64:
     * 2048, wps 8 -> 32/2 = 16; warps 32/2 = 16; blocks 16: warps first. */
    expect(__LINE__, "sm_75", occ_input(33, 64), 16, OCC_LIMIT_WARPS, 1.0);
    /* sm_75, B=1024 (b=32), r=64: 2048*32 = 65536 fits; wps 8 -> 32/32 = 1; warps 1 */
    expect(__LINE__, "sm_75", occ_input(1024, 64), 1, OCC_LIMIT_WARPS, 1.0);
    /* ... r=65: 2080 -> 2304; 2304*32 = 73728 > 65536: cannot launch */
    expect_fail(__LINE__, "sm_75", occ_input(1024, 65), OCC_ERR_REGS_PER_BLOCK, OCC_LIMIT_REGISTERS);
    /* Hardware check: sm_80, B=800 (b=25), r=80: 2560*25 = 64000 fits the
     * per-block software check, but 2560 * roundup(25, 4) = 71680 > 65536. */
    expect_fail(__LINE__, "sm_80", occ_input(800, 80), OCC_ERR_REGS_PER_BLOCK, OCC_LIMIT_REGISTERS);
    /* r=72: 2304 * 28 = 64512 fits; wps 7 -> 28/25 = 1 block, 25/64 */
    expect(__LINE__, "sm_80", occ_input(800, 72), 1, OCC_LIMIT_REGISTERS, 25.0 / 64);
    /* Zero registers: no register limit.  sm_90, B=64: warps 64/2 = 32, blocks 32 */
    expect(__LINE__, "sm_90", occ_input(64, 0), 32, OCC_LIMIT_WARPS, 1.0);
    /* Per-thread limit */
    expect_fail(__LINE__, "sm_90", occ_input(32, 256), OCC_ERR_REGS_PER_THREAD, OCC_LIMIT_REGISTERS);
}

static void test_limits(void)
{
    /* Block size: 1025 threads cannot launch anywhere. */
    expect_fail(__LINE__, "sm_80", occ_input(1025, 32), OCC_ERR_BLOCK_TOO_LARGE, OCC_LIMIT_WARPS);
    expect_fail(__LINE__, "sm_80", occ_input(0, 32), OCC_ERR_INVALID, OCC_LIMIT_NONE);
    expect_fail(__LINE__, "sm_80", occ_input(64, -1), OCC_ERR_INVALID, OCC_LIMIT_NONE);
    /* Blocks/SM: sm_86, B=32, r=32: wps 16 -> 64 blocks, warps 48, blocks 16 */
    expect(__LINE__, "sm_86", occ_input(32, 32), 16, OCC_LIMIT_BLOCKS, 16.0 / 48);
    /* sm_89 allows 24: 24 warps of 48 */
    expect(__LINE__, "sm_89", occ_input(32, 32), 24, OCC_LIMIT_BLOCKS, 0.5);
    /* Grid: 432 blocks on the A100's 108 SMs -> ceil(432/108) = 4 per SM (note §1.4) */
    OccInput in = occ_input(128, 32);
    in.grid_blocks = 432;
    in.num_sms = 108;
    expect(__LINE__, "sm_80", in, 4, OCC_LIMIT_GRID, 16.0 / 64);
    in.grid_blocks = 433;  /* ceil(433/108) = 5 */
    expect(__LINE__, "sm_80", in, 5, OCC_LIMIT_GRID, 20.0 / 64);
    /* Barriers: sm_90 B=64 r=32 with 16 named barriers: 64 slots / 16 = 4 */
    in = occ_input(64, 32);
    in.barriers = 16;
    expect(__LINE__, "sm_90", in, 4, OCC_LIMIT_BARRIERS, 8.0 / 64);
    /* ... sm_120: 24 slots / 16 = 1 */
    expect(__LINE__, "sm_120", in, 1, OCC_LIMIT_BARRIERS, 2.0 / 48);
    /* ... sm_80: the header applies no barrier limit below cc 9: 32 blocks */
    expect(__LINE__, "sm_80", in, 32, OCC_LIMIT_WARPS, 1.0);
    /* ... one barrier never limits: sm_90 64/1 */
    in.barriers = 1;
    expect(__LINE__, "sm_90", in, 32, OCC_LIMIT_WARPS, 1.0);
    in.barriers = 17;
    expect_fail(__LINE__, "sm_90", in, OCC_ERR_BARRIERS, OCC_LIMIT_BARRIERS);
}

static void test_shared_memory(void)
{
    /* sm_80, B=128, r=32, 40 KB static: 40960 + 1024 reserved = 41984 (= 328*128);
     * default carve-out 164 KB = 167936 -> 167936/41984 = 4 blocks; 16/64 warps. */
    expect(__LINE__, "sm_80", smem(occ_input(128, 32), 40960), 4, OCC_LIMIT_SHARED_MEMORY, 0.25);
    /* Carve-out 50 %: 167936*50/100 = 83968 -> next step 100 KB = 102400 -> 2 blocks */
    OccInput in = smem(occ_input(128, 32), 40960);
    in.has_carveout = true;
    in.carveout_percent = 50;
    expect(__LINE__, "sm_80", in, 2, OCC_LIMIT_SHARED_MEMORY, 8.0 / 64);
    Occupancy o = occ_compute(arch("sm_80"), &in);
    CHECK(o.smem_per_sm == 102400 && o.smem_per_block == 41984, "carve-out 50%%: %lld, %lld", o.smem_per_sm,
          o.smem_per_block);
    /* Carve-out 0 %: step 0 holds nothing, so the smallest step >= 41984: 64 KB -> 1 block */
    in.carveout_percent = 0;
    expect(__LINE__, "sm_80", in, 1, OCC_LIMIT_SHARED_MEMORY, 4.0 / 64);
    /* ... and even an empty kernel has the 1 KB reserve: step 8 KB -> 8 blocks */
    in.smem_static = 0;
    expect(__LINE__, "sm_80", in, 8, OCC_LIMIT_SHARED_MEMORY, 32.0 / 64);
    /* 100 % on sm_86: 100 KB; 40 KB + 1 KB -> 102400/41984 = 2 */
    in = smem(occ_input(256, 32), 40960);
    expect(__LINE__, "sm_86", in, 2, OCC_LIMIT_SHARED_MEMORY, 16.0 / 48);
    /* sm_90, 40 KB: 233472/41984 = 5 */
    expect(__LINE__, "sm_90", in, 5, OCC_LIMIT_SHARED_MEMORY, 40.0 / 64);
    /* Rounding: sm_80 1 byte -> 1 + 1024 = 1025 -> 1152; 167936/1152 = 145 (> 32 blocks) */
    o = occ_compute(arch("sm_80"), &(OccInput){ .block_threads = 32, .smem_static = 1 });
    CHECK(o.smem_per_block == 1152 && o.limit_by[OCC_LIMIT_SHARED_MEMORY] == 145, "1 byte -> %lld, %d blocks",
          o.smem_per_block, o.limit_by[OCC_LIMIT_SHARED_MEMORY]);
    /* Per-block limit: sm_80 48 KB + 1 KB reserved = 50176 allowed without opt-in */
    expect(__LINE__, "sm_80", smem(occ_input(128, 32), 49152), 3, OCC_LIMIT_SHARED_MEMORY, 12.0 / 64);
    /* one more byte: 50177 -> 50304 > 50176 */
    in = smem(occ_input(128, 32), 49152);
    in.smem_dynamic = 1;
    expect_fail(__LINE__, "sm_80", in, OCC_ERR_SMEM_PER_BLOCK, OCC_LIMIT_SHARED_MEMORY);
    /* ... fine with opt-in (163 KB + 1 KB): 167936/50304 = 3 */
    in.smem_optin = true;
    expect(__LINE__, "sm_80", in, 3, OCC_LIMIT_SHARED_MEMORY, 12.0 / 64);
    /* sm_80 opt-in maximum: 163 KB dynamic + 1 KB = 164 KB = the whole SM: 1 block */
    in = occ_input(128, 32);
    in.smem_dynamic = 163 * 1024;
    in.smem_optin = true;
    expect(__LINE__, "sm_80", in, 1, OCC_LIMIT_SHARED_MEMORY, 4.0 / 64);
    in.smem_dynamic += 1;
    expect_fail(__LINE__, "sm_80", in, OCC_ERR_SMEM_PER_BLOCK, OCC_LIMIT_SHARED_MEMORY);
    /* Turing: 256 B unit, no reserve: 48 KB -> 65536/49152 = 1; 33 KB -> 33792 -> 1 */
    expect(__LINE__, "sm_75", smem(occ_input(128, 32), 49152), 1, OCC_LIMIT_SHARED_MEMORY, 4.0 / 32);
    expect(__LINE__, "sm_75", smem(occ_input(128, 32), 16384), 4, OCC_LIMIT_SHARED_MEMORY, 16.0 / 32);
    /* Turing opt-in to the full 64 KB */
    in = occ_input(128, 32);
    in.smem_dynamic = 65536;
    expect_fail(__LINE__, "sm_75", in, OCC_ERR_SMEM_PER_BLOCK, OCC_LIMIT_SHARED_MEMORY);
    in.smem_optin = true;
    expect(__LINE__, "sm_75", in, 1, OCC_LIMIT_SHARED_MEMORY, 4.0 / 32);
}

/* The thesis's occupancy numbers (§1.7: Table 4.2 kernels on K40 = sm_35 and
 * GTX 750 Ti = sm_50), and where Eq. 4.3 as printed goes wrong. */
static void test_thesis_examples(void)
{
    const Arch *k40 = arch("sm_35"), *m750 = arch("sm_50"), *a100 = arch("sm_80");
    /* LEU on K40: 10 warps (B=320), 14586 B shared, 61 registers.
     * smem: roundup(14586, 256) = 14592 -> 49152/14592 = 3; regs: 1952 -> 2048,
     * wps 8 -> 32/10 = 3 (tie); warps 64/10 = 6.  3 blocks * 10 warps / 64 = 0.47,
     * "shared-limited" as the thesis says (shared memory wins the tie). */
    expect(__LINE__, "sm_35", smem(occ_input(320, 61), 14586), 3, OCC_LIMIT_SHARED_MEMORY, 30.0 / 64);
    /* DCT on K40 (the text's 2 warps), 3136 B -> 3328 B -> 49152/3328 = 14 blocks,
     * 28/64 = 0.44; regs 33: 1056 -> 1280, wps 12 -> 48/2 = 24. */
    expect(__LINE__, "sm_35", smem(occ_input(64, 33), 3136), 14, OCC_LIMIT_SHARED_MEMORY, 28.0 / 64);
    /* MGR on K40: 2 warps, 1536 B, 62 regs: capped at 16 blocks -> 32/64 = 0.5.
     * regs: 1984 -> 2048, wps 8 -> 32/2 = 16 tie; blocks/SM named first. */
    expect(__LINE__, "sm_35", smem(occ_input(64, 62), 1536), 16, OCC_LIMIT_BLOCKS, 0.5);
    /* MGR on Maxwell (32 blocks/SM): registers now matter.  r=59: 1888 -> 2048 -> 16
     * blocks (0.5); r=32: 1024, wps 16 -> 64/2 = 32 blocks, 65536/1536 = 42: 1.0 */
    expect(__LINE__, "sm_50", smem(occ_input(64, 59), 1536), 16, OCC_LIMIT_REGISTERS, 0.5);
    expect(__LINE__, "sm_50", smem(occ_input(64, 32), 1536), 32, OCC_LIMIT_WARPS, 1.0);

    /* Where Eq. 4.3 (per-CTA rounding) is wrong.  FDT on Maxwell: 16 warps
     * (B=512), 3840 B shared.  Eq. 4.3 at r=42: 32*16*42 = 21504 = 84*256 ->
     * 65536/21504 = 3 blocks (the thesis's Fig. 4.1 drop "at r = 43").  The
     * real rule: 42*32 = 1344 -> 1536 per warp, wps 10 -> 40/16 = 2 blocks:
     * the drop comes after r = 40. */
    CHECK(thesis_eq43(m750, 512, 42, 3840) == 3, "Eq. 4.3 FDT r=42 should say 3");
    expect(__LINE__, "sm_50", smem(occ_input(512, 42), 3840), 2, OCC_LIMIT_REGISTERS, 32.0 / 64);
    CHECK(thesis_eq43(m750, 512, 40, 3840) == 3, "Eq. 4.3 FDT r=40");
    expect(__LINE__, "sm_50", smem(occ_input(512, 40), 3840), 3, OCC_LIMIT_REGISTERS, 48.0 / 64);
    /* CFD on K40 (8 warps): Eq. 4.3 at r=36: 256*36 = 9216 -> 65536/9216 = 7;
     * real: 1152 -> 1280, wps 12 -> 48/8 = 6. */
    CHECK(thesis_eq43(k40, 256, 36, 0) == 7, "Eq. 4.3 CFD r=36 should say 7");
    expect(__LINE__, "sm_35", occ_input(256, 36), 6, OCC_LIMIT_REGISTERS, 48.0 / 64);
    /* And a launch Eq. 4.3 allows that cannot happen: A100, B=800 (25 warps),
     * r=80: 32*25*80 = 64000 -> 65536/64000 = 1 block, but a warp's 2560
     * registers fit 6 times in a 16384-register quarter: 24 warps < 25. */
    CHECK(thesis_eq43(a100, 800, 80, 0) == 1, "Eq. 4.3 B=800 r=80 should say 1");
    expect_fail(__LINE__, "sm_80", occ_input(800, 80), OCC_ERR_REGS_PER_BLOCK, OCC_LIMIT_REGISTERS);
    /* Counting the register levels of B=256 on sm_80 over r = 24..255 shows
     * the two rules part: per warp: levels {8,6,5,4,3,2,1}; Eq. 4.3 adds 7. */
    int seen_rule = 0, seen_eq = 0;
    for (int r = 24; r <= 255; r++) {
        seen_rule |= 1 << occ_compute(a100, &(OccInput){ .block_threads = 256, .regs_per_thread = r }).blocks_per_sm;
        seen_eq |= 1 << thesis_eq43(a100, 256, r, 0);
    }
    CHECK(seen_rule == (1 << 8 | 1 << 6 | 1 << 5 | 1 << 4 | 1 << 3 | 1 << 2 | 1 << 1), "per-warp levels %#x", seen_rule);
    CHECK(seen_eq == (seen_rule | 1 << 7), "Eq. 4.3 levels %#x", seen_eq);
}

/* Properties over the whole input space of the register/block dimensions. */
static void test_properties(void)
{
    size_t n;
    const Arch *t = arch_table(&n);
    for (size_t i = 0; i < n; i++) {
        const Arch *a = &t[i];
        for (int block = 1; block <= a->max_threads_per_block; block += 7) {
            int prev = 1 << 30;
            for (int r = 0; r <= a->max_regs_per_thread; r++) {
                Occupancy o = occ_compute(a, &(OccInput){ .block_threads = block, .regs_per_thread = r });
                /* monotone non-increasing in r; never beyond the warp or block limits */
                CHECK(o.blocks_per_sm <= prev, "%s B=%d r=%d not monotone", a->name, block, r);
                CHECK(o.active_warps <= a->max_warps_per_sm && o.blocks_per_sm <= a->max_blocks_per_sm,
                      "%s B=%d r=%d exceeds SM limits", a->name, block, r);
                /* resident registers fit the file */
                CHECK((long long)o.blocks_per_sm * o.regs_per_block <= a->regs_per_sm, "%s B=%d r=%d regs overflow",
                      a->name, block, r);
                CHECK((o.error == OCC_OK) == (o.blocks_per_sm > 0), "%s B=%d r=%d error/blocks", a->name, block, r);
                CHECK(o.error != OCC_OK || (o.limit_mask & (1u << o.limit)), "%s limit not in mask", a->name);
                prev = o.blocks_per_sm;
                if (checks > 5000000)
                    return;
            }
        }
    }
}

int main(void)
{
    test_arch_table();
    test_registers();
    test_limits();
    test_shared_memory();
    test_thesis_examples();
    test_properties();
    printf("%d checks, %d failures\n", checks, failures);
    return failures ? 1 : 0;
}
