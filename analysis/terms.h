/* terms.h — hash-consed symbolic bit-vector terms. */
#ifndef PTXOPT_ANALYSIS_TERMS_H
#define PTXOPT_ANALYSIS_TERMS_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include <stdio.h>

#include "analysis/analysis.h"

/* Hash-consed bit-vector expressions: equal structure ⇔ same pointer.
 * Affine parts are normalised: an ADD node is  k + Σ cᵢ·xᵢ  (mod 2^width)
 * with distinct non-constant xᵢ in a canonical order (structural hash), NOT/NEG/SUB/SHL-by-constant
 * and MUL-by-constant folded into it, TRUNC distributed over it.  ZEXT and
 * SEXT are never distributed, so wrap-around stays exact
 * (zext64(i + 1) is not zext64(i) + 1). */
typedef enum TermOp {
    T_CONST, T_ATOM, T_ADD, T_MUL, T_MULHI_U, T_MULHI_S, T_UDIV, T_SDIV, T_UREM, T_SREM,
    T_AND, T_OR, T_XOR, T_SHL, T_LSHR, T_ASHR, T_ZEXT, T_SEXT, T_TRUNC, T_ITE,
    T_EQ, T_ULT, T_ULE, T_SLT, T_SLE, T_UMIN, T_UMAX, T_SMIN, T_SMAX, T_UF, T_NOPS
} TermOp;

typedef enum AtomKind {
    ATOM_SPECIAL,             /* %tid.x ...: name + comp */
    ATOM_PARAM,               /* value of a .param (kernel parameter) at byte offset `a` */
    ATOM_SYMADDR,             /* address of a variable/parameter symbol */
    ATOM_ITER,                /* iteration count of loop `a` (0 on entry) */
    ATOM_LOOPVAL,             /* value of a loop-carried register: loop `a`, SSA value `b` */
    ATOM_PHI,                 /* merge value `b` that is not affine in its inputs */
    ATOM_OPAQUE,              /* anything else: SSA value `b` (unique) */
    ATOM_MEM,                 /* memory state: SSA value `b` of %mem */
    ATOM_VAR                  /* a free variable made by a client (name) */
} AtomKind;

typedef struct Term Term;
struct Term {
    uint32_t id;              /* creation order in its table */
    uint64_t hash;            /* structural hash (independent of creation order) */
    uint8_t op;               /* TermOp */
    uint8_t width;            /* 1..64 bits */
    uint8_t atom;             /* AtomKind when op == T_ATOM */
    char comp;                /* ATOM_SPECIAL component */
    uint16_t depth;           /* 1 for leaves */
    uint32_t n;               /* operands */
    uint32_t a, b;            /* atom payload (see AtomKind) */
    uint64_t k;               /* CONST value; ADD constant part */
    Str name;                 /* ATOM_SPECIAL/PARAM/SYMADDR/VAR name, T_UF function name */
    const Term **args;        /* [n] */
    uint64_t *coef;           /* [n] T_ADD coefficients (non-zero, masked) */
};

typedef struct TermTable TermTable;

TermTable *terms_new(void);           /* standalone table (malloc'ed) */
void terms_free(TermTable *tt);
uint32_t terms_count(const TermTable *tt);

const Term *term_const(TermTable *tt, unsigned width, uint64_t v);
const Term *term_var(TermTable *tt, unsigned width, const char *name);   /* ATOM_VAR */
const Term *term_atom(TermTable *tt, unsigned width, AtomKind kind, Str name, char comp, uint32_t a, uint32_t b);
const Term *term_unop(TermTable *tt, TermOp op, unsigned width, const Term *x);  /* ZEXT/SEXT/TRUNC to width */
const Term *term_binop(TermTable *tt, TermOp op, const Term *x, const Term *y);
const Term *term_add(TermTable *tt, const Term *x, const Term *y);
const Term *term_sub(TermTable *tt, const Term *x, const Term *y);
const Term *term_mul(TermTable *tt, const Term *x, const Term *y);
const Term *term_scale(TermTable *tt, const Term *x, uint64_t c);
const Term *term_not(TermTable *tt, const Term *x);
const Term *term_neg(TermTable *tt, const Term *x);
const Term *term_ite(TermTable *tt, const Term *c, const Term *x, const Term *y);
const Term *term_uf(TermTable *tt, Str name, unsigned width, const Term *const *args, uint32_t n);
/* x with every occurrence of atom `from` replaced by `to` (same width). */
const Term *term_subst(TermTable *tt, const Term *x, const Term *from, const Term *to);
/* Does x mention atom a? */
bool term_mentions(const Term *x, const Term *a);
/* Affine view: x == k + c·a + rest, where rest does not mention a.  True when
 * a occurs only linearly (outside ZEXT/SEXT/MUL/...); c may be 0. */
bool term_linear_in(TermTable *tt, const Term *x, const Term *a, uint64_t *c);
/* Solve A[a := a + N] == B for a constant N in [lo, hi] on the affine parts
 * only (no solver): true and *N (smallest |N|) when B - A == c·N with c the
 * coefficient of a in A and every other part equal.  When A is wider than a
 * and not affine in it (a 64-bit address made from a 32-bit index by
 * sext/zext), the low a->width bits are solved instead.  A candidate, not a
 * proof: callers prove A[a := a + N] == B (which wrap-around may refute). */
bool term_solve_shift(TermTable *tt, const Term *A, const Term *B, const Term *a, int64_t lo, int64_t hi, int64_t *N);
/* Evaluate with atom values from `val` (called for each atom; UF: returns false). */
typedef bool (*TermAtomValue)(void *ctx, const Term *atom, uint64_t *value);
bool term_eval(const Term *x, TermAtomValue val, void *ctx, uint64_t *out);
/* Infix text, e.g. "%ctaid.x*%ntid.x + %tid.x" (sext64(...), zext64(...)). */
void term_print(FILE *out, const Term *x);
size_t term_format(char *buf, size_t cap, const Term *x);   /* snprintf-like */

#endif
