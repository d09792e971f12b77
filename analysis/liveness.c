/* liveness.c — live registers (backward may-dataflow over blocks, bit sets)
 * and register pressure per class at every point.
 *
 * A guarded or partial write does not kill its register (the old value
 * survives when the guard is false), it reads it.  Special registers are
 * not allocatable and never live.  The memory pseudo-register takes part
 * in the dataflow (SSA needs it) but not in the pressure. */
#include "analysis/internal.h"

PressClass press_class(const Reg *r)
{
    switch (r->cls) {
    case RC_PRED: return PRESS_PRED;
    case RC_B8: case RC_B16: return PRESS_B16;
    case RC_B32: case RC_F32: return PRESS_B32;
    case RC_B64: case RC_F64: return PRESS_B64;
    case RC_B128: return PRESS_B128;
    default: return PRESS_OTHER;
    }
}

uint32_t press_units(const Reg *r)
{
    uint32_t u;
    switch (r->cls) {
    case RC_PRED: u = 0; break;
    case RC_B64: case RC_F64: u = 2; break;
    case RC_B128: u = 4; break;
    default: u = 1; break;
    }
    return u * (r->vec ? r->vec : 1);
}

/* Backward transfer of one instruction on `set`. */
static inline void transfer(const RegRefs *r, uint32_t i, uint64_t *set)
{
    for (uint32_t k = r->start[i]; k < r->start[i + 1]; k++) {
        const RegRef *x = &r->refs[k];
        if ((x->flags & (REF_DEF | REF_PARTIAL)) == REF_DEF) bit_clear(set, x->reg);
    }
    for (uint32_t k = r->start[i]; k < r->start[i + 1]; k++) {
        const RegRef *x = &r->refs[k];
        if ((x->flags & REF_USE) && !(x->flags & REF_SPECIAL)) bit_set(set, x->reg);
    }
}

void liveness_before(const Liveness *l, const RegRefs *r, uint32_t i, uint64_t *set)
{
    const Cfg *c = l->cfg;
    uint32_t b = c->instr_block[i];
    memcpy(set, l->live_out + (size_t)b * l->words, sizeof(uint64_t) * l->words);
    for (uint32_t j = c->block_instr[b + 1]; j-- > i;) transfer(r, j, set);
}

static Liveness *liveness_build(Function *fn)
{
    const Cfg *c = cfg_get(fn);
    const RegRefs *r = refs_get(fn);
    Arena *a = ana_arena(fn);
    Liveness *l = ARENA_NEW(a, Liveness);
    uint32_t n = c->n, W = (r->nvars + 63) / 64;
    l->cfg = c;
    l->nvars = r->nvars;
    l->words = W;
    l->live_in = ARENA_ARRAY(a, uint64_t, (size_t)(n + 1) * W);
    l->live_out = ARENA_ARRAY(a, uint64_t, (size_t)(n + 1) * W);
    uint64_t *gen = xcalloc((size_t)(n + 1) * W, sizeof(uint64_t));
    uint64_t *kill = xcalloc((size_t)(n + 1) * W, sizeof(uint64_t));
    for (uint32_t b = 0; b < n; b++) {
        uint64_t *g = gen + (size_t)b * W, *kl = kill + (size_t)b * W;
        for (uint32_t i = c->block_instr[b + 1]; i-- > c->block_instr[b];) {
            for (uint32_t k = r->start[i]; k < r->start[i + 1]; k++) {
                const RegRef *x = &r->refs[k];
                if ((x->flags & (REF_DEF | REF_PARTIAL)) == REF_DEF) {
                    bit_set(kl, x->reg);
                    bit_clear(g, x->reg);
                }
            }
            for (uint32_t k = r->start[i]; k < r->start[i + 1]; k++) {
                const RegRef *x = &r->refs[k];
                if ((x->flags & REF_USE) && !(x->flags & REF_SPECIAL)) bit_set(g, x->reg);
            }
        }
    }
    /* iteration order: postorder of the reachable blocks, then the rest */
    uint32_t *order = xmalloc(sizeof(uint32_t) * (n + 1));
    uint32_t no = 0;
    for (uint32_t i = c->nrpo; i-- > 0;) order[no++] = c->rpo[i];
    for (uint32_t b = n; b-- > 0;)
        if (!cfg_reachable(c, b)) order[no++] = b;
    for (bool changed = true; changed;) {
        changed = false;
        for (uint32_t oi = 0; oi < no; oi++) {
            uint32_t b = order[oi];
            uint64_t *out = l->live_out + (size_t)b * W, *in = l->live_in + (size_t)b * W;
            const uint64_t *g = gen + (size_t)b * W, *kl = kill + (size_t)b * W;
            for (uint32_t j = 0; j < cfg_nsucc(c, b); j++) {
                uint32_t s = cfg_succs(c, b)[j];
                if (s == n) continue;
                const uint64_t *si = l->live_in + (size_t)s * W;
                for (uint32_t w = 0; w < W; w++) out[w] |= si[w];
            }
            for (uint32_t w = 0; w < W; w++) {
                uint64_t v = g[w] | (out[w] & ~kl[w]);
                if (v != in[w]) {
                    in[w] = v;
                    changed = true;
                }
            }
        }
    }
    free(order);
    free(gen);
    free(kill);

    /* pressure: backward scan of every block, counters kept in step with the set */
    l->press = ARENA_ARRAY(a, uint16_t, (size_t)c->ninstr * PRESS_N + 1);
    l->units = ARENA_ARRAY(a, uint32_t, c->ninstr + 1);
    l->max_units_instr = ANA_NONE;
    uint8_t *cls = xmalloc(r->nvars);
    uint32_t *units = xmalloc(sizeof(uint32_t) * r->nvars);
    for (uint32_t v = 0; v < fn->nregs; v++) {
        cls[v] = (uint8_t)press_class(fn->regs[v]);
        units[v] = press_units(fn->regs[v]);
    }
    cls[fn->nregs] = PRESS_N;   /* memory: not counted */
    units[fn->nregs] = 0;
    uint64_t *set = xmalloc(sizeof(uint64_t) * (W ? W : 1));
    for (uint32_t b = 0; b < n; b++) {
        memcpy(set, l->live_out + (size_t)b * W, sizeof(uint64_t) * W);
        uint32_t cnt[PRESS_N + 1] = { 0 }, u = 0;
        for (uint32_t w = 0; w < W; w++)
            for (uint64_t m = set[w]; m; m &= m - 1) {
                uint32_t v = w * 64 + (uint32_t)__builtin_ctzll(m);
                cnt[cls[v]]++;
                u += units[v];
            }
        for (int k = 0; k < PRESS_N; k++)
            if (cnt[k] > l->max_press[k]) l->max_press[k] = cnt[k];
        if (u > l->max_units) l->max_units = u;
        for (uint32_t i = c->block_instr[b + 1]; i-- > c->block_instr[b];) {
            for (uint32_t k = r->start[i]; k < r->start[i + 1]; k++) {
                const RegRef *x = &r->refs[k];
                if ((x->flags & (REF_DEF | REF_PARTIAL)) == REF_DEF && bit_get(set, x->reg)) {
                    bit_clear(set, x->reg);
                    cnt[cls[x->reg]]--;
                    u -= units[x->reg];
                }
            }
            for (uint32_t k = r->start[i]; k < r->start[i + 1]; k++) {
                const RegRef *x = &r->refs[k];
                if ((x->flags & REF_USE) && !(x->flags & REF_SPECIAL) && !bit_get(set, x->reg)) {
                    bit_set(set, x->reg);
                    cnt[cls[x->reg]]++;
                    u += units[x->reg];
                }
            }
            for (int k = 0; k < PRESS_N; k++) {
                l->press[(size_t)i * PRESS_N + k] = (uint16_t)(cnt[k] > 65535 ? 65535 : cnt[k]);
                if (cnt[k] > l->max_press[k]) l->max_press[k] = cnt[k];
            }
            l->units[i] = u;
            if (u > l->max_units || (u == l->max_units && l->max_units_instr == ANA_NONE)) {
                l->max_units = u;
                l->max_units_instr = i;
            }
        }
    }
    free(set);
    free(cls);
    free(units);
    return l;
}

const Liveness *liveness_get(Function *fn)
{
    AnalysisCache *ac = analysis_cache(fn);
    if (!ac->live) ac->live = liveness_build(fn);
    return ac->live;
}
