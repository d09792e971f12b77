/* costmodel.c — GPUDIAG's limit checker, wave formula and fu(c), errata fixed
 * (see costmodel.h for the equations and which erratum each line fixes). */
#include "model/costmodel.h"

#include <stddef.h>
#include <stdlib.h>

/* Share of memory/barrier instructions above which the result is LOW
 * confidence (and MEDIUM above the second): the model has no caches,
 * bandwidth limits or synchronization skew. */
#define MEMORY_SHARE_LOW 0.25
#define MEMORY_SHARE_MEDIUM 0.10
#define MAX_GRID_BLOCKS 2147483647LL /* gridDim.x limit, CUDA Programming Guide */

const CostArch *cost_arch_find(const char *name)
{
    const Arch *a = arch_find(name);
    if (!a)
        return NULL;
    int n;
    const CostArch *t = cost_arch_table(&n);
    for (int i = 0; i < n; i++)
        if (arch_find(t[i].name) == a)
            return &t[i];
    return NULL;
}

const char *cost_unit_name(int unit)
{
    static const char *const names[UNIT_COUNT + 1] = {
        [UNIT_FP32] = "fp32",     [UNIT_FP64] = "fp64",       [UNIT_INT] = "int",
        [UNIT_SFU] = "sfu",       [UNIT_CONVERT] = "convert", [UNIT_SHUFFLE] = "shuffle",
        [UNIT_SHARED] = "shared", [UNIT_GLOBAL] = "global",   [UNIT_BRANCH] = "branch",
        [UNIT_BARRIER] = "barrier", [UNIT_ISSUE] = "issue",   [UNIT_LATENCY] = "latency",
    };
    return unit >= 0 && unit <= UNIT_COUNT ? names[unit] : "?";
}

const char *cost_confidence_name(CostConfidence c)
{
    return c == CONF_HIGH ? "high" : c == CONF_MEDIUM ? "medium" : "low";
}

const char *param_source_name(ParamSource s)
{
    return s == PARAM_MEASURED ? "measured" : s == PARAM_PUBLISHED ? "published" : "guessed";
}

/* ------------------------------------------------------- the formulas */

double cost_fu(const FuncUnit *units, const double *n, int count, double p1, int c, int *bottleneck)
{
    if (bottleneck)
        *bottleneck = -1;
    if (c <= 0)
        return 0.0;                      /* E15: an empty tail costs nothing */
    double worst = p1;                   /* the max{1, ...} of Eq. 3.6, in cycles */
    for (int u = 0; u < count; u++) {
        if (n[u] <= 0 || units[u].s <= 0 || !(units[u].m > 0))
            continue;
        long long per_group = (c + units[u].s - 1) / units[u].s;   /* ceil(c / s_u) */
        double busy = n[u] * units[u].t * (double)per_group / units[u].m;  /* E13: / m_u; m = inf -> 0 */
        if (busy > worst) {              /* E14: the argmax of busy time, s_u included */
            worst = busy;
            if (bottleneck)
                *bottleneck = u;
        }
    }
    return p1 > 0 ? worst / p1 : worst;  /* P1 = P(1) (E12) normalises */
}

double cost_wave_time(const FuncUnit *units, const double *n, int count, double p1, long long g, int n_slot, int b)
{
    if (g <= 0 || n_slot <= 0 || b <= 0)
        return 0.0;
    long long waves = g / n_slot;
    int tail = (int)(g % n_slot);
    return (double)waves * cost_fu(units, n, count, p1, b * n_slot, NULL) +
           cost_fu(units, n, count, p1, b * tail, NULL);
}

void cost_arch_units(const CostArch *ca, const Arch *a, FuncUnit out[UNIT_COUNT])
{
    for (int u = 0; u < UNIT_COUNT; u++) {
        const UnitParams *p = &ca->unit[u];
        out[u].s = p->groups > 0 ? p->groups : 1;
        out[u].m = 1.0;
        /* A warp-instruction needs warp_size lanes of one group, which has
         * lanes_per_clock / s lanes: t = warp_size * s / lanes cycles. */
        out[u].t = p->lanes_per_clock > 0 ? a->warp_size * out[u].s / p->lanes_per_clock : 0.0;
    }
}

/* ------------------------------------------------------------- ranking */

void cost_add_spills(double mix[UNIT_COUNT], long long spill_store_bytes, long long spill_load_bytes,
                     double times_per_period)
{
    if (spill_store_bytes > 0)
        mix[UNIT_GLOBAL] += (double)((spill_store_bytes + 3) / 4) * times_per_period;
    if (spill_load_bytes > 0)
        mix[UNIT_GLOBAL] += (double)((spill_load_bytes + 3) / 4) * times_per_period;
}

double cost_serial_p1(const CostArch *ca, const double mix[UNIT_COUNT])
{
    double p1 = 0.0;
    for (int u = 0; u < UNIT_ISSUE; u++)
        if (mix[u] > 0)
            p1 += mix[u] * ca->unit[u].latency;
    return p1;
}

static void mix_with_issue(const double in[UNIT_COUNT], double out[UNIT_COUNT], double *total)
{
    *total = 0.0;
    for (int u = 0; u < UNIT_ISSUE; u++) {
        out[u] = in[u] > 0 ? in[u] : 0.0;
        *total += out[u];
    }
    out[UNIT_ISSUE] = *total;
}

/* How far to trust a result, and why (the first reason that applies). */
static void judge(const CostArch *ca, const double mix[UNIT_COUNT], double total, CostResult *r)
{
    double memory = mix[UNIT_GLOBAL] + mix[UNIT_BARRIER];
    double share = total > 0 ? memory / total : 0.0;
    r->confidence = CONF_HIGH;
    r->confidence_reason = "compute-bound mix with published unit throughputs";
    if (share >= MEMORY_SHARE_LOW) {
        r->confidence = CONF_LOW;
        r->confidence_reason = "memory and barrier instructions dominate; caches, bandwidth and sync are not modelled";
        return;
    }
    if (r->bottleneck < UNIT_COUNT && ca->unit[r->bottleneck].source == PARAM_GUESSED) {
        r->confidence = CONF_LOW;
        r->confidence_reason = "the bottleneck unit's throughput is guessed";
        return;
    }
    if (share >= MEMORY_SHARE_MEDIUM) {
        r->confidence = CONF_MEDIUM;
        r->confidence_reason = "a notable share of memory/barrier instructions, which are not modelled";
    } else if (r->p1_estimated) {
        r->confidence = CONF_MEDIUM;
        r->confidence_reason = "P1 estimated as a serial chain of latencies";
    } else if (r->bottleneck == UNIT_LATENCY) {
        r->confidence = CONF_MEDIUM;
        r->confidence_reason = "latency-bound: the answer rests on P1";
    }
}

CostResult cost_evaluate(const CostArch *ca, const CostCandidate *cand)
{
    CostResult r = { 0 };
    r.label = cand->label;
    r.bottleneck = UNIT_LATENCY;
    r.bottleneck_name = cost_unit_name(UNIT_LATENCY);
    const Arch *a = ca ? arch_find(ca->name) : NULL;
    if (!a) {
        r.launch_error = "no parameters for this architecture";
        r.confidence_reason = r.launch_error;
        return r;
    }

    /* 1. limit checker (Eq. 3.1) and N_slot (Eq. 3.3, E11 and E16 fixed):
     * the hardware residency, without the grid term (waves handle it). */
    OccInput launch = cand->launch;
    launch.grid_blocks = 0;
    launch.num_sms = 0;
    r.occ = occ_compute(a, &launch);
    if (r.occ.error != OCC_OK)
        r.launch_error = occ_error_message(r.occ.error);
    else if (cand->launch.grid_blocks > MAX_GRID_BLOCKS || cand->launch.grid_blocks < 0)
        r.launch_error = "cannot launch: more blocks than a grid may have";
    r.can_launch = r.launch_error == NULL;
    if (!r.can_launch) {
        r.confidence = CONF_HIGH;
        r.confidence_reason = "the architecture's limits are data";
        return r;
    }

    /* 3. functional units: fu(c) with this arch's units and the mix. */
    FuncUnit units[UNIT_COUNT];
    cost_arch_units(ca, a, units);
    double mix[UNIT_COUNT], total;
    mix_with_issue(cand->mix, mix, &total);
    r.p1_cycles = cand->p1_cycles;
    if (!(r.p1_cycles > 0)) {
        r.p1_cycles = cost_serial_p1(ca, mix);
        r.p1_estimated = true;
    }
    if (!(r.p1_cycles > 0))
        r.p1_cycles = 1.0;           /* an empty body: one cycle, only ranks by waves */

    /* 2. block scheduler (Eq. 3.2): g blocks per SM in waves of N_slot. */
    int b = r.occ.warps_per_block, n_slot = r.occ.blocks_per_sm;
    int bottleneck;
    double fu_full = cost_fu(units, mix, UNIT_COUNT, r.p1_cycles, b * n_slot, &bottleneck);
    r.bottleneck = bottleneck < 0 ? UNIT_LATENCY : bottleneck;
    r.bottleneck_name = cost_unit_name(r.bottleneck);
    int num_sms = cand->launch.num_sms > 0 ? cand->launch.num_sms : ca->num_sms;
    if (cand->launch.grid_blocks > 0 && num_sms > 0) {
        r.blocks_per_sm = (cand->launch.grid_blocks + num_sms - 1) / num_sms;
        r.full_waves = r.blocks_per_sm / n_slot;
        r.tail_blocks = (int)(r.blocks_per_sm % n_slot);
        r.time_periods = cost_wave_time(units, mix, UNIT_COUNT, r.p1_cycles, r.blocks_per_sm, n_slot, b);
    } else {
        r.time_periods = fu_full / n_slot;   /* steady state, per block */
    }
    r.time_cycles = r.time_periods * r.p1_cycles;
    judge(ca, mix, total, &r);
    return r;
}

/* Launchable first, then by time. */
static bool faster(const CostResult *a, const CostResult *b)
{
    if (a->can_launch != b->can_launch)
        return a->can_launch;
    return a->can_launch && a->time_cycles < b->time_cycles;
}

void cost_rank(const CostArch *ca, const CostCandidate *cands, int n, CostResult *res, int *order)
{
    if (n <= 0)
        return;
    int *idx = order ? order : malloc(sizeof *idx * (size_t)n);
    if (!idx)
        return;
    /* Insertion sort: stable (ties keep the callers' order), and candidate
     * lists are a handful of entries. */
    for (int i = 0; i < n; i++) {
        res[i] = cost_evaluate(ca, &cands[i]);
        int j = i;
        while (j > 0 && faster(&res[i], &res[idx[j - 1]])) {
            idx[j] = idx[j - 1];
            j--;
        }
        idx[j] = i;
    }
    for (int pos = 0; pos < n; pos++)
        res[idx[pos]].rank = pos + 1;
    if (!order)
        free(idx);
}
