/* heu.c — the thesis's HEU search of the SFU split ratio
 * (research/seed-002-sfu-lock.md §2.6; used by sfu.c), kept apart
 * from the emulator and the build so synthetic E(lambda) curves test it.
 *
 * Minimise T(lambda) subject to E(lambda) <= q becomes "the largest lambda
 * with E(lambda) <= q", since time falls and error grows with lambda.  As
 * the note restates it:
 *   E(0) = 0 (lambda 0 is the original);  run Lambda: if E <= q, Lambda;
 *   lo = (0, 0), hi = (Lambda, E_Lambda);
 *   repeat  lambda = floor(lo + (q - E_lo)(hi - lo)/(E_hi - E_lo)),
 *           run it; E == q: done; E < q: lo = it; else hi = it
 *   until hi - lo <= 1;  lambda* = lo;
 *   step-down repair (non-smooth E): while E(lambda*) > q, lambda* - 1.
 * With a QoS ratio r (the thesis's QoS_ratio, in error terms) the bound is
 * q = r * E(Lambda), known after the first sample.
 * One guard the restatement leaves implicit: the interpolated lambda is
 * clamped into (lo, hi), so a flat segment cannot repeat a sample forever.
 * A lambda already sampled is not run again. */
#include <math.h>
#include <string.h>

#include "tools/ptxopt-tune/internal.h"

static double sample(TuneHeu *h, int lambda, TuneErrFn f, void *ctx)
{
    for (int i = 0; i < h->nsteps; i++)
        if (h->steps[i].lambda == lambda) return h->steps[i].error;
    double e = f(lambda, ctx);
    if (h->nsteps < TUNE_HEU_MAX_STEPS) {
        h->steps[h->nsteps].lambda = lambda;
        h->steps[h->nsteps].error = e;
        h->nsteps++;
    }
    h->nruns++;
    return e;
}

bool tune_heu(int lambda_max, double q, double q_ratio, TuneErrFn f, void *ctx, TuneHeu *h)
{
    memset(h, 0, sizeof *h);
    h->lambda = 0;
    h->qos = q;
    if (lambda_max <= 0) return true;
    double eh = sample(h, lambda_max, f, ctx);
    if (isnan(eh)) return false;
    if (q_ratio > 0) h->qos = q = q_ratio * eh;
    if (eh <= q) { h->lambda = lambda_max; return true; }
    int lo = 0, hi = lambda_max;
    double elo = 0;
    while (hi - lo > 1) {
        double frac = (q - elo) / (eh - elo);
        int l = (int)floor(lo + frac * (hi - lo));
        if (l <= lo) l = lo + 1;
        if (l >= hi) l = hi - 1;
        double e = sample(h, l, f, ctx);
        if (isnan(e)) return false;
        if (e == q) { h->lambda = l; return true; }
        if (e < q) lo = l, elo = e;
        else hi = l, eh = e;
    }
    int l = lo;
    while (l > 0) {                 /* step-down repair (non-smooth E) */
        double e = sample(h, l, f, ctx);
        if (isnan(e)) return false;
        if (e <= q) break;
        l--;
    }
    h->lambda = l;
    return true;
}

