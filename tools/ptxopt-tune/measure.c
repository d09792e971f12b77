/* measure.c — time a variant with the user's command.
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
 *   PTXOPT_BASELINE_PTX, PTXOPT_BASELINE_CUBIN the input as it is (to check
 *                                              a variant's results against)
 *   PTXOPT_SLOT, PTXOPT_JOBS                   the slot (0..jobs-1) the command
 *                                              runs in, and how many there are
 * It must exit 0 and print a time as the last line of its standard output
 * (a number, optionally followed by a unit word, which is ignored: lower is
 * better).  Each variant runs `repeat` times; the median decides.
 *
 * With --jobs=N up to N variants are measured at once.  A variant keeps its
 * slot for all its runs, and a slot takes a new variant only when its
 * command has been reaped, so a harness can give each slot a GPU of its own
 * (CUDA_VISIBLE_DEVICES=$PTXOPT_SLOT) or a cluster job.  Every result is a
 * function of the variant alone, so the table and the pick do not depend on
 * N; only the order of the progress lines does.
 *
 * Each command leads a process group of its own, registered with
 * support/cleanup.h from fork to reap: a signal that ends the tuner ends
 * every slot's command with all it started, and since the handler never
 * returns, a command that ends after the signal gives no result. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>

#include "support/cleanup.h"
#include "tools/ptxopt-tune/tune.h"
#include "support/clock.h"
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

/* One variant being measured in one slot. */
typedef struct Job {
    Variant *v;
    int slot;
    char *env[TUNE_MAX_DIMS + 16];
    int ne;
    char *out_path, *err_path;
    pid_t pid;                   /* the running command, or 0 */
    double deadline_ms;          /* 0: no --timeout */
    bool timed_out;
} Job;

static void job_setup(const MeasureSpec *ms, Job *j, Variant *v, int slot)
{
    const TuneKernel *k = v->kernel;
    memset(j, 0, sizeof *j);
    j->v = v;
    j->slot = slot;
    char num[32];
    j->env[j->ne++] = envf("PTXOPT_VARIANT_PTX", v->ptx_path);
    j->env[j->ne++] = envf("PTXOPT_VARIANT_CUBIN", v->cubin_path);
    snprintf(num, sizeof num, "%d", v->id);
    j->env[j->ne++] = envf("PTXOPT_VARIANT_ID", num);
    j->env[j->ne++] = envf("PTXOPT_VARIANT_KERNEL", k->name);
    snprintf(num, sizeof num, "%d", v->st.regs);
    j->env[j->ne++] = envf("PTXOPT_VARIANT_REGS", num);
    j->env[j->ne++] = envf("PTXOPT_VARIANT_ARCH", ms->arch);
    for (int d = 0; d < k->ndims; d++) {
        char name[96];
        snprintf(name, sizeof name, "PTXOPT_VARIANT_%s", k->dims[d].name);
        for (char *p = name; *p; p++) *p = (char)toupper((unsigned char)*p);
        j->env[j->ne++] = envf(name, v->value[d] ? v->value[d] : "none");
    }
    if (ms->baseline_ptx) j->env[j->ne++] = envf("PTXOPT_BASELINE_PTX", ms->baseline_ptx);
    if (ms->baseline_cubin) j->env[j->ne++] = envf("PTXOPT_BASELINE_CUBIN", ms->baseline_cubin);
    snprintf(num, sizeof num, "%d", slot);
    j->env[j->ne++] = envf("PTXOPT_SLOT", num);
    snprintf(num, sizeof num, "%d", ms->jobs > 0 ? ms->jobs : 1);
    j->env[j->ne++] = envf("PTXOPT_JOBS", num);
    j->env[j->ne] = NULL;
    if (asprintf(&j->out_path, "%s/v%d.measure.out", ms->workdir, v->id) < 0 ||
        asprintf(&j->err_path, "%s/v%d.measure.err", ms->workdir, v->id) < 0)
        fatal_oom();
    free(v->times);
    v->times = calloc((size_t)ms->repeat, sizeof *v->times);
    if (!v->times) fatal_oom();
    v->nruns = 0;
}

static void job_clear(Job *j)
{
    for (int i = 0; i < j->ne; i++) free(j->env[i]);
    free(j->out_path);
    free(j->err_path);
    memset(j, 0, sizeof *j);
}

/* Starts the variant's next run; false (v failed) when it cannot. */
static bool job_start(const MeasureSpec *ms, Job *j)
{
    char *argv[] = { "/bin/sh", "-c", (char *)ms->cmd, NULL };
    char err[256];
    j->timed_out = false;
    j->pid = tune_spawn(argv, j->env, j->out_path, j->err_path, err, sizeof err);
    if (j->pid < 0) {
        j->pid = 0;
        fail(j->v, err);
        return false;
    }
    j->deadline_ms = ms->timeout > 0 ? now_ms() + ms->timeout * 1e3 : 0;
    return true;
}

/* A run ended with waitpid() status wstatus.  true when the variant is
 * finished (every run done, or one failed). */
static bool job_ended(const MeasureSpec *ms, Job *j, int wstatus)
{
    Variant *v = j->v;
    int status = tune_exit_code(wstatus);
    bool timed_out = j->timed_out;
    j->pid = 0;
    char msg[700];
    if (timed_out) {
        snprintf(msg, sizeof msg, "the measuring command ran longer than %g s and was stopped", ms->timeout);
        fail(v, msg);
        return true;
    }
    if (status != 0) {
        const char *why = tune_last_line(j->err_path);
        snprintf(msg, sizeof msg, "the measuring command exited with status %d%s%.500s", status, *why ? ": " : "", why);
        fail(v, msg);
        return true;
    }
    const char *last = tune_last_line(j->out_path);
    double t;
    if (!tune_parse_time(last, &t)) {
        snprintf(msg, sizeof msg, "the measuring command printed no time (last line: '%.200s')", last);
        fail(v, msg);
        return true;
    }
    v->times[v->nruns++] = t;
    if (v->nruns < ms->repeat) return false;
    v->median = tune_median(v->times, v->nruns);
    v->measured = true;
    return true;
}

void tune_measure_all(const MeasureSpec *ms, Variant *const *vs, int n, void (*done)(Variant *v, void *ctx), void *ctx)
{
    int jobs = ms->jobs > 0 ? ms->jobs : 1;
    if (jobs > n) jobs = n;
    if (jobs <= 0) return;
    Job *slot = calloc((size_t)jobs, sizeof *slot);
    if (!slot) fatal_oom();
    int next = 0, running = 0;
    for (;;) {
        /* every free slot takes the next variant, lowest slot first */
        for (int s = 0; s < jobs; s++)
            while (!slot[s].v && next < n) {
                job_setup(ms, &slot[s], vs[next++], s);
                if (job_start(ms, &slot[s])) {
                    running++;
                } else {
                    Variant *v = slot[s].v;
                    job_clear(&slot[s]);
                    if (done) done(v, ctx);
                }
            }
        if (!running) break;
        bool timeouts = ms->timeout > 0;
        int wstatus;
        pid_t w = waitpid(-1, &wstatus, timeouts ? WNOHANG : 0);
        if (w > 0) {
            int s = 0;
            while (s < jobs && !(slot[s].v && slot[s].pid == w)) s++;
            if (s == jobs) continue; /* not a measuring command (none other runs now) */
            cleanup_forget(w);
            running--;
            if (job_ended(ms, &slot[s], wstatus)) {
                Variant *v = slot[s].v;
                job_clear(&slot[s]);
                if (done) done(v, ctx);
            } else if (job_start(ms, &slot[s])) {
                running++;
            } else {
                Variant *v = slot[s].v;
                job_clear(&slot[s]);
                if (done) done(v, ctx);
            }
            continue;
        }
        if (w < 0 && errno != EINTR) break; /* ECHILD: nothing left to wait for */
        double now = now_ms();
        for (int s = 0; s < jobs; s++)
            if (slot[s].pid && slot[s].deadline_ms && now > slot[s].deadline_ms && !slot[s].timed_out) {
                kill(-slot[s].pid, SIGKILL);
                slot[s].timed_out = true;
            }
        if (w == 0) nanosleep(&(struct timespec){ 0, 2000000 }, NULL);
    }
    free(slot);
}
