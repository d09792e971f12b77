/* approx_error.c — the error model of the approximate (SFU) instructions
 * (ptxopt-emu --approx=exact|bound|random, man/ptxopt-emu.1).
 *
 * Why: computing sin/cos/ex2/lg2/rcp/sqrt/rsqrt.approx and div.approx/full
 * with exact double-precision math (fp_approx) hides the error an
 * approximation pass introduces.  The PTX ISA documents a maximum error per
 * instruction and input range; this file turns that table into results:
 *
 *   exact   the function in double, rounded to nearest (the old behaviour,
 *           the default);
 *   bound   the representable result farthest from the exact value that is
 *           still inside the documented bound, on one side: the side is a
 *           hash of the opcode and the input bits (so both signs occur, the
 *           same input always gets the same side, and the schedule does not
 *           matter), or always up / always down (bound:up, bound:down);
 *   random  uniform within the bound, from a seeded hash of the opcode and
 *           the inputs (random:SEED), equally schedule-independent.
 *
 * Bounds in ulps move the correctly rounded result by exactly that many
 * ulps; absolute and relative bounds round exact ± bound toward the exact
 * value, so the result is inside the bound and its next float outward is
 * not (when no float lies strictly between, the rounded-to-nearest result,
 * whose error is at most half an ulp, is kept).  The ISA's special-value
 * tables give exact results for special inputs (±0, ±inf, NaN) and the
 * results ±0, ±inf and NaN are never moved either: a result that overflows
 * stays infinite (rcp.approx of a tiny number, ex2.approx of 200), one
 * that underflows stays a zero of its sign (div.approx 1e-30 / 1e30), as
 * they are on the hardware; an error bound does not turn them into
 * FLT_MAX or a subnormal of the other sign.
 *
 * sin/cos.approx beyond the documented range: ptxas lowers both to
 *     FMUL.RZ t, a, 0.15915493667125701904   (1/2pi as an f32: 0x3E22F983)
 *     MUFU.SIN/COS d, t                       (t in revolutions)
 * (nvdisasm of sm_75/80/90 cubins; the .ftz and plain forms alike).  The
 * product keeps 24 bits, so beyond |a| = 100 pi the fraction of a
 * revolution it keeps shrinks: at 1e6 the result is off by up to 0.12, at
 * 1e7 by 0.58, at 1e8 the fraction is gone (errors near 1).  In bound and
 * random mode |a| > 100 pi is modelled that way: t rounded toward zero,
 * the function of its fraction of a revolution, then the MUFU's own
 * error, 2^-20.5, on the side or at the place the mode picks.  Within
 * 100 pi the documented bound (which holds for the same sequence) is used
 * as before.  exact mode stays the function in double.
 *
 * THE TABLE (PTX ISA, "Floating-Point Instructions", as distilled with
 * sources in research/seed-002-sfu-lock.md §2.7 [D]; the rsqrt figure is
 * also quoted from the manual in other public code):
 *
 *   instruction            input range              documented max error
 *   sin/cos.approx.f32     |a| <= 2 pi              absolute 2^-20.5
 *                          |a| <= 100 pi            absolute 2^-14.7
 *                          otherwise                none given: the lowered
 *                                                   sequence (above) + 2^-20.5
 *   ex2.approx.f32         full range               2 ulp
 *   lg2.approx.f32         a in (0.5, 2)            absolute 2^-22
 *                          otherwise                relative 2^-22
 *   rcp.approx.f32         full range               1 ulp
 *   sqrt.approx.f32        full range               relative 2^-23
 *   rsqrt.approx.f32       full range               relative 2^-22.9
 *   tanh.approx.f32        full range               relative 2^-11
 *   div.approx.f32         |b| in [2^-126, 2^126]   2 ulp
 *                          2^126 < |b| < 2^128      result 0 (NaN if a is inf)
 *   div.full.f32           full range               2 ulp
 *   rcp.approx.ftz.f64,    defined bit-wise: the upper word of a (1.11.20)
 *   rsqrt.approx.ftz.f64   in, a 1.11.20 result with the low word zeroed
 *
 * The two f64 forms are modelled by their definition in bound and random
 * mode (the input's low word dropped, subnormals flushed, the exact result
 * truncated to 20 fraction bits), which reproduces the thesis's measured
 * mean errors within 1-10 % (research note §2.7).  rsqrt.approx.f64 (no
 * .ftz, emulated in software) and the f16/bf16 forms have no figure in the
 * table and stay exact in every mode. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "emu/fp.h"
#include "emu/internal.h"

#define PI 3.14159265358979323846

/* --------------------------------------------------------------- options */

bool emu_approx_parse(const char *s, EmuApprox *out)
{
    EmuApprox a = { EMU_APPROX_EXACT, 0, 0 };
    if (strcmp(s, "exact") == 0) { *out = a; return true; }
    if (strncmp(s, "bound", 5) == 0) {
        a.mode = EMU_APPROX_BOUND;
        if (s[5] == 0) { *out = a; return true; }
        if (strcmp(s + 5, ":up") == 0) a.sign = 1;
        else if (strcmp(s + 5, ":down") == 0) a.sign = -1;
        else return false;
        *out = a;
        return true;
    }
    if (strncmp(s, "random", 6) == 0) {
        a.mode = EMU_APPROX_RANDOM;
        a.seed = 1;
        if (s[6] == ':') {
            char *end;
            if (!s[7]) return false;
            a.seed = strtoull(s + 7, &end, 0);
            if (*end) return false;
        } else if (s[6]) {
            return false;
        }
        *out = a;
        return true;
    }
    return false;
}

const char *emu_approx_name(EmuApproxMode m)
{
    switch (m) {
    case EMU_APPROX_BOUND: return "bound";
    case EMU_APPROX_RANDOM: return "random";
    default: return "exact";
    }
}

/* ---------------------------------------------------------------- bounds */

bool emu_approx_bound_f32(int op, bool full, float a, float b, EmuApproxBound *out)
{
    double x = fabs((double)a);
    out->what = "";
    switch (op) {
    case EK_FSIN: case EK_FCOS:
        out->kind = EMU_BOUND_ABS;
        if (x <= 2 * PI) { out->value = exp2(-20.5); out->what = "|a| <= 2pi"; }
        else if (x <= 100 * PI) { out->value = exp2(-14.7); out->what = "|a| <= 100pi"; }
        else {
            out->value = exp2(-20.5);
            out->what = "|a| > 100pi: no documented bound; modelled as lowered (FMUL.RZ by 1/2pi, MUFU of the "
                        "fraction) plus 2^-20.5";
        }
        return true;
    case EK_FEX2: out->kind = EMU_BOUND_ULP; out->value = 2; return true;
    case EK_FLG2:
        if (a > 0.5f && a < 2.0f) { out->kind = EMU_BOUND_ABS; out->value = exp2(-22); out->what = "a in (0.5, 2)"; }
        else { out->kind = EMU_BOUND_REL; out->value = exp2(-22); }
        return true;
    case EK_FRCP: out->kind = EMU_BOUND_ULP; out->value = 1; return true;
    case EK_FSQRT: out->kind = EMU_BOUND_REL; out->value = exp2(-23); return true;
    case EK_FRSQRT: out->kind = EMU_BOUND_REL; out->value = exp2(-22.9); return true;
    case EK_FTANH: out->kind = EMU_BOUND_REL; out->value = exp2(-11); return true;
    case EK_FDIV: {
        double y = fabs((double)b);
        if (full) { out->kind = EMU_BOUND_ULP; out->value = 2; return true; }
        if (y >= 0x1p-126 && y <= 0x1p126) { out->kind = EMU_BOUND_ULP; out->value = 2; return true; }
        if (y > 0x1p126 && y < 0x1p128) { out->kind = EMU_BOUND_ZERO; out->value = 0; out->what = "2^126 < |b| < 2^128"; return true; }
        return false;
    }
    default:
        return false;
    }
}

/* ------------------------------------------------------------ the model */

static uint64_t mix64(uint64_t z)
{
    z += 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static uint64_t input_hash(uint64_t seed, int op, uint32_t ia, uint32_t ib)
{
    return mix64(seed ^ mix64(((uint64_t)(uint32_t)op << 56) ^ ((uint64_t)ia << 24) ^ ib));
}

static bool f32_special(float v) { return v == 0 || !isfinite(v); }

/* Steps a float k ulps (k may be negative) without crossing into NaN. */
static float step_ulps(float r, long k)
{
    float to = k > 0 ? INFINITY : -INFINITY;
    for (long i = 0; i < labs(k); i++) r = nextafterf(r, to);
    return r;
}

/* The representable value toward `exact` from exact + dev (dev != 0),
 * or the rounded-to-nearest exact value when none lies on that side. */
static float toward_exact(double exact, double dev)
{
    double target = exact + dev;
    float r = f64_to_f32_rnd(target, dev > 0 ? RND_RM : RND_RP);
    if ((dev > 0 && (double)r < exact) || (dev < 0 && (double)r > exact)) r = (float)exact;
    return r;
}

/* sin/cos.approx as ptxas lowers them: the argument times 1/2pi (an f32)
 * rounded toward zero, in revolutions; the function of its fraction. */
double emu_approx_sincos_lowered(int op, float a)
{
    double t = (double)f64_to_f32_rnd((double)a * (double)f32_of(0x3E22F983u), RND_RZ);
    double frac = t - floor(t);   /* exact: t has at most 24 significant bits */
    return op == EK_FSIN ? sin(2 * PI * frac) : cos(2 * PI * frac);
}

float emu_approx_f32(const EmuApprox *m, int op, bool full, uint32_t ia, uint32_t ib, double exact)
{
    float rn = (float)exact;
    if (!m || m->mode == EMU_APPROX_EXACT) return rn;
    float a = f32_of(ia), b = f32_of(ib);
    EmuApproxBound bd;
    if (!emu_approx_bound_f32(op, full, a, b, &bd)) return rn;
    if (bd.kind == EMU_BOUND_ZERO) return isinf(a) || isnan(a) ? NAN : copysignf(0.0f, a) * copysignf(1.0f, b);
    if (isnan(exact) || isinf(exact) || exact == 0 || isnan(a) || isinf(a) || a == 0) return rn;
    if ((op == EK_FSIN || op == EK_FCOS) && fabs((double)a) > 100 * PI) {
        /* beyond the documented range: the lowered sequence's value is the centre */
        exact = emu_approx_sincos_lowered(op, a);
        rn = (float)exact;
    }
    /* the special results of the ISA's tables stay as they are */
    if (rn == 0 || isinf(rn) || isnan(rn)) return rn;
    if (op == EK_FDIV && f32_special(b)) return rn;
    uint64_t h = input_hash(m->mode == EMU_APPROX_RANDOM ? m->seed : 0, op, ia, op == EK_FDIV ? ib : 0);
    if (m->mode == EMU_APPROX_BOUND) {
        int s = m->sign ? m->sign : ((h >> 63) ? 1 : -1);
        switch (bd.kind) {
        case EMU_BOUND_ULP: return step_ulps(rn, s * (long)bd.value);
        case EMU_BOUND_ABS: return toward_exact(exact, s * bd.value);
        default: return toward_exact(exact, s * bd.value * fabs(exact));
        }
    }
    /* random: uniform in [-1, 1] (ulps: an integer in [-k, k]) */
    double u = (double)(h >> 11) * 0x1p-53 * 2.0 - 1.0;
    switch (bd.kind) {
    case EMU_BOUND_ULP: {
        long k = (long)bd.value;
        return step_ulps(rn, (long)(h % (uint64_t)(2 * k + 1)) - k);
    }
    case EMU_BOUND_ABS: return u == 0 ? rn : toward_exact(exact, u * bd.value);
    default: return u == 0 ? rn : toward_exact(exact, u * bd.value * fabs(exact));
    }
}

double emu_approx_f64_gross(int op, uint64_t ia)
{
    uint64_t hi = ia & 0xffffffff00000000ull;       /* only the upper word is read */
    if ((hi & 0x7ff0000000000000ull) == 0) hi &= 0x8000000000000000ull;   /* ftz */
    double x = f64_of(hi), r;
    if (op == EK_FRCP) r = 1.0 / x;
    else r = x < 0 ? NAN : 1.0 / sqrt(x);
    if (isnan(r)) return r;
    uint64_t rb = bits_f64(r);
    if (isfinite(r)) rb &= 0xffffffff00000000ull;   /* 1.11.20: 20 fraction bits, low word zero */
    if ((rb & 0x7ff0000000000000ull) == 0) rb &= 0x8000000000000000ull;
    return f64_of(rb);
}
