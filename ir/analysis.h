/* analysis.h — the analyses of one function, computed on demand and cached.
 *
 * Every analysis is reached through a *_get(fn) call that computes it the
 * first time and caches it in fn->analysis; the ones it depends on are
 * computed (and cached) along the way:
 *
 *   cfg_get ─┬─ dom_get, postdom_get (+ dominance frontiers)
 *            ├─ loops_get (natural loops; needs dom)
 *            ├─ refs_get (register reads/writes of every instruction)
 *            ├─ liveness_get (needs refs) ── pressure per register class
 *            └─ ssa_get (needs dom, liveness) ─┬─ ivars_get (needs loops)
 *                                              ├─ vterms_get (symbolic terms of SSA values)
 *                                              ├─ memory_get (spaces, bases, alias)
 *                                              └─ uniform_get (divergence, may-have-exited)
 *
 * Results are read-only for callers.  A pass that changes a function must
 * call analysis_invalidate(fn) before asking again (the old results stay
 * allocated until the module is freed: everything lives in the module
 * arena, so freeing a module is still one call and nothing leaks).  Not
 * thread-safe: one thread per module.
 *
 * Numbering.  Blocks are numbered 0..n-1 in layout order (index 0 is the
 * entry; the number may differ from Block.id if a pass inserted blocks
 * without ir_renumber_blocks); node n is the virtual exit.  Instruction
 * statements (STMT_INSTR) are numbered 0..ninstr-1 in layout order;
 * cfg_instr_index() maps a Stmt back.  Register numbers are Reg.id;
 * analyses that model memory as a value use the extra number fn->nregs
 * ("the memory pseudo-register", printed %mem).
 *
 * Dumps (analysis_dump) and the LLVM cross-check (analysis_verify_llvm) are
 * the two entry points of the ptxopt command line. */
#ifndef PTXOPT_ANALYSIS_H
#define PTXOPT_ANALYSIS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "ir/ir.h"

#define ANA_NONE UINT32_MAX

/* Forget every cached analysis of fn (call after changing it). */
void analysis_invalidate(Function *fn);

/* ==================================================================== CFG */

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

/* Call graph of a module (intra-procedural CFGs have no call edges). */
typedef struct CallSite {
    uint32_t caller;          /* index in m->funcs */
    Stmt *stmt;
    uint32_t callee;          /* index in m->funcs, ANA_NONE: indirect or not defined here */
    Str name;                 /* callee name; empty when indirect */
    bool indirect;            /* call through a register (targets: .calltargets, or unknown) */
} CallSite;

typedef struct CallGraph {
    Module *m;
    uint32_t nfuncs;
    uint32_t nsites;
    CallSite *sites;          /* grouped by caller, in layout order */
    uint32_t *site_start;     /* [nfuncs + 1] */
    uint32_t *callee_start, *callees;  /* distinct direct callees per function (CSR) */
    bool *recursive;          /* [nfuncs] on a cycle of direct calls */
    bool *has_indirect;       /* [nfuncs] makes an indirect call */
} CallGraph;

CallGraph *callgraph_build(Module *m);    /* malloc'ed */
void callgraph_free(CallGraph *cg);

/* ============================================= dominators, post-dominators */

typedef struct DomTree {
    const Cfg *cfg;
    bool post;                /* post-dominators: root is the virtual exit */
    uint32_t root;            /* 0, or cfg->n for post-dominators */
    uint32_t *idom;           /* [n + 1]; ANA_NONE for the root and for nodes not in the tree
                                 (dominators: unreachable blocks and the exit node) */
    uint32_t *child_start, *child;  /* tree children (CSR over n + 1 nodes) */
    uint32_t *pre, *last;     /* preorder number and last preorder number of the subtree */
    uint32_t *depth;
    uint32_t *df_start, *df;  /* dominance frontier; for post-dominators the post-dominance
                                 frontier, i.e. the blocks each node is control dependent on */
    /* Post-dominators only: blocks that cannot reach the exit (infinite
     * loops) get a fake edge to it.  Rule (deterministic): scanning blocks
     * from the last to the first in layout order, a block that does not yet
     * reach the exit gets the fake edge, then everything that reaches it is
     * marked as reaching the exit. */
    uint32_t nfake;
    uint32_t *fake;
} DomTree;

const DomTree *dom_get(Function *fn);
const DomTree *postdom_get(Function *fn);
/* a (post-)dominates b, reflexive; false when either is not in the tree. */
static inline bool dom_dominates(const DomTree *d, uint32_t a, uint32_t b)
{
    if (d->pre[a] == ANA_NONE || d->pre[b] == ANA_NONE) return false;
    return d->pre[a] <= d->pre[b] && d->pre[b] <= d->last[a];
}
/* Nearest common (post-)dominator; ANA_NONE if either is not in the tree. */
uint32_t dom_nca(const DomTree *d, uint32_t a, uint32_t b);
static inline uint32_t dom_ndf(const DomTree *d, uint32_t b) { return d->df_start[b + 1] - d->df_start[b]; }
static inline const uint32_t *dom_dfs(const DomTree *d, uint32_t b) { return d->df + d->df_start[b]; }

/* The algorithm on a bare graph (used by the above and by tests): nodes
 * 0..n-1, successor CSR, root; writes idom[n] (ANA_NONE for the root and
 * unreachable nodes).  Cooper, Harvey & Kennedy, "A Simple, Fast Dominance
 * Algorithm" (2001). */
void dom_compute(uint32_t n, const uint32_t *succ_start, const uint32_t *succ, uint32_t root, uint32_t *idom);

/* ================================================================== loops */

typedef struct Loop {
    uint32_t header;
    uint32_t parent;          /* enclosing loop, ANA_NONE if outermost */
    uint32_t depth;           /* 1 for an outermost loop */
    uint32_t preheader;       /* the only predecessor of the header outside the loop, if its
                                 only successor is the header; else ANA_NONE */
    uint32_t nblocks, *blocks;     /* sorted, header included */
    uint32_t nlatches, *latches;   /* sources of back edges (sorted) */
    uint32_t nexits, *exits;       /* blocks outside with a predecessor inside (sorted;
                                      the virtual exit included when the loop can leave) */
} Loop;

typedef struct LoopInfo {
    const Cfg *cfg;
    uint32_t nloops;
    Loop *loops;              /* outer loops before inner ones; siblings in header layout order */
    uint32_t *innermost;      /* [n] innermost loop of each block, ANA_NONE */
    bool irreducible;         /* a cycle without a dominating header exists (not a loop here) */
} LoopInfo;

const LoopInfo *loops_get(Function *fn);
bool loop_contains(const LoopInfo *li, uint32_t loop, uint32_t block);

/* ============================================ register reads and writes */

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

/* ================================================== liveness and pressure */

/* Pressure classes (what occupies which kind of hardware register). */
typedef enum PressClass {
    PRESS_PRED, PRESS_B16 /* b8, b16, f16 */, PRESS_B32 /* b32, f32, f16x2 */,
    PRESS_B64 /* b64, f64 */, PRESS_B128, PRESS_OTHER, PRESS_N
} PressClass;

typedef struct Liveness {
    const Cfg *cfg;
    uint32_t nvars, words;    /* variables (registers + memory), 64-bit words per set */
    uint64_t *live_in, *live_out;  /* [n * words] registers live at block entry/exit
                                      (specials excluded; %mem included) */
    /* Pressure at every point.  The point before instruction i counts the
     * registers live there; press[i * PRESS_N + c] per class, units[i] in
     * 32-bit register units (b64 = 2, b128 = 4, b8/b16 = 1; vectors scale;
     * predicates are not counted in units).  %mem is never counted. */
    uint16_t *press;          /* [ninstr * PRESS_N] */
    uint32_t *units;          /* [ninstr] */
    uint32_t max_press[PRESS_N];
    uint32_t max_units;
    uint32_t max_units_instr; /* where max_units is reached (ANA_NONE if no instruction) */
} Liveness;

const Liveness *liveness_get(Function *fn);
static inline bool live_bit(const uint64_t *set, uint32_t v) { return (set[v >> 6] >> (v & 63)) & 1; }
static inline bool liveness_in(const Liveness *l, uint32_t b, uint32_t reg) { return live_bit(l->live_in + (size_t)b * l->words, reg); }
static inline bool liveness_out(const Liveness *l, uint32_t b, uint32_t reg) { return live_bit(l->live_out + (size_t)b * l->words, reg); }
/* The set live just before instruction i (set: `words` words). */
void liveness_before(const Liveness *l, const RegRefs *r, uint32_t i, uint64_t *set);
PressClass press_class(const Reg *r);
uint32_t press_units(const Reg *r);

/* ============================================================ SSA overlay */

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

/* ==================================================== induction variables */

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

/* ======================================================== symbolic terms */

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

/* ============================================================ uniformity */

/* Which values and branches may differ between the lanes of a warp, with
 * sync dependence (merges at the joins of a divergent branch) and temporal
 * divergence (values read after a loop lanes leave in different
 * iterations); which blocks only some lanes reach; where lanes may have
 * exited.  The divergence sources and rules are listed in ir/uniform.c. */

typedef struct Uniformity {
    const Ssa *ssa;
    uint8_t *div;             /* [nvalues] 1: may differ between the lanes of a warp */
    uint8_t *branch_div;      /* [n] 1: the terminator may send lanes different ways;
                                 2: it would, but it is .uni (trusted, as PTX requires) */
    uint8_t *join;            /* [n] sync-dependence join: paths of a divergent branch meet */
    uint8_t *partial;         /* [n] may be reached by only some of the lanes that entered the function */
    uint8_t *exited_in;       /* [n] some lanes may have exited/returned before the block starts */
    uint32_t *exit_at;        /* [n] first instruction after which lanes may have left (a guarded
                                 exit/ret with a divergent guard), ANA_NONE */
    uint8_t *loop_div_exit;   /* [nloops] lanes may leave the loop in different iterations */
} Uniformity;

const Uniformity *uniform_get(Function *fn);
static inline bool uniform_value(const Uniformity *u, SsaValue v) { return !u->div[v]; }
/* Is the value that `st` reads from r the same in all lanes? */
bool uniform_use(Function *fn, const Stmt *st, const Reg *r);
/* Some lanes may have exited (exit, or ret from the function) before st runs. */
bool uniform_may_have_exited(Function *fn, const Stmt *st);
/* Every lane that entered the function reaches st together: not inside a
 * divergent region and no lane may have exited. */
bool uniform_converged(Function *fn, const Stmt *st);
/* Is the special register NAME (e.g. "%ntid", no component) the same in
 * every lane of a warp (a launch constant)? */
bool uniform_special(Str name);

/* ================================================================ memory */

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

/* ============================================== command-line entry points */

/* what: cfg|dom|postdom|loops|ssa|liveness|uniform|terms; kernel: a function
 * name or NULL for all; format: text|dot.  Returns 0, or 2 after a message
 * on stderr for an unknown what/format or a kernel that does not exist. */
int analysis_dump(Module *m, const char *what, const char *kernel, const char *format, FILE *out);
/* Mirror every function's CFG and SSA overlay into LLVM IR and run LLVM's
 * verifier; also run ssa_check.  Returns the number of disagreements
 * (reported to err with function and block), or -1 without LLVM. */
int analysis_verify_llvm(Module *m, FILE *err);

#endif
