/* tune.h — ptxopt-tune's model of a tuning run (see man/ptxopt-tune.1).
 *
 *   main.c           options and the run: probe, enumerate, build, measure,
 *                    pick, write
 *   space.c          the candidate space: dimensions and their product
 *   ptxas.c          ptxas -v runs and what they print; cubin code hashes
 *   exec.c           running a program with output captured (and a timeout)
 *   measure.c        the user's measuring command: environment, time, median;
 *                    up to --jobs commands at once, each in its slot
 *   launcher.c       --launcher=slurm: each run through srun
 *   resume.c         reading an earlier run's report, JSON or CSV (--resume)
 *   mix.c            a kernel's instruction mix for the cost model
 *   report.c         the table on stdout, CSV and JSON reports
 *   plot.c           --plot: the objective per variant and dimension (gnuplot)
 *   constraint.c     --constraint expressions
 *   strategy.c       --strategy: names, random sampling
 *   prune.c          the points a pass does not apply to or a constraint excludes
 *   spacefile.c      --space / --write-space: the search space as a JSON file
 *   sfu.c            the sfu dimension: lambda by HEU search in the emulator
 *
 * THE CANDIDATE SPACE IS A LIST OF DIMENSIONS.  A TuneDim names one knob
 * and how to turn it: a pipeline fragment for ptxopt with "%v" where the
 * value goes and "%k" where the kernel's name goes, and the values to try.
 * A variant of a kernel picks one value of every dimension, or "off" (the
 * dimension's pass is not run: NULL); its pipeline is the fragments of the
 * dimensions that are not off, joined by ',' (in dimension order).  The
 * space is the product of the dimensions, each with its off value, so that
 * every dimension is also measured alone; the point with every dimension
 * off is the baseline (the input as is).  Before anything is built, points
 * are pruned (space.c, prune.c): those with a value the pass says does not
 * apply to the kernel (no "applied" remark when run alone), and those a
 * --constraint rules out (constraint.c); each pruning is counted and kept
 * with its reason for the table and the reports.
 *
 *   register caps (built in, values per kernel = its critical points):
 *     { "maxnreg", "regtune<maxnreg=%v;kernel=%k>", {"32","40","64",...} }
 *   a later pass adds its own, e.g. the bypass threshold:
 *     { "bypass", "bypass<threshold=%v;kernel=%k>", {"0","2","4","8"} }
 *   and users add any with --dim=NAME:FRAGMENT:V1,V2,...
 * A dimension with values_for set gets its values per kernel, once the
 * kernel's ptxas figures are known (the regs dimension does). */
#ifndef PTXOPT_TUNE_H
#define PTXOPT_TUNE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

#include "model/model.h"
#include "sass/sass.h"

#define TUNE_MAX_DIMS 8
#define TUNE_MAX_VALUES 320         /* the bypass dimension: 32 thresholds x 9 form/op pairs */
#define TUNE_MAX_JOBS 1024          /* --jobs; no more than support/cleanup.h tracks at once */

typedef struct TuneKernel TuneKernel;

typedef enum TuneDimKind { DIM_FRAGMENT, DIM_MAXNREG, DIM_BYPASS, DIM_SFU } TuneDimKind;

typedef struct TuneDim {
    const char *name;            /* column and report key; env PTXOPT_VARIANT_<NAME in capitals> */
    const char *fragment;        /* "regtune<maxnreg=%v;kernel=%k>" */
    int nvalues;                 /* besides "off", which every dimension has */
    char *values[TUNE_MAX_VALUES];
    /* NULL (fixed values), or fills the values for one kernel */
    void (*values_for)(struct TuneDim *d, const Arch *a, TuneKernel *k);
    void *ctx;                   /* values_for's own state (the sfu dimension's search) */
    TuneDimKind kind;            /* for the space file (spacefile.c) */
    const char *spec;            /* DIM_BYPASS: its --dim text, "bypass[:FORMS[:OPS]]" */
} TuneDim;

/* Why points of a kernel's space were left out before building: a value
 * the pass does not apply (dim >= 0, value), a constraint (constraint >=
 * 0), or a value a search rejected (the sfu dimension's schedule-dependent
 * samples: points 0, the value never entered the space). */
typedef enum TunePruneKind { PRUNE_INAPPLICABLE, PRUNE_CONSTRAINT, PRUNE_REJECTED } TunePruneKind;
typedef struct TunePrune {
    TunePruneKind kind;
    int dim;                     /* PRUNE_INAPPLICABLE, PRUNE_REJECTED */
    char *value;                 /* idem */
    int constraint;              /* PRUNE_CONSTRAINT: index in the run's constraints */
    char *reason;
    long points;                 /* points of the space it removed */
} TunePrune;

/* What `ptxas -v` says about one entry function. */
typedef struct PtxasStats {
    bool found;
    int regs;
    int barriers;
    long long stack, spill_stores, spill_loads, smem;
} PtxasStats;

typedef enum VariantStatus {
    V_PENDING, V_OK, V_DUPLICATE, V_BUILD_FAILED, V_MEASURE_FAILED
} VariantStatus;

typedef struct Variant {
    int id;                      /* unique in the run; 0.. */
    TuneKernel *kernel;
    bool baseline;               /* the input unchanged */
    char *value[TUNE_MAX_DIMS];  /* per dimension of the kernel; NULL for the baseline */
    char *pipeline;              /* "" for the baseline */
    char *ptx_path, *cubin_path;
    VariantStatus status;
    char *error;                 /* why it failed */
    int duplicate_of;            /* id of the variant with the same machine code, or -1 */
    unsigned long long code_hash;/* of the cubin's .text sections */
    PtxasStats st;
    /* machine code (--sass): the kernel's SASS classes in this variant's cubin */
    bool has_sass;
    int sass[SASS_NCLASSES];
    int sass_total;
    /* model */
    Occupancy occ;
    int rank;                    /* cost model, 1 = predicted fastest among the kernel's */
    double predicted_cycles;     /* the model on the static mix (PTX or SASS): one unit for every variant */
    double predicted_cycles_dynamic; /* on the emulator's issue counts of --sfu-launch (NAN: none) */
    const char *bottleneck, *confidence;
    /* measurement */
    int nruns;
    double *times;
    double median;
    bool measured;
    bool resumed;                /* the times come from --resume's report */
    bool best;
    bool skipped;                /* the strategy did not need it (not measured) */
    /* launcher (--launcher=slurm): seconds the submissions cost beyond
     * the command's own run time, over its runs; NAN: not known */
    double launch_overhead;
    int launch_resubmits;        /* runs submitted again after the job was lost */
} Variant;

struct TuneKernel {
    char *name;
    int block;                   /* threads per block used by the model */
    const char *block_from;      /* ".reqntid", ".maxntid", "--block", "assumed" */
    bool universal;              /* block unknown: the universal critical set */
    int default_regs;            /* baseline's registers */
    int floor_regs, top_regs;    /* the register-effective range [floor, top] */
    int top_clamp;               /* top_regs after --maxrregcount and launch feasibility */
    long long smem_static;       /* ptxas -v */
    long long smem_dynamic;      /* --dynamic-smem */
    double mix[UNIT_COUNT];      /* static instruction mix */
    int ndims;
    TuneDim dims[TUNE_MAX_DIMS];
    int first_variant, nvariants; /* indices into the run's variant array */
    int best;                    /* variant index, -1 */
    char *skip;                  /* not tuned: why (malloc'ed) */
    int probe_cap;               /* the cap of the current range probe */
    /* the space: points (the product with "off", less the baseline), what
     * pruning removed, what the strategy sampled (-1: no sampling) */
    long points, pruned_inapplicable, pruned_constraint, sampled;
    int nprunes;
    TunePrune *prunes;
    bool rank_dynamic;           /* ranked by predicted_cycles_dynamic */
};

/* Records a pruning of k's space (space.c); the strings are copied. */
void tune_add_prune(TuneKernel *k, TunePruneKind kind, int dim, const char *value, int constraint, const char *reason, long points);

/* ------------------------------------------------------------ tune_exec */

typedef struct ExecResult {
    int status;                  /* exit status (shell convention: 128+signal); -1 not started */
    bool timed_out;
    char error[256];             /* why it could not start */
} ExecResult;

/* Runs argv (argv[0] a path or a name searched in PATH) with stdout and
 * stderr sent to the files (NULL: /dev/null; the same path twice: both
 * into it), extra environment entries "NAME=value" (NULL-terminated, may be
 * NULL), and a timeout in seconds (0: none; the whole process group is
 * killed). */
ExecResult tune_exec(char *const argv[], char *const env[], const char *out_path, const char *err_path, double timeout);

/* Starts argv as tune_exec does and returns at once: the child's pid (the
 * leader of its own process group, registered with support/cleanup.h: the
 * caller reaps it and calls cleanup_forget), or -1 with why in err. */
pid_t tune_spawn(char *const argv[], char *const env[], const char *out_path, const char *err_path, char *err, size_t errsz);
/* The exit status a shell reports for a waitpid() status. */
int tune_exit_code(int wstatus);

/* The last line of a file that is not blank, without leading and trailing
 * blanks; "" if none (static buffer). */
const char *tune_last_line(const char *path);

/* ----------------------------------------------------------- tune_ptxas */

typedef struct PtxasRun {
    bool ok;
    char error[512];             /* first error line, when !ok */
    int n;
    char **names;
    PtxasStats *stats;
    unsigned long long code_hash;
} PtxasRun;

/* Runs `ptxas -arch=ARCH -v OPTS... PTX -o CUBIN` (log_path keeps its
 * output) and parses it. */
PtxasRun ptxas_run(const char *ptxas, const char *arch, char *const *opts, int nopts, const char *ptx,
                   const char *cubin, const char *log_path);
void ptxas_run_free(PtxasRun *r);
const PtxasStats *ptxas_stats_of(const PtxasRun *r, const char *entry);
/* Parses ptxas -v text (exposed for tests). */
void ptxas_parse_log(const char *text, PtxasRun *r);
/* FNV-1a over the names and contents of the ELF's .text.* sections; 0 if
 * the file is not an ELF64 we can read. */
unsigned long long cubin_code_hash(const char *path);

/* ----------------------------------------------------------- tune_space */

/* The built-in register dimension "maxnreg" (values filled per kernel). */
TuneDim tune_regs_dim(void);
/* Parses NAME:FRAGMENT:V1,V2,...; false after writing why to err. */
bool tune_parse_dim(const char *spec, TuneDim *d, char *err, size_t errsz);
/* The same from its parts (the space file's dimensions). */
bool tune_make_dim(const char *name, const char *fragment, const char *const *values, int n, TuneDim *d, char *err,
                   size_t errsz);
/* Every value of d must give a pipeline fragment ptxopt accepts (known
 * passes and keys, values the pass's own reader takes): a mistake in a
 * --dim is a usage error before anything is built, not one failed build
 * per variant.  false after writing why to err. */
bool tune_check_dim(const TuneDim *d, char *err, size_t errsz);
/* The pipeline of one combination of values for kernel k (malloc'ed). */
char *tune_pipeline(const TuneKernel *k, char *const value[]);
/* Number of points of the product of k's dimensions, each with its off
 * value (the all-off point, the baseline, included); LONG_MAX when larger. */
long tune_space_size(const TuneKernel *k);
/* The i-th combination (0-based, last dimension fastest; index 0 of every
 * dimension is off: NULL) into value[]. */
void tune_space_at(const TuneKernel *k, long i, char *value[]);
/* A value as JSON: a number when it is one written canonically (the
 * shortest form that reads back the same), else a string. */
void tune_json_value(FILE *f, const char *v);
/* x in the form tune_json_value reads as canonical: whole numbers in full
 * (40), others in the shortest %g that reads back as x. */
void tune_format_number(char *buf, size_t n, double x);

/* ----------------------------------------------------- tune_constraint */

/* --constraint=EXPR: an expression over the dimensions' values that a
 * point must satisfy (constraint.c has the grammar).  Names are checked
 * when parsed; a value that cannot be used as the expression needs (off or
 * a word where a number is) is an error when evaluated. */
typedef struct TuneConstraint {
    char *text;
    struct CNode *root;
} TuneConstraint;
bool tune_constraint_parse(const char *text, const char *const *names, int nnames, TuneConstraint *c, char *err,
                           size_t errsz);
/* 1: the point satisfies it, 0: it does not, -1: error (why in err). */
int tune_constraint_eval(const TuneConstraint *c, const TuneKernel *k, char *const value[], char *err, size_t errsz);
void tune_constraint_free(TuneConstraint *c);

/* ------------------------------------------------------- tune_strategy */

/* Which built variants are measured (--strategy): exhaustive (every one),
 * early-exit (the default: every one, but the bypass dimension's
 * thresholds by its early-exit search), random (--samples points drawn
 * with --seed before building), model (every point built and ranked, the
 * baseline and the --top best-ranked measured). */
typedef enum TuneStrategy { STRAT_EARLY_EXIT, STRAT_EXHAUSTIVE, STRAT_RANDOM, STRAT_MODEL } TuneStrategy;
const char *tune_strategy_name(TuneStrategy s);
bool tune_strategy_parse(const char *s, TuneStrategy *out);
/* Chooses n of the m indices 0..m-1 (uniformly, deterministic in seed),
 * ascending, into out; returns how many (min(n, m)). */
long tune_sample(long m, long n, unsigned long long seed, long *out);

/* ---------------------------------------------------------- tune_bypass */

/* --dim=bypass[:FORMS[:OPS]]: the bypass pass's thresholds 0..W-1 per
 * kernel for each form and operator (values "threshold=T;form=F;op=O");
 * false after writing why to err.  One per run. */
bool tune_bypass_dim(const char *spec, TuneDim *d, char *err, size_t errsz);
bool tune_is_bypass_dim(const TuneDim *d);
/* The early-exit search (bypass.c): the variants to measure next,
 * given those tried so far (tried[id]); every untried variant of a kernel
 * without a bypass dimension, the search's next points on each curve of
 * one with it.  0: done.  Verdicts per curve go to log (NULL: quiet). */
int tune_search_next(Variant *vs, int nv, const char *tried, Variant **out, FILE *log);
/* false: every point of every curve is measured (--strategy=exhaustive). */
extern bool tune_search_early_exit;
/* A curve is flat when every point is within this percentage of the
 * baseline (ptxopt-tune sets it to max(1, --min-gain)). */
extern double tune_bypass_flat_pct;

/* Register caps worth trying for k (the critical points in its range, or
 * the universal set when its block size is unknown); returns the count. */
int tune_critical_caps(const Arch *a, const TuneKernel *k, int caps[CRIT_MAX_POINTS]);

/* ------------------------------------------------------------- tune_mix */

typedef struct Function Function;
/* Counts the function's instructions by cost-model unit. */
void tune_instruction_mix(const Function *fn, double mix[UNIT_COUNT]);
/* The same from a variant's machine code (SASS classes; spill traffic is
 * in it as STL/LDL). */
void tune_sass_mix(const int count[SASS_NCLASSES], double mix[UNIT_COUNT]);

/* --------------------------------------------------------- tune_measure */

/* Parses a time: a number, optionally followed by blanks and a unit word.
 * false when the text is none. */
bool tune_parse_time(const char *text, double *out);
double tune_median(const double *v, int n);

typedef struct MeasureSpec {
    const char *cmd;
    int repeat;
    double timeout;
    const char *arch;
    const char *workdir;
    const char *baseline_ptx, *baseline_cubin;   /* PTXOPT_BASELINE_PTX/CUBIN, or NULL */
    int jobs;                                    /* commands at once (slots), >= 1 */
    const struct TuneLauncher *launcher;         /* NULL: run CMD here (launcher.c) */
    FILE *log;                                   /* progress notes (resubmissions), or NULL */
} MeasureSpec;

/* Measures the n variants, up to ms->jobs at once: each runs the command
 * `repeat` times, one after another in one slot (PTXOPT_SLOT=0..jobs-1,
 * never two running commands in one slot), and gets v->times, median,
 * measured, or status/error on failure; done(v, ctx) is called as each
 * variant finishes, in the order they finish.  The results do not depend
 * on jobs. */
void tune_measure_all(const MeasureSpec *ms, Variant *const *vs, int n, void (*done)(Variant *v, void *ctx), void *ctx);

/* -------------------------------------------------------- tune_launcher */

/* --launcher=slurm: every run of the measuring command is a Slurm job
 * step, `srun --nodes=1 --ntasks=1 [--partition=P] [--gpus-per-task=N]
 * [--time=T] [OPTIONS...] /bin/sh -c WRAPPER`, one at a time per slot.
 * WRAPPER runs CMD (from the environment: srun passes it on) and prints
 * a marker line on standard error with CMD's exit status and its own
 * start and end: a run without the marker lost its job (cancelled,
 * requeued, node failure, refused) and is submitted again, up to
 * `retries` times; the time around CMD is the submission overhead. */
typedef struct TuneLauncher {
    const char *srun;            /* the srun to run ($SRUN, else srun on PATH) */
    const char *partition;       /* NULL: the cluster's default */
    const char *time;            /* --time for each step, NULL: none */
    int gpus_per_task;           /* 0: ask for none */
    const char *options[16];     /* more srun options, as given */
    int noptions;
    int retries;                 /* submissions again of a run whose job was lost */
} TuneLauncher;
/* The argv of one run of cmd through the launcher (NULL-terminated, every
 * string malloc'ed: tune_launcher_argv_free), and in *cmd_env (malloc'ed)
 * the environment entry that hands cmd to the wrapper. */
char **tune_launcher_argv(const TuneLauncher *L, const char *cmd, char **cmd_env);
void tune_launcher_argv_free(char **argv);
/* What the wrapper said in err_path: false when it did not finish (*started:
 * whether it began: a lost job; else the submission was refused); true
 * with CMD's exit status and run time (seconds), and in why the last line
 * CMD wrote before the marker ("" if none; static buffer). */
bool tune_launcher_outcome(const char *err_path, int *status, double *seconds, const char **why, bool *started);
/* The last line of err_path that is not Slurm's or the wrapper's, for a
 * lost job's message (static buffer). */
const char *tune_launcher_lost_why(const char *err_path);

/* ---------------------------------------------------------- tune_resume */

typedef struct TuneResume TuneResume;
typedef enum TuneResumed { RESUME_NONE, RESUME_TAKEN, RESUME_CHANGED, RESUME_OTHER_REPEAT } TuneResumed;

/* Reads --resume's report, JSON or CSV (by its name, as --report writes
 * them): NULL with *ok true when the file does not exist (a first run),
 * NULL with *ok false after a message (unreadable, not a report of ours,
 * made with another measuring command). */
TuneResume *tune_resume_load(const char *path, const char *measure_cmd, bool *ok);
void tune_resume_free(TuneResume *r);
/* Gives v the times the report holds for it: RESUME_TAKEN (v->measured,
 * v->resumed), RESUME_CHANGED (same pipeline, other machine code),
 * RESUME_OTHER_REPEAT, or RESUME_NONE (not there, or not measured). */
TuneResumed tune_resume_apply(TuneResume *r, Variant *v, int repeat);
/* The report is also a cache across runs: the measured points it holds
 * that no variant of this run matched (by kernel and pipeline) are written
 * back into the new report ("cache" in JSON, status "cached" in CSV), so
 * that a later run that has them again takes them.  Entry i of those
 * (false past the end). */
typedef struct TuneCached {
    const char *kernel, *pipeline, *code_hash;
    const double *times;
    int ntimes;
} TuneCached;
bool tune_resume_unused(const TuneResume *r, int i, TuneCached *out);

/* ---------------------------------------------------------- tune_report */

typedef struct TuneRun {
    const char *input;
    const char *arch;
    const char *output;          /* -o, or NULL */
    bool dry_run;
    bool measured;
    bool sass;                   /* --sass: the SASS class columns */
    int repeat;
    const char *measure_cmd;
    bool complete;               /* false while measuring: the report is partial */
    const TuneResume *cache;     /* points carried over from --resume's report, or NULL */
    const char *strategy;        /* --strategy's name */
    int nconstraints;
    const TuneConstraint *constraints;
    int nkernels;
    TuneKernel *kernels;
    int nvariants;
    Variant *variants;
} TuneRun;

void tune_print_table(const TuneRun *r, FILE *out);
bool tune_write_report(const TuneRun *r, const char *path);

/* ------------------------------------------------------------ tune_plot */

/* --plot=FILE.svg|png: gnuplot, found as $GNUPLOT or gnuplot on PATH.
 * tune_plot_check says at once (before any work) when it cannot draw FILE
 * (no gnuplot, no terminal for the format, another suffix): false after
 * writing why to err.  tune_plot draws the objective (the measured time,
 * else the cost model's predicted cycles) per variant and per dimension
 * value of every kernel; false after a message. */
bool tune_plot_check(const char *file, char *err, size_t errsz);
bool tune_plot(const TuneRun *r, const char *file, const char *workdir);

#endif
