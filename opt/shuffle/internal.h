/* internal.h — what the parts of the shuffle pass share; private to
 * opt/shuffle/.  The pass runs in the usual steps, one file each:
 *   sites.c     find the loads that may take part (classify);
 *   legality.c  which earlier loads may feed each one, and at what cost in
 *               runtime checks (dominance, iterations, clobbers, lanes);
 *   lanes.c     what lanes l and l+N share (uniformity, value ranges);
 *   proof.c     the address equation, by normalisation and Z3;
 *   pass.c      options, selection (smallest |N|, no shuffle over
 *               shuffle, max-shuffles), remarks, the pass entry;
 *   emit.c      the code template. */
#ifndef PTXOPT_SHUFFLE_INTERNAL_H
#define PTXOPT_SHUFFLE_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "analysis/cfg.h"
#include "analysis/defuse.h"
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

#define PASS "shuffle"

/* ----------------------------------------------------------- lanes */

/* What decides whether lanes l and l+N agree on a value (lanes.c). */
typedef struct LaneFacts {
    const Uniformity *uni;
    const LoopInfo *li;
    const Ssa *ssa;
    const Term *tid;       /* %tid.x: lane l+N has %tid.x + N */
    const Term *laneid;    /* %laneid: lane l+N has %laneid + N */
    const Term **late;     /* the terms of loads lanes may execute at different times with a
                              write ordered between them (Uniformity.late): not shared */
    uint32_t nlate;
} LaneFacts;

/* Fills lf->late (malloc'ed; the caller frees it). */
void shfl_lane_facts_late(Function *fn, LaneFacts *lf);

/* Does t mention %tid.x or %laneid? */
bool shfl_mentions_lane(const LaneFacts *lf, const Term *t);
/* The first subterm of t (S's address, S outside every loop) that is not
 * a function of the lane and may differ between lanes l and l+N, or NULL
 * when every such subterm is proven warp-uniform. */
const Term *shfl_lane_varying(const LaneFacts *lf, const Term *t, int depth);

/* ------------------------------------------------------------ wrap */

/* The per-lane wrap check of one widened index (wrap.c rule 3): lane l
 * falls back where its x + delta wraps in the extension's range. */
typedef struct ShflWrap {
    Reg *reg;          /* holds lane l's x at D (or its copy, see copy_after) */
    Stmt *copy_after;  /* non-NULL: reg is overwritten before D; copy it right after this */
    bool sgn;          /* sign-extended (else zero-extended) */
    int32_t delta;     /* x in lane l+N minus x in lane l */
} ShflWrap;

/* ------------------------------------------------------------ emit */

/* One rewrite: destination load `dst` takes the value that source load
 * `src` loaded in lane (lane + delta). */
typedef struct ShflSite {
    Stmt *src, *dst;
    int delta;
    int bits;          /* 32 or 64 */
    bool check;        /* runtime address check: src may have run in another
                          iteration in the source lane (src in a loop), or its
                          unsigned index may have wrapped; both addresses
                          are [reg] or [reg+imm] */
    bool converged;    /* every lane that entered the kernel reaches dst
                          together (uniformity: no divergence, no exit) */
    bool in_loop;      /* dst may run more than once per thread */
    bool src_live;     /* src's destination register still holds its value
                          at dst: use it, no copy (64-bit shuffles still
                          split a copy) */
    bool aligned;      /* an index's no-wrap premise is warp alignment: the
                          shuffle needs %ntid.x % 32 == 0 (wrap.c rule 2) */
    int nwrap;         /* per-lane wrap checks (wrap.c rule 3) */
    ShflWrap wrap[2];
} ShflSite;

typedef struct ShflEmitOptions {
    bool no_corner;    /* ablation: no fallback load */
    bool no_load;      /* ablation: no shuffle, no load */
    bool row_guard;    /* the block shape may put two tid.y rows in one warp */
    bool aligned_guard; /* the row guard demands %ntid.x % 32 == 0 (a site's premise
                           is warp alignment), not one row or whole-warp rows */
    bool full_warps;   /* .reqntid: every warp has 32 threads */
    bool aligned_rows; /* .reqntid with %ntid.x % 32 == 0: every warp full and one row */
    bool version;      /* may version the kernel on full warps (emit.c) */
} ShflEmitOptions;

/* What shfl_emit did besides the sites. */
typedef struct ShflEmitResult {
    bool need_mask;    /* a site with delta != 0 and no no-load: needs activemask/PTX 6.2 */
    bool versioned;    /* full warps run the rewritten body, partial warps a copy of the original */
    bool on_rows;      /* ... versioned on the block shape (%ntid.x % 32 == 0), not per warp */
    const char *no_version; /* why a kernel that would have been versioned was not (NULL: it was, or no need) */
} ShflEmitResult;

/* The form of the template (plan.c): decided once for emit.c and profit.c. */
typedef struct ShflPlan {
    bool need_mask;    /* a site with delta != 0 and no no-load */
    bool rows;         /* every warp that runs the rewrite is full and one row at a %tid.x
                          that is a multiple of 32 (.reqntid, or version_rows) */
    bool version_rows; /* versioned on the block shape: 4 instructions at entry */
    bool kernel_guard; /* converged sites share the kernel-wide guard */
    bool kernel_lanes; /* ... whose mask is the warp's lanes from %ntid/%tid */
    bool version_lanes;/* ... versioned per warp on them */
    bool kernel_bad;   /* ... with a bad predicate: selp clamps at entry */
    uint8_t kernel_dirs; /* shuffle directions of the kernel guard's sites (1 down, 2 up) */
    int row_guard;     /* instructions of the row guard at entry (0, 3 or 7) */
    int nregions;
    uint8_t *region_start; /* [nsites] 1: the site opens an activemask region */
    uint8_t *region_dirs;  /* [nsites] at a region's first site: its directions */
    const char *no_version; /* why versioning was not possible (NULL: it was, or not tried) */
} ShflPlan;

ShflPlan shfl_plan(Function *fn, const ShflSite *sites, int nsites, const ShflEmitOptions *o);
void shfl_plan_free(ShflPlan *p);
/* Instructions the plan adds once per warp at kernel entry / when site i's region starts. */
int shfl_plan_entry_instrs(const ShflPlan *p);
int shfl_plan_region_instrs(const ShflPlan *p, int site);
Stmt *shfl_entry_point(Function *fn);
bool shfl_body_copyable(Function *fn, const Stmt *entry, bool barriers_ok, const char **why);
bool shfl_lanes_may_leave(const Stmt *from, const Stmt *to);

/* Rewrites fn for the sites (sources may repeat; destinations are
 * distinct and never sources). */
ShflEmitResult shfl_emit(Function *fn, const ShflSite *sites, int nsites, const ShflEmitOptions *o);

/* --------------------------------------------------------- options */

/* prove=: who accepts a pair (see prove_shift). */
typedef enum ProveMode { PROVE_AUTO, PROVE_Z3, PROVE_REWRITE } ProveMode;

typedef struct Options {
    long max_delta, max_shuffles, timeout_ms;
    long budget_ms;     /* per kernel; 0: none */
    bool no_corner, no_load;
    bool loops;         /* sources in loops (with the runtime address check) */
    bool unsign;        /* wrap=1: indices that may wrap and have no cheaper check (with the
                           runtime address check); unsigned= is the option's old name */
    bool clamp;         /* clamped (min/max) indices (with the runtime address check) */
    bool version;       /* version=1: full-warp kernel versioning (emit.c) */
    ProveMode prove;
    bool profit;       /* profit=auto: the gate of profit.c on sm_70 and newer */
} Options;

extern const char *const shfl_keys[];
bool shfl_read_options(const PassInvocation *inv, int sm, Options *o, char *err, size_t errsz);
bool shfl_validate(const PassInvocation *inv, char *err, size_t errsz);

/* ----------------------------------------------------------- sites */

/* Why a load is not rewritten, in the order the checks advance: the
 * furthest stage reached is the one reported. */
typedef enum Why {
    WHY_NONE, WHY_NO_EARLIER, WHY_TYPE, WHY_NOT_DOMINATED, WHY_ITERATION, WHY_NO_SHIFT, WHY_CLAMP_OFF, WHY_LOOP_OFF, WHY_LANE_VARYING, WHY_WRAP,
    WHY_CHECK_FORM, WHY_CLOBBER,
    WHY_PROOF_REFUTED, WHY_PROOF_UNKNOWN, WHY_CHAIN, WHY_LIMIT, WHY_PROFIT
} Why;

typedef struct Load {
    uint32_t instr, block, acc;
    Stmt *st;
    const Term *addr;
    Str type;
    int bits;
    bool nc;           /* ld.global.nc */
    bool l1_cached;    /* not .cg, .cv or .L1::no_allocate: served by L1 on sm_70+ */
    bool readonly;     /* a read-only parameter (const __restrict__): no store can change it */
    bool eligible;     /* may take part at all */
    bool dst_ok;       /* may be a destination */
    const char *skip;  /* why not eligible */
    Why why;           /* furthest failure as a destination */
    char detail[160];
    bool is_dst;       /* has a proved candidate */
    bool needs_version; /* chosen, but .version cannot be raised */
    int uses_as_src;
    const Term *unclamped; /* addr without its clamps, once asked (shfl_candidates) */
    bool unclamped_done;
} Load;

void shfl_classify(Function *fn, const MemInfo *mi, const MemAccess *a, const LaneFacts *lf, Load *l);

/* -------------------------------------------------------- legality */

typedef struct Ctx {
    Function *fn;
    LaneFacts lf;
    const Cfg *cfg;
    const DomTree *dom;
    const LoopInfo *li;
    const Uniformity *uni;
    const MemInfo *mi;
    TermTable *tt;
    ProofSession *ps;
    Options o;
    bool align_ok;          /* warp alignment may prove no-wrap premises (wrap.c rule 2) */
    int nloads;
    uint8_t *fwd, *bwd;     /* scratch [n] */
    uint32_t *stack;        /* scratch [n] */
} Ctx;

typedef struct Cand {
    uint32_t src;      /* index into loads */
    int delta;
    bool check;        /* needs the runtime address check (S in a loop, or an unsigned index) */
    bool loop;         /* ... because S is in a loop */
    bool clamp;        /* ... because the addresses clamp their indices */
    const Term *a, *b; /* what the proof relates: the addresses, or their unclamped forms */
    bool aligned;      /* see ShflSite */
    int nwrap;
    ShflWrap wrap[2];
    int8_t proved;     /* -1 not yet, 0 failed, 1 proved */
    bool by_z3;        /* proved by the solver itself (else: to be confirmed) */
} Cand;

static inline bool mentions_lane(const Ctx *c, const Term *t) { return shfl_mentions_lane(&c->lf, t); }

/* The reason a destination is not rewritten: the furthest stage wins. */
void shfl_set_why(Load *d, Why w, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Candidates of load di, cheapest |N| first (legal, not yet proved). */
int shfl_candidates(Ctx *c, Load *loads, int nloads, int di, Cand *out);
/* S's destination register still holds S's value at D. */
bool shfl_src_reg_survives(Ctx *c, const Load *s, const Load *d);

/* Wrap (wrap.c).  The widened indices of a (at most max, into out) whose
 * no-wrap premise value ranges do not prove; -1 when more than max. */
int shfl_index_wraps(const LaneFacts *lf, const Term *a, const Term **out, int max);
/* Rule 2: the index is %tid.x plus a multiple of 32 when %ntid.x is. */
bool shfl_index_aligned(const LaneFacts *lf, const Term *ext);
/* Rule 3: a per-lane check for the widened index ext of S's address, for
 * destination D and shift n; false when there is none. */
bool shfl_index_check(Ctx *c, const Load *s, const Load *d, const Term *ext, int64_t n, ShflWrap *w);

/* trips.c: how many times block b runs per thread (the product of its
 * loops' known trip counts); *assumed set when a loop's count is unknown
 * (counted as 1). */
double shfl_block_weight(Ctx *c, uint32_t b, bool *assumed);

/* ----------------------------------------------------------- proof */

/* t as lane l+n sees it (%tid.x and %laneid shifted by n). */
const Term *shfl_in_lane(Ctx *c, const Term *t, int64_t n);
bool shfl_proved(Ctx *c, Load *loads, int di, Cand *k);
bool shfl_confirm_sites(Ctx *c, Load *loads, const int *dst, Cand *const *chosen, int nsites, int *dropped);
void shfl_proof_remark(const Ctx *c, Remarks *rm, int nsites, int dropped, unsigned q);

/* ---------------------------------------------------------- profit */

/* A kernel's N != 0 sites, priced before and after in SM cycles per warp
 * (model/neighbour.h) as emit.c emits them (the plan), weighted by how
 * often each runs (trips.c). */
typedef struct Profit {
    double before, after;
    int sites;             /* N != 0 sites priced */
    double instrs, shuffles; /* warp instructions added per warp (shuffles included), shuffles */
    int lines, sectors;    /* L1 lines and sectors the loads no longer touch, per execution */
    const char *family;    /* the architecture family priced */
} Profit;
typedef struct ProfitWeights {
    const double *wd, *ws; /* [nsites] how often the destination / the source runs per thread */
    const bool *l1_cached; /* [nsites] the destination's load is served by L1 */
    double full_fraction;  /* the share of warps that are full (.reqntid with a partial warp; else 1) */
} ProfitWeights;
/* NULL cost: no gate for this target (below sm_70 the paper's policy). */
const struct NeighbourCost *shfl_profit_model(int sm);
Profit shfl_profit(const struct NeighbourCost *nc, const ShflSite *sites, const ProfitWeights *pw, int nsites,
                   const ShflPlan *plan);

#endif
