/* remarks.c — see remarks.h. */
#include "opt/remarks.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "ir/fatal.h"

void remarks_init(Remarks *r) { r->n = r->cap = 0; r->v = NULL; }

void remarks_free(Remarks *r)
{
    for (int i = 0; i < r->n; i++) { free(r->v[i].function); free(r->v[i].message); }
    free(r->v);
    remarks_init(r);
}

void remark(Remarks *r, const char *pass, const Function *fn, const Stmt *at, RemarkKind kind, const char *fmt, ...)
{
    if (!r) return;
    if (r->n == r->cap) {
        r->cap = r->cap ? r->cap * 2 : 16;
        r->v = realloc(r->v, sizeof(Remark) * (size_t)r->cap);
        if (!r->v) fatal_oom();
    }
    Remark *x = &r->v[r->n++];
    x->pass = pass;
    x->function = fn ? strndup(fn->name.p, fn->name.len) : strdup("");
    x->line = at ? (int)at->line : (fn && fn->stmt ? (int)fn->stmt->line : 0);
    x->kind = kind;
    va_list ap;
    va_start(ap, fmt);
    if (vasprintf(&x->message, fmt, ap) < 0) fatal_oom();
    va_end(ap);
    if (!x->function) fatal_oom();
}

void remarks_truncate(Remarks *r, int n)
{
    if (!r) return;
    while (r->n > n) {
        r->n--;
        free(r->v[r->n].function);
        free(r->v[r->n].message);
    }
}

static const char *kind_name(RemarkKind k)
{
    return k == REMARK_APPLIED ? "applied" : k == REMARK_MISSED ? "missed" : "analysis";
}

void remarks_print(const Remarks *r, FILE *out, const char *file)
{
    for (int i = 0; i < r->n; i++) {
        const Remark *x = &r->v[i];
        fprintf(out, "%s:%d: remark: [%s] %s: %s (%s)\n", file, x->line, x->pass, x->function,
                x->message, kind_name(x->kind));
    }
}

void json_string(FILE *out, const char *s)
{
    fputc('"', out);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') { fputc('\\', out); fputc(c, out); }
        else if (c == '\n') fputs("\\n", out);
        else if (c == '\t') fputs("\\t", out);
        else if (c < 0x20) fprintf(out, "\\u%04x", c);
        else fputc(c, out);
    }
    fputc('"', out);
}

void remarks_json(const Remarks *r, FILE *out)
{
    fputc('[', out);
    for (int i = 0; i < r->n; i++) {
        const Remark *x = &r->v[i];
        fprintf(out, "%s{\"pass\":", i ? "," : "");
        json_string(out, x->pass);
        fputs(",\"function\":", out);
        json_string(out, x->function);
        fprintf(out, ",\"line\":%d,\"kind\":\"%s\",\"message\":", x->line, kind_name(x->kind));
        json_string(out, x->message);
        fputc('}', out);
    }
    fputc(']', out);
}
