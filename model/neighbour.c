/* neighbour.c — the data of neighbour.h, with its sources:
 *   [T1]    research/seed-003-shuffle.md §2.2: PTXASW Table 1 (Jia et al.
 *           2018, Wong et al. 2010): shuffle and L1-hit latencies.
 *   [GUIDE] CUDA C++ Programming Guide, "Arithmetic Instructions"
 *           throughput table: warp shuffle, 32 results per clock per SM on
 *           cc 5.x-9.0 (one warp shuffle per SM cycle); four warp
 *           schedulers per SM since Maxwell (one issue each per cycle);
 *           global loads cached in L1 by default from cc 7.0 (unified
 *           L1/texture), in L2 only on cc 5.x/6.x unless -dlcm=ca or .nc.
 *   [JIA]   Jia et al., "Dissecting the NVIDIA Volta GPU architecture via
 *           microbenchmarking" (2018): L1 serves 128 bytes per cycle per SM.
 *   assumed L2: about 5 KB per cycle for the GPU over ~100 SMs (A100:
 *           108 SMs) is ~48 bytes per SM cycle, so a 32-byte sector ~0.7. */
#include "model/neighbour.h"

#include <stddef.h>

static const NeighbourCost table[] = {
    { "Maxwell and Pascal", 50, 62, 0.25, 1.0, 1.0, 0.7, false, 33, 82,
      "[T1] latencies; [GUIDE] shuffle throughput, 4 schedulers, global loads not in L1; [JIA] L1 line; L2 assumed" },
    { "Volta and newer", 70, 1299, 0.25, 1.0, 1.0, 0.7, true, 22, 28,
      "[T1] latencies (Volta); [GUIDE] shuffle throughput, 4 schedulers, global loads in L1; [JIA] L1 line; L2 assumed" },
};

const NeighbourCost *neighbour_cost(int sm)
{
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (sm >= table[i].sm_lo && sm <= table[i].sm_hi) return &table[i];
    return NULL;
}
