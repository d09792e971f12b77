/* internal.h — what the parts of the tinylock pass share; private to
 * opt/tinylock/.  The pass runs in the usual steps, one file each:
 *   options.c     the options and their checks;
 *   primitives.c  the primitive library (PTX per .target/.version);
 *   sites.c       find spin-lock idioms and candidate barriers;
 *   legality.c    their proof obligations (fences with no other role,
 *                 lock/unlock in one divergent region, unique producer,
 *                 no access crossing a barrier without a channel);
 *   resources.c   shared memory added and the occupancy delta;
 *   emit.c        the rewrites, built from the primitives;
 *   pass.c        per kernel: sites -> legality -> profit -> emit,
 *                 remarks. */
#ifndef PTXOPT_TINYLOCK_INTERNAL_H
#define PTXOPT_TINYLOCK_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "analysis/cfg.h"
#include "analysis/dom.h"
#include "analysis/loops.h"
#include "analysis/memory.h"
#include "analysis/ssa.h"
#include "analysis/terms.h"
#include "analysis/uniform.h"
#include "analysis/value_terms.h"
#include "analysis/z3bridge.h"
#include "ir/ir.h"
#include "opt/pass.h"
#include "opt/tinylock/tinylock.h"

#define PASS "tinylock"

/* ------------------------------------------------------------ options */

typedef struct Options {
    bool spinlock, flag, barrier;   /* rewrite= */
    long debug_spin;                /* 0: off */
    long backoff;                   /* nanosleep ns, 0: off */
    bool profit;                    /* profit=auto */
} Options;

extern const char *const tl_keys[];
bool tl_read_options(const PassInvocation *inv, Options *o, char *err, size_t errsz);
bool tl_validate(const PassInvocation *inv, char *err, size_t errsz);

/* --------------------------------------------------------- primitives */

/* Small builders the primitives and the rewrites share (primitives.c). */
Stmt *tl_ins(TlEmit *e, Reg *guard, bool neg, const char *full, int n, const Operand *ops);
Operand tl_addr(TlEmit *e, Reg *r, int64_t off);
Operand tl_imm(TlEmit *e, int64_t v);
/* Start a spin loop before e->at (a label in a block of its own); its
 * name.  tl_loop_end closes it: debug counter, backoff, @again bra. */
Str tl_loop_begin(TlEmit *e, Reg **counter);
void tl_loop_end(TlEmit *e, Str label, Reg *again, Reg *counter);
/* Count one iteration and trap after e->debug_spin, before e->at; only
 * while `again` (negated: again_neg) holds, or always when again is NULL. */
void tl_debug_count(TlEmit *e, Reg *counter, Reg *again, bool again_neg);
const char *tl_membar(const char *scope);
/* The blocks entering the loop headed by `head` (fresh analyses; at most
 * 64), and a debug counter set to 0 at the end of each. */
int tl_loop_entries(Function *fn, Block *head, Block **out);
void tl_debug_counter_init(Function *fn, Block *const *entries, int n, Reg *cnt);   /* "membar.cta", "membar.gl", "membar.sys" */

/* ------------------------------------------------------------- spinlock */

typedef struct SpinSite {
    uint32_t header;          /* the loop header (the analyses' numbering when found) */
    Stmt *cas, *setp, *bra;   /* the acquire attempt and the header's branch on its result */
    bool again_neg;           /* the attempt failed iff the branch's guard register is false */
    Stmt *fence_acq;          /* the full fence after the loop */
    Stmt *fence_rel, *release;/* the fence before the release, the release */
    const Term *addr;
    Str space;                /* ".shared", ".global" or empty (generic) */
    const char *scope;        /* of the fences: "cta", "gpu", "sys" */
    bool exch_dead;           /* the release is atom.exch whose result nothing reads */
    bool acquire_shape;       /* the loop, the attempt and the fence were recognised (release or not) */
    bool ok;
    char why[240];            /* when not ok */
} SpinSite;

/* Every atom.cas spin loop of fn (sites.c); *n sites, malloc'ed. */
SpinSite *tl_spin_sites(Function *fn, int *n);
/* The obligations (legality.c): sets ok or why. */
void tl_spin_legal(Function *fn, const TlTarget *t, SpinSite *s);

/* ----------------------------------------------------------------- flag */

/* Lock used as a flag (flag.c): among the spin sites the spinlock rewrite
 * refused, the consumers of a token lock (acquire, read-only critical
 * section, restore) whose lock word is otherwise only set by
 * initialising stores before a CTA barrier and cleared by fenced releases
 * become acquire-load waits, and the releases releasing stores.  Returns
 * the number of consumers rewritten; remarks for every site. */
int tl_flag_rewrite(Function *fn, const TlTarget *t, const Options *o, SpinSite *s, int n, Remarks *rm);

/* -------------------------------------------------------------- barrier */

typedef struct Consumer {
    uint32_t instr;
    Stmt *ld;
    Stmt *producer;           /* a store whose bytes it reads (for remarks) */
    int64_t shift;            /* the only thread that may have written its bytes is %tid.x + shift */
    int epoch;                /* wait until that thread's flag reaches this */
    uint64_t bars;            /* the barriers (BarPlan.bars indices) whose pairs it is in */
    bool by_z3;               /* uniqueness proved by Z3 under the path conditions */
} Consumer;

typedef struct BarSite {
    uint32_t instr, block;
    Stmt *bar;
    bool cand, relaxed;
    int epoch;                /* relaxed: 1, 2, ... in dominance order */
    char why[400];
} BarSite;

typedef struct BarPlan {
    uint32_t ntid;            /* threads per block (.reqntid/.maxntid x, y = z = 1); 0: unknown */
    uint32_t nflags;          /* flag words: ntid, or 1024 when the shape is unknown */
    int nbars, nrelaxed;
    BarSite *bars;
    int ncons;
    Consumer *cons;
    Stmt *init_before;        /* the kept barrier the flags' initialisation precedes, or NULL:
                                 a barrier is added at the kernel's entry */
    bool legacy;              /* volatile + membar.cta channels (no sm_70 / PTX 6.0) */
    char why[240];            /* the whole kernel is refused (no candidate at all) */
} BarPlan;

/* Candidate barriers and the obligations (sites.c, legality.c). */
void tl_barrier_sites(Function *fn, BarPlan *p);
void tl_barrier_legal(Function *fn, const TlTarget *t, BarPlan *p);
void tl_barrier_plan_free(BarPlan *p);

/* ------------------------------------------------------------ resources */

typedef struct Resources {
    long long smem_before, smem_added;  /* static shared bytes of the kernel (module + function) */
    int blocks_before, blocks_after;    /* blocks per SM by shared memory and warps (0: unknown) */
    const char *arch;
} Resources;

Resources tl_resources(Function *fn, const TlTarget *t, uint32_t ntid, long long added);

/* ----------------------------------------------------------------- emit */

void tl_emit_spin(Function *fn, const TlTarget *t, const Options *o, SpinSite *s);
void tl_emit_barrier(Function *fn, const TlTarget *t, const Options *o, BarPlan *p);

#endif
