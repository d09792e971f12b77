/* opcode.c — the opcode table (ir/opcodes.def): lookup by base name,
 * per-opcode information, and the flags of one instruction refined by its
 * modifiers.
 *
 * opcode_lookup runs once per parsed instruction, so it is an open-addressing
 * hash table (FNV-1a, linear probing, load < 1/3) built on first use; a hit
 * costs one hash of a short name and usually one memcmp. */
#include "ir/opcode.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <string.h>

static const OpcodeInfo infos[OP_COUNT] = {
    [OP_UNKNOWN] = { "?", 0, 0, 0 },
#define OPCODE(id, name, flags, ptx, sm) [OP_##id] = { name, (flags), (ptx), (sm) },
#include "ir/opcodes.def"
#undef OPCODE
};

const OpcodeInfo *opcode_info(Opcode op)
{
    if ((unsigned)op >= (unsigned)OP_COUNT)
        op = OP_UNKNOWN;
    return &infos[op];
}

/* ------------------------------------------------------------ hash lookup */

enum { SLOT_BITS = 9, SLOT_COUNT = 1 << SLOT_BITS, SLOT_MASK = SLOT_COUNT - 1 };
_Static_assert(OP_COUNT * 3 <= SLOT_COUNT, "opcode hash table too full; raise SLOT_BITS");
_Static_assert(OP_COUNT < 65536, "opcode ids must fit in uint16_t");

static uint16_t slots[SLOT_COUNT];   /* opcode id, 0 = empty */
static uint8_t name_len[OP_COUNT];
static size_t longest_name;
static atomic_int table_state;       /* 0 unbuilt, 1 building, 2 ready */

static inline uint32_t name_hash(const char *s, size_t n)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (uint8_t)s[i]) * 16777619u;
    return (h ^ (h >> 15)) & SLOT_MASK;
}

static void build_table(void)
{
    for (int op = 1; op < OP_COUNT; op++) {
        size_t n = strlen(infos[op].name);
        name_len[op] = (uint8_t)n;
        if (n > longest_name)
            longest_name = n;
        uint32_t i = name_hash(infos[op].name, n);
        while (slots[i] != 0)
            i = (i + 1) & SLOT_MASK;
        slots[i] = (uint16_t)op;
    }
}

/* Thread-safe one-time build: the first caller builds, the others wait for
 * the release store (it takes a few microseconds). */
static inline void ensure_table(void)
{
    if (atomic_load_explicit(&table_state, memory_order_acquire) == 2)
        return;
    int expected = 0;
    if (atomic_compare_exchange_strong(&table_state, &expected, 1)) {
        build_table();
        atomic_store_explicit(&table_state, 2, memory_order_release);
        return;
    }
    while (atomic_load_explicit(&table_state, memory_order_acquire) != 2)
        ;
}

Opcode opcode_lookup(const char *name, size_t len)
{
    if (name == NULL || len == 0)
        return OP_UNKNOWN;
    ensure_table();
    if (len > longest_name)
        return OP_UNKNOWN;
    for (uint32_t i = name_hash(name, len);; i = (i + 1) & SLOT_MASK) {
        uint16_t op = slots[i];
        if (op == 0)
            return OP_UNKNOWN;
        if (name_len[op] == len && memcmp(infos[op].name, name, len) == 0)
            return (Opcode)op;
    }
}

/* ------------------------------------------------- modifier refinement */

enum { MAX_MODS = 32 };

typedef struct Tok {
    const char *p;
    size_t n;
} Tok;

typedef struct Mods {
    Tok t[MAX_MODS];
    int n;
} Mods;

static bool tok_is(Tok t, const char *lit)
{
    size_t n = strlen(lit);
    return t.n == n && memcmp(t.p, lit, n) == 0;
}

/* The part before "::" equals lit: "wait::ld" matches "wait". */
static bool tok_head_is(Tok t, const char *lit)
{
    size_t n = strlen(lit);
    if (t.n < n || memcmp(t.p, lit, n) != 0)
        return false;
    return t.n == n || (t.n >= n + 2 && t.p[n] == ':' && t.p[n + 1] == ':');
}

static Tok mod_at(const Mods *m, int k)
{
    if (k < m->n)
        return m->t[k];
    return (Tok){ "", 0 };
}

static bool has_mod(const Mods *m, const char *lit)
{
    for (int k = 0; k < m->n; k++)
        if (tok_is(m->t[k], lit))
            return true;
    return false;
}

static bool is_digit(char c) { return c >= '0' && c <= '9'; }

/* .f16 .f16x2 .f32 .f32x2 .f64 .bf16 .bf16x2 .tf32 .e4m3 .e5m2x2 .e2m1x2 ... */
static bool is_float_type(Tok t)
{
    if (t.n >= 2 && t.p[0] == 'f' && is_digit(t.p[1]))
        return true;
    if (t.n >= 4 && (memcmp(t.p, "bf16", 4) == 0 || memcmp(t.p, "tf32", 4) == 0))
        return true;
    return t.n >= 4 && t.p[0] == 'e' && is_digit(t.p[1]) && t.p[2] == 'm' && is_digit(t.p[3]);
}

/* .s8 .s32 .u16x2 .u64 .b32 ... (a letter then only digits, optionally xN) */
static bool is_int_type(Tok t)
{
    if (t.n < 2 || (t.p[0] != 's' && t.p[0] != 'u' && t.p[0] != 'b') || !is_digit(t.p[1]))
        return false;
    size_t i = 1;
    while (i < t.n && is_digit(t.p[i]))
        i++;
    if (i == t.n)
        return true;
    return t.p[i] == 'x' && i + 1 < t.n && is_digit(t.p[i + 1]);
}

static bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

/* Memory-ordering qualifiers of ld/st/atom/red/multimem. */
static uint32_t ordering_flags(const Mods *m)
{
    uint32_t f = 0;
    if (has_mod(m, "volatile") || has_mod(m, "relaxed") || has_mod(m, "mmio"))
        f |= OPF_SIDE_EFFECT;
    if (has_mod(m, "acquire") || has_mod(m, "release") || has_mod(m, "acq_rel"))
        f |= OPF_SIDE_EFFECT | OPF_FENCE;
    return f;
}

static uint32_t refine_cp(const Mods *m)
{
    const uint32_t copy = OPF_LOAD | OPF_STORE | OPF_ASYNC | OPF_SIDE_EFFECT;
    Tok m0 = mod_at(m, 0), m1 = mod_at(m, 1);
    if (tok_is(m0, "reduce"))                      /* cp.reduce.async.bulk{.tensor} */
        return copy | OPF_ATOMIC;
    if (!tok_is(m0, "async"))
        return infos[OP_cp].flags;                 /* not in the manual: keep the union */
    if (tok_is(m1, "commit_group"))
        return OPF_ASYNC | OPF_SIDE_EFFECT;
    if (tok_is(m1, "wait_group") || tok_is(m1, "wait_all"))
        return OPF_ASYNC | OPF_FENCE | OPF_SIDE_EFFECT;
    if (tok_is(m1, "mbarrier"))                    /* cp.async.mbarrier.arrive */
        return OPF_ASYNC | OPF_BARRIER | OPF_SIDE_EFFECT;
    if (tok_is(m1, "bulk")) {
        if (has_mod(m, "commit_group"))
            return OPF_ASYNC | OPF_SIDE_EFFECT;
        if (has_mod(m, "wait_group"))
            return OPF_ASYNC | OPF_FENCE | OPF_SIDE_EFFECT;
        if (has_mod(m, "prefetch"))                /* cp.async.bulk.prefetch{.tensor} */
            return OPF_LOAD | OPF_ASYNC | OPF_SIDE_EFFECT;
    }
    return copy;                                   /* cp.async, cp.async.bulk{.tensor} */
}

static uint32_t refine_tcgen05(const Mods *m)
{
    const uint32_t warp = OPF_TENSOR | OPF_COLLECTIVE | OPF_CONVERGENT;  /* .sync.aligned */
    Tok m0 = mod_at(m, 0);
    if (tok_is(m0, "alloc") || tok_is(m0, "dealloc") || tok_is(m0, "relinquish_alloc_permit"))
        return warp | OPF_STORE | OPF_SIDE_EFFECT;
    if (tok_is(m0, "ld"))
        return warp | OPF_LOAD | OPF_ASYNC;
    if (tok_is(m0, "st"))
        return warp | OPF_STORE | OPF_ASYNC | OPF_SIDE_EFFECT;
    if (tok_head_is(m0, "wait"))                   /* tcgen05.wait::ld / wait::st */
        return warp | OPF_ASYNC | OPF_FENCE | OPF_SIDE_EFFECT;
    if (tok_is(m0, "cp") || tok_is(m0, "shift") || tok_is(m0, "mma"))
        return OPF_TENSOR | OPF_ASYNC | OPF_LOAD | OPF_STORE | OPF_SIDE_EFFECT;
    if (tok_is(m0, "commit"))
        return OPF_TENSOR | OPF_ASYNC | OPF_BARRIER | OPF_SIDE_EFFECT;
    if (tok_head_is(m0, "fence"))                  /* fence::before_thread_sync ... */
        return OPF_TENSOR | OPF_FENCE | OPF_SIDE_EFFECT;
    return infos[OP_tcgen05].flags;
}

static uint32_t refine(Opcode op, uint32_t f, const Mods *m)
{
    Tok m0 = mod_at(m, 0);
    switch (op) {
    case OP_add: case OP_sub: case OP_mad:
        if (has_mod(m, "cc"))                      /* writes the carry flag */
            f = (f & ~(uint32_t)OPF_PURE) | OPF_SIDE_EFFECT;
        break;
    case OP_div:
        if (!has_mod(m, "approx") && !has_mod(m, "full"))
            f &= ~(uint32_t)OPF_SFU;
        break;
    case OP_rcp: case OP_sqrt:
        if (!has_mod(m, "approx"))
            f &= ~(uint32_t)OPF_SFU;
        break;
    case OP_rsqrt:                                 /* rsqrt.approx.f64 is emulated */
        if (has_mod(m, "f64") && !has_mod(m, "ftz"))
            f &= ~(uint32_t)OPF_SFU;
        break;
    case OP_ld:
        f |= ordering_flags(m);
        break;
    case OP_st:
        f = OPF_STORE | OPF_SIDE_EFFECT | ordering_flags(m);
        if (tok_is(m0, "async"))
            f |= OPF_ASYNC;
        break;
    case OP_atom:
        f |= ordering_flags(m);
        break;
    case OP_red:
        if (!tok_is(m0, "async"))
            f &= ~(uint32_t)OPF_ASYNC;
        f |= ordering_flags(m);
        break;
    case OP_multimem:
        if (tok_is(m0, "ld_reduce"))
            f = OPF_LOAD | ordering_flags(m);
        else if (tok_is(m0, "st"))
            f = OPF_STORE | OPF_SIDE_EFFECT | ordering_flags(m);
        else if (tok_is(m0, "red"))
            f = OPF_ATOMIC | OPF_LOAD | OPF_STORE | OPF_SIDE_EFFECT | ordering_flags(m);
        else if (tok_is(m0, "cp"))                 /* multimem.cp{.reduce}.async.bulk */
            f = OPF_LOAD | OPF_STORE | OPF_ASYNC | OPF_SIDE_EFFECT
                | (tok_is(mod_at(m, 1), "reduce") ? OPF_ATOMIC : 0);
        break;
    case OP_cp:
        f = refine_cp(m);
        break;
    case OP_bar:                                   /* only bar.warp.sync is warp-collective */
        if (!tok_is(m0, "warp"))
            f &= ~(uint32_t)OPF_COLLECTIVE;
        break;
    case OP_barrier:                               /* barrier.cluster.arrive.relaxed */
        if (has_mod(m, "relaxed"))
            f &= ~(uint32_t)OPF_FENCE;
        break;
    case OP_mbarrier:
        if (tok_is(m0, "pending_count"))           /* decodes a state in a register */
            f = OPF_PURE | OPF_INT;
        break;
    case OP_tensormap:
        if (tok_is(m0, "replace"))
            f = OPF_LOAD | OPF_STORE | OPF_SIDE_EFFECT;
        break;
    case OP_clusterlaunchcontrol:
        if (tok_is(m0, "query_cancel"))            /* decodes a response in a register */
            f = OPF_PURE;
        break;
    case OP_wmma:
        if (tok_is(m0, "load"))
            f = OPF_TENSOR | OPF_COLLECTIVE | OPF_CONVERGENT | OPF_LOAD;
        else if (tok_is(m0, "store"))
            f = OPF_TENSOR | OPF_COLLECTIVE | OPF_CONVERGENT | OPF_STORE | OPF_SIDE_EFFECT;
        else if (tok_is(m0, "mma"))
            f = OPF_TENSOR | OPF_COLLECTIVE | OPF_CONVERGENT;
        break;
    case OP_wgmma: {
        const uint32_t wg = OPF_TENSOR | OPF_ASYNC | OPF_COLLECTIVE | OPF_CONVERGENT
                            | OPF_SIDE_EFFECT;
        if (tok_is(m0, "mma_async"))
            f = wg | OPF_LOAD;
        else if (tok_is(m0, "fence") || tok_is(m0, "wait_group"))
            f = wg | OPF_FENCE;
        else if (tok_is(m0, "commit_group"))
            f = wg;
        break;
    }
    case OP_tcgen05:
        f = refine_tcgen05(m);
        break;
    default:
        break;
    }

    /* Arithmetic defined for both kinds: keep the kind the type names. */
    if ((f & OPF_INT) && (f & OPF_FLOAT)) {
        bool fl = false, in = false;
        for (int k = 0; k < m->n; k++) {
            fl |= is_float_type(m->t[k]);
            in |= is_int_type(m->t[k]);
        }
        if (fl && !in)
            f &= ~(uint32_t)OPF_INT;
        else if (in && !fl)
            f &= ~(uint32_t)OPF_FLOAT;
    }
    return f;
}

uint32_t opcode_flags_full(const char *text, size_t len)
{
    if (text == NULL)
        return 0;
    const char *p = text, *end = text + len;
    while (p < end && is_blank(*p))
        p++;
    if (p < end && *p == '@') {                    /* guard predicate */
        while (p < end && !is_blank(*p))
            p++;
        while (p < end && is_blank(*p))
            p++;
    }
    const char *stop = p;
    while (stop < end && !is_blank(*stop) && *stop != ';')
        stop++;

    const char *dot = p;
    while (dot < stop && *dot != '.')
        dot++;
    Opcode op = opcode_lookup(p, (size_t)(dot - p));
    if (op == OP_UNKNOWN)
        return 0;

    Mods m = { .n = 0 };
    const char *q = dot;
    while (q < stop && m.n < MAX_MODS) {
        q++;                                       /* skip '.' */
        const char *s = q;
        while (q < stop && *q != '.')
            q++;
        if (q > s)
            m.t[m.n++] = (Tok){ s, (size_t)(q - s) };
    }
    return refine(op, infos[op].flags, &m);
}
