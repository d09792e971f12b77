/* costmodel.h — a GPUDIAG-style static cost model for ranking variants.
 *
 * Seed 004 (GPUDIAG, research/seeds-000-004-controlflow-sched.md §4–§5)
 * reduces a GPU to three parts; we implement them with the errata fixed:
 *
 *  1. limit checker (Eq. 3.1): can the launch happen at all?  We use the
 *     exact occupancy rules (occupancy.h) plus the grid-size limit.
 *  2. block scheduler (Eqs. 3.2, 3.3): N_slot blocks are resident per SM
 *     (= occ_compute().blocks_per_sm, which is Eq. 3.3 with E11 — the
 *     register term multiplied by the b warps of a block — and E16 —
 *     registers counted per thread, rounded per warp — fixed, plus the
 *     per-sub-partition rule of cuda_occupancy.h).  Each SM gets
 *     g = ceil(G / n_mp) blocks and runs them in waves:
 *         T(g, b) = floor(g / N_slot) * fu(b * N_slot) + fu(b * (g mod N_slot))
 *     with fu(0) = 0 (E15: Eq. 3.6's max{1, ...} would make an empty tail
 *     cost a whole period).
 *  3. functional units (Eqs. 3.4–3.6): a kernel is a loop body ("period")
 *     that issues n_u warp-instructions on unit u; P1 = P(1) (E12) is the
 *     latency of one period for one warp (its dependency chain).  Unit u has
 *     s_u groups, each serving a fixed quarter (etc.) of the warps, and
 *     t_u / m_u cycles per warp-instruction per group, so c resident warps
 *     keep it busy n_u * t_u * ceil(c / s_u) / m_u cycles per period (E13:
 *     divided by m_u, not multiplied) and
 *         fu(c) = 0                                                 if c = 0
 *               = max(1, max_u n_u * t_u * ceil(c / s_u) / (m_u * P1))  else
 *     The bottleneck is the unit attaining the max (E14: argmax of the busy
 *     time, including s_u; Eq. 3.5's argmin m/(t c) ignores s_u), or
 *     "latency" when the 1 (P1) dominates.
 *
 * Time is T * P1 cycles for one period of every block on one SM: relative,
 * good for ranking variants of one kernel on one input, not for absolute
 * predictions.  The model has no caches, memory bandwidth, atomics
 * contention, barrier skew or divergence; a result says how far to trust it
 * (confidence + reason), and every parameter carries its source.
 */
#ifndef PTXOPT_MODEL_COSTMODEL_H
#define PTXOPT_MODEL_COSTMODEL_H

#include <stdbool.h>

#include "model/arch.h"
#include "model/occupancy.h"

/* Instruction classes, one per functional unit the model knows.  The mix
 * counts issued warp-instructions (a divergent if/else counts both arms). */
typedef enum CostUnit {
    UNIT_FP32,      /* add/sub/mul/fma/min/max .f32 (and .f16x2) */
    UNIT_FP64,      /* the same on .f64 */
    UNIT_INT,       /* 32-bit integer arithmetic, logic, shifts, compare/select, mov */
    UNIT_SFU,       /* MUFU: sin cos ex2 lg2 rcp rsqrt sqrt tanh .approx */
    UNIT_CONVERT,   /* cvt */
    UNIT_SHUFFLE,   /* shfl.sync, vote.sync, match.sync, redux.sync */
    UNIT_SHARED,    /* ld/st/atom on .shared */
    UNIT_GLOBAL,    /* ld/st/atom on .global/.local/.const, tex; spills */
    UNIT_BRANCH,    /* bra, brx, call, ret, exit */
    UNIT_BARRIER,   /* bar/barrier.sync, bar.arrive, membar/fence */
    UNIT_ISSUE,     /* not a mix entry: every instruction takes an issue slot (computed) */
    UNIT_COUNT
} CostUnit;
#define UNIT_LATENCY UNIT_COUNT /* "bottleneck" when P1 (latency) dominates */

typedef enum ParamSource {
    PARAM_MEASURED,   /* calibrated on the device (none yet: no GPU so far) */
    PARAM_PUBLISHED,  /* vendor documentation or spec sheet */
    PARAM_GUESSED     /* assumed; see the cite string */
} ParamSource;

typedef enum CostConfidence { CONF_LOW, CONF_MEDIUM, CONF_HIGH } CostConfidence;

/* GPUDIAG's three parameters of a unit, plus where they come from. */
typedef struct UnitParams {
    double lanes_per_clock;     /* thread-operations per clock per SM */
    int groups;                 /* s_u: groups serving disjoint subsets of warps */
    double latency;             /* cycles until a dependent instruction may issue */
    ParamSource source;         /* of lanes_per_clock and groups */
    ParamSource latency_source;
    const char *cite;
} UnitParams;

typedef struct CostArch {
    const char *name;           /* "sm_80" (aliases resolve through arch_find) */
    int num_sms;                /* n_mp of the reference part */
    const char *part;           /* which part num_sms is from */
    ParamSource num_sms_source;
    UnitParams unit[UNIT_COUNT];
} CostArch;

/* The cost parameters of an architecture (any arch_find() spelling); NULL
 * when there are none. */
const CostArch *cost_arch_find(const char *name);
/* Every table entry, ascending; *count receives the number. */
const CostArch *cost_arch_table(int *count);

/* "fp32", "fp64", "int", "sfu", "convert", "shuffle", "shared", "global",
 * "branch", "barrier", "issue", and "latency" for UNIT_LATENCY. */
const char *cost_unit_name(int unit);
const char *cost_confidence_name(CostConfidence c);
const char *param_source_name(ParamSource s);

/* ------------------------------------------------------ the raw formulas */

/* A functional unit as GPUDIAG has it: t = inverse throughput of one copy
 * (cycles), m = copies per group (may be INFINITY: never busy), s = groups. */
typedef struct FuncUnit {
    double t, m;
    int s;
} FuncUnit;

/* fu(c) of Eq. 3.6 (errata fixed) for `count` units with per-period issue
 * counts n[]; *bottleneck (may be NULL) receives the index of the max unit,
 * or -1 when latency (P1) dominates or c == 0. */
double cost_fu(const FuncUnit *units, const double *n, int count, double p1, int c, int *bottleneck);

/* T(g, b) of Eq. 3.2 in periods (units of P1): g blocks on one SM, N_slot
 * resident at a time, b warps each.  Returns 0 if g <= 0 or n_slot <= 0. */
double cost_wave_time(const FuncUnit *units, const double *n, int count, double p1, long long g, int n_slot, int b);

/* The FuncUnit table of an architecture: t/m = warp_size * s / lanes, m = 1. */
void cost_arch_units(const CostArch *ca, const Arch *a, FuncUnit out[UNIT_COUNT]);

/* ------------------------------------------------------------- ranking */

typedef struct CostCandidate {
    const char *label;          /* the caller's name for it, e.g. "maxnreg=64" */
    OccInput launch;            /* block, registers, shared memory, barriers, grid_blocks;
                                   num_sms 0 = the reference part's */
    double mix[UNIT_COUNT];     /* warp-instructions per period per unit (UNIT_ISSUE ignored) */
    double p1_cycles;           /* latency of one period for one warp; 0 = estimate (serial chain) */
} CostCandidate;

typedef struct CostResult {
    const char *label;
    bool can_launch;
    const char *launch_error;   /* NULL, or why it cannot launch */
    Occupancy occ;              /* N_slot = occ.blocks_per_sm, its limiting resource */
    double p1_cycles;
    bool p1_estimated;
    long long blocks_per_sm;    /* g = ceil(G / n_mp); 0 when the grid is unknown */
    long long full_waves;       /* floor(g / N_slot) */
    int tail_blocks;            /* g mod N_slot */
    double time_periods;        /* T(g, b); per block in steady state when G is unknown */
    double time_cycles;         /* time_periods * P1 — the ranking key */
    int bottleneck;             /* CostUnit, or UNIT_LATENCY */
    const char *bottleneck_name;
    CostConfidence confidence;
    const char *confidence_reason;
    int rank;                   /* 1 = predicted fastest; launchable before impossible */
} CostResult;

/* Adds spill traffic from ptxas -v (bytes per thread) to mix[UNIT_GLOBAL],
 * assuming each 4-byte slot is stored and loaded `times_per_period` times. */
void cost_add_spills(double mix[UNIT_COUNT], long long spill_store_bytes, long long spill_load_bytes,
                     double times_per_period);

/* P1 if nothing better is known: every instruction depends on the previous
 * one, P1 = sum_u n_u * latency_u (an upper bound on the dependency chain). */
double cost_serial_p1(const CostArch *ca, const double mix[UNIT_COUNT]);

/* Evaluates one candidate. */
CostResult cost_evaluate(const CostArch *ca, const CostCandidate *cand);

/* Evaluates n candidates into res[] and ranks them: order[] (may be NULL)
 * receives candidate indices fastest first; res[i].rank is i's position.
 * Ties keep the callers' order. */
void cost_rank(const CostArch *ca, const CostCandidate *cands, int n, CostResult *res, int *order);

#endif
