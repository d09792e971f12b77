/* proof.c — the address equation A[lane := lane + N] == B: the no-wrap
 * premise, normalisation, the abstraction Z3 sees, and confirmation of
 * the selected pairs (see pass.c's comment). */
#include <stdio.h>
#include <stdlib.h>

#include "opt/shuffle/internal.h"

/* The premise covers the widening of a 32-bit index to a 64-bit address
 * only (C's int/unsigned index next to its neighbour's); narrower values
 * (16-bit arithmetic wraps by design) are proved exactly. */
static bool is_index_widening(const Term *a)
{
    return (a->op == T_SEXT || a->op == T_ZEXT) && a->n == 1 && a->width == 64 && a->args[0]->width == 32;
}

/* t as lane l+n sees it: %tid.x + n and %laneid + n (the row guard and the
 * lane-range test of the template make both true where the shuffle is used). */
const Term *shfl_in_lane(Ctx *c, const Term *t, int64_t n)
{
    const Term *tid = c->lf.tid, *lane = c->lf.laneid;
    if (tid && term_mentions(t, tid)) t = term_subst(c->tt, t, tid, term_add(c->tt, tid, term_const(c->tt, tid->width, (uint64_t)n)));
    if (lane && term_mentions(t, lane))
        t = term_subst(c->tt, t, lane, term_add(c->tt, lane, term_const(c->tt, lane->width, (uint64_t)n)));
    return t;
}

/* Premise: no widened 32-bit subterm of A wraps between our lane and the
 * neighbour's (see the file comment). */
static const Term *no_wrap_premise(Ctx *c, const Term *a, int64_t n, const Term *premise, int depth)
{
    if (depth > 64 || !mentions_lane(c, a)) return premise;
    if (is_index_widening(a)) {
        const Term *x = a->args[0], *x2 = shfl_in_lane(c, x, n);
        const Term *lhs = term_unop(c->tt, (TermOp)a->op, a->width, x2);
        const Term *rhs = term_add(c->tt, a, term_unop(c->tt, T_SEXT, a->width, term_sub(c->tt, x2, x)));
        const Term *cond = term_binop(c->tt, T_EQ, lhs, rhs);
        premise = premise ? term_binop(c->tt, T_AND, premise, cond) : cond;
    }
    for (uint32_t i = 0; i < a->n; i++) premise = no_wrap_premise(c, a->args[i], n, premise, depth + 1);
    return premise;
}

/* A with %tid.x := %tid.x + N, where every widened subterm ext(x) that
 * mentions %tid.x is rewritten by the premise to ext(x) + sext(x' - x)
 * (x' the shifted x).  Under the premise the result equals A[tid := tid+N];
 * when it is B itself (hash-consed: the same pointer) the equality is proved
 * without the solver.  NULL when A holds an operation we do not rebuild. */
static const Term *shift_under_premise(Ctx *c, const Term *a, int64_t n, int depth)
{
    if (depth > 64) return NULL;
    if (!mentions_lane(c, a)) return a;
    if (a == c->lf.tid || a == c->lf.laneid) return shfl_in_lane(c, a, n);
    TermTable *tt = c->tt;
    const Term *x[3] = { NULL, NULL, NULL };
    switch ((TermOp)a->op) {
    case T_SEXT: case T_ZEXT:
        if (is_index_widening(a)) {
            const Term *x2 = shfl_in_lane(c, a->args[0], n);
            return term_add(tt, a, term_unop(tt, T_SEXT, a->width, term_sub(tt, x2, a->args[0])));
        }
        if (!(x[0] = shift_under_premise(c, a->args[0], n, depth + 1))) return NULL; /* exact, no premise */
        return term_unop(tt, (TermOp)a->op, a->width, x[0]);
    case T_TRUNC:
        if (!(x[0] = shift_under_premise(c, a->args[0], n, depth + 1))) return NULL;
        return term_unop(tt, (TermOp)a->op, a->width, x[0]);
    case T_ADD: {
        const Term *sum = term_const(tt, a->width, a->k);
        for (uint32_t i = 0; i < a->n; i++) {
            const Term *ai = shift_under_premise(c, a->args[i], n, depth + 1);
            if (!ai) return NULL;
            sum = term_add(tt, sum, term_scale(tt, ai, a->coef[i]));
        }
        return sum;
    }
    case T_MUL: case T_AND: case T_OR: case T_XOR: case T_SHL: case T_LSHR: case T_ASHR:
        if (a->n != 2) return NULL;
        if (!(x[0] = shift_under_premise(c, a->args[0], n, depth + 1)) ||
            !(x[1] = shift_under_premise(c, a->args[1], n, depth + 1)))
            return NULL;
        return term_binop(tt, (TermOp)a->op, x[0], x[1]);
    default:
        return NULL; /* the solver decides */
    }
}

/* The solver's view of an address: every maximal subterm that does not
 * mention %tid.x becomes a free variable (the same subterm, the same
 * variable: terms are hash-consed).  Proving the equation for all values of
 * those variables proves it for the real subterms, and keeps the bit-vector
 * query linear where the real one multiplies kernel parameters (nx*ny*z),
 * which the solver finds slow.  NULL when an operation is not rebuilt. */
static const Term *abstract(Ctx *c, const Term *a, int depth)
{
    if (depth > 64) return NULL;
    TermTable *tt = c->tt;
    if (a->op == T_CONST || a == c->lf.tid || a == c->lf.laneid) return a;
    if (!mentions_lane(c, a))
        return term_var(tt, a->width, arena_printf(&c->fn->mod->arena, "k%u", a->id));
    const Term *x[3];
    if (a->n > 3 && a->op != T_ADD) return NULL;
    switch ((TermOp)a->op) {
    case T_ADD: {
        const Term *sum = term_const(tt, a->width, a->k);
        for (uint32_t i = 0; i < a->n; i++) {
            const Term *ai = abstract(c, a->args[i], depth + 1);
            if (!ai) return NULL;
            sum = term_add(tt, sum, term_scale(tt, ai, a->coef[i]));
        }
        return sum;
    }
    case T_ZEXT: case T_SEXT: case T_TRUNC:
        if (!(x[0] = abstract(c, a->args[0], depth + 1))) return NULL;
        return term_unop(tt, (TermOp)a->op, a->width, x[0]);
    case T_ITE:
        for (int i = 0; i < 3; i++)
            if (!(x[i] = abstract(c, a->args[i], depth + 1))) return NULL;
        return term_ite(tt, x[0], x[1], x[2]);
    case T_ATOM: case T_UF: case T_CONST: case T_NOPS:
        return NULL; /* an atom that mentions tid is tid (handled); UFs keep their own args */
    default:
        if (a->n != 2) return NULL;
        for (int i = 0; i < 2; i++)
            if (!(x[i] = abstract(c, a->args[i], depth + 1))) return NULL;
        return term_binop(tt, (TermOp)a->op, x[0], x[1]);
    }
}

/* The claim the solver checks for "S's address in lane l+N is D's":
 * premise -> A'[tid := tid+N] == B' on the abstracted addresses. */
static ProofClaim shift_claim(Ctx *c, const Term *A, const Term *B, int64_t n)
{
    const Term *a = abstract(c, A, 0), *b = abstract(c, B, 0);
    if (!a || !b) a = A, b = B; /* the real terms, uninterpreted functions and all */
    return (ProofClaim){ .premise = no_wrap_premise(c, a, n, NULL, 0), .x = shfl_in_lane(c, a, n), .y = b };
}

static ProofSession *session(Ctx *c)
{
    if (!c->ps) c->ps = proof_session_new(c->tt, (unsigned)c->o.timeout_ms);
    return c->ps;
}

/* Who proves a candidate (issue 6: every accepted pair is a Z3 proof):
 *   prove=auto (default): the premise rewrite above pre-selects by
 *     normalisation (microseconds); Z3 decides the candidates it does not,
 *     and at the end of the kernel's selection Z3 confirms every accepted
 *     pair the rewrite proved (confirm_sites, one proof_all call); a pair
 *     Z3 does not prove is dropped and selection runs again without it.
 *   prove=z3: Z3 decides every candidate on its own, no rewrite (a
 *     reference: the output must be the same, at a query per candidate).
 *   prove=rewrite: the rewrite's word is final, Z3 only decides what it
 *     does not (the behaviour before issue 6, for cost studies).
 * Without Z3 (configure --without-z3) every mode is normalisation only:
 * the rewrite proves, anything else is unknown, and the kernel's remark
 * says so.  *by_z3: the solver itself proved it (no confirmation needed). */
static ProofResult prove_shift(Ctx *c, const Term *A, const Term *B, int64_t n, bool *by_z3, char *cex, size_t cap)
{
    cex[0] = 0;
    *by_z3 = false;
    if (c->o.prove != PROVE_Z3 || !proof_available()) {
        /* the shifted address is B itself, with no premise (a clamp the
         * shift commutes with), or under the no-wrap premise */
        if (shfl_in_lane(c, A, n) == B || shift_under_premise(c, A, n, 0) == B) return PROOF_PROVED;
        if (!proof_available()) return PROOF_UNKNOWN;
    }
    ProofClaim cl = shift_claim(c, A, B, n);
    ProofResult r;
    if (c->o.prove == PROVE_Z3) {
        proof_all(session(c), &cl, 1, &r, cex, cap); /* the solver, never the normal form */
        *by_z3 = true;
        return r;
    }
    unsigned q = proof_session_queries(session(c));
    r = proof_equal_assuming(c->ps, cl.premise, cl.x, cl.y, cex, cap);
    *by_z3 = proof_session_queries(c->ps) > q; /* else the normal form decided */
    return r;
}

bool shfl_proved(Ctx *c, Load *loads, int di, Cand *k)
{
    if (k->proved < 0) {
        char cex[256] = "";
        Load *s = &loads[k->src], *d = &loads[di];
        ProofResult r = prove_shift(c, k->a, k->b, k->delta, &k->by_z3, cex, sizeof cex);
        k->proved = r == PROOF_PROVED;
        if (r == PROOF_REFUTED) shfl_set_why(d, WHY_PROOF_REFUTED, "N = %d from line %u refuted: %s", k->delta, s->st->line, cex);
        else if (r == PROOF_UNKNOWN) shfl_set_why(d, WHY_PROOF_UNKNOWN, "N = %d from line %u", k->delta, s->st->line);
    }
    return k->proved == 1;
}

/* prove=auto: Z3 confirms the accepted pairs that only normalisation
 * proved (a fraction of a millisecond each, see proof_all).  A pair it does
 * not prove loses its proof; returns false when one did (the caller selects
 * again, and the destination may take its next candidate or stay a load). */
bool shfl_confirm_sites(Ctx *c, Load *loads, const int *dst, Cand *const *chosen, int nsites, int *dropped)
{
    if (c->o.prove != PROVE_AUTO || !proof_available()) return true;
    ProofClaim *cl = calloc((size_t)nsites + 1, sizeof *cl);
    ProofResult *res = calloc((size_t)nsites + 1, sizeof *res);
    int *which = calloc((size_t)nsites + 1, sizeof *which);
    enum { CEX = 256 };
    char *cex = calloc((size_t)nsites + 1, CEX);
    int n = 0;
    for (int i = 0; i < nsites; i++) {
        if (chosen[i]->by_z3) continue;
        cl[n] = shift_claim(c, chosen[i]->a, chosen[i]->b, chosen[i]->delta);
        which[n++] = i;
    }
    bool all = true;
    if (n) proof_all(session(c), cl, (uint32_t)n, res, cex, CEX);
    for (int j = 0; j < n; j++) {
        Cand *k = chosen[which[j]];
        Load *d = &loads[dst[which[j]]];
        if (res[j] == PROOF_PROVED) {
            k->by_z3 = true;
            continue;
        }
        all = false;
        k->proved = 0;
        ++*dropped;
        if (res[j] == PROOF_REFUTED) /* normalisation was wrong: a bug to report */
            shfl_set_why(d, WHY_PROOF_REFUTED, "N = %d from line %u refuted by Z3 after normalisation proved it: %s", k->delta,
                    loads[k->src].st->line, cex + (size_t)j * CEX);
        else
            shfl_set_why(d, WHY_PROOF_UNKNOWN, "N = %d from line %u: Z3 did not confirm normalisation", k->delta,
                    loads[k->src].st->line);
    }
    free(cl), free(res), free(which), free(cex);
    return all;
}

/* Who proved the kernel's pairs (tests and studies read it). */
void shfl_proof_remark(const Ctx *c, Remarks *rm, int nsites, int dropped, unsigned q)
{
    if (!nsites && !q) return;
    char extra[64] = "";
    const char *pairs = nsites == 1 ? "pair" : "pairs", *queries = q == 1 ? "query" : "queries";
    if (dropped) snprintf(extra, sizeof extra, "; %d dropped (not proved by Z3)", dropped);
    if (!proof_available())
        remark(rm, PASS, c->fn, NULL, REMARK_ANALYSIS, "proofs: %d %s by normalisation only (built without Z3)", nsites, pairs);
    else if (c->o.prove == PROVE_REWRITE)
        remark(rm, PASS, c->fn, NULL, REMARK_ANALYSIS, "proofs: %d %s by normalisation, not confirmed (prove=rewrite); %u Z3 %s",
               nsites, pairs, q, queries);
    else
        remark(rm, PASS, c->fn, NULL, REMARK_ANALYSIS, "proofs: %d %s proved by Z3 in %u %s%s", nsites, pairs, q, queries, extra);
}
