/* terms.c — hash-consed bit-vector terms with an affine normal form.
 *
 * Every constructor returns the unique node for its (normalised) structure,
 * so two terms are structurally equal exactly when their pointers are.
 * Normalisation (see analysis.h): sums are  k + Σ cᵢ·xᵢ  over distinct
 * non-constant, non-sum xᵢ sorted by id, with coefficients and k reduced
 * modulo 2^width; SUB/NEG/NOT/SHL-by-constant/MUL-by-constant fold into
 * sums; TRUNC (a ring homomorphism) distributes over sums, products and
 * bitwise operations; constants fold everywhere; commutative operations
 * order their arguments by id.  ZEXT/SEXT are kept as they are: that is
 * what keeps wrap-around exact. */
#include "analysis/internal.h"

#include <stdarg.h>

struct TermTable {
    Arena *arena;
    Arena own;
    bool owns;
    const Term **slots;
    uint32_t cap, count;
    uint32_t reserve;         /* slots wanted at the first growth */
};

void terms_reserve(TermTable *tt, uint32_t nterms)
{
    if (!tt->cap) tt->reserve = nterms * 2;
}

static inline uint64_t wmask(unsigned w) { return w >= 64 ? ~0ull : (1ull << w) - 1; }

TermTable *terms_new(void)
{
    TermTable *tt = xcalloc(1, sizeof *tt);
    arena_init(&tt->own);
    tt->arena = &tt->own;
    tt->owns = true;
    return tt;
}

TermTable *terms_new_in(Arena *a)
{
    TermTable *tt = arena_alloc(a, sizeof *tt);
    tt->arena = a;
    return tt;
}

void terms_free(TermTable *tt)
{
    if (!tt || !tt->owns) return;
    free(tt->slots);
    arena_free(&tt->own);
    free(tt);
}

uint32_t terms_count(const TermTable *tt) { return tt->count; }

/* ------------------------------------------------------------- interning */

static uint64_t mix(uint64_t h, uint64_t v)
{
    h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
    return h;
}

/* Structural: built from the arguments' hashes, not their ids, so that it
 * (and every order derived from it) does not depend on creation order. */
static uint64_t node_hash(const Term *t)
{
    uint64_t h = mix(t->op, t->width);
    h = mix(h, t->atom);
    h = mix(h, (uint8_t)t->comp);
    h = mix(h, t->a);
    h = mix(h, t->b);
    h = mix(h, t->k);
    h = mix(h, t->n);
    if (t->name.len) h = mix(h, str_hash(t->name));
    for (uint32_t i = 0; i < t->n; i++) {
        h = mix(h, t->args[i]->hash);
        if (t->coef) h = mix(h, t->coef[i]);
    }
    return h;
}

static bool node_eq(const Term *x, const Term *y)
{
    if (x->op != y->op || x->width != y->width || x->atom != y->atom || x->comp != y->comp || x->a != y->a ||
        x->b != y->b || x->k != y->k || x->n != y->n || !str_eq(x->name, y->name))
        return false;
    for (uint32_t i = 0; i < x->n; i++) {
        if (x->args[i] != y->args[i]) return false;
        if ((x->coef != NULL) != (y->coef != NULL)) return false;
        if (x->coef && x->coef[i] != y->coef[i]) return false;
    }
    return true;
}

static void grow(TermTable *tt)
{
    uint32_t ncap = tt->cap ? tt->cap * 2 : 64;
    while (ncap < tt->reserve) ncap *= 2;
    /* a table inside the module arena keeps its slots there too (the old
     * array is abandoned; growth is geometric) */
    const Term **ns = tt->owns ? xcalloc(ncap, sizeof(Term *)) : arena_alloc(tt->arena, sizeof(Term *) * ncap);
    for (uint32_t i = 0; i < tt->cap; i++) {
        const Term *t = tt->slots[i];
        if (!t) continue;
        uint32_t j = (uint32_t)(t->hash ^ (t->hash >> 32)) & (ncap - 1);
        while (ns[j]) j = (j + 1) & (ncap - 1);
        ns[j] = t;
    }
    if (tt->owns) free(tt->slots);
    tt->slots = ns;
    tt->cap = ncap;
}

/* Returns the unique node equal to *proto (copying it and its arrays). */
static const Term *intern(TermTable *tt, const Term *proto)
{
    if ((tt->count + 1) * 2 > tt->cap) grow(tt);
    uint64_t h = node_hash(proto);
    uint32_t j = (uint32_t)(h ^ (h >> 32)) & (tt->cap - 1);
    while (tt->slots[j]) {
        if (node_eq(tt->slots[j], proto)) return tt->slots[j];
        j = (j + 1) & (tt->cap - 1);
    }
    Term *t = arena_alloc(tt->arena, sizeof(Term));
    *t = *proto;
    t->id = tt->count++;
    t->hash = h;
    if (proto->n) {
        t->args = arena_alloc(tt->arena, sizeof(Term *) * proto->n);
        memcpy(t->args, proto->args, sizeof(Term *) * proto->n);
        if (proto->coef) {
            t->coef = arena_alloc(tt->arena, sizeof(uint64_t) * proto->n);
            memcpy(t->coef, proto->coef, sizeof(uint64_t) * proto->n);
        }
    }
    /* a standalone table copies names; a function's table keeps pointers into
     * the module, which outlives it */
    if (proto->name.len && tt->owns)
        t->name = (Str){ arena_strndup(tt->arena, proto->name.p, proto->name.len), proto->name.len };
    uint16_t d = 0;
    for (uint32_t i = 0; i < t->n; i++)
        if (t->args[i]->depth > d) d = t->args[i]->depth;
    t->depth = d < 65535 ? d + 1 : 65535;
    tt->slots[j] = t;
    return t;
}

const Term *term_const(TermTable *tt, unsigned width, uint64_t v)
{
    Term p = { 0 };
    p.op = T_CONST;
    p.width = (uint8_t)width;
    p.k = v & wmask(width);
    return intern(tt, &p);
}

const Term *term_atom(TermTable *tt, unsigned width, AtomKind kind, Str name, char comp, uint32_t a, uint32_t b)
{
    Term p = { 0 };
    p.op = T_ATOM;
    p.width = (uint8_t)width;
    p.atom = (uint8_t)kind;
    p.name = name;
    p.comp = comp;
    p.a = a;
    p.b = b;
    return intern(tt, &p);
}

const Term *term_var(TermTable *tt, unsigned width, const char *name)
{
    return term_atom(tt, width, ATOM_VAR, str_c(name), 0, 0, 0);
}

static const Term *mk(TermTable *tt, TermOp op, unsigned width, uint32_t n, const Term **args)
{
    Term p = { 0 };
    p.op = (uint8_t)op;
    p.width = (uint8_t)width;
    p.n = n;
    p.args = args;
    return intern(tt, &p);
}

/* The canonical order of operands: by structural hash, then by id (two
 * different terms with one hash are too rare to matter for stability). */
static inline bool term_before(const Term *x, const Term *y)
{
    return x->hash != y->hash ? x->hash < y->hash : x->id < y->id;
}

/* --------------------------------------------------------- linear forms */

typedef struct Lin {
    unsigned width;
    uint64_t k;
    uint32_t n, cap;
    const Term **t;
    uint64_t *c;
    const Term *tbuf[16];
    uint64_t cbuf[16];
} Lin;

static void lin_init(Lin *l, unsigned width)
{
    l->width = width;
    l->k = 0;
    l->n = 0;
    l->cap = 16;
    l->t = l->tbuf;
    l->c = l->cbuf;
}

static void lin_free(Lin *l)
{
    if (l->t != l->tbuf) {
        free(l->t);
        free(l->c);
    }
}

static void lin_add(Lin *l, const Term *x, uint64_t coef)
{
    uint64_t m = wmask(l->width);
    coef &= m;
    if (!coef) return;
    if (x->op == T_CONST) {
        l->k = (l->k + coef * x->k) & m;
        return;
    }
    if (x->op == T_ADD) {
        l->k = (l->k + coef * x->k) & m;
        for (uint32_t i = 0; i < x->n; i++) lin_add(l, x->args[i], coef * x->coef[i]);
        return;
    }
    for (uint32_t i = 0; i < l->n; i++)
        if (l->t[i] == x) {
            l->c[i] = (l->c[i] + coef) & m;
            return;
        }
    if (l->n == l->cap) {
        uint32_t nc = l->cap * 2;
        const Term **nt = xmalloc(sizeof(Term *) * nc);
        uint64_t *ncf = xmalloc(sizeof(uint64_t) * nc);
        memcpy(nt, l->t, sizeof(Term *) * l->n);
        memcpy(ncf, l->c, sizeof(uint64_t) * l->n);
        lin_free(l);
        l->t = nt;
        l->c = ncf;
        l->cap = nc;
    }
    l->t[l->n] = x;
    l->c[l->n++] = coef;
}

static const Term *lin_finish(TermTable *tt, Lin *l)
{
    /* drop zero coefficients, sort by id */
    uint32_t m = 0;
    for (uint32_t i = 0; i < l->n; i++)
        if (l->c[i]) {
            l->t[m] = l->t[i];
            l->c[m++] = l->c[i];
        }
    l->n = m;
    for (uint32_t i = 1; i < m; i++) {
        const Term *x = l->t[i];
        uint64_t cx = l->c[i];
        uint32_t j = i;
        while (j > 0 && term_before(x, l->t[j - 1])) {
            l->t[j] = l->t[j - 1];
            l->c[j] = l->c[j - 1];
            j--;
        }
        l->t[j] = x;
        l->c[j] = cx;
    }
    const Term *r;
    if (m == 0) r = term_const(tt, l->width, l->k);
    else if (m == 1 && l->c[0] == 1 && l->k == 0) r = l->t[0];
    else {
        Term p = { 0 };
        p.op = T_ADD;
        p.width = (uint8_t)l->width;
        p.k = l->k;
        p.n = m;
        p.args = l->t;
        p.coef = l->c;
        r = intern(tt, &p);
    }
    lin_free(l);
    return r;
}

const Term *term_add(TermTable *tt, const Term *x, const Term *y)
{
    Lin l;
    lin_init(&l, x->width);
    lin_add(&l, x, 1);
    lin_add(&l, y, 1);
    return lin_finish(tt, &l);
}

const Term *term_sub(TermTable *tt, const Term *x, const Term *y)
{
    Lin l;
    lin_init(&l, x->width);
    lin_add(&l, x, 1);
    lin_add(&l, y, ~0ull);
    return lin_finish(tt, &l);
}

const Term *term_scale(TermTable *tt, const Term *x, uint64_t c)
{
    Lin l;
    lin_init(&l, x->width);
    lin_add(&l, x, c);
    return lin_finish(tt, &l);
}

const Term *term_neg(TermTable *tt, const Term *x) { return term_scale(tt, x, ~0ull); }

const Term *term_not(TermTable *tt, const Term *x)
{
    /* ~x == -x - 1 in two's complement */
    Lin l;
    lin_init(&l, x->width);
    lin_add(&l, x, ~0ull);                       /* -x, its constant part included */
    l.k = (l.k + wmask(x->width)) & wmask(x->width); /* - 1 */
    return lin_finish(tt, &l);
}

/* ----------------------------------------------------------- evaluation */

static int64_t sx(uint64_t v, unsigned w)
{
    if (w >= 64) return (int64_t)v;
    uint64_t m = wmask(w);
    v &= m;
    if (v >> (w - 1)) v |= ~m;
    return (int64_t)v;
}

static uint64_t mulhi_u(uint64_t a, uint64_t b, unsigned w)
{
    if (w <= 32) return ((a * b) >> w) & wmask(w);
    unsigned __int128 p = (unsigned __int128)a * b;
    return (uint64_t)(p >> 64);
}

static uint64_t mulhi_s(uint64_t a, uint64_t b, unsigned w)
{
    if (w <= 32) return ((uint64_t)(sx(a, w) * sx(b, w)) >> w) & wmask(w);
    __int128 p = (__int128)sx(a, w) * sx(b, w);
    return (uint64_t)((unsigned __int128)p >> 64);
}

/* Value of op on constants (width w = operand width); false: undefined (division by zero). */
static bool eval_op(TermOp op, unsigned w, unsigned outw, uint64_t a, uint64_t b, uint64_t c, uint64_t *r)
{
    uint64_t m = wmask(w);
    a &= m;
    b &= m;
    switch (op) {
    case T_MUL: *r = a * b; break;
    case T_MULHI_U: *r = mulhi_u(a, b, w); break;
    case T_MULHI_S: *r = mulhi_s(a, b, w); break;
    case T_UDIV: if (!b) return false; *r = a / b; break;
    case T_UREM: if (!b) return false; *r = a % b; break;
    case T_SDIV:
        if (!b) return false;
        if (sx(a, w) == (w >= 64 ? INT64_MIN : -(int64_t)(1ull << (w - 1))) && sx(b, w) == -1) *r = a;
        else *r = (uint64_t)(sx(a, w) / sx(b, w));
        break;
    case T_SREM:
        if (!b) return false;
        if (sx(b, w) == -1) *r = 0;
        else *r = (uint64_t)(sx(a, w) % sx(b, w));
        break;
    case T_AND: *r = a & b; break;
    case T_OR: *r = a | b; break;
    case T_XOR: *r = a ^ b; break;
    case T_SHL: *r = b >= w ? 0 : a << b; break;
    case T_LSHR: *r = b >= w ? 0 : a >> b; break;
    case T_ASHR: *r = b >= w ? (uint64_t)(sx(a, w) < 0 ? -1 : 0) : (uint64_t)(sx(a, w) >> b); break;
    case T_EQ: *r = a == b; break;
    case T_ULT: *r = a < b; break;
    case T_ULE: *r = a <= b; break;
    case T_SLT: *r = sx(a, w) < sx(b, w); break;
    case T_SLE: *r = sx(a, w) <= sx(b, w); break;
    case T_UMIN: *r = a < b ? a : b; break;
    case T_UMAX: *r = a > b ? a : b; break;
    case T_SMIN: *r = sx(a, w) < sx(b, w) ? a : b; break;
    case T_SMAX: *r = sx(a, w) > sx(b, w) ? a : b; break;
    case T_ZEXT: *r = a; break;
    case T_SEXT: *r = (uint64_t)sx(a, w); break;
    case T_TRUNC: *r = a; break;
    case T_ITE: *r = (a & 1) ? b : c; break;
    default: return false;
    }
    *r &= wmask(outw);
    return true;
}

static bool is_commutative(TermOp op)
{
    return op == T_MUL || op == T_MULHI_U || op == T_MULHI_S || op == T_AND || op == T_OR || op == T_XOR ||
           op == T_EQ || op == T_UMIN || op == T_UMAX || op == T_SMIN || op == T_SMAX;
}

static bool is_compare(TermOp op) { return op == T_EQ || op == T_ULT || op == T_ULE || op == T_SLT || op == T_SLE; }

/* ----------------------------------------------------------- operations */

const Term *term_unop(TermTable *tt, TermOp op, unsigned width, const Term *x)
{
    unsigned xw = x->width;
    if (op == T_TRUNC && width > xw) op = T_ZEXT;
    if ((op == T_ZEXT || op == T_SEXT) && width < xw) op = T_TRUNC;
    if (width == xw) return x;
    if (x->op == T_CONST) {
        uint64_t r;
        eval_op(op, xw, width, x->k, 0, 0, &r);
        return term_const(tt, width, r);
    }
    if (op == T_ZEXT && x->op == T_ZEXT) return term_unop(tt, T_ZEXT, width, x->args[0]);
    if (op == T_SEXT && x->op == T_SEXT) return term_unop(tt, T_SEXT, width, x->args[0]);
    if (op == T_SEXT && x->op == T_ZEXT) return term_unop(tt, T_ZEXT, width, x->args[0]);   /* top bit is 0 */
    if (op == T_TRUNC) {
        switch (x->op) {
        case T_ADD: {
            Lin l;
            lin_init(&l, width);
            l.k = x->k & wmask(width);
            for (uint32_t i = 0; i < x->n; i++) lin_add(&l, term_unop(tt, T_TRUNC, width, x->args[i]), x->coef[i]);
            return lin_finish(tt, &l);
        }
        case T_MUL: case T_AND: case T_OR: case T_XOR:
            return term_binop(tt, (TermOp)x->op, term_unop(tt, T_TRUNC, width, x->args[0]),
                              term_unop(tt, T_TRUNC, width, x->args[1]));
        case T_ZEXT: case T_SEXT: {
            const Term *y = x->args[0];
            if (y->width == width) return y;
            if (y->width > width) return term_unop(tt, T_TRUNC, width, y);
            return term_unop(tt, (TermOp)x->op, width, y);
        }
        case T_TRUNC:
            return term_unop(tt, T_TRUNC, width, x->args[0]);
        case T_ITE:
            return term_ite(tt, x->args[0], term_unop(tt, T_TRUNC, width, x->args[1]),
                            term_unop(tt, T_TRUNC, width, x->args[2]));
        default:
            break;
        }
    }
    const Term *a[1] = { x };
    return mk(tt, op, width, 1, a);
}

const Term *term_mul(TermTable *tt, const Term *x, const Term *y)
{
    if (x->op == T_CONST) return term_scale(tt, y, x->k);
    if (y->op == T_CONST) return term_scale(tt, x, y->k);
    /* a scaled term times something: pull the scale out (c·a)·b = c·(a·b) */
    if (x->op == T_ADD && x->k == 0 && x->n == 1) return term_scale(tt, term_mul(tt, x->args[0], y), x->coef[0]);
    if (y->op == T_ADD && y->k == 0 && y->n == 1) return term_scale(tt, term_mul(tt, x, y->args[0]), y->coef[0]);
    const Term *a[2] = { x, y };
    if (term_before(y, x)) {
        a[0] = y;
        a[1] = x;
    }
    return mk(tt, T_MUL, x->width, 2, a);
}

const Term *term_ite(TermTable *tt, const Term *c, const Term *x, const Term *y)
{
    if (c->op == T_CONST) return (c->k & 1) ? x : y;
    if (x == y) return x;
    /* ite(c, 1, 0) on one bit is c itself */
    if (x->width == 1 && c->width == 1 && x->op == T_CONST && y->op == T_CONST) return x->k ? c : term_not(tt, c);
    const Term *a[3] = { c, x, y };
    return mk(tt, T_ITE, x->width, 3, a);
}

const Term *term_binop(TermTable *tt, TermOp op, const Term *x, const Term *y)
{
    switch (op) {
    case T_ADD: return term_add(tt, x, y);
    case T_MUL: return term_mul(tt, x, y);
    default: break;
    }
    unsigned w = x->width;
    /* shift amounts take the width of the shifted value; a wider amount is
     * clamped first (PTX clamps amounts above the width) */
    if (op == T_SHL || op == T_LSHR || op == T_ASHR) {
        if (y->width > w) {
            const Term *lim = term_const(tt, y->width, w);
            y = term_ite(tt, term_binop(tt, T_ULT, y, lim), term_unop(tt, T_TRUNC, w, y), term_const(tt, w, w));
        } else if (y->width < w) {
            y = term_unop(tt, T_ZEXT, w, y);
        }
        if (y->op == T_CONST) {
            if (y->k >= w) {
                if (op == T_ASHR) return term_binop(tt, T_ASHR, x, term_const(tt, w, w - 1));
                return term_const(tt, w, 0);
            }
            if (y->k == 0) return x;
            if (op == T_SHL) return term_scale(tt, x, 1ull << y->k);
        }
    } else if (y->width != w) {
        /* callers keep widths equal; be forgiving: extend the narrower */
        if (y->width < w) y = term_unop(tt, T_ZEXT, w, y);
        else x = term_unop(tt, T_ZEXT, y->width, x), w = y->width;
    }
    unsigned outw = is_compare(op) ? 1 : w;
    if (x->op == T_CONST && y->op == T_CONST) {
        uint64_t r;
        if (eval_op(op, w, outw, x->k, y->k, 0, &r)) return term_const(tt, outw, r);
    }
    uint64_t m = wmask(w);
    switch (op) {
    case T_AND:
        if (x == y) return x;
        if (x->op == T_CONST) { const Term *t = x; x = y; y = t; }
        if (y->op == T_CONST && y->k == 0) return y;
        if (y->op == T_CONST && y->k == m) return x;
        break;
    case T_OR:
        if (x == y) return x;
        if (x->op == T_CONST) { const Term *t = x; x = y; y = t; }
        if (y->op == T_CONST && y->k == 0) return x;
        if (y->op == T_CONST && y->k == m) return y;
        break;
    case T_XOR:
        if (x == y) return term_const(tt, w, 0);
        if (x->op == T_CONST) { const Term *t = x; x = y; y = t; }
        if (y->op == T_CONST && y->k == 0) return x;
        if (y->op == T_CONST && y->k == m) return term_not(tt, x);
        break;
    case T_EQ: {
        if (x == y) return term_const(tt, 1, 1);
        const Term *d = term_sub(tt, x, y);
        if (d->op == T_CONST) return term_const(tt, 1, d->k == 0);
        break;
    }
    case T_ULT: case T_SLT:
        if (x == y) return term_const(tt, 1, 0);
        break;
    case T_ULE: case T_SLE:
        if (x == y) return term_const(tt, 1, 1);
        break;
    case T_UMIN: case T_UMAX: case T_SMIN: case T_SMAX:
        if (x == y) return x;
        break;
    case T_UDIV: case T_SDIV:
        if (y->op == T_CONST && y->k == 1) return x;
        break;
    case T_UREM: case T_SREM:
        if (y->op == T_CONST && y->k == 1) return term_const(tt, w, 0);
        break;
    default:
        break;
    }
    const Term *a[2] = { x, y };
    if (is_commutative(op) && term_before(y, x)) {
        a[0] = y;
        a[1] = x;
    }
    return mk(tt, op, outw, 2, a);
}

const Term *term_uf(TermTable *tt, Str name, unsigned width, const Term *const *args, uint32_t n)
{
    Term p = { 0 };
    p.op = T_UF;
    p.width = (uint8_t)width;
    p.name = name;
    p.n = n;
    p.args = (const Term **)args;
    return intern(tt, &p);
}

/* Rebuild x with new arguments through the normalising constructors. */
static const Term *rebuild(TermTable *tt, const Term *x, const Term **na)
{
    switch (x->op) {
    case T_CONST: case T_ATOM:
        return x;
    case T_ADD: {
        Lin l;
        lin_init(&l, x->width);
        l.k = x->k;
        for (uint32_t i = 0; i < x->n; i++) lin_add(&l, na[i], x->coef[i]);
        return lin_finish(tt, &l);
    }
    case T_ZEXT: case T_SEXT: case T_TRUNC:
        return term_unop(tt, (TermOp)x->op, x->width, na[0]);
    case T_ITE:
        return term_ite(tt, na[0], na[1], na[2]);
    case T_UF:
        return term_uf(tt, x->name, x->width, na, x->n);
    default:
        return term_binop(tt, (TermOp)x->op, na[0], na[1]);
    }
}

typedef struct Memo {
    const Term **v;
    uint32_t n;
} Memo;

static const Term *subst_rec(TermTable *tt, const Term *x, const Term *from, const Term *to, Memo *mm)
{
    if (x == from) return to;
    if (x->op == T_CONST || x->op == T_ATOM) return x;
    if (x->id < mm->n && mm->v[x->id]) return mm->v[x->id];
    const Term *buf[8];
    const Term **na = x->n <= 8 ? buf : xmalloc(sizeof(Term *) * x->n);
    bool same = true;
    for (uint32_t i = 0; i < x->n; i++) {
        na[i] = subst_rec(tt, x->args[i], from, to, mm);
        same &= na[i] == x->args[i];
    }
    const Term *r = same ? x : rebuild(tt, x, na);
    if (na != buf) free(na);
    if (x->id < mm->n) mm->v[x->id] = r;
    return r;
}

const Term *term_subst(TermTable *tt, const Term *x, const Term *from, const Term *to)
{
    if (!x || !from || !to) return x;
    Memo mm = { xcalloc(tt->count + 1, sizeof(Term *)), tt->count };
    const Term *r = subst_rec(tt, x, from, to, &mm);
    free(mm.v);
    return r;
}

static bool mentions_rec(const Term *x, const Term *a, uint8_t *seen)
{
    if (x == a) return true;
    if (seen[x->id]) return false;
    seen[x->id] = 1;
    for (uint32_t i = 0; i < x->n; i++)
        if (mentions_rec(x->args[i], a, seen)) return true;
    return false;
}

bool term_mentions(const Term *x, const Term *a)
{
    if (!x || !a) return false;
    if (x == a) return true;
    if (x->n == 0) return false;
    uint32_t maxid = x->id > a->id ? x->id : a->id;
    uint8_t *seen = xcalloc(maxid + 1, 1);
    bool r = mentions_rec(x, a, seen);
    free(seen);
    return r;
}

bool term_linear_in(TermTable *tt, const Term *x, const Term *a, uint64_t *c)
{
    (void)tt;
    *c = 0;
    if (x == a) {
        *c = 1;
        return true;
    }
    if (x->op == T_ADD) {
        for (uint32_t i = 0; i < x->n; i++) {
            if (x->args[i] == a) *c = x->coef[i];
            else if (term_mentions(x->args[i], a)) return false;
        }
        return true;
    }
    return !term_mentions(x, a);
}

static bool solve_at(TermTable *tt, const Term *A, const Term *B, const Term *a, int64_t lo, int64_t hi, int64_t *N)
{
    uint64_t c;
    if (!term_linear_in(tt, A, a, &c)) return false;
    const Term *d = term_sub(tt, B, A);
    if (d->op != T_CONST) return false;
    uint64_t m = wmask(A->width);
    /* smallest |N| first */
    for (int64_t k = 0; k <= (hi > -lo ? hi : -lo); k++) {
        int64_t cand[2] = { k, -k };
        for (int j = 0; j < (k ? 2 : 1); j++) {
            int64_t v = cand[j];
            if (v < lo || v > hi) continue;
            if (((c * (uint64_t)v) & m) == d->k) {
                *N = v;
                return true;
            }
        }
    }
    return false;
}

bool term_solve_shift(TermTable *tt, const Term *A, const Term *B, const Term *a, int64_t lo, int64_t hi, int64_t *N)
{
    if (A->width != B->width || a->width > A->width) return false;
    if (solve_at(tt, A, B, a, lo, hi, N)) return true;
    /* addresses wider than the atom (sext64/zext64 of a 32-bit index): the
     * low bits are affine; their N is the only candidate */
    if (A->width > a->width)
        return solve_at(tt, term_unop(tt, T_TRUNC, a->width, A), term_unop(tt, T_TRUNC, a->width, B), a, lo, hi, N);
    return false;
}

/* ------------------------------------------------------------ evaluation */

static bool eval_rec(const Term *x, TermAtomValue val, void *ctx, uint64_t *memo, uint8_t *have, uint64_t *out)
{
    if (have[x->id]) {
        *out = memo[x->id];
        return true;
    }
    uint64_t r = 0, m = wmask(x->width);
    switch (x->op) {
    case T_CONST: r = x->k; break;
    case T_ATOM:
        if (!val || !val(ctx, x, &r)) return false;
        r &= m;
        break;
    case T_ADD:
        r = x->k;
        for (uint32_t i = 0; i < x->n; i++) {
            uint64_t v;
            if (!eval_rec(x->args[i], val, ctx, memo, have, &v)) return false;
            r += x->coef[i] * v;
        }
        r &= m;
        break;
    case T_UF:
        return false;
    default: {
        uint64_t v[3] = { 0, 0, 0 };
        for (uint32_t i = 0; i < x->n && i < 3; i++)
            if (!eval_rec(x->args[i], val, ctx, memo, have, &v[i])) return false;
        unsigned w = x->op == T_ITE ? x->width : x->args[0]->width;
        if (x->op == T_ITE) {
            r = (v[0] & 1) ? v[1] : v[2];
        } else if (!eval_op((TermOp)x->op, w, x->width, v[0], v[1], v[2], &r)) {
            return false;
        }
        break;
    }
    }
    memo[x->id] = r;
    have[x->id] = 1;
    *out = r;
    return true;
}

bool term_eval(const Term *x, TermAtomValue val, void *ctx, uint64_t *out)
{
    uint64_t *memo = xmalloc(sizeof(uint64_t) * (x->id + 1));
    uint8_t *have = xcalloc(x->id + 1, 1);
    bool ok = eval_rec(x, val, ctx, memo, have, out);
    free(memo);
    free(have);
    return ok;
}

/* -------------------------------------------------------------- printing */

typedef struct PBuf {
    char *p;
    size_t cap, len;   /* len may exceed cap: the would-be length */
} PBuf;

static void pb_puts(PBuf *b, const char *s, size_t n)
{
    if (b->len < b->cap) {
        size_t room = b->cap - b->len;
        memcpy(b->p + b->len, s, n < room ? n : room);
    }
    b->len += n;
}

static void pb_printf(PBuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void pb_printf(PBuf *b, const char *fmt, ...)
{
    char tmp[160];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (n > 0) pb_puts(b, tmp, (size_t)n < sizeof tmp ? (size_t)n : sizeof tmp - 1);
}

static void print_num(PBuf *b, uint64_t v, unsigned w)
{
    int64_t s = sx(v, w);
    if (w > 1 && s < 0 && s > -65536) pb_printf(b, "%lld", (long long)s);
    else if (v < 65536) pb_printf(b, "%llu", (unsigned long long)v);
    else pb_printf(b, "0x%llx", (unsigned long long)v);
}

static void print_rec(PBuf *b, const Term *x, bool paren);

static void print_atom(PBuf *b, const Term *x)
{
    switch (x->atom) {
    case ATOM_SPECIAL:
        pb_printf(b, "%.*s", STR_FMT(x->name));
        if (x->comp) pb_printf(b, ".%c", x->comp);
        break;
    case ATOM_PARAM:
        pb_printf(b, "param(%.*s", STR_FMT(x->name));
        if (x->a) pb_printf(b, "+%u", x->a);
        pb_puts(b, ")", 1);
        break;
    case ATOM_SYMADDR: pb_printf(b, "&%.*s", STR_FMT(x->name)); break;
    case ATOM_ITER: pb_printf(b, "iter(L%u)", x->a); break;
    case ATOM_LOOPVAL: pb_printf(b, "loop(L%u:%.*s)", x->a, STR_FMT(x->name)); break;
    case ATOM_PHI: pb_printf(b, "phi(%.*s@v%u)", STR_FMT(x->name), x->b); break;
    case ATOM_OPAQUE: pb_printf(b, "opaque(%.*s@v%u)", STR_FMT(x->name), x->b); break;
    case ATOM_MEM: pb_printf(b, "mem@v%u", x->b); break;
    default: pb_printf(b, "%.*s", STR_FMT(x->name)); break;
    }
}

static const char *op_text(TermOp op)
{
    switch (op) {
    case T_AND: return " & ";
    case T_OR: return " | ";
    case T_XOR: return " ^ ";
    case T_SHL: return " << ";
    case T_LSHR: return " >> ";
    case T_ASHR: return " >>s ";
    case T_EQ: return " == ";
    case T_ULT: return " <u ";
    case T_ULE: return " <=u ";
    case T_SLT: return " <s ";
    case T_SLE: return " <=s ";
    default: return NULL;
    }
}

static const char *fn_text(TermOp op)
{
    switch (op) {
    case T_MULHI_U: return "mulhi.u";
    case T_MULHI_S: return "mulhi.s";
    case T_UDIV: return "udiv";
    case T_SDIV: return "sdiv";
    case T_UREM: return "urem";
    case T_SREM: return "srem";
    case T_UMIN: return "umin";
    case T_UMAX: return "umax";
    case T_SMIN: return "smin";
    case T_SMAX: return "smax";
    default: return "?";
    }
}

static void print_rec(PBuf *b, const Term *x, bool paren)
{
    if (b->len > b->cap) return;   /* budget exhausted */
    switch (x->op) {
    case T_CONST: print_num(b, x->k, x->width); return;
    case T_ATOM: print_atom(b, x); return;
    case T_ADD: {
        if (paren) pb_puts(b, "(", 1);
        for (uint32_t i = 0; i < x->n; i++) {
            int64_t c = sx(x->coef[i], x->width);
            bool neg = c < 0 && x->width > 1;
            uint64_t mag = neg ? (uint64_t)(-c) : x->coef[i];
            if (i == 0) { if (neg) pb_puts(b, "-", 1); }
            else pb_puts(b, neg ? " - " : " + ", 3);
            if (mag != 1) {
                print_num(b, mag, 64);
                pb_puts(b, "*", 1);
            }
            print_rec(b, x->args[i], mag != 1 || x->args[i]->op == T_ADD);
        }
        if (x->k) {
            int64_t k = sx(x->k, x->width);
            if (k < 0 && k > -65536) pb_printf(b, " - %lld", -(long long)k);
            else {
                pb_puts(b, " + ", 3);
                print_num(b, x->k, x->width);
            }
        }
        if (paren) pb_puts(b, ")", 1);
        return;
    }
    case T_MUL:
        print_rec(b, x->args[0], true);
        pb_puts(b, "*", 1);
        print_rec(b, x->args[1], true);
        return;
    case T_ZEXT: case T_SEXT: case T_TRUNC:
        pb_printf(b, "%s%u(", x->op == T_ZEXT ? "zext" : x->op == T_SEXT ? "sext" : "trunc", x->width);
        print_rec(b, x->args[0], false);
        pb_puts(b, ")", 1);
        return;
    case T_ITE:
        pb_puts(b, "(", 1);
        print_rec(b, x->args[0], true);
        pb_puts(b, " ? ", 3);
        print_rec(b, x->args[1], true);
        pb_puts(b, " : ", 3);
        print_rec(b, x->args[2], true);
        pb_puts(b, ")", 1);
        return;
    case T_UF:
        pb_printf(b, "%.*s(", STR_FMT(x->name));
        for (uint32_t i = 0; i < x->n; i++) {
            if (i) pb_puts(b, ", ", 2);
            print_rec(b, x->args[i], false);
        }
        pb_puts(b, ")", 1);
        return;
    default: {
        const char *t = op_text((TermOp)x->op);
        if (t) {
            pb_puts(b, "(", 1);
            print_rec(b, x->args[0], true);
            pb_puts(b, t, strlen(t));
            print_rec(b, x->args[1], true);
            pb_puts(b, ")", 1);
        } else {
            pb_printf(b, "%s(", fn_text((TermOp)x->op));
            for (uint32_t i = 0; i < x->n; i++) {
                if (i) pb_puts(b, ", ", 2);
                print_rec(b, x->args[i], false);
            }
            pb_puts(b, ")", 1);
        }
        return;
    }
    }
}

size_t term_format(char *buf, size_t cap, const Term *x)
{
    PBuf b = { buf, cap ? cap - 1 : 0, 0 };
    if (!x) pb_puts(&b, "?", 1);
    else print_rec(&b, x, false);
    if (cap) {
        size_t end = b.len < b.cap ? b.len : b.cap;
        buf[end] = 0;
        if (b.len > b.cap && b.cap >= 3) memcpy(buf + b.cap - 3, "...", 3);
    }
    return b.len;
}

void term_print(FILE *out, const Term *x)
{
    char buf[1024];
    term_format(buf, sizeof buf, x);
    fputs(buf, out);
}
