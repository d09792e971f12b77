/* space.c — the candidate space: dimensions, their product, and the
 * register dimension's values (critical points).  See tune.h. */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/ptxopt-tune/tune.h"
#include "ir/fatal.h"
#include "opt/pass.h"
#include "opt/remarks.h"

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
static void regs_values(TuneDim *d, const Arch *a, TuneKernel *k)
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
    d.kind = DIM_MAXNREG;
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

/* A name of letters, digits and '_' (it becomes an environment variable). */
static bool good_name(const char *p, size_t n)
{
    if (!n) return false;
    for (size_t i = 0; i < n; i++)
        if (!(p[i] == '_' || (p[i] >= '0' && p[i] <= '9') || (p[i] >= 'a' && p[i] <= 'z') || (p[i] >= 'A' && p[i] <= 'Z')))
            return false;
    return true;
}

/* Adds one value to a fragment dimension; false after writing why. */
static bool add_value(TuneDim *d, const char *what, const char *v, size_t n, char *err, size_t errsz)
{
    if (d->nvalues == TUNE_MAX_VALUES) {
        snprintf(err, errsz, "%s: more than %d values", what, TUNE_MAX_VALUES);
        return false;
    }
    char *x = strndup(v, n);
    if (!x) fatal_oom();
    const char *why = NULL;
    if (!*x) why = "is empty";
    else if (strpbrk(x, ";<>,")) why = "may not contain ; < > or ,";
    else if (strcmp(x, "off") == 0)
        why = "is every dimension's own value (the pass not run): leave it out (a --constraint can exclude it)";
    for (int j = 0; j < d->nvalues && !why; j++)
        if (strcmp(d->values[j], x) == 0) why = "is given twice";
    if (why) {
        snprintf(err, errsz, "%s: value '%s' %s", what, x, why);
        free(x);
        return false;
    }
    d->values[d->nvalues++] = x;
    return true;
}

bool tune_make_dim(const char *name, const char *fragment, const char *const *values, int n, TuneDim *d, char *err, size_t errsz)
{
    memset(d, 0, sizeof *d);
    char what[300];
    snprintf(what, sizeof what, "dimension '%s'", name);
    if (!good_name(name, strlen(name))) {
        snprintf(err, errsz, "%s: the name may hold letters, digits and '_' only", what);
        return false;
    }
    d->name = xstrdup(name);
    d->fragment = xstrdup(fragment);
    if (!strstr(d->fragment, "%v")) {
        snprintf(err, errsz, "%s: the fragment must contain %%v (where the value goes)", what);
        return false;
    }
    for (int i = 0; i < n; i++)
        if (!add_value(d, what, values[i], strlen(values[i]), err, errsz)) return false;
    if (!d->nvalues) {
        snprintf(err, errsz, "%s: no values", what);
        return false;
    }
    return true;
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
    if (!good_name(spec, (size_t)(c1 - spec))) {
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
    char what[300];
    snprintf(what, sizeof what, "--dim='%s'", spec);
    for (const char *p = c2 + 1; *p;) {
        const char *e = strchr(p, ',');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        if (n && !add_value(d, what, p, n, err, errsz)) return false;
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

/* Every dimension has its values and "off" (NULL, index 0): a dimension
 * without values for a kernel (no critical point in its range) is off
 * only. */
long tune_space_size(const TuneKernel *k)
{
    long n = 1;
    for (int i = 0; i < k->ndims; i++) {
        long m = k->dims[i].nvalues + 1;
        if (n > LONG_MAX / m) return LONG_MAX;
        n *= m;
    }
    return n;
}

void tune_space_at(const TuneKernel *k, long i, char *value[])
{
    for (int d = k->ndims - 1; d >= 0; d--) {
        int nv = k->dims[d].nvalues + 1;
        long j = i % nv;
        value[d] = j ? k->dims[d].values[j - 1] : NULL;
        i /= nv;
    }
}

void tune_add_prune(TuneKernel *k, TunePruneKind kind, int dim, const char *value, int constraint, const char *reason, long points)
{
    TunePrune *p = realloc(k->prunes, sizeof *p * (size_t)(k->nprunes + 1));
    if (!p) fatal_oom();
    k->prunes = p;
    p = &k->prunes[k->nprunes++];
    p->kind = kind;
    p->dim = dim;
    p->value = value ? xstrdup(value) : NULL;
    p->constraint = constraint;
    p->reason = xstrdup(reason ? reason : "");
    p->points = points;
}

void tune_format_number(char *buf, size_t n, double x)
{
    if (x == floor(x) && fabs(x) < 1e15) {   /* whole numbers as such: 40, not 4e+01 */
        snprintf(buf, n, "%.0f", x);
        return;
    }
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(buf, n, "%.*g", prec, x);
        if (strtod(buf, NULL) == x) return;
    }
}

void tune_json_value(FILE *f, const char *v)
{
    if (!v) {
        fputs("null", f);
        return;
    }
    char *end;
    double x = strtod(v, &end);
    char buf[40];
    if (*v && !*end && isfinite(x) && (tune_format_number(buf, sizeof buf, x), strcmp(buf, v) == 0)) {
        fputs(buf, f);
        return;
    }
    json_string(f, v);
}
