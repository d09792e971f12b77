/* print.h — PTX printer.
 *
 * Lossless mode prints every statement that no pass touched from its
 * original text (so an unchanged module is reproduced byte for byte) and
 * touched or new statements in the canonical style, keeping the original
 * leading whitespace/comments of a touched statement.  Canonical mode
 * prints everything in the canonical style:
 *   - one statement per line; instructions, declarations and directives in a
 *     body are indented by one tab, labels start in column 0 and end in ':';
 *   - operands are separated by ", "; guards print as "@%p " / "@!%p ";
 *   - comments are dropped; unknown statements print verbatim;
 *   - a function header prints its parameters one per line. */
#ifndef PTXOPT_PRINT_H
#define PTXOPT_PRINT_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

#include "ir/ir.h"

typedef struct OutBuf {
    char *p;
    size_t len, cap;
    int fd;             /* >= 0: flushed to this file descriptor as it fills */
    bool failed;        /* a write to fd failed (errno saved in err) */
    int err;
} OutBuf;

void out_init(OutBuf *o);
/* A buffer that writes through to fd in large blocks (streaming output). */
void out_init_fd(OutBuf *o, int fd);
/* Writes what is buffered to fd (no-op for memory buffers); false on error. */
bool out_flush(OutBuf *o);
void out_free(OutBuf *o);
void out_reserve(OutBuf *o, size_t extra);
static inline void out_write(OutBuf *o, const char *s, size_t n)
{
    /* An empty write leaves an unallocated buffer alone (NULL + 0 is
     * undefined behaviour in C, and UBSan says so). */
    if (n == 0) return;
    if (o->cap - o->len < n) out_reserve(o, n);
    memcpy(o->p + o->len, s, n);
    o->len += n;
}
static inline void out_char(OutBuf *o, char c) { out_write(o, &c, 1); }
static inline void out_str(OutBuf *o, Str s) { out_write(o, s.p, s.len); }
static inline void out_cstr(OutBuf *o, const char *s) { out_write(o, s, strlen(s)); }
void out_printf(OutBuf *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

void print_module(OutBuf *o, const Module *m, bool canonical);
/* One top-level item (a directive, declaration or function), as
 * print_module prints it; the module's trailing text is printed by
 * print_module_tail. Used when streaming. */
void print_item(OutBuf *o, const Module *m, const Stmt *item, bool canonical);
void print_module_tail(OutBuf *o, const Module *m, bool canonical);
/* Canonical text of one instruction, without indentation or newline, with ';'. */
void print_instr(OutBuf *o, const Instr *in);
void print_operand(OutBuf *o, const Operand *op);
/* Tokens joined with canonical spacing (declarations, directive bodies). */
void print_tokens(OutBuf *o, const Token *t, uint32_t n);

#endif
