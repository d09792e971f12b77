/* neighbour.h — what a neighbour's global load costs against a warp
 * shuffle, per architecture (the shuffle pass's profitability gate,
 * issue 12).
 *
 * Units are SM cycles per warp instruction, so that the units a rewrite
 * moves work between can be added: the issue slot (one of the SM's four
 * schedulers), the MIO/shuffle unit, L1's tag stage (one 128-byte line, a
 * "wavefront", per cycle) and L2 bandwidth (one 32-byte sector).  They
 * are throughputs, not latencies: a shuffled neighbour load on sm_70 and
 * newer still issues its fallback load for the |N| lanes without a source
 * lane, so the warp waits for a load either way and latency is not where
 * it can win.  Sources are cited per entry in neighbour.c. */
#ifndef PTXOPT_MODEL_NEIGHBOUR_H
#define PTXOPT_MODEL_NEIGHBOUR_H

#include <stdbool.h>

typedef struct NeighbourCost {
    const char *family;        /* "Volta and newer" */
    int sm_lo, sm_hi;          /* compute capabilities it covers (major*10 + minor) */
    double issue;              /* per warp instruction issued */
    double shfl;               /* the shuffle unit, per warp shuffle */
    double l1_line;            /* L1 tag stage, per 128-byte line a warp load touches */
    double l2_sector;          /* L2 bandwidth, per 32-byte sector that misses L1 */
    bool l1_caches_global;     /* plain ld.global is cached in L1 */
    int shfl_latency, l1_latency; /* cycles, for the remark (research Table 1) */
    const char *source;
} NeighbourCost;

/* The entry for sm (e.g. 80); NULL below the first known family. */
const NeighbourCost *neighbour_cost(int sm);

#endif
