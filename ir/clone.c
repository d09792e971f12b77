/* clone.c — copy a region of blocks with fresh labels (see clone.h). */
#include <string.h>

#include "ir/clone.h"
#include "ir/regs.h"

bool ir_block_falls_through(const Block *b)
{
    Stmt *s = ir_block_last_instr((Block *)b);
    if (!s) return true;
    const Instr *in = &s->u.instr;
    if (in->guard) return true;
    uint32_t fl = opcode_info(in->op)->flags;
    if (in->op == OP_bra) return false;
    return !(fl & (OPF_RET | OPF_EXIT));
}

Str ir_block_label(Block *b)
{
    if (b->label.len) return b->label;
    Str name = ir_fresh_label(b->fn);
    Stmt *l = ir_new_label(b->fn, name);
    if (b->first) ir_insert_before(b->first, l); else ir_append(b, l);
    b->label = name;
    return name;
}

/* Makes b's fall-through explicit: `bra target` (or `ret` when b falls off
 * the end of the function: target empty) at its end, or in a new block
 * right after it when b already ends in a (guarded) terminator, since a
 * terminator must be the last instruction of its block. */
static void add_fallthrough_branch(Block *b, Str target)
{
    Function *fn = b->fn;
    Stmt *br = ir_new_instr(fn, target.len ? "bra" : "ret", target.len ? 1 : 0);
    if (target.len) br->u.instr.ops[0] = ir_op_sym(fn->mod, target, 0);
    Stmt *last = ir_block_last_instr(b);
    if (!last || !(opcode_info(last->u.instr.op)->flags & OPF_TERMINATOR)) {
        ir_append(b, br);
        return;
    }
    ir_append(ir_new_block_after(b), br);
}

/* Why a statement keeps its region from being copied, or NULL.  depth:
 * how many { } scopes of the region are open around it.  A declaration
 * inside such a scope is copied with the scope (the copy's registers get
 * fresh names); one outside would be declared twice in the function. */
static const char *uncopyable(const Stmt *s, int depth)
{
    switch (s->kind) {
    case STMT_DECL:
        if (depth == 0) return "it declares a name outside a { } scope (it would be declared twice)";
        if (!str_eqc(s->u.decl->space, ".reg") && !str_eqc(s->u.decl->space, ".param"))
            return "it declares a variable other than a register or parameter in a { } scope";
        return NULL;
    case STMT_VERBATIM: return "it holds text the parser kept verbatim";
    case STMT_DIRECTIVE:
        if (s->dirkind == DIR_BRANCHTARGETS || s->dirkind == DIR_CALLTARGETS || s->dirkind == DIR_CALLPROTOTYPE)
            return "it holds a label table (.branchtargets/.calltargets/.callprototype)";
        return NULL;
    case STMT_INSTR:
        if (s->u.instr.op == OP_brx) return "it has an indirect branch (brx.idx)";
        return NULL;
    default: return NULL;
    }
}

/* ------------------------------------------------------ { } scopes */

/* The register declarations of the region's open scopes, innermost last:
 * what a scoped register of an instruction resolves to (as the parser
 * resolved it), and the fresh base name its copy gets. */
typedef struct ScopeName {
    Str name, fresh;    /* declarator ("%t" of %t<4>, or "%a"); fresh base */
    int32_t range;
    int depth;
} ScopeName;

typedef struct Scopes {
    ScopeName *v;
    uint32_t n, cap;
    int depth;
} Scopes;

static void scopes_push(Arena *a, Scopes *sc, ScopeName x)
{
    if (sc->n == sc->cap) {
        uint32_t ncap = sc->cap ? sc->cap * 2 : 8;
        ScopeName *nv = ARENA_ARRAY(a, ScopeName, ncap);
        if (sc->n) memcpy(nv, sc->v, sizeof *nv * sc->n);
        sc->v = nv;
        sc->cap = ncap;
    }
    sc->v[sc->n++] = x;
}

static void scopes_close(Scopes *sc)
{
    while (sc->n && sc->v[sc->n - 1].depth >= sc->depth) sc->n--;
    sc->depth--;
}

/* The innermost declaration of the region's scopes that declares r. */
static const ScopeName *scopes_find(const Scopes *sc, const Reg *r)
{
    for (uint32_t i = sc->n; i-- > 0;)
        if (regs_decl_covers(sc->v[i].name, sc->v[i].range, r->name)) return &sc->v[i];
    return NULL;
}

/* Calls f(ctx, &reg) on every register an instruction names. */
static void each_reg_operand(Operand *o, void (*f)(void *, Reg **), void *ctx)
{
    if (o->kind == OPND_REG) f(ctx, &o->u.reg);
    else if ((o->kind == OPND_ADDR || o->kind == OPND_VEC || o->kind == OPND_LIST || o->kind == OPND_PAIR) && o->n)
        for (int i = 0; i < o->n; i++) each_reg_operand(&o->u.elems[i], f, ctx);
}

static void each_reg(Instr *in, void (*f)(void *, Reg **), void *ctx)
{
    if (in->guard) f(ctx, &in->guard);
    for (int k = 0; k < in->nops; k++) each_reg_operand(&in->ops[k], f, ctx);
}

typedef struct ScopeCheck {
    const Scopes *sc;
    bool bad;
} ScopeCheck;

static void check_scoped(void *ctx, Reg **r)
{
    ScopeCheck *c = ctx;
    if ((*r)->scoped && !scopes_find(c->sc, *r)) c->bad = true;
}

/* The copy's registers: each scoped register of the region gets one fresh
 * Reg (declared in the copied scope under the fresh base name). */
typedef struct RegMap {
    Function *fn;
    const Scopes *sc;
    Reg **from, **to;
    uint32_t n, cap;
    bool changed;       /* the instruction being copied named one */
} RegMap;

static void map_scoped(void *ctx, Reg **r)
{
    RegMap *m = ctx;
    if (!(*r)->scoped) return;
    m->changed = true;
    for (uint32_t i = 0; i < m->n; i++)
        if (m->from[i] == *r) { *r = m->to[i]; return; }
    const ScopeName *d = scopes_find(m->sc, *r);
    if (!d) return;   /* cannot happen: the check refused such a region */
    Arena *a = &m->fn->mod->arena;
    Str suffix = { (*r)->name.p + d->name.len, (*r)->name.len - d->name.len };
    char *name = arena_printf(a, "%.*s%.*s", (int)d->fresh.len, d->fresh.p, (int)suffix.len, suffix.p);
    Reg *nr = regs_new_scoped(m->fn, str_c(name), (*r)->type, (*r)->vec);
    if (m->n == m->cap) {
        uint32_t ncap = m->cap ? m->cap * 2 : 8;
        Reg **nf = ARENA_ARRAY(a, Reg *, ncap), **nt = ARENA_ARRAY(a, Reg *, ncap);
        if (m->n) memcpy(nf, m->from, sizeof *nf * m->n), memcpy(nt, m->to, sizeof *nt * m->n);
        m->from = nf, m->to = nt, m->cap = ncap;
    }
    m->from[m->n] = *r;
    m->to[m->n++] = nr;
    *r = nr;
}

/* A fresh base name for a scoped declarator: %pxs<n>_<name without %>. */
static Str fresh_scoped_name(Function *fn, Str name)
{
    Arena *a = &fn->mod->arena;
    bool pct = name.len && name.p[0] == '%';
    Str rest = pct ? (Str){ name.p + 1, name.len - 1 } : name;
    for (;;) {
        char *s = arena_printf(a, "%spxs%u_%.*s", pct ? "%" : "", fn->fresh_counter++, (int)rest.len, rest.p);
        if (!regs_name_taken(fn, str_c(s))) return str_c(s);
    }
}

/* The copy of a .reg declaration inside a scope: its declarators renamed
 * (tokens too: a dirty declaration prints from them), and entered in sc. */
static Decl *copy_scoped_decl(Function *fn, const Decl *d, Scopes *sc)
{
    Arena *a = &fn->mod->arena;
    Decl *c = ARENA_NEW(a, Decl);
    *c = *d;
    c->decls = ARENA_ARRAY(a, Declarator, d->ndecl ? d->ndecl : 1);
    c->tok = ARENA_ARRAY(a, Token, d->ntok ? d->ntok : 1);
    if (d->ntok) memcpy(c->tok, d->tok, sizeof *c->tok * d->ntok);
    for (uint32_t k = 0; k < d->ndecl; k++) {
        c->decls[k] = d->decls[k];
        Str fresh = fresh_scoped_name(fn, d->decls[k].name);
        c->decls[k].name = fresh;
        for (uint32_t t = 0; t < c->ntok; t++)
            if (c->tok[t].text.p == d->decls[k].name.p && c->tok[t].text.len == d->decls[k].name.len) c->tok[t].text = fresh;
        scopes_push(a, sc, (ScopeName){ d->decls[k].name, fresh, d->decls[k].range, sc->depth });
    }
    return c;
}

/* Deep copy of an operand tree (the copy must be free to change alone). */
static Operand copy_operand(Arena *a, const Operand *o)
{
    Operand c = *o;
    if ((o->kind == OPND_ADDR || o->kind == OPND_VEC || o->kind == OPND_LIST || o->kind == OPND_PAIR) && o->n) {
        Operand *e = ARENA_ARRAY(a, Operand, o->n);
        for (int i = 0; i < o->n; i++) e[i] = copy_operand(a, &o->u.elems[i]);
        c.u.elems = e;
    }
    return c;
}

static int region_index(const CloneMap *map, const Block *b)
{
    for (uint32_t i = 0; i < map->n; i++)
        if (map->orig[i] == b) return (int)i;
    return -1;
}

Block *clone_map_block(const CloneMap *map, const Block *orig)
{
    int i = region_index(map, orig);
    return i < 0 ? NULL : map->copy[i];
}

Stmt *clone_map_stmt(const CloneMap *map, const Stmt *orig)
{
    int i = orig->block ? region_index(map, orig->block) : -1;
    if (i < 0) return NULL;
    /* copies keep the statement order of their block (labels first) */
    Stmt *c = map->copy[i]->first;
    for (Stmt *s = map->orig[i]->first; s && c; s = s->next, c = c->next)
        if (s == orig) return c;
    return NULL;
}

typedef struct LabelPair { Str from, to; } LabelPair;

bool ir_clone_possible(Function *fn, Block *first, Block *last, Block *after, const char **why)
{
    const char *dummy;
    if (!why) why = &dummy;
    *why = NULL;
    Scopes sc = { 0 };
    for (Block *b = first;; b = b->next) {
        if (!b) { *why = "the region's blocks are not contiguous in layout"; return false; }
        FOR_EACH_STMT(s, b) {
            if (s->kind == STMT_SCOPE_OPEN) { sc.depth++; continue; }
            if (s->kind == STMT_SCOPE_CLOSE) {
                if (sc.depth == 0) { *why = "it closes a { } scope it does not open"; return false; }
                scopes_close(&sc);
                continue;
            }
            if ((*why = uncopyable(s, sc.depth))) return false;
            if (s->kind == STMT_DECL && str_eqc(s->u.decl->space, ".reg"))
                for (uint32_t k = 0; k < s->u.decl->ndecl; k++)
                    scopes_push(&fn->mod->arena, &sc, (ScopeName){ s->u.decl->decls[k].name, { 0 }, s->u.decl->decls[k].range, sc.depth });
            if (s->kind == STMT_INSTR) {
                ScopeCheck c = { &sc, false };
                each_reg(&s->u.instr, check_scoped, &c);
                if (c.bad) { *why = "it uses a register of a { } scope that the region does not hold"; return false; }
            }
        }
        if (b == last) break;
    }
    if (sc.depth) { *why = "it opens a { } scope that it does not close"; return false; }
    if (ir_block_falls_through(last) && !last->next && after != fn->last) {
        *why = "the region runs off the end of the function";
        return false;
    }
    return true;
}

Block *ir_clone_blocks(Function *fn, Block *first, Block *last, Block *after,
                       CloneMap *map, const char **why)
{
    Arena *a = &fn->mod->arena;
    const char *dummy;
    if (!why) why = &dummy;
    if (!ir_clone_possible(fn, first, last, after, why)) return NULL;

    /* the region */
    uint32_t n = 0;
    for (Block *b = first;; b = b->next) {
        n++;
        if (b == last) break;
    }
    map->n = n;
    map->orig = ARENA_ARRAY(a, Block *, n);
    map->copy = ARENA_ARRAY(a, Block *, n);
    uint32_t nlabels = 0, i = 0;
    for (Block *b = first;; b = b->next) {
        map->orig[i++] = b;
        FOR_EACH_STMT(s, b) nlabels += s->kind == STMT_LABEL;
        if (b == last) break;
    }

    /* Fall-through edges become explicit branches where the copies would
     * come between a block and its layout successor: out of the copy of
     * `last`, and out of `after`.  Labels are added before copying, so a
     * label added to a region block is copied (and renamed) with it. */
    bool last_falls = ir_block_falls_through(last);
    Str last_target = last_falls && last->next ? ir_block_label(last->next) : (Str){ 0 };
    /* `after` at the end of the function falling off it: a ret keeps it
     * from running into the copies */
    bool after_falls = ir_block_falls_through(after);
    Str after_target = after_falls && after->next ? ir_block_label(after->next) : (Str){ 0 };

    /* fresh labels */
    LabelPair *labels = ARENA_ARRAY(a, LabelPair, nlabels ? nlabels : 1);
    uint32_t nl = 0;
    for (i = 0; i < n; i++)
        FOR_EACH_STMT(s, map->orig[i])
            if (s->kind == STMT_LABEL) labels[nl++] = (LabelPair){ s->u.label, ir_fresh_label(fn) };

    /* the copies; the registers declared in the region's { } scopes get
     * fresh names in the copy (PTX would accept the same names in another
     * scope, but one Reg per declared register keeps the analyses right) */
    Scopes sc = { 0 };
    RegMap rm = { .fn = fn, .sc = &sc };
    for (i = 0; i < n; i++) {
        Block *o = map->orig[i];
        Block *c = ARENA_NEW(a, Block);
        c->fn = fn;
        map->copy[i] = c;
        FOR_EACH_STMT(s, o) {
            Stmt *t = ARENA_NEW(a, Stmt);
            *t = *s;
            t->prev = t->next = NULL;
            if (s->kind == STMT_SCOPE_OPEN) {
                sc.depth++;
            } else if (s->kind == STMT_SCOPE_CLOSE) {
                scopes_close(&sc);
            } else if (s->kind == STMT_DECL) {
                if (str_eqc(s->u.decl->space, ".reg")) {
                    t->u.decl = copy_scoped_decl(fn, s->u.decl, &sc);
                    t->dirty = true;
                }
            } else if (s->kind == STMT_LABEL) {
                for (uint32_t k = 0; k < nl; k++)
                    if (str_eq(labels[k].from, s->u.label)) t->u.label = labels[k].to;
                t->dirty = true;
            } else if (s->kind == STMT_INSTR) {
                Instr *in = &t->u.instr;
                if (in->nops) {
                    in->ops = ARENA_ARRAY(a, Operand, in->nops);
                    for (int k = 0; k < in->nops; k++) in->ops[k] = copy_operand(a, &s->u.instr.ops[k]);
                }
                rm.changed = false;
                each_reg(in, map_scoped, &rm);
                if (rm.changed) t->dirty = true;
                if (in->op == OP_bra)
                    for (int k = 0; k < in->nops; k++) {
                        Operand *op = &in->ops[k];
                        if (op->kind != OPND_SYM) continue;
                        for (uint32_t m = 0; m < nl; m++)
                            if (str_eq(labels[m].from, opnd_text(op))) {
                                *op = ir_op_sym(fn->mod, labels[m].to, 0);
                                t->dirty = true;
                            }
                    }
            } else if (s->kind == STMT_DIRECTIVE && s->dirkind == DIR_LOC) {
                /* kept as written: the copy has the same source position */
            }
            ir_append(c, t);
        }
        c->label = (Str){ 0 };
        if (c->first && c->first->kind == STMT_LABEL) c->label = c->first->u.label;
    }
    /* link the copies after `after` */
    Block *next = after->next;
    Block *prev = after;
    for (i = 0; i < n; i++) {
        Block *c = map->copy[i];
        c->prev = prev;
        prev->next = c;
        prev = c;
    }
    prev->next = next;
    if (next) next->prev = prev; else fn->last = prev;
    /* copies stay in order, so only the copy of `last` can fall out */
    if (last_target.len) add_fallthrough_branch(map->copy[n - 1], last_target);
    if (after_falls) add_fallthrough_branch(after, after_target);
    ir_renumber_blocks(fn);
    return map->copy[0];
}
