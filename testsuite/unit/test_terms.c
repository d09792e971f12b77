/* test_terms.c — symbolic terms and the Z3 bridge.
 *
 *   normal form    equal affine expressions are the same node; TRUNC
 *                  distributes, ZEXT/SEXT do not (wrap-around stays exact);
 *   shift solving  A[tid.x := tid.x + N] == B on the affine parts;
 *   proofs         identities Z3 must prove; claims it must refute with a
 *                  counterexample that really separates the two sides
 *                  (zext64(i + 1) vs zext64(i) + 1 at i = 0xffffffff, the
 *                  64-bit address of a shuffled load); uninterpreted loads;
 *                  division by zero; a time-limited query (64-bit factoring)
 *                  that must come back "unknown" quickly;
 *   proof_all      several claims at once, each asked of the solver (even
 *                  those the normal form decides), premises whose equalities
 *                  name subterms, a wrong claim among right ones; many
 *                  sessions one after another (the shared context is remade).
 * Without Z3 the solver-only cases print SKIP (loudly) and the rest still run.
 * Exits 1 on any failure. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "analysis/terms.h"
#include "analysis/z3bridge.h"

#include "testsuite/unit/check.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static const char *fmt(const Term *t)
{
    static char bufs[4][256];
    static int k;
    k = (k + 1) & 3;
    term_format(bufs[k], sizeof bufs[k], t);
    return bufs[k];
}

/* Evaluate both sides at the counterexample's values: parses "name = value" pairs. */
typedef struct Assign {
    TermTable *tt;
    const char *cex;
} Assign;

static bool from_cex(void *ctx, const Term *atom, uint64_t *v)
{
    const Assign *a = ctx;
    char name[128];
    term_format(name, sizeof name, atom);
    size_t n = strlen(name);
    for (const char *p = strstr(a->cex, name); p; p = strstr(p + 1, name)) {
        if ((p != a->cex && p[-1] != ' ') || strncmp(p + n, " = ", 3) != 0) continue;
        *v = strtoull(p + n + 3, NULL, 0);
        return true;
    }
    return false;
}

static void normal_form(TermTable *tt)
{
    const Term *x = term_var(tt, 32, "x"), *y = term_var(tt, 32, "y");
    const Term *one = term_const(tt, 32, 1), *two = term_const(tt, 32, 2), *three = term_const(tt, 32, 3);
    CHECK(term_add(tt, term_add(tt, x, one), two) == term_add(tt, x, three), "(x+1)+2 == x+3");
    CHECK(term_add(tt, x, y) == term_add(tt, y, x), "x+y == y+x");
    CHECK(term_sub(tt, term_scale(tt, x, 4), term_scale(tt, x, 4))->op == T_CONST, "4x-4x is a constant");
    CHECK(term_not(tt, x) == term_sub(tt, term_neg(tt, x), one), "~x == -x-1");
    /* with a constant part: ~(x + 5) == -x - 6, and ~~t == t (1-bit too) */
    CHECK(term_not(tt, term_add(tt, x, term_const(tt, x->width, 5))) ==
              term_sub(tt, term_neg(tt, x), term_const(tt, x->width, 6)), "~(x+5) == -x-6");
    const Term *b1 = term_binop(tt, T_EQ, x, term_const(tt, x->width, 0));
    CHECK(term_not(tt, term_not(tt, b1)) == b1, "~~(x == 0) == (x == 0)");
    CHECK(term_binop(tt, T_SHL, x, two) == term_scale(tt, x, 4), "x<<2 == 4x");
    CHECK(term_mul(tt, x, y) == term_mul(tt, y, x), "x*y == y*x");
    const Term *x64 = term_var(tt, 64, "x64");
    CHECK(term_unop(tt, T_TRUNC, 32, term_add(tt, x64, term_const(tt, 64, 0x100000005ull))) ==
              term_add(tt, term_unop(tt, T_TRUNC, 32, x64), term_const(tt, 32, 5)),
          "trunc32(x64 + 2^32 + 5) == trunc32(x64) + 5");
    const Term *z1 = term_unop(tt, T_ZEXT, 64, term_add(tt, x, one));
    const Term *z2 = term_add(tt, term_unop(tt, T_ZEXT, 64, x), term_const(tt, 64, 1));
    CHECK(z1 != z2, "zext64(x+1) and zext64(x)+1 must stay different terms: %s / %s", fmt(z1), fmt(z2));
    CHECK(term_unop(tt, T_TRUNC, 32, z1) == term_add(tt, x, one), "trunc32(zext64(x+1)) == x+1");
    CHECK(term_binop(tt, T_EQ, term_add(tt, x, one), term_add(tt, x, two))->op == T_CONST, "x+1 == x+2 folds to false");
    char buf[128];
    term_format(buf, sizeof buf, term_sub(tt, term_scale(tt, x, 4), term_const(tt, 32, 8)));
    CHECK(strcmp(buf, "4*x - 8") == 0, "printing: got '%s'", buf);
    const Term *tid = term_atom(tt, 32, ATOM_SPECIAL, (Str){ "%tid", 4 }, 'x', 0, 0);
    const Term *e = term_add(tt, term_scale(tt, tid, 4), y);
    CHECK(term_subst(tt, e, tid, term_add(tt, tid, one)) == term_add(tt, e, term_const(tt, 32, 4)),
          "(4*tid + y)[tid := tid+1] == 4*tid + y + 4");
    uint64_t c;
    CHECK(term_linear_in(tt, e, tid, &c) && c == 4, "4*tid + y is linear in tid with coefficient 4");
    /* the printed order does not depend on the order terms were made in */
    TermTable *t2 = terms_new();
    const Term *y2 = term_var(t2, 32, "y");
    const Term *tid2 = term_atom(t2, 32, ATOM_SPECIAL, (Str){ "%tid", 4 }, 'x', 0, 0);
    const Term *e2 = term_add(t2, y2, term_scale(t2, tid2, 4));
    const Term *m1 = term_mul(tt, term_add(tt, x, one), y), *m2 = term_mul(t2, y2, term_add(t2, term_var(t2, 32, "x"), term_const(t2, 32, 1)));
    CHECK(strcmp(fmt(e), fmt(e2)) == 0, "canonical order: '%s' vs '%s'", fmt(e), fmt(e2));
    CHECK(strcmp(fmt(m1), fmt(m2)) == 0, "canonical order: '%s' vs '%s'", fmt(m1), fmt(m2));
    terms_free(t2);
    CHECK(!term_linear_in(tt, term_mul(tt, tid, y), tid, &c), "tid*y is not linear in tid");
}

static void shifts(TermTable *tt, ProofSession *ps)
{
    /* stencil: A = base + 4*(tid+3), B = base + 4*tid + 4: lane l's B is lane (l-2)'s A */
    const Term *tid = term_atom(tt, 32, ATOM_SPECIAL, (Str){ "%tid", 4 }, 'x', 0, 0);
    const Term *base = term_var(tt, 32, "base");
    const Term *A = term_add(tt, base, term_scale(tt, term_add(tt, tid, term_const(tt, 32, 3)), 4));
    const Term *B = term_add(tt, term_add(tt, base, term_scale(tt, tid, 4)), term_const(tt, 32, 4));
    int64_t N = 99;
    CHECK(term_solve_shift(tt, A, B, tid, -31, 31, &N) && N == -2, "shift: N = %lld, expected -2", (long long)N);
    const Term *As = term_subst(tt, A, tid, term_add(tt, tid, term_const(tt, 32, (uint64_t)N)));
    char cex[512];
    CHECK(proof_equal(ps, As, B, cex, sizeof cex) == PROOF_PROVED, "A[tid := tid-2] == B");
    /* 64-bit addresses through zext: the same shift is NOT valid for every tid */
    const Term *base64 = term_var(tt, 64, "base64");
    const Term *A64 = term_add(tt, base64, term_scale(tt, term_unop(tt, T_ZEXT, 64, term_add(tt, tid, term_const(tt, 32, 3))), 4));
    const Term *B64 = term_add(tt, base64, term_scale(tt, term_unop(tt, T_ZEXT, 64, term_add(tt, tid, term_const(tt, 32, 1))), 4));
    N = 99;
    CHECK(term_solve_shift(tt, A64, B64, tid, -31, 31, &N) && N == -2, "shift through zext64 (low bits): N = %lld",
          (long long)N);
    const Term *A64s = term_subst(tt, A64, tid, term_add(tt, tid, term_const(tt, 32, (uint64_t)-2)));
    ProofResult r = proof_equal(ps, A64s, B64, cex, sizeof cex);
    CHECK(r == PROOF_PROVED, "zext64((tid-2)+3) == zext64(tid+1) by normal form: %s", proof_result_name(r));
    const Term *C64 = term_add(tt, term_scale(tt, term_unop(tt, T_ZEXT, 64, tid), 4), term_const(tt, 64, 4));
    const Term *D64 = term_scale(tt, term_unop(tt, T_ZEXT, 64, term_add(tt, tid, term_const(tt, 32, 1))), 4);
    if (!proof_available()) {
        printf("SKIP: shift proofs through zext need Z3 (built without it)\n");
        return;
    }
    r = proof_equal(ps, C64, D64, cex, sizeof cex);
    CHECK(r == PROOF_REFUTED, "4*zext64(tid)+4 vs 4*zext64(tid+1): %s", proof_result_name(r));
    CHECK(strstr(cex, "%tid.x = 0xffffffff") != NULL, "counterexample names tid.x = 0xffffffff: %s", cex);
}

static void proofs(TermTable *tt, ProofSession *ps)
{
    char cex[512];
    const Term *i = term_var(tt, 32, "i"), *x = term_var(tt, 32, "x"), *y = term_var(tt, 32, "y");
    const Term *one = term_const(tt, 32, 1);
    /* wrap-around: cvt.u64.u32(i + 1) != cvt.u64.u32(i) + 1 */
    const Term *l = term_unop(tt, T_ZEXT, 64, term_add(tt, i, one));
    const Term *r = term_add(tt, term_unop(tt, T_ZEXT, 64, i), term_const(tt, 64, 1));
    ProofResult res = proof_equal(ps, l, r, cex, sizeof cex);
    if (!proof_available()) {
        CHECK(res == PROOF_UNKNOWN, "without Z3 the wrap-around case is unknown, got %s", proof_result_name(res));
        printf("SKIP: Z3 proofs (built without Z3)\n");
        return;
    }
    CHECK(res == PROOF_REFUTED, "zext64(i+1) == zext64(i)+1 must be refuted, got %s", proof_result_name(res));
    CHECK(strstr(cex, "i = 0xffffffff") != NULL, "counterexample i = 0xffffffff: '%s'", cex);
    Assign as = { tt, cex };
    uint64_t lv = 0, rv = 0;
    CHECK(term_eval(l, from_cex, &as, &lv) && term_eval(r, from_cex, &as, &rv) && lv != rv,
          "the counterexample separates the sides: %llx vs %llx", (unsigned long long)lv, (unsigned long long)rv);
    /* sign extension: 4*sext64(i+1) vs 4*sext64(i)+4, broken at i = 0x7fffffff */
    l = term_scale(tt, term_unop(tt, T_SEXT, 64, term_add(tt, i, one)), 4);
    r = term_add(tt, term_scale(tt, term_unop(tt, T_SEXT, 64, i), 4), term_const(tt, 64, 4));
    res = proof_equal(ps, l, r, cex, sizeof cex);
    CHECK(res == PROOF_REFUTED && strstr(cex, "i = 0x7fffffff"), "sext wrap: %s '%s'", proof_result_name(res), cex);
    /* ... and proved once the index is known not to overflow */
    res = proof_equal_assuming(ps, term_binop(tt, T_SLT, i, term_const(tt, 32, 0x7fffffff)), l, r, cex, sizeof cex);
    CHECK(res == PROOF_PROVED, "sext wrap under i <s INT_MAX: %s '%s'", proof_result_name(res), cex);
    res = proof_equal_assuming(ps, term_not(tt, term_binop(tt, T_EQ, i, term_const(tt, 32, 5))), l, r, cex, sizeof cex);
    CHECK(res == PROOF_REFUTED && strstr(cex, "i = 0x7fffffff"), "a premise that still allows the overflow: %s '%s'",
          proof_result_name(res), cex);
    /* identities only the solver knows */
    l = term_add(tt, term_binop(tt, T_OR, x, y), term_binop(tt, T_AND, x, y));
    res = proof_equal(ps, l, term_add(tt, x, y), cex, sizeof cex);
    CHECK(res == PROOF_PROVED, "(x|y)+(x&y) == x+y: %s %s", proof_result_name(res), cex);
    l = term_binop(tt, T_LSHR, term_binop(tt, T_SHL, x, term_const(tt, 32, 8)), term_const(tt, 32, 8));
    res = proof_equal(ps, l, term_binop(tt, T_AND, x, term_const(tt, 32, 0xffffff)), cex, sizeof cex);
    CHECK(res == PROOF_PROVED, "(x<<8)>>8 == x & 0xffffff: %s", proof_result_name(res));
    /* uninterpreted loads: equal addresses give equal values, other memory states do not */
    const Term *mem1 = term_var(tt, 32, "mem1"), *mem2 = term_var(tt, 32, "mem2");
    const Term *a1[2] = { term_add(tt, term_binop(tt, T_OR, x, y), term_binop(tt, T_AND, x, y)), mem1 };
    const Term *a2[2] = { term_add(tt, x, y), mem1 };
    const Term *a3[2] = { term_add(tt, x, y), mem2 };
    Str ld = { "ld.global.u32", 13 };
    res = proof_equal(ps, term_uf(tt, ld, 32, a1, 2), term_uf(tt, ld, 32, a2, 2), cex, sizeof cex);
    CHECK(res == PROOF_PROVED, "loads of provably equal addresses: %s", proof_result_name(res));
    res = proof_equal(ps, term_uf(tt, ld, 32, a2, 2), term_uf(tt, ld, 32, a3, 2), cex, sizeof cex);
    CHECK(res == PROOF_REFUTED, "loads from different memory states: %s", proof_result_name(res));
    /* x/y*y + x%y == x fails only at y == 0 (no PTX result is defined there) */
    const Term *x8 = term_var(tt, 8, "x8"), *y8 = term_var(tt, 8, "y8");
    l = term_add(tt, term_mul(tt, term_binop(tt, T_UDIV, x8, y8), y8), term_binop(tt, T_UREM, x8, y8));
    res = proof_equal(ps, l, x8, cex, sizeof cex);
    CHECK(res == PROOF_REFUTED && strstr(cex, "y8 = 0"), "division by zero: %s '%s'", proof_result_name(res), cex);
    /* a comparison identity on one bit */
    const Term *c1 = term_binop(tt, T_ULT, x, y), *c2 = term_not(tt, term_binop(tt, T_ULE, y, x));
    CHECK(proof_equal(ps, c1, c2, cex, sizeof cex) == PROOF_PROVED, "x <u y == !(y <=u x)");
    CHECK(proof_valid(ps, term_binop(tt, T_OR, term_binop(tt, T_ULE, x, y), term_binop(tt, T_ULT, y, x)), cex,
                      sizeof cex) == PROOF_PROVED,
          "x <= y or y < x");
}

static void all(TermTable *tt)
{
    if (!proof_available()) {
        ProofSession *ps = proof_session_new(tt, 100);
        const Term *x = term_var(tt, 32, "x");
        ProofClaim cl = { NULL, x, x };
        ProofResult r;
        CHECK(proof_all(ps, &cl, 1, &r, NULL, 0) == PROOF_UNKNOWN && r == PROOF_UNKNOWN,
              "without Z3 proof_all confirms nothing: %s", proof_result_name(r));
        proof_session_free(ps);
        printf("SKIP: proof_all (built without Z3)\n");
        return;
    }
    /* a stencil's claims: p + 4*sext(i + N) == p + 4*sext(i) + 4N, given
     * sext(i + N) == sext(i) + N (the neighbour's index does not wrap) */
    const Term *i = term_var(tt, 32, "i"), *p = term_var(tt, 64, "p");
    ProofClaim cl[4];
    for (int k = 0; k < 3; k++) {
        int64_t n = k == 0 ? 1 : k == 1 ? -1 : 2;
        const Term *in = term_add(tt, i, term_const(tt, 32, (uint64_t)n));
        const Term *sn = term_unop(tt, T_SEXT, 64, in), *s0 = term_unop(tt, T_SEXT, 64, i);
        cl[k].premise = term_binop(tt, T_EQ, sn, term_add(tt, s0, term_const(tt, 64, (uint64_t)n)));
        cl[k].x = term_add(tt, p, term_scale(tt, sn, 4));
        cl[k].y = term_add(tt, term_add(tt, p, term_scale(tt, s0, 4)), term_const(tt, 64, (uint64_t)(4 * n)));
    }
    /* and one that is wrong: the premise is about +1, the claim about +2 */
    cl[3] = cl[2];
    cl[3].premise = cl[0].premise;
    ProofSession *ps = proof_session_new(tt, 2000);
    ProofResult r[4];
    char cex[4][256];
    ProofResult all = proof_all(ps, cl, 3, r, cex[0], sizeof cex[0]);
    CHECK(all == PROOF_PROVED && r[0] == PROOF_PROVED && r[1] == PROOF_PROVED && r[2] == PROOF_PROVED,
          "three stencil claims: %s (%s %s %s)", proof_result_name(all), proof_result_name(r[0]), proof_result_name(r[1]),
          proof_result_name(r[2]));
    CHECK(proof_session_queries(ps) == 3, "one solver query each: %u", proof_session_queries(ps));
    all = proof_all(ps, cl, 4, r, cex[0], sizeof cex[0]);
    CHECK(all == PROOF_REFUTED && r[3] == PROOF_REFUTED && r[0] == PROOF_PROVED, "a wrong claim among right ones: %s, %s",
          proof_result_name(all), proof_result_name(r[3]));
    CHECK(strstr(cex[3], "i = 0x7ffffffe") != NULL, "its counterexample wraps i + 2, not i + 1: '%s'", cex[3]);
    /* the normal form alone proves x == x; proof_all still asks the solver */
    ProofClaim same = { NULL, i, i };
    unsigned q = proof_session_queries(ps);
    CHECK(proof_all(ps, &same, 1, r, NULL, 0) == PROOF_PROVED && proof_session_queries(ps) == q + 1,
          "proof_all asks the solver even for identical sides");
    proof_session_free(ps);
    /* sessions one after another share a context that is remade now and
     * then: answers stay right across the remakes */
    int wrong = 0;
    for (int k = 0; k < 150; k++) {
        ps = proof_session_new(tt, 2000);
        if (proof_all(ps, cl, 1, r, NULL, 0) != PROOF_PROVED) wrong++;
        if (proof_all(ps, &cl[3], 1, r, NULL, 0) != PROOF_REFUTED) wrong++;
        proof_session_free(ps);
    }
    CHECK(wrong == 0, "150 sessions in a row: %d wrong answers", wrong);
}

static void time_limit(TermTable *tt)
{
    if (!proof_available()) {
        printf("SKIP: time limit (built without Z3)\n");
        return;
    }
    /* is 0xfffffffb00000005-ish semiprime p*q (p, q 32-bit primes) factorable?  The
     * claim "a*b != N unless a or b is 1" is false, but refuting it means
     * factoring a 64-bit number by bit-blasting: the 100 ms limit hits first. */
    const uint64_t p = 4294967291ull, q = 4294967279ull, N = p * q;
    const Term *a = term_var(tt, 32, "a"), *b = term_var(tt, 32, "b");
    const Term *prod = term_mul(tt, term_unop(tt, T_ZEXT, 64, a), term_unop(tt, T_ZEXT, 64, b));
    const Term *claim = term_binop(tt, T_OR, term_not(tt, term_binop(tt, T_EQ, prod, term_const(tt, 64, N))),
                                   term_binop(tt, T_OR, term_binop(tt, T_ULE, a, term_const(tt, 32, 1)),
                                              term_binop(tt, T_ULE, b, term_const(tt, 32, 1))));
    ProofSession *ps = proof_session_new(tt, 100);
    char cex[256];
    double t0 = now_s();
    ProofResult r = proof_valid(ps, claim, cex, sizeof cex);
    double dt = now_s() - t0;
    CHECK(r == PROOF_UNKNOWN, "factoring under a 100 ms limit: %s (%s)", proof_result_name(r), cex);
    CHECK(dt < 5.0, "the time limit is respected: %.2f s", dt);
    printf("time-limited query: %s after %.3f s\n", proof_result_name(r), dt);
    /* the same through proof_all, as the shuffle pass asks */
    ProofClaim cl = { NULL, claim, term_const(tt, 1, 1) };
    t0 = now_s();
    ProofResult all = proof_all(ps, &cl, 1, &r, NULL, 0);
    dt = now_s() - t0;
    proof_session_free(ps);
    CHECK(all == PROOF_UNKNOWN && r == PROOF_UNKNOWN, "proof_all under a 100 ms limit: %s", proof_result_name(r));
    CHECK(dt < 5.0, "proof_all respects the time limit: %.2f s", dt);
}

int main(void)
{
    TermTable *tt = terms_new();
    ProofSession *ps = proof_session_new(tt, 5000);
    normal_form(tt);
    shifts(tt, ps);
    proofs(tt, ps);
    proof_session_free(ps);
    all(tt);
    time_limit(tt);
    printf("%d checks, %d failures, %u terms, solver %s\n", checks, failures, terms_count(tt),
           proof_available() ? "Z3" : "none");
    terms_free(tt);
    return failures ? 1 : 0;
}
