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

/* The targets a .target directive may name (PTX ISA 9.0, ".target":
 * sm_10 ... sm_121), whether or not the table above has their limits. */
static const int ptx_targets[] = { 10, 11, 12, 13, 20, 30, 32, 35, 37, 50, 52, 53, 60, 61, 62, 70, 72, 75,
                                   80, 86, 87, 88, 89, 90, 100, 101, 103, 110, 120, 121 };

bool arch_parse_target(const char *name, char *canon, size_t canon_cap, int *sm_out, char *err, size_t errsz)
{
    static const char *const prefixes[] = { "sm_", "sm", "compute_", "lto_" };
    const char *s = name ? name : "";
    for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++) {
        size_t len = strlen(prefixes[i]);
        if (strncmp(s, prefixes[i], len) == 0) {
            s += len;
            break;
        }
    }
    const char *end = s;
    int sm = parse_sm_number(s, &end);
    char suffix = *end == 'a' || *end == 'f' ? *end++ : 0;
    bool known = false;
    for (size_t i = 0; sm >= 0 && i < sizeof ptx_targets / sizeof ptx_targets[0]; i++) known |= ptx_targets[i] == sm;
    /* 'a' (arch-specific) from sm_90 on, 'f' (family) from sm_100 on */
    if (known && *end == '\0' && (!suffix || (suffix == 'a' && sm >= 90) || (suffix == 'f' && sm >= 100))) {
        snprintf(canon, canon_cap, "sm_%d%s", sm, suffix == 'a' ? "a" : suffix == 'f' ? "f" : "");
        if (sm_out) *sm_out = sm;
        return true;
    }
    char list[256];
    size_t len = 0;
    for (size_t i = 0; i < sizeof ptx_targets / sizeof ptx_targets[0] && len < sizeof list; i++)
        len += (size_t)snprintf(list + len, sizeof list - len, "%ssm_%d", i ? ", " : "", ptx_targets[i]);
    snprintf(err, errsz, "unknown target '%s' (PTX targets: %s; sm_90 and newer also with an 'a' suffix, sm_100 and newer "
             "with 'f')", name ? name : "", list);
    return false;
}
