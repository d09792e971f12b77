/* model.h — the public face of model/: what the hardware allows and what a
 * variant of a kernel is predicted to cost.
 *
 *   arch.h       per-architecture limits as data (sm_35 … sm_121, with sources)
 *   occupancy.h  CUDA's occupancy rules: blocks/SM and the limiting resource
 *   critical.h   register critical points for a block size (what ptxas picks
 *                for .maxntid + .minnctapersm) and the block-size-free set
 *   costmodel.h  GPUDIAG-style limit checker, waves, functional units; ranks
 *                candidates with a bottleneck name and a confidence
 *   cache.h      L1/L2 geometry per target for the emulator's cache model
 *   neighbour.h  a neighbour's global load against a warp shuffle, in SM
 *                cycles per unit (the shuffle pass's profitability gate)
 *
 * Typical uses:
 *   regtune:  crit_points(arch, &in, r_min, r_max, cps)        -> caps to emit
 *   tuner:    occ_compute(arch, &in); cost_rank(carch, cands, n, res, order)
 * model/ depends on nothing else in ptxopt.
 */
#ifndef PTXOPT_MODEL_H
#define PTXOPT_MODEL_H

#include "model/arch.h"
#include "model/cache.h"
#include "model/costmodel.h"
#include "model/critical.h"
#include "model/neighbour.h"
#include "model/occupancy.h"

#endif
