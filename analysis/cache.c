/* analysis_cache.c — the per-function analysis cache and the small helpers
 * every analysis shares (maps, CSR building, type questions). */
#include "analysis/internal.h"

AnalysisCache *analysis_cache(Function *fn)
{
    if (!fn->analysis) fn->analysis = ARENA_NEW(ana_arena(fn), AnalysisCache);
    return fn->analysis;
}

void analysis_invalidate(Function *fn)
{
    /* The old results stay in the module arena until the module is freed:
     * a pass that invalidates after each change wastes at most one copy of
     * the analyses per change. */
    fn->analysis = NULL;
}

/* ------------------------------------------------------------------ maps */

static uint32_t pow2_at_least(uint32_t n)
{
    uint32_t c = 16;
    while (c < n) c <<= 1;
    return c;
}

void ptrmap_init(PtrMap *m, Arena *a, uint32_t count)
{
    m->cap = pow2_at_least(count * 2 + 1);
    m->keys = ARENA_ARRAY(a, const void *, m->cap);
    m->vals = ARENA_ARRAY(a, uint32_t, m->cap);
}

void ptrmap_put(PtrMap *m, const void *key, uint32_t val)
{
    uint32_t i = ptr_hash(key) & (m->cap - 1);
    while (m->keys[i] && m->keys[i] != key) i = (i + 1) & (m->cap - 1);
    m->keys[i] = key;
    m->vals[i] = val;
}

uint32_t ptrmap_get(const PtrMap *m, const void *key)
{
    if (!m->cap || !key) return ANA_NONE;
    uint32_t i = ptr_hash(key) & (m->cap - 1);
    while (m->keys[i]) {
        if (m->keys[i] == key) return m->vals[i];
        i = (i + 1) & (m->cap - 1);
    }
    return ANA_NONE;
}

void strmap_init(StrMap *m, Arena *a, uint32_t count)
{
    m->cap = pow2_at_least(count * 2 + 1);
    m->keys = ARENA_ARRAY(a, Str, m->cap);
    m->vals = ARENA_ARRAY(a, uint32_t, m->cap);
}

void strmap_put(StrMap *m, Str key, uint32_t val)
{
    uint32_t i = str_hash(key) & (m->cap - 1);
    while (m->keys[i].p) {
        if (str_eq(m->keys[i], key)) return;
        i = (i + 1) & (m->cap - 1);
    }
    m->keys[i] = key.p ? key : (Str){ "", 0 };
    m->vals[i] = val;
}

uint32_t strmap_get(const StrMap *m, Str key)
{
    if (!m->cap) return ANA_NONE;
    uint32_t i = str_hash(key) & (m->cap - 1);
    while (m->keys[i].p) {
        if (str_eq(m->keys[i], key)) return m->vals[i];
        i = (i + 1) & (m->cap - 1);
    }
    return ANA_NONE;
}

void csr_build(Arena *a, uint32_t nnodes, uint32_t npairs, const uint32_t *src, const uint32_t *dst,
               uint32_t **start_out, uint32_t **dst_out)
{
    uint32_t *start = ARENA_ARRAY(a, uint32_t, nnodes + 1);
    uint32_t *out = ARENA_ARRAY(a, uint32_t, npairs ? npairs : 1);
    for (uint32_t i = 0; i < npairs; i++) start[src[i] + 1]++;
    for (uint32_t i = 0; i < nnodes; i++) start[i + 1] += start[i];
    uint32_t *fill = xmalloc(sizeof(uint32_t) * (nnodes + 1));
    memcpy(fill, start, sizeof(uint32_t) * (nnodes + 1));
    for (uint32_t i = 0; i < npairs; i++) out[fill[src[i]]++] = dst[i];
    free(fill);
    *start_out = start;
    *dst_out = out;
}

/* ----------------------------------------------------------------- types */

unsigned type_bits(Str t)
{
    if (t.len < 2) return 0;
    if (str_eqc(t, ".pred")) return 1;
    if (t.p[1] == 'e') {   /* e4m3, e5m2, e2m1, ... are bytes; x2/x4 packs */
        if (t.len >= 2 && t.p[t.len - 2] == 'x') return 8u * (unsigned)(t.p[t.len - 1] - '0');
        return 8;
    }
    size_t i = 1;
    while (i < t.len && !(t.p[i] >= '0' && t.p[i] <= '9')) i++;
    unsigned bits = 0;
    while (i < t.len && t.p[i] >= '0' && t.p[i] <= '9') bits = bits * 10 + (unsigned)(t.p[i++] - '0');
    if (i + 1 < t.len && t.p[i] == 'x') {   /* f16x2, bf16x2 */
        unsigned k = 0;
        for (i++; i < t.len && t.p[i] >= '0' && t.p[i] <= '9'; i++) k = k * 10 + (unsigned)(t.p[i] - '0');
        if (k) bits *= k;
    }
    return bits;
}

bool type_is_signed(Str t) { return t.len >= 2 && t.p[1] == 's'; }
bool type_is_float(Str t)
{
    return t.len >= 2 && (t.p[1] == 'f' || (t.p[1] == 'b' && t.len >= 3 && t.p[2] == 'f') ||
                          t.p[1] == 't' || t.p[1] == 'e');
}

unsigned instr_vec(const Instr *in)
{
    if (instr_has_mod(in, ".v2")) return 2;
    if (instr_has_mod(in, ".v4")) return 4;
    if (instr_has_mod(in, ".v8")) return 8;
    return 1;
}

void dump_block_name(FILE *out, const Cfg *c, uint32_t b)
{
    if (b == c->n) fputs("exit", out);
    else fprintf(out, "bb%u", b);
}

const char *cfg_block_name(const Cfg *c, uint32_t b, char *buf, size_t cap)
{
    if (b == c->n) snprintf(buf, cap, "exit");
    else if (b < c->n && c->blocks[b]->label.len) snprintf(buf, cap, "%.*s", STR_FMT(c->blocks[b]->label));
    else snprintf(buf, cap, "bb%u", b);
    return buf;
}
