/* ssa.c — the SSA overlay: pruned SSA (Cytron et al.: merges at the
 * iterated dominance frontier of the writes, kept only where the register is
 * live), renamed by a preorder walk of the dominator tree with an undo log.
 * Blocks unreachable from the entry are renamed on their own, starting from
 * the entry values, so every read has a value and every merge argument is
 * filled (LLVM accepts any value in an unreachable block).
 *
 * Value numbers: entry values 0..nvars-1, then for each block in layout
 * order its merges (by register) followed by the writes of its
 * instructions, so versions read in program order. */
#include "analysis/internal.h"

static void place_phis(Function *fn, const Cfg *c, const DomTree *d, const RegRefs *r, const Liveness *l,
                       U32Vec *phi_block, U32Vec *phi_var)
{
    uint32_t n = c->n, nv = r->nvars;
    /* blocks that write each variable (CSR) */
    U32Vec src = { 0 }, dst = { 0 };
    uint32_t *last = xmalloc(sizeof(uint32_t) * nv);
    for (uint32_t v = 0; v < nv; v++) last[v] = ANA_NONE;
    for (uint32_t b = 0; b < n; b++) {
        if (!cfg_reachable(c, b)) continue;
        for (uint32_t i = c->block_instr[b]; i < c->block_instr[b + 1]; i++)
            for (uint32_t k = r->start[i]; k < r->start[i + 1]; k++) {
                const RegRef *x = &r->refs[k];
                if (!(x->flags & REF_DEF) || last[x->reg] == b) continue;
                last[x->reg] = b;
                u32_push(&src, x->reg);
                u32_push(&dst, b);
            }
    }
    free(last);
    uint32_t *ds, *db;
    uint32_t *dsm = xmalloc(sizeof(uint32_t) * (nv + 1));
    /* CSR by hand (scratch memory, not the arena) */
    memset(dsm, 0, sizeof(uint32_t) * (nv + 1));
    for (uint32_t i = 0; i < src.n; i++) dsm[src.v[i] + 1]++;
    for (uint32_t v = 0; v < nv; v++) dsm[v + 1] += dsm[v];
    ds = dsm;
    db = xmalloc(sizeof(uint32_t) * (src.n + 1));
    uint32_t *fill = xmalloc(sizeof(uint32_t) * (nv + 1));
    memcpy(fill, ds, sizeof(uint32_t) * (nv + 1));
    for (uint32_t i = 0; i < src.n; i++) db[fill[src.v[i]]++] = dst.v[i];
    free(fill);
    u32_free(&src);
    u32_free(&dst);

    uint32_t *has_phi = xmalloc(sizeof(uint32_t) * (n + 1));
    uint32_t *in_work = xmalloc(sizeof(uint32_t) * (n + 1));
    for (uint32_t b = 0; b <= n; b++) has_phi[b] = in_work[b] = ANA_NONE;
    uint32_t *work = xmalloc(sizeof(uint32_t) * (n + 1));
    for (uint32_t v = 0; v < nv; v++) {
        if (ds[v] == ds[v + 1]) continue;
        uint32_t nw = 0;
        for (uint32_t k = ds[v]; k < ds[v + 1]; k++) {
            in_work[db[k]] = v;
            work[nw++] = db[k];
        }
        while (nw) {
            uint32_t x = work[--nw];
            for (uint32_t k = 0; k < dom_ndf(d, x); k++) {
                uint32_t y = dom_dfs(d, x)[k];
                if (y >= n || has_phi[y] == v) continue;
                has_phi[y] = v;
                if (!liveness_in(l, y, v)) continue;
                u32_push(phi_block, y);
                u32_push(phi_var, v);
                if (in_work[y] != v) {
                    in_work[y] = v;
                    work[nw++] = y;
                }
            }
        }
    }
    free(has_phi);
    free(in_work);
    free(work);
    free(ds);
    free(db);
    (void)fn;
}

typedef struct Renamer {
    Ssa *s;
    const Cfg *c;
    const RegRefs *r;
    uint32_t *cur;            /* current value per variable */
    U32Vec log;               /* (variable, old value) pairs */
} Renamer;

static inline void set_cur(Renamer *rn, uint32_t v, uint32_t val)
{
    u32_push(&rn->log, v);
    u32_push(&rn->log, rn->cur[v]);
    rn->cur[v] = val;
}

static void undo_to(Renamer *rn, uint32_t mark)
{
    while (rn->log.n > mark) {
        uint32_t old = rn->log.v[--rn->log.n];
        uint32_t v = rn->log.v[--rn->log.n];
        rn->cur[v] = old;
    }
}

static void rename_block(Renamer *rn, uint32_t b)
{
    Ssa *s = rn->s;
    const Cfg *c = rn->c;
    const RegRefs *r = rn->r;
    for (uint32_t k = s->phi_start[b]; k < s->phi_start[b + 1]; k++) set_cur(rn, s->v[s->phis[k]].reg, s->phis[k]);
    for (uint32_t i = c->block_instr[b]; i < c->block_instr[b + 1]; i++) {
        uint32_t u = s->use_start[i], dk = s->def_start[i];
        for (uint32_t k = r->start[i]; k < r->start[i + 1]; k++) {
            const RegRef *x = &r->refs[k];
            if (x->flags & REF_USE) {
                SsaUse *su = &s->uses[u++];
                su->instr = i;
                su->reg = x->reg;
                su->value = (x->flags & REF_SPECIAL) ? x->reg : rn->cur[x->reg];
                su->flags = x->flags;
                su->opnd = x->opnd;
                su->elem = x->elem;
                su->comp = x->comp;
            } else if (x->flags & REF_DEF) {
                uint32_t val = s->defs[dk++];
                SsaVal *sv = &s->v[val];
                if (sv->partial) sv->prev = rn->cur[x->reg];
                set_cur(rn, x->reg, val);
            }
        }
    }
    for (uint32_t j = 0; j < cfg_nsucc(c, b); j++) {
        uint32_t t = cfg_succs(c, b)[j];
        if (t >= c->n || s->phi_start[t] == s->phi_start[t + 1]) continue;
        uint32_t pos = cfg_pred_pos(c, t, b);
        for (uint32_t k = s->phi_start[t]; k < s->phi_start[t + 1]; k++) {
            SsaVal *p = &s->v[s->phis[k]];
            p->args[pos] = rn->cur[p->reg];
        }
    }
}

static Ssa *ssa_build(Function *fn)
{
    const Cfg *c = cfg_get(fn);
    const DomTree *d = dom_get(fn);
    const RegRefs *r = refs_get(fn);
    const Liveness *l = liveness_get(fn);
    Arena *a = ana_arena(fn);
    Ssa *s = ARENA_NEW(a, Ssa);
    uint32_t n = c->n, nv = r->nvars;
    s->cfg = c;
    s->nvars = nv;

    U32Vec pb = { 0 }, pv = { 0 };
    place_phis(fn, c, d, r, l, &pb, &pv);
    /* merges per block, sorted by variable */
    csr_build(a, n + 1, pb.n, pb.v, pv.v, &s->phi_start, &s->phis);
    for (uint32_t b = 0; b < n; b++) {
        uint32_t *p = s->phis + s->phi_start[b], m = s->phi_start[b + 1] - s->phi_start[b];
        for (uint32_t i = 1; i < m; i++) {     /* insertion sort: few merges per block */
            uint32_t x = p[i], j = i;
            while (j > 0 && p[j - 1] > x) { p[j] = p[j - 1]; j--; }
            p[j] = x;
        }
    }
    u32_free(&pb);
    u32_free(&pv);

    /* counts: writes and reads per instruction */
    uint32_t ndefs = 0, nuses = 0;
    s->def_start = ARENA_ARRAY(a, uint32_t, c->ninstr + 1);
    s->use_start = ARENA_ARRAY(a, uint32_t, c->ninstr + 1);
    for (uint32_t i = 0; i < c->ninstr; i++) {
        s->def_start[i] = ndefs;
        s->use_start[i] = nuses;
        for (uint32_t k = r->start[i]; k < r->start[i + 1]; k++) {
            if (r->refs[k].flags & REF_USE) nuses++;
            else if (r->refs[k].flags & REF_DEF) ndefs++;
        }
    }
    s->def_start[c->ninstr] = ndefs;
    s->use_start[c->ninstr] = nuses;
    s->nvalues = nv + (s->phi_start[n]) + ndefs;
    s->v = ARENA_ARRAY(a, SsaVal, s->nvalues + 1);
    s->defs = ARENA_ARRAY(a, uint32_t, ndefs + 1);
    s->uses = ARENA_ARRAY(a, SsaUse, nuses + 1);

    /* value numbers in layout order; versions per variable */
    uint32_t *ver = xcalloc(nv, sizeof(uint32_t));
    for (uint32_t v = 0; v < nv; v++) {
        SsaVal *sv = &s->v[v];
        sv->kind = SSA_ENTRY;
        sv->reg = v;
        sv->block = sv->instr = sv->prev = ANA_NONE;
        sv->opnd = sv->elem = 255;
    }
    uint32_t id = nv;
    for (uint32_t b = 0; b < n; b++) {
        for (uint32_t k = s->phi_start[b]; k < s->phi_start[b + 1]; k++) {
            uint32_t v = s->phis[k];     /* variable for now */
            SsaVal *sv = &s->v[id];
            sv->kind = SSA_PHI;
            sv->reg = v;
            sv->block = b;
            sv->instr = sv->prev = ANA_NONE;
            sv->opnd = sv->elem = 255;
            sv->version = ++ver[v];
            sv->nargs = cfg_npred(c, b) + (b == 0 ? 1 : 0);   /* block 0: + the function entry */
            sv->args = ARENA_ARRAY(a, uint32_t, sv->nargs ? sv->nargs : 1);
            for (uint32_t j = 0; j < sv->nargs; j++) sv->args[j] = v;   /* entry value until renamed */
            s->phis[k] = id++;
        }
        for (uint32_t i = c->block_instr[b]; i < c->block_instr[b + 1]; i++) {
            uint32_t dk = s->def_start[i];
            for (uint32_t k = r->start[i]; k < r->start[i + 1]; k++) {
                const RegRef *x = &r->refs[k];
                if ((x->flags & REF_USE) || !(x->flags & REF_DEF)) continue;
                SsaVal *sv = &s->v[id];
                sv->kind = SSA_DEF;
                sv->reg = x->reg;
                sv->block = b;
                sv->instr = i;
                sv->opnd = x->opnd;
                sv->elem = x->elem;
                sv->partial = (x->flags & REF_PARTIAL) != 0;
                sv->prev = ANA_NONE;
                sv->version = ++ver[x->reg];
                s->defs[dk++] = id++;
            }
        }
    }
    free(ver);

    /* rename */
    Renamer rn = { s, c, r, xmalloc(sizeof(uint32_t) * nv), { 0 } };
    for (uint32_t v = 0; v < nv; v++) rn.cur[v] = v;
    if (n > 0) {
        uint32_t *stack = xmalloc(sizeof(uint32_t) * (n + 1) * 3);
        uint32_t sp = 0;
        rename_block(&rn, 0);
        stack[0] = 0;
        stack[1] = d->child_start[0];
        stack[2] = 0;   /* log mark before block 0: everything */
        sp = 1;
        while (sp) {
            uint32_t *top = stack + (sp - 1) * 3;
            uint32_t b = top[0];
            if (top[1] < d->child_start[b + 1]) {
                uint32_t ch = d->child[top[1]++];
                uint32_t mark = rn.log.n;
                rename_block(&rn, ch);
                uint32_t *nt = stack + sp * 3;
                nt[0] = ch;
                nt[1] = d->child_start[ch];
                nt[2] = mark;
                sp++;
            } else {
                undo_to(&rn, top[2]);
                sp--;
            }
        }
        free(stack);
        for (uint32_t b = 0; b < n; b++) {
            if (cfg_reachable(c, b)) continue;
            uint32_t mark = rn.log.n;
            rename_block(&rn, b);
            undo_to(&rn, mark);
        }
    }
    free(rn.cur);
    u32_free(&rn.log);

    /* def-use chains */
    U32Vec src = { 0 }, dst = { 0 };
    for (uint32_t u = 0; u < nuses; u++) {
        u32_push(&src, s->uses[u].value);
        u32_push(&dst, u);
    }
    csr_build(a, s->nvalues, src.n, src.v, dst.v, &s->du_start, &s->du);
    src.n = dst.n = 0;
    for (uint32_t k = 0; k < s->phi_start[n]; k++) {
        const SsaVal *p = &s->v[s->phis[k]];
        for (uint32_t j = 0; j < p->nargs; j++) {
            u32_push(&src, p->args[j]);
            u32_push(&dst, s->phis[k]);
        }
    }
    csr_build(a, s->nvalues, src.n, src.v, dst.v, &s->pu_start, &s->pu);
    u32_free(&src);
    u32_free(&dst);
    return s;
}

const Ssa *ssa_get(Function *fn)
{
    AnalysisCache *ac = analysis_cache(fn);
    if (!ac->ssa) ac->ssa = ssa_build(fn);
    return ac->ssa;
}

/* ----------------------------------------------------------------- queries */

static SsaValue block_entry_value(const Ssa *s, uint32_t b, uint32_t reg);

SsaValue ssa_at_block_end(const Ssa *s, uint32_t b, uint32_t reg)
{
    const Cfg *c = s->cfg;
    if (b >= c->n) return reg;
    for (uint32_t i = c->block_instr[b + 1]; i-- > c->block_instr[b];)
        for (uint32_t k = s->def_start[i + 1]; k-- > s->def_start[i];)
            if (s->v[s->defs[k]].reg == reg) return s->defs[k];
    return block_entry_value(s, b, reg);
}

static SsaValue block_entry_value(const Ssa *s, uint32_t b, uint32_t reg)
{
    const DomTree *d = dom_get(s->cfg->fn);
    for (;;) {
        for (uint32_t k = s->phi_start[b]; k < s->phi_start[b + 1]; k++)
            if (s->v[s->phis[k]].reg == reg) return s->phis[k];
        uint32_t up = d->idom[b];
        if (up == ANA_NONE) return reg;          /* entry block or unreachable */
        const Cfg *c = s->cfg;
        for (uint32_t i = c->block_instr[up + 1]; i-- > c->block_instr[up];)
            for (uint32_t k = s->def_start[i + 1]; k-- > s->def_start[i];)
                if (s->v[s->defs[k]].reg == reg) return s->defs[k];
        b = up;
    }
}

SsaValue ssa_reaching(const Ssa *s, uint32_t instr, uint32_t reg)
{
    const Cfg *c = s->cfg;
    if (instr >= c->ninstr) return ANA_NONE;
    if (reg < s->nvars - 1 && c->fn->regs[reg]->special) return reg;
    uint32_t b = c->instr_block[instr];
    for (uint32_t i = instr; i-- > c->block_instr[b];)
        for (uint32_t k = s->def_start[i + 1]; k-- > s->def_start[i];)
            if (s->v[s->defs[k]].reg == reg) return s->defs[k];
    return block_entry_value(s, b, reg);
}

SsaValue ssa_use_value(Function *fn, const Stmt *st, const Reg *r)
{
    const Ssa *s = ssa_get(fn);
    uint32_t i = cfg_instr_index(s->cfg, st);
    if (i == ANA_NONE || !r) return ANA_NONE;
    for (uint32_t u = s->use_start[i]; u < s->use_start[i + 1]; u++)
        if (s->uses[u].reg == r->id && !(s->uses[u].flags & REF_PARTIAL)) return s->uses[u].value;
    return ssa_reaching(s, i, r->id);
}

const char *ssa_value_name(const Ssa *s, SsaValue v, char *buf, size_t cap)
{
    if (v >= s->nvalues) {
        snprintf(buf, cap, "?");
        return buf;
    }
    const SsaVal *sv = &s->v[v];
    const Function *fn = s->cfg->fn;
    if (sv->reg == s->nvars - 1) snprintf(buf, cap, "%%mem#%u", sv->version);
    else {
        const Reg *r = fn->regs[sv->reg];
        if (r->special) snprintf(buf, cap, "%.*s", STR_FMT(r->name));
        else snprintf(buf, cap, "%.*s#%u", STR_FMT(r->name), sv->version);
    }
    return buf;
}

/* ------------------------------------------------------------------ check */

/* Does value v dominate the point just before instruction i (or the end of block b when i == ANA_NONE)? */
static bool value_dominates(const Ssa *s, const DomTree *d, SsaValue v, uint32_t b, uint32_t i)
{
    const SsaVal *sv = &s->v[v];
    if (sv->kind == SSA_ENTRY) return true;
    if (sv->block == b) {
        if (sv->kind == SSA_PHI) return true;
        return i == ANA_NONE || sv->instr < i;
    }
    return dom_dominates(d, sv->block, b);
}

int ssa_check(Function *fn, FILE *err)
{
    const Ssa *s = ssa_get(fn);
    const Cfg *c = s->cfg;
    const DomTree *d = dom_get(fn);
    int bad = 0;
    char b1[64], b2[64];
    for (uint32_t i = 0; i < c->ninstr; i++) {
        uint32_t b = c->instr_block[i];
        if (!cfg_reachable(c, b)) continue;
        for (uint32_t u = s->use_start[i]; u < s->use_start[i + 1]; u++) {
            if (value_dominates(s, d, s->uses[u].value, b, i)) continue;
            if (err)
                fprintf(err, "%.*s: block %s: read of %s at line %u is not dominated by its value\n",
                        STR_FMT(fn->name), cfg_block_name(c, b, b1, sizeof b1),
                        ssa_value_name(s, s->uses[u].value, b2, sizeof b2), c->instr[i]->line);
            bad++;
        }
    }
    for (uint32_t b = 0; b < c->n; b++) {
        if (!cfg_reachable(c, b)) continue;
        for (uint32_t k = s->phi_start[b]; k < s->phi_start[b + 1]; k++) {
            const SsaVal *p = &s->v[s->phis[k]];
            if (p->nargs != cfg_npred(c, b) + (b == 0)) {
                if (err)
                    fprintf(err, "%.*s: block %s: merge %s has %u arguments for %u predecessors\n", STR_FMT(fn->name),
                            cfg_block_name(c, b, b1, sizeof b1), ssa_value_name(s, s->phis[k], b2, sizeof b2),
                            p->nargs, cfg_npred(c, b) + (b == 0));
                bad++;
                continue;
            }
            for (uint32_t j = 0; j < p->nargs && j < cfg_npred(c, b); j++) {
                uint32_t pb = cfg_preds(c, b)[j];
                if (!cfg_reachable(c, pb) || value_dominates(s, d, p->args[j], pb, ANA_NONE)) continue;
                if (err)
                    fprintf(err, "%.*s: block %s: merge %s argument from %s is not available there\n",
                            STR_FMT(fn->name), cfg_block_name(c, b, b1, sizeof b1),
                            ssa_value_name(s, s->phis[k], b2, sizeof b2), cfg_block_name(c, pb, b1, sizeof b1));
                bad++;
            }
        }
    }
    return bad;
}

SsaValue ssa_operand_value(const Ssa *s, uint32_t instr, int opnd)
{
    for (uint32_t u = s->use_start[instr]; u < s->use_start[instr + 1]; u++) {
        const SsaUse *x = &s->uses[u];
        if (x->opnd == opnd && !(x->flags & (REF_PARTIAL | REF_GUARD | REF_MEM))) return x->value;
    }
    return ANA_NONE;
}
