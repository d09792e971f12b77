/* tune_measure.c — time a variant with the user's command.
 *
 * The command runs under /bin/sh -c with the variant described in the
 * environment (man/ptxopt-tune.1, ENVIRONMENT):
 *   PTXOPT_VARIANT_PTX, PTXOPT_VARIANT_CUBIN   the variant's files
 *   PTXOPT_VARIANT_ID                          its id in the table
 *   PTXOPT_VARIANT_KERNEL                      the kernel being tuned
 *   PTXOPT_VARIANT_REGS                        registers ptxas gave that kernel
 *   PTXOPT_VARIANT_ARCH                        the target, sm_XX
 *   PTXOPT_VARIANT_<DIM>                       each dimension's value, "none" for
 *                                              the baseline: PTXOPT_VARIANT_MAXNREG
 *                                              is the register cap
 * It must exit 0 and print a time as the last line of its standard output
 * (a number, optionally followed by a unit word, which is ignored: lower is
 * better).  Each variant runs `repeat` times; the median decides. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "driver/tune.h"
#include "ir/fatal.h"

bool tune_parse_time(const char *text, double *out)
{
    while (isspace((unsigned char)*text)) text++;
    char *end;
    double v = strtod(text, &end);
    if (end == text || !isfinite(v) || v < 0) return false;
    while (isspace((unsigned char)*end)) end++;
    for (const char *p = end; *p; p++)
        if (!isalpha((unsigned char)*p) && !isspace((unsigned char)*p)) return false;
    *out = v;
    return true;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

double tune_median(const double *v, int n)
{
    if (n <= 0) return NAN;
    double *s = malloc(sizeof *s * (size_t)n);
    if (!s) fatal_oom();
    memcpy(s, v, sizeof *s * (size_t)n);
    qsort(s, (size_t)n, sizeof *s, cmp_double);
    double m = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
    free(s);
    return m;
}

static char *envf(const char *name, const char *value)
{
    char *e;
    if (asprintf(&e, "%s=%s", name, value) < 0) fatal_oom();
    return e;
}

static void fail(Variant *v, const char *msg)
{
    free(v->error);
    v->error = strdup(msg);
    if (!v->error) fatal_oom();
    v->status = V_MEASURE_FAILED;
}

void tune_measure(const MeasureSpec *ms, Variant *v, const TuneKernel *k)
{
    char *env[TUNE_MAX_DIMS + 16];
    int ne = 0;
    char num[32];
    env[ne++] = envf("PTXOPT_VARIANT_PTX", v->ptx_path);
    env[ne++] = envf("PTXOPT_VARIANT_CUBIN", v->cubin_path);
    snprintf(num, sizeof num, "%d", v->id);
    env[ne++] = envf("PTXOPT_VARIANT_ID", num);
    env[ne++] = envf("PTXOPT_VARIANT_KERNEL", k->name);
    snprintf(num, sizeof num, "%d", v->st.regs);
    env[ne++] = envf("PTXOPT_VARIANT_REGS", num);
    env[ne++] = envf("PTXOPT_VARIANT_ARCH", ms->arch);
    for (int d = 0; d < k->ndims; d++) {
        char name[96];
        snprintf(name, sizeof name, "PTXOPT_VARIANT_%s", k->dims[d].name);
        for (char *p = name; *p; p++) *p = (char)toupper((unsigned char)*p);
        env[ne++] = envf(name, v->value[d] ? v->value[d] : "none");
    }
    env[ne] = NULL;

    char *out_path, *err_path;
    if (asprintf(&out_path, "%s/v%d.measure.out", ms->workdir, v->id) < 0 ||
        asprintf(&err_path, "%s/v%d.measure.err", ms->workdir, v->id) < 0)
        fatal_oom();
    char *argv[] = { "/bin/sh", "-c", (char *)ms->cmd, NULL };
    free(v->times);
    v->times = calloc((size_t)ms->repeat, sizeof *v->times);
    if (!v->times) fatal_oom();
    v->nruns = 0;
    for (int r = 0; r < ms->repeat; r++) {
        ExecResult x = tune_exec(argv, env, out_path, err_path, ms->timeout);
        char msg[700];
        if (x.status < 0) { fail(v, x.error); break; }
        if (x.timed_out) {
            snprintf(msg, sizeof msg, "the measuring command ran longer than %g s and was stopped", ms->timeout);
            fail(v, msg);
            break;
        }
        if (x.status != 0) {
            const char *why = tune_last_line(err_path);
            snprintf(msg, sizeof msg, "the measuring command exited with status %d%s%.500s", x.status, *why ? ": " : "", why);
            fail(v, msg);
            break;
        }
        const char *last = tune_last_line(out_path);
        double t;
        if (!tune_parse_time(last, &t)) {
            snprintf(msg, sizeof msg, "the measuring command printed no time (last line: '%.200s')", last);
            fail(v, msg);
            break;
        }
        v->times[v->nruns++] = t;
    }
    if (v->status != V_MEASURE_FAILED) {
        v->median = tune_median(v->times, v->nruns);
        v->measured = true;
    }
    for (int i = 0; i < ne; i++) free(env[i]);
    free(out_path);
    free(err_path);
}
