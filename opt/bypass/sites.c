/* sites.c — the loads the bypass pass looks at: every reachable `ld` whose
 * state space is .global, written in the instruction or, for a generic
 * load, inferred by the memory analysis (a generic address derived from a
 * cvta.to.global'd pointer); generic loads whose window is unknown are
 * listed too, to be left alone with a remark.  Whether each may be rewritten is legality.c's
 * question; every one of them gets a remark either way. */
#include <stdlib.h>

#include "opt/bypass/internal.h"

Site *byp_find_sites(Function *fn, int *n)
{
    const Cfg *cfg = cfg_get(fn);
    const MemInfo *mi = memory_get(fn);
    const LoopInfo *li = loops_get(fn);
    Site *s = calloc(mi->nacc ? mi->nacc : 1, sizeof *s);
    int k = 0;
    for (uint32_t i = 0; i < mi->nacc; i++) {
        const MemAccess *a = &mi->acc[i];
        if (!(a->flags & MACC_LOAD) || (a->flags & (MACC_ATOMIC | MACC_ASYNC | MACC_PREFETCH))) continue;
        bool unproven = a->generic && a->space == SPACE_GENERIC;
        if (a->space != SPACE_GLOBAL && !unproven) continue;
        Stmt *st = cfg->instr[a->instr];
        if (!str_eqc(st->u.instr.opname, "ld") && !str_eqc(st->u.instr.opname, "ldu")) continue;
        uint32_t b = cfg->instr_block[a->instr];
        if (!cfg_reachable(cfg, b)) continue;
        Site *x = &s[k++];
        x->st = st;
        x->instr = a->instr;
        x->generic = a->generic;
        x->unproven = unproven;
        x->nc = (a->flags & MACC_NC) != 0;
        x->in_loop = li->innermost[b] != ANA_NONE || li->irreducible;
    }
    *n = k;
    return s;
}
