/* guard.h — when a pass leaves a whole kernel alone: fail-safe rules that
 * any pass can share.
 *
 * Opaque kernels.  The front end keeps what it does not understand (an
 * opcode missing from ir/opcodes.def, an instruction with an operand syntax
 * of its own) verbatim and marks the function opaque.  Such an instruction
 * may read or write any register or memory, branch, exit or synchronise,
 * so no analysis result about the kernel holds: a pass that needs them
 * leaves the kernel byte-identical and says which line is the reason.
 *
 * Time budget.  A pass whose analysis can be slow on some kernel (the
 * shuffle pass's proofs) gives each kernel a budget in milliseconds and
 * checks it between steps; when it runs out the kernel is left unchanged,
 * and the next kernel gets a budget of its own.  For tests, the variable
 * PTXOPT_EXPIRE_BUDGET=NAME[,NAME...] makes the budget of the named kernels
 * (when they have one) run out at its first check, whatever the machine's
 * speed. */
#ifndef PTXOPT_GUARD_H
#define PTXOPT_GUARD_H

#include <stdbool.h>

#include "opt/remarks.h"

/* The first statement that made fn opaque, or NULL (fn is not opaque, or
 * the reason is not one statement: a register declared twice). */
const Stmt *guard_opaque_stmt(const Function *fn);
/* For an opaque fn: a "missed" remark of `pass` at the statement that
 * makes it opaque, naming it and saying that the kernel is unchanged. */
void guard_remark_opaque(Remarks *rm, const char *pass, const Function *fn);
/* Why fn is opaque, in words ("unknown instruction 'frobnicate.b32' at
 * line 8"), written to buf; false (buf empty) when it is not opaque. */
bool guard_opaque_reason(const Function *fn, char *buf, size_t cap);

typedef struct Budget {
    long ms;            /* 0: no budget */
    double deadline;    /* CLOCK_MONOTONIC, ms */
    bool forced;        /* PTXOPT_EXPIRE_BUDGET names this kernel */
    bool expired;       /* sticky */
} Budget;

/* Starts fn's budget of `ms` milliseconds (0: unlimited). */
void budget_start(Budget *b, long ms, const Function *fn);
/* True once the budget has run out (and from then on). */
bool budget_expired(Budget *b);
/* Milliseconds left (at least 1), or `cap` when that is less or there is
 * no budget: a single solver query must not outlive the budget by much. */
long budget_left(const Budget *b, long cap);

#endif
