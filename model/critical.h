/* critical.h — register critical points: the register caps worth trying.
 *
 * Blocks per SM is a step function of the registers per thread r (with the
 * block size, shared memory, etc. fixed).  A *level* C is a blocks-per-SM
 * value; the *critical point* of level C is the largest r whose occupancy
 * still reaches C blocks (research/seed-002-reg-cache.md §1.2, §1.4):
 *
 *   cp(C) = max { r in [min_regs, max_regs] : occ_compute(r).blocks >= C }
 *
 * Searching only r = min_regs .. max_regs_per_thread (24..255) clamps every
 * point to what ptxas can emit and what can launch; a level that even
 * min_regs cannot reach has no critical point (0).
 *
 * With registers the only varying limit, the rule of occupancy.h gives the
 * closed form (R_sub = regs_per_sm / sub_partitions, b = warps per block,
 * u = reg_alloc_unit, w = warp size):
 *
 *   cp(C) = min(max_regs, floor(R_sub / (u * ceil(C * b / sub_partitions))) * u / w)
 *   e.g. sm_80, b = 8:  C = 1..8  ->  255 128 80 64 48 40 32 32
 *
 * **This is exactly what ptxas picks for `.maxntid B,1,1` + `.minnctapersm C`**
 * when the kernel wants more registers than that (checked for every sm_75+
 * target by testsuite/model/ptxas_critical_points.py).  ptxas ignores shared
 * memory when it does so: a level that shared memory makes unreachable is
 * still honoured by squeezing registers for nothing, so a pass should emit
 * `.maxnreg cp(C)` (or check crit_max_level first) rather than rely on
 * `.minnctapersm` when the kernel uses shared memory.
 *
 * crit_points() lists, inside a register range [r_lo, r_hi] (the kernel's
 * register-effective region, clamped as above), every r whose occupancy
 * drops at r+1, plus r_hi itself (§1.4: candidates are the CPs and r_max).
 * crit_universal() is the union of the critical points over every block
 * size (1..max warps per block): the candidates when the block size is
 * unknown; on sm_80 {32,40,48,56,64,72,80,96,128,168,255}.
 */
#ifndef PTXOPT_MODEL_CRITICAL_H
#define PTXOPT_MODEL_CRITICAL_H

#include "model/arch.h"
#include "model/occupancy.h"

/* Enough for any architecture: one point per distinct blocks-per-SM value
 * plus r_hi, and one per warps-per-sub-partition value in the universal set. */
#define CRIT_MAX_POINTS 64

typedef struct CritPoint {
    int regs;                   /* the cap: registers per thread */
    int blocks_per_sm;          /* level reached with that cap */
    int active_warps;
    double occupancy;
    OccLimit limit;             /* what limits blocks at that cap */
} CritPoint;

/* The highest level the launch `in` can reach (its blocks per SM at the
 * minimum register count); in->regs_per_thread is ignored.  0 when it
 * cannot launch at all. */
int crit_max_level(const Arch *a, const OccInput *in);

/* cp(level) as above; in->regs_per_thread is ignored.  0 when level < 1 or
 * the level is out of reach. */
int crit_regs_for_level(const Arch *a, const OccInput *in, int level);

/* The candidates in [r_lo, r_hi] ∩ [min_regs, largest launchable r], in
 * ascending registers (descending blocks).  Pass r_lo = 0 and r_hi = 0 for
 * the whole range.  Returns the count written to out (0: cannot launch, or
 * the range is empty). */
int crit_points(const Arch *a, const OccInput *in, int r_lo, int r_hi, CritPoint out[CRIT_MAX_POINTS]);

/* The universal set, ascending: union over every block size of the critical
 * points for the whole register range.  `in` supplies shared memory,
 * barriers, carve-out and grid (NULL: none); its block size and registers
 * are ignored.  Returns the count. */
int crit_universal(const Arch *a, const OccInput *in, int out[CRIT_MAX_POINTS]);

#endif
