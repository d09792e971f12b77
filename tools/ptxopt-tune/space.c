/* space.c — the candidate space: dimensions, their product, and the
 * register dimension's values (critical points).  See tune.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/ptxopt-tune/tune.h"
#include "ir/fatal.h"
#include "opt/pass.h"

static char *xstrdup(const char *s)
{
    char *d = strdup(s);
    if (!d) fatal_oom();
    return d;
}

static void set_int_values(TuneDim *d, const int *v, int n)
{
    for (int i = 0; i < d->nvalues; i++) free(d->values[i]);
    d->nvalues = 0;
    for (int i = 0; i < n && d->nvalues < TUNE_MAX_VALUES; i++) {
        char buf[16];
        snprintf(buf, sizeof buf, "%d", v[i]);
        d->values[d->nvalues++] = xstrdup(buf);
    }
}

/* The regs dimension: the critical points of the kernel's range. */
static void regs_values(TuneDim *d, const Arch *a, const TuneKernel *k)
{
    int caps[CRIT_MAX_POINTS];
    set_int_values(d, caps, tune_critical_caps(a, k, caps));
}

TuneDim tune_regs_dim(void)
{
    TuneDim d = { 0 };
    d.name = "maxnreg";
    d.fragment = "regtune<maxnreg=%v;kernel=%k>";
    d.values_for = regs_values;
    return d;
}

int tune_critical_caps(const Arch *a, const TuneKernel *k, int caps[CRIT_MAX_POINTS])
{
    int lo = k->floor_regs, hi = k->top_clamp;
    if (hi < a->min_regs_per_thread) return 0; /* nothing a cap can change */
    if (lo < a->min_regs_per_thread) lo = a->min_regs_per_thread;
    OccInput in = occ_input(k->block, 0);
    in.smem_static = k->smem_static;
    in.smem_dynamic = k->smem_dynamic;
    int n = 0;
    if (!k->universal) {
        CritPoint cp[CRIT_MAX_POINTS];
        int m = crit_points(a, &in, lo, hi, cp);
        for (int i = 0; i < m; i++) caps[n++] = cp[i].regs;
        return n;
    }
    int uni[CRIT_MAX_POINTS];
    int m = crit_universal(a, &in, uni);
    for (int i = 0; i < m; i++)
        if (uni[i] >= lo && uni[i] < hi) caps[n++] = uni[i];
    caps[n++] = hi; /* the range's own end is always a candidate */
    return n;
}

bool tune_parse_dim(const char *spec, TuneDim *d, char *err, size_t errsz)
{
    memset(d, 0, sizeof *d);
    const char *c1 = strchr(spec, ':');
    const char *c2 = c1 ? strrchr(spec, ':') : NULL;
    if (!c1 || c2 == c1) {
        snprintf(err, errsz, "--dim='%s': expected NAME:FRAGMENT:V1,V2,...", spec);
        return false;
    }
    if (c1 == spec) {
        snprintf(err, errsz, "--dim='%s': the dimension needs a name", spec);
        return false;
    }
    for (const char *p = spec; p < c1; p++)
        if (!(*p == '_' || (*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z'))) {
            snprintf(err, errsz, "--dim='%s': the name may hold letters, digits and '_' only", spec);
            return false;
        }
    d->name = strndup(spec, (size_t)(c1 - spec));
    d->fragment = strndup(c1 + 1, (size_t)(c2 - c1 - 1));
    if (!d->name || !d->fragment) fatal_oom();
    if (!strstr(d->fragment, "%v")) {
        snprintf(err, errsz, "--dim='%s': the fragment must contain %%v (where the value goes)", spec);
        return false;
    }
    const char *p = c2 + 1;
    while (*p) {
        const char *e = strchr(p, ',');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        if (n) {
            if (d->nvalues == TUNE_MAX_VALUES) {
                snprintf(err, errsz, "--dim='%s': more than %d values", spec, TUNE_MAX_VALUES);
                return false;
            }
            char *v = strndup(p, n);
            if (!v) fatal_oom();
            for (char *q = v; *q; q++)
                if (*q == ';' || *q == '>' || *q == '<' || *q == ',') {
                    snprintf(err, errsz, "--dim='%s': value '%s' may not contain ; < > or ,", spec, v);
                    free(v);
                    return false;
                }
            d->values[d->nvalues++] = v;
        }
        p += n + (e != NULL);
    }
    if (!d->nvalues) {
        snprintf(err, errsz, "--dim='%s': no values", spec);
        return false;
    }
    return true;
}

/* Expands %v and %k (and %% to %) of one fragment. */
static void expand(char **buf, size_t *len, size_t *cap, const char *frag, const char *value, const char *kernel)
{
    for (const char *p = frag; *p; p++) {
        const char *ins = NULL;
        char one[2] = { *p, 0 };
        if (p[0] == '%' && p[1] == 'v') ins = value, p++;
        else if (p[0] == '%' && p[1] == 'k') ins = kernel, p++;
        else if (p[0] == '%' && p[1] == '%') ins = "%", p++;
        else ins = one;
        size_t n = strlen(ins);
        if (*len + n + 1 > *cap) {
            *cap = (*len + n + 1) * 2;
            *buf = realloc(*buf, *cap);
            if (!*buf) fatal_oom();
        }
        memcpy(*buf + *len, ins, n + 1);
        *len += n;
    }
}

bool tune_check_dim(const TuneDim *d, char *err, size_t errsz)
{
    for (int i = 0; i < d->nvalues; i++) {
        size_t len = 0, cap = 64;
        char *buf = malloc(cap);
        if (!buf) fatal_oom();
        buf[0] = 0;
        expand(&buf, &len, &cap, d->fragment, d->values[i], "kernel"); /* %k: any name will do */
        Pipeline pl;
        char why[512];
        bool ok = pipeline_parse(buf, &pl, why, sizeof why);
        if (ok) pipeline_free(&pl);
        else snprintf(err, errsz, "--dim '%s', value '%s': %s", d->name, d->values[i], why);
        free(buf);
        if (!ok) return false;
    }
    return true;
}

char *tune_pipeline(const TuneKernel *k, char *const value[])
{
    size_t len = 0, cap = 64;
    char *buf = malloc(cap);
    if (!buf) fatal_oom();
    buf[0] = 0;
    for (int i = 0; i < k->ndims; i++) {
        if (!value[i]) continue;
        if (len) expand(&buf, &len, &cap, ",", "", "");
        expand(&buf, &len, &cap, k->dims[i].fragment, value[i], k->name);
    }
    return buf;
}

/* A dimension without values for a kernel (no critical point in its
 * range) counts as one value: "not applied" (NULL). */
long tune_space_size(const TuneKernel *k)
{
    long n = 1;
    for (int i = 0; i < k->ndims; i++) n *= k->dims[i].nvalues ? k->dims[i].nvalues : 1;
    return k->ndims ? n : 0;
}

void tune_space_at(const TuneKernel *k, long i, char *value[])
{
    for (int d = k->ndims - 1; d >= 0; d--) {
        int nv = k->dims[d].nvalues;
        value[d] = nv ? k->dims[d].values[i % nv] : NULL;
        i /= nv ? nv : 1;
    }
}
