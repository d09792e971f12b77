/* listing.c — read nvdisasm's listing (nvdisasm -c CUBIN) per function.
 *
 * nvdisasm 13 prints each function as a section ".text.NAME", an entry
 * marked by `.other NAME,@"STO_CUDA_ENTRY ..."`, the register count in
 * `.sectioninfo @"SHI_REGISTERS=N"`, and one instruction per line:
 *     <address comment>      @!P0 LDG.E.CONSTANT R13, [R2.64+0x8] ;
 * (the address in a C comment: slash-star 0080 star-slash).
 * The opcode is the first word after the guard predicate; its base (up to
 * the first '.') selects the class, and memory instructions also keep the
 * whole mnemonic so cache and scope suffixes (.EF, .LU, .STRONG.GPU,
 * .CONSTANT) show, with an '@' in front when a predicate guards them. */
#include "sass/sass.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "ir/fatal.h"

static SassKernel *add_kernel(SassModule *m, const char *name, size_t len)
{
    SassKernel *k = realloc(m->k, sizeof *k * (size_t)(m->n + 1));
    if (!k) fatal_oom();
    m->k = k;
    k = &m->k[m->n++];
    memset(k, 0, sizeof *k);
    k->name = strndup(name, len);
    if (!k->name) fatal_oom();
    k->regs = -1;
    k->stack = k->spill_stores = k->spill_loads = k->smem = -1;
    return k;
}

static void bump(SassOpCount **v, int *n, const char *op, size_t len)
{
    for (int i = 0; i < *n; i++)
        if (strlen((*v)[i].op) == len && memcmp((*v)[i].op, op, len) == 0) { (*v)[i].n++; return; }
    SassOpCount *nv = realloc(*v, sizeof **v * (size_t)(*n + 1));
    if (!nv) fatal_oom();
    *v = nv;
    nv[*n].op = strndup(op, len);
    if (!nv[*n].op) fatal_oom();
    nv[*n].n = 1;
    (*n)++;
}

/* Modifiers that say only how wide or how typed an access is: dropped from
 * the memory mnemonic so that the cache and scope suffixes stand out. */
static bool width_modifier(const char *m, size_t len)
{
    static const char *const w[] = { "8", "16", "32", "64", "128", "U8", "S8", "U16", "S16", "U32", "S32", "E", NULL };
    for (int i = 0; w[i]; i++)
        if (strlen(w[i]) == len && memcmp(w[i], m, len) == 0) return true;
    return false;
}

/* (constant loads are left out: ptxas uses them for every parameter) */
static bool is_memory(SassClass c)
{
    return c <= SASS_ATOM && c != SASS_LDC;
}

/* guarded: under a predicate other than PT; a guarded memory instruction
 * is kept as "@OP" (the shuffle pass leaves its loads in place, guarded
 * for the lanes whose partner is outside the warp). */
static void count_instr(SassKernel *k, const char *op, size_t len, bool guarded)
{
    size_t base = 0;
    while (base < len && op[base] != '.') base++;
    SassClass c = sass_classify(op, base);
    k->count[c]++;
    if (c != SASS_NOP) k->total++;
    if (c == SASS_OTHER) bump(&k->other, &k->nother, op, base);
    if (!is_memory(c)) return;
    char buf[128];
    size_t n = 0;
    if (guarded) buf[n++] = '@';
    for (size_t i = 0; i < base && n + 1 < sizeof buf; i++) buf[n++] = op[i];
    for (size_t i = base; i < len;) {
        size_t j = i + 1;
        while (j < len && op[j] != '.') j++;
        if (!width_modifier(op + i + 1, j - i - 1) && n + (j - i) < sizeof buf) {
            memcpy(buf + n, op + i, j - i);
            n += j - i;
        }
        i = j;
    }
    bump(&k->mem, &k->nmem, buf, n);
}

/* The symbol after `key` on line l (up to ',' or space or quote). */
static size_t word_after(const char *l, size_t len, const char *key, const char **start)
{
    size_t kl = strlen(key);
    const char *p = memmem(l, len, key, kl);
    if (!p) return 0;
    p += kl;
    const char *e = p, *end = l + len;
    while (e < end && *e != ',' && *e != '"' && !isspace((unsigned char)*e)) e++;
    *start = p;
    return (size_t)(e - p);
}

static void parse_line(SassModule *m, SassKernel **cur, const char *l, size_t len)
{
    const char *w;
    size_t wl;
    if ((wl = word_after(l, len, ".section\t.text.", &w)) || (wl = word_after(l, len, ".section .text.", &w))) {
        char *name = strndup(w, wl);
        if (!name) fatal_oom();
        *cur = sass_kernel(m, name);
        if (!*cur) *cur = add_kernel(m, w, wl);
        free(name);
        return;
    }
    if (!*cur) return;
    if (memmem(l, len, "STO_CUDA_ENTRY", 14) && memmem(l, len, ".other", 6)) {
        (*cur)->entry = true;
        return;
    }
    if ((wl = word_after(l, len, "SHI_REGISTERS=", &w))) {
        if ((*cur)->regs < 0) (*cur)->regs = atoi(w);
        return;
    }
    /* an instruction: address comment, [@[!]PRED] OPCODE operands ; */
    const char *p = l, *end = l + len;
    while (p < end && isspace((unsigned char)*p)) p++;
    if (end - p < 4 || p[0] != '/' || p[1] != '*') return;
    const char *c = memmem(p, (size_t)(end - p), "*/", 2);
    if (!c) return;
    p = c + 2;
    while (p < end && isspace((unsigned char)*p)) p++;
    bool guarded = false;
    if (p < end && *p == '@') {
        const char *g = p;
        while (p < end && !isspace((unsigned char)*p)) p++;
        guarded = !((p - g == 3 && memcmp(g, "@PT", 3) == 0) || (p - g == 4 && memcmp(g, "@UPT", 4) == 0));
        while (p < end && isspace((unsigned char)*p)) p++;
    }
    const char *op = p;
    while (p < end && (isalnum((unsigned char)*p) || *p == '.' || *p == '_')) p++;
    if (p == op || !isupper((unsigned char)*op)) return;   /* data (.byte, .word) or a label */
    count_instr(*cur, op, (size_t)(p - op), guarded);
}

void sass_parse_listing(const char *text, size_t len, SassModule *m)
{
    SassKernel *cur = NULL;
    const char *p = text, *end = text + len;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t l = (size_t)((nl ? nl : end) - p);
        parse_line(m, &cur, p, l);
        p = nl ? nl + 1 : end;
    }
    if (!m->arch[0]) {
        const char *w;
        size_t wl = word_after(text, len < 4096 ? len : 4096, ".target\t", &w);
        if (wl && wl < sizeof m->arch) memcpy(m->arch, w, wl), m->arch[wl] = 0;
    }
}

SassKernel *sass_kernel(const SassModule *m, const char *name)
{
    for (int i = 0; i < m->n; i++)
        if (strcmp(m->k[i].name, name) == 0) return &m->k[i];
    return NULL;
}

void sass_module_free(SassModule *m)
{
    for (int i = 0; i < m->n; i++) {
        SassKernel *k = &m->k[i];
        free(k->name);
        for (int j = 0; j < k->nmem; j++) free(k->mem[j].op);
        for (int j = 0; j < k->nother; j++) free(k->other[j].op);
        free(k->mem);
        free(k->other);
    }
    free(m->k);
    memset(m, 0, sizeof *m);
}
