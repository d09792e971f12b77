/* memory.h — memory accesses: state spaces, base objects, aliasing. */
#ifndef PTXOPT_ANALYSIS_MEMORY_H
#define PTXOPT_ANALYSIS_MEMORY_H

#include <stdint.h>
#include <stdbool.h>

#include "analysis/ssa.h"
#include "analysis/terms.h"

typedef enum MemSpace {
    SPACE_NONE,               /* not an address (integer data) */
    SPACE_GENERIC,            /* a generic address whose window is not known */
    SPACE_GLOBAL, SPACE_SHARED, SPACE_SHARED_CLUSTER, SPACE_LOCAL, SPACE_CONST, SPACE_PARAM,
    SPACE_OTHER               /* .tex, surfaces, tensor memory, ... */
} MemSpace;

typedef enum BaseKind {
    BASE_NONE,                /* not derived from an object (TOP of the lattice) */
    BASE_PARAM,               /* pointer loaded from kernel/function parameter `index` */
    BASE_VAR,                 /* address of a declared variable (module or function scope) */
    BASE_UNKNOWN              /* several objects, a loaded pointer, or arithmetic on pointers */
} BaseKind;

typedef struct MemBase {
    uint8_t kind;             /* BaseKind */
    uint8_t space;            /* MemSpace the object lives in (GENERIC if unknown) */
    bool generic;             /* the value is a generic address of that space */
    uint32_t index;           /* BASE_PARAM: parameter number */
    Str name;                 /* BASE_PARAM/VAR: the symbol */
} MemBase;

enum { MACC_LOAD = 1, MACC_STORE = 2, MACC_ATOMIC = 4, MACC_NC = 8, MACC_VOLATILE = 16,
       MACC_PREFETCH = 32, MACC_ASYNC = 64,
       MACC_ARG = 128          /* a .param of the function's own header (not a call's argument
                                  or return value declared in the body) */ };

typedef struct MemAccess {
    uint32_t instr;
    uint8_t flags;            /* MACC_* */
    uint8_t space;            /* explicit space, or inferred for generic accesses */
    bool generic;             /* written without a space (inferred) */
    uint32_t bytes;           /* access width (vector included), 0 if unknown */
    int opnd;                 /* the address operand */
    MemBase base;
    const Term *addr;         /* address term (NULL if not modelled) */
} MemAccess;

typedef struct MemInfo {
    uint32_t nacc;
    MemAccess *acc;           /* in instruction order */
    uint32_t *acc_of_instr;   /* [ninstr] index into acc, ANA_NONE */
    MemBase *value_base;      /* [nvalues] what each SSA value points to */
    uint32_t nparams;
    bool *param_readonly;     /* [nparams] treated as const __restrict__ (see memory_alias) */
} MemInfo;

const MemInfo *memory_get(Function *fn);

typedef enum AliasResult { ALIAS_NO, ALIAS_MAY, ALIAS_MUST } AliasResult;
/* May two accesses of one thread touch the same bytes in a way that orders
 * them?  Rules, in order:
 *   - different known state spaces → NO (generic accesses use the inferred space);
 *   - an immutable source (ld.global.nc, ld.const, ld.param of a kernel parameter,
 *     or any access through a read-only parameter) against a write → NO: PTX
 *     requires .nc data to be read-only for the kernel's lifetime;
 *   - a kernel pointer parameter is read-only ("const __restrict__", which
 *     PTX cannot spell) when every access through it is a load and at least
 *     one is ld.global.nc — that is what nvcc emits for const __restrict__;
 *   - distinct variables → NO; a variable against a pointer parameter → MAY;
 *   - same base (or both unknown): the address terms' difference d; constant
 *     and the ranges [0, wa) and [d, d + wb) disjoint → NO; d == 0 and same
 *     width → MUST; otherwise MAY. */
AliasResult memory_alias(Function *fn, uint32_t instr_a, uint32_t instr_b);
const char *mem_space_name(MemSpace s);

#endif
