/* cfg.c — the control-flow graph of a function.
 *
 * Blocks come from the parser (cut at labels and after terminators); edges
 * from each block's last instruction:
 *   bra L            → L              @p bra L   → fallthrough, L
 *   brx.idx i, T     → every label of the .branchtargets list named T
 *   ret, exit, trap  → the virtual exit (guarded: also the fallthrough)
 *   anything else    → the next block (the last block falls to the exit)
 * Calls do not end blocks: control comes back (the call graph is separate,
 * callgraph.c).  A target that cannot be resolved becomes an edge to the
 * exit and marks the block CFGB_BAD_TARGET (the function is then treated
 * as leaving there, which keeps every analysis sound). */
#include "analysis/internal.h"

typedef struct CfgPriv {
    PtrMap instr_of;   /* Stmt* → instruction number (built on first use) */
    PtrMap block_of;   /* Block* → index (built on first use) */
    StrMap label_of;   /* label → block index */
} CfgPriv;

uint32_t cfg_block_index(const Cfg *c, const Block *b)
{
    CfgPriv *p = c->priv;
    if (!p->block_of.cap) {
        ptrmap_init(&p->block_of, ana_arena(c->fn), c->n);
        for (uint32_t i = 0; i < c->n; i++) ptrmap_put(&p->block_of, c->blocks[i], i);
    }
    return ptrmap_get(&p->block_of, b);
}

uint32_t cfg_instr_index(const Cfg *c, const Stmt *s)
{
    CfgPriv *p = c->priv;
    if (!p->instr_of.cap) {
        ptrmap_init(&p->instr_of, ana_arena(c->fn), c->ninstr);
        for (uint32_t i = 0; i < c->ninstr; i++) ptrmap_put(&p->instr_of, c->instr[i], i);
    }
    return ptrmap_get(&p->instr_of, s);
}

uint32_t cfg_label_block(const Cfg *c, Str label)
{
    return strmap_get(&((CfgPriv *)c->priv)->label_of, label);
}

uint32_t cfg_pred_pos(const Cfg *c, uint32_t b, uint32_t p)
{
    const uint32_t *pr = cfg_preds(c, b);
    uint32_t n = cfg_npred(c, b);
    for (uint32_t i = 0; i < n; i++)
        if (pr[i] == p) return i;
    return ANA_NONE;
}

/* The .branchtargets list that `label` names: the first such directive in
 * the label's block (the label must be written right before it). */
static const Stmt *branchtargets_of(const Cfg *c, Str label)
{
    uint32_t b = cfg_label_block(c, label);
    if (b == ANA_NONE) return NULL;
    bool seen_label = false;
    FOR_EACH_STMT(s, c->blocks[b]) {
        if (s->kind == STMT_LABEL && str_eq(s->u.label, label)) seen_label = true;
        else if (seen_label && s->kind == STMT_DIRECTIVE && s->dirkind == DIR_BRANCHTARGETS) return s;
        else if (seen_label && s->kind == STMT_INSTR) return NULL;
    }
    return NULL;
}

static void push_edge(U32Vec *src, U32Vec *dst, uint32_t from, uint32_t to)
{
    /* deduplicate among this block's successors (they are pushed last) */
    for (uint32_t i = src->n; i-- > 0 && src->v[i] == from;)
        if (dst->v[i] == to) return;
    u32_push(src, from);
    u32_push(dst, to);
}

static const Operand *first_sym(const Instr *in)
{
    for (int k = 0; k < in->nops; k++)
        if (in->ops[k].kind == OPND_SYM) return &in->ops[k];
    return NULL;
}

static void block_edges(Cfg *c, uint32_t b, U32Vec *src, U32Vec *dst)
{
    uint32_t n = c->n;
    uint32_t next = b + 1 < n ? b + 1 : n;
    c->term[b] = TERM_FALL;
    c->term_instr[b] = ANA_NONE;
    uint32_t last = c->block_instr[b + 1];
    if (last == c->block_instr[b]) {      /* no instruction */
        push_edge(src, dst, b, next);
        return;
    }
    last--;
    const Instr *in = &c->instr[last]->u.instr;
    uint32_t fl = c->iflags[last];
    if (!(fl & OPF_TERMINATOR)) {
        push_edge(src, dst, b, next);
        return;
    }
    c->term_instr[b] = last;
    if (in->guard) {
        c->flags[b] |= CFGB_GUARDED;
        push_edge(src, dst, b, next);
    }
    if (instr_has_mod(in, ".uni")) c->flags[b] |= CFGB_UNI;
    if (in->op == OP_bra) {
        c->term[b] = TERM_BRA;
        const Operand *t = first_sym(in);
        uint32_t tb = t ? cfg_label_block(c, opnd_text(t)) : ANA_NONE;
        if (tb == ANA_NONE) {
            c->flags[b] |= CFGB_BAD_TARGET;
            c->bad_target = true;
            tb = n;
        }
        push_edge(src, dst, b, tb);
    } else if (in->op == OP_brx) {
        c->term[b] = TERM_BRX;
        const Operand *t = in->nops >= 2 && in->ops[1].kind == OPND_SYM ? &in->ops[1] : first_sym(in);
        const Stmt *bt = t ? branchtargets_of(c, opnd_text(t)) : NULL;
        bool bad = bt == NULL;
        if (bt) {
            for (uint32_t k = 1; k < bt->u.dir.ntok; k++) {
                const Token *tok = &bt->u.dir.tok[k];
                if (tok->kind == TOKK_PUNCT) continue;
                uint32_t tb = cfg_label_block(c, tok->text);
                if (tb == ANA_NONE) { bad = true; continue; }
                push_edge(src, dst, b, tb);
            }
        }
        if (bad) {
            c->flags[b] |= CFGB_BAD_TARGET;
            c->bad_target = true;
            push_edge(src, dst, b, n);
        }
    } else {
        c->term[b] = in->op == OP_ret ? TERM_RET : in->op == OP_trap ? TERM_TRAP : TERM_EXIT;
        push_edge(src, dst, b, n);
    }
}

static void compute_rpo(Cfg *c, Arena *a)
{
    uint32_t n = c->n;
    c->rpo_index = ARENA_ARRAY(a, uint32_t, n + 1);
    for (uint32_t i = 0; i <= n; i++) c->rpo_index[i] = ANA_NONE;
    uint32_t *post = xmalloc(sizeof(uint32_t) * (n + 1));
    uint32_t npost = 0;
    if (n == 0) {
        c->rpo = ARENA_ARRAY(a, uint32_t, 1);
        c->nrpo = 0;
        free(post);
        return;
    }
    uint8_t *seen = xcalloc(n + 1, 1);
    uint32_t *stack = xmalloc(sizeof(uint32_t) * (n + 1));
    uint32_t *it = xmalloc(sizeof(uint32_t) * (n + 1));
    uint32_t sp = 0;
    stack[sp] = 0;
    it[sp++] = 0;
    seen[0] = 1;
    while (sp) {
        uint32_t b = stack[sp - 1];
        if (it[sp - 1] < cfg_nsucc(c, b)) {
            uint32_t s = cfg_succs(c, b)[it[sp - 1]++];
            if (s < n && !seen[s]) {
                seen[s] = 1;
                stack[sp] = s;
                it[sp++] = 0;
            }
        } else {
            post[npost++] = b;
            sp--;
        }
    }
    c->nrpo = npost;
    c->rpo = ARENA_ARRAY(a, uint32_t, npost ? npost : 1);
    for (uint32_t i = 0; i < npost; i++) {
        c->rpo[i] = post[npost - 1 - i];
        c->rpo_index[c->rpo[i]] = i;
        c->flags[c->rpo[i]] |= CFGB_REACHABLE;
    }
    /* the exit is reachable when a reachable block leaves */
    for (uint32_t i = 0; i < cfg_npred(c, n); i++)
        if (c->flags[cfg_preds(c, n)[i]] & CFGB_REACHABLE) c->flags[n] |= CFGB_REACHABLE;
    free(seen);
    free(stack);
    free(it);
    free(post);
}

static Cfg *cfg_build(Function *fn)
{
    Arena *a = ana_arena(fn);
    Cfg *c = ARENA_NEW(a, Cfg);
    CfgPriv *p = ARENA_NEW(a, CfgPriv);
    c->fn = fn;
    c->priv = p;
    uint32_t n = 0, ninstr = 0;
    FOR_EACH_BLOCK(b, fn) {
        n++;
        FOR_EACH_STMT(s, b) ninstr += s->kind == STMT_INSTR;
    }
    c->n = n;
    c->ninstr = ninstr;
    c->blocks = ARENA_ARRAY(a, Block *, n + 1);
    c->instr = ARENA_ARRAY(a, Stmt *, ninstr + 1);
    c->instr_block = ARENA_ARRAY(a, uint32_t, ninstr + 1);
    c->block_instr = ARENA_ARRAY(a, uint32_t, n + 2);
    c->flags = ARENA_ARRAY(a, uint8_t, n + 1);
    c->term = ARENA_ARRAY(a, uint8_t, n + 1);
    c->term_instr = ARENA_ARRAY(a, uint32_t, n + 1);
    c->iflags = ARENA_ARRAY(a, uint32_t, ninstr + 1);
    strmap_init(&p->label_of, a, n);
    uint32_t bi = 0, ii = 0;
    FOR_EACH_BLOCK(b, fn) {
        c->blocks[bi] = b;
        c->block_instr[bi] = ii;
        FOR_EACH_STMT(s, b) {
            if (s->kind == STMT_LABEL) strmap_put(&p->label_of, s->u.label, bi);
            if (s->kind != STMT_INSTR) continue;
            c->instr[ii] = s;
            c->instr_block[ii] = bi;
            c->iflags[ii] = s->u.instr.op == OP_UNKNOWN ? 0 : opcode_flags_full(s->u.instr.full.p, s->u.instr.full.len);
            ii++;
        }
        if (b->label.len) strmap_put(&p->label_of, b->label, bi);
        bi++;
    }
    c->block_instr[n] = ii;
    c->block_instr[n + 1] = ii;

    U32Vec src = { 0 }, dst = { 0 };
    for (uint32_t b = 0; b < n; b++) block_edges(c, b, &src, &dst);
    csr_build(a, n + 1, src.n, src.v, dst.v, &c->succ_start, &c->succ);
    csr_build(a, n + 1, dst.n, dst.v, src.v, &c->pred_start, &c->pred);
    for (uint32_t i = 0; i < cfg_npred(c, n); i++) c->flags[cfg_preds(c, n)[i]] |= CFGB_LEAVES;
    u32_free(&src);
    u32_free(&dst);
    compute_rpo(c, a);
    return c;
}

const Cfg *cfg_get(Function *fn)
{
    AnalysisCache *ac = analysis_cache(fn);
    if (!ac->cfg) ac->cfg = cfg_build(fn);
    return ac->cfg;
}
