/* z3bridge.h — proofs over terms (Z3 bit-vectors, exact). */
#ifndef PTXOPT_ANALYSIS_Z3BRIDGE_H
#define PTXOPT_ANALYSIS_Z3BRIDGE_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

#include "analysis/terms.h"

/* Proofs over all values of every atom (Z3 bit-vectors, exact).  UF terms
 * (loads, float operations) become uninterpreted functions.  A proof asks
 * whether x == y for every input; on failure *cex gets a counterexample
 * ("%tid.x = 0xffffffff, ..."; the two sides' values at the end).  Without
 * Z3 the answer is PROOF_UNKNOWN except when normalisation alone decides. */
typedef enum ProofResult { PROOF_PROVED, PROOF_REFUTED, PROOF_UNKNOWN } ProofResult;

typedef struct ProofSession ProofSession;
ProofSession *proof_session_new(TermTable *tt, unsigned timeout_ms);   /* per-query limit */
void proof_session_free(ProofSession *ps);
ProofResult proof_equal(ProofSession *ps, const Term *x, const Term *y, char *cex, size_t cexcap);
/* x == y for every input satisfying the 1-bit premise (e.g. "the 32-bit
 * index does not overflow"); a counterexample satisfies the premise. */
ProofResult proof_equal_assuming(ProofSession *ps, const Term *premise, const Term *x, const Term *y, char *cex,
                                 size_t cexcap);
/* Prove a 1-bit term is 1 for every input. */
ProofResult proof_valid(ProofSession *ps, const Term *cond, char *cex, size_t cexcap);
/* Claims premise_i -> x_i == y_i (premise NULL: none) decided in one
 * solver query when all hold, else each on its own; out[i] gets each
 * result, cex (optional, n slots of cexcap chars) their counterexamples.
 * Always asks the solver, never the normal form alone (a check of the
 * callers' own normalisation); without Z3 everything is PROOF_UNKNOWN.
 * Returns PROOF_PROVED when all are proved, else REFUTED if any is. */
typedef struct ProofClaim {
    const Term *premise, *x, *y;
} ProofClaim;
ProofResult proof_all(ProofSession *ps, const ProofClaim *claims, uint32_t n, ProofResult *out, char *cex, size_t cexcap);
/* Solver queries the session has made (normal-form answers are free). */
unsigned proof_session_queries(const ProofSession *ps);
/* One-shot convenience (a session of its own). */
ProofResult term_prove_equal(TermTable *tt, const Term *x, const Term *y, unsigned timeout_ms, char *cex, size_t cexcap);
bool proof_available(void);           /* built with Z3 */
const char *proof_result_name(ProofResult r);

#endif
