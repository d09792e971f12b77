/* reach.c — where a replaced value goes (issue 24 items 5 and 7).
 *
 * An approximate value that only flows into arithmetic changes the result
 * by about its own error.  One that decides something can change it by
 * anything: sinf(x) > 0 at x = f32(k pi) flips one way or the other, a
 * float-to-int conversion moves to the next integer, an address to the
 * next element.  So for every site the register data flow from its output
 * is followed forward (through arithmetic, selects' data operands,
 * compares and merges; not through memory) and the first of these it
 * reaches is kept for the remark and for safe=1:
 *   - a branch's predicate, or any instruction's guard;
 *   - a selp/slct condition;
 *   - a float-to-int conversion (cvt.rni/rzi/rmi/rpi to an integer type);
 *   - an address (a register inside [...]).
 * A store to shared memory of such a value is noted too: with a split,
 * precise warps that read it after a barrier compute with approximate
 * data, so their results are not bit-exact either. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opt/sfu/internal.h"
#include "analysis/ssa.h"

static bool float_to_int(const Instr *in)
{
    if (in->op != OP_cvt || instr_nmods(in) < 2) return false;
    /* cvt.<rnd>.<dtype>.<atype>: an integer destination from a float source */
    int n = instr_nmods(in);
    Str d = instr_mod(in, n - 2), a = instr_mod(in, n - 1);
    bool dint = d.len > 1 && (d.p[1] == 's' || d.p[1] == 'u'), afloat = a.len > 1 && a.p[1] == 'f';
    return dint && afloat;
}

typedef struct Walk {
    Function *fn;
    const Cfg *c;
    const Ssa *s;
    uint8_t *seen;
    uint32_t *stack;
    uint32_t n, cap;
} Walk;

static void push(Walk *w, uint32_t v)
{
    if (v == ANA_NONE || w->seen[v]) return;
    w->seen[v] = 1;
    if (w->n == w->cap) {
        w->cap = w->cap ? w->cap * 2 : 64;
        w->stack = realloc(w->stack, sizeof *w->stack * w->cap);
        if (!w->stack) abort();
    }
    w->stack[w->n++] = v;
}

/* The site's output value: what its approximate code will define. */
static uint32_t out_value(Function *fn, const SfuSite *s)
{
    if (s->fp) return s->out_value;
    const Cfg *c = cfg_get(fn);
    const Ssa *ss = ssa_get(fn);
    uint32_t i = cfg_instr_index(c, s->out_def);
    if (i == ANA_NONE) return ANA_NONE;
    for (uint32_t k = ss->def_start[i]; k < ss->def_start[i + 1]; k++)
        if (ss->v[ss->defs[k]].opnd == 0) return ss->defs[k];
    return ANA_NONE;
}

static void reach_one(Walk *w, SfuSite *site, char *buf, size_t bufsz, char *sbuf, size_t sbufsz)
{
    const Cfg *c = w->c;
    const Ssa *s = w->s;
    memset(w->seen, 0, s->nvalues);
    w->n = 0;
    push(w, out_value(w->fn, site));
    while (w->n) {
        uint32_t v = w->stack[--w->n];
        for (uint32_t k = s->du_start[v]; k < s->du_start[v + 1]; k++) {
            const SsaUse *u = &s->uses[s->du[k]];
            const Stmt *st = c->instr[u->instr];
            const Instr *in = &st->u.instr;
            const char *what = NULL;
            if (u->flags & REF_GUARD) what = in->op == OP_bra ? "a branch" : "an instruction's guard";
            else if (u->flags & REF_ADDR) what = "an address";
            else if ((in->op == OP_selp && u->opnd == 3) || (in->op == OP_slct && u->opnd == 3)) what = "a selp condition";
            else if (float_to_int(in)) what = "a float-to-int conversion";
            if (what && !site->reaches) {
                snprintf(buf, bufsz, "%s (%.*s) at line %u", what, (int)in->full.len, in->full.p, st->line);
                site->reaches = buf;
            }
            uint32_t fl = c->iflags[u->instr];
            if ((fl & OPF_STORE) && !(u->flags & REF_ADDR) && str_eqc(instr_space(in), ".shared") && !site->shared_store) {
                snprintf(sbuf, sbufsz, "%.*s at line %u", (int)in->full.len, in->full.p, st->line);
                site->shared_store = sbuf;
            }
            if (fl & (OPF_STORE | OPF_BRANCH)) continue;
            for (uint32_t d = s->def_start[u->instr]; d < s->def_start[u->instr + 1]; d++)
                if (s->v[s->defs[d]].reg != s->nvars - 1) push(w, s->defs[d]);
        }
        for (uint32_t k = s->pu_start[v]; k < s->pu_start[v + 1]; k++) push(w, s->pu[k]);
    }
}

void sfu_reach(Function *fn, SfuSite *v, int n)
{
    Walk w = { .fn = fn, .c = cfg_get(fn), .s = ssa_get(fn) };
    w.seen = calloc(w.s->nvalues ? w.s->nvalues : 1, 1);
    for (int i = 0; i < n; i++) {
        /* the texts live in the module arena (remarks outlive this call) */
        char buf[160], sbuf[120];
        v[i].reaches = v[i].shared_store = NULL;
        reach_one(&w, &v[i], buf, sizeof buf, sbuf, sizeof sbuf);
        if (v[i].reaches) v[i].reaches = arena_strndup(&fn->mod->arena, buf, strlen(buf));
        if (v[i].shared_store) v[i].shared_store = arena_strndup(&fn->mod->arena, sbuf, strlen(sbuf));
    }
    free(w.seen);
    free(w.stack);
}
