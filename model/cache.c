/* cache.c — per-architecture cache geometry (see cache.h).
 *
 * Sources:
 *   [GUIDE]   CUDA C++ Programming Guide, "Technical Specifications per
 *             Compute Capability" and the per-architecture sections on the
 *             unified L1/shared-memory array ("combined capacity"); the
 *             carve-out steps are model/arch_data.c's [OCC] table.
 *   [TUNING]  NVIDIA Volta/Turing/Ampere/Hopper Tuning Guides: 128-byte
 *             lines of four 32-byte sectors, global loads cached in L1 by
 *             default from Volta on (the unified L1/texture cache).
 *   [WP]      NVIDIA architecture whitepapers (Turing TU104/T4, A100,
 *             GA102, Ada AD102, H100 SXM5): SM count and L2 size.
 *   [UBENCH]  Accel-Sim's GPU microbenchmarks (Khairy et al., ISCA 2020,
 *             gpu-app-collection ubench l1_cache/l2_cache and the tuner's
 *             hw_def): "the L1 cache has 4 sets since Kepler, in Volta and
 *             Turing", 128-byte lines, 32-byte sectors; L2 associativity "is
 *             hard to know from microbenchmarking ... assumed 16".
 * Replacement is modelled as LRU with eviction-priority classes (cache.h
 * users: emu/cache.c); the vendor documents neither the policy nor the set
 * hashing, so both are assumptions [UBENCH uses LRU too]. */
#include "model/cache.h"

#include <stddef.h>

static const CacheGeom geoms[] = {
    /* sm, gpu, line, sector, combined KB [GUIDE], sets [UBENCH], L2 KB [WP], L2 ways [UBENCH], SMs [WP], L1 caches globals [TUNING] */
    { 70, "Tesla V100 (GV100)",   128, 32, 128, 4,  6 * 1024, 16,  80, true },
    { 75, "Tesla T4 (TU104)",     128, 32,  96, 4,  4 * 1024, 16,  40, true },
    { 80, "A100 (GA100)",         128, 32, 192, 4, 40 * 1024, 16, 108, true },
    { 86, "RTX 3090 (GA102)",     128, 32, 128, 4,  6 * 1024, 16,  82, true },
    { 87, "Jetson AGX Orin (GA10B)", 128, 32, 192, 4, 4 * 1024, 16, 16, true },
    { 89, "RTX 4090 (AD102)",     128, 32, 128, 4, 72 * 1024, 16, 128, true },
    { 90, "H100 SXM5 (GH100)",    128, 32, 256, 4, 50 * 1024, 16, 132, true },
};

const CacheGeom *cache_geom_of(const Arch *a)
{
    if (!a) return NULL;
    for (size_t i = 0; i < sizeof geoms / sizeof geoms[0]; i++)
        if (geoms[i].sm == a->sm) return &geoms[i];
    return NULL;
}

long long cache_l1_bytes(const CacheGeom *g, int carveout_kb)
{
    if (carveout_kb < 0 || carveout_kb > g->l1_combined_kb) return -1;
    return (long long)(g->l1_combined_kb - carveout_kb) * 1024;
}

long long cache_l2_share_bytes(const CacheGeom *g, int sms)
{
    long long set = (long long)g->line_bytes * g->l2_assoc;
    long long b = (long long)g->l2_kb * 1024 * sms / g->chip_sms;
    if (sms >= g->chip_sms) b = (long long)g->l2_kb * 1024;
    b = b / set * set;
    return b < set ? set : b;
}
