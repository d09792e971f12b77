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
 * lambda >= W (.reqntid known) or lambda=all with delivery=imm needs no
 * copy: the sites are replaced in place.  Labels of the split start with
 * $__ptxopt_sfu, which tells a second run that the function is split. */
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

static Str new_label(Function *fn, const char *what)
{
    static unsigned counter;
    char buf[64];
    for (;;) {
        snprintf(buf, sizeof buf, SFU_LABEL_PREFIX "_%s%u", what, counter++);
        bool taken = false;
        FOR_EACH_BLOCK (b, fn)
            FOR_EACH_STMT (s, b) taken |= s->kind == STMT_LABEL && str_eqc(s->u.label, buf);
        if (!taken) break;
    }
    size_t n = strlen(buf);
    return (Str){ arena_strndup(&fn->mod->arena, buf, n), n };
}

/* Warps per CTA from .reqntid, 0 when unknown. */
static int warps_per_cta(const Function *fn)
{
    for (uint32_t i = 0; i < fn->nperf; i++)
        if (str_eqc(fn->perf[i].name, ".reqntid")) {
            long t = 1;
            for (int k = 0; k < fn->perf[i].n; k++) t *= fn->perf[i].v[k];
            return (int)((t + 31) / 32);
        }
    return 0;
}

static Stmt *instr(Function *fn, const char *full, int nops, const Operand *ops)
{
    Stmt *s = ir_new_instr(fn, full, nops);
    for (int k = 0; k < nops; k++) s->u.instr.ops[k] = ops[k];
    return s;
}

/* The module variable delivery=global reads (added once). */
static void lambda_symbol(Module *m, long lambda)
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
} Region;

/* The region of each site: index into regions (created as needed). */
static int regions_of(Function *fn, SfuSite *v, int n, int *reg_of, Region *rs, bool *whole)
{
    const Cfg *c = cfg_get(fn);
    const LoopInfo *li = loops_get(fn);
    int nr = 0;
    *whole = li->irreducible;
    uint32_t *outer = malloc(sizeof *outer * (size_t)(n ? n : 1));
    for (int i = 0; i < n && !*whole; i++) {
        uint32_t b = cfg_block_index(c, v[i].first->block);
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
        outer[i] = l;
        int k = 0;
        while (k < nr && rs[k].first != c->blocks[lo]) k++;
        if (k == nr) rs[nr++] = (Region){ c->blocks[lo], c->blocks[hi] };
        reg_of[i] = k;
    }
    free(outer);
    if (*whole) return 0;
    return nr;
}

static void map_site(const CloneMap *map, const SfuSite *s, SfuSite *c)
{
    *c = *s;
    c->first = clone_map_stmt(map, s->first);
    c->last = clone_map_stmt(map, s->last);
    if (s->out_def) c->out_def = clone_map_stmt(map, s->out_def);
    for (int k = 0; k < s->nskip; k++) c->skip[k] = clone_map_stmt(map, s->skip[k]);
    for (int k = 0; k < s->nchunks; k++) {
        c->chunk_first[k] = clone_map_stmt(map, s->chunk_first[k]);
        c->chunk_last[k] = clone_map_stmt(map, s->chunk_last[k]);
        if (!c->chunk_first[k] || !c->chunk_last[k]) c->first = NULL;   /* a part outside the region: not in the copy */
    }
}

bool sfu_split(Function *fn, const SfuOptions *o, SfuSite *v, int n, Remarks *rm)
{
    int W = warps_per_cta(fn);
    bool all = o->delivery == DELIVER_IMM &&
               (o->lambda >= SFU_LAMBDA_ALL || (o->key == KEY_WARP && W && o->lambda >= W) || (o->key == KEY_WARPID && o->lambda >= 64));
    if (all) {
        uint32_t nf = fn->nregs;
        uint8_t *feeds = calloc(nf ? nf : 1, 1);
        for (int i = 0; i < n; i++) sfu_replace(fn, &v[i], feeds);
        sfu_sweep(fn, feeds, nf);
        free(feeds);
        remark(rm, PASS, fn, NULL, REMARK_ANALYSIS, "lambda=%s: every warp approximate, %d sites replaced in place (no split)",
               o->lambda >= SFU_LAMBDA_ALL ? "all" : o->lambda >= 64 ? ">=64" : "W", n);
        return false;
    }
    /* regions */
    int *reg_of = calloc((size_t)n, sizeof *reg_of);
    Region *rs = calloc((size_t)n + 1, sizeof *rs);
    bool whole;
    int nr = regions_of(fn, v, n, reg_of, rs, &whole);
    analysis_invalidate(fn);
    /* the declarations stay out of every region: the entry block is cut
     * before its first instruction */
    Stmt *fi = ir_block_first_instr(fn->first);
    Block *entry = fn->first;
    if (!fi) { /* no instruction in the entry block: nothing sensible to split */
        remark(rm, PASS, fn, NULL, REMARK_MISSED, "the entry block has no instruction: not split");
        free(reg_of), free(rs);
        return false;
    }
    Stmt *lead = fi;   /* labels and directives just before the first instruction belong to the body */
    while (lead->prev && lead->prev->kind != STMT_DECL) lead = lead->prev;
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
        ir_renumber_blocks(fn);
    }
    for (int r = 0; r < nr; r++) whole |= rs[r].first == entry;
    if (whole) {
        nr = 1;
        rs[0] = (Region){ body, fn->last };
        for (int i = 0; i < n; i++) reg_of[i] = 0;
    }
    /* barriers */
    for (int r = 0; r < nr; r++)
        for (Block *b = rs[r].first;; b = b->next) {
            bool has = false;
            FOR_EACH_STMT (s, b) has |= s->kind == STMT_INSTR && aligned_barrier(&s->u.instr);
            if (has && fn->mod->target_sm && fn->mod->target_sm < 70) {
                remark(rm, PASS, fn, NULL, REMARK_MISSED,
                       "region has an aligned barrier and the target has no barrier.sync (sm_70): not split");
                free(reg_of), free(rs);
                return 0;
            }
            if (b == rs[r].last) break;
        }
    Reg *p = predicate(fn, entry, o);
    if (o->delivery == DELIVER_GLOBAL) lambda_symbol(fn->mod, o->lambda);
    int replaced = 0;
    for (int r = 0; r < nr; r++) {
        CloneMap map = { 0 };
        const char *why = NULL;
        unalign(fn, rs[r].first, rs[r].last);
        Block *copy = ir_clone_blocks(fn, rs[r].first, rs[r].last, rs[r].last, &map, &why);
        if (!copy) {
            remark(rm, PASS, fn, NULL, REMARK_MISSED, "region not cloned: %s", why ? why : "?");
            continue;
        }
        /* the copy's sites: all mapped before anything in the copy changes
         * (the map finds a statement by its place in its block) */
        SfuSite *cs = malloc(sizeof *cs * (size_t)n);
        int nc = 0;
        for (int i = 0; i < n; i++) {
            if (reg_of[i] != r) continue;
            map_site(&map, &v[i], &cs[nc]);
            if (cs[nc].first && cs[nc].last) nc++;
            else
                remark(rm, PASS, fn, v[i].first, REMARK_MISSED,
                       "site %s: part of it lies outside the cloned region's blocks: precise in both copies",
                       sfu_kind_name(v[i].kind));
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
            if (reg_of[i] == r) region_line = v[i].first;
        /* dispatch: a block in front of the region (it takes over the
         * region's label, so branches from outside reach it) */
        Block *first = rs[r].first;
        Block *d = ARENA_NEW(&fn->mod->arena, Block);
        d->fn = fn;
        d->prev = first->prev;
        d->next = first;
        if (first->prev) first->prev->next = d;
        else fn->first = d;
        first->prev = d;
        Stmt *bra = instr(fn, "bra.uni", 1, (Operand[]){ ir_op_sym(fn->mod, approx, 0) });
        bra->u.instr.guard = p;
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
                if (b == rs[r].last) break;
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
        uint32_t nf = fn->nregs;
        uint8_t *feeds = calloc(nf ? nf : 1, 1);
        for (int i = 0; i < nc; i++) sfu_replace(fn, &cs[i], feeds);
        sfu_sweep(fn, feeds, nf);
        free(feeds);
        replaced += nc;
        free(cs);
        char lam[96];
        if (o->delivery == DELIVER_GLOBAL) snprintf(lam, sizeof lam, "%s (initially %ld)", SFU_LAMBDA_SYMBOL, o->lambda);
        else snprintf(lam, sizeof lam, "%ld", o->lambda);
        remark(rm, PASS, fn, region_line, REMARK_ANALYSIS, "split: %s cloned; warps with %s < %s run the approximate copy",
               whole ? "the function body" : "the outermost loop", o->key == KEY_WARP ? "warp-in-CTA index" : "%warpid", lam);
    }
    analysis_invalidate(fn);
    remark(rm, PASS, fn, NULL, REMARK_ANALYSIS, "split into %d region%s, %d sites replaced in the approximate copies (lambda %ld%s, key=%s)",
           nr, nr == 1 ? "" : "s", replaced, o->lambda, W ? "" : ", W unknown", o->key == KEY_WARP ? "warp" : "warpid");
    free(reg_of), free(rs);
    return replaced > 0;
}
