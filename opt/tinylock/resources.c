/* resources.c — what a barrier rewrite costs in shared memory and
 * occupancy (research/seed-002-sfu-lock.md §3.10 "shared-memory budget",
 * checklist L6).  The static shared memory of a kernel is the sum of the
 * .shared variables it can see (module scope and its own body; an upper
 * bound on what ptxas allocates, which drops unused ones); the occupancy
 * is the CUDA calculator's (model/occupancy.h) for the block size the
 * rewrite requires (.reqntid/.maxntid), limited by warps, blocks and
 * shared memory only: registers are ptxas's to decide and are not known
 * here (the bench bench/tinylock/ measures them with ptxas -v). */
#include <string.h>

#include "model/arch.h"
#include "model/occupancy.h"
#include "opt/tinylock/internal.h"

static bool is_shared(Str space) { return str_eqc(space, ".shared") || str_starts(space, ".shared::"); }

/* The parser keeps the sum (ir.h, Module.shared_bytes): streamed, the
 * declarations before this kernel are gone, and one walk of the module
 * per kernel was quadratic in whole-module runs. */
long long tl_module_shared_bytes(const Module *m) { return m->shared_bytes; }

Resources tl_resources(Function *fn, const TlTarget *t, uint32_t ntid, long long added)
{
    Resources r = { .smem_added = added, .smem_before = t->module_smem };
    FOR_EACH_BLOCK(b, fn)
        FOR_EACH_STMT(s, b)
            if (s->kind == STMT_DECL && is_shared(s->u.decl->space)) r.smem_before += ir_decl_bytes(s->u.decl);
    const Arch *a = arch_by_sm(t->sm ? t->sm : 70);
    if (!a || !ntid) return r;
    r.arch = a->name;
    OccInput in = occ_input((int)ntid, 0);
    in.smem_static = r.smem_before;
    Occupancy o = occ_compute(a, &in);
    r.blocks_before = o.blocks_per_sm;
    in.smem_static = r.smem_before + added;
    o = occ_compute(a, &in);
    r.blocks_after = o.blocks_per_sm;
    return r;
}
