/* spacefile.c — the search space as a file (--space=FILE, --write-space=FILE;
 * man/ptxopt-tune.1, THE SPACE FILE).
 *
 * What users of Kernel Tuner, OpenTuner or CLTune keep beside their code:
 * the tunable dimensions and their values, the constraints between them,
 * the objective and the search strategy, in one file that a run reads and
 * that --write-space writes from a command line, so that the two forms say
 * the same thing: the file written back from flags reads to the same space
 * (and written again, to the same bytes).  JSON, read with
 * tools/common/json_read.c: YAML would need a new dependency (libyaml) or a
 * hand-made subset reader that silently misreads the rest; every JSON file
 * is a YAML 1.2 document, so YAML tools can produce it (yq -o json).
 *
 *   {"ptxopt_tune_space": 1,
 *    "dimensions": [
 *      {"name": "maxnreg", "kind": "maxnreg"},
 *      {"name": "level", "kind": "fragment", "fragment": "regtune<level=%v;kernel=%k>", "values": [2, 3, 4]},
 *      {"name": "bypass", "kind": "bypass", "forms": ["pairs"], "ops": ["cg", "no-allocate"]},
 *      {"name": "sfu", "kind": "sfu", "launch": "--grid=4 --block=128 --arg=...", "qos": 0.01,
 *       "qos_ratio": null, "error_metric": "mre", "key": "warp", "options": null}],
 *    "constraints": ["maxnreg == off || bypass == off"],
 *    "objective": {"minimize": "time", "measure": "./bench", "repeat": 3, "timeout": null, "min_gain": 0},
 *    "strategy": {"name": "random", "samples": 10, "seed": 1}}
 *
 * Every dimension has its off value besides those listed (not written).
 * The order is the pipeline's: maxnreg first, sfu last, as ptxopt-tune runs
 * them.  "objective" {"minimize": "predicted_cycles"} is --dry-run.  The
 * command line adds to the file: its --dim after the file's dimensions,
 * its --constraint after the file's, and its other options over the
 * file's settings. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/common/fileio.h"
#include "tools/common/json_read.h"
#include "tools/ptxopt-tune/internal.h"
#include "ir/fatal.h"
#include "parser/parse.h"
#include "opt/remarks.h"

int tune_dim_names(const Config *c, const char **names, int max)
{
    int n = 0;
    if (!c->no_regs && n < max) names[n++] = "maxnreg";
    for (int i = 0; i < c->ndims && n < max; i++) names[n++] = c->dims[i].name;
    if (c->sfu.enabled && n < max) names[n++] = "sfu";
    return n;
}

/* ---------------------------------------------------------------- read */

typedef struct Reader {
    const char *path;
    bool ok;
} Reader;

static bool bad(Reader *r, const char *fmt, const char *a, const char *b)
{
    if (!r->ok) return false;
    r->ok = false;
    fprintf(stderr, "ptxopt-tune: %s: ", r->path);
    fprintf(stderr, fmt, a, b);
    fputc('\n', stderr);
    return false;
}

/* Every member of o must be one of keys (a typo is an error, not a default). */
static bool only_keys(Reader *r, const JsonValue *o, const char *where, const char *const *keys)
{
    for (int i = 0; i < o->n; i++) {
        bool known = false;
        for (const char *const *k = keys; *k && !known; k++) known = strcmp(*k, o->keys[i]) == 0;
        if (!known) return bad(r, "%s: unknown key \"%s\"", where, o->keys[i]);
    }
    return true;
}

/* A number or a string as a value's text (numbers in their shortest form). */
static char *value_text(const JsonValue *v)
{
    if (v->kind == JSON_STRING) return strdup(v->string);
    if (v->kind != JSON_NUMBER) return NULL;
    char buf[40];
    tune_format_number(buf, sizeof buf, v->number);
    return strdup(buf);
}

static const char *str_member(Reader *r, const JsonValue *o, const char *key, const char *where, bool required)
{
    const JsonValue *v = json_get(o, key);
    if (!v || v->kind == JSON_NULL) {
        if (required) bad(r, "%s: \"%s\" is missing", where, key);
        return NULL;
    }
    if (v->kind != JSON_STRING) {
        bad(r, "%s: \"%s\" must be a string", where, key);
        return NULL;
    }
    return v->string;
}

/* A number member; *x untouched when absent or null. */
static bool num_member(Reader *r, const JsonValue *o, const char *key, const char *where, double *x)
{
    const JsonValue *v = json_get(o, key);
    if (!v || v->kind == JSON_NULL) return true;
    if (v->kind != JSON_NUMBER || !isfinite(v->number) || v->number < 0)
        return bad(r, "%s: \"%s\" must be a number >= 0", where, key);
    *x = v->number;
    return true;
}

/* "a,b,c" from a JSON array of strings (NULL: absent). */
static char *word_list(Reader *r, const JsonValue *o, const char *key, const char *where)
{
    const JsonValue *v = json_get(o, key);
    if (!v || v->kind == JSON_NULL) return NULL;
    if (v->kind != JSON_ARRAY || !v->n) {
        bad(r, "%s: \"%s\" must be a list of words", where, key);
        return NULL;
    }
    size_t len = 0;
    char *s = calloc(1, 1);
    if (!s) fatal_oom();
    for (int i = 0; i < v->n; i++) {
        if (v->items[i]->kind != JSON_STRING || !*v->items[i]->string || strchr(v->items[i]->string, ',')) {
            bad(r, "%s: \"%s\" must be a list of words", where, key);
            free(s);
            return NULL;
        }
        size_t n = strlen(v->items[i]->string);
        s = realloc(s, len + n + 2);
        if (!s) fatal_oom();
        if (len) s[len++] = ',';
        memcpy(s + len, v->items[i]->string, n + 1);
        len += n;
    }
    return s;
}

static bool read_dimension(Reader *r, const JsonValue *o, int index, int count, Config *c)
{
    char where[64];
    snprintf(where, sizeof where, "dimension %d", index + 1);
    if (o->kind != JSON_OBJECT) return bad(r, "%s: not an object%s", where, "");
    const char *name = str_member(r, o, "name", where, true);
    const char *kind = str_member(r, o, "kind", where, true);
    if (!name || !kind) return false;
    char err[1024];
    if (strcmp(kind, "maxnreg") == 0) {
        static const char *const keys[] = { "name", "kind", NULL };
        if (!only_keys(r, o, where, keys)) return false;
        if (strcmp(name, "maxnreg") != 0) return bad(r, "%s: the register dimension is named maxnreg, not '%s'", where, name);
        if (index != 0) return bad(r, "%s: maxnreg comes first (the pipeline's order: regtune, then the others)%s", where, "");
        c->no_regs = false;
        return true;
    }
    if (c->ndims == TUNE_MAX_DIMS - 2) return bad(r, "%s: too many dimensions%s", where, "");
    if (strcmp(kind, "fragment") == 0) {
        static const char *const keys[] = { "name", "kind", "fragment", "values", NULL };
        if (!only_keys(r, o, where, keys)) return false;
        const char *frag = str_member(r, o, "fragment", where, true);
        const JsonValue *vs = json_get(o, "values");
        if (!frag) return false;
        if (!vs || vs->kind != JSON_ARRAY) return bad(r, "%s: \"values\" must be a list%s", where, "");
        char **vals = calloc((size_t)vs->n + 1, sizeof *vals);
        if (!vals) fatal_oom();
        bool ok = true;
        for (int i = 0; i < vs->n && ok; i++)
            if (!(vals[i] = value_text(vs->items[i]))) ok = bad(r, "%s: a value must be a number or a string%s", where, "");
        TuneDim *d = &c->dims[c->ndims];
        if (ok && !(tune_make_dim(name, frag, (const char *const *)vals, vs->n, d, err, sizeof err) &&
                    tune_check_dim(d, err, sizeof err)))
            ok = bad(r, "%s", err, "");
        for (int i = 0; i < vs->n; i++) free(vals[i]);
        free(vals);
        c->ndims++;   /* (freed with the Config, whole or not) */
        return ok;
    }
    if (strcmp(kind, "bypass") == 0) {
        static const char *const keys[] = { "name", "kind", "forms", "ops", NULL };
        if (!only_keys(r, o, where, keys)) return false;
        if (strcmp(name, "bypass") != 0) return bad(r, "%s: the bypass dimension is named bypass, not '%s'", where, name);
        char *forms = word_list(r, o, "forms", where), *ops = word_list(r, o, "ops", where);
        if (!r->ok) {
            free(forms), free(ops);
            return false;
        }
        char *spec;
        if (asprintf(&spec, "bypass:%s:%s", forms ? forms : "pairs,versioning,l2policy", ops ? ops : "auto,cg,no-allocate,cs") < 0)
            fatal_oom();
        free(forms), free(ops);
        for (int i = 0; i < c->ndims; i++)
            if (tune_is_bypass_dim(&c->dims[i])) {
                free(spec);
                return bad(r, "%s: one bypass dimension at a time%s", where, "");
            }
        bool ok = tune_bypass_dim(spec, &c->dims[c->ndims], err, sizeof err);
        c->ndims++;
        free(spec);
        return ok || bad(r, "%s", err, "");
    }
    if (strcmp(kind, "sfu") == 0) {
        static const char *const keys[] = { "name", "kind", "launch", "qos", "qos_ratio", "error_metric", "key", "options", NULL };
        if (!only_keys(r, o, where, keys)) return false;
        if (strcmp(name, "sfu") != 0) return bad(r, "%s: the sfu dimension is named sfu, not '%s'", where, name);
        if (index != count - 1) return bad(r, "%s: sfu comes last (the pipeline's order)%s", where, "");
        const char *launch = str_member(r, o, "launch", where, true);
        const char *metric = str_member(r, o, "error_metric", where, false);
        const char *key = str_member(r, o, "key", where, false);
        const char *opts = str_member(r, o, "options", where, false);
        if (!r->ok) return false;
        if (!tune_sfu_parse_launch(&c->sfu, launch, err, sizeof err)) return bad(r, "%s", err, "");
        c->sfu.enabled = true;
        if (!num_member(r, o, "qos", where, &c->sfu.qos) || !num_member(r, o, "qos_ratio", where, &c->sfu.qos_ratio))
            return false;
        if (metric && !emu_metric_parse(metric, &c->sfu.metric)) return bad(r, "%s: unknown error_metric '%s'", where, metric);
        if (key && strcmp(key, "warp") != 0 && strcmp(key, "warpid") != 0) return bad(r, "%s: unknown key '%s'", where, key);
        if (key) c->sfu.key = key;
        if (opts && strpbrk(opts, "<>,")) return bad(r, "%s: options '%s': pass options only (KEY=VALUE;...)", where, opts);
        c->sfu.options = opts;
        return true;
    }
    return bad(r, "%s: unknown kind '%s' (maxnreg, fragment, bypass, sfu)", where, kind);
}

static bool read_objective(Reader *r, const JsonValue *o, Config *c)
{
    static const char *const keys[] = { "minimize", "measure", "repeat", "timeout", "min_gain", NULL };
    if (o->kind != JSON_OBJECT) return bad(r, "objective: not an object%s%s", "", "");
    if (!only_keys(r, o, "objective", keys)) return false;
    const char *what = str_member(r, o, "minimize", "objective", true);
    if (!what) return false;
    if (strcmp(what, "predicted_cycles") == 0) {
        c->dry_run = true;
        return true;
    }
    if (strcmp(what, "time") != 0) return bad(r, "objective: minimize '%s' (time, predicted_cycles)", what, "");
    const char *cmd = str_member(r, o, "measure", "objective", true);
    if (!cmd) return false;
    c->measure = cmd;
    double repeat = (double)c->repeat;
    if (!num_member(r, o, "repeat", "objective", &repeat) || !num_member(r, o, "timeout", "objective", &c->timeout) ||
        !num_member(r, o, "min_gain", "objective", &c->min_gain))
        return false;
    if (repeat < 1 || repeat > 1000 || repeat != floor(repeat)) return bad(r, "objective: repeat must be 1..1000%s%s", "", "");
    c->repeat = (long)repeat;
    return true;
}

static bool read_strategy(Reader *r, const JsonValue *o, Config *c)
{
    static const char *const keys[] = { "name", "samples", "seed", "top", NULL };
    if (o->kind != JSON_OBJECT) return bad(r, "strategy: not an object%s%s", "", "");
    if (!only_keys(r, o, "strategy", keys)) return false;
    const char *name = str_member(r, o, "name", "strategy", true);
    if (!name) return false;
    if (!tune_strategy_parse(name, &c->strategy))
        return bad(r, "strategy: unknown name '%s' (early-exit, exhaustive, random, model)", name, "");
    double samples = (double)c->samples, seed = (double)c->seed, top = (double)c->top;
    if (!num_member(r, o, "samples", "strategy", &samples) || !num_member(r, o, "seed", "strategy", &seed) ||
        !num_member(r, o, "top", "strategy", &top))
        return false;
    if (samples < 1 || top < 1 || samples != floor(samples) || top != floor(top) || seed != floor(seed) || seed > 2147483647.0)
        return bad(r, "strategy: samples and top must be whole numbers >= 1, seed a whole number%s%s", "", "");
    c->samples = (long)samples;
    c->top = (long)top;
    c->seed = (unsigned long long)seed;
    return true;
}

bool tune_space_read(const char *path, Config *c)
{
    Reader r = { path, true };
    size_t n;
    char *text = read_file(path, &n, stderr);
    if (!text) return false;
    char err[256];
    JsonValue *root = json_parse(text, n, err, sizeof err);
    free(text);
    if (!root) {
        fprintf(stderr, "ptxopt-tune: %s:%s (a space file is JSON)\n", path, err);
        return false;
    }
    c->space_root = root;   /* the Config's strings point into it */
    static const char *const keys[] = { "ptxopt_tune_space", "dimensions", "constraints", "objective", "strategy", NULL };
    const JsonValue *ver = json_get(root, "ptxopt_tune_space"), *dims = json_get(root, "dimensions");
    if (root->kind != JSON_OBJECT || !ver || ver->kind != JSON_NUMBER)
        return bad(&r, "not a ptxopt-tune space file (no \"ptxopt_tune_space\": 1)%s%s", "", "");
    if (ver->number != 1) {
        char v[40];
        tune_format_number(v, sizeof v, ver->number);
        return bad(&r, "space file version %s: this ptxopt-tune reads version 1%s", v, "");
    }
    if (!only_keys(&r, root, "the file", keys)) return false;
    if (!dims || dims->kind != JSON_ARRAY || !dims->n) return bad(&r, "\"dimensions\" must be a list of dimensions%s%s", "", "");
    c->no_regs = true;   /* unless the file lists maxnreg */
    for (int i = 0; i < dims->n; i++)
        if (!read_dimension(&r, dims->items[i], i, dims->n, c)) return false;
    const JsonValue *cons = json_get(root, "constraints");
    if (cons && cons->kind != JSON_NULL) {
        if (cons->kind != JSON_ARRAY) return bad(&r, "\"constraints\" must be a list of expressions%s%s", "", "");
        const char *names[TUNE_MAX_DIMS + 2];
        int nnames = tune_dim_names(c, names, TUNE_MAX_DIMS + 2);
        for (int i = 0; i < cons->n; i++) {
            if (cons->items[i]->kind != JSON_STRING) return bad(&r, "constraints: an expression is a string%s%s", "", "");
            if (c->nconstraints == TUNE_MAX_CONSTRAINTS) return bad(&r, "too many constraints%s%s", "", "");
            char why[512];
            if (!tune_constraint_parse(cons->items[i]->string, names, nnames, &c->constraints[c->nconstraints], why, sizeof why))
                return bad(&r, "%s", why, "");
            c->nconstraints++;
        }
    }
    const JsonValue *obj = json_get(root, "objective"), *strat = json_get(root, "strategy");
    if (obj && obj->kind != JSON_NULL && !read_objective(&r, obj, c)) return false;
    if (strat && strat->kind != JSON_NULL && !read_strategy(&r, strat, c)) return false;
    return r.ok;
}

/* --------------------------------------------------------------- write */

static void jnum(FILE *f, double x)
{
    char buf[40];
    tune_format_number(buf, sizeof buf, x);
    fputs(buf, f);
}

static void jstr_or_null(FILE *f, const char *s)
{
    if (s) json_string(f, s);
    else fputs("null", f);
}

/* "a,b" as ["a", "b"] */
static void word_array(FILE *f, const char *list)
{
    fputc('[', f);
    for (const char *p = list; *p;) {
        const char *e = strchr(p, ',');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        char *w = strndup(p, n);
        if (!w) fatal_oom();
        if (p != list) fputs(", ", f);
        json_string(f, w);
        free(w);
        p = e ? e + 1 : p + n;
    }
    fputc(']', f);
}

static void write_bypass(FILE *f, const TuneDim *d)
{
    /* the spec as given: "bypass[:FORMS[:OPS]]", written out whole */
    const char *forms = "pairs,versioning,l2policy", *ops = "auto,cg,no-allocate,cs";
    char *copy = strdup(d->spec), *fl = NULL, *ol = NULL;
    if (!copy) fatal_oom();
    char *c1 = strchr(copy, ':');
    if (c1) {
        fl = c1 + 1;
        char *c2 = strchr(fl, ':');
        if (c2) *c2 = 0, ol = c2 + 1;
    }
    fputs("{\"name\": \"bypass\", \"kind\": \"bypass\", \"forms\": ", f);
    word_array(f, fl && *fl ? fl : forms);
    fputs(", \"ops\": ", f);
    word_array(f, ol && *ol ? ol : ops);
    fputc('}', f);
    free(copy);
}

bool tune_space_write(const char *path, const Config *c)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f) fatal_oom();
    fputs("{\"ptxopt_tune_space\": 1,\n \"dimensions\": [", f);
    int nd = 0;
    if (!c->no_regs) fprintf(f, "%s\n  {\"name\": \"maxnreg\", \"kind\": \"maxnreg\"}", nd++ ? "," : "");
    for (int i = 0; i < c->ndims; i++) {
        const TuneDim *d = &c->dims[i];
        fputs(nd++ ? ",\n  " : "\n  ", f);
        if (d->kind == DIM_BYPASS) {
            write_bypass(f, d);
            continue;
        }
        fputs("{\"name\": ", f);
        json_string(f, d->name);
        fputs(", \"kind\": \"fragment\", \"fragment\": ", f);
        json_string(f, d->fragment);
        fputs(", \"values\": [", f);
        for (int j = 0; j < d->nvalues; j++) {
            if (j) fputs(", ", f);
            tune_json_value(f, d->values[j]);
        }
        fputs("]}", f);
    }
    if (c->sfu.enabled) {
        fputs(nd++ ? ",\n  " : "\n  ", f);
        fputs("{\"name\": \"sfu\", \"kind\": \"sfu\", \"launch\": ", f);
        json_string(f, c->sfu.text);
        fputs(", \"qos\": ", f);
        jnum(f, c->sfu.qos);
        fputs(", \"qos_ratio\": ", f);
        if (c->sfu.qos_ratio > 0) jnum(f, c->sfu.qos_ratio);
        else fputs("null", f);
        fprintf(f, ", \"error_metric\": \"%s\", \"key\": ", emu_metric_name(c->sfu.metric));
        json_string(f, c->sfu.key);
        fputs(", \"options\": ", f);
        jstr_or_null(f, c->sfu.options);
        fputc('}', f);
    }
    fputs("],\n \"constraints\": [", f);
    for (int i = 0; i < c->nconstraints; i++) {
        fputs(i ? ",\n  " : "\n  ", f);
        json_string(f, c->constraints[i].text);
    }
    fputs("]", f);
    if (c->measure) {
        fputs(",\n \"objective\": {\"minimize\": \"time\", \"measure\": ", f);
        json_string(f, c->measure);
        fprintf(f, ", \"repeat\": %ld, \"timeout\": ", c->repeat);
        if (c->timeout > 0) jnum(f, c->timeout);
        else fputs("null", f);
        fputs(", \"min_gain\": ", f);
        jnum(f, c->min_gain);
        fputc('}', f);
    } else if (c->dry_run) {
        fputs(",\n \"objective\": {\"minimize\": \"predicted_cycles\"}", f);
    }
    fprintf(f, ",\n \"strategy\": {\"name\": \"%s\"", tune_strategy_name(c->strategy));
    if (c->strategy == STRAT_RANDOM) fprintf(f, ", \"samples\": %ld, \"seed\": %llu", c->samples, c->seed);
    if (c->strategy == STRAT_MODEL) fprintf(f, ", \"top\": %ld", c->top);
    fputs("}}\n", f);
    if (fclose(f) != 0) fatal_oom();
    bool ok = write_file_atomic(path, buf, len);
    free(buf);
    return ok;
}
