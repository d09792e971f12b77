/* print.c — lossless and canonical PTX printing (see print.h). */
#include "codegen/print.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "ir/fatal.h"

/* ----------------------------------------------------------------- buffer */

void out_init(OutBuf *o) { o->p = NULL; o->len = o->cap = 0; o->fd = -1; o->failed = false; o->err = 0; }
void out_free(OutBuf *o) { free(o->p); out_init(o); }

void out_init_fd(OutBuf *o, int fd)
{
    out_init(o);
    o->fd = fd;
}

bool out_flush(OutBuf *o)
{
    if (o->fd < 0 || o->failed) return !o->failed;
    const char *p = o->p;
    size_t n = o->len;
    while (n) {
        ssize_t w = write(o->fd, p, n);
        if (w < 0) {
            if (errno == EINTR) continue;
            o->failed = true;
            o->err = errno;
            break;
        }
        p += w;
        n -= (size_t)w;
    }
    o->len = 0;
    return !o->failed;
}

enum { OUT_FLUSH_AT = 1 << 20 };

void out_reserve(OutBuf *o, size_t extra)
{
    size_t need = o->len + extra;
    if (need <= o->cap) return;
    if (o->fd >= 0 && o->len && o->cap >= OUT_FLUSH_AT) {
        out_flush(o);
        need = extra;
        if (need <= o->cap) return;
    }
    size_t cap = o->cap ? o->cap : (o->fd >= 0 ? OUT_FLUSH_AT : 1 << 16);
    while (cap < need) cap *= 2;
    char *p = realloc(o->p, cap);
    if (!p) fatal_oom();
    o->p = p;
    o->cap = cap;
}

void out_printf(OutBuf *o, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    out_reserve(o, (size_t)n + 1);
    va_start(ap, fmt);
    vsnprintf(o->p + o->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    o->len += (size_t)n;
}

/* --------------------------------------------------------------- operands */

static void print_collapsed(OutBuf *o, Str s);

static void print_offset(OutBuf *o, int64_t v, bool in_brackets)
{
    if (v == 0) return;
    if (v > 0) out_printf(o, "+%" PRId64, v);
    else if (in_brackets) out_printf(o, "+%" PRId64, v);  /* nvcc style: [%rd1+-4] */
    else out_printf(o, "%" PRId64, v);
}

static void print_list(OutBuf *o, const Operand *e, int n)
{
    for (int i = 0; i < n; i++) {
        if (i) out_write(o, ", ", 2);
        print_operand(o, &e[i]);
    }
}

void print_operand(OutBuf *o, const Operand *op)
{
    switch (op->kind) {
    case OPND_REG:
        if (op->flags & OPNDF_NEG) out_char(o, '!');
        if (op->flags & OPNDF_MINUS) out_char(o, '-');
        out_str(o, op->u.reg->name);
        if (op->comp) { out_char(o, '.'); out_char(o, op->comp); }
        if (op->sel) {
            char sel[8];
            int n = opnd_sel_format(op->sel, sel);
            out_char(o, '.');
            out_write(o, sel, (size_t)n);
        }
        break;
    case OPND_INT:
        if (op->flags & OPNDF_FOLDED) print_collapsed(o, (Str){ op->text, op->textlen });
        else if (op->text) out_write(o, op->text, op->textlen);
        else out_printf(o, "%" PRId64, op->value);
        break;
    case OPND_FLOAT:
        if (op->text) out_write(o, op->text, op->textlen);
        else if ((uint64_t)op->value >> 32) out_printf(o, "0d%016" PRIX64, (uint64_t)op->value);
        else out_printf(o, "0f%08" PRIX32, (uint32_t)op->value);
        break;
    case OPND_SYM:
        if (op->flags & OPNDF_NEG) out_char(o, '!');
        out_write(o, op->text, op->textlen);
        print_offset(o, op->value, false);
        break;
    case OPND_ADDR:
        out_char(o, '[');
        print_list(o, op->u.elems, op->n);
        if (op->n == 1) print_offset(o, op->value, true);
        out_char(o, ']');
        break;
    case OPND_VEC:
        out_char(o, '{');
        print_list(o, op->u.elems, op->n);
        out_char(o, '}');
        break;
    case OPND_LIST:
        out_char(o, '(');
        print_list(o, op->u.elems, op->n);
        out_char(o, ')');
        break;
    case OPND_SINK:
        out_char(o, '_');
        break;
    case OPND_PAIR:
        print_operand(o, &op->u.elems[0]);
        out_char(o, '|');
        print_operand(o, &op->u.elems[1]);
        break;
    case OPND_EXPR:
    default:
        /* source text of a constant expression: one line, no comments */
        print_collapsed(o, (Str){ op->text, op->textlen });
        break;
    }
}

void print_instr(OutBuf *o, const Instr *in)
{
    if (in->guard) {
        out_write(o, in->guard_neg ? "@!" : "@", in->guard_neg ? 2 : 1);
        out_str(o, in->guard->name);
        out_char(o, ' ');
    }
    out_str(o, in->full);
    if (in->nops) {
        out_char(o, ' ');
        print_list(o, in->ops, in->nops);
    }
    out_char(o, ';');
}

/* ----------------------------------------------------------------- tokens */

/* Single-character punctuation token c? */
static bool punct1(const Token *t, char c) { return t->kind == TOKK_PUNCT && t->text.len == 1 && t->text.p[0] == c; }
static bool opener(const Token *t) { return punct1(t, '(') || punct1(t, '[') || punct1(t, '{'); }
static bool closer(const Token *t) { return punct1(t, ')') || punct1(t, ']') || punct1(t, '}'); }
static bool wordlike(const Token *t) { return t->kind == TOKK_WORD || t->kind == TOKK_REG; }

/* Spacing that re-lexes to the same tokens: operators get blanks on both
 * sides (so "7 % 4" never becomes the register-like "%4"), brackets and
 * declarator suffixes (%r<5>, a[4], .attribute(.managed)) none. */
/* Would p and c lex differently if written together ("<" "<" is "<<")? */
static bool would_merge(const Token *p, const Token *c)
{
    if (p->kind != TOKK_PUNCT || c->kind != TOKK_PUNCT) return false;
    char a = p->text.p[p->text.len - 1], b = c->text.p[0];   /* "<" "<<" is "<<" "<" */
    return (a == '<' && (b == '<' || b == '=')) || (a == '>' && (b == '>' || b == '=')) ||
           (a == '=' && b == '=') || (a == '!' && b == '=') || (a == '&' && b == '&') || (a == '|' && b == '|');
}

static bool space_between(const Token *p, const Token *c, bool p_unary)
{
    if (would_merge(p, c)) return true;
    if (punct1(c, ',') || punct1(c, ';') || closer(c)) return false;
    if (opener(p)) return false;
    if (p_unary) return false;
    if ((punct1(c, '[') || punct1(c, '<')) && wordlike(p)) return false;
    if (punct1(c, '(') && (p->kind == TOKK_DOTWORD || p->kind == TOKK_WORD)) return false;
    if (punct1(p, '<') || punct1(c, '>')) return false;  /* %r<5> */
    return true;
}

void print_tokens(OutBuf *o, const Token *t, uint32_t n)
{
    bool prev_unary = false;
    for (uint32_t i = 0; i < n; i++) {
        const Token *c = &t[i];
        if (i > 0 && space_between(&t[i - 1], c, prev_unary)) out_char(o, ' ');
        out_str(o, c->text);
        /* '-' '!' '~' are unary after nothing, an operator, an opener or ',' */
        bool unary_op = punct1(c, '-') || punct1(c, '!') || punct1(c, '~');
        prev_unary = unary_op && (i == 0 || (t[i - 1].kind == TOKK_PUNCT && !closer(&t[i - 1])));
    }
}

/* Whitespace runs collapse to one space and comments are dropped, outside
 * strings; no trailing blank. */
static void print_collapsed(OutBuf *o, Str s)
{
    bool in_str = false, pending_space = false;
    for (size_t i = 0; i < s.len; i++) {
        char ch = s.p[i];
        if (!in_str && ch == '/' && i + 1 < s.len && s.p[i + 1] == '/') {
            while (i + 1 < s.len && s.p[i + 1] != '\n') i++;
            pending_space = true;
            continue;
        }
        if (!in_str && ch == '/' && i + 1 < s.len && s.p[i + 1] == '*') {
            size_t j = i + 2;
            while (j + 1 < s.len && !(s.p[j] == '*' && s.p[j + 1] == '/')) j++;
            i = j + 1;
            pending_space = true;
            continue;
        }
        if (!in_str && (ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n')) { pending_space = true; continue; }
        if (pending_space) { out_char(o, ' '); pending_space = false; }
        if (ch == '"' && (i == 0 || s.p[i - 1] != '\\')) in_str = !in_str;
        out_char(o, ch);
    }
}

/* ------------------------------------------------------------- statements */

/* Canonical text of a statement, without indentation or newline. */
static void print_stmt_text(OutBuf *o, const Stmt *s)
{
    switch (s->kind) {
    case STMT_INSTR:
        print_instr(o, &s->u.instr);
        break;
    case STMT_LABEL:
        out_str(o, s->u.label);
        out_char(o, ':');
        break;
    case STMT_DECL:
        print_tokens(o, s->u.decl->tok, s->u.decl->ntok);
        out_char(o, ';');
        break;
    case STMT_DIRECTIVE:
        switch (s->dirkind) {
        case DIR_VERSION: case DIR_TARGET: case DIR_ADDRESS_SIZE: case DIR_FILE: case DIR_LOC:
            print_collapsed(o, s->u.dir.tok[0].text);
            break;
        case DIR_SECTION:
            out_str(o, s->u.dir.tok[0].text);
            break;
        default:
            print_tokens(o, s->u.dir.tok, s->u.dir.ntok);
            out_char(o, ';');
            break;
        }
        break;
    case STMT_SCOPE_OPEN:
        out_char(o, '{');
        break;
    case STMT_SCOPE_CLOSE:
        out_char(o, '}');
        break;
    case STMT_VERBATIM:
    default:
        out_str(o, s->u.dir.tok[0].text);
        break;
    }
}

static void print_params(OutBuf *o, Decl **ps, uint32_t n, bool one_per_line)
{
    out_char(o, '(');
    for (uint32_t i = 0; i < n; i++) {
        if (one_per_line) out_write(o, i ? ",\n\t" : "\n\t", i ? 3 : 2);
        else if (i) out_write(o, ", ", 2);
        print_tokens(o, ps[i]->tok, ps[i]->ntok);
    }
    if (one_per_line && n) out_char(o, '\n');
    out_char(o, ')');
}

static void print_header(OutBuf *o, const Function *fn)
{
    for (uint32_t i = 0; i < fn->nlinkage; i++) {
        out_str(o, fn->linkage[i]);
        out_char(o, ' ');
    }
    out_cstr(o, fn->is_entry ? ".entry " : ".func ");
    if (fn->nret) {
        print_params(o, fn->ret, fn->nret, false);
        out_char(o, ' ');
    }
    out_str(o, fn->name);
    print_params(o, fn->params, fn->nparam, true);
    for (uint32_t i = 0; i < fn->nperf; i++) {
        const PerfDirective *p = &fn->perf[i];
        out_char(o, '\n');
        out_str(o, p->name);
        for (uint8_t k = 0; k < p->n; k++) out_printf(o, "%s%u", k ? ", " : " ", p->v[k]);
    }
    if (fn->nhextra) {
        out_char(o, '\n');
        print_tokens(o, fn->hextra, fn->nhextra);
    }
    out_write(o, fn->has_body ? "\n{" : ";", fn->has_body ? 2 : 1);
}

/* Registers made by passes are declared at the top of the body. */
static void print_fresh_decls(OutBuf *o, const Function *fn, bool canonical)
{
    if (!fn->nfresh) return;
    for (uint32_t i = 0; i < fn->nregs; i++) {
        const Reg *r = fn->regs[i];
        if (!r->fresh) continue;
        out_cstr(o, canonical ? "\t.reg " : "\n\t.reg ");
        out_str(o, r->type);
        out_char(o, ' ');
        out_str(o, r->name);
        out_cstr(o, canonical ? ";\n" : ";");
    }
}

static bool in_body(const Stmt *s) { return s->block != NULL; }

static void print_stmt_lossless(OutBuf *o, const Stmt *s)
{
    if (!s->dirty && s->src) {
        out_write(o, s->src, s->src_len);
        return;
    }
    if (s->src) out_write(o, s->src, s->lead_len);
    else out_cstr(o, s->kind == STMT_LABEL || !in_body(s) ? "\n" : "\n\t");
    print_stmt_text(o, s);
}

static void print_stmt_canonical(OutBuf *o, const Stmt *s)
{
    if (s->kind != STMT_LABEL && in_body(s)) out_char(o, '\t');
    print_stmt_text(o, s);
    out_char(o, '\n');
}

static void print_function(OutBuf *o, const Function *fn, bool canonical)
{
    if (canonical) {
        out_char(o, '\n');
        print_header(o, fn);
        out_char(o, '\n');
        if (!fn->has_body) return;
        print_fresh_decls(o, fn, true);
        FOR_EACH_BLOCK(b, fn)
            FOR_EACH_STMT(s, b) print_stmt_canonical(o, s);
        out_cstr(o, "}\n");
        return;
    }
    if (fn->header_dirty) {
        out_write(o, fn->head_src, fn->head_lead);
        print_header(o, fn);
    } else {
        out_write(o, fn->head_src, fn->head_len);
    }
    if (!fn->has_body) return;
    print_fresh_decls(o, fn, false);
    FOR_EACH_BLOCK(b, fn)
        FOR_EACH_STMT(s, b) print_stmt_lossless(o, s);
    out_write(o, fn->tail_src, fn->tail_len);
}

void print_item(OutBuf *o, const Module *m, const Stmt *s, bool canonical)
{
    (void)m;
    if (s->kind == STMT_FUNC) print_function(o, s->u.fn, canonical);
    else if (canonical) print_stmt_canonical(o, s);
    else print_stmt_lossless(o, s);
}

void print_module_tail(OutBuf *o, const Module *m, bool canonical)
{
    if (!canonical) out_write(o, m->tail_src, m->tail_len);
}

void print_module(OutBuf *o, const Module *m, bool canonical)
{
    if (o->fd < 0) out_reserve(o, m->len + m->len / 8 + 256);
    for (const Stmt *s = m->first; s; s = s->next) print_item(o, m, s, canonical);
    print_module_tail(o, m, canonical);
}
