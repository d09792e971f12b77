/* arch_data.c — the architecture table (see arch.h for the source tags).
 *
 * Fields that are the same on every architecture listed here, and why:
 *   warp_size 32, max_threads_per_block 1024, regs_per_sm 65536,
 *   regs_per_block 65536                              [GUIDE]
 *   reg_alloc_unit 256                                [OCC cudaOccRegAllocationGranularity]
 *   reg_sub_partitions 4                              [OCC cudaOccSubPartitionsPerMultiprocessor]
 *   max_regs_per_thread 255                           [GUIDE]; [PTXAS] unconstrained kernels stop
 *                                                     at 255.  [OCC cudaOccRegAllocationMaxPerThread]
 *                                                     says 256 for cc >= 7: the allocation ceiling,
 *                                                     which no ptxas output reaches.
 *   smem_per_block 48 KB (without opt-in)             [GUIDE]
 *   barriers_per_block 16                             [PTX] (barrier ids 0..15)
 * Per-entry comments give the source of everything else.  Shared memory is
 * in bytes; KB = 1024 bytes.
 */
#include "model/arch.h"

#define KB 1024

/* Carve-out steps of cudaOccAlignUpShmemSizeVoltaPlus [OCC], in KB. */
#define CARVE_VOLTA   6, { 0, 8, 16, 32, 64, 96 }
#define CARVE_TURING  2, { 32, 64 }
#define CARVE_GA100   8, { 0, 8, 16, 32, 64, 100, 132, 164 }
#define CARVE_GA10X   6, { 0, 8, 16, 32, 64, 100 }
#define CARVE_HOPPER 10, { 0, 8, 16, 32, 64, 100, 132, 164, 196, 228 }

static const Arch arch_entries[] = {
    {
        .name = "sm_35", .sm = 35, .major = 3, .minor = 5,
        .example_gpus = "Tesla K40 (Kepler GK110B)", .ptxas13 = false, /* kept for the thesis's K40 examples */
        .warp_size = 32, .max_threads_per_block = 1024,
        .max_threads_per_sm = 2048, .max_warps_per_sm = 64,      /* [GUIDE] cc 3.5 */
        .max_blocks_per_sm = 16,                                 /* [OCC] MaxBlocksPerMultiprocessor: cc 3 -> 16 */
        .regs_per_sm = 65536, .regs_per_block = 65536,
        .reg_alloc_unit = 256, .reg_sub_partitions = 4,
        .max_regs_per_thread = 255,                              /* [OCC] RegAllocationMaxPerThread: cc 3 -> 255 */
        .min_regs_per_thread = 16,                               /* thesis Table 4.2: lower bound 16 (old ptxas) */
        .smem_per_sm = 48 * KB,                                  /* [GUIDE] cc 3.5, default PREFER_NONE split (K40) */
        .smem_per_block = 48 * KB, .smem_per_block_optin = 48 * KB, /* [GUIDE] no opt-in before cc 7 */
        .smem_alloc_unit = 256,                                  /* [OCC] SMemAllocationGranularity: cc 3 -> 256 */
        .smem_reserved_per_block = 0,                            /* [OCC] SMemPerBlock adds it only for cc >= 8 */
        .n_carveouts = 0,                                        /* Kepler's L1/shared split is a cache config, not modelled */
        .barriers_per_block = 16, .barriers_per_sm = 0, .barrier_limit = false, /* [OCC] no barrier limit for cc 3 */
    },
    {
        .name = "sm_50", .sm = 50, .major = 5, .minor = 0,
        .example_gpus = "GTX 750 Ti (Maxwell GM107)", .ptxas13 = false, /* kept for the thesis's Maxwell examples */
        .warp_size = 32, .max_threads_per_block = 1024,
        .max_threads_per_sm = 2048, .max_warps_per_sm = 64,      /* [GUIDE] cc 5.0 */
        .max_blocks_per_sm = 32,                                 /* [OCC] cc 5 -> 32 */
        .regs_per_sm = 65536, .regs_per_block = 65536,
        .reg_alloc_unit = 256, .reg_sub_partitions = 4,
        .max_regs_per_thread = 255, .min_regs_per_thread = 16,   /* thesis Table 4.2: lower bound 16 */
        .smem_per_sm = 64 * KB,                                  /* [GUIDE] cc 5.0 */
        .smem_per_block = 48 * KB, .smem_per_block_optin = 48 * KB,
        .smem_alloc_unit = 256,                                  /* [OCC] cc 5 -> 256 */
        .smem_reserved_per_block = 0,
        .n_carveouts = 0,                                        /* dedicated shared memory [OCC SMemPreference] */
        .barriers_per_block = 16, .barriers_per_sm = 64, .barrier_limit = false, /* [OCC] 2 x blocks, not applied below cc 9 */
    },
    {
        .name = "sm_70", .sm = 70, .major = 7, .minor = 0,
        .example_gpus = "Tesla V100", .ptxas13 = false,          /* CUDA 13 dropped sm_70 */
        .warp_size = 32, .max_threads_per_block = 1024,
        .max_threads_per_sm = 2048, .max_warps_per_sm = 64,      /* [GUIDE] cc 7.0 */
        .max_blocks_per_sm = 32,                                 /* [OCC] cc 7 (not Turing) -> 32 */
        .regs_per_sm = 65536, .regs_per_block = 65536,
        .reg_alloc_unit = 256, .reg_sub_partitions = 4,
        .max_regs_per_thread = 255,
        .min_regs_per_thread = 24,                               /* assumed: the floor ptxas 13 uses for sm_75..sm_121 */
        .smem_per_sm = 96 * KB,                                  /* [GUIDE] cc 7.0 */
        .smem_per_block = 48 * KB, .smem_per_block_optin = 96 * KB, /* [GUIDE] cc 7.0 */
        .smem_alloc_unit = 256,                                  /* [OCC] cc 7 -> 256 */
        .smem_reserved_per_block = 0,
        .n_carveouts = CARVE_VOLTA,
        .barriers_per_block = 16, .barriers_per_sm = 64, .barrier_limit = false,
    },
    {
        .name = "sm_75", .sm = 75, .major = 7, .minor = 5,
        .example_gpus = "Tesla T4, RTX 20xx (Turing)", .ptxas13 = true,
        .warp_size = 32, .max_threads_per_block = 1024,
        .max_threads_per_sm = 1024, .max_warps_per_sm = 32,      /* [GUIDE] cc 7.5; [PTXAS] */
        .max_blocks_per_sm = 16,                                 /* [OCC] Turing -> 16; [PTXAS] */
        .regs_per_sm = 65536, .regs_per_block = 65536,
        .reg_alloc_unit = 256, .reg_sub_partitions = 4,
        .max_regs_per_thread = 255, .min_regs_per_thread = 24,   /* [PTXAS] */
        .smem_per_sm = 64 * KB,                                  /* [GUIDE] cc 7.5 */
        .smem_per_block = 48 * KB, .smem_per_block_optin = 64 * KB, /* [GUIDE] cc 7.5 */
        .smem_alloc_unit = 256,                                  /* [OCC] cc 7 -> 256 */
        .smem_reserved_per_block = 0,                            /* [OCC] only cc >= 8 reserves */
        .n_carveouts = CARVE_TURING,
        .barriers_per_block = 16, .barriers_per_sm = 32, .barrier_limit = false, /* [OCC] 2 x 16 */
    },
    {
        .name = "sm_80", .sm = 80, .major = 8, .minor = 0,
        .example_gpus = "A100, A30 (Ampere GA100)", .ptxas13 = true,
        .warp_size = 32, .max_threads_per_block = 1024,
        .max_threads_per_sm = 2048, .max_warps_per_sm = 64,      /* [GUIDE] cc 8.0; [PTXAS] */
        .max_blocks_per_sm = 32,                                 /* [OCC] cc 8.0 -> 32; [PTXAS] */
        .regs_per_sm = 65536, .regs_per_block = 65536,
        .reg_alloc_unit = 256, .reg_sub_partitions = 4,
        .max_regs_per_thread = 255, .min_regs_per_thread = 24,   /* [PTXAS] */
        .smem_per_sm = 164 * KB,                                 /* [GUIDE] cc 8.0 */
        .smem_per_block = 48 * KB, .smem_per_block_optin = 163 * KB, /* [GUIDE] cc 8.0 */
        .smem_alloc_unit = 128,                                  /* [OCC] cc 8 -> 128 */
        .smem_reserved_per_block = 1 * KB,                       /* [GUIDE] 1 KB reserved for system use */
        .n_carveouts = CARVE_GA100,                              /* [OCC] minor 0 */
        .barriers_per_block = 16, .barriers_per_sm = 64, .barrier_limit = false, /* [OCC] 2 x 32, cc 8 not applied */
    },
    {
        .name = "sm_86", .sm = 86, .major = 8, .minor = 6,
        .example_gpus = "RTX 30xx, A10, A40 (Ampere GA10x)", .ptxas13 = true,
        .warp_size = 32, .max_threads_per_block = 1024,
        .max_threads_per_sm = 1536, .max_warps_per_sm = 48,      /* [GUIDE] cc 8.6; [PTXAS] */
        .max_blocks_per_sm = 16,                                 /* [OCC] cc 8.x other -> 16; [PTXAS] */
        .regs_per_sm = 65536, .regs_per_block = 65536,
        .reg_alloc_unit = 256, .reg_sub_partitions = 4,
        .max_regs_per_thread = 255, .min_regs_per_thread = 24,   /* [PTXAS] */
        .smem_per_sm = 100 * KB,                                 /* [GUIDE] cc 8.6 */
        .smem_per_block = 48 * KB, .smem_per_block_optin = 99 * KB, /* [GUIDE] cc 8.6 */
        .smem_alloc_unit = 128, .smem_reserved_per_block = 1 * KB,
        .n_carveouts = CARVE_GA10X,                              /* [OCC] cc 8 minor != 0,7 */
        .barriers_per_block = 16, .barriers_per_sm = 16, .barrier_limit = false, /* [OCC] 1 x 16 */
    },
    {
        .name = "sm_87", .sm = 87, .major = 8, .minor = 7,
        .example_gpus = "Jetson AGX Orin", .ptxas13 = true,
        .warp_size = 32, .max_threads_per_block = 1024,
        .max_threads_per_sm = 1536, .max_warps_per_sm = 48,      /* [GUIDE] cc 8.7; [PTXAS] */
        .max_blocks_per_sm = 16,                                 /* [OCC] -> 16; [PTXAS] */
        .regs_per_sm = 65536, .regs_per_block = 65536,
        .reg_alloc_unit = 256, .reg_sub_partitions = 4,
        .max_regs_per_thread = 255, .min_regs_per_thread = 24,   /* [PTXAS] */
        .smem_per_sm = 164 * KB,                                 /* [GUIDE] cc 8.7 */
        .smem_per_block = 48 * KB, .smem_per_block_optin = 163 * KB, /* [GUIDE] cc 8.7 */
        .smem_alloc_unit = 128, .smem_reserved_per_block = 1 * KB,
        .n_carveouts = CARVE_GA100,                              /* [OCC] minor 7 shares GA100's steps */
        .barriers_per_block = 16, .barriers_per_sm = 16, .barrier_limit = false,
    },
    {
        .name = "sm_88", .sm = 88, .major = 8, .minor = 8,
        .example_gpus = "(cc 8.8)", .ptxas13 = true,
        .warp_size = 32, .max_threads_per_block = 1024,
        .max_threads_per_sm = 1536, .max_warps_per_sm = 48,      /* [PTXAS] */
        .max_blocks_per_sm = 16,                                 /* [OCC] cc 8.x other -> 16; [PTXAS] */
        .regs_per_sm = 65536, .regs_per_block = 65536,
        .reg_alloc_unit = 256, .reg_sub_partitions = 4,
        .max_regs_per_thread = 255, .min_regs_per_thread = 24,   /* [PTXAS] */
        .smem_per_sm = 100 * KB,                                 /* assumed: largest [OCC] step for cc 8 minor != 0,7 */
        .smem_per_block = 48 * KB, .smem_per_block_optin = 99 * KB, /* assumed like sm_86 */
        .smem_alloc_unit = 128, .smem_reserved_per_block = 1 * KB,
        .n_carveouts = CARVE_GA10X,
        .barriers_per_block = 16, .barriers_per_sm = 16, .barrier_limit = false,
    },
    {
        .name = "sm_89", .sm = 89, .major = 8, .minor = 9,
        .example_gpus = "RTX 40xx, L4, L40 (Ada)", .ptxas13 = true,
        .warp_size = 32, .max_threads_per_block = 1024,
        .max_threads_per_sm = 1536, .max_warps_per_sm = 48,      /* [GUIDE] cc 8.9; [PTXAS] */
        .max_blocks_per_sm = 24,                                 /* [OCC] cc 8.9 -> 24; [PTXAS] */
        .regs_per_sm = 65536, .regs_per_block = 65536,
        .reg_alloc_unit = 256, .reg_sub_partitions = 4,
        .max_regs_per_thread = 255, .min_regs_per_thread = 24,   /* [PTXAS] */
        .smem_per_sm = 100 * KB,                                 /* [GUIDE] cc 8.9 */
        .smem_per_block = 48 * KB, .smem_per_block_optin = 99 * KB, /* [GUIDE] cc 8.9 */
        .smem_alloc_unit = 128, .smem_reserved_per_block = 1 * KB,
        .n_carveouts = CARVE_GA10X,
        .barriers_per_block = 16, .barriers_per_sm = 24, .barrier_limit = false, /* [OCC] 1 x 24 */
    },
    {
        .name = "sm_90", .sm = 90, .major = 9, .minor = 0,
        .example_gpus = "H100, H200, GH200 (Hopper)", .ptxas13 = true,
        .warp_size = 32, .max_threads_per_block = 1024,
        .max_threads_per_sm = 2048, .max_warps_per_sm = 64,      /* [GUIDE] cc 9.0; [PTXAS] */
        .max_blocks_per_sm = 32,                                 /* [OCC] cc 9 -> 32; [PTXAS] */
        .regs_per_sm = 65536, .regs_per_block = 65536,
        .reg_alloc_unit = 256, .reg_sub_partitions = 4,
        .max_regs_per_thread = 255, .min_regs_per_thread = 24,   /* [PTXAS] */
        .smem_per_sm = 228 * KB,                                 /* [GUIDE] cc 9.0 */
        .smem_per_block = 48 * KB, .smem_per_block_optin = 227 * KB, /* [GUIDE] cc 9.0 */
        .smem_alloc_unit = 128, .smem_reserved_per_block = 1 * KB,
        .n_carveouts = CARVE_HOPPER,
        .barriers_per_block = 16, .barriers_per_sm = 64, .barrier_limit = true, /* [OCC] 2 x 32, applied for cc >= 9 */
    },
    {
        .name = "sm_100", .sm = 100, .major = 10, .minor = 0,
        .example_gpus = "B200, GB200 (Blackwell)", .ptxas13 = true,
        .warp_size = 32, .max_threads_per_block = 1024,
        .max_threads_per_sm = 2048, .max_warps_per_sm = 64,      /* [GUIDE] cc 10.0; [PTXAS] */
        .max_blocks_per_sm = 32,                                 /* [OCC] cc 10.0 -> 32; [PTXAS] */
        .regs_per_sm = 65536, .regs_per_block = 65536,
        .reg_alloc_unit = 256, .reg_sub_partitions = 4,
        .max_regs_per_thread = 255, .min_regs_per_thread = 24,   /* [PTXAS] */
        .smem_per_sm = 228 * KB,                                 /* [GUIDE] cc 10.0 */
        .smem_per_block = 48 * KB, .smem_per_block_optin = 227 * KB, /* [GUIDE] cc 10.0 */
        .smem_alloc_unit = 128, .smem_reserved_per_block = 1 * KB,
        .n_carveouts = CARVE_HOPPER,                             /* [OCC] cc 10 minor 0 */
        .barriers_per_block = 16, .barriers_per_sm = 64, .barrier_limit = true, /* [OCC] 2 x 32 */
    },
    {
        .name = "sm_103", .sm = 103, .major = 10, .minor = 3,
        .example_gpus = "B300, GB300 (Blackwell Ultra)", .ptxas13 = true,
        .warp_size = 32, .max_threads_per_block = 1024,
        .max_threads_per_sm = 2048, .max_warps_per_sm = 64,      /* [PTXAS] */
        .max_blocks_per_sm = 32,                                 /* [OCC] cc 10 minor 3 -> 32; [PTXAS] */
        .regs_per_sm = 65536, .regs_per_block = 65536,
        .reg_alloc_unit = 256, .reg_sub_partitions = 4,
        .max_regs_per_thread = 255, .min_regs_per_thread = 24,   /* [PTXAS] */
        .smem_per_sm = 228 * KB,                                 /* assumed like sm_100 ([OCC] steps reach 228 for minor 3) */
        .smem_per_block = 48 * KB, .smem_per_block_optin = 227 * KB, /* assumed like sm_100 */
        .smem_alloc_unit = 128, .smem_reserved_per_block = 1 * KB,
        .n_carveouts = CARVE_HOPPER,
        .barriers_per_block = 16, .barriers_per_sm = 64, .barrier_limit = true,
    },
    {
        .name = "sm_110", .sm = 110, .major = 11, .minor = 0,
        .example_gpus = "Jetson Thor", .ptxas13 = true,
        .warp_size = 32, .max_threads_per_block = 1024,
        .max_threads_per_sm = 1536, .max_warps_per_sm = 48,      /* [PTXAS] */
        .max_blocks_per_sm = 24,                                 /* [OCC] cc 11 minor 0 -> 24; [PTXAS] */
        .regs_per_sm = 65536, .regs_per_block = 65536,
        .reg_alloc_unit = 256, .reg_sub_partitions = 4,
        .max_regs_per_thread = 255, .min_regs_per_thread = 24,   /* [PTXAS] */
        .smem_per_sm = 228 * KB,                                 /* assumed: largest [OCC] step for cc 11 minor 0 */
        .smem_per_block = 48 * KB, .smem_per_block_optin = 227 * KB, /* assumed like sm_100 */
        .smem_alloc_unit = 128, .smem_reserved_per_block = 1 * KB,
        .n_carveouts = CARVE_HOPPER,
        .barriers_per_block = 16, .barriers_per_sm = 24, .barrier_limit = true, /* [OCC] 1 x 24 */
    },
    {
        .name = "sm_120", .sm = 120, .major = 12, .minor = 0,
        .example_gpus = "RTX 50xx, RTX PRO 6000 (Blackwell)", .ptxas13 = true,
        .warp_size = 32, .max_threads_per_block = 1024,
        .max_threads_per_sm = 1536, .max_warps_per_sm = 48,      /* [GUIDE] cc 12.0; [PTXAS] */
        .max_blocks_per_sm = 24,                                 /* [OCC] cc 12 -> 24; [PTXAS] */
        .regs_per_sm = 65536, .regs_per_block = 65536,
        .reg_alloc_unit = 256, .reg_sub_partitions = 4,
        .max_regs_per_thread = 255, .min_regs_per_thread = 24,   /* [PTXAS] */
        .smem_per_sm = 100 * KB,                                 /* [GUIDE] cc 12.0 */
        .smem_per_block = 48 * KB, .smem_per_block_optin = 99 * KB, /* [GUIDE] cc 12.0 */
        .smem_alloc_unit = 128, .smem_reserved_per_block = 1 * KB,
        .n_carveouts = CARVE_GA10X,                              /* [OCC] cc 12 */
        .barriers_per_block = 16, .barriers_per_sm = 24, .barrier_limit = true, /* [OCC] 1 x 24 */
    },
    {
        .name = "sm_121", .sm = 121, .major = 12, .minor = 1,
        .example_gpus = "DGX Spark GB10", .ptxas13 = true,
        .warp_size = 32, .max_threads_per_block = 1024,
        .max_threads_per_sm = 1536, .max_warps_per_sm = 48,      /* [PTXAS] */
        .max_blocks_per_sm = 24,                                 /* [OCC] cc 12 -> 24; [PTXAS] */
        .regs_per_sm = 65536, .regs_per_block = 65536,
        .reg_alloc_unit = 256, .reg_sub_partitions = 4,
        .max_regs_per_thread = 255, .min_regs_per_thread = 24,   /* [PTXAS] */
        .smem_per_sm = 100 * KB,                                 /* assumed like sm_120 ([OCC] same steps for minor 1) */
        .smem_per_block = 48 * KB, .smem_per_block_optin = 99 * KB,
        .smem_alloc_unit = 128, .smem_reserved_per_block = 1 * KB,
        .n_carveouts = CARVE_GA10X,
        .barriers_per_block = 16, .barriers_per_sm = 24, .barrier_limit = true,
    },
};

const Arch *arch_table(size_t *count)
{
    *count = sizeof arch_entries / sizeof arch_entries[0];
    return arch_entries;
}
