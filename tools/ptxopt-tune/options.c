/* options.c — ptxopt-tune's command line (see man/ptxopt-tune.1). */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "config.h"
#include "model/arch.h"
#include "tools/common/cli.h"
#include "tools/common/json_read.h"
#include "tools/ptxopt-tune/internal.h"

/* ------------------------------------------------------------- usage */

static void usage(FILE *out)
{
    fputs("Usage: ptxopt-tune [OPTION]... FILE.ptx (--dry-run | --measure=CMD)\n"
          "       ptxopt-tune --space=SPACE.json [OPTION]... FILE.ptx\n"
          "       ptxopt-tune [OPTION]... --write-space=SPACE.json\n"
          "Find the register cap (and other knobs) at which each kernel of FILE runs\n"
          "fastest: the space is every dimension's values and off (the occupancy\n"
          "critical points inside the kernel's register range, --dim ones), less what\n"
          "a pass does not apply to or a --constraint excludes; build every point with\n"
          "ptxas, rank them with the cost model, then print the table (--dry-run) or\n"
          "time the variants --strategy picks with CMD and keep the best.\n"
          "\n"
          "  -o, --output=OUT        write the best variant's PTX to OUT (with --dry-run:\n"
          "                          the cost model's pick)\n"
          "  -k, --kernel=NAME       tune this kernel (repeatable; default: every .entry)\n"
          "      --arch=sm_XX        target (default: the file's .target)\n"
          "      --block=B           threads per block of kernels without .reqntid/.maxntid\n"
          "                          (default: unknown, the universal critical set)\n"
          "      --dynamic-smem=BYTES  dynamic shared memory per block, for occupancy\n"
          "      --grid=N            blocks per launch, for the cost model's waves\n"
          "      --maxrregcount=R    never cap above R (the build's own ptxas option;\n"
          "                          also passed to ptxas)\n"
          "      --dry-run           build and rank only; print the table and stop\n"
          "      --measure=CMD       time each variant with CMD (run by /bin/sh; the\n"
          "                          variant is in PTXOPT_VARIANT_* variables; CMD prints\n"
          "                          a time as its last line, lower is better)\n"
          "      --repeat=N          run CMD N times per variant, take the median (1)\n"
          "  -j, --jobs=N            run up to N measuring commands at once, each told its\n"
          "                          slot in PTXOPT_SLOT=0..N-1 (1)\n"
          "      --resume=REPORT     take the variants an earlier run of the same campaign\n"
          "                          measured from its JSON REPORT, measure the rest; the\n"
          "                          report is rewritten as each variant finishes\n"
          "      --timeout=SECONDS   stop a CMD run after SECONDS; the variant fails\n"
          "      --min-gain=PERCENT  keep the baseline unless a variant beats it by more\n"
          "                          than PERCENT (0)\n"
          "      --report=FILE       write every variant to FILE: CSV when it ends in\n"
          "                          .csv, else JSON\n"
          "      --dim=NAME:FRAGMENT:V1,V2,...\n"
          "                          add a dimension: FRAGMENT is a ptxopt pipeline with\n"
          "                          %v for the value and %k for the kernel's name\n"
          "      --dim=bypass[:FORMS[:OPS]]\n"
          "                          the bypass pass's threshold T = 0..W-1 for each form\n"
          "                          (pairs,versioning,l2policy) and operator\n"
          "                          (auto,cg,no-allocate,cs); measured with an early-exit\n"
          "                          search: cache-all, bypass-all and W/2 first\n"
          "      --no-regs           no register-cap dimension (only --dim ones)\n"
          "      --constraint=EXPR   keep only the points where EXPR holds, e.g.\n"
          "                          'maxnreg == off || bypass == off' (repeatable)\n"
          "      --space=FILE        the search space from a JSON file (dimensions,\n"
          "                          constraints, objective, strategy); options add to it\n"
          "      --write-space=FILE  write the space of this command line as such a file\n"
          "                          (without FILE.ptx: and stop)\n"
          "      --strategy=NAME     what to measure: early-exit (default: every point,\n"
          "                          the bypass thresholds by their early-exit search),\n"
          "                          exhaustive, random (--samples, --seed), model (the\n"
          "                          baseline and the cost model's --top best)\n"
          "      --samples=N         random: points drawn per kernel (10)\n"
          "      --seed=S            random: the draw (1)\n"
          "      --top=K             model: points measured besides the baseline (3)\n"
          "      --plot=FILE         draw the objective per variant and per dimension\n"
          "                          with gnuplot into FILE.svg or FILE.png\n"
          "      --launcher=local|slurm\n"
          "                          slurm: each run of CMD is a Slurm job step (srun),\n"
          "                          --jobs of them at once\n"
          "      --slurm-partition=P, --slurm-gpus-per-task=N (1), --slurm-time=T,\n"
          "      --slurm-option=OPT (repeatable), --slurm-retries=N (2)\n"
          "                          srun's partition, GPUs, time limit and other options;\n"
          "                          a run whose job is lost is submitted again N times\n"
          "      --sfu-launch='OPTS' add the sfu dimension: the split ratio lambda of the\n"
          "                          sfu pass, found by the HEU search in the emulator on\n"
          "                          this launch (ptxopt-emu's --grid, --block, --arg,\n"
          "                          --shared-dyn, --outputs), error under --approx=bound\n"
          "      --qos=E             the sfu dimension's error bound (0.01)\n"
          "      --qos-ratio=R       instead: R x the error with every warp approximate\n"
          "      --error-metric=mre|maxrel|maxabs|rmse  its metric (mre)\n"
          "      --sfu-key=warp|warpid  the pass's split key (warp)\n"
          "      --sfu-options=OPTS  more sfu pass options, e.g. 'sites=sin,cos;f64=1'\n"
          "      --sass              disassemble every variant (nvdisasm): its SASS\n"
          "                          classes become columns, and the cost model ranks\n"
          "                          by that instruction mix instead of the PTX's\n"
          "      --max-variants=N    refuse a space larger than N per kernel (256)\n"
          "      --workdir=DIR       keep variants in DIR (default: a temporary directory,\n"
          "                          kept for --dry-run, removed after --measure)\n"
          "      --keep              keep the temporary directory\n"
          "      --ptxas=PATH        the ptxas to use (default: $PTXAS, PATH, /usr/local/cuda/bin)\n"
          "  -X, --ptxas-option=OPT  pass OPT to ptxas (repeatable)\n"
          "  -q, --quiet             no progress lines on standard error\n"
          "  -h, --help              display this help and exit\n"
          "  -V, --version           output version information and exit\n"
          "\n"
          "The table on standard output has one line per variant:\n"
          "  id kernel DIM... regs spill_st spill_ld stack blocks occupancy rank time status path\n"
          "(with --sass: sass_total and sass_CLASS for every SASS class before status).\n"
          "Exit status: 0 success, 1 bad input or nothing measured, 2 usage error.\n"
          "See ptxopt-tune(1) and ptxopt-passes(7).\n",
          out);
}

static char *find_in_path(const char *name);
static _Noreturn void usage_error(const char *fmt, const char *arg) { cli_usage_error("ptxopt-tune", fmt, arg); }
static long parse_long(const char *opt, const char *v, long lo, long hi) { return cli_parse_long("ptxopt-tune", opt, v, lo, hi); }

static double parse_double(const char *opt, const char *v)
{
    char *end;
    double x = strtod(v, &end);
    if (!*v || *end || !isfinite(x) || x < 0) {
        char msg[160];
        snprintf(msg, sizeof msg, "invalid value '%%s' for --%s (expected a number >= 0)", opt);
        usage_error(msg, v);
    }
    return x;
}

enum {
    OPT_ARCH = 256, OPT_BLOCK, OPT_DSMEM, OPT_GRID, OPT_MAXRREG, OPT_DRY, OPT_MEASURE, OPT_REPEAT, OPT_TIMEOUT,
    OPT_MINGAIN, OPT_REPORT, OPT_DIM, OPT_NOREGS, OPT_MAXVAR, OPT_WORKDIR, OPT_KEEP, OPT_PTXAS, OPT_SASS, OPT_RESUME,
    OPT_SFU_LAUNCH, OPT_QOS, OPT_QOS_RATIO, OPT_METRIC, OPT_SFU_KEY, OPT_SFU_OPTIONS, OPT_CONSTRAINT, OPT_SPACE,
    OPT_WRITE_SPACE, OPT_STRATEGY, OPT_SAMPLES, OPT_SEED, OPT_TOP, OPT_PLOT, OPT_LAUNCHER, OPT_SLURM_PARTITION,
    OPT_SLURM_GPUS, OPT_SLURM_TIME, OPT_SLURM_OPTION, OPT_SLURM_RETRIES
};

void tune_parse_args(int argc, char **argv, Config *c)
{
    static const struct option longopts[] = {
        { "output", required_argument, NULL, 'o' },
        { "kernel", required_argument, NULL, 'k' },
        { "arch", required_argument, NULL, OPT_ARCH },
        { "block", required_argument, NULL, OPT_BLOCK },
        { "dynamic-smem", required_argument, NULL, OPT_DSMEM },
        { "grid", required_argument, NULL, OPT_GRID },
        { "maxrregcount", required_argument, NULL, OPT_MAXRREG },
        { "dry-run", no_argument, NULL, OPT_DRY },
        { "measure", required_argument, NULL, OPT_MEASURE },
        { "repeat", required_argument, NULL, OPT_REPEAT },
        { "jobs", required_argument, NULL, 'j' },
        { "resume", required_argument, NULL, OPT_RESUME },
        { "timeout", required_argument, NULL, OPT_TIMEOUT },
        { "min-gain", required_argument, NULL, OPT_MINGAIN },
        { "report", required_argument, NULL, OPT_REPORT },
        { "dim", required_argument, NULL, OPT_DIM },
        { "no-regs", no_argument, NULL, OPT_NOREGS },
        { "sfu-launch", required_argument, NULL, OPT_SFU_LAUNCH },
        { "qos", required_argument, NULL, OPT_QOS },
        { "qos-ratio", required_argument, NULL, OPT_QOS_RATIO },
        { "error-metric", required_argument, NULL, OPT_METRIC },
        { "sfu-key", required_argument, NULL, OPT_SFU_KEY },
        { "sfu-options", required_argument, NULL, OPT_SFU_OPTIONS },
        { "sass", no_argument, NULL, OPT_SASS },
        { "constraint", required_argument, NULL, OPT_CONSTRAINT },
        { "space", required_argument, NULL, OPT_SPACE },
        { "write-space", required_argument, NULL, OPT_WRITE_SPACE },
        { "strategy", required_argument, NULL, OPT_STRATEGY },
        { "samples", required_argument, NULL, OPT_SAMPLES },
        { "seed", required_argument, NULL, OPT_SEED },
        { "top", required_argument, NULL, OPT_TOP },
        { "plot", required_argument, NULL, OPT_PLOT },
        { "launcher", required_argument, NULL, OPT_LAUNCHER },
        { "slurm-partition", required_argument, NULL, OPT_SLURM_PARTITION },
        { "slurm-gpus-per-task", required_argument, NULL, OPT_SLURM_GPUS },
        { "slurm-time", required_argument, NULL, OPT_SLURM_TIME },
        { "slurm-option", required_argument, NULL, OPT_SLURM_OPTION },
        { "slurm-retries", required_argument, NULL, OPT_SLURM_RETRIES },
        { "max-variants", required_argument, NULL, OPT_MAXVAR },
        { "workdir", required_argument, NULL, OPT_WORKDIR },
        { "keep", no_argument, NULL, OPT_KEEP },
        { "ptxas", required_argument, NULL, OPT_PTXAS },
        { "ptxas-option", required_argument, NULL, 'X' },
        { "quiet", no_argument, NULL, 'q' },
        { "help", no_argument, NULL, 'h' },
        { "version", no_argument, NULL, 'V' },
        { NULL, 0, NULL, 0 },
    };
    memset(c, 0, sizeof *c);
    c->repeat = 1;
    c->jobs = 1;
    c->max_variants = 256;
    c->sfu.qos = 0.01;
    c->sfu.key = "warp";
    c->samples = 10;
    c->seed = 1;
    c->top = 3;
    c->launcher.gpus_per_task = 1;
    c->launcher.retries = 2;
    const char *constraints[TUNE_MAX_CONSTRAINTS];
    int ncons = 0;
    bool cl_dry = false, cl_measure = false;   /* given on the command line */
    int ch;
    opterr = 0;
    /* --space first, wherever it is: the command line adds to it */
    while ((ch = getopt_long(argc, argv, ":o:k:X:j:qhV", longopts, NULL)) != -1)
        if (ch == OPT_SPACE) {
            if (c->space) usage_error("--space given twice%s", "");
            c->space = optarg;
        }
    if (c->space && !tune_space_read(c->space, c)) exit(ST_USAGE);
    optind = 1;
    while ((ch = getopt_long(argc, argv, ":o:k:X:j:qhV", longopts, NULL)) != -1) {
        char err[512];
        switch (ch) {
        case OPT_SPACE: break;
        case OPT_WRITE_SPACE: c->write_space = optarg; break;
        case OPT_CONSTRAINT:
            if (c->nconstraints + ncons == TUNE_MAX_CONSTRAINTS) usage_error("too many --constraint options%s", "");
            constraints[ncons++] = optarg;
            break;
        case OPT_STRATEGY:
            if (!tune_strategy_parse(optarg, &c->strategy))
                usage_error("invalid --strategy '%s' (early-exit, exhaustive, random, model)", optarg);
            break;
        case OPT_SAMPLES: c->samples = parse_long("samples", optarg, 1, 1000000); break;
        case OPT_SEED: c->seed = (unsigned long long)parse_long("seed", optarg, 0, 2147483647L); break;
        case OPT_TOP: c->top = parse_long("top", optarg, 1, 100000); break;
        case OPT_PLOT: c->plot = optarg; break;
        case OPT_LAUNCHER:
            if (strcmp(optarg, "slurm") == 0) c->slurm = true;
            else if (strcmp(optarg, "local") == 0) c->slurm = false;
            else usage_error("invalid --launcher '%s' (local, slurm)", optarg);
            break;
        case OPT_SLURM_PARTITION: c->launcher.partition = optarg; break;
        case OPT_SLURM_GPUS: c->launcher.gpus_per_task = (int)parse_long("slurm-gpus-per-task", optarg, 0, 1024); break;
        case OPT_SLURM_TIME: c->launcher.time = optarg; break;
        case OPT_SLURM_OPTION:
            if (c->launcher.noptions == 16) usage_error("too many --slurm-option options%s", "");
            if (optarg[0] != '-') usage_error("--slurm-option='%s': an srun option (starting with -)", optarg);
            c->launcher.options[c->launcher.noptions++] = optarg;
            break;
        case OPT_SLURM_RETRIES: c->launcher.retries = (int)parse_long("slurm-retries", optarg, 0, 100); break;
        case 'o': c->output = optarg; break;
        case 'k':
            if (c->nkernels == MAX_KERNEL_ARGS) usage_error("too many --kernel options%s", "");
            c->kernels[c->nkernels++] = optarg;
            break;
        case OPT_ARCH: {
            char canon[32], aerr[512];   /* the one check ptxopt --target makes too */
            int sm;
            if (!arch_parse_target(optarg, canon, sizeof canon, &sm, aerr, sizeof aerr)) usage_error("invalid --arch: %s", aerr);
            if (!arch_by_sm(sm)) usage_error("invalid --arch: %s is a PTX target whose resource limits ptxopt-tune does not know "
                                             "(model/arch_data.c)", canon);
            c->arch_opt = optarg;
            break;
        }
        case OPT_BLOCK: c->block = parse_long("block", optarg, 1, 1 << 20); break;
        case OPT_DSMEM: c->dynamic_smem = parse_long("dynamic-smem", optarg, 0, 1 << 30); break;
        case OPT_GRID: c->grid = parse_long("grid", optarg, 1, 2147483647L); break;
        case OPT_MAXRREG: c->maxrregcount = parse_long("maxrregcount", optarg, 1, 255); break;
        case OPT_DRY: c->dry_run = cl_dry = true; break;
        case OPT_MEASURE: c->measure = optarg; cl_measure = true; break;
        case OPT_REPEAT: c->repeat = parse_long("repeat", optarg, 1, 1000); break;
        case 'j': c->jobs = parse_long("jobs", optarg, 1, TUNE_MAX_JOBS); break;
        case OPT_RESUME: c->resume = optarg; break;
        case OPT_TIMEOUT: c->timeout = parse_double("timeout", optarg); break;
        case OPT_MINGAIN: c->min_gain = parse_double("min-gain", optarg); break;
        case OPT_REPORT: c->report = optarg; break;
        case OPT_DIM:
            if (c->ndims == TUNE_MAX_DIMS - 2) usage_error("too many --dim options%s", "");
            if (strncmp(optarg, "bypass", 6) == 0 && (optarg[6] == 0 || (optarg[6] == ':' && !strchr(optarg, '<')))) {
                for (int i = 0; i < c->ndims; i++)
                    if (tune_is_bypass_dim(&c->dims[i])) usage_error("one --dim=bypass at a time%s", "");
                if (!tune_bypass_dim(optarg, &c->dims[c->ndims], err, sizeof err)) usage_error("%s", err);
            } else if (!tune_parse_dim(optarg, &c->dims[c->ndims], err, sizeof err) ||
                       !tune_check_dim(&c->dims[c->ndims], err, sizeof err))
                usage_error("%s", err);
            c->ndims++;
            break;
        case OPT_NOREGS: c->no_regs = true; break;
        case OPT_SFU_LAUNCH:
            if (c->sfu.enabled) usage_error(c->space ? "--sfu-launch: the space file has an sfu dimension already%s"
                                                     : "--sfu-launch given twice%s", "");
            if (!tune_sfu_parse_launch(&c->sfu, optarg, err, sizeof err)) usage_error("%s", err);
            c->sfu.enabled = true;
            break;
        case OPT_QOS: c->sfu.qos = parse_double("qos", optarg); break;
        case OPT_QOS_RATIO:
            c->sfu.qos_ratio = parse_double("qos-ratio", optarg);
            if (c->sfu.qos_ratio <= 0) usage_error("--qos-ratio must be > 0 (got '%s')", optarg);
            break;
        case OPT_METRIC:
            if (!emu_metric_parse(optarg, &c->sfu.metric)) usage_error("invalid --error-metric '%s' (mre, maxrel, maxabs, rmse)", optarg);
            break;
        case OPT_SFU_KEY:
            if (strcmp(optarg, "warp") != 0 && strcmp(optarg, "warpid") != 0) usage_error("invalid --sfu-key '%s' (warp, warpid)", optarg);
            c->sfu.key = optarg;
            break;
        case OPT_SFU_OPTIONS:
            if (strpbrk(optarg, "<>,")) usage_error("--sfu-options '%s': pass options only (KEY=VALUE;...)", optarg);
            c->sfu.options = optarg;
            break;
        case OPT_SASS: c->sass = true; break;
        case OPT_MAXVAR: c->max_variants = parse_long("max-variants", optarg, 1, 100000); break;
        case OPT_WORKDIR: c->workdir = optarg; break;
        case OPT_KEEP: c->keep = true; break;
        case OPT_PTXAS: c->ptxas = optarg; break;
        case 'X':
            if (c->nptxas_opts == MAX_PTXAS_OPTS) usage_error("too many --ptxas-option options%s", "");
            c->ptxas_opts[c->nptxas_opts++] = optarg;
            break;
        case 'q': c->quiet = true; break;
        case 'h': usage(stdout); exit(ST_OK);
        case 'V': printf("ptxopt-tune %s\n", PACKAGE_VERSION); exit(ST_OK);
        case ':': usage_error("option '%s' needs a value", argv[optind - 1]); break;
        default: usage_error("unknown option '%s'", argv[optind - 1]); break;
        }
    }
    if (optind < argc - 1) usage_error("one input file at a time (got '%s' too)", argv[optind + 1]);
    if (optind == argc && !c->write_space) usage_error("no input file%s", "");
    c->input = optind < argc ? argv[optind] : NULL;
    if (c->input && strcmp(c->input, "-") == 0) usage_error("the input must be a file (it is read once per variant)%s", "");
    /* the objective: the command line's over the space file's */
    if (cl_dry && cl_measure) usage_error("give exactly one of --dry-run and --measure=CMD%s", "");
    if (cl_dry) c->measure = NULL;
    if (cl_measure) c->dry_run = false;
    /* the space */
    if (!c->sfu.enabled && (c->sfu.qos != 0.01 || c->sfu.qos_ratio > 0 || strcmp(c->sfu.key, "warp") != 0 || c->sfu.options))
        usage_error("--qos, --qos-ratio, --sfu-key and --sfu-options belong to the sfu dimension: add --sfu-launch%s", "");
    if (c->no_regs && !c->ndims && !c->sfu.enabled) usage_error("--no-regs leaves nothing to tune: add a --dim or --sfu-launch%s", "");
    for (int i = 0; i < c->ndims; i++) {
        if (strcasecmp(c->dims[i].name, "sfu") == 0 && c->sfu.enabled)
            usage_error("--dim name '%s' is taken by --sfu-launch's dimension", c->dims[i].name);
        if (strcasecmp(c->dims[i].name, "maxnreg") == 0 && !c->no_regs)
            usage_error("--dim name '%s' is taken by the register dimension (use --no-regs to replace it)", c->dims[i].name);
        for (int j = 0; j < i; j++)
            if (strcasecmp(c->dims[i].name, c->dims[j].name) == 0) usage_error("two dimensions named '%s'", c->dims[i].name);
    }
    /* the constraints may use every dimension's name (the space file's
     * were parsed before the command line's dimensions: again now) */
    const char *names[TUNE_MAX_DIMS + 2];
    int nnames = tune_dim_names(c, names, TUNE_MAX_DIMS + 2);
    for (int i = 0; i < c->nconstraints; i++) {
        TuneConstraint t;
        char err[512];
        if (!tune_constraint_parse(c->constraints[i].text, names, nnames, &t, err, sizeof err)) usage_error("%s", err);
        tune_constraint_free(&t);
    }
    for (int i = 0; i < ncons; i++) {
        char err[512];
        if (!tune_constraint_parse(constraints[i], names, nnames, &c->constraints[c->nconstraints], err, sizeof err))
            usage_error("%s", err);
        c->nconstraints++;
    }
    if (c->write_space && !tune_space_write(c->write_space, c)) exit(ST_USAGE);
    if (!c->input) exit(ST_OK);   /* --write-space alone */
    if (c->dry_run == (c->measure != NULL)) usage_error("give exactly one of --dry-run and --measure=CMD%s", "");
    if (c->resume && c->dry_run) usage_error("--resume resumes measuring: it needs --measure=CMD%s", "");
    if (c->slurm && c->dry_run) usage_error("--launcher=slurm runs the measuring command: it needs --measure=CMD%s", "");
    if (!c->slurm && (c->launcher.partition || c->launcher.time || c->launcher.noptions))
        usage_error("--slurm-partition, --slurm-time and --slurm-option belong to --launcher=slurm%s", "");
    if (c->slurm) {   /* found now: not one failed measurement per variant later */
        const char *e = getenv("SRUN");
        c->launcher.srun = e && *e ? e : "srun";
        char *found = strchr(c->launcher.srun, '/') ? (access(c->launcher.srun, X_OK) == 0 ? strdup(c->launcher.srun) : NULL)
                                                     : find_in_path(c->launcher.srun);
        if (!found) usage_error("--launcher=slurm: '%s' is not found (install Slurm's client, or set SRUN=PATH)",
                                c->launcher.srun);
        free(found);
    }
    if (c->plot) {
        char err[512];
        if (!tune_plot_check(c->plot, err, sizeof err)) usage_error("%s", err);
    }
    if (c->sfu.enabled && !c->block) c->block = (long)c->sfu.L.block[0] * c->sfu.L.block[1] * c->sfu.L.block[2];
    if (c->sfu.enabled && !c->grid) c->grid = (long)c->sfu.L.grid[0] * c->sfu.L.grid[1] * c->sfu.L.grid[2];
}

/* name on PATH (malloc'ed), or NULL */
static char *find_in_path(const char *name)
{
    const char *path = getenv("PATH");
    if (!path) return NULL;
    char *copy = strdup(path), *save = NULL;
    for (char *d = strtok_r(copy, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
        char *p = xasprintf("%s/%s", *d ? d : ".", name);
        if (access(p, X_OK) == 0) { free(copy); return p; }
        free(p);
    }
    free(copy);
    return NULL;
}

char *tune_find_ptxas(const Config *c)
{
    if (c->ptxas) return strdup(c->ptxas);
    const char *e = getenv("PTXAS");
    if (e && *e && access(e, X_OK) == 0) return strdup(e);
    char *p = find_in_path("ptxas");
    if (p) return p;
    if (access("/usr/local/cuda/bin/ptxas", X_OK) == 0) return strdup("/usr/local/cuda/bin/ptxas");
    return NULL;
}

void tune_config_free(Config *c)
{
    for (int i = 0; i < c->nconstraints; i++) tune_constraint_free(&c->constraints[i]);
    c->nconstraints = 0;
    json_free(c->space_root);
    c->space_root = NULL;
    for (int i = 0; i < c->ndims; i++) {
        free((char *)c->dims[i].name);
        free((char *)c->dims[i].fragment);
        free((char *)c->dims[i].spec);
        for (int j = 0; j < c->dims[i].nvalues; j++) free(c->dims[i].values[j]);
    }
    c->ndims = 0;
    tune_sfu_free(&c->sfu);
}
