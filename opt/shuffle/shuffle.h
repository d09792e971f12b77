/* shuffle.h — shuffle synthesis (PTXASW, CC'23; research/seed-003-shuffle.md).
 *
 *   --passes='shuffle'                              per-target defaults
 *   --passes='shuffle<max-delta=31;max-shuffles=64>'
 *
 * A global load D whose address, in lane l, equals the address an earlier
 * load S used in lane l+N (for every input: proved with Z3) takes S's value
 * with shfl.sync.down (N > 0) or shfl.sync.up (N < 0) by |N|; lanes with no
 * source lane in the warp, and every lane of an incomplete or divergent
 * warp, still run the original load (kept, predicated).  N = 0 is a register
 * copy.  Options:
 *   max-delta=K     1 <= |N| <= K (0..31).  Default 31 below sm_70 (the
 *                   paper's setting, where a shuffle beats the slow L1 /
 *                   texture path), 1 on sm_70 and newer (fast unified L1:
 *                   the paper measured slowdowns with large |N|).
 *   max-shuffles=M  at most M rewritten loads per kernel (default: no cap
 *                   below sm_70, 8 on sm_70 and newer).
 *   no-corner=1     ablation: drop the fallback load (WRONG results in halo
 *                   lanes by design; for cost studies only).
 *   no-load=1       ablation: the destination takes its own lane's source
 *                   value, no shuffle and no load (WRONG by design).
 *   timeout-ms=T    Z3 time limit per query (default 2000); unknown means
 *                   no rewrite.
 *   loops=0|1     sources inside loops, with a runtime address check
 *                   (default 1 below sm_70, 0 on sm_70 and newer).
 *   wrap=0|1        widened 32-bit indices that may wrap between lanes and
 *                   that neither value ranges, warp alignment nor a
 *                   per-lane check cover (wrap.c), with the runtime
 *                   address check (default as loops; unsigned= is the
 *                   old name).
 *   clamp=0|1       clamped (min/max) indices whose shift does not commute
 *                   with the clamp, with the check (default as loops).
 *   version=0|1     versioning on the block shape (plan.c; default 1).
 *   profit=auto|off the profitability gate of profit.c on sm_70 and newer
 *                   (default auto: only predicted wins are rewritten; it
 *                   prices the template as emitted).
 *   budget-ms=B     time budget per kernel (default 10000; 0: none): when
 *                   it runs out the kernel is left unchanged (S24).
 *   prove=auto|z3|rewrite
 *                   auto (default): normalisation under the no-index-wrap
 *                   premise pre-selects, Z3 decides the rest and confirms
 *                   every accepted pair (a pair it does not prove is
 *                   dropped); z3: Z3 decides every candidate; rewrite:
 *                   normalisation unconfirmed (cost studies).  Without Z3:
 *                   normalisation only, and the remark says so.
 * A kernel with an instruction the front end kept verbatim (unknown
 * opcode) is left byte-identical (S23).  Option values are checked when
 * the pipeline is parsed (read_options, via PassInfo.validate).
 * The pass may raise .version to 6.2 (activemask), a module-level edit:
 * on modules of .version 6.2 or later it is function-local (ptxopt then
 * streams the file, one function in memory at a time).  Details and reasoning: ptxopt-passes(7). */
#ifndef PTXOPT_SHUFFLE_H
#define PTXOPT_SHUFFLE_H

#include "opt/pass.h"

extern const PassInfo pass_shuffle;

#endif
