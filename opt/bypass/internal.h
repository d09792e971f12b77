/* internal.h — what the parts of the bypass pass share; private to
 * opt/bypass/.  The pass runs in the usual steps, one file each:
 *   options.c          the options (threshold, op, form, delivery) and their checks;
 *   sites.c            the global loads of a function (candidates);
 *   legality.c         which of them may be rewritten, and why not (remarks);
 *   profit.c           what an explicit threshold means for one kernel
 *                      (plain code, a partition, or nothing), and the
 *                      no-threshold policy;
 *   cacheop.c          the text of a load's cache operators (strip the L1
 *                      operator, insert the bypass one or .L2::cache_hint);
 *   partition.c        the header: linear tid -> warp -> `warp < T`;
 *   emit_pairs.c       form (a): complementary predicated pairs;
 *   emit_versioning.c  form (b): one branch at entry, cached and bypass copies;
 *   emit_l2policy.c    form (c): a per-warp L2 eviction policy (sm_80+);
 *   pass.c             the pass entry, per-kernel driver and remarks. */
#ifndef PTXOPT_BYPASS_INTERNAL_H
#define PTXOPT_BYPASS_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "analysis/cfg.h"
#include "analysis/loops.h"
#include "analysis/memory.h"
#include "ir/ir.h"
#include "opt/pass.h"

#define PASS "bypass"

/* The name of the module-scope threshold variable (delivery=global). */
#define BYP_THRESHOLD_SYM "__ptxopt_bypass_threshold"

/* Warps per CTA never exceed 32 (1024 threads). */
#define BYP_MAX_WARPS 32

/* ------------------------------------------------------------ options */

/* BOP_AUTO (the default) is resolved per load by legality.c: .cg for a
 * plain load, .L1::no_allocate for an ld.global.nc (where .cg would change
 * nothing); a Site's op is always one of the other three. */
typedef enum BypassOp { BOP_CG, BOP_NO_ALLOCATE, BOP_CS, BOP_AUTO } BypassOp;
typedef enum BypassForm { FORM_PAIRS, FORM_VERSIONING, FORM_L2POLICY, FORM_AUTO } BypassForm;
typedef enum Delivery { DELIV_IMM, DELIV_GLOBAL } Delivery;

typedef struct Options {
    bool has_threshold;  /* threshold= given */
    bool all;            /* threshold=all: every warp caches (T = W) */
    long threshold;      /* 0..32 when given as a number */
    BypassOp op;
    BypassForm form;
    Delivery delivery;
    const char *kernel;  /* kernel=NAME: only this function; NULL: all */
} Options;

extern const char *const byp_keys[];
bool byp_read_options(const PassInvocation *inv, Options *o, char *err, size_t errsz);
bool byp_validate(const PassInvocation *inv, char *err, size_t errsz);
const char *byp_op_name(BypassOp op);      /* "cg", "no-allocate", "cs", "auto" */
/* The operator's text in a load: ".cg", ".L1::no_allocate", ".cs". */
const char *byp_op_text(BypassOp op);
const char *byp_form_name(BypassForm f);   /* "pairs", ... */

/* --------------------------------------------------------------- sites */

typedef struct Site {
    Stmt *st;
    uint32_t instr;      /* number in the function's Cfg */
    bool generic;        /* written without a state space */
    bool unproven;       /* generic, and the memory analysis does not know its window */
    bool nc;             /* ld.global.nc */
    bool in_loop;        /* inside a natural loop (or the CFG is irreducible) */
    BypassOp op;         /* the operator this load gets (op=auto resolved; never BOP_AUTO) */
    const char *skip;    /* why the load is left alone; NULL: it is rewritten */
    char detail[96];     /* more about skip (a line number) */
} Site;

/* The loads of fn the pass looks at: every reachable `ld`/`ldu` whose
 * space is .global, written or inferred by the memory analysis, and the
 * generic ones of unknown window; malloc'ed. */
Site *byp_find_sites(Function *fn, int *n);

/* ------------------------------------------------------------ legality */

/* Sets skip on every site that must be left alone for `form`/`op`, and
 * op on the others (op=auto resolved per load); sm: the target (0:
 * unknown), ptx_version: major*10+minor (-1: unknown). */
void byp_check_sites(Function *fn, Site *s, int n, const Options *o, BypassForm form, int sm, int ptx_version);
/* Why a whole function cannot take `form` (NULL: it can). */
const char *byp_form_refused(Function *fn, const Options *o, BypassForm form, int sm, int ptx_version);

/* ------------------------------------------------------------- cacheop */

/* The bypass variant of a load's opcode text: the L1 operator and any L1
 * eviction priority removed, op inserted where the grammar wants it
 * (ld{.weak}{.ss}{.cop}{.nc}{.L1::...}...).  Allocated in m's arena. */
const char *byp_bypass_full(Module *m, const Instr *in, BypassOp op);
/* The opcode text with .L2::cache_hint inserted (before the prefetch size,
 * vector and type modifiers). */
const char *byp_hint_full(Module *m, const Instr *in);
/* Does the load carry an L1 operator / eviction priority already? */
bool byp_has_mod_prefix(const Instr *in, const char *prefix);

/* ----------------------------------------------------------- partition */

/* What the kernel's directives say about the block (.reqntid exact,
 * .maxntid an upper bound). */
typedef struct Shape {
    int dims;            /* 1, 2 or 3: components that may exceed 1 */
    bool exact;          /* .reqntid: nx, ny, nz are the block */
    uint32_t nx, ny, nz; /* exact, or upper bounds from .maxntid (0: unknown) */
    int warps;           /* W: warps per block (an upper bound under .maxntid), 0 when unknown */
} Shape;

Shape byp_block_shape(const Function *fn);

/* Where straight-line code at kernel entry goes: appended to block b
 * (before `before`, or at its end when NULL).  Never inside a loop. */
typedef struct Anchor {
    Block *b;
    Stmt *before;
} Anchor;

void byp_put(Anchor *a, Stmt *s);
/* The entry anchor.  split: the first instruction or label starts a new
 * block, so that the anchor's block holds only declarations (versioning
 * ends it with a branch). */
Anchor byp_entry_anchor(Function *fn, bool split);
/* Emits the header at a and returns the predicate `warp < T` (true in the
 * caching warps); tsym: the module variable to read T from, or NULL for
 * the immediate T. */
Reg *byp_emit_partition(Function *fn, Anchor *a, const Shape *sh, long T, const char *tsym);
/* delivery=global: declares `.global .align 4 .u32 __ptxopt_bypass_threshold
 * = dflt;` before the module's first function; false when the name exists. */
bool byp_declare_threshold(Module *m, long dflt);
/* A one-line description of the header emitted for sh ("1-D block (.reqntid 128)"). */
const char *byp_shape_text(const Shape *sh, char *buf, size_t cap);

/* --------------------------------------------------------------- emit */

/* Small constructors shared by the emitters. */
Stmt *byp_instr(Function *fn, const char *full, int nops, const Operand *ops);
/* A copy of in's statement with opcode text `full` (operands deep-copied). */
Stmt *byp_copy_load(Function *fn, const Stmt *st, const char *full);

/* (a) caching warps (pred true) keep the load, the others take the bypass
 * copy (each site's own op); pred NULL: every load becomes the bypass
 * variant (T = 0). */
void byp_emit_pairs(Function *fn, Site *s, int n, Reg *pred);
/* (c) a policy register per warp: evict_last where pred holds, evict_first
 * elsewhere (pred NULL: evict_first everywhere); every site gets
 * .L2::cache_hint with it. */
void byp_emit_l2policy(Function *fn, Anchor *a, Site *s, int n, Reg *pred);
/* (b) the body after the anchor is cloned; warps where pred is false
 * branch to the copy, whose eligible loads are the bypass variants.
 * False (with *why) when the body cannot be cloned: nothing changed. */
bool byp_emit_versioning(Function *fn, Anchor *a, Site *s, int n, Reg *pred, const char **why);

/* ------------------------------------------------------------- profit */

typedef enum Plan {
    PLAN_NONE,           /* leave the kernel unchanged */
    PLAN_ALL_BYPASS,     /* T = 0 (immediate): every eligible load bypasses, no header */
    PLAN_PARTITION       /* header + the form */
} Plan;

/* What an explicit threshold means for one kernel; *why says it for the remark. */
Plan byp_plan(const Options *o, const Shape *sh, long *T, char *why, size_t cap);
/* auto: the form chosen for this kernel and why. */
BypassForm byp_auto_form(Function *fn, const Site *s, int n, int sm, char *why, size_t cap);

#endif
