/* test_tune_heu.c — the HEU search of ptxopt-tune's sfu dimension
 * (tools/ptxopt-tune/heu.c) on synthetic E(lambda) curves:
 *  - the thesis's cutcp example (Lambda 48, QoS 0.85e-5): lambda 30
 *    overshoots, then 26 meets the QoS exactly (research note §2.6);
 *  - the all-SFU version within the QoS returns Lambda after one run;
 *  - linear curves: the answer is the largest lambda with E <= q;
 *  - a step curve (flat, then a jump): still the largest such lambda, and
 *    the search terminates;
 *  - a failed sample stops the search;
 *  - with a QoS ratio r the bound is r x E(Lambda).
 * Prints every failure; exits 1 if any. */
#include <math.h>
#include <stdio.h>

#include "tools/ptxopt-tune/internal.h"

#include "testsuite/unit/check.h"

typedef struct Curve { int kind; double q, c; int step; int calls; } Curve;

static double curve(int l, void *ctx)
{
    Curve *cv = ctx;
    cv->calls++;
    switch (cv->kind) {
    case 0:   /* cutcp-like */
        if (l == 48) return cv->q * 48 / 30.5;
        if (l == 30) return cv->q * 30 / 26.5;
        if (l == 26) return cv->q;
        return NAN;
    case 1: return cv->c * l;                        /* linear */
    case 2: return l < cv->step ? 0 : 2 * cv->q;     /* step */
    default: return l == 12 ? NAN : cv->c * l;       /* a failing sample */
    }
}

int main(void)
{
    TuneHeu h;
    Curve cv = { 0, 0.85e-5, 0, 0, 0 };
    CHECK(tune_heu(48, cv.q, 0, curve, &cv, &h), "cutcp: search completes");
    CHECK(h.lambda == 26, "cutcp: lambda %d, want 26", h.lambda);
    CHECK(h.nsteps == 3 && h.steps[0].lambda == 48 && h.steps[1].lambda == 30 && h.steps[2].lambda == 26,
          "cutcp: samples 48, 30, 26 (got %d samples)", h.nsteps);

    Curve all = { 1, 0.01, 1e-4, 0, 0 };
    CHECK(tune_heu(32, all.q, 0, curve, &all, &h) && h.lambda == 32 && h.nruns == 1, "all-SFU within QoS: lambda %d after %d runs",
          h.lambda, h.nruns);

    for (int L = 1; L <= 64; L++)
        for (int k = 1; k <= 7; k++) {
            Curve lin = { 1, 0.01, 0.01 * 8 / (k * L + 0.5), 0, 0 };
            /* want the largest l with c * l <= q */
            int want = (int)floor(lin.q / lin.c);
            if (want > L) want = L;
            while (want > 0 && lin.c * want > lin.q) want--;
            CHECK(tune_heu(L, lin.q, 0, curve, &lin, &h) && h.lambda == want, "linear L=%d k=%d: lambda %d, want %d", L, k, h.lambda,
                  want);
            CHECK(h.nruns <= L, "linear L=%d: %d runs", L, h.nruns);
        }

    for (int step = 1; step <= 32; step++) {
        Curve st = { 2, 0.01, 0, step, 0 };
        CHECK(tune_heu(32, st.q, 0, curve, &st, &h), "step %d: completes", step);
        int want = step == 33 ? 32 : step - 1;
        CHECK(h.lambda == want, "step at %d: lambda %d, want %d", step, h.lambda, want);
        CHECK(st.calls == h.nruns && h.nruns <= 32, "step %d: %d runs, each lambda once", step, h.nruns);
    }

    Curve bad = { 3, 0.01, 0.01 / 12.5, 0, 0 };
    CHECK(!tune_heu(16, bad.q, 0, curve, &bad, &h), "a failed sample stops the search");
    CHECK(tune_heu(0, 0.01, 0, curve, &bad, &h) && h.lambda == 0 && h.nruns == 0, "no warps: lambda 0, no run");
    /* QoS ratio: q = r * E(Lambda); on a linear curve lambda = floor(r * Lambda)
     * (binary fractions, so the products are exact) */
    for (int k8 = 1; k8 <= 7; k8++) {
        Curve lin = { 1, 0, 1.0 / 1024, 0, 0 };
        CHECK(tune_heu(40, 123.0, k8 / 8.0, curve, &lin, &h), "ratio %d/8: completes", k8);
        CHECK(h.lambda == 5 * k8 && h.qos == 5.0 * k8 / 1024, "ratio %d/8: lambda %d (want %d), qos %g", k8, h.lambda, 5 * k8, h.qos);
    }
    printf("%d checks, %d failures\n", checks, failures);
    return failures ? 1 : 0;
}
