/* legality.c — which global loads the bypass pass may rewrite (research
 * seed-002 §3.3 "eligible loads", issue 13 item 1).
 *
 * Every threshold is correct for a weak load: the bypass operators only
 * change where the line is cached (.cg is even stronger: a GPU-scope
 * load served by L2), so a warp may take either variant.  That is what
 * makes a run-time threshold legal.  Left alone, each with a remark:
 *   - volatile, relaxed, acquire and mmio loads, and .cv (ordered or
 *     volatile accesses: their operator is part of their meaning);
 *   - ldu (the uniform read-only path has no cache operator);
 *   - generic loads the memory analysis does not prove global;
 *   - loads that already bypass L1 (.cg, .L1::no_allocate; .cs for op=cs)
 *     or already carry an L2 policy (l2policy);
 *   - .nc loads with op=cg (.cg does not change an .nc load's encoding:
 *     ptxas compiles ld.global.cg.nc like ld.global.nc, §3.3), .nc loads
 *     with op=auto where .L1::no_allocate is not available, and .nc
 *     loads of data the kernel itself stores through the same pointer
 *     (.nc's read-only promise does not hold; nothing about such a load
 *     is touched);
 *   - and whole functions when the form or the operator needs a newer
 *     target or PTX ISA.
 *
 * op=auto (the default) picks the operator per load: .cg for a plain
 * ld.global (the most faithful bypass, §3.3), .L1::no_allocate for an
 * ld.global.nc, whose grammar (ld.global.nc{.level1::eviction_priority})
 * takes it after .nc.  nvcc writes .nc for every const __restrict__
 * pointer, so with op=cg most loads of real kernels are left alone.  The
 * L1 eviction priority needs PTX ISA 7.4 and sm_70 (PTX ISA, ld and
 * ld.global.nc, "PTX ISA Notes" / "Target ISA Notes"); where the module
 * cannot have it, an .nc load under auto is left alone and the plain
 * loads still get .cg. */
#include <stdio.h>
#include <string.h>

#include "opt/bypass/internal.h"

static bool same_object(const MemBase *a, const MemBase *b)
{
    if (a->kind == BASE_PARAM && b->kind == BASE_PARAM) return a->index == b->index;
    if (a->kind == BASE_VAR && b->kind == BASE_VAR) return str_eq(a->name, b->name);
    return false;
}

/* The first store or atomic of fn through the same pointer as access ai. */
static const Stmt *written_by_kernel(Function *fn, uint32_t instr)
{
    const Cfg *cfg = cfg_get(fn);
    const MemInfo *mi = memory_get(fn);
    uint32_t ai = mi->acc_of_instr[instr];
    if (ai == ANA_NONE) return NULL;
    const MemAccess *l = &mi->acc[ai];
    for (uint32_t i = 0; i < mi->nacc; i++) {
        const MemAccess *w = &mi->acc[i];
        if (!(w->flags & (MACC_STORE | MACC_ATOMIC))) continue;
        if (w->space != SPACE_GLOBAL && w->space != SPACE_GENERIC) continue;
        if (same_object(&w->base, &l->base)) return cfg->instr[w->instr];
    }
    return NULL;
}

static const char *ordered(const Instr *in)
{
    if (instr_has_mod(in, ".mmio")) return "mmio load: left alone";
    if (instr_has_mod(in, ".volatile")) return "volatile load: its operator is part of its meaning; left alone";
    if (instr_has_mod(in, ".relaxed")) return "relaxed (memory-model) load: left alone";
    if (instr_has_mod(in, ".acquire")) return "acquire load: left alone";
    if (instr_has_mod(in, ".cv")) return ".cv load (volatile: fetched again every time): left alone";
    return NULL;
}

/* Why this module cannot use .L1::no_allocate (NULL: it can). */
static const char *no_allocate_refused(int sm, int ptx_version)
{
    if (ptx_version >= 0 && ptx_version < 74) return "needs PTX ISA 7.4 or later";
    if (sm && sm < 70) return "needs sm_70 or newer";
    return NULL;
}

void byp_check_sites(Function *fn, Site *s, int n, const Options *o, BypassForm form, int sm, int ptx_version)
{
    const char *na_refused = no_allocate_refused(sm, ptx_version);
    for (int i = 0; i < n; i++) {
        Site *x = &s[i];
        const Instr *in = &x->st->u.instr;
        const Stmt *w;
        x->skip = NULL;
        x->detail[0] = 0;
        x->op = o->op == BOP_AUTO ? (x->nc ? BOP_NO_ALLOCATE : BOP_CG) : o->op;
        if (str_eqc(in->opname, "ldu")) x->skip = "ldu (uniform load through the read-only path) has no cache operator: left alone";
        else if (x->unproven) x->skip = "generic load whose address the memory analysis does not prove global: left alone";
        else if (ordered(in)) x->skip = ordered(in);
        else if (x->nc && (w = written_by_kernel(fn, x->instr))) {
            x->skip = "ld.global.nc of data this kernel writes through the same pointer (.nc's read-only promise does "
                      "not hold): left alone";
            snprintf(x->detail, sizeof x->detail, "(store or atomic at line %u)", w->line);
        } else if (form == FORM_L2POLICY) {
            if (instr_has_mod(in, ".L2::cache_hint")) x->skip = "already carries an L2 cache policy (.L2::cache_hint): left alone";
            else if (byp_has_mod_prefix(in, ".L2::evict_")) x->skip = "already has an L2 eviction priority: left alone";
        } else {
            if (instr_has_mod(in, ".cg")) x->skip = "already bypasses L1 (.cg): left alone";
            else if (instr_has_mod(in, ".L1::no_allocate")) x->skip = "already does not allocate in L1 (.L1::no_allocate): left alone";
            else if (o->op == BOP_CS && (instr_has_mod(in, ".cs") || instr_has_mod(in, ".L1::evict_first")))
                x->skip = "already evict-first in L1 (.cs): left alone";
            else if (x->nc && o->op == BOP_CG)
                x->skip = ".nc load: .cg does not change it (ptxas encodes ld.global.cg.nc as ld.global.nc); op=no-allocate "
                          "or op=cs keep .nc: left alone";
            else if (x->nc && o->op == BOP_AUTO && na_refused) {
                x->skip = ".nc load: .cg does not change it (ptxas encodes ld.global.cg.nc as ld.global.nc) and op=auto's "
                          ".L1::no_allocate";
                snprintf(x->detail, sizeof x->detail, "%s: left alone (op=cs keeps .nc)", na_refused);
            }
        }
    }
}

const char *byp_form_refused(Function *fn, const Options *o, BypassForm form, int sm, int ptx_version)
{
    (void)fn;
    if (form == FORM_L2POLICY && sm && sm < 80)
        return "form=l2policy needs sm_80 or newer (createpolicy and .L2::cache_hint); function unchanged";
    if (form == FORM_L2POLICY && ptx_version >= 0 && ptx_version < 74)
        return "form=l2policy needs PTX ISA 7.4 or later (createpolicy); function unchanged";
    if (form != FORM_L2POLICY && o->op == BOP_NO_ALLOCATE && ptx_version >= 0 && ptx_version < 74)
        return "op=no-allocate needs PTX ISA 7.4 or later (.L1::no_allocate); function unchanged";
    if (form != FORM_L2POLICY && o->op == BOP_NO_ALLOCATE && sm && sm < 70)
        return "op=no-allocate needs sm_70 or newer (.L1::no_allocate); function unchanged";
    return NULL;
}
