/* cache.h — the data cache geometry of each GPU generation, for the
 * emulator's cache model (ptxopt-emu --cache, emu/cache.c).
 *
 * One CacheGeom per compute capability.  What the model needs is the L1
 * (line and sector size, the capacity left to L1 by a shared-memory
 * carve-out, the number of sets, replacement) and one L2 standing for the
 * whole chip's slices (capacity, associativity, how many SMs share it).
 * Every number is cited in cache.c; where the vendor publishes nothing
 * (associativity, replacement) the entry says what it is assumed from.
 *
 * This is a model for comparing variants of a kernel (which warps cache,
 * which operator a load uses), not a description of the hardware: see
 * man/ptxopt-emu.1, "CACHE MODEL", for what it simplifies. */
#ifndef PTXOPT_MODEL_CACHE_H
#define PTXOPT_MODEL_CACHE_H

#include <stdbool.h>

#include "model/arch.h"

typedef struct CacheGeom {
    int sm;                    /* compute capability, major*10 + minor */
    const char *gpu;           /* the chip the L2 and SM counts are taken from */
    int line_bytes;            /* 128 */
    int sector_bytes;          /* 32: fills and hits are counted per sector */
    int l1_combined_kb;        /* unified L1 + shared memory per SM */
    int l1_sets;               /* L1 sets (ways = lines / sets unless assoc= is given) */
    int l2_kb;                 /* whole-chip L2 */
    int l2_assoc;              /* ways of the model's L2 */
    int chip_sms;              /* SMs sharing that L2 */
    bool l1_caches_globals;    /* a plain ld.global allocates in L1 */
} CacheGeom;

/* The geometry of an architecture (sm_70 ... sm_90), or NULL when the
 * model has none (before Volta the L1 and texture paths were separate). */
const CacheGeom *cache_geom_of(const Arch *a);

/* L1 bytes of one SM when `carveout_kb` of the unified array is shared
 * memory; -1 when the carve-out is larger than the array. */
long long cache_l1_bytes(const CacheGeom *g, int carveout_kb);

/* The L2 share of `sms` simulated SMs: l2_kb * sms / chip_sms, rounded
 * down to whole sets of l2_assoc lines (at least one set). */
long long cache_l2_share_bytes(const CacheGeom *g, int sms);

#endif
