/* ssa.h — the SSA overlay: values, merges, def-use chains. */
#ifndef PTXOPT_ANALYSIS_SSA_H
#define PTXOPT_ANALYSIS_SSA_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include <stdio.h>

#include "analysis/cfg.h"

/* The function keeps its register form; the overlay gives every write a
 * value number and every read the one value that reaches it, with phi-like
 * merge values at the iterated dominance frontier where a register is live
 * (pruned SSA).  A guarded or partial write is a value whose `prev` is the
 * value it keeps when the guard is false.  Values 0..nvars-1 are the entry
 * values (undefined registers, specials, memory at entry). */
typedef uint32_t SsaValue;

typedef enum SsaKind { SSA_ENTRY, SSA_DEF, SSA_PHI } SsaKind;

typedef struct SsaVal {
    uint8_t kind;             /* SsaKind */
    uint8_t opnd, elem;       /* DEF: where in the instruction */
    bool partial;             /* DEF: keeps `prev` in part / under a false guard */
    uint32_t reg;             /* variable (Reg.id, or nvars-1 for memory) */
    uint32_t block;           /* DEF/PHI: block; ENTRY: ANA_NONE */
    uint32_t instr;           /* DEF: instruction number; else ANA_NONE */
    uint32_t prev;            /* DEF partial: the kept value; else ANA_NONE */
    uint32_t version;         /* per-register version (entry = 0), for printing */
    uint32_t nargs;           /* PHI: one per predecessor, in cfg_preds order; a merge in
                                 block 0 (a first block that is a loop header) has one more,
                                 last, for the function entry */
    uint32_t *args;
} SsaVal;

typedef struct SsaUse {
    uint32_t instr;           /* instruction number */
    uint32_t value;           /* reaching value */
    uint32_t reg;
    uint8_t flags;            /* REF_* of the read (REF_PARTIAL: the implicit read of a partial write) */
    uint8_t opnd, elem;
    char comp;
} SsaUse;

typedef struct Ssa {
    const Cfg *cfg;
    uint32_t nvars;           /* registers + memory */
    uint32_t nvalues;
    SsaVal *v;                /* [nvalues] */
    uint32_t *use_start;      /* [ninstr + 1] into uses */
    SsaUse *uses;
    uint32_t *def_start;      /* [ninstr + 1] into defs */
    uint32_t *defs;           /* values written by each instruction */
    uint32_t *phi_start;      /* [n + 1] into phis */
    uint32_t *phis;           /* merge values of each block, by register number */
    /* def-use chains */
    uint32_t *du_start;       /* [nvalues + 1] */
    uint32_t *du;             /* indices into uses[] that read the value */
    uint32_t *pu_start;       /* [nvalues + 1] */
    uint32_t *pu;             /* phis that take the value as an argument (repeats possible) */
} Ssa;

const Ssa *ssa_get(Function *fn);
/* The value of register r (Reg.id, or nvars-1 for memory) reaching the point just before
 * instruction i (whether or not i reads it).  ENTRY values for specials. */
SsaValue ssa_reaching(const Ssa *s, uint32_t instr, uint32_t reg);
/* The value the read of `r` in statement `st` sees (convenience for passes). */
SsaValue ssa_use_value(Function *fn, const Stmt *st, const Reg *r);
/* The value of r at the end of block b. */
SsaValue ssa_at_block_end(const Ssa *s, uint32_t b, uint32_t reg);
/* Writes "%r10#3" (register name, version) to buf. */
const char *ssa_value_name(const Ssa *s, SsaValue v, char *buf, size_t cap);
/* Our own consistency check: every read is dominated by its value, phis
 * match predecessors.  Returns the number of problems (printed to err). */
int ssa_check(Function *fn, FILE *err);

#endif
