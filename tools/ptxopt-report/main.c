/* ptxopt-report — what a build's ptxopt did, from its report.
 *
 *   ptxopt-report [--json] [--output=FILE] REPORT.jsonl...
 *
 * Reads the lines that ptxopt-ptxas --ptxopt-report appended (one per
 * ptxas run; ptxopt-nvcc makes them name the user's .cu and .o) and prints
 * per source and target, per kernel, what each pass did (sites rewritten,
 * sites left and the most frequent reason), then every run that used the
 * original PTX after a fallback, with the reason: a text table, or with
 * --json one JSON object (see man/ptxopt-report.1).  The folding is in
 * tools/ptxopt-report/summary.h.
 *
 * Written in C, not as a script: the report is JSON with nested arrays and
 * escaped strings, which takes a real JSON reader (tools/common/
 * json_read.h, which the project has), and an installed tool in C needs
 * nothing at run time (no python3, no jq). */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "ir/fatal.h"
#include "tools/common/fileio.h"
#include "tools/common/json_read.h"
#include "tools/ptxopt-report/summary.h"

static const char *prog = "ptxopt-report";

/* A report can be large (a big build, appended to for weeks), not huge. */
#define REPORT_MAX ((size_t)1 << 30)

static void usage(FILE *f)
{
    fprintf(f,
            "Usage: %s [--json] [--output=FILE] REPORT.jsonl...\n"
            "Summarizes the report of a build through ptxopt (ptxopt-ptxas --ptxopt-report, or\n"
            "ptxopt-nvcc --ptxopt-report=FILE): per source and target, per kernel, what each\n"
            "pass did (sites rewritten, sites left and the most frequent reason), and every\n"
            "run that used the original PTX, with the reason.  A file run more than once\n"
            "(a report appended to by several builds) counts by its last run.\n"
            "\n"
            "  --json          one JSON object instead of the text table\n"
            "  -o, --output=FILE  write to FILE instead of standard output\n"
            "  -h, --help, -V, --version\n"
            "REPORT '-' is standard input.  Exit status: 0; 1 when a report cannot be\n"
            "read or has a line that is not JSON; 2 for a usage error.\n",
            prog);
}

/* ------------------------------------------------------------ output helpers */

static void jstr(FILE *f, const char *s)
{
    if (!s) { fputs("null", f); return; }
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\') fprintf(f, "\\%c", *p);
        else if (*p == '\n') fputs("\\n", f);
        else if (*p == '\t') fputs("\\t", f);
        else if (*p < 0x20) fprintf(f, "\\u%04x", *p);
        else fputc(*p, f);
    }
    fputc('"', f);
}

/* s for a text column: control characters escaped (a file name cannot
 * forge a line), NULL as "-".  Static buffers, a few at a time. */
static const char *cell(const char *s)
{
    static char buf[8][512];
    static int k;
    char *b = buf[k++ % 8];
    if (!s) return "-";
    size_t n = 0;
    for (const unsigned char *p = (const unsigned char *)s; *p && n + 5 < sizeof buf[0]; p++) {
        if (*p == '\n') n += (size_t)snprintf(b + n, sizeof buf[0] - n, "\\n");
        else if (*p < 0x20 || *p == 0x7f) n += (size_t)snprintf(b + n, sizeof buf[0] - n, "\\x%02x", *p);
        else b[n++] = (char)*p;
    }
    b[n] = 0;
    return b;
}

static const char *kind_of(const Unit *u)
{
    if (u->used && strcmp(u->used, "none") == 0) return "failed (strict)";
    if (u->used && strcmp(u->used, "optimized") == 0) return "optimized";
    return u->reason ? "fallback" : "unchanged";
}

/* ------------------------------------------------------------ text */

/* One line of the table: source, target, kernel, pass, applied, missed,
 * the most frequent reason a site was left (or what was used). */
typedef struct Row {
    const char *source, *object, *target, *kernel, *pass;
    char applied[16], missed[16];
    char *why;
} Row;

static Row *add_row(Row **rows, int *n, const Unit *u, const char *kernel, const char *pass)
{
    Row *nr = realloc(*rows, sizeof **rows * (size_t)(*n + 1));
    if (!nr) fatal_oom();
    *rows = nr;
    Row *r = &nr[(*n)++];
    *r = (Row){ .source = u->source, .object = u->object, .target = u->target, .kernel = kernel, .pass = pass };
    strcpy(r->applied, "-");
    strcpy(r->missed, "-");
    return r;
}

static void text(FILE *f, const Summary *s)
{
    int n[4] = { 0 };   /* optimized, unchanged, fallback, failed */
    for (int i = 0; i < s->nunits; i++) {
        const char *k = kind_of(&s->units[i]);
        n[strcmp(k, "optimized") == 0 ? 0 : strcmp(k, "unchanged") == 0 ? 1 : strcmp(k, "fallback") == 0 ? 2 : 3]++;
    }
    fprintf(f, "%d ptxas run%s", s->runs, s->runs == 1 ? "" : "s");
    if (s->superseded) fprintf(f, " (%d superseded by later runs of the same file)", s->superseded);
    fprintf(f, ": %d optimized, %d unchanged, %d used the original PTX after a fallback", n[0], n[1], n[2]);
    if (n[3]) fprintf(f, ", %d failed in strict mode", n[3]);
    fputs("\n\n", f);

    Row *rows = NULL;
    int nrows = 0;
    for (int i = 0; i < s->nunits; i++) {
        const Unit *u = &s->units[i];
        int before = nrows;
        for (int k = 0; k < u->nkernels; k++)
            for (int p = 0; p < u->kernels[k].npasses; p++) {
                const PassDid *pd = &u->kernels[k].passes[p];
                Row *r = add_row(&rows, &nrows, u, u->kernels[k].name, pd->pass);
                snprintf(r->applied, sizeof r->applied, "%d", pd->applied);
                snprintf(r->missed, sizeof r->missed, "%d", pd->missed);
                if (pd->failed) r->why = strdup("the pass failed");
                else if (pd->nreasons && asprintf(&r->why, "%s (%d)", pd->reasons[0].message, pd->reasons[0].count) < 0)
                    r->why = NULL;
            }
        /* no pass ran over it: what was used, per kernel if it has any */
        for (int k = 0; nrows == before && k < u->nkernels; k++)
            add_row(&rows, &nrows, u, u->kernels[k].name, NULL)->why = strdup(kind_of(u));
        if (nrows == before) add_row(&rows, &nrows, u, NULL, NULL)->why = strdup(kind_of(u));
    }
    /* OBJECT only when some line names one (ptxopt-nvcc) */
    bool objects = false;
    for (int i = 0; i < nrows; i++) objects |= rows[i].object != NULL;
    static const char *const head[8] = { "SOURCE", "OBJECT", "TARGET", "KERNEL", "PASS", "APPLIED", "MISSED",
                                         "MOST FREQUENT REASON A SITE WAS LEFT" };
    int w[7];
    for (int c = 0; c < 7; c++) w[c] = (int)strlen(head[c]);
    for (int i = 0; i < nrows; i++) {
        const char *v[7] = { rows[i].source, rows[i].object, rows[i].target, rows[i].kernel, rows[i].pass,
                             rows[i].applied, rows[i].missed };
        for (int c = 0; c < 7; c++) {
            int l = (int)strlen(cell(v[c]));
            if (l > w[c]) w[c] = l;
        }
    }
    for (int i = -1; i < nrows; i++) {
        const Row *r = i >= 0 ? &rows[i] : NULL;
        const char *v[8] = { r ? cell(r->source) : head[0], r ? cell(r->object) : head[1], r ? cell(r->target) : head[2],
                             r ? cell(r->kernel) : head[3], r ? cell(r->pass) : head[4], r ? r->applied : head[5],
                             r ? r->missed : head[6], r ? (r->why ? cell(r->why) : NULL) : head[7] };
        for (int c = 0; c < 7; c++) {
            if (c == 1 && !objects) continue;
            fprintf(f, c >= 5 ? "%*s" : "%-*s", w[c], v[c]);
            if (c < 6) fputs("  ", f);
        }
        if (v[7]) fprintf(f, "  %s", v[7]);
        fputc('\n', f);
        if (r) free(r->why);
    }
    free(rows);

    if (n[2] || n[3]) {
        fputs("\nThe original PTX was used (strict: nothing was made) for:\n", f);
        for (int i = 0; i < s->nunits; i++) {
            const Unit *u = &s->units[i];
            if (!u->reason) continue;
            fprintf(f, "  %s", cell(u->source));
            if (u->target) fprintf(f, " (%s)", cell(u->target));
            fprintf(f, ": %s\n", cell(u->reason));
        }
    }
}

/* ------------------------------------------------------------ JSON */

static void json(FILE *f, const Summary *s)
{
    fprintf(f, "{\"runs\":%d,\"superseded\":%d,\"files\":[", s->runs, s->superseded);
    for (int i = 0; i < s->nunits; i++) {
        const Unit *u = &s->units[i];
        fputs(i ? ",\n" : "\n", f);
        fputs("{\"source\":", f), jstr(f, u->source);
        fputs(",\"object\":", f), jstr(f, u->object);
        fputs(",\"target\":", f), jstr(f, u->target);
        fputs(",\"pipeline\":", f), jstr(f, u->pipeline);
        fputs(",\"result\":", f), jstr(f, kind_of(u));
        fputs(",\"used\":", f), jstr(f, u->used);
        fputs(",\"reason\":", f), jstr(f, u->reason);
        fprintf(f, ",\"ptxas_status\":%d,\"strict\":%s,\"report_line\":%d,\"kernels\":[", u->ptxas_status,
                u->strict ? "true" : "false", u->line);
        for (int k = 0; k < u->nkernels; k++) {
            const KernelDid *kd = &u->kernels[k];
            fputs(k ? ",{\"name\":" : "{\"name\":", f), jstr(f, kd->name);
            fputs(",\"passes\":[", f);
            for (int p = 0; p < kd->npasses; p++) {
                const PassDid *pd = &kd->passes[p];
                fputs(p ? ",{\"pass\":" : "{\"pass\":", f), jstr(f, pd->pass);
                fprintf(f, ",\"applied\":%d,\"missed\":%d,\"failed\":%s,\"reasons\":[", pd->applied, pd->missed,
                        pd->failed ? "true" : "false");
                for (int r = 0; r < pd->nreasons; r++) {
                    fputs(r ? ",{\"message\":" : "{\"message\":", f), jstr(f, pd->reasons[r].message);
                    fprintf(f, ",\"count\":%d}", pd->reasons[r].count);
                }
                fputs("]}", f);
            }
            fputs("]}", f);
        }
        fputs("]}", f);
    }
    fputs("\n]}\n", f);
}

/* ------------------------------------------------------------ reading */

static char *read_stdin(size_t *len)
{
    size_t cap = 65536, n = 0;
    char *b = malloc(cap + 1);
    if (!b) fatal_oom();
    for (size_t got; (got = fread(b + n, 1, cap - n, stdin)) > 0;) {
        n += got;
        if (n == cap) {
            if (cap >= REPORT_MAX) break;
            cap *= 2;
            b = realloc(b, cap + 1);
            if (!b) fatal_oom();
        }
    }
    b[n] = 0;
    *len = n;
    return b;
}

/* Adds every line of one report; false after saying why. */
static bool read_report(Summary *s, const char *path)
{
    size_t len;
    char why[256];
    char *text = strcmp(path, "-") == 0 ? read_stdin(&len) : read_user_file(path, REPORT_MAX, &len, why, sizeof why);
    if (!text) {
        fprintf(stderr, "%s: cannot read %s: %s\n", prog, path, why);
        return false;
    }
    bool ok = true;
    int lineno = 0;
    for (char *p = text; *p;) {
        char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        lineno++;
        if (n && strspn(p, " \t\r") < n) {
            char err[256];
            JsonValue *v = json_parse(p, n, err, sizeof err);
            if (!v) {
                fprintf(stderr, "%s: %s:%d: not JSON: %s\n", prog, path, lineno, err);
                ok = false;
            } else {
                if (!summary_add(s, v, lineno, err, sizeof err))
                    fprintf(stderr, "%s: %s:%d: skipped: %s\n", prog, path, lineno, err);
                json_free(v);
            }
        }
        if (!nl) break;
        p = nl + 1;
    }
    free(text);
    return ok;
}

int main(int argc, char **argv)
{
    enum { OPT_JSON = 256 };
    static const struct option longopts[] = {
        { "json", no_argument, NULL, OPT_JSON }, { "output", required_argument, NULL, 'o' },
        { "help", no_argument, NULL, 'h' },      { "version", no_argument, NULL, 'V' },
        { NULL, 0, NULL, 0 },
    };
    bool as_json = false;
    const char *output = NULL;
    for (int c; (c = getopt_long(argc, argv, "o:hV", longopts, NULL)) != -1;) {
        switch (c) {
        case OPT_JSON: as_json = true; break;
        case 'o': output = optarg; break;
        case 'h': usage(stdout); return 0;
        case 'V': printf("%s (ptxopt) %s\n", prog, PACKAGE_VERSION); return 0;
        default: fprintf(stderr, "Try '%s --help' for more information.\n", prog); return 2;
        }
    }
    if (optind >= argc) {
        fprintf(stderr, "%s: no report given\nTry '%s --help' for more information.\n", prog, prog);
        return 2;
    }
    Summary s;
    summary_init(&s);
    bool ok = true;
    for (int i = optind; i < argc; i++) ok &= read_report(&s, argv[i]);
    summary_finish(&s);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f) fatal_oom();
    if (as_json) json(f, &s);
    else text(f, &s);
    fclose(f);
    if (output) {
        if (!write_file_atomic(output, buf, len)) ok = false;
    } else if (fwrite(buf, 1, len, stdout) != len || fflush(stdout) != 0) {
        fprintf(stderr, "%s: cannot write the summary: %s\n", prog, strerror(errno));
        ok = false;
    }
    free(buf);
    summary_free(&s);
    return ok ? 0 : 1;
}
