/* profit.c — the profitability gate (issue 12 §2, issue 22): does a
 * kernel's set of N != 0 shuffles pay on this target?
 *
 * The gate prices the template as emit.c emits it (the plan of plan.c),
 * per warp, in SM cycles of the units it uses (model/neighbour.h: issue
 * slot, shuffle unit, L1 lines, L2 sectors), each instruction weighted by
 * how often its block runs (trips.c: the product of its loops' trip counts
 * where known, 1 where not):
 *   before: each destination load issues and touches its lines (a warp of
 *           32 b-byte elements at an offset of N elements: 32b/128 + 1
 *           lines and 32b/32 + 1 sectors, the +1 for the misalignment of the
 *           shift); a load L1 does not serve (.cg, .cv, .L1::no_allocate, or
 *           any plain load before sm_70) also moves its sectors from L2;
 *   after:  per site, the shuffle(s) issue and use the shuffle unit (two
 *           for 64-bit values, two more (one for a 32-bit address) for the
 *           runtime address check), the fallback load still issues for the
 *           |N| lanes without a source lane (one line, |N|b/32 + 1 sectors),
 *           and the instructions around them: the 64-bit join, the per-lane
 *           wrap checks, the address check's address and compare, the
 *           activemask region a site opens (activemask, setp, a selp per
 *           direction); per source, at the source's weight, the copies of
 *           its value and address; once per warp, what the plan puts at the
 *           kernel's entry: the block-shape version test (4), or the row
 *           guard (7, or 3 for the alignment form) and the kernel-wide
 *           lanes (about 16) with their clamps.
 * With .reqntid and a partial warp per block, that warp runs the shuffles
 * and falls back in every lane: the saving scales by the full warps' share.
 * Where the block shape is unknown the rewrite runs only in blocks whose
 * rows are whole warps (versioned) or behind the row guard: the gate prices
 * that shape (other shapes pay the entry test and gain nothing), and a
 * .reqntid shape that puts two rows in a warp is refused before (pass.c).
 * N = 0 copies remove a load and always pay; they are not priced. */
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

static bool wide_address(const Stmt *ld)
{
    const Operand *a = &ld->u.instr.ops[1];
    return a->kind == OPND_ADDR && a->n == 1 && a->u.elems[0].kind == OPND_REG && a->u.elems[0].u.reg->cls == RC_B64;
}

Profit shfl_profit(const NeighbourCost *nc, const ShflSite *sites, const ProfitWeights *pw, int nsites, const ShflPlan *plan)
{
    Profit p = { .family = nc->family };
    double instrs = 0, shuffles = 0;
    for (int i = 0; i < nsites; i++) {
        const ShflSite *s = &sites[i];
        if (s->delta == 0) continue;
        double wd = pw->wd[i], ws = pw->ws[i];
        int b = s->bits / 8, n = s->delta < 0 ? -s->delta : s->delta;
        bool cached = pw->l1_cached[i] && nc->l1_caches_global;
        int lines = 32 * b / 128 + 1, sectors = 32 * b / 32 + 1, corner_sectors = n * b / 32 + 1;
        p.before += wd * load_cost(nc, lines, sectors, cached);
        p.lines += lines - 1, p.sectors += sectors - corner_sectors;
        bool wide = wide_address(s->src);
        int sh = s->bits == 64 ? 2 : 1, other = s->bits == 64 ? 1 : 0;
        if (s->check) sh += wide ? 2 : 1, other += 2 + (wide ? 1 : 0); /* D's address, join, compare */
        other += s->check ? 0 : s->nwrap;
        other += shfl_plan_region_instrs(plan, i);
        /* a warp that is not full (.reqntid with a partial warp) runs the
         * shuffles and falls back in every lane: the whole load again */
        double f = pw->full_fraction;
        double load_after = f * load_cost(nc, 1, corner_sectors, cached) + (1 - f) * load_cost(nc, lines, sectors, cached);
        p.after += wd * (load_after + sh * (nc->issue + nc->shfl) + other * nc->issue);
        instrs += wd * (sh + other), shuffles += wd * sh;
        /* per source, once: the value's copy (64-bit: its split) and for the
         * check the address's copy and split */
        bool first = true;
        for (int j = 0; j < i && first; j++) first = sites[j].src != s->src || sites[j].delta == 0;
        int at_src = 0;
        if (first) at_src += (s->bits == 64 || !s->src_live) ? 1 : 0;
        if (first && s->check) at_src += wide ? 1 + (s->src->u.instr.ops[1].value != 0) : 1; /* address (+offset), split */
        for (int k = 0; k < s->nwrap && !s->check; k++) at_src += s->wrap[k].copy_after ? 1 : 0;
        p.after += ws * at_src * nc->issue;
        instrs += ws * at_src;
        p.sites++;
    }
    if (p.sites) {
        int entry = shfl_plan_entry_instrs(plan);
        p.after += entry * nc->issue;
        instrs += entry;
    }
    p.instrs = instrs, p.shuffles = shuffles;
    return p;
}
