/* options.c — the sfu pass's options and their checks (also run when the
 * pipeline is parsed).  The names are fixed by issue 14 so that scripts
 * (ptxopt-tune's sfu dimension, bench-sfu) can rely on them:
 *   lambda=K|all  delivery=imm|global  key=warp|warpid
 *   sites=div,rcp,...|all[,-KIND][,-LINE]  f64=0|1  safe=0|1  gate=warn|maxnreg|off
 * (issue 24 added the exclusions and safe=). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opt/sfu/internal.h"

const char *const sfu_keys[] = { "lambda", "key", "delivery", "sites", "f64", "safe", "gate", NULL };

static const char *const kind_names[SFU_NKINDS] = { "div", "rcp", "sqrt", "rsqrt", "sin", "cos", "exp", "exp10",
                                                    "log", "log2", "pow", "tanh" };

const char *sfu_kind_name(SfuKind k) { return (unsigned)k < SFU_NKINDS ? kind_names[k] : "?"; }

/* sites=: kinds to take (or all), -KIND to drop one, -LINE to leave the
 * site that starts at that input line precise. */
static bool read_sites(const char *v, SfuOptions *o, char *err, size_t errsz)
{
    bool *kinds = o->kinds;
    bool any_plus = false;
    for (const char *p = v ? v : ""; *p;) {
        size_t n = strcspn(p, ",");
        if (n && p[0] != '-') any_plus = true;
        p += n;
        if (*p == ',') p++;
    }
    for (int k = 0; k < SFU_NKINDS; k++) kinds[k] = !any_plus;
    const char *p = v ? v : "";
    while (*p) {
        size_t n = strcspn(p, ",");
        bool minus = n && p[0] == '-';
        const char *w = p + minus;
        size_t wn = n - minus;
        if (wn == 3 && memcmp(w, "all", 3) == 0 && !minus) {
            for (int k = 0; k < SFU_NKINDS; k++) kinds[k] = true;
        } else if (minus && wn && w[0] >= '0' && w[0] <= '9') {
            char *end;
            long line = strtol(w, &end, 10);
            if ((size_t)(end - w) != wn || line <= 0 || line > 100000000) {
                snprintf(err, errsz, "sites=: '-%.*s' is not -LINE (an input line number)", (int)wn, w);
                return false;
            }
            if (o->nexclude == SFU_MAX_EXCLUDE) {
                snprintf(err, errsz, "sites=: more than %d excluded lines", SFU_MAX_EXCLUDE);
                return false;
            }
            o->exclude[o->nexclude++] = (int)line;
        } else {
            int k = 0;
            while (k < SFU_NKINDS && !(strlen(kind_names[k]) == wn && memcmp(kind_names[k], w, wn) == 0)) k++;
            if (k == SFU_NKINDS) {
                snprintf(err, errsz, "sites=: '%.*s' is not one of div, rcp, sqrt, rsqrt, sin, cos, exp, exp10, log, log2, "
                         "pow, tanh, all (each may be -KIND), or -LINE", (int)n, p);
                return false;
            }
            kinds[k] = !minus;
        }
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
    return read_sites(pass_arg(inv, "sites"), o, err, errsz) && pass_arg_bool(inv, "f64", &o->f64, false, err, errsz) &&
           pass_arg_bool(inv, "safe", &o->safe, false, err, errsz);
}

bool sfu_validate(const PassInvocation *inv, char *err, size_t errsz)
{
    SfuOptions o;
    return sfu_read_options(inv, &o, err, errsz);
}
