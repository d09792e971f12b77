/* ptxopt-tune — register critical-point autotuning for PTX kernels
 * (man/ptxopt-tune.1; research/seed-002-reg-cache.md §1.4–1.6).
 *
 * For each kernel: find its register-effective range with ptxas (.maxnreg 1
 * gives the floor, .maxnreg at the launchable maximum the unconstrained
 * count), list the critical points inside it, build every variant (the
 * product of the dimensions, see tune.h, plus the baseline) with ptxopt's
 * regtune pass and ptxas -v, rank them with the occupancy and cost models,
 * and then either print the table (--dry-run) or time each with the user's
 * command and keep the fastest.  Kernels are tuned one at a time, the
 * others staying as in the input; the output combines every kernel's best.
 *
 * Exit status: 0 done, 1 bad input (or nothing could be measured),
 * 2 usage error, 3 internal error. */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "support/cleanup.h"
#include "tools/common/fileio.h"
#include "tools/ptxopt-tune/internal.h"
#include "ir/fatal.h"
#include "parser/parse.h"

/* ------------------------------------------------------- kernels */

static int perf_threads(const Function *fn, const char *name)
{
    int found = 0;
    for (uint32_t i = 0; i < fn->nperf; i++)
        if (str_eqc(fn->perf[i].name, name) && fn->perf[i].n) {
            long long x = 1;
            for (uint8_t k = 0; k < fn->perf[i].n; k++) x *= fn->perf[i].v[k];
            found = x > 0 && x < (1 << 20) ? (int)x : 0;
        }
    return found;
}

/* The kernels to tune, from the parsed input. */
static bool collect_kernels(Tuner *t, Module *m)
{
    Config *c = t->cfg;
    for (int i = 0; i < c->nkernels; i++) {
        bool found = false;
        for (uint32_t f = 0; f < m->nfuncs && !found; f++)
            found = m->funcs[f]->is_entry && m->funcs[f]->has_body && str_eqc(m->funcs[f]->name, c->kernels[i]);
        if (!found) {
            fprintf(stderr, "ptxopt-tune: %s: no kernel (.entry with a body) named '%s'\n", c->input, c->kernels[i]);
            return false;
        }
    }
    t->run.kernels = calloc(m->nfuncs ? m->nfuncs : 1, sizeof(TuneKernel));
    if (!t->run.kernels) fatal_oom();
    for (uint32_t f = 0; f < m->nfuncs; f++) {
        Function *fn = m->funcs[f];
        if (!fn->is_entry || !fn->has_body) continue;
        bool want = c->nkernels == 0;
        for (int i = 0; i < c->nkernels && !want; i++) want = str_eqc(fn->name, c->kernels[i]);
        if (!want) continue;
        TuneKernel *k = &t->run.kernels[t->run.nkernels++];
        k->name = strndup(fn->name.p, fn->name.len);
        if (!k->name) fatal_oom();
        k->best = -1;
        k->sampled = -1;
        k->smem_dynamic = c->dynamic_smem;
        if ((k->block = perf_threads(fn, ".reqntid"))) k->block_from = ".reqntid";
        else if ((k->block = perf_threads(fn, ".maxntid"))) k->block_from = ".maxntid";
        else if ((k->block = (int)c->block)) k->block_from = "--block";
        else k->block = 256, k->block_from = "assumed", k->universal = true;
        tune_instruction_mix(fn, k->mix);
        if (!c->no_regs) k->dims[k->ndims++] = tune_regs_dim();
        for (int d = 0; d < c->ndims; d++) k->dims[k->ndims++] = c->dims[d];
        if (c->sfu.enabled) {
            c->sfu.tuner = t;
            k->dims[k->ndims++] = tune_sfu_dim(&c->sfu);
        }
    }
    if (!t->run.nkernels) {
        fprintf(stderr, "ptxopt-tune: %s: no kernel to tune (no .entry with a body)\n", c->input);
        return false;
    }
    return true;
}

/* ------------------------------------------------------------- variants */

static Variant *new_variant(Tuner *t, TuneKernel *k)
{
    if (t->run.nvariants == t->cap_variants) {
        t->cap_variants = t->cap_variants ? t->cap_variants * 2 : 32;
        t->run.variants = realloc(t->run.variants, sizeof(Variant) * (size_t)t->cap_variants);
        if (!t->run.variants) fatal_oom();
    }
    Variant *v = &t->run.variants[t->run.nvariants];
    memset(v, 0, sizeof *v);
    v->id = t->run.nvariants++;
    v->kernel = k;
    v->duplicate_of = -1;
    v->median = NAN;
    v->predicted_cycles = v->predicted_cycles_dynamic = NAN;
    v->launch_overhead = NAN;
    return v;
}

static void take_stats(Variant *v, const PtxasRun *pr)
{
    const PtxasStats *s = ptxas_stats_of(pr, v->kernel->name);
    if (s) v->st = *s;
    v->code_hash = pr->code_hash;
}

static void describe(char *buf, size_t n, const Variant *v)
{
    const TuneKernel *k = v->kernel;
    size_t off = (size_t)snprintf(buf, n, "%s v%d", k->name, v->id);
    if (v->baseline) snprintf(buf + off, n - off, " baseline");
    for (int d = 0; d < k->ndims && v->value[d] && off < n; d++)
        off += (size_t)snprintf(buf + off, n - off, " %s=%s", k->dims[d].name, v->value[d]);
}

/* Builds variant v (its PTX and cubin) and fills its ptxas figures. */
static void build_variant(Tuner *t, Variant *v, const Variant *first)
{
    TuneKernel *k = v->kernel;
    v->ptx_path = xasprintf("%s/v%d.ptx", t->workdir, v->id);
    v->cubin_path = xasprintf("%s/v%d.cubin", t->workdir, v->id);
    char *log = xasprintf("%s/v%d.ptxas.log", t->workdir, v->id);
    char *why = NULL;
    if (!tune_build_ptx(t, v->pipeline, v->ptx_path, k->name, &why, NULL)) {
        v->status = V_BUILD_FAILED;
        v->error = why ? why : strdup("ptxopt failed");
    } else {
        PtxasRun pr = tune_ptxas(t, v->ptx_path, v->cubin_path, log);
        if (!pr.ok) {
            v->status = V_BUILD_FAILED;
            v->error = strdup(pr.error);
        } else {
            take_stats(v, &pr);
            v->status = V_OK;
            for (const Variant *o = first; o < v; o++)
                if ((o->status == V_OK || o->status == V_MEASURE_FAILED) && o->code_hash && o->code_hash == v->code_hash) {
                    v->status = V_DUPLICATE;
                    v->duplicate_of = o->id;
                    break;
                }
        }
        ptxas_run_free(&pr);
    }
    free(log);
}

/* --sass: the kernel's SASS classes in every built variant's cubin (a
 * duplicate has its original's code).  A cubin nvdisasm cannot read leaves
 * that variant without (and the model on its PTX mix), with a note. */
static void read_sass(Tuner *t, TuneKernel *k)
{
    for (int i = 0; i < k->nvariants; i++) {
        Variant *v = &t->run.variants[k->first_variant + i];
        if (v->status == V_DUPLICATE) {
            for (int j = 0; j < i; j++) {
                const Variant *o = &t->run.variants[k->first_variant + j];
                if (o->id != v->duplicate_of) continue;
                v->has_sass = o->has_sass;
                memcpy(v->sass, o->sass, sizeof v->sass);
                v->sass_total = o->sass_total;
            }
            continue;
        }
        if (v->status != V_OK || !v->cubin_path) continue;
        SassModule m;
        char err[1024];
        if (!sass_read_cubin(t->sass, v->cubin_path, &m, err, sizeof err)) {
            tune_progress(t, "v%d: no SASS: %s", v->id, err);
            continue;
        }
        const SassKernel *sk = sass_kernel(&m, k->name);
        if (sk) {
            v->has_sass = true;
            memcpy(v->sass, sk->count, sizeof v->sass);
            v->sass_total = sk->total;
        }
        sass_module_free(&m);
    }
}

/* With the sfu dimension, every variant of the kernel is ranked by the
 * emulator's dynamic mix of its sfu value (the static code of a split
 * kernel holds both copies); false when some variant of k has none. */
static bool sfu_dynamic_mix(Tuner *t, const TuneKernel *k, const Variant *v, double mix[UNIT_COUNT])
{
    if (!t->cfg->sfu.enabled) return false;
    int d = 0;
    while (d < k->ndims && strcmp(k->dims[d].name, "sfu") != 0) d++;
    if (d == k->ndims) return false;
    for (int i = 0; i < k->nvariants; i++) {
        const Variant *w = &t->run.variants[k->first_variant + i];
        double m[UNIT_COUNT];
        if (!tune_sfu_mix(&t->cfg->sfu, k->name, w->baseline ? NULL : w->value[d], m)) return false;
    }
    return tune_sfu_mix(&t->cfg->sfu, k->name, v->baseline ? NULL : v->value[d], mix);
}

/* Fills the model's view of every built variant of k and ranks them.
 * predicted_cycles is always the model on the static mix (the PTX's, or
 * the SASS's with --sass), so the column has one unit for every variant of
 * every run; with the sfu dimension the model also runs on the emulator's
 * issue counts of the launch (predicted_cycles_dynamic, another unit: a
 * whole warp's run, not one pass over the code), and that ranks them (the
 * static code of a split kernel holds both copies of the region). */
static void rank_kernel(Tuner *t, TuneKernel *k)
{
    if (t->sass) read_sass(t, k);
    const CostArch *ca = cost_arch_find(t->arch_name);
    int n = k->nvariants;
    CostCandidate *cc = calloc((size_t)n, sizeof *cc), *dyn = calloc((size_t)n, sizeof *dyn);
    CostResult *res = calloc((size_t)n, sizeof *res), *dres = calloc((size_t)n, sizeof *dres);
    int *idx = calloc((size_t)n, sizeof *idx), m = 0;
    if (!cc || !dyn || !res || !dres || !idx) fatal_oom();
    bool dynamic = true;
    for (int i = 0; i < n; i++) {
        Variant *v = &t->run.variants[k->first_variant + i];
        v->predicted_cycles = v->predicted_cycles_dynamic = NAN;
        if (v->status != V_OK && v->status != V_DUPLICATE) continue;
        OccInput in = occ_input(k->block, v->st.regs);
        in.smem_static = v->st.smem;
        in.smem_dynamic = k->smem_dynamic;
        in.barriers = v->st.barriers;
        in.grid_blocks = t->cfg->grid;
        v->occ = occ_compute(t->arch, &in);
        CostCandidate *c = &cc[m];
        c->label = v->pipeline;
        c->launch = in;
        if (v->has_sass) {
            tune_sass_mix(v->sass, c->mix);   /* the spill traffic is in it: STL, LDL */
        } else {
            memcpy(c->mix, k->mix, sizeof c->mix);
            cost_add_spills(c->mix, v->st.spill_stores, v->st.spill_loads, 1.0);
        }
        dyn[m] = *c;
        if (sfu_dynamic_mix(t, k, v, dyn[m].mix)) cost_add_spills(dyn[m].mix, v->st.spill_stores, v->st.spill_loads, 1.0);
        else dynamic = false;
        idx[m++] = k->first_variant + i;
    }
    k->rank_dynamic = ca && m && dynamic;
    if (ca && m) {
        cost_rank(ca, cc, m, res, NULL);
        if (k->rank_dynamic) cost_rank(ca, dyn, m, dres, NULL);
        const CostResult *by = k->rank_dynamic ? dres : res;
        for (int j = 0; j < m; j++) {
            Variant *v = &t->run.variants[idx[j]];
            v->rank = by[j].rank;
            v->predicted_cycles = res[j].can_launch ? res[j].time_cycles : NAN;
            if (k->rank_dynamic) v->predicted_cycles_dynamic = dres[j].can_launch ? dres[j].time_cycles : NAN;
            v->bottleneck = by[j].can_launch ? by[j].bottleneck_name : by[j].launch_error;
            v->confidence = cost_confidence_name(by[j].confidence);
        }
    } else {
        /* no cost parameters: more resident warps first, then fewer spills */
        for (int j = 0; j < m; j++) {
            Variant *v = &t->run.variants[idx[j]];
            v->rank = 1;
            for (int o = 0; o < m; o++) {
                Variant *w = &t->run.variants[idx[o]];
                long long sv = v->st.spill_stores + v->st.spill_loads, sw = w->st.spill_stores + w->st.spill_loads;
                bool better = w->occ.active_warps > v->occ.active_warps ||
                              (w->occ.active_warps == v->occ.active_warps && (sw < sv || (sw == sv && o < j)));
                if (o != j && better) v->rank++;
            }
            v->bottleneck = "occupancy";
            v->confidence = "low";
        }
    }
    free(cc), free(dyn), free(res), free(dres), free(idx);
}

/* What pruning and sampling left of k's space, on one progress line. */
static void progress_space(const Tuner *t, const TuneKernel *k, long nbuild)
{
    char dims[512] = "";
    size_t off = 0;
    for (int d = 0; d < k->ndims && off < sizeof dims; d++)
        off += (size_t)snprintf(dims + off, sizeof dims - off, "%s%s %d+off", d ? " x " : "", k->dims[d].name,
                                k->dims[d].nvalues);
    char sampled[96] = "";
    if (k->sampled >= 0)
        snprintf(sampled, sizeof sampled, ", %ld sampled (--seed=%llu)", k->sampled, t->cfg->seed);
    tune_progress(t, "%s: space %s: %ld points besides the baseline; pruned %ld not applicable, %ld by constraints%s; "
                     "%ld to build",
                  k->name, dims, k->points, k->pruned_inapplicable, k->pruned_constraint, sampled, nbuild);
}

/* Enumerates, builds and ranks the variants of kernel k. */
static bool plan_kernel(Tuner *t, TuneKernel *k, const PtxasRun *base, const PtxasRun *floor_run, const PtxasRun *top_run,
                        const char *base_ptx, const char *base_cubin)
{
    const PtxasStats *b = ptxas_stats_of(base, k->name), *lo = ptxas_stats_of(floor_run, k->name),
                     *hi = ptxas_stats_of(top_run, k->name);
    if (!b || !lo || !hi) {
        k->skip = xasprintf("ptxas -v printed no figures for it");
        return true;
    }
    k->default_regs = b->regs;
    k->smem_static = b->smem;
    k->floor_regs = lo->regs;
    k->top_regs = hi->regs > b->regs ? hi->regs : b->regs;
    k->top_clamp = k->top_regs;
    if (t->cfg->maxrregcount && k->top_clamp > t->cfg->maxrregcount) k->top_clamp = (int)t->cfg->maxrregcount;
    for (int d = 0; d < k->ndims; d++)
        if (k->dims[d].values_for) k->dims[d].values_for(&k->dims[d], t->arch, k);
    long *points, npoints;
    int planned = tune_plan_points(t, k, &points, &npoints);
    if (planned < 0) return false;
    if (k->skip) return true;
    progress_space(t, k, npoints);
    if (npoints > t->cfg->max_variants) {
        k->skip = xasprintf("%ld variants to build, more than --max-variants=%ld", npoints, t->cfg->max_variants);
        free(points);
        return true;
    }
    k->first_variant = t->run.nvariants;
    Variant *v0 = new_variant(t, k);
    v0->baseline = true;
    v0->pipeline = strdup("");
    v0->ptx_path = strdup(base_ptx);
    v0->cubin_path = strdup(base_cubin);
    v0->status = V_OK;
    take_stats(v0, base);
    for (long i = 0; i < npoints; i++) {
        char *value[TUNE_MAX_DIMS] = { 0 };
        tune_space_at(k, points[i], value);
        Variant *v = new_variant(t, k);
        memcpy(v->value, value, sizeof value);
        v->pipeline = tune_pipeline(k, value);
    }
    free(points);
    k->nvariants = t->run.nvariants - k->first_variant;
    const Variant *first = &t->run.variants[k->first_variant]; /* no variant is added from here on */
    for (int i = 0; i < k->nvariants; i++) {
        Variant *v = &t->run.variants[k->first_variant + i];
        if (!v->baseline) build_variant(t, v, first);
        char what[256];
        describe(what, sizeof what, v);
        if (v->status == V_BUILD_FAILED)
            tune_progress(t, "[%d/%d] %s: FAILED: %s", i + 1, k->nvariants, what, v->error);
        else if (v->status == V_DUPLICATE)
            tune_progress(t, "[%d/%d] %s: %d registers, same code as v%d", i + 1, k->nvariants, what, v->st.regs,
                          v->duplicate_of);
        else
            tune_progress(t, "[%d/%d] %s: %d registers, spills %lld/%lld B, stack %lld B", i + 1, k->nvariants, what,
                          v->st.regs, v->st.spill_stores, v->st.spill_loads, v->st.stack);
    }
    rank_kernel(t, k);
    return true;
}

/* ---------------------------------------------------------- measure, pick */

typedef struct MeasureProgress {
    Tuner *t;
    const char *report;          /* rewritten as each variant finishes, or NULL */
    int todo, done;
} MeasureProgress;

/* The report, written whole or not at all: a signal waits until it is
 * renamed into place (the previous one stays whole before that). */
static bool write_report(const TuneRun *run, const char *path)
{
    sigset_t old;
    cleanup_hold(&old);
    bool ok = tune_write_report(run, path);
    cleanup_release(&old);
    return ok;
}

static void write_partial_report(MeasureProgress *mp)
{
    /* after a failed write, stop trying: the final write says it again */
    if (mp->report && !write_report(&mp->t->run, mp->report)) mp->report = NULL;
}

static void variant_measured(Variant *v, void *ctx)
{
    MeasureProgress *mp = ctx;
    char what[256], launch[128] = "";
    describe(what, sizeof what, v);
    if (isfinite(v->launch_overhead))
        snprintf(launch, sizeof launch, "; Slurm submission overhead %.3f s%s", v->launch_overhead,
                 v->launch_resubmits ? ", submitted again after a lost job" : "");
    if (v->measured)
        tune_progress(mp->t, "measure [%d/%d] %s: %.6g (median of %d%s%s)", ++mp->done, mp->todo, what, v->median, v->nruns,
                      v->resumed ? ", from the report resumed" : "", launch);
    else
        tune_progress(mp->t, "measure [%d/%d] %s: FAILED: %s%s", ++mp->done, mp->todo, what, v->error, launch);
    write_partial_report(mp);
}

/* --strategy=model: only the baseline and the --top best-ranked variants
 * of each kernel are measured (duplicates have their original's code). */
static bool model_pick(const Tuner *t, const Variant *v)
{
    if (t->cfg->strategy != STRAT_MODEL || v->baseline) return true;
    const TuneKernel *k = v->kernel;
    long better = 0;
    for (int i = 0; i < k->nvariants; i++) {
        const Variant *w = &t->run.variants[k->first_variant + i];
        if (w != v && !w->baseline && w->status == V_OK && w->rank &&
            (w->rank < v->rank || (w->rank == v->rank && w->id < v->id)))
            better++;
    }
    return v->rank && better < t->cfg->top;
}

/* --launcher=slurm: what the submissions cost, in all. */
static void launch_summary(const Tuner *t)
{
    double sum = 0, *per = calloc((size_t)t->run.nvariants + 1, sizeof *per);
    if (!per) fatal_oom();
    int n = 0, again = 0;
    for (int i = 0; i < t->run.nvariants; i++) {
        const Variant *v = &t->run.variants[i];
        if (!isfinite(v->launch_overhead)) continue;
        per[n++] = v->launch_overhead;
        sum += v->launch_overhead;
        again += v->launch_resubmits;
    }
    if (n)
        tune_progress(t, "Slurm: %d variant%s sent through srun: submission overhead %.3f s per variant (median), "
                         "%.3f s in all; %d run%s submitted again after a lost job",
                      n, n == 1 ? "" : "s", tune_median(per, n), sum, again, again == 1 ? "" : "s");
    free(per);
}

/* Measures every built variant of every tuned kernel, --jobs at a time:
 * one pool for the whole run, so that no slot idles at a kernel's end.
 * Variants the resumed report holds are taken from it. */
static void measure_all(Tuner *t, TuneResume *resume, const char *report)
{
    MeasureSpec ms = { .cmd = t->cfg->measure, .repeat = (int)t->cfg->repeat, .timeout = t->cfg->timeout,
                       .arch = t->arch_name, .workdir = t->workdir, .baseline_ptx = t->base_ptx,
                       .baseline_cubin = t->base_cubin, .jobs = (int)t->cfg->jobs,
                       .launcher = t->cfg->slurm ? &t->cfg->launcher : NULL, .log = t->cfg->quiet ? NULL : stderr };
    MeasureProgress mp = { .t = t, .report = report };
    Variant **todo = calloc((size_t)t->run.nvariants + 1, sizeof *todo);
    if (!todo) fatal_oom();
    int n = 0;
    for (int i = 0; i < t->run.nvariants; i++) {
        Variant *v = &t->run.variants[i];
        if (v->status == V_OK && !v->kernel->skip && model_pick(t, v)) todo[n++] = v;
    }
    mp.todo = n;
    int m = 0;
    for (int i = 0; i < n; i++) {
        char what[256];
        switch (tune_resume_apply(resume, todo[i], ms.repeat)) {
        case RESUME_TAKEN: variant_measured(todo[i], &mp); continue;
        case RESUME_CHANGED:
            describe(what, sizeof what, todo[i]);
            tune_progress(t, "%s: its machine code differs from the report's: measured again", what);
            break;
        case RESUME_OTHER_REPEAT:
            describe(what, sizeof what, todo[i]);
            tune_progress(t, "%s: the report has another number of runs than --repeat=%d: measured again", what, ms.repeat);
            break;
        case RESUME_NONE: break;
        }
        todo[m++] = todo[i];
    }
    write_partial_report(&mp); /* the plan, before the first command runs */
    /* rounds: every variant at once, except where a bypass dimension's
     * search (bypass.c) picks the next points from the times so far */
    char *tried = calloc((size_t)t->run.nvariants + 1, 1);
    Variant **batch = calloc((size_t)t->run.nvariants + 1, sizeof *batch);
    if (!tried || !batch) fatal_oom();
    for (int i = 0; i < t->run.nvariants; i++) tried[i] = 1;
    for (int i = 0; i < m; i++) tried[todo[i]->id] = 0;
    tune_bypass_flat_pct = t->cfg->min_gain > 1.0 ? t->cfg->min_gain : 1.0;
    tune_search_early_exit = t->cfg->strategy == STRAT_EARLY_EXIT;
    int nb;
    while ((nb = tune_search_next(t->run.variants, t->run.nvariants, tried, batch, t->cfg->quiet ? NULL : stderr)) > 0) {
        for (int i = 0; i < nb; i++) tried[batch[i]->id] = 1;
        mp.todo = mp.done + nb;
        tune_measure_all(&ms, batch, nb, variant_measured, &mp);
    }
    for (int i = 0; i < t->run.nvariants; i++) {
        Variant *v = &t->run.variants[i];
        if (v->status == V_OK && !v->kernel->skip && !v->measured && (!tried[v->id] || !model_pick(t, v))) v->skipped = true;
    }
    free(tried), free(batch);
    free(todo);
    if (ms.launcher) launch_summary(t);
}

static void pick_best(Tuner *t, TuneKernel *k)
{
    int best = -1;
    const Variant *base = NULL;
    for (int i = 0; i < k->nvariants; i++) {
        Variant *v = &t->run.variants[k->first_variant + i];
        if (v->baseline) base = v;
        if (t->cfg->dry_run) {
            if (v->status == V_OK && v->rank && (best < 0 || v->rank < t->run.variants[best].rank)) best = k->first_variant + i;
        } else if (v->measured && (best < 0 || v->median < t->run.variants[best].median)) {
            best = k->first_variant + i;
        }
    }
    if (best >= 0 && !t->cfg->dry_run && base && base->measured && !t->run.variants[best].baseline &&
        !(t->run.variants[best].median < base->median * (1.0 - t->cfg->min_gain / 100.0)))
        best = (int)(base - t->run.variants);
    k->best = best;
    if (best >= 0) t->run.variants[best].best = true;
}

/* Writes the combination of every kernel's best to the output. */
static bool write_output(Tuner *t)
{
    size_t len = 0;
    char *pl = calloc(1, 1);
    for (int i = 0; i < t->run.nkernels; i++) {
        const TuneKernel *k = &t->run.kernels[i];
        if (k->best < 0 || !*t->run.variants[k->best].pipeline) continue;
        const char *p = t->run.variants[k->best].pipeline;
        pl = realloc(pl, len + strlen(p) + 2);
        if (!pl) fatal_oom();
        if (len) pl[len++] = ',';
        memcpy(pl + len, p, strlen(p) + 1);
        len += strlen(p);
    }
    char *ptx = xasprintf("%s/best.ptx", t->workdir), *cubin = xasprintf("%s/best.cubin", t->workdir),
         *log = xasprintf("%s/best.ptxas.log", t->workdir);
    char *why = NULL;
    bool ok = tune_build_ptx(t, pl, ptx, NULL, &why, NULL);
    if (ok) {
        PtxasRun pr = tune_ptxas(t, ptx, cubin, log);
        if (!pr.ok) why = strdup(pr.error);
        ok = pr.ok;
        ptxas_run_free(&pr);
    }
    if (ok) {
        size_t n;
        char *buf = read_file(ptx, &n, stderr);
        sigset_t old;
        cleanup_hold(&old);   /* a signal waits: no temporary file is left */
        ok = buf && write_file_atomic(t->cfg->output, buf, n);
        cleanup_release(&old);
        free(buf);
    } else {
        fprintf(stderr, "ptxopt-tune: the combined best variant failed: %s\n", why ? why : "?");
    }
    free(why), free(pl), free(ptx), free(cubin), free(log);
    return ok;
}

/* ---------------------------------------------------------------- setup */

static bool setup_workdir(Tuner *t)
{
    if (t->cfg->workdir) {
        if (mkdir(t->cfg->workdir, 0777) != 0 && errno != EEXIST) {
            fprintf(stderr, "ptxopt-tune: cannot create %s: %s\n", t->cfg->workdir, strerror(errno));
            return false;
        }
        /* ptxas, the measure command and the tuner write files of fixed
         * names in it, following links: only a directory no one else can
         * put a link into is safe (issue 26) */
        struct stat st;
        const char *why = stat(t->cfg->workdir, &st) != 0 ? strerror(errno)
                          : !S_ISDIR(st.st_mode) ? "not a directory"
                          : st.st_uid != geteuid() ? "owned by another user"
                          : (st.st_mode & (S_IWGRP | S_IWOTH)) ? "writable by others (chmod go-w it)" : NULL;
        if (why) {
            fprintf(stderr, "ptxopt-tune: --workdir=%s: %s\n", t->cfg->workdir, why);
            return false;
        }
        t->workdir = strdup(t->cfg->workdir);
        return true;
    }
    const char *tmp = getenv("TMPDIR");
    t->workdir = xasprintf("%s/ptxopt-tune.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    /* a signal that ends us removes it too, unless it is to be kept */
    if (!(t->cfg->keep ? mkdtemp(t->workdir) : cleanup_mkdtemp(t->workdir))) {
        fprintf(stderr, "ptxopt-tune: cannot create a temporary directory: %s\n", strerror(errno));
        return false;
    }
    t->temp_workdir = true;
    return true;
}

/* The temporary directory, and whatever is in it. */
static void remove_workdir(Tuner *t)
{
    cleanup_remove_dir(t->workdir);
}

static bool resolve_arch(Tuner *t, Module *m)
{
    Config *c = t->cfg;
    static char from_file[32];
    const char *name = c->arch_opt;
    if (!name) {
        Str tg = m->target;
        const char *p = NULL;
        for (size_t i = 0; i + 3 <= tg.len; i++)
            if (memcmp(tg.p + i, "sm_", 3) == 0) { p = tg.p + i; break; }
        size_t n = 0;
        while (p && p + n < tg.p + tg.len && n < sizeof from_file - 1 && p[n] != ',' && p[n] != ' ' && p[n] != '\t') n++;
        if (!p) {
            fprintf(stderr, "ptxopt-tune: %s: no sm_XX in the .target directive; give --arch\n", c->input);
            return false;
        }
        memcpy(from_file, p, n);
        from_file[n] = 0;
        name = from_file;
    }
    /* the check ptxopt --target makes (model/arch.h); the canonical name
     * is what the variants' .target and ptxas -arch get */
    static char canon[32];
    char err[512];
    int sm = 0;
    t->arch = arch_parse_target(name, canon, sizeof canon, &sm, err, sizeof err) ? arch_by_sm(sm) : NULL;
    if (!t->arch) {
        if (sm) snprintf(err, sizeof err, "no resource limits known for %s (model/arch_data.c)", canon);
        fprintf(stderr, "ptxopt-tune: %s: %s\n", c->input, err);
        return false;
    }
    t->arch_name = canon;
    t->arch_sm = t->arch->sm;
    t->retarget = c->arch_opt != NULL;
    return true;
}

static void free_run(Tuner *t)
{
    for (int i = 0; i < t->run.nvariants; i++) {
        Variant *v = &t->run.variants[i];
        free(v->pipeline), free(v->ptx_path), free(v->cubin_path), free(v->error), free(v->times);
    }
    free(t->run.variants);
    for (int i = 0; i < t->run.nkernels; i++) {
        TuneKernel *k = &t->run.kernels[i];
        free(k->name), free(k->skip);
        for (int j = 0; j < k->nprunes; j++) free(k->prunes[j].value), free(k->prunes[j].reason);
        free(k->prunes);
        for (int d = 0; d < k->ndims; d++) /* per-kernel values are the kernel's; the others the Config's */
            if (k->dims[d].values_for)
                for (int j = 0; j < k->dims[d].nvalues; j++) free(k->dims[d].values[j]);
    }
    free(t->run.kernels);
    free(t->workdir);
}

int main(int argc, char **argv)
{
    Config cfg;
    tune_parse_args(argc, argv, &cfg);
    Tuner t = { .cfg = &cfg };
    /* A signal from here on (support/cleanup.h) ends the running commands
     * with all they started (SIGTERM to each one's process group, SIGKILL
     * 2 s later, 20 s for srun), removes a temporary working directory, says so, and
     * ends the tuner by the same signal; nothing a command reports after
     * it is recorded.  SIGTERM is what asks srun or ssh to stop cleanly. */
    cleanup_install();
    cleanup_forward_as(SIGTERM);
    if (cfg.slurm) cleanup_set_grace_ms(20000);
    cleanup_set_message("ptxopt-tune: interrupted by ", "; stopped the running commands\n");
    char *ptxas = tune_find_ptxas(&cfg);
    if (!ptxas) {
        fputs("ptxopt-tune: ptxas not found (give --ptxas=PATH or set PTXAS)\n", stderr);
        tune_config_free(&cfg);
        return ST_BAD_INPUT;
    }
    cfg.ptxas = ptxas;
    SassTools sass_tools;
    if (cfg.sass) {
        char err[1024];
        if (!sass_tools_find(&sass_tools, err, sizeof err)) {
            fprintf(stderr, "ptxopt-tune: --sass: %s\n", err);
            free(ptxas);
            tune_config_free(&cfg);
            return ST_USAGE;
        }
        t.sass = &sass_tools;
    }
    Module *m = parse_file(cfg.input, stderr);
    if (!m) {
        free(ptxas);
        if (t.sass) sass_tools_free(t.sass);
        tune_config_free(&cfg);
        return ST_BAD_INPUT;
    }
    bool ok = resolve_arch(&t, m) && collect_kernels(&t, m);
    ir_module_free(m);
    /* --resume's report is read before anything is built: a wrong file is
     * an error at once, not after the builds */
    TuneResume *resume = NULL;
    if (ok && cfg.resume) resume = tune_resume_load(cfg.resume, cfg.measure, &ok);
    if (!ok || !setup_workdir(&t)) {
        tune_resume_free(resume);
        free(ptxas);
        if (t.sass) sass_tools_free(t.sass);
        free_run(&t);
        tune_config_free(&cfg);
        return ST_BAD_INPUT;
    }
    t.run.input = cfg.input;
    t.run.arch = t.arch_name;
    t.run.output = cfg.output;
    t.run.dry_run = cfg.dry_run;
    t.run.measured = !cfg.dry_run;
    t.run.sass = cfg.sass;
    t.run.repeat = (int)cfg.repeat;
    t.run.measure_cmd = cfg.measure;
    t.run.cache = resume;
    t.run.strategy = tune_strategy_name(cfg.strategy);
    t.run.nconstraints = cfg.nconstraints;
    t.run.constraints = cfg.constraints;

    int status = ST_OK;
    /* the baseline: the input as it is (retargeted when --arch says so) */
    char *base_ptx = xasprintf("%s/baseline.ptx", t.workdir), *base_cubin = xasprintf("%s/baseline.cubin", t.workdir),
         *base_log = xasprintf("%s/baseline.ptxas.log", t.workdir);
    t.base_ptx = base_ptx;
    t.base_cubin = base_cubin;
    /* the report: --report, else the file resumed from (so that a second
     * interruption loses nothing either) */
    const char *report = cfg.report ? cfg.report : cfg.resume;
    char *why = NULL;
    PtxasRun base = { 0 }, lo = { 0 }, hi = { 0 };
    if (!tune_build_ptx(&t, "", base_ptx, NULL, &why, NULL)) {
        fprintf(stderr, "ptxopt-tune: %s: %s\n", cfg.input, why ? why : "cannot read the input");
        status = ST_BAD_INPUT;
        goto out;
    }
    base = tune_ptxas(&t, base_ptx, base_cubin, base_log);
    if (!base.ok) {
        fprintf(stderr, "ptxopt-tune: %s: ptxas rejects the input: %s\n", cfg.input, base.error);
        status = ST_BAD_INPUT;
        goto out;
    }
    if (!tune_probe_range(&t, &lo, &hi, &why)) {
        /* e.g. a kernel that uses setmaxnreg: the pass refuses it */
        for (int i = 0; i < t.run.nkernels; i++)
            if (!t.run.kernels[i].skip) t.run.kernels[i].skip = xasprintf("the register probes failed");
        fprintf(stderr, "ptxopt-tune: %s: probing the register range failed: %s\n", cfg.input, why ? why : "?");
        status = ST_BAD_INPUT;
    } else {
        tune_progress(&t, "%s for %s: %d kernel%s; baseline, floor and top probes assembled", cfg.input, t.arch_name,
                      t.run.nkernels, t.run.nkernels == 1 ? "" : "s");
        for (int i = 0; i < t.run.nkernels && status == ST_OK; i++)
            if (!t.run.kernels[i].skip && !plan_kernel(&t, &t.run.kernels[i], &base, &lo, &hi, base_ptx, base_cubin))
                status = ST_USAGE;   /* a constraint that cannot be evaluated */
        if (status == ST_USAGE) goto out;
    }
    if (!cfg.dry_run && status == ST_OK) measure_all(&t, resume, report);
    /* every kernel that was tuned needs a winner; skipped ones stay as they are */
    bool all_picked = true;
    for (int i = 0; i < t.run.nkernels; i++) {
        if (t.run.kernels[i].skip) continue;
        pick_best(&t, &t.run.kernels[i]);
        all_picked &= t.run.kernels[i].best >= 0;
    }
    t.run.complete = true;
    tune_print_table(&t.run, stdout);
    fflush(stdout);
    if (report && !write_report(&t.run, report)) status = ST_BAD_INPUT;
    if (cfg.plot && status != ST_USAGE && !tune_plot(&t.run, cfg.plot, t.workdir)) status = ST_BAD_INPUT;
    if (!all_picked) {
        fprintf(stderr, "ptxopt-tune: %s: no variant of some kernel could be %s\n", cfg.input, cfg.dry_run ? "built" : "measured");
        status = ST_BAD_INPUT;
    } else if (cfg.output && !write_output(&t)) {
        status = ST_BAD_INPUT;
    }
    for (int i = 0; i < t.run.nkernels; i++) {
        const TuneKernel *k = &t.run.kernels[i];
        if (k->best < 0) continue;
        const Variant *v = &t.run.variants[k->best];
        char what[256];
        describe(what, sizeof what, v);
        if (v->measured) tune_progress(&t, "best: %s (%d registers, time %.6g)", what, v->st.regs, v->median);
        else tune_progress(&t, "best (predicted): %s (%d registers, rank %d)", what, v->st.regs, v->rank);
    }
out:
    /* a temporary directory is kept for a dry run's table (its paths) and
     * on request; a failed run leaves nothing behind */
    if (t.temp_workdir && (!cfg.dry_run || status != ST_OK) && !cfg.keep) remove_workdir(&t);
    else if (t.temp_workdir) tune_progress(&t, "variants are in %s", t.workdir);
    ptxas_run_free(&base), ptxas_run_free(&lo), ptxas_run_free(&hi);
    tune_resume_free(resume);
    free(why), free(base_ptx), free(base_cubin), free(base_log), free(ptxas);
    if (t.sass) sass_tools_free(t.sass);
    free_run(&t);
    tune_config_free(&cfg);
    return status;
}
