/* value_terms.h — the symbolic terms of a function's SSA values. */
#ifndef PTXOPT_ANALYSIS_VALUE_TERMS_H
#define PTXOPT_ANALYSIS_VALUE_TERMS_H

#include "analysis/ssa.h"
#include "analysis/terms.h"

/* Terms of a function's SSA values (made on demand, cached).  Registers are read through
 * the overlay: specials become ATOM_SPECIAL, ld.param of a kernel parameter
 * ATOM_PARAM, mov of a variable ATOM_SYMADDR, integer arithmetic exact
 * terms, predicated writes ITE(guard, new, old), basic induction variables
 * init + step·ATOM_ITER(loop), other loop-carried values ATOM_LOOPVAL,
 * loads UF "ld<.space>.bW"(address, memory state), other pure
 * instructions UF "<opcode text>"(operands), anything else ATOM_OPAQUE. */
typedef struct ValueTerms {
    TermTable *tt;            /* the function's table */
    const Ssa *ssa;
    void *priv;               /* terms made so far */
} ValueTerms;

const ValueTerms *vterms_get(Function *fn);
/* The term of SSA value v, made on demand with the terms it needs (NULL
 * when not modelled: wider than 64 bits, vector registers); %mem values are
 * ATOM_MEM atoms. */
const Term *vterms_value(Function *fn, SsaValue v);
/* The term of the address operand of an instruction (base + offset), or NULL. */
const Term *vterms_address(Function *fn, uint32_t instr, int opnd);
/* The special-register atom %NAME.comp of fn's table (e.g. "%tid", 'x'). */
const Term *vterms_special(Function *fn, const char *name, char comp);

#endif
