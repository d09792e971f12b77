/* options.c — the shuffle pass's options, their per-target defaults and
 * their checks (also run when the pipeline is parsed). */
#include <stdio.h>
#include <string.h>

#include "opt/shuffle/internal.h"

const char *const shfl_keys[] = { "max-delta", "max-shuffles", "no-corner", "no-load", "timeout-ms", "budget-ms", "prove",
                                  "loops", "unsigned", "wrap", "clamp", "profit", "version", NULL };

/* Per-target defaults (research §5, §6.3): before Volta a shuffle beats
 * the slow L1/texture path (the paper's gains: Maxwell, Pascal); Volta and
 * newer have a fast unified L1 (28 cycles against a 22-cycle shuffle) and
 * the paper measured slowdowns with large |N| and many shuffles.  A source
 * in a loop needs the runtime address check (two more shuffles per load),
 * which only a slow load path repays: off by default on sm_70 and newer. */
bool shfl_read_options(const PassInvocation *inv, int sm, Options *o, char *err, size_t errsz)
{
    bool modern = sm == 0 || sm >= 70;
    if (!pass_arg_int(inv, "max-delta", &o->max_delta, modern ? 1 : 31, err, errsz) ||
        !pass_arg_int(inv, "max-shuffles", &o->max_shuffles, modern ? 8 : 1000000, err, errsz) ||
        !pass_arg_int(inv, "timeout-ms", &o->timeout_ms, 2000, err, errsz) ||
        !pass_arg_int(inv, "budget-ms", &o->budget_ms, 10000, err, errsz) ||
        !pass_arg_bool(inv, "no-corner", &o->no_corner, false, err, errsz) ||
        !pass_arg_bool(inv, "no-load", &o->no_load, false, err, errsz) ||
        !pass_arg_bool(inv, "loops", &o->loops, !modern, err, errsz) ||
        !pass_arg_bool(inv, "unsigned", &o->unsign, !modern, err, errsz) ||  /* the old name of wrap= */
        !pass_arg_bool(inv, "wrap", &o->unsign, o->unsign, err, errsz) ||
        !pass_arg_bool(inv, "clamp", &o->clamp, !modern, err, errsz) ||
        !pass_arg_bool(inv, "version", &o->version, true, err, errsz))
        return false;
    if (o->max_delta < 0 || o->max_delta > 31) {
        snprintf(err, errsz, "max-delta=%ld is outside 0..31", o->max_delta);
        return false;
    }
    if (o->max_shuffles < 0 || o->budget_ms < 0) {
        snprintf(err, errsz, "%s=%ld is negative", o->max_shuffles < 0 ? "max-shuffles" : "budget-ms",
                 o->max_shuffles < 0 ? o->max_shuffles : o->budget_ms);
        return false;
    }
    if (o->timeout_ms <= 0 || o->timeout_ms > 86400000) {
        snprintf(err, errsz, "timeout-ms=%ld is outside 1..86400000", o->timeout_ms);
        return false;
    }
    static const char *const prove_names[] = { "auto", "z3", "rewrite" }; /* ProveMode order */
    static const char *const profit_names[] = { "auto", "off" };
    int prove, profit;
    if (!pass_arg_choice(inv, "prove", prove_names, 3, PROVE_AUTO, &prove, err, errsz) ||
        !pass_arg_choice(inv, "profit", profit_names, 2, 0, &profit, err, errsz))
        return false;
    o->prove = (ProveMode)prove;
    o->profit = profit == 0;
    return true;
}

/* Pipeline parsing checks the options with the run's own reader (the
 * target only changes defaults, never what is valid). */
bool shfl_validate(const PassInvocation *inv, char *err, size_t errsz)
{
    Options o;
    return shfl_read_options(inv, 0, &o, err, errsz);
}
