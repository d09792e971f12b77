/* critical.c — register critical points (see critical.h).
 *
 * Everything is computed by asking occ_compute() about each register count
 * (at most 256 of them), so the critical points can never disagree with the
 * occupancy calculator; the closed form in critical.h is checked against
 * this in testsuite/unit/test_critical.c. */
#include "model/critical.h"

#include <stdbool.h>
#include <string.h>

static Occupancy occ_with_regs(const Arch *a, const OccInput *in, int regs)
{
    OccInput x = *in;
    x.regs_per_thread = regs;
    return occ_compute(a, &x);
}

int crit_max_level(const Arch *a, const OccInput *in)
{
    if (!a || !in)
        return 0;
    return occ_with_regs(a, in, a->min_regs_per_thread).blocks_per_sm;
}

int crit_regs_for_level(const Arch *a, const OccInput *in, int level)
{
    if (!a || !in || level < 1)
        return 0;
    /* blocks is non-increasing in r: scan down from the top. */
    for (int r = a->max_regs_per_thread; r >= a->min_regs_per_thread; r--)
        if (occ_with_regs(a, in, r).blocks_per_sm >= level)
            return r;
    return 0;
}

int crit_points(const Arch *a, const OccInput *in, int r_lo, int r_hi, CritPoint out[CRIT_MAX_POINTS])
{
    if (!a || !in)
        return 0;
    if (r_lo < a->min_regs_per_thread)
        r_lo = a->min_regs_per_thread;
    if (r_hi <= 0 || r_hi > a->max_regs_per_thread)
        r_hi = a->max_regs_per_thread;
    /* Clamp r_hi to the largest register count that can still launch. */
    while (r_hi >= r_lo && occ_with_regs(a, in, r_hi).blocks_per_sm == 0)
        r_hi--;
    int n = 0;
    for (int r = r_lo; r <= r_hi && n < CRIT_MAX_POINTS; r++) {
        Occupancy o = occ_with_regs(a, in, r);
        if (r < r_hi && occ_with_regs(a, in, r + 1).blocks_per_sm == o.blocks_per_sm)
            continue;
        out[n++] = (CritPoint){ .regs = r, .blocks_per_sm = o.blocks_per_sm, .active_warps = o.active_warps,
                                .occupancy = o.occupancy, .limit = o.limit };
    }
    return n;
}

int crit_universal(const Arch *a, const OccInput *in, int out[CRIT_MAX_POINTS])
{
    if (!a)
        return 0;
    OccInput base = in ? *in : occ_input(0, 0);
    bool seen[257];
    memset(seen, 0, sizeof seen);
    int max_warps_per_block = a->max_threads_per_block / a->warp_size;
    for (int b = 1; b <= max_warps_per_block; b++) {
        base.block_threads = b * a->warp_size;   /* partial warps allocate like full ones */
        CritPoint cps[CRIT_MAX_POINTS];
        int k = crit_points(a, &base, 0, 0, cps);
        for (int i = 0; i < k; i++)
            if (cps[i].regs >= 0 && cps[i].regs <= 256)
                seen[cps[i].regs] = true;
    }
    int n = 0;
    for (int r = 0; r <= 256 && n < CRIT_MAX_POINTS; r++)
        if (seen[r])
            out[n++] = r;
    return n;
}
