/* clone.h — copy a region of a function's blocks (loop versioning, kernel
 * versioning, the SFU split).
 *
 * PTX registers are not SSA: a copy of a region may use the very same
 * registers as the original, because exactly one of the two copies runs
 * each time control enters the region (the caller branches to one of
 * them).  So cloning shares registers and only renames labels.
 *
 *   ir_clone_blocks(fn, first, last, after, &map, &why)
 *     copies the layout-contiguous blocks first..last and inserts the copies
 *     right after block `after` (in the same order).  In the copy:
 *       - every label of the region gets a fresh name ($px_L<n>);
 *       - a branch to a label of the region goes to the copy's label; a
 *         branch elsewhere is unchanged;
 *       - the copies keep their order, so only the copy of `last` can fall
 *         out of the region: that fall-through becomes an explicit `bra` to
 *         the original successor (which gets a label if it had none);
 *     and `after` itself, when it could fall into what followed it, gets an
 *     explicit `bra` (a `ret` when it falls off the end of the function)
 *     so that inserting the copies there changes nothing.
 *     Such a branch goes at the end of its block, or into a one-instruction
 *     block of its own right after it when the block already ends in a
 *     (guarded) terminator.
 *     The original blocks are unchanged (except a label added to a block
 *     that is the target of a new explicit branch).  Nothing enters the
 *     copy: the caller adds the branch that selects it.
 *   { } scopes (nvcc emits one around every call of a non-inlined
 *   function and around __syncthreads_count/_or) are copied when the
 *   region holds them whole: the registers declared in them get fresh
 *   names in the copy (%pxs<n>_<name>, one new Reg each), .param
 *   declarations keep theirs (another scope).
 *   Returns the copy of `first`, or NULL (and nothing changed) when the
 *   region cannot be copied; *why then says what was in the way:
 *   declarations outside a { } scope (names would be declared twice), a
 *   scope the region opens or closes but does not hold whole, brx.idx and
 *   .branchtargets/.calltargets lists (label tables), or verbatim text the
 *   parser kept as an unknown statement.
 *
 *   ir_clone_possible(fn, first, last, after, &why) answers the same
 *   question without changing anything, so that a caller can decide
 *   everything before it emits anything.
 *
 * The caller calls analysis_invalidate(fn) afterwards. */
#ifndef PTXOPT_IR_CLONE_H
#define PTXOPT_IR_CLONE_H

#include "ir/ir.h"

typedef struct CloneMap {
    uint32_t n;          /* blocks in the region */
    Block **orig;        /* in layout order */
    Block **copy;        /* copy[i] is the copy of orig[i] */
} CloneMap;

Block *ir_clone_blocks(Function *fn, Block *first, Block *last, Block *after,
                       CloneMap *map, const char **why);
bool ir_clone_possible(Function *fn, Block *first, Block *last, Block *after, const char **why);

/* The copy of an original block / statement of the region (NULL if it is
 * not in the region). */
Block *clone_map_block(const CloneMap *map, const Block *orig);
Stmt *clone_map_stmt(const CloneMap *map, const Stmt *orig);

/* True when control can run off the end of b into its layout successor
 * (its last instruction is not an unguarded bra/ret/exit/trap). */
bool ir_block_falls_through(const Block *b);

/* The label of block b, giving it a fresh one first when it has none. */
Str ir_block_label(Block *b);

#endif
