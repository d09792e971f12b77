/* internal.h — what the parts of the sfu pass share; private to opt/sfu/.
 * The pass runs in the usual steps, one file each:
 *   options.c       the options (lambda, key, delivery, sites, f64) and checks;
 *   sites.c         single-instruction precise operations (div, rcp, sqrt,
 *                   the sqrt+rcp pair);
 *   fplib.c         the generated fingerprint library (fingerprints/),
 *                   each fingerprint parsed into a function of its own;
 *   match.c         one fingerprint against a value of the user's function:
 *                   value graphs in SSA form, merges by their branch
 *                   conditions, loops by their exit conditions;
 *   fingerprints.c  the library sites of a function (and the "resembles
 *                   ... not recognised" remarks);
 *   legality.c      a matched region may go: its input and the depot
 *                   address still held where the output is defined;
 *   reach.c         replaced values that reach control flow, a float-to-int
 *                   conversion, an address, or shared memory (remarks, safe=1);
 *   replace.c       the approximate sequences (research §2.2, §2.3) and
 *                   their documented error bounds;
 *   guard.c         sin/cos: |x| beyond the documented range keeps nvcc's
 *                   precise code (an out-of-line copy of the fingerprint);
 *   prune.c         the precise code a replacement left dead goes
 *                   (aggressive dead-code elimination over the region);
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

#define SFU_MAX_EXCLUDE 32

typedef struct SfuOptions {
    long lambda;            /* warps per CTA on the approximate copy, 0..SFU_LAMBDA_ALL (every warp) */
    SfuKey key;
    SfuDelivery delivery;
    bool kinds[SFU_NKINDS]; /* sites= */
    int exclude[SFU_MAX_EXCLUDE];   /* sites=...,-LINE: sites at these input lines stay precise */
    int nexclude;
    bool f64;               /* f64 sites (opt-in: about 20-bit results) */
    bool safe;              /* safe=1: sites whose value reaches control flow, a float-to-int
                               conversion or an address stay precise */
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
    int nin;                    /* inputs: 1, or 2 (powf; with pclass: x and the constant) */
    bool ftz;                   /* generated with -ftz=true */
    const char *out;            /* the output register's role name ("%v83") */
    int nx, nv;                 /* registers defined before / in the region */
    const char *const *lines;   /* normalised instructions and labels */
    int nlines;
    const char *from;           /* targets and flags that produced it */
    const char *types;          /* one letter per role (%i, %x, %v): f f32, d f64, r b32,
                                   l b64, h b16, p pred, D a local depot address */
    const char *pclass;         /* powf(x, C): the classes of C (int-odd-pos, frac-neg, ...);
                                   its immediates #P*F are C * F.  "" otherwise */
} SfuFingerprint;

/* The library compiled in: every toolkit version's file, newest first. */
int sfu_fingerprint_count(void);
const SfuFingerprint *sfu_fingerprint_at(int i);
const char *sfu_fingerprint_toolkit(int i);   /* "13.0" */

/* The roles of a fingerprint's entry values: inputs 0..1, a local depot
 * address, the memory at the region's entry. */
enum { SFU_ROLE_NONE = -1, SFU_ROLE_DEPOT = 8, SFU_ROLE_MEM = 9 };

typedef struct SfuSite {
    SfuKind kind;
    bool f64, ftz;
    /* single-instruction sites: replaced in place */
    Stmt *first, *last;         /* the instruction (first == last) or the sqrt + rcp pair */
    Stmt *out_def;              /* the instruction that defines the result */
    Operand in[2];              /* inputs (div: a, b; pow: x, y; a constant exponent: the immediate) */
    int nin;
    Reg *out;                   /* result register */
    char tail;                  /* 0, or the operation nvcc folded into the library's last
                                   instruction: '+' (its final mul contracted into an fma
                                   with the sum) or '*' / '+' / '-' (negation) pushed into
                                   both arms of its final selp: out = f(x) <tail> tail_opnd */
    Operand tail_opnd;
    /* library sites: the approximate code computes out in front of `at`
     * (or at the end of at_block when at is NULL); `replaces` is the
     * instruction that defined out (removed), NULL when out is a merge of
     * the region's paths at at_block's start; the precise code, cand, is
     * left to prune.c */
    const SfuFingerprint *fp;
    int fp_index;
    Block *at_block;
    Stmt *at;
    Stmt *replaces;
    Stmt **cand;                /* malloc'ed; the user instructions the fingerprint matched */
    int ncand;
    int ninstr;
    uint32_t in_value[2];       /* the inputs' SSA values (ANA_NONE: in[k] is an immediate) */
    uint32_t out_value;         /* the output's SSA value */
    double param;               /* powf's constant exponent (fp->pclass) */
    bool guard;                 /* sin/cos: |x| > 100 pi (or NaN) runs nvcc's precise code */
    Stmt **self;                /* the guard's out-of-line copy: its local loads (malloc'ed; prune.c) */
    int nself;
    Str depot_sym[4];           /* the fingerprint's depot roles: the user's depot sym + off */
    int64_t depot_off[4];
    bool depot_bound[4];
    /* what the value reaches (reach.c), for remarks and safe=1 */
    const char *reaches;        /* "a branch at line 40", or NULL */
    const char *shared_store;   /* "st.shared at line 52", or NULL */
    const char *refused;        /* legality: why not, or NULL */
    int line;
    int id;                     /* the site's number in its function (remarks) */
    int same_call;              /* the id of a site this one recomputes (nvcc computed f(x) * 2 as
                                   fma(a, b, a * b): two outputs of one call), else 0 */
} SfuSite;

/* sites.c: the single-instruction sites of fn (appended to *v). */
void sfu_find_single(Function *fn, const SfuOptions *o, Remarks *rm, SfuSite **v, int *n, int *cap);
/* fingerprints.c: the library regions of fn (appended to *v). */
void sfu_find_library(Function *fn, const SfuOptions *o, Remarks *rm, SfuSite **v, int *n, int *cap);
/* Adds one site to a growing array. */
SfuSite *sfu_site_push(SfuSite **v, int *n, int *cap);

/* --------------------------------------------------------- legality */

/* A library site may be replaced: its inputs (and the depot address a
 * guarded site's precise path needs) are held by their registers where the
 * approximate code goes.  Sets s->refused. */
void sfu_check_region(Function *fn, SfuSite *s);

/* reach.c: which replaced values reach a branch, a selp condition, a
 * float-to-int conversion or an address (s->reaches), or a shared-memory
 * store (s->shared_store).  Register data flow, through memory not. */
void sfu_reach(Function *fn, SfuSite *v, int n);

/* ---------------------------------------------------------- match */

/* fplib.c: the parsed library (NULL: a fingerprint that failed to parse). */
typedef struct FpLib FpLib;
const FpLib *sfu_fplib(int i);
Function *sfu_fplib_function(const FpLib *l);
bool sfu_fplib_is_anchor(const FpLib *l, uint64_t bits);   /* an immediate of its function only */
/* Is `in` the fingerprint's signature instruction (one per call)?  konst
 * and is_konst: the constant each register is only ever set to
 * (sfu_reg_constants). */
bool sfu_fplib_signature(const FpLib *l, const Instr *in, const uint64_t *konst, const bool *is_konst);
void sfu_reg_constants(Function *fn, uint64_t *konst, bool *is_konst);
/* "sinf/cosf", "logf/log2f", "expf/exp10f", else the function: fingerprints
 * that share constants. */
const char *sfu_family(const char *func);
int sfu_fplib_ninstr(const FpLib *l);
/* The fingerprint value a factor placeholder immediate stands for. */
bool sfu_fplib_param(const FpLib *l, uint64_t bits, double *factor);

/* match.c: one fingerprint against one user value (an output candidate),
 * in a session over the user's function (its analyses, merge trees). */
typedef struct SfuMatcher SfuMatcher;
SfuMatcher *sfu_matcher_new(Function *fn);
void sfu_matcher_free(SfuMatcher *s);
/* The fingerprint's output value (ANA_NONE: none); *is_phi: a merge of
 * paths, else defined by an instruction spelled *def_full. */
uint32_t sfu_fp_output(const FpLib *l, int index, bool *is_phi, Str *def_full);
const SfuFingerprint *sfu_fplib_source(const FpLib *l);

typedef struct SfuMatch {
    bool ok;
    int progress;               /* fingerprint values matched at the deepest failure */
    char why[200];              /* why not */
    /* on success */
    Stmt **cand;                /* malloc'ed: the user instructions matched */
    int ncand;
    uint32_t in_value[2];       /* the user's input values (SSA) */
    int nin;
    char tail;
    Operand tail_opnd;
    double param;
    bool has_param;
    Str depot_sym[4];           /* depot role k: the user's depot sym + off */
    int64_t depot_off[4];
    bool depot_bound[4];
    Stmt **touched;             /* on failure: the user instructions it had matched (malloc'ed) */
    int ntouched;
} SfuMatch;
void sfu_match(SfuMatcher *sess, const FpLib *l, int index, uint32_t user_value, SfuMatch *out);
void sfu_match_free(SfuMatch *m);

/* ---------------------------------------------------------- replace */

/* The approximate sequence's text ("ex2.approx.ftz.f32 after mul by log2(e)")
 * and its documented maximum error (research §2.7; PTX ISA). */
const char *sfu_replacement_text(const SfuSite *s);
const char *sfu_error_bound(const SfuSite *s);
/* Replaces the site: a single-instruction site in place; a library site
 * gets its approximate code at s->at (guarded: with nvcc's precise code
 * out of line for arguments beyond the documented range, guard.c); the
 * precise region is left for sfu_prune.  Needs tanh: .target sm_75 and
 * .version 7.0 (checked by the caller). */
void sfu_replace(Function *fn, SfuSite *s);
/* guard.c: the range test in front of the approximate code and the
 * out-of-line precise copy (the fingerprint instantiated with the site's
 * bindings) it branches to. */
void sfu_guard(Function *fn, SfuSite *s, Stmt *approx_first, Stmt *approx_last);
/* prune.c: removes the instructions of cand (n of them) that nothing
 * needs any more (aggressive dead-code elimination: what non-candidates
 * read, what decides whether they run, and local stores a live load may
 * read stay), their conditional branches become jumps to where their
 * paths meet again, and nvcc's local depot goes when nothing addresses it. */
void sfu_prune(Function *fn, Stmt **cand, int n, Stmt **self, int nself);

/* ------------------------------------------------------------ split */

/* Labels of a split function start with this (idempotence: S13). */
#define SFU_LABEL_PREFIX "$__ptxopt_sfu"
/* Labels of the guards' out-of-line precise code (guard.c); the blocks
 * from the first such label on are never matched again (a second run
 * must not approximate the precise path). */
#define SFU_GUARD_PREFIX "$__ptxopt_guard"

/* Was fn split by an earlier run? */
bool sfu_split_done(Function *fn);
/* A label PREFIX_WHAT<n> that no label statement of fn has yet; n counts
 * on from *counter (each caller keeps its own, so its names stay as they
 * were). */
Str sfu_fresh_label(Function *fn, const char *prefix, const char *what, unsigned *counter);
/* Decides everything before anything is emitted (a pass that does not
 * rewrite leaves the function byte-identical, and its remarks do not
 * contradict each other): every warp approximate (lambda >= W: the sites
 * replaced in place), or the regions to clone (the outermost loop holding
 * sites, else the body after the declarations) and which of them can be
 * cloned.  applied[i]: site i will be replaced.  Changes only the block
 * structure (not the text). */
typedef struct SfuPlan SfuPlan;
SfuPlan *sfu_plan(Function *fn, const SfuOptions *o, SfuSite *v, int n, bool *applied);
/* Carries the plan out: replaces every site in place, or clones each
 * region that can be and replaces the sites of the approximate copy;
 * remarks say which.  True when fn was split (cloned). */
bool sfu_apply(Function *fn, const SfuOptions *o, SfuPlan *p, SfuSite *v, int n, const bool *applied, Remarks *rm);
void sfu_plan_free(SfuPlan *p);
bool plan_all(const SfuPlan *p);   /* every warp approximate, no split */
/* delivery=global's module variable .global .u32 __ptxopt_sfu_lambda (once). */
void sfu_lambda_symbol(Module *m, long lambda);

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
