/* diag.h — compiler-style diagnostics: "file:line:col: error: message",
 * then the offending source line and a caret under the column. */
#ifndef PTXOPT_DIAG_H
#define PTXOPT_DIAG_H

#include <stddef.h>
#include <stdio.h>

/* `src`/`len` is the whole source (for quoting the line); may be NULL. */
void diag_at(FILE *out, const char *severity, const char *file, const char *src, size_t len,
             int line, int col, const char *msg);

#endif
