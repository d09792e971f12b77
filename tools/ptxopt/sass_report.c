/* sass_report.c — see sass_report.h. */
#include "tools/ptxopt/sass_report.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/fatal.h"
#include "opt/remarks.h"

static void fail(SassReport *r, int status, const char *input, const char *what, const char *err)
{
    r->status = status;
    char *t = NULL, *j = NULL;
    size_t n;
    FILE *f = open_memstream(&t, &n);
    if (!f) fatal_oom();
    fprintf(f, "ptxopt: %s: sass: %s%s\n", input, what, err);
    fclose(f);
    f = open_memstream(&j, &n);
    if (!f) fatal_oom();
    char msg[1400];
    snprintf(msg, sizeof msg, "%s%s", what, err);
    fputs("{\"error\":", f);
    json_string(f, msg);
    fputc('}', f);
    fclose(f);
    r->text = t;
    r->json = j;
}

void sass_report_file(const SassTools *t, const char *input, const char *orig, size_t olen, const char *result,
                      size_t rlen, const char *arch, SassReport *r)
{
    memset(r, 0, sizeof *r);
    char err[1024];
    SassModule before, after;
    if (!sass_compile(t, orig, olen, arch, &before, err, sizeof err)) {
        fail(r, 1, input, "the original: ", err);
        return;
    }
    if (!sass_compile(t, result, rlen, arch ? arch : before.arch, &after, err, sizeof err)) {
        sass_module_free(&before);
        fail(r, 3, input, "the optimized PTX does not assemble: ", err);
        return;
    }
    size_t n;
    FILE *f = open_memstream(&r->text, &n);
    if (!f) fatal_oom();
    char prefix[4200];
    snprintf(prefix, sizeof prefix, "%s: sass", input);
    sass_print_compare(f, prefix, &before, &after);
    fclose(f);
    f = open_memstream(&r->json, &n);
    if (!f) fatal_oom();
    sass_json_compare(f, &before, &after);
    fclose(f);
    sass_module_free(&before);
    sass_module_free(&after);
}

void sass_report_free(SassReport *r)
{
    free(r->text);
    free(r->json);
    memset(r, 0, sizeof *r);
}
