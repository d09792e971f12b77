/* arch.c — finding an architecture by name or number, and carve-out steps. */
#include "model/arch.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

const Arch *arch_by_sm(int sm)
{
    size_t n;
    const Arch *t = arch_table(&n);
    for (size_t i = 0; i < n; i++)
        if (t[i].sm == sm)
            return &t[i];
    return NULL;
}

/* Parses the digits of "86", "100" (at most 3 digits) or "8.6"; returns -1 on
 * anything else.  *end receives the first unparsed character. */
static int parse_sm_number(const char *s, const char **end)
{
    int v = 0, digits = 0;
    while (isdigit((unsigned char)*s) && digits < 4) {
        v = v * 10 + (*s++ - '0');
        digits++;
    }
    if (digits == 0 || digits > 3)
        return -1;
    if (*s == '.') {             /* "8.6", "10.0", "12.1" */
        s++;
        if (!isdigit((unsigned char)*s) || isdigit((unsigned char)s[1]))
            return -1;
        v = v * 10 + (*s++ - '0');
    }
    *end = s;
    return v;
}

const Arch *arch_find(const char *name)
{
    if (!name)
        return NULL;
    static const char *const prefixes[] = { "sm_", "sm", "compute_", "lto_" };
    const char *s = name;
    for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++) {
        size_t len = strlen(prefixes[i]);
        if (strncmp(s, prefixes[i], len) == 0) {
            s += len;
            break;
        }
    }
    const char *end;
    int sm = parse_sm_number(s, &end);
    if (sm < 0)
        return NULL;
    /* Feature-set suffixes: sm_90a (arch-specific), sm_100f (family). They
     * add instructions, not resources. */
    if (*end == 'a' || *end == 'f')
        end++;
    if (*end != '\0')
        return NULL;
    return arch_by_sm(sm);
}

long long arch_carveout_at_least(const Arch *a, long long bytes)
{
    if (bytes < 0)
        return -1;
    if (a->n_carveouts == 0)
        return bytes <= a->smem_per_sm ? a->smem_per_sm : -1;
    for (int i = 0; i < a->n_carveouts; i++) {
        long long step = (long long)a->carveout_kb[i] * 1024;
        if (bytes <= step)
            return step;
    }
    return -1;
}

const Arch *arch_parse_target(const char *name, char *canon, size_t canon_cap, char *err, size_t errsz)
{
    const Arch *a = arch_find(name);
    if (a) {
        size_t n = strlen(name);
        const char *suffix = n && (name[n - 1] == 'a' || name[n - 1] == 'f') ? name + n - 1 : "";
        snprintf(canon, canon_cap, "%s%s", a->name, suffix);
        return a;
    }
    size_t count, len = 0;
    const Arch *t = arch_table(&count);
    char known[256] = "";
    for (size_t i = 0; i < count && len < sizeof known; i++)
        len += (size_t)snprintf(known + len, sizeof known - len, "%s%s", i ? ", " : "", t[i].name);
    snprintf(err, errsz, "unknown target '%s' (known: %s; with an 'a' or 'f' suffix too, e.g. sm_90a)", name, known);
    return NULL;
}
