/* sfu.c — ptxopt-tune's sfu dimension: the split ratio lambda of the
 * sfu pass (warps of each CTA sent to the approximate copy), chosen by the
 * thesis's HEU search against a quality-of-service bound
 * (research/seed-002-sfu-lock.md §2.6; man/ptxopt-tune.1).
 *
 * Why a search and not the product of values: every lambda costs an
 * emulator run, and the answer is "the largest lambda whose output error
 * stays within the QoS" (time falls and error grows with lambda), which
 * regula falsi finds in a few runs because E(lambda) is nearly linear.
 *
 * E(lambda) is measured in the emulator: the kernel rewritten with
 * sfu<lambda=L;key=KEY[;OPTIONS]> runs under --approx=bound (every
 * approximate instruction at the worst end of its documented error, so the
 * error is an upper estimate) against the input run under the same model,
 * on the user's launch (--sfu-launch), with the pluggable metric
 * (--error-metric, mean relative error by default).  The candidate run's
 * emulator counters under the hanoi policy (SFU against FMA/ALU issues,
 * deterministic) are kept as the variant's dynamic mix, which the cost
 * model ranks by when there is no GPU (tune_sfu_mix), and printed beside each
 * sample as the cost signal when there is no GPU; the chosen lambda then
 * becomes the dimension's one value, built with ptxas and ranked (or
 * timed with --measure) against the baseline like any variant.
 *
 * The search itself is heu.c (Lambda = W, the warps of a CTA). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/ptxopt-tune/internal.h"
#include "emu/emu.h"
#include "ir/fatal.h"
#include "parser/parse.h"

/* ---------------------------------------------------- the launch option */

bool tune_sfu_parse_launch(TuneSfu *s, const char *text, char *err, size_t errsz)
{
    emu_launch_init(&s->L);
    s->text = strdup(text);
    char *copy = strdup(text), *save = NULL;
    if (!s->text || !copy) fatal_oom();
    bool ok = true;
    for (char *tok = strtok_r(copy, " \t\n", &save); tok && ok; tok = strtok_r(NULL, " \t\n", &save)) {
        char *v = strchr(tok, '=');
        if (!v) { snprintf(err, errsz, "--sfu-launch: '%s' is not OPTION=VALUE", tok); ok = false; break; }
        *v++ = 0;
        if (strcmp(tok, "--grid") == 0) ok = emu_dims_parse(v, s->L.grid);
        else if (strcmp(tok, "--block") == 0) ok = emu_dims_parse(v, s->L.block);
        else if (strcmp(tok, "--shared-dyn") == 0) s->L.shared_dyn = (uint32_t)strtoul(v, NULL, 10);
        else if (strcmp(tok, "--arg") == 0) {
            if (s->nargs == TUNE_SFU_MAX_ARGS) { snprintf(err, errsz, "--sfu-launch: too many --arg"); return false; }
            char why[300];
            if (!emu_arg_parse(v, &s->args[s->nargs], why, sizeof why)) {
                snprintf(err, errsz, "--sfu-launch: --arg=%s: %s", v, why);
                emu_arg_free(&s->args[s->nargs]);
                ok = false;
                break;
            }
            s->nargs++;
            continue;
        } else if (strcmp(tok, "--outputs") == 0) {
            s->has_outputs = true;
            for (char *p = v; *p;) {
                char *end;
                long k = strtol(p, &end, 10);
                if (end == p || k < 0 || k >= TUNE_SFU_MAX_ARGS || (*end && *end != ',')) { ok = false; break; }
                s->outputs[k] = true;
                p = *end ? end + 1 : end;
            }
        } else {
            snprintf(err, errsz, "--sfu-launch: unknown launch option '%s' (--grid, --block, --shared-dyn, --arg, --outputs)", tok);
            free(copy);
            return false;
        }
        if (!ok) snprintf(err, errsz, "--sfu-launch: bad value '%s' for %s", v, tok);
    }
    free(copy);
    if (ok && !s->nargs) { snprintf(err, errsz, "--sfu-launch: no --arg: the kernel's outputs are needed to measure an error"); ok = false; }
    s->L.args = s->args;
    s->L.nargs = s->nargs;
    s->L.approx.mode = EMU_APPROX_BOUND;
    s->L.policy = EMU_POLICY_HANOI;   /* deterministic issue counts (ITS's random splits inflate them) */
    return ok;
}

void tune_sfu_free(TuneSfu *s)
{
    for (int i = 0; i < s->nmix; i++) free(s->mix[i].kernel);
    free(s->mix);
    s->mix = NULL;
    s->nmix = s->capmix = 0;
    for (int i = 0; i < s->nargs; i++) emu_arg_free(&s->args[i]);
    free(s->text);
    s->text = NULL;
    free(s->fragment);
    s->fragment = NULL;
    s->nargs = 0;
}

/* -------------------------------------------------------- the dimension */

typedef struct Probe {
    TuneSfu *s;
    const TuneKernel *k;
    EmuProgram *ref;
} Probe;

/* Emulator classes -> cost-model units, per warp of the launch. */
static void keep_mix(TuneSfu *s, const char *kernel, int lambda, const EmuCounters *c)
{
    static const signed char unit[EMU_CLS_COUNT] = {
        [EMU_CLS_ALU] = UNIT_INT, [EMU_CLS_FMA] = UNIT_FP32, [EMU_CLS_SFU] = UNIT_SFU, [EMU_CLS_MEM] = UNIT_GLOBAL,
        [EMU_CLS_SHUFFLE] = UNIT_SHUFFLE, [EMU_CLS_BARRIER] = UNIT_BARRIER, [EMU_CLS_BRANCH] = UNIT_BRANCH,
        [EMU_CLS_OTHER] = UNIT_INT,
    };
    if (s->nmix == s->capmix) {
        s->capmix = s->capmix ? 2 * s->capmix : 16;
        s->mix = realloc(s->mix, sizeof *s->mix * (size_t)s->capmix);
        if (!s->mix) fatal_oom();
    }
    struct TuneSfuMix *m = &s->mix[s->nmix++];
    m->kernel = strdup(kernel);
    if (!m->kernel) fatal_oom();
    m->lambda = lambda;
    memset(m->mix, 0, sizeof m->mix);
    uint64_t threads = (uint64_t)s->L.block[0] * s->L.block[1] * s->L.block[2];
    uint64_t warps = (uint64_t)s->L.grid[0] * s->L.grid[1] * s->L.grid[2] * ((threads + 31) / 32);
    for (int i = 0; i < EMU_CLS_COUNT; i++) m->mix[unit[i]] += (double)c->issued[i] / (double)(warps ? warps : 1);
}

bool tune_sfu_mix(const TuneSfu *s, const char *kernel, const char *value, double mix[UNIT_COUNT])
{
    int lambda = value ? atoi(value) : -1;
    for (int pass = 0; pass < 2; pass++) {
        for (int i = 0; i < s->nmix; i++)
            if (s->mix[i].lambda == lambda && strcmp(s->mix[i].kernel, kernel) == 0) {
                memcpy(mix, s->mix[i].mix, sizeof s->mix[i].mix);
                return true;
            }
        if (lambda != 0) return false;
        lambda = -1;   /* lambda 0 runs what the input runs */
    }
    return false;
}

/* E(lambda): build, run both, measure.  NAN after a message. */
static double measure(int lambda, void *ctx)
{
    Probe *pr = ctx;
    TuneSfu *s = pr->s;
    Tuner *t = s->tuner;
    char *frag = xasprintf("sfu<lambda=%d;key=%s%s%s>", lambda, s->key, s->options ? ";" : "", s->options ? s->options : "");
    char *path = xasprintf("%s/sfu-%s-l%d.ptx", t->workdir, pr->k->name, lambda);
    char *why = NULL;
    double e = NAN;
    if (!tune_build_ptx(t, frag, path, pr->k->name, &why, NULL)) {
        tune_progress(t, "sfu: %s lambda=%d: ptxopt %s failed: %s", pr->k->name, lambda, frag, why ? why : "");
    } else {
        Module *m = parse_file(path, stderr);
        EmuProgram *p = m ? emu_program_new(m, stderr) : NULL;
        EmuErrorAcc per[TUNE_SFU_MAX_ARGS], all;
        EmuCounters c;
        char err[2048];
        EmuLaunch L = s->L;
        L.kernel = pr->k->name;
        if (p && emu_output_error(pr->ref, p, &L, s->has_outputs ? s->outputs : NULL, per, &all, &c, err, sizeof err)) {
            e = emu_error_value(&all, s->metric);
            keep_mix(s, pr->k->name, lambda, &c);
            tune_progress(t, "sfu: %s lambda=%d: error %s %.6g (emulator, --approx=bound); issued sfu %llu fma %llu alu %llu total %llu",
                          pr->k->name, lambda, emu_metric_name(s->metric), e, (unsigned long long)c.issued[EMU_CLS_SFU],
                          (unsigned long long)c.issued[EMU_CLS_FMA], (unsigned long long)c.issued[EMU_CLS_ALU],
                          (unsigned long long)c.issued_total);
        } else if (p) {
            tune_progress(t, "sfu: %s lambda=%d: %s", pr->k->name, lambda, err);
        }
        if (p) emu_program_free(p);
        if (m) ir_module_free(m);
    }
    free(why), free(frag), free(path);
    return e;
}

static void sfu_values(TuneDim *d, const Arch *a, const TuneKernel *k)
{
    (void)a;
    TuneSfu *s = d->ctx;
    Tuner *t = s->tuner;
    for (int i = 0; i < d->nvalues; i++) free(d->values[i]);
    d->nvalues = 0;
    uint64_t threads = (uint64_t)s->L.block[0] * s->L.block[1] * s->L.block[2];
    int W = (int)((threads + 31) / 32);
    Module *m = parse_file(t->base_ptx, stderr);
    EmuProgram *ref = m ? emu_program_new(m, stderr) : NULL;
    if (ref) {   /* the baseline's dynamic mix */
        EmuLaunch L = s->L;
        L.kernel = k->name;
        EmuResult r;
        if (emu_run(ref, &L, &r) == EMU_OK) keep_mix(s, k->name, -1, &r.counters);
        else tune_progress(t, "sfu: %s: the input does not run in the emulator: %s", k->name, r.message ? r.message : "");
        emu_result_free(&r);
    }
    Probe pr = { s, k, ref };
    TuneHeu h;
    bool ok = ref && tune_heu(W, s->qos, s->qos_ratio, measure, &pr, &h);
    if (ref) emu_program_free(ref);
    if (m) ir_module_free(m);
    if (!ok) {
        tune_progress(t, "sfu: %s: the search stopped (see above); lambda 0 (the original) kept", k->name);
        d->values[d->nvalues++] = strdup("0");
        return;
    }
    tune_progress(t, "sfu: %s: W=%d warps per CTA, QoS %s <= %g%s: lambda=%d after %d emulator run%s", k->name, W,
                  emu_metric_name(s->metric), h.qos, s->qos_ratio > 0 ? " (--qos-ratio x the all-approximate error)" : "",
                  h.lambda, h.nruns, h.nruns == 1 ? "" : "s");
    d->values[d->nvalues++] = xasprintf("%d", h.lambda);
}

TuneDim tune_sfu_dim(TuneSfu *s)
{
    TuneDim d;
    memset(&d, 0, sizeof d);
    d.name = "sfu";
    /* one fragment for every kernel's dimension (freed by tune_sfu_free) */
    if (!s->fragment)
        s->fragment = xasprintf("sfu<lambda=%%v;key=%s%s%s>", s->key, s->options ? ";" : "", s->options ? s->options : "");
    d.fragment = s->fragment;
    d.values_for = sfu_values;
    d.ctx = s;
    return d;
}
