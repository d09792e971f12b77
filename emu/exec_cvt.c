/* exec_cvt.c — cvt in all its forms (PTX ISA 9.7.9.21): integer <->
 * integer (truncating or .sat), integer <-> float (rounding modes, float to
 * integer always saturates and NaN becomes 0), float <-> float (exact
 * widening, rounded narrowing, rounding to an integral value), f16/bf16/
 * tf32, .ftz, .sat, .relu, .satfinite, and the packing forms
 * cvt.f16x2.f32 / cvt.bf16x2.f32. */
#include <math.h>

#include "emu/fp.h"
#include "emu/internal.h"

static double float_in(uint64_t v, int t, bool ftz)
{
    switch (t) {
    case TY_F32: { uint32_t u = (uint32_t)v; if (ftz) u = f32_ftz(u); return (double)f32_of(u); }
    case TY_F64: return f64_of(v);
    case TY_F16: return f16_to_double((uint16_t)v);
    case TY_BF16: return bf16_to_double((uint16_t)v);
    default: return 0;
    }
}

static bool is_int_round(int rnd) { return rnd == RND_RNI || rnd == RND_RZI || rnd == RND_RMI || rnd == RND_RPI; }

/* Rounds an exact double into float type dt. */
static uint64_t float_out(double r, int dt, int rnd, bool ftz, bool sat, bool relu, bool satfinite)
{
    if (sat && !isnan(r)) { if (r < 0 || (r == 0 && signbit(r))) r = 0; if (r > 1) r = 1; }
    if (sat && isnan(r)) r = 0;
    if (relu && !isnan(r) && (r < 0 || (r == 0 && signbit(r)))) r = 0;
    int rr = (rnd == RND_NONE || is_int_round(rnd)) ? RND_RN : rnd;
    switch (dt) {
    case TY_F32: {
        if (isnan(r)) return F32_CANON_NAN;
        float f = f64_to_f32_rnd(r, rr);
        if (satfinite && isinf(f)) f = copysignf(3.4028234663852886e38f, f);
        uint32_t b = bits_f32(f);
        return ftz ? f32_ftz(b) : b;
    }
    case TY_F64: return isnan(r) ? F64_CANON_NAN : bits_f64(r);
    case TY_F16: return fp_round_pack(r, 11, 5, rr, ftz, satfinite);
    case TY_BF16: return fp_round_pack(r, 8, 8, rr, ftz, satfinite);
    case TY_TF32: {
        if (isnan(r)) return F32_CANON_NAN;
        uint64_t t19 = fp_round_pack(r, 11, 8, rr == RND_RN && rnd == RND_NONE ? RND_RNA : rr, false, satfinite);
        return t19 << 13;
    }
    default: return 0;
    }
}

static uint64_t cvt_one(const EInst *I, uint64_t v)
{
    int dt = I->t, st = I->t2;
    bool ftz = I->flags & F_FTZ, sat = I->flags & F_SAT, relu = I->flags & F_RELU, satfinite = I->sub2;
    int dbits = ty_bits(dt), sbits = ty_bits(st);
    bool dflt = ty_is_float(dt), sflt = ty_is_float(st);
    if (!dflt && !sflt) {
        __int128 val = ty_signed(st) ? (__int128)sext(v, sbits) : (__int128)(v & mask_bits(sbits));
        if (sat) {
            __int128 lo, hi;
            if (ty_signed(dt)) { lo = -((__int128)1 << (dbits - 1)); hi = ((__int128)1 << (dbits - 1)) - 1; }
            else { lo = 0; hi = ((__int128)1 << dbits) - 1; }
            if (val < lo) val = lo;
            if (val > hi) val = hi;
        }
        return (uint64_t)val & mask_bits(dbits);
    }
    if (!sflt) {            /* integer -> float */
        bool uns = !ty_signed(st);
        int64_t iv = uns ? (int64_t)(v & mask_bits(sbits)) : sext(v, sbits);
        int rr = (I->rnd == RND_NONE || is_int_round(I->rnd)) ? RND_RN : I->rnd;
        if (dt == TY_F32) {
            float f = i64_to_f32_rnd(iv, uns, rr);
            return float_out((double)f, TY_F32, RND_RN, ftz, sat, relu, satfinite);
        }
        if (dt == TY_F64) {
            double dd = i64_to_f64_rnd(iv, uns, rr);
            return float_out(dd, TY_F64, RND_RN, ftz, sat, relu, satfinite);
        }
        double dd = uns ? (double)(uint64_t)iv : (double)iv;   /* exact below 2^53, enough for f16/bf16 */
        return float_out(dd, dt, rr, ftz, sat, relu, satfinite);
    }
    double fv = float_in(v, st, ftz);
    if (!dflt) {            /* float -> integer: saturating, NaN -> 0 */
        if (isnan(fv)) return 0;
        int rr = I->rnd == RND_NONE ? RND_RZI : I->rnd;
        double r = fp_round_integral(fv, rr);
        if (ty_signed(dt)) {
            double lo = -ldexp(1.0, dbits - 1), hi = ldexp(1.0, dbits - 1);
            int64_t iv;
            if (r < lo) iv = (int64_t)(-((__int128)1 << (dbits - 1)));
            else if (r >= hi) iv = (int64_t)(((__int128)1 << (dbits - 1)) - 1);
            else iv = (int64_t)r;
            return (uint64_t)iv & mask_bits(dbits);
        }
        double hi = ldexp(1.0, dbits);
        if (r <= 0) return 0;
        if (r >= hi) return mask_bits(dbits);
        return (uint64_t)r;
    }
    /* float -> float */
    if (isnan(fv)) return float_out(NAN, dt, RND_RN, false, sat, relu, satfinite);
    if (is_int_round(I->rnd)) fv = fp_round_integral(fv, I->rnd);
    return float_out(fv, dt, I->rnd, ftz, sat, relu, satfinite);
}

void exec_cvt(Exec *x, const EInst *I, uint32_t em)
{
    const EOp *d = &I->o[0], *a = &I->o[1];
    if (I->op == EK_CVTPACK) {
        int ht = I->t == TY_F16X2 ? TY_F16 : TY_BF16;
        bool relu = I->flags & F_RELU, satfinite = I->sub2;
        FOR_LANES(l, em) {
            double fa = f32_of(opv(x, a, l)), fb = f32_of(opv(x, &I->o[2], l));
            uint64_t hi = float_out(fa, ht, I->rnd, false, false, relu, satfinite);
            uint64_t lo = float_out(fb, ht, I->rnd, false, false, relu, satfinite);
            opw(x, d, l, (hi << 16) | lo, psn2(opp(x, a, l), opp(x, &I->o[2], l)));
        }
        return;
    }
    int dbits = ty_bits(I->t);
    bool sdst = ty_signed(I->t) && !ty_is_float(I->t);
    /* integer to integer (no .sat): poison follows the bits (poison_bits.c):
     * truncation keeps the low bits' state, zero extension adds defined
     * bits, sign extension copies the sign bit's */
    int sbits = ty_bits(I->t2);
    bool bitwise = !ty_is_float(I->t) && !ty_is_float(I->t2) && !(I->flags & F_SAT);
    FOR_LANES(l, em) {
        uint64_t r = cvt_one(I, opv(x, a, l));
        uint32_t psn = opp(x, a, l);
        if (psn && bitwise) {
            uint64_t bad = psn_bits(x->M, psn, sbits);
            if (ty_signed(I->t2) && sbits < 64 && (bad >> (sbits - 1) & 1)) bad |= ~mask_bits(sbits);
            int wide = d->kind == EO_REG && d->bits > dbits && sdst ? d->bits : dbits;
            if (sdst && (bad >> (dbits - 1) & 1)) bad |= ~mask_bits(dbits); /* sign-extended into the register */
            psn = psn_with_bits(x->M, psn, bad, wide);
            if (sdst) {
                if (d->kind == EO_REG) {
                    x->R[l][d->reg] = (uint64_t)sext(r, dbits) & mask_bits(d->bits);
                    x->P[l][d->reg] = psn;
                }
            } else {
                opw_bits(x, d, l, r, psn);
            }
            continue;
        }
        if (sdst) opw_s(x, d, l, r, dbits, psn);
        else opw(x, d, l, r, psn);
    }
}
