/* opcode.h — classification of every PTX ISA 9.0 instruction.
 *
 * The table lives in ir/opcodes.def (one X-macro line per opcode name, see
 * the comment at its top for provenance).  Passes ask these questions
 * instead of comparing strings.  Modifiers refine the answer where the
 * opcode alone cannot (e.g. the state space of ld comes from .global/.shared
 * and is answered by instr_space() in ir.h). */
#ifndef PTXOPT_OPCODE_H
#define PTXOPT_OPCODE_H

#include <stddef.h>
#include <stdint.h>

/* Classification flags. */
enum {
    OPF_PURE        = 1u << 0,  /* result depends only on operands; no side effect */
    OPF_LOAD        = 1u << 1,  /* reads memory */
    OPF_STORE       = 1u << 2,  /* writes memory */
    OPF_ATOMIC      = 1u << 3,  /* read-modify-write (atom, red, cas) */
    OPF_BRANCH      = 1u << 4,  /* bra, brx.idx */
    OPF_CALL        = 1u << 5,  /* call */
    OPF_RET         = 1u << 6,  /* ret */
    OPF_EXIT        = 1u << 7,  /* exit, trap: the thread leaves */
    OPF_TERMINATOR  = 1u << 8,  /* ends a basic block */
    OPF_BARRIER     = 1u << 9,  /* CTA/cluster/warp barrier (bar, barrier, bar.warp.sync, ...) */
    OPF_COLLECTIVE  = 1u << 10, /* warp-collective: all lanes of a membermask/warp take part */
    OPF_CONVERGENT  = 1u << 11, /* must not be moved into or out of control flow */
    OPF_SIDE_EFFECT = 1u << 12, /* anything observable besides its destination */
    OPF_SFU         = 1u << 13, /* special function unit (sin/cos/ex2/lg2/rcp/rsqrt/sqrt/tanh approx) */
    OPF_TEXTURE     = 1u << 14, /* tex, tld4, txq, ... */
    OPF_SURFACE     = 1u << 15, /* suld, sust, sured, suq */
    OPF_ASYNC       = 1u << 16, /* asynchronous copies / mbarrier / bulk ops */
    OPF_FENCE       = 1u << 17, /* membar, fence */
    OPF_TENSOR      = 1u << 18, /* wmma, mma, wgmma, tcgen05, ldmatrix/stmatrix */
    OPF_FLOAT       = 1u << 19, /* floating-point arithmetic (type from modifiers) */
    OPF_INT         = 1u << 20, /* integer/bit arithmetic */
    OPF_CONVERT     = 1u << 21, /* cvt, cvta, cvt.pack */
    OPF_MOVE        = 1u << 22, /* mov, shfl-free data movement */
    OPF_COMPARE     = 1u << 23, /* setp, set, slct, selp */
    OPF_SPECIAL     = 1u << 24  /* misc control (nanosleep, pmevent, brkpt, trap-like, ...) */
};

typedef enum Opcode {
    OP_UNKNOWN = 0,
#define OPCODE(id, name, flags, ptx, sm) OP_##id,
#include "ir/opcodes.def"
#undef OPCODE
    OP_COUNT
} Opcode;

typedef struct OpcodeInfo {
    const char *name;     /* "ld" */
    uint32_t flags;       /* OPF_* */
    uint16_t min_ptx;     /* first PTX ISA version, major*10+minor (e.g. 62 for 6.2) */
    uint16_t min_sm;      /* lowest sm target, e.g. 70; 0 when any */
} OpcodeInfo;

/* Look up an opcode by its base name (no modifiers), e.g. "shfl". */
Opcode opcode_lookup(const char *name, size_t len);
const OpcodeInfo *opcode_info(Opcode op);
static inline uint32_t opcode_flags(Opcode op) { return opcode_info(op)->flags; }

/* The exact flags of one instruction, refined by its modifiers.
 * full_text is the opcode with its modifiers, e.g. "cp.async.ca.shared.global"
 * or "rcp.approx.ftz.f64" (Instr.full); an optional leading guard "@%p " and
 * anything after the first blank or ';' (the operands) are ignored.  The base
 * flags (opcode_flags) are the union over every instruction sharing the base
 * name; this answers for the one instruction written: "cp.async.wait_all" is
 * ASYNC|FENCE and not LOAD, "ld.volatile" adds SIDE_EFFECT, "bar.warp.sync" is
 * warp-COLLECTIVE, "rcp.rn.f32" is not SFU, "add.s32" is INT not FLOAT.
 * Returns 0 for an unknown opcode. */
uint32_t opcode_flags_full(const char *full_text, size_t len);

#endif
