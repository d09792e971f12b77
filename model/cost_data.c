/* cost_data.c — per-architecture functional-unit parameters of the cost model.
 *
 * Sources (the cite string of each unit names one):
 *   GUIDE-TP  CUDA C++ Programming Guide, "Arithmetic Instructions": throughput
 *             of native arithmetic instructions, operations per clock per SM.
 *   GUIDE-SM  same guide, "Shared Memory": 32 banks, 32 bits per bank per clock.
 *   GUIDE-HW  same guide, hardware sections: 4 warp schedulers per SM (cc >= 5),
 *             each issuing one warp-instruction per clock.
 *   JIA       Jia et al., "Dissecting the NVIDIA Volta/Turing GPU architecture
 *             via microbenchmarking", arXiv 1804.06826 / 1903.07486 (cited by
 *             seed 004): latencies on V100/T4, assumed for later parts.
 *   GPUDIAG   seed 004 §4.3.1: T4 shared-memory instructions use s_u = 1 and 4.
 *   SPEC      the vendor's product specification of the named part (SM count).
 * Nothing here is MEASURED yet: no GPU was available.  When one is, the
 * calibration kernels of research note §5.5 should replace these numbers.
 *
 * Units with groups = 4 are per-SM-sub-partition (SMSP) pipelines; groups = 1
 * means an SM-wide resource (shared-memory banks, the L1TEX path).
 */
#include "model/costmodel.h"

#define PUB PARAM_PUBLISHED
#define GUESS PARAM_GUESSED

/* lanes/clock/SM, groups, latency, source, latency source, cite */
#define FP32(l, src)  [UNIT_FP32] = { l, 4, 4, src, PUB, "GUIDE-TP; latency JIA (4 cycles)" }
#define FP64(l, lat, src) [UNIT_FP64] = { l, 4, lat, src, GUESS, "GUIDE-TP; latency guessed" }
#define INT32         [UNIT_INT] = { 64, 4, 4, PUB, GUESS, "GUIDE-TP 32-bit integer add/logic/compare: 64; latency guessed like FP32" }
#define SFU16         [UNIT_SFU] = { 16, 4, 20, PUB, GUESS, "GUIDE-TP rcp/rsqrt/lg2/ex2/sin/cos: 16; latency guessed" }
#define CONV16        [UNIT_CONVERT] = { 16, 4, 12, PUB, GUESS, "GUIDE-TP type conversions: 16; latency guessed" }
#define SHFL32        [UNIT_SHUFFLE] = { 32, 4, 24, PUB, GUESS, "GUIDE-TP warp shuffle: 32; latency guessed" }
#define SHARED(lat)   [UNIT_SHARED] = { 32, 1, lat, PUB, PUB, "GUIDE-SM 32 banks x 4 B/clock; s_u=1 GPUDIAG; latency JIA" }
#define GLOBAL        [UNIT_GLOBAL] = { 32, 1, 500, GUESS, GUESS, "guessed: one 128 B warp request per clock to L1TEX; DRAM-like latency; no caches modelled" }
#define BRANCH        [UNIT_BRANCH] = { 32, 4, 12, GUESS, GUESS, "guessed" }
#define BARRIER       [UNIT_BARRIER] = { 16, 1, 24, GUESS, GUESS, "guessed; barrier skew not modelled" }
#define ISSUE         [UNIT_ISSUE] = { 128, 4, 0, PUB, PUB, "GUIDE-HW 4 schedulers x 1 warp-instruction/clock" }

#define COMMON INT32, SFU16, CONV16, SHFL32, GLOBAL, BRANCH, BARRIER, ISSUE

static const CostArch cost_entries[] = {
    { "sm_35", 15, "Tesla K40", PUB,
      { FP32(192, PUB), FP64(64, 10, PUB), [UNIT_INT] = { 160, 4, 9, PUB, GUESS, "GUIDE-TP cc 3.5 integer add: 160" },
        [UNIT_SFU] = { 32, 4, 20, PUB, GUESS, "GUIDE-TP cc 3.5: 32" }, [UNIT_CONVERT] = { 32, 4, 12, PUB, GUESS, "GUIDE-TP cc 3.5: 32" },
        SHFL32, SHARED(33), GLOBAL, BRANCH, BARRIER, ISSUE } },
    { "sm_50", 5, "GTX 750 Ti", PUB,
      { FP32(128, PUB), FP64(4, 10, PUB), [UNIT_INT] = { 128, 4, 6, PUB, GUESS, "GUIDE-TP cc 5.0 integer add: 128" },
        [UNIT_SFU] = { 32, 4, 20, PUB, GUESS, "GUIDE-TP cc 5.0: 32" }, [UNIT_CONVERT] = { 32, 4, 12, PUB, GUESS, "GUIDE-TP cc 5.0: 32" },
        SHFL32, SHARED(24), GLOBAL, BRANCH, BARRIER, ISSUE } },
    { "sm_70", 80, "Tesla V100 SXM2", PUB, { FP32(64, PUB), FP64(32, 8, PUB), COMMON, SHARED(19) } },
    { "sm_75", 40, "Tesla T4", PUB, { FP32(64, PUB), FP64(2, 48, PUB), COMMON, SHARED(22) } },
    { "sm_80", 108, "A100 SXM4", PUB, { FP32(64, PUB), FP64(32, 8, PUB), COMMON, SHARED(23) } },
    { "sm_86", 82, "GeForce RTX 3090", PUB, { FP32(128, PUB), FP64(2, 48, PUB), COMMON, SHARED(23) } },
    { "sm_87", 16, "Jetson AGX Orin 64GB", PUB, { FP32(128, PUB), FP64(2, 48, GUESS), COMMON, SHARED(23) } },
    { "sm_88", 16, "(no reference part known)", GUESS, { FP32(128, GUESS), FP64(2, 48, GUESS), COMMON, SHARED(23) } },
    { "sm_89", 58, "L4", PUB, { FP32(128, PUB), FP64(2, 48, PUB), COMMON, SHARED(23) } },
    { "sm_90", 132, "H100 SXM5", PUB, { FP32(128, PUB), FP64(64, 8, PUB), COMMON, SHARED(23) } },
    { "sm_100", 148, "B200", PUB, { FP32(128, PUB), FP64(64, 8, PUB), COMMON, SHARED(23) } },
    { "sm_103", 160, "B300", GUESS, { FP32(128, GUESS), FP64(2, 48, GUESS), COMMON, SHARED(23) } },
    { "sm_110", 20, "Jetson Thor", GUESS, { FP32(128, GUESS), FP64(2, 48, GUESS), COMMON, SHARED(23) } },
    { "sm_120", 170, "GeForce RTX 5090", PUB, { FP32(128, PUB), FP64(2, 48, PUB), COMMON, SHARED(23) } },
    { "sm_121", 48, "DGX Spark GB10", GUESS, { FP32(128, GUESS), FP64(2, 48, GUESS), COMMON, SHARED(23) } },
};

const CostArch *cost_arch_table(int *count)
{
    *count = (int)(sizeof cost_entries / sizeof cost_entries[0]);
    return cost_entries;
}
