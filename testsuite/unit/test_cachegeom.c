/* test_cachegeom.c — the cache geometry of model/cache.h against the
 * architecture table: every target ptxas 13 builds from sm_75 on has one,
 * the unified L1/shared array holds every carve-out step the occupancy
 * table allows (else a default L1 could be negative), and the L2 share
 * grows with the SMs simulated up to the whole chip.  Prints every failure;
 * exits 1 if any. */
#include <stdio.h>

#include "model/cache.h"

#include "testsuite/unit/check.h"

static void test_targets(void)
{
    static const char *const names[] = { "sm_70", "sm_75", "sm_80", "sm_86", "sm_89", "sm_90", "sm_90a" };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        const Arch *a = arch_find(names[i]);
        const CacheGeom *g = cache_geom_of(a);
        CHECK(g != NULL, "%s has no cache geometry", names[i]);
        if (!g) continue;
        CHECK(g->line_bytes == 128 && g->sector_bytes == 32, "%s: line %d sector %d", names[i], g->line_bytes, g->sector_bytes);
        CHECK(g->l1_caches_globals, "%s: global loads cache in L1 from Volta on", names[i]);
        CHECK(g->l1_sets == 4, "%s: %d L1 sets", names[i], g->l1_sets);
        CHECK(a->smem_per_sm <= g->l1_combined_kb * 1024, "%s: shared memory %d above the unified array", names[i], a->smem_per_sm);
        for (int k = 0; k < a->n_carveouts; k++) {
            long long l1 = cache_l1_bytes(g, a->carveout_kb[k]);
            CHECK(l1 >= 0 && l1 % (g->line_bytes * g->l1_sets) == 0, "%s: carve-out %d KiB leaves %lld bytes", names[i],
                  a->carveout_kb[k], l1);
        }
        long long prev = 0;
        for (int sms = 1; sms <= g->chip_sms + 3; sms++) {
            long long b = cache_l2_share_bytes(g, sms);
            CHECK(b >= prev && b % ((long long)g->line_bytes * g->l2_assoc) == 0, "%s: L2 share of %d SMs is %lld", names[i], sms, b);
            prev = b;
        }
        CHECK(prev == (long long)g->l2_kb * 1024, "%s: the whole chip's L2 is %lld, not %d KiB", names[i], prev, g->l2_kb);
    }
    CHECK(arch_find("sm_35") && cache_geom_of(arch_find("sm_35")) == NULL, "Kepler has no model (separate L1 and texture paths)");
    CHECK(cache_geom_of(NULL) == NULL, "NULL arch");
}

static void test_values(void)
{
    const CacheGeom *g = cache_geom_of(arch_find("sm_80"));
    if (!g) return;
    CHECK(cache_l1_bytes(g, 0) == 192 * 1024, "A100 L1 without shared memory");
    CHECK(cache_l1_bytes(g, 164) == 28 * 1024, "A100 L1 with the largest carve-out");
    CHECK(cache_l1_bytes(g, 193) == -1, "a carve-out above the array");
    /* 40 MiB / 108 SMs = 388361 bytes, down to whole 2 KiB sets: 189 sets */
    CHECK(cache_l2_share_bytes(g, 1) == 189 * 2048, "A100 L2 share of one SM: %lld", cache_l2_share_bytes(g, 1));
    g = cache_geom_of(arch_find("sm_75"));
    if (g) CHECK(cache_l1_bytes(g, 32) == 64 * 1024, "T4 L1 with the 32 KiB carve-out");
}

int main(void)
{
    test_targets();
    test_values();
    printf("%d checks, %d failures\n", checks, failures);
    return failures ? 1 : 0;
}
