/* parse.c — run the scanner and the grammar over a buffer (see parse.h). */
#include "parser/parse.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ir/diag.h"
#include "parser/build.h"
#include "parser/ptx.h"

/* From the flex scanner (prefix ptx_). */
typedef void *yyscan_t;
int ptx_lex_init_extra(LexState *extra, yyscan_t *scanner);
int ptx_lex_destroy(yyscan_t scanner);
struct yy_buffer_state *ptx__scan_buffer(char *base, size_t size, yyscan_t scanner);
int yyparse(void *scanner, ParseCtx *ctx);

static void report(ParseCtx *c, int line, int col, const char *msg)
{
    if (c->scanner) ptx_restore_buffer(c->scanner);
    diag_at(c->diag, "error", c->m->filename, c->m->buf, c->m->len, line, col, msg);
    c->failed = true;
}

static Module *parse(const char *filename, char *buf, size_t len, FILE *diag,
                     bool (*on_item)(void *, Module *, Stmt *), void *ud);

Module *parse_module(const char *filename, char *buf, size_t len, FILE *diag)
{
    return parse(filename, buf, len, diag, NULL, NULL);
}

Module *parse_module_stream(const char *filename, char *buf, size_t len, FILE *diag,
                            bool (*on_item)(void *ud, Module *m, Stmt *item), void *ud)
{
    return parse(filename, buf, len, diag, on_item, ud);
}

static Module *parse(const char *filename, char *buf, size_t len, FILE *diag,
                     bool (*on_item)(void *, Module *, Stmt *), void *ud)
{
    Module *m = ir_module_new(filename);
    m->buf = buf;
    m->len = len;
    buf[len] = buf[len + 1] = 0;

    ParseCtx c = { 0 };
    c.m = m;
    c.diag = diag ? diag : stderr;
    c.ls.buf = buf;
    c.ls.line_start = buf;
    c.ls.line = 1;
    c.on_item = on_item;
    c.ud = ud;
    c.item_mark = arena_mark(&m->arena);

    /* The scanner treats NUL as the end of the buffer: reject it up front. */
    const char *nul = memchr(buf, 0, len);
    if (nul) {
        int line = 1;
        const char *ls = buf;
        for (const char *p = buf; p < nul; p++) if (*p == '\n') { line++; ls = p + 1; }
        report(&c, line, (int)(nul - ls) + 1, "NUL byte in input (is this a binary file?)");
        ir_module_free(m);
        return NULL;
    }

    yyscan_t scanner;
    if (ptx_lex_init_extra(&c.ls, &scanner) != 0) {
        fprintf(c.diag, "ptxopt: internal error: cannot create the scanner\n");
        ir_module_free(m);
        return NULL;
    }
    ptx__scan_buffer(buf, len + 2, scanner);
    c.scanner = scanner;
    int rc = yyparse(scanner, &c);

    if (rc != 0 && !c.failed && c.stopped) c.failed = true; /* the consumer said why */
    if (rc != 0 && !c.failed) {
        if (c.pending) report(&c, c.pend_line, c.pend_col, c.pend_msg);
        else if (c.ls.error) report(&c, c.ls.err_line, c.ls.err_col, c.ls.err_msg);
        else report(&c, c.ls.line, 1, "syntax error");
    }
    if (!c.failed && !m->first && !c.items_seen)
        report(&c, c.ls.line, 1, len ? "empty input: no PTX statements (only blanks and comments)" : "empty input (no PTX statements)");
    ptx_lex_destroy(scanner);
    c.scanner = NULL;
    free(c.ostk);
    free(c.tstk);
    free(c.pct_vars);
    free(c.sdecl);
    free(c.sreg);
    if (c.failed) {
        ir_module_free(m);
        return NULL;
    }
    m->tail_src = buf + c.prev_end;
    m->tail_len = (uint32_t)(len - c.prev_end);
    return m;
}

/* Reads all of f into a malloc'ed buffer with two spare bytes for the
 * scanner.  Regular files are read at their exact size (no doubling: the
 * buffer lives as long as the module). */
static char *read_all(FILE *f, size_t *len)
{
    struct stat st;
    size_t cap = 1 << 16;
    if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0)
        cap = (size_t)st.st_size + 3;
    char *buf = malloc(cap);
    size_t n = 0;
    for (;;) {
        if (!buf) return NULL;
        size_t got = fread(buf + n, 1, cap - n - 2, f);
        n += got;
        if (got == 0) break;
        if (cap - n - 2 == 0) {
            char *nb = realloc(buf, cap * 2);
            if (!nb) { free(buf); return NULL; }
            buf = nb;
            cap *= 2;
        }
    }
    *len = n;
    return buf;
}

int parse_peek_version(const char *buf, size_t len)
{
    size_t i = 0;
    for (;;) {   /* whitespace and comments */
        while (i < len && (buf[i] == ' ' || buf[i] == '\t' || buf[i] == '\r' || buf[i] == '\n')) i++;
        if (i + 1 < len && buf[i] == '/' && buf[i + 1] == '/') {
            while (i < len && buf[i] != '\n') i++;
        } else if (i + 1 < len && buf[i] == '/' && buf[i + 1] == '*') {
            i += 2;
            while (i + 1 < len && !(buf[i] == '*' && buf[i + 1] == '/')) i++;
            if (i + 1 >= len) return -1;
            i += 2;
        } else {
            break;
        }
    }
    static const char kw[] = ".version";
    if (len - i < sizeof kw || memcmp(buf + i, kw, sizeof kw - 1) != 0) return -1;
    i += sizeof kw - 1;
    if (i >= len || (buf[i] != ' ' && buf[i] != '\t')) return -1;
    while (i < len && (buf[i] == ' ' || buf[i] == '\t')) i++;
    int v[2] = { 0, 0 };
    for (int k = 0; k < 2; k++) {
        size_t start = i;
        while (i < len && buf[i] >= '0' && buf[i] <= '9' && v[k] < 100000) v[k] = v[k] * 10 + (buf[i++] - '0');
        if (i == start) return -1;
        if (k == 0 && (i >= len || buf[i++] != '.')) return -1;
    }
    return v[0] * 100 + v[1];
}

char *read_file(const char *path, size_t *lenp, FILE *diag)
{
    if (!diag) diag = stderr;
    bool is_stdin = strcmp(path, "-") == 0;
    FILE *f = is_stdin ? stdin : fopen(path, "rb");
    if (!f) {
        fprintf(diag, "ptxopt: cannot read %s: %s\n", path, strerror(errno));
        return NULL;
    }
    size_t len = 0;
    errno = 0;
    char *buf = read_all(f, &len);
    int err = ferror(f) || !buf;
    int saved = errno;
    if (!is_stdin) fclose(f);
    if (err) {
        fprintf(diag, "ptxopt: cannot read %s: %s\n", path, saved ? strerror(saved) : "read error");
        free(buf);
        return NULL;
    }
    if (len >= ((size_t)1 << 32) - 4) {
        fprintf(diag, "ptxopt: %s: file too large (the limit is 4 GiB)\n", path);
        free(buf);
        return NULL;
    }
    *lenp = len;
    return buf;
}

Module *parse_file(const char *path, FILE *diag)
{
    size_t len;
    char *buf = read_file(path, &len, diag);
    if (!buf) return NULL;
    return parse_module(strcmp(path, "-") == 0 ? "<stdin>" : path, buf, len, diag);
}
