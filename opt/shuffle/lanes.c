/* lanes.c — what lane l and lane l+N of one warp have in common,
 * as far as the shuffle pass's proof relies on it (issue 10).
 *
 * The proof abstracts every maximal subterm of S's address that is not a
 * function of the lane (%tid.x, %laneid) into one free variable shared by
 * the source lane and the destination lane.  That is only sound for a
 * subterm whose value is the same in both lanes: shfl_lane_shared decides
 * it from the uniformity analysis, atom by atom.  Not shared, whatever
 * their inputs: %lanemask_*, %warpid, %clock* and the other lane-varying
 * specials; atomics, calls, shfl/activemask results (the analysis' own
 * sources); loads from .local or generic memory (the same address is
 * another thread's private memory); merges after divergent branches
 * (sync dependence); and any value of a loop that lanes may leave in
 * different iterations, read after it (temporal divergence: ITER atoms,
 * induction variables, loop-carried values).  %tid.y and %tid.z are shared
 * because the emitted row guard falls back unless the warp is one row.
 *
 * Unsigned indices: the no-wrap premise ext(x') == ext(x) + sext(x' - x)
 * is C's promise for a signed index (overflow is undefined), not for a
 * zero-extended one, whose wrap-around is defined.  shfl_zext_no_wrap
 * proves it from value ranges instead: the premise holds when every
 * value x can take lies in an interval narrower than 2^31 (two real
 * threads' x then differ by less than 2^31, and sext recovers the
 * difference).  Ranges come from the launch limits of the specials;
 * anything else (a parameter, a loaded value, %ctaid.x·%ntid.x) is
 * unbounded. */
#include <string.h>

#include "opt/shuffle/internal.h"

bool shfl_mentions_lane(const LaneFacts *lf, const Term *t)
{
    return (lf->tid && term_mentions(t, lf->tid)) || (lf->laneid && term_mentions(t, lf->laneid));
}

/* Is every loop from l outwards left by all lanes in the same iteration? */
static bool loops_exit_together(const LaneFacts *lf, uint32_t l)
{
    for (; l != ANA_NONE; l = lf->li->loops[l].parent)
        if (lf->uni->loop_div_exit[l]) return false;
    return true;
}

/* An SSA value read after every loop that contains its definition (S is
 * outside all loops when this is asked): shared if uniform where defined
 * and no enclosing loop is left in different iterations. */
static bool value_shared(const LaneFacts *lf, uint32_t v)
{
    if (v >= lf->ssa->nvalues || !uniform_value(lf->uni, v)) return false;
    uint32_t b = lf->ssa->v[v].block;
    if (b == ANA_NONE) return true; /* the function's entry value */
    return b >= lf->li->cfg->n || loops_exit_together(lf, lf->li->innermost[b]);
}

/* The uniformity analysis' launch constants, and %tid.y/z: the row guard
 * (or a known one-row or whole-warp-row block shape) makes them the same in
 * the lanes that shuffle. */
static bool special_shared(const Term *a)
{
    return (str_eqc(a->name, "%tid") && (a->comp == 'y' || a->comp == 'z')) || uniform_special(a->name);
}

/* A load's uninterpreted function: the same address means the same value
 * in every lane only for memory all lanes share ("ld.global.f32",
 * "ld.global.nc.f32", "ldu.global.u32", "ld.shared...", "ld.const...",
 * "ld.param..."); .local and generic ("ld.u32", may be .local) are
 * private to the thread. */
static bool contains(Str s, const char *w) { return memmem(s.p, s.len, w, strlen(w)) != NULL; }

static bool uf_shared(const Term *t)
{
    Str n = t->name;
    if (!str_starts(n, "ld.") && !str_starts(n, "ldu.")) return true; /* pure: shared if its operands are */
    return contains(n, ".global") || contains(n, ".shared") || contains(n, ".const") || contains(n, ".param");
}

const Term *shfl_lane_varying(const LaneFacts *lf, const Term *t, int depth)
{
    if (depth > 64) return t;
    if (t == lf->tid || t == lf->laneid) return NULL;
    switch ((TermOp)t->op) {
    case T_CONST: return NULL;
    case T_ATOM:
        switch ((AtomKind)t->atom) {
        case ATOM_PARAM: case ATOM_SYMADDR: case ATOM_VAR: case ATOM_MEM: return NULL;
        case ATOM_SPECIAL: return special_shared(t) ? NULL : t;
        case ATOM_ITER: return t->a < lf->li->nloops && loops_exit_together(lf, t->a) ? NULL : t;
        case ATOM_LOOPVAL:
            return t->a < lf->li->nloops && loops_exit_together(lf, t->a) && value_shared(lf, t->b) ? NULL : t;
        case ATOM_PHI: case ATOM_OPAQUE: return value_shared(lf, t->b) ? NULL : t;
        }
        return t;
    case T_UF:
        if (!uf_shared(t)) return t;
        break;
    default: break;
    }
    for (uint32_t i = 0; i < t->n; i++) {
        const Term *v = shfl_lane_varying(lf, t->args[i], depth + 1);
        if (v) return v;
    }
    return NULL;
}

/* ------------------------------------------------------------ ranges */

typedef struct Range {
    __int128 lo, hi;
} Range;

static Range full(unsigned w) { return (Range){ 0, ((__int128)1 << w) - 1 }; }

/* Launch limits (CUDA, every architecture ptxas 13 targets). */
static Range special_range(const Term *a)
{
    Str n = a->name;
    char c = a->comp;
    if (str_eqc(n, "%tid")) return (Range){ 0, c == 'z' ? 63 : 1023 };
    if (str_eqc(n, "%ntid")) return (Range){ 1, c == 'z' ? 64 : 1024 };
    if (str_eqc(n, "%laneid")) return (Range){ 0, 31 };
    if (str_eqc(n, "%ctaid")) return (Range){ 0, c == 'x' ? 0x7ffffffe : 65534 };
    if (str_eqc(n, "%nctaid")) return (Range){ 1, c == 'x' ? 0x7fffffff : 65535 };
    return full(a->width);
}

/* Sound bounds of t's (unsigned, width-bit) value; a node whose exact
 * integer value may leave [0, 2^width) wraps and gets the full range. */
static Range range_of(const Term *t, int depth)
{
    unsigned w = t->width;
    Range f = full(w), r;
    if (depth > 32 || w > 64) return f;
    switch ((TermOp)t->op) {
    case T_CONST: return (Range){ (__int128)t->k, (__int128)t->k };
    case T_ATOM: return t->atom == ATOM_SPECIAL ? special_range(t) : f;
    case T_ADD: {
        __int128 half = (__int128)1 << (w - 1), mod = (__int128)1 << w;
        __int128 k = (__int128)t->k;
        r = (Range){ k, k };
        for (uint32_t i = 0; i < t->n; i++) {
            Range a = range_of(t->args[i], depth + 1);
            __int128 c = (__int128)t->coef[i];
            if (c >= half) c -= mod; /* a negative coefficient (subtraction) */
            __int128 p = c * a.lo, q = c * a.hi;
            r.lo += p < q ? p : q;
            r.hi += p < q ? q : p;
            if (r.hi - r.lo >= mod) return f;
        }
        break;
    }
    case T_MUL: {
        if (t->n != 2) return f;
        Range a = range_of(t->args[0], depth + 1), b = range_of(t->args[1], depth + 1);
        if (a.hi >= ((__int128)1 << 64) || b.hi >= ((__int128)1 << 64)) return f;
        r = (Range){ a.lo * b.lo, a.hi * b.hi };
        break;
    }
    case T_AND: {
        Range a = range_of(t->args[0], depth + 1), b = range_of(t->args[1], depth + 1);
        r = (Range){ 0, a.hi < b.hi ? a.hi : b.hi };
        break;
    }
    case T_LSHR: case T_UDIV: {
        const Term *s = t->args[1];
        if (s->op != T_CONST) return f;
        Range a = range_of(t->args[0], depth + 1);
        if (t->op == T_LSHR) {
            if (s->k >= w) return (Range){ 0, 0 };
            r = (Range){ a.lo >> s->k, a.hi >> s->k };
        } else {
            if (!s->k) return f;
            r = (Range){ a.lo / (__int128)s->k, a.hi / (__int128)s->k };
        }
        break;
    }
    case T_UREM: {
        const Term *s = t->args[1];
        if (s->op != T_CONST || !s->k) return f;
        Range a = range_of(t->args[0], depth + 1);
        r = a.hi < (__int128)s->k ? a : (Range){ 0, (__int128)s->k - 1 };
        break;
    }
    case T_SHL: {
        const Term *s = t->args[1];
        if (s->op != T_CONST || s->k >= w) return f;
        Range a = range_of(t->args[0], depth + 1);
        r = (Range){ a.lo << s->k, a.hi << s->k };
        break;
    }
    case T_ZEXT: return range_of(t->args[0], depth + 1);
    case T_SEXT: {
        Range a = range_of(t->args[0], depth + 1);
        if (a.hi >= ((__int128)1 << (t->args[0]->width - 1))) return f;
        return a;
    }
    case T_UMIN: case T_UMAX: {
        Range a = range_of(t->args[0], depth + 1), b = range_of(t->args[1], depth + 1);
        if (t->op == T_UMIN) r = (Range){ a.lo < b.lo ? a.lo : b.lo, a.hi < b.hi ? a.hi : b.hi };
        else r = (Range){ a.lo > b.lo ? a.lo : b.lo, a.hi > b.hi ? a.hi : b.hi };
        break;
    }
    default: return f;
    }
    if (r.lo < 0 || r.hi > f.hi) return f;
    return r;
}

bool shfl_zext_no_wrap(const Term *x)
{
    Range r = range_of(x, 0);
    return r.hi - r.lo < ((__int128)1 << 31);
}

/* The first zero-extended 32-bit index in a (mentioning the lane) whose
 * no-wrap premise the ranges do not prove, or NULL. */
const Term *shfl_unsigned_may_wrap(const LaneFacts *lf, const Term *a, int depth)
{
    if (depth > 64 || !shfl_mentions_lane(lf, a)) return NULL;
    if (a->op == T_ZEXT && a->n == 1 && a->width == 64 && a->args[0]->width == 32 && !shfl_zext_no_wrap(a->args[0]))
        return a->args[0];
    for (uint32_t i = 0; i < a->n; i++) {
        const Term *t = shfl_unsigned_may_wrap(lf, a->args[i], depth + 1);
        if (t) return t;
    }
    return NULL;
}
