/* modsyms.c — the module's variables by name (see ir.h: modsyms_*).
 *
 * Every function may name the variables declared at module level.  The
 * memory analysis used to collect them by walking the whole module for
 * each function, which made a file with F functions and D declarations
 * cost O(F·(F+D)): 5.6 s of a 20 MB file went there.  The parser now adds
 * each top-level declaration here as it appends it, so a lookup is O(1),
 * and a streamed module (whose earlier items are gone) still knows the
 * globals declared before the function.  Names are copied: the table
 * outlives the statements that declared them. */
#include <stdlib.h>
#include <string.h>

#include "ir/fatal.h"
#include "ir/ir.h"

typedef struct ModSym {
    char *name;          /* NULL: empty slot; the space follows the name's NUL */
    uint32_t len, space_len;
    bool dynamic_shared; /* `.extern .shared` or an unsized .shared array:
                            it starts at the dynamic shared memory */
} ModSym;

struct ModSyms {
    ModSym *slot;
    uint32_t cap, n;     /* cap: a power of two */
};

static uint32_t hash(Str s)
{
    uint32_t h = 2166136261u;
    for (uint32_t i = 0; i < s.len; i++) h = (h ^ (uint8_t)s.p[i]) * 16777619u;
    return h;
}

static ModSym *find_slot(const ModSyms *t, Str name)
{
    uint32_t mask = t->cap - 1;
    for (uint32_t i = hash(name) & mask;; i = (i + 1) & mask) {
        ModSym *e = &t->slot[i];
        if (!e->name || (e->len == name.len && memcmp(e->name, name.p, name.len) == 0)) return e;
    }
}

static void grow(ModSyms *t)
{
    ModSyms old = *t;
    t->cap = old.cap ? old.cap * 2 : 64;
    t->slot = calloc(t->cap, sizeof *t->slot);
    if (!t->slot) fatal_oom();
    for (uint32_t i = 0; i < old.cap; i++)
        if (old.slot[i].name) *find_slot(t, (Str){ old.slot[i].name, old.slot[i].len }) = old.slot[i];
    free(old.slot);
}

long long ir_decl_bytes(const Decl *d)
{
    static const struct { const char *t; int b; } sz[] = {
        { ".b8", 1 }, { ".u8", 1 }, { ".s8", 1 }, { ".b16", 2 }, { ".u16", 2 }, { ".s16", 2 }, { ".f16", 2 },
        { ".b32", 4 }, { ".u32", 4 }, { ".s32", 4 }, { ".f32", 4 }, { ".b64", 8 }, { ".u64", 8 }, { ".s64", 8 }, { ".f64", 8 } };
    int b = 0;
    for (size_t i = 0; i < sizeof sz / sizeof sz[0]; i++)
        if (str_eqc(d->type, sz[i].t)) b = sz[i].b;
    if (d->vec) b *= d->vec;
    long long total = 0;
    for (uint32_t k = 0; k < d->ndecl; k++) {
        long long n = b;
        for (int j = 0; j < d->decls[k].ndims; j++) n *= d->decls[k].dims[j] > 0 ? d->decls[k].dims[j] : 0;
        total += n;
    }
    return total;
}

void modsyms_add_decl(Module *m, const Decl *d)
{
    /* what every kernel may see of shared memory (tinylock's budget), also
     * once the declaration has been streamed out */
    if (str_eqc(d->space, ".shared") || str_starts(d->space, ".shared::")) m->shared_bytes += ir_decl_bytes(d);
    if (!m->syms) {
        m->syms = calloc(1, sizeof *m->syms);
        if (!m->syms) fatal_oom();
    }
    ModSyms *t = m->syms;
    bool shared = str_eqc(d->space, ".shared") || str_starts(d->space, ".shared::"), ext = false;
    for (uint32_t i = 0; i < d->ntok && !ext; i++) ext = str_eqc(d->tok[i].text, ".extern");
    for (uint32_t k = 0; k < d->ndecl; k++) {
        Str name = d->decls[k].name;
        if (!name.len) continue;
        if (2 * (t->n + 1) > t->cap) grow(t);
        ModSym *e = find_slot(t, name);
        if (e->name) continue;   /* the first declaration wins */
        e->name = malloc(name.len + 1 + d->space.len);
        if (!e->name) fatal_oom();
        memcpy(e->name, name.p, name.len);
        e->name[name.len] = 0;
        if (d->space.len) memcpy(e->name + name.len + 1, d->space.p, d->space.len);   /* a declaration may have no space */
        e->len = name.len, e->space_len = d->space.len;
        e->dynamic_shared = shared && (ext || (d->decls[k].ndims && d->decls[k].dims[0] < 0));
        t->n++;
    }
}

bool modsyms_dynamic_shared(const Module *m, Str name)
{
    if (!m->syms || !m->syms->cap) return false;
    const ModSym *e = find_slot(m->syms, name);
    return e->name && e->dynamic_shared;
}

bool modsyms_find(const Module *m, Str name, Str *space)
{
    if (!m->syms || !m->syms->cap) return false;
    const ModSym *e = find_slot(m->syms, name);
    if (!e->name) return false;
    *space = (Str){ e->name + e->len + 1, e->space_len };
    return true;
}

void modsyms_free(ModSyms *t)
{
    if (!t) return;
    for (uint32_t i = 0; i < t->cap; i++) free(t->slot[i].name);
    free(t->slot);
    free(t);
}
