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
 * Indices that may wrap between lanes: wrap.c. */
#include <stdlib.h>
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
    if (lf->uni->div_outside[v]) return false; /* from a cycle lanes went round unequally (a divergent continue) */
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

void shfl_lane_facts_late(Function *fn, LaneFacts *lf)
{
    lf->late = NULL, lf->nlate = 0;
    const Ssa *s = lf->ssa;
    uint32_t cap = 0;
    for (SsaValue v = 0; v < s->nvalues; v++) {
        if (!lf->uni->late[v]) continue;
        const Term *t = vterms_value(fn, v);
        if (!t) continue;
        if (lf->nlate == cap) {
            cap = cap ? 2 * cap : 8;
            lf->late = realloc(lf->late, cap * sizeof *lf->late);
            if (!lf->late) abort();
        }
        lf->late[lf->nlate++] = t;
    }
}

static bool is_late(const LaneFacts *lf, const Term *t)
{
    for (uint32_t i = 0; i < lf->nlate; i++)
        if (lf->late[i] == t) return true;
    return false;
}

static bool uf_shared(const LaneFacts *lf, const Term *t)
{
    Str n = t->name;
    if (is_late(lf, t)) return false; /* the lanes may have read it at different times (uniform_timing.c) */
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
        if (!uf_shared(lf, t)) return t;
        break;
    default: break;
    }
    for (uint32_t i = 0; i < t->n; i++) {
        const Term *v = shfl_lane_varying(lf, t->args[i], depth + 1);
        if (v) return v;
    }
    return NULL;
}
