/* test_critical.c — register critical points (model/critical.h).
 *
 * Standalone: gcc -std=c17 -I. testsuite/unit/test_critical.c model/arch.c \
 *                 model/arch_data.c model/occupancy.c model/critical.c
 * Golden tables from research/seed-002-reg-cache.md §1.4 and
 * seeds-000-004-controlflow-sched.md §5.3 (checklist C-03), the closed form
 * of critical.h against the search, and properties over every architecture
 * and block size.  Prints every failure; exits 1 if any. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "model/critical.h"

#include "testsuite/unit/check.h"

static const Arch *arch(const char *name)
{
    const Arch *a = arch_find(name);
    CHECK(a != NULL, "arch %s missing", name);
    return a;
}

/* Formats points as "r(blocks,occ)" with occupancy to 2 decimals rounded
 * half up, like the note (printf would print 0.625 as 0.62). */
static void format_points(const CritPoint *cp, int n, char *buf, size_t size)
{
    size_t len = 0;
    buf[0] = '\0';
    for (int i = 0; i < n && len < size; i++)
    {
        int hundredths = (int)(cp[i].occupancy * 100 + 0.5 + 1e-9);
        len += (size_t)snprintf(buf + len, size - len, "%s%d(%d,%d.%02d)", i ? " " : "", cp[i].regs,
                                cp[i].blocks_per_sm, hundredths / 100, hundredths % 100);
    }
}

static void expect_points(int line, const char *an, OccInput in, int lo, int hi, const char *want)
{
    const Arch *a = arch(an);
    if (!a)
        return;
    CritPoint cp[CRIT_MAX_POINTS];
    int n = crit_points(a, &in, lo, hi, cp);
    char got[1024];
    format_points(cp, n, got, sizeof got);
    CHECK(!strcmp(got, want), "line %d %s B=%d smem=%lld [%d,%d]:\n   got  %s\n   want %s", line, an,
          in.block_threads, in.smem_static, lo, hi, got, want);
}

/* Just the register counts, space separated. */
static void expect_regs(int line, const char *an, OccInput in, int lo, int hi, const char *want)
{
    const Arch *a = arch(an);
    if (!a)
        return;
    CritPoint cp[CRIT_MAX_POINTS];
    int n = crit_points(a, &in, lo, hi, cp);
    char got[512];
    size_t len = 0;
    got[0] = '\0';
    for (int i = 0; i < n; i++)
        len += (size_t)snprintf(got + len, sizeof got - len, "%s%d", i ? " " : "", cp[i].regs);
    CHECK(!strcmp(got, want), "line %d %s B=%d smem=%lld: got {%s} want {%s}", line, an, in.block_threads,
          in.smem_static, got, want);
}

static void expect_universal(const char *an, const char *want)
{
    int regs[CRIT_MAX_POINTS];
    int n = crit_universal(arch(an), NULL, regs);
    char got[512];
    size_t len = 0;
    got[0] = '\0';
    for (int i = 0; i < n; i++)
        len += (size_t)snprintf(got + len, sizeof got - len, "%s%d", i ? " " : "", regs[i]);
    CHECK(!strcmp(got, want), "%s universal: got {%s} want {%s}", an, got, want);
}

static OccInput with_smem(int block, long long smem)
{
    OccInput in = occ_input(block, 0);
    in.smem_static = smem;
    return in;
}

/* The note's worked CP tables (§1.4), registers-only. */
static void test_note_tables(void)
{
    static const char *const big[] = { "sm_70", "sm_80", "sm_90", "sm_100" };
    for (int i = 0; i < 4; i++) {
        expect_points(__LINE__, big[i], occ_input(128, 0), 0, 0,
                      "32(16,1.00) 40(12,0.75) 48(10,0.63) 56(9,0.56) 64(8,0.50) 72(7,0.44) 80(6,0.38) "
                      "96(5,0.31) 128(4,0.25) 168(3,0.19) 255(2,0.13)");
        expect_points(__LINE__, big[i], occ_input(256, 0), 0, 0,
                      "32(8,1.00) 40(6,0.75) 48(5,0.63) 64(4,0.50) 80(3,0.38) 128(2,0.25) 255(1,0.13)");
        expect_points(__LINE__, big[i], occ_input(512, 0), 0, 0, "32(4,1.00) 40(3,0.75) 64(2,0.50) 128(1,0.25)");
        /* B = 1024: nothing above 64 can launch, so 64 is the last point */
        expect_points(__LINE__, big[i], occ_input(1024, 0), 0, 0, "32(2,1.00) 64(1,0.50)");
    }
    expect_points(__LINE__, "sm_75", occ_input(128, 0), 0, 0,
                  "64(8,1.00) 72(7,0.88) 80(6,0.75) 96(5,0.63) 128(4,0.50) 168(3,0.38) 255(2,0.25)");
    expect_points(__LINE__, "sm_75", occ_input(256, 0), 0, 0, "64(4,1.00) 80(3,0.75) 128(2,0.50) 255(1,0.25)");
    expect_points(__LINE__, "sm_75", occ_input(512, 0), 0, 0, "64(2,1.00) 128(1,0.50)");
    expect_points(__LINE__, "sm_75", occ_input(1024, 0), 0, 0, "64(1,1.00)");
    static const char *const ga10x[] = { "sm_86", "sm_89", "sm_120" };
    for (int i = 0; i < 3; i++) {
        expect_points(__LINE__, ga10x[i], occ_input(128, 0), 0, 0,
                      "40(12,1.00) 48(10,0.83) 56(9,0.75) 64(8,0.67) 72(7,0.58) 80(6,0.50) 96(5,0.42) "
                      "128(4,0.33) 168(3,0.25) 255(2,0.17)");
        expect_points(__LINE__, ga10x[i], occ_input(256, 0), 0, 0,
                      "40(6,1.00) 48(5,0.83) 64(4,0.67) 80(3,0.50) 128(2,0.33) 255(1,0.17)");
        expect_points(__LINE__, ga10x[i], occ_input(512, 0), 0, 0, "40(3,1.00) 64(2,0.67) 128(1,0.33)");
        expect_points(__LINE__, ga10x[i], occ_input(1024, 0), 0, 0, "64(1,0.67)");
    }
    /* 40 KB shared per 256-thread block (41 KB with the reserve): sm_80 164/41 = 4
     * levels, sm_90 228/41 = 5, sm_86 100/41 = 2 */
    expect_regs(__LINE__, "sm_80", with_smem(256, 40960), 0, 0, "64 80 128 255");
    expect_regs(__LINE__, "sm_90", with_smem(256, 40960), 0, 0, "48 64 80 128 255");
    expect_regs(__LINE__, "sm_86", with_smem(256, 40960), 0, 0, "128 255");
    /* A grid of 432 blocks on 108 SMs: at most 4 resident; B = 128, RER [24, 96]:
     * r <= 96 gives >= 5 by registers, so a single point remains: 96 */
    OccInput in = occ_input(128, 0);
    in.grid_blocks = 432;
    in.num_sms = 108;
    expect_points(__LINE__, "sm_80", in, 24, 96, "96(4,0.25)");
}

/* Checklist C-03 (seeds-000-004 §5.3): r*(N) for b = 4, 8, 16 with H100 values. */
static void test_c03(void)
{
    const Arch *h100 = arch("sm_90");
    static const int b8[][2] = { { 1, 255 }, { 2, 128 }, { 3, 80 }, { 4, 64 }, { 5, 48 }, { 6, 40 }, { 8, 32 } };
    for (size_t i = 0; i < sizeof b8 / sizeof b8[0]; i++) {
        OccInput in = occ_input(256, 0);
        int r = crit_regs_for_level(h100, &in, b8[i][0]);
        CHECK(r == b8[i][1], "b=8 N=%d: r*=%d want %d", b8[i][0], r, b8[i][1]);
    }
    expect_regs(__LINE__, "sm_90", occ_input(128, 0), 0, 0, "32 40 48 56 64 72 80 96 128 168 255");
    expect_regs(__LINE__, "sm_90", occ_input(512, 0), 0, 0, "32 40 64 128");
    /* the note lists b=16 as {128->1, 64->2, 40->3, 32->4} */
    OccInput in = occ_input(512, 0);
    CHECK(crit_regs_for_level(h100, &in, 1) == 128 && crit_regs_for_level(h100, &in, 2) == 64 &&
          crit_regs_for_level(h100, &in, 3) == 40 && crit_regs_for_level(h100, &in, 4) == 32,
          "b=16 levels");
}

static void test_universal(void)
{
    expect_universal("sm_35", "32 40 48 56 64 72 80 96 128 168 255");
    expect_universal("sm_50", "32 40 48 56 64 72 80 96 128 168 255");
    expect_universal("sm_70", "32 40 48 56 64 72 80 96 128 168 255");
    expect_universal("sm_80", "32 40 48 56 64 72 80 96 128 168 255");
    expect_universal("sm_90", "32 40 48 56 64 72 80 96 128 168 255");
    expect_universal("sm_86", "40 48 56 64 72 80 96 128 168 255");
    expect_universal("sm_89", "40 48 56 64 72 80 96 128 168 255");
    expect_universal("sm_75", "64 72 80 96 128 168 255");
    /* Shared memory can only remove points: with 40 KB per block sm_86 holds
     * at most 2 blocks, yet every point survives (a 24-warp block at level 2
     * still needs 40); 200 KB cannot launch at all. */
    OccInput in = with_smem(0, 40960);
    int regs[CRIT_MAX_POINTS], all[CRIT_MAX_POINTS];
    int n = crit_universal(arch("sm_86"), &in, regs);
    int m = crit_universal(arch("sm_86"), NULL, all);
    CHECK(n == m && !memcmp(regs, all, sizeof regs[0] * (size_t)n), "sm_86 universal with 40 KB differs");
    in.smem_static = 200 * 1024;
    CHECK(crit_universal(arch("sm_86"), &in, regs) == 0, "200 KB: no points");
}

/* CFD on K40 (8 warps, RER [16, 74]): the per-warp rule gives the thesis's
 * reported search-space size; Eq. 4.3 as printed gives other points. */
static int thesis_eq43_blocks(const Arch *a, int warps, int r)
{
    int by_regs = a->regs_per_sm / (((32 * warps * r + 255) / 256) * 256);
    int n = a->max_warps_per_sm / warps;
    if (a->max_blocks_per_sm < n) n = a->max_blocks_per_sm;
    return by_regs < n ? by_regs : n;
}

static void test_thesis_cfd(void)
{
    const Arch *k40 = arch("sm_35");
    expect_regs(__LINE__, "sm_35", occ_input(256, 0), 16, 74, "32 40 48 64 74");
    char got[256];
    size_t len = 0;
    got[0] = '\0';
    for (int r = 16; r <= 74; r++)
        if (r == 74 || thesis_eq43_blocks(k40, 8, r + 1) != thesis_eq43_blocks(k40, 8, r))
            len += (size_t)snprintf(got + len, sizeof got - len, "%s%d", len ? " " : "", r);
    CHECK(!strcmp(got, "32 36 42 51 64 74"), "Eq. 4.3 CFD points {%s}", got);
}

static void test_clamping(void)
{
    const Arch *a100 = arch("sm_80");
    OccInput in = occ_input(256, 0);
    CHECK(crit_max_level(a100, &in) == 8, "sm_80 B=256 max level");
    CHECK(crit_regs_for_level(a100, &in, 9) == 0, "level 9 unreachable");
    CHECK(crit_regs_for_level(a100, &in, 0) == 0 && crit_regs_for_level(a100, &in, -3) == 0, "level < 1");
    /* The range end is a candidate even inside a level (§1.4: r == r_max) */
    expect_points(__LINE__, "sm_80", in, 50, 100, "64(4,0.50) 80(3,0.38) 100(2,0.25)");
    /* The floor: a range below it starts at min_regs */
    expect_regs(__LINE__, "sm_80", occ_input(256, 0), 1, 33, "32 33");
    /* Nothing launches: B=1024 on sm_75 with r >= 65; 70 KB shared on sm_86 */
    CritPoint cp[CRIT_MAX_POINTS];
    in = occ_input(1024, 0);
    CHECK(crit_points(arch("sm_75"), &in, 65, 255, cp) == 0, "sm_75 B=1024 r>=65 launches nothing");
    in = with_smem(128, 70 * 1024);
    CHECK(crit_points(arch("sm_86"), &in, 0, 0, cp) == 0 && crit_max_level(arch("sm_86"), &in) == 0,
          "70 KB static smem without opt-in cannot launch");
    CHECK(crit_points(NULL, &in, 0, 0, cp) == 0 && crit_regs_for_level(a100, NULL, 1) == 0, "NULL inputs");
}

/* cp(C) = min(max, floor(R_sub / (u * ceil(C*b / n_sub))) * u / w), and the
 * defining property, for every architecture, warp count and level. */
static void test_closed_form_and_properties(void)
{
    size_t na;
    const Arch *t = arch_table(&na);
    for (size_t i = 0; i < na; i++) {
        const Arch *a = &t[i];
        int universal[CRIT_MAX_POINTS];
        int nu = crit_universal(a, NULL, universal);
        int r_sub = a->regs_per_sm / a->reg_sub_partitions;
        for (int block = 1; block <= a->max_threads_per_block; block++) {
            int b = (block + a->warp_size - 1) / a->warp_size;
            OccInput in = occ_input(block, 0);
            int max = crit_max_level(a, &in);
            CHECK(max >= 1, "%s B=%d cannot reach level 1", a->name, block);
            for (int c = 1; c <= max + 1; c++) {
                int cp = crit_regs_for_level(a, &in, c);
                if (c > max) {
                    CHECK(cp == 0, "%s B=%d level %d above max %d has cp %d", a->name, block, c, max, cp);
                    continue;
                }
                int k = (c * b + a->reg_sub_partitions - 1) / a->reg_sub_partitions;
                int closed = r_sub / (a->reg_alloc_unit * k) * a->reg_alloc_unit / a->warp_size;
                if (closed > a->max_regs_per_thread)
                    closed = a->max_regs_per_thread;
                CHECK(cp == closed, "%s B=%d C=%d: search %d, closed form %d", a->name, block, c, cp, closed);
                in.regs_per_thread = cp;
                CHECK(occ_compute(a, &in).blocks_per_sm >= c, "%s B=%d C=%d: cp does not reach C", a->name, block, c);
                in.regs_per_thread = cp + 1;
                CHECK(cp == a->max_regs_per_thread || occ_compute(a, &in).blocks_per_sm < c,
                      "%s B=%d C=%d: cp+1 still reaches C", a->name, block, c);
                CHECK(cp >= a->min_regs_per_thread, "%s B=%d C=%d below floor", a->name, block, c);
            }
            if (block % a->warp_size != 0 && block % 5 != 0)
                continue;       /* the subset property on a sample of sizes */
            CritPoint cps[CRIT_MAX_POINTS];
            int n = crit_points(a, &(OccInput){ .block_threads = block }, 0, 0, cps);
            for (int p = 0; p < n; p++) {
                bool found = false;
                for (int u = 0; u < nu; u++)
                    found |= universal[u] == cps[p].regs;
                CHECK(found, "%s B=%d point %d not in the universal set", a->name, block, cps[p].regs);
                CHECK(p == 0 || (cps[p].regs > cps[p - 1].regs && cps[p].blocks_per_sm < cps[p - 1].blocks_per_sm),
                      "%s B=%d points not strictly ordered", a->name, block);
            }
        }
    }
}

int main(void)
{
    test_note_tables();
    test_c03();
    test_universal();
    test_thesis_cfd();
    test_clamping();
    test_closed_form_and_properties();
    printf("%d checks, %d failures\n", checks, failures);
    return failures ? 1 : 0;
}
