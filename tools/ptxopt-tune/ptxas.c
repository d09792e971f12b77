/* ptxas.c — run ptxas -v and read what it says per entry function.
 *
 * ptxas 13.0 prints, for every entry it compiles:
 *   ptxas info    : Compiling entry function 'NAME' for 'sm_80'
 *   ptxas info    : Function properties for NAME
 *       S bytes stack frame, T bytes spill stores, L bytes spill loads
 *   ptxas info    : Used R registers, used B barriers[, K bytes cumulative stack size][, M bytes smem], ...
 * and "Function properties for F" + a stack line for every non-inlined
 * .func (no "Used" line).  We attribute the stack line to the function
 * named just before it and the "Used" line to the entry being compiled. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/ptxopt-tune/tune.h"
#include "ir/fatal.h"

static char *dup_quoted(const char *p)
{
    const char *q = strchr(p, '\'');
    if (!q) return NULL;
    const char *e = strchr(q + 1, '\'');
    if (!e) return NULL;
    char *s = strndup(q + 1, (size_t)(e - q - 1));
    if (!s) fatal_oom();
    return s;
}

static int find_or_add(PtxasRun *r, char *name)
{
    for (int i = 0; i < r->n; i++)
        if (strcmp(r->names[i], name) == 0) { free(name); return i; }
    r->names = realloc(r->names, sizeof *r->names * (size_t)(r->n + 1));
    r->stats = realloc(r->stats, sizeof *r->stats * (size_t)(r->n + 1));
    if (!r->names || !r->stats) fatal_oom();
    r->names[r->n] = name;
    memset(&r->stats[r->n], 0, sizeof r->stats[0]);
    return r->n++;
}

/* The number just before `word` in line ("576 bytes stack frame"), or -1. */
static long long number_before(const char *line, const char *word)
{
    const char *w = strstr(line, word);
    if (!w) return -1;
    const char *p = w;
    while (p > line && p[-1] == ' ') p--;
    const char *e = p;
    while (p > line && p[-1] >= '0' && p[-1] <= '9') p--;
    if (p == e) return -1;
    return strtoll(p, NULL, 10);
}

void ptxas_parse_log(const char *text, PtxasRun *r)
{
    int entry = -1, props = -1;
    const char *line = text;
    while (line && *line) {
        const char *nl = strchr(line, '\n');
        size_t len = nl ? (size_t)(nl - line) : strlen(line);
        char *l = strndup(line, len);
        if (!l) fatal_oom();
        char *name;
        if (strstr(l, "Compiling entry function '") && (name = dup_quoted(strstr(l, "Compiling entry function")))) {
            entry = find_or_add(r, name);
            r->stats[entry].found = true;
        } else if (strstr(l, "Function properties for ")) {
            char *s = strstr(l, "Function properties for ") + strlen("Function properties for ");
            props = -1;
            for (int i = 0; i < r->n; i++)
                if (strcmp(r->names[i], s) == 0) props = i;
        } else if (strstr(l, "bytes stack frame")) {
            if (props >= 0) {
                PtxasStats *st = &r->stats[props];
                st->stack = number_before(l, "bytes stack frame");
                st->spill_stores = number_before(l, "bytes spill stores");
                st->spill_loads = number_before(l, "bytes spill loads");
            }
            props = -1;
        } else if (strstr(l, "Used ") && strstr(l, " registers") && entry >= 0) {
            PtxasStats *st = &r->stats[entry];
            const char *u = strstr(l, "Used ");
            st->regs = atoi(u + 5);
            long long b = number_before(l, "barriers");
            st->barriers = b > 0 ? (int)b : 0;
            long long sm = number_before(l, "bytes smem");
            st->smem = sm > 0 ? sm : 0;
        }
        free(l);
        line = nl ? nl + 1 : NULL;
    }
    if (r->stats)
        for (int i = 0; i < r->n; i++) {
            if (r->stats[i].stack < 0) r->stats[i].stack = 0;
            if (r->stats[i].spill_stores < 0) r->stats[i].spill_stores = 0;
            if (r->stats[i].spill_loads < 0) r->stats[i].spill_loads = 0;
        }
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return strdup("");
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = malloc(n > 0 ? (size_t)n + 1 : 1);
    if (!b) fatal_oom();
    size_t got = n > 0 ? fread(b, 1, (size_t)n, f) : 0;
    b[got] = 0;
    fclose(f);
    return b;
}

/* The first line that says what went wrong: an error or fatal line other
 * than the closing "Ptx assembly aborted due to errors". */
static void first_error(const char *log, char *out, size_t n)
{
    out[0] = 0;
    for (const char *l = log; l && *l;) {
        const char *nl = strchr(l, '\n');
        size_t len = nl ? (size_t)(nl - l) : strlen(l);
        char *line = strndup(l, len);
        if (!line) fatal_oom();
        if ((strstr(line, "error") || strstr(line, "fatal")) && !strstr(line, "assembly aborted")) {
            snprintf(out, n, "%s", line);
            free(line);
            return;
        }
        if (!out[0] && len) snprintf(out, n, "%s", line);
        free(line);
        l = nl ? nl + 1 : NULL;
    }
}

PtxasRun ptxas_run(const char *ptxas, const char *arch, char *const *opts, int nopts, const char *ptx,
                   const char *cubin, const char *log_path)
{
    PtxasRun r = { 0 };
    char archopt[64];
    snprintf(archopt, sizeof archopt, "-arch=%s", arch);
    char **argv = calloc((size_t)nopts + 8, sizeof *argv);
    if (!argv) fatal_oom();
    int n = 0;
    argv[n++] = (char *)ptxas;
    argv[n++] = archopt;
    argv[n++] = "-v";
    for (int i = 0; i < nopts; i++) argv[n++] = opts[i];
    argv[n++] = (char *)ptx;
    argv[n++] = "-o";
    argv[n++] = (char *)cubin;
    ExecResult x = tune_exec(argv, NULL, log_path, log_path, 0);
    free(argv);
    if (x.status < 0) {
        snprintf(r.error, sizeof r.error, "%s", x.error);
        return r;
    }
    char *log = slurp(log_path);
    ptxas_parse_log(log, &r);
    if (x.status != 0) {
        char first[400];
        first_error(log, first, sizeof first);
        snprintf(r.error, sizeof r.error, "ptxas exited with status %d: %s", x.status, *first ? first : "(no message)");
        free(log);
        return r;
    }
    free(log);
    r.ok = true;
    r.code_hash = cubin_code_hash(cubin);
    return r;
}

void ptxas_run_free(PtxasRun *r)
{
    for (int i = 0; i < r->n; i++) free(r->names[i]);
    free(r->names);
    free(r->stats);
    memset(r, 0, sizeof *r);
}

const PtxasStats *ptxas_stats_of(const PtxasRun *r, const char *entry)
{
    for (int i = 0; i < r->n; i++)
        if (strcmp(r->names[i], entry) == 0) return &r->stats[i];
    return NULL;
}

/* ------------------------------------------------------------ ELF code */

static unsigned long long rd(const unsigned char *p, int n)
{
    unsigned long long v = 0;
    for (int i = n - 1; i >= 0; i--) v = (v << 8) | p[i];
    return v;
}

static unsigned long long fnv(unsigned long long h, const unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 1099511628211ull;
    return h;
}

/* Two variants with the same machine code are one variant: the cubin's
 * attributes (e.g. the .maxnreg value) differ even when the code does not,
 * so we hash the code sections only. */
unsigned long long cubin_code_hash(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return 0;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *d = n > 64 ? malloc((size_t)n) : NULL;
    unsigned long long h = 0;
    if (d && fread(d, 1, (size_t)n, f) == (size_t)n && memcmp(d, "\177ELF\2\1", 6) == 0) {
        unsigned long long shoff = rd(d + 0x28, 8);
        unsigned shentsize = (unsigned)rd(d + 0x3a, 2), shnum = (unsigned)rd(d + 0x3c, 2), shstrndx = (unsigned)rd(d + 0x3e, 2);
        if (shentsize >= 64 && shstrndx < shnum && shoff + (unsigned long long)shnum * shentsize <= (unsigned long long)n) {
            const unsigned char *strsec = d + shoff + (size_t)shstrndx * shentsize;
            unsigned long long stroff = rd(strsec + 0x18, 8), strsize = rd(strsec + 0x20, 8);
            h = 1469598103934665603ull;
            for (unsigned i = 0; i < shnum && stroff + strsize <= (unsigned long long)n; i++) {
                const unsigned char *s = d + shoff + (size_t)i * shentsize;
                unsigned long long name = rd(s, 4), off = rd(s + 0x18, 8), size = rd(s + 0x20, 8);
                if (name >= strsize) continue;
                const char *nm = (const char *)d + stroff + name;
                if (strnlen(nm, strsize - name) == strsize - name) continue;
                if (strncmp(nm, ".text.", 6) != 0 || off + size > (unsigned long long)n) continue;
                h = fnv(h, (const unsigned char *)nm, strlen(nm) + 1);
                h = fnv(h, d + off, size);
            }
        }
    }
    free(d);
    fclose(f);
    return h;
}
