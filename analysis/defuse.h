/* defuse.h — the register reads and writes of every instruction. */
#ifndef PTXOPT_ANALYSIS_DEFUSE_H
#define PTXOPT_ANALYSIS_DEFUSE_H

#include <stdint.h>
#include <stdbool.h>

#include "analysis/analysis.h"

enum {
    REF_USE     = 1,   /* reads the register */
    REF_DEF     = 2,   /* writes it */
    REF_PARTIAL = 4,   /* DEF that keeps the old value in part or under a false guard
                          (guarded, component or accumulating write): also a use of the old value */
    REF_GUARD   = 8,   /* the guard predicate */
    REF_ADDR    = 16,  /* inside an address operand [...] */
    REF_SPECIAL = 32,  /* a special register (%tid, ...): never written */
    REF_MEM     = 64   /* the memory pseudo-register (loads read it; stores, atomics,
                          calls, barriers and fences write it) */
};

typedef struct RegRef {
    uint32_t reg;             /* Reg.id, or fn->nregs for memory */
    uint8_t flags;            /* REF_* */
    uint8_t opnd;             /* operand index (255: the guard or implicit) */
    uint8_t elem;             /* element within a vector/pair/list/address operand (255: none) */
    char comp;                /* component letter of specials (%tid.x) or vector regs, or 0 */
} RegRef;

typedef struct RegRefs {
    uint32_t nvars;           /* fn->nregs + 1 (memory) */
    uint32_t *start;          /* [ninstr + 1] */
    RegRef *refs;             /* uses (in operand order) then defs, per instruction */
} RegRefs;

const RegRefs *refs_get(Function *fn);
/* The references of one instruction, no caching (what refs_get stores). */
int refs_of_instr(const Function *fn, const Instr *in, RegRef *out, int cap);
/* Does the instruction write memory (then it defines %mem)?  Read it?
 * (flags: opcode_flags_full() of the instruction.) */
bool refs_writes_memory(const Instr *in, uint32_t flags);
bool refs_reads_memory(const Instr *in, uint32_t flags);

#endif
