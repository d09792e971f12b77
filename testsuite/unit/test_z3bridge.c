/* test_z3bridge.c — the Z3 bridge on operands of every width pair.
 *
 * Issue 21: tinylock crashed inside Z3_mk_bvadd on a sum whose operands
 * had different widths (a 32-bit shared address minus a 64-bit one), on
 * 18 real programs.  Two things keep that from coming back:
 *
 *   widths       for every binary operation and every pair of operand
 *                widths in {1, 8, 16, 32, 64}, the term the constructors
 *                build is well-sorted and means what terms.h says (the
 *                narrower operand zero-extended; term_add/term_sub/term_mul
 *                fit the second operand to the first: cut when wider, zero-
 *                extended when narrower; a wider shift amount saturates; a
 *                wider ITE condition is "not zero"): with both operands
 *                fixed by the premise, Z3 must prove the result equals the
 *                value this file computes on plain integers, and refute it
 *                plus one;
 *   ill-sorted   terms made by hand, bypassing the constructors (mismatched
 *                operands, an extension to a narrower width, a 32-bit ITE
 *                condition, widths 0 and 65): the bridge checks the sorts
 *                before every Z3 call and answers "unknown", never a
 *                crash, and the session keeps working afterwards;
 *   counterexample  proof_counterexample reads the refutation's model (a
 *                pass narrows its candidates with it), and only then.
 * Without Z3 it prints SKIP (loudly).  Exits 1 on any failure. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/terms.h"
#include "analysis/z3bridge.h"

#include "testsuite/unit/check.h"

static const unsigned widths[] = { 1, 8, 16, 32, 64 };
enum { NW = sizeof widths / sizeof widths[0] };

static const TermOp binops[] = { T_ADD, T_MUL, T_MULHI_U, T_MULHI_S, T_UDIV, T_SDIV, T_UREM, T_SREM,
                                 T_AND, T_OR, T_XOR, T_SHL, T_LSHR, T_ASHR, T_EQ, T_ULT, T_ULE,
                                 T_SLT, T_SLE, T_UMIN, T_UMAX, T_SMIN, T_SMAX };
static const char *const binop_names[] = { "add", "mul", "mulhi.u", "mulhi.s", "udiv", "sdiv", "urem", "srem",
                                           "and", "or", "xor", "shl", "lshr", "ashr", "eq", "ult", "ule",
                                           "slt", "sle", "umin", "umax", "smin", "smax" };
enum { NOPS = sizeof binops / sizeof binops[0] };

static uint64_t mask(unsigned w) { return w >= 64 ? ~0ull : (1ull << w) - 1; }
static int64_t sx(uint64_t v, unsigned w) { return w >= 64 ? (int64_t)v : (int64_t)(v << (64 - w)) >> (64 - w); }

/* The reference: op on the w-bit values x and y (already fitted to w),
 * except shifts, whose amount y keeps its own value (PTX clamps it). */
static uint64_t ref(TermOp op, unsigned w, uint64_t x, uint64_t y)
{
    uint64_t m = mask(w);
    int64_t a = sx(x, w), b = sx(y, w);
    switch (op) {
    case T_ADD: return (x + y) & m;
    case T_MUL: return (x * y) & m;
    case T_MULHI_U: return (uint64_t)(((unsigned __int128)x * y) >> w) & m;
    case T_MULHI_S: return (uint64_t)(((__int128)a * b) >> w) & m;
    case T_UDIV: return (x / y) & m;
    case T_UREM: return (x % y) & m;
    case T_SDIV: return (uint64_t)(b == -1 ? -a : a / b) & m;   /* -1: no INT_MIN / -1 in C */
    case T_SREM: return (uint64_t)(b == -1 ? 0 : a % b) & m;
    case T_AND: return x & y;
    case T_OR: return x | y;
    case T_XOR: return x ^ y;
    case T_SHL: return y >= w ? 0 : (x << y) & m;
    case T_LSHR: return y >= w ? 0 : x >> y;
    case T_ASHR: return (uint64_t)(a >> (y >= w ? w - 1 : y)) & m;
    case T_EQ: return x == y;
    case T_ULT: return x < y;
    case T_ULE: return x <= y;
    case T_SLT: return a < b;
    case T_SLE: return a <= b;
    case T_UMIN: return x < y ? x : y;
    case T_UMAX: return x < y ? y : x;
    case T_SMIN: return a < b ? x : y;
    case T_SMAX: return a < b ? y : x;
    default: return 0;
    }
}

static bool is_shift(TermOp op) { return op == T_SHL || op == T_LSHR || op == T_ASHR; }
static bool is_cmp(TermOp op) { return op >= T_EQ && op <= T_SLE; }

/* premise (a == ka and b == kb) -> t == want: proved; and t == want + 1: refuted. */
static void expect_value(ProofSession *ps, TermTable *tt, const Term *a, uint64_t ka, const Term *b, uint64_t kb,
                         const Term *t, uint64_t want, const char *what)
{
    const Term *prem = term_binop(tt, T_AND, term_binop(tt, T_EQ, a, term_const(tt, a->width, ka)),
                                  term_binop(tt, T_EQ, b, term_const(tt, b->width, kb)));
    char cex[256];
    ProofResult r = proof_equal_assuming(ps, prem, t, term_const(tt, t->width, want), cex, sizeof cex);
    CHECK(r == PROOF_PROVED, "%s: a%u=0x%llx b%u=0x%llx: result%u == 0x%llx: %s %s", what, a->width,
          (unsigned long long)ka, b->width, (unsigned long long)kb, t->width, (unsigned long long)want,
          proof_result_name(r), cex);
    r = proof_equal_assuming(ps, prem, t, term_const(tt, t->width, want + 1), cex, sizeof cex);
    CHECK(r == PROOF_REFUTED, "%s: a%u b%u: result == 0x%llx + 1 must be refuted: %s", what, a->width, b->width,
          (unsigned long long)want, proof_result_name(r));
}

static void widths_all(void)
{
    /* two value sets: mixed bits, and a sign bit with a small amount */
    static const uint64_t va[] = { 0xfedcba9876543210ull, 0x8000000000000081ull };
    static const uint64_t vb[] = { 0x0123456789abcdefull, 0x7full };
    TermTable *tt = terms_new();
    ProofSession *ps = proof_session_new(tt, 10000);
    unsigned before = checks;
    for (unsigned i = 0; i < NW; i++)
        for (unsigned j = 0; j < NW; j++) {
            unsigned wa = widths[i], wb = widths[j], w = wa > wb ? wa : wb;
            const Term *a = term_var(tt, wa, "a"), *b = term_var(tt, wb, "b");
            for (unsigned s = 0; s < 2; s++) {
                uint64_t ka = va[s] & mask(wa), kb = vb[s] & mask(wb);
                char what[64];
                for (unsigned k = 0; k < NOPS; k++) {
                    TermOp op = binops[k];
                    const Term *t = term_binop(tt, op, a, b);
                    unsigned tw = is_shift(op) ? wa : w;
                    CHECK(t->width == (is_cmp(op) ? 1 : tw), "%s a%u b%u: width %u", binop_names[k], wa, wb, t->width);
                    snprintf(what, sizeof what, "term_binop %s", binop_names[k]);
                    expect_value(ps, tt, a, ka, b, kb, t, ref(op, tw, ka, kb), what);
                }
                /* the constructors that fit b to a's width */
                uint64_t kbf = kb & mask(wa);
                expect_value(ps, tt, a, ka, b, kb, term_add(tt, a, b), ref(T_ADD, wa, ka, kbf), "term_add");
                expect_value(ps, tt, a, ka, b, kb, term_sub(tt, a, b), (ka - kbf) & mask(wa), "term_sub");
                expect_value(ps, tt, a, ka, b, kb, term_mul(tt, a, b), ref(T_MUL, wa, ka, kbf), "term_mul");
                /* ite(a, b, a): a wider condition is a != 0, the else side fitted to b's width */
                expect_value(ps, tt, a, ka, b, kb, term_ite(tt, a, b, a), ka ? kb : ka & mask(wb), "term_ite");
                /* substituting a b-width value for a: fitted to a's width */
                const Term *sum = term_add(tt, a, term_const(tt, wa, 3));
                expect_value(ps, tt, a, ka, b, kb, term_subst(tt, sum, a, b), (kb + 3) & mask(wa), "term_subst");
            }
        }
    printf("widths: %u checks over %u width pairs, %u solver queries\n", checks - before, NW * NW,
           proof_session_queries(ps));
    proof_session_free(ps);
    terms_free(tt);
}

/* A hand-made term (not interned: the constructors would fix it). */
static Term raw(uint32_t id, TermOp op, unsigned width, uint32_t n, const Term **args, uint64_t *coef)
{
    Term t = { 0 };
    t.id = id;
    t.hash = 0x9e3779b97f4a7c15ull * (id + 1);
    t.op = (uint8_t)op;
    t.width = (uint8_t)width;
    t.depth = 2;
    t.n = n;
    t.args = args;
    t.coef = coef;
    return t;
}

static void ill_sorted(void)
{
    /* its own table and session: the hand-made terms' ids must not meet
     * interned ones in the session's memo */
    TermTable *tt = terms_new();
    ProofSession *ps = proof_session_new(tt, 2000);
    uint32_t id = 100000;
    unsigned unknown = 0, tried = 0;
    for (unsigned i = 0; i < NW; i++)
        for (unsigned j = 0; j < NW; j++) {
            unsigned wa = widths[i], wb = widths[j];
            if (wa == wb) continue;
            const Term *ab[2] = { term_var(tt, wa, "x"), term_var(tt, wb, "y") };
            for (unsigned k = 0; k < NOPS; k++) {
                TermOp op = binops[k];
                uint64_t coef[2] = { 1, 1 };
                Term t = raw(id++, op, is_cmp(op) ? 1 : wa, 2, ab, op == T_ADD ? coef : NULL);
                ProofResult r = proof_equal(ps, &t, term_var(tt, t.width, "z"), NULL, 0);
                CHECK(r == PROOF_UNKNOWN, "hand-made %s(x%u, y%u): %s", binop_names[k], wa, wb, proof_result_name(r));
                unknown += r == PROOF_UNKNOWN;
                tried++;
            }
            /* an extension to a narrower width, a truncation to a wider one */
            Term z = raw(id++, wa > wb ? T_ZEXT : T_TRUNC, wb, 1, ab, NULL);
            ProofResult r = proof_equal(ps, &z, term_var(tt, wb, "z"), NULL, 0);
            CHECK(r == PROOF_UNKNOWN, "hand-made %s%u(x%u): %s", wa > wb ? "zext" : "trunc", wb, wa, proof_result_name(r));
            /* an ITE whose condition is not one bit */
            if (wa != 1) {
                const Term *c3[3] = { ab[0], ab[1], ab[1] };
                Term it = raw(id++, T_ITE, wb, 3, c3, NULL);
                r = proof_equal(ps, &it, term_var(tt, wb, "z"), NULL, 0);
                CHECK(r == PROOF_UNKNOWN, "hand-made ite(x%u, y%u, y%u): %s", wa, wb, wb, proof_result_name(r));
            }
        }
    /* widths no bit-vector has, an operand missing, a sum without coefficients */
    const Term *x32 = term_var(tt, 32, "x");
    const Term *two[2] = { x32, x32 }, *none[2] = { x32, NULL };
    Term w0 = raw(id++, T_AND, 0, 2, two, NULL), w65 = raw(id++, T_AND, 65, 2, two, NULL);
    Term hole = raw(id++, T_AND, 32, 2, none, NULL), nocoef = raw(id++, T_ADD, 32, 2, two, NULL);
    const Term *bad_and[1] = { &hole };
    Term above = raw(id++, T_XOR, 32, 1, bad_and, NULL);   /* above a bad term (and the wrong arity) */
    Term *odd[] = { &w0, &w65, &hole, &nocoef, &above };
    for (unsigned k = 0; k < sizeof odd / sizeof odd[0]; k++) {
        ProofClaim cl = { NULL, odd[k], odd[k] };
        ProofResult r;
        proof_all(ps, &cl, 1, &r, NULL, 0);
        CHECK(r == PROOF_UNKNOWN, "hand-made term %u (width %u): %s", k, odd[k]->width, proof_result_name(r));
    }
    /* the session still proves and refutes well-sorted claims */
    const Term *a = term_var(tt, 32, "a"), *b = term_var(tt, 32, "b");
    CHECK(proof_equal(ps, term_binop(tt, T_XOR, term_binop(tt, T_XOR, a, b), b), a, NULL, 0) == PROOF_PROVED,
          "after the ill-sorted queries: (a^b)^b == a");
    CHECK(proof_equal(ps, term_binop(tt, T_OR, a, b), term_binop(tt, T_XOR, a, b), NULL, 0) == PROOF_REFUTED,
          "after the ill-sorted queries: a|b == a^b refuted");
    printf("ill-sorted: %u of %u hand-made mismatched operations answered unknown\n", unknown, tried);
    proof_session_free(ps);
    terms_free(tt);
}

/* proof_counterexample: after a solver refutation, the model's values
 * satisfy the premise and separate the sides; after anything else there is
 * no model to read. */
static void counterexample(void)
{
    TermTable *tt = terms_new();
    ProofSession *ps = proof_session_new(tt, 2000);
    const Term *a = term_var(tt, 32, "a"), *b = term_var(tt, 32, "b");
    /* a < 100 and b == a + 3 and a*b % 4 == 2 -> b == a + 5: refuted */
    const Term *prem = term_binop(tt, T_AND, term_binop(tt, T_ULT, a, term_const(tt, 32, 100)),
                                  term_binop(tt, T_AND, term_binop(tt, T_EQ, b, term_add(tt, a, term_const(tt, 32, 3))),
                                             term_binop(tt, T_EQ, term_binop(tt, T_AND, term_mul(tt, a, b), term_const(tt, 32, 3)),
                                                        term_const(tt, 32, 2))));
    ProofResult r = proof_equal_assuming(ps, prem, b, term_add(tt, a, term_const(tt, 32, 5)), NULL, 0);
    uint64_t va = 0, vb = 0;
    bool got = proof_counterexample(ps, a, &va) && proof_counterexample(ps, b, &vb);
    CHECK(r == PROOF_REFUTED && got, "refuted with a model: %s, %d", proof_result_name(r), got);
    CHECK(va < 100 && vb == va + 3 && ((va * vb) & 3) == 2, "the model satisfies the premise: a = %llu, b = %llu",
          (unsigned long long)va, (unsigned long long)vb);
    uint64_t vs = 0;
    CHECK(proof_counterexample(ps, term_sub(tt, b, a), &vs) && vs == 3, "any term of the claim's table evaluates: b - a = %llu",
          (unsigned long long)vs);
    r = proof_equal_assuming(ps, prem, b, term_add(tt, a, term_const(tt, 32, 3)), NULL, 0);
    CHECK(r == PROOF_PROVED && !proof_counterexample(ps, a, &va), "after a proof there is no counterexample");
    r = proof_equal(ps, term_add(tt, a, term_const(tt, 32, 1)), a, NULL, 0);
    CHECK(r == PROOF_REFUTED && !proof_counterexample(ps, a, &va), "a normal-form refutation has no model");
    proof_session_free(ps);
    terms_free(tt);
}

int main(void)
{
    if (!proof_available()) {
        printf("SKIP: the Z3 bridge's width checks need Z3 (built without it)\n");
        return 0;
    }
    widths_all();
    ill_sorted();
    counterexample();
    printf("%d checks, %d failures\n", checks, failures);
    return failures ? 1 : 0;
}
