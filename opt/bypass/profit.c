/* profit.c — what the pass does with a kernel, given the options
 * (issue 13 items 5 and 8).
 *
 * The pass is opt-in and never in a default pipeline, and with no
 * threshold it changes nothing: whether bypassing pays depends on the
 * cache footprint of the warps at run time (the thesis's curves are flat,
 * monotone or bowl-shaped per application and GPU, §2.4), which no static
 * rule here predicts well enough to promise "no slowdown".  Each kernel
 * gets a remark saying so and naming the two ways to choose T: measure it
 * (ptxopt-tune --dim=bypass) or give it.
 *
 * With an explicit threshold, immediate delivery:
 *   T = 0               every eligible load becomes the bypass variant,
 *                       no header, no predicate (plain bypass-all code);
 *   T >= W              every warp caches: the kernel is left unchanged
 *                       (W from .reqntid/.maxntid, else 32, the most a
 *                       block can have; threshold=all is always this);
 *   otherwise           the header and the form.
 * delivery=global always emits the header (the harness picks T later). */
#include <stdio.h>

#include "opt/bypass/internal.h"

Plan byp_plan(const Options *o, const Shape *sh, long *T, char *why, size_t cap)
{
    int W = sh->warps ? sh->warps : BYP_MAX_WARPS;
    if (!o->has_threshold) {
        snprintf(why, cap,
                 "no threshold given: bypassing is opt-in and only pays for some cache footprints, so the kernel is "
                 "unchanged (give threshold=T, 0..W, or measure T with ptxopt-tune --dim=bypass)");
        return PLAN_NONE;
    }
    *T = o->all ? W : o->threshold;
    if (o->delivery == DELIV_GLOBAL) {
        snprintf(why, cap, "T read from %s (default %ld)", BYP_THRESHOLD_SYM, *T);
        return PLAN_PARTITION;
    }
    if (*T == 0) {
        snprintf(why, cap, "T = 0: every warp bypasses, plain code without a header");
        return PLAN_ALL_BYPASS;
    }
    if (*T >= W) {
        snprintf(why, cap, "T = %ld >= W = %d%s: every warp caches, kernel unchanged", *T, W,
                 sh->warps ? "" : " (block size unknown: at most 32 warps)");
        return PLAN_NONE;
    }
    snprintf(why, cap, "T = %ld of W %s %d", *T, sh->warps && sh->exact ? "=" : "<=", W);
    return PLAN_PARTITION;
}

/* form=auto: the §3.3 measurements (ptxas 13.0, sm_75..sm_90) are the
 * rule.  Pairs make ptxas stop unrolling the loops they sit in (gesummv:
 * 87 -> 30 LDG; the corpus matmul: 58 -> 20, testsuite/bypass/sass.test)
 * but cost nothing outside loops; versioning keeps the schedule of every
 * loop at twice the code.  So: versioning when a rewritten load is in a
 * loop and the body is small enough to copy (at most AUTO_MAX_INSTRS
 * instructions: the instruction cache, the thesis's worry about the copy),
 * pairs otherwise.  l2policy is never chosen: it steers another cache. */
#define AUTO_MAX_INSTRS 2000

BypassForm byp_auto_form(Function *fn, const Site *s, int n, int sm, char *why, size_t cap)
{
    (void)sm;
    int loops = 0;
    for (int i = 0; i < n; i++)
        if (!s[i].skip && s[i].in_loop) loops++;
    uint32_t ninstr = cfg_get(fn)->ninstr;
    if (loops && ninstr <= AUTO_MAX_INSTRS) {
        snprintf(why, cap, "auto: %d rewritten load%s in loops, %u instructions to copy", loops, loops == 1 ? "" : "s", ninstr);
        return FORM_VERSIONING;
    }
    snprintf(why, cap, "auto: %s", loops ? "body too large to copy" : "no rewritten load in a loop");
    return FORM_PAIRS;
}
