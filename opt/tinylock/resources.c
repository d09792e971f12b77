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

static long long decl_bytes(const Decl *d)
{
    static const struct { const char *t; int b; } sz[] = {
        { ".b8", 1 }, { ".u8", 1 }, { ".s8", 1 }, { ".b16", 2 }, { ".u16", 2 }, { ".s16", 2 }, { ".f16", 2 },
        { ".b32", 4 }, { ".u32", 4 }, { ".s32", 4 }, { ".f32", 4 }, { ".b64", 8 }, { ".u64", 8 }, { ".s64", 8 }, { ".f64", 8 } };
    int b = 0;
    for (size_t i = 0; i < sizeof sz / sizeof sz[0]; i++)
        if (str_eqc(d->type, sz[i].t)) b = sz[i].b;
    if (d->vec) b *= d->vec;
    long long total = 0;
    for (uint32_t k = 0; k < d->ndecl; k++) {
        long long n = b;
        for (int j = 0; j < d->decls[k].ndims; j++) n *= d->decls[k].dims[j] > 0 ? d->decls[k].dims[j] : 0;
        total += n;
    }
    return total;
}

static bool is_shared(Str space) { return str_eqc(space, ".shared") || str_starts(space, ".shared::"); }

Resources tl_resources(Function *fn, const TlTarget *t, uint32_t ntid, long long added)
{
    Resources r = { .smem_added = added };
    for (Stmt *s = fn->mod->first; s; s = s->next)
        if (s->kind == STMT_DECL && is_shared(s->u.decl->space)) r.smem_before += decl_bytes(s->u.decl);
    FOR_EACH_BLOCK(b, fn)
        FOR_EACH_STMT(s, b)
            if (s->kind == STMT_DECL && is_shared(s->u.decl->space)) r.smem_before += decl_bytes(s->u.decl);
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
