/* test_emu_approx.c — the error model of the approximate instructions
 * (emu/approx_error.c) and the output-error metrics (emu/error_metric.c).
 *
 * Checks, on chosen inputs of every instruction of the table:
 *  - exact mode returns the rounded-to-nearest exact value (unchanged);
 *  - bound mode moves the result by exactly the documented bound: k ulps
 *    from the rounded result for ulp bounds; for absolute and relative
 *    bounds the result is inside the bound and its next float outward is
 *    not; bound:up and bound:down go up and down, the hash-chosen sign
 *    gives both signs over a sweep and the same sign for the same input;
 *  - random mode stays within the bound, depends on the seed, and is
 *    reproducible;
 *  - div.approx with 2^126 < |b| < 2^128 gives 0; specials stay exact;
 *  - the f64 gross forms drop the low word of input and result;
 *  - the metrics on hand-computable pairs.
 * Prints every failure; exits 1 if any. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "emu/emu.h"
#include "emu/fp.h"
#include "emu/internal.h"

#include "testsuite/unit/check.h"

static double exact_of(int op, float a, float b)
{
    return op == EK_FDIV ? (double)a / (double)b : fp_approx(op, (double)a);
}

/* Error of r against exact in the bound's unit. */
static double err_in_unit(const EmuApproxBound *bd, float r, double exact)
{
    switch (bd->kind) {
    case EMU_BOUND_ULP: {
        float rn = (float)exact;
        int32_t a = (int32_t)bits_f32(r), b = (int32_t)bits_f32(rn);
        if (a < 0) a = (int32_t)0x80000000 - a;
        if (b < 0) b = (int32_t)0x80000000 - b;
        return fabs((double)a - (double)b);
    }
    case EMU_BOUND_ABS: return fabs((double)r - exact);
    default: return fabs((double)r - exact) / fabs(exact);
    }
}

typedef struct Case { int op; bool full; float a, b; } Case;

static const Case cases[] = {
    { EK_FSIN, false, 0.5f, 0 }, { EK_FSIN, false, -3.0f, 0 }, { EK_FSIN, false, 100.0f, 0 },
    { EK_FCOS, false, 1.25f, 0 }, { EK_FCOS, false, 7.0f, 0 },
    { EK_FEX2, false, 3.7f, 0 }, { EK_FEX2, false, -10.25f, 0 },
    { EK_FLG2, false, 1.5f, 0 }, { EK_FLG2, false, 1000.0f, 0 }, { EK_FLG2, false, 0.01f, 0 },
    { EK_FRCP, false, 3.0f, 0 }, { EK_FRCP, false, -0.7f, 0 },
    { EK_FSQRT, false, 2.0f, 0 }, { EK_FSQRT, false, 12345.678f, 0 },
    { EK_FRSQRT, false, 2.0f, 0 }, { EK_FRSQRT, false, 0.3f, 0 },
    { EK_FTANH, false, 0.4f, 0 },
    { EK_FDIV, false, 1.0f, 3.0f }, { EK_FDIV, false, -7.5f, 0.3f }, { EK_FDIV, true, 2.0f, 7.0f },
};

static void test_bound(void)
{
    EmuApprox ex = { EMU_APPROX_EXACT, 0, 0 }, up = { EMU_APPROX_BOUND, 1, 0 }, dn = { EMU_APPROX_BOUND, -1, 0 };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const Case *c = &cases[i];
        double exact = exact_of(c->op, c->a, c->b);
        uint32_t ia = bits_f32(c->a), ib = bits_f32(c->b);
        EmuApproxBound bd;
        CHECK(emu_approx_bound_f32(c->op, c->full, c->a, c->b, &bd), "case %zu has a bound", i);
        float re = emu_approx_f32(&ex, c->op, c->full, ia, ib, exact);
        CHECK(bits_f32(re) == bits_f32((float)exact), "case %zu: exact mode is the rounded exact value", i);
        float ru = emu_approx_f32(&up, c->op, c->full, ia, ib, exact);
        float rd = emu_approx_f32(&dn, c->op, c->full, ia, ib, exact);
        CHECK((double)ru > exact && (double)rd < exact, "case %zu: up %a down %a around %a", i, (double)ru, (double)rd, exact);
        for (int s = 0; s < 2; s++) {
            float r = s ? ru : rd;
            double e = err_in_unit(&bd, r, exact);
            if (bd.kind == EMU_BOUND_ULP) {
                CHECK(e == bd.value, "case %zu: %g ulps moved, documented %g", i, e, bd.value);
            } else {
                float out = nextafterf(r, s ? INFINITY : -INFINITY);
                CHECK(e <= bd.value, "case %zu: error %g within %g", i, e, bd.value);
                CHECK(err_in_unit(&bd, out, exact) > bd.value, "case %zu: the next float outward %a exceeds %g", i, (double)out, bd.value);
            }
        }
    }
}

static void test_sign_and_random(void)
{
    EmuApprox mix = { EMU_APPROX_BOUND, 0, 0 };
    int ups = 0, downs = 0;
    for (int i = 1; i <= 200; i++) {
        float a = (float)i * 0.01f;
        double exact = fp_approx(EK_FSIN, a);
        float r = emu_approx_f32(&mix, EK_FSIN, false, bits_f32(a), 0, exact);
        float r2 = emu_approx_f32(&mix, EK_FSIN, false, bits_f32(a), 0, exact);
        CHECK(bits_f32(r) == bits_f32(r2), "same input, same side");
        if ((double)r > exact) ups++;
        else if ((double)r < exact) downs++;
    }
    CHECK(ups > 50 && downs > 50, "both signs: %d up, %d down", ups, downs);
    EmuApprox r1 = { EMU_APPROX_RANDOM, 0, 1 }, r2 = { EMU_APPROX_RANDOM, 0, 2 };
    int differ = 0;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const Case *c = &cases[i];
        double exact = exact_of(c->op, c->a, c->b);
        EmuApproxBound bd;
        emu_approx_bound_f32(c->op, c->full, c->a, c->b, &bd);
        for (int k = 0; k < 50; k++) {
            EmuApprox m = { EMU_APPROX_RANDOM, 0, (uint64_t)k + 1 };
            float r = emu_approx_f32(&m, c->op, c->full, bits_f32(c->a), bits_f32(c->b), exact);
            CHECK(err_in_unit(&bd, r, exact) <= bd.value, "case %zu seed %d: random within the bound", i, k + 1);
        }
        float x1 = emu_approx_f32(&r1, c->op, c->full, bits_f32(c->a), bits_f32(c->b), exact);
        float x1b = emu_approx_f32(&r1, c->op, c->full, bits_f32(c->a), bits_f32(c->b), exact);
        float x2 = emu_approx_f32(&r2, c->op, c->full, bits_f32(c->a), bits_f32(c->b), exact);
        CHECK(bits_f32(x1) == bits_f32(x1b), "case %zu: random is reproducible", i);
        differ += bits_f32(x1) != bits_f32(x2);
    }
    CHECK(differ > 5, "seeds give different results (%d cases)", differ);
}

static void test_specials(void)
{
    EmuApprox up = { EMU_APPROX_BOUND, 1, 0 };
    float r = emu_approx_f32(&up, EK_FDIV, false, bits_f32(1.0f), bits_f32(0x1.5p127f), 1.0 / 0x1.5p127);
    CHECK(r == 0 && !signbit(r), "div.approx by 2^126 < |b| < 2^128 is 0, got %a", (double)r);
    r = emu_approx_f32(&up, EK_FDIV, false, bits_f32(-1.0f), bits_f32(0x1.5p127f), -1.0 / 0x1.5p127);
    CHECK(r == 0 && signbit(r), "... with the quotient's sign");
    r = emu_approx_f32(&up, EK_FDIV, false, bits_f32(INFINITY), bits_f32(0x1.5p127f), INFINITY);
    CHECK(isnan(r), "... NaN when a is infinite");
    r = emu_approx_f32(&up, EK_FDIV, true, bits_f32(1.0f), bits_f32(0x1.5p127f), 1.0 / 0x1.5p127);
    CHECK(r != 0, "div.full has no such range");
    CHECK(emu_approx_f32(&up, EK_FSIN, false, 0, 0, 0.0) == 0, "sin(0) stays 0");
    CHECK(isinf(emu_approx_f32(&up, EK_FEX2, false, bits_f32(INFINITY), 0, INFINITY)), "ex2(inf) stays inf");
    CHECK(emu_approx_f32(&up, EK_FRCP, false, bits_f32(INFINITY), 0, 0.0) == 0, "rcp(inf) stays 0");
    /* f64 gross forms */
    double x = 3.0;
    double g = emu_approx_f64_gross(EK_FRCP, bits_f64(x));
    CHECK((bits_f64(g) & 0xffffffffu) == 0, "rcp.approx.ftz.f64: low word zero");
    CHECK(fabs(g - 1.0 / 3.0) / (1.0 / 3.0) < 0x1p-20 && g <= 1.0 / 3.0, "rcp.approx.ftz.f64: 20 fraction bits, truncated: %a", g);
    uint64_t lowbits = bits_f64(1.5) | 0xfffffu;   /* low word ignored */
    CHECK(emu_approx_f64_gross(EK_FRCP, lowbits) == emu_approx_f64_gross(EK_FRCP, bits_f64(1.5)), "the input's low word is not read");
    g = emu_approx_f64_gross(EK_FRSQRT, bits_f64(2.0));
    CHECK((bits_f64(g) & 0xffffffffu) == 0 && fabs(g - 1 / sqrt(2.0)) < 0x1p-20, "rsqrt.approx.ftz.f64 %a", g);
    CHECK(isinf(emu_approx_f64_gross(EK_FRCP, bits_f64(1e-310))), "a subnormal input is flushed: 1/0 = inf");
}

/* Issue 24 item 6: the special results of the ISA's tables stay exact in
 * bound and random mode: an infinite rcp/ex2 result is not FLT_MAX, an
 * exact-zero div.approx result keeps its sign. */
static void test_special_results(void)
{
    EmuApprox modes[] = { { EMU_APPROX_BOUND, 1, 0 }, { EMU_APPROX_BOUND, -1, 0 }, { EMU_APPROX_BOUND, 0, 0 },
                          { EMU_APPROX_RANDOM, 0, 7 } };
    for (size_t k = 0; k < sizeof modes / sizeof modes[0]; k++) {
        const EmuApprox *m = &modes[k];
        float a = 1e-39f;   /* subnormal (not flushed: the plain form); 1/a overflows */
        float r = emu_approx_f32(m, EK_FRCP, false, bits_f32(a), 0, 1.0 / (double)a);
        CHECK(isinf(r) && r > 0, "mode %zu: rcp.approx(1e-39) is +inf, got %a", k, (double)r);
        r = emu_approx_f32(m, EK_FRCP, false, bits_f32(-a), 0, -1.0 / (double)a);
        CHECK(isinf(r) && r < 0, "mode %zu: rcp.approx(-1e-39) is -inf, got %a", k, (double)r);
        r = emu_approx_f32(m, EK_FEX2, false, bits_f32(200.0f), 0, exp2(200.0));
        CHECK(isinf(r) && r > 0, "mode %zu: ex2.approx(200) is +inf, got %a", k, (double)r);
        r = emu_approx_f32(m, EK_FEX2, false, bits_f32(-200.0f), 0, exp2(-200.0));
        CHECK(r == 0 && !signbit(r), "mode %zu: ex2.approx(-200) is +0, got %a", k, (double)r);
        r = emu_approx_f32(m, EK_FDIV, false, bits_f32(1e-30f), bits_f32(1e30f), 1e-30 / 1e30);
        CHECK(r == 0 && !signbit(r), "mode %zu: div.approx 1e-30 / 1e30 is +0, got %a", k, (double)r);
        r = emu_approx_f32(m, EK_FDIV, false, bits_f32(-1e-30f), bits_f32(1e30f), -1e-30 / 1e30);
        CHECK(r == 0 && signbit(r), "mode %zu: div.approx -1e-30 / 1e30 is -0, got %a", k, (double)r);
        r = emu_approx_f32(m, EK_FLG2, false, bits_f32(0.0f), 0, -INFINITY);
        CHECK(isinf(r) && r < 0, "mode %zu: lg2.approx(0) is -inf", k);
    }
}

/* Issue 24 item 4: sin/cos.approx beyond 100 pi as ptxas lowers them
 * (FMUL.RZ by 1/2pi as an f32, MUFU of the fraction of a revolution): the
 * error grows with |x| (0.12, 0.58, 0.93 at 1e6, 1e7, 1e8 for sin), not
 * the documented 2^-14.7 of [-100 pi, 100 pi]; huge, infinite, NaN and
 * subnormal arguments. */
static void test_lowered_trig(void)
{
    EmuApprox up = { EMU_APPROX_BOUND, 1, 0 }, dn = { EMU_APPROX_BOUND, -1, 0 }, rnd = { EMU_APPROX_RANDOM, 0, 3 };
    const float xs[] = { 1e6f, 1e7f, 1e8f };
    const double want[] = { 0.12, 0.58, 0.93 };
    for (int k = 0; k < 3; k++) {
        double ex = sin((double)xs[k]);
        double low = emu_approx_sincos_lowered(EK_FSIN, xs[k]);
        CHECK(fabs(fabs(low - ex) - want[k]) < 0.02, "sin.approx(%g) lowered: error %g, the model of ptxas's sequence %g",
              (double)xs[k], fabs(low - ex), want[k]);
        float ru = emu_approx_f32(&up, EK_FSIN, false, bits_f32(xs[k]), 0, ex);
        float rd = emu_approx_f32(&dn, EK_FSIN, false, bits_f32(xs[k]), 0, ex);
        CHECK(fabs((double)ru - low) <= exp2(-20.5) + 1e-7 && fabs((double)rd - low) <= exp2(-20.5) + 1e-7 && ru >= rd,
              "bound mode at %g: around the lowered value %g, up %g down %g", (double)xs[k], low, (double)ru, (double)rd);
        CHECK(fabs((double)ru - ex) > 0.05, "bound mode at %g: far from sin(x) (%g), not within 2^-14.7", (double)xs[k], ex);
    }
    /* within 100 pi: the documented bound around sin(x), as before */
    double ex = sin(300.0);
    float r = emu_approx_f32(&up, EK_FSIN, false, bits_f32(300.0f), 0, ex);
    CHECK(fabs((double)r - ex) <= exp2(-14.7), "300 is within 100 pi: the documented bound");
    /* huge: the product is an integer number of revolutions: sin 0 */
    float huge = 3e38f;
    r = emu_approx_f32(&rnd, EK_FSIN, false, bits_f32(huge), 0, sin((double)huge));
    CHECK(fabs((double)r) <= exp2(-20.5), "sin.approx(3e38): 0 within 2^-20.5, got %g", (double)r);
    r = emu_approx_f32(&rnd, EK_FCOS, false, bits_f32(huge), 0, cos((double)huge));
    CHECK(fabs((double)r - 1) <= exp2(-20.5), "cos.approx(3e38): 1 within 2^-20.5, got %g", (double)r);
    /* infinities and NaN: NaN; subnormal: within the bound of sin x = x */
    CHECK(isnan(emu_approx_f32(&up, EK_FSIN, false, bits_f32(INFINITY), 0, sin((double)INFINITY))), "sin(inf) is NaN");
    CHECK(isnan(emu_approx_f32(&dn, EK_FCOS, false, bits_f32(-INFINITY), 0, cos((double)-INFINITY))), "cos(-inf) is NaN");
    CHECK(isnan(emu_approx_f32(&up, EK_FSIN, false, bits_f32(NAN), 0, NAN)), "sin(NaN) is NaN");
    float sub = 1e-40f;
    r = emu_approx_f32(&up, EK_FSIN, false, bits_f32(sub), 0, sin((double)sub));
    CHECK(fabs((double)r - (double)sub) <= exp2(-20.5), "sin(subnormal) within the bound, got %a", (double)r);
}

static void test_parse(void)
{
    EmuApprox a;
    CHECK(emu_approx_parse("exact", &a) && a.mode == EMU_APPROX_EXACT, "exact");
    CHECK(emu_approx_parse("bound", &a) && a.mode == EMU_APPROX_BOUND && a.sign == 0, "bound");
    CHECK(emu_approx_parse("bound:up", &a) && a.sign == 1, "bound:up");
    CHECK(emu_approx_parse("bound:down", &a) && a.sign == -1, "bound:down");
    CHECK(emu_approx_parse("random:42", &a) && a.mode == EMU_APPROX_RANDOM && a.seed == 42, "random:42");
    CHECK(!emu_approx_parse("random:", &a) && !emu_approx_parse("bound:x", &a) && !emu_approx_parse("worst", &a), "bad modes");
}

static void test_metrics(void)
{
    EmuErrorAcc e;
    memset(&e, 0, sizeof e);
    emu_error_add(&e, 1.0, 1.1);    /* rel 0.1, abs 0.1 */
    emu_error_add(&e, 2.0, 1.0);    /* rel 0.5, abs 1 */
    emu_error_add(&e, 4.0, 4.0);    /* 0 */
    emu_error_add(&e, 0.0, 0.0);    /* 0 */
    CHECK(fabs(emu_error_value(&e, EMU_METRIC_MRE) - 0.15) < 1e-12, "mre %g", emu_error_value(&e, EMU_METRIC_MRE));
    CHECK(emu_error_value(&e, EMU_METRIC_MAXREL) == 0.5, "maxrel");
    CHECK(emu_error_value(&e, EMU_METRIC_MAXABS) == 1.0, "maxabs");
    CHECK(fabs(emu_error_value(&e, EMU_METRIC_RMSE) - sqrt((0.01 + 1.0) / 4)) < 1e-9, "rmse %g", emu_error_value(&e, EMU_METRIC_RMSE));
    emu_error_add(&e, 0.0, 3.0);    /* a == 0: rel 1 */
    CHECK(emu_error_value(&e, EMU_METRIC_MAXREL) == 1.0, "rel error against 0 is 1");
    emu_error_add(&e, 1.0, NAN);
    CHECK(isinf(emu_error_value(&e, EMU_METRIC_MRE)), "a NaN on one side only is infinite");
    EmuMetric m;
    CHECK(emu_metric_parse("rmse", &m) && m == EMU_METRIC_RMSE && !emu_metric_parse("mse", &m), "metric names");
}

int main(void)
{
    test_bound();
    test_sign_and_random();
    test_specials();
    test_special_results();
    test_lowered_trig();
    test_parse();
    test_metrics();
    printf("%d checks, %d failures\n", checks, failures);
    return failures ? 1 : 0;
}
