/* fp.c — rounding into narrow formats, directed rounding and the
 * approximate-instruction model (see fp.h). */
#include "emu/fp.h"

#include <fenv.h>
#include <float.h>

#include "emu/internal.h"

double f16_to_double(uint16_t h)
{
    int s = h >> 15, e = (h >> 10) & 31, m = h & 1023;
    double v;
    if (e == 31) v = m ? NAN : INFINITY;
    else if (e == 0) v = ldexp(m, -24);
    else v = ldexp(m | 1024, e - 25);
    return s ? -v : v;
}

double bf16_to_double(uint16_t h)
{
    return (double)f32_of((uint32_t)h << 16);
}

bool f16_is_nan(uint16_t h) { return (h & 0x7c00) == 0x7c00 && (h & 0x3ff); }
bool bf16_is_nan(uint16_t h) { return (h & 0x7f80) == 0x7f80 && (h & 0x7f); }

uint64_t fp_round_pack(double x, int p, int ebits, int rnd, bool ftz, bool satfinite)
{
    int width = p + ebits - 1;                /* bits below the sign: exponent and stored significand */
    uint64_t sign = signbit(x) ? 1ull << width : 0;
    uint64_t expmax = (1ull << ebits) - 1;    /* all ones: inf / NaN */
    uint64_t inf = sign | (expmax << (p - 1));
    uint64_t maxfin = sign | ((expmax - 1) << (p - 1)) | ((1ull << (p - 1)) - 1);
    if (isnan(x)) return ((expmax << (p - 1)) | ((1ull << (p - 1)) - 1));  /* canonical: all ones but sign */
    if (isinf(x)) return satfinite ? maxfin : inf;
    if (x == 0) return sign;
    double ax = fabs(x);
    int bias = (int)(expmax >> 1);
    int emin = 1 - bias;
    int e;
    frexp(ax, &e);                            /* ax = f * 2^e, f in [0.5, 1) */
    int E = e - 1;                            /* ax = 1.m * 2^E */
    int qexp = (E < emin ? emin : E) - (p - 1);
    double n = ldexp(ax, -qexp);              /* exact: only the exponent changes */
    double fl = floor(n), frac = n - fl;
    bool neg = sign != 0, up = false;
    switch (rnd) {
    case RND_RZ: case RND_RZI: up = false; break;
    case RND_RM: case RND_RMI: up = neg && frac > 0; break;
    case RND_RP: case RND_RPI: up = !neg && frac > 0; break;
    case RND_RNA: up = frac >= 0.5; break;
    default: up = frac > 0.5 || (frac == 0.5 && fmod(fl, 2.0) != 0); break;
    }
    uint64_t mi = (uint64_t)fl + (up ? 1 : 0);
    uint64_t hidden = 1ull << (p - 1);
    if (mi >= 2 * hidden) { mi >>= 1; qexp++; }
    if (mi == 0) return sign;
    if (mi < hidden) {                        /* subnormal */
        if (ftz) return sign;
        return sign | mi;
    }
    int64_t biased = (int64_t)qexp + (p - 1) + bias;
    if (biased >= (int64_t)expmax) {
        if (satfinite) return maxfin;
        switch (rnd) {
        case RND_RZ: case RND_RZI: return maxfin;
        case RND_RM: case RND_RMI: return neg ? inf : maxfin;
        case RND_RP: case RND_RPI: return neg ? maxfin : inf;
        default: return inf;
        }
    }
    return sign | ((uint64_t)biased << (p - 1)) | (mi - hidden);
}

uint16_t double_to_f16(double x, int rnd, bool ftz) { return (uint16_t)fp_round_pack(x, 11, 5, rnd, ftz, false); }
uint16_t double_to_bf16(double x, int rnd, bool ftz) { return (uint16_t)fp_round_pack(x, 8, 8, rnd, ftz, false); }

static int fe_mode(int rnd)
{
    switch (rnd) {
    case RND_RZ: case RND_RZI: return FE_TOWARDZERO;
    case RND_RM: case RND_RMI: return FE_DOWNWARD;
    case RND_RP: case RND_RPI: return FE_UPWARD;
    default: return FE_TONEAREST;
    }
}

/* The operations below read their operands through volatile copies so the
 * compiler cannot evaluate them outside the rounding mode we set. */
double fp_rto(int op, double a, double b, double c)
{
    volatile double va = a, vb = b, vc = c;
    fenv_t env;
    feholdexcept(&env);
    fesetround(FE_TOWARDZERO);
    feclearexcept(FE_INEXACT);
    volatile double r;
    switch (op) {
    case '+': r = va + vb; break;
    case '-': r = va - vb; break;
    case '*': r = va * vb; break;
    case '/': r = va / vb; break;
    case 'f': r = fma(va, vb, vc); break;
    case 's': r = sqrt(va); break;
    default: r = NAN; break;
    }
    bool inexact = fetestexcept(FE_INEXACT) != 0;
    fesetenv(&env);
    double d = r;
    if (inexact && isfinite(d)) {
        uint64_t u = bits_f64(d);
        u |= 1;
        d = f64_of(u);
    }
    return d;
}

float f32_op_rnd(int op, float a, float b, float c, int rnd)
{
    volatile float va = a, vb = b, vc = c;
    volatile float r;
    int old = fegetround();
    fesetround(fe_mode(rnd));
    switch (op) {
    case '+': r = va + vb; break;
    case '-': r = va - vb; break;
    case '*': r = va * vb; break;
    case '/': r = va / vb; break;
    case 'f': r = fmaf(va, vb, vc); break;
    case 's': r = sqrtf(va); break;
    default: r = NAN; break;
    }
    fesetround(old);
    return r;
}

double f64_op_rnd(int op, double a, double b, double c, int rnd)
{
    volatile double va = a, vb = b, vc = c;
    volatile double r;
    int old = fegetround();
    fesetround(fe_mode(rnd));
    switch (op) {
    case '+': r = va + vb; break;
    case '-': r = va - vb; break;
    case '*': r = va * vb; break;
    case '/': r = va / vb; break;
    case 'f': r = fma(va, vb, vc); break;
    case 's': r = sqrt(va); break;
    default: r = NAN; break;
    }
    fesetround(old);
    return r;
}

float f64_to_f32_rnd(double x, int rnd)
{
    if (rnd == RND_RN || rnd == RND_NONE) return (float)x;
    volatile double vx = x;
    volatile float r;
    int old = fegetround();
    fesetround(fe_mode(rnd));
    r = (float)vx;
    fesetround(old);
    return r;
}

float i64_to_f32_rnd(int64_t v, bool is_unsigned, int rnd)
{
    volatile long double lx = is_unsigned ? (long double)(uint64_t)v : (long double)v;  /* exact: 64-bit significand */
    volatile float r;
    int old = fegetround();
    fesetround(fe_mode(rnd));
    r = (float)lx;
    fesetround(old);
    return r;
}

double i64_to_f64_rnd(int64_t v, bool is_unsigned, int rnd)
{
    volatile long double lx = is_unsigned ? (long double)(uint64_t)v : (long double)v;
    volatile double r;
    int old = fegetround();
    fesetround(fe_mode(rnd));
    r = (double)lx;
    fesetround(old);
    return r;
}

double fp_round_integral(double x, int rnd)
{
    switch (rnd) {
    case RND_RZI: case RND_RZ: return trunc(x);
    case RND_RMI: case RND_RM: return floor(x);
    case RND_RPI: case RND_RP: return ceil(x);
    default: return nearbyint(x);     /* the default mode is round-to-nearest-even */
    }
}

double fp_approx(int op, double x)
{
    switch (op) {
    case EK_FSIN: return sin(x);
    case EK_FCOS: return cos(x);
    case EK_FEX2: return exp2(x);
    case EK_FLG2: return x < 0 ? NAN : log2(x);
    case EK_FRCP: return 1.0 / x;
    case EK_FSQRT: return sqrt(x);
    case EK_FRSQRT: return 1.0 / sqrt(x);
    case EK_FTANH: return tanh(x);
    default: return NAN;
    }
}
