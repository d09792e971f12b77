/* flag.c — lock used as a flag (issue 15 §2b; research/seed-002-sfu-lock.md
 * §3.10 trigger 2, the thesis's atom_lock channel, Listing 7.11):
 *
 *   init:      mutex[t] = 1 (plain store) ... bar.sync
 *   producer:  data[t] = v; fence; atom.exch mutex[t], 0       (release)
 *   consumer:  L: atom.cas o, [mutex[p]], 0, 1; @o!=0 bra L; fence;
 *              x = data[p]; atom.exch _, [mutex[p]], 0           (restore)
 *
 * The consumer takes the lock only to learn that the producer has
 * released it; its critical section only reads.  It becomes
 *
 *   consumer:  L: ld.acquire.cta.shared.u32 o, [mutex[p]]; @o!=0 bra L;
 *              x = data[p];                       (no fence, no restore)
 *   producer:  data[t] = v; st.release.cta.shared.b32 [mutex[t]], 0
 *
 * Obligations, over every access of the lock's variable in the kernel:
 *   - consumers: the attempt is the loop header's atom.cas (0 -> k) with a
 *     full cta fence where it is acquired, a restore (atom.exch 0 to the
 *     same word, result unused) that post-dominates the acquired path and
 *     is dominated by it, and between them only loads (no store, atomic,
 *     barrier, collective or call): the exclusion it gave up only ever
 *     separated readers from readers;
 *   - non-zero writes: only plain stores of a constant, before a CTA
 *     barrier (converged, once, on every path) that dominates every
 *     consumer: every token is held before any consumer looks, and nobody
 *     else takes it later (so "observed free" means "released by its
 *     producer", as "acquired" did);
 *   - zero writes besides the restores: fenced releases (cta scope), which
 *     become releasing stores;
 *   - no other access of the variable; sm_70 and PTX 6.0 (acquire/release).
 * Everything else stays as it is, with a remark. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opt/tinylock/internal.h"

static const Stmt *prev_instr(const Stmt *s)
{
    for (s = s->prev; s; s = s->prev)
        if (s->kind == STMT_INSTR) return s;
    return NULL;
}

static bool const_operand(Function *fn, const Stmt *st, int k, uint64_t *v)
{
    const Operand *o = &st->u.instr.ops[k];
    if (o->kind == OPND_INT) { *v = (uint64_t)o->value; return true; }
    if (o->kind != OPND_REG) return false;
    const Term *t = vterms_value(fn, ssa_use_value(fn, st, o->u.reg));
    if (!t || t->op != T_CONST) return false;
    *v = t->k;
    return true;
}

static bool result_unused(const Ssa *ssa, const Cfg *cfg, const Stmt *st)
{
    const Instr *in = &st->u.instr;
    if (in->ops[0].kind == OPND_SINK) return true;
    uint32_t i = cfg_instr_index(cfg, st);
    if (ssa->def_start[i + 1] == ssa->def_start[i]) return false;
    SsaValue dv = ssa->defs[ssa->def_start[i]];
    return ssa->du_start[dv + 1] == ssa->du_start[dv] && ssa->pu_start[dv + 1] == ssa->pu_start[dv];
}

typedef struct Cons {
    SpinSite *s;
    Stmt *restore;
} Cons;

int tl_flag_rewrite(Function *fn, const TlTarget *t, const Options *o, SpinSite *sites, int n, Remarks *rm)
{
    analysis_invalidate(fn);
    const Cfg *cfg = cfg_get(fn);
    const DomTree *dom = dom_get(fn), *pdom = postdom_get(fn);
    const MemInfo *mi = memory_get(fn);
    const Ssa *ssa = ssa_get(fn);
    const LoopInfo *li = loops_get(fn);
    Cons *cons = calloc((size_t)n + 1, sizeof *cons);
    int ncons = 0;
    /* 1. consumer shapes */
    for (int i = 0; i < n; i++) {
        SpinSite *s = &sites[i];
        if (s->ok || !s->acquire_shape || !instr_has_mod(&s->cas->u.instr, ".cas")) continue;
        const char *why = NULL;
        uint32_t casi = cfg_instr_index(cfg, s->cas), fa = cfg_instr_index(cfg, s->fence_acq);
        s->addr = vterms_address(fn, casi, 1); /* the analyses were recomputed: this table's term */
        uint32_t E = cfg->instr_block[fa];
        const MemAccess *a = mi->acc_of_instr[casi] != ANA_NONE ? &mi->acc[mi->acc_of_instr[casi]] : NULL;
        Stmt *restore = NULL;
        if (!t->ordered) why = "the target has no acquire/release forms (sm_70 and PTX 6.0)";
        else if (strcmp(s->scope, "cta") || !a || a->space != SPACE_SHARED || a->base.kind != BASE_VAR)
            why = "not a cta-scope lock in a shared variable";
        else {
            /* the restore: the first atom.exch of 0 to the same word after the fence, on the acquired path */
            for (uint32_t k = fa + 1; k < cfg->ninstr && !restore; k++) {
                const Stmt *st = cfg->instr[k];
                const Instr *in = &st->u.instr;
                uint64_t v;
                if (in->op == OP_atom && instr_has_mod(in, ".exch") && in->nops == 3 && vterms_address(fn, k, 1) == s->addr &&
                    const_operand(fn, st, 2, &v) && v == 0 && !in->guard)
                    restore = cfg->instr[k];
            }
            uint32_t R = restore ? cfg->instr_block[cfg_instr_index(cfg, restore)] : ANA_NONE;
            uint32_t ri = restore ? cfg_instr_index(cfg, restore) : ANA_NONE;
            if (!restore) why = "no restore (atom.exch of 0 to the same word) after the acquire";
            else if (!dom_dominates(dom, E, R) || !dom_dominates(pdom, R, E) || (E == R && ri < fa))
                why = "the restore is not in the acquire's divergent region";
            else if (!result_unused(ssa, cfg, restore)) why = "the restore's old value is read";
            else if (prev_instr(restore) && (opcode_flags_full(prev_instr(restore)->u.instr.full.p, prev_instr(restore)->u.instr.full.len) & OPF_FENCE))
                why = "the restore is fenced: a release of the consumer's own writes";
            else {
                /* read-only critical section: blocks from E to R */
                uint8_t *vis = calloc(cfg->n + 1, 1);
                uint32_t *stack = calloc(cfg->n + 1, sizeof *stack), sp = 0;
                stack[sp++] = E;
                while (sp && !why) {
                    uint32_t b = stack[--sp];
                    if (b >= cfg->n || vis[b]) continue;
                    vis[b] = 1;
                    for (uint32_t k = cfg->block_instr[b]; k < cfg->block_instr[b + 1]; k++) {
                        if (b == E && k <= fa) continue;
                        if (b == R && k >= ri) break;
                        if (cfg->iflags[k] & (OPF_STORE | OPF_ATOMIC | OPF_BARRIER | OPF_COLLECTIVE | OPF_CALL | OPF_EXIT))
                            why = "the critical section writes (or synchronises): the lock protects more than a read";
                    }
                    if (b != R)
                        for (uint32_t k = 0; k < cfg_nsucc(cfg, b) && sp < cfg->n; k++) stack[sp++] = cfg_succs(cfg, b)[k];
                }
                free(vis), free(stack);
            }
        }
        if (why) {
            if (o->flag) remark(rm, PASS, fn, s->cas, REMARK_MISSED, "lock used as a flag: not rewritten: %s", why);
            continue;
        }
        cons[ncons++] = (Cons){ s, restore };
    }
    /* 2. every other access of each consumer's variable */
    int done = 0;
    for (int i = 0; i < ncons; i++) {
        if (!cons[i].s) continue;
        Str var = mi->acc[mi->acc_of_instr[cfg_instr_index(cfg, cons[i].s->cas)]].base.name;
        char why[240] = "";
        Stmt *rel[64], *relf[64];
        int nrel = 0;
        Stmt *inits[64];
        int ninit = 0;
        for (uint32_t k = 0; k < mi->nacc && !why[0]; k++) {
            const MemAccess *a = &mi->acc[k];
            bool other_var = a->base.kind == BASE_VAR && !str_eq(a->base.name, var) && a->space != SPACE_GENERIC &&
                             !(memory_var_dynamic_shared(fn->mod, a->base.name) && memory_var_dynamic_shared(fn->mod, var));
            if (other_var || (a->space != SPACE_SHARED && a->space != SPACE_GENERIC)) continue;
            Stmt *st = cfg->instr[a->instr];
            const Instr *in = &st->u.instr;
            bool mine = false;
            for (int j = 0; j < ncons && !mine; j++)
                if (cons[j].s && (cons[j].s->cas == st || cons[j].restore == st) &&
                    str_eq(mi->acc[mi->acc_of_instr[cfg_instr_index(cfg, cons[j].s->cas)]].base.name, var))
                    mine = true;
            if (mine) continue;
            if (a->base.kind != BASE_VAR) {
                snprintf(why, sizeof why, "the access at line %u may touch the lock's variable (address not known to be another variable)", st->line);
                break;
            }
            uint64_t v;
            const Stmt *f = prev_instr(st);
            bool fenced = f && f->u.instr.op == OP_membar && instr_has_mod(&f->u.instr, ".cta") && !f->u.instr.guard;
            if (in->op == OP_st && !in->guard && in->nops == 2 && const_operand(fn, st, 1, &v) && v != 0 &&
                !(a->flags & (MACC_VOLATILE)) && ninit < 64)
                inits[ninit++] = st;
            else if (in->op == OP_atom && instr_has_mod(in, ".exch") && in->nops == 3 && const_operand(fn, st, 2, &v) && v == 0 &&
                     fenced && result_unused(ssa, cfg, st) && !in->guard && nrel < 64)
                relf[nrel] = (Stmt *)f, rel[nrel++] = st;
            else
                snprintf(why, sizeof why, "the access at line %u of the lock's variable is neither an initialising store, a consumer "
                         "nor a fenced release", st->line);
        }
        /* What the fences ordered besides the token (issue 23, classes 3
         * and 4): a call may store to the word or synchronise; another
         * fence, an atomic or an acquire/release elsewhere may rely
         * on the membar.cta around the token to order this thread's other
         * accesses, which ld.acquire and st.release do not. */
        for (uint32_t k = 0; k < cfg->ninstr && !why[0]; k++) {
            if (!cfg_reachable(cfg, cfg->instr_block[k])) continue;
            Stmt *st = cfg->instr[k];
            if (cfg->iflags[k] & OPF_CALL) {
                snprintf(why, sizeof why, "a call at line %u: the callee's accesses are not analysed", st->line);
                break;
            }
            bool ours = false;
            for (int j = 0; j < ncons && !ours; j++)
                if (cons[j].s && (cons[j].s->fence_acq == st || cons[j].s->cas == st || cons[j].restore == st)) ours = true;
            for (int r = 0; r < nrel && !ours; r++) ours = rel[r] == st || relf[r] == st;
            if (ours) continue;
            Opcode op = st->u.instr.op;
            uint32_t ai = mi->acc_of_instr[k];
            const MemAccess *a = ai != ANA_NONE ? &mi->acc[ai] : NULL;
            /* volatile and relaxed accesses are observed but synchronise
             * with nothing without a fence, an acquire/release or an
             * atomic, which are what this looks for */
            bool strong = a && ((a->flags & MACC_ATOMIC) || instr_has_mod(&st->u.instr, ".acquire") ||
                                instr_has_mod(&st->u.instr, ".release") || instr_has_mod(&st->u.instr, ".acq_rel"));
            bool same_var = a && a->base.kind == BASE_VAR && str_eq(a->base.name, var);
            if (op == OP_membar || op == OP_fence || (strong && !same_var && !(a->flags & MACC_NC)))
                snprintf(why, sizeof why, "the %s at line %u: the token's membar.cta may order it too (not kept by "
                         "ld.acquire/st.release)", (op == OP_membar || op == OP_fence) ? "fence" : "synchronising access", st->line);
        }
        /* the barrier after every initialisation that comes before every consumer */
        if (!why[0]) {
            bool found = false;
            for (uint32_t k = 0; k < cfg->ninstr && !found; k++) {
                if (!(cfg->iflags[k] & OPF_BARRIER) || cfg->instr[k]->u.instr.op != OP_bar || cfg->instr[k]->u.instr.guard) continue;
                uint32_t kb = cfg->instr_block[k];
                if (li->innermost[kb] != ANA_NONE || !uniform_converged(fn, cfg->instr[k]) || !dom_dominates(pdom, kb, 0)) continue;
                bool all = true;
                for (int j = 0; j < ninit && all; j++) {
                    uint32_t ii = cfg_instr_index(cfg, inits[j]), ib = cfg->instr_block[ii];
                    all = ib == kb ? ii < k : dom_dominates(dom, ib, kb);
                }
                for (int j = 0; j < ncons && all; j++) {
                    if (!cons[j].s) continue;
                    uint32_t ci = cfg_instr_index(cfg, cons[j].s->cas), cb = cfg->instr_block[ci];
                    all = cb == kb ? k < ci : dom_dominates(dom, kb, cb);
                }
                found = all;
            }
            if (!found) snprintf(why, sizeof why, "no CTA barrier orders every initialising store of the lock's variable before every consumer");
        }
        if (!ninit && !why[0]) snprintf(why, sizeof why, "no initialising store: the lock is not a token held by a producer");
        /* group: all consumers of this variable */
        for (int j = i; j < ncons; j++) {
            if (!cons[j].s || !str_eq(mi->acc[mi->acc_of_instr[cfg_instr_index(cfg, cons[j].s->cas)]].base.name, var)) continue;
            if (why[0]) {
                if (o->flag) remark(rm, PASS, fn, cons[j].s->cas, REMARK_MISSED, "lock used as a flag: not rewritten: %s", why);
                cons[j].s = NULL;
                continue;
            }
        }
        if (why[0]) continue;
        /* 3. rewrite this variable's consumers and releases */
        for (int j = i; j < ncons; j++) {
            SpinSite *s = cons[j].s;
            if (!s || !str_eq(mi->acc[mi->acc_of_instr[cfg_instr_index(cfg, s->cas)]].base.name, var)) continue;
            Block *entries[64];
            int nentries = o->debug_spin > 0 ? tl_loop_entries(fn, s->cas->block, entries) : 0; /* before the edits */
            Instr *ci = &s->cas->u.instr;
            Stmt *ld = ir_new_instr(fn, "ld.acquire.cta.shared.u32", 2);
            ld->u.instr.ops[0] = ci->ops[0], ld->u.instr.ops[1] = ci->ops[1];
            ld->line = s->cas->line; /* remarks and later passes name the source line it replaces */
            ir_insert_before(s->cas, ld);
            ir_remove(s->cas);
            ir_remove(s->fence_acq);
            ir_remove(cons[j].restore);
            remark(rm, PASS, fn, ld, REMARK_APPLIED,
                   "lock used as a flag: the consumer's atom.cas spin + membar.cta + restore became an ld.acquire.cta wait for the "
                   "token (no write while waiting)");
            if (o->debug_spin > 0 || (o->backoff > 0 && t->ordered)) {
                s->cas = ld;
                TlEmit e = { .fn = fn, .at = s->bra, .t = *t, .debug_spin = o->debug_spin, .backoff = o->backoff };
                if (o->backoff > 0) {
                    Stmt *ns = ir_new_instr(fn, "nanosleep.u32", 1);
                    ns->u.instr.ops[0] = ir_op_int(fn->mod, o->backoff);
                    ns->u.instr.guard = s->bra->u.instr.guard, ns->u.instr.guard_neg = s->again_neg;
                    ns->line = s->bra->line;
                    ir_insert_before(s->bra, ns);
                }
                if (o->debug_spin > 0) {
                    Reg *cnt = ir_fresh_reg(fn, ".b32");
                    tl_debug_counter_init(fn, entries, nentries, cnt);
                    e.at = ld;
                    tl_debug_count(&e, cnt, NULL, false);
                }
            }
            cons[j].s = NULL;
            done++;
        }
        for (int r = 0; r < nrel; r++) {
            Instr *in = &rel[r]->u.instr;
            Stmt *st = ir_new_instr(fn, "st.release.cta.shared.b32", 2);
            st->u.instr.ops[0] = in->ops[1], st->u.instr.ops[1] = ir_op_int(fn->mod, 0);
            st->line = rel[r]->line;
            ir_insert_before(rel[r], st);
            remark(rm, PASS, fn, rel[r], REMARK_APPLIED, "lock used as a flag: the producer's membar.cta + atom.exch release became st.release.cta");
            ir_remove(rel[r]);
            ir_remove(relf[r]);
        }
    }
    free(cons);
    analysis_invalidate(fn);
    return done;
}
