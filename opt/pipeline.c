/* pipeline.c — parse and run "name,name<key=value;key=value>" pipelines. */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "ir/fatal.h"
#include "opt/pass.h"

static bool key_allowed(const PassInfo *p, const char *key)
{
    for (const char *const *k = p->keys; k && *k; k++)
        if (strcmp(*k, key) == 0) return true;
    return false;
}

static void known_passes(char *buf, size_t n)
{
    size_t off = 0;
    buf[0] = 0;
    for (int i = 0; i < pass_count() && off < n; i++)
        off += (size_t)snprintf(buf + off, n - off, "%s%s", i ? ", " : "", pass_at(i)->name);
    if (!pass_count()) snprintf(buf, n, "none yet");
}

bool pipeline_parse(const char *text, Pipeline *out, char *err, size_t errsz)
{
    memset(out, 0, sizeof *out);
    size_t len = strlen(text);
    out->storage = malloc(len + 1);
    /* upper bound of passes and args: separators + 1 */
    size_t maxn = 1;
    for (size_t i = 0; i < len; i++) if (text[i] == ',' || text[i] == ';') maxn++;
    out->v = calloc(maxn, sizeof(PassInvocation));
    PassArg *args = calloc(maxn, sizeof(PassArg));
    if (!out->storage || !out->v || !args) fatal_oom();
    memcpy(out->storage, text, len + 1);
    char *p = out->storage;
    while (isspace((unsigned char)*p)) p++;
    if (!*p) { free(args); return true; }
    size_t argn = 0;
    for (;;) {
        while (isspace((unsigned char)*p)) p++;
        char *name = p;
        while (*p && (isalnum((unsigned char)*p) || *p == '-' || *p == '_')) p++;
        size_t nlen = (size_t)(p - name);
        if (!nlen) {
            snprintf(err, errsz, "invalid pipeline '%s': expected a pass name at offset %zu", text, (size_t)(name - out->storage));
            goto fail;
        }
        const PassInfo *pi = pass_find(name, nlen);
        if (!pi) {
            char known[512];
            known_passes(known, sizeof known);
            snprintf(err, errsz, "unknown pass '%.*s' in pipeline (available: %s)", (int)nlen, name, known);
            goto fail;
        }
        PassInvocation *inv = &out->v[out->n++];
        inv->pass = pi;
        inv->args = args + argn;
        char sep = *p;
        *p = 0;
        if (sep == '<') {
            p++;
            for (;;) {
                char *key = p;
                while (*p && *p != '=' && *p != ';' && *p != '>') p++;
                if (*p != '=') {
                    snprintf(err, errsz, "invalid pipeline '%s': expected key=value in the options of '%s'", text, pi->name);
                    goto fail;
                }
                *p++ = 0;
                char *val = p;
                while (*p && *p != ';' && *p != '>') p++;
                char end = *p;
                if (!end) {
                    snprintf(err, errsz, "invalid pipeline '%s': missing '>' after the options of '%s'", text, pi->name);
                    goto fail;
                }
                *p++ = 0;
                while (isspace((unsigned char)*key)) key++;
                if (!key_allowed(pi, key)) {
                    size_t off = (size_t)snprintf(err, errsz, "pass '%s' has no option '%s'", pi->name, key);
                    for (const char *const *k = pi->keys; k && *k && off < errsz; k++)
                        off += (size_t)snprintf(err + off, errsz - off, "%s%s", k == pi->keys ? " (options: " : ", ", *k);
                    if (pi->keys && *pi->keys && off < errsz) snprintf(err + off, errsz - off, ")");
                    goto fail;
                }
                args[argn].key = key;
                args[argn].value = val;
                argn++;
                inv->nargs++;
                if (end == '>') break;
            }
            sep = *p;
            if (sep) *p = 0;
        }
        /* the values too, with the pass's own reader: a bad one is the
         * user's mistake (usage), not a failure of the pass on some input */
        char why[512];
        if (pi->validate && !pi->validate(inv, why, sizeof why)) {
            snprintf(err, errsz, "pass '%s': %s", pi->name, why);
            goto fail;
        }
        while (sep == ' ' || sep == '\t') sep = *++p;
        if (!sep) break;
        if (sep != ',') {
            snprintf(err, errsz, "invalid pipeline '%s': unexpected '%c' after pass '%s'", text, sep, pi->name);
            goto fail;
        }
        p++;
    }
    if (argn) out->argstore = args;
    else free(args);
    return true;
fail:
    free(args);
    free(out->v);
    free(out->storage);
    memset(out, 0, sizeof *out);
    return false;
}

void pipeline_free(Pipeline *p)
{
    free(p->argstore);
    free(p->v);
    free(p->storage);
    memset(p, 0, sizeof *p);
}

int pipeline_run(const Pipeline *p, Module *m, PassContext *ctx)
{
    for (int i = 0; i < p->n; i++) {
        int rc = p->v[i].pass->run(m, &p->v[i], ctx);
        /* what a pass left of its analyses goes now (passes release each
         * function's as they finish it; the next pass asks afresh) */
        analysis_release_all(m);
        if (rc) return rc;
    }
    return 0;
}

const char *pass_arg(const PassInvocation *inv, const char *key)
{
    const char *v = NULL;
    for (int i = 0; i < inv->nargs; i++)
        if (strcmp(inv->args[i].key, key) == 0) v = inv->args[i].value; /* last one wins */
    return v;
}

bool pass_arg_int(const PassInvocation *inv, const char *key, long *out, long dflt, char *err, size_t errsz)
{
    const char *v = pass_arg(inv, key);
    if (!v) { *out = dflt; return true; }
    char *end;
    errno = 0;
    /* base 10: maxnreg=010 is ten, not eight */
    long x = strtol(v, &end, 10);
    if (errno || !*v || *end) {
        snprintf(err, errsz, "%s=%s is not an integer%s", key, v, errno == ERANGE ? " (out of range)" : "");
        return false;
    }
    *out = x;
    return true;
}

bool pass_arg_bool(const PassInvocation *inv, const char *key, bool *out, bool dflt, char *err, size_t errsz)
{
    const char *v = pass_arg(inv, key);
    if (!v) { *out = dflt; return true; }
    if (strcmp(v, "0") != 0 && strcmp(v, "1") != 0) {
        snprintf(err, errsz, "%s=%s must be 0 or 1", key, v);
        return false;
    }
    *out = v[0] == '1';
    return true;
}

bool pass_arg_choice(const PassInvocation *inv, const char *key, const char *const *names, int n, int dflt, int *out,
                     char *err, size_t errsz)
{
    const char *v = pass_arg(inv, key);
    if (!v) {
        *out = dflt;
        return true;
    }
    for (int i = 0; i < n; i++)
        if (strcmp(v, names[i]) == 0) {
            *out = i;
            return true;
        }
    int k = snprintf(err, errsz, "%s=%s must be", key, v);
    for (int i = 0; i < n && k > 0 && (size_t)k < errsz; i++)
        k += snprintf(err + k, errsz - (size_t)k, "%s%s", i == 0 ? " " : i == n - 1 ? " or " : ", ", names[i]);
    return false;
}

bool pipeline_streamable(const Pipeline *p, int version)
{
    for (int i = 0; i < p->n; i++) {
        const PassInfo *pi = p->v[i].pass;
        if (pi->function_local) continue;
        if (pi->local_from_version > 0 && version >= pi->local_from_version) continue;
        if (pi->local_with && pi->local_with(&p->v[i])) continue;
        return false;
    }
    return true;
}
