/* decl.c — interpreting token runs: declarations (qualifiers,
 * declarators, initializers), parameter lists and performance directives.
 * Pure functions of the tokens; the grammar collects the runs. */
#include <stdlib.h>
#include <string.h>

#include "ir/fatal.h"
#include "parser/build.h"

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

bool tok_is_punct(const Token *t, char ch) { return t->kind == TOKK_PUNCT && t->text.p[0] == ch; }

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
            if (i + 1 < n && tok_is_punct(&tok[i + 1], '(')) {
                while (i + 1 < n && !tok_is_punct(&tok[i + 1], ')')) i++;
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
        if (i + 2 < n && tok_is_punct(&tok[i], '<') && tok[i + 1].kind == TOKK_INT && tok_is_punct(&tok[i + 2], '>')) {
            dd.range = (int32_t)tok_int(tok[i + 1].text);
            i += 3;
        }
        while (i < n && tok_is_punct(&tok[i], '[')) {
            int64_t dim = -1;
            i++;
            if (i < n && tok[i].kind == TOKK_INT) dim = tok_int(tok[i++].text);
            while (i < n && !tok_is_punct(&tok[i], ']')) i++;  /* constant expressions: keep unknown */
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
        if (i < n && tok_is_punct(&tok[i], ',')) { i++; continue; }
        break;
    }
    if (i < n && tok_is_punct(&tok[i], '=')) d->has_init = true;
    d->ndecl = (uint16_t)(nd > 65535 ? 65535 : nd);
    d->decls = arena_alloc(a, sizeof(Declarator) * (d->ndecl ? d->ndecl : 1));
    memcpy(d->decls, big ? big : tmp, sizeof(Declarator) * d->ndecl);
    free(big);
    return d;
}


bool decl_tokens_are_function(const Token *t, uint32_t n)
{
    for (uint32_t i = 0; i < n && t[i].kind == TOKK_DOTWORD; i++)
        if (str_eqc(t[i].text, ".entry") || str_eqc(t[i].text, ".func")) return true;
    return false;
}

PerfDirective perf_from_text(Str text)
{
    PerfDirective p = { 0 };
    p.text = text;
    /* the name is letters and '_' only: the lexer also takes ".maxntid16, 16"
     * (no space before the first number) */
    size_t i = 1;
    while (i < text.len && ((text.p[i] >= 'a' && text.p[i] <= 'z') || (text.p[i] >= 'A' && text.p[i] <= 'Z') || text.p[i] == '_'))
        i++;
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
/* Appends a parameter; false when it has no tokens ("(a,,b)", "(a,)"). */
static bool add_param(Arena *a, Decl ***ps, uint32_t *np, uint32_t *cap, const Token *t, uint32_t n)
{
    if (n == 0) return false;
    if (*np == *cap) {
        Decl **nps = arena_alloc(a, sizeof(Decl *) * *cap * 2);
        memcpy(nps, *ps, sizeof(Decl *) * *cap);
        *ps = nps;
        *cap *= 2;
    }
    (*ps)[(*np)++] = decl_from_tokens(a, t, n);
    return true;
}

Decl **decl_param_list(Arena *a, const Token *t, uint32_t n, uint32_t *i, uint32_t *count, bool *empty)
{
    uint32_t depth = 0, k;
    uint32_t np = 0, cap = 4;
    Decl **ps = arena_alloc(a, sizeof(Decl *) * cap);
    uint32_t ps_start = *i + 1;
    *empty = false;
    for (k = *i; k < n; k++) {
        if (tok_is_punct(&t[k], '(')) { depth++; continue; }
        if (tok_is_punct(&t[k], ')') && --depth == 0) break;
        if (depth == 1 && tok_is_punct(&t[k], ',')) {
            if (!add_param(a, &ps, &np, &cap, t + ps_start, k - ps_start)) { *empty = true; return NULL; }
            ps_start = k + 1;
        }
    }
    if (k >= n) return NULL;
    /* the last parameter; "()" has none, "(a,)" an empty one */
    if ((k > ps_start || np > 0) && !add_param(a, &ps, &np, &cap, t + ps_start, k - ps_start)) {
        *empty = true;
        return NULL;
    }
    *i = k + 1;
    *count = np;
    return ps;
}
