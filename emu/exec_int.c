/* exec_int.c — integer, bit and logic instructions (PTX ISA 9.7.1, 9.7.8).
 *
 * Values are read at the instruction's type width (sign-extended for
 * signed types), computed in 64 bits (128 for mul.hi.64) and written back
 * masked to the destination register's width.  Division and remainder
 * by zero give poison (PTX: unspecified); the carry flag of
 * add.cc/sub.cc/mad.cc is per thread. */
#include "emu/internal.h"

static inline uint64_t rd_u(const Exec *x, const EOp *o, int l, int bits) { return opv(x, o, l) & mask_bits(bits); }
static inline int64_t rd_s(const Exec *x, const EOp *o, int l, int bits) { return sext(opv(x, o, l), bits); }

static uint32_t bfind64(uint64_t a, int msb, bool sgn, bool shiftamt)
{
    if (sgn && ((a >> msb) & 1)) a = ~a;
    a &= mask_bits(msb + 1);
    if (!a) return 0xffffffffu;
    uint32_t d = 63 - (uint32_t)__builtin_clzll(a);
    return shiftamt ? (uint32_t)msb - d : d;
}

static uint64_t brev64(uint64_t v, int bits)
{
    uint64_t r = 0;
    for (int i = 0; i < bits; i++) r |= ((v >> i) & 1) << (bits - 1 - i);
    return r;
}

static const uint8_t prmt_tab[6][4][4] = {
    /* f4e */ { { 0, 1, 2, 3 }, { 1, 2, 3, 4 }, { 2, 3, 4, 5 }, { 3, 4, 5, 6 } },
    /* b4e */ { { 0, 7, 6, 5 }, { 1, 0, 7, 6 }, { 2, 1, 0, 7 }, { 3, 2, 1, 0 } },
    /* rc8 */ { { 0, 0, 0, 0 }, { 1, 1, 1, 1 }, { 2, 2, 2, 2 }, { 3, 3, 3, 3 } },
    /* ecl */ { { 0, 1, 2, 3 }, { 1, 1, 2, 3 }, { 2, 2, 2, 3 }, { 3, 3, 3, 3 } },
    /* ecr */ { { 0, 0, 0, 0 }, { 0, 1, 1, 1 }, { 0, 1, 2, 2 }, { 0, 1, 2, 3 } },
    /* rc16 */ { { 0, 1, 0, 1 }, { 2, 3, 2, 3 }, { 0, 1, 0, 1 }, { 2, 3, 2, 3 } },
};

static uint32_t prmt(uint32_t a, uint32_t b, uint32_t c, int mode)
{
    uint64_t src = ((uint64_t)b << 32) | a;
    uint32_t d = 0;
    for (int i = 0; i < 4; i++) {
        uint32_t byte;
        if (mode == 0) {
            uint32_t sel = (c >> (4 * i)) & 0xf;
            byte = (uint32_t)(src >> (8 * (sel & 7))) & 0xff;
            if (sel & 8) byte = (byte & 0x80) ? 0xff : 0;
        } else {
            uint32_t sel = prmt_tab[mode - 1][c & 3][i];
            byte = (uint32_t)(src >> (8 * sel)) & 0xff;
        }
        d |= byte << (8 * i);
    }
    return d;
}

static uint32_t fns(uint32_t mask, uint32_t base, int32_t offset)
{
    if (offset == 0) return ((mask >> (base & 31)) & 1) ? base : 0xffffffffu;
    int32_t pos = (int32_t)base, inc = offset > 0 ? 1 : -1;
    int64_t count = (offset > 0 ? (int64_t)offset : -(int64_t)offset) - 1;
    while (pos >= 0 && pos < 32) {
        if ((mask >> pos) & 1) {
            if (count == 0) return (uint32_t)pos;
            count--;
        }
        pos += inc;
    }
    return 0xffffffffu;
}

void exec_int(Exec *x, const EInst *I, uint32_t em)
{
    const int t = I->t;
    const int bits = ty_bits(t);
    const bool sgn = ty_signed(t);
    const uint64_t mk = mask_bits(bits);
    const EOp *d = &I->o[0], *a = &I->o[1], *b = &I->o[2], *c = &I->o[3];

    switch (I->op) {
    case EK_ADD:
    case EK_SUB: {
        bool sub = I->op == EK_SUB;
        if (!(I->flags & (F_SAT | F_CC | F_CARRYIN))) {
            FOR_LANES(l, em) {
                uint64_t va = opv(x, a, l), vb = opv(x, b, l);
                opw(x, d, l, (sub ? va - vb : va + vb) & mk, psn2(opp(x, a, l), opp(x, b, l)));
            }
            return;
        }
        FOR_LANES(l, em) {
            Thread *T = x->T[l];
            uint64_t va = rd_u(x, a, l, bits), vb = rd_u(x, b, l, bits);
            uint64_t cin = (I->flags & F_CARRYIN) ? T->cc : 0;
            uint32_t psn = psn2(opp(x, a, l), opp(x, b, l));
            if (I->flags & F_CARRYIN) psn = psn2(psn, T->cc_psn);
            uint64_t r;
            if (I->flags & F_SAT) {          /* add.sat.s32 / sub.sat.s32 */
                int64_t sa = sext(va, 32), sb = sext(vb, 32);
                int64_t s = sub ? sa - sb : sa + sb;
                if (s > INT32_MAX) s = INT32_MAX;
                if (s < INT32_MIN) s = INT32_MIN;
                r = (uint64_t)s & mk;
            } else if (sub) {
                r = (va - vb - cin) & mk;
                if (I->flags & F_CC) { T->cc = (uint8_t)(va < vb + cin || (cin && vb == mk)); T->cc_psn = psn; }
            } else {
                r = (va + vb + cin) & mk;
                if (I->flags & F_CC) {
                    unsigned __int128 wide = (unsigned __int128)va + vb + cin;
                    T->cc = (uint8_t)((wide >> bits) & 1);
                    T->cc_psn = psn;
                }
            }
            opw(x, d, l, r, psn);
        }
        return;
    }
    case EK_MUL:
    case EK_MAD: {
        bool mad = I->op == EK_MAD;
        if (I->sub == MW_LO && !(I->flags & (F_CC | F_CARRYIN | F_SAT))) {
            FOR_LANES(l, em) {
                uint64_t r = opv(x, a, l) * opv(x, b, l);
                uint32_t psn = psn2(opp(x, a, l), opp(x, b, l));
                if (mad) { r += opv(x, c, l); psn = psn2(psn, opp(x, c, l)); }
                opw(x, d, l, r & mk, psn);
            }
            return;
        }
        FOR_LANES(l, em) {
            Thread *T = x->T[l];
            uint32_t psn = psn2(opp(x, a, l), opp(x, b, l));
            unsigned __int128 p;
            if (sgn) p = (unsigned __int128)((__int128)rd_s(x, a, l, bits) * (__int128)rd_s(x, b, l, bits));
            else p = (unsigned __int128)rd_u(x, a, l, bits) * rd_u(x, b, l, bits);
            uint64_t r;
            int rbits = bits;
            if (I->sub == MW_HI) r = (uint64_t)(p >> bits) & mk;
            else if (I->sub == MW_WIDE) { rbits = 2 * bits; r = (uint64_t)p & mask_bits(rbits); }
            else r = (uint64_t)p & mk;
            if (mad) {
                psn = psn2(psn, opp(x, c, l));
                uint64_t vc = opv(x, c, l) & mask_bits(rbits);
                uint64_t cin = (I->flags & F_CARRYIN) ? T->cc : 0;
                if (I->flags & F_CARRYIN) psn = psn2(psn, T->cc_psn);
                if (I->flags & F_SAT) {      /* mad.hi.sat.s32 */
                    int64_t s = sext(r, 32) + sext(vc, 32);
                    if (s > INT32_MAX) s = INT32_MAX;
                    if (s < INT32_MIN) s = INT32_MIN;
                    r = (uint64_t)s & mk;
                } else {
                    unsigned __int128 sum = (unsigned __int128)r + vc + cin;
                    if (I->flags & F_CC) { T->cc = (uint8_t)((sum >> rbits) & 1); T->cc_psn = psn; }
                    r = (uint64_t)sum & mask_bits(rbits);
                }
            }
            if (sgn && I->sub == MW_WIDE) opw_s(x, d, l, r, rbits, psn);
            else opw(x, d, l, r, psn);
        }
        return;
    }
    case EK_MUL24:
    case EK_MAD24:
        FOR_LANES(l, em) {
            int64_t va = sgn ? sext(opv(x, a, l), 24) : (int64_t)(opv(x, a, l) & 0xffffff);
            int64_t vb = sgn ? sext(opv(x, b, l), 24) : (int64_t)(opv(x, b, l) & 0xffffff);
            uint64_t p = (uint64_t)(va * vb);
            uint64_t r = I->sub == MW_HI ? (p >> 16) : p;
            uint32_t psn = psn2(opp(x, a, l), opp(x, b, l));
            if (I->op == EK_MAD24) { r += opv(x, c, l); psn = psn2(psn, opp(x, c, l)); }
            opw(x, d, l, r & 0xffffffffu, psn);
        }
        return;
    case EK_SAD:
        FOR_LANES(l, em) {
            uint64_t r;
            if (sgn) { int64_t va = rd_s(x, a, l, bits), vb = rd_s(x, b, l, bits); r = (uint64_t)(va > vb ? va - vb : vb - va); }
            else { uint64_t va = rd_u(x, a, l, bits), vb = rd_u(x, b, l, bits); r = va > vb ? va - vb : vb - va; }
            r += opv(x, c, l);
            opw(x, d, l, r & mk, psn2(psn2(opp(x, a, l), opp(x, b, l)), opp(x, c, l)));
        }
        return;
    case EK_DIV:
    case EK_REM:
        FOR_LANES(l, em) {
            uint64_t r;
            bool div = I->op == EK_DIV;
            uint32_t psn = psn2(opp(x, a, l), opp(x, b, l));
            if ((opv(x, b, l) & mk) == 0) {
                /* PTX: "an unspecified, machine-specific value".  Poison, so
                 * that a result that matters is reported instead of one
                 * machine's value (all ones) being taken as the answer. */
                r = mk;
                if (!psn) psn = emu_poison_new(x->M, PE_DIV_ZERO, x, l, (uint32_t)(I - x->M->P->code), 0, SP_NONE);
            } else if (sgn) {
                /* MIN / -1: PTX defines div as a / b on the type's two's
                 * complement values and calls only division by zero
                 * unspecified, so the quotient wraps to MIN and the
                 * remainder is 0 (C's undefined overflow is the front end's
                 * business, not PTX's). */
                int64_t va = rd_s(x, a, l, bits), vb = rd_s(x, b, l, bits);
                if (vb == -1) r = div ? (uint64_t)(-(uint64_t)va) : 0;
                else r = (uint64_t)(div ? va / vb : va % vb);
            } else {
                uint64_t va = rd_u(x, a, l, bits), vb = rd_u(x, b, l, bits);
                r = div ? va / vb : va % vb;
            }
            opw(x, d, l, r & mk, psn);
        }
        return;
    case EK_ABS:
    case EK_NEG:
        FOR_LANES(l, em) {
            int64_t va = rd_s(x, a, l, bits);
            uint64_t r = (I->op == EK_NEG || va < 0) ? (uint64_t)0 - (uint64_t)va : (uint64_t)va;
            opw(x, d, l, r & mk, opp(x, a, l));
        }
        return;
    case EK_MIN:
    case EK_MAX:
        FOR_LANES(l, em) {
            uint64_t r;
            bool mn = I->op == EK_MIN;
            if (sgn) {
                int64_t va = rd_s(x, a, l, bits), vb = rd_s(x, b, l, bits);
                int64_t s = mn ? (va < vb ? va : vb) : (va > vb ? va : vb);
                if ((I->flags & F_RELU) && s < 0) s = 0;
                r = (uint64_t)s;
            } else {
                uint64_t va = rd_u(x, a, l, bits), vb = rd_u(x, b, l, bits);
                r = mn ? (va < vb ? va : vb) : (va > vb ? va : vb);
            }
            opw(x, d, l, r & mk, psn2(opp(x, a, l), opp(x, b, l)));
        }
        return;
    case EK_POPC:
        FOR_LANES(l, em) opw(x, d, l, (uint64_t)__builtin_popcountll(rd_u(x, a, l, bits)), opp(x, a, l));
        return;
    case EK_CLZ:
        FOR_LANES(l, em) {
            uint64_t va = rd_u(x, a, l, bits);
            uint64_t r = va ? (uint64_t)(__builtin_clzll(va) - (64 - bits)) : (uint64_t)bits;
            opw(x, d, l, r, opp(x, a, l));
        }
        return;
    case EK_BFIND:
        FOR_LANES(l, em) opw(x, d, l, bfind64(rd_u(x, a, l, bits), bits - 1, sgn, I->sub2), opp(x, a, l));
        return;
    case EK_FNS:
        FOR_LANES(l, em) {
            uint32_t psn = psn2(psn2(opp(x, a, l), opp(x, b, l)), opp(x, c, l));
            opw(x, d, l, fns((uint32_t)opv(x, a, l), (uint32_t)opv(x, b, l), (int32_t)opv(x, c, l)), psn);
        }
        return;
    case EK_BREV:
        FOR_LANES(l, em) opw(x, d, l, brev64(rd_u(x, a, l, bits), bits), opp(x, a, l));
        return;
    case EK_BFE:
        FOR_LANES(l, em) {
            uint64_t va = rd_u(x, a, l, bits);
            uint32_t pos = (uint32_t)opv(x, b, l) & 0xff, len = (uint32_t)opv(x, c, l) & 0xff;
            int msb = bits - 1;
            uint64_t sbit = 0;
            if (sgn && len) {
                uint32_t sb = pos + len - 1;
                if (sb > (uint32_t)msb) sb = (uint32_t)msb;
                sbit = (va >> sb) & 1;
            }
            uint64_t r = 0;
            for (int i = 0; i <= msb; i++) {
                uint64_t bit = ((uint32_t)i < len && pos + (uint32_t)i <= (uint32_t)msb) ? (va >> (pos + i)) & 1 : sbit;
                r |= bit << i;
            }
            opw(x, d, l, r, psn2(psn2(opp(x, a, l), opp(x, b, l)), opp(x, c, l)));
        }
        return;
    case EK_BFI: {
        const EOp *e = &I->o[4];
        FOR_LANES(l, em) {
            uint64_t f = rd_u(x, a, l, bits), base = rd_u(x, b, l, bits);
            uint32_t pos = (uint32_t)opv(x, c, l) & 0xff, len = (uint32_t)opv(x, e, l) & 0xff;
            uint64_t r = base;
            for (uint32_t i = 0; i < len && pos + i < (uint32_t)bits; i++) {
                r &= ~(1ull << (pos + i));
                r |= ((f >> i) & 1) << (pos + i);
            }
            uint32_t psn = psn2(psn2(opp(x, a, l), opp(x, b, l)), psn2(opp(x, c, l), opp(x, e, l)));
            opw(x, d, l, r, psn);
        }
        return;
    }
    case EK_SZEXT:
        FOR_LANES(l, em) {
            uint32_t va = (uint32_t)opv(x, a, l), n = (uint32_t)opv(x, b, l);
            n = I->sub2 ? (n > 32 ? 32 : n) : (n & 31);
            uint32_t r;
            if (n == 0) r = 0;
            else if (n >= 32) r = va;
            else r = sgn ? (uint32_t)sext(va, (int)n) : (va & (uint32_t)mask_bits((int)n));
            opw(x, d, l, r, psn2(opp(x, a, l), opp(x, b, l)));
        }
        return;
    case EK_BMSK:
        FOR_LANES(l, em) {
            uint32_t va = (uint32_t)opv(x, a, l), vb = (uint32_t)opv(x, b, l);
            if (I->sub2) { if (va > 32) va = 32; if (vb > 32) vb = 32; }
            else { va &= 31; vb &= 31; }
            uint64_t m = (vb >= 32 ? 0xffffffffull : ((1ull << vb) - 1)) << va;
            opw(x, d, l, m & 0xffffffffu, psn2(opp(x, a, l), opp(x, b, l)));
        }
        return;
    case EK_DP4A:
    case EK_DP2A: {
        bool sa = ty_signed(I->t), sb = ty_signed(I->t2);
        FOR_LANES(l, em) {
            uint32_t va = (uint32_t)opv(x, a, l), vb = (uint32_t)opv(x, b, l);
            int64_t acc = (sa || sb) ? sext(opv(x, c, l), 32) : (int64_t)(uint32_t)opv(x, c, l);
            if (I->op == EK_DP4A) {
                for (int i = 0; i < 4; i++) {
                    int64_t ea = sa ? sext(va >> (8 * i), 8) : (int64_t)((va >> (8 * i)) & 0xff);
                    int64_t eb = sb ? sext(vb >> (8 * i), 8) : (int64_t)((vb >> (8 * i)) & 0xff);
                    acc += ea * eb;
                }
            } else {
                int k0 = I->sub == MW_HI ? 2 : 0;
                for (int i = 0; i < 2; i++) {
                    int64_t ea = sa ? sext(va >> (16 * i), 16) : (int64_t)((va >> (16 * i)) & 0xffff);
                    int64_t eb = sb ? sext(vb >> (8 * (k0 + i)), 8) : (int64_t)((vb >> (8 * (k0 + i))) & 0xff);
                    acc += ea * eb;
                }
            }
            opw(x, d, l, (uint64_t)acc & 0xffffffffu, psn2(psn2(opp(x, a, l), opp(x, b, l)), opp(x, c, l)));
        }
        return;
    }
    /* An undefined operand is an arbitrary value, not a contagious one: a
     * defined operand that decides every bit (0 for and, all ones for or)
     * makes the result defined, e.g. `or.pred %fb, %fb, %bad` where %fb is
     * true and %bad was computed from a shuffle of an absent lane. */
    case EK_AND:
    case EK_OR:
        /* bit by bit (poison_bits.c): the result's undefined bits are those
         * undefined in an operand and not decided by the other */
        FOR_LANES(l, em) {
            uint64_t va = opv(x, a, l) & mk, vb = opv(x, b, l) & mk;
            uint32_t pa = opp(x, a, l), pb = opp(x, b, l);
            bool is_or = I->op == EK_OR;
            opw_bits(x, d, l, is_or ? va | vb : va & vb, psn_and_or(x->M, pa, va, pb, vb, bits, is_or));
        }
        return;
    case EK_XOR:
        FOR_LANES(l, em) opw(x, d, l, (opv(x, a, l) ^ opv(x, b, l)) & mk, psn2(opp(x, a, l), opp(x, b, l)));
        return;
    case EK_NOT:
        FOR_LANES(l, em) opw(x, d, l, ~opv(x, a, l) & mk, opp(x, a, l));
        return;
    case EK_CNOT:
        FOR_LANES(l, em) opw(x, d, l, (opv(x, a, l) & mk) == 0 ? 1 : 0, opp(x, a, l));
        return;
    case EK_LOP3: {
        const EOp *lut = &I->o[4];
        FOR_LANES(l, em) {
            uint64_t va = opv(x, a, l), vb = opv(x, b, l), vc = opv(x, c, l);
            uint32_t tbl = (uint32_t)opv(x, lut, l) & 0xff;
            uint64_t r = 0;
            for (int i = 0; i < 8; i++)
                if (tbl & (1u << i)) r |= ((i & 4) ? va : ~va) & ((i & 2) ? vb : ~vb) & ((i & 1) ? vc : ~vc);
            opw(x, d, l, r & mk, psn2(psn2(opp(x, a, l), opp(x, b, l)), opp(x, c, l)));
        }
        return;
    }
    case EK_SHL:
        FOR_LANES(l, em) {
            uint64_t va = opv(x, a, l);
            uint32_t n = (uint32_t)opv(x, b, l), pa = opp(x, a, l), pb = opp(x, b, l);
            uint64_t r = n >= (uint32_t)bits ? 0 : (va << n) & mk;
            if (pb) opw(x, d, l, r, pb); /* an undefined amount: any bit */
            else opw_bits(x, d, l, r, psn_with_bits(x->M, pa, n >= (uint32_t)bits ? 0 : psn_bits(x->M, pa, bits) << n, bits));
        }
        return;
    case EK_SHR:
        FOR_LANES(l, em) {
            uint32_t n = (uint32_t)opv(x, b, l), pa = opp(x, a, l), pb = opp(x, b, l);
            uint64_t r, bad = psn_bits(x->M, pa, bits);
            uint32_t k = n >= (uint32_t)bits ? (uint32_t)bits - 1 : n;
            if (sgn) {
                int64_t va = rd_s(x, a, l, bits);
                r = (uint64_t)(va >> k);
                bad = (uint64_t)(sext(bad, bits) >> k); /* the sign bit's state fills in */
            } else {
                uint64_t va = rd_u(x, a, l, bits);
                r = n >= (uint32_t)bits ? 0 : va >> n;
                bad = n >= (uint32_t)bits ? 0 : bad >> n;
            }
            if (pb) opw(x, d, l, r & mk, pb);
            else opw_bits(x, d, l, r & mk, psn_with_bits(x->M, pa, bad, bits));
        }
        return;
    case EK_SHF:
        FOR_LANES(l, em) {
            uint64_t lo = opv(x, a, l) & 0xffffffffu, hi = opv(x, b, l) & 0xffffffffu;
            uint32_t n = (uint32_t)opv(x, c, l);
            n = I->sub2 ? (n > 32 ? 32 : n) : (n & 31);
            uint64_t v = (hi << 32) | lo;
            uint64_t r = I->sub ? (v >> n) & 0xffffffffu : ((v << n) >> 32) & 0xffffffffu;
            opw(x, d, l, r, psn2(psn2(opp(x, a, l), opp(x, b, l)), opp(x, c, l)));
        }
        return;
    case EK_PRMT:
        FOR_LANES(l, em) {
            uint32_t r = prmt((uint32_t)opv(x, a, l), (uint32_t)opv(x, b, l), (uint32_t)opv(x, c, l), I->sub);
            opw(x, d, l, r, psn2(psn2(opp(x, a, l), opp(x, b, l)), opp(x, c, l)));
        }
        return;
    default:
        emu_fail(x->M, EMU_ERR_UNSUPPORTED, "UNSUPPORTED", I, x->w, em, "unsupported integer operation");
        return;
    }
}
