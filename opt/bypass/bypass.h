/* bypass.h — warp-partitioned cache bypassing (Ang Li's thesis ch. 5,
 * SC'15; research/seed-002-reg-cache.md §2, §3.3; issue 13).
 *
 *   --passes='bypass<threshold=T>'            pairs, op=auto, immediate T
 *   --passes='bypass<threshold=2;op=no-allocate;form=versioning>'
 *   --passes='bypass<threshold=4;form=l2policy;delivery=global>'
 *
 * Warps whose CTA-local index (linear tid >> 5) is below T keep every
 * eligible global load as it is ("caching warps"); the others bypass:
 *   threshold=T   0..32 caching warps per block, or all (= W); without it
 *                 the pass changes nothing (opt-in; remark says so)
 *   op=auto|cg|no-allocate|cs   the bypass operator: auto (default) is
 *                 .cg for a plain ld.global and .L1::no_allocate for an
 *                 ld.global.nc (where .cg changes nothing); or ld.global.cg,
 *                 .L1::no_allocate, .cs (evict-first) for every load
 *   form=pairs    @p ld (original) / @!p ld.<op>, per load (default)
 *   form=versioning  one branch at entry to a copy of the body whose loads
 *                 bypass (CTA barriers become their non-aligned form)
 *   form=l2policy sm_80+: evict_last / evict_first L2 policy per warp,
 *                 ld.global.L2::cache_hint (no op= allowed)
 *   form=auto     pairs or versioning per kernel (profit.c)
 *   delivery=imm  T as an immediate: T = 0 is plain bypass-all code, T >= W
 *                 leaves the kernel unchanged (default)
 *   delivery=global  T read at entry from the module variable
 *                 `.global .align 4 .u32 __ptxopt_bypass_threshold = T;`,
 *                 which a harness may overwrite (one compile serves every T)
 *   kernel=NAME   only this function (the others are left as they are)
 * Details and reasoning: ptxopt-passes(7), section "bypass". */
#ifndef PTXOPT_BYPASS_H
#define PTXOPT_BYPASS_H

#include "opt/pass.h"

extern const PassInfo pass_bypass;

#endif
