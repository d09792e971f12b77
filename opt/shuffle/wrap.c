/* wrap.c — indices that may wrap between lanes (issue 22 class 3).
 *
 * PTX integer arithmetic wraps: add.s32 and mad.lo.s32 are modular, and
 * cvt.s64.s32 / mul.wide.s32 of a wrapped value is a defined, far-away
 * address.  C's "signed overflow is undefined" is a promise about CUDA
 * source, not about the PTX, and CUDA code wraps by definition too (a
 * (int)(unsigned) conversion).  The proof of A[%tid.x := %tid.x + N] == B
 * (proof.c) takes, for every 32-bit index x of S's address that is widened
 * to 64 bits (sign- or zero-extended) and mentions the lane, the premise
 *     ext(x') == ext(x) + sext(x' - x)        (x' = x in lane l+N)
 * and the premise must come from somewhere.  Here, in this order:
 *
 *  1. value ranges (index_in_range): x's value, for every thread a launch
 *     can have, lies in an interval narrower than 2^31 inside the range of
 *     the extension (0..2^32-1 for zext, -2^31..2^31-1 for sext).  Lane l+N
 *     is a real thread of the same row (the template's lane-range test and
 *     row guard), so x' lies in it too and nothing wraps.  Ranges come from
 *     the launch limits of the special registers (%tid.x < 1024, %ntid.x <=
 *     1024, %ctaid.x < 2^31, ...) and constants: threadIdx.x - 1 qualifies,
 *     blockIdx.x * blockDim.x + threadIdx.x does not.
 *  2. warp alignment (shfl_index_aligned): x = U + %tid.x + c with U and c
 *     multiples of 32 whenever %ntid.x is (U a multiple of %ntid.x, e.g.
 *     %ctaid.x * %ntid.x, the 1-D global index), used only where %ntid.x %
 *     32 == 0 holds (.reqntid, or the stricter row guard the template then
 *     emits).  A warp then lies in one row at a %tid.x that is a multiple
 *     of 32, its lanes hold x0 .. x0 + 31 with x0 a multiple of 32 (mod
 *     2^32), and the boundaries of both ranges (multiples of 2^31) cannot
 *     fall strictly inside such a run: no two lanes of one warp wrap
 *     against each other, whatever U is at run time.
 *  3. a per-lane check at run time (shfl_index_check): x' - x is a constant
 *     d (x affine in the lane) and a register holds lane l's x at D; the
 *     template compares it with the boundary (sext, d > 0: x > INT_MAX - d;
 *     d < 0: x < INT_MIN - d; zext: x > UINT_MAX - d, or x < -d) and sends
 *     the lanes where x + d would wrap to the original load: one setp per
 *     site, folded into the fallback predicate.
 * Otherwise the runtime address check (wrap=1) or no rewrite.
 *
 * nvcc-specific facts were considered and none is used: nvcc writes a
 * constant offset into the 64-bit address ([%rd+4] for a[i+1]) where LLVM
 * holds the add no-signed-wrap, which is C's rule about the source, not a
 * property of the PTX, and it says nothing about the neighbour's index,
 * which the PTX computes from %tid.x + N, not from ours; mul.wide.s32 shows
 * that the source index was a C int, which wraps in (int)(unsigned) code. */
#include "opt/shuffle/internal.h"

/* ------------------------------------------------------------ ranges */

/* An interval [lo, hi] of integers X with X == t (mod 2^width) for every
 * value t can take (a representative: arithmetic that wraps in between
 * does not matter to + - * <<, which are exact modulo 2^width). */
typedef struct Rep {
    __int128 lo, hi;
} Rep;

static const __int128 BIG = (__int128)1 << 66;

static Rep any(unsigned w) { return (Rep){ 0, ((__int128)1 << w) - 1 }; }
static bool tame(Rep r) { return r.lo > -BIG && r.hi < BIG; }

/* Launch limits (CUDA, every architecture ptxas 13 targets). */
static Rep special(const Term *a)
{
    Str n = a->name;
    char c = a->comp;
    if (str_eqc(n, "%tid")) return (Rep){ 0, c == 'z' ? 63 : 1023 };
    if (str_eqc(n, "%ntid")) return (Rep){ 1, c == 'z' ? 64 : 1024 };
    if (str_eqc(n, "%laneid")) return (Rep){ 0, 31 };
    if (str_eqc(n, "%ctaid")) return (Rep){ 0, c == 'x' ? 0x7ffffffe : 65534 };
    if (str_eqc(n, "%nctaid")) return (Rep){ 1, c == 'x' ? 0x7fffffff : 65535 };
    return any(a->width);
}

static Rep rep_of(const Term *t, int depth);

/* t's value read as unsigned (0..2^w-1) or signed (-2^(w-1)..2^(w-1)-1):
 * the representative moved into that window, or the whole window. */
static Rep canon(const Term *t, bool sgn, int depth)
{
    unsigned w = t->width;
    __int128 m = (__int128)1 << w, base = sgn ? -(m / 2) : 0;
    Rep r = rep_of(t, depth);
    if (tame(r) && r.hi - r.lo < m) {
        /* shift by a multiple of 2^w so that lo lands in the window */
        __int128 k = r.lo - base >= 0 ? (r.lo - base) / m : -((base - r.lo + m - 1) / m);
        r.lo -= k * m, r.hi -= k * m;
        if (r.hi < base + m) return r;
    }
    return (Rep){ base, base + m - 1 };
}

static Rep mul(Rep a, Rep b)
{
    if (!tame(a) || !tame(b)) return (Rep){ -BIG, BIG };
    __int128 c[4] = { a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi };
    Rep r = { c[0], c[0] };
    for (int i = 1; i < 4; i++) r.lo = c[i] < r.lo ? c[i] : r.lo, r.hi = c[i] > r.hi ? c[i] : r.hi;
    return r;
}

static Rep rep_of(const Term *t, int depth)
{
    unsigned w = t->width;
    if (depth > 32 || w > 64) return any(w > 64 ? 64 : w);
    __int128 m = (__int128)1 << w;
    switch ((TermOp)t->op) {
    case T_CONST: {
        __int128 k = (__int128)t->k;
        return (Rep){ k >= m / 2 ? k - m : k, k >= m / 2 ? k - m : k }; /* the small representative */
    }
    case T_ATOM: return t->atom == ATOM_SPECIAL ? special(t) : any(w);
    case T_ADD: {
        __int128 k = (__int128)t->k;
        if (k >= m / 2) k -= m;
        Rep r = { k, k };
        for (uint32_t i = 0; i < t->n; i++) {
            __int128 c = (__int128)t->coef[i];
            if (c >= m / 2) c -= m; /* a negative coefficient (subtraction) */
            Rep p = mul(rep_of(t->args[i], depth + 1), (Rep){ c, c });
            if (!tame(p)) return any(w);
            r.lo += p.lo, r.hi += p.hi;
        }
        return tame(r) ? r : any(w);
    }
    case T_MUL: {
        if (t->n != 2) return any(w);
        Rep r = mul(rep_of(t->args[0], depth + 1), rep_of(t->args[1], depth + 1));
        return tame(r) ? r : any(w);
    }
    case T_SHL: {
        const Term *s = t->args[1];
        if (s->op != T_CONST || s->k >= w) return any(w);
        Rep r = mul(rep_of(t->args[0], depth + 1), (Rep){ (__int128)1 << s->k, (__int128)1 << s->k });
        return tame(r) ? r : any(w);
    }
    case T_TRUNC: return rep_of(t->args[0], depth + 1); /* congruent modulo the narrower width too */
    case T_ZEXT: return canon(t->args[0], false, depth + 1);
    case T_SEXT: return canon(t->args[0], true, depth + 1);
    case T_AND: {
        Rep a = canon(t->args[0], false, depth + 1), b = canon(t->args[1], false, depth + 1);
        return (Rep){ 0, a.hi < b.hi ? a.hi : b.hi };
    }
    case T_LSHR: case T_UDIV: case T_UREM: {
        const Term *s = t->args[1];
        if (s->op != T_CONST) return any(w);
        Rep a = canon(t->args[0], false, depth + 1);
        if (t->op == T_LSHR) return s->k >= w ? (Rep){ 0, 0 } : (Rep){ a.lo >> s->k, a.hi >> s->k };
        if (!s->k) return any(w);
        if (t->op == T_UDIV) return (Rep){ a.lo / (__int128)s->k, a.hi / (__int128)s->k };
        return a.hi < (__int128)s->k ? a : (Rep){ 0, (__int128)s->k - 1 };
    }
    case T_UMIN: case T_UMAX: {
        Rep a = canon(t->args[0], false, depth + 1), b = canon(t->args[1], false, depth + 1);
        if (t->op == T_UMIN) return (Rep){ a.lo < b.lo ? a.lo : b.lo, a.hi < b.hi ? a.hi : b.hi };
        return (Rep){ a.lo > b.lo ? a.lo : b.lo, a.hi > b.hi ? a.hi : b.hi };
    }
    case T_SMIN: case T_SMAX: {
        Rep a = canon(t->args[0], true, depth + 1), b = canon(t->args[1], true, depth + 1);
        if (t->op == T_SMIN) return (Rep){ a.lo < b.lo ? a.lo : b.lo, a.hi < b.hi ? a.hi : b.hi };
        return (Rep){ a.lo > b.lo ? a.lo : b.lo, a.hi > b.hi ? a.hi : b.hi };
    }
    default: return any(w);
    }
}

static bool is_widening(const Term *a)
{
    return (a->op == T_SEXT || a->op == T_ZEXT) && a->n == 1 && a->width == 64 && a->args[0]->width == 32;
}

static bool nonneg_const(const Term *t) { return t->op == T_CONST && t->width == 32 && t->k < 0x80000000u; }

static bool clamp_below(const Term *t, const Term **e)
{
    if (t->op != T_SMAX || t->n != 2) return false;
    if (nonneg_const(t->args[1])) return *e = t->args[0], true;
    if (nonneg_const(t->args[0])) return *e = t->args[1], true;
    return false;
}

/* Rule 1 for a clamped index (image filters: min(max(x + d, 0), w - 1)):
 * smin(smax(e, c), b) or smax(smin(e, b), c) with a constant c >= 0 and a
 * bound b that does not depend on the lane.  Both lanes' values lie in
 * [c, INT_MAX], or (smin with b < c) both are b: no wrap between them,
 * whatever e does. */
static bool clamp_no_wrap(const LaneFacts *lf, const Term *x)
{
    if ((x->op != T_SMIN && x->op != T_SMAX) || x->n != 2) return false;
    const Term *e;
    if (x->op == T_SMIN)
        for (int k = 0; k < 2; k++)
            if (clamp_below(x->args[k], &e) && !shfl_mentions_lane(lf, x->args[1 - k])) return true;
    if (x->op == T_SMAX && clamp_below(x, &e) && e->op == T_SMIN && e->n == 2)
        return !shfl_mentions_lane(lf, e->args[0]) || !shfl_mentions_lane(lf, e->args[1]);
    return false;
}

/* Rule 1: every value of the widened index lies in an interval narrower
 * than 2^31 inside the extension's range. */
static bool index_in_range(const LaneFacts *lf, const Term *ext)
{
    if (ext->op == T_SEXT && clamp_no_wrap(lf, ext->args[0])) return true;
    const Term *x = ext->args[0];
    bool sgn = ext->op == T_SEXT;
    __int128 m = (__int128)1 << x->width, base = sgn ? -(m / 2) : 0;
    Rep r = rep_of(x, 0);
    if (!tame(r) || r.hi - r.lo >= m / 2) return false;
    /* the representative itself must lie in the window (canon would move it) */
    return r.lo >= base && r.hi < base + m;
}

static void collect(const LaneFacts *lf, const Term *a, const Term **out, int max, int *n, int depth)
{
    if (depth > 64 || *n > max || !shfl_mentions_lane(lf, a)) return;
    if (is_widening(a) && !index_in_range(lf, a)) {
        for (int i = 0; i < *n; i++)
            if (out[i] == a) return;
        if (*n < max) out[*n] = a;
        ++*n;
        return;
    }
    for (uint32_t i = 0; i < a->n; i++) collect(lf, a->args[i], out, max, n, depth + 1);
}

int shfl_index_wraps(const LaneFacts *lf, const Term *a, const Term **out, int max)
{
    int n = 0;
    collect(lf, a, out, max, &n, 0);
    return n > max ? -1 : n;
}

/* ---------------------------------------------------------- alignment */

/* Is t a multiple of 32 (modulo 2^width) whenever %ntid.x is? */
static bool aligned32(const Term *t, int depth)
{
    if (depth > 32) return false;
    switch ((TermOp)t->op) {
    case T_CONST: return (t->k & 31) == 0;
    case T_ATOM: return t->atom == ATOM_SPECIAL && str_eqc(t->name, "%ntid") && t->comp == 'x';
    case T_MUL: case T_AND:
        for (uint32_t i = 0; i < t->n; i++)
            if (aligned32(t->args[i], depth + 1)) return true;
        return false;
    case T_SHL:
        return (t->args[1]->op == T_CONST && t->args[1]->k >= 5) || aligned32(t->args[0], depth + 1);
    case T_ADD:
        if (t->k & 31) return false;
        for (uint32_t i = 0; i < t->n; i++)
            if ((t->coef[i] & 31) && !aligned32(t->args[i], depth + 1)) return false;
        return true;
    case T_ZEXT: case T_SEXT: case T_TRUNC: return t->args[0]->width >= 5 && aligned32(t->args[0], depth + 1);
    default: return false;
    }
}

bool shfl_index_aligned(const LaneFacts *lf, const Term *ext)
{
    const Term *x = ext->args[0];
    if (!lf->tid || x->width != 32) return false;
    if (x == lf->tid) return true;
    if (x->op != T_ADD || (x->k & 31)) return false;
    bool tid_once = false;
    for (uint32_t i = 0; i < x->n; i++) {
        const Term *a = x->args[i];
        if (a == lf->tid && x->coef[i] == 1 && !tid_once) {
            tid_once = true;
            continue;
        }
        if (shfl_mentions_lane(lf, a)) return false;
        if ((x->coef[i] & 31) && !aligned32(a, 0)) return false;
    }
    return tid_once;
}

/* ------------------------------------------------------- per-lane check */

/* A register whose value is the term x, read (through instructions, not
 * merges) by the computation of S's address; *def its value. */
static bool index_register(Ctx *c, const Load *s, const Term *x, SsaValue *def)
{
    const Ssa *ssa = c->lf.ssa;
    enum { MAXV = 96 };
    SsaValue q[MAXV];
    int nq = 0;
    for (uint32_t u = ssa->use_start[s->instr]; u < ssa->use_start[s->instr + 1]; u++)
        if ((ssa->uses[u].flags & REF_ADDR) && nq < MAXV) q[nq++] = ssa->uses[u].value;
    for (int k = 0; k < nq; k++) {
        SsaValue v = q[k];
        const SsaVal *sv = &ssa->v[v];
        if (sv->kind != SSA_DEF || sv->partial) continue;
        const Reg *r = c->fn->regs[sv->reg];
        if (!r->special && !r->vec && (r->cls == RC_B32) && vterms_value(c->fn, v) == x) {
            *def = v;
            return true;
        }
        for (uint32_t u = ssa->use_start[sv->instr]; u < ssa->use_start[sv->instr + 1]; u++) {
            SsaValue w = ssa->uses[u].value;
            if (ssa->uses[u].flags & (REF_MEM | REF_GUARD | REF_PARTIAL)) continue;
            bool seen = false;
            for (int j = 0; j < nq && !seen; j++) seen = q[j] == w;
            if (!seen && nq < MAXV) q[nq++] = w;
        }
    }
    return false;
}

bool shfl_index_check(Ctx *c, const Load *s, const Load *d, const Term *ext, int64_t n, ShflWrap *w)
{
    const Term *x = ext->args[0];
    const Term *dx = term_sub(c->tt, shfl_in_lane(c, x, n), x);
    if (dx->op != T_CONST) return false;
    int32_t delta = (int32_t)(uint32_t)dx->k;
    if (!delta) return false;
    SsaValue v;
    if (!index_register(c, s, x, &v)) return false;
    const Ssa *ssa = c->lf.ssa;
    const SsaVal *sv = &ssa->v[v];
    Reg *r = c->fn->regs[sv->reg];
    *w = (ShflWrap){ .reg = r, .sgn = ext->op == T_SEXT, .delta = delta };
    /* the register still holds lane l's x at D, or a copy is made right
     * after its definition (which dominates S, so D) */
    if (ssa_reaching(ssa, d->instr, sv->reg) != v) w->copy_after = c->cfg->instr[sv->instr];
    return true;
}
