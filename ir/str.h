/* str.h — string slices.  IR strings point into the module's source buffer
 * or arena and carry their length; they are not NUL-terminated. */
#ifndef PTXOPT_STR_H
#define PTXOPT_STR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef struct Str {
    const char *p;
    size_t len;
} Str;

#define STR_LIT(s) ((Str){ (s), sizeof(s) - 1 })
#define STR_FMT(s) (int)(s).len, (s).p   /* printf("%.*s", STR_FMT(s)) */

static inline Str str_c(const char *s) { return (Str){ s, strlen(s) }; }
static inline bool str_eq(Str a, Str b)
{
    if (a.len != b.len) return false;
    /* names are short: a plain loop beats a call to memcmp */
    for (size_t i = 0; i < a.len; i++)
        if (a.p[i] != b.p[i]) return false;
    return true;
}
static inline bool str_eqc(Str a, const char *b) { size_t n = strlen(b); return a.len == n && memcmp(a.p, b, n) == 0; }
static inline bool str_starts(Str a, const char *b) { size_t n = strlen(b); return a.len >= n && memcmp(a.p, b, n) == 0; }
static inline bool str_empty(Str a) { return a.len == 0; }

static inline uint32_t str_hash(Str s)
{
    uint32_t h = 2166136261u;              /* FNV-1a */
    for (size_t i = 0; i < s.len; i++) h = (h ^ (uint8_t)s.p[i]) * 16777619u;
    return h;
}

#endif
