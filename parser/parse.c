/* parse.c — run the scanner and the grammar over a buffer (see parse.h). */
#include "parser/parse.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

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
    lex_restore_buffer(&c->ls);
    diag_at(c->diag, "error", c->m->filename, c->m->buf, c->m->len, line, col, msg);
    c->failed = true;
}

Module *parse_module(const char *filename, char *buf, size_t len, FILE *diag)
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
    int rc = yyparse(scanner, &c);
    ptx_lex_destroy(scanner);

    if (rc != 0 && !c.failed) {
        if (c.pending) report(&c, c.pend_line, c.pend_col, c.pend_msg);
        else if (c.ls.error) report(&c, c.ls.err_line, c.ls.err_col, c.ls.err_msg);
        else report(&c, c.ls.line, 1, "syntax error");
    }
    free(c.ostk);
    free(c.tstk);
    if (c.failed) {
        ir_module_free(m);
        return NULL;
    }
    m->tail_src = buf + c.prev_end;
    m->tail_len = (uint32_t)(len - c.prev_end);
    return m;
}

Module *parse_file(const char *path, FILE *diag)
{
    FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
    if (!f) {
        fprintf(diag ? diag : stderr, "ptxopt: cannot read %s: %s\n", path, strerror(errno));
        return NULL;
    }
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    for (;;) {
        if (!buf) { fprintf(stderr, "ptxopt: out of memory reading %s\n", path); if (f != stdin) fclose(f); return NULL; }
        size_t n = fread(buf + len, 1, cap - len - 2, f);
        len += n;
        if (n == 0) break;
        if (cap - len - 2 == 0) {
            if (cap > ((size_t)1 << 32)) { fprintf(stderr, "ptxopt: %s: file too large\n", path); free(buf); if (f != stdin) fclose(f); return NULL; }
            cap *= 2;
            buf = realloc(buf, cap);
        }
    }
    int err = ferror(f);
    if (f != stdin) fclose(f);
    if (err) {
        fprintf(diag ? diag : stderr, "ptxopt: cannot read %s: read error\n", path);
        free(buf);
        return NULL;
    }
    return parse_module(path, buf, len, diag);
}
