/* occupancy.h — how many blocks of a kernel fit on one SM, and what limits it.
 *
 * The rules are those of CUDA's occupancy header (cuda_occupancy.h, CUDA
 * 13.0, cudaOccMaxActiveBlocksPerMultiprocessor), restated:
 *
 *   warps/block    b  = ceil(block_threads / warp_size)
 *   regs/warp      rw = roundup(regs_per_thread * warp_size, reg_alloc_unit)   per WARP, not per block
 *   can launch        : regs_per_thread <= max_regs_per_thread
 *                       && rw * b <= regs_per_block                           (software check)
 *                       && rw * roundup(b, sub_partitions) <= regs_per_block  (hardware check)
 *   by registers      = floor((regs_per_sm / sub_partitions) / rw) * sub_partitions / b
 *                       (a warp's registers must fit in one quarter of the file)
 *   by warps          = floor(max_warps_per_sm / b)   (0 if block_threads > max_threads_per_block)
 *   by blocks         = max_blocks_per_sm
 *   smem/block     s  = roundup(static + dynamic + reserved_per_block, smem_alloc_unit)
 *   can launch        : s <= (opt-in ? smem_per_block_optin : smem_per_block) + reserved
 *   smem/SM           = the carve-out: the preferred one (default: the largest)
 *                       if it holds s, else the smallest step that does
 *   by shared memory  = floor(smem/SM / s)
 *   by barriers       = barriers_per_sm / barriers     (cc >= 9 only, as the header)
 *   by grid           = ceil(grid_blocks / num_sms)    (the thesis's All_CTAs/SMs; only when both known)
 *   blocks/SM         = min of the above
 *
 * The thesis's Eq. 4.3 rounds registers per block instead of per warp and
 * has no sub-partition term; it is wrong for modern GPUs (see
 * research/seed-002-reg-cache.md §1.3 and testsuite/unit/test_occupancy.c).
 */
#ifndef PTXOPT_MODEL_OCCUPANCY_H
#define PTXOPT_MODEL_OCCUPANCY_H

#include <stdbool.h>

#include "model/arch.h"

/* A resource that bounds blocks per SM.  When several tie, Occupancy.limit
 * names the first in this order (hardware limits that no kernel change
 * lifts come first), and limit_mask has a bit (1u << OccLimit) for each. */
typedef enum OccLimit {
    OCC_LIMIT_NONE = 0,         /* nothing (bad input) */
    OCC_LIMIT_WARPS,            /* resident warps (threads) per SM, or threads per block */
    OCC_LIMIT_BLOCKS,           /* resident blocks per SM */
    OCC_LIMIT_GRID,             /* the grid has too few blocks to fill the SMs further */
    OCC_LIMIT_BARRIERS,         /* named barriers */
    OCC_LIMIT_SHARED_MEMORY,
    OCC_LIMIT_REGISTERS,
    OCC_LIMIT_COUNT
} OccLimit;

/* Why a launch cannot happen at all (blocks_per_sm == 0). */
typedef enum OccError {
    OCC_OK = 0,
    OCC_ERR_INVALID,            /* negative or zero sizes, unknown values */
    OCC_ERR_BLOCK_TOO_LARGE,    /* block_threads > max_threads_per_block */
    OCC_ERR_REGS_PER_THREAD,    /* regs_per_thread > max_regs_per_thread */
    OCC_ERR_REGS_PER_BLOCK,     /* the block's registers exceed regs_per_block (or one SM) */
    OCC_ERR_SMEM_PER_BLOCK,     /* shared memory exceeds the per-block limit */
    OCC_ERR_BARRIERS,           /* more named barriers than a block may use */
    OCC_ERR_COUNT
} OccError;

/* What a kernel launch needs.  Zero-initialise, then set what you know
 * (occ_input() does both for the common case). */
typedef struct OccInput {
    int block_threads;          /* threads per block (x*y*z) */
    int regs_per_thread;        /* ptxas -v "Used N registers"; 0 = uses none */
    long long smem_static;      /* bytes, ptxas -v "N bytes smem" */
    long long smem_dynamic;     /* bytes given at launch */
    bool smem_optin;            /* kernel raised cudaFuncAttributeMaxDynamicSharedMemorySize above 48 KB */
    bool has_carveout;          /* false: driver default (the largest carve-out) */
    int carveout_percent;       /* 0..100, cudaFuncAttributePreferredSharedMemoryCarveout */
    int barriers;               /* named barriers per block (ptxas -v "used N barriers"); 0 = none */
    long long grid_blocks;      /* blocks in the grid; 0 = unknown */
    int num_sms;                /* SMs of the device; 0 = unknown (no grid limit) */
} OccInput;

typedef struct Occupancy {
    OccError error;             /* OCC_OK, or why the launch is impossible */
    int blocks_per_sm;          /* 0 when it cannot launch */
    int warps_per_block;
    int active_warps;           /* blocks_per_sm * warps_per_block */
    int max_warps;              /* arch max_warps_per_sm */
    double occupancy;           /* active_warps / max_warps, 0..1 */
    OccLimit limit;             /* the limiting resource (see OccLimit for ties) */
    unsigned limit_mask;        /* every resource equal to the minimum */
    int limit_by[OCC_LIMIT_COUNT]; /* blocks/SM each resource allows; OCC_UNLIMITED if none */
    int regs_per_warp;          /* allocated, after rounding */
    int regs_per_block;         /* allocated: regs_per_warp * warps_per_block */
    long long smem_per_block;   /* allocated: rounded, including the reserved part */
    long long smem_per_sm;      /* the carve-out the calculation used */
} Occupancy;

#define OCC_UNLIMITED 0x7fffffff

/* An OccInput for block_threads and regs_per_thread, everything else zero. */
OccInput occ_input(int block_threads, int regs_per_thread);

/* The occupancy of `in` on `a`.  Never fails: impossible or invalid
 * launches come back with error set, blocks_per_sm 0 and limit naming the
 * resource at fault. */
Occupancy occ_compute(const Arch *a, const OccInput *in);

/* "warps", "blocks", "grid", "barriers", "shared memory", "registers", "none". */
const char *occ_limit_name(OccLimit l);
/* A sentence fragment: "cannot launch: too many registers per block". */
const char *occ_error_message(OccError e);

#endif
