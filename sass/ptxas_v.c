/* ptxas_v.c — what ptxas -v says per function.
 *
 * ptxas 13.0 prints, for every entry it compiles:
 *   ptxas info    : Compiling entry function 'NAME' for 'sm_80'
 *   ptxas info    : Function properties for NAME
 *       S bytes stack frame, T bytes spill stores, L bytes spill loads
 *   ptxas info    : Used R registers, used B barriers[, M bytes smem], ...
 * and a "Function properties" paragraph for every non-inlined .func (no
 * "Used" line).  The stack line belongs to the function named just before
 * it, the "Used" line to the entry being compiled.  An entry the listing
 * did not show is added; a .func is not: in a whole-program cubin ptxas
 * places a copy of each callee inside its caller's section
 * ($CALLER$CALLEE), so its code is counted in the kernel's line and a line
 * of its own would read "total=0". */
#include "sass/sass.h"

#include <stdlib.h>
#include <string.h>

#include "ir/fatal.h"

/* The function called name; added when `add`, else NULL when unknown. */
static SassKernel *get(SassModule *m, const char *name, size_t len, bool add)
{
    char *s = strndup(name, len);
    if (!s) fatal_oom();
    SassKernel *k = sass_kernel(m, s);
    if (!k && !add) {
        free(s);
        return NULL;
    }
    if (!k) {
        SassKernel *v = realloc(m->k, sizeof *v * (size_t)(m->n + 1));
        if (!v) fatal_oom();
        m->k = v;
        k = &m->k[m->n++];
        memset(k, 0, sizeof *k);
        k->name = s;
        k->regs = -1;
        k->stack = k->spill_stores = k->spill_loads = k->smem = -1;
    } else {
        free(s);
    }
    return k;
}

/* The number just before `word` in [l, e) ("576 bytes stack frame"), or -1. */
static long number_before(const char *l, const char *e, const char *word)
{
    const char *w = memmem(l, (size_t)(e - l), word, strlen(word));
    if (!w) return -1;
    const char *p = w;
    while (p > l && p[-1] == ' ') p--;
    const char *d = p;
    while (p > l && p[-1] >= '0' && p[-1] <= '9') p--;
    return p == d ? -1 : strtol(p, NULL, 10);
}

void sass_parse_ptxas_log(const char *text, SassModule *m)
{
    /* indices, not pointers: get() may move the array */
    int entry = -1, props = -1;
    for (const char *l = text; l && *l;) {
        const char *nl = strchr(l, '\n'), *e = nl ? nl : l + strlen(l);
        const char *p;
        static const char ce[] = "Compiling entry function '", fp[] = "Function properties for ";
        if ((p = memmem(l, (size_t)(e - l), ce, sizeof ce - 1))) {
            p += sizeof ce - 1;
            const char *q = memchr(p, '\'', (size_t)(e - p));
            if (q) {
                SassKernel *k = get(m, p, (size_t)(q - p), true);
                k->entry = true;
                entry = (int)(k - m->k);
            }
        } else if ((p = memmem(l, (size_t)(e - l), fp, sizeof fp - 1))) {
            p += sizeof fp - 1;
            const char *q = p;
            while (q < e && *q != ' ' && *q != '\r') q++;
            SassKernel *k = get(m, p, (size_t)(q - p), false);
            props = k ? (int)(k - m->k) : -1;
        } else if (memmem(l, (size_t)(e - l), "bytes stack frame", 17)) {
            if (props >= 0) {
                SassKernel *k = &m->k[props];
                k->stack = number_before(l, e, "bytes stack frame");
                k->spill_stores = number_before(l, e, "bytes spill stores");
                k->spill_loads = number_before(l, e, "bytes spill loads");
            }
            props = -1;
        } else if ((p = memmem(l, (size_t)(e - l), "Used ", 5)) && memmem(l, (size_t)(e - l), " registers", 10) &&
                   entry >= 0) {
            SassKernel *k = &m->k[entry];
            k->regs = atoi(p + 5);
            long sm = number_before(l, e, "bytes smem");
            k->smem = sm > 0 ? sm : 0;
        }
        l = nl ? nl + 1 : NULL;
    }
}
