/* test_cfg_random.c — hundreds of seeded random control-flow graphs,
 * written as PTX, parsed, and checked against brute-force definitions:
 *
 *   CFG          every block's successors are the ones the generator meant
 *                (fallthrough, bra, @p bra, brx.idx over .branchtargets,
 *                ret/exit, @p ret, infinite loops, unreachable blocks);
 *   dominators   a dom b  ⇔  b is reachable and every entry→b path meets a
 *                (b unreachable once a is removed);
 *   post-dom.    a pdom b ⇔ every b→exit path meets a, on the graph with the
 *                fake exit edges of the documented rule (recomputed here);
 *   frontiers    DF(a) = { b | a dom some pred of b, a !sdom b } (both trees);
 *   loops        body(h) = h ∪ { x | x reaches a latch without passing h };
 *   SSA          a read sees a merge ⇔ two writes (or the entry) reach it,
 *                and otherwise the one write that reaches it; ssa_check()
 *                and the LLVM cross-check report nothing.
 *
 * Usage: test_cfg_random [COUNT [FIRST_SEED]] (default 500 graphs from seed 1).
 * Prints every failure; exits 1 if any. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/cfg.h"
#include "analysis/defuse.h"
#include "analysis/dom.h"
#include "analysis/llvm_mirror.h"
#include "analysis/loops.h"
#include "analysis/ssa.h"
#include "parser/parse.h"

static int failures;
static unsigned seed;
static long checks;

#define CHECK(cond, ...)                                  \
    do {                                                  \
        checks++;                                         \
        if (!(cond)) {                                    \
            if (failures++ < 40) {                        \
                printf("FAIL seed %u: ", seed);           \
                printf(__VA_ARGS__);                      \
                printf("\n");                             \
            }                                             \
        }                                                 \
    } while (0)

static uint64_t rng;
static uint32_t rnd(uint32_t n)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)(rng % n);
}

typedef struct Text {
    char *p;
    size_t len, cap;
} Text;

static void emit(Text *t, const char *fmt, ...)
{
    va_list ap;
    for (;;) {
        va_start(ap, fmt);
        int n = vsnprintf(t->p + t->len, t->cap - t->len, fmt, ap);
        va_end(ap);
        if ((size_t)n < t->cap - t->len) {
            t->len += (size_t)n;
            return;
        }
        t->cap = t->cap * 2 + 256;
        t->p = realloc(t->p, t->cap);
    }
}

enum { MAXN = 48, NREG = 6 };

typedef struct Gen {
    uint32_t n;
    uint32_t nsucc[MAXN];
    uint32_t succ[MAXN][6];   /* node index, or MAXN for the exit */
} Gen;

static void add_succ(Gen *g, uint32_t i, uint32_t s)
{
    for (uint32_t k = 0; k < g->nsucc[i]; k++)
        if (g->succ[i][k] == s) return;
    g->succ[i][g->nsucc[i]++] = s;
}

/* A random function; fills g with the intended successor lists of nodes L0..Ln-1. */
static char *generate(Gen *g, size_t *len)
{
    Text t = { malloc(4096), 0, 4096 };
    uint32_t n = 2 + rnd(MAXN - 2);
    g->n = n;
    /* one graph in five starts with L0, so that the entry block itself can
     * be a loop header (its merges then have a function-entry argument);
     * those have no brx (a branch table's label would split L0) */
    bool l0_first = rnd(5) == 0;
    emit(&t, ".version 8.0\n.target sm_80\n.address_size 64\n\n.visible .entry k(.param .u64 out)\n{\n");
    if (l0_first) emit(&t, "L0:\n");
    emit(&t, "\t.reg .pred %%p<3>;\n\t.reg .b32 %%r<%d>;\n\t.reg .b64 %%rd<3>;\n", NREG + 1);
    emit(&t, "\tld.param.u64 %%rd1, [out];\n\tmov.u32 %%r1, %%tid.x;\n\tsetp.ne.u32 %%p1, %%r1, 0;\n");
    /* terminators first, so that branch tables can be written up front */
    int kind[MAXN];
    uint32_t target[MAXN][4], ntarget[MAXN];
    for (uint32_t i = 0; i < n; i++) {
        g->nsucc[i] = 0;
        uint32_t r = rnd(100);
        kind[i] = r < 25 ? 0 : r < 40 ? 1 : r < 62 ? 2 : r < 72 ? 3 : r < 78 ? 4 : r < 84 ? 5 : r < 88 ? 6 : r < 91 ? 7 : 0;
        if (l0_first && kind[i] == 3) kind[i] = 2;
        ntarget[i] = kind[i] == 3 ? 1 + rnd(4) : 1;
        for (uint32_t k = 0; k < ntarget[i]; k++) target[i][k] = rnd(n);
        if (kind[i] == 7) target[i][0] = i;
        uint32_t next = i + 1 < n ? i + 1 : MAXN;
        switch (kind[i]) {
        case 0: add_succ(g, i, next); break;
        case 1: case 7: add_succ(g, i, target[i][0]); break;
        case 2: add_succ(g, i, next); add_succ(g, i, target[i][0]); break;
        case 3: for (uint32_t k = 0; k < ntarget[i]; k++) add_succ(g, i, target[i][k]); break;
        case 4: case 6: add_succ(g, i, MAXN); break;
        case 5: add_succ(g, i, next); add_succ(g, i, MAXN); break;
        }
        if (kind[i] == 3) {
            emit(&t, "T%u: .branchtargets ", i);
            for (uint32_t k = 0; k < ntarget[i]; k++) emit(&t, "%sL%u", k ? ", " : "", target[i][k]);
            emit(&t, ";\n");
        }
    }
    for (uint32_t i = 0; i < n; i++) {
        if (i || !l0_first) emit(&t, "L%u:\n", i);
        uint32_t body = rnd(4);
        for (uint32_t k = 0; k < body; k++) {
            uint32_t a = 2 + rnd(NREG - 1), b = 1 + rnd(NREG), c = 1 + rnd(NREG);
            switch (rnd(6)) {
            case 0: emit(&t, "\tmov.u32 %%r%u, %u;\n", a, rnd(100)); break;
            case 1: emit(&t, "\tadd.s32 %%r%u, %%r%u, %%r%u;\n", a, b, c); break;
            case 2: emit(&t, "\t@%%p1 mov.u32 %%r%u, %%r%u;\n", a, b); break;
            case 3: emit(&t, "\tst.global.u32 [%%rd1], %%r%u;\n", b); break;
            case 4: emit(&t, "\tld.global.u32 %%r%u, [%%rd1];\n", a); break;
            default: emit(&t, "\tsetp.lt.s32 %%p2, %%r%u, %%r%u;\n", b, c); break;
            }
        }
        switch (kind[i]) {
        case 1: emit(&t, "\tbra.uni L%u;\n", target[i][0]); break;
        case 7: emit(&t, "\tbra L%u;\n", target[i][0]); break;
        case 2: emit(&t, "\t@%%p%u bra L%u;\n", 1 + rnd(2), target[i][0]); break;
        case 3: emit(&t, "\tbrx.idx %%r%u, T%u;\n", 1 + rnd(NREG), i); break;
        case 4: emit(&t, "\tret;\n"); break;
        case 5: emit(&t, "\t@!%%p1 ret;\n"); break;
        case 6: emit(&t, "\texit;\n"); break;
        default: break;
        }
    }
    emit(&t, "}\n");
    *len = t.len;
    return t.p;
}

/* Nodes reachable from `root` over succ (or pred when `rev`), not entering `skip`. */
static void reach(const Cfg *c, uint32_t root, uint32_t skip, bool rev, const uint8_t *fake, uint8_t *out)
{
    uint32_t nn = c->n + 1;
    uint32_t stack[4 * MAXN + 16], sp = 0;
    memset(out, 0, nn);
    if (root == skip) return;
    out[root] = 1;
    stack[sp++] = root;
    while (sp) {
        uint32_t x = stack[--sp];
        uint32_t cnt = rev ? cfg_npred(c, x) : cfg_nsucc(c, x);
        const uint32_t *v = rev ? cfg_preds(c, x) : cfg_succs(c, x);
        for (uint32_t k = 0; k <= cnt; k++) {
            uint32_t y;
            if (k < cnt) y = v[k];
            else if (!fake) continue;
            else if (!rev) { if (!fake[x]) continue; y = c->n; }    /* fake x -> exit */
            else {                                                   /* exit -> fake blocks */
                if (x != c->n) continue;
                for (uint32_t f = 0; f < c->n; f++)
                    if (fake[f] && f != skip && !out[f]) { out[f] = 1; stack[sp++] = f; }
                continue;
            }
            if (y == skip || out[y]) continue;
            out[y] = 1;
            stack[sp++] = y;
        }
    }
}

/* The writes of `reg` reaching the point before instruction `i` of block
 * `b` (i may be the block's end), brute force backwards; checks that the
 * overlay's value there agrees. */
static void check_value(const Cfg *c, const Ssa *s, const uint8_t *all, uint32_t b, uint32_t i, uint32_t reg,
                        SsaValue got, const char *what, uint32_t where)
{
    uint32_t ndefs = 0, thedef = ANA_NONE;
    bool entry = false;
    uint8_t seen[MAXN * 3 + 8] = { 0 };
    uint32_t stack[MAXN * 3 + 8], sp = 0;
    bool done = false;
    for (uint32_t j = i; j-- > c->block_instr[b] && !done;)
        for (uint32_t k = s->def_start[j]; k < s->def_start[j + 1]; k++)
            if (s->v[s->defs[k]].reg == reg) { thedef = s->defs[k]; ndefs = 1; done = true; }
    if (!done) {
        if (b == 0) entry = true;
        for (uint32_t k = 0; k < cfg_npred(c, b); k++) {
            uint32_t p = cfg_preds(c, b)[k];
            if (all[p] && !seen[p]) { seen[p] = 1; stack[sp++] = p; }
        }
        while (sp) {
            uint32_t x = stack[--sp];
            uint32_t last = ANA_NONE;
            for (uint32_t j = c->block_instr[x + 1]; j-- > c->block_instr[x] && last == ANA_NONE;)
                for (uint32_t k = s->def_start[j]; k < s->def_start[j + 1]; k++)
                    if (s->v[s->defs[k]].reg == reg) last = s->defs[k];
            if (last != ANA_NONE) {
                if (last != thedef) ndefs++;
                thedef = last;
                continue;
            }
            if (x == 0) entry = true;
            for (uint32_t k = 0; k < cfg_npred(c, x); k++) {
                uint32_t p = cfg_preds(c, x)[k];
                if (all[p] && !seen[p]) { seen[p] = 1; stack[sp++] = p; }
            }
        }
    }
    uint32_t distinct = ndefs + (entry ? 1 : 0);
    const SsaVal *v = &s->v[got];
    if (distinct >= 2) CHECK(v->kind == SSA_PHI, "%s%u, r%u: %u definitions reach it but no merge", what, where, reg, distinct);
    else if (ndefs == 1) CHECK(got == thedef, "%s%u, r%u: value %u, the one definition is %u", what, where, reg, got, thedef);
    else CHECK(v->kind == SSA_ENTRY && v->reg == reg, "%s%u, r%u: only the entry reaches it", what, where, reg);
    if (v->kind == SSA_PHI) CHECK(v->reg == reg, "%s%u: merge of another register", what, where);
}

static void check_function(Function *fn, const Gen *g)
{
    const Cfg *c = cfg_get(fn);
    uint32_t n = c->n, nn = n + 1;
    /* 1. edges */
    for (uint32_t i = 0; i < g->n; i++) {
        char lab[16];
        snprintf(lab, sizeof lab, "L%u", i);
        uint32_t b = cfg_label_block(c, (Str){ lab, strlen(lab) });
        CHECK(b != ANA_NONE, "label %s has no block", lab);
        if (b == ANA_NONE) return;
        CHECK(cfg_nsucc(c, b) == g->nsucc[i], "%s: %u successors, expected %u", lab, cfg_nsucc(c, b), g->nsucc[i]);
        for (uint32_t k = 0; k < g->nsucc[i] && k < cfg_nsucc(c, b); k++) {
            uint32_t want = g->succ[i][k];
            uint32_t got = cfg_succs(c, b)[k];
            char wl[16];
            snprintf(wl, sizeof wl, "L%u", want);
            uint32_t wb = want == MAXN ? n : cfg_label_block(c, (Str){ wl, strlen(wl) });
            CHECK(got == wb, "%s: successor %u is block %u, expected %u", lab, k, got, wb);
        }
    }
    /* 2. dominators */
    const DomTree *d = dom_get(fn);
    uint8_t *all = malloc(nn), *wo = malloc(nn);
    reach(c, 0, ANA_NONE, false, NULL, all);
    for (uint32_t b = 0; b < n; b++) CHECK(!!cfg_reachable(c, b) == !!all[b], "reachability of bb%u", b);
    for (uint32_t a = 0; a < n; a++) {
        reach(c, 0, a, false, NULL, wo);
        for (uint32_t b = 0; b < n; b++) {
            bool want = all[b] && all[a] && (a == b || !wo[b]);
            CHECK(dom_dominates(d, a, b) == want, "dom(bb%u, bb%u) = %d, brute force %d", a, b, dom_dominates(d, a, b), want);
        }
    }
    /* dominance frontier */
    for (uint32_t a = 0; a < n; a++) {
        if (!all[a]) continue;
        for (uint32_t b = 0; b < n; b++) {
            if (!all[b]) continue;
            bool want = false;
            for (uint32_t k = 0; k < cfg_npred(c, b); k++) {
                uint32_t p = cfg_preds(c, b)[k];
                if (all[p] && dom_dominates(d, a, p) && !(a != b && dom_dominates(d, a, b))) want = true;
            }
            bool got = false;
            for (uint32_t k = 0; k < dom_ndf(d, a); k++) got |= dom_dfs(d, a)[k] == b;
            CHECK(got == want, "DF(bb%u) contains bb%u: %d, brute force %d", a, b, got, want);
        }
    }
    /* 3. post-dominators with the documented fake-edge rule */
    const DomTree *pd = postdom_get(fn);
    uint8_t *fake = calloc(nn, 1), *rexit = malloc(nn);
    reach(c, n, ANA_NONE, true, NULL, rexit);
    for (uint32_t b = n; b-- > 0;) {
        if (rexit[b]) continue;
        fake[b] = 1;
        uint8_t *r2 = malloc(nn);
        reach(c, b, ANA_NONE, true, NULL, r2);
        for (uint32_t x = 0; x < nn; x++) rexit[x] |= r2[x];
        free(r2);
    }
    uint32_t nf = 0;
    for (uint32_t b = 0; b < n; b++) nf += fake[b];
    CHECK(nf == pd->nfake, "%u fake exit edges, brute force %u", pd->nfake, nf);
    for (uint32_t k = 0; k < pd->nfake; k++) CHECK(fake[pd->fake[k]], "bb%u should not get a fake edge", pd->fake[k]);
    for (uint32_t a = 0; a <= n; a++) {
        /* can b reach the exit without a? (forward graph + fake edges) */
        for (uint32_t b = 0; b <= n; b++) {
            bool want;
            if (a == b) want = true;
            else if (b == n) want = false;
            else {
                reach(c, b, a, false, fake, wo);
                want = !wo[n];
            }
            CHECK(dom_dominates(pd, a, b) == want, "pdom(%u, %u) = %d, brute force %d", a, b, dom_dominates(pd, a, b), want);
        }
    }
    /* post-dominance frontier: b in PDF(a) iff a pdom some succ s of b (fake included), a !spdom b */
    for (uint32_t a = 0; a <= n; a++)
        for (uint32_t b = 0; b < n; b++) {
            bool want = false;
            for (uint32_t k = 0; k <= cfg_nsucc(c, b); k++) {
                uint32_t s = k < cfg_nsucc(c, b) ? cfg_succs(c, b)[k] : (fake[b] ? n : ANA_NONE);
                if (s == ANA_NONE) continue;
                if (dom_dominates(pd, a, s) && !(a != b && dom_dominates(pd, a, b))) want = true;
            }
            bool got = false;
            for (uint32_t k = 0; k < dom_ndf(pd, a); k++) got |= dom_dfs(pd, a)[k] == b;
            CHECK(got == want, "PDF(%u) contains bb%u: %d, brute force %d", a, b, got, want);
        }
    /* 4. natural loops */
    const LoopInfo *li = loops_get(fn);
    for (uint32_t h = 0; h < n; h++) {
        if (!all[h]) continue;
        uint8_t body[MAXN * 3 + 8] = { 0 };
        bool header = false;
        for (uint32_t k = 0; k < cfg_npred(c, h); k++) {
            uint32_t t = cfg_preds(c, h)[k];
            if (!all[t] || !dom_dominates(d, h, t)) continue;
            header = true;
            /* x in body iff x reaches t without passing h */
            for (uint32_t x = 0; x < n; x++) {
                if (!all[x]) continue;
                if (x == h) { body[x] = 1; continue; }
                reach(c, x, h, false, NULL, wo);
                if (wo[t]) body[x] = 1;
            }
        }
        uint32_t found = ANA_NONE;
        for (uint32_t l = 0; l < li->nloops; l++)
            if (li->loops[l].header == h) found = l;
        CHECK(header == (found != ANA_NONE), "bb%u is a loop header: %d, brute force %d", h, found != ANA_NONE, header);
        if (!header || found == ANA_NONE) continue;
        for (uint32_t x = 0; x < n; x++)
            CHECK(loop_contains(li, found, x) == !!body[x], "loop of bb%u contains bb%u: %d, brute force %d", h, x,
                  loop_contains(li, found, x), body[x]);
    }
    /* 5. SSA: merges exactly where two definitions (or the entry) reach a
     * read, otherwise the one definition that does; merge arguments alike */
    const Ssa *s = ssa_get(fn);
    for (uint32_t i = 0; i < c->ninstr; i++) {
        uint32_t b = c->instr_block[i];
        if (!all[b]) continue;
        for (uint32_t u = s->use_start[i]; u < s->use_start[i + 1]; u++) {
            const SsaUse *su = &s->uses[u];
            if (su->flags & REF_SPECIAL) continue;
            check_value(c, s, all, b, i, su->reg, su->value, "read in i", i);
        }
    }
    for (uint32_t b = 0; b < n; b++) {
        if (!all[b]) continue;
        for (uint32_t k = s->phi_start[b]; k < s->phi_start[b + 1]; k++) {
            const SsaVal *p = &s->v[s->phis[k]];
            CHECK(p->nargs == cfg_npred(c, b) + (b == 0), "merge in bb%u has %u arguments for %u predecessors", b, p->nargs,
                  cfg_npred(c, b));
            for (uint32_t j = 0; j < p->nargs && j < cfg_npred(c, b); j++) {
                uint32_t pb = cfg_preds(c, b)[j];
                if (all[pb]) check_value(c, s, all, pb, c->block_instr[pb + 1], p->reg, p->args[j], "merge argument from bb", pb);
            }
            if (b == 0 && p->nargs > cfg_npred(c, 0))
                CHECK(p->args[p->nargs - 1] == p->reg, "the function-entry argument of a merge in bb0 is the entry value");
        }
    }
    CHECK(ssa_check(fn, stdout) == 0, "ssa_check");
    free(all);
    free(wo);
    free(fake);
    free(rexit);
}

int main(int argc, char **argv)
{
    unsigned count = argc > 1 ? (unsigned)atoi(argv[1]) : 500;
    unsigned first = argc > 2 ? (unsigned)atoi(argv[2]) : 1;
    unsigned llvm_checked = 0, blocks = 0;
    for (seed = first; seed < first + count; seed++) {
        rng = 0x9e3779b97f4a7c15ull ^ ((uint64_t)seed * 0x2545F4914F6CDD1Dull);
        Gen g;
        size_t len;
        char *text = generate(&g, &len);
        char *buf = malloc(len + 2);
        memcpy(buf, text, len);
        char name[32];
        snprintf(name, sizeof name, "random-%u.ptx", seed);
        Module *m = parse_module(name, buf, len, stdout);
        CHECK(m != NULL, "the generated PTX does not parse:\n%s", text);
        if (m) {
            check_function(m->funcs[0], &g);
            blocks += cfg_get(m->funcs[0])->n;
            int v = analysis_verify_llvm(m, stdout);
            if (v >= 0) {
                llvm_checked++;
                CHECK(v == 0, "LLVM cross-check: %d disagreements", v);
            }
            if (failures && failures < 3) printf("--- seed %u input:\n%s", seed, text);
            ir_module_free(m);
        }
        free(text);
    }
    printf("%u random CFGs (%u blocks, seeds %u..%u): %ld checks, %d failures; %u also cross-checked by LLVM\n", count,
           blocks, first, first + count - 1, checks, failures, llvm_checked);
    return failures ? 1 : 0;
}
