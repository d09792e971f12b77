/* fingerprints.c — the library sites of a function: the calls of sinf,
 * cosf, expf, exp10f, logf, log2f, powf and tanhf that nvcc inlined,
 * recognised by the generated fingerprints (fplib.c, match.c; research
 * §2.4, checklist S2).
 *
 * Every value of the function defined the way a fingerprint's output is
 * (by the same opcode, or as a merge of paths) is a candidate; the first
 * fingerprint whose whole value graph matches it makes a site.  The site's
 * approximate code goes where the output is defined: in place of the
 * instruction that defined it, or at the start of the block where the
 * region's paths merge.  A value already taken by a site is not matched
 * again (fingerprints of one function overlap: -ftz and not).
 *
 * Misses are said, not silent: an instruction with an anchor immediate of
 * a function (fplib.c) that no site's region holds is the remains of a
 * call the pass cannot replace; it gets "resembles F ... not recognised"
 * with what the deepest attempt that reached it found different. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opt/sfu/internal.h"
#include "analysis/ssa.h"

typedef struct Attempt {
    int progress;
    int fp;
    uint32_t value;        /* the output candidate */
    char why[200];
} Attempt;

/* The deepest failed attempt of func's family whose output candidate the
 * values of instruction i flow into (forward through registers). */
static const Attempt *attempt_after(const Cfg *c, const Ssa *s, uint32_t i, const Attempt *att, int natt, const char *fam,
                                    const char *(*family)(const char *))
{
    uint8_t *seen = calloc(s->nvalues ? s->nvalues : 1, 1);
    uint32_t *stack = malloc(sizeof *stack * (s->nvalues + 1));
    uint32_t n = 0, visited = 0;
    for (uint32_t d = s->def_start[i]; d < s->def_start[i + 1]; d++)
        if (!seen[s->defs[d]]) seen[s->defs[d]] = 1, stack[n++] = s->defs[d];
    while (n && visited++ < 4096) {
        uint32_t v = stack[--n];
        for (uint32_t k = s->du_start[v]; k < s->du_start[v + 1]; k++) {
            uint32_t ui = s->uses[s->du[k]].instr;
            for (uint32_t d = s->def_start[ui]; d < s->def_start[ui + 1]; d++)
                if (!seen[s->defs[d]] && s->v[s->defs[d]].reg != s->nvars - 1) seen[s->defs[d]] = 1, stack[n++] = s->defs[d];
        }
        for (uint32_t k = s->pu_start[v]; k < s->pu_start[v + 1]; k++)
            if (!seen[s->pu[k]]) seen[s->pu[k]] = 1, stack[n++] = s->pu[k];
    }
    const Attempt *best = NULL;
    for (int k = 0; k < natt; k++)
        if (seen[att[k].value] && !strcmp(family(sfu_fingerprint_at(att[k].fp)->func), fam) &&
            (!best || att[k].progress > best->progress))
            best = &att[k];
    free(seen), free(stack);
    (void)c;
    return best;
}

static bool ftz_of(const SfuFingerprint *f) { return f->ftz; }

/* The enabled fingerprint whose signature instruction `in` is, or -1. */
static int signature_of(const Instr *in, const bool *enabled, int nfp, const uint64_t *konst, const bool *is_konst)
{
    for (int i = 0; i < nfp; i++) {
        const FpLib *l = sfu_fplib(i);
        if (l && enabled[i] && sfu_fplib_signature(l, in, konst, is_konst)) return i;
    }
    return -1;
}

static const char *family(const char *func) { return sfu_family(func); }

void sfu_find_library(Function *fn, const SfuOptions *o, Remarks *rm, SfuSite **v, int *n, int *cap)
{
    int nfp = sfu_fingerprint_count();
    bool *enabled = calloc((size_t)(nfp ? nfp : 1), sizeof *enabled);
    bool any = false;
    for (int i = 0; i < nfp; i++) {
        const FpLib *l = sfu_fplib(i);
        enabled[i] = l && o->kinds[sfu_fingerprint_at(i)->kind];
        any |= enabled[i];
    }
    if (!any) {
        free(enabled);
        return;
    }
    SfuMatcher *ms = sfu_matcher_new(fn);
    const Cfg *c = cfg_get(fn);
    const Ssa *s = ssa_get(fn);
    uint8_t *in_site = calloc(c->ninstr ? c->ninstr : 1, 1);   /* instructions some site matched */
    Attempt *best = calloc(c->ninstr ? c->ninstr : 1, sizeof *best);   /* the deepest failed attempt through each */
    uint8_t *taken = calloc(s->nvalues ? s->nvalues : 1, 1);
    Attempt *att = NULL;   /* every failed attempt */
    int natt = 0, catt = 0;
    /* the fingerprints' outputs */
    bool *fphi = calloc((size_t)(nfp ? nfp : 1), sizeof *fphi);
    Str *ffull = calloc((size_t)(nfp ? nfp : 1), sizeof *ffull);
    bool *fok = calloc((size_t)(nfp ? nfp : 1), sizeof *fok);
    for (int i = 0; i < nfp; i++) {
        if (enabled[i]) fok[i] = sfu_fp_output(sfu_fplib(i), i, &fphi[i], &ffull[i]) != ANA_NONE;
        if (getenv("PTXOPT_SFU_DEBUG") && !fok[i])
            fprintf(stderr, "sfu-debug: fingerprint %d (%s): %s\n", i, sfu_fingerprint_at(i)->func,
                    sfu_fplib(i) ? "no output" : "does not parse");
    }
    /* the guards' out-of-line precise copies (after the first such label) stay precise */
    uint32_t guard_from = c->n;
    for (uint32_t b = 0; b < c->n && guard_from == c->n; b++)
        if (str_starts(c->blocks[b]->label, SFU_GUARD_PREFIX)) guard_from = b;
    for (uint32_t uv = s->nvars; uv < s->nvalues; uv++) {
        const SsaVal *x = &s->v[uv];
        if (x->reg == s->nvars - 1 || taken[uv] || x->block >= guard_from) continue;
        const Instr *in = x->kind == SSA_DEF ? &c->instr[x->instr]->u.instr : NULL;
        if (x->kind == SSA_DEF && (x->partial || x->opnd != 0)) continue;
        for (int i = 0; i < nfp; i++) {
            if (!enabled[i] || !fok[i]) continue;
            if (fphi[i] != (x->kind == SSA_PHI)) continue;
            if (in) {
                bool same = str_eq(in->full, ffull[i]);
                bool fused = str_eqc(ffull[i], "mul.f32") ? str_eqc(in->full, "fma.rn.f32")
                             : str_eqc(ffull[i], "mul.ftz.f32") ? str_eqc(in->full, "fma.rn.ftz.f32") : false;
                if (!same && !fused) continue;
            }
            const FpLib *l = sfu_fplib(i);
            const SfuFingerprint *f = sfu_fingerprint_at(i);
            SfuMatch mt;
            sfu_match(ms, l, i, uv, &mt);
            if (!mt.ok) {
                if (getenv("PTXOPT_SFU_DEBUG") && mt.progress > (getenv("PTXOPT_SFU_DEBUG")[0] == '2' ? 0 : 3))
                    fprintf(stderr, "sfu-debug: %.*s: %s (fingerprint %d) at value %u: %d matched, then %s\n",
                            (int)fn->name.len, fn->name.p, f->func, i, uv, mt.progress, mt.why);
                if (natt == catt) {
                    catt = catt ? catt * 2 : 64;
                    att = realloc(att, sizeof *att * (size_t)catt);
                    if (!att) abort();
                }
                att[natt].progress = mt.progress;
                att[natt].fp = i;
                att[natt].value = uv;
                snprintf(att[natt].why, sizeof att[natt].why, "%s", mt.why);
                natt++;
                for (int k = 0; k < mt.ntouched; k++) {
                    uint32_t ii = cfg_instr_index(c, mt.touched[k]);
                    if (ii != ANA_NONE && mt.progress > best[ii].progress) {
                        best[ii].progress = mt.progress;
                        best[ii].fp = i;
                        snprintf(best[ii].why, sizeof best[ii].why, "%s", mt.why);
                    }
                }
                sfu_match_free(&mt);
                continue;
            }
            taken[uv] = 1;
            SfuSite *site = sfu_site_push(v, n, cap);
            site->kind = f->kind;
            site->ftz = ftz_of(f);
            site->fp = f;
            site->fp_index = i;
            site->cand = mt.cand;
            site->ncand = mt.ncand;
            mt.cand = NULL;
            site->ninstr = mt.ncand;
            site->tail = mt.tail;
            site->tail_opnd = mt.tail_opnd;
            site->nin = f->pclass[0] ? 2 : f->nin;
            for (int k = 0; k < f->nin; k++) site->in_value[k] = mt.in_value[k];
            site->in_value[1] = f->pclass[0] ? ANA_NONE : site->in_value[1];
            site->param = mt.param;
            site->out_value = uv;
            site->out = fn->regs[x->reg];
            for (int k = 0; k < 4; k++)
                if (mt.depot_bound[k]) {
                    site->depot_sym[k] = mt.depot_sym[k];
                    site->depot_off[k] = mt.depot_off[k];
                    site->depot_bound[k] = true;
                }
            if (x->kind == SSA_DEF) {
                site->replaces = c->instr[x->instr];
                site->at = site->replaces;
                site->at_block = site->at->block;
            } else {
                site->at_block = c->blocks[x->block];
                Stmt *t = site->at_block->first;
                while (t && t->kind == STMT_LABEL) t = t->next;
                site->at = t;
            }
            /* the site's line: its first instruction in layout */
            Stmt *first = NULL;
            uint32_t fi = ANA_NONE;
            for (int k = 0; k < site->ncand; k++) {
                uint32_t ii = cfg_instr_index(c, site->cand[k]);
                const Instr *ci = &site->cand[k]->u.instr;
                bool konst = ci->op == OP_mov && ci->nops == 2 && ci->ops[1].kind != OPND_REG;   /* may be shared */
                if (ii < fi && !konst) fi = ii, first = site->cand[k];
                if (ii != ANA_NONE) in_site[ii] = 1;
            }
            site->first = site->last = first ? first : site->at;
            site->line = first ? (int)first->line : 0;
            sfu_match_free(&mt);
            break;
        }
    }
    /* the calls no site holds */
    uint64_t *konst = calloc(fn->nregs + 1, sizeof *konst);
    bool *is_konst = calloc(fn->nregs + 1, sizeof *is_konst);
    sfu_reg_constants(fn, konst, is_konst);
    for (uint32_t i = 0; i < c->ninstr; i++) {
        if (in_site[i] || c->instr_block[i] >= guard_from) continue;
        int a = signature_of(&c->instr[i]->u.instr, enabled, nfp, konst, is_konst);
        if (a < 0) continue;
        const SfuFingerprint *f = sfu_fingerprint_at(a);
        const Attempt *b = &best[i];
        /* the deepest attempt through it, when it was one of this function's;
         * else the deepest one at a value computed from it */
        if (!(b->progress > 0 && !strcmp(family(sfu_fingerprint_at(b->fp)->func), family(f->func)))) {
            const Attempt *a2 = attempt_after(c, s, i, att, natt, family(f->func), family);
            if (a2) b = a2;
        }
        if (b->progress > 0 && !strcmp(family(sfu_fingerprint_at(b->fp)->func), family(f->func))) {
            remark(rm, PASS, fn, c->instr[i], REMARK_MISSED,
                   "resembles %s (fingerprint %d of nvcc %s): not recognised, left precise: the closest match (%d of "
                   "its %d instructions) fails: %s",
                   family(f->func), b->fp, sfu_fingerprint_toolkit(b->fp), b->progress,
                   sfu_fplib_ninstr(sfu_fplib(b->fp)), b->why);
        } else {
            remark(rm, PASS, fn, c->instr[i], REMARK_MISSED,
                   "resembles %s (its fingerprints' instruction %.*s with their constant): not recognised, left "
                   "precise: no fingerprint's output matches a value computed from it",
                   family(f->func), (int)c->instr[i]->u.instr.full.len, c->instr[i]->u.instr.full.p);
        }
    }
    free(att), free(konst), free(is_konst);
    free(in_site), free(best), free(taken), free(fphi), free(ffull), free(fok), free(enabled);
    sfu_matcher_free(ms);
}
