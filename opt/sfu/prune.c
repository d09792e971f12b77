/* prune.c — the precise code a replacement left dead goes (aggressive
 * dead-code elimination, Cytron et al. 1991, restricted to the regions the
 * fingerprints matched).
 *
 * A library site's approximate code writes the output where the precise
 * code defined it; what of the precise region is still needed is not
 * decided by where it sits but by what reads it: nvcc shares instructions
 * between calls (sinf and cosf of one argument share their reduction) and
 * with the user's code (|x|), and schedules the user's code into the
 * region.  So:
 *   live   every instruction that is not a candidate (the user's code and
 *          the approximate code), and, transitively, the candidates that
 *          define what a live instruction reads (register values; for a
 *          load, the stores before it that it may read: a local or
 *          generic load any store of local memory, a call everything),
 *          and the conditional branches a live instruction is control
 *          dependent on (the post-dominance frontier of its block; for a
 *          merge of values, of the blocks it merges from);
 *   dead   candidates not live: removed; a dead conditional branch becomes
 *          a jump to its block's immediate post-dominator (its paths meet
 *          there again without running anything live in between).
 * The out-of-line precise copies of guarded sites (guard.c) read local
 * memory they wrote themselves first (nvcc's scratch for the reduction):
 * their loads (`self`) keep no earlier store alive.
 * Then blocks no longer reachable that hold only candidates go, jumps to
 * the next block go, labels that lost their last reference go, and the
 * local depot's address setup and declaration go when nothing addresses
 * the depot any more (ptxas would still give it stack). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/clone.h"
#include "opt/sfu/internal.h"
#include "analysis/dom.h"
#include "analysis/ssa.h"

typedef struct Prune {
    Function *fn;
    const Cfg *c;
    const Ssa *s;
    const DomTree *pd;
    uint8_t *cand;        /* [ninstr] */
    uint8_t *live;        /* [ninstr] */
    uint8_t *vseen;       /* [nvalues] */
    uint8_t *self;        /* [ninstr] loads that read only what their own region wrote */
    uint8_t *bctl;        /* [n] blocks whose control dependences are live */
    uint32_t *work;
    uint32_t nwork;
} Prune;

static uint32_t dbg_from;
static void mark_instr(Prune *p, uint32_t i)
{
    if (p->live[i]) return;
    if (getenv("PTXOPT_PRUNE_DEBUG") && p->cand[i])
        fprintf(stderr, "prune: live line %u (%.*s) from line %u\n", p->c->instr[i]->line, (int)p->c->instr[i]->u.instr.full.len,
                p->c->instr[i]->u.instr.full.p, dbg_from);
    p->live[i] = 1;
    p->work[p->nwork++] = i;
}

static void mark_block_control(Prune *p, uint32_t b);

static void mark_value(Prune *p, uint32_t v)
{
    if (v == ANA_NONE || v < p->s->nvars || p->vseen[v]) return;
    p->vseen[v] = 1;
    const SsaVal *x = &p->s->v[v];
    if (x->kind == SSA_DEF) {
        mark_instr(p, x->instr);
        if (x->partial) mark_value(p, x->prev);
    } else if (x->kind == SSA_PHI) {
        for (uint32_t k = 0; k < x->nargs; k++) mark_value(p, x->args[k]);
        /* which argument it takes is decided by the branches to its block */
        const Cfg *c = p->c;
        for (uint32_t k = 0; k < cfg_npred(c, x->block); k++) mark_block_control(p, cfg_preds(c, x->block)[k]);
        mark_block_control(p, x->block);
    }
}

static void mark_block_control(Prune *p, uint32_t b)
{
    if (b >= p->c->n || p->bctl[b]) return;
    p->bctl[b] = 1;
    for (uint32_t k = 0; k < dom_ndf(p->pd, b); k++) {
        uint32_t cb = dom_dfs(p->pd, b)[k];
        if (cb >= p->c->n) continue;
        if (p->c->term[cb] == TERM_BRA && p->c->term_instr[cb] != ANA_NONE) mark_instr(p, p->c->term_instr[cb]);
    }
}

/* A store's space may hold what a load of space `ld` reads. */
static bool may_alias(const Instr *st, const Instr *ld, uint32_t ldflags)
{
    if (ldflags & OPF_CALL) return true;
    Str a = instr_space(st), b = instr_space(ld);
    if (!a.len || !b.len) return true;   /* generic */
    return str_eq(a, b);
}

/* The stores a memory-reading live instruction may read: back along the
 * memory values (through merges) to the entry. */
static void mark_memory(Prune *p, uint32_t i, uint32_t mv)
{
    const Instr *ld = &p->c->instr[i]->u.instr;
    uint32_t fl = p->c->iflags[i];
    uint32_t *stack = malloc(sizeof *stack * 64), ns = 0, cs = 64;
    uint8_t *seen = calloc(p->s->nvalues, 1);
    if (!stack || !seen) abort();
    stack[ns++] = mv;
    while (ns) {
        uint32_t v = stack[--ns];
        if (v == ANA_NONE || v < p->s->nvars || seen[v]) continue;
        seen[v] = 1;
        const SsaVal *x = &p->s->v[v];
        uint32_t next[1] = { ANA_NONE };
        if (x->kind == SSA_DEF) {
            const Instr *st = &p->c->instr[x->instr]->u.instr;
            if (!p->cand[x->instr] || may_alias(st, ld, fl)) mark_instr(p, x->instr);
            next[0] = x->prev;
        }
        uint32_t na = x->kind == SSA_PHI ? x->nargs : 1;
        for (uint32_t k = 0; k < na; k++) {
            uint32_t a = x->kind == SSA_PHI ? x->args[k] : next[0];
            if (ns == cs) {
                cs *= 2;
                stack = realloc(stack, sizeof *stack * cs);
                if (!stack) abort();
            }
            stack[ns++] = a;
        }
        /* a merge of memory needs no branch of its own: the stores it merges
         * that may matter are live, and so are the branches they depend on */
    }
    free(stack);
    free(seen);
}

/* Registers only ever written by the depot's address setup. */
static void depot_setup(Function *fn, const Cfg *c, uint8_t *cand)
{
    uint32_t nr = fn->nregs ? fn->nregs : 1;
    uint8_t *depot = calloc(nr, 1), *other = calloc(nr, 1);
    for (bool grew = true; grew;) {
        grew = false;
        for (uint32_t i = 0; i < c->ninstr; i++) {
            const Instr *in = &c->instr[i]->u.instr;
            if (in->guard || in->nops < 2 || in->ops[0].kind != OPND_REG) continue;
            uint32_t r = in->ops[0].u.reg->id;
            const Operand *q = &in->ops[1];
            bool ok = false;
            if (str_eqc(in->full, "mov.u64"))
                ok = in->nops == 2 && q->kind == OPND_SYM && opnd_text(q).len > 13 && !memcmp(opnd_text(q).p, "__local_depot", 13);
            else if (q->kind == OPND_REG && !q->comp && depot[q->u.reg->id])
                ok = (str_eqc(in->full, "cvta.local.u64") && in->nops == 2) ||
                     ((str_eqc(in->full, "add.u64") || str_eqc(in->full, "add.s64")) && in->nops == 3 &&
                      in->ops[2].kind == OPND_INT) ||
                     (str_eqc(in->full, "mov.u64") && in->nops == 2) || (str_eqc(in->full, "mov.b64") && in->nops == 2);
            if (ok && !depot[r]) depot[r] = 1, grew = true;
        }
    }
    /* written by anything else: not a depot register */
    for (uint32_t i = 0; i < c->ninstr; i++) {
        const Instr *in = &c->instr[i]->u.instr;
        RegRef refs[32];
        int n = refs_of_instr(fn, in, refs, 32);
        bool setup = !in->guard && in->nops >= 2 && in->ops[0].kind == OPND_REG && depot[in->ops[0].u.reg->id];
        for (int k = 0; k < n && k < 32; k++)
            if ((refs[k].flags & REF_DEF) && refs[k].reg < fn->nregs && !setup) other[refs[k].reg] = 1;
    }
    for (uint32_t i = 0; i < c->ninstr; i++) {
        const Instr *in = &c->instr[i]->u.instr;
        if (!in->guard && in->nops >= 2 && in->ops[0].kind == OPND_REG && depot[in->ops[0].u.reg->id] &&
            !other[in->ops[0].u.reg->id])
            cand[i] = 1;
    }
    free(depot), free(other);
}

static bool label_used(Function *fn, Str name)
{
    FOR_EACH_BLOCK (b, fn)
        FOR_EACH_STMT (s, b) {
            if (s->kind == STMT_INSTR) {
                for (int k = 0; k < s->u.instr.nops; k++) {
                    const Operand *o = &s->u.instr.ops[k];
                    if (o->kind == OPND_SYM && str_eq(opnd_text(o), name)) return true;
                    if (o->kind == OPND_LIST || o->kind == OPND_VEC)
                        for (int j = 0; j < o->n; j++)
                            if (o->u.elems[j].kind == OPND_SYM && str_eq(opnd_text(&o->u.elems[j]), name)) return true;
                }
            } else if (s->kind == STMT_DIRECTIVE && (s->dirkind == DIR_BRANCHTARGETS || s->dirkind == DIR_CALLTARGETS)) {
                for (uint32_t k = 0; k < s->u.dir.ntok; k++)
                    if (str_eq(s->u.dir.tok[k].text, name)) return true;
            }
        }
    return false;
}

/* Removes the local depot's declaration when nothing names it. */
static void drop_unused_depot(Function *fn)
{
    FOR_EACH_BLOCK (b, fn)
        for (Stmt *d = b->first, *nx; d; d = nx) {
            nx = d->next;
            if (d->kind != STMT_DECL || !str_eqc(d->u.decl->space, ".local") || d->u.decl->ndecl != 1 ||
                !str_starts(d->u.decl->decls[0].name, "__local_depot"))
                continue;
            Str name = d->u.decl->decls[0].name;
            bool used = false;
            FOR_EACH_BLOCK (b2, fn)
                FOR_EACH_STMT (t, b2) {
                    if (t->kind != STMT_INSTR) continue;
                    for (int k = 0; k < t->u.instr.nops && !used; k++) {
                        const Operand *o = &t->u.instr.ops[k];
                        const Operand *base = o->kind == OPND_ADDR && o->n ? &o->u.elems[0] : o;
                        used |= base->kind == OPND_SYM && str_eq(opnd_text(base), name);
                    }
                }
            if (!used) ir_remove(d);
        }
}

void sfu_prune(Function *fn, Stmt **cands, int ncand, Stmt **self, int nself)
{
    analysis_invalidate(fn);
    Prune p = { .fn = fn };
    p.c = cfg_get(fn);
    p.s = ssa_get(fn);
    p.pd = postdom_get(fn);
    const Cfg *c = p.c;
    uint32_t ni = c->ninstr ? c->ninstr : 1;
    p.cand = calloc(ni, 1);
    p.live = calloc(ni, 1);
    p.vseen = calloc(p.s->nvalues ? p.s->nvalues : 1, 1);
    p.bctl = calloc(c->n + 1, 1);
    p.work = malloc(sizeof *p.work * ni);
    p.self = calloc(ni, 1);
    /* the blocks reachable before: only those the prune cuts off may go */
    Block **reach0 = malloc(sizeof *reach0 * (c->n + 1));
    uint32_t nreach0 = 0;
    for (uint32_t b = 0; b < c->n; b++)
        if (cfg_reachable(c, b)) reach0[nreach0++] = c->blocks[b];
    for (int k = 0; k < ncand; k++) {
        uint32_t i = cfg_instr_index(c, cands[k]);
        if (i != ANA_NONE) p.cand[i] = 1;
    }
    for (int k = 0; k < nself; k++) {
        uint32_t i = cfg_instr_index(c, self[k]);
        if (i != ANA_NONE) p.self[i] = 1;
    }
    depot_setup(fn, c, p.cand);
    for (uint32_t i = 0; i < c->ninstr; i++) {
        /* unconditional branches are the CFG's shape, handled below */
        const Instr *in = &c->instr[i]->u.instr;
        bool uncond = in->op == OP_bra && !in->guard;
        if (uncond) p.live[i] = 1;   /* the CFG's shape: kept, nothing depends on it */
        else if (!p.cand[i]) mark_instr(&p, i);
    }
    while (p.nwork) {
        uint32_t i = p.work[--p.nwork];
        dbg_from = c->instr[i]->line;
        const Ssa *s = p.s;
        for (uint32_t u = s->use_start[i]; u < s->use_start[i + 1]; u++) {
            const SsaUse *x = &s->uses[u];
            if (x->flags & REF_MEM) {
                /* a store's own use of memory is its partial write, not a read */
                if (x->flags & REF_PARTIAL) {
                    const Instr *in = &c->instr[i]->u.instr;
                    uint32_t fl = c->iflags[i];
                    if ((fl & (OPF_STORE)) && !(fl & (OPF_ATOMIC | OPF_CALL | OPF_LOAD))) continue;
                    (void)in;
                }
                if (!p.self[i]) mark_memory(&p, i, x->value);
                continue;
            }
            mark_value(&p, x->value);
        }
        mark_block_control(&p, c->instr_block[i]);
    }
    /* dead candidates go; dead conditional branches jump to where their paths meet */
    Stmt **gone = malloc(sizeof *gone * ni);
    Stmt **jumps = malloc(sizeof *jumps * (2 * ni + 2));   /* jumps the prune may drop again */
    Str *labels = malloc(sizeof *labels * (6 * ni + 6));    /* labels that may have lost their last reference */
    uint32_t ngone = 0, njumps = 0, nlabels = 0;
    for (uint32_t i = 0; i < c->ninstr; i++) {
        Stmt *st = c->instr[i];
        Instr *in = &st->u.instr;
        if (p.cand[i] && in->op == OP_bra && !in->guard) jumps[njumps++] = st;
        if (!p.cand[i] || p.live[i]) continue;
        if (in->op == OP_bra && in->guard) {
            uint32_t b = c->instr_block[i];
            uint32_t ip = p.pd->idom[b];
            if (ip == ANA_NONE || ip >= c->n) continue;   /* paths meet only at the exit: keep it */
            Str lab = ir_block_label(c->blocks[ip]);
            Stmt *j = ir_new_instr(fn, "bra", 1);
            j->u.instr.ops[0] = ir_op_sym(fn->mod, lab, 0);
            j->line = st->line;
            ir_insert_before(st, j);
            jumps[njumps++] = j;
            if (in->nops == 1 && in->ops[0].kind == OPND_SYM) labels[nlabels++] = opnd_text(&in->ops[0]);
        }
        gone[ngone++] = st;
    }
    for (uint32_t k = 0; k < ngone; k++) ir_remove(gone[k]);
    free(gone);
    ir_renumber_blocks(fn);
    analysis_invalidate(fn);
    /* blocks the prune made unreachable: their jumps, labels and pragmas go
     * (blocks unreachable before it stay as they were) */
    for (bool again = true; again;) {
        again = false;
        const Cfg *c2 = cfg_get(fn);
        for (uint32_t b = 1; b < c2->n; b++) {
            Block *bb = c2->blocks[b];
            bool before = false;
            for (uint32_t k = 0; k < nreach0 && !before; k++) before = reach0[k] == bb;
            if (cfg_reachable(c2, b) || !before) continue;
            bool only = true, had = false;
            FOR_EACH_STMT (t, bb) {
                if (t->kind == STMT_INSTR && !(t->u.instr.op == OP_bra && !t->u.instr.guard)) only = false;
                else if (t->kind != STMT_INSTR && t->kind != STMT_LABEL && t->kind != STMT_DIRECTIVE) only = false;
                had |= t->kind == STMT_INSTR || t->kind == STMT_LABEL;
            }
            if (!only || !had) continue;
            for (Stmt *t = bb->first, *nx; t; t = nx) {
                nx = t->next;
                if (t->kind == STMT_INSTR) {
                    labels[nlabels++] = opnd_text(&t->u.instr.ops[0]);
                    for (uint32_t k = 0; k < njumps; k++)
                        if (jumps[k] == t) jumps[k] = NULL;
                }
                ir_remove(t);
            }
            again = true;
        }
        if (again) {
            ir_renumber_blocks(fn);
            analysis_invalidate(fn);
        }
    }
    /* the prune's jumps (and the region's) to the very next label */
    for (uint32_t k = 0; k < njumps; k++) {
        Stmt *t = jumps[k];
        if (!t || !t->block || t->u.instr.nops != 1 || t->u.instr.ops[0].kind != OPND_SYM) continue;
        Str to = opnd_text(&t->u.instr.ops[0]);
        bool to_next = false;
        Block *nb = t->block;
        Stmt *q = t->next;
        for (;;) {
            while (!q && nb->next) nb = nb->next, q = nb->first;
            if (!q || (q->kind != STMT_LABEL && q->kind != STMT_DIRECTIVE)) break;
            if (q->kind == STMT_LABEL && str_eq(q->u.label, to)) {
                to_next = true;
                break;
            }
            q = q->next;
        }
        if (to_next) {
            labels[nlabels++] = to;
            ir_remove(t);
        }
    }
    /* labels that lost their last reference */
    FOR_EACH_BLOCK (b, fn)
        for (Stmt *t = b->first, *nx; t; t = nx) {
            nx = t->next;
            if (t->kind != STMT_LABEL) continue;
            bool cand = false;
            for (uint32_t k = 0; k < nlabels && !cand; k++) cand = str_eq(labels[k], t->u.label);
            if (cand && !label_used(fn, t->u.label)) ir_remove(t);
        }
    free(jumps), free(labels), free(reach0);
    drop_unused_depot(fn);
    ir_renumber_blocks(fn);
    FOR_EACH_BLOCK (b, fn) {
        b->label = (Str){ 0 };
        if (b->first && b->first->kind == STMT_LABEL) b->label = b->first->u.label;
    }
    analysis_invalidate(fn);
    free(p.cand), free(p.self), free(p.live), free(p.vseen), free(p.bctl), free(p.work);
}
