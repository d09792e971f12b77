/* internal.h — the parts of ptxopt-tune's run that its files share
 * (the data model is tune.h):
 *   options.c        the command line: Config, --help, the ptxas to use
 *   build.c          building a variant with ptxopt and ptxas, and the
 *                    probes that find each kernel's register range
 *   sfu.c            the sfu dimension: HEU search of lambda in the emulator
 *   main.c           the run: kernels, variants, ranking, measuring, output */
#ifndef PTXOPT_TUNE_DRIVER_H
#define PTXOPT_TUNE_DRIVER_H

#include <stdbool.h>

#include "tools/ptxopt-tune/tune.h"
#include "emu/emu.h"

enum { ST_OK = 0, ST_BAD_INPUT = 1, ST_USAGE = 2, ST_INTERNAL = 3 };

#define MAX_KERNEL_ARGS 64
#define MAX_PTXAS_OPTS 32

/* sfu.c: the sfu dimension (--sfu-launch).  HEU over lambda in
 * 0..W with E(lambda) from the emulator under --approx=bound. */
#define TUNE_SFU_MAX_ARGS 64
#define TUNE_HEU_MAX_STEPS 64
typedef struct Tuner Tuner;
typedef struct TuneHeuStep { int lambda; double error; } TuneHeuStep;
typedef struct TuneHeu {
    int lambda;                  /* the answer */
    double qos;                  /* the bound used (q, or q_ratio * E(lambda_max)) */
    int nruns;                   /* E evaluations */
    int nsteps;
    TuneHeuStep steps[TUNE_HEU_MAX_STEPS];   /* every sample, in order */
} TuneHeu;
typedef double (*TuneErrFn)(int lambda, void *ctx);   /* NAN: the sample failed */
/* The thesis's HEU: the largest lambda in 0..lambda_max with E <= q
 * (regula falsi from (0, 0) and (lambda_max, E(lambda_max)), then a
 * step-down repair); q_ratio > 0: q = q_ratio * E(lambda_max) instead.
 * false when a sample failed. */
bool tune_heu(int lambda_max, double q, double q_ratio, TuneErrFn f, void *ctx, TuneHeu *h);

typedef struct TuneSfu {
    bool enabled;
    char *text;                  /* --sfu-launch as given */
    EmuLaunch L;
    EmuArg args[TUNE_SFU_MAX_ARGS];
    int nargs;
    bool has_outputs, outputs[TUNE_SFU_MAX_ARGS];
    double qos;                  /* --qos (0.01) */
    double qos_ratio;            /* --qos-ratio: qos = ratio * E(W), 0 = off */
    EmuMetric metric;            /* --error-metric (mre) */
    const char *key;             /* --sfu-key: warp (default) | warpid */
    const char *options;         /* --sfu-options: more pass options, or NULL */
    char *fragment;
    Tuner *tuner;
    /* the emulator's dynamic mix per (kernel, lambda) sampled; lambda -1:
     * the input as is (the baseline) */
    int nmix, capmix;
    struct TuneSfuMix { char *kernel; int lambda; double mix[UNIT_COUNT]; } *mix;
} TuneSfu;
bool tune_sfu_parse_launch(TuneSfu *s, const char *text, char *err, size_t errsz);
void tune_sfu_free(TuneSfu *s);
TuneDim tune_sfu_dim(TuneSfu *s);
/* The emulator's dynamic instruction mix (warp-instruction issues per
 * unit, per warp) of kernel's variant with sfu value `value` (NULL: the
 * baseline; "0": the baseline's too), when the search ran it: the cost
 * model ranks sfu variants by what runs, not by the static code, which
 * holds both copies of the split region.  false when not sampled. */
bool tune_sfu_mix(const TuneSfu *s, const char *kernel, const char *value, double mix[UNIT_COUNT]);

typedef struct Config {
    const char *input, *output, *report, *arch_opt, *measure, *workdir, *ptxas, *resume;
    const char *kernels[MAX_KERNEL_ARGS];
    int nkernels;
    long block, grid, maxrregcount, repeat, max_variants, jobs;
    long long dynamic_smem;
    double timeout, min_gain;
    bool dry_run, keep, quiet, no_regs, sass;
    int ndims;
    TuneDim dims[TUNE_MAX_DIMS];
    char *ptxas_opts[MAX_PTXAS_OPTS];
    int nptxas_opts;
    TuneSfu sfu;                 /* --sfu-launch: the sfu dimension */
} Config;

/* Everything a run needs besides the configuration. */
typedef struct Tuner {
    Config *cfg;
    const Arch *arch;
    const char *arch_name;       /* as ptxas gets it: sm_90a stays sm_90a */
    int arch_sm;
    bool retarget;               /* --arch differs from the file: rewrite .target */
    char *workdir;
    bool temp_workdir;
    const char *base_ptx, *base_cubin;   /* the baseline's files in workdir */
    TuneRun run;
    int cap_variants;
    SassTools *sass;             /* --sass: nvdisasm found */
} Tuner;

/* options.c */
void tune_parse_args(int argc, char **argv, Config *c);   /* exits on --help, --version, usage errors */
char *tune_find_ptxas(const Config *c);                   /* malloc'ed, or NULL */
void tune_config_free(Config *c);                         /* the --dim dimensions */

/* build.c */
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void tune_progress(const Tuner *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
bool tune_build_ptx(Tuner *t, const char *pipeline, const char *path, const char *kernel, char **missed, char **missed_fn);
PtxasRun tune_ptxas(Tuner *t, const char *ptx, const char *cubin, const char *log);
/* The register-effective range of every kernel not yet skipped: fills lo
 * (each kernel at its floor) and hi (at the most registers its block can
 * launch with); kernels the pass refuses get k->skip.  false (with *why)
 * when ptxas cannot assemble a probe. */
bool tune_probe_range(Tuner *t, PtxasRun *lo, PtxasRun *hi, char **why);

#endif
