/* llvm_mirror.h — the LLVM-C cross-check of the CFG and the SSA overlay (ptxopt --verify-ir). */
#ifndef PTXOPT_ANALYSIS_LLVM_MIRROR_H
#define PTXOPT_ANALYSIS_LLVM_MIRROR_H

#include <stdio.h>

#include "ir/ir.h"

/* Mirror every function's CFG and SSA overlay into LLVM IR and run LLVM's
 * verifier; also run ssa_check.  Returns the number of disagreements
 * (reported to err with function and block), or -1 without LLVM. */
int analysis_verify_llvm(Module *m, FILE *err);

#endif
