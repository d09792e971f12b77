/* ivars.h — induction variables of loops. */
#ifndef PTXOPT_ANALYSIS_IVARS_H
#define PTXOPT_ANALYSIS_IVARS_H

#include <stdint.h>
#include <stdbool.h>

#include "analysis/ssa.h"

typedef enum IvKind { IV_BASIC, IV_DERIVED } IvKind;

enum { IV_MAX_CHAIN = 7 };
typedef struct InductionVar {
    uint32_t loop;
    uint8_t kind;             /* IvKind */
    bool grid_stride;         /* basic: step is %ntid.d * %nctaid.d (any order, same d) */
    bool step_negative;       /* basic: sub, or add of a negative constant */
    bool widened;             /* derived through cvt/mul.wide/mad.wide: affine only while
                                 the narrower value does not wrap */
    uint32_t reg;
    SsaValue value;           /* basic: the phi at the header; derived: the written value */
    SsaValue init;            /* basic: value entering the loop (ANA_NONE if it differs by edge) */
    SsaValue update;          /* basic: the write that adds the step on every back edge */
    SsaValue step_value;      /* basic: step register value, ANA_NONE for an immediate */
    int64_t step_imm;         /* basic: immediate step (when step_value == ANA_NONE) */
    uint8_t step_opnd;        /* basic: operand of the update instruction that is the step */
    /* basic: a chain p1 = p + s1; p2 = p1 + s2; ...; update = pk + step (nvcc's
     * unrolled loops advance a pointer this way): the earlier add/sub
     * instructions and their step operands; the IV's step is the sum */
    uint8_t nchain;
    uint32_t chain_instr[IV_MAX_CHAIN];
    uint8_t chain_opnd[IV_MAX_CHAIN];
    uint32_t base;            /* derived: index of the IV it is computed from */
} InductionVar;

typedef struct IvInfo {
    uint32_t n;
    InductionVar *iv;         /* by loop, basic before derived */
} IvInfo;

const IvInfo *ivars_get(Function *fn);
/* The basic IV whose header phi is v, or ANA_NONE. */
uint32_t ivars_of_phi(const IvInfo *iv, SsaValue v);

#endif
