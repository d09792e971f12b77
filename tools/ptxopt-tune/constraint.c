/* constraint.c — --constraint=EXPR: which points of the space to keep
 * (man/ptxopt-tune.1, CONSTRAINTS).
 *
 * Kernel Tuner calls them restrictions, CLTune constraints: a condition
 * between the dimensions' values that a point must meet to be built at
 * all, e.g. "maxnreg == off || bypass == off" (never both at once) or
 * "bypass.threshold <= warps / 2".  The grammar (C's precedence; "and",
 * "or", "not" may stand for &&, ||, !):
 *
 *   expr    := or
 *   or      := and { "||" and }
 *   and     := not { "&&" not }
 *   not     := "!" not | cmp
 *   cmp     := sum [ ("==" | "!=" | "<" | "<=" | ">" | ">=") sum ]
 *   sum     := prod { ("+" | "-") prod }
 *   prod    := unary { ("*" | "/" | "%") unary }
 *   unary   := "-" unary | primary
 *   primary := NUMBER | "STRING" | 'STRING' | off | NAME [ "." KEY ] | "(" expr ")"
 *
 * NAME is a dimension (its value in the point: off, a number when the value
 * reads as one, else the word) or, when no dimension has that name, `block`
 * (threads per block) or `warps` (warps per block) of the kernel.
 * NAME.KEY is the KEY=VALUE field of a value made of such fields
 * ("threshold=2;form=pairs;op=cg": bypass.threshold is 2, bypass.op is
 * "cg"); off when the dimension is off.
 *
 * Why the rules for off are what they are: off is not a number, so it is
 * equal only to off, "<" and its kin are false for it, and arithmetic on it
 * is an error (a constraint that means "maxnreg above 64 when it is on"
 * says so: maxnreg == off || maxnreg > 64).  An error stops the run: a
 * constraint that cannot be evaluated must not drop points silently. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/ptxopt-tune/tune.h"
#include "ir/fatal.h"

typedef enum { N_NUM, N_STR, N_OFF, N_NAME, N_NEG, N_NOT, N_BIN } NodeKind;

typedef struct CNode {
    NodeKind kind;
    char op[3];                  /* N_BIN: "||", "&&", "==", "<", "+", ... */
    double num;
    char *str;                   /* N_STR, N_NAME */
    char *key;                   /* N_NAME: .KEY, or NULL */
    struct CNode *a, *b;
} CNode;

/* ------------------------------------------------------------- parser */

typedef struct Parser {
    const char *text, *p;
    const char *const *names;
    int nnames;
    char *err;
    size_t errsz;
    bool failed;
} Parser;

static void perr(Parser *ps, const char *what)
{
    if (ps->failed) return;
    ps->failed = true;
    snprintf(ps->err, ps->errsz, "--constraint='%s': %s at column %d", ps->text, what, (int)(ps->p - ps->text) + 1);
}

static void skip_ws(Parser *ps)
{
    while (isspace((unsigned char)*ps->p)) ps->p++;
}

static CNode *node(NodeKind k)
{
    CNode *n = calloc(1, sizeof *n);
    if (!n) fatal_oom();
    n->kind = k;
    return n;
}

static void free_node(CNode *n)
{
    if (!n) return;
    free_node(n->a);
    free_node(n->b);
    free(n->str);
    free(n->key);
    free(n);
}

static bool word_is(const char *p, const char *w)
{
    size_t n = strlen(w);
    return strncmp(p, w, n) == 0 && !isalnum((unsigned char)p[n]) && p[n] != '_';
}

/* Matches one of ops at the cursor (longest first in the list). */
static const char *match_op(Parser *ps, const char *const *ops, int n)
{
    skip_ws(ps);
    for (int i = 0; i < n; i++) {
        size_t len = strlen(ops[i]);
        if (isalpha((unsigned char)ops[i][0]) ? word_is(ps->p, ops[i]) : strncmp(ps->p, ops[i], len) == 0) {
            /* "<" must not eat the first half of "<=", "!" of "!=" */
            ps->p += len;
            return ops[i];
        }
    }
    return NULL;
}

static CNode *bin(const char *op, CNode *a, CNode *b)
{
    CNode *n = node(N_BIN);
    snprintf(n->op, sizeof n->op, "%s", op);
    n->a = a;
    n->b = b;
    return n;
}

static CNode *parse_or(Parser *ps);

static CNode *parse_primary(Parser *ps)
{
    skip_ws(ps);
    const char *p = ps->p;
    if (*p == '(') {
        ps->p++;
        CNode *n = parse_or(ps);
        skip_ws(ps);
        if (*ps->p != ')') perr(ps, "expected ')'");
        else ps->p++;
        return n;
    }
    if (*p == '"' || *p == '\'') {
        const char *e = strchr(p + 1, *p);
        if (!e) {
            perr(ps, "unterminated string");
            return node(N_OFF);
        }
        CNode *n = node(N_STR);
        n->str = strndup(p + 1, (size_t)(e - p - 1));
        if (!n->str) fatal_oom();
        ps->p = e + 1;
        return n;
    }
    if (isdigit((unsigned char)*p) || (*p == '.' && isdigit((unsigned char)p[1]))) {
        char *end;
        CNode *n = node(N_NUM);
        n->num = strtod(p, &end);
        ps->p = end;
        return n;
    }
    if (isalpha((unsigned char)*p) || *p == '_') {
        const char *e = p;
        while (isalnum((unsigned char)*e) || *e == '_') e++;
        if (word_is(p, "off")) {
            ps->p = e;
            return node(N_OFF);
        }
        CNode *n = node(N_NAME);
        n->str = strndup(p, (size_t)(e - p));
        if (!n->str) fatal_oom();
        bool known = strcmp(n->str, "block") == 0 || strcmp(n->str, "warps") == 0;
        for (int i = 0; i < ps->nnames && !known; i++) known = strcmp(ps->names[i], n->str) == 0;
        if (!known && !ps->failed) {
            char why[200];
            snprintf(why, sizeof why, "unknown name '%s' (a dimension, block or warps)", n->str);
            perr(ps, why);
        }
        ps->p = e;
        if (*e == '.') {
            const char *k = e + 1, *ke = k;
            while (isalnum((unsigned char)*ke) || *ke == '_' || *ke == '-') ke++;
            if (ke == k) perr(ps, "expected a key after '.'");
            n->key = strndup(k, (size_t)(ke - k));
            if (!n->key) fatal_oom();
            ps->p = ke;
        }
        return n;
    }
    perr(ps, *p ? "expected a value" : "unexpected end");
    return node(N_OFF);
}

static CNode *parse_unary(Parser *ps)
{
    skip_ws(ps);
    if (*ps->p == '-') {
        ps->p++;
        CNode *n = node(N_NEG);
        n->a = parse_unary(ps);
        return n;
    }
    return parse_primary(ps);
}

static CNode *parse_prod(Parser *ps)
{
    static const char *const ops[] = { "*", "/", "%" };
    CNode *n = parse_unary(ps);
    const char *op;
    while (!ps->failed && (op = match_op(ps, ops, 3))) n = bin(op, n, parse_unary(ps));
    return n;
}

static CNode *parse_sum(Parser *ps)
{
    static const char *const ops[] = { "+", "-" };
    CNode *n = parse_prod(ps);
    const char *op;
    while (!ps->failed && (op = match_op(ps, ops, 2))) n = bin(op, n, parse_prod(ps));
    return n;
}

static CNode *parse_cmp(Parser *ps)
{
    static const char *const ops[] = { "==", "!=", "<=", ">=", "<", ">" };
    CNode *n = parse_sum(ps);
    const char *op;
    if (!ps->failed && (op = match_op(ps, ops, 6))) n = bin(op, n, parse_sum(ps));
    return n;
}

static CNode *parse_not(Parser *ps)
{
    static const char *const ops[] = { "!=", "!", "not" };
    skip_ws(ps);
    const char *save = ps->p;
    const char *op = match_op(ps, ops, 3);
    if (op && strcmp(op, "!=") != 0) {
        CNode *n = node(N_NOT);
        n->a = parse_not(ps);
        return n;
    }
    ps->p = save;
    return parse_cmp(ps);
}

static CNode *parse_and(Parser *ps)
{
    static const char *const ops[] = { "&&", "and" };
    CNode *n = parse_not(ps);
    while (!ps->failed && match_op(ps, ops, 2)) n = bin("&&", n, parse_not(ps));
    return n;
}

static CNode *parse_or(Parser *ps)
{
    static const char *const ops[] = { "||", "or" };
    CNode *n = parse_and(ps);
    while (!ps->failed && match_op(ps, ops, 2)) n = bin("||", n, parse_and(ps));
    return n;
}

bool tune_constraint_parse(const char *text, const char *const *names, int nnames, TuneConstraint *c, char *err, size_t errsz)
{
    memset(c, 0, sizeof *c);
    Parser ps = { .text = text, .p = text, .names = names, .nnames = nnames, .err = err, .errsz = errsz };
    CNode *root = parse_or(&ps);
    skip_ws(&ps);
    if (!ps.failed && *ps.p) perr(&ps, "unexpected text");
    if (ps.failed) {
        free_node(root);
        return false;
    }
    c->text = strdup(text);
    if (!c->text) fatal_oom();
    c->root = root;
    return true;
}

void tune_constraint_free(TuneConstraint *c)
{
    free_node(c->root);
    free(c->text);
    memset(c, 0, sizeof *c);
}

/* ---------------------------------------------------------- evaluation */

typedef enum { V_NUM, V_STR, V_OFF } ValKind;
typedef struct Val {
    ValKind kind;
    double num;
    const char *s;               /* V_STR: not NUL-terminated */
    size_t len;
} Val;

typedef struct Eval {
    const TuneKernel *k;
    char *const *value;
    char *err;
    size_t errsz;
    bool failed;
    const char *text;
} Eval;

static void eerr(Eval *ev, const char *fmt, const char *a, const char *b)
{
    if (ev->failed) return;
    ev->failed = true;
    char what[300];
    snprintf(what, sizeof what, fmt, a, b);
    size_t off = (size_t)snprintf(ev->err, ev->errsz, "--constraint='%s': %s (at the point", ev->text, what);
    for (int d = 0; d < ev->k->ndims && off < ev->errsz; d++)
        off += (size_t)snprintf(ev->err + off, ev->errsz - off, " %s=%s", ev->k->dims[d].name,
                                ev->value[d] ? ev->value[d] : "off");
    if (off < ev->errsz) snprintf(ev->err + off, ev->errsz - off, " of kernel %s)", ev->k->name);
}

/* A word, or a number when the whole word reads as one. */
static Val word(const char *s, size_t len)
{
    char buf[64];
    if (len && len < sizeof buf) {
        memcpy(buf, s, len);
        buf[len] = 0;
        char *end;
        double x = strtod(buf, &end);
        if (!*end && isfinite(x) && !isspace((unsigned char)buf[0])) return (Val){ V_NUM, x, NULL, 0 };
    }
    return (Val){ V_STR, 0, s, len };
}

static Val name_value(Eval *ev, const CNode *n)
{
    const TuneKernel *k = ev->k;
    int d = 0;
    while (d < k->ndims && strcmp(k->dims[d].name, n->str) != 0) d++;
    if (d == k->ndims) {
        /* a name the parser accepted that this kernel lacks: block, warps,
         * or a dimension of the run (every kernel has them all) */
        if (strcmp(n->str, "block") == 0) return (Val){ V_NUM, k->block, NULL, 0 };
        if (strcmp(n->str, "warps") == 0) return (Val){ V_NUM, (k->block + 31) / 32, NULL, 0 };
        return (Val){ V_OFF, 0, NULL, 0 };
    }
    const char *v = ev->value[d];
    if (!v) return (Val){ V_OFF, 0, NULL, 0 };
    if (!n->key) return word(v, strlen(v));
    size_t kl = strlen(n->key);
    for (const char *p = v; *p;) {
        const char *e = strchr(p, ';');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if (len > kl && strncmp(p, n->key, kl) == 0 && p[kl] == '=') return word(p + kl + 1, len - kl - 1);
        p = e ? e + 1 : p + len;
    }
    eerr(ev, "%s has no field '%s'", v, n->key);
    return (Val){ V_OFF, 0, NULL, 0 };
}

static bool truth(const Val *v)
{
    return v->kind == V_NUM ? v->num != 0 : v->kind == V_STR ? v->len > 0 : false;
}

static const char *show(const Val *v, char *buf, size_t n)
{
    if (v->kind == V_OFF) return "off";
    if (v->kind == V_NUM) snprintf(buf, n, "%g", v->num);
    else snprintf(buf, n, "'%.*s'", (int)v->len, v->s);
    return buf;
}

static Val eval(Eval *ev, const CNode *n)
{
    Val r = { V_NUM, 0, NULL, 0 };
    if (ev->failed) return r;
    switch (n->kind) {
    case N_NUM: r.num = n->num; return r;
    case N_STR: return (Val){ V_STR, 0, n->str, strlen(n->str) };
    case N_OFF: return (Val){ V_OFF, 0, NULL, 0 };
    case N_NAME: return name_value(ev, n);
    case N_NOT: {
        Val a = eval(ev, n->a);
        r.num = !truth(&a);
        return r;
    }
    case N_NEG: {
        Val a = eval(ev, n->a);
        char b1[64];
        if (a.kind != V_NUM) eerr(ev, "-%s: not a number%s", show(&a, b1, sizeof b1), "");
        r.num = -a.num;
        return r;
    }
    case N_BIN: break;
    }
    const char *op = n->op;
    if (strcmp(op, "||") == 0 || strcmp(op, "&&") == 0) {
        Val a = eval(ev, n->a);
        bool ta = truth(&a);
        if (op[0] == '|' ? ta : !ta) { r.num = ta; return r; }   /* short circuit */
        Val b = eval(ev, n->b);
        r.num = truth(&b);
        return r;
    }
    Val a = eval(ev, n->a), b = eval(ev, n->b);
    char b1[64], b2[64];
    bool eq = op[0] == '=' || (op[0] == '!' && op[1] == '=');
    if (eq) {
        bool same;
        if (a.kind != b.kind) same = false;
        else if (a.kind == V_OFF) same = true;
        else if (a.kind == V_NUM) same = a.num == b.num;
        else same = a.len == b.len && memcmp(a.s, b.s, a.len) == 0;
        r.num = op[0] == '=' ? same : !same;
        return r;
    }
    if (op[0] == '<' || op[0] == '>') {
        if (a.kind == V_OFF || b.kind == V_OFF) return r;   /* off is not ordered: false */
        int c;
        if (a.kind == V_NUM && b.kind == V_NUM) c = a.num < b.num ? -1 : a.num > b.num;
        else if (a.kind == V_STR && b.kind == V_STR) {
            size_t m = a.len < b.len ? a.len : b.len;
            c = memcmp(a.s, b.s, m);
            if (!c) c = a.len < b.len ? -1 : a.len > b.len;
        } else {
            eerr(ev, "%s and %s cannot be ordered (a number and a word)", show(&a, b1, sizeof b1), show(&b, b2, sizeof b2));
            return r;
        }
        r.num = op[0] == '<' ? (op[1] ? c <= 0 : c < 0) : (op[1] ? c >= 0 : c > 0);
        return r;
    }
    if (a.kind != V_NUM || b.kind != V_NUM) {
        eerr(ev, "%s: not a number (arithmetic needs numbers; test for off first)",
             a.kind != V_NUM ? show(&a, b1, sizeof b1) : show(&b, b2, sizeof b2), "");
        return r;
    }
    switch (op[0]) {
    case '+': r.num = a.num + b.num; break;
    case '-': r.num = a.num - b.num; break;
    case '*': r.num = a.num * b.num; break;
    case '/':
    case '%':
        if (b.num == 0) {
            eerr(ev, "division by zero%s%s", "", "");
            return r;
        }
        r.num = op[0] == '/' ? a.num / b.num : fmod(a.num, b.num);
        break;
    }
    return r;
}

int tune_constraint_eval(const TuneConstraint *c, const TuneKernel *k, char *const value[], char *err, size_t errsz)
{
    Eval ev = { .k = k, .value = value, .err = err, .errsz = errsz, .text = c->text };
    Val v = eval(&ev, c->root);
    if (ev.failed) return -1;
    return truth(&v) ? 1 : 0;
}
