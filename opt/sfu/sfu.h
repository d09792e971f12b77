/* sfu.h — SFU approximation splitting (Ang Li's thesis ch. 6, ICS'16;
 * research/seed-002-sfu-lock.md §2, checklist S1-S13).
 *
 *   --passes='sfu'                                   every warp approximate
 *   --passes='sfu<lambda=K|all;key=warp|warpid;delivery=imm|global;sites=div,rcp,...[,-KIND][,-LINE];
 *                 f64=0|1;safe=0|1;gate=warn|maxnreg|off>'
 *
 * Sites: single-instruction precise operations (div.rn/div.full, rcp.rn,
 * sqrt.rn, the sqrt.rn + rcp.rn pair as rsqrt; f64 forms with f64=1) and
 * the library code nvcc inlines for sinf, cosf, sincosf, expf, exp10f, logf,
 * log2f, powf and tanhf, matched as SSA value graphs (match.c) against
 * fingerprints generated from nvcc's own output (opt/sfu/fingerprints/
 * gen.py, one data file per toolkit), replaced where the output is defined
 * and the dead precise code pruned (replace.c, prune.c); every call left
 * precise gets a "resembles" remark.  sinf/cosf are guarded: |x| > 100 pi
 * or NaN branches to nvcc's precise code (guard.c).  Values that reach a
 * branch, selp condition, cvt to int or an address get a remark, and
 * safe=1 leaves those sites precise (reach.c).  Each
 * site's approximate form is the thesis's SFU sequence (ex2.approx with
 * log2(e), lg2.approx with ln 2, sin/cos/rcp/rsqrt/sqrt/div.approx), .ftz
 * as in the original.  Explicit .rz/.rm/.rp are left alone.
 *
 * Split: decided whole before anything is emitted (split.c: sfu_plan, then
 * sfu_apply), so a function nothing applies to stays byte-identical.  The
 * region (the outermost loop holding sites, else the kernel's body) is
 * cloned, { } scopes included; warps whose key is below lambda run the approximate
 * copy.  key=warp: the warp's index in its CTA (the deterministic global
 * warp index ctaid_linear * W + tid_linear / 32, modulo the W warps of a
 * CTA), so lambda of the W warps of every CTA are approximate; key=warpid:
 * %warpid as the thesis did (nondeterministic: a warp's slot depends on
 * scheduling).  lambda=0 with delivery=imm leaves the kernel
 * byte-identical; lambda=all (or >= W under .reqntid) emits only the
 * approximate code.  delivery=global reads lambda from the module
 * variable .global .u32 __ptxopt_sfu_lambda (initialised to lambda; a host
 * may overwrite it with cuModuleGetGlobal; declared even when nothing is
 * split).  Aligned barriers in cloned
 * regions become barrier.sync (non-aligned).  A split kernel carries the
 * label prefix $__ptxopt_sfu: running the pass again does not split it
 * twice.  gate=warn (default): ptxas -v after splitting, registers and
 * occupancy in a remark, a warning when occupancy falls (gate=maxnreg:
 * and .maxnreg at the original's registers).  Details: ptxopt-passes(7). */
#ifndef PTXOPT_SFU_H
#define PTXOPT_SFU_H

#include "opt/pass.h"

extern const PassInfo pass_sfu;

#endif
