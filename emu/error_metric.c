/* error_metric.c — how far a rewritten kernel's outputs are from the
 * original's (ptxopt-emu --error-metric, ptxopt-tune's sfu dimension).
 *
 * Why: an approximation pass (sfu) is judged by the error of the
 * application's output, not bit equality (research/seed-002-sfu-lock.md
 * §2.6: mean relative error of the final output against the precise run,
 * with the metric pluggable).  Metrics over the element pairs (a = the
 * reference, b = the candidate) of the output buffers:
 *
 *   mre     mean of |b - a| / |a|           (the thesis's; the default)
 *   maxrel  max of  |b - a| / |a|
 *   maxabs  max of  |b - a|
 *   rmse    sqrt(mean of (b - a)^2)
 *
 * A relative error with a == 0 is 0 when b == 0 too and 1 otherwise (the
 * convention of AxBench-style quality metrics, so one zero does not make
 * the mean infinite).  Equal NaNs are no error; a NaN on one side only
 * makes every metric infinite (it is counted and reported).  Integer
 * buffers count as numbers (a float result converted to an integer at the
 * end is still measured).  Both runs use the launch's --approx model:
 * it is a deterministic function of each instruction's inputs, so the code
 * a rewrite left alone (say the ex2.approx inside nvcc's precise expf)
 * computes the same values in both, and an unchanged kernel measures 0.
 *
 * A race makes the error meaningless: the outputs then depend on the
 * schedule, and an unchanged but re-laid-out kernel (a bypass rewrite)
 * "measured" a mean relative error of 0.1 against its original under one
 * seed.  So each program also runs under more schedules (ITS seeds and
 * hanoi) and must give the same outputs every time; otherwise the
 * measurement fails, saying which program and where (issue 25 item 8). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/fp.h"
#include "emu/internal.h"

bool emu_metric_parse(const char *s, EmuMetric *m)
{
    static const char *names[] = { "mre", "maxrel", "maxabs", "rmse" };
    for (int i = 0; i < 4; i++)
        if (strcmp(s, names[i]) == 0) { *m = (EmuMetric)i; return true; }
    return false;
}

const char *emu_metric_name(EmuMetric m)
{
    switch (m) {
    case EMU_METRIC_MAXREL: return "maxrel";
    case EMU_METRIC_MAXABS: return "maxabs";
    case EMU_METRIC_RMSE: return "rmse";
    default: return "mre";
    }
}

double emu_buffer_value(const EmuBuffer *b, size_t i)
{
    size_t es = emu_type_size(b->type);
    uint64_t v = 0;
    memcpy(&v, b->data + i * es, es);
    switch (b->type) {
    case EMU_T_U8: case EMU_T_U16: case EMU_T_U32: case EMU_T_U64: return (double)v;
    case EMU_T_S8: return (double)(int8_t)v;
    case EMU_T_S16: return (double)(int16_t)v;
    case EMU_T_S32: return (double)(int32_t)v;
    case EMU_T_S64: return (double)(int64_t)v;
    case EMU_T_F16: return f16_to_double((uint16_t)v);
    case EMU_T_BF16: return bf16_to_double((uint16_t)v);
    case EMU_T_F32: return f32_of(v);
    default: return f64_of(v);
    }
}

void emu_error_add(EmuErrorAcc *acc, double a, double b)
{
    acc->n++;
    if (isnan(a) || isnan(b)) {
        if (isnan(a) && isnan(b)) return;
        acc->nan_mismatch++;
        return;
    }
    if (a == b) return;   /* also equal infinities */
    double d = fabs(b - a);
    double rel = a == 0 ? 1.0 : d / fabs(a);
    acc->sum_rel += rel;
    if (rel > acc->max_rel) acc->max_rel = rel;
    if (d > acc->max_abs) acc->max_abs = d;
    acc->sum_sq += d * d;
}

void emu_error_merge(EmuErrorAcc *into, const EmuErrorAcc *from)
{
    into->n += from->n;
    into->nan_mismatch += from->nan_mismatch;
    into->sum_rel += from->sum_rel;
    into->sum_sq += from->sum_sq;
    if (from->max_rel > into->max_rel) into->max_rel = from->max_rel;
    if (from->max_abs > into->max_abs) into->max_abs = from->max_abs;
}

double emu_error_value(const EmuErrorAcc *acc, EmuMetric m)
{
    if (acc->nan_mismatch) return INFINITY;
    if (!acc->n) return 0;
    switch (m) {
    case EMU_METRIC_MAXREL: return acc->max_rel;
    case EMU_METRIC_MAXABS: return acc->max_abs;
    case EMU_METRIC_RMSE: return sqrt(acc->sum_sq / (double)acc->n);
    default: return acc->sum_rel / (double)acc->n;
    }
}

/* Did the run write buffer k (its contents differ from the launch's)? */
static bool written(const EmuLaunch *L, const EmuResult *r, int k)
{
    char err[256];
    uint8_t *init = emu_arg_buffer_data(&L->args[k], err, sizeof err);
    if (!init) return true;
    bool w = memcmp(init, r->bufs[k].data, r->bufs[k].size) != 0;
    free(init);
    return w;
}

/* "its seed 3", "hanoi" */
static void schedule_name(char *dst, size_t n, const EmuLaunch *L)
{
    if (L->policy == EMU_POLICY_ITS) snprintf(dst, n, "its seed %llu", (unsigned long long)L->seed);
    else snprintf(dst, n, "%s", emu_policy_name(L->policy));
}

int emu_schedule_check(EmuProgram *p, const EmuLaunch *L, int seeds, const EmuResult *own, const bool *outputs, char *err,
                       size_t errlen)
{
    for (int i = 0; i <= seeds; i++) {
        EmuLaunch Ls = *L;
        Ls.policy = i < seeds ? EMU_POLICY_ITS : EMU_POLICY_HANOI;
        Ls.seed = L->seed + (uint64_t)(i < seeds ? i : 0);
        Ls.trace = false;
        if (Ls.policy == L->policy && (Ls.policy != EMU_POLICY_ITS || Ls.seed == L->seed)) continue; /* L's own */
        char a[48], b[48];
        schedule_name(a, sizeof a, L);
        schedule_name(b, sizeof b, &Ls);
        EmuResult r;
        if (emu_run(p, &Ls, &r) != EMU_OK) {
            snprintf(err, errlen, "it does not run under %s: %s", b, r.message ? r.message : "failed");
            emu_result_free(&r);
            return -1;
        }
        for (int k = 0; k < own->nbufs && k < r.nbufs && k < L->nargs; k++) {
            const EmuBuffer *x = &own->bufs[k], *y = &r.bufs[k];
            if (!x->data || !y->data || (outputs ? !outputs[k] : !written(L, own, k))) continue;
            size_t es = emu_type_size(x->type), n = x->count < y->count ? x->count : y->count, nd = 0, first = 0;
            for (size_t e = 0; e < n; e++)
                if (memcmp(x->data + e * es, y->data + e * es, es) != 0 && !nd++) first = e;
            if (!nd) continue;
            char va[64], vb[64];
            emu_format_element(va, sizeof va, x, first);
            emu_format_element(vb, sizeof vb, y, first);
            snprintf(err, errlen, "%zu element%s of argument %d (%s) differ between %s and %s (element %zu: %s and %s)", nd,
                     nd == 1 ? "" : "s", k, L->args[k].spec, a, b, first, va, vb);
            emu_result_free(&r);
            return 1;
        }
        emu_result_free(&r);
    }
    return 0;
}

/* The reference's or the candidate's check, in emu_output_error's words. */
static int schedule_check(EmuProgram *p, const EmuLaunch *L, int seeds, const EmuResult *own, const bool *out, const char *who,
                          char *err, size_t errlen)
{
    char why[1024];
    int sd = emu_schedule_check(p, L, seeds, own, out, why, sizeof why);
    if (sd > 0) snprintf(err, errlen, "the %s is schedule-dependent on this launch: %s; its output error is not defined", who, why);
    else if (sd < 0) snprintf(err, errlen, "the %s: %s", who, why);
    return sd;
}

bool emu_output_error(EmuProgram *ref, EmuProgram *cand, const EmuLaunch *L, const bool *outputs, int seeds, EmuErrorAcc *per,
                      EmuErrorAcc *all, EmuCounters *cand_counters, EmuScheduleDep *dep, char *err, size_t errlen)
{
    EmuLaunch La = *L, Lb = *L;
    EmuResult ra, rb;
    memset(all, 0, sizeof *all);
    if (dep) *dep = EMU_SCHED_INDEPENDENT;
    for (int k = 0; k < L->nargs; k++) memset(&per[k], 0, sizeof per[k]);
    EmuStatus sa = emu_run(ref, &La, &ra);
    if (sa != EMU_OK) {
        snprintf(err, errlen, "the reference does not run: %s", ra.message ? ra.message : "failed");
        emu_result_free(&ra);
        return false;
    }
    EmuStatus sb = emu_run(cand, &Lb, &rb);
    if (sb != EMU_OK) {
        snprintf(err, errlen, "the candidate does not run: %s", rb.message ? rb.message : "failed");
        emu_result_free(&ra);
        emu_result_free(&rb);
        return false;
    }
    if (cand_counters) *cand_counters = rb.counters;
    bool *out = calloc((size_t)L->nargs + 1, sizeof *out);
    if (!out) abort();
    for (int k = 0; k < L->nargs && k < ra.nbufs && k < rb.nbufs; k++)
        out[k] = ra.bufs[k].data && rb.bufs[k].data && (outputs ? outputs[k] : written(L, &ra, k));
    for (int k = 0; k < L->nargs && k < ra.nbufs && k < rb.nbufs; k++) {
        const EmuBuffer *a = &ra.bufs[k], *b = &rb.bufs[k];
        if (!out[k]) continue;
        per[k].measured = true;
        size_t n = a->count < b->count ? a->count : b->count;
        for (size_t i = 0; i < n; i++) emu_error_add(&per[k], emu_buffer_value(a, i), emu_buffer_value(b, i));
        emu_error_merge(all, &per[k]);
        all->measured = true;
    }
    /* a race: the outputs of one schedule against another's are noise, so
     * both programs must give the same outputs under every schedule tried */
    int sd = all->measured ? schedule_check(ref, L, seeds, &ra, out, "reference", err, errlen) : 0;
    if (sd > 0 && dep) *dep = EMU_SCHED_REFERENCE;
    if (!sd && all->measured) {
        sd = schedule_check(cand, L, seeds, &rb, out, "candidate", err, errlen);
        if (sd > 0 && dep) *dep = EMU_SCHED_CANDIDATE;
    }
    free(out);
    emu_result_free(&ra);
    emu_result_free(&rb);
    if (sd) return false;
    if (!all->measured) {
        snprintf(err, errlen, "no output buffer: the reference wrote none of its buffer arguments (name them with --outputs)");
        return false;
    }
    return true;
}
