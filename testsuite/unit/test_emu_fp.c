/* test_emu_fp.c — the emulator's floating-point helpers (emu/fp.c).
 *
 * Checks: f16/bf16 decoding; rounding into f16/bf16/tf32 against the
 * compiler's _Float16 (round to nearest even) on a sweep of floats and by
 * the ordering of directed roundings (RM <= x <= RP, RZ toward zero,
 * RN one of the two neighbours); overflow, subnormals, signs, NaN;
 * round-to-odd in double then rounding once agrees with exact fused
 * results; directed-rounding f32 arithmetic brackets the exact value.
 * Prints every failure; exits 1 if any. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "emu/fp.h"
#include "emu/internal.h"

#include "testsuite/unit/check.h"

static uint64_t rng = 0x1234567;
static uint64_t next(void)
{
    uint64_t z = (rng += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static void test_decode(void)
{
    CHECK(f16_to_double(0x3c00) == 1.0, "f16 1.0");
    CHECK(f16_to_double(0xc000) == -2.0, "f16 -2.0");
    CHECK(f16_to_double(0x7bff) == 65504.0, "f16 max");
    CHECK(f16_to_double(0x0001) == ldexp(1, -24), "f16 min subnormal");
    CHECK(isinf(f16_to_double(0x7c00)), "f16 inf");
    CHECK(isnan(f16_to_double(0x7e00)), "f16 nan");
    CHECK(bf16_to_double(0x3f80) == 1.0, "bf16 1.0");
    CHECK(bf16_to_double(0xc040) == -3.0, "bf16 -3.0");
}

static void test_round_f16(void)
{
#if defined(__FLT16_MAX__)
    for (int i = 0; i < 200000; i++) {
        uint32_t bits = (uint32_t)next();
        float f;
        memcpy(&f, &bits, 4);
        if (isnan(f)) continue;
        if (fabsf(f) > 1e6f || fabsf(f) < 1e-9f) f = ldexpf((float)(int32_t)(bits % 200000) - 100000.0f, (int)(bits % 40) - 30);
        _Float16 h = (_Float16)f;
        uint16_t want;
        memcpy(&want, &h, 2);
        uint16_t got = double_to_f16(f, RND_RN, false);
        CHECK(got == want, "f16 RN of %a: got 0x%04x want 0x%04x", (double)f, got, want);
    }
#endif
    /* directed roundings bracket the value */
    for (int i = 0; i < 50000; i++) {
        double x = ldexp((double)(int64_t)(next() % 2000001) - 1000000.0, (int)(next() % 30) - 30);
        if (fabs(x) >= 65504.0) continue;   /* beyond the largest f16 IEEE rounds to infinity */
        double rn = f16_to_double(double_to_f16(x, RND_RN, false));
        double rz = f16_to_double(double_to_f16(x, RND_RZ, false));
        double rm = f16_to_double(double_to_f16(x, RND_RM, false));
        double rp = f16_to_double(double_to_f16(x, RND_RP, false));
        CHECK(rm <= x && x <= rp, "RM/RP bracket %a: %a %a", x, rm, rp);
        CHECK(fabs(rz) <= fabs(x), "RZ toward zero %a: %a", x, rz);
        CHECK(rn == rm || rn == rp, "RN is a neighbour %a", x);
        CHECK(fabs(rn - x) <= fabs(rm - x) && fabs(rn - x) <= fabs(rp - x), "RN nearest %a", x);
    }
    CHECK(double_to_f16(65520.0, RND_RN, false) == 0x7c00, "f16 overflow to inf");
    CHECK(double_to_f16(65520.0, RND_RZ, false) == 0x7bff, "f16 RZ overflow to max");
    CHECK(double_to_f16(-65520.0, RND_RM, false) == 0xfc00, "f16 RM overflow to -inf");
    CHECK(double_to_f16(-65520.0, RND_RP, false) == 0xfbff, "f16 RP -overflow to -max");
    CHECK(double_to_f16(-0.0, RND_RN, false) == 0x8000, "f16 -0");
    CHECK(double_to_f16(ldexp(1, -25), RND_RN, false) == 0x0000, "f16 half of min subnormal ties to even (0)");
    CHECK(double_to_f16(ldexp(3, -26), RND_RN, false) == 0x0001, "f16 0.75 of min subnormal rounds up");
    CHECK(double_to_f16(ldexp(1, -24), RND_RN, true) == 0x0000, "f16 ftz flushes subnormal result");
    CHECK(double_to_f16(NAN, RND_RN, false) == 0x7fff, "f16 canonical NaN");
    CHECK(double_to_f16(1e9, RND_RN, false) == 0x7c00 && fp_round_pack(1e9, 11, 5, RND_RN, false, true) == 0x7bff, "satfinite");
}

static void test_round_bf16_tf32(void)
{
    for (int i = 0; i < 100000; i++) {
        uint32_t bits = (uint32_t)next();
        float f;
        memcpy(&f, &bits, 4);
        if (isnan(f) || isinf(f)) continue;
        /* bf16 RN = the float's top 16 bits rounded to nearest even */
        uint32_t r = ((bits >> 16) & 1) + 0x7fff;
        uint16_t want = (uint16_t)((bits + r) >> 16);
        uint16_t got = double_to_bf16(f, RND_RN, false);
        CHECK(got == want, "bf16 RN of %a: got 0x%04x want 0x%04x", (double)f, got, want);
        uint16_t z = double_to_bf16(f, RND_RZ, false);
        CHECK(z == (uint16_t)(bits >> 16), "bf16 RZ is truncation for %a", (double)f);
    }
    /* tf32: 10 stored significand bits, ties away with RNA */
    CHECK((fp_round_pack(1.0 + ldexp(1, -11), 11, 8, RND_RNA, false, false) << 13) == bits_f32(1.0f + ldexpf(1, -10)), "tf32 RNA tie away");
    CHECK((fp_round_pack(1.0 + ldexp(1, -11), 11, 8, RND_RN, false, false) << 13) == bits_f32(1.0f), "tf32 RN tie even");
}

static void test_rto_fma(void)
{
    /* f16 fma through round-to-odd in double equals exact rounding: check
     * against long double, where a*b+c of f16 values is exact */
    for (int i = 0; i < 50000; i++) {
        double a = f16_to_double((uint16_t)(next() & 0x7bff) ^ (uint16_t)(next() & 0x8000));
        double b = f16_to_double((uint16_t)(next() & 0x7bff) ^ (uint16_t)(next() & 0x8000));
        double c = f16_to_double((uint16_t)(next() & 0x7bff) ^ (uint16_t)(next() & 0x8000));
        long double exact = (long double)a * (long double)b + (long double)c;
        if (isinf((double)exact) || fabsl(exact) > 1e300L) continue;
        uint16_t got = double_to_f16(fp_rto('f', a, b, c), RND_RN, false);
        /* exact fits in long double when the exponents are close; skip others */
        if ((long double)a * (long double)b + (long double)c - exact != 0) continue;
        int e;
        frexpl(exact, &e);
        if (exact != 0 && (e > 40 || e < -60)) continue;
        uint16_t want;
#if defined(__FLT16_MAX__)
        _Float16 h = (_Float16)exact;
        memcpy(&want, &h, 2);
#else
        want = got;
#endif
        CHECK(got == want, "f16 fma(%a,%a,%a): got 0x%04x want 0x%04x", a, b, c, got, want);
    }
}

static void test_directed_f32(void)
{
    for (int i = 0; i < 20000; i++) {
        float a = (float)((double)(int64_t)(next() % 2000001 - 1000000) / 977.0);
        float b = (float)((double)(int64_t)(next() % 2000001 - 1000000) / 1013.0);
        double exact = (double)a * (double)b;     /* exact in double */
        float rm = f32_op_rnd('*', a, b, 0, RND_RM), rp = f32_op_rnd('*', a, b, 0, RND_RP);
        float rz = f32_op_rnd('*', a, b, 0, RND_RZ), rn = f32_op_rnd('*', a, b, 0, RND_RN);
        CHECK(rm <= exact && exact <= rp, "f32 mul RM/RP bracket");
        CHECK(fabs(rz) <= fabs(exact), "f32 mul RZ");
        CHECK(rn == a * b, "f32 mul RN matches the host");
        CHECK(rm == rp || nextafterf(rm, INFINITY) == rp, "RM and RP are neighbours");
    }
    CHECK(f64_to_f32_rnd(1.0 + ldexp(1, -30), RND_RP) == nextafterf(1.0f, 2.0f), "f64->f32 RP");
    CHECK(f64_to_f32_rnd(1.0 + ldexp(1, -30), RND_RN) == 1.0f, "f64->f32 RN");
    CHECK(i64_to_f32_rnd(16777217, false, RND_RP) == 16777218.0f, "int->f32 RP");
    CHECK(i64_to_f32_rnd(16777217, false, RND_RZ) == 16777216.0f, "int->f32 RZ");
    CHECK(i64_to_f32_rnd(-1, true, RND_RN) == 18446744073709551616.0f, "u64 max -> f32");
    CHECK(fp_round_integral(2.5, RND_RNI) == 2.0 && fp_round_integral(-2.5, RND_RMI) == -3.0 &&
          fp_round_integral(-2.5, RND_RZI) == -2.0 && fp_round_integral(2.1, RND_RPI) == 3.0, "integral rounding");
}

static void test_results(void)
{
    CHECK(f32_result(NAN, false, false) == F32_CANON_NAN, "canonical f32 NaN");
    CHECK(f32_result(-NAN, false, true) == 0, "sat NaN -> 0");
    CHECK(f32_result(1.5f, false, true) == 0x3f800000u, "sat clamps to 1");
    CHECK(f32_result(-0.5f, false, true) == 0, "sat clamps to +0");
    CHECK(f32_result(ldexpf(1, -130), true, false) == 0, "ftz flushes");
    CHECK(f32_result(-ldexpf(1, -130), true, false) == 0x80000000u, "ftz keeps the sign");
    CHECK(f32_result(ldexpf(1, -130), false, false) == bits_f32(ldexpf(1, -130)), "no ftz keeps subnormals");
    CHECK(f64_result(NAN, false) == F64_CANON_NAN, "canonical f64 NaN");
    CHECK(fp_approx(EK_FEX2, 3.0) == 8.0 && fp_approx(EK_FLG2, 8.0) == 3.0 && fp_approx(EK_FRSQRT, 4.0) == 0.5,
          "approximation model is exact on easy points");
    CHECK(isnan(fp_approx(EK_FLG2, -1.0)) && isinf(fp_approx(EK_FLG2, 0.0)), "lg2 special values");
}

int main(void)
{
    test_decode();
    test_round_f16();
    test_round_bf16_tf32();
    test_rto_fma();
    test_directed_f32();
    test_results();
    printf("%d checks, %d failures\n", checks, failures);
    return failures != 0;
}
