/* z3bridge.c — exact proofs over terms with Z3's bit-vector theory.
 *
 * Each term becomes the Z3 expression of the same width: atoms are free
 * constants, T_UF applications uninterpreted functions (same name and
 * argument widths = same function), comparisons and ITE conditions are
 * one-bit vectors.  Division by zero has no defined PTX result, so
 * x / 0 and x % 0 are uninterpreted functions of x (never SMT-LIB's fixed
 * values).  A query is "premise and not (x == y)" checked under a
 * per-query time limit (the solver's "timeout" parameter): unsat → proved,
 * sat → refuted with the model as counterexample (checked again by
 * evaluating both sides in C when no uninterpreted function is involved),
 * unknown → unknown.  proof_all asks the solver for a list of claims.
 *
 * Cost: one Z3 context per process (shared by the sessions, remade now and
 * then; about 10 ms to make) and a solver from a fixed tactic per query;
 * premise equalities name the subterms they define (assert_claim), which
 * lets Z3's own simplifier decide the shuffle pass's claims in 0.1-0.5 ms.
 * Before: a context per session and Z3_mk_solver per query, 20-30 ms each.
 *
 * Without Z3 (configure --without-z3) the session still answers what the
 * normal form alone decides (identical terms, constant difference). */
#include "config.h"
#include "analysis/internal.h"

#include <stdarg.h>
#include <stdio.h>

#ifdef HAVE_Z3
#include <z3.h>
#endif

struct ProofSession {
    TermTable *tt;
    unsigned timeout_ms;
    unsigned queries;         /* solver calls made */
#ifdef HAVE_Z3
    Z3_context ctx;           /* the process's context (z3g), NULL until needed */
    Z3_ast *memo;             /* by term id, valid in ctx */
    uint32_t memo_cap;
#endif
};

const char *proof_result_name(ProofResult r)
{
    switch (r) {
    case PROOF_PROVED: return "proved";
    case PROOF_REFUTED: return "refuted";
    default: return "unknown";
    }
}

bool proof_available(void)
{
#ifdef HAVE_Z3
    return true;
#else
    return false;
#endif
}

/* -------------------------------------------------- counterexample text */

typedef struct AtomVals {
    const Term **atom;
    uint64_t *val;
    uint32_t n, cap;
} AtomVals;

static void collect_atoms(const Term *x, uint8_t *seen, AtomVals *av)
{
    if (seen[x->id]) return;
    seen[x->id] = 1;
    if (x->op == T_ATOM) {
        if (av->n == av->cap) {
            av->cap = av->cap ? av->cap * 2 : 8;
            av->atom = xrealloc(av->atom, sizeof(Term *) * av->cap);
            av->val = xrealloc(av->val, sizeof(uint64_t) * av->cap);
        }
        av->atom[av->n] = x;
        av->val[av->n++] = 0;
        return;
    }
    for (uint32_t i = 0; i < x->n; i++) collect_atoms(x->args[i], seen, av);
}

static bool atom_value(void *ctx, const Term *a, uint64_t *v)
{
    const AtomVals *av = ctx;
    for (uint32_t i = 0; i < av->n; i++)
        if (av->atom[i] == a) {
            *v = av->val[i];
            return true;
        }
    return false;
}

static void append(char *buf, size_t cap, size_t *len, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void append(char *buf, size_t cap, size_t *len, const char *fmt, ...)
{
    if (!buf || *len >= cap) return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf + *len, cap - *len, fmt, ap);
    va_end(ap);
    if (n > 0) *len += (size_t)n;
    if (*len >= cap) *len = cap - 1;
}

static void format_value(char *out, size_t cap, uint64_t v)
{
    if (v < 65536) snprintf(out, cap, "%llu", (unsigned long long)v);
    else snprintf(out, cap, "0x%llx", (unsigned long long)v);
}

/* Writes "a = 1, b = 0x..; lhs = .., rhs = .." for the atoms of x and y. */
static void format_cex(AtomVals *av, const Term *x, const Term *y, char *buf, size_t cap)
{
    size_t len = 0;
    if (!buf || !cap) return;
    buf[0] = 0;
    for (uint32_t i = 0; i < av->n; i++) {
        char name[128], val[32];
        term_format(name, sizeof name, av->atom[i]);
        format_value(val, sizeof val, av->val[i]);
        append(buf, cap, &len, "%s%s = %s", i ? ", " : "", name, val);
    }
    uint64_t l, r;
    if (term_eval(x, atom_value, av, &l) && term_eval(y, atom_value, av, &r)) {
        char ls[32], rs[32];
        format_value(ls, sizeof ls, l);
        format_value(rs, sizeof rs, r);
        append(buf, cap, &len, "%slhs = %s, rhs = %s%s", av->n ? "; " : "", ls, rs,
               l == r ? " (internal: the model does not separate them)" : "");
    }
}

static void atoms_of(const Term *x, const Term *y, AtomVals *av)
{
    uint32_t maxid = x->id > y->id ? x->id : y->id;
    uint8_t *seen = xcalloc(maxid + 1, 1);
    collect_atoms(x, seen, av);
    collect_atoms(y, seen, av);
    free(seen);
}

/* --------------------------------------------------------------- Z3 side */

#ifdef HAVE_Z3
/* One context per process, shared by the sessions one after another (a
 * context costs 7-15 ms to make, a session is one kernel).  Its ASTs live
 * until it is deleted, so it is remade once no session uses it and
 * Z3_RECYCLE sessions have used it: a long in-process run (ptxopt-tune,
 * unit tests) stays bounded.  Not thread-safe: ptxopt runs files in
 * parallel in forked worker processes, never in threads, and the batch
 * parent never proves (a fork after Z3 ran would copy its timer threads'
 * state without the threads). */
enum { Z3_RECYCLE = 64 };
static struct {
    Z3_context ctx;
    Z3_tactic tactic;  /* kept: making a tactic parses its parameters */
    unsigned live;     /* sessions holding ctx */
    unsigned used;     /* sessions since ctx was made */
    bool error;        /* set by the error handler; cleared per query */
    char fault;        /* PTXOPT_PROOF_FAULT: 'u'nknown, 'r'efuted, or 0 */
    unsigned fault_nth; /* only the process's nth solver query (0: all) */
    unsigned nquery;   /* solver queries in this process */
} z3g;

static void on_z3_error(Z3_context c, Z3_error_code e)
{
    (void)c;
    (void)e;
    z3g.error = true;   /* the query in progress answers unknown */
}

/* PTXOPT_PROOF_FAULT=unknown|refuted[:N], for tests of the fallback paths
 * (a real refutation of a pair normalisation proved would be a bug, and a
 * real time-out needs a query that is hard on every machine): every solver
 * query, or only the process's Nth, answers so without asking Z3. */
static void fault_init(void)
{
    const char *f = getenv("PTXOPT_PROOF_FAULT");
    z3g.fault = 0;
    if (!f) return;
    if (strncmp(f, "unknown", 7) == 0) z3g.fault = 'u', f += 7;
    else if (strncmp(f, "refuted", 7) == 0) z3g.fault = 'r', f += 7;
    else return;
    z3g.fault_nth = *f == ':' ? (unsigned)strtoul(f + 1, NULL, 10) : 0;
}

static Z3_context z3_acquire(void)
{
    if (!z3g.ctx) {
        Z3_config cfg = Z3_mk_config();
        Z3_set_param_value(cfg, "model", "true");
        z3g.ctx = Z3_mk_context(cfg);
        Z3_del_config(cfg);
        Z3_set_error_handler(z3g.ctx, on_z3_error);
        /* simplify, solve-eqs, simplify, then qfbv (bit-blast and SAT; the
         * SMT core only for uninterpreted functions).  The first three
         * decide a claim whose premise names its subterms (see
         * assert_claim) in a fraction of a millisecond; bit-blasting the
         * same claim costs 10-40 ms.  A general Z3_mk_solver costs 20-30 ms
         * a query to set up; the incremental simple solver did not stop at
         * the time limit. */
        const char *steps[] = { "simplify", "solve-eqs", "simplify", "qfbv" };
        z3g.tactic = NULL;
        for (int i = 3; i >= 0; i--) { /* and_then(steps[i], the rest) */
            Z3_tactic t = Z3_mk_tactic(z3g.ctx, steps[i]);
            Z3_tactic_inc_ref(z3g.ctx, t);
            if (z3g.tactic) {
                Z3_tactic u = Z3_tactic_and_then(z3g.ctx, t, z3g.tactic);
                Z3_tactic_inc_ref(z3g.ctx, u);
                Z3_tactic_dec_ref(z3g.ctx, z3g.tactic);
                Z3_tactic_dec_ref(z3g.ctx, t);
                t = u;
            }
            z3g.tactic = t;
        }
        z3g.used = 0;
        fault_init();
    }
    z3g.live++;
    z3g.used++;
    return z3g.ctx;
}

static void z3_release(void)
{
    if (--z3g.live || z3g.used < Z3_RECYCLE) return;
    Z3_tactic_dec_ref(z3g.ctx, z3g.tactic);
    Z3_del_context(z3g.ctx);
    z3g.ctx = NULL;
}

static Z3_ast bv(ProofSession *ps, unsigned w, uint64_t v)
{
    return Z3_mk_unsigned_int64(ps->ctx, v, Z3_mk_bv_sort(ps->ctx, w));
}

static Z3_ast as_bool(ProofSession *ps, Z3_ast b1) { return Z3_mk_eq(ps->ctx, b1, bv(ps, 1, 1)); }
static Z3_ast from_bool(ProofSession *ps, Z3_ast b) { return Z3_mk_ite(ps->ctx, b, bv(ps, 1, 1), bv(ps, 1, 0)); }

static Z3_ast uf1(ProofSession *ps, const char *name, Z3_ast x, unsigned w)
{
    Z3_sort s = Z3_mk_bv_sort(ps->ctx, w);
    Z3_func_decl f = Z3_mk_func_decl(ps->ctx, Z3_mk_string_symbol(ps->ctx, name), 1, &s, s);
    return Z3_mk_app(ps->ctx, f, 1, &x);
}

static Z3_ast translate(ProofSession *ps, const Term *x);

static Z3_ast div_guarded(ProofSession *ps, const Term *x, Z3_ast a, Z3_ast b)
{
    Z3_context c = ps->ctx;
    unsigned w = x->width;
    Z3_ast q;
    const char *zname;
    switch (x->op) {
    case T_UDIV: q = Z3_mk_bvudiv(c, a, b); zname = "udiv_by_zero"; break;
    case T_SDIV: q = Z3_mk_bvsdiv(c, a, b); zname = "sdiv_by_zero"; break;
    case T_UREM: q = Z3_mk_bvurem(c, a, b); zname = "urem_by_zero"; break;
    default: q = Z3_mk_bvsrem(c, a, b); zname = "srem_by_zero"; break;
    }
    return Z3_mk_ite(c, Z3_mk_eq(c, b, bv(ps, w, 0)), uf1(ps, zname, a, w), q);
}

static Z3_ast translate(ProofSession *ps, const Term *x)
{
    if (x->id >= ps->memo_cap) {
        uint32_t nc = ps->memo_cap ? ps->memo_cap : 256;
        while (nc <= x->id) nc *= 2;
        ps->memo = xrealloc(ps->memo, sizeof(Z3_ast) * nc);
        memset(ps->memo + ps->memo_cap, 0, sizeof(Z3_ast) * (nc - ps->memo_cap));
        ps->memo_cap = nc;
    }
    if (ps->memo[x->id]) return ps->memo[x->id];
    Z3_context c = ps->ctx;
    Z3_ast r = NULL;
    Z3_ast a[3] = { NULL, NULL, NULL };
    if (x->op != T_ADD && x->op != T_UF)
        for (uint32_t i = 0; i < x->n && i < 3; i++) a[i] = translate(ps, x->args[i]);
    switch (x->op) {
    case T_CONST: r = bv(ps, x->width, x->k); break;
    case T_ATOM: {
        char name[160];
        size_t n = (size_t)snprintf(name, sizeof name, "t%u_", x->id);
        term_format(name + n, sizeof name - n, x);
        r = Z3_mk_const(c, Z3_mk_string_symbol(c, name), Z3_mk_bv_sort(c, x->width));
        break;
    }
    case T_ADD:
        r = bv(ps, x->width, x->k);
        for (uint32_t i = 0; i < x->n; i++) {
            Z3_ast t = translate(ps, x->args[i]);
            if (x->coef[i] != 1) t = Z3_mk_bvmul(c, bv(ps, x->width, x->coef[i]), t);
            r = Z3_mk_bvadd(c, r, t);
        }
        break;
    case T_MUL: r = Z3_mk_bvmul(c, a[0], a[1]); break;
    case T_MULHI_U: case T_MULHI_S: {
        unsigned w = x->width;
        Z3_ast ea = x->op == T_MULHI_U ? Z3_mk_zero_ext(c, w, a[0]) : Z3_mk_sign_ext(c, w, a[0]);
        Z3_ast eb = x->op == T_MULHI_U ? Z3_mk_zero_ext(c, w, a[1]) : Z3_mk_sign_ext(c, w, a[1]);
        r = Z3_mk_extract(c, 2 * w - 1, w, Z3_mk_bvmul(c, ea, eb));
        break;
    }
    case T_UDIV: case T_SDIV: case T_UREM: case T_SREM: r = div_guarded(ps, x, a[0], a[1]); break;
    case T_AND: r = Z3_mk_bvand(c, a[0], a[1]); break;
    case T_OR: r = Z3_mk_bvor(c, a[0], a[1]); break;
    case T_XOR: r = Z3_mk_bvxor(c, a[0], a[1]); break;
    case T_SHL: r = Z3_mk_bvshl(c, a[0], a[1]); break;
    case T_LSHR: r = Z3_mk_bvlshr(c, a[0], a[1]); break;
    case T_ASHR: r = Z3_mk_bvashr(c, a[0], a[1]); break;
    case T_ZEXT: r = Z3_mk_zero_ext(c, x->width - x->args[0]->width, a[0]); break;
    case T_SEXT: r = Z3_mk_sign_ext(c, x->width - x->args[0]->width, a[0]); break;
    case T_TRUNC: r = Z3_mk_extract(c, x->width - 1, 0, a[0]); break;
    case T_ITE: r = Z3_mk_ite(c, as_bool(ps, a[0]), a[1], a[2]); break;
    case T_EQ: r = from_bool(ps, Z3_mk_eq(c, a[0], a[1])); break;
    case T_ULT: r = from_bool(ps, Z3_mk_bvult(c, a[0], a[1])); break;
    case T_ULE: r = from_bool(ps, Z3_mk_bvule(c, a[0], a[1])); break;
    case T_SLT: r = from_bool(ps, Z3_mk_bvslt(c, a[0], a[1])); break;
    case T_SLE: r = from_bool(ps, Z3_mk_bvsle(c, a[0], a[1])); break;
    case T_UMIN: r = Z3_mk_ite(c, Z3_mk_bvult(c, a[0], a[1]), a[0], a[1]); break;
    case T_UMAX: r = Z3_mk_ite(c, Z3_mk_bvult(c, a[0], a[1]), a[1], a[0]); break;
    case T_SMIN: r = Z3_mk_ite(c, Z3_mk_bvslt(c, a[0], a[1]), a[0], a[1]); break;
    case T_SMAX: r = Z3_mk_ite(c, Z3_mk_bvslt(c, a[0], a[1]), a[1], a[0]); break;
    case T_UF: {
        Z3_sort *dom = xmalloc(sizeof(Z3_sort) * (x->n + 1));
        Z3_ast *args = xmalloc(sizeof(Z3_ast) * (x->n + 1));
        char name[200];
        size_t len = (size_t)snprintf(name, sizeof name, "%.*s/", STR_FMT(x->name));
        for (uint32_t i = 0; i < x->n; i++) {
            args[i] = translate(ps, x->args[i]);
            dom[i] = Z3_mk_bv_sort(c, x->args[i]->width);
            if (len < sizeof name) len += (size_t)snprintf(name + len, sizeof name - len, "%u.", x->args[i]->width);
        }
        Z3_func_decl f = Z3_mk_func_decl(c, Z3_mk_string_symbol(c, name), x->n, dom, Z3_mk_bv_sort(c, x->width));
        r = Z3_mk_app(c, f, x->n, args);
        free(dom);
        free(args);
        break;
    }
    default:
        r = Z3_mk_fresh_const(c, "unknown", Z3_mk_bv_sort(c, x->width));
        break;
    }
    ps->memo[x->id] = r;
    return r;
}
#endif

ProofSession *proof_session_new(TermTable *tt, unsigned timeout_ms)
{
    ProofSession *ps = xcalloc(1, sizeof *ps);
    ps->tt = tt;
    ps->timeout_ms = timeout_ms ? timeout_ms : 1;
    return ps;
}

void proof_session_free(ProofSession *ps)
{
    if (!ps) return;
#ifdef HAVE_Z3
    free(ps->memo);
    if (ps->ctx) z3_release();
#endif
    free(ps);
}

unsigned proof_session_queries(const ProofSession *ps) { return ps ? ps->queries : 0; }

static bool well_formed(const Term *premise, const Term *x, const Term *y)
{
    return x && y && x->width == y->width && (!premise || premise->width == 1);
}

#ifdef HAVE_Z3
/* The 1-bit equalities among the premise's conjuncts. */
static void premise_eqs(const Term *p, const Term **eq, uint32_t *n, uint32_t cap)
{
    if (p->op == T_AND && p->width == 1) {
        for (uint32_t i = 0; i < p->n; i++) premise_eqs(p->args[i], eq, n, cap);
    } else if (p->op == T_EQ && p->n == 2 && *n < cap) {
        eq[(*n)++] = p;
    }
}

/* Asserts "premise and x != y" into s.  A premise conjunct u == v whose u
 * (a compound term) occurs in the claim names it: a fresh constant U with
 * U == v asserted first, U == u after, and U for u in the claim.  That is
 * the same formula up to a definition, and Z3's solve-eqs then substitutes
 * v for U, so the simplifier decides a claim like "the neighbour's widened
 * index ext(x') == ext(x) + N implies 4*ext(x') + p == 4*ext(x) + 4N + p"
 * without bit-blasting. */
static void assert_claim(ProofSession *ps, Z3_solver s, const Term *premise, const Term *x, const Term *y)
{
    Z3_context c = ps->ctx;
    Z3_ast zx = translate(ps, x), zy = translate(ps, y);
    enum { MAXN = 32 };
    const Term *eq[MAXN];
    uint32_t neq = 0, nn = 0;
    Z3_ast from[MAXN], to[MAXN], other[MAXN];
    if (premise) premise_eqs(premise, eq, &neq, MAXN);
    for (uint32_t i = 0; i < neq; i++) {
        for (int side = 0; side < 2; side++) {
            const Term *u = eq[i]->args[side], *v = eq[i]->args[1 - side];
            if (u->n == 0 || !(term_mentions(x, u) || term_mentions(y, u))) continue;
            char name[32];
            snprintf(name, sizeof name, "named%u", u->id);
            from[nn] = translate(ps, u);
            to[nn] = Z3_mk_const(c, Z3_mk_string_symbol(c, name), Z3_mk_bv_sort(c, u->width));
            other[nn++] = translate(ps, v);
            break;
        }
    }
    for (uint32_t i = 0; i < nn; i++)
        Z3_solver_assert(c, s, Z3_mk_eq(c, to[i], Z3_substitute(c, other[i], nn, from, to)));
    for (uint32_t i = 0; i < nn; i++) Z3_solver_assert(c, s, Z3_mk_eq(c, to[i], from[i]));
    Z3_ast ne = Z3_mk_not(c, Z3_mk_eq(c, zx, zy));
    if (premise) Z3_solver_assert(c, s, as_bool(ps, translate(ps, premise)));
    Z3_solver_assert(c, s, nn ? Z3_substitute(c, ne, nn, from, to) : ne);
}

/* Is "premise and x != y" satisfiable?  Z3_L_UNDEF on time limit or error.
 * *m (optional) gets the model of a sat answer (the caller dec_refs it). */
static Z3_lbool check(ProofSession *ps, const Term *premise, const Term *x, const Term *y, Z3_model *m)
{
    Z3_context c = ps->ctx;
    if (m) *m = NULL;
    if (z3g.error) return Z3_L_UNDEF;
    Z3_solver s = Z3_mk_solver_from_tactic(c, z3g.tactic);
    Z3_solver_inc_ref(c, s);
    Z3_params p = Z3_mk_params(c);
    Z3_params_inc_ref(c, p);
    /* the API arms a timer around Z3_solver_check with the solver's
     * "timeout": it interrupts the tactics (bit-blasting, SAT) too */
    Z3_params_set_uint(c, p, Z3_mk_string_symbol(c, "timeout"), ps->timeout_ms);
    Z3_solver_set_params(c, s, p);
    assert_claim(ps, s, premise, x, y);
    ps->queries++;
    Z3_lbool res = Z3_L_UNDEF;
    bool fault = z3g.fault && (!z3g.fault_nth || z3g.fault_nth == ++z3g.nquery);
    if (fault) res = z3g.fault == 'u' ? Z3_L_UNDEF : Z3_L_TRUE;
    else if (!z3g.error) res = Z3_solver_check(c, s);
    if (z3g.error) res = Z3_L_UNDEF;
    if (res == Z3_L_TRUE && m && !fault) {
        *m = Z3_solver_get_model(c, s);
        if (*m) Z3_model_inc_ref(c, *m);
    }
    Z3_params_dec_ref(c, p);
    Z3_solver_dec_ref(c, s);
    return res;
}

static void start(ProofSession *ps)
{
    if (!ps->ctx) ps->ctx = z3_acquire();
    z3g.error = false;
}
#endif

/* premise -> x == y by the solver alone (the caller has tried the normal form). */
static ProofResult solver_decide(ProofSession *ps, const Term *premise, const Term *x, const Term *y, char *cex,
                                 size_t cexcap)
{
#ifdef HAVE_Z3
    start(ps);
    Z3_context c = ps->ctx;
    Z3_model m = NULL;
    Z3_lbool res = check(ps, premise, x, y, &m);
    if (res == Z3_L_FALSE) return PROOF_PROVED;
    if (res != Z3_L_TRUE) return PROOF_UNKNOWN;
    if (!m && z3g.fault && cex && cexcap) snprintf(cex, cexcap, "PTXOPT_PROOF_FAULT=refuted");
    if (m) {
        AtomVals av = { 0 };
        atoms_of(x, y, &av);
        for (uint32_t i = 0; i < av.n; i++) {
            Z3_ast val = NULL;
            uint64_t v = 0;
            if (Z3_model_eval(c, m, translate(ps, av.atom[i]), true, &val) && val && Z3_get_numeral_uint64(c, val, &v))
                av.val[i] = v;
        }
        format_cex(&av, x, y, cex, cexcap);
        Z3_model_dec_ref(c, m);
        free(av.atom);
        free(av.val);
    }
    return z3g.error ? PROOF_UNKNOWN : PROOF_REFUTED;
#else
    (void)ps, (void)premise, (void)x, (void)y, (void)cex, (void)cexcap;
    return PROOF_UNKNOWN;
#endif
}

/* Decide premise -> x == y for all inputs (premise NULL: true). */
static ProofResult prove(ProofSession *ps, const Term *premise, const Term *x, const Term *y, char *cex, size_t cexcap)
{
    if (cex && cexcap) cex[0] = 0;
    if (!well_formed(premise, x, y)) return PROOF_UNKNOWN;
    if (premise && premise->op == T_CONST && premise->k == 1) premise = NULL;
    if (x == y) return PROOF_PROVED;
    if (premise && premise->op == T_CONST) return PROOF_PROVED;   /* false premise */
    const Term *d = term_sub(ps->tt, x, y);
    if (d->op == T_CONST && d->k == 0) return PROOF_PROVED;
    if (d->op == T_CONST && !premise) {
        /* the two sides differ by a non-zero constant for every input */
        AtomVals av = { 0 };
        atoms_of(x, y, &av);
        format_cex(&av, x, y, cex, cexcap);
        free(av.atom);
        free(av.val);
        return PROOF_REFUTED;
    }
    return solver_decide(ps, premise, x, y, cex, cexcap);
}

ProofResult proof_equal(ProofSession *ps, const Term *x, const Term *y, char *cex, size_t cexcap)
{
    return prove(ps, NULL, x, y, cex, cexcap);
}

ProofResult proof_equal_assuming(ProofSession *ps, const Term *premise, const Term *x, const Term *y, char *cex,
                                 size_t cexcap)
{
    return prove(ps, premise, x, y, cex, cexcap);
}

ProofResult proof_valid(ProofSession *ps, const Term *cond, char *cex, size_t cexcap)
{
    if (!cond || cond->width != 1) return PROOF_UNKNOWN;
    return proof_equal(ps, cond, term_const(ps->tt, 1, 1), cex, cexcap);
}

/* One query per claim: a disjunction of "premise_i and x_i != y_i" would
 * hide the premises from solve-eqs (they are no longer top-level) and be
 * bit-blasted whole, 10-40 ms against a fraction of a millisecond each. */
ProofResult proof_all(ProofSession *ps, const ProofClaim *cl, uint32_t n, ProofResult *out, char *cex, size_t cexcap)
{
    ProofResult r = PROOF_PROVED;
    for (uint32_t i = 0; i < n; i++) {
        char *ci = cex && cexcap ? cex + (size_t)i * cexcap : NULL;
        if (ci) ci[0] = 0;
        const Term *p = cl[i].premise;
        if (p && p->op == T_CONST && p->k == 1) p = NULL;
        out[i] = well_formed(p, cl[i].x, cl[i].y) ? solver_decide(ps, p, cl[i].x, cl[i].y, ci, cexcap) : PROOF_UNKNOWN;
        if (out[i] == PROOF_REFUTED) r = PROOF_REFUTED;
        else if (out[i] == PROOF_UNKNOWN && r == PROOF_PROVED) r = PROOF_UNKNOWN;
    }
    return r;
}

ProofResult term_prove_equal(TermTable *tt, const Term *x, const Term *y, unsigned timeout_ms, char *cex, size_t cexcap)
{
    ProofSession *ps = proof_session_new(tt, timeout_ms);
    ProofResult r = proof_equal(ps, x, y, cex, cexcap);
    proof_session_free(ps);
    return r;
}
