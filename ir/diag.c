/* diag.c — see diag.h. */
#include "ir/diag.h"

#include <string.h>

void diag_at(FILE *out, const char *severity, const char *file, const char *src, size_t len,
             int line, int col, const char *msg)
{
    if (!out) out = stderr;
    fprintf(out, "%s:%d:%d: %s: %s\n", file, line, col, severity, msg);
    if (!src || line < 1) return;
    /* find the line */
    const char *p = src, *end = src + len;
    for (int l = 1; l < line && p < end; l++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        if (!nl) return;
        p = nl + 1;
    }
    const char *e = p;
    while (e < end && *e != '\n' && *e != '\r') e++;
    size_t n = (size_t)(e - p);
    if (n > 300) { /* huge lines: show the neighbourhood of the column only */
        size_t from = (col > 150) ? (size_t)col - 150 : 0;
        if (from > n) from = n;
        size_t m = n - from < 300 ? n - from : 300;
        fprintf(out, "  ...%.*s...\n", (int)m, p + from);
        fprintf(out, "  ...%*s^\n", (int)((size_t)col - 1 - from), "");
        return;
    }
    fputs("  ", out);
    for (size_t i = 0; i < n; i++) {
        unsigned char ch = (unsigned char)p[i];
        fputc(ch >= 0x20 || ch == '\t' ? ch : '?', out);
    }
    fputs("\n  ", out);
    for (int i = 1; i < col && (size_t)(i - 1) < n; i++) fputc(p[i - 1] == '\t' ? '\t' : ' ', out);
    fputs("^\n", out);
}
