/* json_read.c — see json_read.h.  A recursive-descent parser; the depth
 * bound keeps the recursion small. */
#include "tools/common/json_read.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/fatal.h"

typedef struct Parser {
    const char *p, *end, *start;
    char *err;
    size_t errsz;
    bool failed;
} Parser;

static void *xcalloc(size_t n, size_t sz)
{
    void *p = calloc(n ? n : 1, sz);
    if (!p) fatal_oom();
    return p;
}

static void error(Parser *ps, const char *why)
{
    if (ps->failed) return;
    ps->failed = true;
    int line = 1, col = 1;
    for (const char *q = ps->start; q < ps->p && q < ps->end; q++) {
        if (*q == '\n') line++, col = 1;
        else col++;
    }
    snprintf(ps->err, ps->errsz, "%d:%d: %s", line, col, why);
}

static void skip_ws(Parser *ps)
{
    while (ps->p < ps->end && (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' || *ps->p == '\r')) ps->p++;
}

static bool literal(Parser *ps, const char *word)
{
    size_t n = strlen(word);
    if ((size_t)(ps->end - ps->p) < n || memcmp(ps->p, word, n) != 0) return false;
    ps->p += n;
    return true;
}

static int hex4(Parser *ps)
{
    if (ps->end - ps->p < 4) return -1;
    int v = 0;
    for (int i = 0; i < 4; i++) {
        char c = ps->p[i];
        v <<= 4;
        if (c >= '0' && c <= '9') v |= c - '0';
        else if (c >= 'a' && c <= 'f') v |= c - 'a' + 10;
        else if (c >= 'A' && c <= 'F') v |= c - 'A' + 10;
        else return -1;
    }
    ps->p += 4;
    return v;
}

static size_t put_utf8(char *o, uint32_t cp)
{
    if (cp < 0x80) { o[0] = (char)cp; return 1; }
    if (cp < 0x800) { o[0] = (char)(0xc0 | cp >> 6); o[1] = (char)(0x80 | (cp & 0x3f)); return 2; }
    if (cp < 0x10000) {
        o[0] = (char)(0xe0 | cp >> 12); o[1] = (char)(0x80 | ((cp >> 6) & 0x3f)); o[2] = (char)(0x80 | (cp & 0x3f));
        return 3;
    }
    o[0] = (char)(0xf0 | cp >> 18); o[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
    o[2] = (char)(0x80 | ((cp >> 6) & 0x3f)); o[3] = (char)(0x80 | (cp & 0x3f));
    return 4;
}

/* At the opening quote. The result is never longer than the source. */
static char *string(Parser *ps)
{
    const char *q = ps->p + 1;
    while (q < ps->end && *q != '"') q += *q == '\\' && q + 1 < ps->end ? 2 : 1;
    if (q >= ps->end) { error(ps, "unterminated string"); return NULL; }
    ps->p++;
    char *out = xcalloc((size_t)(q - ps->p) + 1, 1);
    size_t n = 0;
    while (*ps->p != '"') {
        unsigned char c = (unsigned char)*ps->p;
        if (c < 0x20) { error(ps, "control character in a string"); free(out); return NULL; }
        if (c != '\\') { out[n++] = (char)c; ps->p++; continue; }
        ps->p++;
        char e = *ps->p++;
        switch (e) {
        case '"': out[n++] = '"'; break;
        case '\\': out[n++] = '\\'; break;
        case '/': out[n++] = '/'; break;
        case 'b': out[n++] = '\b'; break;
        case 'f': out[n++] = '\f'; break;
        case 'n': out[n++] = '\n'; break;
        case 'r': out[n++] = '\r'; break;
        case 't': out[n++] = '\t'; break;
        case 'u': {
            int cp = hex4(ps);
            if (cp >= 0xd800 && cp < 0xdc00 && ps->end - ps->p >= 6 && ps->p[0] == '\\' && ps->p[1] == 'u') {
                ps->p += 2;
                int lo = hex4(ps);
                if (lo < 0xdc00 || lo > 0xdfff) cp = -1;
                else cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
            } else if (cp >= 0xd800 && cp < 0xe000) {
                cp = -1;
            }
            if (cp <= 0) { error(ps, cp == 0 ? "\\u0000 in a string" : "bad \\u escape"); free(out); return NULL; }
            n += put_utf8(out + n, (uint32_t)cp);
            break;
        }
        default: error(ps, "bad escape in a string"); free(out); return NULL;
        }
    }
    ps->p++;
    out[n] = 0;
    return out;
}

static JsonValue *value(Parser *ps, int depth);

static JsonValue *container(Parser *ps, int depth, bool object)
{
    JsonValue *v = xcalloc(1, sizeof *v);
    v->kind = object ? JSON_OBJECT : JSON_ARRAY;
    int cap = 0;
    ps->p++;
    skip_ws(ps);
    if (ps->p < ps->end && *ps->p == (object ? '}' : ']')) { ps->p++; return v; }
    for (;;) {
        char *key = NULL;
        if (object) {
            skip_ws(ps);
            if (ps->p >= ps->end || *ps->p != '"') { error(ps, "expected a member name"); break; }
            if (!(key = string(ps))) break;
            skip_ws(ps);
            if (ps->p >= ps->end || *ps->p != ':') { error(ps, "expected ':'"); free(key); break; }
            ps->p++;
        }
        JsonValue *item = value(ps, depth + 1);
        if (!item) { free(key); break; }
        if (v->n == cap) {
            cap = cap ? 2 * cap : 8;
            v->items = realloc(v->items, (size_t)cap * sizeof *v->items);
            if (object) v->keys = realloc(v->keys, (size_t)cap * sizeof *v->keys);
            if (!v->items || (object && !v->keys)) fatal_oom();
        }
        if (object) v->keys[v->n] = key;
        v->items[v->n++] = item;
        skip_ws(ps);
        if (ps->p < ps->end && *ps->p == ',') { ps->p++; continue; }
        if (ps->p < ps->end && *ps->p == (object ? '}' : ']')) { ps->p++; return v; }
        error(ps, object ? "expected ',' or '}'" : "expected ',' or ']'");
        break;
    }
    json_free(v);
    return NULL;
}

static JsonValue *value(Parser *ps, int depth)
{
    if (depth > JSON_MAX_DEPTH) { error(ps, "nested too deeply"); return NULL; }
    skip_ws(ps);
    if (ps->p >= ps->end) { error(ps, "unexpected end of the text"); return NULL; }
    char c = *ps->p;
    if (c == '{' || c == '[') return container(ps, depth, c == '{');
    JsonValue *v = xcalloc(1, sizeof *v);
    if (c == '"') {
        v->kind = JSON_STRING;
        if (!(v->string = string(ps))) { free(v); return NULL; }
    } else if (literal(ps, "null")) v->kind = JSON_NULL;
    else if (literal(ps, "true")) v->kind = JSON_TRUE;
    else if (literal(ps, "false")) v->kind = JSON_FALSE;
    else if (c == '-' || (c >= '0' && c <= '9')) {
        /* strtod takes more than JSON's numbers (hex, inf): check the shape */
        const char *q = ps->p;
        if (*q == '-') q++;
        if (q >= ps->end || *q < '0' || *q > '9') { error(ps, "bad number"); free(v); return NULL; }
        while (q < ps->end && ((*q >= '0' && *q <= '9') || *q == '.' || *q == 'e' || *q == 'E' || *q == '+' || *q == '-')) q++;
        char buf[64];
        size_t n = (size_t)(q - ps->p);
        char *end;
        if (n >= sizeof buf) { error(ps, "number too long"); free(v); return NULL; }
        memcpy(buf, ps->p, n);
        buf[n] = 0;
        v->kind = JSON_NUMBER;
        v->number = strtod(buf, &end);
        if (*end) { error(ps, "bad number"); free(v); return NULL; }
        ps->p = q;
    } else {
        error(ps, "expected a value");
        free(v);
        return NULL;
    }
    return v;
}

JsonValue *json_parse(const char *text, size_t len, char *err, size_t errsz)
{
    Parser ps = { .p = text, .end = text + len, .start = text, .err = err, .errsz = errsz };
    JsonValue *v = value(&ps, 0);
    if (v) {
        skip_ws(&ps);
        if (ps.p != ps.end) {
            error(&ps, "text after the value");
            json_free(v);
            v = NULL;
        }
    }
    return v;
}

void json_free(JsonValue *v)
{
    if (!v) return;
    for (int i = 0; i < v->n; i++) {
        json_free(v->items[i]);
        if (v->keys) free(v->keys[i]);
    }
    free(v->items);
    free(v->keys);
    free(v->string);
    free(v);
}

const JsonValue *json_get(const JsonValue *v, const char *key)
{
    if (!v || v->kind != JSON_OBJECT) return NULL;
    for (int i = 0; i < v->n; i++)
        if (strcmp(v->keys[i], key) == 0) return v->items[i];
    return NULL;
}

const char *json_str(const JsonValue *v) { return v && v->kind == JSON_STRING ? v->string : NULL; }
