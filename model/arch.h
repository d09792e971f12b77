/* arch.h — per-architecture limits of NVIDIA GPUs, as data.
 *
 * One Arch record per compute capability (sm_XY).  The occupancy
 * calculator (model/occupancy.h), the critical points (model/critical.h) and
 * the cost model (model/costmodel.h) read nothing else about the hardware.
 *
 * Where the numbers come from (every entry in arch_data.c cites these):
 *   [OCC]   CUDA 13.0 /usr/local/cuda/include/cuda_occupancy.h, the function
 *           named in the comment (e.g. cudaOccMaxBlocksPerMultiprocessor).
 *   [GUIDE] CUDA C++ Programming Guide, "Technical Specifications per Compute
 *           Capability" table, and its per-architecture shared-memory
 *           sections (1 KB reserved per block from cc 8.0 on).
 *   [PTXAS] checked with ptxas 13.0 (V13.0.88): `.maxntid B` +
 *           `.minnctapersm C` is refused with "out of range" exactly above the
 *           threads/SM and blocks/SM limits; -maxrregcount=1 is raised to the
 *           lower bound 24; an unconstrained kernel stops at 255 registers.
 *           testsuite/model/ptxas_critical_points.py re-checks this.
 *   [PTX]   PTX ISA 9.0: bar/barrier take a barrier id 0..15.
 * Values not in [GUIDE] for an architecture are marked "assumed" and say
 * what they are assumed from.
 */
#ifndef PTXOPT_MODEL_ARCH_H
#define PTXOPT_MODEL_ARCH_H

#include <stdbool.h>
#include <stddef.h>

#define ARCH_MAX_CARVEOUTS 12

typedef struct Arch {
    const char *name;            /* canonical target name, "sm_86" */
    int sm;                      /* major*10 + minor: 86 */
    int major, minor;
    const char *example_gpus;    /* for messages: "RTX 30xx, A10, A40" */
    bool ptxas13;                /* CUDA 13.0 ptxas can generate code for it */

    /* threads, warps, blocks */
    int warp_size;               /* 32 */
    int max_threads_per_block;   /* 1024 */
    int max_threads_per_sm;      /* resident threads per SM */
    int max_warps_per_sm;        /* max_threads_per_sm / warp_size */
    int max_blocks_per_sm;       /* resident blocks per SM */

    /* registers (32-bit) */
    int regs_per_sm;             /* 65536 */
    int regs_per_block;          /* 65536 */
    int reg_alloc_unit;          /* registers are given to a warp in units of this many (256) */
    int reg_sub_partitions;      /* a warp's registers live in one of these quarters of the file */
    int max_regs_per_thread;     /* 255: what ptxas can assign (the header's allocation ceiling is 256) */
    int min_regs_per_thread;     /* 24: ptxas raises any smaller cap to this */

    /* shared memory (bytes) */
    int smem_per_sm;             /* largest shared-memory carve-out of one SM */
    int smem_per_block;          /* per-block limit without opt-in (48 KB) */
    int smem_per_block_optin;    /* per-block limit with cudaFuncAttributeMaxDynamicSharedMemorySize */
    int smem_alloc_unit;         /* a block's shared memory is rounded up to this */
    int smem_reserved_per_block; /* taken by the driver from every block (1 KB on sm_80+) */
    int n_carveouts;             /* 0: no configurable carve-out (pre-Volta) */
    int carveout_kb[ARCH_MAX_CARVEOUTS]; /* possible shared-memory sizes per SM, KB, ascending */

    /* barriers */
    int barriers_per_block;      /* named barriers a block may use (16) */
    int barriers_per_sm;         /* barrier slots per SM, as the occupancy header counts them */
    bool barrier_limit;          /* the header limits blocks/SM by barriers (cc >= 9) */
} Arch;

/* Look an architecture up by name.  Accepted spellings: "sm_86", "sm86",
 * "compute_86", "lto_86", "86", "8.6", and the feature suffixes "sm_90a",
 * "sm_100f" (same limits as the base target).  NULL if unknown. */
const Arch *arch_find(const char *name);

/* Look up by number, major*10+minor (86; 100 for sm_100).  NULL if unknown. */
const Arch *arch_by_sm(int sm);

/* All architectures, ascending by sm; *count receives the number. */
const Arch *arch_table(size_t *count);

/* Smallest carve-out step (bytes) that holds `bytes` of shared memory per
 * SM, as cudaOccAlignUpShmemSizeVoltaPlus does; -1 when none does.  For an
 * architecture without carve-out steps it is smem_per_sm when that holds
 * `bytes`, else -1. */
long long arch_carveout_at_least(const Arch *a, long long bytes);

/* The one check of a target named on a command line (ptxopt --target,
 * ptxopt-tune --arch), so that the programs accept the same ones: a target
 * a .target directive may name (PTX ISA 9.0: sm_10 ... sm_121, an 'a'
 * suffix from sm_90, 'f' from sm_100), in any spelling arch_find accepts
 * (sm_86, sm86, 86, 8.6, compute_86).  Writes the canonical name ("sm_86",
 * "sm_90a": what .target and ptxas -arch take) to canon and the number to
 * *sm.  False when unknown, with a message in err that lists the targets.
 * (Whether the table has its limits is arch_by_sm's question.) */
bool arch_parse_target(const char *name, char *canon, size_t canon_cap, int *sm, char *err, size_t errsz);

#endif
