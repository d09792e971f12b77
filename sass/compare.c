/* compare.c — SASS figures before → after, as greppable lines and JSON. */
#include "sass/sass.h"

#include <string.h>

#include "opt/remarks.h"

/* Sums over a module's functions (regs, stack: the maximum). */
static void module_sum(const SassModule *m, SassKernel *s)
{
    memset(s, 0, sizeof *s);
    s->regs = -1;
    s->stack = s->spill_stores = s->spill_loads = s->smem = -1;
    if (!m) return;
    for (int i = 0; i < m->n; i++) {
        const SassKernel *k = &m->k[i];
        for (int c = 0; c < SASS_NCLASSES; c++) s->count[c] += k->count[c];
        s->total += k->total;
        if (k->regs > s->regs) s->regs = k->regs;
        if (k->stack > s->stack) s->stack = k->stack;
        if (k->spill_stores >= 0) s->spill_stores = (s->spill_stores < 0 ? 0 : s->spill_stores) + k->spill_stores;
        if (k->spill_loads >= 0) s->spill_loads = (s->spill_loads < 0 ? 0 : s->spill_loads) + k->spill_loads;
        if (k->smem > s->smem) s->smem = k->smem;
    }
}

static long spill(const SassKernel *k)
{
    if (!k || (k->spill_stores < 0 && k->spill_loads < 0)) return -1;
    return (k->spill_stores > 0 ? k->spill_stores : 0) + (k->spill_loads > 0 ? k->spill_loads : 0);
}

static void num(FILE *out, long v)
{
    if (v < 0) fputc('-', out);
    else fprintf(out, "%ld", v);
}

static void pair(FILE *out, const char *name, long b, long a, bool two)
{
    if (b < 0 && a < 0) return;   /* unknown on both sides (e.g. smem of a .func) */
    fprintf(out, " %s=", name);
    num(out, b);
    if (two) {
        fputs("->", out);
        num(out, a);
    }
}

static int mem_count(const SassKernel *k, const char *op)
{
    if (k)
        for (int i = 0; i < k->nmem; i++)
            if (strcmp(k->mem[i].op, op) == 0) return k->mem[i].n;
    return 0;
}

static void line(FILE *out, const SassKernel *b, const SassKernel *a, bool two)
{
    pair(out, "total", b ? b->total : -1, a ? a->total : -1, two);
    for (int c = 0; c < SASS_NCLASSES; c++) {
        long vb = b ? b->count[c] : -1, va = a ? a->count[c] : -1;
        bool always = c == SASS_LDG || c == SASS_STG || c == SASS_SHFL;
        if ((!always && vb <= 0 && va <= 0) || c == SASS_NOP) continue;
        pair(out, sass_class_name((SassClass)c), vb, va, two);
    }
    pair(out, "regs", b ? b->regs : -1, a ? a->regs : -1, two);
    pair(out, "spill", spill(b), spill(a), two);
    pair(out, "stack", b ? b->stack : -1, a ? a->stack : -1, two);
    pair(out, "smem", b ? b->smem : -1, a ? a->smem : -1, two);
    /* memory instructions with their cache and scope suffixes */
    const char *sep = " |";
    for (int side = 0; side < 2; side++) {
        const SassKernel *k = side ? a : b, *o = side ? b : a;
        if (!k) continue;
        for (int i = 0; i < k->nmem; i++) {
            const char *op = k->mem[i].op;
            if (side && mem_count(o, op)) continue;   /* printed with the before side */
            fprintf(out, "%s %s=", sep, op);
            sep = "";
            if (two) fprintf(out, "%d->%d", mem_count(b, op), mem_count(a, op));
            else fprintf(out, "%d", k->mem[i].n);
        }
    }
    fputc('\n', out);
}

void sass_print_compare(FILE *out, const char *prefix, const SassModule *before, const SassModule *after)
{
    bool two = after != NULL;
    int n = 0, entries = 0;
    for (int i = 0; i < before->n; i++) {
        const SassKernel *b = &before->k[i];
        fprintf(out, "%s %s %s:", prefix, b->entry ? "kernel" : "function", b->name);
        line(out, b, two ? sass_kernel(after, b->name) : NULL, two);
        n++, entries += b->entry;
    }
    for (int i = 0; two && i < after->n; i++) {
        const SassKernel *a = &after->k[i];
        if (sass_kernel(before, a->name)) continue;
        fprintf(out, "%s %s %s:", prefix, a->entry ? "kernel" : "function", a->name);
        line(out, NULL, a, two);
        n++, entries += a->entry;
    }
    SassKernel sb, sa;
    module_sum(before, &sb);
    module_sum(after, &sa);
    fprintf(out, "%s: %s, %d kernel%s, %d function%s:", prefix, before->arch, entries, entries == 1 ? "" : "s",
            n - entries, n - entries == 1 ? "" : "s");
    line(out, &sb, two ? &sa : NULL, two);
}

static void jnum(FILE *out, const char *key, long v, bool *first)
{
    fprintf(out, "%s\"%s\":", *first ? "" : ",", key);
    *first = false;
    if (v < 0) fputs("null", out);
    else fprintf(out, "%ld", v);
}

void sass_json_kernel(FILE *out, const SassKernel *k)
{
    if (!k) {
        fputs("null", out);
        return;
    }
    bool first = true;
    fputc('{', out);
    jnum(out, "total", k->total, &first);
    for (int c = 0; c < SASS_NCLASSES; c++) jnum(out, sass_class_name((SassClass)c), k->count[c], &first);
    jnum(out, "regs", k->regs, &first);
    jnum(out, "stack", k->stack, &first);
    jnum(out, "spill_stores", k->spill_stores, &first);
    jnum(out, "spill_loads", k->spill_loads, &first);
    jnum(out, "smem", k->smem, &first);
    fputs(",\"memory\":{", out);
    for (int i = 0; i < k->nmem; i++) {
        if (i) fputc(',', out);
        json_string(out, k->mem[i].op);
        fprintf(out, ":%d", k->mem[i].n);
    }
    fputs("},\"other_opcodes\":{", out);
    for (int i = 0; i < k->nother; i++) {
        if (i) fputc(',', out);
        json_string(out, k->other[i].op);
        fprintf(out, ":%d", k->other[i].n);
    }
    fputs("}}", out);
}

static void json_entry(FILE *out, const SassKernel *b, const SassKernel *a, bool *first)
{
    const SassKernel *k = b ? b : a;
    fprintf(out, "%s{\"name\":", *first ? "" : ",");
    *first = false;
    json_string(out, k->name);
    fprintf(out, ",\"entry\":%s,\"before\":", k->entry ? "true" : "false");
    sass_json_kernel(out, b);
    fputs(",\"after\":", out);
    sass_json_kernel(out, a);
    fputc('}', out);
}

void sass_json_compare(FILE *out, const SassModule *before, const SassModule *after)
{
    fputs("{\"arch\":", out);
    json_string(out, before->arch);
    fputs(",\"kernels\":[", out);
    bool first = true;
    for (int i = 0; i < before->n; i++)
        json_entry(out, &before->k[i], after ? sass_kernel(after, before->k[i].name) : NULL, &first);
    for (int i = 0; after && i < after->n; i++)
        if (!sass_kernel(before, after->k[i].name)) json_entry(out, NULL, &after->k[i], &first);
    SassKernel sb, sa;
    module_sum(before, &sb);
    module_sum(after, &sa);
    fputs("],\"summary\":{\"before\":", out);
    sass_json_kernel(out, &sb);
    fputs(",\"after\":", out);
    sass_json_kernel(out, after ? &sa : NULL);
    fputs("}}", out);
}
