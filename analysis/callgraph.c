/* callgraph.c — who calls whom in a module.
 *
 * call{.uni} [(ret-list),] callee, [(args)] [, proto|targets]: the callee is
 * the first operand outside a list.  A symbol that names a function of the
 * module is a direct call; a register is an indirect call (its targets may
 * be listed by .calltargets, which we do not resolve).  Recursion is found
 * with Tarjan's strongly connected components over direct calls. */
#include "analysis/internal.h"

static const Operand *callee_operand(const Instr *in)
{
    for (int k = 0; k < in->nops; k++) {
        const Operand *o = &in->ops[k];
        if (o->kind == OPND_LIST) continue;
        if (o->kind == OPND_SYM || o->kind == OPND_REG) return o;
        return NULL;
    }
    return NULL;
}

typedef struct Tarjan {
    const CallGraph *cg;
    uint32_t *index, *low, *stack;
    bool *on;
    uint32_t sp, next;
    bool *rec;
} Tarjan;

static void strongconnect(Tarjan *t, uint32_t v0)
{
    /* iterative Tarjan: frames of (node, next callee position) */
    uint32_t n = t->cg->nfuncs;
    uint32_t *fn = xmalloc(sizeof(uint32_t) * (n + 1)), *it = xmalloc(sizeof(uint32_t) * (n + 1));
    uint32_t fp = 0;
    fn[fp] = v0;
    it[fp++] = t->cg->callee_start[v0];
    t->index[v0] = t->low[v0] = t->next++;
    t->stack[t->sp++] = v0;
    t->on[v0] = true;
    while (fp) {
        uint32_t v = fn[fp - 1];
        if (it[fp - 1] < t->cg->callee_start[v + 1]) {
            uint32_t w = t->cg->callees[it[fp - 1]++];
            if (w == v) t->rec[v] = true;
            if (t->index[w] == ANA_NONE) {
                t->index[w] = t->low[w] = t->next++;
                t->stack[t->sp++] = w;
                t->on[w] = true;
                fn[fp] = w;
                it[fp++] = t->cg->callee_start[w];
            } else if (t->on[w] && t->index[w] < t->low[v]) {
                t->low[v] = t->index[w];
            }
            continue;
        }
        if (t->low[v] == t->index[v]) {
            uint32_t size = 0, first = t->sp;
            do {
                first--;
                size++;
            } while (t->stack[first] != v);
            for (uint32_t k = first; k < t->sp; k++) {
                t->on[t->stack[k]] = false;
                if (size > 1) t->rec[t->stack[k]] = true;
            }
            t->sp = first;
        }
        fp--;
        if (fp) {
            uint32_t p = fn[fp - 1];
            if (t->low[v] < t->low[p]) t->low[p] = t->low[v];
        }
    }
    free(fn);
    free(it);
}

CallGraph *callgraph_build(Module *m)
{
    CallGraph *cg = xcalloc(1, sizeof *cg);
    uint32_t n = m->nfuncs;
    cg->m = m;
    cg->nfuncs = n;
    Arena tmp;
    arena_init(&tmp);
    StrMap names;
    strmap_init(&names, &tmp, n);
    /* a definition is preferred over a declaration of the same name */
    for (uint32_t i = 0; i < n; i++)
        if (m->funcs[i]->has_body) strmap_put(&names, m->funcs[i]->name, i);
    for (uint32_t i = 0; i < n; i++) strmap_put(&names, m->funcs[i]->name, i);
    uint32_t cap = 16;
    cg->sites = xmalloc(sizeof(CallSite) * cap);
    cg->site_start = xcalloc(n + 1, sizeof(uint32_t));
    cg->has_indirect = xcalloc(n + 1, sizeof(bool));
    cg->recursive = xcalloc(n + 1, sizeof(bool));
    U32Vec src = { 0 }, dst = { 0 };
    for (uint32_t i = 0; i < n; i++) {
        Function *fn = m->funcs[i];
        cg->site_start[i] = cg->nsites;
        FOR_EACH_BLOCK(b, fn)
            FOR_EACH_STMT(s, b) {
                if (s->kind != STMT_INSTR || s->u.instr.op != OP_call) continue;
                const Operand *o = callee_operand(&s->u.instr);
                if (cg->nsites == cap) cg->sites = xrealloc(cg->sites, sizeof(CallSite) * (cap *= 2));
                CallSite *cs = &cg->sites[cg->nsites++];
                memset(cs, 0, sizeof *cs);
                cs->caller = i;
                cs->stmt = s;
                cs->callee = ANA_NONE;
                if (o && o->kind == OPND_SYM) {
                    cs->name = opnd_text(o);
                    uint32_t k = strmap_get(&names, cs->name);
                    cs->callee = k;
                    if (k != ANA_NONE) {
                        bool dup = false;
                        for (uint32_t q = src.n; q-- > 0 && src.v[q] == i;) dup |= dst.v[q] == k;
                        if (!dup) {
                            u32_push(&src, i);
                            u32_push(&dst, k);
                        }
                    }
                } else {
                    cs->indirect = true;
                    cg->has_indirect[i] = true;
                }
            }
    }
    cg->site_start[n] = cg->nsites;
    /* callee CSR (malloc'ed, like the rest of the graph) */
    cg->callee_start = xcalloc(n + 1, sizeof(uint32_t));
    cg->callees = xmalloc(sizeof(uint32_t) * (src.n + 1));
    for (uint32_t k = 0; k < src.n; k++) cg->callee_start[src.v[k] + 1]++;
    for (uint32_t i = 0; i < n; i++) cg->callee_start[i + 1] += cg->callee_start[i];
    for (uint32_t k = 0; k < src.n; k++) cg->callees[k] = dst.v[k];   /* already grouped by caller */
    u32_free(&src);
    u32_free(&dst);
    arena_free(&tmp);
    /* recursion */
    Tarjan t = { cg, xmalloc(sizeof(uint32_t) * (n + 1)), xmalloc(sizeof(uint32_t) * (n + 1)),
                 xmalloc(sizeof(uint32_t) * (n + 1)), xcalloc(n + 1, sizeof(bool)), 0, 0, cg->recursive };
    for (uint32_t i = 0; i < n; i++) t.index[i] = ANA_NONE;
    for (uint32_t i = 0; i < n; i++)
        if (t.index[i] == ANA_NONE) strongconnect(&t, i);
    free(t.index);
    free(t.low);
    free(t.stack);
    free(t.on);
    return cg;
}

void callgraph_free(CallGraph *cg)
{
    if (!cg) return;
    free(cg->sites);
    free(cg->site_start);
    free(cg->callee_start);
    free(cg->callees);
    free(cg->recursive);
    free(cg->has_indirect);
    free(cg);
}
