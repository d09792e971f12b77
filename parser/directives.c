/* directives.c — module and body directives: .version .target
 * .address_size .file .loc .section (whole-line tokens from the scanner)
 * and the ';'-terminated ones (.pragma .alias .callprototype
 * .branchtargets .calltargets). */
#include <string.h>

#include "parser/build.h"

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
    Stmt *s = build_new_stmt(c, STMT_DIRECTIVE, loc);
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

/* Checks a whole-line directive and, at module level, records what it
 * says in the module (version, target, address size).  The same checks
 * apply inside a body so that what parses also prints back parseably. */
static bool linedir(ParseCtx *c, Str text, const PtxLoc *loc, bool top)
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
        if (top) {
            m->version_major = major;
            m->version_minor = minor;
        }
    } else if (s->dirkind == DIR_ADDRESS_SIZE) {
        size_t pos = sizeof ".address_size" - 1;
        int v = parse_uint(text, &pos);
        while (pos < text.len && (text.p[pos] == ' ' || text.p[pos] == '\t')) pos++;
        if ((v != 32 && v != 64) || pos != text.len)
            return build_error(c, loc->first_line, loc->first_column, "malformed .address_size directive (expected 32 or 64)");
        if (top) m->address_size = v;
    } else if (!linedir_well_formed(s->dirkind, text)) {
        return build_error(c, loc->first_line, loc->first_column, "malformed %.*s directive", STR_FMT(directive_name(text)));
    } else if (s->dirkind == DIR_TARGET && top) {
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
    }
    return build_add_stmt(c, s);
}

bool build_top_linedir(ParseCtx *c, Str text, const PtxLoc *loc) { return linedir(c, text, loc, true); }
bool build_body_linedir(ParseCtx *c, Str text, const PtxLoc *loc) { return linedir(c, text, loc, false); }

bool build_directive(ParseCtx *c, Str kw, uint32_t tokstart, const PtxLoc *loc)
{
    /* the keyword is not on the token stack: put it first */
    uint32_t n;
    Token *body = build_take_tokens(c, tokstart, &n);
    Stmt *s = build_new_stmt(c, STMT_DIRECTIVE, loc);
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
    return build_add_stmt(c, s);
}
