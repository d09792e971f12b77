/* tune.h — ptxopt-tune's model of a tuning run (see man/ptxopt-tune.1).
 *
 *   main.c           options and the run: probe, enumerate, build, measure,
 *                    pick, write
 *   space.c          the candidate space: dimensions and their product
 *   ptxas.c          ptxas -v runs and what they print; cubin code hashes
 *   exec.c           running a program with output captured (and a timeout)
 *   measure.c        the user's measuring command: environment, time, median;
 *                    up to --jobs commands at once, each in its slot
 *   resume.c         reading an earlier run's JSON report (--resume)
 *   mix.c            a kernel's instruction mix for the cost model
 *   report.c         the table on stdout, CSV and JSON reports
 *   sfu.c            the sfu dimension: lambda by HEU search in the emulator
 *
 * THE CANDIDATE SPACE IS A LIST OF DIMENSIONS.  A TuneDim names one knob
 * and how to turn it: a pipeline fragment for ptxopt with "%v" where the
 * value goes and "%k" where the kernel's name goes, and the values to try.
 * A variant of a kernel picks one value of every dimension; its pipeline is
 * the dimensions' fragments joined by ',' (in dimension order).  Variants
 * are the product of the dimensions, plus the baseline (the input as is).
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
#define TUNE_MAX_VALUES 256
#define TUNE_MAX_JOBS 1024          /* --jobs; no more than support/cleanup.h tracks at once */

typedef struct TuneKernel TuneKernel;

typedef struct TuneDim {
    const char *name;            /* column and report key; env PTXOPT_VARIANT_<NAME in capitals> */
    const char *fragment;        /* "regtune<maxnreg=%v;kernel=%k>" */
    int nvalues;
    char *values[TUNE_MAX_VALUES];
    /* NULL (fixed values), or fills the values for one kernel */
    void (*values_for)(struct TuneDim *d, const Arch *a, const TuneKernel *k);
    void *ctx;                   /* values_for's own state (the sfu dimension's search) */
} TuneDim;

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
    double predicted_cycles;
    const char *bottleneck, *confidence;
    /* measurement */
    int nruns;
    double *times;
    double median;
    bool measured;
    bool resumed;                /* the times come from --resume's report */
    bool best;
    bool skipped;                /* the bypass search did not need it (not measured) */
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
};

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
/* Every value of d must give a pipeline fragment ptxopt accepts (known
 * passes and keys, values the pass's own reader takes): a mistake in a
 * --dim is a usage error before anything is built, not one failed build
 * per variant.  false after writing why to err. */
bool tune_check_dim(const TuneDim *d, char *err, size_t errsz);
/* The pipeline of one combination of values for kernel k (malloc'ed). */
char *tune_pipeline(const TuneKernel *k, char *const value[]);
/* Number of variants the product of k's dimensions makes (plus baseline). */
long tune_space_size(const TuneKernel *k);
/* The i-th combination (0-based, last dimension fastest) into value[]. */
void tune_space_at(const TuneKernel *k, long i, char *value[]);

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
} MeasureSpec;

/* Measures the n variants, up to ms->jobs at once: each runs the command
 * `repeat` times, one after another in one slot (PTXOPT_SLOT=0..jobs-1,
 * never two running commands in one slot), and gets v->times, median,
 * measured, or status/error on failure; done(v, ctx) is called as each
 * variant finishes, in the order they finish.  The results do not depend
 * on jobs. */
void tune_measure_all(const MeasureSpec *ms, Variant *const *vs, int n, void (*done)(Variant *v, void *ctx), void *ctx);

/* ---------------------------------------------------------- tune_resume */

typedef struct TuneResume TuneResume;
typedef enum TuneResumed { RESUME_NONE, RESUME_TAKEN, RESUME_CHANGED, RESUME_OTHER_REPEAT } TuneResumed;

/* Reads --resume's report: NULL with *ok true when the file does not exist
 * (a first run), NULL with *ok false after a message (unreadable, not a
 * report of ours, made with another measuring command). */
TuneResume *tune_resume_load(const char *path, const char *measure_cmd, bool *ok);
void tune_resume_free(TuneResume *r);
/* Gives v the times the report holds for it: RESUME_TAKEN (v->measured,
 * v->resumed), RESUME_CHANGED (same pipeline, other machine code),
 * RESUME_OTHER_REPEAT, or RESUME_NONE (not there, or not measured). */
TuneResumed tune_resume_apply(const TuneResume *r, Variant *v, int repeat);

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
    int nkernels;
    TuneKernel *kernels;
    int nvariants;
    Variant *variants;
} TuneRun;

void tune_print_table(const TuneRun *r, FILE *out);
bool tune_write_report(const TuneRun *r, const char *path);

#endif
