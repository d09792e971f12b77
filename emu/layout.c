/* layout.c — sizes of declarations and the module variables (.global,
 * .const, .shared, .local at module scope) with their initial images.
 *
 * Initializers are read from the declaration's tokens: scalars, nested
 * brace lists (flattened in row-major order), negative numbers, float
 * literals (0f/0d hex or decimal), and addresses of variables or functions
 * written as NAME, NAME+OFFSET or generic(NAME).  Missing trailing elements
 * are zero, as in PTX. */
#include <stdlib.h>
#include <string.h>

#include "emu/fp.h"
#include "emu/internal.h"

uint64_t decl_elem_size(const Decl *d)
{
    int t = ty_from_mod(d->type);
    uint64_t sz = (uint64_t)(t == TY_PRED ? 1 : (ty_bits(t) + 7) / 8);
    if (str_eqc(d->type, ".texref") || str_eqc(d->type, ".samplerref") || str_eqc(d->type, ".surfref")) sz = 8;
    if (d->vec) sz *= d->vec;
    return sz ? sz : 1;
}

uint64_t decl_var_size(const Decl *d, uint32_t k)
{
    uint64_t n = decl_elem_size(d);
    const Declarator *dd = &d->decls[k];
    for (int i = 0; i < dd->ndims && i < 4; i++) {
        if (dd->dims[i] < 0) return 0;  /* [] : unsized (extern, or sized by the initializer) */
        n *= (uint64_t)dd->dims[i];
    }
    return n;
}

uint32_t decl_align(const Decl *d)
{
    if (d->align > 0) return (uint32_t)d->align;
    uint64_t e = decl_elem_size(d);
    return e > 16 ? 16 : (uint32_t)e;
}

/* First variable with this name (hash index rebuilt when variables were added). */
int emu_find_var(const EmuProgram *cp, Str name)
{
    EmuProgram *p = (EmuProgram *)cp;      /* the index is a cache */
    if (!p->vbucket || p->vindexed != p->nvars) {
        free(p->vbucket);
        free(p->vnext);
        p->nvbucket = 64;
        while (p->nvbucket < p->nvars * 2) p->nvbucket *= 2;
        p->vbucket = malloc(sizeof(int32_t) * p->nvbucket);
        p->vnext = malloc(sizeof(int32_t) * (p->nvars + 1));
        for (uint32_t i = 0; i < p->nvbucket; i++) p->vbucket[i] = -1;
        for (uint32_t i = p->nvars; i-- > 0;) {     /* earlier variables first in each chain */
            uint32_t h = str_hash(str_c(p->vars[i].name)) & (p->nvbucket - 1);
            p->vnext[i] = p->vbucket[h];
            p->vbucket[h] = (int32_t)i;
        }
        p->vindexed = p->nvars;
    }
    for (int32_t i = p->vbucket[str_hash(name) & (p->nvbucket - 1)]; i >= 0; i = p->vnext[i])
        if (strlen(p->vars[i].name) == name.len && memcmp(p->vars[i].name, name.p, name.len) == 0) return i;
    return -1;
}

static int space_of_decl(const Decl *d)
{
    Str s = d->space;
    if (str_starts(s, ".global")) return SP_GLOBAL;
    if (str_starts(s, ".const")) return SP_CONST;
    if (str_starts(s, ".shared")) return SP_SHARED;
    if (str_starts(s, ".local")) return SP_LOCAL;
    return SP_NONE;
}

/* A function by name; a definition wins over earlier prototypes. */
static int find_func(const EmuProgram *p, Str name)
{
    int found = -1;
    for (uint32_t i = 0; i < p->m->nfuncs; i++)
        if (str_eq(p->m->funcs[i]->name, name)) {
            if (p->m->funcs[i]->has_body) return (int)i;
            if (found < 0) found = (int)i;
        }
    return found;
}

/* The generic address of a global/const variable or function named by a token. */
static bool symbol_address(const EmuProgram *p, Str name, uint64_t *out)
{
    int v = emu_find_var(p, name);
    if (v >= 0 && (p->vars[v].space == SP_GLOBAL || p->vars[v].space == SP_CONST)) {
        *out = WINDOW(TAG_ALLOC0 + p->vars[v].alloc);
        return true;
    }
    int f = find_func(p, name);
    if (f >= 0) { *out = WINDOW(TAG_FUNC) + (uint64_t)f; return true; }
    return false;
}

static bool is_punct(const Token *t, char c) { return t->kind == TOKK_PUNCT && t->text.len == 1 && t->text.p[0] == c; }
static bool is_op(const Token *t, const char *op) { return t->kind == TOKK_PUNCT && str_eqc(t->text, op); }

typedef struct Val { bool is_float; double f; int64_t i; } Val;

typedef struct InitCtx {
    const EmuProgram *p;
    const Token *t;
    uint32_t n, i;
    int ty;
    uint32_t esize;
    uint8_t *img;
    uint64_t cap;       /* bytes available (0: growing, unsized array) */
    uint64_t count;     /* elements written */
    uint8_t *grow;      /* for unsized arrays */
    uint64_t growcap;
    uint64_t span[6];   /* elements covered by a brace at each depth */
    int ndepth;
    const char *err;
} InitCtx;

static int64_t vint(Val v) { return v.is_float ? (int64_t)v.f : v.i; }

static Val expr(InitCtx *c);

static bool tok_number(const Token *t, Val *v)
{
    char buf[80];
    if (t->text.len >= sizeof buf) return false;
    memcpy(buf, t->text.p, t->text.len);
    buf[t->text.len] = 0;
    if (t->kind == TOKK_FLOAT) {
        v->is_float = true;
        if (buf[0] == '0' && (buf[1] == 'f' || buf[1] == 'F')) v->f = (double)f32_of(strtoul(buf + 2, NULL, 16));
        else if (buf[0] == '0' && (buf[1] == 'd' || buf[1] == 'D')) v->f = f64_of(strtoull(buf + 2, NULL, 16));
        else v->f = strtod(buf, NULL);
        return true;
    }
    if (t->kind == TOKK_INT) {
        size_t n = strlen(buf);
        if (n && buf[n - 1] == 'U') buf[--n] = 0;
        v->is_float = false;
        v->i = (int64_t)((n > 2 && buf[0] == '0' && (buf[1] == 'b' || buf[1] == 'B')) ? strtoull(buf + 2, NULL, 2) : strtoull(buf, NULL, 0));
        return true;
    }
    return false;
}

static Val primary(InitCtx *c)
{
    Val v = { false, 0, 0 };
    if (c->i >= c->n) { c->err = "truncated initializer"; return v; }
    const Token *t = &c->t[c->i];
    if (is_punct(t, '(')) {
        c->i++;
        v = expr(c);
        if (c->i < c->n && is_punct(&c->t[c->i], ')')) c->i++;
        else c->err = "missing ')' in initializer";
        return v;
    }
    if (t->kind == TOKK_INT || t->kind == TOKK_FLOAT) {
        c->i++;
        if (!tok_number(t, &v)) { c->err = "bad number in initializer"; return v; }
        /* MASK(address): the masked bytes of an address, shifted down */
        if (!v.is_float && c->i < c->n && is_punct(&c->t[c->i], '(')) {
            uint64_t mask = (uint64_t)v.i;
            c->i++;
            Val a = expr(c);
            if (c->i < c->n && is_punct(&c->t[c->i], ')')) c->i++;
            v.i = mask ? (int64_t)(((uint64_t)vint(a) & mask) >> __builtin_ctzll(mask)) : 0;
        }
        return v;
    }
    if (t->kind == TOKK_WORD) {
        Str name = t->text;
        c->i++;
        if ((str_eqc(name, "generic") || str_eqc(name, "global")) && c->i < c->n && is_punct(&c->t[c->i], '(')) {
            c->i++;
            v = expr(c);
            if (c->i < c->n && is_punct(&c->t[c->i], ')')) c->i++;
            return v;
        }
        uint64_t a;
        if (!symbol_address(c->p, name, &a)) { c->err = "initializer names an unknown variable"; return v; }
        v.i = (int64_t)a;
        return v;
    }
    c->err = "unsupported initializer expression";
    return v;
}

static Val unary(InitCtx *c)
{
    if (c->i < c->n) {
        const Token *t = &c->t[c->i];
        if (is_punct(t, '-') || is_punct(t, '+') || is_punct(t, '~') || is_punct(t, '!')) {
            c->i++;
            Val v = unary(c);
            char op = t->text.p[0];
            if (op == '-') { if (v.is_float) v.f = -v.f; else v.i = (int64_t)(0 - (uint64_t)v.i); }
            else if (op == '~') v.i = ~vint(v), v.is_float = false;
            else if (op == '!') v.i = vint(v) == 0, v.is_float = false;
            return v;
        }
    }
    return primary(c);
}

/* Binary operators by precedence (C's), lowest first. */
static const char *const levels[][4] = {
    { "||" }, { "&&" }, { "|" }, { "^" }, { "&" }, { "==", "!=" }, { "<", ">", "<=", ">=" }, { "<<", ">>" },
    { "+", "-" }, { "*", "/", "%" },
};
#define NLEVELS (int)(sizeof levels / sizeof levels[0])

static Val binary(InitCtx *c, int level)
{
    if (level >= NLEVELS) return unary(c);
    Val a = binary(c, level + 1);
    for (;;) {
        if (c->err || c->i >= c->n) return a;
        const Token *t = &c->t[c->i];
        const char *op = NULL;
        for (int k = 0; k < 4 && levels[level][k]; k++)
            if (is_op(t, levels[level][k])) op = levels[level][k];
        if (!op) return a;
        c->i++;
        Val b = binary(c, level + 1);
        if (a.is_float || b.is_float) {
            double x = a.is_float ? a.f : (double)a.i, y = b.is_float ? b.f : (double)b.i;
            if (!strcmp(op, "+")) a.f = x + y; else if (!strcmp(op, "-")) a.f = x - y;
            else if (!strcmp(op, "*")) a.f = x * y; else if (!strcmp(op, "/")) a.f = x / y;
            else { c->err = "unsupported floating-point initializer expression"; return a; }
            a.is_float = true;
            continue;
        }
        int64_t x = a.i, y = b.i;
        uint64_t ux = (uint64_t)x, uy = (uint64_t)y;
        if (!strcmp(op, "||")) a.i = x || y;
        else if (!strcmp(op, "&&")) a.i = x && y;
        else if (!strcmp(op, "|")) a.i = (int64_t)(ux | uy);
        else if (!strcmp(op, "^")) a.i = (int64_t)(ux ^ uy);
        else if (!strcmp(op, "&")) a.i = (int64_t)(ux & uy);
        else if (!strcmp(op, "==")) a.i = x == y;
        else if (!strcmp(op, "!=")) a.i = x != y;
        else if (!strcmp(op, "<")) a.i = x < y;
        else if (!strcmp(op, ">")) a.i = x > y;
        else if (!strcmp(op, "<=")) a.i = x <= y;
        else if (!strcmp(op, ">=")) a.i = x >= y;
        else if (!strcmp(op, "<<")) a.i = y >= 64 ? 0 : (int64_t)(ux << y);
        else if (!strcmp(op, ">>")) a.i = y >= 64 ? (x < 0 ? -1 : 0) : x >> y;
        else if (!strcmp(op, "+")) a.i = (int64_t)(ux + uy);
        else if (!strcmp(op, "-")) a.i = (int64_t)(ux - uy);
        else if (!strcmp(op, "*")) a.i = (int64_t)(ux * uy);
        else if (!strcmp(op, "/") || !strcmp(op, "%")) {
            if (y == 0) { c->err = "division by zero in an initializer"; return a; }
            a.i = (y == -1) ? (op[0] == '/' ? (int64_t)(0 - ux) : 0) : (op[0] == '/' ? x / y : x % y);
        }
    }
}

static Val expr(InitCtx *c)
{
    Val v = binary(c, 0);
    if (!c->err && c->i < c->n && is_punct(&c->t[c->i], '?')) {
        c->i++;
        Val a = expr(c);
        if (c->i < c->n && is_punct(&c->t[c->i], ':')) c->i++;
        else c->err = "missing ':' in initializer";
        Val b = expr(c);
        v = vint(v) ? a : b;
    }
    return v;
}

static uint64_t val_bits(Val v, int ty)
{
    if (ty_is_float(ty)) {
        double d = v.is_float ? v.f : (double)v.i;
        switch (ty) {
        case TY_F32: return bits_f32((float)d);
        case TY_F64: return bits_f64(d);
        case TY_F16: return double_to_f16(d, RND_RN, false);
        case TY_BF16: return double_to_bf16(d, RND_RN, false);
        default: break;
        }
    }
    if (v.is_float) return bits_f64(v.f);   /* a float literal in a bit-typed variable: its bits */
    return (uint64_t)v.i;
}

static void put_elem(InitCtx *c, uint64_t v)
{
    uint64_t off = c->count * c->esize;
    if (c->cap) {
        if (off + c->esize > c->cap) { c->err = "too many initializer values"; return; }
        memcpy(c->img + off, &v, c->esize);
    } else {
        if (off + c->esize > c->growcap) {
            uint64_t old = c->growcap;
            c->growcap = c->growcap ? c->growcap * 2 : 64;
            while (c->growcap < off + c->esize) c->growcap *= 2;
            c->grow = realloc(c->grow, c->growcap);
            memset(c->grow + old, 0, c->growcap - old);
        }
        memcpy(c->grow + off, &v, c->esize);
    }
    c->count++;
}

/* A value or a brace list at a nesting depth; a brace at depth d covers
 * span[d] elements, so a short list is padded with zeros to its end. */
static void parse_value(InitCtx *c, int depth)
{
    if (c->i >= c->n) { c->err = "truncated initializer"; return; }
    if (is_punct(&c->t[c->i], '{')) {
        c->i++;
        uint64_t start = c->count;
        while (c->i < c->n && !is_punct(&c->t[c->i], '}') && !c->err) {
            parse_value(c, depth + 1);
            if (c->i < c->n && is_punct(&c->t[c->i], ',')) c->i++;
        }
        if (c->i < c->n) c->i++;
        if (!c->err && depth < c->ndepth && c->span[depth]) {
            uint64_t end = start + c->span[depth];
            if (c->count > end) c->err = "too many initializer values";
            while (!c->err && c->count < end) put_elem(c, 0);
        }
        return;
    }
    Val v = expr(c);
    if (!c->err) put_elem(c, val_bits(v, c->ty));
}

static bool add_var(EmuProgram *p, EVar v)
{
    if (p->nvars == p->capvars) {
        p->capvars = p->capvars ? p->capvars * 2 : 16;
        p->vars = realloc(p->vars, sizeof(EVar) * p->capvars);
        if (!p->vars) return false;
    }
    p->vars[p->nvars++] = v;
    return true;
}

static uint64_t align_up(uint64_t v, uint64_t a) { return a ? (v + a - 1) / a * a : v; }

/* Records the variables of one declaration (module or function scope). */
static bool layout_decl(EmuProgram *p, const Decl *d, const Stmt *s)
{
    int sp = space_of_decl(d);
    if (sp == SP_NONE) return true;
    for (uint32_t k = 0; k < d->ndecl; k++) {
        EVar v = { 0 };
        v.name = arena_strndup(&p->arena, d->decls[k].name.p, d->decls[k].name.len);
        v.space = (uint8_t)sp;
        v.align = decl_align(d);
        v.size = decl_var_size(d, k);
        bool unsized = false;
        for (int i = 0; i < d->decls[k].ndims; i++) if (d->decls[k].dims[i] < 0) unsized = true;
        if (sp == SP_SHARED && unsized) v.dyn_shared = true;
        if (sp == SP_GLOBAL || sp == SP_CONST) v.alloc = p->nglobal_allocs++;
        if (!add_var(p, v)) return false;
    }
    (void)s;
    return true;
}

/* Second pass: initial images (needs every variable's allocation index).
 * An initializer the emulator cannot evaluate leaves the variable's memory
 * marked never-written (poison): reading it is reported, never wrong. */
static bool init_decl(EmuProgram *p, const Decl *d, const Stmt *s)
{
    int sp = space_of_decl(d);
    if ((sp != SP_GLOBAL && sp != SP_CONST) || !d->has_init) return true;
    uint32_t eq = 0;
    while (eq < d->ntok && !is_punct(&d->tok[eq], '=')) eq++;
    if (eq >= d->ntok || d->ndecl != 1) return true;
    int vi = emu_find_var(p, d->decls[0].name);
    if (vi < 0) return true;
    EVar *v = &p->vars[vi];
    InitCtx c;
    memset(&c, 0, sizeof c);
    c.p = p;
    c.t = d->tok;
    c.n = d->ntok;
    c.i = eq + 1;
    int ty = ty_from_mod(d->type);
    c.ty = ty;
    c.esize = (uint32_t)(ty_bits(ty) / 8);
    if (c.esize == 0) c.esize = 1;
    /* element spans of brace levels: array dimensions, then the vector */
    const Declarator *dd = &d->decls[0];
    uint64_t dims[6];
    int nd = 0;
    for (int k = 0; k < dd->ndims && k < 4; k++) dims[nd++] = dd->dims[k] < 0 ? 0 : (uint64_t)dd->dims[k];
    if (d->vec) dims[nd++] = d->vec;
    c.ndepth = nd;
    for (int k = 0; k < nd; k++) {
        uint64_t sp2 = 1;
        for (int j = k; j < nd; j++) sp2 *= dims[j];
        c.span[k] = sp2;             /* 0 when a dimension is unsized */
    }
    if (v->size) {
        v->init = arena_alloc(&p->arena, v->size);
        c.img = v->init;
        c.cap = v->size;
    }
    parse_value(&c, 0);
    if (!c.err && c.i < c.n) c.err = "unexpected tokens after the initializer";
    if (c.err) {
        fprintf(p->diag ? p->diag : stderr, "%s:%u: warning: %s in the initializer of %s; the emulator treats its contents as undefined\n",
                p->m->filename, s ? s->line : 0, c.err, v->name);
        v->init_failed = true;
        free(c.grow);
        return true;
    }
    if (!v->size) {
        v->size = c.count * c.esize;
        v->init = arena_alloc(&p->arena, v->size ? v->size : 1);
        if (c.grow) memcpy(v->init, c.grow, v->size);
    }
    free(c.grow);
    return true;
}

/* Function-scope .shared/.global/.const declarations live for the whole
 * launch like module variables; .local ones are per frame (decode.c). */
static bool layout_body_statics(EmuProgram *p, bool init)
{
    for (uint32_t f = 0; f < p->m->nfuncs; f++) {
        Function *fn = p->m->funcs[f];
        FOR_EACH_BLOCK(b, fn)
            FOR_EACH_STMT(s, b) {
                if (s->kind != STMT_DECL) continue;
                int sp = space_of_decl(s->u.decl);
                if (sp != SP_SHARED && sp != SP_GLOBAL && sp != SP_CONST) continue;
                if (!(init ? init_decl(p, s->u.decl, s) : layout_decl(p, s->u.decl, s))) return false;
            }
    }
    return true;
}

bool emu_layout_module(EmuProgram *p)
{
    for (Stmt *s = p->m->first; s; s = s->next)
        if (s->kind == STMT_DECL && !layout_decl(p, s->u.decl, s)) return false;
    if (!layout_body_statics(p, false)) return false;
    for (Stmt *s = p->m->first; s; s = s->next)
        if (s->kind == STMT_DECL && !init_decl(p, s->u.decl, s)) return false;
    if (!layout_body_statics(p, true)) return false;
    /* shared and module-local offsets */
    uint64_t sh = 0, lo = 0;
    uint32_t dyn_align = 16;
    for (uint32_t i = 0; i < p->nvars; i++) {
        EVar *v = &p->vars[i];
        if (v->space == SP_SHARED && !v->dyn_shared) {
            sh = align_up(sh, v->align);
            v->offset = sh;
            sh += v->size;
        } else if (v->space == SP_SHARED) {
            if (v->align > dyn_align) dyn_align = v->align;
        } else if (v->space == SP_LOCAL) {
            lo = align_up(lo, v->align);
            v->offset = lo;
            lo += v->size;
        }
    }
    p->shared_static = sh;
    p->dyn_align = dyn_align;
    p->modlocal_size = (uint32_t)align_up(lo, 16);
    return true;
}
