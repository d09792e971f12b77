/* exec_float.c — floating-point arithmetic (PTX ISA 9.7.3, 9.7.4).
 *
 * f32 and f64 use the host's IEEE arithmetic (SSE2: no excess precision),
 * switching the rounding mode only for .rz/.rm/.rp.  f16/bf16 (scalar and
 * x2) compute in double with round-to-odd and round once into the format.
 * The approximate instructions follow the model of fp_approx() (the exact
 * function in double precision, rounded to nearest) under the launch's
 * error model (approx_error.c: --approx=exact|bound|random). */
#include <math.h>

#include "emu/fp.h"
#include "emu/internal.h"

static inline double half_in(uint16_t h, int t, bool ftz)
{
    if (ftz) {
        if (t == TY_F16 || t == TY_F16X2) { if ((h & 0x7c00) == 0 && (h & 0x3ff)) h &= 0x8000; }
        else if ((h & 0x7f80) == 0 && (h & 0x7f)) h &= 0x8000;
    }
    return (t == TY_F16 || t == TY_F16X2) ? f16_to_double(h) : bf16_to_double(h);
}

static inline uint16_t half_out(double r, int t, int rnd, bool ftz, bool sat, bool relu)
{
    if (isnan(r)) return (sat || relu) ? (relu ? H_CANON_NAN : 0) : H_CANON_NAN;
    if (sat) { if (r < 0 || (r == 0 && signbit(r))) r = 0; if (r > 1) r = 1; }
    if (relu && (r < 0 || (r == 0 && signbit(r)))) r = 0;
    int rr = rnd == RND_NONE ? RND_RN : rnd;
    return (t == TY_F16 || t == TY_F16X2) ? double_to_f16(r, rr, ftz) : double_to_bf16(r, rr, ftz);
}

/* One scalar half-precision operation. */
static uint16_t half_op(const EInst *I, int t, uint16_t ha, uint16_t hb, uint16_t hc)
{
    bool ftz = I->flags & F_FTZ, sat = I->flags & F_SAT, relu = I->flags & F_RELU;
    double a = half_in(ha, t, ftz), b = half_in(hb, t, ftz), c = half_in(hc, t, ftz), r;
    switch (I->op) {
    case EK_FADD: r = fp_rto('+', a, b, 0); break;
    case EK_FSUB: r = fp_rto('-', a, b, 0); break;
    case EK_FMUL: r = fp_rto('*', a, b, 0); break;
    case EK_FFMA: r = fp_rto('f', a, b, c); break;
    case EK_FDIV: r = fp_rto('/', a, b, 0); break;
    case EK_FNEG: return ha ^ 0x8000;
    case EK_FABS: return ha & 0x7fff;
    case EK_FMIN: case EK_FMAX: {
        bool an = isnan(a), bn = isnan(b);
        if (an && bn) return H_CANON_NAN;
        if (an) r = b;
        else if (bn) r = a;
        else if (a == b) r = (I->op == EK_FMIN) == (signbit(a) != 0) ? a : b;
        else r = (I->op == EK_FMIN) == (a < b) ? a : b;
        if (relu && (r < 0 || (r == 0 && signbit(r)))) r = 0;
        return half_out(r, t, RND_RN, ftz, false, false);
    }
    case EK_FEX2: case EK_FTANH: case EK_FSIN: case EK_FCOS: case EK_FLG2: case EK_FRCP:
    case EK_FSQRT: case EK_FRSQRT:
        r = fp_approx(I->op, a);
        return half_out(r, t, RND_RN, ftz, false, false);
    default: r = NAN; break;
    }
    return half_out(r, t, I->rnd, ftz, sat, relu);
}

static uint32_t f32_minmax(uint32_t a, uint32_t b, bool mn, bool ftz)
{
    if (ftz) { a = f32_ftz(a); b = f32_ftz(b); }
    bool an = f32_is_nan(a), bn = f32_is_nan(b);
    if (an && bn) return F32_CANON_NAN;
    if (an) return b;
    if (bn) return a;
    float fa = f32_of(a), fb = f32_of(b);
    if (fa == fb) return mn ? ((a >> 31) ? a : b) : ((a >> 31) ? b : a);   /* -0 < +0 */
    return mn == (fa < fb) ? a : b;
}

static uint64_t f64_minmax(uint64_t a, uint64_t b, bool mn)
{
    bool an = f64_is_nan(a), bn = f64_is_nan(b);
    if (an && bn) return F64_CANON_NAN;
    if (an) return b;
    if (bn) return a;
    double fa = f64_of(a), fb = f64_of(b);
    if (fa == fb) return mn ? ((a >> 63) ? a : b) : ((a >> 63) ? b : a);
    return mn == (fa < fb) ? a : b;
}

static int test_class(double v, int sub, bool is_sub_normal)
{
    switch (sub) {
    case 0: return isfinite(v);
    case 1: return isinf(v);
    case 2: return !isnan(v);
    case 3: return isnan(v);
    case 4: return isnormal(v) && !is_sub_normal;
    case 5: return is_sub_normal;
    default: return 0;
    }
}

static void exec_f32(Exec *x, const EInst *I, uint32_t em)
{
    const EOp *d = &I->o[0], *a = &I->o[1], *b = &I->o[2], *c = &I->o[3];
    const bool ftz = I->flags & F_FTZ, sat = I->flags & F_SAT;
    const int rnd = I->rnd == RND_NONE ? RND_RN : I->rnd;
    const bool plain = rnd == RND_RN && !ftz && !sat;
    switch (I->op) {
    case EK_FADD: case EK_FSUB: case EK_FMUL: case EK_FFMA: case EK_FDIV: {
        int op = I->op == EK_FADD ? '+' : I->op == EK_FSUB ? '-' : I->op == EK_FMUL ? '*' : I->op == EK_FFMA ? 'f' : '/';
        bool approx_div = I->op == EK_FDIV && (I->flags & (F_APPROX | F_FULL));
        FOR_LANES(l, em) {
            uint32_t ua = (uint32_t)opv(x, a, l), ub = (uint32_t)opv(x, b, l), uc = op == 'f' ? (uint32_t)opv(x, c, l) : 0;
            uint32_t psn = psn2(opp(x, a, l), opp(x, b, l));
            if (op == 'f') psn = psn2(psn, opp(x, c, l));
            if (ftz) { ua = f32_ftz(ua); ub = f32_ftz(ub); uc = f32_ftz(uc); }
            float fa = f32_of(ua), fb = f32_of(ub), fc = f32_of(uc), r;
            if (approx_div) {
                r = emu_approx_f32(&x->M->L->approx, EK_FDIV, (I->flags & F_FULL) != 0, bits_f32(fa), bits_f32(fb),
                                   (double)fa / (double)fb);
            } else if (rnd == RND_RN) {
                switch (op) {
                case '+': r = fa + fb; break;
                case '-': r = fa - fb; break;
                case '*': r = fa * fb; break;
                case 'f': r = fmaf(fa, fb, fc); break;
                default: r = fa / fb; break;
                }
            } else {
                r = f32_op_rnd(op, fa, fb, fc, rnd);
            }
            opw(x, d, l, plain && !approx_div ? (f32_is_nan(bits_f32(r)) ? F32_CANON_NAN : bits_f32(r)) : f32_result(r, ftz, sat), psn);
        }
        return;
    }
    case EK_FABS: case EK_FNEG:
        FOR_LANES(l, em) {
            uint32_t ua = (uint32_t)opv(x, a, l);
            if (ftz) ua = f32_ftz(ua);
            opw(x, d, l, I->op == EK_FABS ? (ua & 0x7fffffffu) : (ua ^ 0x80000000u), opp(x, a, l));
        }
        return;
    case EK_FMIN: case EK_FMAX:
        FOR_LANES(l, em) {
            uint32_t r = f32_minmax((uint32_t)opv(x, a, l), (uint32_t)opv(x, b, l), I->op == EK_FMIN, ftz);
            if ((I->flags & F_RELU) && (r >> 31) && !f32_is_nan(r)) r = 0;
            opw(x, d, l, r, psn2(opp(x, a, l), opp(x, b, l)));
        }
        return;
    case EK_FRCP: case EK_FSQRT: case EK_FRSQRT: case EK_FSIN: case EK_FCOS: case EK_FLG2: case EK_FEX2: case EK_FTANH:
        FOR_LANES(l, em) {
            uint32_t ua = (uint32_t)opv(x, a, l);
            if (ftz) ua = f32_ftz(ua);
            float fa = f32_of(ua), r;
            if ((I->flags & F_APPROX) || I->op == EK_FRSQRT || I->op == EK_FSIN || I->op == EK_FCOS ||
                I->op == EK_FLG2 || I->op == EK_FEX2 || I->op == EK_FTANH)
                r = emu_approx_f32(&x->M->L->approx, I->op, false, ua, 0, fp_approx(I->op, (double)fa));
            else if (I->op == EK_FRCP)
                r = rnd == RND_RN ? 1.0f / fa : f32_op_rnd('/', 1.0f, fa, 0, rnd);
            else
                r = rnd == RND_RN ? sqrtf(fa) : f32_op_rnd('s', fa, 0, 0, rnd);
            opw(x, d, l, f32_result(r, ftz, sat), opp(x, a, l));
        }
        return;
    case EK_TESTP:
        FOR_LANES(l, em) {
            uint32_t ua = (uint32_t)opv(x, a, l);
            opw(x, d, l, (uint64_t)test_class(f32_of(ua), I->sub, f32_is_sub(ua)), opp(x, a, l));
        }
        return;
    case EK_COPYSIGN:
        FOR_LANES(l, em) {
            uint32_t ua = (uint32_t)opv(x, a, l), ub = (uint32_t)opv(x, b, l);
            opw(x, d, l, (ub & 0x7fffffffu) | (ua & 0x80000000u), psn2(opp(x, a, l), opp(x, b, l)));
        }
        return;
    default:
        emu_fail(x->M, EMU_ERR_UNSUPPORTED, "UNSUPPORTED", I, x->w, em, "unsupported f32 operation");
    }
}

static void exec_f64(Exec *x, const EInst *I, uint32_t em)
{
    const EOp *d = &I->o[0], *a = &I->o[1], *b = &I->o[2], *c = &I->o[3];
    const bool sat = I->flags & F_SAT, ftz = I->flags & F_FTZ;
    const int rnd = I->rnd == RND_NONE ? RND_RN : I->rnd;
    switch (I->op) {
    case EK_FADD: case EK_FSUB: case EK_FMUL: case EK_FFMA: case EK_FDIV: {
        int op = I->op == EK_FADD ? '+' : I->op == EK_FSUB ? '-' : I->op == EK_FMUL ? '*' : I->op == EK_FFMA ? 'f' : '/';
        FOR_LANES(l, em) {
            double fa = f64_of(opv(x, a, l)), fb = f64_of(opv(x, b, l)), fc = op == 'f' ? f64_of(opv(x, c, l)) : 0, r;
            uint32_t psn = psn2(opp(x, a, l), opp(x, b, l));
            if (op == 'f') psn = psn2(psn, opp(x, c, l));
            if (rnd == RND_RN) {
                switch (op) {
                case '+': r = fa + fb; break;
                case '-': r = fa - fb; break;
                case '*': r = fa * fb; break;
                case 'f': r = fma(fa, fb, fc); break;
                default: r = fa / fb; break;
                }
            } else {
                r = f64_op_rnd(op, fa, fb, fc, rnd);
            }
            opw(x, d, l, f64_result(r, sat), psn);
        }
        return;
    }
    case EK_FABS: case EK_FNEG:
        FOR_LANES(l, em) {
            uint64_t ua = opv(x, a, l);
            opw(x, d, l, I->op == EK_FABS ? (ua & 0x7fffffffffffffffull) : (ua ^ 0x8000000000000000ull), opp(x, a, l));
        }
        return;
    case EK_FMIN: case EK_FMAX:
        FOR_LANES(l, em) opw(x, d, l, f64_minmax(opv(x, a, l), opv(x, b, l), I->op == EK_FMIN), psn2(opp(x, a, l), opp(x, b, l)));
        return;
    case EK_FRCP: case EK_FSQRT: case EK_FRSQRT: case EK_FSIN: case EK_FCOS: case EK_FLG2: case EK_FEX2: case EK_FTANH:
        FOR_LANES(l, em) {
            double fa = f64_of(opv(x, a, l)), r;
            if (ftz && fa != 0 && fabs(fa) < 2.2250738585072014e-308) fa = copysign(0.0, fa);
            bool gross = (I->flags & F_APPROX) && ftz && (I->op == EK_FRCP || I->op == EK_FRSQRT);
            if (gross && x->M->L->approx.mode != EMU_APPROX_EXACT) r = emu_approx_f64_gross(I->op, opv(x, a, l));
            else if ((I->flags & F_APPROX) || I->op == EK_FRSQRT) r = fp_approx(I->op, fa);
            else if (I->op == EK_FRCP) r = rnd == RND_RN ? 1.0 / fa : f64_op_rnd('/', 1.0, fa, 0, rnd);
            else if (I->op == EK_FSQRT) r = rnd == RND_RN ? sqrt(fa) : f64_op_rnd('s', fa, 0, 0, rnd);
            else r = fp_approx(I->op, fa);
            if (ftz && r != 0 && fabs(r) < 2.2250738585072014e-308) r = copysign(0.0, r);
            opw(x, d, l, f64_result(r, sat), opp(x, a, l));
        }
        return;
    case EK_TESTP:
        FOR_LANES(l, em) {
            double v = f64_of(opv(x, a, l));
            opw(x, d, l, (uint64_t)test_class(v, I->sub, fpclassify(v) == FP_SUBNORMAL), opp(x, a, l));
        }
        return;
    case EK_COPYSIGN:
        FOR_LANES(l, em) {
            uint64_t ua = opv(x, a, l), ub = opv(x, b, l);
            opw(x, d, l, (ub & 0x7fffffffffffffffull) | (ua & 0x8000000000000000ull), psn2(opp(x, a, l), opp(x, b, l)));
        }
        return;
    default:
        emu_fail(x->M, EMU_ERR_UNSUPPORTED, "UNSUPPORTED", I, x->w, em, "unsupported f64 operation");
    }
}

static void exec_half(Exec *x, const EInst *I, uint32_t em)
{
    const EOp *d = &I->o[0], *a = &I->o[1], *b = &I->o[2], *c = &I->o[3];
    int t = I->t;
    bool pair = t == TY_F16X2 || t == TY_BF16X2;
    if (I->op == EK_TESTP || I->op == EK_COPYSIGN) {
        emu_fail(x->M, EMU_ERR_UNSUPPORTED, "UNSUPPORTED", I, x->w, em, "testp/copysign on half types");
        return;
    }
    FOR_LANES(l, em) {
        uint32_t ua = (uint32_t)opv(x, a, l);
        uint32_t ub = I->nops > 2 ? (uint32_t)opv(x, b, l) : 0;
        uint32_t uc = I->nops > 3 ? (uint32_t)opv(x, c, l) : 0;
        uint32_t psn = opp(x, a, l);
        if (I->nops > 2) psn = psn2(psn, opp(x, b, l));
        if (I->nops > 3) psn = psn2(psn, opp(x, c, l));
        uint32_t r = half_op(I, t, (uint16_t)ua, (uint16_t)ub, (uint16_t)uc);
        if (pair) r |= (uint32_t)half_op(I, t, (uint16_t)(ua >> 16), (uint16_t)(ub >> 16), (uint16_t)(uc >> 16)) << 16;
        opw(x, d, l, r, psn);
    }
}

void exec_float(Exec *x, const EInst *I, uint32_t em)
{
    switch (I->t) {
    case TY_F32: exec_f32(x, I, em); return;
    case TY_F64: exec_f64(x, I, em); return;
    case TY_F16: case TY_F16X2: case TY_BF16: case TY_BF16X2: exec_half(x, I, em); return;
    default:
        emu_fail(x->M, EMU_ERR_UNSUPPORTED, "UNSUPPORTED", I, x->w, em, "unsupported floating-point type");
    }
}
