/* regs.c — register interning and lazy range declarations (see regs.h). */
#include "ir/regs.h"


typedef struct RegDecl {
    Str name;       /* "%r" for %r<100>, "%x" for a single %x */
    Str type;
    int32_t range;  /* -1: single */
    uint8_t vec;
} RegDecl;

/* %r<N> declarations, with the Regs made for them so far by index: the
 * common lookup (%r12) is a prefix compare and an array access, no hashing. */
typedef struct RangeDecl {
    Str prefix;
    Str type;
    int32_t range;
    uint8_t vec;
    uint32_t rcap;
    Reg **regs;
} RangeDecl;

typedef struct RegTab {
    /* interned Regs other than range members: open addressing on name */
    Reg **slots;
    uint32_t cap, count;
    /* declarations: open addressing on name */
    RegDecl *decls;
    uint32_t dcap, dcount;
    RangeDecl *ranges;
    uint32_t nranges, cranges;
} RegTab;

static RegTab *tab_of(Function *fn)
{
    if (!fn->regtab) {
        RegTab *t = ARENA_NEW(&fn->mod->arena, RegTab);
        fn->regtab = t;
    }
    return fn->regtab;
}

/* Tables live in the module arena and are replaced when they grow (the old
 * copy is simply abandoned: growth is geometric, so the waste is bounded). */
static void decl_grow(Function *fn, RegTab *t)
{
    uint32_t ncap = t->dcap ? t->dcap * 2 : 16;
    RegDecl *nd = ARENA_ARRAY(&fn->mod->arena, RegDecl, ncap);
    for (uint32_t i = 0; i < t->dcap; i++) {
        if (!t->decls[i].name.p) continue;
        uint32_t h = str_hash(t->decls[i].name) & (ncap - 1);
        while (nd[h].name.p) h = (h + 1) & (ncap - 1);
        nd[h] = t->decls[i];
    }
    t->decls = nd;
    t->dcap = ncap;
}

static RegDecl *decl_find(RegTab *t, Str name)
{
    if (!t->dcap) return NULL;
    uint32_t h = str_hash(name) & (t->dcap - 1);
    while (t->decls[h].name.p) {
        if (str_eq(t->decls[h].name, name)) return &t->decls[h];
        h = (h + 1) & (t->dcap - 1);
    }
    return NULL;
}

bool regs_declare(Function *fn, Str name, Str type, int vec, int32_t range)
{
    RegTab *t = tab_of(fn);
    RegDecl *d = decl_find(t, name);
    if (d) {
        /* Redeclaration in a nested scope: fine when identical. */
        return str_eq(d->type, type) && d->range == range && d->vec == vec;
    }
    if ((t->dcount + 1) * 2 > t->dcap) decl_grow(fn, t);
    uint32_t h = str_hash(name) & (t->dcap - 1);
    while (t->decls[h].name.p) h = (h + 1) & (t->dcap - 1);
    t->decls[h] = (RegDecl){ name, type, range, (uint8_t)vec };
    t->dcount++;
    if (range >= 0) {
        if (t->nranges == t->cranges) {
            uint32_t ncap = t->cranges ? t->cranges * 2 : 8;
            RangeDecl *nr = ARENA_ARRAY(&fn->mod->arena, RangeDecl, ncap);
            if (t->nranges) memcpy(nr, t->ranges, sizeof(RangeDecl) * t->nranges);
            t->ranges = nr;
            t->cranges = ncap;
        }
        t->ranges[t->nranges++] = (RangeDecl){ name, type, range, (uint8_t)vec, 0, NULL };
    }
    return true;
}

static void reg_grow(Function *fn, RegTab *t)
{
    uint32_t ncap = t->cap ? t->cap * 2 : 32;
    Reg **ns = ARENA_ARRAY(&fn->mod->arena, Reg *, ncap);
    for (uint32_t i = 0; i < t->cap; i++) {
        Reg *r = t->slots[i];
        if (!r) continue;
        uint32_t h = str_hash(r->name) & (ncap - 1);
        while (ns[h]) h = (h + 1) & (ncap - 1);
        ns[h] = r;
    }
    t->slots = ns;
    t->cap = ncap;
}

static Reg **reg_slot(RegTab *t, Str name, uint32_t h)
{
    uint32_t i = h & (t->cap - 1);
    while (t->slots[i]) {
        if (str_eq(t->slots[i]->name, name)) return &t->slots[i];
        i = (i + 1) & (t->cap - 1);
    }
    return &t->slots[i];
}

static Reg *reg_make(Function *fn, Str name, Str type, int vec, bool special);

static Reg *reg_new(Function *fn, RegTab *t, Str name, Str type, int vec, bool special)
{
    if ((t->count + 1) * 2 > t->cap) reg_grow(fn, t);
    Reg **slot = reg_slot(t, name, str_hash(name));
    Reg *r = reg_make(fn, name, type, vec, special);
    *slot = r;
    t->count++;
    return r;
}

/* A new Reg with the next dense id (not entered in any table). */
static Reg *reg_make(Function *fn, Str name, Str type, int vec, bool special)
{
    Reg *r = ARENA_NEW(&fn->mod->arena, Reg);
    r->name = name;
    r->type = type;
    r->cls = (uint8_t)regs_class_of_type(type);
    r->vec = (uint8_t)vec;
    r->special = special;
    r->id = fn->nregs;
    /* dense id → Reg array, grown geometrically in the arena */
    if ((fn->nregs & (fn->nregs - 1)) == 0) {
        uint32_t ncap = fn->nregs ? fn->nregs * 2 : 16;
        Reg **nr = ARENA_ARRAY(&fn->mod->arena, Reg *, ncap);
        if (fn->nregs) memcpy(nr, fn->regs, sizeof(Reg *) * fn->nregs);
        fn->regs = nr;
    }
    fn->regs[fn->nregs++] = r;
    return r;
}

static const char *const special_names[] = {
    "%tid", "%ntid", "%laneid", "%warpid", "%nwarpid", "%ctaid", "%nctaid", "%smid",
    "%nsmid", "%gridid", "%lanemask_eq", "%lanemask_le", "%lanemask_lt", "%lanemask_ge",
    "%lanemask_gt", "%clock", "%clock_hi", "%clock64", "%globaltimer", "%globaltimer_lo",
    "%globaltimer_hi", "%total_smem_size", "%aggr_smem_size", "%dynamic_smem_size",
    "%is_explicit_cluster", "%clusterid", "%nclusterid", "%cluster_ctaid",
    "%cluster_nctaid", "%cluster_ctarank", "%cluster_nctarank", "%current_graph_exec",
    "%reserved_smem_offset_begin", "%reserved_smem_offset_end", "%reserved_smem_offset_cap",
    "%reserved_smem_offset_0", "%reserved_smem_offset_1",
};

bool regs_is_special(Str name)
{
    if (name.len < 3 || name.p[0] != '%') return false;
    for (size_t i = 0; i < sizeof special_names / sizeof special_names[0]; i++)
        if (str_eqc(name, special_names[i])) return true;
    /* %pm0..%pm7, %pm0_64..%pm7_64, %envreg0..%envreg31 */
    if (str_starts(name, "%pm") && name.len >= 4 && name.p[3] >= '0' && name.p[3] <= '7')
        return name.len == 4 || (name.len == 7 && memcmp(name.p + 4, "_64", 3) == 0);
    if (str_starts(name, "%envreg") && name.len >= 8 && name.len <= 9) {
        int v = 0;
        for (size_t i = 7; i < name.len; i++) {
            if (name.p[i] < '0' || name.p[i] > '9') return false;
            v = v * 10 + (name.p[i] - '0');
        }
        return v < 32;
    }
    return false;
}

RegClass regs_class_of_type(Str t)
{
    if (t.len < 2) return RC_OTHER;
    if (str_eqc(t, ".pred")) return RC_PRED;
    if (str_eqc(t, ".f32")) return RC_F32;
    if (str_eqc(t, ".f64")) return RC_F64;
    const char *d = t.p + 2;
    size_t n = t.len - 2;
    if (t.p[1] == 'f' && t.len > 2 && t.p[2] == '1') return (t.len > 4) ? RC_B32 : RC_B16; /* f16 / f16x2 */
    if (t.p[1] == 'b' && t.len > 2 && t.p[2] == 'f') return (t.len > 5) ? RC_B32 : RC_B16; /* bf16 / bf16x2 */
    if (n == 1 && d[0] == '8') return RC_B8;
    if (n == 2 && d[0] == '1' && d[1] == '6') return RC_B16;
    if (n == 2 && d[0] == '3' && d[1] == '2') return RC_B32;
    if (n == 2 && d[0] == '6' && d[1] == '4') return RC_B64;
    if (n == 3 && d[0] == '1' && d[1] == '2' && d[2] == '8') return RC_B128;
    return RC_OTHER;
}

/* %r12 → the Reg for index 12 of %r<N>, or NULL when no range declares it. */
static Reg *range_lookup(Function *fn, RegTab *t, Str name)
{
    size_t k = name.len;
    while (k > 0 && name.p[k - 1] >= '0' && name.p[k - 1] <= '9') k--;
    if (k == name.len || k == 0 || name.len - k > 9) return NULL;
    if (name.p[k] == '0' && name.len - k > 1) return NULL; /* %r01 is not declared by %r<N> */
    for (uint32_t i = 0; i < t->nranges; i++) {
        RangeDecl *rd = &t->ranges[i];
        if (!str_eq(rd->prefix, (Str){ name.p, k })) continue;
        uint32_t idx = 0;
        for (size_t j = k; j < name.len; j++) idx = idx * 10 + (uint32_t)(name.p[j] - '0');
        if (idx >= (uint32_t)rd->range) return NULL;
        if (idx >= rd->rcap) {
            uint32_t ncap = rd->rcap ? rd->rcap * 2 : 16;
            while (ncap <= idx) ncap *= 2;
            if (ncap > (uint32_t)rd->range) ncap = (uint32_t)rd->range;
            Reg **nr = ARENA_ARRAY(&fn->mod->arena, Reg *, ncap);
            if (rd->rcap) memcpy(nr, rd->regs, sizeof(Reg *) * rd->rcap);
            rd->regs = nr;
            rd->rcap = ncap;
        }
        if (!rd->regs[idx]) rd->regs[idx] = reg_make(fn, name, rd->type, rd->vec, false);
        return rd->regs[idx];
    }
    return NULL;
}

Reg *regs_lookup(Function *fn, Str name)
{
    RegTab *t = tab_of(fn);
    if (t->nranges) {
        Reg *r = range_lookup(fn, t, name);
        if (r) return r;
    }
    if (t->cap) {
        Reg *r = *reg_slot(t, name, str_hash(name));
        if (r) return r;
    }
    RegDecl *d = decl_find(t, name);
    if (d && d->range < 0) return reg_new(fn, t, name, d->type, d->vec, false);
    if (regs_is_special(name)) return reg_new(fn, t, name, (Str){ "", 0 }, 0, true);
    return NULL;
}

bool regs_name_taken(Function *fn, Str name)
{
    RegTab *t = tab_of(fn);
    if (t->cap && *reg_slot(t, name, str_hash(name))) return true;
    if (decl_find(t, name)) return true;
    size_t k = name.len;
    while (k > 0 && name.p[k - 1] >= '0' && name.p[k - 1] <= '9') k--;
    return k < name.len && decl_find(t, (Str){ name.p, k }) != NULL;
}

Reg *regs_add_fresh(Function *fn, Str name, Str type)
{
    RegTab *t = tab_of(fn);
    regs_declare(fn, name, type, 0, -1);
    Reg *r = reg_new(fn, t, name, type, 0, false);
    r->fresh = true;
    return r;
}

Reg *regs_new_scoped(Function *fn, Str name, Str type, int vec)
{
    RegTab *t = tab_of(fn);
    /* reg_new enters the name in the table; put back what the name meant
     * before (the outer register, or nothing).  Undoing the latest insertion
     * of a linear-probing table is safe: no probe chain passes through it. */
    Reg *prev = t->cap ? *reg_slot(t, name, str_hash(name)) : NULL;
    Reg *r = reg_new(fn, t, name, type, vec, false);
    *reg_slot(t, name, str_hash(name)) = prev;
    t->count--;
    r->scoped = true;
    return r;
}

bool regs_decl_covers(Str decl, int32_t range, Str name)
{
    if (range < 0) return str_eq(decl, name);
    if (name.len <= decl.len || memcmp(name.p, decl.p, decl.len) != 0) return false;
    size_t k = decl.len;
    if (name.len - k > 9 || (name.p[k] == '0' && name.len - k > 1)) return false;
    uint32_t idx = 0;
    for (size_t i = k; i < name.len; i++) {
        if (name.p[i] < '0' || name.p[i] > '9') return false;
        idx = idx * 10 + (uint32_t)(name.p[i] - '0');
    }
    return idx < (uint32_t)range;
}
