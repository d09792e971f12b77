/* remarks.h — what every pass did, and why it did not do more.
 * Collected per module run; printed as compiler-style notes and written as
 * JSON for scripts. */
#ifndef PTXOPT_REMARKS_H
#define PTXOPT_REMARKS_H

#include <stdio.h>

#include "ir/ir.h"

typedef enum RemarkKind { REMARK_APPLIED, REMARK_MISSED, REMARK_ANALYSIS } RemarkKind;

typedef struct Remark {
    const char *pass;
    char *function;     /* kernel or function name */
    int line;           /* source line, 0 when none */
    RemarkKind kind;
    char *message;
} Remark;

typedef struct Remarks {
    int n, cap;
    Remark *v;
} Remarks;

void remarks_init(Remarks *r);
void remarks_free(Remarks *r);
void remark(Remarks *r, const char *pass, const Function *fn, const Stmt *at, RemarkKind kind,
            const char *fmt, ...) __attribute__((format(printf, 6, 7)));
/* Drops every remark after the first n (r->n before a kernel's analysis):
 * a pass that abandons a kernel takes back what it said about it. */
void remarks_truncate(Remarks *r, int n);
void remarks_print(const Remarks *r, FILE *out, const char *file);
void remarks_json(const Remarks *r, FILE *out);
/* Writes s as a JSON string literal. */
void json_string(FILE *out, const char *s);

#endif
