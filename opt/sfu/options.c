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
    const char *k = pass_arg(inv, "key");
    if (!k || strcmp(k, "warp") == 0) o->key = KEY_WARP;
    else if (strcmp(k, "warpid") == 0) o->key = KEY_WARPID;
    else {
        snprintf(err, errsz, "key=%s must be warp or warpid", k);
        return false;
    }
    const char *d = pass_arg(inv, "delivery");
    if (!d || strcmp(d, "imm") == 0) o->delivery = DELIVER_IMM;
    else if (strcmp(d, "global") == 0) o->delivery = DELIVER_GLOBAL;
    else {
        snprintf(err, errsz, "delivery=%s must be imm or global", d);
        return false;
    }
    const char *g = pass_arg(inv, "gate");
    if (!g || strcmp(g, "warn") == 0) o->gate = GATE_WARN;
    else if (strcmp(g, "maxnreg") == 0) o->gate = GATE_MAXNREG;
    else if (strcmp(g, "off") == 0) o->gate = GATE_OFF;
    else {
        snprintf(err, errsz, "gate=%s must be warn, maxnreg or off", g);
        return false;
    }
    return read_sites(pass_arg(inv, "sites"), o->kinds, err, errsz) && pass_arg_bool(inv, "f64", &o->f64, false, err, errsz);
}

bool sfu_validate(const PassInvocation *inv, char *err, size_t errsz)
{
    SfuOptions o;
    return sfu_read_options(inv, &o, err, errsz);
}
