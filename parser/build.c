/* build.c — IR construction for the grammar actions (see build.h).
 *
 * Every statement gets the exact source range from the end of the previous
 * statement to its own end: that is what makes unchanged output identical
 * to the input.  Blocks are cut at labels and after terminators. */
#include "parser/build.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "ir/diag.h"
#include "ir/fatal.h"
#include "ir/regs.h"

/* ------------------------------------------------------------ diagnostics */

bool build_error(ParseCtx *c, int line, int col, const char *fmt, ...)
{
    if (c->failed) return false;
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (c->scanner) ptx_restore_buffer(c->scanner);
    diag_at(c->diag, "error", c->m->filename, c->m->buf, c->m->len, line, col, msg);
    c->failed = true;
    return false;
}

static void strip_quotes(char *dst, size_t cap, const char *name)
{
    /* bison quotes aliases: "\"register\"" → register; keep '…' quoting of chars */
    size_t n = strlen(name);
    if (n >= 2 && name[0] == '"' && name[n - 1] == '"') { name++; n -= 2; }
    if (n >= cap) n = cap - 1;
    memcpy(dst, name, n);
    dst[n] = 0;
}

void build_syntax_error(ParseCtx *c, const PtxLoc *loc, const char *got, const char *const *expected, int nexp)
{
    if (c->pending || c->failed) return;
    c->pending = true;
    if (c->ls.error) {
        c->pend_line = c->ls.err_line;
        c->pend_col = c->ls.err_col;
        snprintf(c->pend_msg, sizeof c->pend_msg, "%s", c->ls.err_msg);
        return;
    }
    c->pend_line = loc->first_line;
    c->pend_col = loc->first_column;
    char buf[300];
    size_t off = 0;
    char name[64];
    if (got) {
        strip_quotes(name, sizeof name, got);
        uint32_t tl = loc->end - loc->begin;
        if (tl > 40) tl = 40;
        char text[48];
        size_t k = 0;
        for (uint32_t i = 0; i < tl; i++) {
            char ch = c->m->buf[loc->begin + i];
            text[k++] = (ch >= 0x20 && ch < 0x7f) ? ch : '?';
        }
        text[k] = 0;
        if (strchr(name, '\''))
            off += (size_t)snprintf(buf + off, sizeof buf - off, "syntax error: unexpected %s", name);
        else
            off += (size_t)snprintf(buf + off, sizeof buf - off, "syntax error: unexpected %s '%s'", name, text);
    } else {
        off += (size_t)snprintf(buf + off, sizeof buf - off, "syntax error: unexpected end of file");
    }
    for (int i = 0; i < nexp && off < sizeof buf; i++) {
        strip_quotes(name, sizeof name, expected[i]);
        off += (size_t)snprintf(buf + off, sizeof buf - off, "%s%s", i == 0 ? ", expected " : (i == nexp - 1 ? " or " : ", "), name);
    }
    snprintf(c->pend_msg, sizeof c->pend_msg, "%s", buf);
}

/* ----------------------------------------------------------------- stacks */

uint32_t tok_push(ParseCtx *c, int kind, Str text)
{
    if (c->tsp == c->tcap) {
        c->tcap = c->tcap ? c->tcap * 2 : 256;
        c->tstk = realloc(c->tstk, sizeof(Token) * c->tcap);
        if (!c->tstk) fatal_oom();
    }
    c->tstk[c->tsp] = (Token){ text, (uint8_t)kind };
    return c->tsp++;
}

void tok_punct(ParseCtx *c, const PtxLoc *loc)
{
    tok_push(c, TOKK_PUNCT, (Str){ c->m->buf + loc->begin, loc->end - loc->begin });
}

uint32_t op_push(ParseCtx *c, const Operand *o)
{
    if (c->osp == c->ocap) {
        c->ocap = c->ocap ? c->ocap * 2 : 64;
        c->ostk = realloc(c->ostk, sizeof(Operand) * c->ocap);
        if (!c->ostk) fatal_oom();
    }
    c->ostk[c->osp] = *o;
    return c->osp++;
}

/* Copies tokens [start, tsp) into the arena and pops them. */
static Token *take_tokens(ParseCtx *c, uint32_t start, uint32_t *n)
{
    *n = c->tsp - start;
    Token *t = ARENA_ARRAY(&c->m->arena, Token, *n ? *n : 1);
    if (*n) memcpy(t, c->tstk + start, sizeof(Token) * *n);
    c->tsp = start;
    return t;
}

/* ------------------------------------------------------------- statements */

static Stmt *new_stmt(ParseCtx *c, int kind, const PtxLoc *loc)
{
    Stmt *s = ARENA_NEW(&c->m->arena, Stmt);
    s->kind = (uint8_t)kind;
    s->line = (uint32_t)loc->first_line;
    s->col = (uint16_t)(loc->first_column > 65535 ? 65535 : loc->first_column);
    s->src = c->m->buf + c->prev_end;
    s->src_len = loc->end - c->prev_end;
    s->lead_len = loc->begin - c->prev_end;
    c->prev_end = loc->end;
    return s;
}

static void top_append(ParseCtx *c, Stmt *s)
{
    c->items_seen++;
    s->prev = c->m->last;
    if (c->m->last) c->m->last->next = s; else c->m->first = s;
    c->m->last = s;
}

static Block *new_block(ParseCtx *c)
{
    Function *fn = c->fn;
    Block *b = ARENA_NEW(&c->m->arena, Block);
    b->fn = fn;
    b->id = fn->nblocks++;
    b->prev = fn->last;
    if (fn->last) fn->last->next = b; else fn->first = b;
    fn->last = b;
    c->blk = b;
    c->block_closed = false;
    return b;
}

static void body_append(ParseCtx *c, Stmt *s)
{
    if (c->block_closed) new_block(c);
    Block *b = c->blk;
    s->block = b;
    s->prev = b->last;
    if (b->last) b->last->next = s; else b->first = s;
    b->last = s;
}

/* A top-level item is complete.  When streaming, hand it over and then
 * forget it: unlink it and release its memory for reuse. */
static bool item_done(ParseCtx *c, Stmt *s)
{
    if (!c->on_item) return true;
    Module *m = c->m;
    bool ok = c->on_item(c->ud, m, s);
    m->first = m->last = NULL;
    m->funcs = NULL;
    m->nfuncs = 0;
    arena_release(&m->arena, c->item_mark);
    if (!ok) c->stopped = true;
    return ok;
}

static bool add_stmt(ParseCtx *c, Stmt *s)
{
    if (c->fn) {
        body_append(c, s);
        return true;
    }
    top_append(c, s);
    return item_done(c, s);
}

bool build_verbatim(ParseCtx *c, const PtxLoc *loc)
{
    Stmt *s = new_stmt(c, STMT_VERBATIM, loc);
    s->u.dir.ntok = 1;
    s->u.dir.tok = ARENA_NEW(&c->m->arena, Token);
    s->u.dir.tok[0] = (Token){ { c->m->buf + loc->begin, loc->end - loc->begin }, TOKK_WORD };
    c->tsp = 0;
    return add_stmt(c, s);
}

static int parse_uint(Str s, size_t *pos)
{
    int v = 0;
    while (*pos < s.len && (s.p[*pos] == ' ' || s.p[*pos] == '\t')) (*pos)++;
    if (*pos >= s.len || s.p[*pos] < '0' || s.p[*pos] > '9') return -1;
    while (*pos < s.len && s.p[*pos] >= '0' && s.p[*pos] <= '9') {
        if (v < 100000000) v = v * 10 + (s.p[*pos] - '0');
        (*pos)++;
    }
    return v;
}

static Stmt *linedir_stmt(ParseCtx *c, Str text, const PtxLoc *loc)
{
    Stmt *s = new_stmt(c, STMT_DIRECTIVE, loc);
    switch (c->ls.linedir_kind) {
    case LD_VERSION: s->dirkind = DIR_VERSION; break;
    case LD_TARGET: s->dirkind = DIR_TARGET; break;
    case LD_ADDRESS_SIZE: s->dirkind = DIR_ADDRESS_SIZE; break;
    case LD_FILE: s->dirkind = DIR_FILE; break;
    case LD_LOC: s->dirkind = DIR_LOC; break;
    default: s->dirkind = DIR_SECTION; break;
    }
    s->u.dir.ntok = 1;
    s->u.dir.tok = ARENA_NEW(&c->m->arena, Token);
    s->u.dir.tok[0] = (Token){ text, TOKK_WORD };
    return s;
}

/* The directive's text without its block comments (they are allowed inside,
 * as in ".target <comment> sm_80"); most directives have none and cost nothing. */
static Str strip_block_comments(Arena *a, Str t)
{
    if (!memchr(t.p, '*', t.len)) return t;
    char *out = arena_alloc(a, t.len + 1);
    size_t n = 0;
    for (size_t i = 0; i < t.len; i++) {
        if (t.p[i] == '/' && i + 1 < t.len && t.p[i + 1] == '*') {
            const char *e = strstr(t.p + i + 2, "*/");
            size_t j = e ? (size_t)(e - t.p) + 2 : t.len;
            i = j - 1;
            out[n++] = ' ';
            continue;
        }
        out[n++] = t.p[i];
    }
    while (n && (out[n - 1] == ' ' || out[n - 1] == '\t')) n--;
    return (Str){ out, n };
}

static Str directive_name(Str t)
{
    size_t n = 1;
    while (n < t.len && t.p[n] != ' ' && t.p[n] != '\t') n++;
    return (Str){ t.p, n };
}

/* The characters a .target/.file/.loc directive may contain besides its
 * strings (so that its canonical form lexes back to the same directive):
 * .target sm_90a, texmode_independent / .file 1 "a.cu", 123, 456 /
 * .loc 1 2 3, function_name $L__info_string0, inlined_at 1 4 5 */
static bool linedir_well_formed(int kind, Str t)
{
    if (kind != DIR_TARGET && kind != DIR_FILE && kind != DIR_LOC) return true;
    bool in_str = false;
    for (size_t i = 1; i < t.len; i++) {
        char ch = t.p[i];
        if (in_str) {
            if (ch == '\\' && i + 1 < t.len) i++;
            else if (ch == '"') in_str = false;
            continue;
        }
        if (ch == '"' && kind == DIR_FILE) { in_str = true; continue; }
        if ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
            ch == '_' || ch == '$' || ch == ',' || ch == ' ' || ch == '\t')
            continue;
        if (kind == DIR_LOC && (ch == '+' || ch == '-' || ch == '.' || ch == '%')) continue;
        return false;
    }
    return !in_str;
}

bool build_top_linedir(ParseCtx *c, Str text, const PtxLoc *loc)
{
    Stmt *s = linedir_stmt(c, text, loc);
    Module *m = c->m;
    text = strip_block_comments(&m->arena, text);
    if (s->dirkind == DIR_VERSION) {
        size_t pos = sizeof ".version" - 1;
        int major = parse_uint(text, &pos);
        int minor = -1;
        if (major >= 0 && pos < text.len && text.p[pos] == '.') { pos++; minor = parse_uint(text, &pos); }
        while (pos < text.len && (text.p[pos] == ' ' || text.p[pos] == '\t')) pos++;
        if (major < 0 || minor < 0 || pos != text.len)
            return build_error(c, loc->first_line, loc->first_column, "malformed .version directive (expected .version MAJOR.MINOR)");
        m->version_major = major;
        m->version_minor = minor;
    } else if (s->dirkind == DIR_TARGET) {
        size_t pos = sizeof ".target" - 1;
        while (pos < text.len && (text.p[pos] == ' ' || text.p[pos] == '\t')) pos++;
        size_t tl = text.len - pos;
        if (tl >= sizeof m->target_text) tl = sizeof m->target_text - 1;
        memcpy(m->target_text, text.p + pos, tl);
        m->target_text[tl] = 0;
        m->target = (Str){ m->target_text, tl };
        const char *sm = NULL;
        for (size_t i = pos; i + 3 < text.len; i++)
            if (memcmp(text.p + i, "sm_", 3) == 0) { sm = text.p + i + 3; break; }
        m->target_sm = 0;
        if (sm) {
            while (sm < text.p + text.len && *sm >= '0' && *sm <= '9' && m->target_sm < 100000) m->target_sm = m->target_sm * 10 + (*sm++ - '0');
        }
    } else if (s->dirkind == DIR_ADDRESS_SIZE) {
        size_t pos = sizeof ".address_size" - 1;
        int v = parse_uint(text, &pos);
        while (pos < text.len && (text.p[pos] == ' ' || text.p[pos] == '\t')) pos++;
        if ((v != 32 && v != 64) || pos != text.len)
            return build_error(c, loc->first_line, loc->first_column, "malformed .address_size directive (expected 32 or 64)");
        m->address_size = v;
    }
    if (!linedir_well_formed(s->dirkind, text)) {
        return build_error(c, loc->first_line, loc->first_column, "malformed %.*s directive", STR_FMT(directive_name(text)));
    }
    return add_stmt(c, s);
}

bool build_body_linedir(ParseCtx *c, Str text, const PtxLoc *loc)
{
    Stmt *s = linedir_stmt(c, text, loc);
    if (!linedir_well_formed(s->dirkind, strip_block_comments(&c->m->arena, text)))
        return build_error(c, loc->first_line, loc->first_column, "malformed %.*s directive", STR_FMT(directive_name(text)));
    return add_stmt(c, s);
}

bool build_directive(ParseCtx *c, Str kw, uint32_t tokstart, const PtxLoc *loc)
{
    /* the keyword is not on the token stack: put it first */
    uint32_t n;
    Token *body = take_tokens(c, tokstart, &n);
    Stmt *s = new_stmt(c, STMT_DIRECTIVE, loc);
    Token *t = ARENA_ARRAY(&c->m->arena, Token, n + 1);
    t[0] = (Token){ kw, TOKK_DOTWORD };
    if (n) memcpy(t + 1, body, sizeof(Token) * n);
    s->u.dir.tok = t;
    s->u.dir.ntok = n + 1;
    if (str_eqc(kw, ".pragma")) s->dirkind = DIR_PRAGMA;
    else if (str_eqc(kw, ".alias")) s->dirkind = DIR_ALIAS;
    else if (str_eqc(kw, ".callprototype")) s->dirkind = DIR_CALLPROTOTYPE;
    else if (str_eqc(kw, ".branchtargets")) s->dirkind = DIR_BRANCHTARGETS;
    else if (str_eqc(kw, ".calltargets")) s->dirkind = DIR_CALLTARGETS;
    else s->dirkind = DIR_OTHER;
    c->tsp = 0;
    return add_stmt(c, s);
}

/* ----------------------------------------------------------- declarations */

static bool is_type_word(Str w)
{
    static const char *const types[] = {
        ".b8", ".b16", ".b32", ".b64", ".b128", ".u8", ".u16", ".u32", ".u64",
        ".s8", ".s16", ".s32", ".s64", ".f16", ".f16x2", ".bf16", ".bf16x2", ".f32", ".f64",
        ".pred", ".texref", ".samplerref", ".surfref", ".tf32", ".e4m3", ".e5m2", ".e4m3x2", ".e5m2x2",
    };
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
        if (str_eqc(w, types[i])) return true;
    return false;
}

static bool is_space_word(Str w)
{
    static const char *const spaces[] = { ".reg", ".sreg", ".const", ".global", ".local", ".param", ".shared", ".tex" };
    for (size_t i = 0; i < sizeof spaces / sizeof spaces[0]; i++)
        if (str_eq(w, str_c(spaces[i])) || (str_starts(w, spaces[i]) && w.len > strlen(spaces[i]) && w.p[strlen(spaces[i])] == ':'))
            return true;
    return false;
}

static int64_t tok_int(Str t)
{
    char buf[40];
    size_t n = t.len < sizeof buf - 1 ? t.len : sizeof buf - 1;
    memcpy(buf, t.p, n);
    buf[n] = 0;
    if (n > 2 && buf[0] == '0' && (buf[1] == 'b' || buf[1] == 'B')) return (int64_t)strtoull(buf + 2, NULL, 2);
    return (int64_t)strtoull(buf, NULL, 0);
}

static bool is_punct(const Token *t, char ch) { return t->kind == TOKK_PUNCT && t->text.p[0] == ch; }

Decl *decl_from_tokens(Arena *a, const Token *tok, uint32_t n)
{
    Decl *d = arena_alloc(a, sizeof(Decl));
    d->tok = (Token *)tok;
    d->ntok = n;
    uint32_t i = 0;
    bool after_ptr = false;
    for (; i < n && tok[i].kind == TOKK_DOTWORD; i++) {
        Str w = tok[i].text;
        if (str_eqc(w, ".align") && i + 1 < n && tok[i + 1].kind == TOKK_INT) {
            int32_t v = (int32_t)tok_int(tok[++i].text);
            if (after_ptr) d->ptr_align = v; else d->align = v;
        } else if (str_eqc(w, ".ptr")) {
            after_ptr = true;
        } else if (str_eqc(w, ".attribute")) {
            /* .attribute(.managed): skip the parenthesised list */
            if (i + 1 < n && is_punct(&tok[i + 1], '(')) {
                while (i + 1 < n && !is_punct(&tok[i + 1], ')')) i++;
                if (i + 1 < n) i++;
            }
        } else if (str_eqc(w, ".v2") || str_eqc(w, ".v4") || str_eqc(w, ".v8")) {
            d->vec = (uint8_t)(w.p[2] - '0');
        } else if (is_type_word(w)) {
            d->type = w;
        } else if (is_space_word(w)) {
            if (after_ptr) d->ptr_space = w; else if (!d->space.len) d->space = w;
        }
    }
    /* declarators */
    Declarator tmp[64];
    uint32_t nd = 0;
    Declarator *big = NULL;
    while (i < n) {
        if (tok[i].kind != TOKK_WORD && tok[i].kind != TOKK_REG) break;
        Declarator dd = { tok[i].text, -1, 0, { 0 } };
        i++;
        if (i + 2 < n && is_punct(&tok[i], '<') && tok[i + 1].kind == TOKK_INT && is_punct(&tok[i + 2], '>')) {
            dd.range = (int32_t)tok_int(tok[i + 1].text);
            i += 3;
        }
        while (i < n && is_punct(&tok[i], '[')) {
            int64_t dim = -1;
            i++;
            if (i < n && tok[i].kind == TOKK_INT) dim = tok_int(tok[i++].text);
            while (i < n && !is_punct(&tok[i], ']')) i++;  /* constant expressions: keep unknown */
            if (i < n) i++;
            if (dd.ndims < 4) dd.dims[dd.ndims] = dim;
            dd.ndims++;
        }
        if (nd < 64) tmp[nd] = dd;
        else {
            big = realloc(big, sizeof(Declarator) * (nd + 1));
            if (!big) fatal_oom();
            if (nd == 64) memcpy(big, tmp, sizeof tmp);
            big[nd] = dd;
        }
        nd++;
        if (i < n && is_punct(&tok[i], ',')) { i++; continue; }
        break;
    }
    if (i < n && is_punct(&tok[i], '=')) d->has_init = true;
    d->ndecl = (uint16_t)(nd > 65535 ? 65535 : nd);
    d->decls = arena_alloc(a, sizeof(Declarator) * (d->ndecl ? d->ndecl : 1));
    memcpy(d->decls, big ? big : tmp, sizeof(Declarator) * d->ndecl);
    free(big);
    return d;
}

static bool declare_regs(ParseCtx *c, Decl *d, const PtxLoc *loc)
{
    if (!str_eqc(d->space, ".reg")) return true;
    for (uint32_t k = 0; k < d->ndecl; k++) {
        if (!regs_declare(c->fn, d->decls[k].name, d->type, d->vec, d->decls[k].range))
            c->fn->opaque = true; /* shadowing in a nested scope with another type */
    }
    (void)loc;
    return true;
}

static bool head_is_function(const Token *t, uint32_t n)
{
    for (uint32_t i = 0; i < n && t[i].kind == TOKK_DOTWORD; i++)
        if (str_eqc(t[i].text, ".entry") || str_eqc(t[i].text, ".func")) return true;
    return false;
}

PerfDirective perf_from_text(Str text)
{
    PerfDirective p = { 0 };
    p.text = text;
    size_t i = 1;
    while (i < text.len && text.p[i] != ' ' && text.p[i] != '\t' && text.p[i] != '\r' && text.p[i] != '\n') i++;
    p.name = (Str){ text.p, i };
    while (i < text.len && p.n < 3) {
        while (i < text.len && (text.p[i] < '0' || text.p[i] > '9')) i++;
        if (i >= text.len) break;
        size_t j = i;
        while (j < text.len && text.p[j] != ',' && text.p[j] != ' ' && text.p[j] != '\t' && text.p[j] != '\r' && text.p[j] != '\n') j++;
        p.v[p.n++] = (uint32_t)tok_int((Str){ text.p + i, j - i });
        i = j;
    }
    return p;
}

/* Splits a parenthesised parameter list tok[*i] == '(' ... ')' into Decls.
 * Returns NULL when the ')' is missing. */
static Decl **param_list(Arena *a, const Token *t, uint32_t n, uint32_t *i, uint32_t *count)
{
    uint32_t start = *i + 1, depth = 0, k = *i;
    uint32_t np = 0, cap = 4;
    Decl **ps = arena_alloc(a, sizeof(Decl *) * cap);
    uint32_t ps_start = start;
    for (k = *i; k < n; k++) {
        if (is_punct(&t[k], '(')) { depth++; continue; }
        if (is_punct(&t[k], ')') && --depth == 0) break;
        if (depth == 1 && is_punct(&t[k], ',')) {
            if (np == cap) { Decl **nps = arena_alloc(a, sizeof(Decl *) * cap * 2); memcpy(nps, ps, sizeof(Decl *) * cap); ps = nps; cap *= 2; }
            ps[np++] = decl_from_tokens(a, t + ps_start, k - ps_start);
            ps_start = k + 1;
        }
    }
    if (k > ps_start) {
        if (np == cap) { Decl **nps = arena_alloc(a, sizeof(Decl *) * cap * 2); memcpy(nps, ps, sizeof(Decl *) * cap); ps = nps; cap *= 2; }
        ps[np++] = decl_from_tokens(a, t + ps_start, k - ps_start);
    }
    (void)start;
    if (k >= n) return NULL;
    *i = k + 1;
    *count = np;
    return ps;
}

/* Line and column of a location whose line is not known yet (first_line 0):
 * counted from the start of the buffer, so only on error paths. */
static PtxLoc resolve_loc(ParseCtx *c, const PtxLoc *l)
{
    PtxLoc r = *l;
    if (r.first_line) return r;
    r.first_line = 1;
    const char *ls = c->m->buf;
    for (const char *p = c->m->buf; p < c->m->buf + l->begin; p++)
        if (*p == '\n') { r.first_line++; ls = p + 1; }
    r.first_column = (int)(c->m->buf + l->begin - ls) + 1;
    return r;
}

static Function *function_from_head(ParseCtx *c, Token *t, uint32_t n, const PtxLoc *loc, const PtxLoc *endp)
{
    PtxLoc endl = *endp;
    const PtxLoc *end = &endl;
    Arena *a = &c->m->arena;
    Function *fn = ARENA_NEW(a, Function);
    fn->mod = c->m;
    uint32_t i = 0;
    fn->linkage = ARENA_ARRAY(a, Str, n);
    while (i < n && t[i].kind == TOKK_DOTWORD && !str_eqc(t[i].text, ".entry") && !str_eqc(t[i].text, ".func"))
        fn->linkage[fn->nlinkage++] = t[i++].text;
    fn->is_entry = str_eqc(t[i].text, ".entry");
    i++;
    if (!fn->is_entry && i < n && is_punct(&t[i], '(')) {
        fn->ret = param_list(a, t, n, &i, &fn->nret);
        if (!fn->ret) {
            endl = resolve_loc(c, endp);
            build_error(c, end->first_line, end->first_column, "expected ')': missing ')' after the return parameters");
            return NULL;
        }
    }
    if (i >= n || t[i].kind != TOKK_WORD) {
        build_error(c, loc->first_line, loc->first_column, "expected a function name after '%s'", fn->is_entry ? ".entry" : ".func");
        return NULL;
    }
    fn->name = t[i++].text;
    if (i < n && is_punct(&t[i], '(')) {
        fn->params = param_list(a, t, n, &i, &fn->nparam);
        if (!fn->params) {
            endl = resolve_loc(c, endp);
            build_error(c, end->first_line, end->first_column, "expected ')': missing ')' after the parameters of '%.*s'", STR_FMT(fn->name));
            return NULL;
        }
    }
    fn->perf = ARENA_ARRAY(a, PerfDirective, n - i + 1);
    fn->hextra = ARENA_ARRAY(a, Token, n - i + 1);
    for (; i < n; i++) {
        if (t[i].kind == TOKK_PERF) fn->perf[fn->nperf++] = perf_from_text(t[i].text);
        else fn->hextra[fn->nhextra++] = t[i];
    }
    return fn;
}

static void register_function(ParseCtx *c, Function *fn)
{
    Module *m = c->m;
    if ((m->nfuncs & (m->nfuncs - 1)) == 0) {
        uint32_t cap = m->nfuncs ? m->nfuncs * 2 : 8;
        Function **nf = ARENA_ARRAY(&m->arena, Function *, cap);
        if (m->nfuncs) memcpy(nf, m->funcs, sizeof(Function *) * m->nfuncs);
        m->funcs = nf;
    }
    m->funcs[m->nfuncs++] = fn;
}

bool build_decl_or_proto(ParseCtx *c, uint32_t tokstart, const PtxLoc *loc, bool has_init)
{
    uint32_t n;
    Token *t = take_tokens(c, tokstart, &n);
    if (head_is_function(t, n)) {
        if (has_init) return build_error(c, loc->first_line, loc->first_column, "a function declaration cannot have an initializer");
        PtxLoc semi = *loc;  /* the ';' that ended the header: line found on error */
        semi.first_line = 0;
        semi.begin = loc->end - 1;
        Function *fn = function_from_head(c, t, n, loc, &semi);
        if (!fn) return false;
        Stmt *s = new_stmt(c, STMT_FUNC, loc);
        s->u.fn = fn;
        fn->stmt = s;
        fn->head_src = s->src;
        fn->head_len = s->src_len;
        fn->head_lead = s->lead_len;
        register_function(c, fn);
        return add_stmt(c, s);
    }
    Stmt *s = new_stmt(c, STMT_DECL, loc);
    Decl *d = decl_from_tokens(&c->m->arena, t, n);
    s->u.decl = d;
    for (uint32_t k = 0; k < d->ndecl; k++) {
        if (d->decls[k].name.len < 2 || d->decls[k].name.p[0] != '%') continue;
        if (c->npct_vars == c->cpct_vars) {
            c->cpct_vars = c->cpct_vars ? c->cpct_vars * 2 : 8;
            c->pct_vars = realloc(c->pct_vars, sizeof(Str) * c->cpct_vars);
            if (!c->pct_vars) fatal_oom();
        }
        c->pct_vars[c->npct_vars++] = d->decls[k].name;
    }
    return add_stmt(c, s);
}

bool build_function_begin(ParseCtx *c, uint32_t tokstart, const PtxLoc *head, const PtxLoc *brace)
{
    uint32_t n;
    Token *t = take_tokens(c, tokstart, &n);
    if (!head_is_function(t, n))
        return build_error(c, brace->first_line, brace->first_column, "unexpected '{' after a declaration (missing '=' or ';'?)");
    Function *fn = function_from_head(c, t, n, head, brace);
    if (!fn) return false;
    PtxLoc all = *head;
    all.end = brace->end;
    Stmt *s = new_stmt(c, STMT_FUNC, &all);
    s->u.fn = fn;
    fn->stmt = s;
    fn->has_body = true;
    fn->head_src = s->src;
    fn->head_len = s->src_len;
    fn->head_lead = s->lead_len;
    register_function(c, fn);
    top_append(c, s);
    c->fn = fn;
    new_block(c);
    /* parameters of a .func are registers-like names usable as operands */
    return true;
}

bool build_function_end(ParseCtx *c, const PtxLoc *brace)
{
    Function *fn = c->fn;
    fn->tail_src = c->m->buf + c->prev_end;
    fn->tail_len = brace->end - c->prev_end;
    c->prev_end = brace->end;
    c->fn = NULL;
    c->blk = NULL;
    return item_done(c, fn->stmt);
}

bool build_body_decl(ParseCtx *c, uint32_t tokstart, const PtxLoc *loc)
{
    uint32_t n;
    Token *t = take_tokens(c, tokstart, &n);
    if (head_is_function(t, n))
        return build_error(c, loc->first_line, loc->first_column, "a function cannot be declared inside a function body");
    Stmt *s = new_stmt(c, STMT_DECL, loc);
    s->u.decl = decl_from_tokens(&c->m->arena, t, n);
    if (!declare_regs(c, s->u.decl, loc)) return false;
    return add_stmt(c, s);
}

bool build_scope(ParseCtx *c, int kind, const PtxLoc *loc)
{
    return add_stmt(c, new_stmt(c, kind, loc));
}

bool build_label(ParseCtx *c, Str name, const PtxLoc *loc)
{
    Stmt *s = new_stmt(c, STMT_LABEL, loc);
    s->u.label = name;
    /* a label starts a block, unless the current one is still empty */
    if (c->blk->first || c->blk->label.len) new_block(c);
    else c->block_closed = false;
    c->blk->label = name;
    return add_stmt(c, s);
}

/* ----------------------------------------------------------- instructions */

bool instr_head(ParseCtx *c, const Str *guard, bool neg, Str opcode, const PtxLoc *loc)
{
    c->cur_opcode = opcode;
    c->cur_guard = NULL;
    c->cur_guard_neg = neg;
    c->osp = 0;
    if (!c->fn)
        return build_error(c, loc->first_line, loc->first_column, "instruction '%.*s' outside a function body", STR_FMT(opcode));
    if (guard) {
        Str name = *guard;
        c->cur_guard = regs_lookup(c->fn, name);
        if (!c->cur_guard)
            return build_error(c, loc->first_line, loc->first_column, "undeclared register '%.*s'", STR_FMT(name));
    }
    return true;
}

static void fill_instr(ParseCtx *c, Instr *in)
{
    in->full = c->cur_opcode;
    const char *dot = memchr(in->full.p, '.', in->full.len);
    in->opname = (Str){ in->full.p, dot ? (size_t)(dot - in->full.p) : in->full.len };
    in->op = opcode_lookup(in->opname.p, in->opname.len);
    in->guard = c->cur_guard;
    in->guard_neg = c->cur_guard_neg;
}

bool build_instr(ParseCtx *c, const PtxLoc *loc)
{
    Stmt *s = new_stmt(c, STMT_INSTR, loc);
    Instr *in = &s->u.instr;
    fill_instr(c, in);
    if (c->osp > 255)
        return build_error(c, loc->first_line, loc->first_column, "too many operands (%u)", c->osp);
    in->nops = (uint8_t)c->osp;
    in->ops = ARENA_ARRAY(&c->m->arena, Operand, c->osp ? c->osp : 1);
    if (c->osp) memcpy(in->ops, c->ostk, sizeof(Operand) * c->osp);
    c->osp = 0;
    if (in->op == OP_UNKNOWN) c->fn->opaque = true;
    add_stmt(c, s);
    if (opcode_flags(in->op) & OPF_TERMINATOR) c->block_closed = true;
    return true;
}

bool build_recover_instr(ParseCtx *c, const PtxLoc *loc)
{
    Str name = c->cur_opcode;
    const char *dot = memchr(name.p, '.', name.len);
    Str base = { name.p, dot ? (size_t)(dot - name.p) : name.len };
    if (c->ls.error || c->failed || opcode_lookup(base.p, base.len) != OP_UNKNOWN) {
        /* a known instruction with bad operands: the syntax error stands */
        if (c->pending && !c->failed) {
            build_error(c, c->pend_line, c->pend_col, "%s", c->pend_msg);
            c->pending = false;
        }
        return false;
    }
    /* an unknown opcode with its own operand syntax: keep it verbatim */
    c->pending = false;
    c->osp = 0;
    c->tsp = 0;
    Stmt *s = new_stmt(c, STMT_VERBATIM, loc);
    s->u.dir.ntok = 1;
    s->u.dir.tok = ARENA_NEW(&c->m->arena, Token);
    s->u.dir.tok[0] = (Token){ { c->m->buf + loc->begin, loc->end - loc->begin }, TOKK_WORD };
    c->fn->opaque = true;
    return add_stmt(c, s);
}

/* --------------------------------------------------------------- operands */

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
    if (name.len > 2 && name.p[name.len - 2] == '.') {
        o->comp = name.p[name.len - 1];
        name.len -= 2;
    }
    if (!c->fn)
        return build_error(c, loc->first_line, loc->first_column, "register '%.*s' outside a function body", STR_FMT(text));
    Reg *r = regs_lookup(c->fn, name);
    if (!r && !o->comp && symbol_declared(c, name)) {
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
    Reg *r = c->fn ? regs_lookup(c->fn, text) : NULL;
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

static bool is_pair_side(const Operand *o)
{
    return (o->kind == OPND_REG && !o->value) || o->kind == OPND_SINK;
}

bool op_binary(ParseCtx *c, Operand *o, const Operand *a, int op, const Operand *b, const PtxLoc *loc)
{
    /* reg+imm, sym+imm, sym-imm: an offset (nvcc writes [%rd1+-4]) */
    if ((op == '+' || op == '-') && (a->kind == OPND_REG || a->kind == OPND_SYM) && !(a->flags & OPNDF_NEG) &&
        a->value == 0 && b->kind == OPND_INT) {
        *o = *a;
        o->value = (int64_t)(op == '+' ? (uint64_t)b->value : 0 - (uint64_t)b->value);
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
