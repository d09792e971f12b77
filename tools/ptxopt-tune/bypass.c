/* bypass.c — the bypass dimension of ptxopt-tune and the early-exit
 * search over its thresholds (research/seed-002-reg-cache.md §2.4, §3.3
 * item 4; issue 13 item 6).
 *
 * --dim=bypass[:FORMS[:OPS]] adds a dimension whose values are the
 * bypass pass's options for one point, "threshold=T;form=F;op=O", with T
 * over 0..W-1 (W = warps per block from .reqntid/.maxntid/--block; T = W,
 * every warp caching, is the input itself: the baseline), F over FORMS
 * (default pairs,versioning,l2policy; l2policy only on sm_80+, and without
 * an op) and O over OPS (default auto,cg,no-allocate,cs: every operator of
 * the pass, auto, its default, first).  The fragment is
 * "bypass<%v;kernel=%k>".
 *
 * THE SEARCH.  The thesis's T curves come in a few shapes (flat, monotone,
 * a bowl, irregular: §2.4), so not every T needs timing.  The variants of
 * a kernel that differ only in T form a curve (one per form, operator and
 * value of any other dimension); the variant with the same values but
 * bypass off is the curve's T = W ("cache all": the baseline when every
 * other dimension is off too).  Round 1 measures the baseline and, on each curve, T = 0
 * ("bypass all") and T = W/2.  Then, per curve:
 *   flat       every point within the flat band of the baseline (the
 *              larger of --min-gain and 1 %): stop (the baseline stays);
 *   monotone   f(0) <= f(W/2) <= f(W) or the reverse: stop, an end wins;
 *   bowl       f(W/2) below both ends: bracket the best measured T by its
 *              measured neighbours and measure the midpoints of the two
 *              halves, until the best's neighbours are adjacent integers
 *              (about log2 W rounds);
 *   irregular  f(W/2) above both ends: measure every T (at most W + 1).
 * A curve with a point that failed to measure is measured exhaustively.
 * The variants the search does not need stay unmeasured ("skipped" in the
 * report); their machine code was built and is in the table anyway. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/ptxopt-tune/tune.h"
#include "ir/fatal.h"

#define MAX_COMBOS 12   /* 2 forms x 4 operators + l2policy */

double tune_bypass_flat_pct = 1.0;
bool tune_search_early_exit = true;

static char *combos[MAX_COMBOS];   /* "form=pairs;op=cg", ... (one bypass dimension per run) */
static int ncombos;

static bool in_list(const char *list, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = list; p && *p;) {
        const char *e = strchr(p, ',');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if (len == n && strncmp(p, word, n) == 0) return true;
        p = e ? e + 1 : NULL;
    }
    return false;
}

static bool check_list(const char *list, const char *const *ok, int nok, const char *what, char *err, size_t errsz)
{
    for (const char *p = list; *p;) {
        const char *e = strchr(p, ',');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        bool found = false;
        for (int i = 0; i < nok && !found; i++) found = strlen(ok[i]) == len && strncmp(p, ok[i], len) == 0;
        if (!found) {
            snprintf(err, errsz, "--dim=bypass: unknown %s '%.*s'", what, (int)len, p);
            return false;
        }
        p = e ? e + 1 : p + len;
    }
    return true;
}

static void bypass_values(TuneDim *d, const Arch *a, TuneKernel *k)
{
    int W = (k->block + 31) / 32;
    if (W > 32) W = 32;
    d->nvalues = 0;
    for (int c = 0; c < ncombos; c++) {
        if (strstr(combos[c], "l2policy") && a && a->sm < 80) continue;
        for (int T = 0; T < W && d->nvalues < TUNE_MAX_VALUES; T++) {
            char buf[96];
            snprintf(buf, sizeof buf, "threshold=%d;%s", T, combos[c]);
            d->values[d->nvalues] = strdup(buf);
            if (!d->values[d->nvalues]) fatal_oom();
            d->nvalues++;
        }
    }
}

bool tune_is_bypass_dim(const TuneDim *d) { return d->values_for == bypass_values; }

bool tune_bypass_dim(const char *spec, TuneDim *d, char *err, size_t errsz)
{
    memset(d, 0, sizeof *d);
    static const char *const forms[] = { "pairs", "versioning", "l2policy" }, *const ops[] = { "auto", "cg", "no-allocate", "cs" };
    const char *rest = spec + strlen("bypass");
    char *flist = NULL, *olist = NULL;
    if (*rest == ':') {
        const char *c2 = strchr(rest + 1, ':');
        flist = c2 ? strndup(rest + 1, (size_t)(c2 - rest - 1)) : strdup(rest + 1);
        olist = c2 ? strdup(c2 + 1) : NULL;
        if (!flist || (c2 && !olist)) fatal_oom();
    } else if (*rest) {
        snprintf(err, errsz, "--dim='%s': expected bypass[:FORMS[:OPS]]", spec);
        return false;
    }
    bool ok = (!flist || check_list(flist, forms, 3, "form", err, errsz)) && (!olist || check_list(olist, ops, 4, "op", err, errsz));
    for (int c = 0; c < ncombos; c++) free(combos[c]);
    ncombos = 0;
    for (int f = 0; ok && f < 3; f++) {
        if (flist && !in_list(flist, forms[f])) continue;
        if (f == 2) {
            combos[ncombos++] = strdup("form=l2policy");
            continue;
        }
        for (int o = 0; o < 4; o++) {
            if (olist && !in_list(olist, ops[o])) continue;
            char buf[64];
            snprintf(buf, sizeof buf, "form=%s;op=%s", forms[f], ops[o]);
            combos[ncombos++] = strdup(buf);
        }
    }
    free(flist), free(olist);
    if (!ok) return false;
    if (!ncombos) {
        snprintf(err, errsz, "--dim='%s': no form and operator left", spec);
        return false;
    }
    d->name = strdup("bypass");
    d->fragment = strdup("bypass<%v;kernel=%k>");
    d->spec = strdup(spec);
    if (!d->name || !d->fragment || !d->spec) fatal_oom();
    d->values_for = bypass_values;
    d->kind = DIM_BYPASS;
    return true;
}

/* ------------------------------------------------------------ search */

typedef struct Point {
    int T;
    Variant *v;
} Point;

typedef struct Curve {
    char key[512];
    int W;
    int n;
    Point p[33];
    Variant *wv;                 /* T = W, every warp caching: the point with bypass off */
    bool done;
} Curve;

static int bypass_dim_of(const TuneKernel *k)
{
    for (int d = 0; d < k->ndims; d++)
        if (tune_is_bypass_dim(&k->dims[d])) return d;
    return -1;
}

static double f_at(const Curve *c, int T)
{
    if (T == c->W) return c->wv && c->wv->measured ? c->wv->median : NAN;
    for (int i = 0; i < c->n; i++)
        if (c->p[i].T == T) return c->p[i].v->measured ? c->p[i].v->median : NAN;
    return NAN;
}

static Variant *at(const Curve *c, int T)
{
    for (int i = 0; i < c->n; i++)
        if (c->p[i].T == T) return c->p[i].v;
    return NULL;
}

static void want(Variant **out, int *m, Variant *v, const char *tried)
{
    if (!v || tried[v->id] || v->status != V_OK) return;
    for (int i = 0; i < *m; i++)
        if (out[i] == v) return;
    out[(*m)++] = v;
}

/* The next points of one curve (see the file comment); *shape says why it stopped. */
static void curve_next(Curve *c, const char *tried, Variant **out, int *m, const char **shape)
{
    int W = c->W, mid = W / 2;
    Variant *v0 = at(c, 0), *vm = at(c, mid);
    if ((c->wv && !tried[c->wv->id]) || (v0 && !tried[v0->id]) || (vm && !tried[vm->id])) { /* round 1 */
        want(out, m, c->wv, tried);
        want(out, m, v0, tried);
        want(out, m, vm, tried);
        return;
    }
    if (!tune_search_early_exit) {   /* --strategy=exhaustive: the whole curve */
        int before = *m;
        for (int i = 0; i < c->n; i++) want(out, m, c->p[i].v, tried);
        if (*m == before) {
            *shape = "exhaustive: every T measured";
            c->done = true;
        }
        return;
    }
    double fw = f_at(c, W), f0 = f_at(c, 0), fm = mid == 0 ? f0 : f_at(c, mid);
    bool exhaustive = isnan(fw) || isnan(f0) || isnan(fm);
    if (!exhaustive) {
        double tol = fw * tune_bypass_flat_pct / 100.0;
        if (fabs(f0 - fw) <= tol && fabs(fm - fw) <= tol) {
            *shape = "flat: the baseline stays";
            c->done = true;
            return;
        }
        if ((f0 <= fm && fm <= fw) || (f0 >= fm && fm >= fw)) {
            *shape = f0 < fw ? "monotone: bypass-all end" : "monotone: cache-all end";
            c->done = true;
            return;
        }
        if (fm > f0 && fm > fw) exhaustive = true;
        else {
            /* bowl: bracket the best measured T */
            int best = W;
            double fb = fw;
            for (int T = 0; T < W; T++) {
                double f = f_at(c, T);
                if (!isnan(f) && f < fb) fb = f, best = T;
            }
            int lo = -1, hi = W + 1;
            for (int T = best - 1; T >= 0 && lo < 0; T--)
                if (!isnan(f_at(c, T))) lo = T;
            for (int T = best + 1; T <= W && hi > W; T++)
                if (!isnan(f_at(c, T))) hi = T;
            int before = *m;
            if (lo >= 0 && best - lo > 1) want(out, m, at(c, (lo + best) / 2), tried);
            if (hi <= W && hi - best > 1) want(out, m, at(c, (best + hi) / 2), tried);
            if (*m == before) {
                *shape = "bowl: converged";
                c->done = true;
            }
            return;
        }
    }
    int before = *m;
    for (int i = 0; i < c->n; i++) want(out, m, c->p[i].v, tried);
    if (*m == before) {
        *shape = "irregular or unmeasurable: every T measured";
        c->done = true;
    }
}

/* Each curve's verdict is said once (the search is stateless: the curves
 * are made again from the measurements at every round). */
static bool said(const char *kernel, const char *key)
{
    static unsigned long long seen[1024];
    static int nseen;
    unsigned long long h = 1469598103934665603ull;
    for (const char *p = kernel; *p; p++) h = (h ^ (unsigned char)*p) * 1099511628211ull;
    for (const char *p = key; *p; p++) h = (h ^ (unsigned char)*p) * 1099511628211ull;
    for (int i = 0; i < nseen; i++)
        if (seen[i] == h) return true;
    if (nseen < 1024) seen[nseen++] = h;
    return false;
}

/* A curve's name: every dimension's value but the threshold. */
static void curve_key(const TuneKernel *k, int b, char *const value[], const char *val, char *key, size_t n)
{
    size_t len = 0;
    for (int d = 0; d < k->ndims; d++) {
        const char *x = d == b ? strchr(val, ';') : value[d];
        len += (size_t)snprintf(key + len, n - len, "%s%s=%s", d ? " " : "", k->dims[d].name, x ? x + (d == b) : "-");
        if (len >= n) len = n - 1;
    }
}

/* The curve's T = W: the variant of k with the bypass dimension off and
 * every other dimension as in value[] (the baseline when they are all
 * off); NULL when it was not built (a constraint left it out).  A
 * duplicate stands for its original. */
static Variant *curve_end(Variant *vs, int nv, Variant *first, int b, char *const value[])
{
    const TuneKernel *k = first->kernel;
    for (Variant *v = first; v < vs + nv && v->kernel == k; v++) {
        bool same = !v->value[b];
        for (int d = 0; d < k->ndims && same; d++)
            if (d != b) same = (!v->value[d] && !value[d]) || (v->value[d] && value[d] && strcmp(v->value[d], value[d]) == 0);
        if (same) return v->status == V_DUPLICATE && v->duplicate_of >= 0 && v->duplicate_of < nv ? &vs[v->duplicate_of] : v;
    }
    return NULL;
}

int tune_search_next(Variant *vs, int nv, const char *tried, Variant **out, FILE *log)
{
    int m = 0;
    for (int i = 0; i < nv; i++) {
        Variant *v = &vs[i];
        if (tried[v->id] || v->status != V_OK || v->kernel->skip) continue;
        int b = bypass_dim_of(v->kernel);
        if (b < 0 || v->baseline || !v->value[b]) out[m++] = v; /* no search (bypass off: a curve's T = W): measure it */
    }
    /* the curves of each kernel with a bypass dimension */
    for (int i = 0; i < nv; i++) {
        Variant *first = &vs[i];
        if (!first->baseline) continue;
        TuneKernel *k = first->kernel;
        int b = bypass_dim_of(k);
        if (b < 0 || k->skip) continue;
        int W = (k->block + 31) / 32;
        if (W > 32) W = 32;
        Curve *cs = calloc(64, sizeof *cs);
        if (!cs) fatal_oom();
        int nc = 0;
        for (int j = i + 1; j < nv && vs[j].kernel == k; j++) {
            Variant *v = &vs[j];
            const char *val = v->value[b];
            /* the same machine code as another variant: that one's time */
            if (v->status == V_DUPLICATE && v->duplicate_of >= 0 && v->duplicate_of < nv) v = &vs[v->duplicate_of];
            int T;
            if (!val || sscanf(val, "threshold=%d", &T) != 1) continue;
            char key[512] = "";
            curve_key(k, b, vs[j].value, val, key, sizeof key);
            int c = 0;
            while (c < nc && strcmp(cs[c].key, key) != 0) c++;
            if (c == nc) {
                if (nc == 64) continue;
                snprintf(cs[nc].key, sizeof cs[nc].key, "%s", key);
                cs[nc].W = W;
                cs[nc].wv = curve_end(vs, nv, first, b, vs[j].value);
                nc++;
            }
            if (cs[c].n < 33) cs[c].p[cs[c].n++] = (Point){ T, v };
        }
        for (int c = 0; c < nc; c++) {
            const char *shape = NULL;
            curve_next(&cs[c], tried, out, &m, &shape);
            if (shape && log && !said(k->name, cs[c].key))
                fprintf(log, "ptxopt-tune: search %s, %s: %s\n", k->name, cs[c].key, shape);
        }
        free(cs);
    }
    return m;
}
