/* build.c — IR construction for the grammar actions (see build.h).
 *
 * Every statement gets the exact source range from the end of the previous
 * statement to its own end: that is what makes unchanged output identical
 * to the input.  Blocks are cut at labels and after terminators. */
#include "parser/build.h"

#include <ctype.h>
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
Token *build_take_tokens(ParseCtx *c, uint32_t start, uint32_t *n)
{
    *n = c->tsp - start;
    Token *t = ARENA_ARRAY(&c->m->arena, Token, *n ? *n : 1);
    if (*n) memcpy(t, c->tstk + start, sizeof(Token) * *n);
    c->tsp = start;
    return t;
}

/* ------------------------------------------------------------- statements */

Stmt *build_new_stmt(ParseCtx *c, int kind, const PtxLoc *loc)
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
    if (s->kind == STMT_DECL) modsyms_add_decl(c->m, s->u.decl);
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
    if (s->kind == STMT_FUNC && m->analysis_drop) m->analysis_drop(m, s->u.fn);   /* its analyses go with it */
    m->first = m->last = NULL;
    m->funcs = NULL;
    m->nfuncs = 0;
    arena_release(&m->arena, c->item_mark);
    if (!ok) c->stopped = true;
    return ok;
}

bool build_add_stmt(ParseCtx *c, Stmt *s)
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
    Stmt *s = build_new_stmt(c, STMT_VERBATIM, loc);
    s->u.dir.ntok = 1;
    s->u.dir.tok = ARENA_NEW(&c->m->arena, Token);
    s->u.dir.tok[0] = (Token){ { c->m->buf + loc->begin, loc->end - loc->begin }, TOKK_WORD };
    c->tsp = 0;
    return build_add_stmt(c, s);
}

static bool declare_regs(ParseCtx *c, Decl *d, const PtxLoc *loc)
{
    (void)loc;
    if (!str_eqc(d->space, ".reg")) return true;
    for (uint32_t k = 0; k < d->ndecl; k++) {
        if (c->scope_depth == 0) {
            if (!regs_declare(c->fn, d->decls[k].name, d->type, d->vec, d->decls[k].range))
                c->fn->opaque = true; /* declared twice with different types */
            continue;
        }
        if (c->nsdecl == c->csdecl) {
            c->csdecl = c->csdecl ? c->csdecl * 2 : 8;
            c->sdecl = realloc(c->sdecl, sizeof *c->sdecl * c->csdecl);
            if (!c->sdecl) fatal_oom();
        }
        c->sdecl[c->nsdecl++] = (struct ScopeDecl){ d->decls[k].name, d->type, d->decls[k].range, d->vec, c->scope_depth };
    }
    return true;
}

Reg *build_lookup_reg(ParseCtx *c, Str name)
{
    /* the innermost scope that declares the name decides */
    for (uint32_t i = c->nsdecl; i-- > 0;) {
        const struct ScopeDecl *sd = &c->sdecl[i];
        if (!regs_decl_covers(sd->name, sd->range, name)) continue;
        for (uint32_t j = c->nsreg; j-- > 0;)
            if (c->sreg[j].depth == sd->depth && str_eq(c->sreg[j].reg->name, name)) return c->sreg[j].reg;
        if (c->nsreg == c->csreg) {
            c->csreg = c->csreg ? c->csreg * 2 : 8;
            c->sreg = realloc(c->sreg, sizeof *c->sreg * c->csreg);
            if (!c->sreg) fatal_oom();
        }
        Reg *r = regs_new_scoped(c->fn, name, sd->type, sd->vec);
        c->sreg[c->nsreg++] = (struct ScopeReg){ r, sd->depth };
        return r;
    }
    return regs_lookup(c->fn, name);
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

static bool is_line_directive_name(Str w)
{
    return str_eqc(w, ".version") || str_eqc(w, ".target") || str_eqc(w, ".address_size") ||
           str_eqc(w, ".file") || str_eqc(w, ".loc") || str_eqc(w, ".section");
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
    if (!fn->is_entry && i < n && tok_is_punct(&t[i], '(')) {
        bool empty;
        fn->ret = decl_param_list(a, t, n, &i, &fn->nret, &empty);
        if (!fn->ret && empty) {
            build_error(c, loc->first_line, loc->first_column, "empty return parameter in the header of a .func");
            return NULL;
        }
        if (!fn->ret) {
            endl = resolve_loc(c, endp);
            build_error(c, end->first_line, end->first_column, "expected ')': missing ')' after the return parameters");
            return NULL;
        }
    }
    if (i >= n || (t[i].kind != TOKK_WORD && t[i].kind != TOKK_REG)) { /* names may start with % */
        build_error(c, loc->first_line, loc->first_column, "expected a function name after '%s'", fn->is_entry ? ".entry" : ".func");
        return NULL;
    }
    fn->name = t[i++].text;
    if (i < n && tok_is_punct(&t[i], '(')) {
        bool empty;
        fn->params = decl_param_list(a, t, n, &i, &fn->nparam, &empty);
        if (!fn->params && empty) {
            build_error(c, loc->first_line, loc->first_column, "empty parameter in the header of '%.*s'", STR_FMT(fn->name));
            return NULL;
        }
        if (!fn->params) {
            endl = resolve_loc(c, endp);
            build_error(c, end->first_line, end->first_column, "expected ')': missing ')' after the parameters of '%.*s'", STR_FMT(fn->name));
            return NULL;
        }
    }
    fn->perf = ARENA_ARRAY(a, PerfDirective, n - i + 1);
    fn->hextra = ARENA_ARRAY(a, Token, n - i + 1);
    for (; i < n; i++) {
        if (t[i].kind == TOKK_PERF) {
            fn->perf[fn->nperf++] = perf_from_text(t[i].text);
            continue;
        }
        /* .pragma "nounroll"; between the parameters and the body: kept
         * whole, with its ';' */
        if (t[i].kind == TOKK_DOTWORD && str_eqc(t[i].text, ".pragma")) {
            do fn->hextra[fn->nhextra++] = t[i];
            while (!tok_is_punct(&t[i], ';') && ++i < n);
            continue;
        }
        /* other directives after the parameters (future attributes) are
         * kept: a directive name with integer arguments, nothing else */
        bool ok = (t[i].kind == TOKK_DOTWORD && !is_line_directive_name(t[i].text)) ||
                  (fn->nhextra && (t[i].kind == TOKK_INT || tok_is_punct(&t[i], ',')));
        if (!ok) {
            PtxLoc at = resolve_loc(c, &(PtxLoc){ 0, 0, (uint32_t)(t[i].text.p - c->m->buf), 0 });
            build_error(c, at.first_line, at.first_column, "unexpected '%.*s' in the header of '%.*s'",
                        (int)(t[i].text.len > 40 ? 40 : t[i].text.len), t[i].text.p, STR_FMT(fn->name));
            return NULL;
        }
        fn->hextra[fn->nhextra++] = t[i];
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
    Token *t = build_take_tokens(c, tokstart, &n);
    if (decl_tokens_are_function(t, n)) {
        if (has_init) return build_error(c, loc->first_line, loc->first_column, "a function declaration cannot have an initializer");
        PtxLoc semi = *loc;  /* the ';' that ended the header: line found on error */
        semi.first_line = 0;
        semi.begin = loc->end - 1;
        Function *fn = function_from_head(c, t, n, loc, &semi);
        if (!fn) return false;
        Stmt *s = build_new_stmt(c, STMT_FUNC, loc);
        s->u.fn = fn;
        fn->stmt = s;
        fn->head_src = s->src;
        fn->head_len = s->src_len;
        fn->head_lead = s->lead_len;
        register_function(c, fn);
        return build_add_stmt(c, s);
    }
    Stmt *s = build_new_stmt(c, STMT_DECL, loc);
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
    return build_add_stmt(c, s);
}

bool build_function_begin(ParseCtx *c, uint32_t tokstart, const PtxLoc *head, const PtxLoc *brace)
{
    uint32_t n;
    Token *t = build_take_tokens(c, tokstart, &n);
    if (!decl_tokens_are_function(t, n))
        return build_error(c, brace->first_line, brace->first_column, "unexpected '{' after a declaration (missing '=' or ';'?)");
    Function *fn = function_from_head(c, t, n, head, brace);
    if (!fn) return false;
    PtxLoc all = *head;
    all.end = brace->end;
    Stmt *s = build_new_stmt(c, STMT_FUNC, &all);
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
    Token *t = build_take_tokens(c, tokstart, &n);
    if (decl_tokens_are_function(t, n))
        return build_error(c, loc->first_line, loc->first_column, "a function cannot be declared inside a function body");
    Stmt *s = build_new_stmt(c, STMT_DECL, loc);
    s->u.decl = decl_from_tokens(&c->m->arena, t, n);
    if (!declare_regs(c, s->u.decl, loc)) return false;
    return build_add_stmt(c, s);
}

bool build_scope(ParseCtx *c, int kind, const PtxLoc *loc)
{
    if (kind == STMT_SCOPE_OPEN) {
        c->scope_depth++;
    } else {
        /* the scope's registers go out of scope */
        while (c->nsdecl && c->sdecl[c->nsdecl - 1].depth >= c->scope_depth) c->nsdecl--;
        while (c->nsreg && c->sreg[c->nsreg - 1].depth >= c->scope_depth) c->nsreg--;
        if (c->scope_depth) c->scope_depth--;
    }
    return build_add_stmt(c, build_new_stmt(c, kind, loc));
}

bool build_label(ParseCtx *c, Str name, const PtxLoc *loc)
{
    Stmt *s = build_new_stmt(c, STMT_LABEL, loc);
    s->u.label = name;
    /* a label starts a block, unless the current one is still empty */
    if (c->blk->first || c->blk->label.len) new_block(c);
    else c->block_closed = false;
    c->blk->label = name;
    return build_add_stmt(c, s);
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
        c->cur_guard = build_lookup_reg(c, name);
        if (!c->cur_guard)
            return build_error(c, loc->first_line, loc->first_column, "undeclared register '%.*s'", STR_FMT(name));
    }
    return true;
}

/* A modifier written apart from its opcode (blanks, newlines or comments
 * between them, which ptxas allows): the opcode text the IR keeps is the
 * joined one, "st.global.u32", so passes and the canonical printer see
 * one spelling; the statement's source text stays as written. */
bool instr_modifier(ParseCtx *c, Str mod, const PtxLoc *loc)
{
    /* only what the scanner takes as a modifier when joined (".h10",
     * ".shared::cta"), so that the joined opcode lexes back the same */
    bool ok = true;
    size_t i = 1, n = mod.len;
    for (;;) {  /* word ("::" word)* after the dot */
        size_t start = i;
        while (i < n && (isalnum((unsigned char)mod.p[i]) || mod.p[i] == '_')) i++;
        if (i == start) { ok = false; break; }
        if (i == n) break;
        if (i + 1 < n && mod.p[i] == ':' && mod.p[i + 1] == ':') { i += 2; continue; }
        ok = false;
        break;
    }
    if (!ok)
        return build_error(c, loc->first_line, loc->first_column, "invalid modifier '%.*s' after '%.*s'",
                           (int)(mod.len > 40 ? 40 : mod.len), mod.p, STR_FMT(c->cur_opcode));
    c->cur_opcode.p = arena_printf(&c->m->arena, "%.*s%.*s", STR_FMT(c->cur_opcode), STR_FMT(mod));
    c->cur_opcode.len += mod.len;
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
    Stmt *s = build_new_stmt(c, STMT_INSTR, loc);
    Instr *in = &s->u.instr;
    fill_instr(c, in);
    if (c->osp > 255)
        return build_error(c, loc->first_line, loc->first_column, "too many operands (%u)", c->osp);
    in->nops = (uint8_t)c->osp;
    in->ops = ARENA_ARRAY(&c->m->arena, Operand, c->osp ? c->osp : 1);
    if (c->osp) memcpy(in->ops, c->ostk, sizeof(Operand) * c->osp);
    c->osp = 0;
    if (in->op == OP_UNKNOWN) c->fn->opaque = true;
    build_add_stmt(c, s);
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
    Stmt *s = build_new_stmt(c, STMT_VERBATIM, loc);
    s->u.dir.ntok = 1;
    s->u.dir.tok = ARENA_NEW(&c->m->arena, Token);
    s->u.dir.tok[0] = (Token){ { c->m->buf + loc->begin, loc->end - loc->begin }, TOKK_WORD };
    c->fn->opaque = true;
    return build_add_stmt(c, s);
}
