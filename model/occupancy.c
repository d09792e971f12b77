/* occupancy.c — CUDA's occupancy rules (see occupancy.h for the formulas).
 *
 * Each limit is computed the way cuda_occupancy.h computes it, in the same
 * order of rounding, so that the results agree bit for bit; the comments
 * name the header function each block mirrors. */
#include "model/occupancy.h"

#include <stddef.h>

static long long round_up(long long x, long long unit)
{
    return (x + unit - 1) / unit * unit;
}

static int imin(int a, int b)
{
    return a < b ? a : b;
}

OccInput occ_input(int block_threads, int regs_per_thread)
{
    OccInput in = { 0 };
    in.block_threads = block_threads;
    in.regs_per_thread = regs_per_thread;
    return in;
}

static OccLimit limit_of_error(OccError e)
{
    switch (e) {
    case OCC_ERR_BLOCK_TOO_LARGE: return OCC_LIMIT_WARPS;
    case OCC_ERR_REGS_PER_THREAD:
    case OCC_ERR_REGS_PER_BLOCK: return OCC_LIMIT_REGISTERS;
    case OCC_ERR_SMEM_PER_BLOCK: return OCC_LIMIT_SHARED_MEMORY;
    case OCC_ERR_BARRIERS: return OCC_LIMIT_BARRIERS;
    default: return OCC_LIMIT_NONE;
    }
}

static Occupancy failed(Occupancy r, OccError e)
{
    r.error = e;
    r.blocks_per_sm = 0;
    r.active_warps = 0;
    r.occupancy = 0.0;
    r.limit = limit_of_error(e);
    r.limit_mask = r.limit == OCC_LIMIT_NONE ? 0u : 1u << r.limit;
    return r;
}

static bool input_valid(const Arch *a, const OccInput *in)
{
    return a && in && in->block_threads > 0 && in->regs_per_thread >= 0 && in->smem_static >= 0 &&
           in->smem_dynamic >= 0 && in->barriers >= 0 && in->grid_blocks >= 0 && in->num_sms >= 0 &&
           (!in->has_carveout || (in->carveout_percent >= 0 && in->carveout_percent <= 100)) &&
           /* keep every product below int range */
           in->regs_per_thread <= 65536 && in->smem_static <= (1LL << 40) && in->smem_dynamic <= (1LL << 40);
}

/* cudaOccMaxBlocksPerSMRegsLimit (partitioned global caching off). */
static OccError regs_limit(const Arch *a, const OccInput *in, Occupancy *r)
{
    int b = r->warps_per_block;
    r->regs_per_warp = (int)round_up((long long)in->regs_per_thread * a->warp_size, a->reg_alloc_unit);
    r->regs_per_block = r->regs_per_warp * b;
    long long assumed = (long long)r->regs_per_warp * round_up(b, a->reg_sub_partitions);
    if (in->regs_per_thread > a->max_regs_per_thread)
        return OCC_ERR_REGS_PER_THREAD;
    if (r->regs_per_block > a->regs_per_block || assumed > a->regs_per_block)
        return OCC_ERR_REGS_PER_BLOCK;
    if (r->regs_per_warp == 0) {
        r->limit_by[OCC_LIMIT_REGISTERS] = OCC_UNLIMITED;
        return OCC_OK;
    }
    int warps_per_sub = (a->regs_per_sm / a->reg_sub_partitions) / r->regs_per_warp;
    int blocks = warps_per_sub * a->reg_sub_partitions / b;
    if (blocks == 0)            /* a warp's registers fit no quarter of the file */
        return OCC_ERR_REGS_PER_BLOCK;
    r->limit_by[OCC_LIMIT_REGISTERS] = blocks;
    return OCC_OK;
}

/* cudaOccMaxBlocksPerSMSmemLimit with cudaOccSMemPerBlock and
 * cudaOccSMemPreferenceVoltaPlus. */
static OccError smem_limit(const Arch *a, const OccInput *in, Occupancy *r)
{
    long long used = in->smem_static + in->smem_dynamic + a->smem_reserved_per_block;
    long long alloc = round_up(used, a->smem_alloc_unit);
    long long per_block = (in->smem_optin ? a->smem_per_block_optin : a->smem_per_block) +
                          (long long)a->smem_reserved_per_block;
    r->smem_per_block = alloc;
    if (alloc > per_block)
        return OCC_ERR_SMEM_PER_BLOCK;

    long long preferred = a->smem_per_sm;
    if (in->has_carveout && a->n_carveouts > 0)
        preferred = arch_carveout_at_least(a, (long long)in->carveout_percent * a->smem_per_sm / 100);
    long long per_sm;
    if (preferred >= alloc)
        per_sm = preferred;     /* the preference holds a block: keep it */
    else if (a->n_carveouts > 0)
        per_sm = arch_carveout_at_least(a, alloc);  /* driver grows the carve-out to fit one block */
    else
        per_sm = a->smem_per_sm;
    if (per_sm < 0)
        return OCC_ERR_SMEM_PER_BLOCK;
    r->smem_per_sm = per_sm;
    r->limit_by[OCC_LIMIT_SHARED_MEMORY] = alloc > 0 ? (int)(per_sm / alloc) : OCC_UNLIMITED;
    return OCC_OK;
}

Occupancy occ_compute(const Arch *a, const OccInput *in)
{
    Occupancy r = { 0 };
    for (int i = 0; i < OCC_LIMIT_COUNT; i++)
        r.limit_by[i] = OCC_UNLIMITED;
    if (!input_valid(a, in))
        return failed(r, OCC_ERR_INVALID);

    r.max_warps = a->max_warps_per_sm;
    r.warps_per_block = (in->block_threads + a->warp_size - 1) / a->warp_size;
    if (in->block_threads > a->max_threads_per_block)
        return failed(r, OCC_ERR_BLOCK_TOO_LARGE);

    OccError e = regs_limit(a, in, &r);
    if (e != OCC_OK)
        return failed(r, e);
    e = smem_limit(a, in, &r);
    if (e != OCC_OK)
        return failed(r, e);
    if (in->barriers > a->barriers_per_block)
        return failed(r, OCC_ERR_BARRIERS);

    /* cudaOccMaxBlocksPerSMWarpsLimit, cudaOccMaxBlocksPerMultiprocessor */
    r.limit_by[OCC_LIMIT_WARPS] = a->max_warps_per_sm / r.warps_per_block;
    r.limit_by[OCC_LIMIT_BLOCKS] = a->max_blocks_per_sm;
    /* cudaOccMaxBlocksPerSMBlockBarrierLimit: applied from cc 9 on */
    if (a->barrier_limit && in->barriers > 0)
        r.limit_by[OCC_LIMIT_BARRIERS] = a->barriers_per_sm / in->barriers;
    if (in->grid_blocks > 0 && in->num_sms > 0) {
        long long g = in->grid_blocks / in->num_sms + (in->grid_blocks % in->num_sms != 0); /* no overflow */
        r.limit_by[OCC_LIMIT_GRID] = g < OCC_UNLIMITED ? (int)g : OCC_UNLIMITED;
    }

    int blocks = OCC_UNLIMITED;
    for (int l = OCC_LIMIT_WARPS; l < OCC_LIMIT_COUNT; l++)
        blocks = imin(blocks, r.limit_by[l]);
    for (int l = OCC_LIMIT_COUNT - 1; l > OCC_LIMIT_NONE; l--)
        if (r.limit_by[l] == blocks) {
            r.limit_mask |= 1u << l;
            r.limit = (OccLimit)l;      /* ends on the first in enum order */
        }
    r.blocks_per_sm = blocks;
    if (blocks == 0)            /* e.g. a barrier count no SM can hold */
        return failed(r, r.limit == OCC_LIMIT_BARRIERS ? OCC_ERR_BARRIERS : OCC_ERR_INVALID);
    r.active_warps = blocks * r.warps_per_block;
    r.occupancy = (double)r.active_warps / a->max_warps_per_sm;
    return r;
}

const char *occ_limit_name(OccLimit l)
{
    static const char *const names[OCC_LIMIT_COUNT] = {
        [OCC_LIMIT_NONE] = "none",         [OCC_LIMIT_WARPS] = "warps",
        [OCC_LIMIT_BLOCKS] = "blocks",     [OCC_LIMIT_GRID] = "grid",
        [OCC_LIMIT_BARRIERS] = "barriers", [OCC_LIMIT_SHARED_MEMORY] = "shared memory",
        [OCC_LIMIT_REGISTERS] = "registers",
    };
    return (unsigned)l < OCC_LIMIT_COUNT ? names[l] : "none";
}

const char *occ_error_message(OccError e)
{
    static const char *const msgs[OCC_ERR_COUNT] = {
        [OCC_OK] = "can launch",
        [OCC_ERR_INVALID] = "cannot launch: invalid launch description",
        [OCC_ERR_BLOCK_TOO_LARGE] = "cannot launch: more threads per block than the architecture allows",
        [OCC_ERR_REGS_PER_THREAD] = "cannot launch: more registers per thread than the architecture allows",
        [OCC_ERR_REGS_PER_BLOCK] = "cannot launch: the block needs more registers than one SM has for a block",
        [OCC_ERR_SMEM_PER_BLOCK] = "cannot launch: more shared memory per block than the limit",
        [OCC_ERR_BARRIERS] = "cannot launch: more named barriers than a block may use",
    };
    return (unsigned)e < OCC_ERR_COUNT ? msgs[e] : "cannot launch";
}
