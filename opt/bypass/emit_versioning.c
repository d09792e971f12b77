/* emit_versioning.c — form (b), kernel versioning (the thesis's proposed
 * but unimplemented fix of §5.6; research seed-002 §2.5, §3.3): the body is
 * copied once, caching warps run the original and bypassing warps branch
 * to the copy, whose eligible loads are the bypass variants:
 *
 *         <header>                         // p = warp < T
 *     @!%p bra $px_L7;
 *         <body: the original, untouched>  // caching warps
 *     $px_L7:
 *         <copy of the body with ld.global.cg ...>
 *
 * Each copy has one load per site, as in the original, so ptxas schedules
 * and unrolls both like the original (the pairs form loses the unrolling,
 * §3.3 table) at twice the code size.  The branch is warp-uniform (the
 * predicate is, partition.c), so no warp diverges on it.
 *
 * Barriers: a CTA barrier written `bar.sync` is `barrier.sync.aligned`,
 * and .aligned promises that every thread of the CTA executes the same
 * barrier instruction (PTX ISA: undefined behaviour otherwise).  Warps in
 * the two copies execute different instructions, so every CTA- or
 * cluster-level barrier of both copies becomes its non-aligned form
 * (bar.sync a -> barrier.sync a, bar.red -> barrier.red,
 * barrier.*.aligned -> barrier.*), which PTX defines for threads that
 * reach it from different instructions.  Warp-level operations
 * (shfl.sync, bar.warp.sync, votes) are unaffected: a warp is never split.
 *
 * The copy is made with ir/clone.h (labels renamed, registers shared; the
 * registers of { } scopes, around calls and __syncthreads_count, renamed).
 * A body that cannot be copied (declarations outside a scope, brx.idx
 * tables, verbatim text) is refused with clone's reason. */
#include <string.h>

#include "ir/clone.h"
#include "opt/bypass/internal.h"

/* bar.* (but bar.warp.*) and barrier.*: the non-aligned form. */
static void unalign_barrier(Module *m, Stmt *s)
{
    Instr *in = &s->u.instr;
    if (!str_eqc(in->opname, "bar") && !str_eqc(in->opname, "barrier")) return;
    if (str_starts(in->full, "bar.warp")) return;
    char buf[128];
    size_t k = strlen(strcpy(buf, "barrier"));
    size_t i = in->opname.len;
    while (i < in->full.len) {
        size_t j = i + 1;
        while (j < in->full.len && in->full.p[j] != '.') j++;
        Str mod = { in->full.p + i, j - i };
        if (!str_eqc(mod, ".aligned") && k + mod.len < sizeof buf) {
            memcpy(buf + k, mod.p, mod.len);
            k += mod.len;
        }
        i = j;
    }
    buf[k] = 0;
    if (k == in->full.len && memcmp(buf, in->full.p, k) == 0) return;
    ir_set_full(m, in, buf);
    ir_touch(s);
}

bool byp_emit_versioning(Function *fn, Anchor *a, Site *s, int n, Reg *pred, const char **why)
{
    Module *m = fn->mod;
    Block *first = a->b->next, *last = fn->last;
    *why = NULL;
    if (!first) {
        *why = "the function has no body after its declarations";
        return false;
    }
    /* falling off the end of the body would now fall into the copy */
    Stmt *ret = NULL;
    if (ir_block_falls_through(last)) {
        ret = ir_new_instr(fn, "ret", 0);
        ir_append(last, ret);
    }
    CloneMap map;
    Block *copy = ir_clone_blocks(fn, first, last, last, &map, why);
    if (!copy) {
        if (ret) ir_remove(ret);
        return false;
    }
    for (int i = 0; i < n; i++) {
        if (s[i].skip) continue;
        Stmt *c = clone_map_stmt(&map, s[i].st);
        if (!c) continue;
        ir_set_full(m, &c->u.instr, byp_bypass_full(m, &c->u.instr, s[i].op));
        ir_touch(c);
    }
    /* after the statements are mapped (clone_map_stmt goes by position; a
     * label given to the copy's first block shifts it) */
    Str label = ir_block_label(copy);
    Operand target = ir_op_sym(m, label, 0);
    Stmt *bra = byp_instr(fn, "bra", 1, &target);
    bra->u.instr.guard = pred;
    bra->u.instr.guard_neg = true;
    byp_put(a, bra);
    for (uint32_t i = 0; i < map.n; i++) {
        FOR_EACH_STMT(st, map.orig[i])
            if (st->kind == STMT_INSTR && (opcode_flags(st->u.instr.op) & OPF_BARRIER)) unalign_barrier(m, st);
        FOR_EACH_STMT(st, map.copy[i])
            if (st->kind == STMT_INSTR && (opcode_flags(st->u.instr.op) & OPF_BARRIER)) unalign_barrier(m, st);
    }
    return true;
}
