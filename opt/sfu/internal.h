/* internal.h — what the parts of the sfu pass share; private to opt/sfu/.
 * The pass runs in the usual steps, one file each:
 *   options.c       the options (lambda, key, delivery, sites, f64) and checks;
 *   sites.c         single-instruction precise operations (div, rcp, sqrt,
 *                   the sqrt+rcp pair);
 *   fingerprints.c  inlined library code (sinf, expf, ...) matched against
 *                   the generated fingerprint library (fingerprints/);
 *   legality.c      a matched region may go: single entry, single exit,
 *                   everything but its output dead at the exit;
 *   replace.c       the approximate sequences (research §2.2, §2.3) and
 *                   their documented error bounds;
 *   split.c         the warp split: region, clone, warp-uniform predicate;
 *   resources.c     the ptxas -v gate (registers, occupancy) after splitting;
 *   pass.c          the pass entry, remarks. */
#ifndef PTXOPT_SFU_INTERNAL_H
#define PTXOPT_SFU_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "analysis/cfg.h"
#include "analysis/defuse.h"
#include "analysis/liveness.h"
#include "analysis/loops.h"
#include "ir/ir.h"
#include "opt/pass.h"

#define PASS "sfu"

/* What a site computes.  The order is the order of sites= names. */
typedef enum SfuKind {
    SFU_DIV, SFU_RCP, SFU_SQRT, SFU_RSQRT, SFU_SIN, SFU_COS, SFU_EXP, SFU_EXP10, SFU_LOG, SFU_LOG2, SFU_POW,
    SFU_TANH, SFU_NKINDS
} SfuKind;

const char *sfu_kind_name(SfuKind k);   /* the sites= name: "div", "sin", ... */

/* ---------------------------------------------------------- options */

typedef enum SfuKey { KEY_WARP, KEY_WARPID } SfuKey;
typedef enum SfuDelivery { DELIVER_IMM, DELIVER_GLOBAL } SfuDelivery;

/* lambda=all: at least every warp index (32 warps per CTA, %warpid < 64) */
#define SFU_LAMBDA_ALL 1024L
/* The .global that delivery=global reads λ from. */
#define SFU_LAMBDA_SYMBOL "__ptxopt_sfu_lambda"

typedef struct SfuOptions {
    long lambda;            /* warps per CTA on the approximate copy, 0..SFU_LAMBDA_ALL (every warp) */
    SfuKey key;
    SfuDelivery delivery;
    bool kinds[SFU_NKINDS]; /* sites= */
    bool f64;               /* f64 sites (opt-in: about 20-bit results) */
    int gate;               /* SfuGateMode: gate=warn|maxnreg|off */
} SfuOptions;

extern const char *const sfu_keys[];
bool sfu_read_options(const PassInvocation *inv, SfuOptions *o, char *err, size_t errsz);
bool sfu_validate(const PassInvocation *inv, char *err, size_t errsz);

/* ------------------------------------------------------------ sites */

/* One fingerprint of the generated library (fingerprints/cudaX.Y.c). */
typedef struct SfuFingerprint {
    const char *func;           /* "sinf" */
    SfuKind kind;
    int nin;                    /* inputs: 1, or 2 (powf) */
    bool ftz;                   /* generated with -ftz=true */
    const char *out;            /* the output register's role name ("%v83") */
    int nx, nv;                 /* registers defined before / in the region */
    const char *const *lines;   /* normalised instructions and labels */
    int nlines;
    const char *from;           /* targets and flags that produced it */
} SfuFingerprint;

/* The library compiled in: every toolkit version's file, newest first. */
int sfu_fingerprint_count(void);
const SfuFingerprint *sfu_fingerprint_at(int i);
const char *sfu_fingerprint_toolkit(int i);   /* "13.0" */

#define SFU_MAX_SKIP 32
#define SFU_MAX_CHUNKS 4

typedef struct SfuSite {
    SfuKind kind;
    bool f64, ftz;
    Stmt *first, *last;         /* the region in layout order (one instruction: first == last) */
    Stmt *out_def;              /* single-instruction sites: the instruction that defines the result */
    Operand in[2];              /* inputs (div: a, b; pow: x, y) */
    int nin;
    Reg *out;                   /* result register */
    bool fused;                 /* the library's final mul was contracted with an add: out = f(x) + addend */
    Operand addend;
    const SfuFingerprint *fp;   /* library sites */
    int fp_index;
    int nskip;                  /* instructions interleaved in the region that are not part of it */
    Stmt *skip[SFU_MAX_SKIP];
    int ninstr;                 /* instructions the region holds (skip excluded) */
    int nchunks;                /* parts of the region nvcc laid out elsewhere (each from a
                                   label to a branch back): chunk_first[k]..chunk_last[k] */
    Stmt *chunk_first[SFU_MAX_CHUNKS], *chunk_last[SFU_MAX_CHUNKS];
    const char *refused;        /* legality: why not, or NULL */
    int line;
} SfuSite;

/* sites.c: the single-instruction sites of fn (appended to *v). */
void sfu_find_single(Function *fn, const SfuOptions *o, Remarks *rm, SfuSite **v, int *n, int *cap);
/* fingerprints.c: the library regions of fn (appended to *v). */
void sfu_find_library(Function *fn, const SfuOptions *o, Remarks *rm, SfuSite **v, int *n, int *cap);
/* Adds one site to a growing array. */
SfuSite *sfu_site_push(SfuSite **v, int *n, int *cap);

/* --------------------------------------------------------- legality */

/* Checks a library region: no branch from outside into it, single exit,
 * every register it writes but the output dead at the exit, interleaved
 * instructions movable.  Sets s->refused. */
void sfu_check_region(Function *fn, SfuSite *s);
/* Every statement of the region in layout order, its chunks after it
 * (malloc'ed array); the count. */
int sfu_region_stmts(const SfuSite *s, Stmt ***out);

/* ---------------------------------------------------------- replace */

/* The approximate sequence's text ("ex2.approx.ftz.f32 after mul by log2(e)")
 * and its documented maximum error (research §2.7; PTX ISA). */
const char *sfu_replacement_text(const SfuSite *s);
const char *sfu_error_bound(const SfuSite *s);
/* Replaces the site in place: its region's statements are removed (labels
 * too, the exit label stays) and the approximate sequence takes their place;
 * feeds (NULL, or fn->nregs flags) collects the registers the region read.
 * Needs tanh: .target sm_75 and .version 7.0 (checked by the caller). */
void sfu_replace(Function *fn, SfuSite *s, uint8_t *feeds);
/* feeds[reg] (size nfeeds): registers the replaced regions read; the pure
 * instructions that computed only those, now dead, are removed. */
void sfu_sweep(Function *fn, uint8_t *feeds, uint32_t nfeeds);

/* ------------------------------------------------------------ split */

/* Labels of a split function start with this (idempotence: S13). */
#define SFU_LABEL_PREFIX "$__ptxopt_sfu"

/* Was fn split by an earlier run? */
bool sfu_split_done(Function *fn);
/* Applies lambda to fn's legal sites: replaces them in place (every warp
 * approximate), or clones the region holding them and replaces them in
 * the copy that lambda of the warps run.  Remarks say which.  True when
 * fn was split (cloned). */
bool sfu_split(Function *fn, const SfuOptions *o, SfuSite *v, int n, Remarks *rm);

/* -------------------------------------------------------- resources */

/* The ptxas -v gate (S8): the module's text before the pass, compared with
 * what it becomes. */
typedef enum SfuGateMode { GATE_WARN, GATE_MAXNREG, GATE_OFF } SfuGateMode;
typedef struct SfuGate {
    SfuGateMode mode;
    char *before;          /* printed module, malloc'ed */
    size_t len;
    bool split;            /* some function was split */
    bool *split_fn;        /* [nfuncs] which (malloc'ed) */
} SfuGate;
void sfu_gate_begin(SfuGate *g, Module *m, const SfuOptions *o, const PassContext *ctx);
void sfu_gate_end(SfuGate *g, Module *m, const PassContext *ctx);

#endif
