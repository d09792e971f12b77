/* args.c — kernel arguments: parsing the --arg syntax and generating
 * buffer contents.
 *
 *   TYPE:VALUE                       scalar (i8..i64, u8..u64, f16, bf16, f32, f64;
 *                                    VALUE decimal, 0x hex, or 0fXXXXXXXX/0dX... float bits)
 *   buf:TYPE:N:zeros | iota | fill=V | file=PATH | random[:SEED[:LO:HI]]
 *   bytes:HEX                        raw parameter bytes (e.g. a struct), in memory order
 *   struct:TYPE:VALUE,TYPE:VALUE...  a struct laid out with natural alignment
 *
 * The random generator is documented so that tests can reproduce it
 * (testsuite/emu/emuref.py does): splitmix64 with state = SEED; each
 * element takes the next 64-bit output z:
 *     integers: LO + z mod (HI - LO)
 *     floats:   LO + (z >> 11) * 2^-53 * (HI - LO), rounded to nearest in the type
 * Default ranges: unsigned [0, 256), signed [-128, 128), floats [-1, 1);
 * default SEED is 1. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "emu/fp.h"
#include "emu/internal.h"

static uint64_t splitmix(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* Bits of a double in the given element type. */
static uint64_t from_double(EmuType t, double v)
{
    switch (t) {
    case EMU_T_F16: return double_to_f16(v, RND_RN, false);
    case EMU_T_BF16: return double_to_bf16(v, RND_RN, false);
    case EMU_T_F32: return bits_f32((float)v);
    case EMU_T_F64: return bits_f64(v);
    case EMU_T_S8: case EMU_T_S16: case EMU_T_S32: case EMU_T_S64: return (uint64_t)(int64_t)v;
    default: return v < 0 ? (uint64_t)(int64_t)v : (uint64_t)v;
    }
}

static bool parse_value(EmuType t, const char *s, uint64_t *bits)
{
    char *end;
    errno = 0;
    if (emu_type_is_float(t)) {
        if (s[0] == '0' && (s[1] == 'f' || s[1] == 'F') && t == EMU_T_F32) { *bits = strtoull(s + 2, &end, 16); return *end == 0 && end != s + 2; }
        if (s[0] == '0' && (s[1] == 'd' || s[1] == 'D') && t == EMU_T_F64) { *bits = strtoull(s + 2, &end, 16); return *end == 0 && end != s + 2; }
        if (s[0] == '0' && (s[1] == 'h' || s[1] == 'H') && (t == EMU_T_F16 || t == EMU_T_BF16)) { *bits = strtoull(s + 2, &end, 16); return *end == 0; }
        double d = strtod(s, &end);
        if (*end || end == s) return false;
        *bits = from_double(t, d);
        return true;
    }
    size_t sz = emu_type_size(t);
    if (s[0] == '-') {
        long long v = strtoll(s, &end, 0);
        if (*end || end == s || errno) return false;
        *bits = (uint64_t)v & mask_bits((int)sz * 8);
    } else {
        unsigned long long v = strtoull(s, &end, 0);
        if (*end || end == s || errno) return false;
        *bits = (uint64_t)v & mask_bits((int)sz * 8);
    }
    return true;
}

static char *dupn(const char *s, size_t n)
{
    char *r = malloc(n + 1);
    memcpy(r, s, n);
    r[n] = 0;
    return r;
}

/* Splits s at ':' into at most max fields (the last keeps the rest). */
static int split(const char *s, char **f, int max)
{
    int n = 0;
    const char *p = s;
    while (n < max - 1) {
        const char *c = strchr(p, ':');
        if (!c) break;
        f[n++] = dupn(p, (size_t)(c - p));
        p = c + 1;
    }
    f[n++] = strdup(p);
    return n;
}

static bool parse_struct(const char *body, EmuArg *a, char *err, size_t errlen)
{
    size_t cap = 64, size = 0, maxal = 1;
    uint8_t *img = calloc(cap, 1);
    const char *p = body;
    while (*p) {
        const char *comma = strchr(p, ',');
        size_t n = comma ? (size_t)(comma - p) : strlen(p);
        char *field = dupn(p, n);
        char *colon = strchr(field, ':');
        EmuType t;
        uint64_t bits;
        if (!colon || !emu_type_parse(field, (size_t)(colon - field), &t) || !parse_value(t, colon + 1, &bits)) {
            snprintf(err, errlen, "bad struct field '%s' (want TYPE:VALUE)", field);
            free(field);
            free(img);
            return false;
        }
        size_t es = emu_type_size(t);
        size = (size + es - 1) / es * es;
        if (es > maxal) maxal = es;
        while (size + es > cap) { cap *= 2; img = realloc(img, cap); memset(img + cap / 2, 0, cap / 2); }
        memcpy(img + size, &bits, es);
        size += es;
        free(field);
        p += n;
        if (*p == ',') p++;
    }
    size = (size + maxal - 1) / maxal * maxal;
    a->bytes = img;
    a->nbytes = size;
    return true;
}

bool emu_dims_parse(const char *s, uint32_t d[3])
{
    d[0] = d[1] = d[2] = 1;
    for (int i = 0; i < 3; i++) {
        char *end;
        errno = 0;
        unsigned long v = strtoul(s, &end, 10);
        if (end == s || errno || v == 0 || v > 0x7fffffffUL) return false;
        d[i] = (uint32_t)v;
        if (*end == 0) return true;
        if (*end != ',' && *end != 'x') return false;
        s = end + 1;
    }
    return false;
}

bool emu_arg_parse(const char *text, EmuArg *a, char *err, size_t errlen)
{
    memset(a, 0, sizeof *a);
    a->spec = strdup(text);
    if (strncmp(text, "bytes:", 6) == 0) {
        const char *h = text + 6;
        size_t n = strlen(h);
        if (n % 2) { snprintf(err, errlen, "odd number of hex digits"); return false; }
        a->kind = EMU_ARG_BYTES;
        a->nbytes = n / 2;
        a->bytes = calloc(a->nbytes + 1, 1);
        for (size_t i = 0; i < a->nbytes; i++) {
            char b[3] = { h[2 * i], h[2 * i + 1], 0 };
            char *end;
            a->bytes[i] = (uint8_t)strtoul(b, &end, 16);
            if (*end) { snprintf(err, errlen, "bad hex digits '%s'", b); return false; }
        }
        return true;
    }
    if (strncmp(text, "struct:", 7) == 0) {
        a->kind = EMU_ARG_BYTES;
        return parse_struct(text + 7, a, err, errlen);
    }
    if (strncmp(text, "buf:", 4) == 0) {
        char *f[8] = { 0 };
        int n = split(text + 4, f, 3);
        bool ok = false;
        a->kind = EMU_ARG_BUFFER;
        char *end;
        if (n < 3) { snprintf(err, errlen, "want buf:TYPE:N:INIT"); goto done; }
        if (!emu_type_parse(f[0], strlen(f[0]), &a->type)) { snprintf(err, errlen, "unknown type '%s'", f[0]); goto done; }
        a->count = (size_t)strtoull(f[1], &end, 0);
        if (*end || end == f[1]) { snprintf(err, errlen, "bad element count '%s'", f[1]); goto done; }
        const char *init = f[2];
        a->seed = 1;
        if (strcmp(init, "zeros") == 0) a->init = EMU_INIT_ZEROS;
        else if (strcmp(init, "iota") == 0) a->init = EMU_INIT_IOTA;
        else if (strncmp(init, "fill=", 5) == 0) {
            a->init = EMU_INIT_FILL;
            a->fill = strtod(init + 5, &end);
            if (*end) { snprintf(err, errlen, "bad fill value '%s'", init + 5); goto done; }
        } else if (strncmp(init, "file=", 5) == 0) {
            a->init = EMU_INIT_FILE;
            a->path = strdup(init + 5);
        } else if (strncmp(init, "random", 6) == 0 && (init[6] == 0 || init[6] == ':')) {
            a->init = EMU_INIT_RANDOM;
            if (init[6] == ':') {
                char *g[4] = { 0 };
                int m = split(init + 7, g, 3);
                bool bad = false;
                a->seed = strtoull(g[0], &end, 0);
                if (*end || end == g[0]) bad = true;
                if (m == 3) {
                    a->has_range = true;
                    if (emu_type_is_float(a->type)) {
                        a->lo = strtod(g[1], &end);
                        if (*end) bad = true;
                        a->hi = strtod(g[2], &end);
                        if (*end || a->hi <= a->lo) bad = true;
                    } else {
                        /* exact 64-bit bounds: HI may be up to 2^64 - 1 */
                        errno = 0;
                        a->ilo = strtoll(g[1], &end, 0);
                        if (*end || errno) bad = true;
                        uint64_t hi;
                        if (g[2][0] == '-') {
                            int64_t h = strtoll(g[2], &end, 0);
                            if (*end || errno || h <= a->ilo) bad = true;
                            hi = (uint64_t)h;
                        } else {
                            hi = strtoull(g[2], &end, 0);
                            if (*end || errno || (a->ilo >= 0 && hi <= (uint64_t)a->ilo)) bad = true;
                        }
                        a->ispan = hi - (uint64_t)a->ilo;
                    }
                } else if (m != 1) bad = true;
                for (int i = 0; i < m; i++) free(g[i]);
                if (bad) { snprintf(err, errlen, "want random[:SEED[:LO:HI]] with LO < HI"); goto done; }
            }
        } else { snprintf(err, errlen, "unknown initializer '%s' (zeros, iota, fill=V, file=PATH, random[:SEED[:LO:HI]])", init); goto done; }
        ok = true;
    done:
        for (int i = 0; i < n; i++) free(f[i]);
        return ok;
    }
    const char *colon = strchr(text, ':');
    a->kind = EMU_ARG_SCALAR;
    if (!colon || !emu_type_parse(text, (size_t)(colon - text), &a->type)) {
        snprintf(err, errlen, "want TYPE:VALUE, buf:TYPE:N:INIT, bytes:HEX or struct:...");
        return false;
    }
    if (!parse_value(a->type, colon + 1, &a->bits)) { snprintf(err, errlen, "bad %s value '%s'", emu_type_name(a->type), colon + 1); return false; }
    return true;
}

void emu_arg_free(EmuArg *a)
{
    free(a->bytes);
    free(a->path);
    free(a->spec);
    memset(a, 0, sizeof *a);
}

uint8_t *emu_arg_buffer_data(const EmuArg *a, char *err, size_t errlen)
{
    size_t es = emu_type_size(a->type), size = a->count * es;
    uint8_t *d = calloc(size + 1, 1);
    if (!d) { snprintf(err, errlen, "out of memory"); return NULL; }
    switch (a->init) {
    case EMU_INIT_ZEROS: break;
    case EMU_INIT_IOTA:
        for (size_t i = 0; i < a->count; i++) { uint64_t b = from_double(a->type, (double)i); memcpy(d + i * es, &b, es); }
        break;
    case EMU_INIT_FILL: {
        uint64_t b = from_double(a->type, a->fill);
        for (size_t i = 0; i < a->count; i++) memcpy(d + i * es, &b, es);
        break;
    }
    case EMU_INIT_FILE: {
        FILE *f = fopen(a->path, "rb");
        if (!f) { snprintf(err, errlen, "cannot open %s", a->path); free(d); return NULL; }
        size_t got = fread(d, 1, size, f);
        fclose(f);
        if (got != size) { snprintf(err, errlen, "%s has %zu bytes, the buffer needs %zu", a->path, got, size); free(d); return NULL; }
        break;
    }
    case EMU_INIT_RANDOM: {
        uint64_t s = a->seed;
        double lo = -1, hi = 1;
        int64_t ilo = 0;
        uint64_t span = 256;
        if (a->has_range) { lo = a->lo; hi = a->hi; ilo = a->ilo; span = a->ispan; }
        else if (a->type >= EMU_T_S8 && a->type <= EMU_T_S64) ilo = -128;
        for (size_t i = 0; i < a->count; i++) {
            uint64_t z = splitmix(&s), b;
            if (emu_type_is_float(a->type)) {
                double u = (double)(z >> 11) * 0x1p-53;
                b = from_double(a->type, lo + u * (hi - lo));
            } else {
                b = (uint64_t)ilo + (span ? z % span : z);   /* modulo 2^64, like the two's complement sum */
            }
            memcpy(d + i * es, &b, es);
        }
        break;
    }
    }
    return d;
}
