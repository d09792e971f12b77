/* options.c — the sfu pass's options and their checks (also run when the
 * pipeline is parsed).  The names are fixed by issue 14 so that scripts
 * (ptxopt-tune's sfu dimension, bench-sfu) can rely on them:
 *   lambda=K|all  delivery=imm|global  key=warp|warpid
 *   sites=div,rcp,...|all  f64=0|1  gate=warn|maxnreg|off */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opt/sfu/internal.h"

const char *const sfu_keys[] = { "lambda", "key", "delivery", "sites", "f64", "gate", NULL };

static const char *const kind_names[SFU_NKINDS] = { "div", "rcp", "sqrt", "rsqrt", "sin", "cos", "exp", "exp10",
                                                    "log", "log2", "pow", "tanh" };

const char *sfu_kind_name(SfuKind k) { return (unsigned)k < SFU_NKINDS ? kind_names[k] : "?"; }

static bool read_sites(const char *v, bool *kinds, char *err, size_t errsz)
{
    if (!v || strcmp(v, "all") == 0) {
        for (int k = 0; k < SFU_NKINDS; k++) kinds[k] = true;
        return true;
    }
    for (int k = 0; k < SFU_NKINDS; k++) kinds[k] = false;
    const char *p = v;
    while (*p) {
        size_t n = strcspn(p, ",");
        int k = 0;
        while (k < SFU_NKINDS && !(strlen(kind_names[k]) == n && memcmp(kind_names[k], p, n) == 0)) k++;
        if (k == SFU_NKINDS) {
            snprintf(err, errsz, "sites=: '%.*s' is not one of div, rcp, sqrt, rsqrt, sin, cos, exp, exp10, log, log2, pow, tanh, all",
                     (int)n, p);
            return false;
        }
        kinds[k] = true;
        p += n;
        if (*p == ',') p++;
    }
    return true;
}

bool sfu_read_options(const PassInvocation *inv, SfuOptions *o, char *err, size_t errsz)
{
    memset(o, 0, sizeof *o);
    const char *l = pass_arg(inv, "lambda");
    if (l && strcmp(l, "all") == 0) o->lambda = SFU_LAMBDA_ALL;
    else {
        if (!pass_arg_int(inv, "lambda", &o->lambda, SFU_LAMBDA_ALL, err, errsz)) return false;
        if (o->lambda < 0 || o->lambda > 1024) { /* 1024 threads: at most 32 warps per CTA, %warpid below 64 */
            snprintf(err, errsz, "lambda=%ld is outside 0..1024 (or all)", o->lambda);
            return false;
        }
    }
    /* in the order of the enums (internal.h) */
    static const char *const key_names[] = { "warp", "warpid" };
    static const char *const delivery_names[] = { "imm", "global" };
    static const char *const gate_names[] = { "warn", "maxnreg", "off" };
    int key, delivery, gate;
    if (!pass_arg_choice(inv, "key", key_names, 2, KEY_WARP, &key, err, errsz) ||
        !pass_arg_choice(inv, "delivery", delivery_names, 2, DELIVER_IMM, &delivery, err, errsz) ||
        !pass_arg_choice(inv, "gate", gate_names, 3, GATE_WARN, &gate, err, errsz))
        return false;
    o->key = key, o->delivery = delivery, o->gate = gate;
    return read_sites(pass_arg(inv, "sites"), o->kinds, err, errsz) && pass_arg_bool(inv, "f64", &o->f64, false, err, errsz);
}

bool sfu_validate(const PassInvocation *inv, char *err, size_t errsz)
{
    SfuOptions o;
    return sfu_read_options(inv, &o, err, errsz);
}
