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
} LaneFacts;

/* Does t mention %tid.x or %laneid? */
bool shfl_mentions_lane(const LaneFacts *lf, const Term *t);
/* The first subterm of t (S's address, S outside every loop) that is not
 * a function of the lane and may differ between lanes l and l+N, or NULL
 * when every such subterm is proven warp-uniform. */
const Term *shfl_lane_varying(const LaneFacts *lf, const Term *t, int depth);
/* Do two threads' values of the 32-bit term x differ by less than 2^31
 * (value ranges from the launch limits)? */
bool shfl_zext_no_wrap(const Term *x);
/* The first zero-extended 32-bit index in a that mentions the lane and
 * may wrap between lanes (shfl_zext_no_wrap fails), or NULL. */
const Term *shfl_unsigned_may_wrap(const LaneFacts *lf, const Term *a, int depth);

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
} ShflSite;

typedef struct ShflEmitOptions {
    bool no_corner;    /* ablation: no fallback load */
    bool no_load;      /* ablation: no shuffle, no load */
    bool row_guard;    /* the block shape may put two tid.y rows in one warp */
    bool full_warps;   /* .reqntid: every warp has 32 threads */
    bool version;      /* may version the kernel on full warps (emit.c) */
} ShflEmitOptions;

/* What shfl_emit did besides the sites. */
typedef struct ShflEmitResult {
    bool need_mask;    /* a site with delta != 0 and no no-load: needs activemask/PTX 6.2 */
    bool versioned;    /* full warps run the rewritten body, partial warps a copy of the original */
    const char *no_version; /* why a kernel that would have been versioned was not (NULL: it was, or no need) */
} ShflEmitResult;

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
    bool unsign;        /* unsigned indices that may wrap (with the runtime address check) */
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
    WHY_NONE, WHY_NO_EARLIER, WHY_TYPE, WHY_NOT_DOMINATED, WHY_ITERATION, WHY_NO_SHIFT, WHY_CLAMP_OFF, WHY_LOOP_OFF, WHY_LANE_VARYING, WHY_UNSIGNED,
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

/* ----------------------------------------------------------- proof */

/* t as lane l+n sees it (%tid.x and %laneid shifted by n). */
const Term *shfl_in_lane(Ctx *c, const Term *t, int64_t n);
bool shfl_proved(Ctx *c, Load *loads, int di, Cand *k);
bool shfl_confirm_sites(Ctx *c, Load *loads, const int *dst, Cand *const *chosen, int nsites, int *dropped);
void shfl_proof_remark(const Ctx *c, Remarks *rm, int nsites, int dropped, unsigned q);

/* ---------------------------------------------------------- profit */

/* A kernel's N != 0 sites, priced before and after in SM cycles per warp
 * (model/neighbour.h), each site counted once. */
typedef struct Profit {
    double before, after;
    int sites;             /* N != 0 sites priced */
    int instrs, shuffles;  /* warp instructions added (shuffles included), shuffles */
    int lines, sectors;    /* L1 lines and sectors the loads no longer touch */
    const char *family;    /* the architecture family priced */
} Profit;
/* NULL cost: no gate for this target (below sm_70 the paper's policy). */
const struct NeighbourCost *shfl_profit_model(int sm);
/* Price the sites; l1_cached[i] tells whether site i's load is served by L1. */
Profit shfl_profit(const struct NeighbourCost *nc, const ShflSite *sites, const bool *l1_cached, int nsites, bool row_guard);

#endif
