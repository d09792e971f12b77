/* regtune.h — the register / occupancy tuning pass.
 *
 *   --passes='regtune<maxnreg=N>'          cap every kernel at N registers
 *   --passes='regtune<level=C;block=B>'    ask for C resident blocks of B
 *                                           threads per SM (an occupancy
 *                                           level; ptxas then picks the
 *                                           critical point cp(C))
 * Options (all optional but one of maxnreg/level):
 *   kernel=NAME        only this kernel (.entry); others are left alone
 *   block=B            threads per block, when the kernel has no
 *                      .reqntid/.maxntid (an existing one always wins)
 *   smem=BYTES         dynamic shared memory per block, added to the
 *                      .shared variables declared in the kernel body
 *   maxrregcount=R     the user's ptxas --maxrregcount: folded in (the
 *                      emitted cap is min(cap, R)), because ptxas lets any
 *                      .maxnreg/.maxntid/.reqntid override the command line
 *
 * What it emits, per kernel (ptxas 13.0 behaviour it relies on is listed in
 * ptxopt-passes(7), section "regtune"):
 *   maxnreg=N   .maxnreg N (replacing any .maxnreg); a .minnctapersm that
 *               would cap registers below N is removed; .maxntid/.reqntid
 *               are kept.
 *   level=C     .maxntid B,1,1 (unless .maxntid/.reqntid exists) and
 *               .minnctapersm C, replacing .maxnreg; for a kernel that uses
 *               shared memory .maxnreg cp(C) instead of .minnctapersm
 *               (ptxas ignores shared memory when it derives the cap from a
 *               level; model/critical.h).
 * It refuses, with a "missed" remark and the kernel unchanged, what can
 * never launch or what ptxas would reject or ignore: .func functions,
 * maxnreg outside 1..255, block sizes above 1024, levels above what B, the
 * registers floor and shared memory allow, a cap that no block of B threads
 * can launch with, kernels that use setmaxnreg. */
#ifndef PTXOPT_REGTUNE_H
#define PTXOPT_REGTUNE_H

#include "opt/pass.h"

extern const PassInfo pass_regtune;

#endif
