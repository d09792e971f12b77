/* split.c — the warp split (research §2.5, checklist S4-S6, S9, S13).
 *
 * The thesis hoists the choice out of the hot loop: a copy of the loop
 * uses the SFU forms, and a warp-uniform predicate computed once picks the
 * copy.  Here:
 *   region   the outermost loop holding sites (each such loop one region,
 *            when its blocks are contiguous in layout), else the whole body
 *            after the declarations;
 *   copy     ir_clone_blocks (ir/clone.h): fresh labels, shared registers;
 *            the sites of the copy are replaced (replace.c);
 *   key      key=warp: the warp's index in its CTA, linear tid / 32 (the
 *            deterministic global warp index ctaid_linear * W + tid_linear
 *            / 32 taken modulo the W warps of a CTA); key=warpid: %warpid
 *            (the thesis; nondeterministic);
 *   lambda   an immediate, or (delivery=global) the module variable
 *            .global .u32 __ptxopt_sfu_lambda = lambda;
 *   dispatch at the function's entry `setp.lt.u32 p, key, lambda`, and in
 *            front of each region `@p bra.uni copy`.
 * Aligned barriers (bar.sync, bar.red, bar.arrive, barrier.*.aligned) in a
 * region become their non-aligned barrier.* forms in both copies: warps of
 * one CTA now reach them through different instructions (the emulator
 * checks this).  Below sm_70 (no barrier.sync) such a region is refused.
 * lambda >= W (.reqntid, or .maxntid: at most that many warps) or
 * lambda=all with delivery=imm needs no copy: the sites are replaced in
 * place.  Labels of the split start with $__ptxopt_sfu, which tells a
 * second run that the function is split.
 *
 * Everything is decided before anything is emitted (sfu_plan): the regions
 * and whether each can be cloned (ir_clone_possible), hence which sites
 * will be replaced; the pass's remarks then say the same thing the code
 * does, and a function nothing applies to is left byte-identical (the
 * plan only re-cuts blocks, which the text does not show).  sfu_apply
 * carries the plan out; the precise code the replacements left dead goes
 * in one prune over all copies (prune.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/clone.h"
#include "opt/sfu/internal.h"

bool sfu_split_done(Function *fn)
{
    FOR_EACH_BLOCK (b, fn)
        FOR_EACH_STMT (s, b)
            if (s->kind == STMT_LABEL && str_starts(s->u.label, SFU_LABEL_PREFIX)) return true;
    return false;
}

Str sfu_fresh_label(Function *fn, const char *prefix, const char *what, unsigned *counter)
{
    char buf[64];
    for (;;) {
        snprintf(buf, sizeof buf, "%s_%s%u", prefix, what, (*counter)++);
        bool taken = false;
        FOR_EACH_BLOCK (b, fn)
            FOR_EACH_STMT (s, b) taken |= s->kind == STMT_LABEL && str_eqc(s->u.label, buf);
        if (!taken) break;
    }
    size_t n = strlen(buf);
    return (Str){ arena_strndup(&fn->mod->arena, buf, n), n };
}

static Str new_label(Function *fn, const char *what)
{
    static unsigned counter;
    return sfu_fresh_label(fn, SFU_LABEL_PREFIX, what, &counter);
}

/* Warps per CTA from .reqntid (exact) or .maxntid (an upper bound), 0 when
 * unknown. */
static int warps_per_cta(const Function *fn, bool *exact)
{
    int best = 0;
    *exact = false;
    for (uint32_t i = 0; i < fn->nperf; i++) {
        bool req = str_eqc(fn->perf[i].name, ".reqntid");
        if (!req && !str_eqc(fn->perf[i].name, ".maxntid")) continue;
        long t = 1;
        for (int k = 0; k < fn->perf[i].n; k++) t *= fn->perf[i].v[k];
        int w = (int)((t + 31) / 32);
        if (req) {
            *exact = true;
            return w;
        }
        best = w;
    }
    return best;
}

static Stmt *instr(Function *fn, const char *full, int nops, const Operand *ops)
{
    Stmt *s = ir_new_instr(fn, full, nops);
    for (int k = 0; k < nops; k++) s->u.instr.ops[k] = ops[k];
    return s;
}

/* The module variable delivery=global reads (added once). */
void sfu_lambda_symbol(Module *m, long lambda)
{
    Str space;
    if (modsyms_find(m, STR_LIT(SFU_LAMBDA_SYMBOL), &space)) return;
    for (Stmt *t = m->first; t; t = t->next)   /* added by this run for an earlier function */
        if (t->kind == STMT_VERBATIM && t->u.dir.ntok) {
            Str x = t->u.dir.tok[0].text;
            size_t k = strlen(SFU_LAMBDA_SYMBOL);
            for (size_t i = 0; i + k <= x.len; i++)
                if (memcmp(x.p + i, SFU_LAMBDA_SYMBOL, k) == 0) return;
        }
    char buf[128];
    snprintf(buf, sizeof buf, ".global .align 4 .u32 %s = %ld;", SFU_LAMBDA_SYMBOL, lambda);
    size_t n = strlen(buf);
    Stmt *s = ARENA_NEW(&m->arena, Stmt);
    s->kind = STMT_VERBATIM;
    s->dirty = true;
    s->u.dir.ntok = 1;
    s->u.dir.tok = ARENA_NEW(&m->arena, Token);
    s->u.dir.tok->text = (Str){ arena_strndup(&m->arena, buf, n), n };
    Stmt *at = m->nfuncs ? m->funcs[0]->stmt : NULL;
    s->next = at;
    s->prev = at ? at->prev : m->last;
    if (s->prev) s->prev->next = s;
    else m->first = s;
    if (at) at->prev = s;
    else m->last = s;
}

/* At the start of `at` (a block of declarations only, falling into the
 * body): the predicate p = key < lambda. */
static Reg *predicate(Function *fn, Block *at, const SfuOptions *o)
{
    Module *m = fn->mod;
    Reg *w = ir_fresh_reg(fn, ".b32"), *p = ir_fresh_reg(fn, ".pred");
    Stmt *code[16];
    int n = 0;
    if (o->key == KEY_WARPID) {
        code[n++] = instr(fn, "mov.u32", 2, (Operand[]){ ir_op_reg(w), ir_op_special(fn, "%warpid", 0) });
    } else {
        Reg *t = ir_fresh_reg(fn, ".b32"), *u = ir_fresh_reg(fn, ".b32");
        code[n++] = instr(fn, "mov.u32", 2, (Operand[]){ ir_op_reg(w), ir_op_special(fn, "%tid", 'z') });
        code[n++] = instr(fn, "mov.u32", 2, (Operand[]){ ir_op_reg(t), ir_op_special(fn, "%ntid", 'y') });
        code[n++] = instr(fn, "mov.u32", 2, (Operand[]){ ir_op_reg(u), ir_op_special(fn, "%tid", 'y') });
        code[n++] = instr(fn, "mad.lo.u32", 4, (Operand[]){ ir_op_reg(w), ir_op_reg(w), ir_op_reg(t), ir_op_reg(u) });
        code[n++] = instr(fn, "mov.u32", 2, (Operand[]){ ir_op_reg(t), ir_op_special(fn, "%ntid", 'x') });
        code[n++] = instr(fn, "mov.u32", 2, (Operand[]){ ir_op_reg(u), ir_op_special(fn, "%tid", 'x') });
        code[n++] = instr(fn, "mad.lo.u32", 4, (Operand[]){ ir_op_reg(w), ir_op_reg(w), ir_op_reg(t), ir_op_reg(u) });
        code[n++] = instr(fn, "shr.u32", 3, (Operand[]){ ir_op_reg(w), ir_op_reg(w), ir_op_int(m, 5) });
    }
    Operand lam;
    if (o->delivery == DELIVER_GLOBAL) {
        Reg *l = ir_fresh_reg(fn, ".b32");
        Operand addr = ir_op_addr(m, ir_op_sym(m, STR_LIT(SFU_LAMBDA_SYMBOL), 0), 0);
        code[n++] = instr(fn, "ld.global.u32", 2, (Operand[]){ ir_op_reg(l), addr });
        lam = ir_op_reg(l);
    } else
        lam = ir_op_int(m, o->lambda);
    code[n++] = instr(fn, "setp.lt.u32", 3, (Operand[]){ ir_op_reg(p), ir_op_reg(w), lam });
    for (int k = 0; k < n; k++) ir_append(at, code[k]);
    return p;
}

static bool aligned_barrier(const Instr *in)
{
    if (in->op == OP_bar) return !str_starts(in->full, "bar.warp");
    if (in->op == OP_barrier) return instr_has_mod(in, ".aligned") && !instr_has_mod(in, ".cluster");
    return false;
}

/* bar.X -> barrier.X, barrier.X.aligned -> barrier.X (both copies). */
static void unalign(Function *fn, Block *first, Block *last)
{
    for (Block *b = first;; b = b->next) {
        FOR_EACH_STMT (s, b) {
            if (s->kind != STMT_INSTR || !aligned_barrier(&s->u.instr)) continue;
            Instr *in = &s->u.instr;
            char buf[96] = "barrier";
            size_t len = strlen(buf);
            for (int k = 0; k < instr_nmods(in); k++) {
                Str md = instr_mod(in, k);
                if (str_eqc(md, ".aligned")) continue;
                if (len + md.len + 1 >= sizeof buf) break;
                memcpy(buf + len, md.p, md.len);
                len += md.len;
                buf[len] = 0;
            }
            ir_set_full(fn->mod, in, buf);
            ir_touch(s);
        }
        if (b == last) break;
    }
}

typedef struct Region {
    Block *first, *last;
    const char *refused;    /* not cloned: why */
} Region;

/* The block whose code the site's approximate code replaces (where its
 * region's output is defined). */
static Block *site_block(const SfuSite *s)
{
    if (!s->fp) return s->first->block;
    return s->at ? s->at->block : s->at_block;   /* (blocks re-cut since: the statement knows) */
}

/* The region of each site: index into regions (created as needed). */
static int regions_of(Function *fn, SfuSite *v, int n, int *reg_of, Region *rs, bool *whole)
{
    const Cfg *c = cfg_get(fn);
    const LoopInfo *li = loops_get(fn);
    int nr = 0;
    *whole = li->irreducible;
    for (int i = 0; i < n && !*whole; i++) {
        uint32_t b = cfg_block_index(c, site_block(&v[i]));
        uint32_t l = b == ANA_NONE ? ANA_NONE : li->innermost[b];
        if (l == ANA_NONE) {
            *whole = true;
            break;
        }
        while (li->loops[l].parent != ANA_NONE) l = li->loops[l].parent;
        const Loop *L = &li->loops[l];
        /* contiguous in layout, header first */
        uint32_t lo = L->blocks[0], hi = L->blocks[L->nblocks - 1];
        if (hi - lo + 1 != L->nblocks || lo != L->header) {
            *whole = true;
            break;
        }
        int k = 0;
        while (k < nr && rs[k].first != c->blocks[lo]) k++;
        if (k == nr) rs[nr++] = (Region){ c->blocks[lo], c->blocks[hi], NULL };
        reg_of[i] = k;
    }
    if (*whole) return 0;
    return nr;
}

/* Is statement t inside the region's blocks? */
static bool in_region(const Region *r, const Block *b)
{
    for (Block *x = r->first; x; x = x->next) {
        if (x == b) return true;
        if (x == r->last) break;
    }
    return false;
}

static void map_site(const CloneMap *map, const SfuSite *s, SfuSite *c)
{
    *c = *s;
    if (!s->fp) {
        c->first = clone_map_stmt(map, s->first);
        c->last = clone_map_stmt(map, s->last);
        if (s->out_def) c->out_def = clone_map_stmt(map, s->out_def);
        return;
    }
    c->at = s->at ? clone_map_stmt(map, s->at) : NULL;
    c->at_block = clone_map_block(map, site_block(s));
    c->replaces = s->replaces ? clone_map_stmt(map, s->replaces) : NULL;
    c->cand = malloc(sizeof *c->cand * (size_t)(s->ncand ? s->ncand : 1));
    c->ncand = 0;
    for (int k = 0; k < s->ncand; k++) {
        Stmt *t = clone_map_stmt(map, s->cand[k]);
        if (t) c->cand[c->ncand++] = t;   /* candidates outside the copy stay shared */
    }
}

struct SfuPlan {
    bool all;               /* every warp approximate: replaced in place */
    int W;
    bool W_exact;
    int nr;
    bool whole;
    int *reg_of;            /* [n] */
    Region *rs;
    Block *entry;           /* the declarations' block */
    const char *why;        /* nothing applies: why */
};

SfuPlan *sfu_plan(Function *fn, const SfuOptions *o, SfuSite *v, int n, bool *applied)
{
    SfuPlan *p = calloc(1, sizeof *p);
    if (!p) abort();
    p->W = warps_per_cta(fn, &p->W_exact);
    p->all = o->delivery == DELIVER_IMM &&
             (o->lambda >= SFU_LAMBDA_ALL || (o->key == KEY_WARP && p->W && o->lambda >= p->W) ||
              (o->key == KEY_WARPID && o->lambda >= 64));
    for (int i = 0; i < n; i++) applied[i] = p->all;
    if (p->all) return p;
    p->reg_of = calloc((size_t)(n ? n : 1), sizeof *p->reg_of);
    p->rs = calloc((size_t)n + 1, sizeof *p->rs);
    p->nr = regions_of(fn, v, n, p->reg_of, p->rs, &p->whole);
    analysis_invalidate(fn);
    /* the declarations stay out of every region: the entry block is cut
     * before its first instruction (blocks only: the text is unchanged) */
    Stmt *fi = ir_block_first_instr(fn->first);
    if (!fi) {
        p->why = "the entry block has no instruction";
        return p;
    }
    Stmt *lead = fi;   /* labels and directives just before the first instruction belong to the body */
    while (lead->prev && lead->prev->kind != STMT_DECL) lead = lead->prev;
    Block *entry = fn->first;
    Block *body = lead->prev ? ir_split_block_before(lead) : NULL;
    if (!body) {
        /* the entry block starts with code: an empty declarations block in front */
        Block *nb = ARENA_NEW(&fn->mod->arena, Block);
        nb->fn = fn;
        nb->next = entry;
        entry->prev = nb;
        fn->first = nb;
        body = entry;
        entry = nb;
    }
    ir_renumber_blocks(fn);
    analysis_invalidate(fn);
    p->entry = entry;
    for (int r = 0; r < p->nr; r++) p->whole |= p->rs[r].first == entry;
    if (p->whole) {
        p->nr = 1;
        p->rs[0] = (Region){ body, fn->last, NULL };
        for (int i = 0; i < n; i++) p->reg_of[i] = 0;
    }
    /* what each region allows: barriers need sm_70's barrier.sync; the
     * region must be copyable (ir_clone_possible) */
    bool any = false;
    for (int r = 0; r < p->nr; r++) {
        Region *R = &p->rs[r];
        for (Block *b = R->first; !R->refused; b = b->next) {
            bool has = false;
            FOR_EACH_STMT (s, b) has |= s->kind == STMT_INSTR && aligned_barrier(&s->u.instr);
            if (has && fn->mod->target_sm && fn->mod->target_sm < 70)
                R->refused = "it has an aligned barrier and the target has no barrier.sync (sm_70)";
            if (b == R->last) break;
        }
        const char *why = NULL;
        if (!R->refused && !ir_clone_possible(fn, R->first, R->last, R->last, &why)) R->refused = why ? why : "?";
        any |= !R->refused;
    }
    for (int i = 0; i < n; i++) {
        const Region *R = &p->rs[p->reg_of[i]];
        applied[i] = !R->refused && in_region(R, site_block(&v[i])) &&
                     (v[i].fp || (in_region(R, v[i].first->block) && in_region(R, v[i].last->block)));
    }
    if (!any) p->why = "no region can be copied";
    return p;
}

void sfu_plan_free(SfuPlan *p)
{
    if (!p) return;
    free(p->reg_of);
    free(p->rs);
    free(p);
}

typedef struct Cands {
    Stmt **v;
    int n, cap;
} Cands;

static void cands_add(Cands *c, Stmt **v, int n);

/* A replaced site's candidates and its out-of-line loads, to prune. */
static void collect_site(Cands *cand, Cands *self, SfuSite *s)
{
    if (!s->fp) return;
    cands_add(cand, s->cand, s->ncand);
    if (s->nself) cands_add(self, s->self, s->nself);
    free(s->self);
    s->self = NULL;
    s->nself = 0;
}

static void cands_add(Cands *c, Stmt **v, int n)
{
    if (c->n + n > c->cap) {
        c->cap = (c->n + n) * 2 + 16;
        c->v = realloc(c->v, sizeof *c->v * (size_t)c->cap);
        if (!c->v) abort();
    }
    memcpy(c->v + c->n, v, sizeof *v * (size_t)n);
    c->n += n;
}

bool sfu_apply(Function *fn, const SfuOptions *o, SfuPlan *p, SfuSite *v, int n, const bool *applied, Remarks *rm)
{
    int nap = 0;
    for (int i = 0; i < n; i++) nap += applied[i];
    Cands cands = { 0 }, self = { 0 };
    if (p->all) {
        for (int i = 0; i < n; i++) {
            sfu_replace(fn, &v[i]);
            collect_site(&cands, &self, &v[i]);
        }
        if (cands.n) sfu_prune(fn, cands.v, cands.n, self.v, self.n);
        free(cands.v), free(self.v);
        remark(rm, PASS, fn, NULL, REMARK_ANALYSIS, "lambda=%s: every warp approximate, %d sites replaced in place (no split)",
               o->lambda >= SFU_LAMBDA_ALL ? "all" : o->key == KEY_WARPID ? ">=64" : "W", n);
        return false;
    }
    if (p->why || !nap) {
        for (int r = 0; r < p->nr; r++)
            if (p->rs[r].refused) remark(rm, PASS, fn, NULL, REMARK_MISSED, "region not cloned: %s", p->rs[r].refused);
        remark(rm, PASS, fn, NULL, REMARK_MISSED, "not split: %s; the kernel is unchanged",
               p->why ? p->why : "no site in a region that can be copied");
        return false;
    }
    Reg *pred = predicate(fn, p->entry, o);
    if (o->delivery == DELIVER_GLOBAL) sfu_lambda_symbol(fn->mod, o->lambda);
    int replaced = 0, split = 0;
    for (int r = 0; r < p->nr; r++) {
        Region *R = &p->rs[r];
        if (R->refused) {
            remark(rm, PASS, fn, NULL, REMARK_MISSED, "region not cloned: %s", R->refused);
            continue;
        }
        bool has = false;
        for (int i = 0; i < n; i++) has |= p->reg_of[i] == r && applied[i];
        if (!has) continue;
        CloneMap map = { 0 };
        const char *why = NULL;
        unalign(fn, R->first, R->last);
        Block *copy = ir_clone_blocks(fn, R->first, R->last, R->last, &map, &why);
        if (!copy) abort();   /* ir_clone_possible said yes */
        split++;
        /* the copy's sites: all mapped before anything in the copy changes
         * (the map finds a statement by its place in its block) */
        SfuSite *cs = malloc(sizeof *cs * (size_t)n);
        int nc = 0;
        for (int i = 0; i < n; i++) {
            if (p->reg_of[i] != r || !applied[i]) continue;
            map_site(&map, &v[i], &cs[nc++]);
        }
        /* the copy starts with a label of the split's own */
        Str approx = new_label(fn, "approx");
        Stmt *cl = copy->first;
        if (cl && cl->kind == STMT_LABEL) {
            Str old = cl->u.label;
            for (uint32_t k = 0; k < map.n; k++)
                FOR_EACH_STMT (s, map.copy[k]) {
                    if (s->kind != STMT_INSTR) continue;
                    for (int j = 0; j < s->u.instr.nops; j++) {
                        Operand *op = &s->u.instr.ops[j];
                        if (op->kind == OPND_SYM && str_eq(opnd_text(op), old)) {
                            *op = ir_op_sym(fn->mod, approx, 0);
                            ir_touch(s);
                        }
                    }
                }
            cl->u.label = approx;
            copy->label = approx;
            ir_touch(cl);
        } else {
            Stmt *lab = ir_new_label(fn, approx);
            if (cl) ir_insert_before(cl, lab);
            else ir_append(copy, lab);
            copy->label = approx;
        }
        Stmt *region_line = NULL;
        for (int i = 0; i < n && !region_line; i++)
            if (p->reg_of[i] == r) region_line = v[i].first;
        /* dispatch: a block in front of the region (it takes over the
         * region's label, so branches from outside reach it) */
        Block *first = R->first;
        Block *d = ARENA_NEW(&fn->mod->arena, Block);
        d->fn = fn;
        d->prev = first->prev;
        d->next = first;
        if (first->prev) first->prev->next = d;
        else fn->first = d;
        first->prev = d;
        Stmt *bra = instr(fn, "bra.uni", 1, (Operand[]){ ir_op_sym(fn->mod, approx, 0) });
        bra->u.instr.guard = pred;
        Stmt *fl = first->first;
        if (fl && fl->kind == STMT_LABEL) {
            /* branches inside the original region keep going to the region */
            Str old = fl->u.label, fresh = new_label(fn, "precise");
            for (Block *b = first;; b = b->next) {
                FOR_EACH_STMT (s, b) {
                    if (s->kind != STMT_INSTR) continue;
                    for (int j = 0; j < s->u.instr.nops; j++) {
                        Operand *op = &s->u.instr.ops[j];
                        if (op->kind == OPND_SYM && str_eq(opnd_text(op), old)) {
                            *op = ir_op_sym(fn->mod, fresh, 0);
                            ir_touch(s);
                        }
                    }
                }
                if (b == R->last) break;
            }
            ir_remove(fl);
            ir_append(d, fl);
            d->label = old;
            Stmt *nl = ir_new_label(fn, fresh);
            if (first->first) ir_insert_before(first->first, nl);
            else ir_append(first, nl);
            first->label = fresh;
        }
        ir_append(d, bra);
        ir_renumber_blocks(fn);
        for (int i = 0; i < nc; i++) {
            sfu_replace(fn, &cs[i]);
            collect_site(&cands, &self, &cs[i]);
            if (cs[i].fp) free(cs[i].cand);
        }
        replaced += nc;
        free(cs);
        char lam[96];
        if (o->delivery == DELIVER_GLOBAL) snprintf(lam, sizeof lam, "%s (initially %ld)", SFU_LAMBDA_SYMBOL, o->lambda);
        else snprintf(lam, sizeof lam, "%ld", o->lambda);
        remark(rm, PASS, fn, region_line, REMARK_ANALYSIS, "split: %s cloned; warps with %s < %s run the approximate copy",
               p->whole ? "the function body" : "the outermost loop", o->key == KEY_WARP ? "warp-in-CTA index" : "%warpid", lam);
    }
    if (cands.n) sfu_prune(fn, cands.v, cands.n, self.v, self.n);
    free(cands.v), free(self.v);
    analysis_invalidate(fn);
    char wtext[64];
    if (p->W && p->W_exact) snprintf(wtext, sizeof wtext, ", W = %d (.reqntid)", p->W);
    else if (p->W) snprintf(wtext, sizeof wtext, ", W <= %d (.maxntid)", p->W);
    else snprintf(wtext, sizeof wtext, ", W unknown (no .reqntid/.maxntid)");
    remark(rm, PASS, fn, NULL, REMARK_ANALYSIS, "split into %d region%s, %d sites replaced in the approximate copies (lambda %ld%s, key=%s)",
           split, split == 1 ? "" : "s", replaced, o->lambda, wtext, o->key == KEY_WARP ? "warp" : "warpid");
    return replaced > 0;
}

bool plan_all(const SfuPlan *p) { return p && p->all; }
