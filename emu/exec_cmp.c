/* exec_cmp.c — comparisons and selections: setp, set, selp, slct
 * (PTX ISA 9.7.7).  Ordered float comparisons are false when an operand
 * is NaN, unordered ones (.equ, .ltu, ...) true. */
#include <math.h>

#include "emu/fp.h"
#include "emu/internal.h"

static double as_double(uint64_t v, int t, bool ftz)
{
    switch (t) {
    case TY_F32: { uint32_t u = (uint32_t)v; if (ftz) u = f32_ftz(u); return (double)f32_of(u); }
    case TY_F64: return f64_of(v);
    case TY_F16: return f16_to_double((uint16_t)v);
    case TY_BF16: return bf16_to_double((uint16_t)v);
    default: return 0;
    }
}

static bool compare(uint64_t a, uint64_t b, int t, int cmp, bool ftz)
{
    if (ty_is_float(t)) {
        double fa = as_double(a, t, ftz), fb = as_double(b, t, ftz);
        bool un = isnan(fa) || isnan(fb);
        switch (cmp) {
        case CMP_EQ: return !un && fa == fb;
        case CMP_NE: return !un && fa != fb;
        case CMP_LT: return !un && fa < fb;
        case CMP_LE: return !un && fa <= fb;
        case CMP_GT: return !un && fa > fb;
        case CMP_GE: return !un && fa >= fb;
        case CMP_EQU: return un || fa == fb;
        case CMP_NEU: return un || fa != fb;
        case CMP_LTU: return un || fa < fb;
        case CMP_LEU: return un || fa <= fb;
        case CMP_GTU: return un || fa > fb;
        case CMP_GEU: return un || fa >= fb;
        case CMP_NUM: return !un;
        case CMP_NAN: return un;
        default: return false;
        }
    }
    int bits = ty_bits(t);
    if (ty_signed(t) && cmp <= CMP_GE) {
        int64_t sa = sext(a, bits), sb = sext(b, bits);
        switch (cmp) {
        case CMP_EQ: return sa == sb;
        case CMP_NE: return sa != sb;
        case CMP_LT: return sa < sb;
        case CMP_LE: return sa <= sb;
        case CMP_GT: return sa > sb;
        case CMP_GE: return sa >= sb;
        }
    }
    uint64_t ua = a & mask_bits(bits), ub = b & mask_bits(bits);
    switch (cmp) {
    case CMP_EQ: return ua == ub;
    case CMP_NE: return ua != ub;
    case CMP_LT: case CMP_LO: return ua < ub;
    case CMP_LE: case CMP_LS: return ua <= ub;
    case CMP_GT: case CMP_HI: return ua > ub;
    case CMP_GE: case CMP_HS: return ua >= ub;
    default: return false;
    }
}

static inline bool combine(bool v, int bop, bool c)
{
    switch (bop) {
    case BOP_AND: return v && c;
    case BOP_OR: return v || c;
    case BOP_XOR: return v != c;
    default: return v;
    }
}

void exec_cmp(Exec *x, const EInst *I, uint32_t em)
{
    const EOp *d = &I->o[0], *a = &I->o[1], *b = &I->o[2], *c = &I->o[3];
    bool ftz = I->flags & F_FTZ;
    switch (I->op) {
    case EK_SETP:
    case EK_SET: {
        bool hasc = I->sub2 != BOP_NONE;
        const EOp *q = &I->o[5];
        uint64_t one = I->op == EK_SET ? (I->t == TY_F32 ? 0x3f800000u : mask_bits(ty_bits(I->t))) : 1;
        FOR_LANES(l, em) {
            bool v = compare(opv(x, a, l), opv(x, b, l), I->t2, I->sub, ftz);
            uint32_t psn = psn2(opp(x, a, l), opp(x, b, l));
            bool cv = false;
            if (hasc) { cv = opv(x, c, l) & 1; psn = psn2(psn, opp(x, c, l)); }
            opw(x, d, l, combine(v, I->sub2, cv) ? one : 0, psn);
            if (q->kind == EO_REG) opw(x, q, l, combine(!v, I->sub2, cv) ? 1 : 0, psn);
        }
        return;
    }
    case EK_SELP:
        FOR_LANES(l, em) {
            bool cv = opv(x, c, l) & 1;
            const EOp *s = cv ? a : b;
            opw(x, d, l, opv(x, s, l), psn2(opp(x, c, l), opp(x, s, l)));
        }
        return;
    case EK_SLCT:
        FOR_LANES(l, em) {
            uint64_t vc = opv(x, c, l);
            bool ge;
            if (I->t2 == TY_F32) {
                uint32_t u = (uint32_t)vc;
                if (ftz) u = f32_ftz(u);
                float f = f32_of(u);
                ge = f >= 0.0f;   /* NaN selects b */
            } else {
                ge = sext(vc, 32) >= 0;
            }
            const EOp *s = ge ? a : b;
            opw(x, d, l, opv(x, s, l), psn2(opp(x, c, l), opp(x, s, l)));
        }
        return;
    default:
        emu_fail(x->M, EMU_ERR_UNSUPPORTED, "UNSUPPORTED", I, x->w, em, "unsupported comparison");
    }
}
