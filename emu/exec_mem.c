/* exec_mem.c — ld/ldu/st (all spaces, vectors), atom/red (every
 * operation, cas, exch, inc/dec, float add) and cp.async (performed
 * synchronously: commit/wait are no-ops).  Lanes access memory one after
 * the other, which is one sequentially consistent interleaving (for
 * atomics an order that varies with the ITS seed: atom_order).  Non-coherent
 * loads of written memory are checked in ncload.c. */
#include <string.h>

#include "emu/fp.h"
#include "emu/internal.h"

static inline uint32_t elem_size(int t) { int b = ty_bits(t); return b < 8 ? 1 : (uint32_t)b / 8; }

/* A poisoned address stops the run (reported with the first lane's origin). */
static void poisoned_address(Exec *x, const EInst *I, const EOp *a, uint32_t em)
{
    uint32_t bad = 0, first = 0;
    FOR_LANES(l, em) {
        if (x->P[l][a->reg]) { if (!bad) first = x->P[l][a->reg]; bad |= 1u << l; }
    }
    emu_poison_fail(x, I, bad, first, "an address");
}

/* The weak-memory mode (weak.c) has its own ld/st/atom: one test per
 * memory instruction here keeps the SC mode's speed. */
void exec_ld(Exec *x, const EInst *I, uint32_t em)
{
    if (__builtin_expect(x->M->weak, 0)) { weak_ld(x, I, em); return; }
    const EOp *d = &I->o[0], *a = &I->o[1];
    uint32_t es = elem_size(I->t), n = I->vec, size = es * n;
    int bits = ty_bits(I->t);
    bool sgn = ty_signed(I->t) && !ty_is_float(I->t);
    uint64_t addr[32];
    if (a->ab == AB_REG) {
        uint32_t bad = 0;
        FOR_LANES(l, em) if (x->P[l][a->reg]) bad |= 1u << l;
        if (bad) { poisoned_address(x, I, a, em); return; }
    }
    const EOp *el = n > 1 ? &x->M->P->pool[d->reg] : d;
    FOR_LANES(l, em) {
        uint32_t psn;
        addr[l] = mem_addr_of(x, a, l, &psn);
        MemRef r;
        if (!mem_ref(x, I, l, I->space, addr[l], size, false, &r)) return;
        if (I->sub == LD_NC && r.alloc && !nc_check_load(x, I, l, &r, addr[l], size)) return;
        for (uint32_t k = 0; k < n; k++) {
            MemRef rk = r;
            rk.p += k * es;
            if (rk.sh) rk.sh += k * es;
            uint64_t v = mem_load(&rk, es);
            uint32_t vp = mem_load_psn(x, &rk, es, l, I, addr[l] + k * es, r.space);
            if (sgn) opw_s(x, &el[k], l, v, bits, vp);
            else opw(x, &el[k], l, v, vp);
        }
        if (I->sub2 == LD_SYNC && r.space != SP_LOCAL) spin_site(x, I, l, addr[l], SPIN_READ);
    }
    mem_count_access(x, I, em, addr, size, false);
}

void exec_st(Exec *x, const EInst *I, uint32_t em)
{
    if (__builtin_expect(x->M->weak, 0)) { weak_st(x, I, em); return; }
    const EOp *a = &I->o[0], *v = &I->o[1];
    uint32_t es = elem_size(I->t), n = I->vec, size = es * n;
    uint64_t addr[32];
    if (a->ab == AB_REG) {
        uint32_t bad = 0;
        FOR_LANES(l, em) if (x->P[l][a->reg]) bad |= 1u << l;
        if (bad) { poisoned_address(x, I, a, em); return; }
    }
    const EOp *el = n > 1 ? &x->M->P->pool[v->reg] : v;
    FOR_LANES(l, em) {
        uint32_t psn;
        addr[l] = mem_addr_of(x, a, l, &psn);
        MemRef r;
        if (!mem_ref(x, I, l, I->space, addr[l], size, true, &r)) return;
        nc_note_write(x, I, &r, size);
        for (uint32_t k = 0; k < n; k++) {
            MemRef rk = r;
            rk.p += k * es;
            if (rk.sh) rk.sh += k * es;
            mem_store(&rk, es, opv(x, &el[k], l));
            mem_store_psn(x->M, &rk, es, opp(x, &el[k], l));
        }
        spin_wrote(x->T[l]);
    }
    emu_progress(x->M, x->w);
    mem_count_access(x, I, em, addr, size, true);
}

static uint32_t f32_add_atom(uint32_t a, uint32_t b, bool ftz)
{
    if (ftz) { a = f32_ftz(a); b = f32_ftz(b); }
    float r = f32_of(a) + f32_of(b);
    return f32_result(r, ftz, false);
}

uint64_t emu_atom_new(const EInst *I, uint64_t old, uint64_t b, uint64_t c, bool global_space)
{
    int t = I->t, bits = ty_bits(t);
    uint64_t mk = mask_bits(bits);
    bool sgn = ty_signed(t);
    old &= mk;
    b &= mk;
    switch (I->sub) {
    case AO_ADD:
        switch (t) {
        case TY_F32: return f32_add_atom((uint32_t)old, (uint32_t)b, global_space);
        case TY_F64: return f64_result(f64_of(old) + f64_of(b), false);
        case TY_F16: return double_to_f16(f16_to_double((uint16_t)old) + f16_to_double((uint16_t)b), RND_RN, false);
        case TY_BF16: return double_to_bf16(bf16_to_double((uint16_t)old) + bf16_to_double((uint16_t)b), RND_RN, false);
        case TY_F16X2: {
            uint64_t lo = double_to_f16(f16_to_double((uint16_t)old) + f16_to_double((uint16_t)b), RND_RN, false);
            uint64_t hi = double_to_f16(f16_to_double((uint16_t)(old >> 16)) + f16_to_double((uint16_t)(b >> 16)), RND_RN, false);
            return lo | (hi << 16);
        }
        default: return (old + b) & mk;
        }
    case AO_MIN: case AO_MAX: {
        bool mn = I->sub == AO_MIN;
        if (t == TY_F32) {
            float fa = f32_of(old), fb = f32_of(b);
            if (f32_is_nan((uint32_t)b)) return old;
            if (f32_is_nan((uint32_t)old)) return b;
            return (mn ? fb < fa : fb > fa) ? b : old;
        }
        if (sgn) { int64_t so = sext(old, bits), sb = sext(b, bits); return (mn ? sb < so : sb > so) ? b : old; }
        return (mn ? b < old : b > old) ? b : old;
    }
    case AO_INC: return old >= b ? 0 : old + 1;
    case AO_DEC: return (old == 0 || old > b) ? b : old - 1;
    case AO_AND: return old & b;
    case AO_OR: return old | b;
    case AO_XOR: return old ^ b;
    case AO_EXCH: return b;
    case AO_CAS: return old == b ? (c & mk) : old;
    default: return old;
    }
}

/* The order in which the lanes of one warp-wide atomic apply.  PTX gives
 * none, and on hardware it varies.  hanoi and strict keep ascending lane
 * order (deterministic, as documented); ITS draws a permutation from the
 * seed, the warp-issue count and the pc, apart from the scheduler's random
 * stream (so the schedule itself does not change), so that a kernel whose
 * result depends on the order (a float sum, the values exch, cas or inc
 * return) gives different results under different seeds and --diff reports
 * it as schedule-dependent. */
int emu_atom_order(const Exec *x, const EInst *I, uint32_t em, uint8_t *order)
{
    int n = 0;
    FOR_LANES(l, em) order[n++] = (uint8_t)l;
    const Machine *M = x->M;
    if (M->L->policy != EMU_POLICY_ITS || n < 2) return n;
    uint64_t s = (M->L->seed + 1) * 0x9e3779b97f4a7c15ull ^ M->clock * 0xd1b54a32d192ed03ull ^ (uint64_t)(I - M->P->code);
    for (int i = n - 1; i > 0; i--) {   /* Fisher-Yates with splitmix64 */
        uint64_t z = (s += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        z ^= z >> 31;
        int j = (int)(z % (uint64_t)(i + 1));
        uint8_t t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
    return n;
}

void exec_atom(Exec *x, const EInst *I, uint32_t em)
{
    if (__builtin_expect(x->M->weak, 0)) { weak_atom(x, I, em); return; }
    bool red = I->sub2;
    int first = red ? 0 : 1;
    const EOp *d = &I->o[0], *a = &I->o[first], *b = &I->o[first + 1], *c = &I->o[first + 2];
    uint32_t size = elem_size(I->t);
    if (a->ab == AB_REG) {
        uint32_t bad = 0;
        FOR_LANES(l, em) if (x->P[l][a->reg]) bad |= 1u << l;
        if (bad) { poisoned_address(x, I, a, em); return; }
    }
    uint64_t addr[32];
    uint8_t order[32];
    int n = emu_atom_order(x, I, em, order);
    for (int k = 0; k < n; k++) {
        int l = order[k];
        uint32_t psn;
        addr[l] = mem_addr_of(x, a, l, &psn);
        MemRef r;
        if (!mem_ref(x, I, l, I->space, addr[l], size, true, &r)) return;
        nc_note_write(x, I, &r, size);
        uint64_t old = mem_load(&r, size);
        uint32_t opsn = mem_load_psn(x, &r, size, l, I, addr[l], r.space);
        uint64_t vb = opv(x, b, l), vc = I->sub == AO_CAS ? opv(x, c, l) : 0;
        uint32_t vpsn = psn2(opp(x, b, l), I->sub == AO_CAS ? opp(x, c, l) : 0);
        uint64_t nv = emu_atom_new(I, old, vb, vc, r.space == SP_GLOBAL);
        if (nv != (old & mask_bits(ty_bits(I->t)))) { emu_progress(x->M, x->w); spin_wrote(x->T[l]); }
        if (!red && I->sub == AO_CAS)
            spin_site(x, I, l, addr[l], (old & mask_bits(ty_bits(I->t))) == (vb & mask_bits(ty_bits(I->t))) ? SPIN_OK : SPIN_FAIL);
        else if (!red && I->sub == AO_EXCH && vb != 0)
            spin_site(x, I, l, addr[l], nv != (old & mask_bits(ty_bits(I->t))) ? SPIN_OK : SPIN_FAIL);
        mem_store(&r, size, nv);
        mem_store_psn(x->M, &r, size, psn2(opsn, (I->sub == AO_CAS && nv == old) ? 0 : vpsn));
        if (!red) opw(x, d, l, old, opsn);
        x->M->cnt.atomics++;
    }
    mem_count_access(x, I, em, addr, size, true);
}

void exec_cpasync(Exec *x, const EInst *I, uint32_t em)
{
    const EOp *dst = &I->o[0], *src = &I->o[1];
    uint32_t size = (uint32_t)I->o[2].imm;
    if (size != 4 && size != 8 && size != 16) {
        emu_fail(x->M, EMU_ERR_CHECK, "BAD_OPERAND", I, x->w, em, "cp.async size %u is not 4, 8 or 16", size);
        return;
    }
    uint64_t srcs[32];
    FOR_LANES(l, em) {
        uint32_t p1, p2;
        uint64_t da = mem_addr_of(x, dst, l, &p1), sa = mem_addr_of(x, src, l, &p2);
        srcs[l] = sa;
        if (p1 || p2) { emu_poison_fail(x, I, 1u << l, p1 ? p1 : p2, "an address"); return; }
        uint32_t srcsize = size;
        if (I->o[3].kind != EO_NONE) srcsize = (uint32_t)opv(x, &I->o[3], l);
        if (srcsize > size) srcsize = size;
        MemRef rd, rs;
        if (!mem_ref(x, I, l, SP_SHARED, da, size, true, &rd)) return;
        if (srcsize && !mem_ref(x, I, l, SP_GLOBAL, sa, size, false, &rs)) return;
        uint8_t nb[16], nsh[16];
        for (uint32_t k = 0; k < size; k++) {
            nb[k] = k < srcsize ? rs.p[k] : 0;
            nsh[k] = k < srcsize ? rs.sh[k] : 0;
        }
        if (x->M->weak) weak_direct_write(x, l, &rd, nb, nsh, size);
        else { memcpy(rd.p, nb, size); memcpy(rd.sh, nsh, size); }
    }
    emu_progress(x->M, x->w);
    if (x->M->cache) cache_access(x, I, em, srcs, size);
}
