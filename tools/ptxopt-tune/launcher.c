/* launcher.c — --launcher=slurm: each run of the measuring command as a
 * Slurm job step (issue 25 item 9; man/ptxopt-tune.1, MANY GPUS).
 *
 * Why srun, one per run and slot: it is the scheduler HPC sites already
 * have, it blocks until the step ends and hands back the command's
 * standard output and exit status, so the tuner's slots, --timeout, the
 * report rewritten after each variant and --resume work unchanged; every
 * slot's run is placed by the scheduler wherever a GPU is free.
 *
 *   srun --nodes=1 --ntasks=1 --job-name=ptxopt-tune --quiet
 *        [--partition=P] [--gpus-per-task=N] [--time=T] [OPTION...]
 *        /bin/sh -c WRAPPER
 *
 * srun passes the environment on (PTXOPT_VARIANT_*, PTXOPT_SLOT, and the
 * command itself in PTXOPT_MEASURE_COMMAND, so no quoting is needed).
 * WRAPPER says "ptxopt-tune-launch: started" on standard error, runs the
 * command and then writes one marker line there, "ptxopt-tune-launch:
 * status S start NS end NS" (the command's exit status and the clock
 * around it, in nanoseconds).  So the tuner tells apart:
 *   the command failed     the marker is there with its status;
 *   the job was lost       started, but no marker: cancelled, preempted
 *                          and requeued, a node failure; the run is
 *                          submitted again (--slurm-retries times);
 *   refused                not even started (srun: a configuration, an
 *                          account, a partition that does not exist):
 *                          the variant fails with srun's message at once;
 * and the time a run costs beyond the command's own (submission,
 * scheduling, step launch and teardown) is the run's wall time less the
 * marker's interval: the submission overhead, reported per variant. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/ptxopt-tune/tune.h"
#include "ir/fatal.h"

#define MARKER "ptxopt-tune-launch: status "
#define STARTED "ptxopt-tune-launch: started"

static const char wrapper[] =
    "echo \"" STARTED "\" >&2; ptxopt_t0=$(date +%s%N); /bin/sh -c \"$PTXOPT_MEASURE_COMMAND\"; ptxopt_st=$?; "
    "echo \"" MARKER "$ptxopt_st start $ptxopt_t0 end $(date +%s%N)\" >&2; exit $ptxopt_st";

static void add(char **argv, int *n, const char *fmt, const char *a)
{
    if (asprintf(&argv[(*n)++], fmt, a) < 0) fatal_oom();
}

char **tune_launcher_argv(const TuneLauncher *L, const char *cmd, char **cmd_env)
{
    char **argv = calloc(16 + (size_t)L->noptions, sizeof *argv);
    if (!argv) fatal_oom();
    int n = 0;
    char gpus[32];
    snprintf(gpus, sizeof gpus, "%d", L->gpus_per_task);
    add(argv, &n, "%s", L->srun);
    add(argv, &n, "%s", "--nodes=1");
    add(argv, &n, "%s", "--ntasks=1");
    add(argv, &n, "%s", "--job-name=ptxopt-tune");
    add(argv, &n, "%s", "--quiet");
    if (L->partition) add(argv, &n, "--partition=%s", L->partition);
    if (L->gpus_per_task > 0) add(argv, &n, "--gpus-per-task=%s", gpus);
    if (L->time) add(argv, &n, "--time=%s", L->time);
    for (int i = 0; i < L->noptions; i++) add(argv, &n, "%s", L->options[i]);
    add(argv, &n, "%s", "/bin/sh");
    add(argv, &n, "%s", "-c");
    add(argv, &n, "%s", wrapper);
    argv[n] = NULL;
    if (asprintf(cmd_env, "PTXOPT_MEASURE_COMMAND=%s", cmd) < 0) fatal_oom();
    return argv;
}

void tune_launcher_argv_free(char **argv)
{
    for (char **p = argv; p && *p; p++) free(*p);
    free(argv);
}

/* Reads err_path line by line; calls fn(line, ctx) for each, without the
 * newline and trailing blanks. */
static void each_line(const char *path, void (*fn)(const char *line, void *ctx), void *ctx)
{
    FILE *f = fopen(path, "r");
    if (!f) return;
    char line[1024];
    while (fgets(line, sizeof line, f)) {
        size_t n = strlen(line);
        while (n && (line[n - 1] == '\n' || line[n - 1] == '\r' || line[n - 1] == ' ' || line[n - 1] == '\t')) line[--n] = 0;
        fn(line, ctx);
    }
    fclose(f);
}

typedef struct Outcome {
    bool started;                /* the job ran the wrapper */
    bool found;
    int status;
    double seconds;
    char before[512];            /* the last line before the marker */
    char last[512];              /* the last line that is neither srun's nor the marker */
} Outcome;

static bool is_slurm_line(const char *l)
{
    return strncmp(l, "srun:", 5) == 0 || strncmp(l, "slurmstepd:", 11) == 0 || strstr(l, "slurmstepd: error") != NULL;
}

static void scan(const char *line, void *ctx)
{
    Outcome *o = ctx;
    const char *p = line;
    while (*p == ' ' || *p == '\t') p++;
    if (!*p) return;
    if (strcmp(p, STARTED) == 0) {
        o->started = true;
        return;
    }
    if (strncmp(p, MARKER, strlen(MARKER)) == 0) {
        long long a = 0, b = 0;
        int st = 0;
        if (sscanf(p + strlen(MARKER), "%d start %lld end %lld", &st, &a, &b) >= 1) {
            o->found = true;
            o->status = st;
            o->seconds = a > 0 && b >= a ? (double)(b - a) / 1e9 : 0;
        }
        return;
    }
    if (!o->found) snprintf(o->before, sizeof o->before, "%s", p);
    if (!is_slurm_line(p)) snprintf(o->last, sizeof o->last, "%s", p);
}

bool tune_launcher_outcome(const char *err_path, int *status, double *seconds, const char **why, bool *started)
{
    static Outcome o;
    memset(&o, 0, sizeof o);
    each_line(err_path, scan, &o);
    *started = o.started;
    if (!o.found) return false;
    *status = o.status;
    *seconds = o.seconds;
    *why = o.before;
    return true;
}

typedef struct Lost {
    char slurm[512], any[512];
} Lost;

static void scan_lost(const char *line, void *ctx)
{
    Lost *l = ctx;
    const char *p = line;
    while (*p == ' ' || *p == '\t') p++;
    if (!*p || strcmp(p, STARTED) == 0) return;
    if (is_slurm_line(p)) snprintf(l->slurm, sizeof l->slurm, "%s", p);
    snprintf(l->any, sizeof l->any, "%s", p);
}

const char *tune_launcher_lost_why(const char *err_path)
{
    static Lost l;
    memset(&l, 0, sizeof l);
    each_line(err_path, scan_lost, &l);
    return l.slurm[0] ? l.slurm : l.any;
}
