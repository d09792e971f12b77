/* cacheop.c — the text of a load's cache operators.  PTX's grammar fixes
 * where each goes (PTX ISA 9.0, ld):
 *   ld{.weak}{.ss}{.cop}{.level::cache_hint}{.level::prefetch_size}{.vec}.type
 *   ld{.weak}{.ss}{.level1::eviction_priority}{.level2::eviction_priority}{.level::cache_hint}...
 *   ld.global{.cop}.nc{.level::cache_hint}...
 *   ld.global.nc{.level1::eviction_priority}{.level2::eviction_priority}...
 * so a cache operator (.cg, .cs) goes right after the state space (before
 * .nc), an L1 eviction priority (.L1::no_allocate) after .nc or the space,
 * and .L2::cache_hint before the prefetch size, the vector width and the
 * type.  The bypass variant first drops the load's own L1 operator
 * (.ca .cg .cs .lu, .L1::*): one L1 choice per load. */
#include <string.h>

#include "opt/bypass/internal.h"

#define MAXM 24

typedef struct Mods {
    Str m[MAXM];
    int n;
} Mods;

/* in->full as the opcode and its dotted modifiers. */
static void split(const Instr *in, Str *opname, Mods *ms)
{
    *opname = in->opname;
    ms->n = 0;
    size_t i = in->opname.len;
    while (i < in->full.len && ms->n < MAXM) {
        size_t j = i + 1;
        while (j < in->full.len && in->full.p[j] != '.') j++;
        /* ".L1::no_allocate" has no dot inside; ".L2::64B" neither */
        ms->m[ms->n++] = (Str){ in->full.p + i, j - i };
        i = j;
    }
}

static bool is_space(Str m)
{
    static const char *const sp[] = { ".global", ".shared", ".shared::cta", ".shared::cluster", ".local", ".const", ".param" };
    for (size_t i = 0; i < sizeof sp / sizeof sp[0]; i++)
        if (str_eqc(m, sp[i])) return true;
    return false;
}

static bool is_l1_op(Str m)
{
    return str_eqc(m, ".ca") || str_eqc(m, ".cg") || str_eqc(m, ".cs") || str_eqc(m, ".lu") || str_starts(m, ".L1::");
}

/* The modifiers that end the operator part: prefetch size, vector width, type. */
static bool is_tail(Str m)
{
    if (str_eqc(m, ".L2::64B") || str_eqc(m, ".L2::128B") || str_eqc(m, ".L2::256B")) return true;
    if (str_eqc(m, ".v2") || str_eqc(m, ".v4") || str_eqc(m, ".v8")) return true;
    static const char *const ty[] = { ".b8", ".b16", ".b32", ".b64", ".b128", ".u8", ".u16", ".u32", ".u64", ".s8", ".s16",
                                      ".s32", ".s64", ".f16", ".f16x2", ".f32", ".f64", ".bf16", ".bf16x2", ".e4m3", ".e5m2" };
    for (size_t i = 0; i < sizeof ty / sizeof ty[0]; i++)
        if (str_eqc(m, ty[i])) return true;
    return false;
}

static const char *join(Module *m, Str opname, const Mods *ms)
{
    size_t len = opname.len;
    for (int i = 0; i < ms->n; i++) len += ms->m[i].len;
    char *p = arena_alloc(&m->arena, len + 1);
    size_t k = 0;
    memcpy(p, opname.p, opname.len), k += opname.len;
    for (int i = 0; i < ms->n; i++) memcpy(p + k, ms->m[i].p, ms->m[i].len), k += ms->m[i].len;
    p[k] = 0;
    return p;
}

static void insert_at(Mods *ms, int at, Str m)
{
    if (ms->n >= MAXM) return;
    memmove(&ms->m[at + 1], &ms->m[at], sizeof(Str) * (size_t)(ms->n - at));
    ms->m[at] = m;
    ms->n++;
}

const char *byp_op_text(BypassOp op)
{
    return op == BOP_CG ? ".cg" : op == BOP_CS ? ".cs" : ".L1::no_allocate";
}

const char *byp_bypass_full(Module *m, const Instr *in, BypassOp op)
{
    Str opname;
    Mods all, ms;
    split(in, &opname, &all);
    ms.n = 0;
    for (int i = 0; i < all.n; i++)
        if (!is_l1_op(all.m[i])) ms.m[ms.n++] = all.m[i];
    /* after .weak and the state space; an eviction priority also after .nc */
    int at = 0;
    for (int i = 0; i < ms.n; i++) {
        if (str_eqc(ms.m[i], ".weak") || is_space(ms.m[i])) at = i + 1;
        if (op == BOP_NO_ALLOCATE && str_eqc(ms.m[i], ".nc")) at = i + 1;
    }
    insert_at(&ms, at, str_c(byp_op_text(op)));
    return join(m, opname, &ms);
}

const char *byp_hint_full(Module *m, const Instr *in)
{
    Str opname;
    Mods ms;
    split(in, &opname, &ms);
    int at = ms.n;
    for (int i = 0; i < ms.n; i++)
        if (is_tail(ms.m[i])) {
            at = i;
            break;
        }
    insert_at(&ms, at, str_c(".L2::cache_hint"));
    return join(m, opname, &ms);
}

bool byp_has_mod_prefix(const Instr *in, const char *prefix)
{
    Str opname;
    Mods ms;
    split(in, &opname, &ms);
    for (int i = 0; i < ms.n; i++)
        if (str_starts(ms.m[i], prefix)) return true;
    return false;
}
