/* ptxas_args.c — see ptxas_args.h. */
#include "tools/ptxopt-ptxas/ptxas_args.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ir/fatal.h"
#include "parser/parse.h"

static const PtxasOption table[] = {
#define PTXAS_OPTION(l, s, v) { l, s, PXV_##v },
#include "tools/ptxopt-ptxas/ptxas_options.def"
#undef PTXAS_OPTION
};
enum { NTABLE = (int)(sizeof table / sizeof table[0]) };
enum { MAX_OPTF_DEPTH = 8 };

const PtxasOption *ptxas_options(int *n)
{
    *n = NTABLE;
    return table;
}

void ptxas_options_print(FILE *out)
{
    static const char *const kinds[] = { "none", "required", "attached", "optional" };
    for (int i = 0; i < NTABLE; i++)
        fprintf(out, "--%s (-%s) %s\n", table[i].long_name, table[i].short_name, kinds[table[i].value]);
}

static const PtxasOption *find_option(const char *name, size_t n, bool is_long)
{
    for (int i = 0; i < NTABLE; i++) {
        const char *x = is_long ? table[i].long_name : table[i].short_name;
        if (strlen(x) == n && memcmp(x, name, n) == 0) return &table[i];
    }
    return NULL;
}

static bool is(const CmdTok *t, const char *long_name)
{
    return t->opt && strcmp(t->opt->long_name, long_name) == 0;
}

static char *xstrdup(const char *s)
{
    char *d = strdup(s);
    if (!d) fatal_oom();
    return d;
}

/* ------------------------------------------------------------ words */

int ptxas_split_words(const char *text, char ***words)
{
    int n = 0, cap = 16;
    char **v = malloc(sizeof *v * (size_t)cap);
    char *w = malloc(strlen(text) + 1);
    if (!v || !w) fatal_oom();
    const char *p = text;
    for (;;) {
        while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r' || *p == '\f' || *p == '\v') p++;
        if (!*p) break;
        size_t len = 0;
        bool quoted = false;
        while (*p && (quoted || !(*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r' || *p == '\f' || *p == '\v'))) {
            if (*p == '"') { quoted = !quoted; p++; continue; }
            if (*p == '\\' && p[1]) { w[len++] = p[1]; p += 2; continue; }
            w[len++] = *p++;
        }
        w[len] = 0;
        if (n + 1 >= cap) {
            cap *= 2;
            v = realloc(v, sizeof *v * (size_t)cap);
            if (!v) fatal_oom();
        }
        v[n++] = xstrdup(w);
    }
    free(w);
    v[n] = NULL;
    *words = v;
    return n;
}

/* ------------------------------------------------------------ classification */

static CmdList *new_list(PtxasCmd *c, const char *path)
{
    CmdList *l = calloc(1, sizeof *l);
    if (!l) fatal_oom();
    l->path = path ? xstrdup(path) : NULL;
    CmdList **nl = realloc(c->lists, sizeof *nl * (size_t)(c->nlists + 1));
    if (!nl) fatal_oom();
    c->lists = nl;
    c->lists[c->nlists++] = l;
    return l;
}

static void push_tok(CmdList *l, const char *text)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? l->cap * 2 : 16;
        l->v = realloc(l->v, sizeof *l->v * (size_t)l->cap);
        if (!l->v) fatal_oom();
    }
    l->v[l->n++] = (CmdTok){ .text = xstrdup(text), .kind = TOK_INPUT, .value_off = -1 };
}

static void add_input(PtxasCmd *c, InputKind kind, CmdList *l, int tok, int value_off, const char *name)
{
    PtxasInput *v = realloc(c->inputs, sizeof *v * (size_t)(c->ninputs + 1));
    if (!v) fatal_oom();
    c->inputs = v;
    c->inputs[c->ninputs++] = (PtxasInput){ .kind = kind, .list = l, .tok = tok, .value_off = value_off,
                                            .name = xstrdup(name) };
}

static void add_ptxopt(PtxasCmd *c, const char *text)
{
    char **v = realloc(c->ptxopt, sizeof *v * (size_t)(c->nptxopt + 1));
    if (!v) fatal_oom();
    c->ptxopt = v;
    c->ptxopt[c->nptxopt++] = xstrdup(text);
}

static bool file_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

/* A word nvcc split off a --ptxopt-passes pipeline, not an input file:
 * no option, no existing file, no directory part, no PTX file suffix. */
static bool looks_like_pipeline_part(const char *w)
{
    size_t n = strlen(w);
    if (!n || w[0] == '-' || strchr(w, '/') || file_exists(w)) return false;
    return !(n > 4 && strcmp(w + n - 4, ".ptx") == 0) && !(n > 2 && strcmp(w + n - 2, ".s") == 0);
}

/* The value of option token i of l: inline, or the next token. */
static const char *value_of(const CmdList *l, int i)
{
    const CmdTok *t = &l->v[i];
    if (t->value_off >= 0) return t->text + t->value_off;
    if (i + 1 < l->n && l->v[i + 1].kind == TOK_VALUE) return l->v[i + 1].text;
    return NULL;
}

static void classify(PtxasCmd *c, CmdList *l, int depth);

static void read_options_files(PtxasCmd *c, CmdList *l, int i, int depth)
{
    const char *val = value_of(l, i);
    if (!val) return;
    CmdTok *t = &l->v[i];
    char *names = xstrdup(val);
    for (char *save = NULL, *name = strtok_r(names, ",", &save); name; name = strtok_r(NULL, ",", &save)) {
        t->files = realloc(t->files, sizeof *t->files * (size_t)(t->nfiles + 1));
        if (!t->files) fatal_oom();
        CmdList *f = NULL;
        size_t len;
        char *text = NULL;
        if (depth >= MAX_OPTF_DEPTH) {
            snprintf(c->error, sizeof c->error, "options files nested more than %d deep at %s", MAX_OPTF_DEPTH, name);
        } else {
            char *dtext = NULL;
            size_t dlen = 0;
            FILE *dmem = open_memstream(&dtext, &dlen);
            if (!dmem) fatal_oom();
            text = read_file(name, &len, dmem);
            fclose(dmem);
            if (!text && !c->error[0]) snprintf(c->error, sizeof c->error, "%.*s", (int)strcspn(dtext, "\n"), dtext);
            free(dtext);
        }
        if (text) {
            text[len] = 0;
            f = new_list(c, name);
            char **words;
            int n = ptxas_split_words(text, &words);
            for (int k = 0; k < n; k++) push_tok(f, words[k]);
            strv_free(words);
            free(text);
            classify(c, f, depth + 1);
        }
        t = &l->v[i];
        t->files[t->nfiles++] = f;
    }
    free(names);
}

static void classify(PtxasCmd *c, CmdList *l, int depth)
{
    for (int i = 0; i < l->n; i++) {
        CmdTok *t = &l->v[i];
        const char *s = t->text;
        if (strncmp(s, "--ptxopt-", 9) == 0) {
            t->kind = TOK_PTXOPT;
            add_ptxopt(c, s);
            if (strncmp(s, "--ptxopt-passes=", 16) != 0) continue;
            /* nvcc -Xptxas split the pipeline at its commas: glue it back */
            while (i + 1 < l->n && looks_like_pipeline_part(l->v[i + 1].text)) {
                CmdTok *g = &l->v[++i];
                g->kind = TOK_PTXOPT;
                char *joined;
                if (asprintf(&joined, "%s,%s", c->ptxopt[c->nptxopt - 1], g->text) < 0) fatal_oom();
                free(c->ptxopt[c->nptxopt - 1]);
                c->ptxopt[c->nptxopt - 1] = joined;
            }
            continue;
        }
        if (s[0] != '-' || !s[1]) {
            t->kind = TOK_INPUT;
            add_input(c, s[0] == '-' ? INPUT_STDIN : INPUT_FILE, l, i, -1, s);
            continue;
        }
        t->kind = TOK_OPTION;
        bool is_long = s[1] == '-';
        const char *name = s + (is_long ? 2 : 1);
        size_t nlen = strcspn(name, "=");
        const PtxasOption *o = find_option(name, nlen, is_long);
        bool takes_next = false;
        if (o) {
            if (name[nlen] == '=') t->value_off = (int)(name + nlen + 1 - s);
            else takes_next = o->value != PXV_NONE && (is_long || o->value != PXV_OPTIONAL);
        } else if (!is_long) {
            /* a glued value: "-m64", "-O3" (the longest short name that fits) */
            for (int k = 0; k < NTABLE; k++) {
                const PtxasOption *x = &table[k];
                size_t sl = strlen(x->short_name);
                if ((x->value == PXV_ATTACHED || x->value == PXV_OPTIONAL) && sl < strlen(name) &&
                    strncmp(name, x->short_name, sl) == 0 && (!o || sl > strlen(o->short_name)))
                    o = x;
            }
            if (o) t->value_off = (int)(1 + strlen(o->short_name));
        } else if (name[nlen] == '=') {
            t->value_off = (int)(name + nlen + 1 - s);
        }
        t->opt = o;
        if (takes_next && i + 1 < l->n) l->v[i + 1].kind = TOK_VALUE;
        const char *val = value_of(l, i);
        if (is(t, "input-as-string") && val) {
            char nm[64];
            int k = 0;
            for (int j = 0; j < c->ninputs; j++) k += c->inputs[j].kind == INPUT_STRING;
            snprintf(nm, sizeof nm, "input-as-string %d", k + 1);
            if (t->value_off >= 0) add_input(c, INPUT_STRING, l, i, t->value_off, nm);
            else add_input(c, INPUT_STRING, l, i + 1, 0, nm);
        } else if (is(t, "options-file")) {
            read_options_files(c, l, i, depth);
        } else if (is(t, "gpu-name") && val) {
            c->arch = val;
        } else if (is(t, "output-file") && val) {
            c->output = val;
        }
        if (takes_next && i + 1 < l->n) i++;
    }
}

void ptxas_cmd_parse(PtxasCmd *c, int argc, char **argv)
{
    memset(c, 0, sizeof *c);
    c->argv = new_list(c, NULL);
    for (int i = 1; i < argc; i++) push_tok(c->argv, argv[i]);
    classify(c, c->argv, 0);
}

void ptxas_cmd_free(PtxasCmd *c)
{
    for (int i = 0; i < c->nlists; i++) {
        CmdList *l = c->lists[i];
        for (int k = 0; k < l->n; k++) {
            free(l->v[k].text);
            free(l->v[k].files);
        }
        free(l->v);
        free(l->path);
        free(l);
    }
    free(c->lists);
    for (int i = 0; i < c->ninputs; i++) free((char *)c->inputs[i].name);
    free(c->inputs);
    for (int i = 0; i < c->nptxopt; i++) free(c->ptxopt[i]);
    free(c->ptxopt);
    memset(c, 0, sizeof *c);
}

const char *ptxas_input_string(const PtxasCmd *c, const PtxasInput *in)
{
    (void)c;
    return in->list->v[in->tok].text + in->value_off;
}

/* ------------------------------------------------------------ rebuilding */

typedef struct StrVec {
    int n, cap;
    char **v;
} StrVec;

static void sv_push(StrVec *s, char *owned)
{
    if (s->n + 1 >= s->cap) {
        s->cap = s->cap ? s->cap * 2 : 32;
        s->v = realloc(s->v, sizeof *s->v * (size_t)s->cap);
        if (!s->v) fatal_oom();
    }
    s->v[s->n++] = owned;
    s->v[s->n] = NULL;
}

void strv_free(char **v)
{
    if (!v) return;
    for (char **p = v; *p; p++) free(*p);
    free(v);
}

typedef struct Build {
    const PtxasCmd *c;
    char *const *replace;
    const char *tmpdir;
    int nfiles;             /* options files written so far */
    char *err;
    size_t errsz;
    bool failed;
} Build;

static const char *replacement(Build *b, const CmdList *l, int tok)
{
    if (!b->replace) return NULL;
    for (int i = 0; i < b->c->ninputs; i++) {
        const PtxasInput *in = &b->c->inputs[i];
        if (in->list == l && in->tok == tok && in->kind != INPUT_STDIN) return b->replace[i];
    }
    return NULL;
}

static char *concat(const char *a, size_t alen, const char *b)
{
    size_t blen = strlen(b);
    char *s = malloc(alen + blen + 1);
    if (!s) fatal_oom();
    memcpy(s, a, alen);
    memcpy(s + alen, b, blen + 1);
    return s;
}

static bool emit(Build *b, const CmdList *l, StrVec *out);

/* Writes words as an options file that ptxas splits back into the same words. */
static char *write_options_file(Build *b, char **words, int n)
{
    char *path;
    if (asprintf(&path, "%s/options-%d.txt", b->tmpdir, ++b->nfiles) < 0) fatal_oom();
    FILE *f = fopen(path, "w");
    if (!f) {
        snprintf(b->err, b->errsz, "cannot write %s: %s", path, strerror(errno));
        b->failed = true;
        return path;
    }
    for (int i = 0; i < n; i++) {
        fputc('"', f);
        for (const char *p = words[i]; *p; p++) {
            if (*p == '"' || *p == '\\') fputc('\\', f);
            fputc(*p, f);
        }
        fputs(i + 1 < n ? "\" " : "\"\n", f);
    }
    if (fclose(f) != 0) {
        snprintf(b->err, b->errsz, "cannot write %s: %s", path, strerror(errno));
        b->failed = true;
    }
    return path;
}

/* The value of an --options-file option with changed files replaced by rewritten copies. */
static char *options_files_value(Build *b, const CmdTok *t, const char *val, bool *changed)
{
    StrVec parts = { 0 };
    char *names = xstrdup(val);
    int j = 0;
    for (char *save = NULL, *name = strtok_r(names, ",", &save); name; name = strtok_r(NULL, ",", &save), j++) {
        const CmdList *f = j < t->nfiles ? t->files[j] : NULL;
        StrVec sub = { 0 };
        if (f && emit(b, f, &sub)) {
            sv_push(&parts, write_options_file(b, sub.v, sub.n));
            *changed = true;
        } else {
            sv_push(&parts, xstrdup(name));
        }
        strv_free(sub.v);
    }
    free(names);
    size_t len = 0;
    for (int i = 0; i < parts.n; i++) len += strlen(parts.v[i]) + 1;
    char *v = calloc(len + 1, 1);
    if (!v) fatal_oom();
    for (int i = 0; i < parts.n; i++) {
        if (i) strcat(v, ",");
        strcat(v, parts.v[i]);
    }
    strv_free(parts.v);
    return v;
}

/* Emits the rewritten words of l; true when they differ from l's. */
static bool emit(Build *b, const CmdList *l, StrVec *out)
{
    bool changed = false;
    for (int i = 0; i < l->n; i++) {
        const CmdTok *t = &l->v[i];
        if (t->kind == TOK_PTXOPT) { changed = true; continue; }
        if (t->kind == TOK_INPUT) {
            const char *r = replacement(b, l, i);
            sv_push(out, xstrdup(r ? r : t->text));
            changed |= r != NULL;
            continue;
        }
        if (t->kind != TOK_OPTION || !(is(t, "input-as-string") || is(t, "options-file"))) {
            sv_push(out, xstrdup(t->text));
            continue;
        }
        bool inl = t->value_off >= 0;
        int vtok = inl ? i : i + 1;
        if (!inl && !(vtok < l->n && l->v[vtok].kind == TOK_VALUE)) {
            sv_push(out, xstrdup(t->text));
            continue;
        }
        const char *val = inl ? t->text + t->value_off : l->v[vtok].text;
        char *nv = NULL;
        if (is(t, "input-as-string")) {
            const char *r = replacement(b, l, vtok);
            if (r) { nv = xstrdup(r); changed = true; }
        } else {
            bool ch = false;
            char *v = options_files_value(b, t, val, &ch);
            if (ch) { nv = v; changed = true; }
            else free(v);
        }
        if (inl) {
            sv_push(out, nv ? concat(t->text, (size_t)t->value_off, nv) : xstrdup(t->text));
        } else {
            sv_push(out, xstrdup(t->text));
            sv_push(out, nv ? xstrdup(nv) : xstrdup(val));
            i++;
        }
        free(nv);
    }
    return changed;
}

char **ptxas_cmd_build(const PtxasCmd *c, const char *program, char *const *replace, const char *tmpdir,
                       char *err, size_t errsz)
{
    Build b = { .c = c, .replace = replace, .tmpdir = tmpdir, .err = err, .errsz = errsz };
    StrVec out = { 0 };
    sv_push(&out, xstrdup(program));
    emit(&b, c->argv, &out);
    if (b.failed) {
        strv_free(out.v);
        return NULL;
    }
    return out.v;
}
