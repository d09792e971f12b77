/* profit.c — the profitability gate (issue 12 §2): does a kernel's set of
 * N != 0 shuffles pay on this target?
 *
 * Each site is priced once, per warp, in SM cycles of the units it uses
 * (model/neighbour.h: issue slot, shuffle unit, L1 lines, L2 sectors):
 *   before: the load issues and touches its lines (a warp of 32 b-byte
 *           elements at an offset of N elements: 32b/128 + 1 lines and
 *           32b/32 + 1 sectors, the +1 for the misalignment of the shift);
 *           a load L1 does not serve (.cg, .cv, .L1::no_allocate, or any
 *           plain load before sm_70) also moves its sectors from L2;
 *   after:  the shuffle(s) issue and use the shuffle unit, the fallback
 *           load still issues for the |N| corner lanes (one line,
 *           |N|b/32 + 1 sectors), the runtime address check adds its
 *           shuffles and compare, 64-bit values their second shuffle and
 *           join; plus, once, the guards (the row guard's 7 instructions
 *           when the block shape is unknown, 4 per block of sites, at
 *           most the kernel-wide form's 19).
 * On sm_70 and newer an L1-served neighbour load saves one L1 line and
 * costs a shuffle, so such sites never pay; loads that bypass L1 save L2
 * sectors and may.  N = 0 copies remove a load and always pay; they are
 * not priced.  Loops are not weighted (a site and its guard run as often
 * as each other, up to the hoisted kernel-wide form).  The emulator's
 * counters agree with the direction (shuffle/profit.test). */
#include "model/neighbour.h"
#include "opt/shuffle/internal.h"

const NeighbourCost *shfl_profit_model(int sm)
{
    return sm >= 70 || sm == 0 ? neighbour_cost(sm ? sm : 70) : NULL;
}

static double load_cost(const NeighbourCost *nc, int lines, int sectors, bool l1_cached)
{
    return nc->issue + lines * nc->l1_line + (l1_cached ? 0 : sectors * nc->l2_sector);
}

Profit shfl_profit(const NeighbourCost *nc, const ShflSite *sites, const bool *l1_cached, int nsites, bool row_guard)
{
    Profit p = { .family = nc->family };
    int blocks = 0;
    const Block *last = NULL;
    for (int i = 0; i < nsites; i++) {
        const ShflSite *s = &sites[i];
        if (s->delta == 0) continue;
        int b = s->bits / 8, n = s->delta < 0 ? -s->delta : s->delta;
        bool cached = l1_cached[i] && nc->l1_caches_global;
        int lines = 32 * b / 128 + 1, sectors = 32 * b / 32 + 1, corner_sectors = n * b / 32 + 1;
        p.before += load_cost(nc, lines, sectors, cached);
        p.lines += lines - 1, p.sectors += sectors - corner_sectors;
        int shuffles = s->bits == 64 ? 2 : 1, extra = s->bits == 64 ? 1 : 0;
        if (s->check) shuffles += 2, extra += 3; /* address halves; add, join, compare */
        p.after += load_cost(nc, 1, corner_sectors, cached) + shuffles * (nc->issue + nc->shfl) + extra * nc->issue;
        p.instrs += shuffles + extra, p.shuffles += shuffles;
        if (s->dst->block != last) blocks++, last = s->dst->block;
        p.sites++;
    }
    if (p.sites) {
        int guard = blocks * 4 < 19 ? blocks * 4 : 19;
        p.after += ((row_guard ? 7 : 0) + guard) * nc->issue;
        p.instrs += (row_guard ? 7 : 0) + guard;
    }
    return p;
}
