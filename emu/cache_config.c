/* cache_config.c — parsing --cache=ARCH[,key=value...] (emu.h,
 * EmuCacheConfig).  Values are checked here, before a run, so that a typo
 * is a usage error and not a silently different model; the geometry that
 * depends on the launch (sets, residency) is checked by cache_setup. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/emu.h"
#include "model/arch.h"
#include "model/cache.h"

typedef struct Key { const char *name; size_t off; long lo, hi; } Key;

static const Key keys[] = {
    { "l1", offsetof(EmuCacheConfig, l1_kb), 1, 1 << 20 },
    { "carveout", offsetof(EmuCacheConfig, carveout_kb), 0, 1 << 20 },
    { "l2", offsetof(EmuCacheConfig, l2_kb), 1, 1 << 22 },
    { "assoc", offsetof(EmuCacheConfig, assoc), 1, 1 << 16 },
    { "l2-assoc", offsetof(EmuCacheConfig, l2_assoc), 1, 1 << 16 },
    { "sms", offsetof(EmuCacheConfig, sms), 1, 1024 },
    { "ctas-per-sm", offsetof(EmuCacheConfig, ctas_per_sm), 1, 1024 },
    { "partition", offsetof(EmuCacheConfig, partition), 0, 32 },
};

bool emu_cache_parse(const char *spec, EmuCacheConfig *c, char *err, size_t errlen)
{
    memset(c, 0, sizeof *c);
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) *(int *)((char *)c + keys[k].off) = -1;
    const char *comma = strchr(spec, ',');
    size_t alen = comma ? (size_t)(comma - spec) : strlen(spec);
    if (alen == 0 || alen >= sizeof c->arch) { snprintf(err, errlen, "expected a target such as sm_80 first"); return false; }
    memcpy(c->arch, spec, alen);
    c->arch[alen] = 0;
    const Arch *a = arch_find(c->arch);
    if (!a || !cache_geom_of(a)) {
        snprintf(err, errlen, "no cache model for target '%s' (sm_70, sm_75, sm_80, sm_86, sm_89, sm_90)", c->arch);
        return false;
    }
    const char *p = comma;
    while (p && *p) {
        p++;                                    /* past the comma */
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        const char *eq = memchr(p, '=', len);
        if (!eq) { snprintf(err, errlen, "'%.*s' is not key=value", (int)len, p); return false; }
        size_t klen = (size_t)(eq - p);
        if (klen == 5 && strncmp(p, "index", 5) == 0) {
            size_t vlen = len - 6;
            if (vlen == 4 && strncmp(eq + 1, "hash", 4) == 0) c->index_mod = false;
            else if (vlen == 3 && strncmp(eq + 1, "mod", 3) == 0) c->index_mod = true;
            else { snprintf(err, errlen, "bad value '%.*s' for index (hash or mod)", (int)vlen, eq + 1); return false; }
            p = end;
            continue;
        }
        const Key *key = NULL;
        for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++)
            if (strlen(keys[k].name) == klen && strncmp(keys[k].name, p, klen) == 0) key = &keys[k];
        if (!key) {
            snprintf(err, errlen, "unknown key '%.*s' (l1, carveout, l2, assoc, l2-assoc, sms, ctas-per-sm, partition, index)", (int)klen, p);
            return false;
        }
        char num[32];
        size_t vlen = len - klen - 1;
        if (vlen == 0 || vlen >= sizeof num) { snprintf(err, errlen, "bad value for %s", key->name); return false; }
        memcpy(num, eq + 1, vlen);
        num[vlen] = 0;
        char *e;
        errno = 0;
        long v = strtol(num, &e, 10);
        if (*e || errno || v < key->lo || v > key->hi) {
            snprintf(err, errlen, "bad value '%s' for %s (an integer in %ld..%ld)", num, key->name, key->lo, key->hi);
            return false;
        }
        *(int *)((char *)c + key->off) = (int)v;
        p = end;
    }
    return true;
}
