/* cfg.h — the control-flow graph of a function: blocks, edges, instructions in layout order. */
#ifndef PTXOPT_ANALYSIS_CFG_H
#define PTXOPT_ANALYSIS_CFG_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

#include "analysis/analysis.h"

/* How a block ends. */
typedef enum CfgTerm {
    TERM_FALL,      /* no terminator: falls through (or off the end: to exit) */
    TERM_BRA,       /* bra (guarded: also falls through) */
    TERM_BRX,       /* brx.idx over a .branchtargets list */
    TERM_RET,       /* ret */
    TERM_EXIT,      /* exit */
    TERM_TRAP       /* trap */
} CfgTerm;

enum {
    CFGB_REACHABLE   = 1,  /* reachable from the entry */
    CFGB_GUARDED     = 2,  /* its terminator has a guard (@p / @!p) */
    CFGB_UNI         = 4,  /* its terminator is .uni */
    CFGB_LEAVES      = 8,  /* has an edge to the virtual exit */
    CFGB_BAD_TARGET  = 16  /* a branch target could not be resolved (edge to exit instead) */
};

typedef struct Cfg {
    Function *fn;
    uint32_t n;               /* real blocks; node n is the virtual exit */
    Block **blocks;           /* [n] in layout order */
    /* successors and predecessors (CSR, deduplicated, in a stable order:
     * fallthrough first, then branch targets in operand order).  Node n
     * (exit) has preds (every block that leaves) and no succs. */
    uint32_t *succ_start, *succ;   /* succ_start[n + 2] */
    uint32_t *pred_start, *pred;
    uint8_t *flags;           /* [n + 1] CFGB_* */
    uint8_t *term;            /* [n] CfgTerm */
    uint32_t *term_instr;     /* [n] number of the terminator instruction, ANA_NONE if TERM_FALL */
    uint32_t nrpo;            /* reachable blocks */
    uint32_t *rpo;            /* [nrpo] reverse postorder from the entry */
    uint32_t *rpo_index;      /* [n + 1] position in rpo, ANA_NONE if unreachable */
    /* instructions */
    uint32_t ninstr;
    Stmt **instr;             /* [ninstr] */
    uint32_t *instr_block;    /* [ninstr] */
    uint32_t *block_instr;    /* [n + 1]: block b holds instructions [block_instr[b], block_instr[b+1]) */
    uint32_t *iflags;         /* [ninstr] opcode_flags_full() of each instruction */
    bool bad_target;          /* some branch target was not found */
    void *priv;               /* lookup tables (label → block; Stmt* → number and Block* → index,
                                 built on first use) */
} Cfg;

const Cfg *cfg_get(Function *fn);
static inline uint32_t cfg_nsucc(const Cfg *c, uint32_t b) { return c->succ_start[b + 1] - c->succ_start[b]; }
static inline const uint32_t *cfg_succs(const Cfg *c, uint32_t b) { return c->succ + c->succ_start[b]; }
static inline uint32_t cfg_npred(const Cfg *c, uint32_t b) { return c->pred_start[b + 1] - c->pred_start[b]; }
static inline const uint32_t *cfg_preds(const Cfg *c, uint32_t b) { return c->pred + c->pred_start[b]; }
static inline bool cfg_reachable(const Cfg *c, uint32_t b) { return c->flags[b] & CFGB_REACHABLE; }
uint32_t cfg_block_index(const Cfg *c, const Block *b);     /* ANA_NONE if not in fn */
uint32_t cfg_instr_index(const Cfg *c, const Stmt *s);      /* ANA_NONE if not an instruction of fn */
uint32_t cfg_label_block(const Cfg *c, Str label);          /* ANA_NONE if no such label */
/* Position of `p` among the predecessors of `b` (ANA_NONE if not a pred). */
uint32_t cfg_pred_pos(const Cfg *c, uint32_t b, uint32_t p);
/* Name for messages: the label, or "bb<i>". Written to buf. */
const char *cfg_block_name(const Cfg *c, uint32_t b, char *buf, size_t cap);

#endif
