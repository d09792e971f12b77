/* operands.c — operands of instructions: registers (declared or special),
 * symbols, literals with their exact bits, [addresses], {vectors},
 * (lists), d|p pairs; other constant expressions are kept as text. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ir/fatal.h"
#include "ir/regs.h"
#include "parser/build.h"

static bool decl_names(const Decl *d, Str name)
{
    for (uint32_t k = 0; k < d->ndecl; k++)
        if (str_eq(d->decls[k].name, name)) return true;
    return false;
}

/* Is `name` a variable or parameter (not a register) visible here?  Only
 * asked on the rare path of a %-name that is not a register. */
static bool symbol_declared(ParseCtx *c, Str name)
{
    for (uint32_t i = 0; i < c->npct_vars; i++)
        if (str_eq(c->pct_vars[i], name)) return true;
    Function *fn = c->fn;
    for (uint32_t i = 0; i < fn->nparam; i++) if (decl_names(fn->params[i], name)) return true;
    for (uint32_t i = 0; i < fn->nret; i++) if (decl_names(fn->ret[i], name)) return true;
    FOR_EACH_BLOCK(b, fn)
        FOR_EACH_STMT(s, b)
            if (s->kind == STMT_DECL && !str_eqc(s->u.decl->space, ".reg") && decl_names(s->u.decl, name)) return true;
    return false;
}

bool op_reg(ParseCtx *c, Operand *o, Str text, bool neg, const PtxLoc *loc)
{
    memset(o, 0, sizeof *o);
    o->kind = OPND_REG;
    o->flags = neg ? OPNDF_NEG : 0;
    Str name = text;
    const char *dot = memchr(text.p, '.', text.len);
    if (dot) {  /* %tid.x, a vector component, or a video selector %r1.b0 */
        name.len = (size_t)(dot - text.p);
        Str suffix = { dot + 1, text.len - name.len - 1 };
        if (suffix.len == 1) o->comp = suffix.p[0];
        else if (!opnd_sel_parse(suffix, &o->sel))
            return build_error(c, loc->first_line, loc->first_column, "invalid operand selector '.%.*s'", STR_FMT(suffix));
    }
    if (!c->fn)
        return build_error(c, loc->first_line, loc->first_column, "register '%.*s' outside a function body", STR_FMT(text));
    Reg *r = build_lookup_reg(c, name);
    if (!r && !dot && symbol_declared(c, name)) {
        /* identifiers may start with '%': a variable, not a register */
        o->kind = OPND_SYM;
        o->text = text.p;
        o->textlen = (uint32_t)text.len;
        return true;
    }
    if (!r)
        return build_error(c, loc->first_line, loc->first_column, "undeclared register '%.*s'", STR_FMT(name));
    o->u.reg = r;
    return true;
}

bool op_ident(ParseCtx *c, Operand *o, Str text, bool neg)
{
    memset(o, 0, sizeof *o);
    o->flags = neg ? OPNDF_NEG : 0;
    /* registers may be declared without '%' (e.g. nvcc's temp_param_reg) */
    Reg *r = c->fn ? build_lookup_reg(c, text) : NULL;
    if (r && !r->special) {
        o->kind = OPND_REG;
        o->u.reg = r;
        return true;
    }
    o->kind = OPND_SYM;
    o->text = text.p;
    o->textlen = (uint32_t)text.len;
    return true;
}

static bool parse_int_text(Str t, bool negative, int64_t *out)
{
    char buf[80];
    if (t.len >= sizeof buf) return false;
    size_t n = t.len;
    memcpy(buf, t.p, n);
    buf[n] = 0;
    if (n && (buf[n - 1] == 'U')) buf[--n] = 0;
    errno = 0;
    char *end;
    unsigned long long v;
    if (n > 2 && buf[0] == '0' && (buf[1] == 'b' || buf[1] == 'B')) v = strtoull(buf + 2, &end, 2);
    else v = strtoull(buf, &end, 0); /* 0x hex, 0 octal, decimal */
    if (errno || *end) return false;
    *out = (int64_t)(negative ? 0 - v : v);
    return true;
}

bool op_int(ParseCtx *c, Operand *o, Str num, bool negative, const PtxLoc *loc)
{
    memset(o, 0, sizeof *o);
    o->kind = OPND_INT;
    if (!parse_int_text(num, negative, &o->value))
        return build_error(c, loc->first_line, loc->first_column, "invalid integer '%.*s'", STR_FMT(num));
    if (negative) {
        char *t = arena_printf(&c->m->arena, "-%.*s", STR_FMT(num));
        o->text = t;
        o->textlen = (uint32_t)num.len + 1;
    } else {
        o->text = num.p;
        o->textlen = (uint32_t)num.len;
    }
    return true;
}

bool op_float(ParseCtx *c, Operand *o, Str num, bool negative, const PtxLoc *loc)
{
    memset(o, 0, sizeof *o);
    o->kind = OPND_FLOAT;
    char buf[80];
    if (num.len >= sizeof buf)
        return build_error(c, loc->first_line, loc->first_column, "invalid number");
    memcpy(buf, num.p, num.len);
    buf[num.len] = 0;
    if ((buf[1] == 'f' || buf[1] == 'F') && buf[0] == '0') {
        uint32_t bits = (uint32_t)strtoul(buf + 2, NULL, 16);
        if (negative) bits ^= 0x80000000u;
        o->value = bits;
    } else if ((buf[1] == 'd' || buf[1] == 'D') && buf[0] == '0') {
        uint64_t bits = strtoull(buf + 2, NULL, 16);
        if (negative) bits ^= 0x8000000000000000ull;
        o->value = (int64_t)bits;
    } else {
        double d = strtod(buf, NULL);
        if (negative) d = -d;
        memcpy(&o->value, &d, sizeof d);
    }
    if (negative) {
        o->text = arena_printf(&c->m->arena, "-%.*s", STR_FMT(num));
        o->textlen = (uint32_t)num.len + 1;
    } else {
        o->text = num.p;
        o->textlen = (uint32_t)num.len;
    }
    return true;
}

static Operand expr_text(ParseCtx *c, const PtxLoc *loc)
{
    Operand o = { 0 };
    o.kind = OPND_EXPR;
    o.text = c->m->buf + loc->begin;
    o.textlen = loc->end - loc->begin;
    return o;
}

/* A parenthesized constant, "(4*2)", is a one-element list to the
 * grammar; in an expression it is the constant. */
static const Operand *unparen(const Operand *o)
{
    while (o->kind == OPND_LIST && o->n == 1) o = &o->u.elems[0];
    return o;
}

/* Folds a constant expression of two integers.  Only where signed and
 * unsigned 64-bit arithmetic agree (PTX picks by the operands' types),
 * so '/', '%', '>>' and comparisons need non-negative operands; false
 * leaves the expression as text. */
static bool fold_int(int op, int64_t x, int64_t y, int64_t *r)
{
    uint64_t ux = (uint64_t)x, uy = (uint64_t)y;
    bool nonneg = x >= 0 && y >= 0;
    switch (op) {
    case '+': *r = (int64_t)(ux + uy); return true;
    case '-': *r = (int64_t)(ux - uy); return true;
    case '*': *r = (int64_t)(ux * uy); return true;
    case '&': *r = (int64_t)(ux & uy); return true;
    case '|': *r = (int64_t)(ux | uy); return true;
    case '^': *r = (int64_t)(ux ^ uy); return true;
    case 'L': if (uy > 63) return false; *r = (int64_t)(ux << uy); return true;
    case 'R': if (!nonneg || uy > 63) return false; *r = x >> y; return true;
    case '/': if (!nonneg || !y) return false; *r = x / y; return true;
    case '%': if (!nonneg || !y) return false; *r = x % y; return true;
    case '<': if (!nonneg) return false; *r = x < y; return true;
    case '>': if (!nonneg) return false; *r = x > y; return true;
    case 'l': if (!nonneg) return false; *r = x <= y; return true;
    case 'g': if (!nonneg) return false; *r = x >= y; return true;
    case '=': *r = x == y; return true;
    case 'n': *r = x != y; return true;
    case 'A': *r = x && y; return true;
    case 'O': *r = x || y; return true;
    default: return false;
    }
}

/* A folded constant: its value, and its source text for printing. */
static void folded(ParseCtx *c, Operand *o, int64_t v, const PtxLoc *loc)
{
    memset(o, 0, sizeof *o);
    o->kind = OPND_INT;
    o->flags = OPNDF_FOLDED;
    o->value = v;
    o->text = c->m->buf + loc->begin;
    o->textlen = loc->end - loc->begin;
}

static bool is_pair_side(const Operand *o)
{
    return (o->kind == OPND_REG && !o->value) || o->kind == OPND_SINK;
}

bool op_binary(ParseCtx *c, Operand *o, const Operand *a, int op, const Operand *b, const PtxLoc *loc)
{
    const Operand *pa = unparen(a), *pb = unparen(b);
    /* reg+imm, sym+imm, sym-imm: an offset (nvcc writes [%rd1+-4]; people
     * write [%rd1+8-4] and [buf+4*3]); the register stays a register */
    if ((op == '+' || op == '-') && (a->kind == OPND_REG || a->kind == OPND_SYM) &&
        !(a->flags & (OPNDF_NEG | OPNDF_MINUS)) && !(a->kind == OPND_REG && (a->comp || a->sel)) &&
        pb->kind == OPND_INT) {
        *o = *a;
        o->value = (int64_t)((uint64_t)a->value + (op == '+' ? (uint64_t)pb->value : 0 - (uint64_t)pb->value));
        return true;
    }
    int64_t v;
    if (pa->kind == OPND_INT && pb->kind == OPND_INT && fold_int(op, pa->value, pb->value, &v)) {
        folded(c, o, v, loc);
        return true;
    }
    /* d|p destinations */
    if (op == '|' && is_pair_side(a) && is_pair_side(b)) {
        Operand *e = ARENA_ARRAY(&c->m->arena, Operand, 2);
        e[0] = *a;
        e[1] = *b;
        memset(o, 0, sizeof *o);
        o->kind = OPND_PAIR;
        o->n = 2;
        o->u.elems = e;
        return true;
    }
    *o = expr_text(c, loc);
    return true;
}

bool op_unary(ParseCtx *c, Operand *o, int op, const Operand *a, const PtxLoc *loc)
{
    const Operand *pa = unparen(a);
    if (pa->kind == OPND_INT && (pa != a || (pa->flags & OPNDF_FOLDED))) {  /* -(2+3), ~(1<<4) */
        uint64_t x = (uint64_t)pa->value;
        folded(c, o, (int64_t)(op == '-' ? 0 - x : op == '~' ? ~x : (uint64_t)!x), loc);
        return true;
    }
    if (op == '-' && a->kind == OPND_REG && !a->flags && !a->comp && !a->value) {  /* vmad's -%r2.b1 */
        *o = *a;
        o->flags |= OPNDF_MINUS;
        return true;
    }
    if (op == '-' && (a->kind == OPND_INT || a->kind == OPND_FLOAT) && a->text && a->text[0] != '-') {
        *o = *a;
        if (a->kind == OPND_INT) o->value = (int64_t)(0 - (uint64_t)a->value); /* wraps like PTX */
        else o->value = a->value ^ (a->textlen >= 2 && (a->text[1] == 'f' || a->text[1] == 'F') ? (int64_t)0x80000000 : INT64_MIN);
        /* text: "-" and the literal (blanks between them dropped) */
        char *t = arena_printf(&c->m->arena, "-%.*s", (int)a->textlen, a->text);
        o->text = t;
        o->textlen = a->textlen + 1;
        return true;
    }
    if (op == '!' && (a->kind == OPND_REG || a->kind == OPND_SYM) && !(a->flags & OPNDF_NEG) && !a->value) {
        *o = *a;
        o->flags |= OPNDF_NEG;
        return true;
    }
    *o = expr_text(c, loc);
    return true;
}

bool op_group(ParseCtx *c, Operand *o, int kind, uint32_t start, const PtxLoc *loc)
{
    uint32_t n = c->osp - start;
    if (n > 255) return build_error(c, loc->first_line, loc->first_column, "too many elements in a list (%u)", n);
    Operand *e = ARENA_ARRAY(&c->m->arena, Operand, n ? n : 1);
    if (n) memcpy(e, c->ostk + start, sizeof(Operand) * n);
    c->osp = start;
    memset(o, 0, sizeof *o);
    o->kind = (uint8_t)kind;
    o->n = (uint8_t)n;
    o->u.elems = e;
    if (kind == OPND_ADDR && n == 1) {
        /* [base+off]: the offset belongs to the address */
        o->value = e[0].value;
        if (e[0].kind == OPND_REG || e[0].kind == OPND_SYM) e[0].value = 0;
        else o->value = 0;
    }
    return true;
}
