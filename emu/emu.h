/* emu.h — the public face of ptxopt's functional SIMT emulator.
 *
 * The emulator runs one kernel of a parsed Module on the CPU, thread by
 * thread but a warp group at a time, with a chosen scheduling policy:
 *
 *   its     independent thread scheduling, randomised by a seed (the
 *           semantic oracle: a correct kernel gives the same result for
 *           every seed);
 *   hanoi   deterministic reconvergence at immediate post-dominators with
 *           virtual yields at loop headers (realistic SIMD efficiency);
 *   strict  pre-Volta SIMT stack: no yield, lock-step, collectives must be
 *           converged (diagnostic only).
 *
 * Every run either completes, or stops with one precise report (out of
 * bounds, misaligned, poison, collective misuse, .uni disagreement,
 * deadlock, livelock, barrier misuse, a stale non-coherent load,
 * unsupported instruction).
 *
 * Typical use:
 *   EmuProgram *p = emu_program_new(module, stderr);
 *   EmuLaunch L;  emu_launch_init(&L);  ... fill kernel/grid/block/args ...
 *   EmuResult r;  emu_run(p, &L, &r);
 *   ... r.status, r.bufs[i] ...
 *   emu_result_free(&r); emu_program_free(p);
 */
#ifndef PTXOPT_EMU_H
#define PTXOPT_EMU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ir/ir.h"

typedef struct EmuProgram EmuProgram;

/* Element / scalar types of arguments and buffers. */
typedef enum EmuType {
    EMU_T_U8, EMU_T_U16, EMU_T_U32, EMU_T_U64,
    EMU_T_S8, EMU_T_S16, EMU_T_S32, EMU_T_S64,
    EMU_T_F16, EMU_T_BF16, EMU_T_F32, EMU_T_F64,
    EMU_T_COUNT
} EmuType;

size_t emu_type_size(EmuType t);
const char *emu_type_name(EmuType t);
bool emu_type_parse(const char *s, size_t len, EmuType *out);  /* "f32", "i32", "u8", ... */
bool emu_type_is_float(EmuType t);

typedef enum EmuInit { EMU_INIT_ZEROS, EMU_INIT_RANDOM, EMU_INIT_IOTA, EMU_INIT_FILL, EMU_INIT_FILE } EmuInit;

/* One kernel argument: a scalar, raw bytes (structs), or a global buffer. */
typedef struct EmuArg {
    enum { EMU_ARG_SCALAR, EMU_ARG_BYTES, EMU_ARG_BUFFER } kind;
    EmuType type;          /* scalar type, or buffer element type */
    uint64_t bits;         /* scalar value */
    uint8_t *bytes;        /* EMU_ARG_BYTES: the parameter image */
    size_t nbytes;
    size_t count;          /* buffer elements */
    EmuInit init;
    uint64_t seed;         /* random */
    double lo, hi;         /* random range [lo, hi) of floating-point buffers; has_range */
    int64_t ilo;           /* random range of integer buffers: [ilo, ilo + ispan) (ispan 0: all 2^64) */
    uint64_t ispan;
    bool has_range;
    double fill;           /* fill value */
    char *path;            /* file=PATH */
    char *spec;            /* the text given, for messages */
} EmuArg;

/* Parses "i32:1000", "f32:0.5", "buf:f32:N:random[:SEED[:LO:HI]]",
 * "buf:u8:N:zeros|iota|fill=V|file=PATH", "bytes:HEX",
 * "struct:f32:1.5,i32:3,..." into *a.  On error writes a message to err. */
bool emu_arg_parse(const char *text, EmuArg *a, char *err, size_t errlen);
/* A launch dimension "X[,Y,Z]" (or "XxYxZ"), each 1..2^31-1; missing ones are 1. */
bool emu_dims_parse(const char *s, uint32_t d[3]);
void emu_arg_free(EmuArg *a);
/* The initial contents of a buffer argument (count elements, malloc'ed;
 * one spare byte), as a launch gives it to the kernel: the GPU harness
 * ptxopt-run uses the same inputs.  NULL after writing why to err. */
uint8_t *emu_arg_buffer_data(const EmuArg *a, char *err, size_t errlen);

typedef enum EmuPolicy { EMU_POLICY_ITS, EMU_POLICY_HANOI, EMU_POLICY_STRICT } EmuPolicy;
const char *emu_policy_name(EmuPolicy p);

/* The error model of the approximate (SFU) instructions (approx_error.c):
 * exact (the function in double, rounded to nearest; the default), bound
 * (the documented maximum error, on a side chosen by a hash of the inputs,
 * or always up/down: sign +1/-1), random (uniform within the bound, seeded). */
typedef enum EmuApproxMode { EMU_APPROX_EXACT, EMU_APPROX_BOUND, EMU_APPROX_RANDOM } EmuApproxMode;
typedef struct EmuApprox {
    EmuApproxMode mode;
    int sign;              /* bound: 0 by input hash, +1 up, -1 down */
    uint64_t seed;         /* random */
} EmuApprox;
/* "exact", "bound", "bound:up", "bound:down", "random", "random:SEED". */
bool emu_approx_parse(const char *s, EmuApprox *out);
const char *emu_approx_name(EmuApproxMode m);

/* One documented bound (the table in approx_error.c). */
typedef enum EmuBoundKind { EMU_BOUND_ULP, EMU_BOUND_ABS, EMU_BOUND_REL, EMU_BOUND_ZERO } EmuBoundKind;
typedef struct EmuApproxBound {
    EmuBoundKind kind;
    double value;          /* ulps, absolute or relative error */
    const char *what;      /* the input range it applies to ("" = full range) */
} EmuApproxBound;

/* The memory model (weak.c): sequentially consistent (the default: every
 * access is performed in the scheduler's order), or weak: an operational
 * model of what the PTX memory model allows (store buffers, stale loads,
 * stores ahead of loads), seeded (man/ptxopt-emu.1, WEAK MEMORY). */
typedef enum EmuMemory { EMU_MEMORY_SC, EMU_MEMORY_WEAK } EmuMemory;
/* "sc", "weak", "weak:SEED" (no seed: the schedule's --seed is used). */
bool emu_memory_parse(const char *s, EmuMemory *m, uint64_t *seed, bool *has_seed);

typedef struct EmuLaunch {
    const char *kernel;
    uint32_t grid[3], block[3];
    uint32_t shared_dyn;
    EmuArg *args;
    int nargs;
    EmuPolicy policy;
    uint64_t seed;
    uint64_t max_steps;    /* thread-instructions before LIVELOCK_SUSPECTED */
    uint32_t resident;     /* CTAs resident at once (0 = all) */
    uint32_t watchdog;     /* hanoi/strict: loop-header visits before a stuck reconvergence point is abandoned */
    uint32_t split_percent;/* its: probability of splitting a same-PC group */
    bool allow_exited_sync;/* do not report exited lanes named in bar.warp.sync/elect.sync masks */
    bool cooperative;      /* a cooperative launch: grid-sync workspace in %envreg1/2 (needs resident = 0) */
    EmuApprox approx;      /* error model of sin/cos/ex2/lg2/rcp/sqrt/rsqrt/tanh.approx, div.approx/full */
    uint64_t spin_limit;   /* thread-instructions without a memory write, exit or barrier before LIVELOCK (0 = off) */
    bool trace;            /* write a per-warp instruction trace to trace_out */
    FILE *trace_out;
    const struct EmuCacheConfig *cache; /* the cache model (NULL: off, nothing is simulated) */
    EmuMemory memory;      /* sc (default) or weak */
    uint64_t memory_seed;  /* weak: the seed of its choices (when has_memory_seed; else seed) */
    bool has_memory_seed;
} EmuLaunch;

void emu_launch_init(EmuLaunch *L);

/* A global buffer after a run. */
typedef struct EmuBuffer {
    uint8_t *data;
    uint8_t *shadow;       /* per byte: 0 defined, 1 never written, 2 poisoned value stored */
    size_t size;
    EmuType type;
    size_t count;
    char *poison_note;     /* where the first poison stored into it came from */
} EmuBuffer;

/* Dynamic counters (warp-instruction issues per class, memory behaviour). */
enum { EMU_CLS_ALU, EMU_CLS_FMA, EMU_CLS_SFU, EMU_CLS_MEM, EMU_CLS_SHUFFLE, EMU_CLS_BARRIER,
       EMU_CLS_BRANCH, EMU_CLS_OTHER, EMU_CLS_COUNT };
typedef struct EmuCounters {
    uint64_t issued[EMU_CLS_COUNT];
    uint64_t issued_total;
    uint64_t active_lanes;     /* sum over issues of lanes at the instruction */
    uint64_t thread_insts;     /* sum over issues of lanes executing (guard true) */
    uint64_t gld_requests, gld_sectors, gst_requests, gst_sectors;
    uint64_t shared_accesses, shared_wavefronts, bank_conflicts;
    uint64_t atomics, barriers_completed, collectives_completed;
    uint64_t reconv_abandoned;
} EmuCounters;
const char *emu_class_name(int cls);

/* Contention at one synchronisation site (a CAS/exchange acquire loop, a
 * flag-wait load, an mbarrier wait test inside a loop): acquires are
 * successful attempts (a CAS or exchange that found the lock free, the
 * last read of a wait), spins the failed attempts and re-reads. */
typedef struct EmuSpinSite {
    uint32_t line;
    char *text;            /* the instruction */
    const char *kind;      /* "cas", "exch", "load", "mbarrier" */
    uint64_t acquires, spins;
} EmuSpinSite;

typedef enum EmuStatus {
    EMU_OK = 0,
    EMU_ERR_SETUP,         /* bad launch/arguments/kernel name */
    EMU_ERR_UNSUPPORTED,   /* an instruction the emulator does not implement */
    EMU_ERR_CHECK,         /* a check fired: OOB, poison, UB, deadlock, livelock, trap */
} EmuStatus;

typedef struct EmuResult {
    EmuStatus status;
    char *kind;            /* short code: "OUT_OF_BOUNDS", "DEADLOCK", ... (NULL when OK) */
    char *message;         /* full report, several lines (NULL when OK) */
    char *events;          /* notes collected during the run (e.g. abandoned reconvergence), or NULL */
    int nbufs;
    EmuBuffer *bufs;       /* one per argument; data == NULL for scalars */
    EmuCounters counters;
    EmuSpinSite *spin_sites; /* sites with at least one attempt, in program order */
    int nspin_sites;
    double seconds;
    char *kernel;          /* the kernel that ran */
    struct EmuCacheReport *cache; /* the cache model's counters (NULL when L->cache was NULL) */
} EmuResult;

EmuProgram *emu_program_new(Module *m, FILE *diag);
void emu_program_free(EmuProgram *p);
/* Names of the kernels (entries), for messages. */
int emu_program_nkernels(const EmuProgram *p);
const char *emu_program_kernel(const EmuProgram *p, int k);

/* --set-global=NAME=VALUE (ptxopt-run and ptxopt-emu): a module variable
 * overwritten after loading and before the launch, as a harness does with
 * cuModuleGetGlobal + cuMemcpyHtoD (the delivery=global form of the bypass
 * and sfu passes).  VALUE is a decimal or 0x integer, negative ones in two's
 * complement; it is written with the variable's size, 4 or 8 bytes. */
typedef struct EmuGlobalSet {
    char name[256];
    uint64_t value;
    bool negative;
} EmuGlobalSet;
typedef enum { EMU_GLOBAL_OK, EMU_GLOBAL_NOT_FOUND, EMU_GLOBAL_BAD_SIZE, EMU_GLOBAL_TOO_WIDE } EmuGlobalStatus;
bool emu_global_set_parse(const char *text, EmuGlobalSet *g, char *err, size_t errsz);
/* Whether the value can be written in `size` bytes (4: -2^31..2^32-1; 8: any). */
bool emu_global_fits(const EmuGlobalSet *g, uint64_t size);
/* Replaces the initial value of the .global/.const variable g->name for
 * every later emu_run; *size is the variable's size when it exists. */
EmuGlobalStatus emu_program_set_global(EmuProgram *p, const EmuGlobalSet *g, uint64_t *size);

/* Prints every instruction the emulator cannot execute (file:line: text (reason)); returns how many. */
int emu_program_list_unsupported(const EmuProgram *p, FILE *out);

/* Runs one launch.  Always fills *res (free it with emu_result_free). */
EmuStatus emu_run(EmuProgram *p, const EmuLaunch *L, EmuResult *res);
void emu_result_free(EmuResult *res);

/* Writes the counters as one JSON object (with a "cache" member when the
 * cache model ran). */
void emu_counters_json(FILE *out, const EmuResult *r, const EmuLaunch *L);

/* ------------------------------------------------------------ cache model
 *
 * Opt-in (EmuLaunch.cache): a per-SM sectored L1, one shared L2 and DRAM
 * sector counts, fed by the global loads, stores and atomics of the run in
 * the scheduler's order, with the semantics of each cache operator
 * (.ca .cg .cs .lu .cv .nc, .L1::*, .L2::*, .L2::cache_hint policies).  It
 * is a model, not the hardware (man/ptxopt-emu.1, CACHE MODEL); it never
 * changes a value the kernel computes.  Geometry per target: model/cache.h. */
typedef struct EmuCacheConfig {
    char arch[24];         /* "sm_80" */
    int l1_kb;             /* L1 KiB per SM; -1: the target's unified array minus the carve-out */
    int carveout_kb;       /* shared memory reserved per SM; -1: the smallest step the resident CTAs need */
    int l2_kb;             /* -1: the chip's L2 times sms / the chip's SMs */
    int assoc;             /* L1 ways; -1: lines / the target's L1 sets */
    int l2_assoc;          /* -1: the target's */
    int sms;               /* SMs simulated (CTAs round-robin); -1: 1 */
    int ctas_per_sm;       /* resident CTAs per SM; -1: the occupancy count (threads, CTAs, shared memory) */
    int partition;         /* warps with CTA-local index < T are "caching"; -1: all are */
    bool index_mod;        /* set = line address mod sets (index=mod); default: a hash of it */
} EmuCacheConfig;

/* Parses "ARCH[,key=value...]" (keys l1, carveout, l2, assoc, l2-assoc,
 * sms, ctas-per-sm, partition, index=hash|mod).  On error writes why to err. */
bool emu_cache_parse(const char *spec, EmuCacheConfig *c, char *err, size_t errlen);

/* Counts, in 32-byte sectors except requests (one per warp instruction). */
typedef struct EmuCacheCounts {
    uint64_t requests, sectors;
    uint64_t l1_hits, l1_misses, l1_bypassed;   /* bypassed: sent to L2 without an L1 lookup that could hit */
    uint64_t l2_hits, l2_misses;
    uint64_t dram_sectors;                      /* read from DRAM (L2 misses that need the data) */
} EmuCacheCounts;

enum { EMU_CACHE_CACHING, EMU_CACHE_BYPASSING, EMU_CACHE_NPART };
enum { EMU_CACHE_LOAD, EMU_CACHE_STORE, EMU_CACHE_ATOMIC, EMU_CACHE_NKIND };

typedef struct EmuCacheSite {
    uint32_t pc, line;     /* instruction index, PTX source line */
    int kind;              /* EMU_CACHE_LOAD ... */
    char *text;            /* the instruction */
    EmuCacheCounts part[EMU_CACHE_NPART];
} EmuCacheSite;

typedef struct EmuCacheReport {
    char arch[24];
    const char *gpu;       /* the chip the defaults are taken from */
    uint32_t line_bytes, sector_bytes;
    uint64_t l1_bytes, l2_bytes;
    uint32_t l1_sets, l1_assoc, l2_sets, l2_assoc;
    bool index_mod;        /* sets indexed by line address mod sets, not hashed */
    int carveout_kb;
    uint32_t sms, ctas_per_sm, warps_per_cta;
    int partition;         /* T, or -1 (every warp caching) */
    EmuCacheCounts kind[EMU_CACHE_NKIND][EMU_CACHE_NPART];
    uint64_t dram_write_sectors;  /* dirty L2 sectors evicted (the ones still dirty at the end are not counted) */
    uint32_t nsites;       /* sites that ran, in program order */
    EmuCacheSite *sites;
} EmuCacheReport;

/* The report as a table for people, and as a JSON object (the "cache"
 * member of emu_counters_json, indented by `indent` spaces). */
void emu_cache_report_text(FILE *out, const EmuCacheReport *c);
void emu_cache_report_json(FILE *out, const EmuCacheReport *c, int indent);
void emu_cache_report_free(EmuCacheReport *c);

/* Buffer dumps: binary (raw bytes), text (one element per line) or JSON. */
typedef enum EmuDumpFormat { EMU_DUMP_BIN, EMU_DUMP_TEXT, EMU_DUMP_JSON } EmuDumpFormat;
bool emu_dump_buffer(FILE *out, const EmuBuffer *b, EmuDumpFormat f);
/* Formats element i of a buffer for people ("1.5", "-3", "0x7fc00000"). */
void emu_format_element(char *dst, size_t cap, const EmuBuffer *b, size_t i);

/* Differential comparison of two results' buffers.  Returns the number of
 * differing elements (0: equal) and prints up to max_report of them. */
/* Floating-point elements agree when within ulp units in the last place,
 * or when |a - b| <= abs + rel * max(|a|, |b|) (abs or rel non-zero). */
typedef struct EmuTolerance { uint64_t ulp; double rel; double abs; } EmuTolerance;
size_t emu_compare_buffers(FILE *out, const EmuResult *a, const EmuResult *b, const EmuArg *args,
                           const EmuTolerance *tol, const uint8_t *const *ignore, int max_report,
                           const char *label_a, const char *label_b);

/* Output error of a rewritten kernel against the original (error_metric.c). */
typedef enum EmuMetric { EMU_METRIC_MRE, EMU_METRIC_MAXREL, EMU_METRIC_MAXABS, EMU_METRIC_RMSE } EmuMetric;
bool emu_metric_parse(const char *s, EmuMetric *m);   /* "mre", "maxrel", "maxabs", "rmse" */
const char *emu_metric_name(EmuMetric m);
typedef struct EmuErrorAcc {
    bool measured;         /* an output buffer (per buffer: this one is an output) */
    size_t n;              /* element pairs */
    size_t nan_mismatch;   /* NaN on one side only: every metric is infinite */
    double sum_rel, max_rel, max_abs, sum_sq;
} EmuErrorAcc;
/* Element i of a buffer as a number (integers and every float format). */
double emu_buffer_value(const EmuBuffer *b, size_t i);
void emu_error_add(EmuErrorAcc *acc, double ref, double cand);
void emu_error_merge(EmuErrorAcc *into, const EmuErrorAcc *from);
double emu_error_value(const EmuErrorAcc *acc, EmuMetric m);
/* Runs p on L under `seeds` ITS seeds (L->seed..) and hanoi besides L's
 * own schedule, and compares the buffers outputs[k] (NULL: every buffer
 * `own` changed from the launch's contents) with `own`, p's run under L's
 * schedule.  0: the same every time; 1: they depend on the schedule (a
 * race; how many elements, where and between which schedules in err); -1:
 * a run failed (why in err). */
int emu_schedule_check(EmuProgram *p, const EmuLaunch *L, int seeds, const EmuResult *own, const bool *outputs, char *err,
                       size_t errlen);
/* Which program of a measurement gives outputs that depend on the
 * schedule (a race): then its output error is not a number at all. */
typedef enum EmuScheduleDep { EMU_SCHED_INDEPENDENT, EMU_SCHED_REFERENCE, EMU_SCHED_CANDIDATE } EmuScheduleDep;
/* Runs ref and cand with the same launch, inputs and error model (L's), and accumulates the error of the output buffers:
 * outputs[k] (NULL: every buffer the reference run wrote).  per has
 * L->nargs entries.  Each program also runs under `seeds` more ITS seeds
 * (L->seed..) and hanoi, and its outputs must not change: a
 * schedule-dependent launch fails with *dep (may be NULL) saying which
 * program (the error of one schedule against another would be a race's
 * noise, not the rewrite's error).  false after writing why to err (a run
 * failed, a schedule-dependent launch, or no output).  cand_counters (may
 * be NULL) gets the candidate run's counters under L's own schedule. */
bool emu_output_error(EmuProgram *ref, EmuProgram *cand, const EmuLaunch *L, const bool *outputs, int seeds, EmuErrorAcc *per,
                      EmuErrorAcc *all, EmuCounters *cand_counters, EmuScheduleDep *dep, char *err, size_t errlen);

#endif
