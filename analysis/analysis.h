/* analysis.h — the analyses of one function, computed on demand and cached:
 * the public face of analysis/ (the IR is ir/, what a pass edits; an
 * analysis is what a pass asks).  One header per analysis:
 *
 *   cfg.h  dom.h  loops.h  callgraph.h  defuse.h  liveness.h  ssa.h
 *   ivars.h  terms.h  z3bridge.h (proofs)  value_terms.h  uniform.h  memory.h
 *   dump.h  llvm_mirror.h (the ptxopt command line's --dump and --verify-ir)
 *
 * A pass includes the headers of the analyses it asks; each includes this one.
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

#endif
