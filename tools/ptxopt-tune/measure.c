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
    char *env[TUNE_MAX_DIMS + 17];
    int ne;
    char *out_path, *err_path;
    pid_t pid;                   /* the running command, or 0 */
    double deadline_ms;          /* 0: no --timeout */
    bool timed_out;
    double kill_ms;              /* launcher: SIGKILL after the timeout's SIGTERM, at this time */
    double start_ms;             /* when the run started */
    int lost;                    /* launcher: times this run's job was lost */
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
    v->launch_overhead = ms->launcher ? 0 : NAN;
    v->launch_resubmits = 0;
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

/* Starts the variant's next run (through the launcher, if any); false
 * (v failed) when it cannot. */
static bool job_start(const MeasureSpec *ms, Job *j)
{
    char *local[] = { "/bin/sh", "-c", (char *)ms->cmd, NULL }, **argv = local;
    char err[256];
    if (ms->launcher) {
        argv = tune_launcher_argv(ms->launcher, ms->cmd, &j->env[j->ne]);
        j->env[j->ne + 1] = NULL;
    }
    j->timed_out = false;
    j->kill_ms = 0;
    j->start_ms = now_ms();
    j->pid = tune_spawn(argv, j->env, j->out_path, j->err_path, err, sizeof err);
    if (ms->launcher) {
        tune_launcher_argv_free(argv);
        free(j->env[j->ne]);
        j->env[j->ne] = NULL;
    }
    if (j->pid < 0) {
        j->pid = 0;
        fail(j->v, err);
        return false;
    }
    j->deadline_ms = ms->timeout > 0 ? now_ms() + ms->timeout * 1e3 : 0;
    return true;
}

/* The launcher's view of a run that ended: false when its job was lost
 * and the run is to be submitted again (*again); else the command's own
 * status replaces the launcher's (srun's), and the time around the
 * command counts as overhead. */
static bool launched_outcome(const MeasureSpec *ms, Job *j, int *status, const char **why, bool *again)
{
    Variant *v = j->v;
    double wall = (now_ms() - j->start_ms) / 1e3, inner;
    bool started;
    *again = false;
    if (tune_launcher_outcome(j->err_path, status, &inner, why, &started)) {
        v->launch_overhead += wall > inner ? wall - inner : 0;
        j->lost = 0;
        return true;
    }
    const char *lost = tune_launcher_lost_why(j->err_path);
    v->launch_overhead += wall;   /* a lost job's whole time is overhead */
    char msg[700];
    if (!started) {   /* refused: submitting it again would be refused again */
        snprintf(msg, sizeof msg, "srun did not start the command (status %d): %.500s", *status,
                 *lost ? lost : "no message");
        fail(v, msg);
        return false;
    }
    if (j->lost < ms->launcher->retries) {
        j->lost++;
        v->launch_resubmits++;
        if (ms->log)
            fprintf(ms->log, "ptxopt-tune: v%d: its job ended before the command did (%s); submitted again (%d of %d)\n", v->id,
                    *lost ? lost : "no message", j->lost, ms->launcher->retries);
        *again = true;
        return false;
    }
    snprintf(msg, sizeof msg, "its Slurm job was lost %d time%s (the command never finished): %.500s", j->lost + 1,
             j->lost ? "s" : "", *lost ? lost : "no message");
    fail(v, msg);
    return false;
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
    const char *why = NULL;
    if (ms->launcher) {
        bool again;
        if (!launched_outcome(ms, j, &status, &why, &again)) return !again;
    }
    if (status != 0) {
        if (!why) why = tune_last_line(j->err_path);
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
                /* srun cancels its job step on SIGTERM (SIGKILL would leave
                 * the step running until Slurm notices): SIGKILL 2 s later */
                kill(-slot[s].pid, ms->launcher ? SIGTERM : SIGKILL);
                slot[s].timed_out = true;
                slot[s].kill_ms = now + 2000;
            } else if (slot[s].pid && slot[s].timed_out && ms->launcher && slot[s].kill_ms && now > slot[s].kill_ms) {
                kill(-slot[s].pid, SIGKILL);
                slot[s].kill_ms = 0;
            }
        if (w == 0) nanosleep(&(struct timespec){ 0, 2000000 }, NULL);
    }
    free(slot);
}
