/* options.c — the bypass pass's options and their checks (also run when
 * the pipeline is parsed).  The names are fixed by issue 13 so that
 * scripts can rely on them:
 *   threshold=T   caching warps per CTA: 0..32, or `all` (= W, every warp);
 *                 absent: the pass changes nothing (see profit.c)
 *   op=auto|cg|no-allocate|cs     the bypass half's operator (default auto:
 *                                 .cg for a plain load, .L1::no_allocate
 *                                 for an ld.global.nc, see legality.c)
 *   form=pairs|versioning|l2policy|auto                (default pairs)
 *   delivery=imm|global           T as an immediate, or read from the
 *                                 module variable __ptxopt_bypass_threshold
 *   kernel=NAME                   only this function (ptxopt-tune's %k) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opt/bypass/internal.h"

const char *const byp_keys[] = { "threshold", "op", "form", "delivery", "kernel", NULL };

static const char *const op_names[] = { "cg", "no-allocate", "cs", "auto" };
static const char *const form_names[] = { "pairs", "versioning", "l2policy", "auto" };

const char *byp_op_name(BypassOp op) { return op_names[op]; }
const char *byp_form_name(BypassForm f) { return form_names[f]; }

bool byp_read_options(const PassInvocation *inv, Options *o, char *err, size_t errsz)
{
    memset(o, 0, sizeof *o);
    const char *t = pass_arg(inv, "threshold");
    if (t) {
        o->has_threshold = true;
        if (strcmp(t, "all") == 0) {
            o->all = true;
            o->threshold = BYP_MAX_WARPS;
        } else {
            char *end;
            long v = strtol(t, &end, 10);
            if (!*t || *end || v < 0 || v > BYP_MAX_WARPS) {
                snprintf(err, errsz, "threshold=%s must be an integer in 0..%d (caching warps per block) or all", t,
                         BYP_MAX_WARPS);
                return false;
            }
            o->threshold = v;
        }
    }
    int op, form, deliv;
    static const char *const deliv_names[] = { "imm", "global" };
    if (!pass_arg_choice(inv, "op", op_names, 4, BOP_AUTO, &op, err, errsz) ||
        !pass_arg_choice(inv, "form", form_names, 4, FORM_PAIRS, &form, err, errsz) ||
        !pass_arg_choice(inv, "delivery", deliv_names, 2, DELIV_IMM, &deliv, err, errsz))
        return false;
    o->op = (BypassOp)op;
    o->form = (BypassForm)form;
    o->delivery = (Delivery)deliv;
    o->kernel = pass_arg(inv, "kernel");
    if (o->form == FORM_L2POLICY && pass_arg(inv, "op")) {
        snprintf(err, errsz, "op=%s has no meaning with form=l2policy (it keeps the L1 operator and picks an L2 policy)",
                 pass_arg(inv, "op"));
        return false;
    }
    return true;
}

bool byp_validate(const PassInvocation *inv, char *err, size_t errsz)
{
    Options o;
    return byp_read_options(inv, &o, err, errsz);
}
