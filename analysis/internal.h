/* internal.h — private to analysis/: the per-function cache and
 * small helpers (pointer maps, bit sets, growable arrays). */
#ifndef PTXOPT_ANALYSIS_IMPL_H
#define PTXOPT_ANALYSIS_IMPL_H

#include <stdlib.h>
#include <string.h>

#include "analysis/callgraph.h"
#include "analysis/cfg.h"
#include "analysis/defuse.h"
#include "analysis/dom.h"
#include "analysis/dump.h"
#include "analysis/ivars.h"
#include "analysis/liveness.h"
#include "analysis/llvm_mirror.h"
#include "analysis/loops.h"
#include "analysis/memory.h"
#include "analysis/ssa.h"
#include "analysis/terms.h"
#include "analysis/uniform.h"
#include "analysis/value_terms.h"
#include "analysis/z3bridge.h"
#include "ir/fatal.h"

typedef struct AnalysisCache {
    Cfg *cfg;
    DomTree *dom, *pdom;
    LoopInfo *loops;
    RegRefs *refs;
    Liveness *live;
    Ssa *ssa;
    IvInfo *ivs;
    ValueTerms *vterms;
    Uniformity *uni;
    MemInfo *mem;
} AnalysisCache;

AnalysisCache *analysis_cache(Function *fn);
static inline Arena *ana_arena(Function *fn) { return &fn->mod->arena; }

/* Checked malloc for scratch memory (freed by the caller). */
static inline void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) fatal_oom();
    return p;
}
static inline void *xcalloc(size_t n, size_t sz)
{
    void *p = calloc(n ? n : 1, sz ? sz : 1);
    if (!p) fatal_oom();
    return p;
}
static inline void *xrealloc(void *p, size_t n)
{
    p = realloc(p, n ? n : 1);
    if (!p) fatal_oom();
    return p;
}

/* uint32_t vector (scratch, malloc'ed). */
typedef struct U32Vec {
    uint32_t *v;
    uint32_t n, cap;
} U32Vec;
static inline void u32_push(U32Vec *a, uint32_t x)
{
    if (a->n == a->cap) {
        a->cap = a->cap ? a->cap * 2 : 16;
        a->v = xrealloc(a->v, sizeof(uint32_t) * a->cap);
    }
    a->v[a->n++] = x;
}
static inline void u32_free(U32Vec *a) { free(a->v); a->v = NULL; a->n = a->cap = 0; }

/* Open-addressing map from a pointer to a uint32_t (arena-allocated). */
typedef struct PtrMap {
    const void **keys;
    uint32_t *vals;
    uint32_t cap;             /* power of two */
} PtrMap;
static inline uint32_t ptr_hash(const void *p)
{
    uint64_t x = (uint64_t)(uintptr_t)p;
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 29;
    return (uint32_t)x;
}
void ptrmap_init(PtrMap *m, Arena *a, uint32_t count);
void ptrmap_put(PtrMap *m, const void *key, uint32_t val);
uint32_t ptrmap_get(const PtrMap *m, const void *key);   /* ANA_NONE if absent */

/* Map from a string to a uint32_t (arena-allocated). */
typedef struct StrMap {
    Str *keys;
    uint32_t *vals;
    uint32_t cap;
} StrMap;
void strmap_init(StrMap *m, Arena *a, uint32_t count);
void strmap_put(StrMap *m, Str key, uint32_t val);     /* first put wins */
uint32_t strmap_get(const StrMap *m, Str key);

/* Bit sets of `words` 64-bit words. */
static inline void bit_set(uint64_t *s, uint32_t i) { s[i >> 6] |= 1ull << (i & 63); }
static inline void bit_clear(uint64_t *s, uint32_t i) { s[i >> 6] &= ~(1ull << (i & 63)); }
static inline bool bit_get(const uint64_t *s, uint32_t i) { return (s[i >> 6] >> (i & 63)) & 1; }

/* Build a CSR from (src, dst) pairs: start[nnodes + 1], dst array; arena. */
void csr_build(Arena *a, uint32_t nnodes, uint32_t npairs, const uint32_t *src, const uint32_t *dst,
               uint32_t **start_out, uint32_t **dst_out);

/* Dump helpers shared by dump.c and the analyses' own dumps. */
void dump_block_name(FILE *out, const Cfg *c, uint32_t b);

/* Operand helpers. */
static inline bool opnd_is_reg(const Operand *o) { return o->kind == OPND_REG && o->u.reg; }
/* Bits of a type modifier (".u32" → 32, ".pred" → 1, ".f16x2" → 32, ".b128" → 128); 0 if none. */
unsigned type_bits(Str type);
bool type_is_signed(Str type);
bool type_is_float(Str type);
/* The number after ".v" in the modifiers (".v4" → 4), or 1. */
unsigned instr_vec(const Instr *in);

/* The value read by a plain register operand (ANA_NONE: not a register). */
SsaValue ssa_operand_value(const Ssa *s, uint32_t instr, int opnd);
/* Special registers whose value can change while a thread runs. */
bool special_is_volatile(Str name);

/* A term table living in an arena (the per-function tables). */
TermTable *terms_new_in(Arena *a);
/* Size the hash table for about n terms before the first one is made. */
void terms_reserve(TermTable *tt, uint32_t n);

#endif
